"""The rule formulas (undercroft.rules.formulas): each clause pinned with concrete cases a player would see, and the
vectorized simulator's numpy tables checked against the pure functions over the data's whole input domain."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest

from undercroft.content import Content
from undercroft.content.schema import CombatRules, Distractions, FatigueRules, Fraction, Monster
from undercroft.rules import formulas
from undercroft.rules.types import FreeRound, Side
from undercroft.sim.spec import FightSpec, spec_from_content
from undercroft.sim.vector import face_tables

# The schema's bounds (content/schema.py): the whole domain the data can put into a fight.
MIGHT = range(-5, 31)
ATTACK = range(-10, 31)
DEFENSE = range(0, 41)
DAMAGE = range(1, 100)
WEAPON = range(0, 100)
MULTIPLIER = range(1, 11)
MINIMUM = range(0, 21)
PENALTY = 20  # the largest fatigue penalty and opponent bonus: with it, rested and exhausted reach every bonus
# attack_die may be 2..100: the smallest dice, a d6, the shipped d20, the largest; every face of each.
ATTACK_DICE = (2, 3, 6, 20, 100)


@pytest.fixture(scope="module")
def combat(content: Content) -> CombatRules:
    return content.rules.combat


@pytest.fixture(scope="module")
def fatigue(content: Content) -> FatigueRules:
    return content.rules.fatigue


def monster(content: Content, **changes: object) -> Monster:
    return content.monsters["goblin"].model_copy(update=changes)


# --- the fight (001) -------------------------------------------------------------------------------------------


@pytest.mark.clause("001-roll-8")
def test_a_natural_1_misses_even_against_defense_0(combat: CombatRules) -> None:
    swing = formulas.attack(1, 30, 0, combat)
    assert (swing.natural, swing.total, swing.hit, swing.critical) == (1, 31, False, False)


@pytest.mark.clause("001-roll-7")
def test_a_natural_20_hits_defense_40_for_double(combat: CombatRules, fatigue: FatigueRules) -> None:
    swing = formulas.attack(20, -5, 40, combat)  # 15 against 40
    assert swing.hit and swing.critical and swing.total == 15
    assert formulas.damage(6, swing.critical, combat, fatigue) == 12
    assert formulas.damage(6, False, combat, fatigue) == 6


@pytest.mark.clause("001-roll-3")
def test_any_other_face_hits_when_the_total_reaches_the_defense(combat: CombatRules) -> None:
    assert formulas.attack(12, 3, 15, combat).hit  # 15 against 15: a tie hits
    assert not formulas.attack(11, 3, 15, combat).hit  # 14 against 15
    assert not formulas.attack(19, 3, 15, combat).critical  # a hit, not a critical
    assert not formulas.attack(19, -5, 40, combat).hit  # only the natural 20 beats defense 40


@pytest.mark.clause("003-running-8")
def test_a_hit_deals_at_least_the_minimum(combat: CombatRules, fatigue: FatigueRules) -> None:
    assert fatigue.minimum_damage == 1
    assert formulas.damage(-1, False, combat, fatigue) == 1  # an exhausted weakling still scratches
    assert formulas.damage(0, True, combat, fatigue) == 1


@pytest.mark.clause("003-running-5")
def test_exhaustion_weakens_the_party_and_helps_its_foes(fatigue: FatigueRules) -> None:
    assert (fatigue.to_hit_penalty, fatigue.damage_penalty, fatigue.opponent_bonus) == (2, 2, 2)
    assert formulas.to_hit_bonus(3, False, fatigue) == 3
    assert formulas.to_hit_bonus(3, True, fatigue) == 1
    assert formulas.damage_bonus(3, 3, False, fatigue) == 6  # MIGHT + weapon: the delver's 6
    assert formulas.damage_bonus(3, 3, True, fatigue) == 4
    assert formulas.monster_bonus(2, False, fatigue) == 2
    assert formulas.monster_bonus(2, True, fatigue) == 4
    assert formulas.exhausted_counts(True, True)
    assert not formulas.exhausted_counts(True, False)  # a ruleset without fatigue never tires
    assert not formulas.exhausted_counts(False, True)


@pytest.mark.clause("001-order-2")
def test_higher_agility_acts_first_and_ties_go_to_the_party() -> None:
    assert formulas.party_acts_first(3, 3, False)
    assert formulas.party_acts_first(4, 3, False)
    assert not formulas.party_acts_first(3, 4, False)
    assert formulas.first_side(formulas.party_acts_first(3, 4, False)) == Side.MONSTERS
    assert formulas.first_side(formulas.party_acts_first(3, 3, False)) == Side.PARTY


def test_a_monster_that_holds_its_ground_never_opens() -> None:
    assert formulas.party_acts_first(0, 20, True)


@pytest.mark.clause("001-order-1")
def test_the_party_acts_at_its_best_agility() -> None:
    assert formulas.party_agility([2, 5, 3]) == 5
    assert formulas.party_agility([]) == 0


@pytest.mark.clause("001-small-3")
def test_a_slow_monster_acts_every_nth_turn() -> None:
    assert [formulas.monster_acts(t, 1) for t in range(4)] == [True] * 4
    assert [formulas.monster_acts(t, 2) for t in range(5)] == [True, False, True, False, True]
    assert [formulas.monster_acts(t, 3) for t in range(4)] == [True, False, False, True]


def test_a_monster_strikes_the_weakest_standing_the_first_or_the_nth() -> None:
    """``lowest_hp``: the fewest hit points above 0, the first of equals; ``first``: the first standing;
    ``random``: the ``nth`` standing (the fallen are not counted); -1 when no one stands."""
    hps = [0, 7, 3, 3, 9]
    assert formulas.monster_target(hps, "lowest_hp") == 2  # 3 and 3: the first of the two
    assert formulas.monster_target([5, 2, 0, 2], "lowest_hp") == 1  # 0 is fallen, not the weakest
    assert formulas.monster_target(hps, "first") == 1  # index 0 has fallen
    assert formulas.monster_target(hps, "first", nth=3) == 1  # the die's face counts only for random
    assert [formulas.monster_target(hps, "random", n) for n in range(4)] == [1, 2, 3, 4]
    assert formulas.monster_target([4, 0, 0, 6], "random", 1) == 3  # the second standing, past the fallen
    for how in ("lowest_hp", "first", "random"):
        assert formulas.monster_target([0, 0, -2], how) == -1
        assert formulas.monster_target([], how) == -1


# --- surprise (003) ----------------------------------------------------------------------------------------------


def test_one_side_surprised_gives_the_other_the_free_round() -> None:
    assert formulas.free_round(True, True, False) == FreeRound.MONSTERS
    assert formulas.free_round(True, False, True) == FreeRound.PARTY


def test_both_surprised_cancel_and_nobody_surprised_gives_no_free_round() -> None:
    assert formulas.free_round(True, True, True) == FreeRound.NONE
    assert formulas.free_round(True, False, False) == FreeRound.NONE


def test_surprise_only_counts_in_the_first_round() -> None:
    assert formulas.free_round(False, False, True) == FreeRound.NONE
    assert formulas.free_round(False, True, False) == FreeRound.NONE


@pytest.mark.clause("003-surprise-1")
def test_surprised_on_1_to_2_of_a_d6(content: Content) -> None:
    most = content.rules.encounter.surprised_max
    assert most == 2
    assert [formulas.surprised(face, most) for face in range(1, 7)] == [True, True, False, False, False, False]


# --- running and pursuit (001, 003) ---------------------------------------------------------------------------------


@pytest.mark.clause("003-evasion-1")
def test_a_faster_party_escapes_an_equally_fast_one_does_not() -> None:
    assert formulas.escapes_by_speed(121, 120)
    assert not formulas.escapes_by_speed(120, 120)
    assert not formulas.escapes_by_speed(90, 120)


@pytest.mark.clause("001-run-5")
def test_only_a_pursuer_where_the_rules_have_pursuit_follows() -> None:
    assert formulas.follows(True, True)
    assert not formulas.follows(False, True), "001 alone: running is free, nothing follows"
    assert not formulas.follows(True, False)


@pytest.mark.clause("003-evasion-3")
def test_automatic_evasion_only_before_the_fight_and_never_from_the_submerged() -> None:
    def evade(**kw: bool | int) -> str | None:
        args: dict[str, bool | int] = {
            "in_fight": False,
            "submerged": False,
            "party_speed_": 120,
            "monster_speed": 90,
            "out_of_sight": False,
        }
        args.update(kw)
        return formulas.automatic_evasion(**args)  # type: ignore[arg-type]

    assert evade() == "faster"
    assert evade(party_speed_=90, out_of_sight=True) == "out_of_sight"
    assert evade(party_speed_=90) is None
    assert evade(in_fight=True) is None and evade(in_fight=True, out_of_sight=True) is None
    assert evade(submerged=True) is None


@pytest.mark.clause("003-evasion-1")
def test_the_party_moves_at_its_slowest() -> None:
    assert formulas.party_speed([120, 90, 150]) == 90
    assert formulas.party_speed([]) == 0


# --- checks ----------------------------------------------------------------------------------------------------


def test_percent_checks() -> None:
    assert formulas.percent(37, 37) and not formulas.percent(38, 37)
    assert formulas.percent(None, 100) and not formulas.percent(None, 0)  # certain outcomes roll no die
    assert [formulas.percent_needs_die(c) for c in (0, 1, 99, 100)] == [False, True, True, False]
    assert formulas.monster_check(3, 3) and not formulas.monster_check(4, 3)


# --- negotiation and bribery (000) -----------------------------------------------------------------------------


@pytest.mark.clause("000-8.4b", "000-8.5")
def test_negotiation_bands_with_reluctance_and_ability(content: Content) -> None:
    table = content.tables.negotiation["negotiation"]  # failure ..6, agreement 7..10, intimidation 11..
    goblin = monster(content, reluctance=2)
    reluctance, ability = formulas.negotiation_modifiers(table, goblin, [1, -2])
    assert (reluctance, ability) == (2, 1)  # the monster's reluctance, the party's best ability
    # 2d6 shows 8: 8 - 2 + 1 = 7, just an agreement; a 7 on the dice would fail
    assert formulas.negotiation_total(8, reluctance, ability) == 7
    assert formulas.band(table.bands, formulas.negotiation_total(8, reluctance, ability)).result == "agreement"
    assert formulas.band(table.bands, formulas.negotiation_total(7, reluctance, ability)).result == "failure"
    assert formulas.band(table.bands, formulas.negotiation_total(12, reluctance, ability)).result == "intimidation"
    assert formulas.band(table.bands, -30).result == "failure"  # open ends hold every total
    assert formulas.band(table.bands, 99).result == "intimidation"


def test_a_table_without_reluctance_or_ability_ignores_both(content: Content) -> None:
    table = content.tables.negotiation["talk"]
    assert formulas.negotiation_modifiers(table, monster(content, reluctance=9), [5]) == (0, 0)


@pytest.mark.clause("000-8.7c")
def test_the_bribery_cell_and_digit(content: Content) -> None:
    table = content.tables.bribery  # columns by strength + reluctance: 0-3, 4-6, 7-9, 10-12, 13-
    goblin = monster(content, strength=2, reluctance=2)  # 4: the second column
    assert formulas.bribe_cell(table, goblin, 30) == (1, 1, 2)  # 25-49 gold: the second row, digit 2
    assert formulas.bribe_cell(table, goblin, 24) == (1, 0, 1)
    assert formulas.bribe_cell(table, goblin, 5000) == (1, 5, 6)  # the open last row
    assert formulas.bribe_cell(table, goblin, 0) is None  # below the first row
    brute = monster(content, strength=20, reluctance=20)
    assert formulas.bribe_cell(table, brute, 30) == (4, 1, 0)  # a digit 0 is never taken
    assert [formulas.bribe_accepted(face, 2) for face in range(1, 7)] == [True, True, False, False, False, False]
    assert not any(formulas.bribe_accepted(face, 0) for face in range(1, 7))
    assert all(formulas.bribe_accepted(face, 6) for face in range(1, 7))


def test_tribute_rounds_down_up_or_to_the_nearest() -> None:
    def quarter(rounding: str) -> Fraction:
        return Fraction.model_validate({"numerator": 1, "denominator": 4, "rounding": rounding})

    assert formulas.fraction(10, quarter("down")) == 2
    assert formulas.fraction(10, quarter("up")) == 3
    assert formulas.fraction(10, quarter("nearest")) == 3  # 2.5: halves go up
    assert formulas.fraction(9, quarter("nearest")) == 2  # 2.25
    assert formulas.fraction(11, quarter("nearest")) == 3  # 2.75
    assert formulas.fraction(8, quarter("up")) == 2  # exact: nothing to round
    assert formulas.fraction(0, quarter("up")) == 0
    nothing = Fraction.model_validate({"numerator": 0, "denominator": 1, "rounding": "down"})
    assert formulas.fraction(500, nothing) == 0


# --- the vectorized simulator's tables against the formulas, over the whole domain ---------------------------------


def rules_of(die: int, *, multiplier: int = 2, minimum: int = 1, penalty: int = 2) -> tuple[CombatRules, FatigueRules]:
    """Valid rules records: always_miss 1, critical the top face (as the data has them)."""
    combat = CombatRules.model_validate(
        {
            "attack_die": die,
            "always_miss": 1,
            "critical": die,
            "critical_multiplier": multiplier,
            "monster_targeting": "first",
        }
    )
    fatigue = FatigueRules.model_validate(
        {
            "max_running_rounds": 30,
            "rest_turns": 3,
            "to_hit_penalty": penalty,
            "damage_penalty": penalty,
            "opponent_bonus": penalty,
            "minimum_damage": minimum,
        }
    )
    return combat, fatigue


def with_rules(spec: FightSpec, combat: CombatRules, fatigue: FatigueRules, **changes: object) -> FightSpec:
    return replace(
        spec,
        attack_die=combat.attack_die,
        always_miss=combat.always_miss,
        critical=combat.critical,
        critical_multiplier=combat.critical_multiplier,
        to_hit_penalty=fatigue.to_hit_penalty,
        damage_penalty=fatigue.damage_penalty,
        opponent_bonus=fatigue.opponent_bonus,
        minimum_damage=fatigue.minimum_damage,
        **changes,  # type: ignore[arg-type]
    )


def expected(
    face: int, bonus: int, defense: int, base: int, combat: CombatRules, fatigue: FatigueRules
) -> tuple[int, int]:
    """(damage, hit) of one face, straight from the formulas."""
    swing = formulas.attack(face, bonus, defense, combat)
    return (formulas.damage(base, swing.critical, combat, fatigue) if swing.hit else 0), int(swing.hit)


def mismatches(spec: FightSpec, combat: CombatRules, fatigue: FatigueRules) -> Iterator[str]:
    """Every face where the numpy tables of ``spec`` disagree with the formulas."""
    arrays = face_tables(spec)
    assert all(a.shape == (combat.attack_die,) for a in arrays)
    dtab, mtab, htab = (a.tolist() for a in arrays)
    d_bonus = formulas.to_hit_bonus(spec.might, spec.exhausted, fatigue)
    d_base = formulas.damage_bonus(spec.might, spec.weapon, spec.exhausted, fatigue)
    m_bonus = formulas.monster_bonus(spec.monster_attack, spec.exhausted, fatigue)
    for face in range(1, combat.attack_die + 1):
        dmg, _ = expected(face, d_bonus, spec.monster_defense, d_base, combat, fatigue)
        if dtab[face - 1] != dmg:
            yield f"delver face {face}: table {dtab[face - 1]}, formulas {dmg} ({spec})"
        mdmg, mhit = expected(face, m_bonus, spec.delver_defense, spec.monster_damage, combat, fatigue)
        if (mtab[face - 1], htab[face - 1]) != (mdmg, mhit):
            yield f"monster face {face}: table {(mtab[face - 1], htab[face - 1])}, formulas {(mdmg, mhit)} ({spec})"


@pytest.fixture(scope="module")
def base(content: Content) -> FightSpec:
    return spec_from_content(content, "gaoler")


def paired(delver: list[int], monster: list[int]) -> list[tuple[int, int]]:
    """Each value of both lists at least once, side by side (the shorter list repeats its last value)."""
    n = max(len(delver), len(monster))
    return [(delver[min(i, len(delver) - 1)], monster[min(i, len(monster) - 1)]) for i in range(n)]


def bonus_cases() -> list[tuple[bool, int, int]]:
    """(exhausted, MIGHT, attack) reaching every to-hit bonus of the domain once at least: rested, MIGHT -5..30 and
    attack -10..30; exhausted at the largest penalty, the bonuses rested cannot reach (MIGHT - 20 below -5, attack +
    20 above 30). Any smaller penalty gives bonuses in between."""
    rested = paired(list(MIGHT), list(ATTACK))
    tired = paired([m for m in MIGHT if m - PENALTY < MIGHT.start], [a for a in ATTACK if a + PENALTY >= ATTACK.stop])
    return [(False, m, a) for m, a in rested] + [(True, m, a) for m, a in tired]


def test_the_bonus_cases_reach_every_bonus(fatigue: FatigueRules) -> None:
    _, tired = rules_of(20, penalty=PENALTY)
    cases = bonus_cases()
    assert {formulas.to_hit_bonus(m, e, tired) for e, m, _ in cases} == set(range(-5 - PENALTY, 31))
    assert {formulas.monster_bonus(a, e, tired) for e, _, a in cases} == set(range(-10, 31 + PENALTY))


@pytest.mark.slow
@pytest.mark.parametrize("die", ATTACK_DICE)
def test_face_tables_hit_as_the_formulas_say_for_every_bonus_and_defense(base: FightSpec, die: int) -> None:
    """Every face of the die, every to-hit bonus (the delver's MIGHT, the monsters' attack, rested or exhausted)
    against every defense: the numpy tables the simulators look faces up in are the formulas, face by face."""
    combat, fatigue = rules_of(die, penalty=PENALTY)
    bad: list[str] = []
    for exhausted, might, attack in bonus_cases():
        for defense in DEFENSE:
            spec = with_rules(
                base,
                combat,
                fatigue,
                might=might,
                weapon=3,
                monster_attack=attack,
                monster_defense=defense,
                delver_defense=DEFENSE.stop - 1 - defense,
                exhausted=exhausted,
            )
            bad.extend(mismatches(spec, combat, fatigue))
    assert not bad, bad[:5]


@pytest.mark.slow
def test_face_tables_deal_the_formulas_damage_for_every_damage_multiplier_and_minimum(base: FightSpec) -> None:
    """Every monster damage 1..99 and every delver damage before the minimum (MIGHT + weapon - penalty: -25..129),
    with every critical multiplier and every minimum. A d3 shows a miss, an ordinary hit and a critical; the
    delver swings at defense -30 so that its middle face hits whatever its MIGHT (the hit rule is the test above)."""
    sums = range(MIGHT.start - PENALTY, MIGHT.stop - 1 + WEAPON.stop)  # -25..129
    assert len(sums) >= len(DAMAGE)  # so DAMAGE[i % len(DAMAGE)] takes every value
    bad: list[str] = []
    for multiplier in MULTIPLIER:
        for minimum in MINIMUM:
            combat, fatigue = rules_of(3, multiplier=multiplier, minimum=minimum, penalty=PENALTY)
            for i, total in enumerate(sums):
                exhausted = total < MIGHT.start  # only an exhausted delver deals less than MIGHT -5 with no weapon
                raw = total + (PENALTY if exhausted else 0)  # MIGHT + weapon
                might = max(MIGHT.start, min(MIGHT.stop - 1, raw))
                spec = with_rules(
                    base,
                    combat,
                    fatigue,
                    might=might,
                    weapon=raw - might,
                    monster_damage=DAMAGE[i % len(DAMAGE)],
                    monster_attack=ATTACK.stop - 1,
                    monster_defense=-30,
                    delver_defense=0,
                    exhausted=exhausted,
                )
                assert formulas.damage_bonus(spec.might, spec.weapon, exhausted, fatigue) == total
                bad.extend(mismatches(spec, combat, fatigue))
    assert not bad, bad[:5]


def test_what_dropped_things_distract() -> None:
    assert formulas.distracted_by("food", intelligent=False, submerged=False)
    assert not formulas.distracted_by("food", intelligent=True, submerged=False)
    assert formulas.distracted_by("treasure", intelligent=True, submerged=False)
    assert not formulas.distracted_by("treasure", intelligent=False, submerged=False)
    assert not formulas.distracted_by("food", intelligent=False, submerged=True)
    assert not formulas.distracted_by("treasure", intelligent=True, submerged=True)


def test_the_percent_a_drop_or_oil_stops_a_pursuer_is_the_datas_for_the_kind_it_stops() -> None:
    d = Distractions(food=40, treasure=70, treasure_gold="6d6x10", oil_stops=55, oil_slows_rounds=3, oil_tiles=2)
    assert formulas.distraction_percent("food", d, intelligent=False, submerged=False) == 40
    assert formulas.distraction_percent("treasure", d, intelligent=True, submerged=False) == 70
    assert formulas.distraction_percent("food", d, intelligent=True, submerged=False) == 0  # (003: not its kind)
    assert formulas.distraction_percent("treasure", d, intelligent=True, submerged=True) == 0
    assert formulas.oil_stop_percent(d, self_preservation=True) == 55
    assert formulas.oil_stop_percent(d, self_preservation=False) == 0  # no fear of fire


def test_exhaustion_comes_with_the_last_running_round_and_a_held_ground_waits_for_a_blow() -> None:
    assert not formulas.exhausted_after(4, 5) and formulas.exhausted_after(5, 5) and formulas.exhausted_after(6, 5)
    assert formulas.holds_back(holds_ground=True, party_attacked=False)
    assert not formulas.holds_back(holds_ground=True, party_attacked=True)
    assert not formulas.holds_back(holds_ground=False, party_attacked=False)


@pytest.mark.clause("003-evasion-6")
def test_the_chance_of_pursuit_is_the_bands_until_rolled_then_its_answer() -> None:
    assert formulas.pursuit_chance(75, False, False, False) == 75
    assert formulas.pursuit_chance(None, False, False, False) == 100  # no reaction: certain
    assert formulas.pursuit_chance(0, True, False, False) == 100  # submerged: certain
    assert formulas.pursuit_chance(75, False, True, True) == 100  # rolled once: the bot and the panels see it so
    assert formulas.pursuit_chance(75, False, True, False) == 0


def test_a_rulesets_share_of_a_monsters_treasure_rounds_down() -> None:
    assert formulas.treasure_share(120, 40) == 48
    assert formulas.treasure_share(15, 40) == 6  # (6.0)
    assert formulas.treasure_share(17, 40) == 6  # (6.8)
    assert formulas.treasure_share(35, 100) == 35  # the one-text rulesets: the whole
    assert formulas.treasure_share(0, 40) == 0
    assert formulas.treasure_share(-5, 40) == 0  # (a treasure die with a negative modifier)


def test_armour_is_plainly_better_only_with_no_less_defense_and_no_more_weight() -> None:
    assert formulas.armour_better(1, 0)  # leather over none
    assert formulas.armour_better(1, 15)  # runed mail over a mail shirt: +1 defense, 15 ft a round quicker
    assert formulas.armour_better(0, 15)  # as strong and lighter
    assert not formulas.armour_better(2, -15)  # a mail shirt over none: defense for speed, the player's choice
    assert not formulas.armour_better(0, 0)  # the same
    assert not formulas.armour_better(-1, 0)
