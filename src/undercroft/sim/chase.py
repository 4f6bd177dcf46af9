"""The odds of running, played out on the map (003 evasion and pursuit; :mod:`undercroft.rules.chase.moves`).

A chase on the map is deterministic once the pursuit roll has been made: both sides run their speeds along the
map, and sight decides (the dice a chase can still ask for are the lures' and the fire's, which a plain run never
meets). So the odds of a Run are exact, from one rollout: the game is forked (:meth:`Game.fork`: a copy of the
state, its own dice, never the game's streams), the Run is taken with a pursuit roll that says yes, and the chase
is run on until it ends (the fork's steps stop there: :attr:`Game.chase_only`). The chance of getting away is then
the chance it does not follow, plus, if the chase so played ends without a fight, the chance it does. The screens,
the recap and the bots all read :func:`run_odds`.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from undercroft.rules import events as ev
from undercroft.rules.actions import Pursue, Run
from undercroft.rules.events import Event
from undercroft.rules.game import Game
from undercroft.rules.types import Mode
from undercroft.rules.view import View

#: More Runs than any chase lasts (the data bound ``encounter.pursuit_max_rounds`` at 60): a loop guard.
MAX_RUNS = 200


class _Yes:
    """Every die shows 1: the pursuit roll says it follows (where it can), and nothing else is read."""

    def die(self, sides: int) -> int:
        return 1


@dataclass(frozen=True)
class RunOdds:
    """What running through a door comes to, before any die is rolled.

    ``away``: the chance the party gets away without a fight; ``follows``: the chance the monster comes after it
    (0 where it cannot: it does not pursue, the party is faster before a fight, it never saw the party);
    ``caught``: the round of the chase in which it catches the party if it follows (0: it never does: it loses
    sight of the party, gives up, or only wants company); ``why``: how a chase that is not caught ends
    (``out_of_sight``, ``gave_up``, ``friendly``), or how the party gets away with no chase (``faster``,
    ``no_pursuit``, ``out_of_sight``, ``stays``)."""

    away: float
    follows: float
    caught: int = 0
    why: str = ""


#: The last odds asked of each game, by what they depend on: the state moves only by a step (which counts a turn),
#: and the panels ask every frame (a rollout is 0.5-5 ms).
_LAST: weakref.WeakKeyDictionary[Game, tuple[tuple[int, int, str], dict[tuple[int, bool], RunOdds | None]]] = (
    weakref.WeakKeyDictionary()
)


def run_odds(game: Game, door: int = -1, *, later: bool = False) -> RunOdds | None:
    """The odds of ``Run(door)`` now (in a meeting, a fight or a chase), or None where running is refused;
    ``later``: a round from now, when a monster caught unaware in the first round has seen the party. The chase is
    played on the level as the player knows it (:class:`~undercroft.rules.view.View`): a group it does not know of
    is not in the rollout, so the odds tell nothing the screens have not shown."""
    st = game.state
    if later and (st.encounter is None or not st.encounter.first_round):
        later = False  # (past the first round a round from now is as now: one rollout, not two)
    stamp = (st.turn, st.depth, st.mode.value)
    last = _LAST.get(game)
    if last is None or last[0] != stamp:
        last = _LAST[game] = (stamp, {})
    memo = last[1]
    if (door, later) not in memo:
        memo[(door, later)] = _run_odds(game, door, later)
    return memo[(door, later)]


def _run_odds(game: Game, door: int, later: bool) -> RunOdds | None:
    if game.mode not in (Mode.ENCOUNTER, Mode.COMBAT, Mode.CHASE) or not game.legal(Run(door)):
        return None
    fork = game.fork(_Yes())
    fork.chase_only = True
    lv = fork.state.level
    view = View(fork)  # the chase on the level as the player knows it: a group it does not know of is not in it
    front = fork.state.front_group()
    for g in [g for g in lv.groups if g is not front and not view.knows(g)]:
        lv.remove_group(g)
    enc = fork.state.encounter
    if later and enc is not None:
        enc.first_round = False
    if game.mode == Mode.CHASE:
        caught, why = _play_out(fork, [])
        return RunOdds(0.0 if caught else 1.0, 1.0, caught, why)
    events = fork.step(Run(door))
    if any(e.type == "refused" for e in events):
        return None
    for e in events:
        if e.type == "leave":
            return RunOdds(1.0, 0.0, 0, "stays")
        if isinstance(e, ev.Evade):
            return RunOdds(1.0, 0.0, 0, e.reason)
    rolled = [e for e in events if isinstance(e, ev.Roll) and e.purpose == "pursuit"]
    follows = int(rolled[0].target or 0) / 100 if rolled else 1.0  # (no roll: it was settled before: it follows)
    caught, why = _play_out(fork, events)
    return RunOdds(1.0 - follows if caught else 1.0, follows, caught, why)


ROUND_ENDS = frozenset({"chase", "caught", "escape", "distracted"})  # each round of a chase ends in one of these


def _play_out(fork: Game, events: list[Event]) -> tuple[int, str]:
    """Run on in ``fork`` until the chase is over (``events``: what happened so far): (the round of the chase in
    which it caught the party, 0 if it did not; how it ended)."""
    rounds = 0
    for _ in range(MAX_RUNS):
        for e in events:
            rounds += e.type in ROUND_ENDS
            if isinstance(e, ev.Caught):
                return (rounds, "") if e.fights else (0, "friendly")
            if isinstance(e, ev.Escape):
                return 0, e.reason
            if isinstance(e, ev.Distracted):
                return 0, e.by
        if fork.mode != Mode.CHASE:
            return 0, ""
        events = fork.step(Run())
    return 0, "gave_up"


def chase_catches(game: Game) -> bool:
    """Whether the party catches the group it may pursue now (one that went its way: :class:`Pursue`) or is
    chasing, the chase played out on a fork of the game (no die: the group runs away on the map, the party after
    it; exhausted, the party lets it go)."""
    fork = game.fork(_Yes())
    fork.chase_only = True
    if fork.mode != Mode.CHASE:
        if not fork.legal(Pursue()):
            return False
        events = fork.step(Pursue())
    else:
        events = []
    for _ in range(MAX_RUNS):
        if any(e.type == "caught" for e in events):
            return True
        if fork.mode != Mode.CHASE:
            return False
        events = fork.step(Run())
    return False
