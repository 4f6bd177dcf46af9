"""The bot's combat decisions compare the fight odds with thresholds; it computes the odds only as far as a
decision needs (undercroft.sim.odds.win_bounds, bot._WinOdds). The bounds hold, end on the bot's very number (the
panels' to within 1e-9: one creature's is read from a table), and the games are the games played on the whole
numbers, and on the panels' numbers."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path

import pytest
from bot_helpers import played

from undercroft import bot as bot_module
from undercroft.bot import CAUGHT, FIGHT_ODDS, LEAVE_MARGIN, Bot, _has, _WinOdds, play_game
from undercroft.content import Content, load_content
from undercroft.rules.actions import Action, Attack, Drink, Run, ThrowOil
from undercroft.rules.game import Game
from undercroft.rules.types import Mode
from undercroft.sim import odds as odds_module
from undercroft.sim.odds import clear_cache, fight_odds, win_bounds, win_chance


@pytest.fixture(scope="module")
def content(shipped_data: Path) -> Content:
    return load_content(shipped_data)


class WholeOddsBot(Bot):
    """_combat as it was: the whole fight odds, computed at the first decision that turns on them."""

    def _combat(self) -> list[Action]:
        game = self.game
        g = self._group()
        if g is None:
            return []
        out: list[Action] = []
        low = self._hurt(0.4)
        known: list[float] = []

        def odds() -> float:
            if not known:
                known.append(win_chance(game.content, game))
            return known[0]

        if low is not None and _has(game, "potion"):
            out.append(Drink(low))
        fled = self._fled.get(g.id, 0)
        if (self._forced and fled >= bot_module.FLEES_ON_THE_WAY) or fled >= bot_module.MAX_FLEES:
            self._committed.add(g.id)
        committed = g.id in self._committed
        tired = game.tired()
        can_run = self.legal(Run())
        if not committed and can_run and not tired and odds() < FIGHT_ODDS:
            escape = self._escape_chance(g)
            if escape + (1 - escape) * odds() * CAUGHT > odds() + LEAVE_MARGIN:
                self._flee(g)
                out.append(self._run())
        target = self._weakest()
        if _has(game, "oil") and odds() < 0.6:
            out.append(ThrowOil(target))
        out.append(Attack(target))
        return out


def played_with(
    content: Content, ruleset: str, seed: int, monkeypatch: pytest.MonkeyPatch, *patches: tuple[object, str, object]
) -> tuple[str, str]:
    """One whole game (bot_helpers.played) from empty odds caches, with ``patches`` (target, name, value) made."""
    clear_cache()
    with monkeypatch.context() as m:
        for target, name, value in patches:
            m.setattr(target, name, value)
        return played(content, ruleset, seed, monkeypatch)


@pytest.mark.parametrize(("ruleset", "seed"), [("undercroft", 2), ("crawler", 3), ("warden", 4), ("warden", 9)])
def test_combat_on_bounds_is_combat_on_the_whole_odds(
    content: Content, ruleset: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = played_with(content, ruleset, seed, monkeypatch)
    assert fast == played_with(content, ruleset, seed, monkeypatch, (bot_module, "Bot", WholeOddsBot))


def _panels_win(content: Content, game: Game) -> float:
    odds = fight_odds(content, game)
    return 0.0 if odds is None else odds.win


@pytest.mark.parametrize(("ruleset", "seed"), [("undercroft", 12), ("citadel", 13), ("warden", 14)])
def test_the_bots_games_are_the_games_played_on_the_panels_odds(
    content: Content, ruleset: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One creature's win read from its table (undercroft.sim.wintable) changes no decision: the same games as on
    the forward computation the panels show."""
    fast = played_with(content, ruleset, seed, monkeypatch)
    assert fast == played_with(
        content,
        ruleset,
        seed,
        monkeypatch,
        (odds_module, "_table_win", lambda start: odds_module.start_odds(start).win),
    )


def test_the_bounds_hold_and_end_on_the_bots_number(content: Content, monkeypatch: pytest.MonkeyPatch) -> None:
    checked = 0
    combat = Bot._combat

    def checking(self: Bot) -> list[Action]:
        nonlocal checked
        game = self.game
        if game.state.mode == Mode.COMBAT and checked < 150:
            clear_cache()
            want = win_chance(game.content, game)
            assert want == pytest.approx(_panels_win(game.content, game), abs=1e-9)
            clear_cache()
            steps = list(win_bounds(game.content, game))
            assert steps[-1] == (want, want, True)
            assert all(not final for _, _, final in steps[:-1])
            for lo, hi, _ in steps:  # (a party's from its tables' rounds so far: the same sums, within a rounding)
                assert lo - 1e-14 <= want <= hi + 1e-14
            for a, b in itertools.pairwise(steps):  # narrower and narrower
                assert a[0] <= b[0] + 1e-14 and b[1] <= a[1] + 1e-9
            # every threshold decided on the bounds is the one the whole number gives
            for t in (0.05, 0.3, 0.6, FIGHT_ODDS, 0.95, want):
                assert _WinOdds(game).below(t) == (want < t)
            for escape in (0.0, 0.2, 0.5, 0.9, 1.0):
                whole = escape + (1 - escape) * want * CAUGHT > want + LEAVE_MARGIN
                assert _WinOdds(game).leave(escape) == whole
            checked += 1
        return combat(self)

    with monkeypatch.context() as m:
        m.setattr(Bot, "_combat", checking)
        for ruleset, seed in (("undercroft", 5), ("crawler", 6), ("warden", 7)):
            play_game(content, ruleset, seed)
    assert checked > 30


class WholeMeetingOdds(_WinOdds):
    """_WinOdds that decides a meeting only on the whole number: every question runs the odds to the end."""

    def best(self, ways: dict[str, Callable[[float], float]], lines: list[Callable[[float], float]]) -> str:
        while not self.final:
            self._refine()
        return super().best(ways, lines)

    def below(self, threshold: float) -> bool:
        while not self.final:
            self._refine()
        return super().below(threshold)


@pytest.mark.parametrize(("ruleset", "seed"), [("citadel", 21), ("citadel", 22), ("crawler", 23), ("undercroft", 24)])
def test_meetings_on_bounds_are_meetings_on_the_whole_odds(
    content: Content, ruleset: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A meeting's choice taken on the bounds of a simulated win (the citadel's party of four) is the one the whole
    number gives: the same games."""
    early = [0, 0, 0]  # choices taken, of them on bounds (before the whole number), of them on no odds at all
    best, refine = _WinOdds.best, _WinOdds._refine
    refined: set[int] = set()  # the _WinOdds that computed something

    def counting(
        self: _WinOdds, ways: dict[str, Callable[[float], float]], lines: list[Callable[[float], float]]
    ) -> str:
        got = best(self, ways, lines)
        early[0] += 1
        early[1] += not self.final
        early[2] += id(self) not in refined
        return got

    def noting(self: _WinOdds) -> None:
        refined.add(id(self))
        refine(self)

    fast = played_with(content, ruleset, seed, monkeypatch, (_WinOdds, "best", counting), (_WinOdds, "_refine", noting))
    assert fast == played_with(content, ruleset, seed, monkeypatch, (bot_module, "_WinOdds", WholeMeetingOdds))
    assert early[0] > 0 and (ruleset != "citadel" or early[1] > 0), early
    # (a choice the odds cannot change, such as a talk against a fight, is taken before any odds are computed)
    assert ruleset != "citadel" or early[2] > 0, early


def test_the_best_way_is_taken_on_the_bounds_only_when_no_win_within_them_changes_it() -> None:
    """_WinOdds.best decides early only when one way beats every other over all the bounds, the point where two of
    the later lines cross (inside them) included; else it asks for narrower bounds."""

    class Fixed(_WinOdds):
        """Odds whose bounds are ``bounds`` in turn, the first already taken (``first``; else nothing is known yet:
        0 to 1); ``asked`` counts the bounds asked for after that."""

        def __init__(self, bounds: list[tuple[float, float, bool]], first: bool = True) -> None:
            self.steps, self.lo, self.hi, self.final = iter(bounds), 0.0, 1.0, False
            if first:
                super()._refine()
            self.asked = 0

        def _refine(self) -> None:
            self.asked += 1
            super()._refine()

    def fight(o: float) -> float:
        return o

    def run(o: float) -> float:  # a sure escape, less what running costs
        return 0.7

    def talk(o: float) -> float:  # a 10% talk, else the best of fighting and running a round later
        return 0.1 + 0.9 * max(fight(o), run(o))

    ways: dict[str, Callable[[float], float]] = {"fight": fight, "run": run, "talk": talk}
    # over 0.5..0.9 the talk beats both everywhere, though fight and run cross at 0.7 inside the bounds
    odds = Fixed([(0.5, 0.9, False), (0.6, 0.6, True)])
    assert odds.best(ways, [fight, run]) == "talk" and odds.asked == 0

    # a bribe (a line) loses to the talk at both bounds but beats it where fighting and running cross (0.7): the
    # bounds do not decide; the whole number does (0.6: the talk)
    def bribe(o: float) -> float:
        return 0.45 + 0.43 * o

    odds = Fixed([(0.5, 0.9, False), (0.6, 0.6, True)])
    assert odds.best({**ways, "bribe": bribe}, [fight, run]) == "talk" and odds.asked == 1
    # without the talk: run wins at 0.5, fight at 0.9: undecided until the whole number (0.6: run)
    odds = Fixed([(0.5, 0.9, False), (0.6, 0.6, True)])
    assert odds.best({"fight": fight, "run": run}, [fight, run]) == "run" and odds.asked == 1

    # near a sure win a 60% talk and a 40% distraction are a tie once rounded, and the talk is preferred on a tie:
    # it is taken on the bounds (it is never below the distraction); a 40% talk against a 60% distraction is not
    def then(p: float) -> Callable[[float], float]:
        return lambda o: p + (1 - p) * fight(o)

    odds = Fixed([(0.9999990, 0.9999999, False), (0.9999995, 0.9999995, True)])
    assert odds.best({"talk": then(0.6), "distract_food": then(0.4), "fight": fight}, [fight]) == "talk"
    assert odds.asked == 0
    odds = Fixed([(0.9999990, 0.9999999, False), (0.9999995, 0.9999995, True)])
    assert odds.best({"talk": then(0.4), "distract_food": then(0.6), "fight": fight}, [fight]) == "talk"
    assert odds.asked == 1  # (a tie once rounded, at the whole number: the talk)
    # a win the rounding calls a tie with running (0.7 against 0.7000004): the preference decides (fight)
    odds = Fixed([(0.69, 0.71, False), (0.7000004, 0.7000004, True)])
    assert odds.best({"fight": fight, "run": run}, [fight, run]) == "fight" and odds.asked == 1
    # before any odds are computed the win may be anything from 0 to 1: a talk (preferred on a tie, never below the
    # others) is taken at once; a fight against a run is not
    odds = Fixed([(0.5, 0.9, False), (0.6, 0.6, True)], first=False)
    assert odds.best(ways, [fight, run]) == "talk" and odds.asked == 0
    assert odds.best({"fight": fight, "run": run}, [fight, run]) == "run" and odds.asked == 2
