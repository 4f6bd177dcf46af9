"""Ours: things (weapons, armour, potions, tools, treasure), a delver who grows, the merchant, and talk
that pays. Every test forces the dice; each checks what a player would notice."""

from __future__ import annotations

import re

import pytest
from engine_helpers import (
    NOTHING,
    act,
    clear_unique,
    content,
    encounter_faces,
    kinds,
    make_game,
    meet,
    of,
    one,
    say,
    script,
    walk_to,
    why,
)

from undercroft import travel
from undercroft.rules import events as evt
from undercroft.rules import explore, formulas, growth, items, shop
from undercroft.rules.actions import (
    Attack,
    Buy,
    Descend,
    Fight,
    LeaveShop,
    Rest,
    Talk,
    Use,
    action_from_text,
    action_to_text,
)
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.events import Event
from undercroft.rules.game import Game
from undercroft.rules.refusals import Code, Reason
from undercroft.rules.rng import Streams
from undercroft.rules.types import Mode

ITEMS = content().items
GROWTH = content().rules.growth


def number(item: str) -> int:
    return items.item_number(content(), item)


def carry(g: Game, item: str, n: int = 1) -> None:
    g.state.items[item] = g.state.items.get(item, 0) + n


def duel(monster: str = "orc", *use: str) -> tuple[Game, list[Event]]:
    """The warden's lone delver, having used ``use`` (each one carried first), in a fight with ``monster`` (the
    warden: no distance, surprise or reaction rolls; the fight starts as they meet, the delver's turn first against
    a slower monster). Returns the game and the events of using the last thing."""
    g = make_game("warden", 1, ScriptedDice())
    events: list[Event] = []
    for item in use:
        carry(g, item)
        events = act(g, Use(number(item), 0))
    meet(g, monster)
    assert g.state.mode == Mode.COMBAT
    return g, events


# --- the data ---------------------------------------------------------------------------------------------------


def test_twenty_kinds_of_things_and_no_glyph_shared_with_a_monster() -> None:
    assert len(ITEMS) >= 20
    kinds_ = {it.kind for it in ITEMS.values()}
    assert {"weapon", "armour", "potion", "oil", "food", "tool", "treasure"} <= kinds_
    # letters are creatures' (the oil flask's "o" is older; engineer B checks every glyph)
    assert {it.glyph for it in ITEMS.values() if it.glyph.isalpha()} <= {"o"}
    glyphs = [m.glyph for m in content().monsters.values()]
    assert glyphs.count("p") == glyphs.count("f") == 1  # the peddler and the sellsword for hire
    weapons = {i: (it.to_hit, it.damage) for i, it in ITEMS.items() if it.kind == "weapon"}
    assert weapons["dagger"] == (2, 1) and weapons["mace"] == (-1, 4) and weapons["great_axe"] == (-2, 6)


def test_the_merchants_stock_grows_with_the_floors() -> None:
    first, fifth = shop.stock(content(), 0), shop.stock(content(), 4)
    assert "healing_potion" in first and "plate_armour" not in first and "plate_armour" in fifth
    assert all(ITEMS[i].price for i in fifth)


# --- weapons: to-hit against damage ----------------------------------------------------------------------------


def test_a_dagger_hits_where_the_short_sword_misses_and_deals_less() -> None:
    g, ev = duel("orc", "dagger")  # defense 11; the delver's MIGHT 3
    assert one(ev, evt.Wield).to_hit == 2 and g.state.items == {"healing_potion": 2, "short_sword": 1}
    assert say(g, one(ev, evt.Wield)) == "You take up the Dagger: 4 damage a hit, +2 to hit."
    # natural 6: 6 + 3 + 2 = 11 >= 11 hits for MIGHT 3 + 1; the orc's blow misses on a 1
    ev = act(g, Attack(), 6, 1)
    hit = one(ev, evt.PartyAttack)
    assert hit.modifier == 5 and hit.hit and hit.damage == 4
    ev = act(g, Use(number("short_sword"), 0), 1)  # wielding takes the turn in a fight: the orc misses on a 1
    assert g.state.party[0].to_hit == 0 and g.state.party[0].weapon == 3
    ev = act(g, Attack(), 6, 1)  # 6 + 3 = 9 < 11: a miss with the short sword
    assert not one(ev, evt.PartyAttack).hit


def test_a_great_axe_found_is_taken_up_and_hits_hard_but_seldom() -> None:
    g = make_game("warden", 1, ScriptedDice())
    st = g.state
    st.level.items[st.pos] = [("great_axe", 1)]
    events: list[Event] = []
    explore.pickup(g, events)
    w = one(events, evt.Wield)
    assert w.item == "great_axe" and st.party[0].to_hit == -2 and st.party[0].weapon == 6
    assert st.items["short_sword"] == 1  # the old blade goes into the pack


# --- armour: defense for speed -----------------------------------------------------------------------------------


def test_armour_found_that_plainly_beats_none_is_put_on_a_trade_off_stays_in_the_pack() -> None:
    """Found in play: a delver carried Leather Armour unworn (the bar said "no armour") while weapons were taken up
    at once. Armour with more defense and no more speed lost than what is worn goes on at once; mail, which costs
    speed, waits for the player's ``Use``."""
    g = make_game("warden", 1, ScriptedDice())
    st, m = g.state, g.state.party[0]
    bare = m.defense
    st.level.items[st.pos] = [("mail_shirt", 1), ("leather_armour", 1)]
    events: list[Event] = []
    explore.pickup(g, events)
    assert [e.item for e in of(events, evt.Wear)] == ["leather_armour"]
    assert m.armour == "leather_armour" and m.defense == bare + 1 and m.speed == content().party["delver"].speed
    assert st.items["mail_shirt"] == 1 and "leather_armour" not in st.items
    assert say(g, one(events, evt.Wear)) == "You put on the Leather Armour: defense 13, speed 90 ft a round."


def test_armour_bought_that_beats_what_is_worn_is_put_on_the_old_goes_in_the_pack() -> None:
    g, _ = descend_to_shop(gold=1000)
    st, m = g.state, g.state.party[0]
    assert m.armour == ""  # (none worn)
    st.wares.update({"mail_shirt": 1, "leather_armour": 1})
    ev = g.step(Buy(number("mail_shirt")))  # +2 defense for 15 ft of speed: the player's choice, in the pack
    assert not of(ev, evt.Wear) and st.party[0].armour == "" and st.items["mail_shirt"] == 1
    ev = g.step(Buy(number("leather_armour")))  # +1 and no speed lost: on at once
    assert one(ev, evt.Wear).item == "leather_armour" and st.party[0].armour == "leather_armour"
    st.level.items[st.pos] = [("runed_mail", 1)]  # +3, no speed lost: beats the leather, which goes in the pack
    events: list[Event] = []
    explore.pickup(g, events)
    assert one(events, evt.Wear).item == "runed_mail" and st.party[0].armour == "runed_mail"
    assert st.items["leather_armour"] == 1 and m.speed == content().party["delver"].speed


def test_mail_turns_a_blow_and_slows_the_delver() -> None:
    g, ev = duel("orc", "mail_shirt")  # the orc: attack 3
    m = g.state.party[0]
    bare = content().party["delver"]
    assert m.defense == bare.defense + 2 and m.speed == bare.speed - 15
    assert one(ev, evt.Wear).defense == m.defense and g.party_speed() == 75
    # the orc's natural 10: 10 + 3 = 13 < 14 misses the mailed delver (it hit the bare one at 12)
    ev = act(g, Attack(), 1, 10)
    assert not one(ev, evt.MonsterAttack).hit


def test_heavy_armour_loses_003s_evasion_by_speed() -> None:
    g = make_game("undercroft", 1, ScriptedDice())
    carry(g, "leather_armour")
    act(g, Use(number("leather_armour"), 0))
    assert g.party_speed() == 90 and formulas.escapes_by_speed(g.party_speed(), 60)  # outruns a goblin (60 ft)
    carry(g, "plate_armour")
    act(g, Use(number("plate_armour"), 0))
    assert g.party_speed() == 45 and not formulas.escapes_by_speed(g.party_speed(), 60)
    assert g.state.items.get("leather_armour") == 1  # taken off, back in the pack


# --- potions beyond healing -----------------------------------------------------------------------------------


def test_fleetness_speeds_the_party_until_its_rounds_are_up() -> None:
    g = make_game("undercroft", 1, ScriptedDice())
    carry(g, "fleetness_potion")
    ev = act(g, Use(number("fleetness_potion"), 0))
    assert one(ev, evt.Quaff).until == g.state.rounds + 60 and g.party_speed() == 120
    assert formulas.escapes_by_speed(g.party_speed(), 110)
    ev = act(g, Rest(), NOTHING)  # a turn of rest: 60 rounds
    assert one(ev, evt.EffectEnded).item == "fleetness_potion" and g.party_speed() == 90
    assert say(g, one(ev, evt.EffectEnded)) == "The Potion of Fleetness wears off."


def test_heroism_adds_to_the_attack_roll_in_a_fight() -> None:
    g, _ = duel("orc", "heroism_potion")
    ev = act(g, Attack(), 6, 1)  # 6 + 3 + 2 = 11 >= 11
    assert one(ev, evt.PartyAttack).hit


def test_the_elixir_of_life_is_for_good_up_to_its_limit() -> None:
    g = make_game("undercroft", 1, ScriptedDice())
    m = g.state.party[0]
    elixir = g.content.items["elixir_of_life"]
    assert (elixir.effect, elixir.bonus, elixir.limit) == ("vigour", 3, 12)
    carry(g, "elixir_of_life", 5)
    m.hp = 5
    ev = act(g, Use(number("elixir_of_life"), 0))  # no dice: 3 more maximum HP, and 3 healed
    assert (m.hp, m.max_hp) == (8, 15)
    assert say(g, one(ev, evt.Quaff)) == "You drink the Elixir of Life: +3 maximum hit points for good, HP 8/15."
    act(g, Rest(), NOTHING)  # a turn of rest: nothing wears off
    assert m.max_hp == 15 and not g.state.effects
    growth.gain(g, formulas.renown_for(2, GROWTH), [])  # a level: its own 2 HP, the elixir's 3 kept
    assert m.level == 2 and m.max_hp == 17
    for _ in range(3):
        act(g, Use(number("elixir_of_life"), 0))
    assert m.max_hp == 12 + 2 + 12 and items.vigour_given(g.content, True, m) == 12
    m.hp = 10
    ev = act(g, Use(number("elixir_of_life"), 0))  # the limit reached: it heals, and gives no more
    assert one(ev, evt.Quaff).bonus == 0 and (m.hp, m.max_hp) == (13, 26) and "elixir_of_life" not in g.state.items


def test_a_named_creature_leaves_its_prize_where_it_falls() -> None:
    """Ours: the Rattling King's hoard holds a Long Sword, left on his tile, told, and taken up there."""
    g, _ = duel("rattling_king")
    king = g.state.level.groups[-1]
    where = king.pos
    act(g, Attack(), 20, 1)  # a natural 20: 2 x 6 = 12 of his 14; his blow misses on a 1
    ev = act(g, Attack(), 20)
    won = one(ev, evt.Victory)
    assert won.spoils == ["long_sword"] and g.state.level.items[where] == [("long_sword", 1)]
    assert say(g, won).endswith("Where he fell lies the Long Sword.")  # (his data's pronoun: "he")
    g.state.pos = where
    ev = []
    explore.pickup(g, ev)
    assert one(ev, evt.Wield).item == "long_sword" and where not in g.state.level.items


def test_drink_takes_the_weakest_healing_potion_not_an_effect() -> None:
    g = make_game("undercroft", 1, ScriptedDice())
    g.state.items = {"fleetness_potion": 1, "greater_healing_potion": 1}
    assert items.healing_potion(g) == "greater_healing_potion"
    carry(g, "healing_potion")
    assert items.healing_potion(g) == "healing_potion"


def test_a_lantern_and_clarity_let_the_party_see_farther() -> None:
    g = make_game("undercroft", 1, ScriptedDice())
    base = g.fov_radius()
    carry(g, "lantern", 2)
    assert g.fov_radius() == base + 2  # two lanterns light no farther than one
    carry(g, "clarity_potion")
    act(g, Use(number("clarity_potion"), 0))
    assert g.fov_radius() == base + 5
    assert g.visible().sum() >= 1


def test_use_refuses_what_is_not_carried_or_not_used_so() -> None:
    g = make_game("undercroft", 1, ScriptedDice())
    ev = g.step(Use(number("lantern"), 0))
    assert why(one(ev, evt.Refused)) == Reason(Code.NOT_CARRIED, {"item": "lantern"})
    carry(g, "lantern")
    assert why(one(g.step(Use(number("lantern"), 0)), evt.Refused)) == Reason(Code.NOT_USABLE, {"item": "lantern"})
    assert why(one(g.step(Use(999, 0)), evt.Refused)) == Reason(Code.NO_SUCH_ITEM)
    g.state.items = {}
    assert g.refusal(Use(0)) == Reason(Code.NOTHING_TO_USE)


# --- treasure and growth ---------------------------------------------------------------------------------------


def test_a_gem_carried_down_the_stairs_is_renown() -> None:
    g = clear_unique(make_game("undercroft", 1, ScriptedDice()))  # (the Leech-Mother is on the way)
    st = g.state
    st.level.items[st.pos] = [("silver_idol", 1)]
    explore.pickup(g, [])
    assert st.haul == 120 and st.items["silver_idol"] == 1
    st.party[0].renown = GROWTH.renown_per_level - 1  # a renown short of level 2
    stairs = st.level.map.stairs
    walk_to(g, stairs)
    ev = g.step(Descend())
    assert st.party[0].renown == GROWTH.renown_per_level - 1 + 120 // GROWTH.gold_per_renown and st.haul == 0
    assert one(ev, evt.LevelUp).level == formulas.level_for(st.party[0].renown, GROWTH)


def test_victories_raise_the_delver_a_level_with_hit_points_and_might() -> None:
    g = make_game("undercroft", 1, ScriptedDice())
    meet(g, "orc", faces=encounter_faces())
    act(g, Fight())
    m = g.state.party[0]
    m.renown = formulas.renown_for(3, GROWTH) - 1  # one short of level 3
    m.level = 2
    g.state.front_group().set_hp(0, 1)  # type: ignore[union-attr]
    ev = act(g, Attack(), 15)
    up = one(ev, evt.LevelUp)
    assert up.level == 3 and 3 in GROWTH.might_at
    assert (up.member, up.name, up.max_hp, up.might) == (0, "Delver", 12 + GROWTH.hp_per_level, 4)
    assert m.max_hp == 14 and m.hp == 12 and m.might == 4
    assert say(g, of(ev, evt.LevelUp)[0]) == "You reach level 3: HP 14, MIGHT 4, AGILITY 3."


@pytest.mark.parametrize(("level", "earned"), [(3, 29), (4, 14), (5, 7), (6, 3)])
def test_a_delver_who_has_outgrown_the_floor_earns_less_renown(level: int, earned: int) -> None:
    """On floor 1 an orc (worth 29) is whole renown up to level 3 (the floor's number and ``outgrown_after`` 2
    more), half at level 4, a quarter at 5, an eighth at 6 (rounded down): a delver level 10 on floor 2 is no
    longer made by farming the first floors."""
    assert GROWTH.outgrown_after == 2 and content().monsters["orc"].worth == 29
    g = make_game("undercroft", 1, ScriptedDice())
    meet(g, "orc", faces=encounter_faces())
    act(g, Fight())
    m = g.state.party[0]
    m.level = level
    m.renown = formulas.renown_for(level, GROWTH)
    g.state.front_group().set_hp(0, 1)  # type: ignore[union-attr]
    act(g, Attack(), 15)
    assert g.state.mode == Mode.EXPLORE and m.renown == formulas.renown_for(level, GROWTH) + earned


@pytest.mark.parametrize(("floor", "earned"), [(5, 48), (6, 24), (7, 48), (8, 48)])
def test_below_the_fifth_floor_renown_halves_from_the_first_level_above_the_floor(floor: int, earned: int) -> None:
    """A level-7 delver's victory worth 48: whole on floor 5 (the rules' ``outgrown_after`` 2), half on floor 6
    (the deep floors' own ``outgrown_after`` 0: one level above it), whole again on floors 7 and 8: a grinder who
    rests and fights its way a level ahead down there grows no faster than the floors."""
    levels = content().rulesets["undercroft"].levels
    assert levels[4].outgrown_after is None and [lv.outgrown_after for lv in levels[5:]] == [0, 0, 0]
    g = make_game("undercroft", 1, ScriptedDice())
    m = g.state.party[0]
    m.level, m.renown = 7, formulas.renown_for(7, GROWTH)
    growth.gain(g, 48, [], floor=floor)
    assert m.renown == formulas.renown_for(7, GROWTH) + earned


def test_a_gem_is_whole_renown_however_far_the_delver_has_outgrown_the_floor() -> None:
    g = make_game("undercroft", 1, ScriptedDice())
    m = g.state.party[0]
    m.level, m.renown = 9, formulas.renown_for(9, GROWTH)
    g.state.haul = 120
    growth.descend(g, [])
    assert m.renown == formulas.renown_for(9, GROWTH) + 120 // GROWTH.gold_per_renown


def test_a_party_shares_the_renown_each_its_own() -> None:
    g = make_game("citadel", 1, ScriptedDice())
    growth.gain(g, 6, [])
    assert [m.renown for m in g.state.party] == [0, 0, 0, 0]  # the citadel plays 000 as written: no growth
    g.rs = g.rs.model_copy(update={"growth": True})  # (as a ruleset with a party and growth would)
    growth.gain(g, 6, [])
    assert [m.renown for m in g.state.party] == [2, 2, 1, 1]


def test_growth_stops_at_the_level_cap() -> None:
    g = make_game("undercroft", 1, ScriptedDice())
    m = g.state.party[0]
    cap = GROWTH.max_level
    m.renown = formulas.renown_for(cap - 1, GROWTH)  # exactly level cap - 1
    m.level = cap - 1
    events: list[Event] = []
    plenty = formulas.renown_for(cap, GROWTH) * 50  # renown for many levels more
    growth.gain(g, plenty, events)
    assert [e.level for e in of(events, evt.LevelUp)] == [cap] and m.level == cap
    max_hp, might, agility = m.max_hp, m.might, m.agility
    events = []
    growth.gain(g, plenty, events)  # at the cap: renown, but no level
    assert not of(events, evt.LevelUp) and m.level == cap
    assert (m.max_hp, m.might, m.agility) == (max_hp, might, agility)
    assert m.renown == formulas.renown_for(cap - 1, GROWTH) + 2 * plenty


def test_each_level_costs_more_renown_than_the_one_before() -> None:
    # the curve: level 2 at 60 renown, then each level 70 more than the last: 190, 390, 660...
    assert [formulas.renown_for(level, GROWTH) for level in range(1, 6)] == [0, 60, 190, 390, 660]
    g = make_game("undercroft", 1, ScriptedDice())
    m = g.state.party[0]
    events: list[Event] = []
    growth.gain(g, 389, events)  # a renown short of level 4: levels 2 and 3
    assert [e.level for e in of(events, evt.LevelUp)] == [2, 3] and m.level == 3
    events = []
    growth.gain(g, 1, events)
    assert [e.level for e in of(events, evt.LevelUp)] == [4] and m.max_hp == 12 + 3 * GROWTH.hp_per_level
    assert 4 in GROWTH.rest_heal_at
    assert say(g, of(events, evt.LevelUp)[0]) == "You reach level 4: HP 18, MIGHT 4, AGILITY 4. A turn of rest heals 2."
    events = []
    growth.gain(g, 269, events)  # level 5 is 270 more: one short
    assert not of(events, evt.LevelUp) and m.level == 4


# --- the merchant -------------------------------------------------------------------------------------------------


def descend_to_shop(gold: int = 100) -> tuple[Game, list[Event]]:
    g = clear_unique(make_game("undercroft", 1, ScriptedDice(), gold=gold))  # (the Leech-Mother is on the way)
    walk_to(g, g.state.level.map.stairs)
    ev = g.step(Descend())
    script(g).push(NOTHING)  # the room arrived in: its monster check (000), once the merchant is left
    return g, ev


def test_a_merchant_waits_at_the_foot_of_the_stairs() -> None:
    g, ev = descend_to_shop()
    told = one(ev, evt.Shop)
    assert g.state.mode == Mode.SHOP and told.stock == shop.for_sale(g.state) == list(told.wares)
    assert set(told.stock) <= set(shop.stock(content(), 1)) and kinds(ev)[-1] == "shop"
    had = g.state.wares["healing_potion"]
    ev = g.step(Buy(number("healing_potion")))
    assert one(ev, evt.Bought) == evt.Bought(item="healing_potion", price=50, gold=50, left=had - 1)
    assert g.state.gold == 50 and g.state.items["healing_potion"] == 3
    assert say(g, one(ev, evt.Bought)) == "You buy the Healing Potion for 50 gold (50 left)."
    assert why(one(g.step(Buy(number("plate_armour"))), evt.Refused)) == Reason(Code.NOT_SOLD, {"item": "plate_armour"})
    g.state.gold = 5
    assert why(one(g.step(Buy(number("healing_potion"))), evt.Refused)) == Reason(
        Code.TOO_DEAR, {"item": "healing_potion"}
    )
    assert one(g.step(LeaveShop()), evt.ShopLeft) and g.mode == Mode.EXPLORE


def test_a_merchant_has_only_so_many_of_a_ware() -> None:
    g, _ = descend_to_shop(gold=1000)
    had = g.state.wares["healing_potion"]
    assert 2 <= had <= 3  # floor 2: 1d2+1 of them
    for n in range(had):
        assert one(g.step(Buy(number("healing_potion"))), evt.Bought).left == had - 1 - n
    ev = g.step(Buy(number("healing_potion")))
    assert why(one(ev, evt.Refused)) == Reason(Code.SOLD_OUT, {"item": "healing_potion"})
    assert say(g, one(ev, evt.Refused)) == "The merchant has no Healing Potion left."
    assert "healing_potion" not in shop.for_sale(g.state) and g.state.gold == 1000 - 50 * had
    g.step(LeaveShop())
    assert g.state.wares == {}


def test_deep_merchants_have_fewer_potions() -> None:
    """Floors 5-8: a healing potion with one merchant in two (1d2-1), where floors 1-4 have 2 or 3 (1d2+1)."""
    counts: dict[int, set[int]] = {0: set(), 4: set()}
    for seed in range(40):
        g = make_game("undercroft", seed)
        for depth in counts:
            g.state.depth = depth
            shop.open_shop(g, [])
            counts[depth].add(g.state.wares.get("healing_potion", 0))
    assert counts == {0: {2, 3}, 4: {0, 1}}


def test_a_deep_ware_is_with_a_merchant_only_as_often_as_its_chance() -> None:
    """A ware with a ``chance``: the merchant has it on a d100 face up to the chance, not above; on the sixth floor
    about three merchants in ten have a Runed Blade (chance 30), and every one a mail shirt (no chance: always)."""
    assert shop.stocked(30, 1) and shop.stocked(30, 30) and not shop.stocked(30, 31)
    assert not shop.stocked(0, 1) and shop.stocked(100, 100)
    chance = next(s.chance for s in content().rules.shop.stock if s.item == "runed_blade")
    g = make_game("undercroft", 1)
    g.state.depth = 5
    had = 0
    for seed in range(60):
        g.streams = Streams(seed)  # each merchant's stock is its own stream's
        shop.open_shop(g, [])
        had += "runed_blade" in g.state.wares
        assert g.state.wares["mail_shirt"] == 1
    assert chance == 30 and 6 <= had <= 30  # 18 expected of 60


def test_gold_equal_to_the_price_buys_and_a_coin_less_does_not() -> None:
    price = ITEMS["healing_potion"].price
    assert price is not None
    g, _ = descend_to_shop(gold=price - 1)
    assert why(one(g.step(Buy(number("healing_potion"))), evt.Refused)) == Reason(
        Code.TOO_DEAR, {"item": "healing_potion"}
    )
    assert g.state.gold == price - 1 and g.state.items["healing_potion"] == 2
    g.state.gold = price
    ev = g.step(Buy(number("healing_potion")))
    left = g.state.wares["healing_potion"]
    assert one(ev, evt.Bought) == evt.Bought(item="healing_potion", price=price, gold=0, left=left)
    assert g.state.gold == 0 and g.state.items["healing_potion"] == 3


def test_a_chart_bought_from_the_merchant_marks_the_way_down_once() -> None:
    g, _ = descend_to_shop(gold=300)
    price = ITEMS["delvers_chart"].price
    assert g.state.wares["delvers_chart"] == 1 and price is not None
    g.step(Buy(number("delvers_chart")))
    g.step(LeaveShop())
    x, y = g.state.level.map.stairs
    assert not g.state.level.explored[y, x] and not travel.path(g, (x, y))
    ev = g.step(Use(number("delvers_chart")))
    read = one(ev, evt.Charted)
    assert read == evt.Charted(item="delvers_chart", stairs=[x, y], out=False)
    assert say(g, read) == "You read the Delver's Chart: the way down is on your map (> to go)."
    assert g.state.level.explored[y, x] and travel.path(g, (x, y))  # the way there, to travel by
    assert g.state.items["delvers_chart"] == 0 and g.state.gold == 300 - price
    assert say(g, evt.Charted(item=read.item, stairs=read.stairs, out=True)).endswith(
        "the way out is on your map (> to go)."
    )


def test_a_chart_is_not_wasted_where_the_way_down_is_known_nor_read_in_a_fight() -> None:
    g = make_game("undercroft", 1, ScriptedDice())
    carry(g, "delvers_chart")
    x, y = g.state.level.map.stairs
    g.state.level.memory[y, x] = True  # seen before
    refused = one(g.step(Use(number("delvers_chart"))), evt.Refused)
    assert why(refused) == Reason(Code.WAY_KNOWN, {"item": "delvers_chart"})
    assert say(g, refused) == "You know the way down already: keep the Delver's Chart for a floor you do not."
    g.state.level.memory[y, x] = False
    meet(g, "orc", faces=encounter_faces())
    assert why(one(g.step(Use(number("delvers_chart"))), evt.Refused)).code == Code.NOT_NOW
    assert g.state.items["delvers_chart"] == 1


def test_no_merchant_where_the_ruleset_has_none() -> None:
    g = make_game("citadel", 1, ScriptedDice())
    walk_to(g, g.state.level.map.stairs)
    ev = act(g, Descend(), NOTHING)  # no merchant: the room arrived in gets its monster check at once (000)
    assert g.state.mode == Mode.EXPLORE and not of(ev, evt.Shop)
    assert one(ev, evt.Roll, purpose="monster_check").result == "none" and of(ev, evt.Enter)


def test_shop_actions_are_recorded_as_text() -> None:
    for a in (Buy(3), LeaveShop(), Use(5, 1)):
        assert action_from_text(action_to_text(a)) == a
    assert action_to_text(Use(5, 1)) == "use 5 1"


# --- talk that pays ------------------------------------------------------------------------------------------------


def talk_to(monster: str, *faces: int, agreements: bool = True) -> tuple[Game, list[Event]]:
    """The citadel's party (its priest's +2) talks to ``monster`` with ``faces`` on the 2d6; with ``agreements``,
    talk that pays turned on for it as undercroft has it (the citadel plays its text: terms and nothing more)."""
    g = make_game("citadel", 1, ScriptedDice())
    if agreements:
        g.rs = g.rs.model_copy(update={"agreements": True})
    meet(g, monster)
    return g, act(g, Talk(), *faces)


def test_talk_pays_only_where_the_ruleset_turns_it_on() -> None:
    assert [r for r, rs in content().rulesets.items() if rs.agreements] == ["undercroft"]
    g, ev = talk_to("kobold", 3, 3, agreements=False)  # an agreement, in the citadel as shipped
    assert one(ev, evt.Negotiate).result == "agreement" and g.state.group(one(ev, evt.Negotiate).group).peaceful
    assert not of(ev, evt.Directions) and not of(ev, evt.Hired) and not of(ev, evt.Trade)


def test_kobolds_sell_directions_the_stairs_on_the_map() -> None:
    g, ev = talk_to("kobold", 3, 3)  # 6 - 1 + 2 = 7: agreement
    stairs = g.state.level.map.stairs
    d = one(ev, evt.Directions)
    assert d.stairs == list(stairs) and d.known is False and g.state.level.explored[stairs[1], stairs[0]]
    assert re.match(r"The Kobold tells you the way down", say(g, d))
    # the way there too: the party can travel to the stairs over what it knows
    assert travel.path(g, stairs)


def test_kobolds_tell_nothing_new_when_the_stairs_are_known() -> None:
    g = make_game("citadel", 1, ScriptedDice())
    g.rs = g.rs.model_copy(update={"agreements": True})  # (as in talk_to)
    x, y = g.state.level.map.stairs
    g.state.level.memory[y, x] = True  # seen before the talk
    meet(g, "kobold")
    before = g.state.level.explored.copy()
    d = one(act(g, Talk(), 3, 3), evt.Directions)
    assert d.known is True and (g.state.level.explored == before).all()  # nothing drawn on the map
    assert say(g, d) == "The Kobold points you to the stairs you know already: nothing new."


def test_a_failed_talk_sells_nothing() -> None:
    _g, ev = talk_to("kobold", 1, 1)
    assert not of(ev, evt.Directions)


def test_a_sellsword_follows_and_fights_beside_the_party_for_the_floor() -> None:
    g, ev = talk_to("sellsword_for_hire", 3, 4)  # 7 - 2 + 2 = 7: agreement
    assert one(ev, evt.Hired) and g.state.mode == Mode.EXPLORE
    sword = g.state.level.groups[0]
    assert sword.hired and g.hirelings() == [sword] and g.group_at(sword.pos) is None
    # a goblin: the party of four misses (natural 1s), the sellsword hits on 15 + 3 >= 10 for 4, the goblin misses
    foe = g.add_group("goblin", 1)
    g.start_encounter(foe)
    act(g, Fight())
    ev = act(g, Attack(), 1, 1, 1, 1, 15, 1)
    hit = one(ev, evt.HirelingAttack)
    assert hit.hit and hit.damage == 4 and foe.hp == (1,)
    assert say(g, hit) == "The Sellsword for Hire hits Goblin. 4 damage. Goblin at 1."


def test_the_hireling_stays_behind_on_the_stairs() -> None:
    g, _ = talk_to("sellsword_for_hire", 3, 4)
    walk_to(g, g.state.level.map.stairs)
    assert g.state.level.groups[0].pos == g.state.prev_pos  # it kept one step behind
    ev = act(g, Descend(), NOTHING)  # (the room arrived in: its monster check)
    assert one(ev, evt.HirelingLeft) and not g.state.levels[0].groups


def test_a_peddler_come_to_terms_opens_its_pack() -> None:
    g, ev = talk_to("peddler", 3, 3)  # 6 - 0 + 2 = 8
    t = one(ev, evt.Trade)
    assert g.state.mode == Mode.SHOP and t.stock == shop.for_sale(g.state)
    assert set(t.stock) <= set(shop.stock(content(), 0))
    assert one(g.step(LeaveShop()), evt.ShopLeft) and g.mode == Mode.EXPLORE


@pytest.mark.parametrize("monster", ["kobold", "peddler", "sellsword_for_hire"])
def test_the_three_agreements_are_data(monster: str) -> None:
    assert content().monsters[monster].agreement in ("directions", "trade", "hireling")
