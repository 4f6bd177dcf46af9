"""Sight: the tiles seen from a tile, symmetric shadowcasting with walls lit, out to a radius (libtcod's, on a
map kept per size: :func:`fov_window`), and the tiles seen from many, folded into an explored map
(:func:`fold_fov`)."""

from __future__ import annotations

import functools
import threading
import weakref
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from undercroft.rules.floods import BoolArray
from undercroft.rules.libtcod import FOV_SYMMETRIC_SHADOWCAST, ffi, lib

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
        cells = np.zeros((level.height, level.width), dtype=_MAP_CELL)
        cells["transparent"] = level.transparent
        buffer = ffi.from_buffer("struct TCOD_MapCell*", cells)
        whole = ffi.new("struct TCOD_Map*", (level.width, level.height, level.width * level.height, buffer))
        lib.TCOD_map_compute_fov(whole, x, y, 0, True, FOV_SYMMETRIC_SHADOWCAST)
        return np.array(cells["fov"])
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
    lib.TCOD_map_compute_fov(tcod_map, m, m, m, True, FOV_SYMMETRIC_SHADOWCAST)
    seen: BoolArray = fov & disc
    y0, x0 = y - m, x - m
    if y0 >= 0 and x0 >= 0 and y0 + side <= level.height and x0 + side <= level.width:
        return y0, x0, seen
    top, left = max(0, -y0), max(0, -x0)
    return y0 + top, x0 + left, seen[top : level.height - y0, left : level.width - x0]


def fold_fov(level: LevelMap, looks: Iterable[tuple[int, int]], radius: int, memory: BoolArray) -> None:
    """Set in ``memory`` every tile seen from each of ``looks`` ((x, y) on the map): what :func:`compute_fov` sees
    from each, OR-ed into what ``memory`` holds. ``memory`` is C-contiguous, ``level.height`` rows of at least
    ``level.width`` (the explored map of :class:`undercroft.rules.state.LevelState`, one column wider): only the
    first ``level.width`` columns are written.

    It is :func:`fov_window` and an OR of its window into ``memory``, look by look, with the same answer (checked
    in tests/test_dungeon.py), made cheaper where that cost was: the shadowcasting is a few microseconds, the
    slicing, copying, masking and clipping round it about twice that. Here a look is one copy, the shadowcasting
    and one scatter, on what :class:`_Band` keeps per level:

    * the copy: the ``2*radius+1`` rows round the look, read from its column ``x - radius`` on, are one run of
      bytes of the level laid out as libtcod's cells (``ffi.memmove``, no numpy). The scratch map's first
      ``2*radius+1`` columns are then the square round the look; right of them lie the rows' ends and the next
      rows' starts, which shadowcasting only reaches farther than ``radius`` away, where nothing nearer is decided
      (:func:`fov_window`).
    * the shadowcasting: libtcod's symmetric shadowcaster itself, not ``TCOD_map_compute_fov``, which clears the
      whole map's field of view first (the copy has just done that), and with no radius: the disc is cut below.
    * the scatter: each tile of the square has its offset in ``memory`` from the square's corner, each tile past
      the disc the offset of the look's own tile (which is always seen), so ``memory`` takes True at the offsets
      of the lit tiles, with no mask and no window of ``memory`` cut out. Only a look nearer the map's edge than
      ``radius`` first leaves out the square's rows and columns off the map.

    ``radius`` 0 (no limit) ORs in :func:`compute_fov` over the whole map, look by look.
    """
    h, w = level.height, level.width
    if radius <= 0:
        known = memory[:, :w]
        for x, y in looks:
            np.logical_or(known, compute_fov(level, x, y, 0), out=known)
        return
    if not memory.flags.c_contiguous:
        raise ValueError("fold_fov writes through a flat view of memory: it must be C-contiguous")
    stride = memory.shape[1]
    band = _band(level, radius, stride)
    src, row, size, dst, tcod_map, seen, offsets = (
        band.src,
        band.row,
        band.size,
        band.dst,
        band.map,
        band.seen,
        band.offsets,
    )
    flat = memory.reshape(-1)
    memmove = ffi.memmove
    shadowcast = lib.TCOD_map_compute_fov_symmetric_shadowcast
    side = 2 * radius + 1
    for x, y in looks:
        memmove(dst, src + (y * row + x * _CELL), size)
        shadowcast(tcod_map, radius, radius, 0, True)
        corner = (y - radius) * stride + x - radius  # memory's index of the square's top-left tile
        if radius <= x < w - radius and radius <= y < h - radius:
            flat[corner:][offsets[seen]] = True
        else:
            top, left = max(0, radius - y), max(0, radius - x)
            bottom, right = min(side, h + radius - y), min(side, w + radius - x)
            flat[offsets[top:bottom, left:right][seen[top:bottom, left:right]] + corner] = True


_MAP_CELL: Final = np.dtype([("transparent", bool), ("walkable", bool), ("fov", bool)])  # libtcod's TCOD_MapCell
_CELL: Final = _MAP_CELL.itemsize
#: this thread's fov_window maps (``maps``: (half, radius) -> _sight's answer) and fold_fov's last _Band (``band``)
_sights = threading.local()


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


class _Band:
    """What :func:`fold_fov` keeps for one level, radius and width of memory (in one thread): the level's
    transparency laid out as libtcod's cells with ``radius`` opaque tiles round it (and one row more, into which
    the band of the last row runs), read by ``src``; a scratch map of ``2*radius+1`` of its rows (``dst``,
    ``map``) and its field of view over the square round the look (``seen``); and the square's ``offsets`` in
    memory (:func:`fold_fov`)."""

    __slots__ = ("_arrays", "dst", "level", "map", "offsets", "radius", "row", "seen", "size", "src", "stride")

    def __init__(self, level: LevelMap, radius: int, stride: int) -> None:
        side = 2 * radius + 1
        h, w = level.height, level.width
        wide = w + 2 * radius
        rimmed = np.zeros((h + 2 * radius + 1, wide), dtype=_MAP_CELL)
        rimmed["transparent"][: h + 2 * radius] = level.rimmed(radius)
        cells = np.zeros((side, wide), dtype=_MAP_CELL)
        self._arrays = (rimmed, cells)  # (what src and dst point into)
        self.level = weakref.ref(level)  # (the level is not kept alive by this thread's cache)
        self.radius, self.stride = radius, stride
        self.row = wide * _CELL
        self.size = side * self.row
        self.src = ffi.from_buffer("char[]", rimmed)
        self.dst = ffi.from_buffer("char[]", cells)
        self.map = ffi.new("struct TCOD_Map*", (wide, side, side * wide, ffi.cast("struct TCOD_MapCell*", self.dst)))
        self.seen: BoolArray = cells["fov"][:, :side]
        ys, xs = np.ogrid[-radius : radius + 1, -radius : radius + 1]
        self.offsets = np.where(
            _disc(radius, radius), (ys + radius) * stride + xs + radius, radius * stride + radius
        ).astype(np.intp)


def _band(level: LevelMap, radius: int, stride: int) -> _Band:
    """This thread's :class:`_Band` for ``level`` (the last one made, made again for another level, radius or
    width of memory: the party reads one level's map at a time)."""
    band: _Band | None = getattr(_sights, "band", None)
    if band is None or band.level() is not level or band.radius != radius or band.stride != stride:
        band = _sights.band = _Band(level, radius, stride)
    return band


@functools.lru_cache(maxsize=32)
def _disc(radius: int, half: int) -> BoolArray:
    """A (2*half+1)-square mask of the tiles within ``radius`` of its centre."""
    ys, xs = np.ogrid[-half : half + 1, -half : half + 1]
    disc = np.asarray(xs * xs + ys * ys <= radius * radius)
    disc.flags.writeable = False
    return disc
