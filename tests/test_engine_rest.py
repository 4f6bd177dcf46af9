"""Resting: a turn passes, wounds close a little (rules.yaml time.rest_heal), a wanderer may come."""

from __future__ import annotations

import pytest
from engine_helpers import NOTHING, act, encounter_faces, kinds, make_game, one, rolls, say, script
from test_engine_explore import level_tables, monster_faces

from undercroft.rules import events as evt
from undercroft.rules.actions import Rest
from undercroft.rules.dice import ScriptedDice


@pytest.mark.clause("001-fight-3")
def test_a_turn_of_rest_heals_rest_heal_hit_points_never_above_the_maximum() -> None:
    game = make_game("undercroft", dice=ScriptedDice())
    st = game.state
    heal = game.rules.time.rest_heal
    assert heal == 1
    st.party[0].hp = 10
    clock = st.rounds
    ev = act(game, Rest(), NOTHING)  # the wandering check finds nothing
    rest = one(ev, evt.Rest)
    assert rest.healed == 1 and st.party[0].hp == 11 and say(game, rest) == "You rest for a turn. HP 11/12."
    assert st.rounds == clock + game.rules.time.rest_rounds
    assert rolls(ev, "monster_check")[0].result == "none"
    act(game, Rest(), NOTHING)
    ev = act(game, Rest(), NOTHING)
    assert one(ev, evt.Rest).healed == 0 and st.party[0].hp == 12  # full: nothing more


@pytest.mark.clause("003-distance-6")
def test_a_wanderer_may_come_while_resting() -> None:
    game = make_game("undercroft", dice=ScriptedDice())
    st = game.state
    st.party[0].hp = 5
    _, wandering = level_tables(game)
    script(game).push(1, *monster_faces(wandering, 1, 1), *encounter_faces())
    ev = game.step(Rest())
    assert kinds(ev)[0] == "rest" and st.party[0].hp == 6
    assert one(ev, evt.Encounter).origin == "wandering" and st.mode == "encounter"


@pytest.mark.clause("001-fight-3")
def test_every_character_of_a_party_heals() -> None:
    game = make_game("citadel", dice=ScriptedDice())
    st = game.state
    for m in st.party:
        m.hp = m.max_hp - 2
    ev = act(game, Rest(), NOTHING)
    assert one(ev, evt.Rest).healed == len(st.party)
    assert all(m.hp == m.max_hp - 1 for m in st.party)


@pytest.mark.clause("001-fight-3")
def test_a_grown_delver_heals_more_a_turn_of_rest() -> None:
    # ours: each level of growth.rest_heal_at reached heals 1 HP more a turn, so a deep delver's rest to full takes
    # about as many turns (and wanderers) as a first-floor delver's, not three times as many
    game = make_game("undercroft", dice=ScriptedDice())
    st = game.state
    at = game.rules.growth.rest_heal_at
    assert at[:2] == (4, 7)
    m = st.party[0]
    m.level, m.max_hp, m.hp = 7, 30, 20
    rest = one(act(game, Rest(), NOTHING), evt.Rest)
    assert rest.healed == 3 and m.hp == 23 and say(game, rest) == "You rest for a turn. HP 23/30."
    m.level = 6
    assert one(act(game, Rest(), NOTHING), evt.Rest).healed == 2 and m.hp == 25
    m.hp = 29
    assert one(act(game, Rest(), NOTHING), evt.Rest).healed == 1 and m.hp == 30  # never above the maximum


@pytest.mark.clause("001-fight-3")
def test_without_growth_a_party_heals_one_a_turn_whatever_its_level() -> None:
    game = make_game("citadel", dice=ScriptedDice())
    for m in game.state.party:
        m.level, m.hp = 10, m.max_hp - 5
    ev = act(game, Rest(), NOTHING)
    assert one(ev, evt.Rest).healed == len(game.state.party)
