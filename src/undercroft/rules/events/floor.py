"""Events of exploring a floor: a step, a room or corridor entered, a find, a rest, the way down, and the monster
check's table (the rolls are :class:`~undercroft.rules.events.common.Roll`)."""

from __future__ import annotations

from typing import ClassVar

from undercroft.rules.events.base import Event, event


@event
class Move(Event):
    type: ClassVar[str] = "move"
    from_: list[int]
    to: list[int]
    segment: int


@event
class Enter(Event):
    type: ClassVar[str] = "enter"
    segment: int
    kind: str
    visited: bool
    behind: bool | None = None
    passed: int | None = None


@event
class Pickup(Event):
    type: ClassVar[str] = "pickup"
    item: str
    amount: int


@event
class Rest(Event):
    type: ClassVar[str] = "rest"
    rounds: int
    exhausted: bool
    healed: int
    recovered: bool
    progress: list[int] | None
    hp: list[list[int]]


@event
class Descend(Event):
    type: ClassVar[str] = "descend"
    depth: int
    name: str


@event
class Table(Event):
    """The monster check's row and column of an encounter table, and what they give."""

    type: ClassVar[str] = "table"
    table: str
    row: int
    column: int
    monster: str
    number: int
    deeper: bool | None = None
