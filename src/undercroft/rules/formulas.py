"""Every rule formula, once: pure functions of numbers and data records, no state, no dice drawn.

The engine (:mod:`undercroft.rules`), the simulators (:mod:`undercroft.sim`), the bot and the screens all call
these; nothing else restates them. Where the vectorized simulator needs a rule in numpy, a test compares its
table with these functions over the whole input domain (tests/test_formulas.py).

Clauses (docs/RULES.md):

* 001, the fight: :func:`attack` (the d20 roll: a natural ``always_miss`` misses, a natural ``critical`` hits
  for ``critical_multiplier`` times the damage, otherwise hit iff total >= defense), :func:`damage`,
  :func:`party_acts_first` (initiative: the higher AGILITY acts first, the party wins ties, a monster that holds
  its ground never opens), :func:`holds_back` (and keeps still unless the party swung), :func:`monster_acts`
  (slow monsters act every n-th turn).
* 003, fatigue: :func:`exhausted_after` (the running rounds that exhaust), :func:`to_hit_bonus`,
  :func:`damage_bonus`, :func:`monster_bonus` (an exhausted party is worse at both and easier to hit).
* 003, surprise: :func:`free_round` (one side surprised gives the other a free first round; both surprised
  cancels out).
* 001 running, 003 evasion and pursuit: :func:`follows`, :func:`automatic_evasion`, :func:`party_speed`,
  :func:`escapes_by_speed`; 003's distractions: :func:`distraction_percent` (food or
  treasure dropped), :func:`oil_stop_percent` (burning oil).
* 000, negotiation and bribery: :func:`band`, :func:`negotiation_modifiers`, :func:`negotiation_total`,
  :func:`fraction` (the tribute), :func:`bribe_cell`, :func:`bribe_accepted`.
* Checks: :func:`percent` (a d100 percentile check), :func:`monster_check` (000: 1..max on the check die).
* Ours, the score of a finished game: :func:`score`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar

from undercroft.content.schema import (
    BriberyTable,
    CombatRules,
    Distractions,
    FatigueRules,
    Fraction,
    GrowthRules,
    Monster,
    NegotiationTable,
    ScoreRules,
)
from undercroft.rules.types import FreeRound, Side, Surprise

PERCENT = 100


class _Banded(Protocol):
    @property
    def min(self) -> int | None: ...

    @property
    def max(self) -> int | None: ...


B = TypeVar("B", bound=_Banded)


# --- the fight (001) -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Swing:
    """What one attack roll did: the natural face, the total with the bonus, hit, critical."""

    natural: int
    total: int
    hit: bool
    critical: bool


def attack(natural: int, bonus: int, defense: int, combat: CombatRules) -> Swing:
    """The d20 roll of 001: a natural ``always_miss`` always misses, a natural ``critical`` always hits (and is a
    critical), any other face hits iff ``natural + bonus >= defense``."""
    total = natural + bonus
    critical = natural == combat.critical
    hit = natural != combat.always_miss and (critical or total >= defense)
    return Swing(natural, total, hit, hit and critical)


def damage(base: int, critical: bool, combat: CombatRules, fatigue: FatigueRules) -> int:
    """Damage of a hit: the base, times the multiplier on a critical, never below the minimum."""
    return max(fatigue.minimum_damage, base * (combat.critical_multiplier if critical else 1))


def to_hit_bonus(might: int, exhausted: bool, fatigue: FatigueRules, to_hit: int = 0) -> int:
    """A character's bonus on the attack die: MIGHT plus its weapon's (and a potion's) ``to_hit``, less the
    exhaustion penalty (003)."""
    return might + to_hit - (fatigue.to_hit_penalty if exhausted else 0)


def damage_bonus(might: int, weapon: int, exhausted: bool, fatigue: FatigueRules) -> int:
    """A character's damage on an ordinary hit (before the minimum): MIGHT plus the weapon, less exhaustion."""
    return might + weapon - (fatigue.damage_penalty if exhausted else 0)


def renown_for(level: int, growth: GrowthRules) -> int:
    """Ours: the renown that reaches ``level`` (1 is where a character starts): level 2 costs ``renown_per_level``,
    and each level after it ``renown_step`` more than the one before (40, then 40 + step, 40 + 2 x step...)."""
    n = level - 1
    return growth.renown_per_level * n + growth.renown_step * n * (n - 1) // 2


def level_for(renown: int, growth: GrowthRules) -> int:
    """Ours: the level ``renown`` gives: the highest whose :func:`renown_for` it reaches, at most ``max_level``."""
    level = 1
    while level < growth.max_level and renown >= renown_for(level + 1, growth):
        level += 1
    return level


def rest_heal(base: int, level: int, at: tuple[int, ...]) -> int:
    """The HP a turn of rest heals a character of ``level``: ``base`` (``time.rest_heal``), and ours, where the
    delver grows: 1 more for each of the levels ``at`` (``growth.rest_heal_at``) it has reached. No healing
    (``base`` 0) stays none."""
    return base + sum(1 for x in at if level >= x) if base else 0


def treasure_share(rolled: int, percent: int) -> int:
    """Ours: the gold a group from a table carries, of its ``rolled`` treasure, where the ruleset gives monsters
    ``percent`` of it (``treasure_percent``: a ruleset whose merchants turn gold into power keeps it scarce),
    rounded down; never below 0."""
    return max(0, rolled) * percent // 100


def renown_earned(renown: int, level: int, floor: int, outgrown_after: int | None) -> int:
    """Ours: the renown a character of ``level`` takes from a victory worth ``renown`` to it on floor ``floor``
    (1-based): whole up to ``outgrown_after`` levels above the floor's number, halved (rounded down) for each level
    more (``growth.outgrown_after``; None: always whole)."""
    if outgrown_after is None:
        return renown
    return renown >> max(0, level - floor - outgrown_after)


def vigour_gain(bonus: int, limit: int, given: int) -> int:
    """Ours: the maximum hit points an elixir of ``vigour`` adds, when elixirs have already given ``given``: its
    ``bonus``, no more than what is left of its ``limit`` (0: no limit), never below 0."""
    return bonus if limit == 0 else max(0, min(bonus, limit - given))


def weapon_score(to_hit: int, damage: int) -> int:
    """Ours: how plainly good a weapon is, to take up one found at once: its to-hit plus its damage (a weapon that
    trades one for the other is the player's choice, from the pack)."""
    return to_hit + damage


def armour_better(defense: int, lighter: int) -> bool:
    """Ours: whether armour ``defense`` more and ``lighter`` feet a round less slowing than what is worn (either may
    be negative) is plainly better, to put on one found or bought at once: no less of either and more of one (armour
    that trades one for the other is the player's choice, from the pack)."""
    return defense >= 0 and lighter >= 0 and defense + lighter > 0


def monster_bonus(monster_attack: int, exhausted: bool, fatigue: FatigueRules) -> int:
    """A monster's bonus on the attack die: its attack, plus the bonus against an exhausted party (003)."""
    return monster_attack + (fatigue.opponent_bonus if exhausted else 0)


def party_acts_first(party_agility: int, monster_agility: int, holds_ground: bool) -> bool:
    """Initiative (001): the higher AGILITY acts first; the party wins ties; a monster that holds its ground only
    ever answers a blow, so the party always opens against it."""
    return party_agility >= monster_agility or holds_ground


def holds_back(holds_ground: bool, party_attacked: bool) -> bool:
    """001: a monster that holds its ground loses its turn unless the party attacked it this round."""
    return holds_ground and not party_attacked


def party_agility(agilities: Iterable[int]) -> int:
    """The party's AGILITY for initiative: its best living character's."""
    return max(agilities, default=0)


def first_side(party_first: bool) -> Side:
    return Side.PARTY if party_first else Side.MONSTERS


def monster_target(hps: Sequence[int], targeting: str, nth: int = 0) -> int:
    """The character a creature strikes (its index in ``hps``, the party's hit points), by the data's
    ``combat.monster_targeting``, among those standing (above 0): ``lowest_hp`` the fewest hit points (ties: the
    first); ``first`` the first; ``random`` the ``nth`` (a die roll's face less 1, among that many). -1: no one
    stands."""
    standing = [j for j, h in enumerate(hps) if h > 0]
    if not standing:
        return -1
    if targeting == "lowest_hp":
        return min(standing, key=lambda j: (hps[j], j))
    if targeting == "first":
        return standing[0]
    return standing[nth]


def monster_acts(turn: int, acts_every: int) -> bool:
    """Whether the monsters act on their turn number ``turn`` (0-based): turns 0, n, 2n, ... for a monster that
    acts every n-th turn."""
    return turn % acts_every == 0


def exhausted_after(running_rounds: int, max_running_rounds: int) -> bool:
    """003: a party that has run ``max_running_rounds`` rounds (or more) is exhausted."""
    return running_rounds >= max_running_rounds


def exhausted_counts(exhausted: bool, fatigue_rules_on: bool) -> bool:
    """Exhaustion weighs only in the rulesets that use fatigue (003)."""
    return exhausted and fatigue_rules_on


# --- surprise (003) ------------------------------------------------------------------------------------------


def free_round(first_round: bool, party_surprised: bool, monster_surprised: bool) -> FreeRound:
    """Who gets a free first round: the side that is not surprised, when exactly one is and the fight starts in
    the first round of the encounter. Both surprised cancels out; no surprise, no free round."""
    if not first_round or party_surprised == monster_surprised:
        return FreeRound.NONE
    return FreeRound.MONSTERS if party_surprised else FreeRound.PARTY


def surprise(party: bool, monster: bool) -> Surprise:
    """Who is surprised, from each side's check."""
    if party and monster:
        return Surprise.BOTH
    return Surprise.PARTY if party else Surprise.MONSTERS if monster else Surprise.NONE


def surprised(face: int, surprised_max: int) -> bool:
    """A side is surprised on faces 1..surprised_max of the surprise die."""
    return face <= surprised_max


# --- checks -------------------------------------------------------------------------------------------------


def percent(face: int | None, chance: int) -> bool:
    """A percentile check: d100 <= chance. ``face`` None: a certain outcome (chance <= 0 or >= 100) rolls no die."""
    if chance >= PERCENT:
        return True
    if chance <= 0:
        return False
    assert face is not None
    return face <= chance


def percent_needs_die(chance: int) -> bool:
    """Whether a percentile check needs a die at all (certain outcomes roll none)."""
    return 0 < chance < PERCENT


def monster_check(face: int, limit: int) -> bool:
    """The monster check (000): a monster on faces 1..limit."""
    return face <= limit


# --- negotiation and bribery (000) -----------------------------------------------------------------------------


def band(bands: Sequence[B], total: int) -> B:
    """The band of a table that holds ``total`` (validation guarantees the bands cover every total)."""
    for b in bands:
        if (b.min is None or total >= b.min) and (b.max is None or total <= b.max):
            return b
    raise ValueError(f"no band holds {total}")


def negotiation_modifiers(table: NegotiationTable, monster: Monster, abilities: Iterable[int]) -> tuple[int, int]:
    """(reluctance, ability) that a negotiation roll is adjusted by: the monster's reluctance and the party's best
    negotiation ability, each only where the table uses it."""
    reluctance = monster.reluctance if table.use_reluctance else 0
    ability = max(abilities, default=0) if table.use_ability else 0
    return reluctance, ability


def negotiation_total(faces_total: int, reluctance: int, ability: int) -> int:
    return faces_total - reluctance + ability


def fraction(amount: int, frac: Fraction) -> int:
    """``amount`` times a fraction, rounded as the data says (down, up or nearest, halves up)."""
    num = amount * frac.numerator
    if frac.rounding == "down":
        return num // frac.denominator
    if frac.rounding == "up":
        return -(-num // frac.denominator)
    return (2 * num + frac.denominator) // (2 * frac.denominator)


def bribe_cell(table: BriberyTable, monster: Monster, gold: int) -> tuple[int, int, int] | None:
    """(column, row, digit) of the bribery table for ``gold`` offered to a group of ``monster``; None below its
    rows. The column is the strongest monster's strength + reluctance (a group is one species)."""
    score = monster.strength + monster.reluctance
    col = next(
        i
        for i, c in enumerate(table.columns)
        if (c.min is None or score >= c.min) and (c.max is None or score <= c.max)
    )
    row = next((i for i, r in enumerate(table.rows) if gold >= r.min and (r.max is None or gold <= r.max)), None)
    return None if row is None else (col, row, table.cells[row][col])


def bribe_accepted(face: int, digit: int) -> bool:
    """A bribe is taken when the bribery die shows the cell's digit or less."""
    return face <= digit


# --- running and pursuit (001, 003) ------------------------------------------------------------------------------


def party_speed(speeds: Iterable[int]) -> int:
    """A party moves at its slowest living character's speed."""
    return min(speeds, default=0)


def escapes_by_speed(party_speed_: int, monster_speed: int) -> bool:
    """003: a party faster than the monster evades it automatically (before the combat phase has begun)."""
    return party_speed_ > monster_speed


def follows(pursuit_rules: bool, monster_pursues: bool) -> bool:
    """Whether a monster follows a running party: only where the ruleset has pursuit (003) and its data says it
    pursues; otherwise running is free and it stays where it is (001)."""
    return pursuit_rules and monster_pursues


def pursuit_chance(band_pursuit: int | None, submerged: bool, rolled: bool, pursues: bool) -> int:
    """003's chance of pursuit, in percent: the reaction band's (certain with no reaction, and for a submerged
    monster), rolled once per group: once ``rolled``, its answer (``pursues``) is certain."""
    if rolled:
        return PERCENT if pursues else 0
    return PERCENT if band_pursuit is None or submerged else band_pursuit


def automatic_evasion(
    *, in_fight: bool, submerged: bool, party_speed_: int, monster_speed: int, out_of_sight: bool
) -> Literal["faster", "out_of_sight"] | None:
    """How a running party gets away from a pursuer without a pursuit roll, if it does (003, "only if the combat
    phase has not begun"): faster than the monster, or never seen by it. Never from a fight, never from a
    submerged monster."""
    if in_fight or submerged:
        return None
    if escapes_by_speed(party_speed_, monster_speed):
        return "faster"
    return "out_of_sight" if out_of_sight else None


def distracted_by(what: Literal["food", "treasure"], intelligent: bool, submerged: bool) -> bool:
    """003: dropped food may stop an unintelligent monster, dropped treasure an intelligent one; nothing stops one
    that is submerged."""
    return not submerged and (intelligent if what == "treasure" else not intelligent)


def distraction_percent(
    what: Literal["food", "treasure"], table: Distractions, intelligent: bool, submerged: bool
) -> int:
    """003: the percentile chance that ``what`` dropped stops the pursuer (0: it is not the kind it stops,
    :func:`distracted_by`)."""
    return (table.food if what == "food" else table.treasure) if distracted_by(what, intelligent, submerged) else 0


def oil_stop_percent(table: Distractions, self_preservation: bool) -> int:
    """003: the percentile chance that burning oil stops the pursuer: only one with self-preservation fears fire."""
    return table.oil_stops if self_preservation else 0


# --- the score (ours: the texts keep none) -------------------------------------------------------------------------


def score(deepest: int, treasure: int, worth: int, won: bool, rules: ScoreRules) -> int:
    """What a finished game counts for: ``per_floor`` for each floor down to the deepest reached (1-based), the
    treasure carried out (the party's gold and the value of its gems, ``treasure``, when it has won; a dead party
    carries nothing out), ``per_worth`` for each point of ``worth`` of the monsters killed, and ``win`` for a won
    game."""
    return rules.per_floor * deepest + (treasure if won else 0) + rules.per_worth * worth + (rules.win if won else 0)
