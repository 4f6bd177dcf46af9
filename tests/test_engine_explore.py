"""The dungeon and the monster check (seed 000, 8.0-8.3): what entering a segment can raise.

Every test forces the dice (ScriptedDice): a rule that rolled one die more or less than the text says would run
out of script or leave faces unused, and both fail the test.
"""

from __future__ import annotations

import numpy as np
import pytest
from engine_helpers import (
    NOTHING,
    attacks,
    clear_unique,
    content,
    encounter_faces,
    go_down,
    kinds,
    make_game,
    of,
    one,
    rolls,
    say,
    script,
    walk_into,
    walk_to,
    why,
)

from undercroft.rules import events as evt
from undercroft.rules.actions import Attack, Descend, Fight, Move, Rest, Run
from undercroft.rules.dice import Dice, ScriptedDice
from undercroft.rules.events import Event
from undercroft.rules.game import Game
from undercroft.rules.levels import make_level
from undercroft.rules.refusals import Code
from undercroft.rules.rng import Streams
from undercroft.rules.types import Origin


def faces_for(dice: Dice, face: int) -> list[int]:
    """One face per die of ``dice`` (none for a fixed number)."""
    return [face] * dice.count


def monster_faces(table: str, row: int, col: int, number_face: int = 1, treasure_face: int = 1) -> list[int]:
    """The faces after a monster check that found something: row, column, number appearing, treasure."""
    cell = content().encounters[table][row - 1][col - 1]
    mon = content().monsters[cell.monster]
    number = cell.number or Dice.parse(mon.number)
    return [row, col, *faces_for(number, number_face), *faces_for(Dice.parse(mon.treasure), treasure_face)]


def with_running(game: Game) -> Game:
    """``game`` with running switched on: the citadel's party, tables and plain meetings (no dice), but a way out
    as the other rulesets have (the citadel itself has no running away: 000)."""
    game.proc = game.proc.model_copy(update={"running": True})
    return game


def level_tables(game: Game) -> tuple[str, str]:
    spec = game.rs.levels[game.state.depth]
    return spec.resident, spec.wandering


# --- the monster check --------------------------------------------------------------------------------------


@pytest.mark.clause("000-proc-2")
def test_new_room_holds_a_resident_on_3() -> None:
    d = ScriptedDice()
    g = clear_unique(make_game("undercroft", 1, d))  # (the floor's named monster waits elsewhere)
    resident, _ = level_tables(g)
    # 3: a resident; row 2, column 5; 1d4+1 kobolds (the cell's; face 4: five, plus the level's number_bonus); treasure
    # 1d6x5 (face 4: 20 gold, of which undercroft's monsters carry 40 %: 8); then distance 60 ft, nobody surprised,
    # reaction 8.
    bonus = g.rs.levels[0].number_bonus
    events = walk_into(g, "room", visited=False, faces=[3, 2, 5, 4, 4, 3, 3, 6, 6, 4, 4])
    check = one(rolls(events, "monster_check"), evt.Roll)
    assert check.dice == "1d6" and check.faces == [3] and check.total == 3
    assert check.target == 3 and check.result == "resident"
    assert check.kind == "room" and check.visited is False
    table = one(events, evt.Table)
    assert (table.table, table.row, table.column) == (resident, 2, 5)
    assert table.monster == content().encounters[resident][1][4].monster == "kobold"
    number = one(rolls(events, "number_appearing"), evt.Roll)
    n = 5 + bonus
    assert number.dice == "1d4+1" and number.faces == [4] and number.modifier == 1 + bonus
    assert number.total == n == table.number
    enc = one(events, evt.Encounter)
    assert enc.monster == "kobold" and enc.count == n and enc.origin == "resident" and enc.first is True
    assert enc.hp == [4] * n
    (group,) = g.state.level.groups
    assert group.origin == "resident" and group.treasure == 8 and group.segment == g.state.segment
    assert g.state.mode == "encounter"
    assert d.remaining == 0


@pytest.mark.clause("000-proc-2")
def test_new_room_is_empty_on_4() -> None:
    d = ScriptedDice()
    g = clear_unique(make_game("undercroft", 1, d))  # (the floor's named monster waits elsewhere)
    events = walk_into(g, "room", visited=False, faces=[4])
    check = one(rolls(events, "monster_check"), evt.Roll)
    assert check.faces == [4] and check.result == "none" and check.target == 3
    assert not of(events, evt.Table) and not of(events, evt.Encounter)
    assert g.state.level.groups == [] and g.state.mode == "explore"
    assert d.remaining == 0  # one die, nothing more


def _into(g: Game, where: str, face: int) -> list[Event]:
    if where == "corridor":
        return walk_into(g, "corridor", faces=[face])
    walk_into(g, "corridor")  # out of the start room, then back into it: a visited room
    return walk_into(g, "room", visited=True, faces=[face])


@pytest.mark.clause("000-proc-4")
@pytest.mark.parametrize("where", ["corridor", "visited room"])
@pytest.mark.parametrize("face", [2, 3])
def test_visited_room_and_corridor_find_nothing_above_1(where: str, face: int) -> None:
    d = ScriptedDice()
    g = make_game("undercroft", 1, d)
    events = _into(g, where, face)
    check = one(rolls(events, "monster_check"), evt.Roll)
    assert check.target == 1 and check.result == "none"
    assert check.kind == ("corridor" if where == "corridor" else "room")
    if where != "corridor":
        assert check.visited is True
    assert g.state.mode == "explore" and not of(events, evt.Encounter)
    assert d.remaining == 0


@pytest.mark.clause("000-proc-4", "000-proc-5")
@pytest.mark.parametrize("where", ["corridor", "visited room"])
def test_visited_room_and_corridor_meet_a_wanderer_on_1(where: str) -> None:
    d = ScriptedDice()
    g = make_game("undercroft", 1, d)
    _, wandering = level_tables(g)
    # 1: a wanderer; wandering table row 1, column 4 (a kobold band, 1d6+1, face 4: five, plus the level's
    # number_bonus; 1d6x5 gold), then the encounter sequence: 60 ft, nobody surprised, reaction 8.
    faces = [1, *monster_faces(wandering, 1, 4, number_face=4), 3, 3, 6, 6, 4, 4]
    if where == "corridor":
        events = walk_into(g, "corridor", faces=faces)
    else:
        walk_into(g, "corridor")
        events = walk_into(g, "room", visited=True, faces=faces)
    check = one(rolls(events, "monster_check"), evt.Roll)
    assert check.result == "wandering" and check.target == 1
    table = one(events, evt.Table)
    assert table.table == wandering and (table.row, table.column) == (1, 4)
    assert table.monster == content().encounters[wandering][0][3].monster
    enc = one(events, evt.Encounter)
    assert enc.origin == "wandering" and enc.count == 5 + g.rs.levels[0].number_bonus
    assert d.remaining == 0 and g.state.mode == "encounter"


@pytest.mark.clause("000-proc-4")
def test_a_visited_room_never_rolls_a_resident() -> None:
    """1-3 finds a resident only in a room never visited: 2 in the start room (visited) is nothing."""
    d = ScriptedDice()
    g = make_game("citadel", 3, d)
    walk_into(g, "corridor")
    events = walk_into(g, "room", visited=True, faces=[2])
    assert one(rolls(events, "monster_check"), evt.Roll).result == "none"
    assert g.state.level.groups == []


@pytest.mark.clause("000-proc-1")
def test_moving_inside_a_segment_rolls_nothing() -> None:
    d = ScriptedDice()
    g = make_game("undercroft", 1, d)
    walk_into(g, "room", visited=False)
    st = g.state
    seg = st.level.map.segments[st.segment]
    inside = next(
        (x, y)
        for y in range(seg.y1, seg.y2 + 1)
        for x in range(seg.x1, seg.x2 + 1)
        if abs(x - st.pos[0]) + abs(y - st.pos[1]) == 1 and st.level.map.segment_of[y, x] == st.segment
    )
    events = g.step(Move(inside[0] - st.pos[0], inside[1] - st.pos[1]))
    assert kinds(events) in (["move"], ["move", "pickup"])  # no die asked: the script is empty
    assert d.remaining == 0


def test_resting_checks_for_wanderers() -> None:
    d = ScriptedDice([2])
    g = make_game("citadel", 1, d)
    events = g.step(Rest())
    check = one(rolls(events, "monster_check"), evt.Roll)
    assert check.target == 1 and check.result == "none" and check.visited is True


# --- the 6x6 tables ----------------------------------------------------------------------------------------


@pytest.mark.clause("000-proc-3", "000-8.1a", "000-8.1b")
@pytest.mark.parametrize(("row", "col"), [(2, 5), (5, 2)])
def test_first_die_is_the_row_second_the_column(row: int, col: int) -> None:
    d = ScriptedDice()
    g = make_game("citadel", 2, d)
    resident, _ = level_tables(g)
    grid = content().encounters[resident]
    assert grid[1][4].monster != grid[4][1].monster  # the test can tell rows from columns
    events = walk_into(g, "room", visited=False, faces=[1, *monster_faces(resident, row, col)])
    table = one(events, evt.Table)
    assert (table.row, table.column) == (row, col)
    assert one(rolls(events, "table_row"), evt.Roll).faces == [row]
    assert one(rolls(events, "table_column"), evt.Roll).faces == [col]
    assert table.monster == grid[row - 1][col - 1].monster
    assert one(events, evt.Encounter).monster == grid[row - 1][col - 1].monster
    assert d.remaining == 0


@pytest.mark.clause("000-8.1b")
def test_number_appearing_from_the_cell_dice() -> None:
    """undercroft level 1 wanderers, row 2 column 1 is "kobold 1d4": the cell's dice, not the kobold's 1d6+1."""
    d = ScriptedDice()
    g = make_game("undercroft", 1, d)
    _, wandering = level_tables(g)
    cell = content().encounters[wandering][1][0]
    assert cell.monster == "kobold" and str(cell.number) == "1d4"
    events = walk_into(g, "corridor", faces=[1, 2, 1, 4, 1, 3, 3, 6, 6, 4, 4])
    number = one(rolls(events, "number_appearing"), evt.Roll)
    bonus = g.rs.levels[0].number_bonus
    assert number.dice == "1d4" and number.faces == [4] and number.modifier == bonus
    assert number.total == 4 + bonus and one(events, evt.Encounter).count == 4 + bonus
    assert d.remaining == 0


@pytest.mark.clause("000-8.1b", "003-seq-1")
def test_number_appearing_from_the_monster_dice() -> None:
    d = ScriptedDice()
    g = make_game("undercroft", 1, d)
    _, wandering = level_tables(g)
    cell = content().encounters[wandering][1][1]
    assert cell.monster == "goblin" and cell.number is None
    events = walk_into(g, "corridor", faces=[1, 2, 2, 3, 1, 1, 3, 3, 6, 6, 4, 4])  # (its treasure: 2d6x5)
    number = one(rolls(events, "number_appearing"), evt.Roll)
    assert number.dice == content().monsters["goblin"].number == "1d4+1"
    n = 4 + g.rs.levels[0].number_bonus
    assert number.total == n and one(events, evt.Encounter).count == n
    assert d.remaining == 0


@pytest.mark.clause("000-8.1c", "003-seq-1")
def test_the_level_number_bonus_is_added() -> None:
    """The undercroft's third level meets crowds three smaller (its number_bonus: the level adjustment, data-driven)."""
    d = ScriptedDice()
    g = make_game("undercroft", 4, d)
    go_down(g)
    go_down(g)
    clear_unique(g)  # (the Iron Abbot waits in his chapel: only the orcs are on this level)
    spec = g.rs.levels[g.state.depth]
    assert g.state.depth == 2 and spec.number_bonus == -3
    resident, _ = level_tables(g)
    cell = content().encounters[resident][0][5]
    assert cell.monster == "orc" and str(cell.number) == "1d4"
    events = walk_into(
        g, "room", visited=False, faces=[1, *monster_faces(resident, 1, 6, number_face=4), *encounter_faces()]
    )
    number = one(rolls(events, "number_appearing"), evt.Roll)
    assert number.faces == [4] and number.modifier == -3 and number.total == 1
    assert one(events, evt.Encounter).count == 1 and len(g.state.level.groups[0].hp) == 1
    assert d.remaining == 0


def on_floor_4(d: ScriptedDice) -> Game:
    """An undercroft game on its fourth floor (the flooded halls: a monster from deeper down on 1 of a d20)."""
    g = make_game("undercroft", 4, d)
    for _ in range(3):
        go_down(g)
    return clear_unique(g)  # (the Drowned Queen waits in her throne room: only what the check finds is here)


def test_a_monster_from_deeper_down_on_1_with_a_bigger_hoard() -> None:
    d = ScriptedDice()
    g = on_floor_4(d)
    ood = g.rs.levels[g.state.depth].out_of_depth
    assert ood is not None and (ood.table, ood.die, ood.max, ood.hoard) == ("undercroft_7_resident", 20, 1, 2)
    cell = content().encounters[ood.table][1][2]
    assert cell.monster == "gaoler" and content().monsters["gaoler"].treasure == "4d6x10"
    # 1: a resident; 1 on the d20: from the vaults' table, row 2, column 3: a gaoler; its treasure 4d6x10 (faces
    # 3: 120 gold), of which undercroft's monsters carry 40 % (48), twice over
    faces = [1, 1, *monster_faces(ood.table, 2, 3, treasure_face=3), *encounter_faces()]
    events = walk_into(g, "room", visited=False, faces=faces)
    deeper = one(rolls(events, "out_of_depth"), evt.Roll)
    assert deeper.dice == "1d20" and deeper.total == 1 and deeper.target == 1 and deeper.result == "yes"
    table = one(events, evt.Table)
    assert (table.table, table.monster, table.deeper) == (ood.table, "gaoler", True)
    (group,) = g.state.level.groups
    assert g.rs.treasure_percent == 40
    assert group.monster == "gaoler" and group.treasure == 2 * 48
    assert say(g, deeper) == "Out of depth: rolled 1, 1-1 means something from deeper down, with a hoard!"
    assert d.remaining == 0


def test_a_wanderer_from_deeper_down_comes_from_the_deep_floors_walkers() -> None:
    """Found in play: a Caryatid (speed 0, the pillar under a gallery) and a Vault Automaton (at its post) came "into
    sight" as wanderers from deeper down. A wanderer from deeper comes from ``out_of_depth``'s ``wandering``."""
    d = ScriptedDice()
    g = on_floor_4(d)
    ood = g.rs.levels[g.state.depth].out_of_depth
    assert ood is not None and ood.wandering == "undercroft_7_wandering"
    assert content().encounters[ood.table][0][2].monster == "caryatid"  # (where a resident from deeper is one)
    faces = [1, 1, *monster_faces(ood.wandering, 1, 3, treasure_face=3), *encounter_faces()]
    events = walk_into(g, "corridor", faces=faces)  # (a corridor: a wanderer on 1)
    table = one(events, evt.Table)
    assert (table.table, table.monster, table.deeper) == (ood.wandering, "gaoler", True)
    assert d.remaining == 0


def on_floor_7(d: ScriptedDice) -> Game:
    """An undercroft game on its seventh floor (the vaults: what a rest finds comes from deeper down more often)."""
    g = make_game("undercroft", 4, d)
    for _ in range(6):
        go_down(g)
    return clear_unique(g)


def test_a_rest_deep_down_draws_wanderers_from_deeper_more_often() -> None:
    """Ours: where the level's ``out_of_depth`` gives ``resting``, a wanderer a turn of rest finds comes from deeper
    down on 1..``resting`` of its die; one met on the way there only on 1..``max``."""
    d = ScriptedDice()
    g = on_floor_7(d)
    ood = g.rs.levels[g.state.depth].out_of_depth
    assert ood is not None and ood.wandering is not None and ood.resting is not None and ood.resting > ood.max
    face = ood.resting  # (from deeper down resting; not walking)
    d.push(1, face, *monster_faces(ood.wandering, 1, 3, treasure_face=3), *encounter_faces())
    events = g.step(Rest())
    deeper = one(rolls(events, "out_of_depth"), evt.Roll)
    assert deeper.total == face and deeper.target == ood.resting and deeper.result == "yes"
    assert (one(events, evt.Table).table, one(events, evt.Table).deeper) == (ood.wandering, True)
    assert d.remaining == 0
    b = ScriptedDice()
    w = on_floor_7(b)
    _, wandering = level_tables(w)
    faces = [1, face, *monster_faces(wandering, 1, 3, treasure_face=3), *encounter_faces()]
    events = walk_into(w, "corridor", faces=faces)
    deeper = one(rolls(events, "out_of_depth"), evt.Roll)
    assert deeper.target == ood.max and deeper.result == "no"
    assert one(events, evt.Table).table == wandering
    assert b.remaining == 0


def test_no_shipped_wanderer_is_one_that_never_moves() -> None:
    """Every table wanderers come from (a level's ``wandering``; for those from deeper, ``out_of_depth``'s
    ``wandering``, else its ``table``) holds no monster of speed 0."""
    c = content()
    for rid, rs in c.rulesets.items():
        for lv in rs.levels:
            ood = lv.out_of_depth
            tables = [lv.wandering] + ([] if ood is None else [ood.wandering or ood.table])
            for tid in tables:
                still = {
                    cell.monster for row in c.encounters[tid] for cell in row if c.monsters[cell.monster].speed == 0
                }
                assert not still, (rid, lv.name, tid, still)


def test_no_monster_from_deeper_down_on_2() -> None:
    d = ScriptedDice()
    g = on_floor_4(d)
    resident, _ = level_tables(g)
    faces = [1, 2, *monster_faces(resident, 1, 3, number_face=1, treasure_face=3), *encounter_faces()]
    events = walk_into(g, "room", visited=False, faces=faces)
    deeper = one(rolls(events, "out_of_depth"), evt.Roll)
    assert deeper.total == 2 and deeper.result == "no"
    table = one(events, evt.Table)
    assert table.table == resident and table.deeper is None
    (group,) = g.state.level.groups
    assert group.monster == content().encounters[resident][0][2].monster == "drowned_dead"
    assert group.treasure == 6  # its own 1d6x5 (15), 40 % of it (6, rounded down), once
    assert d.remaining == 0


@pytest.mark.clause("000-8.1c")
def test_no_bonus_on_the_first_level() -> None:
    d = ScriptedDice()
    g = make_game("warden", 4, d)  # its first floor has no number_bonus (the citadel's and crawler's have)
    resident, _ = level_tables(g)
    events = walk_into(g, "room", visited=False, faces=[1, *monster_faces(resident, 1, 1, number_face=3)])
    number = one(rolls(events, "number_appearing"), evt.Roll)
    # sump leeches: 1d4+1, face 3; the modifier is the dice's own +1, nothing from the level
    assert number.dice == "1d4+1" and number.modifier == 1 and number.total == 4


# --- residents stay ----------------------------------------------------------------------------------------


@pytest.mark.clause("001-run-4")
def test_a_resident_is_still_there_damaged_when_the_party_comes_back() -> None:
    d = ScriptedDice()
    g = with_running(make_game("citadel", 1, d))
    resident, _ = level_tables(g)
    assert content().encounters[resident][4][3].monster == "hobgoblin"
    # a hobgoblin (1d4: one), 3d6x10 gold (30: the one-text rulesets' monsters carry the whole of it)
    walk_into(g, "room", visited=False, faces=[1, *monster_faces(resident, 5, 4, number_face=1, treasure_face=1)])
    st = g.state
    (group,) = st.level.groups
    assert group.hp == (10,) and group.treasure == 30
    room, door, inside = st.segment, st.prev_pos, st.pos
    hob, warrior = content().monsters["hobgoblin"], content().party["warrior"]
    damage = warrior.might + content().items[warrior.weapon].damage
    assert damage < hob.hp
    events = g.step(Fight())
    assert one(events, evt.Initiative).first == "party"  # the rogue's AGILITY 5 beats the hobgoblin's
    # the warrior hits (19, no natural 20); the rogue, priest and mage roll natural 1s; the hobgoblin misses.
    d.push(19, 1, 1, 1, 1)
    events = g.step(Attack(0))
    assert group.hp == (hob.hp - damage,) and st.mode == "combat"
    assert [e.hit for e in attacks(events)] == [True, False, False, False, False]
    d.push(NOTHING)  # the run over, the corridor run into gets its monster check
    events = g.step(Run())
    leave = one(events, evt.Leave)
    assert leave.pursued is False and st.mode == "explore" and st.pos == door and st.segment != room
    assert group in st.level.groups and group.hp == (hob.hp - damage,)
    # back in: no new monster check (it is still there), the same group, still hurt
    events = g.step(Move(inside[0] - door[0], inside[1] - door[1]))
    assert not rolls(events, "monster_check")
    enc = one(events, evt.Encounter)
    assert enc.group == group.id and enc.hp == [hob.hp - damage]
    assert enc.first is False and enc.origin == "resident"
    assert st.mode == "encounter" and group.treasure == 30
    assert d.remaining == 0


@pytest.mark.clause("001-run-3", "001-run-6")
def test_a_run_from_undercroft_leaves_the_resident_in_its_room() -> None:
    d = ScriptedDice()
    g = clear_unique(make_game("undercroft", 1, d))  # (the floor's named monster waits elsewhere)
    resident, _ = level_tables(g)
    assert content().encounters[resident][2][2].monster == "skeleton"  # does not pursue
    walk_into(g, "room", visited=False, faces=[2, *monster_faces(resident, 3, 3, number_face=4), 3, 3, 6, 6, 4, 4])
    st = g.state
    (group,) = st.level.groups
    inside, door = st.pos, st.prev_pos
    d.push(NOTHING)  # the run over, the corridor run into gets its monster check
    events = g.step(Run())
    assert one(events, evt.Leave).group == group.id and st.mode == "explore"
    assert st.pos == door and one(events, evt.Enter).segment == st.segment and rolls(events, "monster_check")
    events = g.step(Move(inside[0] - door[0], inside[1] - door[1]))
    enc = one(events, evt.Encounter)
    assert enc.first is False and enc.count == 4 + g.rs.levels[0].number_bonus
    assert not rolls(events, "distance") and not rolls(events, "reaction")  # settled once, when first met
    assert d.remaining == 0


def test_running_from_a_wanderer_met_while_resting_leaves_the_room() -> None:
    """The way out is the door the party came in by, even after it walked about the room and rested."""
    d = ScriptedDice()
    g = with_running(make_game("citadel", 1, d))
    walk_into(g, "room", visited=False)
    st = g.state
    room, door = st.segment, st.prev_pos
    m = st.level.map
    x, y = st.pos
    step = next(
        (dx, dy)
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
        if m.tiles[y + dy, x + dx] == 1 and m.segment_of[y + dy, x + dx] == room
    )
    g.step(Move(*step))
    _, wandering = level_tables(g)
    d.push(1, *monster_faces(wandering, 1, 1))  # giant rats
    events = g.step(Rest())
    assert one(events, evt.Encounter).origin == "wandering" and st.mode == "encounter"
    (rats,) = st.level.groups
    d.push(NOTHING)  # the run over, the corridor run into gets its monster check
    events = g.step(Run())
    assert one(events, evt.Leave).group == rats.id
    assert st.mode == "explore" and st.pos == door and st.segment != room
    assert rats.segment == room and rats in st.level.groups
    assert d.remaining == 0


# --- levels ------------------------------------------------------------------------------------------------


def test_level_two_does_not_depend_on_what_happened_on_level_one() -> None:
    a = make_game("undercroft", 77, ScriptedDice())
    go_down(a)
    b = make_game("undercroft", 77, ScriptedDice())
    walk_into(b, "corridor")
    walk_into(b, "room", visited=False)
    script(b).push(NOTHING, NOTHING)
    b.step(Rest())
    b.step(Rest())
    walk_into(b, "room", visited=False)
    go_down(b)
    c = make_game("undercroft", 77)  # seeded dice all along
    c.state.levels[1] = make_level(c.content, c.ruleset_id, c.streams, 1)
    assert a.state.turn != b.state.turn
    for other in (b, c):
        assert np.array_equal(a.state.levels[1].map.tiles, other.state.levels[1].map.tiles)
        assert np.array_equal(a.state.levels[1].map.segment_of, other.state.levels[1].map.segment_of)
        assert a.state.levels[1].map.stairs == other.state.levels[1].map.stairs
        assert a.state.levels[1].items == other.state.levels[1].items
    d = make_game("undercroft", 78, ScriptedDice())
    go_down(d)
    assert not np.array_equal(a.state.levels[1].map.tiles, d.state.levels[1].map.tiles)


def test_descending_arrives_at_the_start_of_the_new_level() -> None:
    g = make_game("citadel", 5, ScriptedDice())
    events = go_down(g)
    st = g.state
    desc = one(events, evt.Descend)
    assert desc.depth == 1 and desc.name == g.rs.levels[1].name
    assert st.depth == 1 and st.pos == st.level.map.start and st.mode == "explore"
    assert st.level.visited[st.segment]


@pytest.mark.clause("000-proc-1")
def test_the_room_arrived_in_down_the_stairs_gets_its_monster_check() -> None:
    """000: "When the party enters a new segment, it must check": arriving down the stairs is entering the level's
    first room (never visited: a resident on 1-3). In the citadel (no merchant) at once, in the descend step."""
    g = make_game("citadel", 5, ScriptedDice())
    clear_unique(g)
    walk_to(g, g.state.level.map.stairs)
    script(g).push(4)  # the check: 4, over the resident's 1-3
    events = g.step(Descend())
    enter = one(events, evt.Enter)
    check = one(events, evt.Roll, purpose="monster_check")
    assert enter.segment == g.state.segment and enter.kind == "room" and not enter.visited
    assert (check.dice, check.target, check.result) == ("1d6", 3, "none")  # (a resident on 1-3)
    assert kinds(events).index("descend") < kinds(events).index("enter") and g.state.level.visited[g.state.segment]


def test_descend_is_refused_off_the_stairs() -> None:
    g = make_game("citadel", 5, ScriptedDice())
    before = g.checksum()
    events = g.step(Descend())
    assert why(one(events, evt.Refused)).code == Code.NO_STAIRS
    assert g.checksum() == before


def test_walk_to_any_tile_of_the_map() -> None:
    """The helpers walk through step(): sanity check that a far room is reached without a monster."""
    g = make_game("warden", 9, ScriptedDice())
    far = g.state.level.map.segments[g.state.level.map.far_rooms[0]]
    walk_to(g, ((far.x1 + far.x2) // 2, (far.y1 + far.y2) // 2))
    assert g.state.segment == far.id and g.state.mode == "explore" and script(g).remaining == 0


def test_of_several_groups_in_a_segment_the_nearest_is_met() -> None:
    """A segment holding two groups: walking in meets the one nearest the party (the other stands behind it),
    whichever was placed first."""
    from undercroft.rules import dungeon, explore

    g = make_game("citadel", 4, ScriptedDice())
    walk_into(g, "room", visited=False)
    st = g.state
    m = st.level.map
    seg = st.segment
    tiles = [
        (x, y)
        for y in range(m.height)
        for x in range(m.width)
        if int(m.segment_of[y, x]) == seg and m.tiles[y, x] == dungeon.FLOOR and (x, y) != st.pos
    ]
    far = max(tiles, key=lambda t: (max(abs(t[0] - st.pos[0]), abs(t[1] - st.pos[1])), t))
    near = min(tiles, key=lambda t: (max(abs(t[0] - st.pos[0]), abs(t[1] - st.pos[1])), t))
    first = g.add_group("goblin", 1, pos=far)
    second = g.add_group("kobold", 1, pos=near)
    events: list[Event] = []
    explore.enter_segment(g, seg, events)
    assert one(events, evt.Encounter).group == second.id != first.id


def test_the_explored_map_is_what_was_seen_from_each_tile_and_costs_nothing_until_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A step only notes where the party looked round from: the field of view is computed when the map is read
    (a screen, the bot), once per tile, and the map is then the union of what was seen from each."""
    from undercroft.rules import levelmap, sight, state

    g = Game(content(), "undercroft", 4)
    calls: list[tuple[int, int]] = []
    real = sight.fold_fov

    def counting(m: levelmap.LevelMap, looks: list[tuple[int, int]], radius: int, memory: np.ndarray) -> None:
        calls.extend(looks)
        real(m, looks, radius, memory)

    monkeypatch.setattr(state, "fold_fov", counting)
    start = g.state.pos
    walked = [start]
    for dx, dy in [(1, 0), (1, 0), (-1, 0), (-1, 0), (0, 1)]:
        if g.step(Move(dx, dy))[0].type == "move":
            walked.append(g.state.pos)
    assert len(walked) > 2 and calls == []  # nothing computed while nobody looks
    lv = g.state.level
    seen = lv.explored
    assert sorted(calls) == sorted(set(walked))  # each tile once, though the party stood twice on some
    union = np.zeros_like(seen)
    for x, y in set(walked):
        union |= sight.compute_fov(lv.map, x, y, lv.fov_radius)
    np.testing.assert_array_equal(seen, union)
    lv.explored  # noqa: B018 - read again: nothing new to compute
    assert len(calls) == len(set(walked))
    assert seen.shape == (lv.map.height, lv.map.width)
    g.step(Move(0, -1))  # (a look not folded in yet: the bits fold it in)
    bits = lv.explored_bits()
    stride = lv.map.width + 1
    as_bits = np.array([[bool(bits >> (y * stride + x) & 1) for x in range(stride)] for y in range(lv.map.height)])
    np.testing.assert_array_equal(as_bits[:, :-1], lv.explored)
    assert not as_bits[:, -1].any() and lv.explored.any()


@pytest.mark.parametrize("seed", [1, "daily-2026-12-02"])
def test_one_seed_gives_each_ruleset_its_own_map(seed: int | str) -> None:
    """The ruleset is mixed into the map stream: the same seed, four rulesets, four different first levels."""
    maps = {rs: Game(content(), rs, seed).state.level.map for rs in sorted(content().rulesets)}
    assert len({m.tiles.tobytes() for m in maps.values()}) == len(maps)
    assert make_level(content(), "citadel", Streams(seed), 0).map.tiles.tobytes() == (
        maps["citadel"].tiles.tobytes()
    )  # and each is the same every time


def test_a_guardian_at_peace_that_holds_its_ground_never_steps_aside() -> None:
    """A peaceful monster steps aside for the party, swapping tiles (a peddler too: it must not close a corridor);
    a guardian that holds its ground (001's Patient One: it never leaves the room) never leaves its tile."""
    g = make_game("undercroft", 1, ScriptedDice())
    x, y = g.state.pos
    step = next((dx, dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)) if g.legal(Move(dx, dy)))
    there = (x + step[0], y + step[1])
    guardian = g.add_group("the_patient_one", 1, pos=there, origin=Origin.GUARDIAN)
    guardian.met = guardian.peaceful = True
    events = g.step(Move(*step))
    assert [e.type for e in events] == ["refused"] and why(events[0]).code == Code.IN_THE_WAY
    assert guardian.pos == there and g.state.pos == (x, y)
    g = make_game("undercroft", 1, ScriptedDice())  # the same place, a peddler at peace in the way
    peddler = g.add_group("peddler", 1, pos=there)
    peddler.met = peddler.peaceful = True
    events = g.step(Move(*step))
    assert "pass" in [e.type for e in events] and g.state.pos == there and peddler.pos == (x, y)


def test_segments_owed_on_a_floor_left_are_not_entered_below() -> None:
    """A segment the party ran through without its entry is owed one once the chase is over; taking the stairs
    down leaves that floor and what it owed: nothing of the floor above is entered below (a warden game, seed 941,
    crashed at turn 183 entering segment numbers of the floor above on the floor below)."""
    game = clear_unique(make_game("warden", 1, ScriptedDice()))
    above = len(game.state.level.map.segments)
    walk_to(game, game.state.level.map.stairs)
    game.state.owed = [above - 1, above - 2]  # (run through in a chase, and never entered)
    script(game).push(NOTHING)  # the arrival's monster check below: no die more
    events = game.step(Descend())
    assert of(events, evt.Descend) and game.state.owed == [] and game.state.depth == 1
    assert [e.segment for e in of(events, evt.Enter)] == [game.state.segment]  # the arrival's own, alone
