"""Events of running, evasion and pursuit: the party running from a group or after one, the chase round by round,
what is dropped or thrown behind to stop the chaser, and how the chase ends."""

from __future__ import annotations

from typing import ClassVar

from undercroft.rules.events.base import AboutGroup, Event, event


@event
class Run(Event):
    type: ClassVar[str] = "run"
    group: int
    door: list[int]
    to: list[int]
    segment: int


@event
class Leave(Event):
    type: ClassVar[str] = "leave"
    group: int
    pursued: bool
    monster: str
    count: int


@event
class Evade(Event):
    type: ClassVar[str] = "evade"
    group: int
    reason: str
    monster: str
    count: int
    party_speed: int | None = None
    monster_speed: int | None = None


@event
class Pursuit(Event):
    type: ClassVar[str] = "pursuit"
    group: int
    distance: int
    monster: str
    count: int


@event
class Pursue(Event):
    type: ClassVar[str] = "pursue"
    group: int
    distance: int
    monster: str
    count: int


@event
class LetGo(AboutGroup):
    type: ClassVar[str] = "let_go"


@event
class Chase(Event):
    type: ClassVar[str] = "chase"
    group: int
    distance: int
    round: int
    monster: str
    count: int
    by: str | None = None


@event
class Exhausted(Event):
    type: ClassVar[str] = "exhausted"
    rounds: int


@event
class Drop(Event):
    type: ClassVar[str] = "drop"
    item: str
    amount: int


@event
class Distracted(Event):
    type: ClassVar[str] = "distracted"
    group: int
    by: str
    monster: str
    count: int


@event
class Ignored(AboutGroup):
    type: ClassVar[str] = "ignored"
    what: str


@event
class Oil(Event):
    """Burning oil: thrown at a creature in a fight (``target_index``, ``damage``, ``target_hp_after``) or behind
    the party in a chase (``tiles``)."""

    type: ClassVar[str] = "oil"
    item: str
    group: int
    target_index: int | None = None
    damage: int | None = None
    target_hp_after: int | None = None
    monster: str
    count: int
    tiles: list[list[int]] | None = None


@event
class Slowed(Event):
    type: ClassVar[str] = "slowed"
    group: int
    rounds: int
    monster: str
    count: int


@event
class Caught(Event):
    type: ClassVar[str] = "caught"
    group: int
    fights: bool
    monster: str
    count: int
    by: str | None = None
    exhausted: bool | None = None


@event
class Escape(Event):
    type: ClassVar[str] = "escape"
    group: int
    distance: int
    monster: str
    count: int
    reason: str


@event
class GotAway(Event):
    type: ClassVar[str] = "got_away"
    group: int
    distance: int
    monster: str
    count: int
    reason: str
