"""Shrinking a recording (``replay --shrink``, docs/REPLAY.md): delta debugging (Zeller's ddmin) over its actions,
down to a shortest list that still shows the same thing: the engine raising the same exception, or an event of a
chosen type happening.

Each candidate (the recording's actions with some left out) is a headless replay from the recording's seed: a
:class:`Goal` is met when the replay raises an exception of the goal's type (``crash``) or when one of its
actions yields an event of the goal's type (``event``), and the replay stops there. An action the engine refuses
in a candidate (a step into a wall once the step before it is gone) is skipped, as the game itself would: a refused
action changes nothing and is never recorded. A candidate that meets its goal is cut to the actions the engine
took up to that point, so the tail and the refused actions go at once, and the shrunk list replays as it is.
Any other exception fails the candidate. The work is capped at ``max_replays`` replays.

A desync is not shrunk here: once an action is left out, the recording holds no digest to compare the states with
(the cli cuts the file after the first action that desyncs instead).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from undercroft.content import Content
from undercroft.rules.actions import Action
from undercroft.rules.game import Game, Snapshot

MAX_REPLAYS = 3000  # candidates replayed at most by one shrink (the cache's hits are free)
MARKS = 32  # states kept along the shortest list found so far, to replay a candidate from (Trial.rebase)


@dataclass(frozen=True)
class Goal:
    """What a shrunk recording must still show: an exception of type ``name`` (``crash``; its class's name) or an
    event of type ``name`` (``event``: docs/EVENTS.md)."""

    kind: Literal["crash", "event"]
    name: str

    def __str__(self) -> str:
        return f"raises {self.name}" if self.kind == "crash" else f"reaches a '{self.name}' event"


@dataclass(frozen=True)
class Shrunk:
    """The result: ``actions`` the shortest list found (the last one the action where the goal is met), from
    ``original`` actions, after ``replays`` replays; ``minimal`` when no single action can be left out (1-minimal),
    False when the cap stopped the search first."""

    actions: tuple[Action, ...]
    original: int
    replays: int
    minimal: bool


class Trial:
    """Replays of candidates from one seed. Each starts from a snapshot rather than from a new game: the starting
    state, or the latest of a few states along :attr:`base` (the shortest list found so far, :meth:`rebase`) that
    the candidate shares its actions up to. Leaving out a run of actions keeps the ones before it, so a candidate
    replays only from there."""

    def __init__(self, content: Content, ruleset: str, seed: int) -> None:
        self.game = Game(content, ruleset, seed)
        self.base: tuple[Action, ...] = ()
        self.marks: list[tuple[int, Snapshot]] = [(0, self.game.snapshot())]  # (actions of base taken, the state)
        self.fresh = True  # the game has taken no action yet (its first replay needs no restore)

    def rebase(self, base: tuple[Action, ...]) -> None:
        """``base`` (all taken by the engine, the goal met at its last one only) becomes the list whose states
        are kept: at most :data:`MARKS` of them, evenly spaced."""
        game = self.game
        if not self.fresh:
            game.restore(self.marks[0][1])
        self.fresh = False
        stride = max(1, len(base) // MARKS)
        marks = self.marks[:1]
        for i, action in enumerate(base[:-1], 1):
            game.step(action)
            if i % stride == 0:
                marks.append((i, game.snapshot()))
        self.base, self.marks = base, marks

    def __call__(self, actions: Sequence[Action], goal: Goal) -> tuple[Action, ...] | None:
        """Replay ``actions``: the actions the engine took up to and including the one where ``goal`` is met
        (refused ones skipped), or None when it is not met (or the engine raises anything else)."""
        same = 0
        for mine, theirs in zip(actions, self.base, strict=False):
            if mine != theirs:
                break
            same += 1
        taken, snap = max((m for m in self.marks if m[0] <= same), key=lambda m: m[0])
        game = self.game
        if not (self.fresh and taken == 0):
            game.restore(snap)
        self.fresh = False
        step = game.step
        kept: list[Action] = list(actions[:taken])
        for action in actions[taken:]:
            try:
                events = step(action)
            except Exception as exc:
                if goal.kind == "crash" and type(exc).__name__ == goal.name:
                    kept.append(action)
                    return tuple(kept)
                return None
            if len(events) == 1 and events[0].type == "refused":
                continue
            kept.append(action)
            if goal.kind == "event" and any(ev.type == goal.name for ev in events):
                return tuple(kept)
        return None


def attempt(
    content: Content, ruleset: str, seed: int, actions: Sequence[Action], goal: Goal
) -> tuple[Action, ...] | None:
    """One replay of ``actions`` in a new game, restoring no snapshot (:meth:`Trial.__call__`)."""
    return Trial(content, ruleset, seed)(actions, goal)


def _chunks(items: tuple[Action, ...], n: int) -> list[tuple[int, int]]:
    """``items`` cut into ``n`` runs as even as can be: their (start, end)."""
    size, extra = divmod(len(items), n)
    out, start = [], 0
    for i in range(n):
        end = start + size + (1 if i < extra else 0)
        out.append((start, end))
        start = end
    return out


def shrink(
    content: Content,
    ruleset: str,
    seed: int,
    actions: Sequence[Action],
    goal: Goal,
    *,
    max_replays: int = MAX_REPLAYS,
    progress: Callable[[int, int], None] | None = None,
) -> Shrunk | None:
    """ddmin over ``actions``: None when the whole list does not meet ``goal``. ``progress(length, replays)`` is
    called after every replay (for a progress bar)."""
    trial = Trial(content, ruleset, seed)
    cache: dict[tuple[Action, ...], tuple[Action, ...] | None] = {}
    replays = 0
    capped = False

    def test(candidate: tuple[Action, ...]) -> tuple[Action, ...] | None:
        nonlocal replays, capped
        if candidate not in cache:
            if replays >= max_replays:
                capped = True
                return None
            replays += 1
            cache[candidate] = trial(candidate, goal)
            if progress is not None:
                progress(len(current), replays)
        return cache[candidate]

    current = tuple(actions)
    first = test(current)
    if first is None:
        return None
    current = first
    trial.rebase(current)
    n = 2
    while len(current) >= 2 and not capped:
        found = _reduce(current, n, test)
        if found is not None:
            current, n = found[0], found[1]
            trial.rebase(current)
            continue
        if n >= len(current):
            break
        n = min(2 * n, len(current))
    if attempt(content, ruleset, seed, current, goal) != current:  # (a new game, nothing restored: the check)
        raise RuntimeError("a replay from a snapshot went otherwise than from the start: Game.restore is not faithful")
    return Shrunk(current, len(actions), replays, not capped)


def _reduce(
    current: tuple[Action, ...], n: int, test: Callable[[tuple[Action, ...]], tuple[Action, ...] | None]
) -> tuple[tuple[Action, ...], int] | None:
    """One round of ddmin at granularity ``n``: a run alone that meets the goal (then granularity 2), else the
    list without one run (then one run fewer), else None."""
    spans = _chunks(current, n)
    if n > 2:  # (at 2, a run alone is the other run's complement)
        for start, end in spans:
            got = test(current[start:end])
            if got is not None:
                return got, 2
    for start, end in spans:
        got = test(current[:start] + current[end:])
        if got is not None:
            return got, max(n - 1, 2)
    return None


__all__ = ["MAX_REPLAYS", "Goal", "Shrunk", "Trial", "attempt", "shrink"]
