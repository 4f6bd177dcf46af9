"""The world of `undercroft`: eight floors in `undercroft`, forty monsters and more, one unique a floor waiting in its
set-piece room, and glyphs a roguelike player reads at once."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from engine_helpers import clear_unique, content, encounter_faces, go_down, make_game, of, one, walk_to
from ui_helpers import isolate_user_data

from undercroft.content import DataError, load_content
from undercroft.content.schema import Level
from undercroft.narrate import Narrator
from undercroft.rules import events as evt
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.levels import make_level
from undercroft.rules.names import the
from undercroft.rules.rng import Streams
from undercroft.rules.types import Mode, Origin
from undercroft.ui import floortable as floors
from undercroft.ui.session import Session

Mutate = Callable[[Path, str, str, str], str]
NEW_PROFILES = ("flooded", "cells", "gallery", "vault")


def test_the_monsters_read_at_once() -> None:
    """Letters for creatures (no `[` or `~`); no glyph shared by a monster and an item."""
    c = content()
    assert len(c.monsters) >= 40
    item_glyphs = {it.glyph for it in c.items.values()}
    for mid, mon in c.monsters.items():
        assert mon.glyph.isascii() and mon.glyph.isalpha(), f"{mid}: {mon.glyph!r} is not a letter"
        assert mon.glyph not in item_glyphs, f"{mid}: {mon.glyph!r} is also an item's glyph"
        assert mon.description and mon.worth > 0, mid


def test_uniques_have_their_own_letters() -> None:
    c = content()
    uniques = [m for m in c.monsters.values() if m.unique]
    others = {m.glyph for m in c.monsters.values() if not m.unique}
    assert len(uniques) >= 7
    assert len({m.glyph for m in uniques}) == len(uniques) and not {m.glyph for m in uniques} & others
    assert all(m.number == "1" for m in uniques)


def test_undercroft_has_eight_floors_each_new_one_with_a_profile_and_a_unique() -> None:
    c = content()
    levels = c.ruleset("undercroft").levels
    assert len(levels) == 8 and levels[-1].final and not any(lv.final for lv in levels[:-1])
    assert [lv.mapgen for lv in levels[3:7]] == list(NEW_PROFILES)
    assert len({lv.name for lv in levels}) == 8
    for lv in levels[:7]:  # every floor but the last (its guardians are its named things) has its unique
        assert lv.unique is not None and c.monsters[lv.unique].unique
    uniques = [lv.unique for lv in levels if lv.unique]
    assert len(uniques) == len(set(uniques))


def test_the_other_rulesets_keep_their_floors() -> None:
    c = content()
    for rid in ("citadel", "warden", "crawler"):
        rs = c.ruleset(rid)
        assert len(rs.levels) == 4 and not any(lv.unique for lv in rs.levels)
        assert {lv.mapgen for lv in rs.levels} <= {"maze", "crypt", "sanctum"}


@pytest.mark.parametrize("depth", [0, 1, 2, 3, 4, 5, 6])
def test_a_floors_unique_waits_in_the_set_piece_room_as_a_resident(depth: int) -> None:
    c = content()
    spec = c.ruleset("undercroft").levels[depth]
    for seed in (1, 2, 3):
        lv = make_level(c, "undercroft", Streams(seed), depth)
        (g,) = [g for g in lv.groups if g.monster == spec.unique]
        assert g.origin == Origin.RESIDENT and g.hp == (c.monsters[g.monster].hp,)
        assert g.segment == lv.map.set_piece and lv.map.segments[g.segment].kind == "room"
        assert lv.map.segment_of[g.pos[1], g.pos[0]] == g.segment


def test_walking_into_the_set_piece_room_meets_the_unique_by_the_ordinary_procedure() -> None:
    """No monster check in its room: the unique there is met, with the encounter sequence's own rolls."""
    game = make_game("undercroft", 1, dice=ScriptedDice())
    st = game.state
    lv = make_level(game.content, "undercroft", game.streams, 4)  # the crypt of cells: the Embalmer
    st.levels[4], st.depth = lv, 4
    room = lv.map.segments[lv.map.set_piece]
    door = room.doors[0]
    st.pos = st.prev_pos = (door[0], door[1])
    st.segment = int(lv.map.segment_of[door[1], door[0]])
    inside = next(
        (x, y)
        for y in range(room.y1, room.y2 + 1)
        for x in range(room.x1, room.x2 + 1)
        if abs(x - door[0]) + abs(y - door[1]) == 1
    )
    events = walk_to(game, inside, faces=encounter_faces())
    assert not of(events, evt.Roll, purpose="monster_check")
    enc = one(events, evt.Encounter)
    assert st.group(enc.group).monster == "embalmer" and st.mode == Mode.ENCOUNTER


def test_a_unique_in_a_table_is_refused(data_copy: Path, mutate: Mutate) -> None:
    mutate(data_copy, "encounters.yaml", "[cave_bat, cave_bat, drowned_dead", "[embalmer, cave_bat, drowned_dead")
    with pytest.raises(DataError) as info:
        load_content(data_copy)
    assert "'embalmer' is unique" in str(info.value)


def test_a_level_unique_must_be_unique(data_copy: Path, mutate: Mutate) -> None:
    mutate(data_copy, "rulesets.yaml", "unique: embalmer", "unique: troll")
    with pytest.raises(DataError) as info:
        load_content(data_copy)
    assert "monster 'troll' is not unique" in str(info.value)


def test_each_floor_greets_the_party_with_a_hint_of_what_waits_there() -> None:
    """On arrival a floor's own line names its unique (the last floor's, its guardians)."""
    c = content()
    levels = c.ruleset("undercroft").levels
    narrator = Narrator(c, "undercroft")
    for depth, lv in enumerate(levels):
        waits = [lv.unique] if lv.unique else list(lv.guardians)
        line = narrator.greeting(depth)
        assert line == lv.greeting and all(the(c.monsters[m].name).split()[-1] in line for m in waits), line
    assert narrator.greeting(len(levels)) == "" and Narrator(c, "warden").greeting(0) == ""
    g = make_game("undercroft", 1, ScriptedDice())
    clear_unique(g)
    text = narrator.text(one(go_down(g), evt.Descend))
    assert text == f"You go down to level 2: The Bone Galleries. {levels[1].greeting}"


def test_the_first_floors_greeting_opens_the_log(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate_user_data(monkeypatch, tmp_path)
    c = content()
    s = Session.new(c, "undercroft", 1)
    try:
        assert s.log.lines[:2] == [
            ("Undercroft, seed 1. The Drowned Cellars.", "alert"),
            (c.ruleset("undercroft").levels[0].greeting, "alert"),
        ]
    finally:
        s.close()


def test_the_new_things_lie_on_the_floors_deeper_ones_worth_more() -> None:
    """Each of our things lies on some undercroft floor (but the deep wares, the merchant's alone, save one runed
    mail in the crypt of cells: armour for a first-time player, who never shops); gems deeper are worth more; the
    first floor holds no plate and the vaults no dagger."""
    c = content()
    levels = c.ruleset("undercroft").levels
    placed = {fi.item for lv in levels for fi in lv.items}
    deep_wares = {"elixir_of_life", "runed_mail", "runed_blade", "headsmans_axe", "war_pick", "plate_armour"}
    assert deep_wares <= {s.item for s in c.rules.shop.stock} and placed & deep_wares == {"runed_mail"}
    assert [(depth, fi.count) for depth, lv in enumerate(levels) for fi in lv.items if fi.item == "runed_mail"] == [
        (4, "1")
    ]
    tools = {i for i, it in c.items.items() if it.kind == "tool"}
    assert placed >= set(c.items) - {"gold"} - tools - {"short_sword"} - deep_wares
    assert "lantern" in placed

    def best_gem(lv: Level) -> int:
        return max((c.items[fi.item].value or 0 for fi in lv.items if c.items[fi.item].kind == "treasure"), default=0)

    gems = [best_gem(lv) for lv in levels[:7]]
    assert all(g > 0 for g in gems) and gems == sorted(gems) and gems[0] < gems[-1]


def test_the_peddler_and_the_sellsword_roam_floors_two_to_seven_rarely() -> None:
    c = content()
    levels = c.ruleset("undercroft").levels
    for depth, lv in enumerate(levels):
        cells = [cell.monster for row in c.encounters[lv.wandering] for cell in row]
        cells += [cell.monster for row in c.encounters[lv.resident] for cell in row]
        for mid in ("peddler", "sellsword_for_hire"):
            n = cells.count(mid)
            assert (1 <= n <= 2) if 1 <= depth <= 6 else n == 0, (depth, mid, n)


def test_playings_monster_lists_are_made_from_the_data() -> None:
    """PLAYING.md's floor-1 list missed what lived there; the lists are now made from the data."""
    text = floors.PLAYING.read_text(encoding="utf-8")
    assert floors.update(text, content()) == text, "run: python -m undercroft.ui.floortable --write"
    assert floors.rulesets_in(text) == ["undercroft", "citadel", "warden", "crawler"]
    floor_1 = next(line for line in text.splitlines() if line.startswith("| 1: The Drowned Cellars"))
    for mid in ("skeleton", "ghoul", "giant_spider", "bandit"):  # the residents the old list missed
        assert f"{content().monsters[mid].name} (`{content().monsters[mid].glyph}`)" in floor_1
