"""The faster group and party simulations (undercroft.sim.odds.simulate_party, simulate_from) give the very same
numbers as the reference implementations they replaced (kept below, as they were): the odds panels and the bot's
decisions, hence the published balance figures, do not move by a bit."""

from __future__ import annotations

import dataclasses

import numpy as np

from undercroft.content import Content
from undercroft.sim.odds import (
    PartyStart,
    Start,
    _monster_acts,
    _monster_acts_party,
    matchup_spec,
    simulate_from,
    simulate_party,
    stream_seed,
)
from undercroft.sim.spec import FightSpec
from undercroft.sim.vector import DieRoller, face_tables, pcg64_raw


def reference_party(start: PartyStart, fights: int, seed: int) -> tuple[float, float, float, float]:
    """simulate_party as it was (boolean masks, one (fight, creature) array, argmin/argmax over rows)."""
    specs = start.specs
    s0 = specs[0]
    n_members, k = len(specs), len(start.hps)
    full = s0.monster_hp
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    die = s0.attack_die
    dtab = np.stack([face_tables(s)[0] for s in specs])
    mtab = np.stack([face_tables(s)[1] for s in specs])
    hp = np.tile(np.array(start.hps, dtype=np.int32), (fights, 1))
    php = np.tile(np.array([s.delver_hp for s in specs], dtype=np.int32), (fights, 1))
    start_total = int(sum(s.delver_hp for s in specs))
    big = np.int32(np.iinfo(np.int32).max)
    wins = deaths = 0
    lost = rounds = 0
    order = ("party", "monsters") if start.delver_next else ("monsters", "party")
    for r in range(s0.max_rounds):
        for side in order:
            n = hp.shape[0]
            rows = np.arange(n)
            if side == "party":
                tgt = np.argmin(np.where(hp > 0, hp, big), axis=1)
                faces = rng.integers(0, die, size=(n, n_members))
                for j in range(n_members):
                    up = hp > 0
                    standing = up.any(axis=1) & (php[:, j] > 0)
                    tgt = np.where(up[rows, tgt], tgt, np.argmax(up, axis=1))
                    hp[rows, tgt] -= dtab[j, faces[:, j]] * standing
                np.maximum(hp, 0, out=hp)
                done = ~(hp > 0).any(axis=1)
                if done.any():
                    wins += int(done.sum())
                    lost += start_total * int(done.sum()) - int(php[done].sum())
                    rounds += int(done.sum()) * (r + 1)
            else:
                done = np.zeros(n, dtype=bool)
                if _monster_acts_party(start, r):
                    faces = rng.integers(0, die, size=(n, k))
                    pick = rng.random((n, k)) if start.targeting == "random" else None
                    for i in range(k):
                        up = php > 0
                        acting = (hp[:, i] > 0) & up.any(axis=1)
                        if start.targeting == "lowest_hp":
                            who = np.argmin(np.where(up, php, big), axis=1)
                        elif start.targeting == "first":
                            who = np.argmax(up, axis=1)
                        else:
                            assert pick is not None
                            living = up.sum(axis=1)
                            nth = np.minimum((pick[:, i] * living).astype(np.int64), np.maximum(living - 1, 0))
                            who = np.argmax(np.cumsum(up, axis=1) > nth[:, None], axis=1)
                        php[rows, who] -= mtab[who, faces[:, i]] * acting
                    np.maximum(php, 0, out=php)
                    done = ~(php > 0).any(axis=1)
                    if done.any():
                        deaths += int(done.sum())
                        lost += start_total * int(done.sum())
                        rounds += int(done.sum()) * (r + 1)
                if s0.regenerate:
                    hp = np.where(hp > 0, np.minimum(hp + s0.regenerate, full), hp)
            if done.any():
                keep = ~done
                hp, php = hp[keep], php[keep]
                if hp.shape[0] == 0:
                    return wins / fights, deaths / fights, lost / fights, rounds / fights
    lost += start_total * int(hp.shape[0]) - int(php.sum())
    rounds += int(hp.shape[0]) * s0.max_rounds
    return wins / fights, deaths / fights, lost / fights, rounds / fights


def reference_from(start: Start, fights: int, seed: int) -> tuple[float, float, float, float]:
    """simulate_from as it was (boolean masks)."""
    spec = start.spec
    k = len(start.hps)
    full = spec.monster_hp
    dice = DieRoller(pcg64_raw(seed), spec.attack_die)
    dtab, mtab, _ = face_tables(spec)
    hp = np.tile(np.array(start.hps, dtype=np.int32), (fights, 1))
    dhp = np.full(fights, spec.delver_hp, dtype=np.int32)
    tgt = np.zeros(fights, dtype=np.intp)
    wins = deaths = 0
    lost = rounds = 0
    order = ("delver", "monsters") if start.delver_next else ("monsters", "delver")
    for r in range(spec.max_rounds):
        for side in order:
            if side == "delver":
                rows = np.arange(dhp.size)
                hp[rows, tgt] -= dtab[dice.indices(dhp.size)]
                tgt += hp[rows, tgt] <= 0
                done = tgt >= k
                if done.any():
                    wins += int(done.sum())
                    lost += int((spec.delver_hp - dhp[done]).sum())
                    rounds += int(done.sum()) * (r + 1)
            else:
                done = np.zeros(dhp.size, dtype=bool)
                if _monster_acts(start, r):
                    for j in range(k):
                        dmg = mtab[dice.indices(dhp.size)] * ((tgt <= j) & (dhp > 0))
                        dhp -= dmg
                    done = dhp <= 0
                    if done.any():
                        deaths += int(done.sum())
                        lost += spec.delver_hp * int(done.sum())
                        rounds += int(done.sum()) * (r + 1)
                if spec.regenerate:
                    hp = np.where(hp > 0, np.minimum(hp + spec.regenerate, full), hp)
            if done.any():
                keep = ~done
                hp, dhp, tgt = hp[keep], dhp[keep], tgt[keep]
                if dhp.size == 0:
                    return wins / fights, deaths / fights, lost / fights, rounds / fights
    lost += int((spec.delver_hp - dhp).sum())
    rounds += int(dhp.size) * spec.max_rounds
    return wins / fights, deaths / fights, lost / fights, rounds / fights


MONSTERS = ["gaoler", "sump_leeches", "ossuary_knot"]


def specs_of(
    content: Content, monster: str, count: int, hps: tuple[int, ...], ruleset: str = "undercroft"
) -> tuple[FightSpec, ...]:
    return tuple(matchup_spec(content, monster, count=count, hp=h, ruleset=ruleset) for h in hps)


def party_cases(content: Content) -> list[PartyStart]:
    rng = np.random.default_rng(11)
    out = []
    for monster in MONSTERS:
        for members in (1, 2, 3, 4):
            for count in (1, 2, 3, 5):
                base = matchup_spec(content, monster, count=count)
                specs = specs_of(
                    content, monster, count, tuple(int(rng.integers(1, base.delver_hp + 1)) for _ in range(members))
                )
                hps = tuple(int(rng.integers(0, base.monster_hp + 1)) for _ in range(count))
                if not any(hps):
                    hps = (base.monster_hp, *hps[1:])
                for how in ("lowest_hp", "first", "random"):
                    delver_next = bool(rng.integers(0, 2))
                    out.append(
                        PartyStart(specs, hps, delver_next, int(rng.integers(0, 3)), bool(rng.integers(0, 2)), how)
                    )
    return out


def test_the_party_simulation_gives_the_reference_numbers(content: Content) -> None:
    cases = party_cases(content)
    assert len({c.targeting for c in cases}) == 3
    for start in cases:
        seed = stream_seed(start)
        assert simulate_party(start, 600, seed) == reference_party(start, 600, seed), start


def test_the_party_simulation_with_regeneration_gives_the_reference_numbers(content: Content) -> None:
    spec = matchup_spec(content, "gaoler", count=3)
    regen = dataclasses.replace(spec, regenerate=2, monster_hp=max(spec.monster_hp, 6))
    start = PartyStart((regen, regen), (1, regen.monster_hp, 3), True, 0, False, "lowest_hp")
    assert simulate_party(start, 4000, 5) == reference_party(start, 4000, 5)


def test_simulated_fights_in_progress_give_the_reference_numbers(content: Content) -> None:
    rng = np.random.default_rng(5)
    for monster in MONSTERS:
        for count in (2, 3, 5):
            spec = matchup_spec(content, monster, count=count)
            spec = dataclasses.replace(spec, delver_hp=int(rng.integers(1, spec.delver_max_hp + 1)))
            for regen in (0, 1):
                s = dataclasses.replace(spec, regenerate=regen)
                hps = tuple(sorted(int(rng.integers(1, s.monster_hp + 1)) for _ in range(count)))
                start = Start(s, hps, bool(rng.integers(0, 2)), int(rng.integers(0, 3)), bool(rng.integers(0, 2)))
                seed = stream_seed(start)
                assert simulate_from(start, 2000, seed) == reference_from(start, 2000, seed), start
