"""Dice sources and rolls.

The notation (:class:`Dice`, :meth:`Dice.parse`, :class:`DiceError`) lives in :mod:`undercroft.notation` so that
``undercroft.content`` can validate dice without importing the rules; it is re-exported here, so
``from undercroft.rules.dice import Dice`` keeps working.

A :class:`DiceSource` turns a number of sides into a face. The real one is
:class:`undercroft.rules.rng.Stream`; tests use :class:`ScriptedDice` to force exact faces.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from undercroft.notation import MAX_BONUS, MAX_COUNT, MAX_MULTIPLIER, MAX_SIDES, Dice, DiceError

__all__ = [
    "MAX_BONUS",
    "MAX_COUNT",
    "MAX_MULTIPLIER",
    "MAX_SIDES",
    "Dice",
    "DiceError",
    "DiceSource",
    "Roll",
    "ScriptExhausted",
    "ScriptedDice",
    "roll",
]


class DiceSource(Protocol):
    """Anything that rolls one die of ``sides`` faces and returns 1..sides."""

    def die(self, sides: int) -> int: ...


@dataclass(frozen=True, slots=True)
class Roll:
    """One resolved roll: the expression, each face, and the total."""

    dice: str
    faces: tuple[int, ...]
    multiplier: int
    modifier: int
    total: int

    def as_dict(self) -> dict[str, object]:
        return {
            "dice": self.dice,
            "faces": list(self.faces),
            "multiplier": self.multiplier,
            "modifier": self.modifier,
            "total": self.total,
        }


def roll(source: DiceSource, dice: Dice | str) -> Roll:
    """Roll ``dice`` with ``source``."""
    d = dice if isinstance(dice, Dice) else Dice.parse(dice)
    die, sides = source.die, d.sides
    faces = tuple([die(sides) for _ in range(d.count)])
    total = sum(faces) * d.multiplier + d.bonus
    return Roll(str(d), faces, d.multiplier, d.bonus, total)


class ScriptExhausted(RuntimeError):
    """A scripted dice source was asked for more faces than the test scripted."""


class ScriptedDice:
    """A dice source that returns scripted faces in order (for tests).

    Each face must fit the die asked for; running out raises :class:`ScriptExhausted`, so a test that forces
    dice also proves how many dice the rule rolled.
    """

    def __init__(self, faces: Iterable[int] = ()) -> None:
        self._faces: list[int] = list(faces)
        self.used: list[tuple[int, int]] = []

    def push(self, *faces: int) -> None:
        self._faces.extend(faces)

    @property
    def remaining(self) -> int:
        return len(self._faces)

    def die(self, sides: int) -> int:
        if not self._faces:
            raise ScriptExhausted(f"scripted dice exhausted (asked for a d{sides} after {len(self.used)} faces)")
        face = self._faces.pop(0)
        if not 1 <= face <= sides:
            raise ValueError(f"scripted face {face} does not fit a d{sides}")
        self.used.append((sides, face))
        return face
