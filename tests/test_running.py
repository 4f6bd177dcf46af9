"""Running (seed 001's free exit), evasion and pursuit, time and fatigue (seed 003), through ``step()``.

Every roll is forced; each step asserts that the engine used exactly the faces scripted for it.
"""

from __future__ import annotations

import pytest
from art_maps import on_art
from engine_helpers import (
    NOTHING,
    act,
    attacks,
    encounter_faces,
    kinds,
    make_game,
    meet,
    of,
    one,
    rolls,
    say,
    script,
    why,
)

from undercroft.rules import events as evt
from undercroft.rules.actions import Attack, Bribe, DropFood, DropTreasure, Fight, Move, Rest, Run, ThrowOil
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.events import Event
from undercroft.rules.game import Game
from undercroft.rules.refusals import Code, Reason
from undercroft.rules.state import Group
from undercroft.rules.types import Origin

HOSTILE = (2, 2)  # reaction 4: hostile, 75% pursuit
UNCERTAIN = (4, 4)  # reaction 8: uncertain, 50%
PEACEFUL = (5, 5)  # reaction 10: no attack, 0%
FRIENDLY = (6, 6)  # reaction 12: 25%, follows but does not fight
ATTACKS = (1, 1)  # reaction 2: attacks at once, 100%


def crawl_meet(
    monster: str, reaction: tuple[int, int] = UNCERTAIN, *, ruleset: str = "undercroft", gold: int | None = None
) -> tuple[Game, Group, list[Event]]:
    """An undercroft game that walks into a new room and meets ``monster`` there, 60 ft away, nobody surprised."""
    game = make_game(ruleset, dice=ScriptedDice(), gold=gold)
    g, events = meet(game, monster, faces=encounter_faces(reaction=reaction))
    assert script(game).remaining == 0
    return game, g, events


# A room and a corridor 240 tiles long, straight: a chase in it stays in sight while the sides keep their distance.
LONG = "\n".join(["#" * 924, "#" + "." * 20 + "+" + "," * 900 + "##", *["#" + "." * 20 + "#" * 903] * 2, "#" * 924])


def long_meet(
    monster: str, reaction: tuple[int, int] = HOSTILE, *, gold: int | None = None, party_speed: int | None = None
) -> tuple[Game, Group, list[Event]]:
    """Meet ``monster`` 60 ft off in a room at the mouth of a long straight corridor (:data:`LONG`), nobody
    surprised; the way out is the corridor's door."""
    game = make_game("undercroft", dice=ScriptedDice(), gold=gold)
    on_art(game, LONG, (20, 1))
    if party_speed is not None:
        game.state.party[0].speed = party_speed
    g = game.add_group(monster, 1, pos=(14, 1))
    script(game).push(*encounter_faces(reaction=reaction))
    ev = game.start_encounter(g)
    assert script(game).remaining == 0
    return game, g, ev


def chase(
    monster: str, reaction: tuple[int, int] = HOSTILE, *, gold: int | None = None, party_speed: int | None = None
) -> tuple[Game, Group]:
    """:func:`long_meet` and run into the corridor; it pursues (a forced d100 of 1) from 60 ft; one round of the
    chase is run."""
    game, g, _ = long_meet(monster, reaction, gold=gold, party_speed=party_speed)
    ev = act(game, Run(), 1)
    assert one(ev, evt.Pursuit).distance == 60, ev
    return game, g


# --- seed 001: a free exit -------------------------------------------------------------------------------------


@pytest.mark.clause("001-run-2", "001-run-4", "003-actions-6")
def test_running_from_a_monster_that_does_not_pursue_is_free_and_it_stays_hurt() -> None:
    game = make_game("warden", dice=ScriptedDice())
    g, ev = meet(game, "ghoul")  # the Warden: a monster in the room means a fight
    st = game.state
    assert st.mode == "combat" and not game.proc.pursuit  # seed 001: nothing follows
    room, entry = st.segment, st.encounter.entry if st.encounter else None
    act(game, Attack(0), 15, 1)  # 8 -> 2
    assert g.hp == (2,)
    hp, clock = st.party[0].hp, st.rounds
    ev = act(game, Run(), NOTHING)  # no die for the run; the corridor run into gets its monster check
    assert kinds(ev) == ["run", "leave", "enter", "roll"] and one(ev, evt.Leave).pursued is False
    assert one(ev, evt.Roll, purpose="monster_check").segment == st.segment
    assert st.mode == "explore" and st.pos == entry and st.segment != room  # the landing: the door it came in by
    assert st.party[0].hp == hp and st.rounds == clock + 1  # no cost but the round it takes
    assert g in st.level.groups and g.hp == (2,) and g.segment == room  # it stays, keeps its damage
    # Coming back: the room is not cleared; the same Ghoul, at the same 2 HP.
    room_tile = st.prev_pos
    ev = act(game, Move(room_tile[0] - st.pos[0], room_tile[1] - st.pos[1]))
    e = one(ev, evt.Encounter)
    assert e.group == g.id and e.hp == [2] and e.first is False
    # The Warden: met again, it is a fight again (no new check, no new rolls before the fight).
    assert st.mode == "combat" and not rolls(ev, "monster_check")


@pytest.mark.clause("001-run-5")
@pytest.mark.parametrize("monster", ["empty_harness", "the_patient_one", "wick_trimmer"])
def test_a_monster_that_does_not_pursue_lets_the_party_go_in_undercroft(monster: str) -> None:
    game, g, _ = crawl_meet(monster, ATTACKS if monster == "empty_harness" else UNCERTAIN)
    if game.state.mode == "combat":
        assert game.state.combat is not None and game.state.combat.party_turn
    assert not game.monster_of(g).pursues
    ev = act(game, Run(), NOTHING)  # no pursuit roll; only the monster check of the segment run into
    assert one(ev, evt.Leave).pursued is False and not of(ev, evt.Pursuit) and not rolls(ev, "pursuit")
    assert one(ev, evt.Enter) and one(ev, evt.Roll).purpose == "monster_check"
    assert game.state.mode == "explore" and g in game.state.level.groups


# --- seed 003: evasion -----------------------------------------------------------------------------------------


@pytest.mark.clause("003-seq-6", "003-evasion-1")
def test_a_faster_party_evades_automatically() -> None:
    game, _g, _ = crawl_meet("ghoul", HOSTILE)  # 75% pursuit; no fight yet (003: evasion before the combat phase)
    assert game.state.mode == "encounter"
    game.state.party[0].speed = 120  # faster than its 90
    ev = act(game, Run(), NOTHING)  # (the monster check of the segment run into)
    assert one(ev, evt.Evade).reason == "faster" and not rolls(ev, "pursuit")
    assert game.state.mode == "explore"


@pytest.mark.clause("003-seq-6", "003-evasion-5", "003-evasion-6")
@pytest.mark.parametrize(("reaction", "chance"), [(HOSTILE, 75), (UNCERTAIN, 50), (FRIENDLY, 25)])
@pytest.mark.parametrize("over", [False, True])
def test_the_chance_of_pursuit_comes_from_the_reaction(reaction: tuple[int, int], chance: int, over: bool) -> None:
    game, g, _ = long_meet("gaoler", reaction)
    face = chance + 1 if over else chance
    ev = act(game, Run(), face, *((NOTHING,) if over else ()))  # got away: the segment run into is entered
    r = one(ev, evt.Roll, purpose="pursuit")
    assert (r.dice, r.total, r.target) == ("1d100", face, chance)
    if over:
        assert one(ev, evt.Evade).reason == "no_pursuit" and game.state.mode == "explore"
    else:
        assert one(ev, evt.Pursuit).group == g.id and game.state.mode == "pursuit"


@pytest.mark.clause("003-evasion-6")
def test_no_pursuit_from_a_peaceful_reaction_rolls_nothing() -> None:
    game, _, _ = crawl_meet("gaoler", PEACEFUL)
    ev = act(game, Run(), NOTHING)  # the d6 is the monster check of the segment run into
    assert one(ev, evt.Roll, purpose="pursuit").result == "no" and one(ev, evt.Evade).reason == "no_pursuit"


@pytest.mark.clause("003-evasion-6")
def test_a_monster_that_attacked_at_once_always_pursues() -> None:
    game, _g, ev = long_meet("ghoul", ATTACKS)  # agility 3: the delver acts first
    assert game.state.mode == "combat"
    ev = act(game, Run())  # 100%: no die
    assert one(ev, evt.Roll, purpose="pursuit").result == "yes"
    # From a fight the chase starts in melee, a step apart (10 ft), where the fight is: as fast as the party, it
    # catches it in the chase's first round.
    assert one(ev, evt.Pursuit).distance == 10 and not of(ev, evt.Caught) and game.state.mode == "pursuit"
    ev = act(game, Run())
    assert one(ev, evt.Caught).fights is True and game.state.mode == "combat"


def test_a_group_that_went_its_way_is_gone_but_not_the_one_that_chases() -> None:
    """A wanderer went its way (it could have been pursued on this action) while another group faces the party:
    the party runs from the other instead, which gives chase. The one that went is gone; the pursuer is not
    (undercroft seed 898, turn 330, crashed on the pursuer's removal)."""
    game, g, _ = long_meet("gaoler", HOSTILE)
    st = game.state
    gone = game.add_group("goblin", 1, pos=st.pos, origin=Origin.WANDERING)
    st.fled = gone.id
    ev = act(game, Run(), 1)  # the pursuit roll (75 %): it comes
    assert one(ev, evt.Pursuit).group == g.id and st.mode == "pursuit"
    assert g in st.level.groups and gone not in st.level.groups
    assert st.pursuit is not None and st.group(st.pursuit.group) is g


@pytest.mark.clause("003-actions-6", "003-pursuit-1")
def test_pursuit_goes_on_in_rounds_while_in_sight() -> None:
    game, g = chase("gaoler")  # 90 against 90: the distance holds
    st = game.state
    assert st.mode == "pursuit" and st.pursuit is not None and st.pursuit.rounds == 1
    for r in (2, 3, 4):
        clock = st.rounds
        ev = act(game, Run())
        c = one(ev, evt.Chase)
        assert (c.round, c.distance) == (r, 60) and st.rounds == clock + 1
        # The map shows the sides where the chase has them: the party on its way (here at the tile beyond its
        # door), the pursuer following it, never farther off on the map than the chase's feet.
        assert st.pursuit is not None and st.pursuit.to is None and game.distance_to(g) <= 60


def test_a_pursuer_that_closes_the_distance_catches_the_party_and_fights() -> None:
    game, _g = chase("gaoler", party_speed=80)  # it gains 3 x 10 = 30 ft a round: 60 -> 30
    assert game.state.pursuit is not None and game.state.pursuit.distance == 30
    ev = act(game, Run(), 9)  # 30 -> 0: caught; the gaoler (agility 4) strikes first
    assert one(ev, evt.Caught).fights is True
    assert game.state.mode == "combat" and [e.attacker_side for e in attacks(ev)] == ["monsters"]


@pytest.mark.clause("003-reaction-12", "003-evasion-7")
def test_a_friendly_pursuer_catches_up_and_does_not_fight() -> None:
    game, g, _ = long_meet("the_unlit", FRIENDLY)  # 120 against 90: it gains 90 ft a round
    ev = act(game, Run(), 25)  # caught, no fight: the run is over, the corridor run into is entered (it is there)
    assert one(ev, evt.Caught).fights is False and one(ev, evt.Enter) and game.state.mode == "explore" and g.peaceful


# --- dropping things -------------------------------------------------------------------------------------------


@pytest.mark.clause("000-gen-1", "000-8.7", "000-8.7-2", "000-8.8", "003-actions-8", "003-pursuit-4")
@pytest.mark.parametrize("ruleset", ["undercroft", "crawler"])
def test_a_drop_in_a_meeting_or_a_fight_buys_off_nobody(ruleset: str) -> None:
    """003: dropped food or treasure stops a pursuer; in a meeting (or a fight) nothing is dropped: paying a
    monster is a bribe (000), never a flat chance that makes it peaceful."""
    game, g, _ = crawl_meet("ogre", ruleset=ruleset, gold=100)
    st = game.state
    st.items["rations"] = 1
    for drop in (DropFood(), DropTreasure()):
        assert game.refusal(drop) == Reason(Code.NOT_FLEEING)
        ev = game.step(drop)
        assert why(one(ev, evt.Refused)).code == "not_fleeing" and len(ev) == 1
    assert st.mode == "encounter" and not g.peaceful and st.gold == 100 and st.items["rations"] == 1
    act(game, Fight())
    assert st.mode == "combat"
    assert game.refusal(DropFood()) == Reason(Code.NOT_FLEEING)


@pytest.mark.clause("003-actions-8")
def test_nameless_one_takes_no_drop_and_no_bribe_in_the_citadel() -> None:
    """000: The Nameless One is never bribed; a drop in the meeting is no back door to buying it off."""
    game = make_game("citadel", dice=ScriptedDice(), gold=500)
    g, _ = meet(game, "the_nameless_one")
    assert game.state.mode == "encounter"
    assert game.refusal(Bribe(100)) == Reason(Code.UNBRIBABLE, {"monster": "the_nameless_one"})
    assert game.refusal(DropTreasure()) == Reason(Code.NOT_FLEEING)
    assert not g.peaceful and game.state.gold == 500


@pytest.mark.clause("003-pursuit-5")
@pytest.mark.parametrize(("face", "stops"), [(50, True), (51, False)])
def test_food_stops_an_unintelligent_pursuer_half_the_time(face: int, stops: bool) -> None:
    game, g = chase("ogre")
    assert not game.monster_of(g).intelligent
    ev = act(game, DropFood(), face)  # it comes to the food in this round; stopped there, it is left behind
    r = one(ev, evt.Roll, purpose="food_distracts")
    assert (r.total, r.target) == (face, 50)
    assert "rations" not in game.state.items
    if stops:
        assert one(ev, evt.Distracted).by == "food" and game.state.mode == "explore"
    else:
        assert one(ev, evt.Chase) and game.state.mode == "pursuit"


def test_food_never_stops_an_intelligent_pursuer() -> None:
    game, _g = chase("gaoler")
    ev = act(game, DropFood())  # no d100: it cannot work
    assert one(ev, evt.Ignored) and not rolls(ev, "food_distracts")
    assert game.state.mode == "pursuit" and one(ev, evt.Chase)


@pytest.mark.clause("003-pursuit-6")
@pytest.mark.parametrize(("face", "stops"), [(50, True), (51, False)])
def test_treasure_stops_an_intelligent_pursuer_half_the_time(face: int, stops: bool) -> None:
    game, g = chase("gaoler", gold=100)
    treasure = g.treasure
    ev = act(game, DropTreasure(), *[1] * 6, face)  # 6d6x10 = 60 gold, then the d100 when it comes to it
    assert one(ev, evt.Drop).amount == 60 and game.state.gold == 40
    r = one(ev, evt.Roll, purpose="treasure_distracts")
    assert (r.total, r.target) == (face, 50)
    if stops:
        assert one(ev, evt.Distracted).by == "treasure" and game.state.mode == "explore"
        assert g.treasure == treasure + 60
    else:
        assert game.state.mode == "pursuit" and g.treasure == treasure


@pytest.mark.parametrize(("face", "stops"), [(50, True), (51, False)])
def test_the_least_valuable_gem_is_dropped_before_any_gold(face: int, stops: bool) -> None:
    """Ours: a gem is treasure to 003's intelligent pursuer; the cheapest goes first, the gold is kept for bribes."""
    game, g = chase("gaoler", gold=100)
    st = game.state
    st.items.update({"emerald": 1, "garnet": 1})
    st.haul, treasure = 85, g.treasure
    dropped_at = st.pos
    ev = act(game, DropTreasure(), face)  # no gold roll: only the d100
    assert (
        one(ev, evt.Drop) == evt.Drop(item="garnet", amount=1)
        and say(game, one(ev, evt.Drop)) == "You drop the Garnet."
    )
    assert not rolls(ev, "treasure_dropped") and st.gold == 100 and st.items == {**st.items, "emerald": 1}
    assert "garnet" not in st.items and st.haul == 85 - 25  # no longer carried down: no longer renown
    if stops:
        assert one(ev, evt.Distracted).by == "treasure" and g.treasure == treasure + 25
    else:
        assert st.mode == "pursuit" and g.treasure == treasure
        assert ("garnet", 1) in st.level.items[dropped_at]  # it lies where it was dropped


def test_a_gem_is_treasure_enough_to_drop_without_gold() -> None:
    game, _g = chase("ogre", gold=0)
    assert game.refusal(DropTreasure()) == Reason(Code.NO_TREASURE)
    game.state.items["silver_idol"] = 1
    ev = act(game, DropTreasure())
    assert (
        one(ev, evt.Ignored).what == "silver_idol"
        and say(game, one(ev, evt.Ignored)) == "The Ogre ignores the Silver Idol."
    )
    assert "silver_idol" not in game.state.items and game.state.mode == "pursuit"


@pytest.mark.clause("003-pursuit-6")
def test_treasure_never_stops_an_unintelligent_pursuer() -> None:
    game, _g = chase("ogre", gold=100)
    ev = act(game, DropTreasure(), *[1] * 6)
    assert one(ev, evt.Ignored) and not rolls(ev, "treasure_distracts") and game.state.mode == "pursuit"


@pytest.mark.clause("003-pursuit-7")
@pytest.mark.parametrize(("face", "stops"), [(50, True), (51, False)])
def test_burning_oil_stops_or_slows_a_pursuer_with_self_preservation(face: int, stops: bool) -> None:
    game, g = chase("gaoler")
    assert game.monster_of(g).self_preservation
    ev = act(game, ThrowOil(), face)  # stopped, or held behind the fire: the run is over either way
    assert "oil_flask" not in game.state.items
    if stops:
        assert one(ev, evt.Distracted).by == "fire" and game.state.mode == "explore"
    else:
        assert one(ev, evt.Slowed).rounds == 3  # it waits for the fire to burn out
        assert one(ev, evt.Escape) and game.state.mode == "explore"


def test_burning_oil_does_nothing_to_a_pursuer_without_self_preservation() -> None:
    game, g = chase("the_unlit", party_speed=120)  # as fast as it: the distance holds
    assert not game.monster_of(g).self_preservation
    ev = act(game, ThrowOil())  # no die
    assert one(ev, evt.Ignored) and not of(ev, evt.Slowed) and not of(ev, evt.Distracted)
    assert game.state.mode == "pursuit" and one(ev, evt.Chase).distance == 60


# --- time and fatigue ------------------------------------------------------------------------------------------


@pytest.mark.clause("003-time-1", "003-time-2", "003-time-3")
def test_time_rounds_of_ten_seconds_sixty_to_a_turn() -> None:
    t = make_game("undercroft").content.rules.time
    assert (t.round_seconds, t.rounds_per_turn, t.rest_rounds) == (10, 60, 60)
    game, _g = chase("gaoler")
    st = game.state
    clock = st.rounds
    act(game, Run())
    act(game, Run())
    assert st.rounds == clock + 2  # one round per round of running


def run_thirty_rounds(game: Game) -> list[Event]:
    """Run from the met gaoler and keep running: 30 rounds in all (the pursuit ends on the 30th)."""
    st = game.state
    clock = st.rounds
    act(game, Run(), 1)
    events: list[Event] = []
    for _k in range(29):
        assert not st.exhausted and st.mode == "pursuit"
        events = act(game, Run())  # the last: the corridor is entered; the gaoler that gave up stands in it
    assert st.rounds == clock + 30  # 300 seconds: five turns
    return events


@pytest.mark.clause("003-running-3")
def test_thirty_rounds_of_running_exhaust_and_running_is_refused() -> None:
    game, _g, _ = long_meet("gaoler", HOSTILE)
    st = game.state
    ev = run_thirty_rounds(game)
    assert one(ev, evt.Exhausted).rounds == 30 and st.exhausted
    assert one(ev, evt.Escape) and st.mode == "explore"  # it gave up after 30 rounds too
    # The next monster met: running is refused, nothing changes.
    g2 = game.add_group("ogre", 1, pos=(st.pos[0] + 6, 1))
    script(game).push(*encounter_faces())
    game.start_encounter(g2)
    assert st.mode == "encounter"
    before = game.checksum()
    ev = game.step(Run())
    assert kinds(ev) == ["refused"] and why(ev[0]).code == Code.EXHAUSTED and game.checksum() == before
    # Fighting is still possible, at -2.
    act(game, Fight())
    ev = act(game, Attack(0), 11, 1)
    a = one(ev, evt.PartyAttack)
    assert a.modifier == 3 - 2 and a.damage == 6 - 2


@pytest.mark.clause("003-running-4", "003-running-7", "003-time-3")
def test_resting_three_turns_clears_exhaustion() -> None:
    game, _g, _ = long_meet("gaoler", HOSTILE)
    st = game.state
    run_thirty_rounds(game)
    assert st.exhausted and st.mode == "explore"
    for n in (1, 2):
        clock = st.rounds
        ev = act(game, Rest())  # a turn passes (no wandering check: the gaoler stands in the corridor)
        assert st.rounds == clock + 60 and st.exhausted and one(ev, evt.Rest).exhausted is True
        assert say(game, one(ev, evt.Rest)) == f"You rest for a turn ({60 * n}/180 rounds of rest)."
    ev = act(game, Rest())
    assert not st.exhausted and st.running_rounds == 0
    assert say(game, one(ev, evt.Rest)) == "You rest for a turn. You are no longer exhausted."


@pytest.mark.clause("001-run-2")
def test_running_while_exhausted_in_a_fight_is_refused() -> None:
    game, _g, _ = crawl_meet("ghoul", ATTACKS)
    game.state.exhausted = True
    before = game.checksum()
    ev = game.step(Run())
    assert kinds(ev) == ["refused"] and game.checksum() == before


@pytest.mark.clause("003-pursuit-2")
def test_an_exhausted_party_caught_in_a_pursuit_must_turn_and_fight() -> None:
    game, _g = chase("gaoler")
    game.state.running_rounds = 29  # the next round is the 30th
    ev = act(game, Run(), 1)  # exhausted: it turns to fight; the gaoler strikes first (a 1 misses)
    assert one(ev, evt.Exhausted) and game.state.mode == "combat"
    assert [e.type for e in ev].count("caught") == 1
