"""Dice expressions: every accepted form, every rejected form, forced rolls."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from undercroft.rules.dice import Dice, DiceError, Roll, ScriptedDice, ScriptExhausted, roll
from undercroft.rules.rng import Streams

# expression, forced faces, expected (count, sides, multiplier, bonus), expected total, expected min, max
FORMS = [
    ("2d6", [3, 4], (2, 6, 1, 0), 7, 2, 12),
    ("d8", [5], (1, 8, 1, 0), 5, 1, 8),
    ("1d20", [20], (1, 20, 1, 0), 20, 1, 20),
    ("2d4+4", [1, 2], (2, 4, 1, 4), 7, 6, 12),
    ("1d6-1", [1], (1, 6, 1, -1), 0, 0, 5),
    ("2d6x10", [3, 4], (2, 6, 10, 0), 70, 20, 120),
    ("1d6x5+2", [6], (1, 6, 5, 2), 32, 7, 32),
    ("3d6x10-5", [1, 1, 1], (3, 6, 10, -5), 25, 25, 175),
    ("2K6", [6, 6], (2, 6, 1, 0), 12, 2, 12),
    ("1k6", [2], (1, 6, 1, 0), 2, 1, 6),
    ("2D6 + 1", [2, 2], (2, 6, 1, 1), 5, 3, 13),
    ("7", [], (0, 1, 1, 7), 7, 7, 7),
    ("0", [], (0, 1, 1, 0), 0, 0, 0),
]


@pytest.mark.parametrize(("text", "faces", "parts", "total", "lo", "hi"), FORMS)
def test_form_parses_and_rolls_with_forced_faces(
    text: str, faces: list[int], parts: tuple[int, int, int, int], total: int, lo: int, hi: int
) -> None:
    d = Dice.parse(text)
    assert (d.count, d.sides, d.multiplier, d.bonus) == parts
    assert (d.minimum, d.maximum) == (lo, hi)
    dice = ScriptedDice(faces)
    r = roll(dice, text)
    assert r.total == total
    assert r.faces == tuple(faces)
    assert dice.remaining == 0, "the roll must use exactly the scripted faces"
    assert dice.used == [(d.sides, f) for f in faces]


def test_plain_integer_is_a_constant_roll() -> None:
    d = Dice.parse(12)
    assert (d.minimum, d.maximum, str(d)) == (12, 12, "12")
    assert roll(ScriptedDice(), d).total == 12  # no die rolled: an empty script is enough


def test_roll_record_keeps_faces_multiplier_and_modifier() -> None:
    r = roll(ScriptedDice([3, 4]), "2d6x10+5")
    assert r == Roll("2d6x10+5", (3, 4), 10, 5, 75)
    assert r.as_dict() == {"dice": "2d6x10+5", "faces": [3, 4], "multiplier": 10, "modifier": 5, "total": 75}


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("2d6", "2d6"),
        ("d6", "1d6"),
        ("2K6", "2d6"),
        ("1d6 - 1", "1d6-1"),
        ("2d6X10", "2d6x10"),
        ("2d6*10+3", "2d6x10+3"),
        ("1d4+0", "1d4"),
        ("5", "5"),
        ("-3", "-3"),
    ],
)
def test_str_is_canonical_and_round_trips(text: str, canonical: str) -> None:
    d = Dice.parse(text)
    assert str(d) == canonical
    assert Dice.parse(str(d)) == d


@given(
    count=st.integers(1, 100),
    sides=st.integers(2, 1000),
    mult=st.integers(1, 1000),
    bonus=st.integers(-100_000, 100_000),
)
def test_any_valid_dice_round_trips(count: int, sides: int, mult: int, bonus: int) -> None:
    d = Dice(count, sides, mult, bonus)
    assert Dice.parse(str(d)) == d


@pytest.mark.parametrize("text", ["1d6", "2d6x10", "3d4+2", "1d20-5", "2K6"])
def test_real_rolls_stay_within_min_and_max(text: str) -> None:
    d = Dice.parse(text)
    s = Streams(99).get("dice-range")
    totals = {roll(s, d).total for _ in range(2000)}
    assert min(totals) == d.minimum
    assert max(totals) == d.maximum
    assert all(d.minimum <= t <= d.maximum for t in totals)


@pytest.mark.parametrize("text", ["", "d", "2d", "0d6", "2d1", "dx6", "2d6+", "3d6x0", "abc", "101d6", "2d6+1x3"])
def test_bad_expression_raises_dice_error_quoting_it(text: str) -> None:
    with pytest.raises(DiceError) as info:
        Dice.parse(text)
    assert f"'{text}'" in str(info.value)
    assert isinstance(info.value, ValueError)  # callers that only know ValueError still catch it


def test_roll_of_bad_text_raises_dice_error() -> None:
    with pytest.raises(DiceError, match="'2d'"):
        roll(ScriptedDice([1]), "2d")


@pytest.mark.parametrize("value", [True, None, 1.5, ["2d6"]])
def test_non_text_values_raise_dice_error(value: object) -> None:
    with pytest.raises(DiceError):
        Dice.parse(value)  # type: ignore[arg-type]


def test_limits_are_inclusive() -> None:
    assert Dice.parse("100d1000x1000+100000").maximum == 100 * 1000 * 1000 + 100_000
    with pytest.raises(DiceError, match="'1d1001'"):
        Dice.parse("1d1001")
    with pytest.raises(DiceError, match="'1d6x1001'"):
        Dice.parse("1d6x1001")
    with pytest.raises(DiceError, match=re.escape("'1d6+100001'")):
        Dice.parse("1d6+100001")


def test_scripted_dice_raise_when_exhausted() -> None:
    dice = ScriptedDice([4])
    with pytest.raises(ScriptExhausted, match="after 1 faces"):
        roll(dice, "2d6")


def test_scripted_dice_reject_a_face_that_does_not_fit_the_die() -> None:
    with pytest.raises(ValueError, match="does not fit a d6"):
        roll(ScriptedDice([7]), "1d6")
    with pytest.raises(ValueError, match="does not fit a d6"):
        roll(ScriptedDice([0]), "1d6")


def test_scripted_dice_push_appends_in_order() -> None:
    dice = ScriptedDice([1])
    dice.push(2, 3)
    assert [dice.die(6) for _ in range(3)] == [1, 2, 3]
    assert dice.remaining == 0


def test_notation_is_the_one_dice_type_and_rules_dice_re_exports_it() -> None:
    import undercroft.notation as notation
    import undercroft.rules.dice as rules_dice

    assert rules_dice.Dice is notation.Dice
    assert rules_dice.DiceError is notation.DiceError
    assert notation.Dice.parse("2d6x10") == rules_dice.Dice.parse("2d6x10")


def test_a_dice_text_too_long_or_a_die_too_large_is_refused_not_a_hang() -> None:
    import pytest

    from undercroft.notation import Dice, DiceError
    from undercroft.rules.rng import Stream

    with pytest.raises(DiceError, match="at most 40"):
        Dice.parse("1" * 5000)
    with pytest.raises(ValueError, match=r"at most 2\*\*64"):
        Stream(1, "test").die(2**64 + 1)
