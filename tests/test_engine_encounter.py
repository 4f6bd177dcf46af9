"""The encounter sequence of seed 003: distance, surprise, reaction, waiting, and monsters coming into sight.

Undercroft plays the whole sequence. Every test forces the dice; the script must be used up exactly.
"""

from __future__ import annotations

import pytest
from engine_helpers import (
    NOTHING,
    act,
    attacks,
    content,
    encounter_faces,
    kinds,
    make_game,
    meet,
    of,
    one,
    path_to,
    place_group,
    rolls,
    say,
    script,
    walk_into,
    walk_to,
)
from event_helpers import sample

from undercroft.rules import approach, explore, items
from undercroft.rules import events as evt
from undercroft.rules.actions import Attack, Bribe, Drink, Fight, Move, Rest, Run, Talk, Use, Wait
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.events import Event
from undercroft.rules.game import Game
from undercroft.rules.reaction import WaitOutcome
from undercroft.rules.refusals import Code, Reason
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
    dist = one(rolls(events, "distance"), evt.Roll)
    assert dist.dice == "2d6x10" and dist.faces == [2, 3] and dist.multiplier == 10
    assert dist.total == 50 and say(g, dist) == "Distance rolled: 50 ft."
    assert g.state.encounter is not None and g.state.encounter.distance == 50
    assert not _group.unseen and g.state.mode == "encounter"


@pytest.mark.clause("003-distance-1")
def test_a_monster_whose_tile_the_party_cannot_see_is_not_met_and_nothing_names_it() -> None:
    # A wanderer 120 ft away may stand beyond the room: where the party cannot see its tile, nothing is met yet
    # (003: "only when the monster and party actually meet will the party know an encounter has occurred").
    g, group, events = bandit(encounter_faces(distance=(6, 6)), origin=Origin.WANDERING)
    assert one(events, evt.Placed).out_of_sight is True and group.unseen
    assert not g.visible()[group.pos[1], group.pos[0]]
    assert not of(events, evt.Encounter) and not of(events, evt.Surprise)
    st = g.state
    assert st.mode == "explore" and st.encounter is None
    # No action names it: the refusals are those of a party alone.
    assert g.refusal(Fight()) == Reason(Code.NOTHING_TO_FIGHT)
    for action in (Talk(), Bribe(5), Wait()):
        assert g.refusal(action) == Reason(Code.NOT_NOW, {"mode": "explore"})
    assert g.legal(Rest())


def test_sight_is_the_map_not_a_number_of_feet() -> None:
    # A resident 70 ft away in its own room, in the party's view, is in sight.
    g, group, events = bandit(encounter_faces(distance=(3, 4)))  # 70 ft
    assert one(events, evt.Placed).distance == 70 and not group.unseen
    assert g.visible()[group.pos[1], group.pos[0]]
    assert g.state.mode == "encounter"


@pytest.mark.clause("003-seq-3", "003-seq-4", "003-surprise-2")
def test_the_sequence_rolls_distance_surprise_reaction_in_that_order_then_the_sides_meet() -> None:
    g, _group, events = bandit(encounter_faces())
    assert [e.purpose for e in of(events, evt.Roll)] == [
        "distance",
        "surprise_party",
        "surprise_monster",
        "reaction",
    ]
    assert kinds(events)[-1] == "encounter"
    assert script(g).remaining == 0


# --- surprise ----------------------------------------------------------------------------------------------


@pytest.mark.clause("003-surprise-3")
def test_both_surprised_cancels_out_neither_side_acts_that_round_and_nobody_gets_a_free_round() -> None:
    g = make_game("undercroft", 1, ScriptedDice())
    walk_into(g, "room", visited=False)
    before = g.state.rounds
    script(g).push(*encounter_faces(surprise=(1, 2), reaction=(1, 1)))
    group, events = place_group(g, "bandit")
    s = one(events, evt.Surprise)
    assert s.party is True and s.monster is True
    assert [e.result for e in of(events, evt.Roll) if e.purpose.startswith("surprise")] == [
        "surprised",
        "surprised",
    ]
    # 003: "neither side moves nor fights that round": the round goes by; reaction 2 attacks in the next one,
    # and nobody has a free round: initiative decides (the party wins the tie).
    order = kinds(events)
    assert order.index("round_lost") < order.index("attacks")
    assert say(g, one(events, evt.RoundLost)) == "Neither side moves nor fights this round."
    assert g.state.rounds == before + 1
    assert one(events, evt.Attacks).group == group.id
    assert one(events, evt.Combat).free_round == ""
    assert one(events, evt.Initiative).first == "party"
    assert not attacks(events)
    st = g.state
    assert st.mode == "combat" and st.combat is not None and st.combat.party_turn and st.combat.round == 1


@pytest.mark.clause("003-surprise-3", "003-distance-5")
def test_both_surprised_out_of_sight_go_on_as_if_nothing_had_occurred() -> None:
    # 003: "the monster and party will continue as if nothing had occurred": it does not come; the party walks and
    # rests as if alone; walking into each other later, the surprise still cancels out and the round is lost.
    g, group, events = bandit(encounter_faces(distance=(6, 6), surprise=(2, 1)), origin=Origin.WANDERING)
    assert one(events, evt.Placed).out_of_sight is True and group.unseen
    where = group.pos
    script(g).push(NOTHING)
    g.step(Rest())  # a turn goes by: it stays where it was
    assert group.pos == where and group.unseen and g.state.mode == "explore"
    events = walk_until_met(g, group)
    assert one(events, evt.Encounter).sighted and one(events, evt.Surprise).party and one(events, evt.RoundLost)
    assert g.state.mode == "encounter" and script(g).remaining == 0


@pytest.mark.clause("003-surprise-4")
def test_party_surprised_gives_the_monster_a_free_round_when_it_attacks() -> None:
    # reaction 2: it attacks at once, in its free round, and hits.
    g, _group, events = bandit((*encounter_faces(surprise=(2, 5), reaction=(1, 1)), BANDIT_HITS))
    s = one(events, evt.Surprise)
    assert s.party is True and s.monster is False and say(g, s) == "You are surprised."
    assert one(events, evt.Combat).free_round == "monsters"
    # after its free round, the surprised party's lost round; then round 2 in AGILITY order (the party's tie)
    assert kinds(events)[-3:] == ["attack", "surprised_skip", "initiative"]
    assert one(events, evt.SurprisedSkip).side == "party" and one(events, evt.Initiative).first == "party"
    (hit,) = attacks(events)
    assert hit.attacker_side == "monsters" and hit.natural == BANDIT_HITS and hit.hit
    assert hit.total == BANDIT_HITS + BANDIT.attack and hit.defense == DELVER.defense
    assert hit.damage == BANDIT.damage and hit.target_hp_after == DELVER.hp - BANDIT.damage
    st = g.state
    assert st.party[0].hp == DELVER.hp - BANDIT.damage
    # the monster's free round is over: round 2, the party's turn
    assert st.mode == "combat" and st.combat is not None and st.combat.round == 2 and st.combat.party_turn
    assert script(g).remaining == 0


def test_party_surprised_a_hostile_monster_may_attack_at_once() -> None:
    # reaction 4 (hostile, 50%): the surprised party cannot act, the monster rolls d100 = 50: it attacks (misses).
    g, _group, events = bandit((*encounter_faces(surprise=(1, 6), reaction=(2, 2)), 50, 1))
    chance = one(rolls(events, "monster_attacks"), evt.Roll)
    assert chance.dice == "1d100" and chance.target == 50 and chance.total == 50 and chance.result == "yes"
    assert one(events, evt.Combat).free_round == "monsters"
    assert [e.attacker_side for e in attacks(events)] == ["monsters"]
    assert g.state.combat is not None and g.state.combat.round == 2


@pytest.mark.clause("003-surprise-4")
def test_party_surprised_an_uncertain_monster_does_nothing_and_the_round_is_over_before_the_party_acts() -> None:
    g = make_game("undercroft", 1, ScriptedDice())
    walk_into(g, "room", visited=False)
    before = g.state.rounds
    script(g).push(*encounter_faces(surprise=(1, 6), reaction=(3, 4)))
    _group, events = place_group(g, "bandit")
    chance = one(rolls(events, "monster_attacks"), evt.Roll)
    assert chance.dice == "" and chance.target == 0 and chance.result == "no"
    # 003: the surprised side "may not" move or attack in the first round: it is played out before the party acts.
    lost = one(events, evt.SurprisedSkip)
    assert lost.side == "party" and say(g, lost) == "Surprised, you lose the round."
    enc = g.state.encounter
    assert enc is not None and not enc.first_round and g.state.rounds == before + 1
    assert g.state.mode == "encounter" and not of(events, evt.Combat)
    assert g.refusal(Run()) is None  # from the second round on, the party may run (or anything else)


@pytest.mark.clause("003-surprise-4")
def test_the_monster_caught_unaware_neither_moves_nor_acts_in_the_first_round() -> None:
    # Hostile (50 %), surprised: a Wait in the first round brings no attack roll; in the second it does.
    g, group, events = bandit(encounter_faces(distance=(2, 3), surprise=(5, 2), reaction=(2, 2)))
    where = group.pos
    assert g.wait_outcome(group) == WaitOutcome(0.0, "stays", STANDOFF, 1.0, "lets_be", True)  # (as the panel says)
    events = g.step(Wait())
    assert one(events, evt.SurprisedSkip).side == "monsters" and not rolls(events, "monster_attacks")
    assert group.pos == where
    assert g.wait_outcome(group) == WaitOutcome(0.5, "stays", STANDOFF - 1, 1.0, "lets_be", False)
    script(g).push(51)
    events = g.step(Wait())
    assert one(rolls(events, "monster_attacks"), evt.Roll).result == "no" and not of(events, evt.SurprisedSkip)
    assert script(g).remaining == 0


@pytest.mark.clause("003-surprise-4")
def test_running_from_a_monster_caught_unaware_it_never_sees_where_the_party_went() -> None:
    g, _group, _ = bandit(encounter_faces(surprise=(5, 2), reaction=(2, 2)))  # hostile: 75 % pursuit otherwise
    assert g.party_speed() == BANDIT.speed  # as fast as the party: no evasion by speed
    events = act(g, Run(), NOTHING)  # no pursuit roll: the d6 is the monster check of the segment run into
    assert one(events, evt.Evade).reason == "out_of_sight" and not rolls(events, "pursuit")
    assert g.state.mode == "explore"


@pytest.mark.clause("001-order-3")
def test_after_the_partys_free_round_a_quicker_monster_acts_first() -> None:
    # 003 then 001: the surprised side loses round 1; from round 2 the sides go in the order of their AGILITY.
    g = make_game("undercroft", 1, ScriptedDice())
    spider = content().monsters["giant_spider"]
    assert spider.agility > DELVER.agility
    meet(g, "giant_spider", faces=encounter_faces(distance=(1, 1), surprise=(5, 2), reaction=(2, 2)))
    assert one(act(g, Fight()), evt.Combat).free_round == "party"
    events = act(g, Attack(0), 2, 1)  # the delver misses in its free round; then round 2: the spider first
    order = kinds(events)
    assert order == ["attack", "surprised_skip", "initiative", "attack"]
    assert one(events, evt.Initiative).first == "monsters"
    assert [e.attacker_side for e in attacks(events)] == ["party", "monsters"]
    st = g.state
    assert st.combat is not None and st.combat.party_turn  # the party answers: the sides alternate
    assert [e.attacker_side for e in attacks(act(g, Attack(0), 2, 1))] == ["party", "monsters"]


@pytest.mark.clause("001-order-3")
def test_after_the_monsters_free_round_the_quicker_monster_acts_first_again() -> None:
    g = make_game("undercroft", 1, ScriptedDice())
    faces = (*encounter_faces(distance=(1, 1), surprise=(1, 6), reaction=(1, 1)), 1, 1)  # it attacks at once
    _group, events = meet(g, "giant_spider", faces=faces)
    assert one(events, evt.Combat).free_round == "monsters"
    assert kinds(events)[-4:] == ["attack", "surprised_skip", "initiative", "attack"]
    assert one(events, evt.SurprisedSkip).side == "party" and one(events, evt.Initiative).first == "monsters"
    assert g.state.combat is not None and g.state.combat.party_turn and script(g).remaining == 0


@pytest.mark.clause("003-surprise-4")
def test_monster_surprised_gives_the_party_a_free_round() -> None:
    g, group, events = bandit(encounter_faces(surprise=(5, 2)))
    s = one(events, evt.Surprise)
    assert s.party is False and s.monster is True
    events = g.step(Fight())
    assert one(events, evt.Combat).free_round == "party" and not of(events, evt.Initiative)
    # the delver hits; the bandit is surprised and does not act in round 1
    script(g).push(DELVER_HITS)
    events = g.step(Attack(0))
    (hit,) = attacks(events)
    assert hit.attacker_side == "party" and hit.hit and hit.damage == DELVER_DAMAGE
    assert hit.target_hp_after == BANDIT.hp - DELVER_DAMAGE
    assert one(events, evt.SurprisedSkip).group == group.id
    st = g.state
    assert st.party[0].hp == DELVER.hp and st.combat is not None and st.combat.round == 2 and st.combat.party_turn
    # round 2: the bandit strikes back after the party's swing
    script(g).push(1, BANDIT_HITS)
    events = g.step(Attack(0))
    assert [e.attacker_side for e in attacks(events)] == ["party", "monsters"]
    assert st.party[0].hp == DELVER.hp - BANDIT.damage
    assert script(g).remaining == 0


@pytest.mark.clause("003-reaction-2")
def test_monster_surprised_does_not_attack_at_once_even_on_a_2() -> None:
    g, _group, events = bandit(encounter_faces(surprise=(4, 1), reaction=(1, 1)))
    assert one(rolls(events, "reaction"), evt.Roll).result == "attacks"
    assert not of(events, evt.Attacks) and not of(events, evt.Combat)
    assert g.state.mode == "encounter"


@pytest.mark.clause("003-surprise-5")
def test_nobody_surprised_initiative_decides() -> None:
    _g, _group, events = bandit(encounter_faces(surprise=(3, 3), reaction=(1, 1)))
    assert not of(events, evt.Surprise)
    assert one(events, evt.Combat).free_round == ""
    ini = one(events, evt.Initiative)
    assert ini.party == DELVER.agility and ini.monster == BANDIT.agility and ini.first == "party"


@pytest.mark.clause("003-surprise-5")
def test_a_quicker_monster_acts_first_when_nobody_is_surprised() -> None:
    g = make_game("undercroft", 1, ScriptedDice())
    spider = content().monsters["giant_spider"]
    assert spider.agility > DELVER.agility
    _group, events = meet(g, "giant_spider", faces=(*encounter_faces(reaction=(1, 1)), 1))
    assert one(events, evt.Initiative).first == "monsters"
    assert [e.attacker_side for e in attacks(events)] == ["monsters"]
    assert g.state.combat is not None and g.state.combat.party_turn


# --- reaction ----------------------------------------------------------------------------------------------


@pytest.mark.clause("003-reaction-2", "003-reaction-12")
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
    r = one(rolls(events, "reaction"), evt.Roll)
    assert r.dice == "2d6" and r.faces == list(faces) and r.total == sum(faces) and r.result == result
    assert group.reaction == sum(faces) and group.reaction_result == result
    if result == "attacks":
        assert one(events, evt.Attacks).group == group.id
        assert g.state.mode == "combat"
    else:
        assert not of(events, evt.Attacks) and g.state.mode == "encounter"


@pytest.mark.clause("003-actions-1", "003-actions-7", "003-reaction-3")
@pytest.mark.parametrize(("d100", "attacks"), [(50, True), (51, False), (1, True), (100, False)])
def test_waiting_on_a_hostile_monster_rolls_its_attack_chance(d100: int, attacks: bool) -> None:
    g, group, _ = bandit(encounter_faces(reaction=(2, 3)))
    chance = next(b.attacks_chance for b in content().tables.reaction.bands if b.result == "hostile")
    assert chance == 50
    script(g).push(d100, *([1] if attacks else []))
    events = g.step(Wait())
    assert kinds(events)[0] == "wait"
    roll = one(rolls(events, "monster_attacks"), evt.Roll)
    assert roll.dice == "1d100" and roll.total == d100 and roll.target == 50
    assert roll.result == ("yes" if attacks else "no")
    if attacks:
        assert one(events, evt.Attacks).group == group.id
        # the monster acts on its reaction: it strikes first, no initiative
        combat = one(events, evt.Combat)
        assert combat.first == "monsters" and combat.free_round == ""
        assert not of(events, evt.Initiative)
        assert [e.type for e in events].count("attack") == 1 and one(events, evt.MonsterAttack)
        assert g.state.mode == "combat"
    else:
        assert "attack" not in [e.type for e in events] and g.state.mode == "encounter"
    assert script(g).remaining == 0


@pytest.mark.clause("003-actions-7", "003-reaction-6")
def test_waiting_on_an_uncertain_monster_never_brings_an_attack() -> None:
    g, _group, _ = bandit(encounter_faces(reaction=(3, 5)))
    for _ in range(3):
        events = g.step(Wait())
        roll = one(rolls(events, "monster_attacks"), evt.Roll)
        assert roll.target == 0 and roll.result == "no" and roll.faces == []
        assert g.state.mode == "encounter"
    assert script(g).remaining == 0


@pytest.mark.clause("003-reaction-9")
@pytest.mark.parametrize("faces", [(4, 5), (5, 6), (6, 6)])
def test_waiting_a_wanderer_that_will_not_attack_goes_its_way(faces: tuple[int, int]) -> None:
    g, group, _ = bandit(encounter_faces(reaction=faces), origin=Origin.WANDERING)
    assert g.state.encounter is not None and not group.unseen
    events = g.step(Wait())
    assert one(events, evt.Leaves).group == group.id
    assert g.state.mode == "explore" and g.state.encounter is None
    # Until the party's next action it may be pursued; any other action lets it go, and it is gone.
    assert g.state.fled == group.id and group in g.state.level.groups
    script(g).push(NOTHING)  # a turn of rest: the wandering check (the leaving group is no longer there)
    events = g.step(Rest())
    assert not of(events, evt.Refused) and g.state.fled == 0
    assert group not in g.state.level.groups
    assert script(g).remaining == 0


@pytest.mark.clause("003-reaction-9")
@pytest.mark.parametrize("faces", [(4, 5), (5, 6), (6, 6)])
def test_waiting_a_resident_that_will_not_attack_lets_the_party_be(faces: tuple[int, int]) -> None:
    g, group, _ = bandit(encounter_faces(reaction=faces))
    inside = g.state.pos
    events = g.step(Wait())
    assert one(events, evt.Peaceful).group == group.id
    assert group in g.state.level.groups and group.peaceful
    assert g.state.mode == "explore"
    # it stays in its room, peaceful: walking out and back in starts no encounter (and rolls no check)
    walk_into(g, "corridor")
    events = walk_to(g, inside)
    assert one(events, evt.Peaceful).group == group.id and not of(events, evt.Encounter)
    assert g.state.mode == "explore" and script(g).remaining == 0


@pytest.mark.clause("003-reaction-9", "003-reaction-12")
@pytest.mark.parametrize("faces", [(4, 5), (6, 6)])
def test_a_monster_that_will_not_attack_faces_the_party_until_it_waits(faces: tuple[int, int]) -> None:
    """003 reaction 9-11 (and 12), as built: it never attacks, but it lets the party be (a resident) only in answer
    to a Wait; until then it faces the party and walking on is refused."""
    g, group, _ = bandit(encounter_faces(reaction=faces))
    assert group.reaction_result in ("peaceful", "friendly") and not group.peaceful
    assert explore.check_walk(g) == Reason(Code.FACING, {"monster": "bandit", "talks": True, "runs": True})
    events = g.step(Wait())
    assert not of(events, evt.Attacks) and one(events, evt.Peaceful).group == group.id
    assert group.peaceful and g.state.mode == "explore" and explore.check_walk(g) is None
    assert script(g).remaining == 0


# --- a drink in a meeting ----------------------------------------------------------------------------------------


def hurt_before(faces: tuple[int, ...], origin: Origin = Origin.RESIDENT) -> tuple[Game, Group]:
    """The delver, 6 hit points down, meets a bandit (``faces``: its encounter sequence)."""
    g, group, _ = bandit(faces, origin=origin)
    g.state.party[0].hp = DELVER.hp - 6
    return g, group


@pytest.mark.clause("003-actions-1", "003-actions-8", "003-reaction-3")
@pytest.mark.parametrize(("d100", "attacks"), [(50, True), (51, False)])
def test_a_drink_before_a_hostile_monster_gives_it_the_round_a_wait_would(d100: int, attacks: bool) -> None:
    """A play-test drank three potions in front of a hostile Vampire and no blow came: a drink in a meeting is a
    round the monster answers as it answers a Wait (here its 50 %)."""
    g, group = hurt_before(encounter_faces(reaction=(2, 3)))
    o = g.wait_outcome(group)
    assert o is not None and o.attacks == 0.5  # (what the panel's Drink choice says)
    events = act(g, Drink(0), 1, 1, d100, *([1] if attacks else []))  # heals 2d4+4 = 6, then its d100
    assert one(events, evt.Drink).healed == 6 and g.state.party[0].hp == DELVER.hp
    roll = one(rolls(events, "monster_attacks"), evt.Roll)
    assert roll.total == d100 and roll.target == 50
    if attacks:
        assert one(events, evt.Attacks).group == group.id and one(events, evt.Combat).first == "monsters"
        assert one(events, evt.MonsterAttack) and g.state.mode == "combat"
    else:
        assert not of(events, evt.Attacks) and g.state.mode == "encounter"


@pytest.mark.clause("003-actions-8")
def test_a_thing_used_before_a_hostile_monster_is_a_round_it_answers_too() -> None:
    """A round is a round: a potion of heroism quaffed in front of a hostile bandit gives it its 50 % as a drink
    does."""
    g, group = hurt_before(encounter_faces(reaction=(2, 3)))
    g.state.items["heroism_potion"] = 1
    number = items.catalogue(content()).index("heroism_potion")
    events = act(g, Use(number, 0), 50, 1)
    assert one(events, evt.Quaff).item == "heroism_potion"
    assert one(events, evt.Attacks).group == group.id and g.state.mode == "combat"


@pytest.mark.clause("003-reaction-9")
def test_a_drink_before_a_peaceful_wanderer_lets_it_go_its_way() -> None:
    g, group = hurt_before(encounter_faces(reaction=(4, 5)), origin=Origin.WANDERING)
    events = act(g, Drink(0), 1, 1)
    assert one(events, evt.Leaves).group == group.id and g.state.mode == "explore" and g.state.fled == group.id


@pytest.mark.clause("003-seq-3")
def test_a_drink_before_a_monster_caught_unaware_draws_nothing() -> None:
    g, group = hurt_before(encounter_faces(surprise=(5, 2), reaction=(2, 3)))
    o = g.wait_outcome(group)
    assert o is not None and o.unaware and o.attacks == 0
    events = act(g, Drink(0), 1, 1)  # no d100: its round is lost
    assert not rolls(events, "monster_attacks") and one(events, evt.SurprisedSkip).side == "monsters"
    assert g.state.mode == "encounter" and g.state.party[0].hp == DELVER.hp


# --- standoffs -------------------------------------------------------------------------------------------------

STANDOFF = content().rules.encounter.standoff_rounds


@pytest.mark.clause("003-reaction-6")
@pytest.mark.parametrize(("d100", "attacks"), [(50, True), (51, False)])
def test_an_uncertain_monster_that_cannot_talk_makes_up_its_mind_by_a_roll_when_the_standoff_ends(
    d100: int, attacks: bool
) -> None:
    """undercroft 4321: an uncertain Unlit neither comes nor goes; walking on is refused and talk is no use. Waiting
    was once a way past any uncertain monster at no risk (a standoff's end always let the party be): 003's
    "uncertain, monster confused" now makes up its mind by a roll, its band's ``standoff_attacks`` (50 %)."""
    g = make_game("undercroft", 1, ScriptedDice())
    group, _ = meet(g, "the_unlit", faces=encounter_faces(reaction=(3, 4)), origin=Origin.GUARDIAN)
    st = g.state
    assert g.refusal(Talk()) is not None
    walk = g.refusal(Move(0, 1))
    assert walk == Reason(Code.FACING, {"monster": "the_unlit", "talks": False, "runs": True})
    assert walk is not None and say(g, sample({"type": "refused", "action": "move", **walk.data()})) == (
        "The Unlit is facing you: fight, wait or run."  # (no talk: it hears no terms)
    )
    assert g.legal(Wait())
    for left in range(STANDOFF, 1, -1):
        assert g.wait_outcome(group) == WaitOutcome(0.0, "stays", left, 0.5, "lets_be", False)
        assert not of(g.step(Wait()), evt.Standoff) and st.mode == "encounter"
    assert g.wait_outcome(group) == WaitOutcome(0.5, "lets_be", 1, 0.5, "lets_be", False)
    script(g).push(d100, *([1] if attacks else []))  # (its blow, if it attacks, misses)
    events = g.step(Wait())
    standoff = one(events, evt.Standoff)
    assert (
        standoff.rounds == STANDOFF
        and say(g, standoff) == f"{STANDOFF} rounds of this, and the Unlit makes up its mind."
    )
    roll = one(rolls(events, "standoff_attacks"), evt.Roll)
    assert roll.total == d100 and roll.target == 50 and roll.result == ("yes" if attacks else "no")
    if attacks:  # it strikes first
        assert one(events, evt.Combat).first == "monsters" and st.mode == "combat" and not group.peaceful
    else:  # it lets the party be (a guardian, but not of the last floor: it stays where it is)
        assert one(events, evt.Peaceful).group == group.id and group.peaceful and st.mode == "explore"
    assert script(g).remaining == 0


@pytest.mark.clause("003-reaction-6")
@pytest.mark.parametrize(("d100", "attacks"), [(1, True), (100, False)])
def test_a_wanderer_attacks_or_goes_its_way_at_the_end_of_a_standoff(d100: int, attacks: bool) -> None:
    g, group, _ = bandit(encounter_faces(reaction=(4, 4)), origin=Origin.WANDERING)
    script(g).push(1, 1)
    assert one(g.step(Talk()), evt.Negotiate).result == "failure"  # (a failed talk is a round of it too)
    for _ in range(STANDOFF - 2):
        g.step(Wait())
    script(g).push(d100, *([1] if attacks else []))
    events = g.step(Wait())
    if attacks:
        assert kinds(events)[:4] == ["wait", "roll", "standoff", "roll"] and "attacks" in kinds(events)
        assert g.state.mode == "combat" and g.state.fled == 0
    else:
        assert kinds(events)[-3:] == ["standoff", "roll", "leaves"] and g.state.fled == group.id
    assert script(g).remaining == 0


def test_a_peddler_at_peace_goes_its_way_when_the_party_waits() -> None:
    """003, 9-11: "no attack, monster leaves". Played: a wandering peddler whose talk failed stood in the only
    corridor to the stairs for ever (it holds its ground and never starts anything); waiting did nothing."""
    g = make_game("undercroft", 1, ScriptedDice())
    group, _ = meet(g, "peddler", faces=encounter_faces(reaction=(5, 5)), origin=Origin.WANDERING)
    assert group.reaction_result == "peaceful" and g.state.mode == "encounter"
    script(g).push(1, 1)
    assert one(g.step(Talk()), evt.Negotiate).result == "failure"
    events = g.step(Wait())
    assert one(events, evt.Leaves).group == group.id and g.state.fled == group.id and g.state.mode == "explore"


def test_a_quiet_wanderer_goes_its_way_when_the_standoff_ends_and_a_quiet_resident_stays() -> None:
    """A wanderer that never attacks first (it holds its ground), met hostile, neither attacks nor goes on a wait;
    at the end of the standoff it goes its way, without a blow. A resident of the same kind stays in its room."""
    g = make_game("undercroft", 1, ScriptedDice())
    group, _ = meet(g, "peddler", faces=encounter_faces(reaction=(2, 2)), origin=Origin.WANDERING)
    assert group.reaction_result == "hostile"
    for _ in range(STANDOFF - 1):
        assert not of(g.step(Wait()), evt.Leaves) and g.state.mode == "encounter"
    events = g.step(Wait())
    assert kinds(events)[-2:] == ["standoff", "leaves"] and not attacks(events) and script(g).remaining == 0
    g = make_game("undercroft", 1, ScriptedDice())
    meet(g, "peddler", faces=encounter_faces(reaction=(5, 5)))  # a resident: it keeps its ground
    for _ in range(STANDOFF + 1):
        assert not of(g.step(Wait()), evt.Leaves) and g.state.mode == "encounter"


@pytest.mark.clause("003-actions-1", "003-reaction-3")
def test_a_hostile_monster_that_has_not_attacked_by_the_end_of_a_standoff_attacks() -> None:
    g, _group, _ = bandit(encounter_faces(reaction=(2, 2)))  # hostile: 50 % a wait
    script(g).push(*[100] * STANDOFF, 1)  # it never takes its chance; then, the standoff over, it attacks (and misses)
    for _ in range(STANDOFF - 1):
        g.step(Wait())
    events = g.step(Wait())
    order = kinds(events)
    assert order.index("standoff") < order.index("attacks") < order.index("combat")
    assert one(events, evt.Combat).first == "monsters" and g.state.mode == "combat" and script(g).remaining == 0


def test_holding_back_in_combat_lets_the_monster_strike() -> None:
    g, _group, _ = bandit(encounter_faces(reaction=(1, 1)))
    assert g.state.mode == "combat"
    # in combat, waiting is holding back: the bandit then strikes
    script(g).push(1)
    events = g.step(Wait())
    assert kinds(events)[:2] == ["wait", "attack"]


# --- out of sight ------------------------------------------------------------------------------------------

GOBLIN = content().monsters["goblin"]  # 60 ft a round: six tiles


def walk_until_met(g: Game, group: Group) -> list[Event]:
    """Walk the party toward ``group`` (each segment on the way finds nothing) until the sides meet; the events of
    the step they meet in."""
    st = g.state
    m = st.level.map
    near = {
        (group.pos[0] + dx, group.pos[1] + dy)
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
        if m.tiles[group.pos[1] + dy, group.pos[0] + dx] == 1
    }
    for x, y in path_to(g, near, {s.id for s in m.segments}):
        seg = int(m.segment_of[y, x])
        if seg != st.segment and seg >= 0:
            script(g).push(NOTHING)
        events = g.step(Move(x - st.pos[0], y - st.pos[1]))
        assert not of(events, evt.Refused), events
        if st.mode != "explore":
            return events
    raise AssertionError("walked up to it and never met it")


@pytest.mark.clause("003-distance-2")
def test_an_unseen_monster_that_knows_of_the_party_comes_closer_by_its_speed_as_the_rounds_pass() -> None:
    g = make_game("undercroft", 1, ScriptedDice())
    group, events = meet(g, "goblin", faces=encounter_faces(distance=(6, 6)), origin=Origin.WANDERING)
    st = g.state
    assert group.unseen and st.mode == "explore"
    tiles = GOBLIN.speed // content().rules.encounter.feet_per_tile
    while group.unseen:
        before, rounds = group.pos, st.rounds
        script(g).push(NOTHING)  # a turn of rest: sixty rounds, and a wandering check
        events = g.step(Rest())
        walked = approach.steps_between(g, before, group.pos)
        assert 0 < walked <= tiles * (st.rounds - rounds)
    # It stopped as it came into sight, and the sides met then: the step that brought it says so.
    met = one(events, evt.Encounter)
    assert met.sighted and met.distance == g.distance_to(group) and st.mode == "encounter"
    assert g.visible()[group.pos[1], group.pos[0]] and script(g).remaining == 0


@pytest.mark.clause("003-distance-2")
def test_an_unseen_monster_seeks_the_party_only_so_long() -> None:
    g = make_game("undercroft", 1, ScriptedDice())
    group, _ = meet(g, "goblin", faces=encounter_faces(distance=(6, 6)), origin=Origin.WANDERING)
    limit = content().rules.encounter.approach_rounds
    group.walked = limit  # it has sought the party that long already
    where = group.pos
    script(g).push(NOTHING)
    g.step(Rest())
    assert group.pos == where and group.unseen and g.state.mode == "explore"


@pytest.mark.clause("003-surprise-2", "003-distance-4")
def test_a_surprised_monster_out_of_sight_does_not_come_and_is_caught_unaware_when_met() -> None:
    g, group, _ = bandit(encounter_faces(distance=(6, 6), surprise=(6, 1)), origin=Origin.WANDERING)
    where = group.pos
    script(g).push(NOTHING)
    g.step(Rest())  # it does not know the party is there: it stays where it was
    assert group.pos == where and group.unseen
    events = walk_until_met(g, group)
    s = one(events, evt.Surprise)
    assert s.monster and not s.party and g.state.mode == "encounter"
    # 003: "those not surprised may move and attack the first round, and the surprised enemy may not".
    assert explore.check_walk(g) is None
    events = g.step(Wait())  # the party lets its round go by: the bandit, surprised, does nothing in it
    assert one(events, evt.SurprisedSkip).side == "monsters" and not rolls(events, "monster_attacks")
    # round 2: it faces the party
    assert explore.check_walk(g) == Reason(Code.FACING, {"monster": "bandit", "talks": True, "runs": True})


def test_the_party_surprised_out_of_sight_loses_the_first_round_when_they_meet() -> None:
    # reaction 2: it comes at the party, and attacks with its free round once it is in sight.
    g, _group, _ = bandit(encounter_faces(distance=(6, 6), surprise=(1, 6), reaction=(1, 1)), origin=Origin.WANDERING)
    script(g).push(NOTHING, 1)  # the rest's check; then its attack misses
    events = g.step(Rest())
    order = kinds(events)
    assert order.index("encounter") < order.index("surprise") < order.index("attacks") < order.index("combat")
    assert one(events, evt.Combat).free_round == "monsters"
    assert one(events, evt.SurprisedSkip).side == "party"
    assert g.state.mode == "combat" and g.state.combat is not None and g.state.combat.party_turn
    assert script(g).remaining == 0


# --- rulesets without the sequence ------------------------------------------------------------------------


def test_citadel_meets_without_distance_surprise_or_reaction() -> None:
    g = make_game("citadel", 1, ScriptedDice())
    _group, events = meet(g, "orc")
    assert kinds(events) == ["encounter"] and g.state.mode == "encounter"
    # waiting on a monster with no reaction roll: it attacks (certain, no die), first
    script(g).push(1)
    events = g.step(Wait())
    assert one(rolls(events, "monster_attacks"), evt.Roll).target == 100
    assert one(events, evt.Combat).first == "monsters"
    assert script(g).remaining == 0


@pytest.mark.clause("001-intro-1")
def test_warden_monster_in_the_room_means_a_fight() -> None:
    g = make_game("warden", 1, ScriptedDice())
    _group, events = meet(g, "empty_harness")  # slower than the delver: the delver swings first
    assert kinds(events) == ["encounter", "initiative", "combat"]
    assert g.state.mode == "combat" and g.state.combat is not None and g.state.combat.party_turn
    assert script(g).remaining == 0
