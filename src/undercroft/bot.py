"""The reference player: a careful bot that plays whole games headless (``undercroft autoplay``, ``balance``, ``soak``).

It reads the game state (never the game's random streams: its own tie-breaks come from the stream ``"bot"`` of its
seed) and proposes actions in order of preference; :meth:`Bot.choose` returns the first one the engine would take
now (``Game.legal``) that has not been refused at this turn. docs/BALANCE.md describes it as a player would:

* **explore**: drink when hurt, rest off exhaustion and wounds where nothing stands, pick up the items it has seen,
  walk to the nearest unexplored floor it can reach (around monsters and around rooms it fled from), and on to
  that tile even once it has come into view, though not into another segment (it chooses again where a walk ends:
  :meth:`Bot._goal_valid`, :meth:`Bot._next_step`); go down when
  the level is explored, or (:data:`STOCKED`) as soon as the stairs are seen with two potions in hand, resting
  whole on the stairs first; on the last level it makes for the way out as soon as it is seen;
* **a meeting** (:meth:`Bot._values`): each way through is valued as the chance to come through it: fight (the
  odds), run (the chance to get away, else a fight; less :data:`AGAIN`: the group stays), bribe (the digit's
  chance, else a fight it opens), talk (the table's chance, else the best of the others a round later, in sight);
  the best is taken. A friendly reaction is let play out by waiting; a quiet group (at peace, holding its ground,
  passive) is walked past. After running twice from a group on its only way on (or :data:`MAX_FLEES` times from
  one group), it stops running from it, drinks if hurt, and talks, bribes or fights;
* **a group out of sight** (met beyond the party's sight, it walks toward the party each round): the bot decides
  as it would in sight. If that is to run, it runs now, while the run is sure; if it is to walk on past a quiet
  group, it walks on; otherwise it waits for the group to come, goes to meet one that comes no closer, and walks on
  when that gets nowhere (:data:`MAX_UNSEEN`);
* **running**: through the open door (``Game.exits()``) that best gets away: not into a segment holding another
  hostile group or one it fled from, not a door the group stands nearer than the party, a segment already visited
  before one not yet entered (no resident to raise), then the one nearest its goal, then the one farthest from the
  group; the way it came in is plain ``Run()``;
* **combat**: drink when low, burn oil on a hard foe, leave when running is clearly the better chance
  (:data:`LEAVE_MARGIN`; to come back rested), else strike the weakest;
* **pursuit**: drop food for an unintelligent pursuer, treasure for an intelligent one, burn oil at one that fears
  fire, then keep running (or turn and fight when its odds are good or it is too tired to run);
* **a group that goes its way** (a wanderer leaving after a peaceful or friendly reaction): it is let go, unless
  it carries treasure, the fight odds it showed were at least :data:`PURSUE_ODDS`, the party is not hurt and the
  chase catches it for sure. In the chase the bot runs on while that still holds, else it waits (lets it go);
* **never stuck**: a group in the way that lets the party be is attacked after :data:`MAX_REENGAGE` steps spent
  going back at it; a hostile group that plugs the only door is stepped into; a meeting that goes nowhere is ended
  after :data:`MAX_MEETING` decisions.

The fight odds are the game's own: the win of :func:`undercroft.sim.odds.fight_odds`, as the encounter and fight
panels show it (exact for one character, and for a party of two; simulated for a larger party or a group with two
wounded), asked only where a decision turns on it; where there are none it counts on nothing (0). Talk, bribe,
escape and chase chances come from :mod:`undercroft.rules.formulas`, the rules the engine plays by
(``chase_round``, ``automatic_evasion``, ``bribe_accepted``, ``band``, ...).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import numpy.typing as npt
import tcod.path

from undercroft.content import Content
from undercroft.content.schema import Monster
from undercroft.record import Recorder, play_step
from undercroft.rules import dungeon, encounter, formulas, parley
from undercroft.rules.actions import (
    Action,
    Attack,
    Bribe,
    Descend,
    Drink,
    DropFood,
    DropTreasure,
    Fight,
    Move,
    Pursue,
    Rest,
    Run,
    Talk,
    ThrowOil,
    Wait,
)
from undercroft.rules.dice import Dice
from undercroft.rules.floods import MAX_DIST, bits_of
from undercroft.rules.game import Game
from undercroft.rules.rng import Stream, parse_seed
from undercroft.rules.searches import CostFlood, dijkstra_map
from undercroft.rules.state import Group
from undercroft.rules.types import Behaviour, Mode, Origin, Side
from undercroft.sim.odds import attack_target, fight_odds

Point = tuple[int, int]

HURT = 0.5  # drink outside a fight at or below this fraction of max HP
REST_UNTIL = 0.9  # rest while exploring when below this fraction of max HP
LOW = 0.4  # drink in a fight at or below this fraction
FIGHT_ODDS = 0.8  # fight when the estimated chance to win is at least this
TALK_ODDS = 0.5  # out of sight: a talk less likely than this to succeed is not worth waiting for
BRIBE_ODDS = 0.5  # bribe with a sum whose digit gives at least this chance
PASS_COST = 8  # walking through a monster at peace (it steps aside), against 1 for a free tile
GIVE_UP = 0.2  # run from a fight whose odds fell below this
MAX_LEVEL_MOVES = 700  # then stop exploring and make for the stairs
MAX_WAITS = 3  # waits on one monster before doing something else
MAX_UNSEEN = 12  # actions spent on one group out of sight before walking on regardless
FLEES_ON_THE_WAY = 2  # runs from a group standing on the only way on before it stops running from it
MAX_FLEES = 4  # runs from one group on a level before it stops running from it at all
PURSUE_ODDS = FIGHT_ODDS  # go after a group that goes its way only with the odds it would fight at
STOCKED = 2  # potions enough to go on once the stairs are seen, rather than explore the rest of the level
MAX_REST_BEFORE = 20  # rests on the stairs, at most, to go down whole
BLOCKED_TURNS = 100  # turns a tile a step into was refused stays out of the bot's plans
MAX_MEETING = 60  # decisions in meetings with one group before it runs (or fights) to end them
MAX_REENGAGE = 40  # steps going back at a group in the way that lets the party be, before it attacks it
AGAIN = 0.05  # what running costs beyond its risk: the group stays on the level, maybe on the way on
LEAVE_MARGIN = 0.1  # leave a fight when running gives at least this much better a chance than staying
READY = 0.75  # drink before a hard fight it cannot leave when at or below this fraction of max HP
CAUGHT = 0.9  # the fight odds after a failed run, against the odds now (tired, and struck as it turns)
STRUCK_FIRST = 0.85  # the fight odds after a refused bribe (it strikes first), against the odds now
_PREFER = {
    "talk": 5,
    "fight": 4,
    "bribe": 3,
    "distract_treasure": 2,
    "distract_food": 1,
    "run": 0,
}  # between equal chances: terms, then a fight, ...
RECORD_BATCH = 64  # action lines a recorded bot game gathers before one write (see Recorder.create)
_STEPS: tuple[Point, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
# In a plan's options: run through the door :meth:`Bot._run` picks, worked out only if :meth:`Bot.choose` gets to
# it (most plans that offer a run offer a step or a fight first, which is taken). Never given to the engine.
_BEST_RUN = Run(door=-2)
_FAR = MAX_DIST


def _steps(a: Point, b: Point) -> int:
    """Steps between two tiles in the open (the party walks in eight directions)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def distribution(d: Dice) -> tuple[tuple[int, float], ...]:
    """The exact distribution of a dice expression's total: (total, chance) pairs."""
    dist = {0: 1.0}
    for _ in range(d.count):
        nxt: dict[int, float] = {}
        for total, p in dist.items():
            for face in range(1, d.sides + 1):
                nxt[total + face] = nxt.get(total + face, 0.0) + p / d.sides
        dist = nxt
    return tuple((t * d.multiplier + d.bonus, p) for t, p in dist.items())


def _count(game: Game, kind: str) -> int:
    """The party's items of ``kind``."""
    return sum(n for i, n in game.state.items.items() if n > 0 and game.content.items[i].kind == kind)


def _has(game: Game, kind: str) -> bool:
    return _count(game, kind) > 0


def talk_odds(game: Game, g: Group) -> float:
    """The chance that talking to ``g`` ends in agreement or intimidation (0 when talk is not possible): the chance of
    a band other than failure."""
    mon = game.monster_of(g)
    if parley.check_talk(game, g) is not None:  # the engine's own reasons to refuse a talk
        return 0.0
    table = game.content.tables.negotiation[game.rs.negotiation_table]
    reluctance, ability = formulas.negotiation_modifiers(table, mon, (m.negotiation for m in game.living()))
    good = 0.0
    for total, p in distribution(Dice.parse(table.dice)):
        if formulas.band(table.bands, formulas.negotiation_total(total, reluctance, ability)).result != "failure":
            good += p
    return good


def _bribe_chance(die: int, digit: int) -> float:
    """The chance a bribe is taken: the faces of the bribery die that accept it."""
    return sum(formulas.bribe_accepted(face, digit) for face in range(1, die + 1)) / die


def bribe_offer(game: Game, g: Group) -> int | None:
    """The smallest sum the party can pay whose bribery digit gives at least :data:`BRIBE_ODDS`, or None."""
    st = game.state
    b = game.content.tables.bribery
    if g.peaceful or parley.check_bribe(game, g) is not None:  # the engine's reasons (a failed talk first, ...)
        return None
    for row in b.rows:
        gold = row.min
        if gold > st.gold:
            return None
        cell = formulas.bribe_cell(b, game.monster_of(g), gold)
        if cell is not None and _bribe_chance(b.die, cell[2]) >= BRIBE_ODDS:
            return gold
    return None


def _leaves(escape: float, odds: float) -> bool:
    """Leave the fight: running (the chance to get away, else the fight a little worse) beats staying by
    :data:`LEAVE_MARGIN`."""
    return escape + (1 - escape) * odds * CAUGHT > odds + LEAVE_MARGIN


def fight_win(game: Game) -> float:
    """The chance to win the fight in front of the party as the encounter and fight panels show it
    (:func:`undercroft.sim.odds.fight_odds`); 0 without odds."""
    odds = fight_odds(game.content, game)
    return 0.0 if odds is None else odds.win


def _best(values: dict[str, float]) -> str:
    """The way through a meeting of greatest value (rounded to 6 places; ties by :data:`_PREFER`)."""
    return max(values, key=lambda k: (round(values[k], 6), _PREFER[k]))


class Bot:
    """Plays one game: ``choose()`` the next action, ``refused(action)`` when the engine said no."""

    def __init__(self, game: Game, seed: int | str, *, max_level_moves: int = MAX_LEVEL_MOVES) -> None:
        self.game = game
        self.rng = Stream(parse_seed(seed), "bot")
        self.max_level_moves = max_level_moves
        self.stuck = 0  # consecutive choices with nothing useful to do
        self._path: list[Point] = []
        self._goal: Point | None = None
        self._goal_kind = ""
        self._planned_at = (-1, -1)  # (level, its revision) when the plan was made
        self._depth = -1
        self._level_moves = 0
        self._avoid: set[int] = set()  # segments of this level holding a monster the party fled from
        self._refused: set[Action] = set()
        self._refused_turn = -1
        self._fled: dict[int, int] = {}  # group id -> times the party ran from it
        self._waits: dict[int, int] = {}  # group id -> times it waited on it
        self._committed: set[int] = set()  # groups it will not run from any more
        self._forced = False  # the current plan had to go through a segment it fled from
        self._odds_of: dict[int, float] = {}  # group id -> the fight odds' win it showed when last met
        self._unseen: dict[int, tuple[int, int]] = {}  # group id -> (actions spent on it out of sight, its distance)
        self._long: dict[int, int] = {}  # group id -> decisions spent in meetings with it (reset by MAX_MEETING)
        self._been: dict[int, set[Point]] = {}  # group id -> tiles the party walked on in meetings with it
        self._rested = 0  # rests on the stairs of this level before going down
        self._blocked: dict[Point, int] = {}  # tiles a step into was refused -> the turn until which to avoid them
        self._reengaged = 0  # steps on this level spent going back at a group in the way that lets the party be
        self._plans: dict[str, Callable[[], list[Action]]] = {
            Mode.EXPLORE: self._explore,
            Mode.ENCOUNTER: self._encounter,
            Mode.COMBAT: self._combat,
            Mode.PURSUIT: self._pursuit,
        }

    # --- the interface ------------------------------------------------------------------------------------

    def choose(self) -> Action:
        st = self.game.state
        if st.turn != self._refused_turn:
            self._refused.clear()
            self._refused_turn = st.turn
        if st.depth != self._depth:
            self._depth = st.depth
            self._level_moves = 0
            self._avoid.clear()
            self._fled.clear()
            self._committed.clear()
            self._path, self._goal, self._goal_kind = [], None, ""
            self._reengaged = 0
            self._rested = 0
            self._blocked.clear()
        if st.mode != Mode.ENCOUNTER:
            self._unseen.clear()  # (counted for one encounter at a time)
        plan = self._plans.get(st.mode)
        options = plan() if plan is not None else []
        refused = self._refused
        for a in options:  # (the plan's own first: the fallbacks are made only when none of them is taken)
            if a is _BEST_RUN:
                a = self._run()
            if (not refused or a not in refused) and self.game.legal(a):
                if isinstance(a, Move):
                    return self._taken(a)
                return a
        for a in self._fallbacks(st.mode):
            if a not in refused and self.game.legal(a):
                return a  # (never a step)
        return Rest()

    def _taken(self, a: Move) -> Move:
        """:meth:`choose` takes the step ``a``."""
        st = self.game.state
        self._level_moves += 1
        if self._path and self._path[0] == (st.pos[0] + a.dx, st.pos[1] + a.dy):
            self._path.pop(0)  # (a step of the walk is taken only with the move: see _next_step)
        return a

    def _fallbacks(self, mode: Mode) -> Iterator[Action]:
        """After the plan's options: fight, strike, run, wait, rest, each made only when the one before it was not
        taken (the strike's target and the door to run through are worked out only then)."""
        yield Fight()
        yield Attack(self._weakest())
        yield self._run() if mode in (Mode.ENCOUNTER, Mode.COMBAT) else Run()  # through the door its plan picks
        yield Wait()
        yield Rest()

    def refused(self, action: Action) -> None:
        """The engine refused ``action`` at this turn: do not propose it again until the turn changes. A step
        refused (something stands there the bot did not see, or may not pass) is not planned through again for
        :data:`BLOCKED_TURNS` turns."""
        self._refused.add(action)
        self._path = []
        if isinstance(action, Move):
            st = self.game.state
            self._blocked[(st.pos[0] + action.dx, st.pos[1] + action.dy)] = st.turn + BLOCKED_TURNS

    # --- explore -------------------------------------------------------------------------------------------

    def _explore(self) -> list[Action]:
        g = self.game
        st = g.state
        out: list[Action] = []
        if st.fled and self.game.legal(Pursue()) and self._should_pursue(st.fled):
            return [Pursue()]  # (any other action lets it go)
        # (HURT is below REST_UNTIL: no one at or below REST_UNTIL, no one hurt either; most steps ask only that)
        sore = self._hurt(REST_UNTIL) is not None
        hurt = self._hurt(HURT) if sore else None
        if hurt is not None and _has(g, "potion"):
            out.append(Drink(hurt))
        if g.tired():
            out.append(Rest())
        if sore and g.rules.time.rest_heal and not self._groups_here():
            out.append(Rest())  # rest wounds off where nothing is in sight (a wanderer may still come)
        step = self._next_step()
        if self._goal_kind == "reengage" and g.nearest_here() is not None and self.game.legal(Fight()):
            # Back at a group that stands in the only way on, and it lets the party be: clear the way.
            self._reengaged += 1
            if self._reengaged > MAX_REENGAGE:
                self.stuck = 0
                out.append(Fight())
        if step is not None:
            self.stuck = 0
            out.append(Move(step[0] - st.pos[0], step[1] - st.pos[1]))
        elif st.level.map.stairs == st.pos and self._goal_kind == "stairs":
            self.stuck = 0
            if (
                g.rules.time.rest_heal
                and self._hurt(1.0 - 1e-9) is not None
                and not self._groups_here()
                and not g.rs.levels[st.depth].final
                and self._rested < MAX_REST_BEFORE
            ):
                self._rested += 1
                out.append(Rest())  # whole before going down
            out.append(Descend())
        else:
            self.stuck += 1
            out.append(Rest())
        return out

    def _groups_here(self) -> bool:
        st = self.game.state
        return any(g.segment == st.segment and not g.defeated for g in st.level.groups)

    def _hurt(self, frac: float) -> int | None:
        """The index of the most hurt living member at or below ``frac`` of max HP, if any."""
        st = self.game.state
        worst = None
        for i, m in enumerate(st.party):
            if m.alive and m.hp <= frac * m.max_hp and (worst is None or m.hp < st.party[worst].hp):
                worst = i
        return worst

    def _walk_cost(self, avoid: bool, through: bool = False) -> npt.NDArray[np.int8]:
        st = self.game.state
        lv = st.level
        cost: npt.NDArray[np.int8] = (lv.map.tiles != dungeon.WALL).astype(np.int8)
        if avoid and self._avoid:
            seg = lv.map.segment_of
            for s in sorted(self._avoid):
                if s != st.segment:
                    cost[seg == s] = 0
        # A monster at peace steps aside when the party walks into it: a (slow) way through, or its peace walls the
        # party in (a group it made terms with in a corridor, the one way on).
        # With ``through`` (the last resort), a hostile group is a way on too: stepping into it meets it.
        for grp in lv.groups:
            if not grp.defeated and not grp.hidden:
                free = (grp.peaceful or through) and bool(cost[grp.pos[1], grp.pos[0]])
                cost[grp.pos[1], grp.pos[0]] = PASS_COST if free else 0
        for (x, y), until in self._blocked.items():
            if until > st.turn:
                cost[y, x] = 0
        cost[st.pos[1], st.pos[0]] = 1
        return cost

    def _floor_bits(self) -> int:
        """The level's floor as a bit set (:func:`~undercroft.rules.floods.bits_of`)."""
        m = self.game.state.level.map
        return m.walk_bits(0, 0, m.width, m.height)

    def _segment_bit_set(self, s: int) -> int:
        """The tiles of segment ``s`` as a bit set (``-1``: the tiles of every segment)."""
        seg = self.game.state.level.map.segment_of
        return bits_of(seg >= 0 if s == -1 else seg == s)

    def _cost_bits(self, avoid: bool, through: bool = False) -> list[tuple[int, int]]:
        """:meth:`_walk_cost` as (cost, tiles) bit sets, for :class:`CostFlood`."""
        st = self.game.state
        lv = st.level
        stride = lv.map.width + 1
        ones = self._floor_bits()
        passes = 0
        if avoid and self._avoid:
            for s in sorted(self._avoid):
                if s != st.segment:
                    ones &= ~self._segment_bit_set(s)
        for grp in lv.groups:
            if not grp.defeated and not grp.hidden:
                bit = 1 << (grp.pos[1] * stride + grp.pos[0])
                free = (grp.peaceful or through) and bool((ones | passes) & bit)
                ones &= ~bit
                passes = passes | bit if free else passes & ~bit
        for (x, y), until in self._blocked.items():
            if until > st.turn:
                bit = 1 << (y * stride + x)
                ones &= ~bit
                passes &= ~bit
        b = 1 << (st.pos[1] * stride + st.pos[0])  # (the party's tile: always a way, entered at 1)
        return [(1, ones | b), (PASS_COST, passes & ~b)]

    def _goal_bits(self) -> list[tuple[str, int]]:
        """The goals of a walk in order of preference, as bit sets (:func:`~undercroft.rules.floods.bits_of`): an
        item seen; the stairs once seen, on the last level or with :data:`STOCKED` potions; unexplored floor; the
        stairs. Not the last resort (going back at a group in the way: :meth:`_reengage_bits`)."""
        st = self.game.state
        lv = st.level
        m = lv.map
        stride = m.width + 1
        explored = lv.explored_bits()
        walk = self._floor_bits()
        items = 0
        for x, y in lv.items:
            items |= 1 << (y * stride + x)
        out = [("item", items & explored)]
        stairs = 0 if m.stairs is None else 1 << (m.stairs[1] * stride + m.stairs[0])
        if stairs & explored and (self.game.rs.levels[st.depth].final or _count(self.game, "potion") >= STOCKED):
            out.append(("stairs", stairs))
        if self._level_moves < self.max_level_moves:
            out.append(("explore", walk & ~explored))
        if m.stairs is not None:
            out.append(("stairs", stairs))
        return out

    def _reengage_bits(self) -> int | None:
        """The last resort's goal as a bit set (None without a hostile group on the level): a monster that is not at
        peace stands in the way; walking into its segment starts an encounter, so the segments but the party's when
        it shares one with such a group (step out of it first), else such groups' segments and tiles (one may stand
        in its segment's only door: step into it)."""
        st = self.game.state
        lv = st.level
        hostile = [grp for grp in lv.groups if not grp.defeated and not grp.hidden and not grp.peaceful]
        if not hostile:
            return None
        walk = self._floor_bits()
        if any(grp.segment == st.segment for grp in hostile):
            return walk & self._segment_bit_set(-1) & ~self._segment_bit_set(st.segment)
        stride = lv.map.width + 1
        mask = 0
        for grp in hostile:
            mask |= (self._segment_bit_set(grp.segment) & walk) | 1 << (grp.pos[1] * stride + grp.pos[0])
        return mask

    _PASSES = ((True, False), (True, True), (False, False), (False, True))  # (avoid, diagonal), in turn

    def _plan(self) -> None:
        st = self.game.state
        self._path, self._goal, self._goal_kind = [], None, ""
        self._planned_at = (st.level.index, st.level.rev)
        # Orthogonal steps first (the way corridors run); diagonal steps, which the rules allow, only to get round
        # a monster standing in a doorway. Going back at a monster in the way only when no other goal is in reach.
        # (The same goals, distances and paths as dijkstra_map and hillclimb2d over the whole level would give, found
        # only as far as the nearest goal: see CostFlood.)
        here_bit = 1 << (st.pos[1] * (st.level.map.width + 1) + st.pos[0])
        goals = self._goal_bits()
        floods: dict[tuple[bool, bool], CostFlood] = {}
        for avoid, diagonal in self._PASSES:
            for kind, mask in goals:
                if not avoid and kind != "stairs":
                    continue  # through a monster it fled from only to get on (or to win)
                if self._plan_to(kind, mask, here_bit, avoid, diagonal, False, floods):
                    return
        reengage = self._reengage_bits()
        if reengage is not None:
            floods.clear()
            for avoid, diagonal in self._PASSES:
                if self._plan_to("reengage", reengage, here_bit, avoid, diagonal, True, floods):
                    return

    def _plan_to(
        self,
        kind: str,
        mask: int,
        here_bit: int,
        avoid: bool,
        diagonal: bool,
        last_resort: bool,
        floods: dict[tuple[bool, bool], CostFlood],
    ) -> bool:
        """Plan the walk to the nearest tile of ``mask`` (a goal of ``kind``) by one pass of :meth:`_plan`; False
        when none is in reach."""
        st = self.game.state
        if kind == "stairs" and mask & here_bit:
            self._goal, self._goal_kind, self._forced = st.pos, kind, not avoid
            return True
        reach = mask & ~here_bit
        if not reach:
            return False
        flood = floods.get((avoid, diagonal))
        if flood is None:
            m = st.level.map
            costs = self._cost_bits(avoid, through=last_resort)
            flood = floods[(avoid, diagonal)] = CostFlood(m.width, m.height, costs, st.pos, diagonal)
        reach &= flood.all  # (a goal on a tile it may not enter is never reached: no flood to the end to find that)
        best = flood.nearest(reach) if reach else None
        if best is None:
            return False
        tiles = flood.at(best, reach)
        goal = tiles[self.rng.below(len(tiles))] if len(tiles) > 1 else tiles[0]
        self._path = flood.path(goal, best)
        self._goal, self._goal_kind, self._forced = goal, kind, not avoid
        return True

    def _goal_valid(self) -> bool:
        """Whether the walk planned still leads somewhere worth going: an item still lying there; unexplored floor
        (to the end of the walk: a tile that has come into view on the way is still walked to, as a player walks to
        the spot clicked, and the next plan is made there, not at every step; but see :meth:`_next_step`); the
        stairs; a group in the way, while the groups on the level stay as they were."""
        st = self.game.state
        lv = st.level
        goal = self._goal
        if goal is None:
            return False
        kind = self._goal_kind
        if kind == "item":
            return goal in lv.items
        if kind == "explore":
            return self._level_moves < self.max_level_moves
        if kind == "reengage":
            return self._planned_at == (lv.index, lv.rev)
        return kind == "stairs"

    def _next_step(self) -> Point | None:
        """The next tile of the walk planned, planning a new one where the old one ended, is no longer worth going
        (:meth:`_goal_valid`), is blocked, or would step into another segment (a monster check) for a spot already
        in view. The tile is taken off the walk when :meth:`choose` takes the move."""
        st = self.game.state
        lv = st.level
        path = self._path
        if not path and self._goal == st.pos and self._goal_kind == "stairs":
            return None  # on the stairs it made for (resting before it goes down)
        explore = self._goal_kind == "explore"
        ok = bool(path) and self._goal_valid()
        if ok:
            nxt = path[0]
            dx, dy = nxt[0] - st.pos[0], nxt[1] - st.pos[1]
            if not (-1 <= dx <= 1 and -1 <= dy <= 1) or (dx == 0 and dy == 0):
                ok = False
            else:
                for grp in lv.groups:
                    if grp.pos == nxt and not grp.defeated and not grp.hidden:
                        ok = False
                        break
            if ok and explore and lv.map.segment_rows[nxt[1]][nxt[0]] != st.segment:
                # Into another segment (a monster check) only for floor still unseen: choose again if the spot
                # made for has come into view.
                goal = self._goal
                ok = goal is not None and not bool(lv.explored[goal[1], goal[0]])
        if not ok:
            self._plan()
        return self._path[0] if self._path else None  # (taken off the walk when the move is taken: choose)

    # --- encounter ---------------------------------------------------------------------------------------

    def _group(self) -> Group | None:
        return self.game.state.front_group()

    def _encounter(self) -> list[Action]:
        st = self.game.state
        g = self._group()
        if g is None:
            return []
        if st.level.map.stairs == st.pos and self._goal_kind == "stairs" and self.game.legal(Descend()):
            return [Descend()]  # on the stairs it was making for, and the group lets it go down
        win = self._odds_of[g.id] = fight_win(self.game)
        enc = st.encounter
        if enc is None or not enc.out_of_sight:
            self._unseen.pop(g.id, None)
            plan = self._meet(g, win)
        else:
            plan = self._out_of_sight(g, win, enc.distance)
        been = self._been.setdefault(g.id, set())
        if plan and isinstance(plan[0], Move) and st.pos not in been:
            been.add(st.pos)
            return plan  # walking on past it, somewhere it has not been in this meeting: progress
        self._long[g.id] = self._long.get(g.id, 0) + 1
        if self._long[g.id] > MAX_MEETING:  # a meeting that goes nowhere (it cannot reach the party, ...): end it
            if enc is not None and enc.out_of_sight:
                step = self._step_to(g.pos)  # go to it, by any way (stepping into it meets it)
                if step is not None:
                    return [Move(step[0] - st.pos[0], step[1] - st.pos[1])]
            self._long[g.id] = 0
            self._been.pop(g.id, None)
            return [_BEST_RUN, Fight()]
        return plan

    def _out_of_sight(self, g: Group, win: float, distance: int) -> list[Action]:
        """A group met out of sight: do now what the bot would do in sight, as far as it can (see the module
        docstring)."""
        game = self.game
        st = game.state
        spent, last = self._unseen.get(g.id, (0, distance + 1))
        self._unseen[g.id] = (spent + 1, distance)
        waits = self._waits.get(g.id)
        plan = self._meet(g, win)
        if waits is None:  # a wait on a group out of sight is no wait on its reaction
            self._waits.pop(g.id, None)
        else:
            self._waits[g.id] = waits
        drink = [a for a in plan if isinstance(a, Drink)]
        decisive = next(
            (
                a
                for a in plan
                if not isinstance(a, Drink) and not (isinstance(a, Talk) and parley.check_talk(game, g) is not None)
            ),
            None,
        )
        if isinstance(decisive, (Run, Move)):
            return plan  # run while it cannot see where the party goes; walk on past a quiet group
        run = next((a for a in plan if isinstance(a, Run)), None)
        if isinstance(decisive, Talk) and run is not None and talk_odds(game, g) < TALK_ODDS:
            return [*drink, run]  # a talk that would likely fail, then a run: run now, while the run is sure
        # It will be fought, talked to or bribed: let it come, and go to meet it when it comes no closer.
        if spent < MAX_UNSEEN:
            if distance < last:
                return [*drink, Wait()]
            step = self._step_toward(g)
            if step is not None:
                return [*drink, Move(step[0] - st.pos[0], step[1] - st.pos[1])]
        # It is not coming and there is no way to it: walk on; out of the segment (which ends the encounter) when the
        # bot has nowhere else to go, or its way on is the stairs (not taken with a group facing the party).
        step = self._next_step()
        if step is None or self._goal_kind == "stairs":
            step = self._step_out() or step
        if step is not None:
            return [*drink, Move(step[0] - st.pos[0], step[1] - st.pos[1])]
        return [*drink, Wait()]

    def _step_out(self) -> Point | None:
        """The party's next step on the shortest walk out of its segment (None: no way out)."""
        st = self.game.state
        m = st.level.map
        cost = self._walk_cost(False)
        dist = dijkstra_map(cost, st.pos, diagonal=True)
        out = (m.segment_of != st.segment) & (m.segment_of >= 0) & (cost > 0) & (dist < _FAR)
        if not out.any():
            return None
        d = np.where(out, dist, _FAR)
        ys, xs = np.nonzero(d == int(d.min()))
        path = tcod.path.hillclimb2d(dist, (int(ys[0]), int(xs[0])), True, True)  # from there back to the party
        return (int(path[-2][1]), int(path[-2][0])) if len(path) > 1 else None

    def _step_to(self, tile: Point) -> Point | None:
        """The party's next step on the shortest walk to ``tile`` by any way, through any group: along corridors
        (orthogonal steps) where it can, else cutting across (None: no way)."""
        st = self.game.state
        cost = self._walk_cost(False, through=True)
        cost[tile[1], tile[0]] = 1
        for diagonal in (False, True):
            dist = dijkstra_map(cost, tile, diagonal=diagonal)
            here = int(dist[st.pos[1], st.pos[0]])
            moves = _STEPS + (((1, 1), (1, -1), (-1, 1), (-1, -1)) if diagonal else ())
            options = [
                (int(dist[y, x]), (x, y))
                for x, y in ((st.pos[0] + dx, st.pos[1] + dy) for dx, dy in moves)
                if 0 <= y < dist.shape[0] and 0 <= x < dist.shape[1] and cost[y, x] > 0
            ]
            closer = [o for o in options if o[0] < here]
            if closer:
                return min(closer)[1]
        return None

    def _step_toward(self, g: Group) -> Point | None:
        """The party's next step toward ``g`` without leaving its segment (which would end the encounter): to the
        tile it can reach nearest the group's (None: it stands there already)."""
        st = self.game.state
        m = st.level.map
        cost = self._walk_cost(False)
        cost[m.segment_of != st.segment] = 0
        cost[st.pos[1], st.pos[0]] = 1
        dist = dijkstra_map(cost, st.pos, diagonal=True)
        floor = (m.tiles != dungeon.WALL).astype(np.int8)  # how near the group, round whatever stands in the way
        near = dijkstra_map(floor, g.pos, diagonal=True)
        reach = (dist < _FAR) & (cost > 0)
        reach[g.pos[1], g.pos[0]] = False
        key = np.where(reach, near.astype(np.int64) * 4096 + dist, np.iinfo(np.int64).max)
        ty, tx = np.unravel_index(int(np.argmin(key)), key.shape)
        if (int(tx), int(ty)) == st.pos:
            return None
        path = tcod.path.hillclimb2d(dist, (int(ty), int(tx)), True, True)  # from there back to the party
        return (int(path[-2][1]), int(path[-2][0])) if len(path) > 1 else None

    def _meet(self, g: Group, win: float) -> list[Action]:
        """What to do about a group in sight (``win``: the fight odds' win)."""
        game = self.game
        st = game.state
        mon = game.monster_of(g)
        out: list[Action] = []
        hurt = self._hurt(HURT)
        if hurt is not None and _has(game, "potion"):
            out.append(Drink(hurt))  # in an encounter a drink only lets a round pass
        # Peaceful, holding its ground, or passive: it starts nothing (a passive one strikes once at whoever walks
        # past it, which costs less than fighting a crowd of them). A kneeler rises once the party is inside: it
        # is met like any other monster.
        no_running = not game.proc.running  # the citadel: talk, bribe or fight to the death
        quiet = g.peaceful or Behaviour.HOLDS_GROUND in mon.behaviours or Behaviour.PASSIVE in mon.behaviours
        if quiet and win < 0.9:
            # it does not start anything: walk on, unless it stands in the only way on (the plan is to go back at a
            # monster in the way: this is the meeting it went for)
            step = self._next_step()
            if step is not None and self._goal_kind != "reengage":
                out.append(Move(step[0] - st.pos[0], step[1] - st.pos[1]))
                out.append(_BEST_RUN)  # (if the step is not taken; choose asks whether running is legal then)
                return out
            if win >= GIVE_UP or self._fled.get(g.id, 0) >= FLEES_ON_THE_WAY or no_running:
                self._committed.add(g.id)
                out.append(Fight())
            if self.game.legal(Run()):  # not where the rules have no running, nor when too exhausted to run
                self._flee(g)
                out.append(_BEST_RUN)
            return out
        waits = self._waits.get(g.id, 0)
        if (
            g.reaction_result in ("peaceful", "friendly")
            and g.origin != Origin.GUARDIAN
            and waits < MAX_WAITS
            and g.risen
            and Behaviour.PASSIVE not in mon.behaviours
            and win < 0.9
        ):
            self._waits[g.id] = waits + 1
            out.append(Wait())  # a friendly monster given a moment goes its way (or lets the party be)
        # The careful choice: each way of meeting it, valued as the chance to come through (see _values).
        values = self._values(g, win)
        forced = self._forced and (g.segment in self._avoid or st.segment in self._avoid)  # the only way on
        fled = self._fled.get(g.id, 0)
        if (forced and fled >= FLEES_ON_THE_WAY) or fled >= MAX_FLEES or no_running or g.id in self._committed:
            values.pop("run", None)
            if "talk" not in values and "bribe" not in values:
                self._committed.add(g.id)  # no more running from it (or none in these rules): a fight to the death
        best = _best(values)
        low = self._hurt(READY) if best == "fight" and _has(game, "potion") else None
        if low is not None and win < FIGHT_ODDS:
            out.append(Drink(low))  # a hard fight it cannot leave: drink first
        if best == "talk":
            out.append(Talk())  # a failed talk only lets a round pass
        elif best == "bribe":
            offer = bribe_offer(game, g)
            if offer is not None:
                out.append(Bribe(offer))  # refused, it attacks first
        elif best == "run":
            self._flee(g)
            out.append(_BEST_RUN)
        elif best == "distract_food":
            out.append(DropFood())  # it may stop to eat: busy with it, it lets the party by
        elif best == "distract_treasure":
            out.append(DropTreasure())
        out.append(Fight())
        return out

    def _values(self, g: Group, win: float) -> dict[str, float]:
        """The chance to come through the meeting with ``g`` by each way the party may take now, the fight's win
        being ``win``: fight (the win), run (the chance to get away, else a fight), bribe (the chance it is taken,
        else a fight it opens), talk (the chance of terms, else the best of the others a round later)."""
        game = self.game
        st = game.state
        out = {"fight": win}
        later = {"fight": win}  # the same a round later, in sight
        if self.game.legal(Run()):
            now, seen = self._escape_chance(g), self._escape_chance(g, in_sight=True)
            out["run"] = now + (1 - now) * win * CAUGHT - AGAIN
            later["run"] = seen + (1 - seen) * win * CAUGHT - AGAIN
        offer = bribe_offer(game, g) if g.origin != Origin.GUARDIAN else None
        if offer is not None:
            cell = game.bribe_cell(g, offer)
            taken = 0.0 if cell is None else _bribe_chance(game.content.tables.bribery.die, cell[2])
            out["bribe"] = later["bribe"] = taken + (1 - taken) * win * STRUCK_FIRST
        best_later = max(later.values())

        def then(p: float) -> float:  # p, else the best of the others a round later
            return p + (1 - p) * best_later

        # Peace with a group standing in a corridor can block the way for good (a peaceful monster cannot be passed
        # or attacked), so there it talks (or distracts it) only when the fight is hopeless.
        in_corridor = st.level.map.segments[g.segment].kind == "corridor"
        mon = game.monster_of(g)
        submerged = Behaviour.SUBMERGED in mon.behaviours
        table = game.content.tables.distractions
        ways: tuple[tuple[Literal["food", "treasure"], Action, int], ...] = (
            ("food", DropFood(), table.food),
            ("treasure", DropTreasure(), table.treasure),
        )
        for what, action, percent in ways:
            if (
                formulas.distracted_by(what, mon.intelligent, submerged)
                and self.game.legal(action)
                and (not in_corridor or win < GIVE_UP)
            ):
                out["distract_" + what] = then(percent / formulas.PERCENT)  # (a failure lets a round pass)
        if (
            g.origin != Origin.GUARDIAN
            and game.proc.negotiation
            and game.negotiable(g)
            and not g.negotiated
            and (not in_corridor or win < GIVE_UP)
        ):
            chance = talk_odds(game, g)
            if chance > 0:
                out["talk"] = then(chance)
        return out

    def _escape_chance(self, g: Group, *, in_sight: bool = False) -> float:
        """The chance that running from ``g`` now (``in_sight``: once it has come into sight) gets away: it does
        not follow, the party evades it (faster, or never seen: 003), it does not take up the pursuit (its
        reaction's chance), or the chase is won."""
        game = self.game
        st = game.state
        mon = game.monster_of(g)
        if not formulas.follows(game.proc.pursuit, mon.pursues):
            return 1.0
        submerged = Behaviour.SUBMERGED in mon.behaviours
        in_fight = st.combat is not None
        out_of_sight = not in_sight and st.encounter is not None and st.encounter.out_of_sight
        if (
            formulas.automatic_evasion(
                in_fight=in_fight,
                submerged=submerged,
                party_speed_=game.party_speed(),
                monster_speed=mon.speed,
                out_of_sight=out_of_sight,
            )
            is not None
        ):
            return 1.0
        band = encounter.reaction_band(game, g)
        follow = 1.0 if band is None or submerged else band.pursuit / formulas.PERCENT
        start = 0 if in_fight or not game.proc.distance else min(game.distance_to(g), game.rules.encounter.sight_feet)
        return 1.0 - follow * (0.0 if self._outruns(g, start) else 1.0)

    def _outruns(self, g: Group, distance: int) -> bool:
        """Whether the party, chased by ``g`` from ``distance`` feet, gets out of sight or outlasts the chase before
        it is caught or exhausted (the chase's rounds as the engine plays them)."""
        game = self.game
        rules = game.content.rules
        mon = game.monster_of(g)
        enc = rules.encounter
        gain = formulas.pursuit_gain(mon.speed, game.party_speed(), enc.running_multiplier)
        left = rules.fatigue.max_running_rounds - game.state.running_rounds - 1 if game.proc.fatigue else _FAR
        gives_up = Behaviour.SUBMERGED not in mon.behaviours
        for r in range(1, enc.pursuit_max_rounds + 1):
            if r >= left:
                return False  # exhausted first: it catches up
            distance, end = formulas.chase_round(distance, gain, r, enc.sight_feet, enc.pursuit_max_rounds, gives_up)
            if end:
                return end != "caught"
        return False  # a submerged one never gives up

    def _flee(self, g: Group) -> None:
        self._fled[g.id] = self._fled.get(g.id, 0) + 1
        self._avoid.add(g.segment)
        self._path = []

    def _run(self) -> Run:
        """Running from the group in front of the party: through the open door that best gets away (see the
        module docstring); ``Run()`` when that is the way the party came in (or no door is open: the engine says
        why)."""
        game = self.game
        st = game.state
        lv = st.level
        ways = game.exits()
        open_ = [i for i, w in enumerate(ways) if not w.blocked]
        if not open_:
            return Run()
        g = self._group()
        tiles = [] if g is None else [p for p, hp in zip(game.creature_tiles(g), g.hp, strict=True) if hp > 0]
        hostile = {
            o.segment
            for o in lv.groups
            if not o.defeated and not o.hidden and not o.peaceful and (g is None or o.id != g.id)
        }

        def key(i: int) -> tuple[bool, bool, bool, bool, int]:
            w = ways[i]
            them = min((_steps(t, w.door) for t in tiles), default=_FAR)
            lead = them - _steps(st.pos, w.door)  # how much nearer that door the party stands than the group
            seen = w.segment >= 0 and bool(lv.visited[w.segment])
            return (w.segment in hostile, w.segment in self._avoid, lead <= 0, not seen, lead)

        # The door that is least by (hostile, fled from, no lead, not seen, walk from the goal, -lead, index): the
        # walk from the goal only between doors that tie on what comes before it (its flood only then).
        keys = {i: key(i) for i in open_}
        first = min(k[:4] for k in keys.values())
        tied = [i for i in open_ if keys[i][:4] == first]
        best = tied[0]
        if len(tied) > 1:
            to_goal = self._from_goal()

            def far(i: int) -> tuple[int, int, int]:
                landing = ways[i].landing
                return (_FAR if to_goal is None else to_goal.distance(landing), -keys[i][4], i)

            best = min(tied, key=far)
        return Run() if ways[best].came_in else Run(door=best)

    def _from_goal(self) -> CostFlood | None:
        """Walking distances to the bot's goal (its current one, else the stairs), flooded from it only as far as
        asked (:meth:`CostFlood.distance`: the numbers of ``dijkstra_map`` over :meth:`_walk_cost` with the goal's own
        tile walkable)."""
        st = self.game.state
        goal = self._goal if self._goal is not None else st.level.map.stairs
        if goal is None:
            return None
        m = st.level.map
        b = 1 << (goal[1] * (m.width + 1) + goal[0])
        (one, ones), (pass_cost, passes) = self._cost_bits(True)
        return CostFlood(m.width, m.height, [(one, ones | b), (pass_cost, passes & ~b)], goal, True)

    # --- a group that goes its way -----------------------------------------------------------------------------

    def _should_pursue(self, gid: int) -> bool:
        """Whether to go after the group ``gid`` that has just gone its way (see the module docstring)."""
        game = self.game
        try:
            g = game.state.group(gid)
        except KeyError:
            return False
        shown = self._odds_of.get(gid)
        if g.treasure <= 0 or shown is None or shown < PURSUE_ODDS or self._hurt(REST_UNTIL) is not None:
            return False
        return self._catches(g, game.distance_to(g) if game.proc.distance else 0, 0)

    def _catches(self, g: Group, distance: int, rounds: int) -> bool:
        """Whether the party's chase of ``g``, ``distance`` feet ahead after ``rounds`` rounds, catches it for sure:
        it gains on it every round, and catches it before it is out of sight, before the chase's last round and
        before the party is exhausted."""
        game = self.game
        st = game.state
        rules = game.content.rules
        enc = rules.encounter
        gain = formulas.pursuit_gain(game.party_speed(), game.monster_of(g).speed, enc.running_multiplier)
        if distance <= 0:
            return True
        if gain <= 0:
            return False
        for r in range(rounds + 1, enc.pursuit_max_rounds + 1):
            distance, end = formulas.chase_round(distance, gain, r, enc.sight_feet, enc.pursuit_max_rounds)
            if end == "caught":  # (in the chase's last round only if the party has breath left)
                need = r - rounds
                return r < enc.pursuit_max_rounds and (
                    not game.proc.fatigue or st.running_rounds + need < rules.fatigue.max_running_rounds - 1
                )
            if end:
                return False
        return False

    # --- combat --------------------------------------------------------------------------------------------

    def _weakest(self) -> int:
        """The creature to strike: the weakest living one, as the odds assume (0 when there is none)."""
        g = self._group()
        target = -1 if g is None else attack_target(g)
        return max(target, 0)

    def _combat(self) -> list[Action]:
        game = self.game
        g = self._group()
        if g is None:
            return []
        out: list[Action] = []
        low = self._hurt(LOW)
        win = functools.cache(functools.partial(fight_win, game))  # (asked only where a decision turns on it)
        if low is not None and _has(game, "potion"):
            out.append(Drink(low))
        fled = self._fled.get(g.id, 0)
        if (self._forced and fled >= FLEES_ON_THE_WAY) or fled >= MAX_FLEES:
            self._committed.add(g.id)  # it stands on the only way on (or keeps coming): no more running from it
        committed = g.id in self._committed
        tired = game.tired()
        can_run = self.game.legal(Run())  # not where the rules have no running, nor with every way out blocked
        if not committed and can_run and not tired and win() < FIGHT_ODDS and _leaves(self._escape_chance(g), win()):
            self._flee(g)  # (to come back rested, or to go round it)
            out.append(_BEST_RUN)
        target = self._weakest()
        if _has(game, "oil") and win() < 0.6:
            out.append(ThrowOil(target))
        out.append(Attack(target))
        return out

    # --- pursuit -------------------------------------------------------------------------------------------

    def _pursuit(self) -> list[Action]:
        game = self.game
        st = game.state
        g = self._group()
        if g is None:
            return []
        p = st.pursuit
        win = functools.cache(functools.partial(fight_win, game))  # (asked only where a decision turns on it)
        if p is not None and p.chaser == Side.PARTY:  # the party gives chase: run on (Run) or let it go (Wait)
            on = not game.tired() and self._catches(g, p.distance, p.rounds) and win() >= PURSUE_ODDS
            return [Run()] if on else [Wait()]
        mon: Monster = game.monster_of(g)
        out: list[Action] = []
        hurt = self._hurt(HURT)
        if hurt is not None and _has(game, "potion"):
            out.append(Drink(hurt))
        submerged = Behaviour.SUBMERGED in mon.behaviours
        if not submerged and not mon.intelligent and _has(game, "food"):
            out.append(DropFood())
        if not submerged and mon.intelligent and st.gold > 0:
            out.append(DropTreasure())
        if mon.self_preservation and _has(game, "oil"):
            out.append(ThrowOil())
        if game.tired() or win() >= FIGHT_ODDS:
            out.append(Fight())
        out.append(Run())
        return out


# --- whole games -----------------------------------------------------------------------------------------------

MAX_ACTIONS = 5000  # a game still running after this many accepted actions is a timeout
MAX_REFUSALS = 20  # refusals in a row at one turn: the bot is stuck (a timeout)
MAX_STUCK = 30  # choices in a row with nothing useful to do: a timeout


@dataclass(frozen=True)
class GameResult:
    seed: int
    ruleset: str
    outcome: str  # "won", "dead", "timeout" or "crash"
    turns: int
    deepest: int  # 1-based level reached
    cause: str | None = None  # what killed the party, or the crash
    recording: str | None = None
    # For a death: whether the party had a way out of the meeting that killed it (see :func:`had_a_way_out`) at
    # any of its decisions; None for a game that did not end in death.
    choice: bool | None = None


@dataclass
class Timing:
    """Where a bot's games spend their time (``play_game(timing=...)``, for ``undercroft bench``): ``bot``, the
    bot's side of each action (:func:`had_a_way_out` and :meth:`Bot.choose`: everything it asks
    the engine on the way, its fields of view folded into the explored map among them); ``step``, the engine's
    ``Game.step`` (with its recording, for a recorded game); ``actions``, the actions taken (refused ones too)."""

    bot: float = 0.0
    step: float = 0.0
    actions: int = 0


def game_seed(seed: int | str, index: int) -> int:
    """The seed of game ``index`` of an autoplay batch started with ``seed``."""
    return (parse_seed(seed) + index) % (1 << 64)


_WAYS_OUT: tuple[Action, ...] = (Run(), Talk(), Bribe(0))


def had_a_way_out(game: Game) -> bool:
    """Whether the party, facing a group, may now do something other than fight it: run (from a meeting or a fight,
    or on in a pursuit), talk, bribe, drop food or treasure that may distract it, or walk on past a group that is out
    of sight or at peace. A death after a meeting where this never held is a death "without a choice"
    (docs/BALANCE.md)."""
    legal = game.legal
    st = game.state
    g = st.front_group()
    if g is None:
        return True
    enc = st.encounter
    if st.mode == Mode.ENCOUNTER and (g.peaceful or (enc is not None and enc.out_of_sight)):
        return True
    if any(legal(a) for a in _WAYS_OUT):
        return True
    mon = game.monster_of(g)
    submerged = Behaviour.SUBMERGED in mon.behaviours
    food = legal(DropFood()) and formulas.distracted_by("food", mon.intelligent, submerged)
    return food or (legal(DropTreasure()) and formulas.distracted_by("treasure", mon.intelligent, submerged))


def play_game(
    content: Content,
    ruleset: str,
    seed: int,
    *,
    record: str | None = None,
    max_actions: int = MAX_ACTIONS,
    timing: Timing | None = None,
) -> GameResult:
    """Play one game with the bot; with ``record`` (a file path) write its recording (:data:`RECORD_BATCH` action
    lines a write: a bot's game is never continued, and only a process killed outright loses its last lines).

    An exception inside the engine is caught here (after the recorder wrote the crash line and report) and
    reported as the outcome ``crash``. With ``timing``, the bot's and the engine's seconds are added to it.
    """
    game = Game(content, ruleset, seed)
    bot = Bot(game, seed)
    recorder = Recorder.create(Path(record), game, content, overwrite=True, batch=RECORD_BATCH) if record else None
    refusals = 0
    ways: dict[int, bool] = {}  # group id -> the party had a way out of meeting it at one of its decisions
    facing: int | None = None  # the group in front of the party at its last decision
    try:
        while not game.over and game.state.turn < max_actions:
            t0 = time.perf_counter() if timing is not None else 0.0
            front = game.state.front_group()
            facing = None if front is None else front.id
            if front is not None and not ways.get(front.id, False):
                ways[front.id] = had_a_way_out(game)
            action = bot.choose()
            t1 = time.perf_counter() if timing is not None else 0.0
            try:
                events = play_step(game, recorder, action) if recorder else game.step(action)
            except Exception as exc:
                return GameResult(
                    seed,
                    ruleset,
                    "crash",
                    game.state.turn,
                    game.state.depth + 1,
                    f"{type(exc).__name__}: {exc}",
                    record,
                )
            if timing is not None:
                timing.bot += t1 - t0
                timing.step += time.perf_counter() - t1
                timing.actions += 1
            if len(events) == 1 and events[0].type == "refused":
                bot.refused(action)
                refusals += 1
                if refusals >= MAX_REFUSALS:
                    break
            else:
                refusals = 0
            if bot.stuck >= MAX_STUCK:
                break
    finally:
        if recorder is not None:
            recorder.close()
    st = game.state
    if st.mode == Mode.WON:
        return GameResult(seed, ruleset, "won", st.turn, st.depth + 1, None, record)
    if st.mode == Mode.DEAD:
        cause = str(st.death["cause"]) if st.death else "unknown"
        choice = True if facing is None else ways.get(facing, False)  # (struck walking past: it chose to pass)
        return GameResult(seed, ruleset, "dead", st.turn, st.depth + 1, cause, record, choice)
    return GameResult(seed, ruleset, "timeout", st.turn, st.depth + 1, None, record)


def summarize(results: list[GameResult]) -> dict[str, object]:
    """The autoplay summary: games, wins, deaths by cause, deepest level, mean turns, timeouts (and crashes)."""
    deaths: dict[str, int] = {}
    for r in results:
        if r.outcome == "dead":
            key = r.cause or "unknown"
            deaths[key] = deaths.get(key, 0) + 1
    levels = max((r.deepest for r in results), default=0)
    by_level = [sum(r.outcome == "dead" and r.deepest == k for r in results) for k in range(1, levels + 1)]
    return {
        "games": len(results),
        "wins": sum(r.outcome == "won" for r in results),
        "deaths": dict(sorted(deaths.items(), key=lambda kv: (-kv[1], kv[0]))),
        "deaths_by_level": by_level,
        "deaths_without_choice": sum(r.outcome == "dead" and r.choice is False for r in results),
        "deepest": levels,
        "mean_turns": round(sum(r.turns for r in results) / len(results), 1) if results else 0.0,
        "timeouts": sum(r.outcome == "timeout" for r in results),
        "crashes": sum(r.outcome == "crash" for r in results),
    }
