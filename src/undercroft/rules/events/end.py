"""Events of the end of a game: won, or dead."""

from __future__ import annotations

from typing import ClassVar

from undercroft.rules.events.base import Event, event


@event
class Won(Event):
    type: ClassVar[str] = "won"
    turn: int
    depth: int
    seed: int
    how: str
    guardians: list[list[str]]


@event
class Death(Event):
    type: ClassVar[str] = "death"
    cause: str
    turn: int
    depth: int
    seed: int
