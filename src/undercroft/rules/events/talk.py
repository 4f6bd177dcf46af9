"""Events of talk with a monster group and what it can buy: a negotiation, a bribe, the way down, a hireling (who
fights at the party's side and stays behind on its floor). A trader's wares: :mod:`~undercroft.rules.events.things`.
"""

from __future__ import annotations

from typing import ClassVar

from undercroft.rules.events.base import AboutGroup, Event, event


@event
class Negotiate(AboutGroup):
    type: ClassVar[str] = "negotiate"
    dice: str
    faces: list[int]
    reluctance: int
    ability: int
    use_reluctance: bool
    use_ability: bool
    modifier: int
    total: int
    result: str
    tribute: int


@event
class Bribe(AboutGroup):
    type: ClassVar[str] = "bribe"
    gold: int
    column: int
    row: int
    digit: int
    dice: str
    faces: list[int]
    total: int
    target: int
    result: str


@event
class Directions(AboutGroup):
    type: ClassVar[str] = "directions"
    stairs: list[int]
    known: bool


@event
class Hired(AboutGroup):
    type: ClassVar[str] = "hired"


@event
class HirelingAttack(Event):
    type: ClassVar[str] = "hireling_attack"
    group: int
    monster: str
    attacker_index: int
    target: str
    target_index: int
    count: int
    natural: int
    total: int
    defense: int
    hit: bool
    critical: bool
    damage: int
    target_hp_after: int


@event
class HirelingLeft(AboutGroup):
    type: ClassVar[str] = "hireling_left"
