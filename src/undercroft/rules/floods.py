"""Floods and searches over a grid of tiles held as bit sets: each set of tiles is one Python integer, bit
``y * (w + 1) + x`` (each row one blocked bit longer, so a step off a row's end lands nowhere), and a step from a
set is a handful of shifts.

:func:`flood_layers` / :func:`flood_bits` (eight directions, every step 1: the engine's walking distances and the
front ends' travel), :func:`dijkstra_map` (weighted costs, four or eight directions: the dungeon generator's
corridors and the bot), read without the array by :func:`least_cost_path` and :func:`distances_to`;
:func:`bits_of` and :func:`tiles_of` convert between a mask and its bits. No map here: :mod:`levelmap` builds on
it.
"""

from __future__ import annotations

import bisect
from typing import Final

import numpy as np
import numpy.typing as npt

Point = tuple[int, int]  # (x, y)
BoolArray = npt.NDArray[np.bool_]

MAX_DIST: Final = int(np.iinfo(np.int32).max)
# Orthogonal steps (dx, dy) in the fixed tie-break order: north, east, south, west.
STEPS: Final[tuple[Point, ...]] = ((0, -1), (1, 0), (0, 1), (-1, 0))


def bits_of(mask: BoolArray) -> int:
    """A (height, width) mask as one integer: bit ``y * (width + 1) + x`` (each row one blocked bit longer)."""
    h, w = mask.shape
    padded = np.zeros((h, w + 1), dtype=bool)
    padded[:, :w] = mask
    return padded_bits(padded)


def tiles_of(bits: int, stride: int) -> list[Point]:
    """The tiles of a bit set (rows ``stride`` bits long) in row-major order, as ``np.nonzero`` lists them."""
    out: list[Point] = []
    while bits:
        low = bits & -bits
        b = low.bit_length() - 1
        out.append((b % stride, b // stride))
        bits ^= low
    return out


def first_layer(cum: list[int], bit: int, last: int) -> int:
    """The first of the rising sets ``cum[0..last]`` that holds ``bit`` (``cum[last]`` must): where a search
    settled a tile. A binary search: each set holds the ones before it."""
    lo, hi = 0, last
    while lo < hi:
        mid = (lo + hi) >> 1
        if cum[mid] & bit:
            hi = mid
        else:
            lo = mid + 1
    return lo


class Flood:
    """An eight-direction breadth-first flood kept as its layers: ``cum[k]`` is the set of tiles within ``k``
    steps of the origin, as one Python integer (bit ``y * (w + 1) + x``; see :func:`flood_layers`). The steps to
    one tile (:meth:`at`) are a binary search over the layers; the whole array (:meth:`array`) is built only when
    asked for."""

    __slots__ = ("cum", "h", "stride", "w")

    def __init__(self, h: int, w: int, cum: list[int]) -> None:
        self.h, self.w, self.stride, self.cum = h, w, w + 1, cum

    def at(self, x: int, y: int) -> int:
        """Steps to (x, y); -1 where not reached (or outside the grid)."""
        if not (0 <= x < self.w and 0 <= y < self.h):
            return -1
        bit = 1 << (y * self.stride + x)
        cum = self.cum
        return first_layer(cum, bit, len(cum) - 1) if cum[-1] & bit else -1

    def array(self) -> npt.NDArray[np.int32]:
        """Steps to every tile, -1 where not reached: one bit plane of the step count at a time."""
        h, w, stride, cum = self.h, self.w, self.stride, self.cum
        n = h * stride
        nbytes = (n + 7) // 8
        top = len(cum) - 1
        out = np.zeros(n, dtype=np.int32)
        for j in range(top.bit_length()):
            low = 1 << j
            plane = 0
            for a in range(low, top + 1, 2 * low):  # the tiles at a .. a + low - 1 steps
                plane |= cum[min(a + low, top + 1) - 1] ^ cum[a - 1]
            if plane:
                out |= _unbits(plane, nbytes, n).astype(np.int32) << j
        out[~_unbits(cum[-1], nbytes, n).astype(bool)] = -1
        return out.reshape(h, stride)[:, :w].copy()


def _unbits(bits: int, nbytes: int, n: int) -> npt.NDArray[np.uint8]:
    return np.unpackbits(np.frombuffer(bits.to_bytes(nbytes, "little"), dtype=np.uint8), count=n, bitorder="little")


def flood_layers(walk: BoolArray, origin: Point, limit: int | None = None, target: Point | None = None) -> Flood:
    """Fewest steps in eight directions from ``origin`` over the True tiles of ``walk`` (``origin`` itself always
    counts as open), as a :class:`Flood`. It stops after ``limit`` steps, or once it reaches ``target`` (every
    nearer tile is settled by then). The grid is one Python integer a tile set, each row ``w + 1`` bits with the
    last always blocked, so a step off a row's end lands nowhere: a layer is a handful of shifts."""
    h, w = walk.shape
    return flood_bits(bits_of(walk), h, w, origin, limit, target)


def flood_bits(open_: int, h: int, w: int, origin: Point, limit: int | None = None,
               target: Point | None = None) -> Flood:
    """:func:`flood_layers` over a grid already given as bits (bit ``y * (w + 1) + x`` set where ``walk`` is True;
    :meth:`undercroft.rules.levelmap.LevelMap.walk_bits`)."""
    stride = w + 1
    ox, oy = origin
    start = 1 << (oy * stride + ox)
    open_ = (open_ | start) ^ start
    tx, ty = target if target is not None else (-1, -1)
    aim = 1 << (ty * stride + tx) if 0 <= ty < h and 0 <= tx < w else 0
    cum = [start]
    if aim == start:
        return Flood(h, w, cum)
    now = seen = start
    k = 0
    while limit is None or k < limit:
        row = now | (now << 1) | (now >> 1)
        now = (row | (row << stride) | (row >> stride)) & open_
        if not now:
            break
        k += 1
        open_ ^= now
        seen |= now
        cum.append(seen)
        if now & aim:
            break
    return Flood(h, w, cum)


def flood8(walk: BoolArray, origin: Point, limit: int | None = None,
           target: Point | None = None) -> npt.NDArray[np.int32]:
    """Fewest steps in eight directions from ``origin`` over the True tiles of ``walk`` (``origin`` itself always
    counts as open), -1 where not reached: :func:`flood_layers` as an array. It stops after ``limit`` steps, or
    once it reaches ``target``. The engine's walking distances (:mod:`~undercroft.rules.approach`) and the front
    ends' travel planner share it."""
    return flood_layers(walk, origin, limit, target).array()


def padded_bits(mask: BoolArray) -> int:
    """``mask`` (rows of a grid with one blocked column added on the right already) as one integer, bit
    ``y * (w+1) + x``."""
    return int.from_bytes(np.packbits(mask, axis=None, bitorder="little").tobytes(), "little")


def _search(cost: npt.NDArray[np.integer] | BoolArray, origin: Point, diagonal: bool,
            goal: Point | None) -> tuple[int, list[int], list[int]]:
    """The least-cost search of :func:`dijkstra_map` as bit sets: ``(stride, ds, cum)``, where ``ds`` are the costs
    at which tiles were settled, rising, and ``cum[k]`` every tile settled at ``ds[k]`` or less (bit
    ``y * stride + x``). With ``goal``, it stops once that tile is settled."""
    h, w = cost.shape
    stride = w + 1
    padded = np.zeros((h, stride), dtype=cost.dtype)
    padded[:, :w] = cost
    classes = [(int(c), padded_bits(padded == c)) for c in np.unique(padded) if c > 0]
    ox, oy = origin
    start = 1 << (oy * stride + ox)
    aim = 1 << (goal[1] * stride + goal[0]) if goal is not None else 0
    open_ = 0
    for _, bits in classes:
        open_ |= bits
    open_ = (open_ | start) ^ start
    ds: list[int] = [0]
    cum: list[int] = [start]
    if len(classes) == 1 and classes[0][0] == 1:  # every step costs 1: a breadth-first flood, a layer a step
        now, seen = start, start
        while True:
            if diagonal:
                row = now | (now << 1) | (now >> 1)
                now = (row | (row << stride) | (row >> stride)) & open_
            else:
                now = ((now << 1) | (now >> 1) | (now << stride) | (now >> stride)) & open_
            if not now:
                break
            open_ ^= now
            seen |= now
            cum.append(seen)
            if now & aim:
                break
        ds = list(range(len(cum)))
    else:  # a bucket queue: the tiles first reached at cost d are settled when d comes up
        pending: dict[int, int] = {}
        d, now, seen = 0, start, start
        while True:
            if diagonal:
                row = now | (now << 1) | (now >> 1)
                step = (row | (row << stride) | (row >> stride)) & open_
            else:
                step = ((now << 1) | (now >> 1) | (now << stride) | (now >> stride)) & open_
            for c, bits in classes:
                got = step & bits
                if got:
                    pending[d + c] = pending.get(d + c, 0) | got
            now = 0
            while pending and not now:
                d = min(pending)
                now = pending.pop(d) & open_
            if not now:
                break
            open_ ^= now
            seen |= now
            ds.append(d)
            cum.append(seen)
            if now & aim:
                break
    return stride, ds, cum


def dijkstra_map(
    cost: npt.NDArray[np.integer] | BoolArray, origin: Point, diagonal: bool = False, goal: Point | None = None
) -> npt.NDArray[np.int32]:
    """Least walking costs from ``origin`` to every tile: entering a tile costs its ``cost`` (0: it cannot be
    entered; ``origin`` is left whatever its own cost), in four directions, or eight with ``diagonal`` (a diagonal
    step costs the same and may pass between two walls); :data:`MAX_DIST` where it cannot reach.

    The same distances as ``tcod.path.dijkstra2d(dist, cost, 1, 1 if diagonal else None)`` from a single zero
    (tests/test_flood.py checks it), which leaks native memory in tcod 21.2 (issue 15). A bucket queue of bit
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
    stride, _, cum = _search(cost, origin, False, goal)
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
