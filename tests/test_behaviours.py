"""The behaviours of the Warden's eight (seed 001), one test each, through ``step()`` with forced dice."""

from __future__ import annotations

import pytest
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
    walk,
    walk_out_past,
    way_out,
)

from undercroft.rules import dungeon
from undercroft.rules import events as evt
from undercroft.rules.actions import Attack, Drink, Fight, Move, Run, Wait
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.events import Event
from undercroft.rules.game import Game

ATTACKS = (1, 1)  # reaction 2: "attacks at once"


def step_inside(game: Game) -> list[Event]:
    """One step further into the room, away from the door the party came in by."""
    st = game.state
    m = st.level.map
    blocked = {g.pos for g in st.level.groups}
    for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (-1, -1), (1, 1), (-1, 1)):
        x, y = st.pos[0] + dx, st.pos[1] + dy
        if int(m.segment_of[y, x]) == st.segment and m.tiles[y, x] == dungeon.FLOOR and (x, y) not in blocked:
            return game.step(Move(dx, dy))
    raise AssertionError("nowhere to step")


# --- passive: the sump leeches ---------------------------------------------------------------------------------


@pytest.mark.clause("001-run-7")
def test_passive_never_initiates_and_objects_once_when_walked_past() -> None:
    game = make_game("undercroft", dice=ScriptedDice())
    g, ev = meet(game, "sump_leeches", 2, faces=encounter_faces(reaction=ATTACKS))
    st = game.state
    assert g.reaction_result == "attacks" and st.mode == "encounter" and not of(ev, evt.Combat)
    for _ in range(3):
        ev = act(game, Wait())  # no attack roll, no attack
        assert not attacks(ev) and not of(ev, evt.Combat) and st.mode == "encounter"
    entry = st.segment_entry
    path = way_out(game, avoid=entry)
    assert path[-1] != entry
    walk(game, path[:-1])
    assert not attacks(ev) and st.party[0].hp == 12
    ev = act(game, Move(path[-1][0] - st.pos[0], path[-1][1] - st.pos[1]), 10, NOTHING)
    assert one(ev, evt.WalkedPast).group == g.id
    strikes = of(ev, evt.MonsterAttack)
    assert [e.attacker_index for e in strikes] == [0]  # it objects once, however many: 10 + 2 hits
    assert st.party[0].hp == 12 - 2 and st.mode == "explore"


@pytest.mark.clause("001-run-7")
def test_passive_lets_the_party_leave_the_way_it_came() -> None:
    game = make_game("undercroft", dice=ScriptedDice())
    _g, ev = meet(game, "sump_leeches", 2, faces=encounter_faces())
    st = game.state
    entry = st.segment_entry
    ev = act(game, Move(entry[0] - st.pos[0], entry[1] - st.pos[1]), NOTHING)  # no strike: only the check
    assert not of(ev, evt.WalkedPast) and not attacks(ev) and st.party[0].hp == 12
    assert st.pos == entry and st.mode == "explore"


# --- kneels: the wick-trimmer ----------------------------------------------------------------------------------


@pytest.mark.clause("001-small-2", "001-small-3", "001-small-5")
def test_kneels_until_inside_then_rises_acts_every_other_round_and_kneels_again() -> None:
    game = make_game("warden", dice=ScriptedDice())
    g, ev = meet(game, "wick_trimmer")  # the Warden: a monster means a fight, but it is kneeling
    st = game.state
    assert not g.risen and st.mode == "encounter" and not of(ev, evt.Combat)
    ev = act(game, Wait())
    assert not attacks(ev) and not g.risen
    ev = step_inside(game)  # inside the room: it rises; AGILITY 1 against 3, the delver first
    assert one(ev, evt.Rises).group == g.id and g.risen and st.mode == "combat" and not attacks(ev)
    ev = act(game, Attack(0), 2, 9)  # it acts (9 + 3 hits for 2)
    assert one(ev, evt.MonsterAttack).hit
    ev = act(game, Attack(0), 2)  # the next round it does not
    assert one(ev, evt.Slow) and not of(ev, evt.MonsterAttack)
    ev = act(game, Attack(0), 2, 1)  # then it does again
    assert one(ev, evt.MonsterAttack)
    ev = act(game, Wait())  # the party does not attack for a round: it kneels again
    assert one(ev, evt.Idle) and not g.risen and st.mode == "encounter" and st.combat is None
    ev = step_inside(game)  # and rises again when the party moves in the room
    assert one(ev, evt.Rises) and st.mode == "combat"


@pytest.mark.clause("001-small-4")
def test_kneeler_does_not_follow() -> None:
    game = make_game("undercroft", dice=ScriptedDice())
    g, _ = meet(game, "wick_trimmer", faces=encounter_faces(reaction=ATTACKS))
    st = game.state
    assert st.mode == "encounter" and not of(_, evt.Combat)  # kneeling: even "attacks at once" waits
    ev = step_inside(game)
    assert one(ev, evt.Rises) and st.mode == "combat"
    ev = act(game, Run(), NOTHING)  # no pursuit roll: it does not follow you out (the d6: the check beyond)
    assert one(ev, evt.Leave).pursued is False and st.mode == "explore" and not g.risen
    assert not rolls(ev, "pursuit") and one(ev, evt.Roll).purpose == "monster_check"


# --- submerged: the cistern drowner ----------------------------------------------------------------------------


@pytest.mark.clause("001-small-6", "001-small-7")
def test_submerged_hidden_then_attacks_from_behind_pursues_and_ignores_food() -> None:
    game = make_game("undercroft", dice=ScriptedDice())
    g, ev = meet(game, "cistern_drowner")  # no die: it is under the water
    st = game.state
    assert kinds(ev) == ["hidden"] and g.hidden and st.mode == "explore"
    pool = st.segment
    assert not of(ev, evt.Encounter)
    walk(game, way_out(game, avoid=st.segment_entry)[:-1])  # walking about the room: nothing happens
    assert g.hidden and st.mode == "explore" and st.party[0].hp == 12
    path = way_out(game, avoid=st.segment_entry)
    # Past it: it rises behind, hits in its free round, and (quicker, AGILITY 4 against 3) misses first in round 2.
    ev = act(game, Move(path[-1][0] - st.pos[0], path[-1][1] - st.pos[1]), 9, 1)
    assert kinds(ev)[:3] == ["move", "reveal", "combat"] and not g.hidden
    assert one(ev, evt.Combat).free_round == "monsters"
    strike, again = attacks(ev)
    assert strike.attacker_side == "monsters" and strike.hit and st.party[0].hp == 12 - 3
    assert kinds(ev)[-3:] == ["surprised_skip", "initiative", "attack"] and not again.hit
    assert st.mode == "combat" and st.combat is not None and st.combat.party_turn
    # It does not stop: it pursues whatever the (absent) reaction, and food does not distract it.
    st.party[0].speed = 130  # just faster than its 120, so the chase lasts: 10 ft a round of walking
    back = [w for w in game.exits() if w.segment == pool]  # the way back past it into the water
    assert back and all(w.blocked for w in back)
    ev = act(game, Run())  # no pursuit roll and no evasion: it always comes, from the fight, at the party's heels
    assert one(ev, evt.Pursuit).distance == 10 and st.mode == "pursuit" and not of(ev, evt.Chase)
    to = tuple(one(ev, evt.Run).to)
    assert to not in {w.landing for w in back}  # onward: not back into the water
    # (food on its way: tests/test_chase_map.py, on a map drawn for it)


@pytest.mark.clause("001-small-6", "001-order-3")
def test_in_warden_the_risen_drowner_strikes_once_before_the_delver_chooses() -> None:
    # 001 has no surprise: it comes up behind the delver and strikes first, then the sides alternate (a natural
    # 20, 6 of the 12 HP: the most one blow takes). The dice scripted are exactly the step's: a second blow would
    # ask for a die that is not there.
    game = make_game("warden", 2, dice=ScriptedDice())  # (a map whose room has a second way out)
    assert not game.proc.surprise
    g, _ = meet(game, "cistern_drowner")
    st = game.state
    ev = walk_out_past(game, 20)
    assert kinds(ev)[:3] == ["move", "reveal", "combat"] and not g.hidden
    assert not one(ev, evt.Combat).free_round and not of(ev, evt.SurprisedSkip)
    (blow,) = attacks(ev)
    assert blow.attacker_side == "monsters" and blow.critical and st.party[0].hp == 12 - 6
    assert st.mode == "combat" and st.combat is not None and st.combat.party_turn  # the delver's choice now
    ev = act(game, Attack(0), 1, 1)  # the delver misses, and only then does it strike again (and misses)
    assert [a.attacker_side for a in attacks(ev)] == ["party", "monsters"] and st.party[0].hp == 6


@pytest.mark.clause("001-small-6")
def test_submerged_stays_down_when_the_party_steps_back_out_the_way_it_came() -> None:
    game = make_game("undercroft", dice=ScriptedDice())
    g, _ = meet(game, "cistern_drowner")
    st = game.state
    entry = st.segment_entry
    ev = act(game, Move(entry[0] - st.pos[0], entry[1] - st.pos[1]), NOTHING)  # back out: the way's own check
    assert not of(ev, evt.Reveal) and not of(ev, evt.Combat) and g.hidden and st.mode == "explore"
    assert rolls(ev, "monster_check")  # the segment it stepped back into has its entry procedure as ever


@pytest.mark.clause("001-small-6")
def test_walking_back_in_over_a_submerged_monster_tells_the_still_water_again_and_checks_for_nothing() -> None:
    game = make_game("undercroft", dice=ScriptedDice())
    g, _ = meet(game, "cistern_drowner")
    st = game.state
    inside, entry = st.pos, st.segment_entry
    act(game, Move(entry[0] - st.pos[0], entry[1] - st.pos[1]), NOTHING)  # back out the way it came
    ev = act(game, Move(inside[0] - st.pos[0], inside[1] - st.pos[1]))  # and in again: no die is rolled
    assert one(ev, evt.Hidden).group == g.id and not rolls(ev, "monster_check") and g.hidden
    assert say(game, one(ev, evt.Hidden)) == "The water is still. You see nothing."


@pytest.mark.clause("001-small-7")
def test_submerged_catches_a_party_that_is_not_faster() -> None:
    game = make_game("undercroft", dice=ScriptedDice())
    _g, _ = meet(game, "cistern_drowner")
    st = game.state
    walk_out_past(game, 1, 1)  # past it: it rises behind, strikes in its free round, and first in round 2
    assert st.mode == "combat"
    ev = act(game, Run())  # from the fight the chase starts at the party's heels...
    assert one(ev, evt.Pursuit).distance == 10 and st.mode == "pursuit"
    ev = act(game, Run(), 1)  # ...and its first round: 120 against 90, caught; AGILITY 4 against 3: it strikes first
    assert one(ev, evt.Caught).fights and st.mode == "combat"


def test_the_segment_stepped_into_when_it_rises_gets_its_entry_once_the_fight_is_over() -> None:
    game = make_game("undercroft", dice=ScriptedDice())
    g, _ = meet(game, "cistern_drowner")
    st = game.state
    ev = walk_out_past(game, 1, 1)  # it rises, strikes and misses in its free round, then (quicker) in round 2
    beyond = st.segment
    assert one(ev, evt.Reveal) and st.mode == "combat" and not st.level.visited[beyond]
    assert not rolls(ev, "monster_check")  # no check in the middle of a fight
    ev = act(game, Attack(0), 20, NOTHING)  # a natural 20 kills it; then the check of the segment stepped into
    assert one(ev, evt.Victory) and one(ev, evt.Enter).segment == beyond
    assert one(rolls(ev, "monster_check"), evt.Roll).total == NOTHING and st.level.visited[beyond]
    assert st.mode == "explore" and g.defeated


# --- regenerates: the ossuary knot -----------------------------------------------------------------------------


@pytest.mark.clause("001-small-8")
def test_regenerates_every_round_up_to_its_maximum() -> None:
    game = make_game("warden", dice=ScriptedDice())
    g, _ = meet(game, "ossuary_knot")
    regen = game.monster_of(g).regenerate
    assert regen >= 1 and game.state.mode == "combat"
    ev = act(game, Attack(0), 15, 1)  # 10 - 6 = 4, then it closes up
    assert one(ev, evt.Regenerate).hp == 4 + regen and g.hp == (4 + regen,)
    assert say(game, one(ev, evt.Regenerate)) == f"Ossuary Knot closes up. Ossuary Knot at {4 + regen}."
    hp = 4 + regen
    while hp < g.max_hp:
        ev = act(game, Attack(0), 2, 1)  # both miss
        hp = min(g.max_hp, hp + regen)
        assert g.hp == (hp,)
    ev = act(game, Attack(0), 2, 1)
    assert g.hp == (g.max_hp,) and not of(ev, evt.Regenerate)


# --- holds its ground: the patient one -------------------------------------------------------------------------


@pytest.mark.clause("001-end-4", "001-end-5")
def test_holds_ground_only_strikes_after_a_swing_and_never_pursues() -> None:
    game = make_game("undercroft", dice=ScriptedDice())
    g, ev = meet(game, "the_patient_one", faces=encounter_faces(reaction=ATTACKS))
    st = game.state
    assert g.reaction_result == "attacks" and st.mode == "encounter" and not of(ev, evt.Combat)
    act(game, Wait())  # never initiates: no attack chance roll
    st.party[0].hp = 4
    ev = act(game, Drink(0), 1, 1)  # drinking in front of it: 6 healed, nothing happens
    assert not attacks(ev) and st.party[0].hp == 10 and st.mode == "encounter"
    ev = act(game, Fight())  # the party steps in: it acts only after the party swings
    assert one(ev, evt.Combat).first == "party" and not attacks(ev)
    ev = act(game, Wait())
    assert one(ev, evt.Holds) and not attacks(ev)
    ev = act(game, Drink(0), 1, 1)
    assert one(ev, evt.Holds) and not attacks(ev) and st.party[0].hp == 12
    ev = act(game, Attack(0), 2, 9)  # a swing (missed): it answers (9 + its attack)
    assert [e.attacker_side for e in attacks(ev)] == ["party", "monsters"]
    ev = act(game, Run(), NOTHING)  # it never pursues (the d6: the monster check of the segment run into)
    assert one(ev, evt.Leave).pursued is False and st.mode == "explore" and not rolls(ev, "pursuit")


@pytest.mark.clause("001-fight-1")
def test_the_armour_and_the_brute_simply_fight() -> None:
    game = make_game("warden", dice=ScriptedDice())
    _g, ev = meet(game, "gaoler", faces=(1,))  # the Warden: a fight at once; AGILITY 4 against 3: it strikes first
    assert game.state.mode == "combat" and [e.attacker_side for e in attacks(ev)] == ["monsters"]
    for mid in ("gaoler", "empty_harness"):
        mon = game.content.monsters[mid]
        assert mon.behaviours == () and mon.acts_every == 1 and mon.regenerate == 0
