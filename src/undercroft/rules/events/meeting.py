"""Events of a meeting with a monster group, from the moment it is found to a fight, a parting or a peace: where
it stands, when it comes into sight, surprise, how it behaves while the sides face each other. (Talk and bribes:
:mod:`~undercroft.rules.events.talk`.)"""

from __future__ import annotations

from typing import ClassVar

from undercroft.rules.events.base import AboutGroup, Event, event


@event
class Encounter(AboutGroup):
    type: ClassVar[str] = "encounter"
    hp: list[int]
    origin: str
    first: bool
    distance: int
    sighted: bool


@event
class Placed(Event):
    type: ClassVar[str] = "placed"
    group: int
    pos: list[int]
    distance: int
    rolled: int
    out_of_sight: bool


@event
class Hidden(Event):
    type: ClassVar[str] = "hidden"
    group: int


@event
class Reveal(AboutGroup):
    type: ClassVar[str] = "reveal"


@event
class InSight(AboutGroup):
    type: ClassVar[str] = "in_sight"
    distance: int


@event
class Close(AboutGroup):
    type: ClassVar[str] = "close"
    distance: int


@event
class Surprise(Event):
    type: ClassVar[str] = "surprise"
    party: bool
    monster: bool
    monster_id: str
    count: int
    group: int


@event
class RoundLost(AboutGroup):
    type: ClassVar[str] = "round_lost"


@event
class Approach(Event):
    type: ClassVar[str] = "approach"
    group: int
    distance: int
    monster: str
    count: int
    out_of_sight: bool


@event
class Standoff(AboutGroup):
    type: ClassVar[str] = "standoff"
    rounds: int


@event
class Guards(AboutGroup):
    type: ClassVar[str] = "guards"


@event
class Attacks(AboutGroup):
    type: ClassVar[str] = "attacks"


@event
class Leaves(AboutGroup):
    type: ClassVar[str] = "leaves"
    distance: int


@event
class Peaceful(AboutGroup):
    type: ClassVar[str] = "peaceful"
    already: bool


@event
class Pass(AboutGroup):
    type: ClassVar[str] = "pass"


@event
class WalkedPast(AboutGroup):
    type: ClassVar[str] = "walked_past"


@event
class BreakPeace(AboutGroup):
    type: ClassVar[str] = "break_peace"


@event
class Rises(AboutGroup):
    type: ClassVar[str] = "rises"
