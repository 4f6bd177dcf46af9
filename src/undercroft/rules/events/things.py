"""Events of things and growth: a drink, a weapon taken up, armour put on, a potion and its end, a level gained,
a map read, and trade (the merchant at the stairs, or a monster that opens its pack)."""

from __future__ import annotations

from typing import ClassVar

from undercroft.rules.events.base import AboutGroup, Event, event


@event
class Drink(Event):
    type: ClassVar[str] = "drink"
    member: int
    item: str
    heal: int
    healed: int
    hp: int
    max_hp: int


@event
class Quaff(Event):
    type: ClassVar[str] = "quaff"
    member: int
    item: str
    effect: str | None
    bonus: int
    until: int | None
    hp: int | None = None
    max_hp: int | None = None


@event
class EffectEnded(Event):
    type: ClassVar[str] = "effect_ended"
    item: str
    effect: str | None


@event
class Wield(Event):
    type: ClassVar[str] = "wield"
    member: int
    item: str
    weapon: int
    to_hit: int
    damage: int


@event
class Wear(Event):
    type: ClassVar[str] = "wear"
    member: int
    item: str
    defense: int
    speed: int


@event
class LevelUp(Event):
    type: ClassVar[str] = "level_up"
    member: int
    name: str
    level: int
    max_hp: int
    might: int
    agility: int
    rest_heal: int


@event
class Charted(Event):
    type: ClassVar[str] = "charted"
    item: str
    stairs: list[int]
    out: bool


@event
class Shop(Event):
    type: ClassVar[str] = "shop"
    depth: int
    stock: list[str]
    wares: dict[str, int]


@event
class Trade(AboutGroup):
    type: ClassVar[str] = "trade"
    depth: int
    stock: list[str]
    wares: dict[str, int]


@event
class Bought(Event):
    type: ClassVar[str] = "bought"
    item: str
    price: int
    gold: int
    left: int


@event
class ShopLeft(Event):
    type: ClassVar[str] = "shop_left"
    gold: int
