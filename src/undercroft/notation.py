"""Dice notation: the :class:`Dice` value type, parsing and printing. No rolling.

A dice expression is one of ``NdM``, ``dM``, ``NdM+K``, ``NdM-K``, ``NdMxK`` (multiplied, e.g. the encounter
distance ``2d6x10``), ``NdMxK+J``, the source text's ``NK6`` spelling (``2K6`` = ``2d6``) or a plain integer.

This module is a leaf: it imports nothing from ``undercroft``, so both the data layer (``undercroft.content``, which
validates dice written in the data files) and the rules (``undercroft.rules.dice``, which rolls them) can use it
without importing each other. Rolling lives in :mod:`undercroft.rules.dice`.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

__all__ = ["MAX_BONUS", "MAX_COUNT", "MAX_MULTIPLIER", "MAX_SIDES", "Dice", "DiceError"]

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


MAX_DICE_TEXT = 40  # the longest dice expression read (the data's schema allows the same)


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
        return _parse(text)

    @classmethod
    def _from_text(cls, text: str) -> Dice:
        if len(text) > MAX_DICE_TEXT:  # never int() an unbounded run of digits
            raise DiceError(f"bad dice expression of {len(text)} characters: at most {MAX_DICE_TEXT}")
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
        return _text(self)

    def _to_text(self) -> str:
        if self.count == 0:
            return str(self.bonus)
        out = f"{self.count}d{self.sides}"
        if self.multiplier != 1:
            out += f"x{self.multiplier}"
        if self.bonus:
            out += f"{self.bonus:+d}"
        return out


@functools.lru_cache(maxsize=4096)
def _parse(text: str) -> Dice:
    """:meth:`Dice.parse` of a text, kept: the rules roll the same few expressions over and over."""
    return Dice._from_text(text)


@functools.lru_cache(maxsize=4096)
def _text(d: Dice) -> str:
    return d._to_text()
