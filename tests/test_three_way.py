"""One set of rules, three ways to compute them: the vectorized simulator, the scalar rules engine and (one against
one) the exact calculator must agree on every matchup here, within statistical bounds.

The vectorized simulator and the exact calculator read a FightSpec built from the data; the scalar engine reads
the same data through :class:`undercroft.rules.game.Game`. If the rules change in one place only, this fails.
"""

from __future__ import annotations

import math
import shutil
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
import yaml

from undercroft.content import Content, load_content
from undercroft.paths import data_dir
from undercroft.sim import FightSpec, exact, simulate
from undercroft.sim.odds import matchup_spec
from undercroft.sim.scalar import ScalarResult, run_scalar
from undercroft.sim.vector import Z95, SimResult

VECTOR_FIGHTS = 200_000
SCALAR_FIGHTS = 3_000
SIGMAS = 4.0


def content_with(tmp: Path, monster: str, **changes: Any) -> Content:
    """The shipped data with some fields of one monster changed (a private copy)."""
    d = tmp / "data"
    shutil.copytree(data_dir(), d)
    path = d / "monsters.yaml"
    monsters = yaml.safe_load(path.read_text(encoding="utf-8"))
    monsters[monster].update(changes)
    path.write_text(yaml.safe_dump(monsters, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return load_content(d)


@dataclass
class Three:
    """One matchup computed three ways."""

    spec: FightSpec
    vector: SimResult
    scalar: ScalarResult
    exact: Any  # ExactResult, or None for a group


def three_ways(
    content: Content,
    monster: str,
    *,
    count: int = 1,
    hp: int | None = None,
    exhausted: bool = False,
    ruleset: str = "undercroft",
    seed: int = 7,
) -> Three:
    spec = matchup_spec(content, monster, count=count, hp=hp, exhausted=exhausted, ruleset=ruleset)
    vector = simulate(spec, VECTOR_FIGHTS, seed)
    scalar = run_scalar(content, monster, SCALAR_FIGHTS, seed, count=count, hp=hp, exhausted=exhausted, ruleset=ruleset)
    ex = exact(spec, groups=True) if count <= 3 else None
    return Three(spec, vector, scalar, ex)


def _se_mean(ci: tuple[float, float]) -> float:
    return (ci[1] - ci[0]) / (2 * Z95)


def disagreements(t: Three, sigmas: float = SIGMAS) -> list[str]:
    """Every quantity on which two of the three ways differ by more than ``sigmas`` standard errors."""
    out: list[str] = []
    v, s, e = t.vector, t.scalar, t.exact
    nv, ns = v.fights, s.fights
    quantities: list[tuple[str, float, float, float, float, float | None]] = []
    for name, pv, ps in (("win", v.win, s.win), ("death", v.death, s.death)):
        pe = getattr(e, name) if e is not None else None
        p = pe if pe is not None else (pv * nv + ps * ns) / (nv + ns)
        sev = math.sqrt(max(p * (1 - p), 1e-12) / nv)
        ses = math.sqrt(max(p * (1 - p), 1e-12) / ns)
        quantities.append((name, pv, sev, ps, ses, pe))
    quantities.append(
        (
            "rounds_mean",
            v.rounds_mean,
            _se_mean(v.rounds_mean_ci),
            s.rounds_mean,
            s.standard_error("rounds"),
            e.rounds_mean if e is not None else None,
        )
    )
    quantities.append(
        (
            "hp_lost_mean",
            v.hp_lost_mean,
            _se_mean(v.hp_lost_mean_ci),
            s.hp_lost_mean,
            s.standard_error("hp_lost"),
            e.hp_lost_mean if e is not None else None,
        )
    )
    for name, xv, sev, xs, ses, xe in quantities:
        slack = 1e-9
        if abs(xv - xs) > sigmas * math.hypot(sev, ses) + slack:
            out.append(f"{name}: vector {xv:.4f} vs scalar {xs:.4f} (se {sev:.4f}, {ses:.4f})")
        if xe is not None:
            if abs(xv - xe) > sigmas * sev + slack:
                out.append(f"{name}: vector {xv:.4f} vs exact {xe:.4f} (se {sev:.4f})")
            if abs(xs - xe) > sigmas * ses + slack:
                out.append(f"{name}: scalar {xs:.4f} vs exact {xe:.4f} (se {ses:.4f})")
    return out


def summary(t: Three) -> str:
    e = t.exact
    ex = f"exact win {e.win:.4f} rounds {e.rounds_mean:.3f} hp {e.hp_lost_mean:.3f}; " if e is not None else ""
    return (
        f"{t.spec.monster_id} x{t.spec.count} (hp {t.spec.delver_hp}, exhausted {t.spec.exhausted}): {ex}"
        f"vector win {t.vector.win:.4f} rounds {t.vector.rounds_mean:.3f} hp {t.vector.hp_lost_mean:.3f}; "
        f"scalar win {t.scalar.win:.4f} rounds {t.scalar.rounds_mean:.3f} hp {t.scalar.hp_lost_mean:.3f}"
    )


MATCHUPS: list[tuple[str, dict[str, Any]]] = [
    ("gaoler", {}),  # the monster acts first (agility), even odds
    ("empty_harness", {}),  # the delver acts first
    ("the_unlit", {}),  # nearly always a death
    ("ossuary_knot", {}),  # regenerates at the end of the monsters' turn
    ("wick_trimmer", {}),  # acts every second turn
    ("the_patient_one", {}),  # holds its ground: the party always acts first
    ("gaoler", {"exhausted": True}),  # exhausted: -2 to hit, -2 damage, the foe +2
    ("empty_harness", {"hp": 4}),  # a wounded delver
    ("sump_leeches", {"count": 3}),  # a group: three pools of hit points
    ("ossuary_knot", {"count": 2, "exhausted": True}),  # a regenerating group, against an exhausted delver
]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("monster", "kw"), MATCHUPS, ids=[f"{m}-{'-'.join(map(str, kw.values()))}" for m, kw in MATCHUPS]
)
def test_three_ways_agree(content: Content, monster: str, kw: dict[str, Any]) -> None:
    t = three_ways(content, monster, **kw)
    assert t.vector.stalemate == 0.0 and t.scalar.share("stalemate") == 0.0
    bad = disagreements(t)
    assert not bad, summary(t) + "\n" + "\n".join(bad)


@pytest.mark.slow
def test_only_a_natural_20_kills(content: Content, tmp_path: Path) -> None:
    """Defense 40: the delver (1d20 + 3) hits only on a natural 20, for double damage, which kills outright."""
    custom = content_with(tmp_path, "empty_harness", hp=12, defense=40)
    spec = matchup_spec(custom, "empty_harness")
    hits = [o for o in spec.delver_outcomes() if o.hit]
    assert [o.face for o in hits] == [spec.critical] and hits[0].damage >= spec.monster_hp
    t = three_ways(custom, "empty_harness")
    bad = disagreements(t)
    assert not bad, summary(t) + "\n" + "\n".join(bad)
    assert 0.05 < t.exact.win < 0.95  # both outcomes are common
    kills = [face for fight in t.scalar.natural_kills for face in fight]
    assert kills and set(kills) == {20}  # the engine's killing blows were all natural 20s
    assert len(kills) == t.scalar.outcomes.count("win")


@pytest.mark.slow
def test_exhaustion_only_where_the_ruleset_tires(content: Content) -> None:
    """The warden rules have no fatigue: an exhausted delver fights as a fresh one, in all three ways."""
    assert not content.ruleset("warden").procedures.fatigue
    tired = matchup_spec(content, "gaoler", exhausted=True, ruleset="warden")
    assert tired == matchup_spec(content, "gaoler", ruleset="warden")
    scalar = run_scalar(content, "gaoler", SCALAR_FIGHTS, 3, exhausted=True, ruleset="warden")
    fresh = exact(tired)
    assert abs(scalar.win - fresh.win) <= SIGMAS * math.sqrt(fresh.win * (1 - fresh.win) / SCALAR_FIGHTS)


@pytest.mark.slow
def test_the_check_has_power(content: Content) -> None:
    """A spec with one rule wrong (the delver acting first against the faster gaoler) is caught."""
    t = three_ways(content, "gaoler")
    wrong = replace(t.spec, monster_agility=t.spec.delver_agility)  # ties go to the party: it now strikes first
    assert wrong.delver_first and not t.spec.delver_first
    flipped = Three(wrong, simulate(wrong, VECTOR_FIGHTS, 7), t.scalar, exact(wrong))
    assert disagreements(flipped), "a wrong initiative rule went unnoticed"
