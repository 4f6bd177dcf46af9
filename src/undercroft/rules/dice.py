"""Dice expressions, dice sources and rolls.

A dice expression is one of ``NdM``, ``dM``, ``NdM+K``, ``NdM-K``, ``NdMxK`` (multiplied, e.g. the encounter
distance ``2d6x10``), ``NdMxK+J``, the source text's ``NK6`` spelling (``2K6`` = ``2d6``) or a plain integer.

A :class:`DiceSource` turns a number of sides into a face. The real one is
:class:`undercroft.rules.rng.Stream`; tests use :class:`ScriptedDice` to force exact faces.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

MAX_COUNT = 100
MAX_SIDES = 1000
MAX_MULTIPLIER = 1000
MAX_BONUS = 100_000

_DICE_RE = re.compile(
    r"""^\s*
    (?:
        (?P<count>\d*)\s*[dDkK]\s*(?P<sides>\d+)
        (?:\s*[xX*]\s*(?P<mult>\d+))?
        (?:\s*(?P<sign>[+-])\s*(?P<bonus>\d+))?
      | (?P<const>-?\d+)
    )\s*$""",
    re.VERBOSE,
)


class DiceError(ValueError):
    """A dice expression that cannot be parsed; the message quotes it."""


@dataclass(frozen=True, slots=True)
class Dice:
    """A parsed dice expression: (sum of ``count`` d``sides``) x ``multiplier`` + ``bonus``."""

    count: int
    sides: int
    multiplier: int = 1
    bonus: int = 0

    @classmethod
    def parse(cls, text: str | int) -> Dice:
        if isinstance(text, bool):
            raise DiceError(f"bad dice expression {text!r}: expected text like '2d6' or a whole number")
        if isinstance(text, int):
            return cls(0, 1, 1, text)
        if not isinstance(text, str):
            raise DiceError(f"bad dice expression {text!r}: expected text like '2d6'")
        m = _DICE_RE.match(text)
        if m is None:
            raise DiceError(f"bad dice expression '{text}': expected NdM, NdM+K, NdM-K, NdMxK, NK6 or a number")
        if m.group("const") is not None:
            return cls(0, 1, 1, int(m.group("const")))
        count = int(m.group("count")) if m.group("count") else 1
        sides = int(m.group("sides"))
        mult = int(m.group("mult")) if m.group("mult") else 1
        bonus = int(m.group("bonus")) if m.group("bonus") else 0
        if m.group("sign") == "-":
            bonus = -bonus
        if not 1 <= count <= MAX_COUNT:
            raise DiceError(f"bad dice expression '{text}': number of dice must be 1..{MAX_COUNT}")
        if not 2 <= sides <= MAX_SIDES:
            raise DiceError(f"bad dice expression '{text}': a die must have 2..{MAX_SIDES} sides")
        if not 1 <= mult <= MAX_MULTIPLIER:
            raise DiceError(f"bad dice expression '{text}': multiplier must be 1..{MAX_MULTIPLIER}")
        if abs(bonus) > MAX_BONUS:
            raise DiceError(f"bad dice expression '{text}': modifier too large")
        return cls(count, sides, mult, bonus)

    @property
    def minimum(self) -> int:
        return self.count * self.multiplier + self.bonus

    @property
    def maximum(self) -> int:
        return self.count * self.sides * self.multiplier + self.bonus

    def __str__(self) -> str:
        if self.count == 0:
            return str(self.bonus)
        out = f"{self.count}d{self.sides}"
        if self.multiplier != 1:
            out += f"x{self.multiplier}"
        if self.bonus:
            out += f"{self.bonus:+d}"
        return out


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
    faces = tuple(source.die(d.sides) for _ in range(d.count))
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
