"""The odds shown in the game (undercroft.sim.odds.fight_odds): exact or simulated as documented, cached, never
touching the game's dice, and in agreement with the rules engine playing on from the same state."""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest
from fight_helpers import enumerate_fight

from undercroft.content import Content
from undercroft.rules.actions import Action, Attack, Drink, Fight, ThrowOil
from undercroft.rules.context import init_behaviour
from undercroft.rules.dice import Dice, ScriptedDice
from undercroft.rules.game import Game
from undercroft.rules.rng import Stream
from undercroft.rules.state import Encounter, Group
from undercroft.rules.types import Behaviour, Mode, Origin
from undercroft.sim import exact
from undercroft.sim.first import drink_win, oil_win
from undercroft.sim.odds import (
    FIGHTS,
    PARTY,
    Odds,
    Start,
    attack_target,
    clear_cache,
    exact_from,
    exactly,
    fight_odds,
    matchup_spec,
    simulate_from,
    start_odds,
    starts,
    stream_seed,
)
from undercroft.sim.partytable import full_behind
from undercroft.sim.scalar import play_out
from undercroft.sim.spec import FightSpec, spec_from_content

SCALAR_FIGHTS = 3000
SIGMAS = 4.0


def new_game(content: Content, ruleset: str = "warden", faces: Sequence[int] = ()) -> tuple[Game, ScriptedDice]:
    """A game whose rolls are scripted (the start gold is answered with 1s)."""
    n = Dice.parse(content.ruleset(ruleset).start_gold).count
    dice = ScriptedDice([1] * n + list(faces))
    return Game(content, ruleset, 5, dice=dice), dice


def place(
    game: Game, monster: str, count: int = 1, *, hp: Sequence[int] | None = None, enc: Encounter | None = None
) -> Group:
    """``count`` x ``monster`` in front of the party, met: mode encounter."""
    st = game.state
    mon = game.content.monsters[monster]
    g = Group(
        st.next_group,
        monster,
        list(hp) if hp else [mon.hp] * count,
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
    st.mode = Mode.ENCOUNTER
    st.encounter = enc if enc is not None else Encounter(g.id, entry=st.prev_pos, first_round=False)
    st.encounter.group = g.id
    return g


def agrees(odds: Odds, game: Game, seed: int = 11) -> list[str]:
    """Where the engine, playing on from the game's state, disagrees with the odds (beyond SIGMAS errors)."""
    s = play_out(game, SCALAR_FIGHTS, seed)
    n_odds = math.inf if odds.exact else FIGHTS
    out = []
    p = odds.win
    se = math.sqrt(max(p * (1 - p), 1e-12) * (1 / SCALAR_FIGHTS + 1 / n_odds))
    if abs(s.win - p) > SIGMAS * se:
        out.append(f"win: odds {p:.4f} vs engine {s.win:.4f} (se {se:.4f})")
    se_lost = s.standard_error("hp_lost") * math.sqrt(1 + (0 if odds.exact else SCALAR_FIGHTS / FIGHTS))
    if abs(s.hp_lost_mean - odds.hp_lost_mean) > SIGMAS * se_lost + 1e-9:
        out.append(f"hp lost: odds {odds.hp_lost_mean:.3f} vs engine {s.hp_lost_mean:.3f} (se {se_lost:.3f})")
    se_rounds = s.standard_error("rounds") * math.sqrt(1 + (0 if odds.exact else SCALAR_FIGHTS / FIGHTS))
    if abs(s.rounds_mean - odds.rounds_mean) > SIGMAS * se_rounds + 1e-9:
        out.append(f"rounds: odds {odds.rounds_mean:.3f} vs engine {s.rounds_mean:.3f} (se {se_rounds:.3f})")
    return out


# --- when there are odds -------------------------------------------------------------------------------------


def test_no_odds_without_a_fight(content: Content) -> None:
    game, _ = new_game(content)
    assert game.state.mode == "explore"
    assert fight_odds(content, game) is None


def test_a_fresh_fight_is_the_exact_calculation(content: Content) -> None:
    game, _ = new_game(content)
    place(game, "gaoler")
    odds = fight_odds(content, game)
    e = exact(matchup_spec(content, "gaoler", ruleset="warden"))
    assert odds is not None and odds.exact and odds.method == "exact" and odds.character == "delver"
    # (the odds read the fight's table, worked out backwards from every state at once: the forward calculation
    # to within the two computations' rounding and cut-off)
    assert (odds.win, odds.death, odds.hp_lost_mean) == pytest.approx((e.win, e.death, e.hp_lost_mean), abs=1e-9)


def test_a_fresh_group_is_the_exact_calculation(content: Content) -> None:
    game, _ = new_game(content)
    place(game, "sump_leeches", 3)
    (start,) = starts(content, game)
    assert start.fresh
    odds = fight_odds(content, game)
    e = exact(start.spec, groups=True)
    assert odds is not None and odds.exact and odds.method == "exact"
    # (the odds read the fight's table, worked out backwards from every state at once: the forward calculation
    # to within the two computations' rounding and cut-off)
    assert (odds.win, odds.death, odds.hp_lost_mean) == pytest.approx((e.win, e.death, e.hp_lost_mean), abs=1e-9)


def test_a_group_with_two_wounded_is_simulated_with_dice_from_the_state(content: Content) -> None:
    game, _ = new_game(content)
    g = place(game, "sump_leeches", 3)
    game.step(Fight())
    g.hp = [2, 3, 4]
    (start,) = starts(content, game)
    odds = fight_odds(content, game)
    r = simulate_from(start, FIGHTS, stream_seed(start))
    assert odds is not None and not odds.exact and odds.method == f"simulated, {FIGHTS} fights"
    assert (odds.win, odds.death, odds.hp_lost_mean) == r[:3]
    clear_cache()
    assert fight_odds(content, game) == odds  # the same state, the same numbers


@pytest.mark.slow
def test_mid_fight_group_with_one_wounded_is_exact(content: Content) -> None:
    game, _ = new_game(content)
    g = place(game, "sump_leeches", 3)
    game.step(Fight())
    g.hp = [4, 1, 4]
    game.state.party[0].hp = 7
    (start,) = starts(content, game)
    assert start.hps == (1, 4, 4) and not start.fresh
    odds = fight_odds(content, game)
    assert odds is not None and odds.exact and odds.method == "exact"
    bad = agrees(odds, game)
    assert not bad, bad


def test_the_games_dice_and_state_are_never_touched(content: Content) -> None:
    game, dice = new_game(content, "undercroft")
    place(game, "ossuary_knot", 2, hp=[3, 10])
    before = game.canonical()
    clear_cache()
    assert fight_odds(content, game) is not None
    assert game.canonical() == before and dice.remaining == 0


def test_odds_follow_the_hit_points(content: Content) -> None:
    game, _ = new_game(content)
    g = place(game, "gaoler")
    full = fight_odds(content, game)
    game.state.party[0].hp = 5
    hurt = fight_odds(content, game)
    g.hp = [2]
    winning = fight_odds(content, game)
    assert full is not None and hurt is not None and winning is not None
    assert hurt.win < full.win and hurt.win < winning.win  # (a gaoler at 2 still strikes first, for 5)
    assert hurt.hp_lost_mean <= 5 and winning.rounds_mean < hurt.rounds_mean


def test_a_cached_call_takes_well_under_a_frame(content: Content) -> None:
    game, _ = new_game(content)
    place(game, "sump_leeches", 4, hp=[4, 2, 4, 4])
    fight_odds(content, game)
    n = 500
    t0 = time.perf_counter()
    for _ in range(n):
        fight_odds(content, game)
    per_call = (time.perf_counter() - t0) / n
    assert per_call < 0.002, f"{per_call * 1e3:.3f} ms per cached call"


def test_the_weakest_living_creature_is_the_target() -> None:
    g = Group(1, "x", [0, 5, 3, 3], 5, 0, 0, (0, 0), Origin.RESIDENT, 0)
    assert attack_target(g) == 2
    g.hp = [0, 0]
    assert attack_target(g) == -1


# --- the fight-in-progress computations agree with exact() and simulate() on fresh fights -----------------------


@pytest.mark.parametrize("monster", ["gaoler", "ossuary_knot", "wick_trimmer", "the_patient_one"])
def test_exact_from_a_fresh_start_is_exact(content: Content, monster: str) -> None:
    spec = matchup_spec(content, monster)
    e = exact(spec)
    win, death, lost, rounds = exact_from(Start(spec, (spec.monster_hp,), spec.delver_first))
    assert win == pytest.approx(e.win, abs=1e-9) and death == pytest.approx(e.death, abs=1e-9)
    assert lost == pytest.approx(e.hp_lost_mean, abs=1e-8) and rounds == pytest.approx(e.rounds_mean, abs=1e-8)


@pytest.mark.parametrize(("monster", "count"), [("sump_leeches", 3), ("ossuary_knot", 2), ("wick_trimmer", 2)])
def test_simulate_from_a_fresh_start_matches_exact(content: Content, monster: str, count: int) -> None:
    spec = matchup_spec(content, monster, count=count)
    e = exact(spec, groups=True)
    n = 100_000
    win, _, lost, rounds = simulate_from(Start(spec, (spec.monster_hp,) * count, spec.delver_first), n, 3)
    assert abs(win - e.win) <= SIGMAS * math.sqrt(e.win * (1 - e.win) / n)
    assert abs(lost - e.hp_lost_mean) <= 0.05 and abs(rounds - e.rounds_mean) <= 0.03


# --- fights in progress, exactly: against an enumeration of every state -------------------------------------------


def _small(content: Content, monster: str, **numbers: Any) -> FightSpec:
    """A shipped fight made small enough to enumerate at every state (and with ``numbers`` changed)."""
    spec = spec_from_content(content, monster)
    return replace(spec, delver_hp=7, delver_max_hp=7, monster_hp=min(spec.monster_hp, 6), **numbers)


@pytest.mark.slow
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
def test_every_state_of_a_fight_is_the_enumerations(content: Content, monster: str, numbers: dict[str, Any]) -> None:
    """exact_from from every state of one creature's fight (the delver's and the creature's hit points, either side
    next, every phase, a lost turn): the enumeration's numbers."""
    spec = _small(content, monster, **numbers)
    checked = 0
    for d, m, delver_next, lost in itertools.product(
        range(1, spec.delver_max_hp + 1), range(1, spec.monster_hp + 1), (True, False), (False, True)
    ):
        for phase in range(spec.acts_every):
            one = replace(spec, delver_hp=d)
            got = exact_from(Start(one, (m,), delver_next, phase, lost))
            want = enumerate_fight((one,), (m,), delver_next, phase, lost, "lowest_hp")
            assert got == pytest.approx(want, abs=1e-9), (d, m, delver_next, phase, lost)
            checked += 1
    assert checked >= 7 * 5 * 4


@pytest.mark.slow
@pytest.mark.parametrize(
    ("monster", "numbers"),
    [
        ("goblin", {}),
        ("troll", {}),  # regenerates
        ("wick_trimmer", {}),  # acts every second turn
        ("ossuary_knot", {"critical_multiplier": 3, "regenerate": 2, "acts_every": 3, "exhausted": True}),
    ],
)
def test_every_state_of_a_group_fight_is_the_enumerations(
    content: Content, monster: str, numbers: dict[str, Any]
) -> None:
    """A group fought one creature at a time (the one struck wounded, every other at full), from every state."""
    spec = replace(_small(content, monster, **numbers), monster_hp=4, count=3)
    checked = 0
    for c, d, m, delver_next, lost in itertools.product(
        (3, 2, 1), (1, 4, 7), range(1, spec.monster_hp + 1), (True, False), (False, True)
    ):
        if (c + m) % 2 and c > 1:
            continue  # (half the states of the groups: the enumeration of three creatures is slow)
        hps = (m,) + (spec.monster_hp,) * (c - 1)
        for phase in range(spec.acts_every):
            one = replace(spec, delver_hp=d, count=c)
            got = exact_from(Start(one, hps, delver_next, phase, lost))
            want = enumerate_fight((one,), hps, delver_next, phase, lost, "lowest_hp")
            assert got == pytest.approx(want, abs=1e-9), (c, d, m, delver_next, phase, lost)
            checked += 1
    assert checked >= 3 * 4 * 4


def test_a_sure_fight_a_hopeless_one_and_a_stalemate(content: Content) -> None:
    spec = spec_from_content(content, "goblin")
    sure = replace(spec, might=50, always_miss=0, monster_defense=0)  # every blow kills
    assert exact_from(Start(sure, (1,), True))[0] == 1.0
    hopeless = replace(spec, weapon=0, might=-50, critical=0, minimum_damage=0)  # no blow ever lands
    assert exact_from(Start(hopeless, (hopeless.monster_hp,), True))[0] == 0.0
    # Neither side can hurt the other: the fight is undecided to the last of its rounds, never won.
    never = replace(hopeless, monster_damage=0, max_rounds=40)
    win, death, lost, rounds = exact_from(Start(never, (never.monster_hp,), True))
    assert (win, death, lost, rounds) == (0.0, 0.0, 0.0, 40.0)


def test_a_group_with_two_wounded_is_simulated(content: Content) -> None:
    spec = replace(spec_from_content(content, "goblin"), count=3)
    full = spec.monster_hp
    assert full_behind(spec, (1, full, full))
    assert not full_behind(spec, (1, full - 1, full))
    assert exactly(Start(spec, (1, full, full), True)) and not exactly(Start(spec, (1, 1, full), True))
    with pytest.raises(ValueError, match="all at full but the one struck"):
        exact_from(Start(spec, (1, 1, full), True))


def test_a_crowd_too_big_to_count_is_simulated(content: Content) -> None:
    spec = replace(spec_from_content(content, "goblin"), delver_hp=999, delver_max_hp=999, monster_hp=20, count=20)
    assert not exactly(Start(spec, (20,) * 20, True))  # (400 million multiply-adds a round)
    shipped = replace(spec, delver_hp=12, delver_max_hp=12, monster_hp=8, count=4)
    assert exactly(Start(shipped, (8,) * 4, True))  # (a shipped group: 7,680)


# --- fights in progress, against the engine playing on from the same state ------------------------------------


@pytest.mark.slow
def test_mid_fight_one_wounded_regenerating_creature(content: Content) -> None:
    game, _ = new_game(content)
    g = place(game, "ossuary_knot")
    assert game.step(Fight())[0].type != "refused" and game.state.mode == "combat"  # 3 v 3: the delver first
    g.hp = [4]
    game.state.party[0].hp = 5
    odds = fight_odds(content, game)
    assert odds is not None and odds.exact
    bad = agrees(odds, game)
    assert not bad, bad


@pytest.mark.slow
def test_mid_fight_slow_monster_out_of_phase(content: Content) -> None:
    game, dice = new_game(content)
    g = place(game, "wick_trimmer")
    game.step(Fight())
    dice.push(2, 19)  # the delver misses; the wick-trimmer hits (its turn 0)
    game.step(Attack(0))
    assert g.turns == 1 and dice.remaining == 0  # its next turn is a slow one
    (start,) = starts(content, game)
    assert start.phase == 1 and start.delver_next
    odds = fight_odds(content, game)
    assert odds is not None
    bad = agrees(odds, game)
    assert not bad, bad


@pytest.mark.slow
def test_mid_fight_group_with_the_dead_and_the_wounded(content: Content) -> None:
    game, _ = new_game(content)
    g = place(game, "sump_leeches", 4)
    game.step(Fight())
    g.hp = [0, 4, 1, 3]
    game.state.party[0].hp = 6
    (start,) = starts(content, game)
    assert start.hps == (1, 3, 4) and not start.fresh
    odds = fight_odds(content, game)
    assert odds is not None and not odds.exact
    bad = agrees(odds, game)
    assert not bad, bad


@pytest.mark.slow
def test_a_free_round_for_the_party_is_counted(content: Content) -> None:
    game, _ = new_game(content, "undercroft")
    place(game, "gaoler", enc=Encounter(0, entry=game.state.prev_pos, monster_surprised=True))
    (start,) = starts(content, game)
    # The gaoler, surprised, loses round 1; faster, it answers first in round 2: no turn of its is lost after all.
    assert start.delver_next and not start.skip_next
    odds = fight_odds(content, game)
    assert odds is not None
    bad = agrees(odds, game)
    assert not bad, bad
    game, _ = new_game(content, "undercroft")
    place(game, "orc", enc=Encounter(0, entry=game.state.prev_pos, monster_surprised=True))
    (start,) = starts(content, game)
    assert start.delver_next and start.skip_next  # slower, the orc loses its turn: the party strikes twice
    odds = fight_odds(content, game)
    assert odds is not None
    bad = agrees(odds, game)
    assert not bad, bad


@pytest.mark.slow
def test_a_monster_holding_its_ground_wastes_its_free_round(content: Content) -> None:
    game, _ = new_game(content, "undercroft")
    place(game, "the_patient_one", enc=Encounter(0, entry=game.state.prev_pos, party_surprised=True))
    (start,) = starts(content, game)
    assert not start.delver_next and start.skip_next
    odds = fight_odds(content, game)
    assert odds is not None
    bad = agrees(odds, game)
    assert not bad, bad


@pytest.mark.slow
def test_an_exhausted_delver_in_pursuit(content: Content) -> None:
    game, _ = new_game(content, "undercroft")
    g = place(game, "gaoler")
    st = game.state
    st.exhausted = True
    st.mode, st.pursuit = Mode.CHASE, None
    from undercroft.rules.state import Pursuit

    st.pursuit = Pursuit(g.id, 30)
    (start,) = starts(content, game)
    assert start.spec.exhausted
    odds = fight_odds(content, game)
    assert odds is not None
    assert odds.win == start_odds(Start(matchup_spec(content, "gaoler", exhausted=True), (16,), False)).win
    bad = agrees(odds, game)
    assert not bad, bad


def test_a_party_is_simulated_whole(content: Content) -> None:
    game, _ = new_game(content, "citadel")
    place(game, "ogre")
    odds = fight_odds(content, game)
    assert odds is not None and odds.character == PARTY and "the whole party of 4" in odds.method
    alone = [start_odds(s) for s in starts(content, game)]
    assert len(alone) == 4 and odds.win >= max(o.win for o in alone)
    for m in game.state.party[1:]:
        m.hp = 0
    only = fight_odds(content, game)
    assert only is not None and only.character == game.state.party[0].template and "only one" in only.method


# --- the odds of drinking or throwing oil first (the fight panel's choices) -----------------------------------


def engine_win_after(game: Game, first: Action, fights: int = SCALAR_FIGHTS, seed: int = 11) -> float:
    """The engine's own win rate, over ``fights`` fights from the game's state: ``first``, then attacking the
    weakest living creature until one side is down (dice from a stream of the test's own; the game put back)."""
    snap = game.snapshot()
    wins = 0
    try:
        with game.forced_dice(Stream(seed, "after")):
            for _ in range(fights):
                game.restore(snap)
                assert game.step(first)[0].type != "refused"
                st = game.state
                for _swing in range(500):
                    g = st.front_group()
                    if st.mode != Mode.COMBAT or g is None:
                        break
                    game.step(Attack(attack_target(g)))
                wins += st.mode not in (Mode.DEAD, Mode.COMBAT)
    finally:
        game.restore(snap)
    return wins / fights


def close_to(p: float, engine: float) -> bool:
    return abs(p - engine) <= SIGMAS * math.sqrt(max(p * (1 - p), 1e-12) / SCALAR_FIGHTS)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("monster", "count", "hp", "target"),
    [
        ("troll", 1, 5, 0),  # it regenerates
        ("the_patient_one", 1, 6, 0),  # it holds its ground: nobody swings while the delver drinks
        ("linen_mummy", 1, 4, 0),  # it strikes every other turn
        ("sump_leeches", 3, 6, 1),  # a group: the oil at one that is not the weakest
    ],
)
def test_drinking_or_throwing_oil_first_is_what_the_engine_makes_of_it(
    content: Content, monster: str, count: int, hp: int, target: int
) -> None:
    """The fight panel's "Drink: win N%" and "Throw oil at it: win N%" are the engine's odds of that choice, then
    attacking the weakest as the headline odds assume."""
    game, _ = new_game(content, "undercroft")
    g = place(game, monster, count)
    assert game.step(Fight())[0].type != "refused"
    if game.state.combat is not None and not game.state.combat.party_turn:
        game.state.combat.party_turn = True  # (the delver's turn, whoever is quicker)
    game.state.party[0].hp = hp
    if count > 1:
        g.set_hp(0, 2)  # the weakest is another
    game.state.items.update({"healing_potion": 1, "oil_flask": 1})
    drink, oil = drink_win(content, game), oil_win(content, game, target)
    assert drink is not None and oil is not None
    on = fight_odds(content, game)
    assert on is not None and drink > on.win - 0.02  # (a potion at low hit points helps, or nearly)
    engine_drink = engine_win_after(game, Drink(0))
    engine_oil = engine_win_after(game, ThrowOil(target))
    assert close_to(drink, engine_drink), (drink, engine_drink)
    assert close_to(oil, engine_oil), (oil, engine_oil)


def test_no_odds_for_drinking_at_full_hit_points_or_against_a_kneeler(content: Content) -> None:
    game, _ = new_game(content, "undercroft")
    place(game, "orc")
    game.step(Fight())
    game.state.items["healing_potion"] = 1
    assert drink_win(content, game) is None  # unhurt
    game.state.party[0].hp -= 3
    assert drink_win(content, game) is not None
    game.state.items["oil_flask"] = 0
    assert oil_win(content, game, 0) is None  # no oil carried
    game, _ = new_game(content, "undercroft")
    kneeler = next(m for m, mon in content.monsters.items() if Behaviour.KNEELS in mon.behaviours)
    place(game, kneeler)
    game.step(Fight())
    game.state.items["healing_potion"] = 1
    game.state.party[0].hp -= 3
    assert game.state.mode == Mode.COMBAT and drink_win(content, game) is None  # it would kneel: no win, no loss
