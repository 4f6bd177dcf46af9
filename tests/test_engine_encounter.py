"""The encounter sequence of seed 003: distance, surprise, reaction, waiting, and monsters coming into sight.

Undercroft plays the whole sequence. Every test forces the dice; the script must be used up exactly.
"""

from __future__ import annotations

import pytest
from engine_helpers import (
    NOTHING,
    content,
    encounter_faces,
    kinds,
    make_game,
    meet,
    of,
    one,
    place_group,
    rolls,
    say,
    script,
    walk_into,
    walk_to,
)

from undercroft.rules.actions import Attack, Bribe, Fight, Rest, Talk, Wait
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.events import Event
from undercroft.rules.game import Game
from undercroft.rules.state import Group
from undercroft.rules.types import Origin

BANDIT = content().monsters["bandit"]  # AGILITY 3 like the delver: the party wins ties
DELVER = content().party["delver"]
# A d20 face that hits without being a natural 20 (no double damage): the bandit on the delver, the delver on it.
BANDIT_HITS = max(2, DELVER.defense - BANDIT.attack)
DELVER_HITS = max(2, BANDIT.defense - DELVER.might)
DELVER_DAMAGE = DELVER.might + content().items[DELVER.weapon].damage
assert BANDIT_HITS < 20 and DELVER_HITS < 20 and BANDIT.hp > DELVER_DAMAGE


def bandit(faces: tuple[int, ...], origin: Origin = Origin.RESIDENT, seed: int = 1) -> tuple[Game, Group, list[Event]]:
    g = make_game("undercroft", seed, ScriptedDice())
    group, events = meet(g, "bandit", faces=faces, origin=origin)
    return g, group, events


# --- distance ----------------------------------------------------------------------------------------------


def test_distance_is_2d6_times_10_feet() -> None:
    g, _group, events = bandit(encounter_faces(distance=(2, 3)))
    dist = one(rolls(events, "distance"), "roll")
    assert dist["dice"] == "2d6x10" and dist["faces"] == [2, 3] and dist["multiplier"] == 10
    assert dist["total"] == 50 and say(g, dist) == "Distance: 50 ft."
    assert g.state.encounter is not None and g.state.encounter.distance == 50
    assert not of(events, "out_of_sight") and g.state.mode == "encounter"


def test_a_monster_whose_tile_the_party_cannot_see_is_out_of_sight() -> None:
    # A wanderer 120 ft away may stand beyond the room: where the party cannot see its tile, it is out of sight.
    g, group, events = bandit(encounter_faces(distance=(6, 6)), origin=Origin.WANDERING)
    oos = one(events, "out_of_sight")
    assert oos["distance"] == 120 and oos["group"] == group.id
    assert one(events, "placed")["out_of_sight"] is True and one(events, "encounter")["out_of_sight"] is True
    assert not g.visible()[group.pos[1], group.pos[0]]
    enc = g.state.encounter
    assert enc is not None and enc.out_of_sight and enc.distance == g.distance_to(group) == 120
    for action in (Talk(), Bribe(5), Fight()):  # not seen yet: nothing to talk to, bribe or fight
        assert kinds(g.step(action)) == ["refused"]


def test_sight_is_the_map_not_a_number_of_feet() -> None:
    # A resident 70 ft away (beyond sight_feet) in its own room, in the party's view, is in sight.
    assert content().rules.encounter.sight_feet == 60
    g, group, events = bandit(encounter_faces(distance=(3, 4)))  # 70 ft
    assert one(events, "placed")["distance"] == 70 and not of(events, "out_of_sight")
    assert g.visible()[group.pos[1], group.pos[0]]
    assert g.state.encounter is not None and not g.state.encounter.out_of_sight


def test_the_sequence_rolls_distance_surprise_reaction_in_that_order() -> None:
    g, _group, events = bandit(encounter_faces())
    assert [e["purpose"] for e in of(events, "roll")] == ["distance", "surprise_party", "surprise_monster", "reaction"]
    assert kinds(events)[0] == "encounter"
    assert script(g).remaining == 0


# --- surprise ----------------------------------------------------------------------------------------------


def test_both_surprised_cancels_out_neither_side_acts_that_round_and_nobody_gets_a_free_round() -> None:
    g = make_game("undercroft", 1, ScriptedDice())
    walk_into(g, "room", visited=False)
    before = g.state.rounds
    script(g).push(*encounter_faces(surprise=(1, 2), reaction=(1, 1)))
    group, events = place_group(g, "bandit")
    s = one(events, "surprise")
    assert s["party"] is True and s["monster"] is True
    assert [e["result"] for e in of(events, "roll") if e["purpose"].startswith("surprise")] == [
        "surprised",
        "surprised",
    ]
    # 003: "neither side moves nor fights that round": the round goes by; reaction 2 attacks in the next one,
    # and nobody has a free round: initiative decides (the party wins the tie).
    order = kinds(events)
    assert order.index("round_lost") < order.index("attacks")
    assert say(g, one(events, "round_lost")) == "Neither side moves nor fights this round."
    assert g.state.rounds == before + 1
    assert one(events, "attacks")["group"] == group.id
    assert one(events, "combat")["free_round"] == ""
    assert one(events, "initiative")["first"] == "party"
    assert not of(events, "attack")
    st = g.state
    assert st.mode == "combat" and st.combat is not None and st.combat.party_turn and st.combat.round == 1


def test_both_surprised_out_of_sight_pass_each_other_by() -> None:
    # A wanderer placed out of the party's view (120 ft, beyond the room); no reaction is rolled.
    g, group, events = bandit(encounter_faces(distance=(6, 6), surprise=(2, 1))[:4], origin=Origin.WANDERING)
    assert one(events, "placed")["out_of_sight"] is True
    assert one(events, "bypass")["group"] == group.id
    assert not rolls(events, "reaction")
    assert g.state.mode == "explore" and g.state.encounter is None
    assert script(g).remaining == 0


def test_party_surprised_gives_the_monster_a_free_round_when_it_attacks() -> None:
    # reaction 2: it attacks at once, in its free round, and hits.
    g, _group, events = bandit((*encounter_faces(surprise=(2, 5), reaction=(1, 1)), BANDIT_HITS))
    s = one(events, "surprise")
    assert s["party"] is True and s["monster"] is False and say(g, s) == "You are surprised."
    assert one(events, "combat")["free_round"] == "monsters"
    assert not of(events, "initiative")
    (hit,) = of(events, "attack")
    assert hit["attacker_side"] == "monsters" and hit["natural"] == BANDIT_HITS and hit["hit"]
    assert hit["total"] == BANDIT_HITS + BANDIT.attack and hit["defense"] == DELVER.defense
    assert hit["damage"] == BANDIT.damage and hit["target_hp_after"] == DELVER.hp - BANDIT.damage
    st = g.state
    assert st.party[0].hp == DELVER.hp - BANDIT.damage
    # the monster's free round is over: round 2, the party's turn
    assert st.mode == "combat" and st.combat is not None and st.combat.round == 2 and st.combat.party_turn
    assert script(g).remaining == 0


def test_party_surprised_a_hostile_monster_may_attack_at_once() -> None:
    # reaction 4 (hostile, 50%): the surprised party cannot act, the monster rolls d100 = 50: it attacks (misses).
    g, _group, events = bandit((*encounter_faces(surprise=(1, 6), reaction=(2, 2)), 50, 1))
    chance = one(rolls(events, "monster_attacks"), "roll")
    assert chance["dice"] == "1d100" and chance["target"] == 50 and chance["total"] == 50 and chance["result"] == "yes"
    assert one(events, "combat")["free_round"] == "monsters"
    assert [e["attacker_side"] for e in of(events, "attack")] == ["monsters"]
    assert g.state.combat is not None and g.state.combat.round == 2


def test_party_surprised_an_uncertain_monster_does_nothing() -> None:
    g, _group, events = bandit(encounter_faces(surprise=(1, 6), reaction=(3, 4)))
    chance = one(rolls(events, "monster_attacks"), "roll")
    assert chance["dice"] == "" and chance["target"] == 0 and chance["result"] == "no"
    assert g.state.mode == "encounter" and not of(events, "combat")


def test_monster_surprised_gives_the_party_a_free_round() -> None:
    g, group, events = bandit(encounter_faces(surprise=(5, 2)))
    s = one(events, "surprise")
    assert s["party"] is False and s["monster"] is True
    events = g.step(Fight())
    assert one(events, "combat")["free_round"] == "party" and not of(events, "initiative")
    # the delver hits; the bandit is surprised and does not act in round 1
    script(g).push(DELVER_HITS)
    events = g.step(Attack(0))
    (hit,) = of(events, "attack")
    assert hit["attacker_side"] == "party" and hit["hit"] and hit["damage"] == DELVER_DAMAGE
    assert hit["target_hp_after"] == BANDIT.hp - DELVER_DAMAGE
    assert one(events, "surprised_skip")["group"] == group.id
    st = g.state
    assert st.party[0].hp == DELVER.hp and st.combat is not None and st.combat.round == 2 and st.combat.party_turn
    # round 2: the bandit strikes back after the party's swing
    script(g).push(1, BANDIT_HITS)
    events = g.step(Attack(0))
    assert [e["attacker_side"] for e in of(events, "attack")] == ["party", "monsters"]
    assert st.party[0].hp == DELVER.hp - BANDIT.damage
    assert script(g).remaining == 0


def test_monster_surprised_does_not_attack_at_once_even_on_a_2() -> None:
    g, _group, events = bandit(encounter_faces(surprise=(4, 1), reaction=(1, 1)))
    assert one(rolls(events, "reaction"), "roll")["result"] == "attacks"
    assert not of(events, "attacks") and not of(events, "combat")
    assert g.state.mode == "encounter"


def test_nobody_surprised_initiative_decides() -> None:
    _g, _group, events = bandit(encounter_faces(surprise=(3, 3), reaction=(1, 1)))
    assert not of(events, "surprise")
    assert one(events, "combat")["free_round"] == ""
    ini = one(events, "initiative")
    assert ini["party"] == DELVER.agility and ini["monster"] == BANDIT.agility and ini["first"] == "party"


def test_a_quicker_monster_acts_first_when_nobody_is_surprised() -> None:
    g = make_game("undercroft", 1, ScriptedDice())
    spider = content().monsters["giant_spider"]
    assert spider.agility > DELVER.agility
    _group, events = meet(g, "giant_spider", faces=(*encounter_faces(reaction=(1, 1)), 1))
    assert one(events, "initiative")["first"] == "monsters"
    assert [e["attacker_side"] for e in of(events, "attack")] == ["monsters"]
    assert g.state.combat is not None and g.state.combat.party_turn


# --- reaction ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "result"),
    [
        ((1, 1), "attacks"),
        ((1, 2), "hostile"),
        ((2, 3), "hostile"),
        ((3, 3), "uncertain"),
        ((4, 4), "uncertain"),
        ((4, 5), "peaceful"),
        ((5, 6), "peaceful"),
        ((6, 6), "friendly"),
    ],
)
def test_each_reaction_band(faces: tuple[int, int], result: str) -> None:
    g, group, events = bandit(encounter_faces(reaction=faces))
    r = one(rolls(events, "reaction"), "roll")
    assert r["dice"] == "2d6" and r["faces"] == list(faces) and r["total"] == sum(faces) and r["result"] == result
    assert group.reaction == sum(faces) and group.reaction_result == result
    if result == "attacks":
        assert one(events, "attacks")["group"] == group.id
        assert g.state.mode == "combat"
    else:
        assert not of(events, "attacks") and g.state.mode == "encounter"


@pytest.mark.parametrize(("d100", "attacks"), [(50, True), (51, False), (1, True), (100, False)])
def test_waiting_on_a_hostile_monster_rolls_its_attack_chance(d100: int, attacks: bool) -> None:
    g, group, _ = bandit(encounter_faces(reaction=(2, 3)))
    chance = next(b.attacks_chance for b in content().tables.reaction.bands if b.result == "hostile")
    assert chance == 50
    script(g).push(d100, *([1] if attacks else []))
    events = g.step(Wait())
    assert kinds(events)[0] == "wait"
    roll = one(rolls(events, "monster_attacks"), "roll")
    assert roll["dice"] == "1d100" and roll["total"] == d100 and roll["target"] == 50
    assert roll["result"] == ("yes" if attacks else "no")
    if attacks:
        assert one(events, "attacks")["group"] == group.id
        # the monster acts on its reaction: it strikes first, no initiative
        combat = one(events, "combat")
        assert combat["first"] == "monsters" and combat["free_round"] == ""
        assert not of(events, "initiative")
        assert [e["attacker_side"] for e in of(events, "attack")] == ["monsters"]
        assert g.state.mode == "combat"
    else:
        assert not of(events, "attack") and g.state.mode == "encounter"
    assert script(g).remaining == 0


def test_waiting_on_an_uncertain_monster_never_brings_an_attack() -> None:
    g, _group, _ = bandit(encounter_faces(reaction=(3, 5)))
    for _ in range(3):
        events = g.step(Wait())
        roll = one(rolls(events, "monster_attacks"), "roll")
        assert roll["target"] == 0 and roll["result"] == "no" and roll["faces"] == []
        assert g.state.mode == "encounter"
    assert script(g).remaining == 0


@pytest.mark.parametrize("faces", [(4, 5), (5, 6), (6, 6)])
def test_waiting_a_wanderer_that_will_not_attack_goes_its_way(faces: tuple[int, int]) -> None:
    g, group, _ = bandit(encounter_faces(reaction=faces), origin=Origin.WANDERING)
    assert g.state.encounter is not None and not g.state.encounter.out_of_sight
    events = g.step(Wait())
    assert one(events, "leaves")["group"] == group.id
    assert g.state.mode == "explore" and g.state.encounter is None
    # Until the party's next action it may be pursued; any other action lets it go, and it is gone.
    assert g.state.fled == group.id and group in g.state.level.groups
    script(g).push(NOTHING)  # a turn of rest: the wandering check (the leaving group is no longer there)
    events = g.step(Rest())
    assert not of(events, "refused") and g.state.fled == 0
    assert group not in g.state.level.groups
    assert script(g).remaining == 0


@pytest.mark.parametrize("faces", [(4, 5), (5, 6), (6, 6)])
def test_waiting_a_resident_that_will_not_attack_lets_the_party_be(faces: tuple[int, int]) -> None:
    g, group, _ = bandit(encounter_faces(reaction=faces))
    inside = g.state.pos
    events = g.step(Wait())
    assert one(events, "peaceful")["group"] == group.id
    assert group in g.state.level.groups and group.peaceful
    assert g.state.mode == "explore"
    # it stays in its room, peaceful: walking out and back in starts no encounter (and rolls no check)
    walk_into(g, "corridor")
    events = walk_to(g, inside)
    assert one(events, "peaceful")["group"] == group.id and not of(events, "encounter")
    assert g.state.mode == "explore" and script(g).remaining == 0


def test_holding_back_in_combat_lets_the_monster_strike() -> None:
    g, _group, _ = bandit(encounter_faces(reaction=(1, 1)))
    assert g.state.mode == "combat"
    # in combat, waiting is holding back: the bandit then strikes
    script(g).push(1)
    events = g.step(Wait())
    assert kinds(events)[:2] == ["wait", "attack"]


# --- out of sight ------------------------------------------------------------------------------------------


def test_an_out_of_sight_monster_comes_closer_each_round_by_its_speed() -> None:
    g = make_game("undercroft", 1, ScriptedDice())
    leeches = content().monsters["sump_leeches"]
    assert leeches.speed == 30  # three tiles a round
    group, events = meet(g, "sump_leeches", faces=encounter_faces(distance=(6, 6)), origin=Origin.WANDERING)
    assert one(events, "out_of_sight")["distance"] == 120
    distances, seen = [], []
    for _ in range(3):
        events = g.step(Wait())
        distances.append(one(events, "approach")["distance"])
        seen.append(bool(of(events, "in_sight")))
        assert g.state.encounter is not None and g.state.encounter.distance == g.distance_to(group)
    assert distances == [90, 60, 30] and seen == [False, False, True]
    assert g.state.encounter is not None and not g.state.encounter.out_of_sight
    # in sight: it has arrived, nothing more comes closer
    assert not of(g.step(Wait()), "approach") and g.state.encounter.distance == 30
    assert script(g).remaining == 0  # the leeches never initiate: no attack roll


def test_a_hostile_monster_out_of_sight_attacks_only_once_it_is_in_sight() -> None:
    # 120 ft away out of view, reaction 2: it does not attack yet; it comes 90 ft closer (30 ft), into sight,
    # and then attacks at once, as met in sight: it charges, and initiative decides (the party wins the tie).
    g, group, events = bandit(encounter_faces(distance=(6, 6), reaction=(1, 1)), origin=Origin.WANDERING)
    assert one(rolls(events, "reaction"), "roll")["result"] == "attacks"
    assert not of(events, "attacks") and g.state.mode == "encounter"
    events = g.step(Wait())
    coming, charging = of(events, "approach")  # the round's walk, then its charge at the party
    assert coming["distance"] == 120 - BANDIT.speed and charging["distance"] == 10
    order = kinds(events)
    assert order.index("approach") < order.index("in_sight") < order.index("attacks") < order.index("combat")
    assert order.index("in_sight") < events.index(charging) < order.index("combat")
    assert one(events, "initiative")["first"] == "party" and not of(events, "attack")
    assert not rolls(events, "monster_attacks")  # reaction 2 attacks for sure: no chance is rolled
    assert g.state.mode == "combat" and g.distance_to(group) == 10 and script(g).remaining == 0


def test_out_of_sight_text_hides_the_monster_until_it_is_seen() -> None:
    g = make_game("undercroft", 1, ScriptedDice())
    meet(g, "sump_leeches", faces=encounter_faces(distance=(6, 6)), origin=Origin.WANDERING)
    first = one(g.step(Wait()), "approach")
    second = one(g.step(Wait()), "approach")
    third = one(g.step(Wait()), "approach")  # it comes into view
    assert say(g, first) == "Something comes closer: 90 ft."
    assert say(g, second) == "Something comes closer: 60 ft."
    assert say(g, third) == "The Sump Leeches comes closer: 30 ft."


# --- rulesets without the sequence ------------------------------------------------------------------------


def test_citadel_meets_without_distance_surprise_or_reaction() -> None:
    g = make_game("citadel", 1, ScriptedDice())
    _group, events = meet(g, "orc")
    assert kinds(events) == ["encounter"] and g.state.mode == "encounter"
    # waiting on a monster with no reaction roll: it attacks (certain, no die), first
    script(g).push(1)
    events = g.step(Wait())
    assert one(rolls(events, "monster_attacks"), "roll")["target"] == 100
    assert one(events, "combat")["first"] == "monsters"
    assert script(g).remaining == 0


def test_warden_monster_in_the_room_means_a_fight() -> None:
    g = make_game("warden", 1, ScriptedDice())
    _group, events = meet(g, "empty_harness")  # slower than the delver: the delver swings first
    assert kinds(events) == ["encounter", "initiative", "combat"]
    assert g.state.mode == "combat" and g.state.combat is not None and g.state.combat.party_turn
    assert script(g).remaining == 0
