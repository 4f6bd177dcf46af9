"""Floods over a grid of tiles held as bit sets: each set of tiles is one Python integer, bit ``y * (w + 1) + x``
(each row one blocked bit longer, so a step off a row's end lands nowhere), and a step from a set is a handful of
shifts.

:func:`flood_layers` / :func:`flood_bits` (eight directions, every step 1: the engine's walking distances and the
front ends' travel), kept as a :class:`Flood`; :func:`bits_of` and :func:`tiles_of` convert between a mask and its
bits. The searches with costs are :mod:`undercroft.rules.searches`; no map here: :mod:`levelmap` builds on both.
"""

from __future__ import annotations

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


def spread(now: int, stride: int, diagonal: bool = True) -> int:
    """The tiles one step from the tiles ``now`` (rows ``stride`` bits long), in eight directions or four, ``now``
    among them for eight: mask the answer with the tiles still open."""
    if diagonal:
        row = now | (now << 1) | (now >> 1)
        return row | (row << stride) | (row >> stride)
    return (now << 1) | (now >> 1) | (now << stride) | (now >> stride)


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


def flood_bits(
    open_: int, h: int, w: int, origin: Point, limit: int | None = None, target: Point | None = None
) -> Flood:
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
        now = spread(now, stride) & open_
        if not now:
            break
        k += 1
        open_ ^= now
        seen |= now
        cum.append(seen)
        if now & aim:
            break
    return Flood(h, w, cum)


def flood8(
    walk: BoolArray, origin: Point, limit: int | None = None, target: Point | None = None
) -> npt.NDArray[np.int32]:
    """Fewest steps in eight directions from ``origin`` over the True tiles of ``walk`` (``origin`` itself always
    counts as open), -1 where not reached: :func:`flood_layers` as an array. It stops after ``limit`` steps, or
    once it reaches ``target``. The engine's walking distances (:mod:`~undercroft.rules.approach`) and the front
    ends' travel planner share it."""
    return flood_layers(walk, origin, limit, target).array()


def padded_bits(mask: BoolArray) -> int:
    """``mask`` (rows of a grid with one blocked column added on the right already) as one integer, bit
    ``y * (w+1) + x``."""
    return int.from_bytes(np.packbits(mask, axis=None, bitorder="little").tobytes(), "little")
