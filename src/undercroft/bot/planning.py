"""The reference player's walks: where it goes, by which tiles, and which door it runs through.

:class:`Walker` keeps the walk planned (its goal and the tiles to it) and what the plans avoid on this level (the
segments it fled from, the tiles a step into was refused), plans with the engine's one least-cost search
(:class:`~undercroft.rules.searches.CostFlood`, flooding only as far as the nearest goal) and walks each way to its
end (:meth:`Walker.goal_valid`, :meth:`Walker.next_step`). It knows what a player at the screen knows
(:class:`~undercroft.rules.view.View`): it walks only over the floor seen, round the groups it knows of. The goals,
in order: an item seen; the stairs once seen, on the last level or with :data:`STOCKED` potions; the floor seen
beside the unseen (where walking on shows more); the stairs once seen; and, as a last resort, back at a group that
stands in the way. A monster at peace is a slow way through
(:data:`PASS_COST`); orthogonal steps first, diagonal ones only to get round a monster in a doorway.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from undercroft.rules import dungeon, items
from undercroft.rules.actions import Action, Move, Run
from undercroft.rules.floods import MAX_DIST, bits_of
from undercroft.rules.game import Game
from undercroft.rules.rng import Stream
from undercroft.rules.searches import CostFlood
from undercroft.rules.view import View

Point = tuple[int, int]

PASS_COST = 8  # walking through a monster at peace (it steps aside), against 1 for a free tile
MAX_LEVEL_MOVES = 700  # then stop exploring and make for the stairs
STOCKED = 2  # potions enough to go on once the stairs are seen, rather than explore the rest of the level
BLOCKED_TURNS = 100  # turns a tile a step into was refused stays out of the plans
FAR = MAX_DIST
_STEPS: tuple[Point, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0))
_PASSES = ((True, False), (True, True), (False, False), (False, True))  # (avoid, diagonal), in turn


def steps(a: Point, b: Point) -> int:
    """Steps between two tiles in the open (the party walks in eight directions)."""
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


def count(game: Game, kind: str) -> int:
    """The party's items of ``kind`` (of potions, those that heal: what ``Drink`` takes)."""
    return items.carried(game.content, game.state.items, kind)


class Walker:
    """One game's walks (see the module docstring): ``path`` the tiles still to walk to ``goal``, a goal of
    ``kind`` (``item``, ``explore``, ``stairs``, ``reengage``; ``""``: none)."""

    def __init__(self, game: Game, rng: Stream, max_level_moves: int = MAX_LEVEL_MOVES) -> None:
        self.game = game
        self.view = View(game)  # all it knows of the level
        self.rng = rng  # its tie-breaks between goals as near
        self.max_level_moves = max_level_moves
        self.path: list[Point] = []
        self.goal: Point | None = None
        self.kind = ""
        self.planned_at = (-1, -1)  # (level, its revision) when the plan was made
        self.forced = False  # the current plan had to go through a segment it fled from
        self.level_moves = 0  # steps taken on this level
        self.avoid: set[int] = set()  # segments of this level holding a monster the party fled from
        self.blocked: dict[Point, int] = {}  # tiles a step into was refused -> the turn until which to avoid them
        self._looked: tuple[object, set[tuple[Point, int]], int] = (None, set(), 0)  # (level, its looks, as bits)
        self._explored: int | None = None  # while a plan is made: the level's explored tiles as bits (read once)

    def new_level(self) -> None:
        """The party has come down to a new level."""
        self.level_moves = 0
        self.avoid.clear()
        self.path, self.goal, self.kind = [], None, ""
        self.blocked.clear()

    def taken(self, a: Move) -> None:
        """The step ``a`` is taken."""
        st = self.game.state
        self.level_moves += 1
        if self.path and self.path[0] == (st.pos[0] + a.dx, st.pos[1] + a.dy):
            self.path.pop(0)  # (a step of the walk is taken only with the move: see next_step)

    def refused(self, action: Action) -> None:
        """The engine refused ``action``: plan again; a step refused (something stands there the bot did not see, or
        may not pass) is not planned through again for :data:`BLOCKED_TURNS` turns."""
        self.path = []
        if isinstance(action, Move):
            st = self.game.state
            self.blocked[(st.pos[0] + action.dx, st.pos[1] + action.dy)] = st.turn + BLOCKED_TURNS

    def flee(self, segment: int) -> None:
        """The party runs from a group in ``segment``: plans go round it from now on."""
        self.avoid.add(segment)
        self.path = []

    # --- the walking costs --------------------------------------------------------------------------------

    def walk_cost(self, avoid: bool, through: bool = False) -> npt.NDArray[np.int8]:
        """The cost of entering each tile (0: never): floor seen 1, a group at peace :data:`PASS_COST` (it steps aside,
        or its peace walls the party in: a group it made terms with in a corridor, the one way on), a hostile group
        or a blocked tile 0; with ``avoid``, the segments it fled from 0 but the party's own; with ``through`` (the
        last resort), a hostile group is a way on too: stepping into it meets it."""
        st = self.game.state
        lv = st.level
        cost: npt.NDArray[np.int8] = ((lv.map.tiles != dungeon.WALL) & self.view.explored()).astype(np.int8)
        if avoid and self.avoid:
            seg = lv.map.segment_of
            for s in sorted(self.avoid):
                if s != st.segment:
                    cost[seg == s] = 0
        for grp in self.view.groups():
            free = (grp.peaceful or through) and bool(cost[grp.pos[1], grp.pos[0]])
            cost[grp.pos[1], grp.pos[0]] = PASS_COST if free else 0
        for (x, y), until in self.blocked.items():
            if until > st.turn:
                cost[y, x] = 0
        cost[st.pos[1], st.pos[0]] = 1
        return cost

    def floor_bits(self) -> int:
        """The floor seen on this level as a bit set (:func:`~undercroft.rules.floods.bits_of`)."""
        return self.view.floor_bits(self._explored)

    def segment_bits(self, s: int) -> int:
        """The tiles of segment ``s`` as a bit set (``-1``: the tiles of every segment)."""
        seg = self.game.state.level.map.segment_of
        return bits_of(seg >= 0 if s == -1 else seg == s)

    def cost_bits(self, avoid: bool, through: bool = False) -> list[tuple[int, int]]:
        """:meth:`walk_cost` as (cost, tiles) bit sets, for :class:`CostFlood`."""
        st = self.game.state
        lv = st.level
        stride = lv.map.width + 1
        ones = self.floor_bits()
        passes = 0
        if avoid and self.avoid:
            for s in sorted(self.avoid):
                if s != st.segment:
                    ones &= ~self.segment_bits(s)
        for grp in self.view.groups():
            bit = 1 << (grp.pos[1] * stride + grp.pos[0])
            free = (grp.peaceful or through) and bool((ones | passes) & bit)
            ones &= ~bit
            passes = passes | bit if free else passes & ~bit
        for (x, y), until in self.blocked.items():
            if until > st.turn:
                bit = 1 << (y * stride + x)
                ones &= ~bit
                passes &= ~bit
        b = 1 << (st.pos[1] * stride + st.pos[0])  # (the party's tile: always a way, entered at 1)
        return [(1, ones | b), (PASS_COST, passes & ~b)]

    # --- the goals and the plans --------------------------------------------------------------------------

    def goal_bits(self) -> list[tuple[str, int]]:
        """The goals of a walk in order of preference, as bit sets (see the module docstring), but the last resort
        (:meth:`reengage_bits`)."""
        st = self.game.state
        lv = st.level
        m = lv.map
        stride = m.width + 1
        explored = lv.explored_bits() if self._explored is None else self._explored
        items = 0
        for x, y in lv.items:
            items |= 1 << (y * stride + x)
        out = [("item", items & explored)]
        stairs = 0 if m.stairs is None else 1 << (m.stairs[1] * stride + m.stairs[0])
        if stairs & explored and (self.game.rs.levels[st.depth].final or count(self.game, "potion") >= STOCKED):
            out.append(("stairs", stairs))
        if self.exploring():
            out.append(("explore", self.view.frontier_bits(explored) & ~self._looked_bits()))
        if stairs & explored:
            out.append(("stairs", stairs))
        return out

    def _looked_bits(self) -> int:
        """:meth:`View.looked_bits`, kept: the looks of a level only grow, so only the new ones are added."""
        lv = self.game.state.level
        known, keys, bits = self._looked
        if known is not lv:
            keys, bits = set(), 0
        if len(keys) != len(lv.looked):
            stride = lv.map.width + 1
            for (x, y), _radius in lv.looked - keys:
                bits |= 1 << (y * stride + x)
            keys = set(lv.looked)
        self._looked = (lv, keys, bits)
        return bits

    def exploring(self) -> bool:
        """Whether walking on to see more of the level is still a goal: before :attr:`max_level_moves` steps on it,
        and after them until the stairs are seen."""
        return self.level_moves < self.max_level_moves or self.view.stairs() is None

    def reengage_bits(self) -> int | None:
        """The last resort's goal as a bit set (None without a hostile group on the level): a monster that is not at
        peace stands in the way; walking into its segment starts an encounter, so the segments but the party's when
        it shares one with such a group (step out of it first), else such groups' segments and tiles (one may stand
        in its segment's only door: step into it)."""
        st = self.game.state
        lv = st.level
        hostile = [grp for grp in self.view.groups() if not grp.peaceful]
        if not hostile:
            return None
        walk = self.floor_bits()
        if any(grp.segment == st.segment for grp in hostile):
            return walk & self.segment_bits(-1) & ~self.segment_bits(st.segment)
        stride = lv.map.width + 1
        mask = 0
        for grp in hostile:
            mask |= (self.segment_bits(grp.segment) & walk) | 1 << (grp.pos[1] * stride + grp.pos[0])
        return mask

    def plan(self) -> None:
        """Plan the walk to the nearest goal, by the goals in order of preference and the passes in turn (avoiding
        the segments it fled from, then not: only to get on; orthogonal steps, then diagonal). The same goals,
        distances and paths as ``dijkstra_map`` and ``hillclimb2d`` over the whole level would give, found only as
        far as the nearest goal (tests/test_bot_plan.py)."""
        st = self.game.state
        self._explored = st.level.explored_bits()  # (nothing changes while a plan is made)
        try:
            self._plan()
        finally:
            self._explored = None

    def _plan(self) -> None:
        st = self.game.state
        self.path, self.goal, self.kind = [], None, ""
        self.planned_at = (st.level.index, st.level.rev)
        here_bit = 1 << (st.pos[1] * (st.level.map.width + 1) + st.pos[0])
        goals = self.goal_bits()
        on = ("stairs",) if self.view.stairs() is not None else ("stairs", "explore")  # the ways on known
        floods: dict[tuple[bool, bool], CostFlood] = {}
        for avoid, diagonal in _PASSES:
            for kind, mask in goals:
                if not avoid and kind not in on:
                    continue  # through a monster it fled from only to get on (or to win)
                if self._plan_to(kind, mask, here_bit, avoid, diagonal, False, floods):
                    return
        reengage = self.reengage_bits()
        if reengage is not None:
            floods.clear()
            for avoid, diagonal in _PASSES:
                if self._plan_to("reengage", reengage, here_bit, avoid, diagonal, True, floods):
                    return
            floods.clear()
        # Nothing else: any goal through a monster it fled from (the stairs it saw may lie beyond floor not seen yet,
        # and standing still is no way on)
        for diagonal in (False, True):
            for kind, mask in goals:
                if kind not in on and self._plan_to(kind, mask, here_bit, False, diagonal, False, floods):
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
        """Plan the walk to the nearest tile of ``mask`` (a goal of ``kind``) by one pass of :meth:`plan`; False
        when none is in reach."""
        st = self.game.state
        if kind == "stairs" and mask & here_bit:
            self.goal, self.kind, self.forced = st.pos, kind, not avoid
            return True
        reach = mask & ~here_bit
        if not reach:
            return False
        flood = floods.get((avoid, diagonal))
        if flood is None:
            m = st.level.map
            costs = self.cost_bits(avoid, through=last_resort)
            flood = floods[(avoid, diagonal)] = CostFlood(m.width, m.height, costs, st.pos, diagonal)
        reach &= flood.all  # (a goal on a tile it may not enter is never reached: no flood to the end to find that)
        best = flood.nearest(reach) if reach else None
        if best is None:
            return False
        tiles = flood.at(best, reach)
        goal = tiles[self.rng.below(len(tiles))] if len(tiles) > 1 else tiles[0]
        self.path = flood.path(goal, best)
        self.goal, self.kind, self.forced = goal, kind, not avoid
        return True

    def goal_valid(self) -> bool:
        """Whether the walk planned still leads somewhere worth going: an item still lying there; unexplored floor
        (to the end of the walk: a tile that has come into view on the way is still walked to, as a player walks to
        the spot clicked, and the next plan is made there, not at every step; but see :meth:`next_step`); the
        stairs; a group in the way, while the groups on the level stay as they were."""
        lv = self.game.state.level
        goal = self.goal
        if goal is None:
            return False
        kind = self.kind
        if kind == "item":
            return goal in lv.items
        if kind == "explore":
            return self.exploring()
        if kind == "reengage":
            return self.planned_at == (lv.index, lv.rev)
        return kind == "stairs"

    def next_step(self) -> Point | None:
        """The next tile of the walk planned, planning a new one where the old one ended, is no longer worth going
        (:meth:`goal_valid`), is blocked, or would step into another segment (a monster check) for a spot already
        in view. The tile is taken off the walk when the move is taken (:meth:`taken`)."""
        st = self.game.state
        lv = st.level
        path = self.path
        if not path and self.goal == st.pos and self.kind == "stairs":
            return None  # on the stairs it made for (resting before it goes down)
        explore = self.kind == "explore"
        ok = bool(path) and self.goal_valid()
        if ok:
            nxt = path[0]
            dx, dy = nxt[0] - st.pos[0], nxt[1] - st.pos[1]
            if not (-1 <= dx <= 1 and -1 <= dy <= 1) or (dx == 0 and dy == 0):
                ok = False
            else:
                knows = self.view.knows
                ok = not any(grp.pos == nxt and knows(grp) for grp in lv.groups)  # (a group it knows of there)
            if ok and explore and lv.map.segment_rows[nxt[1]][nxt[0]] != st.segment:
                # Into another segment (a monster check) only to see more: choose again if all round the spot made
                # for has come into view.
                goal = self.goal
                ok = goal is not None and self.view.beside_unseen(goal)
        if not ok:
            self.plan()
        return self.path[0] if self.path else None

    def run(self) -> Run:
        """Running from the group in front of the party through the open door that best gets away: least by
        (into a segment holding another hostile group, one it fled from, a door the group stands as near as the
        party, a segment not yet entered, the walk from the goal, the party's lead, the door's index); ``Run()``
        when that is the way the party came in (or no door is open: the engine says why)."""
        game = self.game
        st = game.state
        lv = st.level
        ways = game.exits()
        open_ = [i for i, w in enumerate(ways) if not w.blocked]
        if not open_:
            return Run()
        g = st.front_group()
        tiles = [] if g is None else [p for p, hp in zip(game.creature_tiles(g), g.hp, strict=True) if hp > 0]
        hostile = {o.segment for o in self.view.groups() if not o.peaceful and (g is None or o.id != g.id)}

        def key(i: int) -> tuple[bool, bool, bool, bool, int]:
            w = ways[i]
            them = min((steps(t, w.door) for t in tiles), default=FAR)
            lead = them - steps(st.pos, w.door)  # how much nearer that door the party stands than the group
            seen = w.segment >= 0 and bool(lv.visited[w.segment])
            return (w.segment in hostile, w.segment in self.avoid, lead <= 0, not seen, lead)

        # The walk from the goal only between doors that tie on what comes before it (its flood only then).
        keys = {i: key(i) for i in open_}
        first = min(k[:4] for k in keys.values())
        tied = [i for i in open_ if keys[i][:4] == first]
        best = tied[0]
        if len(tied) > 1:
            to_goal = self.from_goal()

            def far(i: int) -> tuple[int, int, int]:
                landing = ways[i].landing
                return (FAR if to_goal is None else to_goal.distance(landing), -keys[i][4], i)

            best = min(tied, key=far)
        return Run() if ways[best].came_in else Run(door=best)

    def from_goal(self) -> CostFlood | None:
        """Walking distances to the goal (the current one, else the stairs once seen), flooded from it only as far as
        asked (:meth:`CostFlood.distance`: the numbers of ``dijkstra_map`` over :meth:`walk_cost` with the goal's own
        tile walkable)."""
        st = self.game.state
        goal = self.goal if self.goal is not None else self.view.stairs()
        if goal is None:
            return None
        m = st.level.map
        b = 1 << (goal[1] * (m.width + 1) + goal[0])
        (one, ones), (pass_cost, passes) = self.cost_bits(True)
        return CostFlood(m.width, m.height, [(one, ones | b), (pass_cost, passes & ~b)], goal, True)
