"""The lines of things, growth and trade: a drink, a weapon, armour, a potion, a level gained, a map, the
merchant and a monster's pack."""

from __future__ import annotations

from undercroft.narrate.lines.base import line
from undercroft.narrate.words import Words, agree, plural, time_left
from undercroft.rules import events as ev
from undercroft.rules.names import The


@line(ev.Drink)
def _e_drink(nar: Words, e: ev.Drink) -> str:
    who = nar.member(e.member)
    return f"{nar.verb(who, 'drink')}. {e.healed} healed. HP {e.hp}/{e.max_hp}."


@line(ev.Quaff)
def _e_quaff(nar: Words, e: ev.Quaff) -> str:
    who = nar.member(e.member)
    what = {"fleetness": "feet faster a round", "heroism": "to hit", "sight": "tiles farther seen"}
    if e.until is None:  # (ours: vigour, for good)
        name = nar.content.items[e.item].name
        hp = f"HP {e.hp}/{e.max_hp}"
        return f"{nar.verb(who, 'drink')} the {name}: +{e.bonus} maximum hit points for good, {hp}."
    it = nar.content.items[e.item]
    return (
        f"{nar.verb(who, 'drink')} the {it.name}: +{e.bonus} "
        f"{what.get(str(e.effect), str(e.effect))} for {time_left(it.rounds, nar.content.rules.time)}."
    )


@line(ev.EffectEnded)
def _e_effect_ended(nar: Words, e: ev.EffectEnded) -> str:
    return f"The {nar.content.items[e.item].name} wears off."


@line(ev.Wield)
def _e_wield(nar: Words, e: ev.Wield) -> str:
    who = nar.member(e.member)
    aim = f", {e.to_hit:+d} to hit" if e.to_hit else ""
    return f"{nar.verb(who, 'take')} up the {nar.content.items[e.item].name}: {e.damage} damage a hit{aim}."


@line(ev.Wear)
def _e_wear(nar: Words, e: ev.Wear) -> str:
    who = nar.member(e.member)
    name = nar.content.items[e.item].name
    return f"{nar.verb(who, 'put')} on the {name}: defense {e.defense}, speed {e.speed} ft a round."


@line(ev.LevelUp)
def _e_level_up(nar: Words, e: ev.LevelUp) -> str:
    who = "You reach" if nar.solo else f"{e.name} reaches"
    text = f"{who} level {e.level}: HP {e.max_hp}, MIGHT {e.might}, AGILITY {e.agility}."
    if e.level in nar.content.rules.growth.rest_heal_at and e.rest_heal:
        text += f" A turn of rest heals {e.rest_heal}."
    return text


@line(ev.Charted)
def _e_charted(nar: Words, e: ev.Charted) -> str:
    way = "the way out" if e.out else "the way down"
    return f"You read the {nar.content.items[e.item].name}: {way} is on your map (> to go)."


@line(ev.Shop)
def _e_shop(nar: Words, e: ev.Shop) -> str:
    return f"A merchant waits at the foot of the stairs, with {plural(len(e.stock), 'ware')} to sell."


@line(ev.Trade)
def _e_trade(nar: Words, e: ev.Trade) -> str:
    name, many = nar.group(e.monster, e.count)
    its = nar.pronouns(e.monster, many)[1]
    return f"{The(name)} {agree(many, 'opens', 'open')} {its} pack: {plural(len(e.stock), 'ware')}."


@line(ev.Bought)
def _e_bought(nar: Words, e: ev.Bought) -> str:
    return f"You buy the {nar.content.items[e.item].name} for {e.price} gold ({e.gold} left)."


@line(ev.ShopLeft)
def _e_shop_left(nar: Words, e: ev.ShopLeft) -> str:
    return "You leave the merchant."
