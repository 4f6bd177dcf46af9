"""The dungeon generator: one maze level from a map profile and the level's own stream.

Pure and deterministic: a level depends only on the :class:`~undercroft.content.schema.MapGen` profile and the
state of the :class:`~undercroft.rules.rng.Stream` passed in (no clock, no global ``random``, no salted hashing, no
set iteration, no numpy ``Generator``). tcod is used only for ``compute_fov``; distance maps are our own
(:func:`~undercroft.rules.searches.dijkstra_map`), and paths are read off them by our own hill climb with a fixed
tie order, so a level never depends on how a library breaks ties between equally short paths.

Layout
------
* **Rooms** are rectangles of floor placed at random without overlapping. Between two rooms' floors there are at
  least three tiles (each room's own one-tile wall and a passage between them), and between a floor and the map
  edge too, so the space outside every room's wall is one connected area: a corridor can always get through.
* **Connections**: a minimum spanning tree over the rooms (Prim from room 0, by the gap between the rectangles)
  plus a few extra loops between near rooms: one connected graph.
* **Doors** sit in a room's wall, on the side facing the room it leads to; a door never sits next to another
  door. The tile just outside a door is the corridor's first tile.
* **Corridors** are 1-wide passages routed from door to door around the rooms, along a shortest path that avoids
  running beside or across earlier corridors where it can. Corridors that still touch (share an edge) become one
  segment: **a corridor segment is a maximal 4-connected area of corridor floor**, so every corridor tile belongs
  to exactly one corridor segment. Doors always lead from a room to a corridor (never room to room) and belong to
  the corridor's segment.
* Segment ids: the rooms first, in placement order (room 0 holds the start, at its centre), then the corridors in
  the order of their first tile (row by row).
* **Profiles** (``dungeon.yaml``) shape this: a ``hall`` is one great room placed before the others (a long gallery,
  a vault in the middle; it is room 1, the start stays in room 0); ``loops`` fixes the number of extra joins (0: a
  tree of dead ends); ``water`` floods that share of the rooms (never the start's) inside their rim with standing
  water, which is walked and seen through like floor, and where nothing is placed.
* The **set piece** is the room a floor's unique waits in: the hall, else the room halfway out along ``far_rooms``.
* ``far_rooms`` orders the rooms by walking distance (4-connected steps) from the start to each room's centre,
  farthest first, ties by id; the start room is always last. The stairs down go in the farthest room, away from its
  walls (on the final level they are the way out).

Movement is 4-connected (orthogonal steps): :func:`path_between` walks like the corridors are carved.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from undercroft.content.schema import MIN_ROOM, ROOM_GAP, Hall, MapGen
from undercroft.rules.floods import MAX_DIST, STEPS, BoolArray, Point, bits_of
from undercroft.rules.levelmap import (
    DOOR,
    FLOOR,
    STAIRS,
    WALL,
    WATER,
    LevelMap,
    Segment,
    path_between,
    transparent,
    walkable,
)
from undercroft.rules.rng import Stream
from undercroft.rules.searches import distances_to, least_cost_path_classes
from undercroft.rules.sight import compute_fov, fov_window

__all__ = [
    "DOOR",
    "FLOOR",
    "STAIRS",
    "WALL",
    "WATER",
    "LevelMap",
    "Segment",
    "compute_fov",
    "fov_window",
    "generate_level",
    "path_between",
    "transparent",
    "walkable",
]

# Room floors keep this many tiles apart (wall, passage, wall) and this far from the map edge.
_GAP: Final = ROOM_GAP
_MIN_ROOM: Final = MIN_ROOM
_ATTEMPTS_PER_ROOM: Final = 60
# Extra cost of a corridor tile on or beside an earlier corridor: corridors detour this far to stay apart.
_TOUCH_PENALTY: Final = 12
# A corridor is first sought within this many tiles around the box of its two ends.
_ROUTE_MARGIN: Final = 8
# A tile and its four neighbours; a tile and its eight (offsets as rows, to index a path's tiles all at once).
_CROSS_DX: Final = np.array([0, *(dx for dx, _ in STEPS)], dtype=np.intp)
_CROSS_DY: Final = np.array([0, *(dy for _, dy in STEPS)], dtype=np.intp)
_RING_DX: Final = np.array([dx for dy in (-1, 0, 1) for dx in (-1, 0, 1)], dtype=np.intp)
_RING_DY: Final = np.array([dy for dy in (-1, 0, 1) for dx in (-1, 0, 1)], dtype=np.intp)


@dataclass(frozen=True)
class _Rect:
    x1: int
    y1: int
    x2: int
    y2: int

    @property
    def centre(self) -> Point:
        return ((self.x1 + self.x2) // 2, (self.y1 + self.y2) // 2)

    def gap(self, other: _Rect) -> int:
        """Manhattan gap between two rectangles (0 when they overlap)."""
        gx = max(0, other.x1 - self.x2, self.x1 - other.x2)
        gy = max(0, other.y1 - self.y2, self.y1 - other.y2)
        return gx + gy


# --- generation ----------------------------------------------------------------------------------------------


def generate_level(profile: MapGen, stream: Stream) -> LevelMap:
    """Generate one level. Same profile and same stream state give the same level, array for array."""
    width, height = profile.width, profile.height
    rooms, hall = _place_rooms(profile, stream)
    edges = _connections(rooms, profile.loops, stream)

    tiles = np.zeros((height, width), dtype=np.uint8)
    blocked = np.zeros((height, width), dtype=np.bool_)  # where corridors may not go
    blocked[0, :] = blocked[-1, :] = blocked[:, 0] = blocked[:, -1] = True
    for r in rooms:
        tiles[r.y1 : r.y2 + 1, r.x1 : r.x2 + 1] = FLOOR
        blocked[r.y1 - 1 : r.y2 + 2, r.x1 - 1 : r.x2 + 2] = True

    # Corridors are carved one path at a time; ``owner`` holds the last path on each tile, and paths that share
    # or touch a tile are joined in ``parent`` (union-find): the classes are the corridor segments.
    owner = np.full((height, width), -1, dtype=np.int32)
    parent: list[int] = []
    near = np.zeros((height, width), dtype=np.bool_)  # on or next to (8 ways) a corridor tile
    doors: list[list[tuple[Point, Point]]] = [[] for _ in rooms]  # per room: (door, tile just outside)
    for k, (a, b) in enumerate(edges):
        door_a, out_a = _choose_door(rooms, a, b, doors[a], near, stream)
        door_b, out_b = _choose_door(rooms, b, a, doors[b], near, stream)
        path = _route(blocked, near, out_a, out_b)
        xs = np.array([p[0] for p in path], dtype=np.intp)
        ys = np.array([p[1] for p in path], dtype=np.intp)
        parent.append(k)
        touched = owner[ys[:, None] + _CROSS_DY, xs[:, None] + _CROSS_DX]  # paths never reach the edge
        for j in sorted(set(touched.ravel().tolist())):
            if j >= 0:
                _union(parent, j, k)
        owner[ys, xs] = k
        near[ys[:, None] + _RING_DY, xs[:, None] + _RING_DX] = True
        tiles[door_a[1], door_a[0]] = DOOR
        tiles[door_b[1], door_b[0]] = DOOR

    tiles[owner >= 0] = FLOOR
    segment_of = np.full((height, width), -1, dtype=np.int16)
    for i, r in enumerate(rooms):
        segment_of[r.y1 : r.y2 + 1, r.x1 : r.x2 + 1] = i
    corridor_tiles = _label_corridors(owner, parent, segment_of, len(rooms))

    # Doors join their room to the corridor segment of the tile outside them.
    room_doors: list[list[Point]] = [sorted(d for d, _ in pairs) for pairs in doors]
    corridor_doors: list[list[Point]] = [[] for _ in corridor_tiles]
    room_links: list[list[int]] = [[] for _ in rooms]
    corridor_links: list[list[int]] = [[] for _ in corridor_tiles]
    for ri, pairs in enumerate(doors):
        for (dx, dy), (ox, oy) in pairs:
            c = int(segment_of[oy, ox])
            segment_of[dy, dx] = c
            corridor_doors[c - len(rooms)].append((dx, dy))
            room_links[ri].append(c)
            corridor_links[c - len(rooms)].append(ri)

    segments: list[Segment] = []
    for i, r in enumerate(rooms):
        segments.append(
            Segment(i, "room", r.x1, r.y1, r.x2, r.y2, tuple(room_doors[i]), tuple(sorted(set(room_links[i]))))
        )
    for k, (ys, xs) in enumerate(corridor_tiles):
        cdoors = sorted(corridor_doors[k])
        bx = [int(xs.min()), int(xs.max())] + [d[0] for d in cdoors]
        by = [int(ys.min()), int(ys.max())] + [d[1] for d in cdoors]
        links = tuple(sorted(set(corridor_links[k])))
        segments.append(Segment(len(rooms) + k, "corridor", min(bx), min(by), max(bx), max(by), tuple(cdoors), links))

    start = rooms[0].centre
    walk = tiles != WALL
    dist = distances_to(walk, start, [r.centre for r in rooms])
    far_rooms = tuple(sorted(range(len(rooms)), key=lambda i: (-dist[i], i)))

    far = rooms[far_rooms[0]]
    ix1, iy1, ix2, iy2 = far.x1 + 1, far.y1 + 1, far.x2 - 1, far.y2 - 1  # away from the walls (rooms are >= 3 wide)
    stairs = (ix1 + stream.below(ix2 - ix1 + 1), iy1 + stream.below(iy2 - iy1 + 1))
    tiles[stairs[1], stairs[0]] = STAIRS
    if profile.water:
        _flood(tiles, rooms, profile.water, stream)

    tiles.flags.writeable = False
    segment_of.flags.writeable = False
    set_piece = hall if hall >= 0 else _halfway(far_rooms)
    return LevelMap(width, height, tiles, segment_of, tuple(segments), start, stairs, far_rooms, set_piece)


def _halfway(far_rooms: tuple[int, ...]) -> int:
    """The room halfway out: the middle of ``far_rooms`` without the stairs' room and the start (else the stairs')."""
    between = far_rooms[1:-1]
    return between[len(between) // 2] if between else far_rooms[0]


def _flood(tiles: npt.NDArray[np.uint8], rooms: list[_Rect], chance: int, stream: Stream) -> None:
    """Each room but the start's, with ``chance`` percent, fills with water inside its rim of floor."""
    for r in rooms[1:]:
        if stream.below(100) < chance:
            inside = tiles[r.y1 + 1 : r.y2, r.x1 + 1 : r.x2]
            inside[inside == FLOOR] = WATER


def _place_rooms(profile: MapGen, stream: Stream) -> tuple[list[_Rect], int]:
    """Random non-overlapping rooms, ``_GAP`` tiles apart and from the edge; at least two always. With a ``hall``,
    the hall is placed first and becomes room 1; returns the rooms and the hall's index (-1: none)."""
    width, height = profile.width, profile.height
    lo = max(_MIN_ROOM, min(profile.room_size_min, profile.room_size_max))
    hi = max(lo, profile.room_size_max)
    rmin = min(profile.rooms_min, profile.rooms_max)
    target = rmin + stream.below(max(profile.rooms_min, profile.rooms_max) - rmin + 1)
    if profile.hall is not None:
        hall = _place_hall(profile.hall, width, height, stream)
        taken = np.zeros((height, width), dtype=np.bool_)
        taken[hall.y1 : hall.y2 + 1, hall.x1 : hall.x2 + 1] = True
        others = _try_rooms(width, height, lo, hi, max(1, target - 1), target * _ATTEMPTS_PER_ROOM, stream, taken)
        if others:
            return [others[0], hall, *others[1:]], 1
        # (no room fits beside the hall: an ordinary level instead)
    rooms = _try_rooms(width, height, lo, hi, target, target * _ATTEMPTS_PER_ROOM, stream)
    if len(rooms) < 2:
        # The profile's rooms are too big for its map: fall back to the smallest rooms, two of which always fit.
        rooms = _try_rooms(width, height, _MIN_ROOM, _MIN_ROOM, max(2, target), target * _ATTEMPTS_PER_ROOM, stream)
    return rooms, -1


def _place_hall(spec: Hall, width: int, height: int, stream: Stream) -> _Rect:
    """The great room: its size from the spec's ranges (within the map), in the middle or anywhere."""
    free_w, free_h = width - 2 * _GAP, height - 2 * _GAP
    wlo, hlo = min(spec.width_min, spec.width_max), min(spec.height_min, spec.height_max)
    w = min(wlo + stream.below(max(spec.width_min, spec.width_max) - wlo + 1), free_w)
    h = min(hlo + stream.below(max(spec.height_min, spec.height_max) - hlo + 1), free_h)
    if spec.centre:
        x1, y1 = _GAP + (free_w - w) // 2, _GAP + (free_h - h) // 2
    else:
        x1, y1 = _GAP + stream.below(free_w - w + 1), _GAP + stream.below(free_h - h + 1)
    return _Rect(x1, y1, x1 + w - 1, y1 + h - 1)


def _try_rooms(
    width: int,
    height: int,
    lo: int,
    hi: int,
    target: int,
    attempts: int,
    stream: Stream,
    taken: npt.NDArray[np.bool_] | None = None,
) -> list[_Rect]:
    """Up to ``target`` rooms of sides ``lo``..``hi``, clear of each other and of what ``taken`` holds already."""
    free_w = width - 2 * _GAP  # floors lie in _GAP .. width - 1 - _GAP
    free_h = height - 2 * _GAP
    if taken is None:
        taken = np.zeros((height, width), dtype=np.bool_)
    rooms: list[_Rect] = []
    for _ in range(attempts):
        if len(rooms) >= target:
            break
        w = min(lo + stream.below(hi - lo + 1), free_w)
        h = min(lo + stream.below(hi - lo + 1), free_h)
        x1 = _GAP + stream.below(free_w - w + 1)
        y1 = _GAP + stream.below(free_h - h + 1)
        x2, y2 = x1 + w - 1, y1 + h - 1
        if taken[y1 - _GAP : y2 + _GAP + 1, x1 - _GAP : x2 + _GAP + 1].any():
            continue
        taken[y1 : y2 + 1, x1 : x2 + 1] = True
        rooms.append(_Rect(x1, y1, x2, y2))
    return rooms


def _connections(rooms: list[_Rect], loops: int | None, stream: Stream) -> list[tuple[int, int]]:
    """Room pairs to join: a minimum spanning tree (Prim from room 0) and a few extra loops between near rooms
    (``loops`` of them, or 1..n/4+1 drawn when None)."""
    n = len(rooms)
    in_tree = [False] * n
    best = [(MAX_DIST, 0)] * n  # (gap, tree room) for rooms outside the tree
    in_tree[0] = True
    for j in range(1, n):
        best[j] = (rooms[0].gap(rooms[j]), 0)
    edges: list[tuple[int, int]] = []
    for _ in range(n - 1):
        j = min((k for k in range(n) if not in_tree[k]), key=lambda k: (best[k], k))
        edges.append((best[j][1], j))
        in_tree[j] = True
        for k in range(n):
            if not in_tree[k]:
                cand = (rooms[j].gap(rooms[k]), j)
                if cand < best[k]:
                    best[k] = cand
    if n >= 4:
        linked = {(min(a, b), max(a, b)) for a, b in edges}
        others = sorted(
            ((rooms[a].gap(rooms[b]), a, b) for a in range(n) for b in range(a + 1, n) if (a, b) not in linked),
        )
        extra = loops if loops is not None else 1 + stream.below(n // 4 + 1)
        pool = [(a, b) for _, a, b in others[: 3 * extra]]
        for _ in range(min(extra, len(pool))):
            edges.append(pool.pop(stream.below(len(pool))))
    return edges


def _choose_door(
    rooms: list[_Rect], r: int, toward: int, existing: list[tuple[Point, Point]], near: BoolArray, stream: Stream
) -> tuple[Point, Point]:
    """A door in room ``r``'s wall facing room ``toward`` (and the tile just outside it); records it."""
    room, other = rooms[r], rooms[toward]
    (cx, cy), (ox, oy) = room.centre, other.centre
    dx, dy = ox - cx, oy - cy
    horizontal = (1, 0) if dx >= 0 else (-1, 0)
    vertical = (0, 1) if dy >= 0 else (0, -1)
    first, second = (horizontal, vertical) if abs(dx) >= abs(dy) else (vertical, horizontal)
    sides = [first, second, (-second[0], -second[1]), (-first[0], -first[1])]
    taken = [d for d, _ in existing]
    for nx, ny in sides:
        if nx:
            x = room.x2 + 1 if nx > 0 else room.x1 - 1
            spots = [(x, y) for y in range(room.y1, room.y2 + 1)]
        else:
            y = room.y2 + 1 if ny > 0 else room.y1 - 1
            spots = [(x, y) for x in range(room.x1, room.x2 + 1)]
        spots = [s for s in spots if all(abs(s[0] - t[0]) + abs(s[1] - t[1]) > 1 for t in taken)]
        if not spots:
            continue
        clean = [s for s in spots if not near[s[1] + ny, s[0] + nx]]
        pool = clean or spots
        door = pool[stream.below(len(pool))]
        pair = (door, (door[0] + nx, door[1] + ny))
        existing.append(pair)
        return pair
    # Every wall is full of doors (a tiny room with many links): share one, the corridors meet outside it.
    return existing[0]


def _route(blocked: BoolArray, near: BoolArray, a: Point, b: Point) -> list[Point]:
    """A shortest 1-wide path from ``a`` to ``b`` outside the rooms, preferring to keep off earlier corridors.

    The search first runs in the box around ``a`` and ``b`` widened by ``_ROUTE_MARGIN`` (fast on big maps), then,
    if the way out of that box is shut, on the whole map.
    """
    height, width = blocked.shape
    box = (
        max(0, min(a[0], b[0]) - _ROUTE_MARGIN),
        max(0, min(a[1], b[1]) - _ROUTE_MARGIN),
        min(width, max(a[0], b[0]) + _ROUTE_MARGIN + 1),
        min(height, max(a[1], b[1]) + _ROUTE_MARGIN + 1),
    )
    for x0, y0, x1, y1 in (box, (0, 0, width, height)):
        sub = np.s_[y0:y1, x0:x1]
        # the costs: 0 where blocked, 1 + _TOUCH_PENALTY beside a corridor, else 1; both ends 1
        free = ~blocked[sub]
        ends = 1 << ((a[1] - y0) * (x1 - x0 + 1) + a[0] - x0) | 1 << ((b[1] - y0) * (x1 - x0 + 1) + b[0] - x0)
        beside = bits_of(free & near[sub]) & ~ends
        plain = bits_of(free & ~near[sub]) | ends
        classes = [(1, plain), (1 + _TOUCH_PENALTY, beside)]
        path = least_cost_path_classes(x1 - x0, y1 - y0, classes, (b[0] - x0, b[1] - y0), (a[0] - x0, a[1] - y0))
        if path:
            return [(x + x0, y + y0) for x, y in path]
    # Cannot happen: the space outside the room walls is connected.
    raise RuntimeError(f"no corridor from {a} to {b}")


def _find(parent: list[int], k: int) -> int:
    while parent[k] != k:
        parent[k] = parent[parent[k]]
        k = parent[k]
    return k


def _union(parent: list[int], j: int, k: int) -> None:
    rj, rk = _find(parent, j), _find(parent, k)
    if rj != rk:
        parent[max(rj, rk)] = min(rj, rk)


def _label_corridors(
    owner: npt.NDArray[np.int32], parent: list[int], segment_of: npt.NDArray[np.int16], first_id: int
) -> list[tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]]:
    """Number the corridor segments from ``first_id`` in order of their first tile (row by row); their tiles."""
    ys, xs = np.nonzero(owner >= 0)  # row-major order
    if not len(ys):
        return []
    roots = np.array([_find(parent, k) for k in range(len(parent))], dtype=np.intp)
    tile_root = roots[owner[ys, xs]]
    found, first = np.unique(tile_root, return_index=True)
    rank = np.zeros(len(parent), dtype=np.intp)
    rank[found[np.argsort(first)]] = np.arange(len(found))
    labels = rank[tile_root]
    segment_of[ys, xs] = first_id + labels
    return [(ys[labels == m], xs[labels == m]) for m in range(len(found))]
