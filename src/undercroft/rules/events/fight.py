"""Events of a fight: who acts first, each swing (the party's and the monsters'), a creature that does not act,
a death, and the group's defeat with its gold and spoils."""

from __future__ import annotations

from typing import Any, ClassVar

from undercroft.rules.events.base import AboutGroup, Event, event


@event
class Initiative(Event):
    type: ClassVar[str] = "initiative"
    party: int
    monster: int
    first: str
    group: int
    monster_id: str
    count: int


@event
class Combat(Event):
    type: ClassVar[str] = "combat"
    group: int
    first: str
    free_round: str
    monster: str
    count: int


@event
class SurprisedSkip(AboutGroup):
    type: ClassVar[str] = "surprised_skip"
    side: str


@event
class PartyAttack(Event):
    """A character's swing at a creature of the group (wire name ``attack``, ``attacker_side`` ``party``)."""

    type: ClassVar[str] = "attack"
    attacker: str
    attacker_side: str
    member: int
    target: str
    target_index: int
    group: int
    count: int
    dice: str
    natural: int
    modifier: int
    total: int
    defense: int
    hit: bool
    critical: bool
    damage: int
    target_hp_after: int


@event
class MonsterAttack(Event):
    """A creature's swing at a character (wire name ``attack``, ``attacker_side`` ``monsters``)."""

    type: ClassVar[str] = "attack"
    attacker: str
    attacker_side: str
    attacker_index: int
    group: int
    count: int
    target: str
    member: int
    dice: str
    natural: int
    modifier: int
    total: int
    defense: int
    hit: bool
    critical: bool
    damage: int
    target_hp_after: int
    target_max_hp: int


@event
class Kill(Event):
    type: ClassVar[str] = "kill"
    group: int
    index: int
    monster: str
    count: int


@event
class Slow(AboutGroup):
    type: ClassVar[str] = "slow"


@event
class Holds(AboutGroup):
    type: ClassVar[str] = "holds"


@event
class Idle(AboutGroup):
    type: ClassVar[str] = "idle"


@event
class Regenerate(Event):
    type: ClassVar[str] = "regenerate"
    group: int
    index: int
    hp: int
    monster: str
    count: int


@event
class Victory(AboutGroup):
    type: ClassVar[str] = "victory"
    gold: int
    shares: list[list[Any]]
    spoils: list[str] | None = None
