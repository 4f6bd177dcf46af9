"""The odds of a whole party (undercroft.sim.odds.simulate_party): every living character strikes, the monsters
strike whom the data's targeting picks; much better than any one character alone, the same as before for a lone
delver, and in agreement with the engine playing the fight with its own seeded dice."""

from __future__ import annotations

import dataclasses
import math
import time

import pytest

from undercroft.content import Content
from undercroft.rules.actions import Attack, Fight
from undercroft.rules.game import Game
from undercroft.rules.types import Mode
from undercroft.sim import exact
from undercroft.sim.odds import (
    FIGHTS,
    PARTY,
    PartyStart,
    attack_target,
    clear_cache,
    fight_odds,
    matchup_spec,
    party_start,
    simulate_party,
    someone_falls,
    start_odds,
    starts,
)
from undercroft.sim.spec import MAX_ROUNDS

SIGMAS = 3.0
ENGINE_FIGHTS = 400


def targeting(content: Content, how: str) -> Content:
    """The data with another ``combat.monster_targeting``."""
    combat = content.rules.combat.model_copy(update={"monster_targeting": how})
    return dataclasses.replace(content, rules=content.rules.model_copy(update={"combat": combat}))


def meet(content: Content, ruleset: str, monster: str, count: int, seed: int = 1) -> Game:
    """A new game of ``ruleset`` facing ``count`` ``monster`` (met before: no surprise, no free round)."""
    game = Game(content, ruleset, seed)
    g = game.add_group(monster, count)
    game.start_encounter(g, meeting=False)
    assert game.state.mode == Mode.ENCOUNTER
    return game


def play(game: Game) -> str:
    """Fight to the end (see :func:`fight`): "win", or the mode the fight ended in."""
    return fight(game)[0]


def fight(game: Game) -> tuple[str, bool]:
    """Fight to the end through Game.step with the game's own dice, striking the weakest living creature; and
    whether someone of the party fell in it."""
    st = game.state
    g = st.front_group()
    assert g is not None
    assert game.step(Fight())[0].type != "refused"
    for _ in range(MAX_ROUNDS):
        if st.mode != Mode.COMBAT:
            break
        assert game.step(Attack(attack_target(g)))[0].type != "refused"
    fell = any(not m.alive for m in st.party)
    return ("win" if st.mode not in (Mode.COMBAT, Mode.DEAD) else str(st.mode)), fell


def test_a_party_of_four_fares_much_better_than_the_warrior_alone(content: Content) -> None:
    game = meet(content, "citadel", "gaoler", 3)
    odds = fight_odds(content, game)
    alone = [start_odds(s) for s in starts(content, game)]
    assert odds is not None and odds.character == PARTY and not odds.exact
    assert odds.method == f"simulated, {FIGHTS} fights; the whole party of 4"
    warrior = alone[0]
    assert warrior.character == "warrior" and warrior.win < 0.05  # three gaolers kill a lone warrior
    assert odds.win > 0.5 and odds.win > max(a.win for a in alone) + 0.4
    assert odds.death < warrior.death


def test_a_lone_delver_keeps_the_exact_odds(content: Content) -> None:
    game = meet(content, "warden", "gaoler", 1)
    odds = fight_odds(content, game)
    e = exact(matchup_spec(content, "gaoler", ruleset="warden"))
    assert odds is not None and odds.exact and odds.character == "delver"
    # (the odds read the fight's table, worked out backwards from every state at once: the forward calculation
    # to within the two computations' rounding and cut-off)
    assert (odds.win, odds.death, odds.hp_lost_mean) == pytest.approx((e.win, e.death, e.hp_lost_mean), abs=1e-9)


@pytest.mark.parametrize(("monster", "count"), [("gaoler", 1), ("sump_leeches", 3), ("ossuary_knot", 2)])
def test_the_party_simulation_of_one_character_is_the_lone_fight(content: Content, monster: str, count: int) -> None:
    """simulate_party with a party of one agrees with the exact one-character calculation (within noise)."""
    spec = matchup_spec(content, monster, count=count)
    e = exact(spec, groups=count > 1)
    n = 40_000
    start = PartyStart((spec,), (spec.monster_hp,) * count, spec.delver_first, 0, False, "lowest_hp")
    win, death, lost, _ = simulate_party(start, n, 7)
    assert abs(win - e.win) <= SIGMAS * math.sqrt(max(e.win * (1 - e.win), 1e-9) / n)
    assert abs(death - e.death) <= SIGMAS * math.sqrt(max(e.death * (1 - e.death), 1e-9) / n)
    assert abs(lost - e.hp_lost_mean) <= 0.1


def test_someone_falls_more_often_than_the_whole_party(content: Content) -> None:
    """A party of four against three ogres mostly wins, but often loses someone on the way; a lone delver's
    "someone falls" is its death."""
    game = meet(content, "citadel", "ogre", 3)
    odds, falls = fight_odds(content, game), someone_falls(content, game)
    assert odds is not None and falls is not None
    assert falls > odds.death + 0.1 and falls <= 1.0
    assert someone_falls(content, game) == falls  # the same state, the same number
    lone = meet(content, "warden", "gaoler", 1)
    alone = fight_odds(content, lone)
    assert alone is not None and someone_falls(content, lone) == alone.death


def test_the_odds_are_deterministic_and_fast(content: Content) -> None:
    game = meet(content, "citadel", "ogre", 3)
    clear_cache()
    t0 = time.perf_counter()
    odds = fight_odds(content, game)
    elapsed = time.perf_counter() - t0
    clear_cache()
    assert fight_odds(content, game) == odds
    assert elapsed < 0.1, f"{elapsed * 1e3:.1f} ms"  # about 10 ms; generous for a loaded machine


def test_the_odds_follow_the_whole_party(content: Content) -> None:
    game = meet(content, "citadel", "ogre", 3)
    full = fight_odds(content, game)
    for m in game.state.party[2:]:
        m.hp = 0
    two = fight_odds(content, game)
    assert full is not None and two is not None and two.win < full.win
    ps = party_start(content, game)
    assert ps is not None and len(ps.specs) == 2


@pytest.mark.slow
@pytest.mark.parametrize(
    ("ruleset", "monster", "count", "how"),
    [
        ("citadel", "ogre", 3, "lowest_hp"),
        ("crawler", "orc", 3, "lowest_hp"),
        ("citadel", "gaoler", 3, "first"),
        ("crawler", "hobgoblin", 3, "random"),
    ],
)
def test_the_odds_match_the_engine(content: Content, ruleset: str, monster: str, count: int, how: str) -> None:
    """ENGINE_FIGHTS fights played through Game.step, each game with its own seed and its own dice, win as often
    as the odds say (within SIGMAS standard errors of both samples)."""
    data = targeting(content, how)
    odds = fight_odds(data, meet(data, ruleset, monster, count))
    assert odds is not None and odds.character == PARTY
    falls = someone_falls(data, meet(data, ruleset, monster, count))
    assert falls is not None and odds.death <= falls <= 1.0
    outcomes = []
    fell = 0
    for seed in range(ENGINE_FIGHTS):
        game = meet(data, ruleset, monster, count, seed)
        assert fight_odds(data, game) == odds  # the same fight, whatever the seed
        outcome, down = fight(game)
        outcomes.append(outcome)
        fell += down
    for what, p, seen in (("win", odds.win, outcomes.count("win")), ("someone falls", falls, fell)):
        se = math.sqrt(max(p * (1 - p), 1e-6) * (1 / ENGINE_FIGHTS + 1 / FIGHTS))
        got = seen / ENGINE_FIGHTS
        assert abs(got - p) <= SIGMAS * se, f"{what}: odds {p:.3f}, engine {got:.3f} (se {se:.3f})"
