"""Agreements that can be broken, peaceful monsters that step aside, and meeting a monster again."""

from __future__ import annotations

import pytest
from engine_helpers import encounter_faces, kinds, make_game, meet, of, one, rolls, say, script, walk_up_to

from undercroft.rules import approach, dungeon, monster_check
from undercroft.rules import events as evt
from undercroft.rules.actions import Fight, Move, Talk, Wait
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.game import Game
from undercroft.rules.names import a_name, the
from undercroft.rules.types import Mode, Origin


def _agree(game: Game, monster: str = "goblin") -> None:
    meet(game, monster, faces=encounter_faces(), treasure=40)
    script(game).push(6, 6)  # 12 - reluctance 2 = 10: agreement
    ev = game.step(Talk())
    assert one(ev, evt.Negotiate).result == "agreement"
    assert game.state.mode == "explore"


@pytest.mark.clause("000-gen-2", "000-8.6b")
def test_a_peaceful_monster_steps_aside() -> None:
    game = make_game("undercroft", dice=ScriptedDice())
    _agree(game)
    st = game.state
    g = st.level.groups[-1]
    walk_up_to(game, g)  # met 60 ft away: the party walks up to it (it lets the party be)
    before = st.pos
    ev = game.step(Move(g.pos[0] - st.pos[0], g.pos[1] - st.pos[1]))
    assert "pass" in kinds(ev) and say(game, one(ev, evt.Pass)) == "The Goblin lets you pass."
    assert g.pos == before and st.pos != before  # they swapped places
    assert st.mode == "explore"


@pytest.mark.clause("000-8.6d")
def test_the_party_may_still_attack_after_an_agreement() -> None:
    """Seed 000, 8.6: having made terms, the party may still attack (e.g. for the rest of the treasure)."""
    game = make_game("undercroft", dice=ScriptedDice())
    _agree(game)
    g = game.state.level.groups[-1]
    assert game.distance_to(g) == 60
    ev = game.step(Fight())  # 60 ft apart: the party closes on it (nine tiles in a round), then the fight
    assert kinds(ev)[:3] == ["break_peace", "close", "initiative"]
    assert game.state.mode == "combat" and not g.peaceful and game.distance_to(g) == 10


def test_fight_while_exploring_needs_a_monster_in_sight() -> None:
    game = make_game("undercroft", dice=ScriptedDice())
    before = game.checksum()
    ev = game.step(Fight())
    assert kinds(ev) == ["refused"] and "nothing here to fight" in say(game, ev[0])
    assert game.checksum() == before


def test_walking_into_a_monster_left_alone_confronts_it_again() -> None:
    game = make_game("undercroft", dice=ScriptedDice())
    g, _ = meet(game, "goblin", faces=encounter_faces())
    st = game.state
    st.mode, st.encounter = Mode.EXPLORE, None  # e.g. both sides were surprised far apart
    walk_up_to(game, g)  # (met 60 ft away)
    ev = game.step(Move(g.pos[0] - st.pos[0], g.pos[1] - st.pos[1]))
    assert one(ev, evt.Encounter).first is False and st.mode == "encounter"
    assert not rolls(ev, "reaction")  # its reaction was settled when first met


def test_a_monster_that_attacks_on_sight_attacks_again_when_met_again() -> None:
    game = make_game("undercroft", dice=ScriptedDice())
    g, _ = meet(game, "goblin", faces=encounter_faces(reaction=(1, 4)))  # 5: hostile
    st = game.state
    g.reaction, g.reaction_result = 2, "attacks"
    st.mode, st.encounter = Mode.EXPLORE, None
    walk_up_to(game, g)  # (met 60 ft away)
    ev = game.step(Move(g.pos[0] - st.pos[0], g.pos[1] - st.pos[1]))
    assert "attacks" in kinds(ev) and st.mode == "combat"


@pytest.mark.clause("003-distance-2")
def test_out_of_sight_the_party_walks_as_if_alone_and_the_monster_keeps_coming() -> None:
    game = make_game("undercroft", dice=ScriptedDice())
    # A wanderer 120 ft away, beyond the room where the party cannot see it: nothing is met.
    g, ev = meet(game, "goblin", faces=encounter_faces(distance=(6, 6)), origin=Origin.WANDERING)
    st = game.state
    assert g.unseen and st.mode == Mode.EXPLORE and one(ev, evt.Placed).distance == 120
    m = st.level.map
    step = next(
        (dx, dy)
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
        if m.tiles[st.pos[1] + dy, st.pos[0] + dx] == dungeon.FLOOR
        and (st.pos[0] + dx, st.pos[1] + dy) != g.pos
        and int(m.segment_of[st.pos[1] + dy, st.pos[0] + dx]) == st.segment
    )
    clock, where = st.rounds, g.pos
    ev = game.step(Move(*step))
    assert not of(ev, evt.Refused) and one(ev, evt.Move)
    walked = approach.steps_between(game, where, g.pos)
    assert 0 < walked <= game.monster_of(g).speed // 10 and one(ev, evt.Approach).distance == game.distance_to(g)
    assert st.rounds == clock + 1  # one round


def test_new_groups_never_stand_on_the_stairs() -> None:
    for seed in range(1, 40):
        game = make_game("undercroft", seed=seed)
        m = game.state.level.map
        assert m.stairs is not None
        seg = int(m.segment_of[m.stairs[1], m.stairs[0]])
        assert monster_check.far_tile(game, seg) != m.stairs


@pytest.mark.clause("000-8.4")
def test_the_citadel_talks_to_anything_but_the_nameless_one_and_demons() -> None:
    """Seed 000, 8.4, as written: the citadel ruleset lists who is not negotiable; the data flag is not used."""
    game = make_game("citadel", dice=ScriptedDice())
    assert not game.content.monsters["skeleton"].negotiable
    g, _ = meet(game, "skeleton")
    assert game.negotiable(g)
    script(game).push(3, 3)
    ev = game.step(Talk())
    assert one(ev, evt.Negotiate).group == g.id
    for monster in ("the_nameless_one", "demon"):
        other = make_game("citadel", dice=ScriptedDice())
        meet(other, monster)
        before = other.checksum()
        ev = other.step(Talk())
        assert kinds(ev) == ["refused"] and other.checksum() == before


def test_names_that_bring_their_own_article() -> None:
    assert the("Ghoul") == "the Ghoul" and the("The Unlit") == "the Unlit"
    assert a_name("Orc") == "An Orc" and a_name("Ghoul") == "A Ghoul" and a_name("The Unlit") == "The Unlit"
    game = make_game("undercroft", dice=ScriptedDice())
    meet(game, "the_patient_one", faces=encounter_faces())
    ev = game.step(Wait())
    assert all("The The" not in say(game, e) and "the The" not in say(game, e) for e in ev)


@pytest.mark.clause("000-8.9")
def test_no_bribery_cell_below_the_tables_first_row() -> None:
    game = make_game("undercroft", dice=ScriptedDice())
    g, _ = meet(game, "goblin", faces=encounter_faces())
    first = game.content.tables.bribery.rows[0].min
    assert game.bribe_cell(g, first - 1) is None and game.bribe_cell(g, first) is not None
