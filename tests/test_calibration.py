"""Calibration: the delver's starting kit against each of the Warden's eight, through the scalar engine.

Every fight is played by :class:`undercroft.rules.game.Game` through ``step()`` (Fight, then Attack or Drink),
with the game's own seeded dice, and measured from the events it returns. The claims of seed 001 ("Fighting") are
asserted on the measured numbers. docs/BALANCE.md holds the table this file prints and explains the policies:

* careless: starts at full HP, swings every turn, never drinks, fights to the death;
* careful: starts at full HP ("drinking first"), and on its turn drinks a healing potion (the kit has 2) whenever
  the monster's next hit could kill it (HP <= the monster's damage); otherwise it swings. It never runs.

A monster "kills" a policy when the delver dies in at least ``KILLS`` of the fights.

Print the table:  ``python tests/test_calibration.py`` (``--fights N``, ``--seed S``).
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from dataclasses import dataclass, field

import engine_helpers
import pytest

from undercroft.content import Content, load_content
from undercroft.paths import data_dir
from undercroft.rules import events as evt
from undercroft.rules.actions import Action, Attack, Drink, Fight
from undercroft.rules.context import init_behaviour
from undercroft.rules.game import Game
from undercroft.rules.state import Encounter, Group
from undercroft.rules.types import Mode, Origin
from undercroft.sim import exact, spec_from_content

pytestmark = pytest.mark.slow  # the whole module: each claim is a few thousand fights through the engine

SEED = 1001  # the calibration seed: every number in docs/BALANCE.md is reproducible from it
FIGHTS = 2000  # fights per monster and policy
KILLS = 0.25  # a monster "kills" a policy when the delver dies in at least this fraction of the fights
RULESET = "warden"  # seed 001 as written: a lone delver with the starting kit (2 healing potions)
EIGHT = (
    "sump_leeches",
    "wick_trimmer",
    "cistern_drowner",
    "ossuary_knot",
    "empty_harness",
    "gaoler",
    "the_unlit",
    "the_patient_one",
)
CARELESS_KILLERS = {"empty_harness", "gaoler", "the_unlit", "the_patient_one"}  # "four of them"
CAREFUL_KILLERS = {"the_unlit", "the_patient_one"}  # "two of them": the two things at the end
MAX_STEPS = 500  # a fight longer than this is a bug (none comes near)

Policy = Callable[[Game, int], Action]


def careless(game: Game, damage: int) -> Action:
    """Swing at the first living creature, always."""
    assert game.state.combat is not None
    g = game.state.group(game.state.combat.group)
    return Attack(g.alive[0])


def careful(game: Game, damage: int) -> Action:
    """Drink when the monster's next hit could kill (HP <= its damage) and a potion is left; otherwise swing."""
    m = game.state.party[0]
    if m.hp <= damage and game.state.items.get("healing_potion", 0) > 0:
        return Drink(0)
    return careless(game, damage)


POLICIES: dict[str, Policy] = {"careless": careless, "careful": careful}


@dataclass
class Tally:
    """Sums over many fights of one monster (``count`` of them) and one policy."""

    monster: str
    policy: str
    count: int = 1
    fights: int = 0
    wins: int = 0
    deaths: int = 0
    rounds: int = 0  # rounds begun: turns taken by the side that acts first
    hp_lost: int = 0  # HP taken from the delver (what potions gave back is not subtracted)
    monster_hits: int = 0
    monster_attacks: int = 0
    swings: int = 0
    connected: int = 0
    drinks: int = 0
    # exact facts, per fight
    hit_damage: set[int] = field(default_factory=set)  # the damage of the delver's ordinary (non-20) hits
    clean_win_connected: set[int] = field(default_factory=set)  # connected swings of wins without a natural 20
    clean_death_hits: set[int] = field(default_factory=set)  # monster hits of deaths (no 20, no potion)
    unprovoked_strikes: int = 0  # steps in which the monster struck though the delver did not swing
    unanswered_swings: int = 0  # steps in which the delver swung, the monster lived and did not strike

    def mean(self, total: int) -> float:
        return total / self.fights

    @property
    def win_rate(self) -> float:
        return self.wins / self.fights

    @property
    def death_rate(self) -> float:
        return self.deaths / self.fights

    @property
    def rounds_mean(self) -> float:
        return self.mean(self.rounds)

    @property
    def monster_hits_mean(self) -> float:
        return self.mean(self.monster_hits)

    @property
    def swings_mean(self) -> float:
        return self.mean(self.swings)

    def row(self) -> str:
        name = self.monster if self.count == 1 else f"{self.count} x {self.monster}"
        return (
            f"| {name} | {self.policy} | {100 * self.win_rate:.1f} | {100 * self.death_rate:.1f} | "
            f"{self.rounds_mean:.2f} | {self.mean(self.hp_lost):.2f} | {self.monster_hits_mean:.2f} | "
            f"{self.swings_mean:.2f} | {self.mean(self.connected):.2f} | {self.mean(self.drinks):.2f} |"
        )


HEADER = (
    "| monster | policy | win % | death % | mean rounds | mean HP lost | mean monster hits | mean swings "
    "| mean connected | mean drinks |\n"
    "|---|---|---|---|---|---|---|---|---|---|"
)


def arena(content: Content, seed: int = SEED) -> Game:
    """One game whose seeded combat stream plays every fight in turn (a new game per fight is needlessly slow)."""
    return Game(content, RULESET, seed)


def fight(game: Game, monster: str, policy: Policy, tally: Tally, hp: int | None = None) -> None:
    """Reset the delver (full kit, ``hp``), put ``tally.count`` x ``monster`` in its room, Fight, and play on.

    Only the party's HP, kit and mode are reset between fights: everything else is the engine's own play.
    """
    st = game.state
    mon = game.content.monsters[monster]
    delver = st.party[0]
    delver.hp = delver.max_hp if hp is None else hp
    st.items = {k: v for k, v in game.rs.start_items.items() if v > 0}
    st.mode, st.death, st.combat, st.pursuit = Mode.ENCOUNTER, None, None, None
    st.level.groups.clear()
    g = Group(
        st.next_group,
        monster,
        [mon.hp] * tally.count,
        mon.hp,
        st.depth,
        st.segment,
        st.pos,
        Origin.RESIDENT,
        0,
        met=True,
    )
    st.next_group += 1
    init_behaviour(g, mon)
    st.level.groups.append(g)
    st.encounter = Encounter(g.id, entry=st.pos, first_round=False)
    hp_now = delver.hp
    events = game.step(Fight())
    first = next(e.first for e in events if isinstance(e, evt.Combat))
    turns = {"party": 0, "monsters": 0}  # a step holds at most one turn of each side
    hits = strikes = swings = connected = drinks = 0
    crit_for = crit_against = False
    steps = 0
    while True:
        party_turn = monsters_turn = False
        for e in events:
            if isinstance(e, evt.PartyAttack):
                party_turn = True
                swings += 1
                connected += bool(e.hit)
                if e.hit and not e.critical:
                    tally.hit_damage.add(e.damage)
                crit_for |= bool(e.critical)
            elif isinstance(e, evt.PartyAttack | evt.MonsterAttack):
                monsters_turn = True
                strikes += 1
                hits += bool(e.hit)
                crit_against |= bool(e.critical)
                tally.hp_lost += hp_now - e.target_hp_after
                hp_now = e.target_hp_after
            elif isinstance(e, evt.Drink):
                party_turn = True
                drinks += 1
                hp_now = e.hp
            elif isinstance(e, evt.Holds | evt.Slow):
                monsters_turn = True
        turns["party"] += party_turn
        turns["monsters"] += monsters_turn
        swung = any(isinstance(e, evt.PartyAttack) for e in events)
        struck = any(isinstance(e, evt.MonsterAttack) for e in events)
        tally.unprovoked_strikes += struck and not swung
        tally.unanswered_swings += swung and not struck and not g.defeated
        if st.mode not in ("combat", "encounter"):
            break
        steps += 1
        assert steps < MAX_STEPS, f"{monster}: the fight does not end"
        # Left alone while the delver drank, the wick-trimmer kneels again (mode "encounter"): the delver
        # steps back in and the fight goes on.
        events = game.step(policy(game, mon.damage) if st.mode == "combat" else Fight())
        assert not any(isinstance(e, evt.Refused) for e in events), events
    assert st.mode in ("explore", "dead"), f"{monster}: the fight ended in mode {st.mode}"
    tally.fights += 1
    tally.wins += st.mode == "explore"
    tally.deaths += st.mode == "dead"
    tally.rounds += turns[first]
    tally.monster_hits += hits
    tally.monster_attacks += strikes
    tally.swings += swings
    tally.connected += connected
    tally.drinks += drinks
    if st.mode == "explore" and not crit_for:
        tally.clean_win_connected.add(connected)
    if st.mode == "dead" and not crit_against and drinks == 0:
        tally.clean_death_hits.add(hits)


def measure(
    content: Content,
    monster: str,
    policy: str,
    fights: int = FIGHTS,
    seed: int = SEED,
    *,
    hp: int | None = None,
    count: int = 1,
) -> Tally:
    game = arena(content, seed)
    tally = Tally(monster, policy, count)
    for _ in range(fights):
        fight(game, monster, POLICIES[policy], tally, hp)
    return tally


def table(content: Content, fights: int = FIGHTS, seed: int = SEED) -> dict[tuple[str, str], Tally]:
    return {(m, p): measure(content, m, p, fights, seed) for m in EIGHT for p in POLICIES}


# --- the claims ------------------------------------------------------------------------------------------------


def shipped() -> Content:
    return engine_helpers.content()


@pytest.fixture(scope="module")
def rows() -> dict[tuple[str, str], Tally]:
    return table(shipped())


def swings_to_kill(hp: int, damage: int) -> int:
    return math.ceil(hp / damage)


@pytest.mark.clause("001-roll-5")
def test_standard_damage_is_six(rows: dict[tuple[str, str], Tally]) -> None:
    c = shipped()
    delver = c.party["delver"]
    assert delver.hp == 12
    assert delver.might + c.items[delver.weapon].damage == 6
    # Every ordinary hit the engine dealt in every measured fight did exactly 6.
    assert set().union(*(t.hit_damage for t in rows.values())) == {6}


@pytest.mark.clause("001-roll-6", "001-meet-1")
def test_the_text_prints_these_numbers() -> None:
    m = shipped().monsters
    printed = {  # hp, defense (None: the text does not print it), damage
        "sump_leeches": (4, 9, 2),
        "wick_trimmer": (6, 10, 2),
        "cistern_drowner": (8, None, 3),
        "ossuary_knot": (10, 12, 2),
        "empty_harness": (14, 13, 4),
        "gaoler": (16, 11, 5),
        "the_unlit": (24, 14, 6),
        "the_patient_one": (20, 14, 5),
    }
    for mid, (hp, defense, damage) in printed.items():
        assert m[mid].hp == hp and m[mid].damage == damage, mid
        assert defense is None or m[mid].defense == defense, mid


@pytest.mark.clause("001-fight-1")
def test_the_armour_needs_three_connected_swings_and_lands_two_or_three(rows: dict[tuple[str, str], Tally]) -> None:
    harness = shipped().monsters["empty_harness"]
    assert swings_to_kill(harness.hp, 6) == 3
    t = rows["empty_harness", "careless"]
    assert t.clean_win_connected == {3}  # every win without a natural 20 took exactly three connected swings
    assert 2.0 <= t.monster_hits_mean <= 3.0, t.row()


@pytest.mark.clause("001-fight-2")
def test_the_brute_kills_in_three_hits_and_gets_four_rounds(rows: dict[tuple[str, str], Tally]) -> None:
    gaoler = shipped().monsters["gaoler"]
    assert 3 * gaoler.damage >= 12 > 2 * gaoler.damage
    t = rows["gaoler", "careless"]
    assert t.clean_death_hits == {3}  # every death without a natural 20 took exactly three of its hits
    assert 3.5 <= t.rounds_mean <= 4.5, t.row()


@pytest.mark.clause("001-end-1")
def test_the_unlit_needs_four_swings_and_kills_in_two(rows: dict[tuple[str, str], Tally]) -> None:
    unlit = shipped().monsters["the_unlit"]
    assert swings_to_kill(unlit.hp, 6) == 4
    assert 2 * unlit.damage >= 12 > unlit.damage
    t = rows["the_unlit", "careless"]
    assert t.clean_death_hits == {2}  # a full-health delver: dead in exactly two hits
    assert t.clean_win_connected <= {4}  # the rare win without a 20 took four connected swings


@pytest.mark.clause("001-end-3", "001-end-5")
def test_the_patient_one_strikes_only_when_you_swing_four_times(rows: dict[tuple[str, str], Tally]) -> None:
    patient = shipped().monsters["the_patient_one"]
    assert swings_to_kill(patient.hp, 6) == 4
    for policy in POLICIES:
        t = rows["the_patient_one", policy]
        assert t.unprovoked_strikes == 0 and t.unanswered_swings == 0, t
    careful_rows = rows["the_patient_one", "careful"]
    assert careful_rows.drinks > 0  # the careful delver drank, and never drew a strike by it
    t = rows["the_patient_one", "careless"]
    assert 3.5 <= t.swings_mean <= 4.5, t.row()  # "and then it happens four times"


@pytest.mark.clause("001-meet-2")
def test_four_kill_a_careless_delver_two_a_careful_one(rows: dict[tuple[str, str], Tally]) -> None:
    careless_killers = {m for m in EIGHT if rows[m, "careless"].death_rate >= KILLS}
    careful_killers = {m for m in EIGHT if rows[m, "careful"].death_rate >= KILLS}
    report = "\n".join(t.row() for t in rows.values())
    assert careless_killers == CARELESS_KILLERS, report
    assert careful_killers == CAREFUL_KILLERS, report
    for m in EIGHT:  # being careful never makes it worse
        assert rows[m, "careful"].death_rate <= rows[m, "careless"].death_rate + 0.02, m


@pytest.mark.clause("001-small-1", "001-small-2", "001-small-8")
def test_the_small_ones() -> None:
    c = shipped()
    # The knot: a nuisance at full health, a real problem at four.
    assert measure(c, "ossuary_knot", "careless").death_rate < KILLS
    assert measure(c, "ossuary_knot", "careless", hp=4).death_rate >= KILLS
    # The leeches: barely a monster, dangerous only in numbers (they come 1d4+1; at most five).
    assert measure(c, "sump_leeches", "careless").death_rate < 0.01
    assert measure(c, "sump_leeches", "careless", 500, count=5).death_rate >= KILLS


def test_the_engine_agrees_with_the_exact_calculator(rows: dict[tuple[str, str], Tally]) -> None:
    """The careless fight is the fight sim.exact computes: the engine's death rate is within 4 sigma of it."""
    for m in EIGHT:
        e = exact(spec_from_content(shipped(), m))
        t = rows[m, "careless"]
        sigma = math.sqrt(max(e.death * (1 - e.death), 1e-4) / t.fights)
        assert abs(t.death_rate - e.death) <= 4 * sigma, (m, t.death_rate, e.death)
        assert abs(t.monster_hits_mean - e.monster_hits_mean) <= 0.15, (m, t.monster_hits_mean, e.monster_hits_mean)


# --- the table -------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Print the calibration table of docs/BALANCE.md.")
    ap.add_argument("--fights", type=int, default=FIGHTS)
    ap.add_argument("--seed", type=int, default=SEED)
    args = ap.parse_args(argv)
    content = load_content(data_dir())
    rows = table(content, args.fights, args.seed)
    print(f"{args.fights} fights per row, seed {args.seed}, ruleset {RULESET}; 'kills' = death rate >= {KILLS:.0%}")
    print()
    print(HEADER)
    for t in rows.values():
        print(t.row())
    extra = [
        measure(content, "ossuary_knot", "careless", args.fights, args.seed, hp=4),
        measure(content, "sump_leeches", "careless", args.fights, args.seed, count=5),
    ]
    print()
    print(
        "| fight | policy | win % | death % | mean rounds | mean HP lost | mean monster hits | mean swings "
        "| mean connected | mean drinks |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    print(extra[0].row().replace("| ossuary_knot |", "| ossuary_knot, delver at 4 HP |"))
    print(extra[1].row())
    return 0


if __name__ == "__main__":
    sys.exit(main())
