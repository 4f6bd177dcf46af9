"""``undercroft bench`` metrics of the combat simulator (docs/PERFORMANCE.md).

Both time the same matchup: the undercroft delver at full health against one gaoler (about 3.7 rounds a fight,
about even odds), or the data's first monster when ``--data`` has no gaoler. numpy runs the simulator on one
core (it makes no multi-threaded calls), so the rate is a one-core rate.
"""

from __future__ import annotations

import argparse

from undercroft.content import Content
from undercroft.sim.spec import FightSpec
from undercroft.tools.bench.core import load_data, median_time, metric

VECTOR_FIGHTS = 1_000_000
SCALAR_FIGHTS = 2_000
SEED = 1
MONSTER = "gaoler"


def _matchup(args: argparse.Namespace) -> tuple[Content, str, FightSpec]:
    from undercroft.sim.odds import matchup_spec

    content = load_data(args)
    monster = MONSTER if MONSTER in content.monsters else next(iter(content.monsters))
    return content, monster, matchup_spec(content, monster)


def _vector_rate(spec: FightSpec) -> float:
    from undercroft.sim import simulate

    simulate(spec, 10_000, SEED)  # warm up
    return VECTOR_FIGHTS / median_time(lambda: simulate(spec, VECTOR_FIGHTS, SEED), repeat=5)


@metric("sim_fights_per_s", "fights/s")
def sim_fights_per_s(args: argparse.Namespace) -> float:
    """Fights per second of the vectorized simulator, 1 v 1 (delver vs gaoler): 1,000,000 fights per run (ten
    chunks of 100,000), median of 5 runs after a warm-up."""
    _, _, spec = _matchup(args)
    return _vector_rate(spec)


@metric("sim_speedup_vs_scalar", "x")
def sim_speedup_vs_scalar(args: argparse.Namespace) -> float:
    """The vectorized rate (as ``sim_fights_per_s``) divided by the rate of the same fights played through the
    rules engine (``undercroft.sim.scalar.run_scalar``: ``Game.step`` with ``fight`` and ``attack`` actions):
    2,000 fights per run, median of 3."""
    from undercroft.sim.scalar import run_scalar

    content, monster, spec = _matchup(args)
    vector = _vector_rate(spec)
    run_scalar(content, monster, 100, SEED)  # warm up

    def scalar_run() -> None:
        run_scalar(content, monster, SCALAR_FIGHTS, SEED)

    t = median_time(scalar_run, repeat=3)
    return vector / (SCALAR_FIGHTS / t)
