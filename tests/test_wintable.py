"""The chance to win from a table (undercroft.sim.wintable), one creature's and a group's, against the forward
computation the panels show (undercroft.sim.odds.exact_from, undercroft.sim.exact.exact): every state of fights
that have each rule a fight can have, and the fresh fight of every character against every creature of the shipped
data (alone, and in groups)."""

from __future__ import annotations

import itertools
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from undercroft.content import Content, load_content
from undercroft.sim import wintable
from undercroft.sim.exact import exact
from undercroft.sim.odds import Start, exact_from, exactly
from undercroft.sim.spec import FightSpec, spec_from_content
from undercroft.sim.wintable import full_behind, group_win, table_win, tabled, win_tables

CLOSE = 1e-11  # both stop once what is left to decide weighs less than about 1e-12


@pytest.fixture(scope="module")
def content(shipped_data: Path) -> Content:
    return load_content(shipped_data)


def _forward(spec: FightSpec, d: int, m: int, delver_next: bool, phase: int, lost: bool) -> float:
    return exact_from(Start(replace(spec, delver_hp=d), (m,), delver_next, phase, lost))[0]


def _small(content: Content, monster: str, **numbers: Any) -> FightSpec:
    """A shipped fight made small enough to check at every state (and with ``numbers`` changed)."""
    spec = spec_from_content(content, monster)
    return replace(spec, delver_hp=7, delver_max_hp=7, monster_hp=min(spec.monster_hp, 6), **numbers)


@pytest.mark.parametrize(
    ("monster", "numbers"),
    [
        ("troll", {}),  # regenerates
        ("wick_trimmer", {}),  # acts every second turn
        ("the_patient_one", {}),  # holds its ground
        ("ogre", {"exhausted": True}),  # fatigue's penalties
        ("ossuary_knot", {"critical_multiplier": 3, "regenerate": 2, "acts_every": 3}),
        ("goblin", {"minimum_damage": 1, "weapon": 0}),
    ],
)
def test_every_state_of_a_fight_is_the_forward_computations(
    content: Content, monster: str, numbers: dict[str, Any]
) -> None:
    spec = _small(content, monster, **numbers)
    checked = 0
    for d, m, delver_next, lost in itertools.product(
        range(1, spec.delver_max_hp + 1), range(1, spec.monster_hp + 1), (True, False), (False, True)
    ):
        for phase in range(spec.acts_every):
            want = _forward(spec, d, m, delver_next, phase, lost)
            got = table_win(replace(spec, delver_hp=d), m, delver_next, phase, lost)
            assert got == pytest.approx(want, abs=CLOSE), (d, m, delver_next, phase, lost)
            checked += 1
    assert checked >= 7 * 5 * 4


def test_every_fresh_fight_of_the_shipped_data_is_exacts(content: Content) -> None:
    for character, monster in itertools.product(content.party, content.monsters):
        spec = spec_from_content(content, monster, character=character)
        want = exact(spec).win
        assert table_win(spec, spec.monster_hp, spec.delver_first, 0, False) == pytest.approx(want, abs=CLOSE), (
            character,
            monster,
        )


def test_states_of_shipped_fights_drawn_at_random_are_the_forward_computations(content: Content) -> None:
    rng = np.random.default_rng(17)
    pairs = list(itertools.product(sorted(content.party), sorted(content.monsters)))
    for _ in range(150):
        character, monster = pairs[int(rng.integers(len(pairs)))]
        spec = spec_from_content(content, monster, character=character, exhausted=bool(rng.integers(2)))
        d, m = int(rng.integers(1, spec.delver_max_hp + 1)), int(rng.integers(1, spec.monster_hp + 1))
        delver_next, lost, phase = bool(rng.integers(2)), bool(rng.integers(2)), int(rng.integers(spec.acts_every))
        want = _forward(spec, d, m, delver_next, phase, lost)
        assert table_win(replace(spec, delver_hp=d), m, delver_next, phase, lost) == pytest.approx(want, abs=CLOSE)


def test_a_sure_fight_and_a_hopeless_one_read_one_and_zero(content: Content) -> None:
    spec = spec_from_content(content, "goblin")
    sure = replace(spec, might=50, always_miss=0, monster_defense=0)  # every blow kills
    assert table_win(sure, 1, True, 0, False) == 1.0
    hopeless = replace(spec, weapon=0, might=-50, critical=0, minimum_damage=0)  # no blow ever lands
    assert table_win(hopeless, hopeless.monster_hp, True, 0, False) == 0.0


def test_one_table_serves_every_hit_point_of_the_delver_and_a_stalemate_runs_to_max_rounds(content: Content) -> None:
    wintable.clear()
    spec = spec_from_content(content, "troll")
    for hp in range(1, spec.delver_max_hp + 1):
        table_win(replace(spec, delver_hp=hp), spec.monster_hp, True, 0, False)
    assert len(wintable._by_numbers) == 1
    # Neither side can hurt the other: the fight is undecided to the last of its rounds, never won.
    never = replace(spec, weapon=0, might=-50, critical=0, minimum_damage=0, monster_damage=0, max_rounds=40)
    tables = win_tables(never, True)
    assert tables.rounds == 40
    assert float(tables.wins[0].max()) == 0.0


# --- a group: every creature but the one struck at full (a group is struck one at a time) ---------------------


def _group_forward(spec: FightSpec, d: int, hps: tuple[int, ...], delver_next: bool, phase: int, lost: bool) -> float:
    return exact_from(Start(replace(spec, delver_hp=d, count=len(hps)), hps, delver_next, phase, lost))[0]


@pytest.mark.parametrize(
    ("monster", "numbers"),
    [
        ("goblin", {}),
        ("troll", {}),  # regenerates
        ("wick_trimmer", {}),  # acts every second turn
        ("the_patient_one", {}),  # holds its ground
        ("ossuary_knot", {"critical_multiplier": 3, "regenerate": 2, "acts_every": 3, "exhausted": True}),
    ],
)
def test_every_state_of_a_group_fight_is_the_forward_computations(
    content: Content, monster: str, numbers: dict[str, Any]
) -> None:
    spec = replace(_small(content, monster, **numbers), monster_hp=4, count=3)
    checked = 0
    for c, d, m, delver_next, lost in itertools.product(
        (3, 2, 1), range(1, spec.delver_max_hp + 1), range(1, spec.monster_hp + 1), (True, False), (False, True)
    ):
        hps = (m,) + (spec.monster_hp,) * (c - 1)
        for phase in range(spec.acts_every):
            want = _group_forward(spec, d, hps, delver_next, phase, lost)
            got = group_win(replace(spec, delver_hp=d, count=c), hps, delver_next, phase, lost)
            assert got == pytest.approx(want, abs=CLOSE), (c, d, m, delver_next, phase, lost)
            checked += 1
    assert checked >= 3 * 7 * 4 * 4


def test_every_fresh_group_fight_of_the_shipped_data_is_exacts(content: Content) -> None:
    for character, monster in itertools.product(sorted(content.party), sorted(content.monsters)):
        for count in (2, 4):
            spec = replace(spec_from_content(content, monster, character=character), count=count)
            want = exact(spec, groups=True).win
            got = group_win(spec, (spec.monster_hp,) * count, spec.delver_first, 0, False)
            assert got == pytest.approx(want, abs=CLOSE), (character, monster, count)


def test_one_group_table_serves_every_count_of_the_living_and_every_hit_point_of_the_delver(content: Content) -> None:
    wintable.clear()
    spec = replace(spec_from_content(content, "goblin"), count=4)
    for count in (4, 3, 2):
        for hp in range(1, spec.delver_max_hp + 1):
            group_win(replace(spec, delver_hp=hp, count=count), (1,) + (spec.monster_hp,) * (count - 1), True, 0, False)
    assert len(wintable._groups) == 1


def test_a_group_with_two_wounded_is_not_held_by_the_tables(content: Content) -> None:
    spec = replace(spec_from_content(content, "goblin"), count=3)
    full = spec.monster_hp
    assert full_behind(spec, (1, full, full))
    assert not full_behind(spec, (1, full - 1, full))
    assert exactly(Start(spec, (1, full, full), True)) and not exactly(Start(spec, (1, 1, full), True))
    with pytest.raises(ValueError, match="all at full but the one struck"):
        exact_from(Start(spec, (1, 1, full), True))


def test_a_crowd_too_big_to_tabulate_is_simulated(content: Content) -> None:
    spec = replace(spec_from_content(content, "goblin"), delver_hp=999, delver_max_hp=999, monster_hp=20, count=20)
    assert not tabled(spec, 20)
    assert not exactly(Start(spec, (20,) * 20, True))  # (its tables would take 400 million multiply-adds a round)
    assert tabled(replace(spec, delver_hp=12, delver_max_hp=12, monster_hp=8), 4)  # (a shipped group: 7,680)
