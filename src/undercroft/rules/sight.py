"""Sight: the tiles seen from a tile, symmetric shadowcasting with walls lit, out to a radius (libtcod's, on a
map kept per size: :func:`fov_window`)."""

from __future__ import annotations

import functools
import threading
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import tcod.constants
import tcod.map
from tcod.cffi import ffi, lib

from undercroft.rules.floods import BoolArray

if TYPE_CHECKING:
    from undercroft.rules.levelmap import LevelMap


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
