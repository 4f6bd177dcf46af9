"""Where things go on a console of any size from 80x24 up: the map viewport, the status bar, the log, the panels.

:class:`Layout` is made from the console's size alone. The map is a viewport over the level: as many rows as the
console has to spare above the status bar and at least three rows of log (the whole level's 43 rows from 47 rows
up, the spare rows then going to the log), all its columns; a wider console shows the whole level centred. A side
panel (an encounter, a fight, a chase, the door choice, look) stands on the side away from the party,
:data:`PANEL_W` columns wide at 80 and wider on a wider console (to :data:`PANEL_MAX`, the map keeping
:data:`MAP_MIN` columns beside it: its lines wrap less where there is room). On a tall console it stands over the
map between the top row and the status bar; on a short one (under :data:`TALL` rows) it takes the whole height of
its side and the status bar and the log move to the other side.

:class:`Camera` chooses which part of the level the viewport shows. It follows the party, scrolling only when the
party comes within a quarter of the view of an edge (as DCSS's and NetHack's consoles do, not every step), and it
shifts so that the party and the creatures it faces stand in the part of the map no panel covers. The camera is
front-end state (it lives in the session, never in the game) and draws nothing from any random stream. A level
that fits twice or more in the map's rows and the columns no panel covers (:func:`scale_of`) is scaled up instead:
each tile a block of whole cells, the level whole and centred in that part of the screen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from undercroft.rules.levelmap import Point

MIN_W: Final = 80
MIN_H: Final = 24
PANEL_W: Final = 38  # a side panel's columns at 80 (and at least)
PANEL_MAX: Final = 64  # ... and at most: a wider console's panel holds its longest lines unwrapped
MAP_MIN: Final = 58  # the columns a wider console keeps for the map beside a panel (29 tiles two columns wide)
MIN_LOG: Final = 3  # rows of log below the status bar, at least
LEVEL_H: Final = 43  # the dungeon profiles' height: more map rows than that are never needed
TOP: Final = 1  # the map's top row is the title's and the hover line's: the level is drawn below it
TALL: Final = 40  # from this many rows a panel stands over the map; below, it takes the whole height
WIDE: Final = 110  # from this many columns a map tile is two columns wide: the map grows to fill the screen


@dataclass(frozen=True)
class Rect:
    x: int
    y: int
    w: int
    h: int

    def __contains__(self, p: object) -> bool:
        if not isinstance(p, tuple) or len(p) != 2:
            return False
        x, y = p
        return (
            isinstance(x, int)
            and isinstance(y, int)
            and self.x <= x < self.x + self.w
            and self.y <= y < self.y + self.h
        )


@dataclass(frozen=True)
class Layout:
    """The parts of a ``width`` x ``height`` console. ``map_h`` rows of map from the top (the first, :data:`TOP`,
    the floor's title and the hover line, the level below it), the status bar at ``status_y``, ``log_rows`` rows
    of log from ``log_y``."""

    width: int
    height: int
    map_h: int
    status_y: int
    log_y: int
    log_rows: int

    @classmethod
    def of(cls, width: int, height: int) -> Layout:
        """The layout of a console of this size (smaller than 80x24 is laid out as 80x24 would be: the front
        ends say "too small" instead of drawing it)."""
        width, height = max(width, MIN_W), max(height, MIN_H)
        map_h = min(TOP + LEVEL_H, height - 1 - MIN_LOG)
        return cls(width, height, map_h, map_h, map_h + 1, height - map_h - 1)

    @property
    def sx(self) -> int:
        """Screen columns a map tile takes: two from :data:`WIDE` columns (the map fills a wide screen, its
        tiles about square in a terminal's or the window's cells), else one."""
        return 2 if self.width >= WIDE else 1

    @property
    def tall(self) -> bool:
        """Whether a panel stands over the map (True) or takes a whole side (False)."""
        return self.height >= TALL

    @property
    def panel_w(self) -> int:
        """A side panel's columns: :data:`PANEL_W`, more on a console wider than it and the map's
        :data:`MAP_MIN` (to :data:`PANEL_MAX`)."""
        return max(PANEL_W, min(PANEL_MAX, self.width - MAP_MIN))

    def panel(self, right: bool, w: int | None = None) -> Rect:
        """Where a side panel goes: on the right (``right``) or the left; ``w`` columns (default
        :attr:`panel_w`)."""
        w = self.panel_w if w is None else w
        x = self.width - w - 1 if right else 1
        if self.tall:
            return Rect(x, 1, w, self.map_h - 2)
        return Rect(self.width - w if right else 0, 0, w, self.height)

    def clear(self, panel: Rect | None) -> tuple[int, int]:
        """The columns [x0, x1) of the map that no panel covers."""
        if panel is None:
            return 0, self.width
        if 2 * panel.x + panel.w > self.width:  # (its middle right of the screen's: a right-hand panel)
            return 0, panel.x
        return panel.x + panel.w, self.width

    def text_columns(self, panel: Rect | None) -> tuple[int, int]:
        """The columns [x0, x1) left for the status bar and the log: all of them, or (a panel taking a whole
        side) those on the other side."""
        if panel is None or self.tall:
            return 0, self.width
        return self.clear(panel)


def panel_on_right(party_x: int, level_w: int) -> bool:
    """Whether a side panel goes on the right: the party stands in the part of the level a right-hand panel would
    not cover (the camera then keeps it there)."""
    return party_x < level_w - PANEL_W - 1


@dataclass(frozen=True)
class Viewport:
    """The map as drawn: level tile (mx, my) is the block of ``sx`` columns by ``sy`` rows whose top left cell is
    (x0 + (mx - ox) * sx, y0 + (my - oy) * sy), for screen rows [top, h) and columns [0, w) (the rows above
    ``top`` are not the map's: the title's). Its glyph stands in the block's middle cell (:meth:`to_screen`), the
    others repeat a wall's or water's or are blank on its colour."""

    ox: int
    oy: int
    w: int
    h: int
    top: int = 0
    sx: int = 1  # screen columns a tile: 2 on a wide screen (WIDE), more for a small level scaled up
    sy: int = 1  # screen rows a tile: more than one for a small level scaled up
    x0: int = 0  # the screen column of tile column ox
    y0: int = 0  # the screen row of tile row oy

    @property
    def cols(self) -> int:
        """Tiles across the view (whole)."""
        return max(0, (self.w - self.x0) // self.sx)

    @property
    def rows(self) -> int:
        """Tiles down the view (whole)."""
        return max(0, (self.h - self.y0) // self.sy)

    def cell(self, p: Point) -> Point:
        """The top left screen cell of level tile ``p``'s block."""
        return (self.x0 + (p[0] - self.ox) * self.sx, self.y0 + (p[1] - self.oy) * self.sy)

    def to_screen(self, p: Point) -> Point:
        """The screen cell of level tile ``p``'s glyph (its block's middle: the top left one for a block of one
        row and two columns)."""
        x, y = self.cell(p)
        return (x + (self.sx - 1) // 2, y + (self.sy - 1) // 2)

    def to_map(self, s: Point) -> Point | None:
        """The level tile whose block holds screen cell ``s``, or None off the map's rows and columns."""
        x, y = s[0] - self.x0, s[1] - self.y0
        if not (0 <= x < self.cols * self.sx and 0 <= y < self.rows * self.sy and self.top <= s[1] < self.h):
            return None
        return (x // self.sx + self.ox, y // self.sy + self.oy)

    def shows(self, p: Point) -> bool:
        """Whether level tile ``p``'s whole block is on screen."""
        x, y = self.cell(p)
        return 0 <= x <= self.w - self.sx and self.top <= y <= self.h - self.sy


IDENTITY: Final = Viewport(0, 0, MIN_W, LEVEL_H)


def scale_of(layout: Layout, level_size: tuple[int, int], panel: Rect | None = None) -> int:
    """How many times a level is scaled up on this layout: the most whole times its tiles (``layout.sx`` columns
    by one row each) fit, all of them, in the columns no ``panel`` covers and the map's rows; 1 for a level that
    does not fit twice (every dungeon level on a console under 320x90: it scrolls as before)."""
    x0, x1 = layout.clear(panel)
    mw, mh = level_size
    return max(1, min((x1 - x0) // max(1, mw * layout.sx), (layout.map_h - TOP) // max(1, mh)))


def _axis(
    prev: int | None,
    size: int,
    view: int,
    focus: int,
    lo: int,
    hi: int,
    box: tuple[int, int],
    known: tuple[int, int] | None = None,
) -> int:
    """The origin along one axis. ``size``: the level's extent; ``view``: the screen's; ``focus``: the party;
    [lo, hi): the screen span no panel covers; ``box``: the level span that must be inside it; ``known``: the span
    of the level seen so far, shown whole where it fits (moved the least, ``box`` kept inside)."""
    if size <= view:
        o = -((view - size) // 2)  # the whole level fits: centred
    else:
        margin = view // 4
        o = prev if prev is not None else focus - view // 2
        if not margin <= focus - o < view - margin:
            o = focus - view // 2
        o = max(0, min(size - view, o))
    b0, b1 = box
    if b1 - b0 + 1 <= hi - lo:
        if b0 - o < lo or b1 - o >= hi:  # moved: the box in the middle of the span (not against a panel's edge)
            o = (b0 + b1 + 1) // 2 - (lo + hi) // 2
    elif not lo <= focus - o < hi:
        o = focus - (lo + hi) // 2
    if known is not None and size > hi - lo and known[1] - known[0] + 1 <= hi - lo:
        k0, k1 = known  # what has been seen fits beside the panel: none of it cut at an edge while room is left
        shifted = k0 - lo if k0 - o < lo else k1 - hi + 1 if k1 - o >= hi else o
        if lo <= b0 - shifted and b1 - shifted < hi:
            o = shifted
    return o


class Camera:
    """Which part of the level the map viewport shows; kept from frame to frame (it scrolls near the edges)."""

    def __init__(self) -> None:
        self.origin: tuple[int, int] | None = None
        self.key: object = None  # the level the origin belongs to
        self.last: Viewport = IDENTITY

    def view(
        self,
        layout: Layout,
        level_size: tuple[int, int],
        party: Point,
        *,
        level: object = None,
        panel: Rect | None = None,
        keep: tuple[Point, ...] = (),
        known: tuple[int, int, int, int] | None = None,
    ) -> Viewport:
        """The viewport for this frame: ``party`` in view, and ``keep`` (the creatures faced) with it in the
        columns no ``panel`` covers, in the rows below the title's (:data:`TOP`), when they fit there. With a
        panel, the level is laid out in those columns alone (a level narrower than them centred there, never
        under the panel). A level that fits there twice or more is scaled up (:func:`scale_of`): whole, centred,
        nothing to scroll. ``known`` (x0, y0, x1, y1): the tiles seen so far, shown whole where they fit, so that
        a room is not cut at a panel's edge or the screen's while columns are left empty on the other side."""
        if level != self.key:
            self.origin, self.key = None, level
        mw, mh = level_size
        pts = (party, *keep)
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        sx = layout.sx
        x0, x1 = layout.clear(panel)
        rows = layout.map_h - TOP  # the level's rows, below the title's
        scale = scale_of(layout, level_size, panel)
        if scale > 1:  # a small level scaled up: whole in the columns no panel covers, centred there
            w, h = mw * sx * scale, mh * scale
            self.origin = (0, 0)
            self.last = Viewport(
                0, 0, layout.width, layout.map_h, TOP, sx * scale, scale, x0 + (x1 - x0 - w) // 2, TOP + (rows - h) // 2
            )
            return self.last
        c0, c1 = -(-x0 // sx), x1 // sx  # the tiles no panel covers, whole
        px, py = party
        prev = self.origin
        kx = None if known is None else (known[0], known[2])
        ky = None if known is None else (known[1], known[3])
        if panel is None:
            ox = _axis(None if prev is None else prev[0], mw, layout.width // sx, px, c0, c1, (min(xs), max(xs)), kx)
        else:  # the map fills the columns the panel leaves: the level laid out (centred, scrolled) in them alone
            span = c1 - c0
            ox = _axis(None if prev is None else prev[0] + c0, mw, span, px, 0, span, (min(xs), max(xs)), kx) - c0
        oy = _axis(None if prev is None else prev[1], mh, rows, py, 0, rows, (min(ys), max(ys)), ky)
        self.origin = (ox, oy)
        self.last = Viewport(ox, oy, layout.width, layout.map_h, TOP, sx, 1, 0, TOP)
        return self.last
