"""Exact outcome probabilities of a fight, by dynamic programming over its Markov chain.

The state at the start of a round is (target index, delver hp, target hp); the round number fixes everything
else (the monsters' turn counter is the round index, so their acts_every phase needs no state). The probability
distribution over live states is pushed forward one turn at a time, exactly as :mod:`undercroft.sim.spec`
states the rules, for ``max_rounds`` rounds; mass that reaches an end (every monster dead, the delver dead) is
tallied by round, so the stalemate cap is modelled exactly and regeneration's cycles need no linear solve.

Probabilities are float64. The forward pass stops early once the live mass falls below ``tolerance``
(``truncated`` reports how much was dropped; every probability is then exact to within that, every mean to
within ``truncated * max_rounds`` times its largest value).

:func:`exact` computes one-against-one fights; ``groups=True`` lets it compute a group (K > 1) too.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from undercroft.sim.spec import FightSpec, by_swing

Grid = NDArray[np.float64]
TOLERANCE = 1e-16


@dataclass(frozen=True)
class ExactResult:
    """Exact fractions and means of a fight (rounds counts the rounds begun)."""

    win: float
    death: float
    stalemate: float
    rounds_mean: float
    rounds_p90: int
    hp_lost_mean: float
    monster_hits_mean: float
    delver_swings_mean: float
    rounds_pmf: tuple[float, ...]  # rounds_pmf[r] = P(the fight lasts r rounds), r = 0..max_rounds
    truncated: float  # live probability mass dropped by the early stop

    def as_dict(self) -> dict[str, Any]:
        pmf = list(self.rounds_pmf)
        while pmf and pmf[-1] == 0.0:
            pmf.pop()
        return {
            "win": self.win,
            "death": self.death,
            "stalemate": self.stalemate,
            "rounds_mean": self.rounds_mean,
            "rounds_p90": self.rounds_p90,
            "hp_lost_mean": self.hp_lost_mean,
            "monster_hits_mean": self.monster_hits_mean,
            "delver_swings_mean": self.delver_swings_mean,
            "rounds_pmf": pmf,
            "truncated": self.truncated,
        }


Outcomes = tuple[Mapping[int, float], Mapping[tuple[int, bool], float]]
_outcomes_known: dict[tuple[int | bool, ...], Outcomes] = {}  # (outcome_probabilities, by spec.by_swing)


def outcome_probabilities(spec: FightSpec) -> Outcomes:
    """The probability of each distinct outcome of one swing: the delver's by damage dealt, a monster's by (damage,
    hit). Faces are counted per outcome first, so a sure thing has probability exactly 1.

    Remembered by the numbers a swing depends on (:attr:`FightSpec.swing_key`: not the hit points, which change as a
    fight goes on): the odds ask it for each state of a fight. The mappings are shared: read them only."""
    return by_swing(_outcomes_known, spec, _outcome_probabilities)


def _outcome_probabilities(spec: FightSpec) -> Outcomes:
    d_faces: dict[int, int] = defaultdict(int)
    for o in spec.delver_outcomes():
        d_faces[o.damage] += 1
    m_faces: dict[tuple[int, bool], int] = defaultdict(int)
    for o in spec.monster_outcomes():
        m_faces[(o.damage, o.hit)] += 1
    return (
        {dmg: n / spec.attack_die for dmg, n in d_faces.items()},
        {key: n / spec.attack_die for key, n in m_faces.items()},
    )


def delver_turn(p: Grid, outcomes: Mapping[int, float], full: int) -> tuple[Grid, NDArray[np.float64]]:
    """The delver strikes the target; returns the live grid and the won mass by delver hp index."""
    _, d, m = p.shape
    new = np.zeros_like(p)
    won = np.zeros(d)
    for dmg, prob in outcomes.items():
        if dmg <= 0:
            new += prob * p
            continue
        if dmg < m:
            new[:, :, : m - dmg] += prob * p[:, :, dmg:]
        killed = prob * p[:, :, : min(dmg, m)].sum(axis=2)  # (k, d)
        new[1:, :, full - 1] += killed[:-1]  # the next monster becomes the target, at full hp
        won += killed[-1]
    return new, won


def monster_attack(p: Grid, outcomes: Mapping[tuple[int, bool], float]) -> tuple[Grid, float, float]:
    """One monster attack on every state of ``p``; returns the live grid, the dead mass and the expected hits."""
    d = p.shape[1]
    mass = float(p.sum())
    new = np.zeros_like(p)
    dead = 0.0
    hits = 0.0
    for (dmg, hit), prob in outcomes.items():
        if hit:
            hits += prob * mass
        if dmg <= 0:
            new += prob * p
            continue
        if dmg < d:
            new[:, : d - dmg, :] += prob * p[:, dmg:, :]
        dead += prob * float(p[:, : min(dmg, d), :].sum())
    return new, dead, hits


def regenerate(p: Grid, regen: int) -> Grid:
    """Every live target regains ``regen`` hp, capped at full (index m - 1)."""
    m = p.shape[2]
    new = np.zeros_like(p)
    if regen < m - 1:
        new[:, :, regen : m - 1] = p[:, :, : m - 1 - regen]
    new[:, :, m - 1] = p[:, :, max(0, m - 1 - regen) :].sum(axis=2)
    return new


def exact(spec: FightSpec, *, groups: bool = False, tolerance: float = TOLERANCE) -> ExactResult:
    """The exact outcome of ``spec``. Only one monster unless ``groups`` (then any count, slower)."""
    if spec.count != 1 and not groups:
        raise ValueError(f"the exact calculator is for one monster, this fight has {spec.count}")
    k, d_full, m_full = spec.count, spec.delver_hp, spec.monster_hp
    d_out, m_out = outcome_probabilities(spec)
    lost_if_alive = (d_full - np.arange(1, d_full + 1)).astype(np.float64)  # hp lost at delver hp index

    p = np.zeros((k, d_full, m_full))
    p[0, d_full - 1, m_full - 1] = 1.0
    pmf = np.zeros(spec.max_rounds + 1)
    win = death = hp_lost = hits = swings = 0.0
    truncated = 0.0
    order = ("delver", "monsters") if spec.delver_first else ("monsters", "delver")
    for r in range(spec.max_rounds):
        for side in order:
            if side == "delver":
                swings += float(p.sum())
                p, won = delver_turn(p, d_out, m_full)
                w = float(won.sum())
                win += w
                hp_lost += float(won @ lost_if_alive)
                pmf[r + 1] += w
            else:
                if spec.monster_acts(r):
                    for j in range(k):  # monster j lives in the layers whose target index is <= j
                        sub, dead, h = monster_attack(p[: j + 1], m_out)
                        p[: j + 1] = sub
                        death += dead
                        hits += h
                        hp_lost += dead * d_full
                        pmf[r + 1] += dead
                if spec.regenerate:
                    p = regenerate(p, spec.regenerate)
        live = float(p.sum())
        if live < tolerance and r + 1 < spec.max_rounds:
            truncated = live
            p[:] = 0.0
            break
    stalemate = float(p.sum())
    pmf[spec.max_rounds] += stalemate
    hp_lost += float(p.sum(axis=(0, 2)) @ lost_if_alive)
    rounds = np.arange(spec.max_rounds + 1)
    cdf = np.cumsum(pmf)
    p90 = int(np.searchsorted(cdf, 0.9 - 1e-12, side="left"))
    return ExactResult(
        win=win,
        death=death,
        stalemate=stalemate,
        rounds_mean=float(rounds @ pmf),
        rounds_p90=min(p90, spec.max_rounds),
        hp_lost_mean=hp_lost,
        monster_hits_mean=hits,
        delver_swings_mean=swings,
        rounds_pmf=tuple(float(x) for x in pmf),
        truncated=truncated,
    )
