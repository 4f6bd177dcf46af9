"""The novice (``undercroft autoplay --policy novice``): the stand-in for a person's first games.

It reads the same screens as the careful bot (:class:`~undercroft.bot.policy.Bot`: the fight odds the panels show,
:func:`undercroft.sim.odds.fight_odds`; the panel's choices, ``Game.legal``) but plays as a first-time player:

* **a meeting**: it fights when the odds shown are at least even (:data:`EVEN`), otherwise talks if it can, else
  runs (back the way it came, ``Run()``); after running :data:`~undercroft.bot.policy.MAX_FLEES` times from one
  group it fights it. A group at peace, holding its ground, passive or in a friendly mood it walks past (for
  :data:`PASS_TRIES` decisions; then it meets it as any other). It never drops food or treasure, never bribes,
  never burns oil, never gives chase;
* **a fight**: it strikes the weakest creature to the end, drinking only below a quarter of its hit points;
* **a chase**: it runs (it turns to fight only when too tired to run);
* **exploring**: the ``x`` key's auto-explore (:func:`undercroft.travel.explore_target`, walked by
  :func:`undercroft.travel.step_toward`: the nearest place left to explore, items seen included), drinking only
  below a quarter of its hit points and resting off exhaustion and wounds where nothing is in sight (the ``R``
  key); when nothing is left to explore, the stairs;
* **the shop**: healing potions only.

Everything else (the stop rules, the walker's door to run through when a meeting goes nowhere) is the careful
bot's.
"""

from __future__ import annotations

from undercroft import travel
from undercroft.bot import kit
from undercroft.bot.planning import Point, count
from undercroft.bot.policy import MAX_FLEES, REST_UNTIL, SHOP_POTIONS, Bot
from undercroft.rules.actions import Action, Attack, Buy, Descend, Fight, LeaveShop, Rest, Run, Talk, Wait
from undercroft.rules.state import Group
from undercroft.rules.types import Behaviour, Side

EVEN = 0.5  # fight when the odds shown are at least this
PASS_TRIES = 20  # decisions spent walking past a quiet group before it deals with it as with any other
DITHER = 6  # steps in a row back onto a tile of its trail before it walks on boldly (into what waits)
TRAIL = 8  # the steps of its trail
NOVICE_HURT = 0.25  # drink (in a fight or out of it) only below this fraction of max HP


class Novice(Bot):
    """A first-time player (see the module docstring): the careful bot with other thresholds and plainer choices."""

    name = "novice"
    hurt = NOVICE_HURT
    low = NOVICE_HURT
    _target: Point | None = None  # the place auto-explore walks to
    _trail: tuple[Point, ...] = ()  # where it stood the last TRAIL steps, the latest first
    _dither = 0  # steps in a row back onto a tile of the trail (a walk torn between two ways)
    _bold = False  # walking on boldly (after dithering), until the next meeting or level

    # --- explore: the x key ---------------------------------------------------------------------------------

    def _x_step(self) -> Action | None:
        """The next step of auto-explore (wary, as the ``x`` key walks; bolder when nothing is left that way, as a
        player then walks past what waits; a place aimed at is kept while it is still one to explore), else of the
        walk to the stairs; ``Descend`` on them; None: nowhere. After
        :data:`~undercroft.bot.planning.MAX_LEVEL_MOVES` steps on a level, the stairs once seen and a way to them
        known (else boldly on)."""
        g = self.game
        stairs = travel.stairs(g)
        late = self.walk.level_moves >= self.walk.max_level_moves
        target = self._target
        if target is not None and not travel.targets(g)[target[1], target[0]]:
            target = None
        if late and stairs is not None and (stairs == g.state.pos or travel.step_toward(g, stairs, travel.RECKLESS)):
            target = None  # (stairs seen from afar, the way to them not yet: explore on, or it waits for ever)
        elif target is None:
            for caution in (travel.RECKLESS,) if late else (travel.WARY, travel.RECKLESS):
                target = travel.explore_target(g, None, caution)
                if target is not None:
                    break
        self._target = target
        goal = target if target is not None else stairs
        if goal is None:
            return None
        if goal == g.state.pos:
            return Descend()
        pos = g.state.pos
        self._dither = self._dither + 1 if pos in self._trail[1:] else 0
        self._trail = (pos, *self._trail[: TRAIL - 1])
        self._bold = self._bold or self._dither >= DITHER
        step = travel.step_toward(g, goal, travel.RECKLESS if self._bold else travel.WARY)
        if step is None:
            self._target = None  # (no known way there now: choose again next time)
        else:
            self.walk.level_moves += 1
        return step

    def _explore(self) -> list[Action]:
        g = self.game
        out = self._drink()
        if g.tired():
            out.append(Rest())
        if g.rules.time.rest_heal and self._hurt(REST_UNTIL) is not None and not self._groups_here():
            out.append(Rest())
        step = self._x_step()
        if step is None:
            self.stuck += 1
            out.append(Rest())
        else:
            self.stuck = 0
            out.append(step)
        return out

    def _new_level(self) -> None:
        super()._new_level()
        self._target = None
        self._bold = False

    # --- the shop -------------------------------------------------------------------------------------------

    def _shop(self) -> list[Action]:
        out: list[Action] = []
        potion = kit.cheapest_healing(self.game) if count(self.game, "potion") < SHOP_POTIONS else None
        if potion is not None:
            out.append(Buy(potion))
        out.append(LeaveShop())
        return out

    # --- a meeting --------------------------------------------------------------------------------------------

    def _meet(self, g: Group, win: float) -> list[Action]:
        game = self.game
        mon = game.monster_of(g)
        out = self._drink()
        self._bold = False
        quiet = (
            g.peaceful
            or g.reaction_result in ("peaceful", "friendly")
            or Behaviour.HOLDS_GROUND in mon.behaviours
            or Behaviour.PASSIVE in mon.behaviours
        )
        if quiet and self.met[g.id].long < PASS_TRIES:
            step = self._x_step()
            if step is not None and not isinstance(step, Descend):
                out.append(step)
        return out + self._choose_a_way(g, win)

    def _choose_a_way(self, g: Group, win: float) -> list[Action]:
        met = self.met[g.id]
        if win >= EVEN or met.fled >= MAX_FLEES or g.peaceful:
            return [Fight()]
        out: list[Action] = []
        if not g.negotiated:
            out.append(Talk())
        self._flee(g)
        return [*out, Run(), Fight()]

    # --- a fight, a chase ---------------------------------------------------------------------------------------

    def _combat(self) -> list[Action]:
        if self.game.state.front_group() is None:
            return []
        return [*self._drink(), Attack(self._weakest())]

    def _pursuit(self) -> list[Action]:
        game = self.game
        p = game.state.pursuit
        if p is not None and p.chaser == Side.PARTY:
            return [Wait()]  # it lets a group that goes its way go
        out = self._drink()
        if game.tired():
            out.append(Fight())
        return [*out, Run()]
