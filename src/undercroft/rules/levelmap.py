"""The level map and what can be asked of it: the tile codes, rooms and corridors (:class:`Segment`), the map
itself (:class:`LevelMap`), and what it offers the searches (:meth:`LevelMap.walk_bits`, :func:`path_between`).
Sight is :mod:`undercroft.rules.sight`; the floods and searches, :mod:`undercroft.rules.floods`.

Generation (:mod:`undercroft.rules.dungeon`) makes a :class:`LevelMap`; the engine and the front ends only read it.
Sight is symmetric shadowcasting with walls lit; movement is 4-connected (orthogonal steps), as the corridors are
carved.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from undercroft.rules.floods import BoolArray as BoolArray
from undercroft.rules.floods import Point as Point
from undercroft.rules.floods import bits_of
from undercroft.rules.searches import descend_path, distance_map

# Tile codes (the values of ``LevelMap.tiles``, dtype uint8).
WALL: Final = 0
FLOOR: Final = 1
DOOR: Final = 2
STAIRS: Final = 3
WATER: Final = 4  # standing water inside a flooded room: walked and seen through like floor; nothing is placed in it

WALK_WINDOWS: Final = 4096  # windows of a map whose walkable tiles (LevelMap.walk_bits) are kept at once


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
    set_piece: int = -1  # the room a floor's unique waits in (the hall, else a room halfway out); -1: none

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
        x - x0``, as :func:`undercroft.rules.floods.flood_bits` takes them); with ``within``, only that segment's
        tiles and its doors. Remembered per window: the tiles never change."""
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
            if len(memo) >= WALK_WINDOWS:
                memo.clear()
            got = memo[key] = bits_of(walk)
        return got

    def window_bits(self, x0: int, y0: int, x1: int, y1: int, tile: int | None, segment: int | None = None) -> int:
        """The tiles of code ``tile`` (or of segment ``segment``) in the window ``[y0:y1, x0:x1]``, as bits laid out
        as :meth:`walk_bits` lays them. Remembered per window: the tiles never change."""
        key = (x0, y0, x1, y1, tile, segment)
        memo = self._window_bits
        got = memo.get(key)
        if got is None:
            grid = self.tiles if tile is not None else self.segment_of
            mask = grid[y0:y1, x0:x1] == (tile if tile is not None else segment)
            if len(memo) >= WALK_WINDOWS:
                memo.clear()
            got = memo[key] = bits_of(mask)
        return got

    def floor_of(self, seg: int) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
        """``(xs, ys)``: the floor tiles of segment ``seg`` (not its doors, stairs or water), row by row. Remembered:
        the tiles never change."""
        got = self._floor_of.get(seg)
        if got is None:
            s = self.segments[seg]  # its bounding box holds all its tiles
            box = np.s_[s.y1 : s.y2 + 1, s.x1 : s.x2 + 1]
            ys, xs = np.nonzero((self.segment_of[box] == seg) & (self.tiles[box] == FLOOR))
            xs += s.x1
            ys += s.y1
            xs.flags.writeable = ys.flags.writeable = False
            got = self._floor_of[seg] = (xs, ys)
        return got

    @functools.cached_property
    def _floor_of(self) -> dict[int, tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]]:
        return {}

    @functools.cached_property
    def _window_bits(self) -> dict[tuple[int, int, int, int, int | None, int | None], int]:
        return {}

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


# --- what the map offers ------------------------------------------------------------------------------------------


def transparent(level: LevelMap) -> BoolArray:
    """(height, width): True where light passes: floor, doors and stairs."""
    return level.transparent


def walkable(level: LevelMap) -> BoolArray:
    """(height, width): True where one can stand (the same tiles as :func:`transparent`: water too)."""
    return np.asarray(level.tiles != WALL)


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
