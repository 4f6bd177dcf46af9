"""Where the sides of an encounter stand (003 distance): the scale, placing a group at its rolled distance, its
walk toward the party, closing to fight, the ways out of a segment, and the creatures' tiles.

* **Scale.** One tile is ``encounter.feet_per_tile`` feet (10). Distances are walking distances on the map: the
  fewest steps in the eight directions the party walks, times the scale. Speeds are feet per round, so a creature
  covers ``speed // feet_per_tile`` tiles in a round.
* **Placing** (:func:`place`): a group met for the first time where the ruleset rolls a distance stands at the
  floor tile whose walking distance is nearest the roll. A resident (and a guardian) stays in its own segment (in a
  room smaller than the roll, at its farthest tile from the party); a wanderer may be anywhere on the level at
  that distance, beyond the room or out of sight (003: "an encounter may generate beyond the parameters of the
  current room or line of sight"). Never a door, the stairs, the party's tile or another group's tile.
* **Sight.** A group is in sight when its tile is in the party's field of view. Out of sight, one that knows the
  party is there walks toward it at its speed each round (:func:`advance`), "the best it can", and the sides
  meet when it comes into sight (:func:`undercroft.rules.unseen.watch`).
* **Closing** (:func:`close_round`): to fight, the sides must stand side by side: each round the party (and a
  hostile group) moves its speed toward the other.
* **Ways out**: :mod:`undercroft.rules.ways_out`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from undercroft.rules import floods, levelmap
from undercroft.rules.context import Ctx
from undercroft.rules.levelmap import FLOOR, LevelMap, Point
from undercroft.rules.state import Group

# The eight steps in their fixed tie-break order: orthogonal (N, E, S, W), then diagonal (NE, SE, SW, NW).
STEPS8: tuple[Point, ...] = ((0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1))
REACH = 40  # the farthest (in steps) the engine ever measures a walk: beyond, a group is simply far away


class StepMap:
    """Walking steps from one tile over a window of the map whose top-left corner is (x0, y0): :meth:`at` one
    tile; ``flood`` the flood's layers over the window (:class:`~undercroft.rules.floods.Flood`)."""

    __slots__ = ("flood", "x0", "y0")

    def __init__(self, x0: int, y0: int, flood: floods.Flood) -> None:
        self.x0, self.y0, self.flood = x0, y0, flood

    def at(self, p: Point) -> int:
        """Steps to ``p`` (-1: not reached within the window)."""
        return self.flood.at(p[0] - self.x0, p[1] - self.y0)


@dataclass(frozen=True)
class RoomField:
    """Walking steps from ``origin`` to the tiles of the room it stands in: a room is a full rectangle of floor,
    so a walk inside it is as long as the larger of the two offsets (exact: no walk can be shorter). Tiles
    outside the room are not reached (-1)."""

    origin: Point
    room: int
    x1: int
    y1: int
    x2: int
    y2: int

    def at(self, p: Point) -> int:
        if not (self.x1 <= p[0] <= self.x2 and self.y1 <= p[1] <= self.y2):
            return -1
        return max(abs(p[0] - self.origin[0]), abs(p[1] - self.origin[1]))


def _room(m: LevelMap, p: Point) -> int:
    """The room ``p`` lies in (-1: a corridor, a door or a wall)."""
    seg = int(m.segment_of[p[1], p[0]])
    return seg if seg >= 0 and m.segments[seg].kind == "room" else -1


def walk_field(
    m: LevelMap,
    origin: Point,
    target: Point,
    blocked: frozenset[Point] | set[Point] = frozenset(),
) -> StepMap | RoomField:
    """Walking steps from ``origin``, good at least for every tile nearer than ``target``: the room's own field
    when both stand in one room with nothing in the way (the common case: a room meeting), else a flood."""
    room = _room(m, origin)
    if room >= 0 and _room(m, target) == room:
        seg = m.segments[room]
        if not any(seg.contains(*b) for b in blocked):
            return RoomField(origin, room, seg.x1, seg.y1, seg.x2, seg.y2)
    return step_map(m, origin, REACH, blocked, target=target)


def step_map(
    m: LevelMap,
    origin: Point,
    limit: int = REACH,
    blocked: frozenset[Point] | set[Point] = frozenset(),
    within: int | None = None,
    target: Point | None = None,
) -> StepMap:
    """Fewest steps (eight directions, any non-wall tile) from ``origin`` to every tile within ``limit`` steps,
    avoiding ``blocked`` tiles (``origin`` itself is always open) and, with ``within``, every tile outside that
    segment but its doors. With ``target``, the flood stops once it reaches that tile (every tile nearer than it is
    settled by then). A breadth-first flood, one numpy dilation a step, over the smallest window that can hold
    the answer."""
    ox, oy = origin
    y0, y1 = max(0, oy - limit), min(m.height, oy + limit + 1)
    x0, x1 = max(0, ox - limit), min(m.width, ox + limit + 1)
    if within is not None:  # the segment's box and the ring of its doors
        seg = m.segments[within]
        y0, y1 = max(y0, min(seg.y1 - 1, oy)), min(y1, max(seg.y2 + 2, oy + 1))
        x0, x1 = max(x0, min(seg.x1 - 1, ox)), min(x1, max(seg.x2 + 2, ox + 1))
    walk = m.walk_bits(x0, y0, x1, y1, within)
    stride = x1 - x0 + 1
    for bx, by in blocked:
        if (bx, by) != origin and y0 <= by < y1 and x0 <= bx < x1:
            walk &= ~(1 << ((by - y0) * stride + bx - x0))
    aim = None if target is None else (target[0] - x0, target[1] - y0)
    return StepMap(x0, y0, floods.flood_bits(walk, y1 - y0, x1 - x0, (ox - x0, oy - y0), limit, aim))


def feet(ctx: Ctx, steps: int) -> int:
    """A walk of ``steps`` tiles in feet."""
    return steps * ctx.rules.encounter.feet_per_tile


def sight_feet(ctx: Ctx) -> int:
    """How far the party sees on its level, in feet: the map's field-of-view radius at the map's scale. A chase is
    lost beyond it (003: "only as long as the party is in sight"), as the map hides a group beyond it."""
    return feet(ctx, ctx.fov_radius())


def tiles_per_round(ctx: Ctx, speed: int) -> int:
    """How many tiles a creature of ``speed`` (feet per round) covers in a round."""
    return speed // ctx.rules.encounter.feet_per_tile


def steps_between(ctx: Ctx, a: Point, b: Point) -> int:
    """Walking steps between two tiles (:data:`REACH` + 1 when farther or unreachable)."""
    if a == b:
        return 0
    m = ctx.state.level.map
    key = (ctx.state.depth, a, b)
    cache = ctx.walk_cache
    if key in cache:
        return cache[key]
    near = max(abs(a[0] - b[0]), abs(a[1] - b[1]))
    n = REACH + 1
    if _room(m, a) >= 0 and _room(m, a) == _room(m, b):
        n = near  # one room: the walk is the larger offset (see RoomField)
    elif near <= REACH:
        for limit in (min(REACH, 2 * near + 4), REACH):  # a small window first: most ways are nearly straight
            found = step_map(m, a, limit, target=b).at(b)
            if found >= 0:
                n = found
                break
    if len(cache) >= 4096:
        cache.clear()
    cache[key] = cache[(ctx.state.depth, b, a)] = n
    return n


def distance(ctx: Ctx, g: Group) -> int:
    """The walking distance between the party and ``g``, in feet."""
    return feet(ctx, steps_between(ctx, ctx.state.pos, g.pos))


def in_sight(ctx: Ctx, g: Group) -> bool:
    """Whether the party sees ``g``'s tile."""
    x, y = g.pos
    y0, x0, seen = ctx.sight()
    return 0 <= y - y0 < seen.shape[0] and 0 <= x - x0 < seen.shape[1] and bool(seen[y - y0, x - x0])


def side_by_side(ctx: Ctx, g: Group) -> bool:
    """Whether the party and ``g`` stand close enough to fight (adjacent, or on one tile)."""
    return steps_between(ctx, ctx.state.pos, g.pos) <= 1


def occupied(ctx: Ctx, g: Group | None = None) -> set[Point]:
    """The tiles the groups stand on (but ``g``'s), the defeated and the hidden aside."""
    return {o.pos for o in ctx.state.level.groups if o is not g and not o.defeated and not o.hidden}


def place(ctx: Ctx, g: Group, rolled_feet: int, *, anywhere: bool) -> Point:
    """The tile where ``g``, met at ``rolled_feet``, stands (see the module docstring)."""
    st = ctx.state
    m = st.level.map
    want = max(1, rolled_feet // ctx.rules.encounter.feet_per_tile)
    if anywhere or _room(m, st.pos) != g.segment or g.segment < 0:
        return _place_by_walk(ctx, g, want, anywhere)
    # a resident met in its room: the room's own walks
    seg = m.segments[g.segment]
    ys, xs = np.nonzero(m.tiles[seg.y1 : seg.y2 + 1, seg.x1 : seg.x2 + 1] == FLOOR)
    gx, gy = xs + seg.x1, ys + seg.y1
    d = np.maximum(np.abs(gx - st.pos[0]), np.abs(gy - st.pos[1])).astype(np.int32)
    keep = d >= 1
    gx, gy, d = gx[keep], gy[keep], d[keep]
    own = m.segment_of[gy, gx] == g.segment
    if not anywhere and own.any():
        gx, gy, d, own = gx[own], gy[own], d[own], own[own]
    taken = occupied(ctx, g)
    # Nearest the roll first; then in its own segment; then top, then left.
    order = np.lexsort((gx, gy, ~own, np.abs(d - want)))
    for i in order:
        p = (int(gx[i]), int(gy[i]))
        if p not in taken:
            return p
    return g.pos


def _place_by_walk(ctx: Ctx, g: Group, want: int, anywhere: bool) -> Point:
    """:func:`place` by walking steps from the party (all but a resident met in the party's room): the floor tiles
    of the flood's rings, nearest the roll first (the rings ``want - k`` and ``want + k`` together), in ``g``'s
    own segment first, then top, then left; a resident only in its own segment where it reaches any."""
    st = ctx.state
    m = st.level.map
    sm = step_map(m, st.pos, min(REACH, want + 4))
    flood = sm.flood
    cum, stride, x0, y0 = flood.cum, flood.stride, sm.x0, sm.y0
    x1, y1 = x0 + flood.w, y0 + flood.h
    reached = (cum[-1] ^ cum[0]) & m.window_bits(x0, y0, x1, y1, FLOOR)  # floor, a step or more away
    own = reached & m.window_bits(x0, y0, x1, y1, None, g.segment)
    if not anywhere and own:
        reached = own
    taken = occupied(ctx, g)
    top = len(cum) - 1
    for k in range(max(want, top) + 1):
        ring = 0
        for d in (want - k, want + k) if k else (want,):
            if 1 <= d <= top:
                ring |= cum[d] ^ cum[d - 1]
        ring &= reached
        for part in (ring & own, ring & ~own):
            for x, y in floods.tiles_of(part, stride):
                p = (x + x0, y + y0)
                if p not in taken:
                    return p
    return g.pos


def next_step(field: StepMap | RoomField, pos: Point) -> Point | None:
    """One step from ``pos`` down ``field`` (walking steps to where it leads): the first of the nearest neighbours
    in :data:`STEPS8` order; None once beside the goal, or where no neighbour is nearer."""
    here = field.at(pos)
    if 0 <= here <= 1:
        return None
    best: tuple[int, Point] | None = None
    for dx, dy in STEPS8:
        p = (pos[0] + dx, pos[1] + dy)
        n = field.at(p)
        if n >= 0 and (here < 0 or n < here) and (best is None or n < best[0]):
            best = (n, p)
    return None if best is None else best[1]


def advance(ctx: Ctx, g: Group, tiles: int, until: Callable[[], bool] | None = None) -> bool:
    """``g`` walks up to ``tiles`` steps toward the party along a shortest way, stopping beside it (or where
    another group stands in the way, or, with ``until``, after the first step where it holds). True when it
    moved."""
    st = ctx.state
    m = st.level.map
    if tiles <= 0:
        return False
    field = walk_field(m, st.pos, g.pos, occupied(ctx, g))  # other groups' tiles are in the way
    moved = False
    for _ in range(tiles):
        step = next_step(field, g.pos)
        if step is None:
            break
        g.pos = step
        moved = True
        if until is not None and until():
            break
    if moved:
        g.segment = int(m.segment_of[g.pos[1], g.pos[0]])
    return moved


def party_advance(ctx: Ctx, g: Group, tiles: int) -> bool:
    """The party walks up to ``tiles`` steps toward ``g``, stopping beside it. True when it moved. The tiles it
    passes are seen (it is not running); a segment it walks into gets its entry procedure when the meeting or the
    fight is over (:func:`_cross`)."""
    st = ctx.state
    m = st.level.map
    field = walk_field(m, g.pos, st.pos, occupied(ctx, g))
    moved = False
    for _ in range(tiles):
        step = next_step(field, st.pos)
        if step is None:
            break
        st.prev_pos, st.pos = st.pos, step
        moved = True
        ctx.see()
        seg = int(m.segment_of[step[1], step[0]])
        if seg != st.segment and seg >= 0:
            _cross(ctx, seg)
    return moved


def _cross(ctx: Ctx, seg: int) -> None:
    """The party, closing to fight, stepped into segment ``seg`` (from ``prev_pos``): it stands there now, and its
    entry procedure (000) waits until the meeting or the fight is over (:func:`undercroft.rules.explore.settle`)."""
    enter_later(ctx, seg, ctx.state.prev_pos)


def enter_later(ctx: Ctx, seg: int, entry: Point) -> None:
    """The party stands in segment ``seg`` now (come in from ``entry``) in a meeting, a fight or a chase: its entry
    procedure (000) waits until that is over. The segment it leaves, if it had not had its own entry yet (it was
    stood in or run through), is owed one still (``GameState.owed``): every segment entered gets its entry."""
    st = ctx.state
    if seg in st.owed:
        st.owed.remove(seg)  # back in it: it gets its entry as the segment the party stands in
    if st.segment != seg:
        owe_entry(ctx)
    st.segment, st.segment_entry, st.entered = seg, entry, False


def owe_entry(ctx: Ctx) -> None:
    """The party leaves its segment: if it had not had its entry yet, it is owed one (``GameState.owed``)."""
    st = ctx.state
    if not st.entered and st.segment >= 0 and st.segment not in st.owed:
        st.owed.append(st.segment)


def beside(ctx: Ctx, g: Group) -> None:
    """Bring ``g`` beside the party for a fight that begins now (the nearest free tile next to it)."""
    st = ctx.state
    if side_by_side(ctx, g):
        return
    m = st.level.map
    taken = occupied(ctx, g)
    sm = walk_field(m, g.pos, st.pos, taken)
    best: tuple[int, int, Point] | None = None
    for i, (dx, dy) in enumerate(STEPS8):
        p = (st.pos[0] + dx, st.pos[1] + dy)
        if not (0 <= p[0] < m.width and 0 <= p[1] < m.height) or m.tiles[p[1], p[0]] == levelmap.WALL:
            continue
        if p in taken:
            continue
        n = sm.at(p)
        key = (n if n >= 0 else REACH + 1, i, p)
        if best is None or key[:2] < best[:2]:
            best = key
    if best is not None:
        g.pos = best[2]
        g.segment = int(m.segment_of[g.pos[1], g.pos[0]])


def creature_tiles(ctx: Ctx, g: Group) -> list[Point]:
    """Where each creature of ``g`` stands, in creature order: the first on the group's tile, the others on the
    free floor tiles within a few steps of it (nearest first; ties: top, left), never nearer the party than the
    group's tile (so the group's distance is its nearest creature's), never the party's tile, a door or another
    group's tile. A fallen creature keeps its tile."""
    st = ctx.state
    m = st.level.map
    n = len(g.hp)
    if n <= 1:
        return [g.pos][:n]
    taken = occupied(ctx, g) | {st.pos}
    flood = step_map(m, g.pos, 3, taken)
    cum, stride, x0, y0 = flood.flood.cum, flood.flood.stride, flood.x0, flood.y0
    rows = m.tile_rows
    px, py = st.pos
    # Never nearer the party than the group's own tile: the distance to the group is the distance to its nearest.
    lead = max(abs(g.pos[0] - px), abs(g.pos[1] - py))
    out = [g.pos]
    for k in range(1, len(cum)):  # nearest first; a layer's tiles top to bottom, left to right
        for dx, dy in floods.tiles_of(cum[k] ^ cum[k - 1], stride):
            x, y = x0 + dx, y0 + dy
            if rows[y][x] == FLOOR and max(abs(x - px), abs(y - py)) >= lead and (x, y) not in taken:
                out.append((x, y))
                if len(out) == n:
                    break
        if len(out) == n:
            break
    while len(out) < n:  # no room around it (a crowded corridor): the rest stand behind the last
        out.append(out[-1])
    return out
