"""Data that validates plays as written. YAML 1.1's octal and base-60 numbers, merge keys,
control characters in names, glyphs that cannot be seen or take two columns, a table cell with two spaces or a tab,
``start_items`` holding gold, rooms the map cannot hold: each refused with its file:line:col."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_validation import Mutate, check, only_problem, pos


def test_an_octal_number_is_refused(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "monsters.yaml", "  hp: 4\n", "  hp: 010\n")
    check(only_problem(data_copy), "monsters.yaml", pos(text, "010"), "", "'010' is an octal number", "read as 8")


def test_a_base_60_number_is_refused(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "monsters.yaml", "  speed: 30\n", "  speed: 1:30\n")
    check(only_problem(data_copy), "monsters.yaml", pos(text, "1:30"), "", "base-60", "read as 90")


def test_a_quoted_leading_zero_is_text_not_octal(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "monsters.yaml", "  hp: 4\n", '  hp: "010"\n')
    check(only_problem(data_copy), "monsters.yaml", pos(text, '"010"'), "sump_leeches.hp", "integer")


def test_a_merge_key_is_refused(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "monsters.yaml", "  hp: 4\n", "  hp: 4\n  <<: {hp: 40}\n")
    check(only_problem(data_copy), "monsters.yaml", pos(text, "<<"), "", "merge keys ('<<') are not allowed")


@pytest.mark.parametrize("name", ['"Sump\\e[2J\\aLeeches"', '"Sump\\nLeeches"', '"Sump\\u202eLeeches"'])
def test_a_control_character_in_a_name_is_refused(data_copy: Path, mutate: Mutate, name: str) -> None:
    text = mutate(data_copy, "monsters.yaml", "  name: Sump Leeches\n", f"  name: {name}\n")
    p = only_problem(data_copy)
    check(p, "monsters.yaml", pos(text, name), "sump_leeches.name", "control character", "not allowed")
    assert "\x1b" not in str(p) and "\n" not in str(p) and "\u202e" not in str(p)


@pytest.mark.parametrize("glyph", ['" "', '"\\u0301"', '"\\u9f8d"', '"\\t"'])
def test_a_glyph_is_one_printable_single_width_character(data_copy: Path, mutate: Mutate, glyph: str) -> None:
    text = mutate(data_copy, "monsters.yaml", '  glyph: "w"\n', f"  glyph: {glyph}\n")
    p = only_problem(data_copy)
    check(p, "monsters.yaml", pos(text, glyph), "sump_leeches.glyph", "one printable character of one column")


@pytest.mark.parametrize("cell", ['"kobold  1d4"', '"kobold\\t1d4"', '" kobold"', '"kobold\\u00a01d4"'])
def test_a_table_cell_has_one_space_between(data_copy: Path, mutate: Mutate, cell: str) -> None:
    text = mutate(data_copy, "encounters.yaml", '"kobold 1d4"', cell)
    p = only_problem(data_copy)
    assert p.where.startswith("undercroft_1_wandering.rows.1.0"), str(p)
    check(p, "encounters.yaml", pos(text, cell), p.where, "one space between")


def test_gold_is_not_a_starting_item(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(
        data_copy, "rulesets.yaml", "start_items: {healing_potion: 2,", "start_items: {gold: 50, healing_potion: 2,"
    )
    p = only_problem(data_copy)
    check(p, "rulesets.yaml", pos(text, "gold: 50"), "undercroft.start_items.gold", "start_gold")


def test_rooms_the_map_cannot_hold_are_refused(data_copy: Path, mutate: Mutate) -> None:
    old = "  width: 80\n  height: 43\n  rooms_min: 7\n  rooms_max: 11\n"
    text = mutate(data_copy, "dungeon.yaml", old, "  width: 20\n  height: 15\n  rooms_min: 60\n  rooms_max: 60\n")
    p = only_problem(data_copy)
    check(p, "dungeon.yaml", pos(text, "width: 20"), "maze", "rooms_min 60 cannot fit", "at most 2 rooms")


def test_a_ware_stocked_twice_on_a_floor_is_refused(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(
        data_copy, "rules.yaml", "{item: healing_potion, from_floor: 5,", "{item: healing_potion, from_floor: 4,"
    )
    p = only_problem(data_copy)
    check(p, "rules.yaml", pos(text, "healing_potion, from_floor: 4"), "shop.stock.1.item", "stocked twice", "entry 0")


def test_a_ware_sold_to_a_floor_before_its_first_is_refused(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(
        data_copy, "rules.yaml", "{item: runed_blade, from_floor: 6,", "{item: runed_blade, to_floor: 3, from_floor: 6,"
    )
    p = only_problem(data_copy)
    check(p, "rules.yaml", pos(text, "{item: runed_blade, to"), "shop.stock.21", "to_floor 3 is before from_floor 6")


def test_a_prize_that_is_no_item_is_refused(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "monsters.yaml", "spoils: [long_sword]", "spoils: [long_swrod]")
    p = only_problem(data_copy)
    check(p, "monsters.yaml", pos(text, "long_swrod"), "rattling_king.spoils.0", "did you mean 'long_sword'?")


# --- tagged merge keys, line separators, binary numbers: what hostile data files slipped past ---------------


@pytest.mark.parametrize("key", ["!!merge <<", "!!merge x", "!<tag:yaml.org,2002:merge> x"])
def test_a_tagged_merge_key_is_refused(data_copy: Path, mutate: Mutate, key: str) -> None:
    text = mutate(data_copy, "monsters.yaml", "  hp: 4\n", f"  hp: 4\n  {key}: {{hp: 40}}\n")
    check(only_problem(data_copy), "monsters.yaml", pos(text, key), "", "merge keys ('!!merge') are not allowed")


@pytest.mark.parametrize("brk", ["\x85", "\u2028", "\u2029"])
def test_a_line_separator_in_a_comment_is_refused(data_copy: Path, mutate: Mutate, brk: str) -> None:
    """YAML 1.1 (PyYAML) ends the comment there and reads ``hp: 40``; YAML 1.2 and editors show one comment."""
    text = mutate(data_copy, "monsters.yaml", "  hp: 4\n", f"  hp: 4  # tough{brk}  hp: 40\n")
    p = only_problem(data_copy)
    check(p, "monsters.yaml", pos(text, brk), "", f"U+{ord(brk):04X}", "a line break to some YAML readers")
    assert brk not in str(p)


@pytest.mark.parametrize(("number", "read"), [("0b101", 5), ("-0b1_1", -3), ("0b_", 0)])
def test_a_binary_number_is_refused(data_copy: Path, mutate: Mutate, number: str, read: int) -> None:
    text = mutate(data_copy, "monsters.yaml", "  hp: 4\n", f"  hp: {number}\n")
    p = only_problem(data_copy)
    check(p, "monsters.yaml", pos(text, number), "", f"'{number}' is a binary number", f"(read as {read})")


def test_a_signed_base_60_number_says_what_it_reads_as(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "monsters.yaml", "  speed: 30\n", "  speed: -1:30\n")
    check(only_problem(data_copy), "monsters.yaml", pos(text, "-1:30"), "", "base-60", "read as -90")


@pytest.mark.parametrize("glyph", ['"\\u2800"', '"\\u3164"', '"\\u00a0"', '"\\u200b"', '"\\u034f"'])
def test_a_glyph_that_cannot_be_seen_is_refused(data_copy: Path, mutate: Mutate, glyph: str) -> None:
    text = mutate(data_copy, "monsters.yaml", '  glyph: "w"\n', f"  glyph: {glyph}\n")
    p = only_problem(data_copy)
    check(p, "monsters.yaml", pos(text, glyph), "sump_leeches.glyph", "one printable character of one column")


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ('" "', "blank"),
        ('"   "', "blank"),
        ('"\\u0301"', "blank"),
        ('"\\u3000"', "U+3000 (IDEOGRAPHIC SPACE) cannot be seen"),
        ('"\\u2800"', "U+2800 (BRAILLE PATTERN BLANK) cannot be seen"),
        ('"Sump\\u3164Leeches"', "U+3164 (HANGUL FILLER) cannot be seen"),
        ('"Sump\\u00a0Leeches"', "U+00A0 (NO-BREAK SPACE) cannot be seen"),
        ('"\\u200b"', "control character"),
        ('"Sump\\U000f0000"', "U+F0000 (Co) cannot be seen"),
    ],
)
def test_a_name_that_cannot_be_seen_is_refused(data_copy: Path, mutate: Mutate, name: str, why: str) -> None:
    text = mutate(data_copy, "monsters.yaml", "  name: Sump Leeches\n", f"  name: {name}\n")
    p = only_problem(data_copy)
    check(p, "monsters.yaml", pos(text, name), "sump_leeches.name", why, "name or a text")


def test_an_empty_rulesets_file_is_refused(data_copy: Path) -> None:
    (data_copy / "rulesets.yaml").write_text("# nothing to play\n{}\n", encoding="utf-8")
    check(only_problem(data_copy), "rulesets.yaml", (2, 1), "", "no ruleset")
