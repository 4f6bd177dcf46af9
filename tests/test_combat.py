"""The d20 fight of seed 001 ("Fighting") with the fatigue and minimum damage of seed 003, through ``step()``.

Every roll is forced with :class:`ScriptedDice`; each test also checks that the engine used exactly the faces it
was given (a rule that rolls one die too many or too few fails with ScriptExhausted or leftover faces).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest
from engine_helpers import attacks, content, kinds, of, one, roll_line, say, why

from undercroft.content import Content
from undercroft.rules import events as evt
from undercroft.rules.actions import Action, Attack, Bribe, Drink, Fight, Move, Rest, Talk, Wait
from undercroft.rules.context import init_behaviour
from undercroft.rules.dice import Dice, ScriptedDice
from undercroft.rules.events import Event
from undercroft.rules.game import Game
from undercroft.rules.refusals import Code
from undercroft.rules.state import Encounter, Group
from undercroft.rules.types import Mode, Origin

# --- helpers -------------------------------------------------------------------------------------------------


def new_game(ruleset: str = "warden", data: Content | None = None, seed: int = 1) -> tuple[Game, ScriptedDice]:
    """A game whose every roll is scripted; the start gold's dice are answered with 1s first."""
    c = data or content()
    n = Dice.parse(c.ruleset(ruleset).start_gold).count
    dice = ScriptedDice([1] * n)
    game = Game(c, ruleset, seed, dice=dice)
    assert dice.remaining == 0
    dice.used.clear()
    return game, dice


def place(game: Game, monster: str, count: int = 1, *, hp: Sequence[int] | None = None, treasure: int = 0) -> Group:
    """Put ``count`` x ``monster`` in the party's segment, on a floor tile next to it, met and in front of it."""
    st = game.state
    mon = game.content.monsters[monster]
    m = st.level.map
    spots = [(st.pos[0] + dx, st.pos[1] + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1))]
    pos = next(p for p in spots if m.tiles[p[1], p[0]] != 0 and int(m.segment_of[p[1], p[0]]) == st.segment)
    g = Group(
        st.next_group,
        monster,
        list(hp) if hp else [mon.hp] * count,
        mon.hp,
        st.depth,
        st.segment,
        pos,
        Origin.RESIDENT,
        treasure,
        met=True,
    )
    st.next_group += 1
    init_behaviour(g, mon)
    st.level.groups.append(g)
    st.mode, st.encounter = Mode.ENCOUNTER, Encounter(g.id, entry=st.prev_pos, first_round=False)
    return g


def engage(
    game: Game, monster: str, count: int = 1, *, hp: Sequence[int] | None = None, treasure: int = 0
) -> tuple[Group, list[Event]]:
    """Place the monsters and Fight them (step)."""
    g = place(game, monster, count, hp=hp, treasure=treasure)
    events = game.step(Fight())
    assert game.state.mode == "combat", events
    return g, events


def step(game: Game, dice: ScriptedDice, action: Action, *faces: int) -> list[Event]:
    """Script exactly ``faces`` and take ``action``: every face must be used."""
    dice.push(*faces)
    events = game.step(action)
    assert dice.remaining == 0, f"{dice.remaining} scripted faces left unused: {events}"
    return events


def party_attack(events: list[Event]) -> evt.PartyAttack:
    return one(events, evt.PartyAttack)


def monster_attacks(events: list[Event]) -> list[evt.MonsterAttack]:
    return of(events, evt.MonsterAttack)


def with_monster(monster: str, **changes: object) -> Content:
    c = content()
    mon = c.monsters[monster].model_copy(update=changes)
    return dataclasses.replace(c, monsters={**c.monsters, monster: mon})


# --- to hit --------------------------------------------------------------------------------------------------


@pytest.mark.clause("001-roll-3")
def test_delver_hits_on_d20_plus_might_at_or_over_defense_exactly() -> None:
    game, dice = new_game()
    g, _ = engage(game, "ghoul")  # defense 12, the delver's MIGHT is 3
    assert game.content.monsters["ghoul"].defense == 12 and game.state.party[0].might == 3
    ev = step(game, dice, Attack(0), 9, 1)  # 9 + 3 = 12: equal to defense hits
    a = party_attack(ev)
    assert (a.natural, a.modifier, a.total, a.defense, a.hit) == (9, 3, 12, 12, True)
    assert g.hp == (2,)
    ev = step(game, dice, Attack(0), 8, 1)  # 8 + 3 = 11: one less misses
    a = party_attack(ev)
    assert (a.total, a.hit, a.damage) == (11, False, 0)
    assert g.hp == (2,)


@pytest.mark.clause("001-roll-8")
def test_a_natural_one_misses_whatever_the_bonus() -> None:
    game, dice = new_game()
    g, _ = engage(game, "ghoul", hp=[200])
    game.state.party[0].might = 50
    ev = step(game, dice, Attack(0), 1, 1)
    a = party_attack(ev)
    assert a.natural == 1 and a.total == 51 and a.total >= a.defense
    assert a.hit is False and a.damage == 0 and g.hp == (200,)
    assert say(game, ev[0]) == "You miss."
    ev = step(game, dice, Attack(0), 2, 1)  # any other face with MIGHT 50 hits
    assert party_attack(ev).hit and g.hp == (147,)


@pytest.mark.clause("001-roll-8")
def test_a_monster_natural_one_misses_whatever_its_attack() -> None:
    game, dice = new_game(data=with_monster("ghoul", attack=30))
    engage(game, "ghoul")
    ev = step(game, dice, Attack(0), 2, 1)
    m = one(ev, evt.MonsterAttack)
    assert m.total == 31 and m.hit is False and say(game, m) == "Ghoul misses."
    assert game.state.party[0].hp == 12


@pytest.mark.clause("001-roll-7")
def test_a_natural_twenty_hits_anything_for_double_damage() -> None:
    game, dice = new_game(data=with_monster("ghoul", defense=40))
    g, _ = engage(game, "ghoul", hp=[20])
    ev = step(game, dice, Attack(0), 19, 1)  # 19 + 3 = 22 < 40: a miss
    assert not party_attack(ev).hit
    ev = step(game, dice, Attack(0), 20, 1)  # 20 + 3 = 23 < 40, but a natural 20 hits
    a = party_attack(ev)
    assert a.hit and a.critical and a.total == 23 and a.defense == 40
    assert a.damage == 2 * 6 and g.hp == (8,) and a.target_hp_after == 8


@pytest.mark.clause("001-roll-7")
def test_a_monster_natural_twenty_deals_double_damage() -> None:
    game, dice = new_game()
    engage(game, "ghoul")
    ev = step(game, dice, Attack(0), 2, 20)
    m = one(ev, evt.MonsterAttack)
    assert m.hit and m.critical and m.damage == 6
    assert say(game, m) == "A critical hit! Ghoul hits. 6 damage. HP 6/12."


@pytest.mark.clause("001-roll-5")
@pytest.mark.parametrize(("might", "weapon"), [(3, 3), (5, 3), (3, 1), (0, 2)])
def test_damage_is_flat_might_plus_weapon(might: int, weapon: int) -> None:
    game, dice = new_game()
    g, _ = engage(game, "ghoul", hp=[30])
    d = game.state.party[0]
    d.might, d.weapon = might, weapon
    ev = step(game, dice, Attack(0), 19, 1)
    a = party_attack(ev)
    assert a.hit and a.damage == might + weapon and g.hp == (30 - might - weapon,)


@pytest.mark.clause("001-roll-5")
def test_the_starting_kit_deals_the_standard_six() -> None:
    game, _ = new_game()
    d = game.state.party[0]
    assert d.might + d.weapon == 6 and d.hp == d.max_hp == 12


@pytest.mark.clause("001-roll-4", "001-roll-6")
def test_monster_hits_on_d20_plus_attack_at_or_over_delver_defense() -> None:
    game, dice = new_game()
    engage(game, "ghoul")  # attack 3, damage 3; the delver's defense is 12
    assert game.state.party[0].defense == 12
    ev = step(game, dice, Attack(0), 2, 9)  # 9 + 3 = 12 hits
    m = one(ev, evt.MonsterAttack)
    assert (m.natural, m.modifier, m.total, m.defense, m.hit, m.damage) == (9, 3, 12, 12, True, 3)
    assert game.state.party[0].hp == 9
    ev = step(game, dice, Attack(0), 2, 8)  # 11 misses
    m = one(ev, evt.MonsterAttack)
    assert (m.total, m.hit, m.damage, m.target_hp_after) == (11, False, 0, 9)


# --- order -----------------------------------------------------------------------------------------------------


@pytest.mark.clause("001-order-2")
def test_agility_tie_goes_to_the_player() -> None:
    game, dice = new_game()
    _, ev = engage(game, "ghoul")  # agility 3 against the delver's 3
    assert one(ev, evt.Initiative).first == "party" and one(ev, evt.Combat).first == "party"
    assert not attacks(ev) and dice.used == []
    assert game.state.combat is not None and game.state.combat.party_turn


@pytest.mark.clause("001-order-1")
def test_higher_monster_agility_acts_first() -> None:
    game, dice = new_game()
    dice.push(9)
    _, ev = engage(game, "gaoler")  # agility 4
    assert dice.remaining == 0
    assert one(ev, evt.Initiative).first == "monsters"
    assert kinds(ev)[-1] == "attack" and isinstance(ev[-1], evt.MonsterAttack)
    assert game.state.combat is not None and game.state.combat.party_turn  # then it alternates


@pytest.mark.clause("001-order-1")
def test_higher_delver_agility_acts_first() -> None:
    game, dice = new_game()
    game.state.party[0].agility = 5
    _, ev = engage(game, "gaoler")
    assert one(ev, evt.Initiative).first == "party" and not attacks(ev) and dice.used == []


@pytest.mark.clause("000-gen-5", "001-order-3")
def test_sides_alternate_until_one_is_down() -> None:
    game, dice = new_game()
    g, _ = engage(game, "ghoul")
    ev = step(game, dice, Attack(0), 15, 2)
    assert [e.attacker_side for e in attacks(ev)] == ["party", "monsters"]
    ev = step(game, dice, Attack(0), 15)  # 2 - 6: down; it never acts again
    assert [e.attacker_side for e in attacks(ev)] == ["party"]
    assert kinds(ev)[-2:] == ["kill", "victory"] and g.defeated


# --- several monsters ------------------------------------------------------------------------------------------


@pytest.mark.clause("001-order-4")
def test_three_monsters_are_three_pools_kill_one_and_there_are_two() -> None:
    game, dice = new_game()
    g, _ = engage(game, "ghoul", 3)
    ev = step(game, dice, Attack(0), 15, 1, 1, 1)
    assert g.hp == (2, 8, 8)
    assert say(game, party_attack(ev)) == "You hit. 6 damage. Ghoul #1 at 2."
    assert [e.attacker_index for e in monster_attacks(ev)] == [0, 1, 2]
    ev = step(game, dice, Attack(0), 15, 1, 1)
    assert g.hp == (0, 8, 8) and g.alive == [1, 2]
    assert one(ev, evt.Kill).index == 0
    assert [e.attacker_index for e in monster_attacks(ev)] == [1, 2]  # kill one and there are two
    assert game.state.mode == "combat"


def test_target_selection() -> None:
    game, dice = new_game()
    g, _ = engage(game, "ghoul", 3)
    ev = step(game, dice, Attack(2), 15, 1, 1, 1)
    a = party_attack(ev)
    assert a.target_index == 2 and g.hp == (8, 8, 2)
    assert say(game, a) == "You hit. 6 damage. Ghoul #3 at 2."
    ev = step(game, dice, Attack(2), 15, 1, 1)
    assert g.hp == (8, 8, 0)
    before = game.checksum()
    for bad in (Attack(2), Attack(3), Attack(-1)):  # a dead one, none at all
        ev = game.step(bad)
        assert kinds(ev) == ["refused"] and game.checksum() == before
    ev = step(game, dice, Attack(1), 15, 1, 1)
    assert g.hp == (8, 2, 0)


# --- the report ------------------------------------------------------------------------------------------------


@pytest.mark.clause("001-report-1", "001-report-2", "001-report-3")
def test_log_lines_are_exactly_the_texts() -> None:
    game, dice = new_game()
    engage(game, "ghoul")
    ev = step(game, dice, Attack(0), 15, 9)
    assert [say(game, e) for e in attacks(ev)] == [
        "You hit. 6 damage. Ghoul at 2.",
        "Ghoul hits. 3 damage. HP 9/12.",
    ]
    assert roll_line(game, party_attack(ev)) == "You roll 15 + 3 = 18 vs defense 12."
    ev = step(game, dice, Attack(0), 2, 8)
    assert [say(game, e) for e in attacks(ev)] == ["You miss.", "Ghoul misses."]
    assert roll_line(game, party_attack(ev)) == "You roll 2 + 3 = 5 vs defense 12."


@pytest.mark.clause("001-roll-2")
def test_roll_text_form() -> None:
    game, dice = new_game()
    engage(game, "empty_harness")  # defense 13
    ev = step(game, dice, Attack(0), 14, 1)
    a = party_attack(ev)
    assert roll_line(game, a) == "You roll 14 + 3 = 17 vs defense 13."
    assert say(game, a) == "You hit. 6 damage. Empty Harness at 8."
    # the player's roll and outcome come before the monster's outcome
    assert kinds(ev).index("attack") == ev.index(a) and ev.index(a) < ev.index(monster_attacks(ev)[0])


@pytest.mark.clause("001-report-1")
def test_attack_event_fields() -> None:
    game, dice = new_game()
    engage(game, "ghoul")
    ev = step(game, dice, Attack(0), 15, 8)
    a, m = party_attack(ev), one(ev, evt.MonsterAttack)
    assert {
        k: getattr(a, k)
        for k in ("attacker", "target", "natural", "modifier", "total", "defense", "hit", "damage", "target_hp_after")
    } == {
        "attacker": "delver",
        "target": "ghoul",
        "natural": 15,
        "modifier": 3,
        "total": 18,
        "defense": 12,
        "hit": True,
        "damage": 6,
        "target_hp_after": 2,
    }
    assert {
        k: getattr(m, k)
        for k in ("attacker", "target", "natural", "modifier", "total", "defense", "hit", "damage", "target_hp_after")
    } == {
        "attacker": "ghoul",
        "target": "delver",
        "natural": 8,
        "modifier": 3,
        "total": 11,
        "defense": 12,
        "hit": False,
        "damage": 0,
        "target_hp_after": 12,
    }


# --- exhaustion (seed 003) -------------------------------------------------------------------------------------


@pytest.mark.clause("003-running-5", "003-running-6")
def test_exhaustion_minus_two_to_hit_and_damage_and_plus_two_for_the_opponent() -> None:
    game, dice = new_game("undercroft")
    game.state.exhausted = True
    g, _ = engage(game, "ghoul")
    ev = step(game, dice, Attack(0), 11, 7)  # 11 + 3 - 2 = 12 hits for 6 - 2; 7 + 3 + 2 = 12 hits
    a, m = party_attack(ev), one(ev, evt.MonsterAttack)
    assert (a.modifier, a.total, a.hit, a.damage) == (1, 12, True, 4) and g.hp == (4,)
    assert (m.modifier, m.total, m.hit, m.damage) == (5, 12, True, 3)
    assert say(game, a) == "You hit. 4 damage. Ghoul at 4."
    ev = step(game, dice, Attack(0), 10, 6)  # 11 and 11: both miss
    assert [e.hit for e in attacks(ev)] == [False, False]


def test_not_exhausted_no_penalty() -> None:
    game, dice = new_game("undercroft")
    _g, _ = engage(game, "ghoul")
    ev = step(game, dice, Attack(0), 10, 7)  # 13 hits for 6; 10 misses
    assert [(e.hit, e.damage) for e in attacks(ev)] == [(True, 6), (False, 0)]


@pytest.mark.clause("003-running-7")
def test_exhaustion_ignored_by_a_ruleset_without_fatigue() -> None:
    game, dice = new_game("warden")
    game.state.exhausted = True
    engage(game, "ghoul")
    ev = step(game, dice, Attack(0), 10, 7)
    assert [(e.modifier, e.damage) for e in attacks(ev)] == [(3, 6), (3, 0)]


@pytest.mark.clause("003-running-8")
@pytest.mark.parametrize(("natural", "damage"), [(13, 1), (20, 1)])
def test_any_hit_deals_at_least_one(natural: int, damage: int) -> None:
    game, dice = new_game("undercroft")
    game.state.exhausted = True
    d = game.state.party[0]
    d.might, d.weapon = 1, 0  # 1 + 0 - 2 = -1 damage (doubled on a 20: -2)
    g, _ = engage(game, "ghoul")
    ev = step(game, dice, Attack(0), natural, 1)  # 13 + 1 - 2 = 12 hits
    a = party_attack(ev)
    assert a.hit and a.damage == damage and g.hp == (8 - damage,)


# --- drinking --------------------------------------------------------------------------------------------------


@pytest.mark.clause("001-end-2")
def test_drinking_takes_the_action_and_heals_by_the_data_dice_up_to_max() -> None:
    game, dice = new_game()
    potion = game.content.items["healing_potion"]
    assert potion.heal == "2d4+4"
    engage(game, "ghoul")
    d = game.state.party[0]
    d.hp = 2
    ev = step(game, dice, Drink(0), 1, 2, 9)  # 1 + 2 + 4 = 7: 2 -> 9; then the ghoul acts (9 + 3 hits)
    assert kinds(ev) == ["roll", "drink", "attack"]
    assert one(ev, evt.Drink).heal == 7 and say(game, ev[1]) == "You drink. 7 healed. HP 9/12."
    assert isinstance(ev[2], evt.MonsterAttack) and d.hp == 6
    assert game.state.items["healing_potion"] == 1
    ev = step(game, dice, Drink(0), 4, 4, 1)  # 12 would give 18: capped at 12
    assert one(ev, evt.Drink).heal == 12 and d.hp == 12 and say(game, ev[1]) == "You drink. 6 healed. HP 12/12."
    assert "healing_potion" not in game.state.items


@pytest.mark.clause("001-end-2")
def test_drinking_is_refused_without_a_potion() -> None:
    game, dice = new_game()
    engage(game, "ghoul")
    game.state.items.clear()
    game.state.party[0].hp = 5
    before = game.checksum()
    ev = game.step(Drink(0))
    assert kinds(ev) == ["refused"] and why(ev[0]).code == Code.NO_POTION
    assert game.checksum() == before and game.state.party[0].hp == 5 and dice.used == []


# --- victory ---------------------------------------------------------------------------------------------------


@pytest.mark.clause("000-gen-6", "000-8.7h")
def test_victory_gives_the_treasure_and_the_bribes_to_the_party() -> None:
    game, dice = new_game()
    g, _ = engage(game, "ghoul", hp=[2], treasure=40)
    g.bribes = 10
    gold = game.state.gold
    ev = step(game, dice, Attack(0), 15)
    v = one(ev, evt.Victory)
    assert v.gold == 50 and v.shares == [["delver", 50]]
    assert game.state.gold == gold + 50 and game.state.mode == "explore"
    assert g not in game.state.level.groups
    assert say(game, v) == "The Ghoul is defeated. You take 50 gold."


@pytest.mark.clause("000-gen-6")
def test_a_party_divides_the_treasure_in_shares() -> None:
    game, dice = new_game("citadel")  # warrior, rogue, priest, mage; 6d6x10 start gold answered with 1s: 60
    assert [m.template for m in game.state.party] == ["warrior", "rogue", "priest", "mage"]
    assert game.state.gold == 60
    g = place(game, "ghoul", treasure=40)
    g.met = False
    game.start_encounter(g)  # the citadel: no distance, surprise or reaction
    assert game.state.mode == "encounter" and dice.used == []
    ev = step(game, dice, Talk(), 1, 1)  # 2 - 4 reluctance + 2 (the priest) = 0: failure
    assert one(ev, evt.Negotiate).result == "failure"
    ev = step(game, dice, Bribe(30), 6, 1)  # strength 4 + reluctance 4, 30 gold: digit 1; a 6 refuses;
    assert one(ev, evt.Bribe).result == "refused"  # the ghoul attacks first (a 1 misses)
    assert g.bribes == 30 and game.state.gold == 30
    ev = step(game, dice, Attack(0), 15, 15)  # the warrior: 6 (8 -> 2); the rogue: 3 (dead)
    assert [e.attacker for e in attacks(ev)] == ["warrior", "rogue"]
    v = one(ev, evt.Victory)
    assert v.gold == 70
    assert v.shares == [["warrior", 18], ["rogue", 18], ["priest", 17], ["mage", 17]]
    assert sum(n for _, n in v.shares) == 70 and game.state.gold == 100
    assert "Shares: Warrior 18, Rogue 18, Priest 17, Mage 17." in say(game, v)


# --- death -----------------------------------------------------------------------------------------------------


@pytest.mark.clause("000-gen-5", "001-die-1", "001-die-3")
def test_zero_hp_is_dead_and_the_game_is_over() -> None:
    game, dice = new_game(seed=4242)
    engage(game, "ghoul")
    game.state.party[0].hp = 4
    ev = step(game, dice, Attack(0), 2, 9)  # 4 - 3 = 1: alive
    assert game.state.party[0].hp == 1 and game.state.mode == "combat" and not of(ev, evt.Death)
    ev = step(game, dice, Attack(0), 2, 9)  # 1 - 3: 0, dead
    assert game.state.party[0].hp == 0
    d = one(ev, evt.Death)
    assert d == evt.Death(cause="Ghoul", turn=game.state.turn, depth=0, seed=game.state.seed)
    assert game.state.seed == 4242
    assert (
        game.state.mode == "dead"
        and game.over
        and game.state.death == {"cause": d.cause, "turn": d.turn, "depth": d.depth, "seed": d.seed}
    )
    before = game.checksum()
    for action in (Attack(0), Drink(0), Wait(), Rest(), Move(1, 0), Fight()):
        ev = game.step(action)
        assert kinds(ev) == ["refused"] and why(ev[0]).code == Code.GAME_OVER
    assert game.checksum() == before and dice.used[-1] == (20, 9)


@pytest.mark.clause("001-die-2")
def test_there_is_no_friend_in_warden_and_a_party_fights_on_past_its_dead() -> None:
    """001, "there is no friend": warden's delver goes alone, and no talk brings a hireling. Adapted: crawler (and
    citadel) send a party; a character at zero is dead (no dying state), and the others fight on without it."""
    game, _ = new_game("warden")
    assert [m.template for m in game.state.party] == ["delver"] and not game.content.ruleset("warden").agreements
    game, dice = new_game("crawler")
    assert [m.template for m in game.state.party] == ["delver", "sellsword"]
    engage(game, "ghoul")
    game.state.party[0].hp = 1
    step(game, dice, Attack(0), 2, 2, 18)  # both miss; the ghoul hits the delver: 1 - 3, dead
    delver, sellsword = game.state.party
    assert (delver.hp, delver.alive) == (0, False) and sellsword.alive
    assert game.state.mode == "combat" and not game.over  # the party fights on
    ev = step(game, dice, Attack(0), 2, 2)  # only the sellsword strikes, and only it is struck at
    assert [(a.attacker, a.target) for a in of(ev, evt.PartyAttack)] == [("sellsword", "ghoul")]
    assert [a.target for a in monster_attacks(ev)] == ["sellsword"]


def test_a_party_of_two_of_the_same_character_keeps_two_shares() -> None:
    from undercroft.rules import combat

    c = content()
    twins = c.rulesets["warden"].model_copy(update={"party": ("delver", "delver")})
    game, _ = new_game("warden", dataclasses.replace(c, rulesets={**c.rulesets, "warden": twins}))
    assert [m.template for m in game.state.party] == ["delver", "delver"]
    g = place(game, "ghoul", treasure=41)
    events: list[Event] = []
    combat.victory(game, g, events)
    v = one(events, evt.Victory)
    assert v.shares == [["delver", 21], ["delver", 20]]
    assert "Shares: Delver 21, Delver 20." in say(game, v)
