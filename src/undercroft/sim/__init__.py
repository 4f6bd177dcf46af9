"""The odds, computed from the real rules: for the screens, the recap and the bots alike.

:mod:`~undercroft.sim.spec` turns the data into the fight the simulators compute; :mod:`~undercroft.sim.vector`
simulates many fights at once (numpy), :mod:`~undercroft.sim.exact` and :mod:`~undercroft.sim.partytable` count
them exactly, :mod:`~undercroft.sim.scalar` plays them through the engine step by step (the slow reference the
others are checked against). :mod:`~undercroft.sim.odds` is the one entry point for the fight in front of the
party (:func:`~undercroft.sim.odds.fight_odds`); :mod:`~undercroft.sim.first` a lone character's potion or oil
first; :mod:`~undercroft.sim.chances` the other ways out (talk, bribe, run, a chase's drops), with
:mod:`~undercroft.sim.chase` playing a run out on the map.
"""

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
