"""The level map and what can be asked of it: the tile codes, rooms and corridors (:class:`Segment`), the map
itself (:class:`LevelMap`), and sight and paths on it (:func:`compute_fov`, :func:`path_between`).

Generation (:mod:`undercroft.rules.dungeon`) makes a :class:`LevelMap`; the engine and the front ends only read it.
Sight is symmetric shadowcasting with walls lit; movement is 4-connected (orthogonal steps), as the corridors are
carved.
"""

from __future__ import annotations

import bisect
import functools
import threading
from dataclasses import dataclass
from typing import Any, Final, Literal

import numpy as np
import numpy.typing as npt
import tcod.constants
import tcod.map
from tcod.cffi import ffi, lib

# Tile codes (the values of ``LevelMap.tiles``, dtype uint8).
WALL: Final = 0
FLOOR: Final = 1
DOOR: Final = 2
STAIRS: Final = 3

Point = tuple[int, int]  # (x, y)
BoolArray = npt.NDArray[np.bool_]

MAX_DIST: Final = int(np.iinfo(np.int32).max)
WALK_WINDOWS: Final = 4096  # windows of a map whose walkable tiles (LevelMap.walk_bits) are kept at once
# Orthogonal steps (dx, dy) in the fixed tie-break order: north, east, south, west.
STEPS: Final[tuple[Point, ...]] = ((0, -1), (1, 0), (0, 1), (-1, 0))


@dataclass(frozen=True)
class Segment:
    """A room or a corridor: the unit the monster checks work on."""

    id: int  # index in LevelMap.segments
    kind: Literal["room", "corridor"]
    x1: int  # bounding box, inclusive; for rooms the floor rectangle, for corridors their floor and doors
    y1: int
    x2: int
    y2: int
    doors: tuple[Point, ...]  # (x, y) of the doors on this segment's edge, sorted
    neighbours: tuple[int, ...]  # ids of the segments reachable through those doors, sorted

    def contains(self, x: int, y: int) -> bool:
        """Whether (x, y) lies in the bounding box."""
        return self.x1 <= x <= self.x2 and self.y1 <= y <= self.y2


@dataclass(frozen=True, eq=False)
class LevelMap:
    """One generated level. The arrays are read-only; index them ``[y, x]``."""

    width: int
    height: int
    tiles: npt.NDArray[np.uint8]  # (height, width) tile codes
    segment_of: npt.NDArray[np.int16]  # (height, width) segment id of each floor/door/stairs tile; -1 on walls
    segments: tuple[Segment, ...]
    start: Point  # where the party arrives: the centre of room 0
    stairs: Point  # the stairs down (on the final level, the way out)
    far_rooms: tuple[int, ...]  # room ids by walking distance from the start, farthest first

    @property
    def rooms(self) -> tuple[Segment, ...]:
        return tuple(s for s in self.segments if s.kind == "room")

    @property
    def corridors(self) -> tuple[Segment, ...]:
        return tuple(s for s in self.segments if s.kind == "corridor")

    @functools.cached_property
    def tile_rows(self) -> list[list[int]]:
        """``tiles`` as Python lists (``tile_rows[y][x]``): one tile read without numpy's cost per element."""
        rows: list[list[int]] = self.tiles.tolist()  # (Python ints)
        return rows

    @functools.cached_property
    def segment_rows(self) -> list[list[int]]:
        """``segment_of`` as Python lists (``segment_rows[y][x]``)."""
        rows: list[list[int]] = self.segment_of.tolist()  # (Python ints)
        return rows

    def walk_bits(self, x0: int, y0: int, x1: int, y1: int, within: int | None = None) -> int:
        """The tiles one can stand on in the window ``[y0:y1, x0:x1]`` as bits (bit ``(y - y0) * (x1 - x0 + 1) +
        x - x0``, as :func:`flood_bits` takes them); with ``within``, only that segment's tiles and its doors.
        Remembered per window: the tiles never change."""
        key = (x0, y0, x1, y1, within)
        memo = self._walk_bits
        got = memo.get(key)
        if got is None:
            walk = self.tiles[y0:y1, x0:x1] != WALL
            if within is not None:
                walk &= self.segment_of[y0:y1, x0:x1] == within
                for dx, dy in self.segments[within].doors:
                    if y0 <= dy < y1 and x0 <= dx < x1:
                        walk[dy - y0, dx - x0] = True
            padded = np.zeros((y1 - y0, x1 - x0 + 1), dtype=bool)
            padded[:, : x1 - x0] = walk
            if len(memo) >= WALK_WINDOWS:
                memo.clear()
            got = memo[key] = _bits(padded)
        return got

    @functools.cached_property
    def segment_sizes(self) -> tuple[int, ...]:
        """The number of tiles of each segment (by id)."""
        counts = np.bincount(self.segment_of[self.segment_of >= 0].ravel(), minlength=len(self.segments))
        return tuple(int(c) for c in counts)

    def rimmed(self, rim: int) -> BoolArray:
        """:attr:`transparent` with ``rim`` opaque tiles round it (its tile (x, y) at ``[y + rim, x + rim]``)."""
        got = self._rimmed.get(rim)
        if got is None:
            got = np.zeros((self.height + 2 * rim, self.width + 2 * rim), dtype=bool)
            got[rim : rim + self.height, rim : rim + self.width] = self.transparent
            got.flags.writeable = False
            self._rimmed[rim] = got
        return got

    @functools.cached_property
    def _rimmed(self) -> dict[int, BoolArray]:
        return {}

    @functools.cached_property
    def _walk_bits(self) -> dict[tuple[int, int, int, int, int | None], int]:
        return {}

    @functools.cached_property
    def transparent(self) -> BoolArray:
        """(height, width): True where light passes (computed once: the tiles never change)."""
        t = np.asarray(self.tiles != WALL)
        t.flags.writeable = False
        return t


# --- sight and paths ------------------------------------------------------------------------------------------


def transparent(level: LevelMap) -> BoolArray:
    """(height, width): True where light passes: floor, doors and stairs."""
    return level.transparent


def walkable(level: LevelMap) -> BoolArray:
    """(height, width): True where one can stand (the same tiles as :func:`transparent` for now)."""
    return np.asarray(level.tiles != WALL)


def compute_fov(level: LevelMap, x: int, y: int, radius: int) -> BoolArray:
    """(height, width): the tiles seen from (x, y): symmetric shadowcasting, walls lit, out to ``radius``.

    A tile within ``radius`` means ``dx*dx + dy*dy <= radius*radius`` (``radius`` 0: no limit). tcod's symmetric
    shadowcaster alone keeps only ``< radius*radius`` (radius 5 sees 4 tiles straight ahead, unlike its other
    algorithms), so we ask it for one more and cut the circle ourselves: nearer tiles' visibility never depends
    on farther ones.
    """
    if radius <= 0:
        return tcod.map.compute_fov(
            level.transparent, (y, x), 0, light_walls=True, algorithm=tcod.constants.FOV_SYMMETRIC_SHADOWCAST
        )
    y0, x0, seen = fov_window(level, x, y, radius)
    out = np.zeros((level.height, level.width), dtype=bool)
    out[y0 : y0 + seen.shape[0], x0 : x0 + seen.shape[1]] = seen
    return out


def fov_window(level: LevelMap, x: int, y: int, radius: int) -> tuple[int, int, BoolArray]:
    """The field of view of :func:`compute_fov` (``radius`` > 0) as ``(y0, x0, seen)``: only the window of the map
    that can hold a seen tile, whose top-left corner is (x0, y0). Shadowcasting only ever looks nearer than a tile
    to decide it, so the window gives the same answer as the whole map, for a fraction of the work.

    The window is always the whole square round (x, y), cut from the map with a rim of walls round it
    (:meth:`LevelMap.rimmed`): a wall past the map's edge shades only tiles past it, which are cut off again. So
    one libtcod map a radius (and thread) serves every look (:func:`_sight`)."""
    m = radius + 1
    side = 2 * m + 1
    transparent, fov, tcod_map, disc = _sight(m, radius)
    transparent[...] = level.rimmed(m)[y : y + side, x : x + side]
    lib.TCOD_map_compute_fov(tcod_map, m, m, m, True, tcod.constants.FOV_SYMMETRIC_SHADOWCAST)
    seen: BoolArray = fov & disc
    y0, x0 = y - m, x - m
    if y0 >= 0 and x0 >= 0 and y0 + side <= level.height and x0 + side <= level.width:
        return y0, x0, seen
    top, left = max(0, -y0), max(0, -x0)
    return y0 + top, x0 + left, seen[top : level.height - y0, left : level.width - x0]


_MAP_CELL: Final = np.dtype([("transparent", bool), ("walkable", bool), ("fov", bool)])  # libtcod's TCOD_MapCell
_sights = threading.local()  # (half, radius) -> _sight's answer, for this thread's fov_window


def _sight(half: int, radius: int) -> tuple[BoolArray, BoolArray, Any, BoolArray]:
    """A libtcod map of (2*half+1)-square over a NumPy array of its cells, made once per size (and thread) and
    used again by every :func:`fov_window`: ``(transparent, fov, map, disc)``, the cells' two fields, the map, and
    the tiles within ``radius`` of the centre. It is what ``tcod.map.compute_fov`` builds on every call (and most
    of its cost, where the shadowcasting itself is a few microseconds); the result is the same (checked in
    tests/test_dungeon.py against ``tcod.map.compute_fov`` over the whole map)."""
    maps: dict[tuple[int, int], tuple[Any, ...]] | None = getattr(_sights, "maps", None)
    if maps is None:
        maps = _sights.maps = {}
    got = maps.get((half, radius))
    if got is None:
        side = 2 * half + 1
        cells = np.zeros((side, side), dtype=_MAP_CELL)
        buffer = ffi.from_buffer("struct TCOD_MapCell*", cells)
        tcod_map = ffi.new("struct TCOD_Map*", (side, side, side * side, buffer))
        got = maps[(half, radius)] = (cells["transparent"], cells["fov"], tcod_map, _disc(radius, half), cells, buffer)
    return got[0], got[1], got[2], got[3]


@functools.lru_cache(maxsize=32)
def _disc(radius: int, half: int) -> BoolArray:
    """A (2*half+1)-square mask of the tiles within ``radius`` of its centre."""
    ys, xs = np.ogrid[-half : half + 1, -half : half + 1]
    disc = np.asarray(xs * xs + ys * ys <= radius * radius)
    disc.flags.writeable = False
    return disc


def path_between(level: LevelMap, a: Point, b: Point) -> list[Point]:
    """A shortest path of orthogonal steps from ``a`` to ``b``, both included ([] if there is none).

    Among equally short paths it keeps going straight where it can, then tries north, east, south, west.
    """
    walk = walkable(level)
    for x, y in (a, b):
        if not (0 <= x < level.width and 0 <= y < level.height and walk[y, x]):
            return []
    dist = distance_map(walk, b)
    return descend_path(dist, a)


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
    padded = np.zeros((h, w + 1), dtype=bool)
    padded[:, :w] = walk
    return flood_bits(_bits(padded), h, w, origin, limit, target)


def flood_bits(open_: int, h: int, w: int, origin: Point, limit: int | None = None,
               target: Point | None = None) -> Flood:
    """:func:`flood_layers` over a grid already given as bits (bit ``y * (w + 1) + x`` set where ``walk`` is True;
    :meth:`LevelMap.walk_bits`)."""
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


def _bits(mask: BoolArray) -> int:
    """``mask`` (rows of a grid with one blocked column added on the right) as one integer, bit ``y * (w+1) + x``."""
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
    classes = [(int(c), _bits(padded == c)) for c in np.unique(padded) if c > 0]
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
            flags = np.unpackbits(np.frombuffer(plane.to_bytes(nbytes, "little"), dtype=np.uint8),
                                  count=h * stride, bitorder="little")
            dist |= flags.astype(np.int32) << j
    got_any = np.unpackbits(np.frombuffer(reached.to_bytes(nbytes, "little"), dtype=np.uint8),
                            count=h * stride, bitorder="little").astype(bool)
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
