"""The combat simulators: the vectorized Monte Carlo, the exact calculator, and a literal per-fight reference."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from undercroft.content import Content
from undercroft.rules.rng import Stream
from undercroft.sim import DieRoller, FightSpec, SimResult, exact, simulate, spec_from_content
from undercroft.sim.vector import Z95, _Duel, _run_chunk, _run_duel, _Tally, pcg64_raw, quantile_ci, wilson

FIGHTS = 200_000
SIGMAS = 4.0


@pytest.fixture(scope="module")
def base(content: Content) -> FightSpec:
    return spec_from_content(content, "gaoler")


def custom(base: FightSpec, **changes: object) -> FightSpec:
    return replace(base, monster_id="custom", **changes)  # type: ignore[arg-type]


# --- a literal transcription of the rules, one fight at a time, one hit-point pool per monster ----------------


def literal_fight(spec: FightSpec, stream: Stream) -> tuple[str, int, int, int, int]:
    """(outcome, rounds, hp lost, monster hits, delver swings), written straight from the rules text."""
    hp = spec.delver_hp
    monsters = [spec.monster_hp] * spec.count
    hits = swings = turn = 0
    penalty = spec.to_hit_penalty if spec.exhausted else 0
    damage = spec.might + spec.weapon - (spec.damage_penalty if spec.exhausted else 0)
    bonus = spec.opponent_bonus if spec.exhausted else 0
    first = spec.delver_agility >= spec.monster_agility or spec.holds_ground
    for rounds in range(1, spec.max_rounds + 1):
        for side in ("delver", "monsters") if first else ("monsters", "delver"):
            if side == "delver":
                target = next(i for i, m in enumerate(monsters) if m > 0)
                n = stream.die(spec.attack_die)
                swings += 1
                if n == spec.always_miss:
                    continue
                if n == spec.critical or n + spec.might + spec.to_hit - penalty >= spec.monster_defense:
                    dealt = damage * (spec.critical_multiplier if n == spec.critical else 1)
                    monsters[target] -= max(spec.minimum_damage, dealt)
                if all(m <= 0 for m in monsters):
                    return "win", rounds, spec.delver_hp - hp, hits, swings
            else:
                if turn % spec.acts_every == 0:
                    for i in range(spec.count):
                        if monsters[i] <= 0:
                            continue
                        n = stream.die(spec.attack_die)
                        if n == spec.always_miss:
                            continue
                        if n == spec.critical or n + spec.monster_attack + bonus >= spec.delver_defense:
                            hits += 1
                            dealt = spec.monster_damage * (spec.critical_multiplier if n == spec.critical else 1)
                            hp -= max(spec.minimum_damage, dealt)
                            if hp <= 0:
                                return "death", rounds, spec.delver_hp, hits, swings
                turn += 1
                monsters = [min(m + spec.regenerate, spec.monster_hp) if m > 0 else m for m in monsters]
    return "stalemate", spec.max_rounds, spec.delver_hp - hp, hits, swings


def close(sim_value: float, ci: tuple[float, float], expected: float) -> bool:
    """A simulated mean within SIGMAS standard errors (from its normal interval) of the exact value."""
    se = (ci[1] - ci[0]) / (2 * Z95)
    return abs(sim_value - expected) <= SIGMAS * se + 1e-12


def close_p(sim_p: float, n: int, p: float) -> bool:
    return abs(sim_p - p) <= SIGMAS * math.sqrt(p * (1 - p) / n) + 1e-12


# --- the spec from the data ------------------------------------------------------------------------------------


def test_spec_from_content_reads_the_data(content: Content) -> None:
    g = spec_from_content(content, "gaoler")
    delver = content.party["delver"]
    assert (g.delver_hp, g.delver_max_hp, g.might, g.weapon) == (delver.hp, delver.hp, 3, 3)
    gm = content.monsters["gaoler"]
    assert (g.monster_hp, g.monster_defense, g.monster_damage) == (16, 11, 5)  # printed in the text
    assert g.monster_attack == gm.attack
    assert (g.attack_die, g.always_miss, g.critical, g.critical_multiplier) == (20, 1, 20, 2)
    assert not g.delver_first  # agility 4 beats the delver's 3
    assert spec_from_content(content, "the_patient_one").holds_ground
    assert spec_from_content(content, "the_patient_one").delver_first  # it only answers a blow
    assert spec_from_content(content, "wick_trimmer").acts_every == 2
    assert spec_from_content(content, "ossuary_knot").regenerate == 1
    assert spec_from_content(content, "sump_leeches").delver_first  # higher agility
    assert spec_from_content(content, "ossuary_knot").delver_first  # 3 against 3: the delver wins ties
    low = spec_from_content(content, "gaoler", count=3, hp=4, exhausted=True)
    assert (low.delver_hp, low.delver_max_hp, low.count, low.exhausted) == (4, 12, 3, True)
    with pytest.raises(ValueError):
        spec_from_content(content, "gaoler", hp=0)
    with pytest.raises(ValueError):
        spec_from_content(content, "gaoler", hp=13)
    with pytest.raises(KeyError):
        spec_from_content(content, "gaoler", character="nobody")


def test_outcome_tables_follow_the_rules(content: Content) -> None:
    fresh = spec_from_content(content, "gaoler")
    d = fresh.delver_outcomes()
    assert [o.face for o in d if o.hit] == list(range(8, 21))  # 8 + 3 >= 11
    assert {o.damage for o in d if o.hit and not o.critical} == {6} and d[19].damage == 12
    tired = spec_from_content(content, "gaoler", exhausted=True)
    td = tired.delver_outcomes()
    assert [o.face for o in td if o.hit] == list(range(10, 21))  # -2 to hit
    assert td[10].damage == 4 and td[19].damage == 8  # -2 damage, doubled on a 20
    tm = tired.monster_outcomes()
    gm = content.monsters["gaoler"]
    first_hit = content.party["delver"].defense - gm.attack - 2  # +2 for the opponent
    assert [o.face for o in tm if o.hit] == list(range(max(2, first_hit), 21))
    weak = replace(tired, might=0, weapon=1)  # 1 - 2 = -1 damage: a hit still deals the minimum
    assert {o.damage for o in weak.delver_outcomes() if o.hit} == {1}
    armour = replace(fresh, monster_defense=0, delver_defense=0, monster_attack=30)
    assert [o.face for o in armour.delver_outcomes() if not o.hit] == [1]  # a natural 1 misses defense 0
    assert [o.face for o in armour.monster_outcomes() if not o.hit] == [1]


# --- the die ---------------------------------------------------------------------------------------------------


def test_a_swings_remembered_outcomes_are_those_of_its_own_numbers(base: FightSpec) -> None:
    """outcome_probabilities remembers its answer by the numbers a swing depends on: a fight at other hit points
    shares it, and a change to any other number is answered afresh (as without the memory)."""
    from undercroft.sim.exact import _outcome_probabilities, outcome_probabilities

    first = outcome_probabilities(base)
    assert outcome_probabilities(replace(base, delver_hp=1, monster_hp=base.monster_hp + 3, count=2)) is first
    changes: dict[str, Any] = {
        "might": base.might + 2,
        "weapon": base.weapon + 1,
        "exhausted": not base.exhausted,
        "delver_defense": base.delver_defense + 3,
        "monster_defense": base.monster_defense + 3,
        "monster_attack": base.monster_attack + 2,
        "monster_damage": base.monster_damage + 2,
        "attack_die": base.attack_die + 4,
        "always_miss": 2,
        "critical": base.attack_die - 2,
        "critical_multiplier": base.critical_multiplier + 1,
        "to_hit_penalty": base.to_hit_penalty + 2,
        "damage_penalty": base.damage_penalty + 2,
        "opponent_bonus": base.opponent_bonus + 2,
        "minimum_damage": base.minimum_damage + 2,
    }
    for name, value in changes.items():
        other = replace(base, **{name: value})
        if name != "exhausted":
            other = replace(other, exhausted=True)  # (the fatigue numbers count only when exhausted)
            outcome_probabilities(replace(base, exhausted=True))
        assert outcome_probabilities(other) == _outcome_probabilities(other), name


def test_d6_faces_are_uniform() -> None:
    faces = DieRoller(pcg64_raw(20240601), 6).faces(600_000)
    counts = np.bincount(faces, minlength=7)[1:]
    assert counts.sum() == 600_000 and faces.min() == 1 and faces.max() == 6
    chi2 = float(((counts - 100_000) ** 2 / 100_000).sum())
    assert chi2 < 25.7  # chi-square, 5 degrees of freedom: exceeded with probability 1e-4


def test_rejected_words_are_redrawn_in_order() -> None:
    top = 2**64 - 1  # 2**64 % 6 == 4, so the last four words are rejected for a d6
    words = [top, 5, top - 3, 2**64 - 5, top - 1, 6, 7, 8, 9]
    fed: list[int] = []

    def raw(n: int) -> NDArray[np.uint64]:
        out = words[len(fed) : len(fed) + n]
        fed.extend(out)
        return np.array(out, dtype=np.uint64)

    roller = DieRoller(raw, 6)
    faces = roller.faces(3).tolist()
    # positions 0 and 2 are rejected; the refills are 2**64-5 (accepted) and top-1 (rejected), then 6
    assert faces == [(2**64 - 5) % 6 + 1, 5 % 6 + 1, 6 % 6 + 1]
    assert roller.words == 6
    # The scalar engine's die maps each accepted word the same way; it only takes the words in another order
    # (it redraws before going on to the next face), so the same words give the same faces, shuffled.
    stream, fed_words = Stream(1, "combat"), iter(words)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Stream, "raw", lambda self: int(next(fed_words)))  # (the same words, fed to the engine's die)
        scalar = [stream.die(6) for _ in range(3)]
    assert scalar == [6, (2**64 - 5) % 6 + 1, 1] and sorted(scalar) == sorted(faces)


def test_power_of_two_die_never_rejects() -> None:
    roller = DieRoller(lambda n: np.full(n, 2**64 - 1, dtype=np.uint64), 4)
    assert roller.faces(5).tolist() == [4] * 5 and roller.words == 5


# --- hand-computed fights --------------------------------------------------------------------------------------


def test_natural_one_misses_defense_zero(base: FightSpec) -> None:
    # The delver (first) kills on any hit, and only a natural 1 misses; the monster hits only on a 20, which
    # kills (6 x 2 = 12). P(win) = (19/20) / (1 - (1/20)(19/20)) = 380/381; a round ends with p 381/400.
    spec = custom(base, monster_hp=6, monster_defense=0, monster_attack=-10, monster_damage=6, monster_agility=0)
    e = exact(spec)
    assert e.win == pytest.approx(380 / 381, abs=1e-12)
    assert e.death == pytest.approx(1 / 381, abs=1e-12)
    assert e.rounds_mean == pytest.approx(400 / 381, abs=1e-12)
    s = simulate(spec, FIGHTS, 11)
    assert close_p(s.win, FIGHTS, 380 / 381) and s.win < 1.0
    assert close(s.rounds_mean, s.rounds_mean_ci, 400 / 381)


def test_even_odds_against_a_first_striker(base: FightSpec) -> None:
    # Hits on 11+ (3 + 11 >= 14: one half), one hit kills; the monster goes first and hits only on a 20, which
    # kills. P(win) = (19/20)(1/2) / (1 - (19/20)(1/2)) = 19/21; a round ends with p 21/40.
    spec = custom(base, monster_hp=6, monster_defense=14, monster_attack=-10, monster_damage=6, monster_agility=20)
    assert not spec.delver_first
    e = exact(spec)
    assert e.win == pytest.approx(19 / 21, abs=1e-12)
    assert e.rounds_mean == pytest.approx(40 / 21, abs=1e-12)
    assert e.delver_swings_mean == pytest.approx(19 / 20 * 40 / 21, abs=1e-12)
    s = simulate(spec, FIGHTS, 12)
    assert close_p(s.win, FIGHTS, 19 / 21)
    assert close(s.rounds_mean, s.rounds_mean_ci, 40 / 21)
    assert close(s.delver_swings_mean, s.delver_swings_mean_ci, e.delver_swings_mean)


def test_only_a_natural_twenty_kills(base: FightSpec) -> None:
    # Defense 40: only a 20 hits, for 12 >= 7. The monster hits only on a 20 too, for 2 of 12 hp: it needs six.
    # Given something happens in a round, it is the kill with p 20/39, a monster hit with p 19/39.
    spec = custom(base, monster_hp=7, monster_defense=40, monster_attack=-10, monster_damage=1, monster_agility=0)
    assert [o.face for o in spec.delver_outcomes() if o.hit] == [20]
    e = exact(spec)
    assert e.win == pytest.approx(1 - (19 / 39) ** 6, abs=1e-9)
    s = simulate(spec, FIGHTS, 13)
    assert close_p(s.win, FIGHTS, e.win)
    assert close(s.rounds_mean, s.rounds_mean_ci, e.rounds_mean)
    assert close(s.hp_lost_mean, s.hp_lost_mean_ci, e.hp_lost_mean)


def test_two_hits_needed_negative_binomial(base: FightSpec) -> None:
    # No criticals, a harmless monster, two hits at one half: P(rounds = r) = (r - 1) / 2**r, mean 4, p90 7.
    spec = custom(base, monster_hp=12, monster_defense=14, critical=0, monster_attack=-30)
    e = exact(spec)
    assert e.win == pytest.approx(1.0, abs=1e-12)
    for r in range(2, 30):
        assert e.rounds_pmf[r] == pytest.approx((r - 1) / 2**r, abs=1e-15)
    assert e.rounds_mean == pytest.approx(4.0, abs=1e-9) and e.rounds_p90 == 7
    assert e.monster_hits_mean == 0.0 and e.hp_lost_mean == 0.0
    s = simulate(spec, FIGHTS, 14)
    assert s.win == 1.0 and s.monster_hits_mean == 0.0
    assert close(s.rounds_mean, s.rounds_mean_ci, 4.0)
    assert s.rounds_p90_ci[0] <= 7 <= s.rounds_p90_ci[1]


def sure(base: FightSpec, **changes: object) -> FightSpec:
    """No die face misses or hits by itself: outcomes are decided by the numbers alone (deterministic)."""
    return custom(base, always_miss=0, critical=0, **changes)


@pytest.mark.parametrize(("agility", "swings"), [(0, 5), (20, 4)])
def test_acts_every_counts_monster_turns_from_zero(base: FightSpec, agility: int, swings: int) -> None:
    # It hits every time it acts for 1; it acts on its turns 0, 2 and 4: a 3-hp delver dies in round 5.
    spec = sure(
        base,
        delver_hp=3,
        monster_defense=99,
        monster_attack=99,
        monster_damage=1,
        acts_every=2,
        monster_agility=agility,
    )
    s = simulate(spec, 1000, 1)
    assert (s.death, s.rounds_mean, s.monster_hits_mean, s.hp_lost_mean) == (1.0, 5.0, 3.0, 3.0)
    assert s.delver_swings_mean == swings
    e = exact(spec)
    assert e.death == 1.0 and e.rounds_pmf[5] == 1.0 and e.monster_hits_mean == 3.0
    assert e.delver_swings_mean == swings


@pytest.mark.parametrize(("holds", "won"), [(True, True), (False, False)])
def test_holds_ground_lets_the_delver_strike_first(base: FightSpec, holds: bool, won: bool) -> None:
    spec = sure(
        base,
        monster_hp=6,
        monster_defense=0,
        monster_attack=99,
        monster_damage=99,
        monster_agility=20,
        holds_ground=holds,
    )
    s, e = simulate(spec, 1000, 2), exact(spec)
    assert s.win == e.win == (1.0 if won else 0.0)
    assert s.rounds_mean == e.rounds_mean == 1.0
    assert s.monster_hits_mean == e.monster_hits_mean == (0.0 if won else 1.0)


def test_regeneration_and_the_round_cap(base: FightSpec) -> None:
    # 3 damage a round against 6 hp regaining 2: 6 -> 3 -> 5 -> 2 -> 4 -> 1 -> 3 -> 0, dead in round 4.
    spec = sure(base, monster_hp=6, monster_defense=0, monster_attack=-99, might=1, weapon=2, regenerate=2)
    s, e = simulate(spec, 1000, 3), exact(spec)
    assert s.win == 1.0 and s.rounds_mean == 4.0 and e.rounds_pmf[4] == 1.0
    # regaining 3 it never falls: every fight hits the cap, neither won nor lost
    stuck = replace(spec, regenerate=3)
    s, e = simulate(stuck, 1000, 3), exact(stuck)
    assert (s.stalemate, s.rounds_mean, s.rounds_p90, s.delver_swings_mean) == (1.0, 500.0, 500, 500.0)
    assert e.stalemate == 1.0 and e.rounds_mean == 500.0 and e.win == e.death == 0.0


def test_a_group_attacks_in_order_and_stops_at_death(base: FightSpec) -> None:
    # Three monsters each hit for 5 every time; the delver (12 hp) never hurts them: they act first, the third
    # hit kills, so exactly three hits land, never more.
    spec = sure(base, count=3, monster_defense=99, monster_attack=99, monster_damage=5, monster_agility=20)
    s, e = simulate(spec, 1000, 4), exact(spec, groups=True)
    assert s.death == e.death == 1.0
    assert s.rounds_mean == e.rounds_mean == 1.0
    assert s.monster_hits_mean == e.monster_hits_mean == 3.0
    assert s.delver_swings_mean == e.delver_swings_mean == 0.0


# --- the shipped monsters: simulation against the exact answer -------------------------------------------------

MATCHUPS = [
    ("gaoler", 12, False),
    ("empty_harness", 12, False),
    ("the_unlit", 12, False),
    ("the_patient_one", 12, False),
    ("ossuary_knot", 12, False),
    ("wick_trimmer", 12, False),
    ("gaoler", 12, True),
    ("gaoler", 4, False),
    ("cistern_drowner", 4, False),
]


@pytest.mark.parametrize(("monster", "hp", "tired"), MATCHUPS)
def test_simulation_matches_exact(content: Content, monster: str, hp: int, tired: bool) -> None:
    spec = spec_from_content(content, monster, hp=hp, exhausted=tired)
    e = exact(spec)
    s = simulate(spec, FIGHTS, 1000 + hp)
    assert e.truncated < 1e-12 and e.win + e.death + e.stalemate == pytest.approx(1.0, abs=1e-12)
    assert close_p(s.win, FIGHTS, e.win), (s.win, e.win)
    assert close_p(s.death, FIGHTS, e.death), (s.death, e.death)
    assert close(s.rounds_mean, s.rounds_mean_ci, e.rounds_mean), (s.rounds_mean, e.rounds_mean)
    assert close(s.hp_lost_mean, s.hp_lost_mean_ci, e.hp_lost_mean), (s.hp_lost_mean, e.hp_lost_mean)
    assert close(s.monster_hits_mean, s.monster_hits_mean_ci, e.monster_hits_mean)
    assert close(s.delver_swings_mean, s.delver_swings_mean_ci, e.delver_swings_mean)
    assert s.rounds_p90_ci[0] <= e.rounds_p90 <= s.rounds_p90_ci[1]


def test_exact_is_for_one_monster(content: Content) -> None:
    with pytest.raises(ValueError):
        exact(spec_from_content(content, "sump_leeches", count=3))


@pytest.mark.slow
@pytest.mark.parametrize(
    ("monster", "count", "hp", "tired", "character"),
    [
        ("sump_leeches", 4, 12, False, "delver"),
        ("cistern_drowner", 2, 12, True, "delver"),
        ("ossuary_knot", 2, 8, False, "delver"),
        ("sump_leeches", 3, 9, False, "rogue"),  # 3 damage: two hits for each 4-hp leech
    ],
)
def test_literal_reference_matches_exact_for_groups(
    content: Content, monster: str, count: int, hp: int, tired: bool, character: str
) -> None:
    """The per-monster literal transcription agrees with the exact calculator (and the simulator with both),
    so the target-only state the two share is checked against one hit-point pool per monster."""
    spec = spec_from_content(content, monster, count=count, hp=hp, exhausted=tired, character=character)
    e = exact(spec, groups=True)
    stream = Stream(99, "combat", count)
    n = 6000
    fights = [literal_fight(spec, stream) for _ in range(n)]
    wins = sum(f[0] == "win" for f in fights)
    assert close_p(wins / n, n, e.win), (wins / n, e.win)
    for col, want in ((1, e.rounds_mean), (2, e.hp_lost_mean), (3, e.monster_hits_mean), (4, e.delver_swings_mean)):
        values = np.array([f[col] for f in fights], dtype=np.float64)
        se = values.std(ddof=1) / math.sqrt(n)
        assert abs(values.mean() - want) <= SIGMAS * se, (col, values.mean(), want)
    s = simulate(spec, FIGHTS, 5)
    assert close_p(s.win, FIGHTS, e.win) and close(s.monster_hits_mean, s.monster_hits_mean_ci, e.monster_hits_mean)


# --- the 1 v 1 fast path against the general one -------------------------------------------------------------


def run_general(spec: FightSpec, fights: int, dice: DieRoller, chunk: int = 100_000) -> SimResult:
    """The fights through the general chunk loop (any count), never the packed 1 v 1 path."""
    tally = _Tally(spec.max_rounds, spec.delver_hp)
    done = 0
    while done < fights:
        n = min(chunk, fights - done)
        _run_chunk(spec, n, dice, tally)
        done += n
    return tally.result()


def run_duel(spec: FightSpec, fights: int, dice: DieRoller, chunk: int = 100_000) -> SimResult:
    tally = _Tally(spec.max_rounds, spec.delver_hp)
    duel = _Duel(spec, min(chunk, fights))
    done = 0
    while done < fights:
        n = min(chunk, fights - done)
        _run_duel(spec, n, dice, tally, duel)
        done += n
    return tally.result()


def duel_cases(base: FightSpec) -> list[FightSpec]:
    return [
        base,  # the monster strikes first
        custom(base, monster_agility=0),  # the delver strikes first
        replace(base, exhausted=True),
        custom(base, acts_every=3, regenerate=2, monster_hp=20),
        custom(base, holds_ground=True, acts_every=2),
        custom(base, max_rounds=2),  # stalemates at the cap
        # it never falls: only stalemates
        sure(base, monster_hp=6, monster_defense=0, monster_attack=-99, might=1, weapon=2, regenerate=3),
        custom(base, delver_hp=5_000_000, delver_max_hp=5_000_000, monster_hp=3, monster_damage=40, max_rounds=300),
        custom(base, attack_die=6, always_miss=1, critical=6),  # another die: another rejection limit
        custom(base, attack_die=8, always_miss=1, critical=8),  # a power of two: no rejection, a mask
    ]


@pytest.mark.slow
def test_the_duel_path_gives_the_general_paths_results_bit_for_bit(base: FightSpec) -> None:
    """The packed 1 v 1 loop is an optimisation only: same dice, same words, the same numbers to the last bit."""
    for spec in duel_cases(base):
        for fights, chunk in ((30_000, 100_000), (20_000, 3_000)):
            a, b = DieRoller(pcg64_raw(77), spec.attack_die), DieRoller(pcg64_raw(77), spec.attack_die)
            assert run_duel(spec, fights, a, chunk) == run_general(spec, fights, b, chunk), spec
            assert a.words == b.words
    assert _Duel(duel_cases(base)[7], 10).dtype == np.int64  # 5,000,000 hp << 9 does not fit in int32
    assert _Duel(base, 10).dtype == np.int32


def test_the_duel_path_redraws_rejected_words_as_the_general_path(base: FightSpec) -> None:
    """Every fifth word is one the d20 rejects (2**64 - 16 and above): both loops redraw them the same way."""

    def rejecting(seed: int) -> Callable[[int], NDArray[np.uint64]]:
        raw = pcg64_raw(seed)
        count = [0]

        def draw(n: int) -> NDArray[np.uint64]:
            words = raw(n)
            where = (np.arange(count[0], count[0] + n) % 5) == 0
            words[where] = np.uint64(2**64 - 1) - words[where] % np.uint64(16)
            count[0] += n
            return words

        return draw

    a, b = DieRoller(rejecting(3), 20), DieRoller(rejecting(3), 20)
    assert run_duel(base, 20_000, a, 7_000) == run_general(base, 20_000, b, 7_000)
    assert a.words == b.words and a.words > 1.25 * 20_000 * 5  # a fifth of the words rejected, and more


@pytest.mark.parametrize("top", [300, 2**40])  # few values: counted by value; spread ones: summed directly
def test_tally_losses_unpack_damage_and_hits(top: int) -> None:
    rng = np.random.default_rng(5)
    damage, hits = rng.integers(0, top, 1000), rng.integers(0, 512, 1000)
    tally = _Tally(500, 40)
    tally.losses((damage << 9) + hits, 9)
    lost = np.minimum(damage, 40)
    assert (tally.hp_lost, tally.hp_lost_sq) == (int(lost.sum()), int((lost * lost).sum()))
    assert (tally.hits, tally.hits_sq) == (int(hits.sum()), int((hits * hits).sum()))


def test_simulate_is_unchanged_for_a_fixed_seed() -> None:
    """Pinned numbers (the simulator before the packed 1 v 1 loop gave exactly these): a change of which word
    maps to which die, or of the order the fights take them, shows here."""
    spec = FightSpec(
        delver_hp=12,
        delver_max_hp=12,
        might=3,
        weapon=3,
        delver_defense=12,
        delver_agility=3,
        exhausted=False,
        monster_hp=16,
        monster_defense=11,
        monster_attack=2,
        monster_damage=5,
        monster_agility=4,
        regenerate=0,
        acts_every=1,
        holds_ground=False,
        count=1,
        attack_die=20,
        always_miss=1,
        critical=20,
        critical_multiplier=2,
        to_hit_penalty=2,
        damage_penalty=2,
        opponent_bonus=2,
        minimum_damage=1,
    )
    r = simulate(spec, 300_000, 2026)
    totals = [
        round(x * r.fights)
        for x in (r.win, r.death, r.rounds_mean, r.hp_lost_mean, r.monster_hits_mean, r.delver_swings_mean)
    ]
    assert totals == [154956, 145044, 1113560, 2845848, 611885, 968516] and r.rounds_p90 == 5


# --- the result object -----------------------------------------------------------------------------------------


def test_same_seed_same_result_other_seed_differs(base: FightSpec) -> None:
    a = simulate(base, 50_000, 7, chunk=20_000)
    assert a == simulate(base, 50_000, 7, chunk=20_000)
    b = simulate(base, 50_000, 8, chunk=20_000)
    assert (a.win, a.rounds_mean, a.hp_lost_mean) != (b.win, b.rounds_mean, b.hp_lost_mean)


def test_result_dict_and_progress(base: FightSpec) -> None:
    calls: list[tuple[int, int]] = []
    r = simulate(base, 25_000, 1, chunk=10_000, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(10_000, 25_000), (20_000, 25_000), (25_000, 25_000)]
    d = json.loads(json.dumps(r.as_dict()))
    for key in ("win", "death", "stalemate", "rounds_mean", "rounds_p90", "hp_lost_mean", "fights"):
        assert key in d
    assert d["fights"] == 25_000 and d["win_ci"][0] <= d["win"] <= d["win_ci"][1]
    assert d["rounds_mean_ci"][0] <= d["rounds_mean"] <= d["rounds_mean_ci"][1]
    assert r.win + r.death + r.stalemate == pytest.approx(1.0)
    assert isinstance(r, SimResult)
    with pytest.raises(ValueError):
        simulate(base, 0, 1)


def test_interval_helpers() -> None:
    lo, hi = wilson(0, 100)
    assert lo == 0.0 and 0.03 < hi < 0.04  # the Wilson interval is not degenerate at 0
    hist = np.zeros(11, dtype=np.int64)
    hist[1:11] = 100  # 1..10, uniform
    value, (qlo, qhi) = quantile_ci(hist, 0.9)
    assert value == 9 and qlo <= 9 <= qhi and qhi <= 10
