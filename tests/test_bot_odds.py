"""The bot decides on the fight odds the panels show (undercroft.sim.odds.fight_odds), asked only where a decision
turns on them, and chooses the way through a meeting of greatest value, a tie (to 6 places) going to the way it
prefers."""

from __future__ import annotations

import pytest

from undercroft.bot import Bot, meeting, policy
from undercroft.bot.meeting import best
from undercroft.content import Content
from undercroft.rules.actions import Action
from undercroft.rules.game import Game
from undercroft.rules.types import Mode
from undercroft.sim.odds import fight_odds
from undercroft.tools.autoplay import play_game


def test_the_best_way_is_the_greatest_a_tie_to_six_places_the_preferred() -> None:
    assert best({"fight": 0.6, "run": 0.7}) == "run"
    # a win the rounding calls a tie with running (0.7 against 0.7000004): the preference decides (fight)
    assert best({"fight": 0.7000004, "run": 0.7}) == "fight"
    assert best({"fight": 0.6999996, "run": 0.7}) == "fight"
    assert best({"fight": 0.699999, "run": 0.7}) == "run"
    # near a sure win every way is worth about 1: terms before a fight, a fight before a bribe or a run
    assert best({"fight": 0.9999999, "talk": 0.99999996, "bribe": 1.0}) == "talk"
    assert best({"fight": 1.0, "bribe": 1.0, "run": 1.0}) == "fight"


def test_a_fight_asks_the_odds_only_where_a_decision_turns_on_them(
    content: Content, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fight asks the odds only to decide whether to leave it or to burn oil: in the citadel (no running, no oil)
    never; in undercroft (both) it does."""
    asked: dict[str, list[bool]] = {}  # per ruleset, per combat decision: whether it asked for the odds
    combat = Bot._combat
    real = meeting.fight_win

    def counting(self: Bot) -> list[Action]:
        calls: list[float] = []

        def win(game: Game) -> float:
            calls.append(real(game))
            return calls[-1]

        with monkeypatch.context() as m:
            m.setattr(policy, "fight_win", win)
            out = combat(self)
        asked.setdefault(self.game.ruleset_id, []).append(bool(calls))
        return out

    with monkeypatch.context() as m:
        m.setattr(Bot, "_combat", counting)
        for ruleset, seed in (("citadel", 31), ("citadel", 32), ("undercroft", 33)):
            play_game(content, ruleset, seed, max_actions=700)  # (enough meetings, within the fast loop)
    assert asked["citadel"] and not any(asked["citadel"])
    assert any(asked["undercroft"])


def test_the_odds_it_decides_on_are_the_panels(content: Content, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every win the bot decides on in a meeting is the encounter panel's, of the state it decides in."""
    seen: list[tuple[float, float]] = []
    real = meeting.fight_win

    def checking(game: Game) -> float:
        win = real(game)
        odds = fight_odds(game.content, game)
        seen.append((win, 0.0 if odds is None else odds.win))
        assert game.state.mode in (Mode.ENCOUNTER, Mode.COMBAT, Mode.CHASE)
        return win

    monkeypatch.setattr(policy, "fight_win", checking)
    for ruleset, seed in (("undercroft", 5), ("crawler", 6), ("citadel", 7)):
        play_game(content, ruleset, seed, max_actions=700)  # (enough meetings, within the fast loop)
    assert len(seen) > 30 and all(a == b for a, b in seen)
