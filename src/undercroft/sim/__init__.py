"""Combat simulation: the fight spec, a vectorized Monte Carlo simulator and an exact calculator."""

from undercroft.sim.exact import ExactResult, exact
from undercroft.sim.spec import MAX_ROUNDS, FightSpec, Outcome, spec_from_content
from undercroft.sim.vector import DieRoller, SimResult, simulate

__all__ = [
    "MAX_ROUNDS",
    "DieRoller",
    "ExactResult",
    "FightSpec",
    "Outcome",
    "SimResult",
    "exact",
    "simulate",
    "spec_from_content",
]
