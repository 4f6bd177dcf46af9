"""The fight the simulators compute: one party member (the delver) against K monsters of one kind.

A :class:`FightSpec` holds every number a fight needs, taken from the rules data by :func:`spec_from_content`
(or built by hand in tests with :func:`dataclasses.replace`). Both simulators (:mod:`undercroft.sim.vector`,
:mod:`undercroft.sim.exact`) and the scalar rules engine follow the same rules. Each formula is written once, in
:mod:`undercroft.rules.formulas` (the spec calls it: :attr:`FightSpec.delver_first`, the bonuses, the per-face
:class:`Outcome` tables); this is how a fight strings them together:

* A round is the first side's turn, then the other side's. The delver acts first if its agility is at least the
  monster's (the player wins ties) or if the monster holds its ground; otherwise the monsters act first.
* The delver's turn: it attacks the living monster with the lowest index. Roll d(attack_die) = n. ``n ==
  always_miss`` misses; ``n == critical`` hits; otherwise it hits iff ``n + might - (to_hit_penalty if
  exhausted) >= monster defense``. Damage ``might + weapon - (damage_penalty if exhausted)``, times
  ``critical_multiplier`` on a critical, then at least ``minimum_damage``. A monster at 0 hp or less is dead.
* The monsters' turn: each living monster, in index order, attacks if it acts this turn: n == always_miss
  misses, n == critical hits, otherwise it hits iff ``n + attack + (opponent_bonus if the delver is exhausted)
  >= delver defense``; damage ``monster damage`` (times the multiplier on a critical), at least
  ``minimum_damage``. The turn stops as soon as the delver is at 0 hp or less (the fight is lost).
  Monsters act on their turns number 0, acts_every, 2*acts_every, ... (the counter counts every monsters' turn of
  the fight, from 0, whether or not anything acted). At the end of every monsters' turn each living monster
  regains ``regenerate`` hp, never above its maximum.
* The fight ends when every monster is dead (won) or the delver is (died); after ``max_rounds`` rounds it is a
  stalemate.

A consequence both simulators use: the delver only ever damages the first living monster, so at any moment the
monsters before the target are dead and the ones after it are untouched (at full hp). A group fight's state is
therefore (delver hp, target index, target hp).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from undercroft.content import Content
from undercroft.content.schema import CombatRules, FatigueRules
from undercroft.rules import formulas
from undercroft.rules.types import Behaviour

MAX_ROUNDS = 500
SWINGS_KEPT = 4096  # sets of a swing's numbers each store of by_swing remembers (then it starts again)

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one face of the attack die does for one attacker: whether it hits, and the damage dealt."""

    face: int
    hit: bool
    critical: bool
    damage: int  # 0 on a miss


@dataclass(frozen=True, slots=True)
class FightSpec:
    """Every number of a fight, delver against ``count`` monsters of one kind (see the module docstring)."""

    # the delver
    delver_hp: int  # current hit points when the fight starts
    delver_max_hp: int
    might: int
    weapon: int  # the weapon's damage, added to might
    delver_defense: int
    delver_agility: int
    exhausted: bool
    # the monsters (all alike)
    monster_hp: int
    monster_defense: int
    monster_attack: int
    monster_damage: int
    monster_agility: int
    regenerate: int
    acts_every: int
    holds_ground: bool
    count: int
    # rules.combat
    attack_die: int
    always_miss: int
    critical: int
    critical_multiplier: int
    # rules.fatigue
    to_hit_penalty: int
    damage_penalty: int
    opponent_bonus: int
    minimum_damage: int
    # the weapon's (and a potion of heroism's) bonus on the attack die
    to_hit: int = 0
    # bookkeeping
    max_rounds: int = MAX_ROUNDS
    monster_id: str = "custom"
    character: str = "delver"

    def __post_init__(self) -> None:
        checks = [
            (self.attack_die >= 2, f"attack_die must be at least 2, not {self.attack_die}"),
            (self.delver_max_hp >= 1, f"delver_max_hp must be at least 1, not {self.delver_max_hp}"),
            (
                1 <= self.delver_hp <= self.delver_max_hp,
                f"delver_hp must be 1..{self.delver_max_hp} (a delver at 0 is dead), not {self.delver_hp}",
            ),
            (self.monster_hp >= 1, f"monster_hp must be at least 1, not {self.monster_hp}"),
            (self.count >= 1, f"count must be at least 1, not {self.count}"),
            (self.acts_every >= 1, f"acts_every must be at least 1, not {self.acts_every}"),
            (self.regenerate >= 0, f"regenerate must not be negative, not {self.regenerate}"),
            (self.critical_multiplier >= 1, f"critical_multiplier must be at least 1, not {self.critical_multiplier}"),
            (self.minimum_damage >= 0, f"minimum_damage must not be negative, not {self.minimum_damage}"),
            (self.max_rounds >= 1, f"max_rounds must be at least 1, not {self.max_rounds}"),
        ]
        for ok, message in checks:
            if not ok:
                raise ValueError(message)

    # The rules themselves are :mod:`undercroft.rules.formulas`; the spec only supplies their numbers.

    @property
    def swing_key(self) -> tuple[int | bool, ...]:
        """Every number a swing's outcome depends on (:meth:`delver_outcomes`, :meth:`monster_outcomes`): the
        fighters' might, weapon, attack, damage and defence, the fatigue, the combat and fatigue rules; not the hit
        points, which change as a fight goes on. What the simulators' per-swing tables are remembered by."""
        return (
            self.might,
            self.weapon,
            self.to_hit,
            self.exhausted,
            self.delver_defense,
            self.monster_defense,
            self.monster_attack,
            self.monster_damage,
            self.attack_die,
            self.always_miss,
            self.critical,
            self.critical_multiplier,
            self.to_hit_penalty,
            self.damage_penalty,
            self.opponent_bonus,
            self.minimum_damage,
        )

    @property
    def combat_rules(self) -> CombatRules:
        """The spec's numbers as the data's combat rules (unvalidated: tests may switch a face off with 0)."""
        return CombatRules.model_construct(
            attack_die=self.attack_die,
            always_miss=self.always_miss,
            critical=self.critical,
            critical_multiplier=self.critical_multiplier,
            monster_targeting="first",
        )

    @property
    def fatigue_rules(self) -> FatigueRules:
        """The spec's numbers as the data's fatigue rules (running and resting are no part of a fight: 1)."""
        return FatigueRules.model_construct(
            max_running_rounds=1,
            rest_turns=1,
            to_hit_penalty=self.to_hit_penalty,
            damage_penalty=self.damage_penalty,
            opponent_bonus=self.opponent_bonus,
            minimum_damage=self.minimum_damage,
        )

    @property
    def delver_first(self) -> bool:
        """The delver takes the first turn of every round (:func:`formulas.party_acts_first`)."""
        return formulas.party_acts_first(self.delver_agility, self.monster_agility, self.holds_ground)

    @property
    def delver_to_hit(self) -> int:
        """The delver's bonus on the attack die."""
        return formulas.to_hit_bonus(self.might, self.exhausted, self.fatigue_rules, self.to_hit)

    @property
    def delver_base_damage(self) -> int:
        """The delver's damage on an ordinary hit, before the minimum."""
        return formulas.damage_bonus(self.might, self.weapon, self.exhausted, self.fatigue_rules)

    @property
    def monster_to_hit(self) -> int:
        """The monsters' bonus on the attack die."""
        return formulas.monster_bonus(self.monster_attack, self.exhausted, self.fatigue_rules)

    def _outcomes(self, bonus: int, defense: int, base_damage: int) -> tuple[Outcome, ...]:
        combat, fatigue = self.combat_rules, self.fatigue_rules
        out = []
        for n in range(1, self.attack_die + 1):
            swing = formulas.attack(n, bonus, defense, combat)
            dmg = formulas.damage(base_damage, swing.critical, combat, fatigue) if swing.hit else 0
            out.append(Outcome(n, swing.hit, swing.critical, dmg))
        return tuple(out)

    def delver_outcomes(self) -> tuple[Outcome, ...]:
        """What each face 1..attack_die does when the delver attacks a monster."""
        return self._outcomes(self.delver_to_hit, self.monster_defense, self.delver_base_damage)

    def monster_outcomes(self) -> tuple[Outcome, ...]:
        """What each face 1..attack_die does when a monster attacks the delver."""
        return self._outcomes(self.monster_to_hit, self.delver_defense, self.monster_damage)

    def monster_acts(self, turn: int) -> bool:
        """Whether the monsters act on their turn number ``turn`` (0-based; turn n is in round n + 1)."""
        # holds_ground: it acts only right after a delver turn in which the delver attacked. The delver always
        # attacks in this fight and always goes first against it, so that condition always holds here.
        return formulas.monster_acts(turn, self.acts_every)


def spec_from_content(
    content: Content,
    monster_id: str,
    count: int = 1,
    hp: int | None = None,
    exhausted: bool = False,
    character: str = "delver",
) -> FightSpec:
    """The fight of ``character`` (at ``hp``, default full) against ``count`` ``monster_id``, from the data."""
    try:
        ch = content.party[character]
    except KeyError:
        raise KeyError(f"unknown character '{character}'") from None
    return fight_spec(
        content,
        monster_id,
        hp=ch.hp if hp is None else hp,
        max_hp=ch.hp,
        might=ch.might,
        weapon=content.items[ch.weapon].damage,
        to_hit=content.items[ch.weapon].to_hit,
        defense=ch.defense,
        agility=ch.agility,
        exhausted=exhausted,
        count=count,
        character=character,
    )


def fight_spec(
    content: Content,
    monster_id: str,
    *,
    hp: int,
    max_hp: int,
    might: int,
    weapon: int,
    defense: int,
    agility: int,
    exhausted: bool,
    count: int,
    character: str,
    to_hit: int = 0,
) -> FightSpec:
    """A fighter with these numbers against ``count`` ``monster_id``, under the data's combat and fatigue rules."""
    m = content.monster(monster_id)
    combat = content.rules.combat
    fatigue = content.rules.fatigue
    return FightSpec(
        delver_hp=hp,
        delver_max_hp=max_hp,
        might=might,
        weapon=weapon,
        to_hit=to_hit,
        delver_defense=defense,
        delver_agility=agility,
        exhausted=exhausted,
        monster_hp=m.hp,
        monster_defense=m.defense,
        monster_attack=m.attack,
        monster_damage=m.damage,
        monster_agility=m.agility,
        regenerate=m.regenerate,
        acts_every=m.acts_every,
        holds_ground=Behaviour.HOLDS_GROUND in m.behaviours,
        count=count,
        attack_die=combat.attack_die,
        always_miss=combat.always_miss,
        critical=combat.critical,
        critical_multiplier=combat.critical_multiplier,
        to_hit_penalty=fatigue.to_hit_penalty,
        damage_penalty=fatigue.damage_penalty,
        opponent_bonus=fatigue.opponent_bonus,
        minimum_damage=fatigue.minimum_damage,
        monster_id=monster_id,
        character=character,
    )


def by_swing(store: dict[tuple[int | bool, ...], T], spec: FightSpec, make: Callable[[FightSpec], T]) -> T:
    """``make(spec)``, remembered in ``store`` by the numbers a swing depends on (:attr:`FightSpec.swing_key`: not
    the hit points, which change as a fight goes on), at most :data:`SWINGS_KEPT` of them. What the simulators'
    per-swing tables are made once by: the odds ask for them at every state of a fight."""
    key = spec.swing_key
    known = store.get(key)
    if known is None:
        if len(store) >= SWINGS_KEPT:
            store.clear()
        known = store[key] = make(spec)
    return known
