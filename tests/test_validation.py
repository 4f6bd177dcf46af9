"""Rules data validation: each kind of mistake is reported with its file, line, column and a clear message.

Every test breaks one copy of the shipped data (the ``data_copy`` fixture) with a targeted text edit (``mutate``)
and computes the expected position from the edited text, so the tests survive changes to the data but still pin
the exact line and column.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from undercroft.content import Content, DataError, Problem, load_content
from undercroft.content.content import ruleset_monsters
from undercroft.content.loader import FILES

Mutate = Callable[[Path, str, str, str], str]


def problems_of(directory: Path) -> list[Problem]:
    with pytest.raises(DataError) as info:
        load_content(directory)
    problems = info.value.problems
    assert problems, "a DataError must carry its problems"
    assert str(info.value) == "\n".join(str(p) for p in problems)
    return problems


def only_problem(directory: Path) -> Problem:
    problems = problems_of(directory)
    assert len(problems) == 1, "\n".join(map(str, problems))
    return problems[0]


def pos(text: str, needle: str, *, after: str | None = None) -> tuple[int, int]:
    """1-based (line, column) of the first ``needle`` in ``text`` (at or after the first ``after``)."""
    start = text.index(after) if after is not None else 0
    i = text.index(needle, start)
    line = text.count("\n", 0, i) + 1
    column = i - (text.rfind("\n", 0, i) + 1) + 1
    return line, column


def check(p: Problem, fname: str, at: tuple[int, int], where: str, *message: str) -> None:
    assert Path(p.path).name == fname, str(p)
    assert (p.line, p.column) == at, str(p)
    assert p.where == where, str(p)
    for part in message:
        assert part in p.message, str(p)
    assert str(p).startswith(f"{p.path}:{at[0]}:{at[1]}: " + (f"{where}: " if where else ""))


# --- field errors --------------------------------------------------------------------------------------------


def test_unknown_key_points_at_the_key(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "monsters.yaml", "  hp: 4\n", "  hp: 4\n  hitpoints: 4\n")
    p = only_problem(data_copy)
    check(p, "monsters.yaml", pos(text, "hitpoints"), "sump_leeches.hitpoints", "unknown key")


def test_missing_key_points_at_the_entry(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "monsters.yaml", "  hp: 4\n", "")
    p = only_problem(data_copy)
    # the entry's mapping starts at its first key
    check(p, "monsters.yaml", pos(text, "name: Sump Leeches"), "sump_leeches.hp", "missing key 'hp'")


def test_wrong_type_points_at_the_value(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "monsters.yaml", "  hp: 4\n", '  hp: "four"\n')
    p = only_problem(data_copy)
    check(p, "monsters.yaml", pos(text, '"four"'), "sump_leeches.hp", "valid integer", "'four'")


def test_bool_is_not_an_integer(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "party.yaml", "  might: 3\n", "  might: true\n")
    p = only_problem(data_copy)
    check(p, "party.yaml", pos(text, "true"), "delver.might", "valid integer")


def test_monster_hp_out_of_range(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "monsters.yaml", "  hp: 4\n", "  hp: 0\n")
    p = only_problem(data_copy)
    check(p, "monsters.yaml", pos(text, "0", after="  hp: "), "sump_leeches.hp", "greater than or equal to 1", "0")


def test_bribery_digit_out_of_range(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "tables.yaml", "- [2, 1, 0, 0, 0]", "- [2, 1, 9, 0, 0]")
    p = only_problem(data_copy)
    check(p, "tables.yaml", pos(text, "9", after="[2, 1, 9"), "bribery.cells.0.2", "less than or equal to 6", "9")


def test_bad_dice_in_a_monster(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "monsters.yaml", "number: 1d4+1", "number: 1d4+")
    p = only_problem(data_copy)
    check(p, "monsters.yaml", pos(text, "1d4+\n"), "sump_leeches.number", "bad dice expression '1d4+'")


def test_bad_colour_and_glyph(data_copy: Path, mutate: Mutate) -> None:
    mutate(data_copy, "items.yaml", 'colour: "#ffd700"', 'colour: "gold"')
    text = mutate(data_copy, "items.yaml", 'glyph: "!"', 'glyph: "!!"')
    problems = problems_of(data_copy)
    assert len(problems) == 2
    check(problems[0], "items.yaml", pos(text, '"gold"'), "gold.colour", "'#rrggbb'")
    check(problems[1], "items.yaml", pos(text, '"!!"'), "healing_potion.glyph", "one printable character")


def test_two_monsters_of_one_ruleset_may_not_share_a_glyph(data_copy: Path, mutate: Mutate) -> None:
    """The Wick-Trimmer was a "k" like the kobold, on the same floors; a letter names one creature."""
    text = mutate(data_copy, "monsters.yaml", 'glyph: "t"', 'glyph: "k"')
    check(
        only_problem(data_copy),
        "monsters.yaml",
        pos(text, '"k"', after="wick_trimmer:"),
        "wick_trimmer.glyph",
        "glyph 'k' is also the glyph of 'kobold'",
        "ruleset 'undercroft' has both",
    )


def test_the_shipped_rulesets_give_each_creature_its_own_glyph(content: Content) -> None:
    c = content
    for rid, rs in c.rulesets.items():
        kinds = ruleset_monsters(rs, c.encounters)
        glyphs = [c.monsters[m].glyph for m in kinds]
        assert len(glyphs) == len(set(glyphs)), rid
        assert c.monsters["wick_trimmer"].glyph != c.monsters["kobold"].glyph


def test_a_key_that_is_not_an_id_points_at_the_key(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "dungeon.yaml", "crypt:\n", "Crypt:\n")
    problems = problems_of(data_copy)
    bad = [p for p in problems if Path(p.path).name == "dungeon.yaml"]
    assert len(bad) == 1
    check(bad[0], "dungeon.yaml", pos(text, "Crypt:"), "Crypt", "id 'Crypt' must be lower case")
    # the levels that name 'crypt' are told about the near miss
    assert any("unknown map profile 'crypt'; did you mean 'Crypt'?" in p.message for p in problems)


# --- bands ---------------------------------------------------------------------------------------------------


def test_reaction_bands_with_a_gap(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "tables.yaml", "{min: 3, max: 5", "{min: 4, max: 5")
    p = only_problem(data_copy)
    check(p, "tables.yaml", pos(text, "{min: 4, max: 5"), "reaction.bands.1", "gap: 3..3 is in no band")


def test_reaction_bands_that_overlap(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "tables.yaml", "{min: 6, max: 8", "{min: 5, max: 8")
    p = only_problem(data_copy)
    check(p, "tables.yaml", pos(text, "{min: 5, max: 8"), "reaction.bands.2", "overlap: 5..5")


def test_reaction_bands_must_cover_the_whole_dice_range(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "tables.yaml", "{min: 12, max: 12", "{min: 12, max: 13")
    p = only_problem(data_copy)
    check(p, "tables.yaml", pos(text, "{min: 12, max: 13"), "reaction.bands.4", "must end at 12, ends at 13")


def test_negotiation_table_must_be_open_ended_above(data_copy: Path, mutate: Mutate) -> None:
    old = "- {min: 11, result: intimidation}"
    text = mutate(data_copy, "tables.yaml", old, "- {min: 11, max: 20, result: intimidation}")
    p = only_problem(data_copy)
    check(p, "tables.yaml", pos(text, "{min: 11, max: 20"), "negotiation.negotiation.bands.2", "open-ended above")


def test_negotiation_table_must_be_open_ended_below(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "tables.yaml", "- {max: 7, result: failure}", "- {min: 2, max: 7, result: failure}")
    p = only_problem(data_copy)
    check(p, "tables.yaml", pos(text, "{min: 2, max: 7"), "negotiation.talk.bands.0", "open-ended below", "min 2")


@pytest.mark.clause("000-8.9")
def test_bribery_cells_must_match_the_columns(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "tables.yaml", "- [3, 2, 1, 0, 0]", "- [3, 2, 1, 0]")
    p = only_problem(data_copy)
    check(p, "tables.yaml", pos(text, "[3, 2, 1, 0]"), "bribery.cells.1", "has 4 cells", "5 columns")


# --- encounter grids -----------------------------------------------------------------------------------------

FIRST_ROW = '    - [sump_leeches, sump_leeches, "giant_rat 1d4+1", "giant_rat 1d4+1", "kobold 1d4+1", "kobold 1d4+1"]\n'


def test_grid_row_of_five_cells(data_copy: Path, mutate: Mutate) -> None:
    short = '    - [sump_leeches, sump_leeches, "giant_rat 1d4+1", "giant_rat 1d4+1", "kobold 1d4+1"]\n'
    text = mutate(data_copy, "encounters.yaml", FIRST_ROW, short)
    p = only_problem(data_copy)
    check(p, "encounters.yaml", pos(text, short.strip()[2:]), "undercroft_1_resident.rows.0", "row 1 needs 6", "has 5")


def test_grid_with_five_rows(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "encounters.yaml", FIRST_ROW, "")
    p = only_problem(data_copy)
    at = pos(text, "- [", after="undercroft_1_resident:")
    check(p, "encounters.yaml", at, "undercroft_1_resident.rows", "needs 6 rows", "has 5")


def test_grid_names_an_unknown_monster(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "encounters.yaml", '"kobold 1d4+1", "kobold 1d4+1"]', '"kobolt 1d4+1", "kobold 1d4+1"]')
    p = only_problem(data_copy)
    check(
        p,
        "encounters.yaml",
        pos(text, '"kobolt'),
        "undercroft_1_resident.rows.0.4",
        "unknown monster 'kobolt'; did you mean 'kobold'?",
    )


def test_grid_cell_with_bad_number_appearing(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "encounters.yaml", '"kobold 1d4"', '"kobold 1x4"')
    p = only_problem(data_copy)
    check(p, "encounters.yaml", pos(text, '"kobold 1x4"'), "undercroft_1_wandering.rows.1.0", "'1x4'")


def test_grid_cell_with_too_many_words(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "encounters.yaml", '"kobold 1d4"', '"kobold 1d4 extra"')
    p = only_problem(data_copy)
    check(p, "encounters.yaml", pos(text, '"kobold 1d4 extra"'), "undercroft_1_wandering.rows.1.0", "monster_id NdM")


def test_grid_cell_with_blanks_in_its_dice(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "encounters.yaml", '"orc 2d4"', '"orc 2d4 + 1"')
    p = only_problem(data_copy)
    check(p, "encounters.yaml", pos(text, '"orc 2d4 + 1"'), "classic_2_wandering.rows.4.5", "monster_id NdM")


# --- YAML itself ---------------------------------------------------------------------------------------------


def test_malformed_yaml_unclosed_bracket(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "party.yaml", "  hp: 12\n", "  hp: [12\n")
    p = only_problem(data_copy)
    # the parser notices at the ':' of the next key, which cannot be inside the unclosed '['
    at = pos(text, ":", after="  might: 3")
    assert at[0] == pos(text, "[12")[0] + 1
    check(p, "party.yaml", at, "", "flow sequence")


def test_python_tag_is_an_error_and_never_runs(
    data_copy: Path, mutate: Mutate, capfd: pytest.CaptureFixture[str]
) -> None:
    text = mutate(data_copy, "party.yaml", "  hp: 12\n", '  hp: !!python/object/apply:os.system ["echo hi"]\n')
    p = only_problem(data_copy)
    check(p, "party.yaml", pos(text, "!!python"), "", "python/object/apply:os.system", "no tags that build objects")
    out, err = capfd.readouterr()
    assert "hi" not in out + err


def test_python_tag_does_not_create_a_file(data_copy: Path, mutate: Mutate, tmp_path: Path) -> None:
    marker = tmp_path / "pwned"
    tag = f'!!python/object/apply:builtins.open ["{marker}", "w"]'
    text = mutate(data_copy, "items.yaml", "  damage: 3\n", f"  damage: {tag}\n")
    p = only_problem(data_copy)
    check(p, "items.yaml", pos(text, "!!python"), "", "builtins.open")
    assert not marker.exists()


def test_duplicate_key(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "party.yaml", "  might: 3\n", "  might: 3\n  might: 4\n")
    p = only_problem(data_copy)
    first = pos(text, "might: 3")[0]
    check(p, "party.yaml", pos(text, "might: 4"), "delver", f"duplicate key 'might' (first at line {first})")


def test_duplicate_top_level_id(data_copy: Path) -> None:
    path = data_copy / "dungeon.yaml"
    text = path.read_text() + "\nmaze:\n  width: 80\n"
    path.write_text(text)
    p = only_problem(data_copy)  # (not its missing fields too: the later value replaced the first)
    check(p, "dungeon.yaml", pos(text, "maze:", after="sanctum:"), "", "duplicate key 'maze'")


def test_a_monster_given_twice_with_one_field_is_one_line_naming_the_duplicate(data_copy: Path) -> None:
    path = data_copy / "monsters.yaml"
    text = path.read_text()
    path.write_text(text + "\nsump_leeches:\n  name: leech\n")
    first = text.splitlines().index("sump_leeches:") + 1
    assert [p.message for p in problems_of(data_copy)] == [f"duplicate key 'sump_leeches' (first at line {first})"]


@pytest.mark.parametrize("content", ["", "\n\n", "# only a comment\n"])
def test_empty_file(data_copy: Path, content: str) -> None:
    (data_copy / "items.yaml").write_text(content)
    problems = problems_of(data_copy)
    empty = [p for p in problems if Path(p.path).name == "items.yaml"]
    assert len(empty) == 1
    check(empty[0], "items.yaml", (1, 1), "", "file is empty")
    # names of items elsewhere cannot be checked, and must not be reported as unknown
    assert all("unknown item" not in p.message for p in problems)


def test_file_that_is_not_a_mapping(data_copy: Path) -> None:
    (data_copy / "dungeon.yaml").write_text("- maze\n- crypt\n")
    problems = problems_of(data_copy)
    assert [Path(p.path).name for p in problems] == ["dungeon.yaml"]
    assert (problems[0].line, problems[0].column) == (1, 1)
    assert "dictionary" in problems[0].message


def test_missing_file(data_copy: Path) -> None:
    (data_copy / "dungeon.yaml").unlink()
    p = only_problem(data_copy)  # and no "unknown map profile" for every level that names one
    assert p.path == str(data_copy / "dungeon.yaml")
    assert (p.line, p.column, p.where, p.message) == (0, 0, "", "file is missing")
    assert str(p) == f"{data_copy / 'dungeon.yaml'}: file is missing"


def test_missing_directory(tmp_path: Path) -> None:
    p = only_problem(tmp_path / "nowhere")
    assert "data directory not found" in p.message


def test_not_utf8(data_copy: Path) -> None:
    (data_copy / "rules.yaml").write_bytes(b"time:\n  round_seconds: \xff\n")
    problems = problems_of(data_copy)
    bad = [p for p in problems if Path(p.path).name == "rules.yaml"]
    assert len(bad) == 1 and "not UTF-8" in bad[0].message


# --- names that point into other files -----------------------------------------------------------------------

REFS = [
    # (old, new, needle at the reported position, where, message)
    (
        '{item: rations, count: "1"}',
        '{item: ration, count: "1"}',
        "ration,",
        "undercroft.levels.0.items.2.item",
        "unknown item 'ration'; did you mean 'rations'?",
    ),
    (
        "{healing_potion: 2, rations: 1, oil_flask: 1}",
        "{healing_potion: 2, ration: 1, oil_flask: 1}",
        "ration:",
        "undercroft.start_items.ration",
        "unknown item 'ration'; did you mean 'rations'?",
    ),
    (
        "negotiation_table: talk",
        "negotiation_table: tlak",
        "tlak",
        "crawler.negotiation_table",
        "unknown table 'tlak'; did you mean 'talk'?",
    ),
    (
        "party: [delver, sellsword]",
        "party: [delver, selsword]",
        "selsword",
        "crawler.party.1",
        "unknown character 'selsword'; did you mean 'sellsword'?",
    ),
    (
        "guardians: [troll, minotaur]",
        "guardians: [troll, minotar]",
        "minotar]",
        "crawler.levels.3.guardians.1",
        "unknown monster 'minotar'; did you mean 'minotaur'?",
    ),
    (
        "resident: undercroft_1_resident",
        "resident: undercroft_1_residnt",
        "undercroft_1_residnt",
        "undercroft.levels.0.resident",
        "unknown encounter table 'undercroft_1_residnt'",
    ),
    (
        "out_of_depth: {table: undercroft_7_resident,",
        "out_of_depth: {table: undercroft_7_resdent,",
        "undercroft_7_resdent",
        "undercroft.levels.3.out_of_depth.table",
        "unknown encounter table 'undercroft_7_resdent'; did you mean 'undercroft_7_resident'?",
    ),
    (
        "wandering: undercroft_7_wandering, die:",
        "wandering: undercroft_7_wanderng, die:",
        "undercroft_7_wanderng",
        "undercroft.levels.3.out_of_depth.wandering",
        "unknown encounter table 'undercroft_7_wanderng'; did you mean 'undercroft_7_wandering'?",
    ),
    (
        "mapgen: sanctum",
        "mapgen: sanctim",
        "sanctim",
        "undercroft.levels.7.mapgen",
        "unknown map profile 'sanctim'; did you mean 'sanctum'?",
    ),
]


@pytest.mark.parametrize(("old", "new", "needle", "where", "message"), REFS, ids=[r[3] for r in REFS])
def test_unknown_reference_in_rulesets(
    data_copy: Path, mutate: Mutate, old: str, new: str, needle: str, where: str, message: str
) -> None:
    text = mutate(data_copy, "rulesets.yaml", old, new)
    p = only_problem(data_copy)
    check(p, "rulesets.yaml", pos(text, needle), where, message)


def test_out_of_depth_needs_as_many_faces_as_it_names(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "rulesets.yaml", "7_wandering, die: 20, max: 1,", "7_wandering, die: 20, max: 21,")
    p = only_problem(data_copy)
    where = "undercroft.levels.3.out_of_depth.max"
    check(p, "rulesets.yaml", pos(text, "21", after="die: 20, max: "), where, "21 is more than the 20 faces of its die")


def test_out_of_depth_with_a_die_of_one_face(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "rulesets.yaml", "7_wandering, die: 20, max: 1,", "7_wandering, die: 1, max: 1,")
    p = only_problem(data_copy)
    where = "undercroft.levels.3.out_of_depth.die"
    check(p, "rulesets.yaml", pos(text, "1", after="wandering: undercroft_7_wandering, die: "), where, "2")


def test_the_renown_step_of_the_curve_is_not_negative(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "rules.yaml", "  renown_step: 70 ", "  renown_step: -5 ")
    p = only_problem(data_copy)
    check(p, "rules.yaml", pos(text, "-5"), "growth.renown_step", "greater than or equal to 0")


def test_an_elixir_is_for_good_not_for_rounds(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "items.yaml", "  limit: 12\n", "  limit: 12\n  rounds: 30\n")
    p = only_problem(data_copy)
    check(p, "items.yaml", pos(text, "name: Elixir of Life"), "elixir_of_life", "'vigour' potion needs 'bonus' and no")


def test_weapon_must_be_a_weapon(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "party.yaml", "weapon: short_sword", "weapon: rations")
    p = only_problem(data_copy)
    check(p, "party.yaml", pos(text, "rations"), "delver.weapon", "item 'rations' is not a weapon")


def test_final_level_needs_guardians(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "rulesets.yaml", "      guardians: [the_lampless, the_long_patience]\n", "")
    p = only_problem(data_copy)
    check(p, "rulesets.yaml", pos(text, "name: Below the Seal"), "undercroft.levels.7", "needs 'guardians'")


def test_last_level_must_be_final(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "rulesets.yaml", "      final: true\n", "")
    problems = problems_of(data_copy)
    assert len(problems) == 1
    check(problems[0], "rulesets.yaml", pos(text, "name: Below the Seal"), "undercroft.levels.7", "final: true")


# --- every problem in one run --------------------------------------------------------------------------------


def test_problems_in_different_files_are_all_reported(data_copy: Path, mutate: Mutate) -> None:
    texts = {
        "monsters.yaml": mutate(data_copy, "monsters.yaml", "  hp: 4\n", "  hp: 0\n"),
        "items.yaml": mutate(data_copy, "items.yaml", "  damage: 3\n", "  damage: 3\n  sharp: true\n"),
        "tables.yaml": mutate(data_copy, "tables.yaml", "{min: 3, max: 5", "{min: 4, max: 5"),
        "encounters.yaml": mutate(
            data_copy, "encounters.yaml", '"kobold 1d4+1", "kobold 1d4+1"]', '"kobolt 1d4+1", "kobold 1d4+1"]'
        ),
        "party.yaml": mutate(data_copy, "party.yaml", "  might: 3\n", "  might: 3\n  might: 4\n"),
        "rulesets.yaml": mutate(data_copy, "rulesets.yaml", "party: [delver, sellsword]", "party: [delver, selsword]"),
    }
    (data_copy / "dungeon.yaml").write_text("")
    problems = problems_of(data_copy)
    assert len(problems) >= 7
    got = {(Path(p.path).name, p.line, p.column) for p in problems}
    t = texts
    expected = {
        ("monsters.yaml", *pos(t["monsters.yaml"], "0", after="  hp: ")),
        ("items.yaml", *pos(t["items.yaml"], "sharp")),
        ("tables.yaml", *pos(t["tables.yaml"], "{min: 4, max: 5")),
        ("encounters.yaml", *pos(t["encounters.yaml"], '"kobolt')),
        ("party.yaml", *pos(t["party.yaml"], "might: 4")),
        ("rulesets.yaml", *pos(t["rulesets.yaml"], "selsword")),
        ("dungeon.yaml", 1, 1),
    }
    assert expected <= got, sorted(expected - got)
    assert problems == sorted(problems)  # reported in file, line, column order


def test_problems_in_one_file_are_all_reported(data_copy: Path, mutate: Mutate) -> None:
    # a field error in one part of tables.yaml must not hide a band gap in another part
    mutate(data_copy, "tables.yaml", "- [2, 1, 0, 0, 0]", "- [2, 1, 9, 0, 0]")
    text = mutate(data_copy, "tables.yaml", "{min: 3, max: 5", "{min: 4, max: 5")
    problems = problems_of(data_copy)
    assert len(problems) == 2
    check(problems[0], "tables.yaml", pos(text, "{min: 4, max: 5"), "reaction.bands.1", "gap")
    check(problems[1], "tables.yaml", pos(text, "9", after="[2, 1, 9"), "bribery.cells.0.2", "less than or equal")


def test_a_bad_entry_does_not_hide_names_checked_in_other_entries(data_copy: Path, mutate: Mutate) -> None:
    # items.yaml has a field error (so it does not validate as a whole), yet a misspelt item elsewhere is still
    # found, a bad monster entry does not hide a misspelt monster in a grid, and a bad ruleset does not hide
    # a misspelt name in another ruleset.
    items = mutate(data_copy, "items.yaml", "  damage: 3\n", "  damage: -3\n")
    monsters = mutate(data_copy, "monsters.yaml", "  hp: 4\n", "  hp: 0\n")
    grids = mutate(data_copy, "encounters.yaml", '"kobold 1d4+1", "kobold 1d4+1"]', '"kobolt 1d4+1", "kobold 1d4+1"]')
    mutate(data_copy, "rulesets.yaml", "number_bonus: -2\n", "number_bonus: 99\n")
    rules = mutate(data_copy, "rulesets.yaml", "party: [delver, sellsword]", "party: [delver, selsword]")
    problems = problems_of(data_copy)
    got = {(Path(p.path).name, p.line, p.column, p.where) for p in problems}
    assert ("items.yaml", *pos(items, "-3"), "short_sword.damage") in got
    assert ("monsters.yaml", *pos(monsters, "0", after="  hp: "), "sump_leeches.hp") in got
    assert ("encounters.yaml", *pos(grids, '"kobolt'), "undercroft_1_resident.rows.0.4") in got
    assert ("rulesets.yaml", *pos(rules, "99", after="number_bonus: "), "undercroft.levels.3.number_bonus") in got
    assert ("rulesets.yaml", *pos(rules, "selsword"), "crawler.party.1") in got
    # a valid entry that names a bad-but-declared entry is fine: no "unknown item 'short_sword'"
    assert not any("short_sword" in p.message for p in problems)
    assert len(problems) == 5, "\n".join(map(str, problems))


def test_display_root_changes_only_the_shown_path(data_copy: Path, mutate: Mutate) -> None:
    mutate(data_copy, "monsters.yaml", "  hp: 4\n", "  hp: 0\n")
    with pytest.raises(DataError) as info:
        load_content(data_copy, display_root="data")
    assert info.value.problems[0].path == str(Path("data") / "monsters.yaml")


# --- the shipped data ----------------------------------------------------------------------------------------


@pytest.mark.clause("000-8.2")
def test_shipped_data_validates(content: Content) -> None:
    assert set(content.rulesets) >= {"undercroft", "citadel", "warden", "crawler"}
    assert len(content.digest) == 24


def test_every_data_file_is_known(shipped_data: Path) -> None:
    assert {p.name for p in shipped_data.glob("*.yaml")} == set(FILES)


def test_every_ruleset_ends_in_a_final_level_with_guardians(content: Content) -> None:
    for rid, rs in content.rulesets.items():
        *before, last = rs.levels
        assert last.final, rid
        assert last.guardians, rid
        assert all(g in content.monsters for g in last.guardians), rid
        assert not any(lv.final for lv in before), rid


@pytest.mark.clause("000-8.2")
def test_enough_monsters_and_the_unbargainable(content: Content) -> None:
    assert len(content.monsters) >= 20
    by_name = {m.name: m for m in content.monsters.values()}
    assert not by_name["The Nameless One"].negotiable
    assert not by_name["Demon"].negotiable


@pytest.mark.clause("000-8.3")
def test_encounter_grids_are_six_by_six(content: Content) -> None:
    for tid, grid in content.encounters.items():
        assert len(grid) == 6, tid
        assert all(len(row) == 6 for row in grid), tid
        assert all(cell.monster in content.monsters for row in grid for cell in row), tid


@pytest.mark.clause("000-8.5")
def test_shipped_tables_follow_the_source_texts(content: Content) -> None:
    reaction = [(b.min, b.max, b.result) for b in content.tables.reaction.bands]  # seed 003
    assert reaction == [
        (2, 2, "attacks"),
        (3, 5, "hostile"),
        (6, 8, "uncertain"),
        (9, 11, "peaceful"),
        (12, 12, "friendly"),
    ]
    assert [b.pursuit for b in content.tables.reaction.bands] == [100, 75, 50, 0, 25]
    assert content.rules.encounter.distance == "2d6x10"
    check_rules = content.rules.check  # seed 000: resident on 1-3, wanderer on 1, on 1d6
    assert (check_rules.die, check_rules.resident_max, check_rules.wandering_max) == (6, 3, 1)
    assert all(0 <= cell <= 6 for row in content.tables.bribery.cells for cell in row)
