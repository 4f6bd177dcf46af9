"""Making a level: the map (:mod:`undercroft.rules.dungeon`), the floor items and the guardians.

Each level draws only from its own stream (:func:`~undercroft.rules.rng.level_stream`, at its depth), so a level is
the same whatever happened before it, and one seed gives each ruleset its own maps.
Items lie in rooms other than the start; the guardians of a final level wait in its farthest rooms, the first of
them by the stairs, which on the final level are the way out (our design: see docs/RULES.md). A level's unique
waits in the map's set-piece room (else the farthest room no guardian holds) as a resident: it never wanders, and
it is met as any resident is when the party walks in (the room then has no monster check of its own).
"""

from __future__ import annotations

import numpy as np

from undercroft.content import Content
from undercroft.rules import dungeon
from undercroft.rules.context import init_behaviour
from undercroft.rules.dice import roll
from undercroft.rules.rng import Stream, Streams, level_stream
from undercroft.rules.state import Group, LevelState
from undercroft.rules.types import Origin

GROUP_ID_BASE = 10_000  # guardians of level i have ids GROUP_ID_BASE * (i + 1) + k
UNIQUE_ID = 99  # ... and its unique GROUP_ID_BASE * (i + 1) + UNIQUE_ID


def make_level(content: Content, ruleset: str, streams: Streams, idx: int) -> LevelState:
    """Level ``idx`` of ruleset ``ruleset``, from its own stream (the ruleset's level stream, at depth ``idx``)."""
    spec = content.ruleset(ruleset).levels[idx]
    stream = streams.get(level_stream(ruleset), idx)
    m = dungeon.generate_level(content.dungeon[spec.mapgen], stream)
    lv = LevelState(
        index=idx,
        map=m,
        visited=np.zeros(len(m.segments), dtype=bool),
        memory=np.zeros((m.height, m.width + 1), dtype=bool),
        items={},
        fov_radius=content.dungeon[spec.mapgen].fov_radius,
    )
    start_seg = int(m.segment_of[m.start[1], m.start[0]])
    candidates: list[tuple[int, int]] = []  # the floor of every room but the start's, room by room, row by row
    for s in m.segments:
        if s.kind == "room" and s.id != start_seg:
            ys, xs = np.nonzero(m.tiles[s.y1 : s.y2 + 1, s.x1 : s.x2 + 1] == dungeon.FLOOR)  # row-major
            candidates += zip((xs + s.x1).tolist(), (ys + s.y1).tolist(), strict=True)
    for fi in spec.items:
        n = max(0, roll(stream, fi.count).total)
        for _ in range(n):
            if not candidates:
                break
            amount = max(1, roll(stream, fi.amount).total)
            tile = candidates[stream.below(len(candidates))]
            lv.items.setdefault(tile, []).append((fi.item, amount))
    gid_base = GROUP_ID_BASE * (idx + 1)
    for i, mid in enumerate(spec.guardians):
        rooms = [r for r in m.far_rooms if r != start_seg]
        seg = m.segments[rooms[i % len(rooms)]]
        mon = content.monsters[mid]
        treasure = max(0, roll(stream, mon.treasure).total)
        g = Group(gid_base + i, mid, [mon.hp], mon.hp, idx, seg.id, guard_post(m, seg), Origin.GUARDIAN, treasure)
        init_behaviour(g, mon)
        lv.add_group(g)
    if spec.unique is not None:
        lv.add_group(_unique(content, spec.unique, lv, stream, gid_base + UNIQUE_ID))
    return lv


#: How the party got past a guardian, as the ``won`` event tells it (:func:`guardian_fates`).
SLAIN, AT_PEACE, PASSED, UNMET = "slain", "at_peace", "passed", "unmet"


def guardian_fates(content: Content, ruleset: str, lv: LevelState) -> list[list[str]]:
    """For each guardian of the final level ``lv``, in their listed order, [monster id, how the party got past it]:
    ``slain`` (defeated), ``at_peace`` (terms, a bribe or a kind reaction), ``passed`` (met, and the party got by it
    all the same: it never closed, it was left behind or let the party be) or ``unmet``."""
    spec = content.ruleset(ruleset).levels[lv.index]
    base = GROUP_ID_BASE * (lv.index + 1)
    here = {g.id: g for g in lv.groups}
    out = []
    for i, mid in enumerate(spec.guardians):
        g = here.get(base + i)
        how = SLAIN if g is None else AT_PEACE if g.peaceful else PASSED if g.met else UNMET
        out.append([mid, how])
    return out


def _unique(content: Content, mid: str, lv: LevelState, stream: Stream, gid: int) -> Group:
    """The level's unique, a resident of the set-piece room (or, if a guardian holds it or it is the start, the
    farthest room that is free)."""
    m = lv.map
    start_seg = int(m.segment_of[m.start[1], m.start[0]])
    held = {g.segment for g in lv.groups} | {start_seg}
    free = [r for r in (m.set_piece, *m.far_rooms) if r >= 0 and r not in held]
    seg = m.segments[free[0] if free else m.far_rooms[0]]
    mon = content.monsters[mid]
    treasure = max(0, roll(stream, mon.treasure).total)
    g = Group(gid, mid, [mon.hp], mon.hp, lv.index, seg.id, guard_post(m, seg), Origin.RESIDENT, treasure)
    init_behaviour(g, mon)
    return g


def guard_post(m: dungeon.LevelMap, seg: dungeon.Segment) -> tuple[int, int]:
    """Where a guardian stands: the room floor tile nearest its centre that is not the stairs (top-left first)."""
    cx, cy = (seg.x1 + seg.x2) // 2, (seg.y1 + seg.y2) // 2
    tiles = [
        (abs(x - cx) + abs(y - cy), y, x)
        for y in range(seg.y1, seg.y2 + 1)
        for x in range(seg.x1, seg.x2 + 1)
        if m.tiles[y, x] == dungeon.FLOOR
    ]
    _, y, x = min(tiles)
    return (x, y)
