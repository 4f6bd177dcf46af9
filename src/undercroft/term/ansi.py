"""Draw a tcod console with ANSI escape codes, rewriting only the cells that changed since the last frame.

:class:`AnsiRenderer` keeps the last frame it sent as three integer arrays (glyph, foreground key, background
key) and compares the next console against them with numpy. Each changed stretch of a row is sent as one cursor
move followed by its cells; two stretches separated by a few unchanged cells are joined, since rewriting a couple
of cells costs less than another cursor move. A colour escape is sent only when the colour differs from the
previous cell's, so a run of same-coloured text costs one byte a cell.

Colours are 24-bit (``ESC[38;2;R;G;Bm``) or, for terminals without it, the nearest entry of the xterm 256-colour
palette (:func:`rgb_to_xterm256`; only the fixed 6x6x6 cube and the grey ramp, never the 16 colours that every
terminal theme redefines). In 256-colour mode two RGB colours that map to the same index count as unchanged.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import tcod.console
from numpy.typing import NDArray
from wcwidth import wcwidth

CSI: Final = "\x1b["
RESET: Final = "\x1b[0m"

# The levels of the xterm 6x6x6 colour cube (indices 16..231) and its 24 greys (232..255: 8, 18, ..., 238).
_CUBE_LEVELS: Final = np.array([0, 95, 135, 175, 215, 255], dtype=np.int32)
_GREY_LEVELS: Final = np.arange(8, 248, 10, dtype=np.int32)
# Nearest cube level for every 0..255 channel value (a lookup table, so the mapping is one fancy index).
_NEAREST_CUBE: Final = np.abs(np.arange(256)[:, None] - _CUBE_LEVELS[None, :]).argmin(axis=1).astype(np.int32)

# Join two changed stretches of a row when at most this many unchanged cells lie between them.
_JOIN_GAP: Final = 4


def rgb_to_xterm256(rgb: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """The nearest xterm-256 palette index (16..255) of each colour of an ``(..., 3)`` uint8 array.

    Each colour is compared with its nearest point of the colour cube and its nearest grey; the closer one (by
    squared RGB distance) wins. Pure colours land on the cube's corners: red 196, green 46, blue 21, white 231,
    black 16.
    """
    c = np.asarray(rgb, dtype=np.int32)
    r, g, b = c[..., 0], c[..., 1], c[..., 2]
    ri, gi, bi = _NEAREST_CUBE[r], _NEAREST_CUBE[g], _NEAREST_CUBE[b]
    cube_index = 16 + 36 * ri + 6 * gi + bi
    cube_dist = (r - _CUBE_LEVELS[ri]) ** 2 + (g - _CUBE_LEVELS[gi]) ** 2 + (b - _CUBE_LEVELS[bi]) ** 2
    mean = (r + g + b) // 3
    gi_grey = np.clip((mean - 3) // 10, 0, 23)
    grey = _GREY_LEVELS[gi_grey]
    grey_dist = (r - grey) ** 2 + (g - grey) ** 2 + (b - grey) ** 2
    out: NDArray[np.uint8] = np.where(grey_dist < cube_dist, 232 + gi_grey, cube_index).astype(np.uint8)
    return out


def _glyph(ch: int) -> str:
    """The text of one console cell, exactly one column wide.

    Control characters, surrogates and combining marks become a space; a character the terminal would draw two
    columns wide (which would push the rest of the row right) becomes ``?``.
    """
    if ch < 0x20 or 0x7F <= ch < 0xA0 or 0xD800 <= ch < 0xE000 or ch > 0x10FFFF:
        return " "
    if ch < 0x7F:
        return chr(ch)
    width = wcwidth(chr(ch))
    if width == 1:
        return chr(ch)
    return "?" if width > 1 else " "


class AnsiRenderer:
    """Turns successive frames of a console into the escape codes that update a terminal from one to the next.

    ``truecolor`` selects 24-bit colour escapes, otherwise the 256-colour palette. ``origin`` is the terminal
    cell (column, row; zero-based) where the console's top-left cell goes. The first frame, and the first after
    :meth:`invalidate`, rewrites every cell.
    """

    def __init__(self, truecolor: bool = True, origin: tuple[int, int] = (0, 0)) -> None:
        self.truecolor = truecolor
        self.origin = origin
        self._ch: NDArray[np.int32] | None = None
        self._fg: NDArray[np.int32] | None = None
        self._bg: NDArray[np.int32] | None = None
        self._glyphs: dict[int, str] = {}
        self._sgr_fg: dict[int, str] = {}
        self._sgr_bg: dict[int, str] = {}

    def invalidate(self) -> None:
        """Forget the last frame: the next :meth:`render` rewrites the whole console (after a resize or a clear)."""
        self._ch = self._fg = self._bg = None

    def _keys(self, colors: NDArray[np.uint8]) -> NDArray[np.int32]:
        """One integer per cell standing for its colour as the terminal will show it."""
        if self.truecolor:
            c = colors.astype(np.int32)
            return (c[..., 0] << 16) | (c[..., 1] << 8) | c[..., 2]
        return rgb_to_xterm256(colors).astype(np.int32)

    def _code(self, cache: dict[int, str], layer: int, key: int) -> str:
        """The SGR parameters that set a colour: ``layer`` 38 for the foreground, 48 for the background."""
        code = cache.get(key)
        if code is None:
            rgb = f"2;{key >> 16};{(key >> 8) & 0xFF};{key & 0xFF}" if self.truecolor else f"5;{key}"
            code = cache[key] = f"{layer};{rgb}"
        return code

    def _fg_code(self, key: int) -> str:
        return self._code(self._sgr_fg, 38, key)

    def _bg_code(self, key: int) -> str:
        return self._code(self._sgr_bg, 48, key)

    def _text(self, ch: int) -> str:
        text = self._glyphs.get(ch)
        if text is None:
            text = self._glyphs[ch] = _glyph(ch)
        return text

    def render(self, console: tcod.console.Console) -> str:
        """The escape codes that turn the last frame into ``console`` ("" when nothing changed)."""
        rgb = console.rgb
        if rgb.strides[0] < rgb.strides[1]:  # an order="F" console is indexed [x, y]
            rgb = rgb.T
        ch = rgb["ch"].astype(np.int32)
        fg = self._keys(rgb["fg"])
        bg = self._keys(rgb["bg"])
        if self._ch is None or self._fg is None or self._bg is None or self._ch.shape != ch.shape:
            changed = np.ones(ch.shape, dtype=bool)
        else:
            changed = (ch != self._ch) | (fg != self._fg) | (bg != self._bg)
        self._ch, self._fg, self._bg = ch, fg, bg
        rows = np.flatnonzero(changed.any(axis=1))
        if rows.size == 0:
            return ""
        ox, oy = self.origin
        out: list[str] = []
        cur_fg = cur_bg = -1  # unknown at the start of a frame: the first cell always sets both colours
        for y in rows.tolist():
            xs = np.flatnonzero(changed[y])
            # Split the changed columns into stretches, joining those separated by a short gap.
            breaks = np.flatnonzero(np.diff(xs) > _JOIN_GAP + 1)
            starts = np.concatenate(([xs[0]], xs[breaks + 1]))
            ends = np.concatenate((xs[breaks], [xs[-1]]))
            ch_row, fg_row, bg_row = ch[y].tolist(), fg[y].tolist(), bg[y].tolist()
            for x0, x1 in zip(starts.tolist(), ends.tolist(), strict=True):
                out.append(f"{CSI}{oy + y + 1};{ox + x0 + 1}H")
                for x in range(x0, x1 + 1):
                    f, b = fg_row[x], bg_row[x]
                    if f != cur_fg and b != cur_bg:
                        out.append(f"{CSI}{self._fg_code(f)};{self._bg_code(b)}m")
                    elif f != cur_fg:
                        out.append(f"{CSI}{self._fg_code(f)}m")
                    elif b != cur_bg:
                        out.append(f"{CSI}{self._bg_code(b)}m")
                    cur_fg, cur_bg = f, b
                    out.append(self._text(ch_row[x]))
        return "".join(out)

    def full_frame_size(self, console: tcod.console.Console) -> int:
        """The size in bytes (UTF-8) of a redraw of every cell of ``console``; leaves this renderer untouched."""
        other = AnsiRenderer(truecolor=self.truecolor, origin=self.origin)
        return len(other.render(console).encode("utf-8"))
