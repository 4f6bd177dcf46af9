"""The thorough player (``undercroft autoplay --policy thorough``): every floor explored, every fight it is sure of
fought, whole before it moves on: the player who grinds, against whom growth must hold (it may not outgrow the
second half).

It is the careful bot (:class:`~undercroft.bot.policy.Bot`) but for three things:

* **exploring**: it explores every floor fully before it goes down, the last one too (the careful bot goes down
  as soon as it sees the stairs with :data:`~undercroft.bot.planning.STOCKED` potions, and makes for the way out
  on the last floor once it is seen): the stairs are a goal only once no floor seen lies beside the unseen, or
  after :data:`LEVEL_MOVES` steps on the floor (against the careful bot's
  :data:`~undercroft.bot.planning.MAX_LEVEL_MOVES`);
* **a meeting**: it fights whatever the panel gives a win of :data:`SURE` or more (for the renown and the
  treasure), where the careful bot may talk, bribe or run (but a group whose agreement pays, a peddler's pack, it
  talks to as the careful bot does); below that, the careful bot's choice;
* **resting**: whenever anyone is hurt and nothing is in sight it rests to full hit points (the careful bot rests
  below :data:`~undercroft.bot.policy.REST_UNTIL` and on the stairs at most
  :data:`~undercroft.bot.policy.MAX_REST_BEFORE` turns), at most :data:`MAX_RESTS` turns on a floor.
"""

from __future__ import annotations

from undercroft.bot.meeting import pays
from undercroft.bot.planning import Walker
from undercroft.bot.policy import Bot
from undercroft.rules.actions import Action, Fight, Rest
from undercroft.rules.game import Game
from undercroft.rules.rng import Stream, parse_seed
from undercroft.rules.state import Group

SURE = 0.9  # fight a group whose shown win is at least this
LEVEL_MOVES = 2500  # steps on a floor after which it stops exploring it (an unreachable corner is not worth more)
MAX_RESTS = 400  # turns of rest on one floor, at most (a floor whose wanderers keep coming is left)


class ThoroughWalker(Walker):
    """The careful bot's walks, but the stairs are no goal while there is floor to explore (nor the way out on the
    last level)."""

    def goal_bits(self) -> list[tuple[str, int]]:
        goals = super().goal_bits()
        if not any(kind == "explore" for kind, _ in goals):
            return goals
        first = next(i for i, (kind, _) in enumerate(goals) if kind in ("stairs", "explore"))
        return [g for i, g in enumerate(goals) if not (i == first and g[0] == "stairs")]


class Thorough(Bot):
    """The thorough player (see the module docstring)."""

    name = "thorough"

    def __init__(self, game: Game, seed: int | str) -> None:
        super().__init__(game, seed)
        self.walk = ThoroughWalker(game, Stream(parse_seed(seed), "bot"), LEVEL_MOVES)  # (the careful one unused)
        self._rests = 0  # turns rested on this floor

    def _new_level(self) -> None:
        super()._new_level()
        self._rests = 0

    def _explore(self) -> list[Action]:
        game = self.game
        st = game.state
        whole = self._hurt(1.0 - 1e-9) is None
        if whole or st.fled or game.tired() or not game.rules.time.rest_heal or self._groups_here():
            return super()._explore()
        if self._rests >= MAX_RESTS:
            return super()._explore()
        self._rests += 1
        return [*self._kit(), Rest()]

    def _meet(self, g: Group, win: float) -> list[Action]:
        if win >= SURE and not g.peaceful and not pays(self.game, g):  # (a peddler's pack is worth more alive)
            return [Fight()]
        return super()._meet(g, win)
