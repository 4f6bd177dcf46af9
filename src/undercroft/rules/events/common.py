"""Events of every part of the game: an action refused, a roll of the dice, a wait."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, TypedDict

from undercroft.rules.events.base import Event, event

if TYPE_CHECKING:
    from undercroft.rules.refusals import Reason


@event
class Refused(Event):
    """The action is not allowed now, for ``why`` (its code and fields are flattened into the wire form)."""

    type: ClassVar[str] = "refused"
    why: Reason
    action: str | None = None  # the action's type (None: asked of the rules, no action taken)

    def as_dict(self) -> dict[str, Any]:
        return {"type": self.type, **({"action": self.action} if self.action is not None else {}), **self.why.data()}


class RollAbout(TypedDict, total=False):
    """What a roll is about, beside its purpose (:class:`Roll`'s optional fields; each purpose has its own)."""

    segment: int
    kind: str
    visited: bool
    table: str
    monster: str
    group: int


@event
class Roll(Event):
    type: ClassVar[str] = "roll"
    purpose: str
    dice: str
    faces: list[int]
    modifier: int
    multiplier: int
    total: int | None
    target: int | None
    result: str
    segment: int | None = None
    kind: str | None = None
    visited: bool | None = None
    table: str | None = None
    monster: str | None = None
    group: int | None = None


@event
class Wait(Event):
    type: ClassVar[str] = "wait"
    combat: bool
