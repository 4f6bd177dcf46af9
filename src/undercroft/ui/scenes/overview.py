"""The level overview (``X``): the whole explored level on one screen, whatever the screen's size.

Where the level fits, it is drawn tile for tile; where it does not (80x24 holds 80x43 tiles in 22 rows), each cell
stands for a block of tiles and shows the block's most telling tile: the party, then the stairs, then a creature
in sight or an item, then a door, then floor, then wall, then nothing known. The map is first drawn whole into a
console of the level's size by the map's own drawing (:func:`undercroft.ui.render.draw_map`), then shrunk with
numpy: nothing here knows more than the map shows. Any key closes it; it sends no action.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
import tcod.console
import tcod.event

from undercroft.rules import dungeon
from undercroft.ui import render
from undercroft.ui.layout import Viewport
from undercroft.ui.render import DIM, TITLE
from undercroft.ui.scenes.base import Pop, Scene, Transition
from undercroft.ui.session import Session

# How telling a tile is (higher wins its block), by what the map drew there.
_UNKNOWN, _WALL, _FLOOR, _DOOR, _THING, _STAIRS, _PARTY = range(7)


def shrink(cells: npt.NDArray[np.void], rank: npt.NDArray[np.int8], by: int, bx: int) -> npt.NDArray[np.void]:
    """``cells`` (h, w) shrunk by blocks of ``by`` x ``bx``: each block becomes its highest-``rank`` cell (the
    first in reading order on a tie)."""
    h, w = rank.shape
    hh, ww = math.ceil(h / by), math.ceil(w / bx)
    r = np.full((hh * by, ww * bx), -1, dtype=np.int16)
    r[:h, :w] = rank
    blocks = r.reshape(hh, by, ww, bx).transpose(0, 2, 1, 3).reshape(hh, ww, by * bx)
    best = blocks.argmax(axis=2)
    ys = np.arange(hh)[:, None] * by + best // bx
    xs = np.arange(ww)[None, :] * bx + best % bx
    padded = np.zeros((hh * by, ww * bx), dtype=cells.dtype)
    padded[:h, :w] = cells
    padded["ch"][h:, :] = padded["ch"][:, w:] = ord(" ")
    out: npt.NDArray[np.void] = padded[ys, xs]
    return out


def ranks(session: Session, drawn: npt.NDArray[np.void]) -> npt.NDArray[np.int8]:
    """How telling each drawn tile is (see the module's words)."""
    game = session.game
    tiles = game.state.level.map.tiles
    known = np.asarray(session.view.seen(), dtype=bool)
    rank = np.full(tiles.shape, _UNKNOWN, dtype=np.int8)
    rank[known & (tiles == dungeon.WALL)] = _WALL
    rank[known & (tiles == dungeon.FLOOR)] = _FLOOR
    rank[known & (tiles == dungeon.DOOR)] = _DOOR
    terrain = render.TILE_CH[tiles.astype(np.intp)]
    rank[known & (drawn["ch"] != terrain)] = _THING  # an item or a creature drawn over the terrain
    rank[known & (tiles == dungeon.STAIRS)] = _STAIRS
    px, py = game.state.pos
    rank[py, px] = _PARTY
    return rank


class OverviewScene(Scene):
    """``X``: the whole explored level on one screen. Any key closes it."""

    opaque = True

    def __init__(self, session: Session) -> None:
        self.session = session

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if isinstance(event, (tcod.event.KeyDown, tcod.event.MouseButtonDown)):
            if isinstance(event, tcod.event.KeyDown) and event.sym in _MODIFIERS:
                return None
            return Pop()
        return None

    def on_draw(self, console: tcod.console.Console) -> None:
        game = self.session.game
        m = game.state.level.map
        whole = tcod.console.Console(m.width, m.height, order="C")
        render.draw_map(whole, self.session.view, port=Viewport(0, 0, m.width, m.height))
        drawn = render.cells(whole)
        room_w, room_h = console.width, max(1, console.height - 2)  # a title row above, a hint row below
        by, bx = math.ceil(m.height / room_h), math.ceil(m.width / room_w)
        small = drawn if by == bx == 1 else shrink(drawn, ranks(self.session, drawn), by, bx)
        out = render.cells(console)
        out[...] = render.SHROUD
        h, w = small.shape
        y0, x0 = 1 + (room_h - h) // 2, (room_w - w) // 2
        out[y0 : y0 + h, x0 : x0 + w] = small
        depth = game.state.depth
        title = f" Level {depth + 1}: {game.rs.levels[depth].name} "
        scale = "" if by == bx == 1 else f" (one cell: {bx}x{by} tiles)"
        render.put_text(console, 0, 0, (title + scale).strip(), TITLE, width=console.width)
        hint = "@ you  > stairs  letters: monsters in sight.  Any key: back."
        render.put_text(console, 0, console.height - 1, hint, DIM, width=console.width)


_MODIFIERS = frozenset(
    {
        tcod.event.KeySym.LSHIFT,
        tcod.event.KeySym.RSHIFT,
        tcod.event.KeySym.LCTRL,
        tcod.event.KeySym.RCTRL,
        tcod.event.KeySym.LALT,
        tcod.event.KeySym.RALT,
    }
)
