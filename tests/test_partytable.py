"""The exact odds of a party of two (undercroft.sim.partytable), against an enumeration of the fight state by state
written from the rules (fight_helpers.enumerate_fight), over every state of small fights that have each rule a fight
can have; against the party simulation on the shipped crawler fights; and what the odds and the panels make of
them."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from fight_helpers import enumerate_fight

from undercroft.content import Content
from undercroft.rules import formulas
from undercroft.rules.game import Game
from undercroft.rules.types import Mode
from undercroft.sim import partytable
from undercroft.sim.odds import (
    PARTY,
    PartyStart,
    _first_least,
    clear_cache,
    fight_odds,
    party_exactly,
    party_start,
    simulate_party,
)
from undercroft.sim.spec import FightSpec, spec_from_content

CLOSE = 1e-10  # both stop once what is left to decide weighs less than about 1e-13


def _party(content: Content, monster: str, cap: int = 4, **numbers: Any) -> tuple[FightSpec, FightSpec]:
    """The crawler's delver and sellsword against ``monster`` (at most ``cap`` hit points), made small enough to
    check at every state."""

    def small(character: str, hp: int) -> FightSpec:
        spec = spec_from_content(content, monster, character=character)
        return replace(spec, delver_hp=hp, delver_max_hp=hp, monster_hp=min(spec.monster_hp, cap), **numbers)

    return small("delver", 4), small("sellsword", 3)


def _fresh(
    delver: FightSpec, sellsword: FightSpec, targeting: str
) -> tuple[tuple[FightSpec, ...], tuple[int, ...], bool, int, bool, str]:
    """A fresh fight of the two against two creatures, as party_numbers and enumerate_fight take it."""
    return (delver, sellsword), (delver.monster_hp,) * 2, True, 0, False, targeting


@pytest.mark.slow
@pytest.mark.parametrize(
    ("monster", "targeting", "numbers"),
    [
        ("orc", "lowest_hp", {}),
        ("orc", "first", {}),
        ("orc", "random", {}),
        ("troll", "lowest_hp", {"cap": 9}),  # regenerates (at 4 hit points every blow kills: at 9 one may not)
        ("wick_trimmer", "lowest_hp", {}),  # acts every second turn
        ("goblin", "random", {"critical_multiplier": 3, "regenerate": 1, "acts_every": 2, "minimum_damage": 1}),
    ],
)
def test_every_state_of_a_party_fight_is_the_enumerations(
    content: Content, monster: str, targeting: str, numbers: dict[str, Any]
) -> None:
    delver, sellsword = _party(content, monster, **numbers)
    checked = 0
    creature = range(1, delver.monster_hp + 1, max(1, delver.monster_hp // 4))  # (every hit points up to 4)
    for count in (1, 2, 3) if delver.monster_hp <= 4 else (1, 2):  # (three creatures of 9 take long to enumerate)
        for a, b, m, party_next, lost in itertools.product(
            range(1, 5), range(1, 4), creature, (True, False), (False, True)
        ):
            if (a + b + m) % 2 and count > 1:
                continue  # (half the states of the groups: the enumeration of three creatures is slow)
            for phase in range(delver.acts_every):
                specs = (replace(delver, delver_hp=a), replace(sellsword, delver_hp=b))
                hps = (m,) + (delver.monster_hp,) * (count - 1)
                got = partytable.party_numbers(specs, hps, party_next, phase, lost, targeting)
                want = enumerate_fight(specs, hps, party_next, phase, lost, targeting)
                assert got == pytest.approx(want, abs=CLOSE), (count, a, b, m, party_next, phase, lost)
                checked += 1
    assert checked >= (96 + 2 * 48 if delver.monster_hp <= 4 else 240)


@pytest.mark.parametrize(
    ("monster", "targeting", "numbers"),
    [("orc", "lowest_hp", {}), ("goblin", "random", {"regenerate": 1, "acts_every": 2})],
)
def test_a_large_party_gathers_the_blows_to_the_same_odds(
    content: Content, monkeypatch: pytest.MonkeyPatch, monster: str, targeting: str, numbers: dict[str, Any]
) -> None:
    """A party of more than GATHER_CELLS states (three characters) takes a creature's blow outcome by outcome, not as
    a product with a matrix of every state: the odds are the enumeration's all the same (here a small party made to
    take that way)."""
    monkeypatch.setattr(partytable, "GATHER_CELLS", 0)
    partytable.clear()
    delver, sellsword = _party(content, monster, **numbers)
    for count, a, b, m, party_next in [(1, 4, 3, 2, True), (2, 2, 3, 1, False), (2, 1, 1, 4, True), (3, 4, 1, 3, True)]:
        for phase in range(delver.acts_every):
            specs = (replace(delver, delver_hp=a), replace(sellsword, delver_hp=b))
            hps = (m,) + (delver.monster_hp,) * (count - 1)
            got = partytable.party_numbers(specs, hps, party_next, phase, False, targeting)
            want = enumerate_fight(specs, hps, party_next, phase, False, targeting)
            assert got == pytest.approx(want, abs=CLOSE), (count, a, b, m, party_next, phase)
    partytable.clear()


def meet(content: Content, monster: str, count: int) -> Game:
    """A new crawler game facing ``count`` ``monster`` (met before: no surprise, no free round)."""
    game = Game(content, "crawler", 1)
    g = game.add_group(monster, count)
    game.start_encounter(g, meeting=False)
    assert game.state.mode == Mode.ENCOUNTER
    return game


@pytest.mark.parametrize(("monster", "count"), [("orc", 1), ("orc", 3), ("hobgoblin", 2), ("troll", 1)])
def test_the_party_of_two_is_exact_and_agrees_with_its_simulation(content: Content, monster: str, count: int) -> None:
    clear_cache()
    game = meet(content, monster, count)
    odds = fight_odds(content, game)
    start = party_start(content, game)
    assert odds is not None and start is not None and odds.character == PARTY and odds.exact
    assert odds.method == "exact; the whole party of 2"
    n = 40_000
    win, death, lost, _ = simulate_party(start, n, 11)
    se = math.sqrt(max(odds.win * (1 - odds.win), 1e-6) / n)
    assert abs(win - odds.win) <= 4 * se and abs(death - odds.death) <= 4 * se
    assert odds.win + odds.death == pytest.approx(1.0, abs=1e-9)
    assert abs(lost - odds.hp_lost_mean) <= 0.1


def test_a_wounded_party_and_a_wounded_creature_read_the_same_table(content: Content) -> None:
    """Every state of a fight is one table: a hurt sellsword lowers the odds, a hurt orc raises them, and no new
    table is built for either."""
    clear_cache()
    game = meet(content, "orc", 2)
    fresh = fight_odds(content, game)
    built = dict(partytable._tables)
    game.state.party[1].hp = 2
    hurt = fight_odds(content, game)
    game.state.party[1].hp = game.state.party[1].max_hp
    g = game.state.front_group()
    assert g is not None
    g.set_hp(1, 1)
    wounded = fight_odds(content, game)
    assert fresh is not None and hurt is not None and wounded is not None
    assert hurt.win < fresh.win < wounded.win and hurt.exact and wounded.exact
    assert partytable._tables == built


def test_what_the_tables_do_not_hold_is_simulated(content: Content) -> None:
    spec = spec_from_content(content, "orc")
    pair = (spec, replace(spec, character="sellsword"))
    two_wounded = PartyStart(pair, (3, 2, spec.monster_hp), True, 0, False, "lowest_hp")
    assert not party_exactly(two_wounded)
    assert party_exactly(replace(two_wounded, hps=(0, 2, spec.monster_hp)))  # (one down, one wounded)
    crowd = replace(spec, monster_hp=999)
    assert not party_exactly(PartyStart((crowd, crowd), (999,) * 20, True, 0, False, "lowest_hp"))
    game = Game(content, "citadel", 1)  # a party of four: far too many states
    g = game.add_group("ogre", 3)
    game.start_encounter(g, meeting=False)
    odds = fight_odds(content, game)
    assert odds is not None and odds.character == PARTY and not odds.exact


def test_a_table_is_built_on_one_thread(content: Content, monkeypatch: pytest.MonkeyPatch) -> None:
    """numpy's BLAS would spread each of a table's products over every core (twice the time with the other core
    busy); while a table is built it runs on one."""
    seen: list[int] = []
    round_ = partytable._Fight.round_

    def watching(self: partytable._Fight, v: partytable.Table, acts: bool) -> partytable.Table:
        seen.extend(int(lib["num_threads"]) for lib in partytable._blas().info() if lib["user_api"] == "blas")
        return round_(self, v, acts)

    monkeypatch.setattr(partytable._Fight, "round_", watching)
    partytable.clear()
    delver, sellsword = _party(content, "orc")
    partytable.party_numbers(*_fresh(delver, sellsword, "lowest_hp"))
    assert seen and set(seen) == {1}


@pytest.mark.parametrize("targeting", ["lowest_hp", "first", "random"])
def test_the_tables_and_the_simulation_strike_whom_the_engine_strikes(targeting: str) -> None:
    """At every hit points of a party (three characters, 0 among them), the character a creature's blow falls on in
    the tables (and, for lowest_hp, in simulate_party) is the engine's (formulas.monster_target, by every face of
    the die for random)."""
    sizes = (13, 11, 4)
    grid = np.stack([g.ravel() for g in np.meshgrid(*[np.arange(z) for z in sizes], indexing="ij")])
    share = partytable._targets(grid, targeting)
    first_least = _first_least(grid.astype(np.int32), np.arange(len(sizes), dtype=np.int32)[:, None])
    checked = 0
    for s in range(grid.shape[1]):
        hps = tuple(int(h) for h in grid[:, s])
        standing = sum(h > 0 for h in hps)
        if not standing:
            continue  # (the party down: the fight is over)
        faces = standing if targeting == "random" else 1
        want = np.zeros(len(sizes))
        for nth in range(faces):
            want[formulas.monster_target(hps, targeting, nth)] += 1 / faces
        assert share[:, s] == pytest.approx(want), hps
        if targeting == "lowest_hp":
            assert first_least[s] == formulas.monster_target(hps, targeting), hps
        checked += 1
    assert checked == grid.shape[1] - 1
