"""The greedy player (``undercroft autoplay --policy greedy``): the top number at every meeting, nothing else changed.

It is the careful bot (:class:`~undercroft.bot.policy.Bot`) in everything but its judgment at a meeting: it walks,
rests, shops and drinks as the careful bot does, so that the careful bot against it measures judgment, not
shopping (the balance target: the careful bot wins at least 1.3 times its rate, :data:`undercroft.tools.balance`):

* **a meeting, a fight**: of the chances the panel shows (the fight's win, :func:`~undercroft.bot.meeting.fight_win`;
  getting away, :func:`~undercroft.sim.chances.escape_chance`; talk, :func:`~undercroft.sim.chances.talk_chance`;
  a bribe, the best chance the gold buys, :func:`~undercroft.sim.chances.best_bribe`), it takes the highest (ties:
  talk, fight, bribe, run), with nothing for what comes after (not what a failed talk, bribe or run leaves, nor
  where a group it got away from waits); it runs back the way it came (``Run()``), and after
  :data:`~undercroft.bot.policy.MAX_FLEES` runs from one group it fights it, after :data:`LEVEL_RUNS` runs on one
  level it runs no more there (a game of 165 runs on one floor, each back the way it came, once timed out). A
  group at peace, holding its ground or passive it walks past when it can; it never gives chase;
* **a chase**: the distraction whose shown chance is highest, if it carries it, else it runs (it turns to fight
  only when too tired to run);
* **potions and the shop**: the careful bot's: it drinks when hurt as the careful bot does (before a meeting at
  half its hit points, in a fight at :data:`~undercroft.bot.policy.LOW`, before a hard fight it has chosen at
  :data:`~undercroft.bot.policy.READY`), and buys what the careful bot buys.
"""

from __future__ import annotations

from undercroft.bot.meeting import Met, best, fight_win
from undercroft.bot.planning import count
from undercroft.bot.policy import FIGHT_ODDS, MAX_FLEES, READY, Bot, spares_a_drink
from undercroft.rules import formulas
from undercroft.rules.actions import (
    Action,
    Attack,
    Bribe,
    Drink,
    DropFood,
    DropTreasure,
    Fight,
    Move,
    Run,
    Talk,
    ThrowOil,
    Wait,
)
from undercroft.rules.state import Group
from undercroft.rules.types import Behaviour, Side
from undercroft.sim import chances

LEVEL_RUNS = 40  # runs on one level, after which it stops running (a player who has run this often stands)


class Greedy(Bot):
    """The greedy player (see the module docstring)."""

    name = "greedy"
    level_runs = 0  # runs on this level (:data:`LEVEL_RUNS`)

    def _should_pursue(self, gid: int) -> bool:
        return False

    def _new_level(self) -> None:
        super()._new_level()
        self.level_runs = 0

    def _flee(self, g: Group) -> None:
        super()._flee(g)
        self.level_runs += 1

    def _drink(self, frac: float | None = None) -> list[Action]:
        """The careful bot's drink: the most hurt at or below ``frac`` of max HP (its ``hurt`` when not given)."""
        low = self._hurt(self.hurt if frac is None else frac)
        return [] if low is None or count(self.game, "potion") == 0 else [Drink(low)]

    def shown(self, g: Group, win: float) -> dict[str, float]:
        """The chance of each way the panel shows and the engine would take now."""
        game = self.game
        out = {"fight": win}
        fled = self.met.setdefault(g.id, Met()).fled
        if game.legal(Run()) and fled < MAX_FLEES and self.level_runs < LEVEL_RUNS:
            out["run"] = chances.escape_chance(game, g)
        if game.legal(Talk()):
            out["talk"] = chances.talk_chance(game, g)
        bribe = chances.best_bribe(game, g)  # the Bribe choice's own label: the best chance the gold buys
        if bribe is not None:
            out["bribe"] = bribe[1]
        return out

    def _take(self, g: Group, way: str) -> list[Action]:
        if way == "talk":
            return [Talk(), Fight()]
        if way == "bribe":
            bribe = chances.best_bribe(self.game, g)
            return [Fight()] if bribe is None else [Bribe(bribe[0]), Fight()]
        if way == "run":
            self._flee(g)
            return [Run(), Fight()]
        return [Fight()]

    # --- a meeting, a fight --------------------------------------------------------------------------------------

    def _meet(self, g: Group, win: float) -> list[Action]:
        mon = self.game.monster_of(g)
        out = self._drink() if spares_a_drink(self.game, g) else []
        quiet = g.peaceful or Behaviour.HOLDS_GROUND in mon.behaviours or Behaviour.PASSIVE in mon.behaviours
        if quiet and win < 0.9:
            step = self.walk.next_step()
            if step is not None and self.walk.kind != "reengage":
                pos = self.game.state.pos
                out.append(Move(step[0] - pos[0], step[1] - pos[1]))  # walk on past it
        way = best(self.shown(g, win))
        if way == "fight" and win < FIGHT_ODDS and not out:
            out = self._drink(READY)  # a hard fight chosen: drink first, as the careful bot does
        return out + self._take(g, way)

    def _combat(self) -> list[Action]:
        g = self.game.state.front_group()
        if g is None:
            return []
        way = best(self.shown(g, fight_win(self.game)))
        out = self._drink(self.low)
        if way == "run":
            self._flee(g)
            out.append(Run())
        return [*out, Attack(self._weakest())]

    # --- a chase -------------------------------------------------------------------------------------------------

    def _pursuit(self) -> list[Action]:
        game = self.game
        st = game.state
        g = st.front_group()
        if g is None:
            return []
        p = st.pursuit
        if p is not None and p.chaser == Side.PARTY:
            return [Wait()]  # it lets a group that goes its way go
        mon = game.monster_of(g)
        d = game.content.tables.distractions
        submerged = Behaviour.SUBMERGED in mon.behaviours
        drops: list[tuple[float, Action]] = []
        if count(game, "food") > 0 and formulas.distracted_by("food", mon.intelligent, submerged):
            drops.append((d.food, DropFood()))
        if (st.gold > 0 or count(game, "treasure") > 0) and formulas.distracted_by(
            "treasure", mon.intelligent, submerged
        ):
            drops.append((d.treasure, DropTreasure()))
        if mon.self_preservation and count(game, "oil") > 0:
            drops.append((d.oil_stops, ThrowOil()))
        out = self._drink()
        if drops:
            out.append(max(drops, key=lambda c: c[0])[1])
        if game.tired():
            out.append(Fight())
        return [*out, Run()]
