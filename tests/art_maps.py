"""Levels drawn in text for the tests of things the map decides (the chase): ``#`` wall, ``.`` room floor, ``,``
corridor floor, ``+`` door, ``>`` stairs down. Each run of ``.`` tiles joined side by side is a room, each of
``,`` a corridor; a door belongs to the corridor beside it (else to the room)."""

from __future__ import annotations

from typing import Literal

import numpy as np

from undercroft.rules.game import Game
from undercroft.rules.levelmap import DOOR, FLOOR, STAIRS, WALL, LevelMap, Point, Segment
from undercroft.rules.state import LevelState

CODES = {"#": WALL, ".": FLOOR, ",": FLOOR, "+": DOOR, ">": STAIRS}


def _parts(rows: list[str], ch: str) -> list[set[Point]]:
    seen: set[Point] = set()
    out: list[set[Point]] = []
    for y, row in enumerate(rows):
        for x, c in enumerate(row):
            if c != ch or (x, y) in seen:
                continue
            part, todo = set(), [(x, y)]
            while todo:
                px, py = todo.pop()
                if (px, py) in part or not (0 <= py < len(rows) and 0 <= px < len(rows[py])):
                    continue
                if rows[py][px] != ch and not (ch == "." and rows[py][px] == ">"):
                    continue
                part.add((px, py))
                todo += [(px + 1, py), (px - 1, py), (px, py + 1), (px, py - 1)]
            seen |= part
            out.append(part)
    return out


def art_map(art: str) -> LevelMap:
    """The :class:`LevelMap` of ``art`` (the start: the first room's first tile)."""
    rows = [r for r in art.strip("\n").splitlines()]
    h, w = len(rows), max(len(r) for r in rows)
    rows = [r.ljust(w, "#") for r in rows]
    tiles = np.array([[CODES[c] for c in r] for r in rows], dtype=np.uint8)
    segment_of = np.full((h, w), -1, dtype=np.int16)
    kinds: tuple[Literal["room"], Literal["corridor"]] = ("room", "corridor")
    parts = [(k, p) for k in kinds for p in _parts(rows, "." if k == "room" else ",")]
    for i, (_, part) in enumerate(parts):
        for x, y in part:
            segment_of[y, x] = i
    doors: dict[int, list[Point]] = {i: [] for i in range(len(parts))}
    links: dict[int, set[int]] = {i: set() for i in range(len(parts))}
    for y, row in enumerate(rows):
        for x, c in enumerate(row):
            if c != "+":
                continue
            beside = sorted({int(segment_of[y + dy, x + dx]) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))} - {-1})
            corridors = [s for s in beside if parts[s][0] == "corridor"]
            segment_of[y, x] = (corridors or beside)[0]
            for s in beside:
                doors[s].append((x, y))
                links[s] |= set(beside) - {s}
    segments = []
    for i, (kind, part) in enumerate(parts):
        xs = [x for x, _ in part] + [x for x, _ in doors[i] if kind == "corridor"]
        ys = [y for _, y in part] + [y for _, y in doors[i] if kind == "corridor"]
        segments.append(
            Segment(i, kind, min(xs), min(ys), max(xs), max(ys), tuple(sorted(doors[i])), tuple(sorted(links[i])))
        )
    start = min(parts[0][1], key=lambda p: (p[1], p[0]))
    stairs = next(((x, y) for y, r in enumerate(rows) for x, c in enumerate(r) if c == ">"), start)
    rooms = tuple(i for i, (k, _) in enumerate(parts) if k == "room")
    return LevelMap(w, h, tiles, segment_of, tuple(segments), start, stairs, rooms)


def on_art(game: Game, art: str, pos: Point) -> LevelState:
    """Put ``game``'s party on a level drawn as ``art`` (its current level replaced), at ``pos``."""
    m = art_map(art)
    st = game.state
    lv = LevelState(
        index=st.depth,
        map=m,
        visited=np.zeros(len(m.segments), dtype=bool),
        memory=np.zeros((m.height, m.width + 1), dtype=bool),
        items={},
        fov_radius=st.level.fov_radius,
    )
    st.levels[st.depth] = lv
    st.pos = st.prev_pos = st.segment_entry = pos
    st.segment = int(m.segment_of[pos[1], pos[0]])
    lv.visit(st.segment)
    st.entered = True
    game.walk_cache.clear()
    game.exits_memo = None
    return lv
