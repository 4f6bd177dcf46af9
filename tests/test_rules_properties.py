"""Properties of whole games, read from the events alone: autoplayed games of every ruleset, checked against
clauses of the texts that a single scripted test cannot cover in every situation they arise in."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import pytest
from engine_helpers import content

from undercroft.autoplay import game_seed
from undercroft.bot import Bot
from undercroft.rules.events import Event
from undercroft.rules.game import Game

RULESETS = ("undercroft", "warden", "citadel", "crawler")
GAMES = 6
MAX_ACTIONS = 1500


@dataclass
class Played:
    ruleset: str
    seed: int
    steps: list[list[Event]] = field(default_factory=list)


@cache
def played(ruleset: str) -> tuple[Played, ...]:
    out = []
    for i in range(GAMES):
        seed = game_seed(2026, i)
        game = Game(content(), ruleset, seed)
        bot = Bot(game, seed)
        p = Played(ruleset, seed)
        refusals = 0
        while not game.over and game.state.turn < MAX_ACTIONS and refusals < 20 and bot.stuck < 30:
            action = bot.choose()
            events = game.step(action)
            if len(events) == 1 and events[0].type == "refused":
                bot.refused(action)
                refusals += 1
                continue
            refusals = 0
            p.steps.append(events)
        out.append(p)
    return tuple(out)


def where(p: Played, turn: int) -> str:
    return f"{p.ruleset} seed {p.seed}, turn {turn + 1}"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_one_acts_in_a_round_where_both_sides_are_surprised(ruleset: str) -> None:
    """003: both surprised, "neither side moves nor fights that round"."""
    seen = 0
    for p in played(ruleset):
        for turn, events in enumerate(p.steps):
            kinds = [e.type for e in events]
            for i, e in enumerate(events):
                if e.type == "surprise" and e["party"] and e["monster"] and "bypass" not in kinds:
                    seen += 1
                    rest = kinds[i + 1 :]
                    lost = rest.index("round_lost") if "round_lost" in rest else len(rest)
                    acted = {"attacks", "combat", "attack", "initiative"} & set(rest[:lost])
                    assert "round_lost" in rest and not acted, f"{where(p, turn)}: {kinds}"
    if ruleset in ("warden", "citadel"):
        assert seen == 0, "these rules have no surprise"
    else:
        assert seen > 0, "the games met no double surprise: the property was not tried"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_walk_into_a_segment_runs_its_entry_procedure(ruleset: str) -> None:
    """000: entering a segment means the monster check, unless a monster is there already (then it is met).
    A submerged monster lying hidden in a segment (met there, or found there by its monster check) is there
    already: entering that segment again meets nothing and rolls no check."""
    entries = checked = 0
    for p in played(ruleset):
        lurking: dict[int, int] = {}  # segment -> a hidden group there
        last_enter = -1
        for turn, events in enumerate(p.steps):
            for i, e in enumerate(events):
                if e.type == "hidden":  # it lies in the segment entered last
                    lurking[last_enter] = e["group"]
                if e.type != "enter":
                    continue
                last_enter = e["segment"]
                entries += 1
                after = events[i + 1 :]
                nxt = after[0] if after else None
                met = nxt is not None and nxt.type in ("encounter", "peaceful", "hidden")
                rolled = nxt is not None and nxt.type == "roll" and nxt["purpose"] == "monster_check"
                assert met or rolled or e["segment"] in lurking, f"{where(p, turn)}: {[x.type for x in events]}"
                checked += rolled
            for e in events:
                if e.type == "reveal":
                    lurking = {s: g for s, g in lurking.items() if g != e["group"]}
    assert entries > 50 and checked > 20, (entries, checked)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_running_follows_the_rulesets_texts(ruleset: str) -> None:
    """000 (citadel): no running away; 001 (warden): nothing follows; 003: evasion by speed only before a fight."""
    runs = 0
    for p in played(ruleset):
        fighting: set[int] = set()  # groups the party has fought in their current meeting
        for turn, events in enumerate(p.steps):
            for e in events:
                if e.type == "encounter":
                    fighting.discard(e["group"])
                elif e.type == "combat":
                    fighting.add(e["group"])
                elif e.type in ("leave", "evade", "pursuit"):
                    runs += 1
                    assert ruleset != "citadel", f"{where(p, turn)}: a run in the citadel"
                    assert not (e.type == "pursuit" and ruleset == "warden"), f"{where(p, turn)}: a pursuit"
                    if e.type == "evade" and e["reason"] == "faster":
                        assert e["group"] not in fighting, f"{where(p, turn)}: evaded by speed mid-fight"
    if ruleset != "citadel":
        assert runs > 0, "the games had no run: the property was not tried"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_bribe_after_terms_were_made(ruleset: str) -> None:
    """000 8.7: a bribe only "if negotiation fails"."""
    for p in played(ruleset):
        terms: set[int] = set()
        for turn, events in enumerate(p.steps):
            for e in events:
                if e.type == "negotiate" and e["result"] != "failure":
                    terms.add(e["group"])
                if e.type == "bribe":
                    assert e["group"] not in terms, f"{where(p, turn)}: a bribe after terms were made"
