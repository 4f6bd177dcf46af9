"""Least-cost searches over a grid of tiles held as bit sets (the layout of :mod:`undercroft.rules.floods`: bit
``y * (w + 1) + x``), entering a tile at its cost, in four directions or eight.

:class:`CostFlood` is the one search: a bucket queue of bit sets (a breadth-first flood where every step costs 1),
run a cost at a time and only as far as asked (the nearest tile of a set, one tile's cost), with the path back as
``tcod.path.hillclimb2d`` walks it. On it: :func:`dijkstra_map` (the whole map of costs, or as far as a goal: the
dungeon generator's corridors, the bot's ways round), :func:`least_cost_path` and :func:`distances_to` (read off
its sets without the array), :func:`distance_map` and :func:`descend_path`. The bot's plans use the flood itself.
"""

from __future__ import annotations

import bisect

import numpy as np
import numpy.typing as npt

from undercroft.rules.floods import (
    MAX_DIST,
    STEPS,
    BoolArray,
    Point,
    _unbits,
    bits_of,
    first_layer,
    spread,
    tiles_of,
)

# tcod.path.hillclimb2d's order of neighbours, as (dx, dy): its cardinal ones (-1, 0), (1, 0), (0, -1), (0, 1) and
# diagonal ones (-1, -1), (1, -1), (-1, 1), (1, 1) are (row, column) steps.
_CLIMB: tuple[Point, ...] = ((0, -1), (0, 1), (-1, 0), (1, 0))
_CLIMB_DIAGONAL: tuple[Point, ...] = (*_CLIMB, (-1, -1), (-1, 1), (1, -1), (1, 1))


class CostFlood:
    """The least walking costs from one tile (entering a tile costs its cost, 0: never entered; four directions,
    or eight with ``diagonal``), found a cost at a time and only as far as asked, and the path back to the origin
    as ``tcod.path.hillclimb2d`` walks it on those costs (tests/test_flood.py and tests/test_bot_plan.py check both
    against tcod). Its sets of tiles are integers laid out as :func:`~undercroft.rules.floods.bits_of` lays them;
    ``layers[d]`` the tiles settled at cost ``d``, ``order`` those costs, rising.

    ``costs``: (cost, tiles) pairs, the tiles of each cost (the origin need not be among them)."""

    def __init__(
        self,
        width: int,
        height: int,
        costs: list[tuple[int, int]],
        origin: Point,
        diagonal: bool,
    ) -> None:
        self.width, self.height, self.stride = width, height, width + 1
        self.diagonal = diagonal
        self.classes = [(c, b) for c, b in sorted(costs) if c > 0 and b]
        self.unit = len(self.classes) == 1 and self.classes[0][0] == 1
        start = 1 << (origin[1] * self.stride + origin[0])
        open_ = 0
        for _, b in self.classes:
            open_ |= b
        self.all = open_ | start  # every tile that can be settled
        self.open = self.all ^ start  # those not settled yet
        self.origin = origin
        self.layers: dict[int, int] = {0: start}  # cost -> the tiles settled at it
        self.order: list[int] = [0]  # the costs settled so far, rising
        self.now = start
        self.d = 0
        self.pending: dict[int, int] = {}
        self.done = not self.open  # (nothing to reach: every tile closed)

    @property
    def seen(self) -> int:
        """The tiles settled so far."""
        return self.all ^ self.open

    def _advance(self) -> bool:
        """Settle the next cost; False when nothing is left to reach."""
        if self.done:
            return False
        return self._settle(0) is not None or not self.done

    def _settle(self, mask: int) -> int | None:
        """A bucket queue of bit sets (cost -> tiles reached at it, not yet settled; with every step 1, a
        breadth-first flood), the least cost settled a step, until a settled set meets ``mask`` (its cost) or nothing
        is left (None; with ``mask`` 0, one cost only, None)."""
        s = self.stride
        open_, now, d = self.open, self.now, self.d
        layers, order, pending = self.layers, self.order, self.pending
        (least, _), others = self.classes[0], self.classes[1:]
        diagonal = self.diagonal
        found = None
        unit = self.unit
        while True:
            if unit:  # every step costs 1: the bucket queue is a breadth-first flood, a layer a step
                now = spread(now, s, diagonal) & open_
                d += 1 if now else 0
            else:
                step = spread(now, s, diagonal) & open_
                if step:
                    # (the classes split the open tiles: what is in none of the others costs the least)
                    for c, bits in others:
                        got = step & bits
                        if got:
                            pending[d + c] = pending.get(d + c, 0) | got
                            step ^= got
                    if step:
                        pending[d + least] = pending.get(d + least, 0) | step
                now = 0
                while pending and not now:
                    d = min(pending)
                    now = pending.pop(d) & open_
            if not now:
                self.done = True
                break
            open_ ^= now
            layers[d] = now
            order.append(d)
            if now & mask:
                found = d
                break
            if not mask:
                break
        self.open, self.now, self.d = open_, now, d
        return found

    def nearest(self, mask: int) -> int | None:
        """The least cost at which a tile of ``mask`` is reached (None: none is)."""
        if self.seen & mask:
            for d in self.order:
                if self.layers[d] & mask:
                    return d
        if self.done or not mask:
            while self._advance():  # (mask 0: the whole map)
                pass
            return None
        return self._settle(mask)

    def at(self, d: int, mask: int) -> list[Point]:
        """The tiles of ``mask`` reached at cost ``d``, in row-major order."""
        return tiles_of(self.layers.get(d, 0) & mask, self.stride)

    def distance(self, tile: Point) -> int:
        """The least cost of reaching ``tile`` (:data:`MAX_DIST`: it cannot be reached), as ``dijkstra_map`` has it."""
        d = self.nearest(1 << (tile[1] * self.stride + tile[0]))
        return MAX_DIST if d is None else d

    def _cost(self, b: int) -> int:
        """The cost of entering the tile of bit ``b``."""
        for c, bits in self.classes:
            if bits >> b & 1:
                return c
        return 0

    def path(self, goal: Point, d: int) -> list[Point]:
        """``tcod.path.hillclimb2d`` from ``goal`` (settled at ``d``) down to the origin, reversed: the steps from the
        origin to ``goal``, the origin left out. Each tile's least neighbour costs its cost less than itself (the
        first in hillclimb2d's order among equals)."""
        s, w, h = self.stride, self.width, self.height
        moves = _CLIMB_DIAGONAL if self.diagonal else _CLIMB
        # Each neighbour's bit counted from the tile's upper left neighbour (its row above, one column left). A
        # neighbour past the left or right edge is the padding column, never settled; past the bottom, nothing is.
        offsets = [(dy * s + dx + s + 1, dx, dy) for dx, dy in moves]
        layers = self.layers
        x, y = goal
        out = [goal]
        unit = self.unit
        window = (1 << (2 * s + 3)) - 1  # the three rows round a tile, as bits from its upper left neighbour on
        while d > 0:
            b = y * s + x
            d -= 1 if unit else self._cost(b)
            if b > s:
                near = layers[d] >> (b - s - 1) & window  # (one shift of the whole layer a step, not one a neighbour)
                for off, dx, dy in offsets:
                    if near >> off & 1:
                        x, y = x + dx, y + dy
                        break
                else:  # (cannot happen: a settled tile has a neighbour settled at its cost less its own)
                    raise AssertionError("no way back")
            else:  # the top row, or the first tile of the next: no upper left neighbour
                for dx, dy in moves:
                    nx, ny = x + dx, y + dy
                    if 0 <= nx < w and 0 <= ny < h and layers[d] >> (ny * s + nx) & 1:
                        x, y = nx, ny
                        break
                else:
                    raise AssertionError("no way back")
            out.append((x, y))
        out.reverse()
        return out[1:]


def _search(
    cost: npt.NDArray[np.integer] | BoolArray, origin: Point, diagonal: bool, goal: Point | None
) -> tuple[int, list[int], list[int]]:
    """The least-cost search of :func:`dijkstra_map` as bit sets: ``(stride, ds, cum)``, where ``ds`` are the costs
    at which tiles were settled, rising, and ``cum[k]`` every tile settled at ``ds[k]`` or less (bit
    ``y * stride + x``): a :class:`CostFlood` run to the end, or, with ``goal``, until that tile is settled."""
    h, w = cost.shape
    if cost.dtype == np.bool_:
        classes = [(1, bits_of(cost.astype(bool, copy=False)))]
    else:
        classes = [(int(c), bits_of(cost == c)) for c in np.unique(cost) if c > 0]
    return _search_classes(w, h, classes, origin, diagonal, goal)


def _search_classes(
    w: int, h: int, classes: list[tuple[int, int]], origin: Point, diagonal: bool, goal: Point | None
) -> tuple[int, list[int], list[int]]:
    """:func:`_search` on a map of ``w`` x ``h`` given as its costs' tiles, ``(cost, bits)`` pairs."""
    stride = w + 1
    flood = CostFlood(w, h, classes, origin, diagonal)
    flood.nearest(0 if goal is None else 1 << (goal[1] * stride + goal[0]))
    cum: list[int] = []
    seen = 0
    for d in flood.order:
        seen |= flood.layers[d]
        cum.append(seen)
    return stride, flood.order, cum


def dijkstra_map(
    cost: npt.NDArray[np.integer] | BoolArray, origin: Point, diagonal: bool = False, goal: Point | None = None
) -> npt.NDArray[np.int32]:
    """Least walking costs from ``origin`` to every tile: entering a tile costs its ``cost`` (0: it cannot be
    entered; ``origin`` is left whatever its own cost), in four directions, or eight with ``diagonal`` (a diagonal
    step costs the same and may pass between two walls); :data:`MAX_DIST` where it cannot reach.

    The same distances as ``tcod.path.dijkstra2d(dist, cost, 1, 1 if diagonal else None)`` from a single zero
    (tests/test_flood.py checks it), which leaks native memory in tcod 21.2. A bucket queue of bit
    sets: the map is one Python integer a tile set (each row ``w + 1`` bits, the last one always blocked so a step
    off a row's end lands nowhere), a step from a set is a handful of shifts, and the tiles settled at each cost are
    written back to the array at the end, one bit plane of the cost a time.

    With ``goal``, the search stops once that tile is settled: every tile cheaper than it has its cost, the others
    are left at :data:`MAX_DIST` (enough to walk down from ``goal`` with :func:`descend_path`).
    """
    h, w = cost.shape
    stride, ds, cum = _search(cost, origin, diagonal, goal)
    top = ds[-1]
    # ``under[x]``: the tiles settled at a cost under ``x``, for x = 0 .. top + 1.
    if top + 1 == len(ds):
        under = [0, *cum]
    else:
        under = [cum[bisect.bisect_left(ds, x) - 1] if x else 0 for x in range(top + 2)]

    # Bit j of a tile's cost is set where the cost lies in [a, a + 2**j) for a = 2**j, 3 * 2**j, ...
    planes: list[int] = []
    for j in range(top.bit_length()):
        low = 1 << j
        plane = 0
        for a in range(low, top + 1, 2 * low):
            plane |= under[min(a + low, top + 1)] ^ under[a]
        planes.append(plane)
    reached = cum[-1]
    nbytes = (h * stride + 7) // 8
    dist = np.zeros(h * stride, dtype=np.int32)
    for j, plane in enumerate(planes):
        if plane:
            dist |= _unbits(plane, nbytes, h * stride).astype(np.int32) << j
    got_any = _unbits(reached, nbytes, h * stride).astype(bool)
    dist[~got_any] = MAX_DIST
    return dist.reshape(h, stride)[:, :w].copy()


def distances_to(walk: BoolArray, origin: Point, points: list[Point]) -> list[int]:
    """Orthogonal step counts from ``origin`` over ``walk`` to each of ``points`` (:data:`MAX_DIST` where it
    cannot reach): :func:`distance_map`'s values there, read off the search's bit sets without the array."""
    h, w = walk.shape
    stride, ds, cum = _search(walk, origin, False, None)
    out = []
    for x, y in points:
        bit = 1 << (y * stride + x) if 0 <= x < w and 0 <= y < h else 0
        out.append(ds[first_layer(cum, bit, len(cum) - 1)] if cum[-1] & bit else MAX_DIST)
    return out


def least_cost_path(cost: npt.NDArray[np.integer] | BoolArray, origin: Point, goal: Point) -> list[Point]:
    """``descend_path(dijkstra_map(cost, origin, goal=goal), goal)`` without the array: the search's bit sets
    answer the few costs the walk down asks for (each a binary search over the settled layers). A path from
    ``goal`` to ``origin``, both included; [] when ``goal`` cannot be reached."""
    h, w = cost.shape
    return _walk_down(*_search(cost, origin, False, goal), w, h, goal)


def least_cost_path_classes(w: int, h: int, classes: list[tuple[int, int]], origin: Point, goal: Point) -> list[Point]:
    """:func:`least_cost_path` on a map of ``w`` x ``h`` given as its costs' tiles, ``(cost, bits)`` pairs (bit sets
    as :func:`~undercroft.rules.floods.bits_of` lays them): no cost array to read them from."""
    return _walk_down(*_search_classes(w, h, classes, origin, False, goal), w, h, goal)


def _walk_down(stride: int, _ds: list[int], cum: list[int], w: int, h: int, goal: Point) -> list[Point]:
    """The walk down the settled layers ``cum`` from ``goal`` (see :func:`least_cost_path`)."""
    x, y = goal
    if not (0 <= x < w and 0 <= y < h) or not cum[-1] & (1 << (y * stride + x)):
        return []

    k = first_layer(cum, 1 << (y * stride + x), len(cum) - 1)
    path = [goal]
    heading: Point | None = None
    while k > 0:
        lower = cum[k - 1]  # every tile cheaper than here
        best: tuple[int, Point] | None = None
        for step in (heading, *STEPS) if heading else STEPS:
            nx, ny = x + step[0], y + step[1]
            if 0 <= nx < w and 0 <= ny < h:
                bit = 1 << (ny * stride + nx)
                if lower & bit:
                    nk = k - 1 if k < 2 or not cum[k - 2] & bit else first_layer(cum, bit, k - 2)
                    if best is None or nk < best[0]:
                        best = (nk, step)
        if best is None:  # cannot happen: a settled tile has a cheaper neighbour
            return []
        k, heading = best
        x, y = x + heading[0], y + heading[1]
        path.append((x, y))
    return path


def distance_map(walk: BoolArray, origin: Point) -> npt.NDArray[np.int32]:
    """Orthogonal step counts from ``origin`` over ``walk``; :data:`MAX_DIST` where it cannot reach."""
    return dijkstra_map(walk, origin)


def descend_path(dist: npt.NDArray[np.int32], start: Point) -> list[Point]:
    """Walk down a distance map from ``start`` to its zero; straight on where possible, else N, E, S, W."""
    height, width = dist.shape
    x, y = start
    d = int(dist[y, x])
    if d >= MAX_DIST:
        return []
    path = [start]
    heading: Point | None = None
    while d > 0:
        best: tuple[int, Point] | None = None
        for step in (heading, *STEPS) if heading else STEPS:
            nx, ny = x + step[0], y + step[1]
            if 0 <= nx < width and 0 <= ny < height:
                nd = int(dist[ny, nx])
                if nd < d and (best is None or nd < best[0]):
                    best = (nd, step)
        if best is None:  # a distance map always has a lower neighbour; guard against a corrupt one
            return []
        d, heading = best
        x, y = x + heading[0], y + heading[1]
        path.append((x, y))
    return path
