"""Drawing: the map from the engine's numpy arrays, and the text parts of every screen.

The map is drawn whole with numpy (one indexed copy over the visible and explored masks) into ``console.rgb``, from
the player's :class:`~undercroft.rules.view.View` (the object the bots plan with); only the few things on it (the
party, monsters in view, items) are placed one by one. Nothing here reads a gameplay
random stream or changes the game.
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import textwrap
from collections.abc import Iterable, Iterator, Sequence
from typing import Final

import numpy as np
import numpy.typing as npt
import tcod.console

from undercroft.narrate import moves_left, plural
from undercroft.rules import dungeon, items
from undercroft.rules.game import Game
from undercroft.rules.state import Group
from undercroft.rules.types import Mode
from undercroft.rules.view import View
from undercroft.ui.layout import Layout, Viewport
from undercroft.ui.palette import (
    ALERT,
    BAD,
    BLACK,
    DIM,
    DIM_BG,
    DIM_FG,
    FADE_OLD,
    FADE_REMEMBERED,
    FAINT,
    FIRE_BG,
    FIRE_FG,
    FRAME,
    GOLD,
    GOOD,
    KEY,
    KIND_COLOURS,
    LIT_BG,
    LIT_FG,
    MET_BG,
    PANEL_BG,
    RGB,
    ROLL,
    SELECT_BG,
    STATUS_BG,
    TARGET_BG,
    TARGET_FG,
    TEXT,
    TITLE,
    WHITE,
    fade,
    health_bg,
    hex_rgb,
)

__all__ = [  # the palette's names are used through render by the scenes
    "ALERT",
    "BAD",
    "BLACK",
    "DIM",
    "FAINT",
    "FRAME",
    "GOLD",
    "GOOD",
    "KEY",
    "KIND_COLOURS",
    "MET_BG",
    "PANEL_BG",
    "RGB",
    "ROLL",
    "SELECT_BG",
    "STATUS_BG",
    "TARGET_BG",
    "TEXT",
    "TITLE",
    "WHITE",
    "fade",
    "hex_rgb",
]

WIDTH: Final = 80
HEIGHT: Final = 50
_WINDOW: Final = Layout.of(WIDTH, HEIGHT)
MAP_ROWS: Final = _WINDOW.map_h  # the title's row and the dungeon profiles' 43
STATUS_Y: Final = _WINDOW.status_y
LOG_Y: Final = _WINDOW.log_y
LOG_ROWS: Final = HEIGHT - LOG_Y

# --- palette (the colours and their contrast rules live in undercroft.ui.palette) -------------------------------

# Tile looks, indexed by tile code (WALL, FLOOR, DOOR, STAIRS, WATER).
_N_TILES = 5
TILE_CH: Final = np.zeros(_N_TILES, dtype=np.int32)
TILE_CH[[dungeon.WALL, dungeon.FLOOR, dungeon.DOOR, dungeon.STAIRS, dungeon.WATER]] = [
    ord("#"),
    0xB7,
    ord("+"),
    ord(">"),
    ord("\u2248"),  # ≈
]
SHROUD: Final = np.zeros((), dtype=tcod.console.rgb_graphic)
SHROUD["ch"] = ord(" ")
# Every look of every tile code as a whole cell, three per code: dark, remembered, seen. A tile's cell is
# LOOK[3 * code + explored + visible] (visible implies explored): one indexed copy draws the whole terrain.
LOOK: Final = np.zeros(3 * _N_TILES, dtype=tcod.console.rgb_graphic)
LOOK[0::3] = SHROUD
LOOK["ch"][1::3] = LOOK["ch"][2::3] = TILE_CH
LOOK["fg"][1::3], LOOK["bg"][1::3] = DIM_FG, DIM_BG
LOOK["fg"][2::3], LOOK["bg"][2::3] = LIT_FG, LIT_BG


def cells(console: tcod.console.Console) -> npt.NDArray[np.void]:
    """``console.rgb`` as a (height, width) view, whatever the console's order."""
    a = console.rgb
    return a.T if a.strides[0] < a.strides[1] else a


# --- the map ---------------------------------------------------------------------------------------------------


def draw_map(
    console: tcod.console.Console,
    view: View,
    visible: npt.NDArray[np.bool_] | None = None,
    *,
    port: Viewport | None = None,
    highlight: int | None = None,
    target: int | None = None,
) -> npt.NDArray[np.bool_]:
    """The party's level as the player knows it (``view``: the same :class:`~undercroft.rules.view.View` the bots
    plan with) through ``port`` (default: from the console's top left corner, as many rows as the level has): lit
    where in sight (``visible``, default the view's), dim where remembered, dark elsewhere; the items seen, the
    creatures the view shows (:meth:`~undercroft.rules.view.View.creatures`: one letter a creature, or on a tile
    several share, their number, "3") and the party on top. ``highlight`` is a group id to mark (the one met),
    ``target`` the index of its creature to mark brighter (the one targeted in a fight). Returns the visible
    mask."""
    game = view.game
    st = game.state
    m = view.level.map
    if visible is None:
        visible = view.visible()
    if port is None:
        port = Viewport(0, 0, console.width, min(console.height, m.height))
    ox, oy = port.ox, port.oy
    screen = _canvas(console, port)  # tile (x, y) of it: level tile (ox + x, oy + y)
    vh, vw = screen.shape
    sx0, sy0 = max(0, -ox), max(0, -oy)  # the tiles [sx0, sx1) x [sy0, sy1) are the level's, the others dark
    sx1, sy1 = min(vw, m.width - ox), min(vh, m.height - oy)
    if sx1 <= sx0 or sy1 <= sy0 or sy0 > 0 or sx0 > 0 or sy1 < vh or sx1 < vw:
        screen[...] = SHROUD  # the level does not fill the view: dark around it
    if sx1 <= sx0 or sy1 <= sy0:
        _spread(console, screen, port)
        return visible
    sl = (slice(sy0 + oy, sy1 + oy), slice(sx0 + ox, sx1 + ox))
    vis = visible[sl]
    explored = view.seen(visible)
    screen[sy0:sy1, sx0:sx1] = LOOK[3 * m.tiles[sl].astype(np.intp) + explored[sl] + vis]

    def put(mx: int, my: int, glyph: str, colour: RGB, bg: RGB | None = None) -> None:
        px, py = mx - ox, my - oy
        if sx0 <= px < sx1 and sy0 <= py < sy1:
            screen["ch"][py, px] = ord(glyph)
            screen["fg"][py, px] = colour
            if bg is not None:
                screen["bg"][py, px] = bg

    content = game.content
    for (ix, iy), pile in view.piles(visible).items():
        item = content.items[pile[-1][0]]
        colour = hex_rgb(item.colour)
        put(ix, iy, item.glyph, colour if visible[iy, ix] else fade(colour, FADE_REMEMBERED))
    p = st.pursuit
    if p is not None and p.rounds < p.fire_out:  # the party's burning oil, where it burns
        for fx, fy in p.fire:
            if explored[fy, fx]:
                put(fx, fy, "^", FIRE_FG, FIRE_BG)
    for (cx, cy), (g, who) in view.creatures(visible).items():
        mon = content.monsters[g.monster]
        glyph = mon.glyph if len(who) == 1 else str(len(who)) if len(who) < 10 else "+"  # a shared tile: how many
        if g.id == highlight and target in who:
            put(cx, cy, glyph, TARGET_FG, TARGET_BG)
        else:  # the group met: each creature on the colour of its health
            bg = health_bg(g.hp[who[0]], g.max_hp) if g.id == highlight else None
            put(cx, cy, glyph, hex_rgb(mon.colour), bg)
    px, py = st.pos
    lead = next((mm for mm in st.party if mm.alive), st.party[0])
    put(
        px,
        py,
        content.party[lead.template].glyph if lead.template in content.party else "@",
        WHITE if st.mode != Mode.DEAD else BAD,
    )
    _spread(console, screen, port)
    return visible


def _canvas(console: tcod.console.Console, port: Viewport) -> npt.NDArray[np.void]:
    """Where :func:`draw_map` draws one cell a tile, as many tiles as fit whole in the port and the console: the
    console's own cells where a tile is one cell, else an array apart (:func:`_spread` then puts it on)."""
    vw = max(0, min(port.cols, (console.width - port.x0) // port.sx))
    vh = max(0, min(port.rows, (min(port.h, console.height) - port.y0) // port.sy))
    if port.sx == port.sy == 1:
        return cells(console)[port.y0 : port.y0 + vh, port.x0 : port.x0 + vw]
    return np.full((vh, vw), SHROUD, dtype=tcod.console.rgb_graphic)


def _spread(console: tcod.console.Console, tiles: npt.NDArray[np.void], port: Viewport) -> None:
    """A map drawn one cell a tile (``tiles``, from :func:`_canvas`) put on the console through ``port``: each
    tile a block of ``port.sx`` x ``port.sy`` cells, its glyph in the block's middle cell
    (:meth:`Viewport.to_screen`), the rest its filler (a wall's or water's glyph again, so that they stay solid;
    a blank on the tile's colour beside anything else); the map's cells around the blocks dark. Nothing to do
    where a tile is one cell: drawn in place."""
    if port.sx == port.sy == 1:
        return
    screen = cells(console)
    top, bottom, right = port.top, min(port.h, console.height), min(port.w, console.width)
    sx, sy, x0, y0 = port.sx, port.sy, port.x0, port.y0
    x1, y1 = x0 + tiles.shape[1] * sx, y0 + tiles.shape[0] * sy
    for rows, cols in ((slice(top, bottom), slice(0, x0)), (slice(top, bottom), slice(x1, right))):
        screen[rows, cols] = SHROUD
    for rows in (slice(top, y0), slice(y1, bottom)):
        screen[rows, x0:x1] = SHROUD
    filler = tiles.copy()
    filler["ch"][~np.isin(tiles["ch"], _SOLID)] = ord(" ")
    gx, gy = (sx - 1) // 2, (sy - 1) // 2
    for ky in range(sy):
        for kx in range(sx):
            screen[y0 + ky : y1 : sy, x0 + kx : x1 : sx] = tiles if (kx, ky) == (gx, gy) else filler


_SOLID: Final = np.array([ord("#"), ord("\u2248")])  # wall and water: drawn on both columns of a wide tile


# --- text ----------------------------------------------------------------------------------------------------


def wrap(text: str, width: int) -> list[str]:
    """``text`` on rows of ``width`` (words whole where they fit; a text indented keeps its indent on every row,
    as an item's description under its name); [""] for no text."""
    return list(_wrapped(text, width))


@functools.lru_cache(maxsize=4096)
def _wrapped(text: str, width: int) -> tuple[str, ...]:
    """:func:`wrap`, remembered: the panels wrap the same lines every frame (and again to see what fits)."""
    indent = text[: len(text) - len(text.lstrip(" "))]
    indent = indent if len(indent) * 3 < width else ""
    rows = textwrap.wrap(text, width, break_long_words=True, break_on_hyphens=False, subsequent_indent=indent)
    return tuple(rows or [""])


def wrap_path(path: str, width: int, after: str = "/-") -> list[str]:
    """A file path on rows of ``width``, broken after a ``/`` (or, in a name too long for a row, after a ``-`` that
    follows a letter or a digit: never inside ``--until``); ``after``: the characters to break after, " /-" for a
    command. A part without any wider than a row is split where it must."""
    rows: list[str] = []
    line = ""
    first = f"(?<=[{re.escape(after.replace('-', ''))}])"
    parts = re.split(first, path) if after.replace("-", "") else [path]
    if "-" in after:  # a part too long for a row: broken after its hyphens
        parts = [p for part in parts for p in (re.split("(?<=[0-9A-Za-z]-)", part) if len(part) > width else [part])]
    for part in parts:
        if line and len(line) + len(part.rstrip(" ")) > width:  # (a space broken after ends its row unseen)
            rows.append(line.rstrip(" "))
            line = ""
        while len(part.rstrip(" ")) > width:
            rows.append(part[:width])
            part = part[width:]
        line += part
    line = line.rstrip(" ")
    return [*rows, line] if line else rows


def home_short(path: str) -> str:
    """``path`` with the user's home directory written ``~``."""
    home = os.path.expanduser("~")
    return "~" + path[len(home) :] if home not in ("", "/", "~") and path.startswith(home + os.sep) else path


_CUTS: list[list[str]] = []  # the watchers of cut text (tests: :func:`watch_cuts`)


@contextlib.contextmanager
def watch_cuts() -> Iterator[list[str]]:
    """Collect, while drawing inside the block, every text that was cut: a line clipped at its width or at the
    console's edge, a message of which only a part was drawn. Tests draw every screen inside it and expect []."""
    found: list[str] = []
    _CUTS.append(found)
    try:
        yield found
    finally:
        _CUTS.remove(found)


def _cut(text: str) -> None:
    for found in _CUTS:
        found.append(text)


def put_text(
    console: tcod.console.Console,
    x: int,
    y: int,
    text: str,
    fg: RGB = TEXT,
    bg: RGB | None = None,
    width: int | None = None,
) -> None:
    """One line, clipped to ``width`` (default: to the console's edge); a clipped line is a cut
    (:func:`watch_cuts`): callers wrap what may be long."""
    room = (console.width - x) if width is None else width
    room = min(room, console.width - x)
    if not 0 <= y < console.height:
        return
    if len(text.rstrip()) > max(room, 0):
        _cut(text)
    if room <= 0:
        return
    console.print(x, y, text[:room], fg=fg, bg=bg)


MORE: Final = "..."


def put_lines(
    console: tcod.console.Console,
    x: int,
    y: int,
    width: int,
    lines: Iterable[tuple[str, RGB]],
    max_rows: int | None = None,
    *,
    keep_last: bool = True,
) -> int:
    """Wrapped lines from (x, y), each a whole message; returns the number of rows used. When they do not fit in
    ``max_rows``, whole messages are left out, never a part of one: the oldest (``keep_last``: the newest are
    kept) or the last ones, and a dim ``...`` row says so. Something left out is a cut (:func:`watch_cuts`):
    callers give the room their lines need, or page or scroll them, and keep this for what must never happen."""
    messages = [[(part, colour) for part in wrap(text, width)] for text, colour in lines]
    rows = [r for m in messages for r in m]
    if max_rows is not None and len(rows) > max_rows:
        kept: list[list[tuple[str, RGB]]] = []
        room = max_rows - 1  # one row for the "..."
        for m in reversed(messages) if keep_last else messages:
            if len(m) > room:
                break
            kept.append(m)
            room -= len(m)
        # (not even one whole message may fit: then the "..." alone, and the whole log has them)
        left = [m for m in messages if m not in kept]
        _cut(MORE + " " + " ".join(r[0] for r in left[0]))
        if keep_last:
            kept.reverse()
        body = [r for m in kept for r in m]
        rows = [(MORE, DIM), *body] if keep_last else [*body, (MORE, DIM)]
        rows = rows[:max_rows]
    for i, (text, colour) in enumerate(rows):
        put_text(console, x, y + i, text, colour, width=width)
    return len(rows)


def paged(lines: list[tuple[str, RGB]], width: int, room: int) -> list[list[tuple[str, RGB]]]:
    """``lines`` wrapped to ``width`` on pages of ``room`` rows, each message whole on one page (one longer than a
    page goes on across pages); at least one page."""
    pages: list[list[tuple[str, RGB]]] = [[]]
    for text, colour in lines:
        rows = [(part, colour) for part in wrap(text, width)]
        if pages[-1] and len(pages[-1]) + len(rows) > room:
            pages.append([])
        for row in rows:
            if len(pages[-1]) == room:
                pages.append([])
            pages[-1].append(row)
    return pages


def panel(console: tcod.console.Console, x: int, y: int, width: int, height: int, title: str = "") -> None:
    """A framed box with a solid background."""
    console.draw_frame(x, y, width, height, clear=True, fg=FRAME, bg=PANEL_BG)
    if title:
        put_text(console, x + 2, y, f" {title} ", TITLE, PANEL_BG)


def choice(
    console: tcod.console.Console,
    x: int,
    y: int,
    keyname: str,
    label: str,
    enabled: bool = True,
    width: int | None = None,
) -> None:
    """'[f] Fight': the key bright, the label grey when the choice is not open now."""
    put_text(console, x, y, f"[{keyname}]", KEY if enabled else FAINT)
    put_text(
        console,
        x + len(keyname) + 3,
        y,
        label,
        TEXT if enabled else FAINT,
        width=None if width is None else width - len(keyname) - 3,
    )


def distance_text(game: Game, g: Group) -> str:
    """How far ``g`` is, as every screen says it (the stop line, the panels, look, the attack menu): the walking
    distance the rules measure (``Game.distance_to``, the encounter's own) and, where the map shows its nearest
    creature nearer as the crow flies (a wall or a corner between), that too: "70 ft (50 ft straight)"."""
    walk = game.distance_to(g)
    tiles = game.creature_tiles(g)
    px, py = game.state.pos
    near = min(max(abs(tiles[i][0] - px), abs(tiles[i][1] - py)) for i in g.alive or range(len(tiles)))
    straight = near * game.content.rules.encounter.feet_per_tile
    return f"{walk} ft" if straight >= walk else f"{walk} ft ({straight} ft straight)"


def compass(dx: int, dy: int) -> str:
    """Where (dx, dy) lies on the map, in tiles (north is up), never rounded to a direction it is not: "5 tiles
    north", "3 tiles south-east" (a true diagonal), "7 tiles north, 2 west" (the larger part first); "here"."""
    if dx == 0 and dy == 0:
        return "here"
    ns = "north" if dy < 0 else "south"
    ew = "west" if dx < 0 else "east"
    a, b = abs(dx), abs(dy)
    n = max(a, b)
    tiles = f"{n} tile{'' if n == 1 else 's'}"
    if a == 0 or b == 0:
        return f"{tiles} {ns if b else ew}"
    if a == b:
        return f"{tiles} {ns}-{ew}"
    return f"{tiles} {ns}, {a} {ew}" if b > a else f"{tiles} {ew}, {b} {ns}"


def status_texts(game: Game, seed: str | None = None) -> list[str]:
    """The status bar's text, from the fullest to the shortest (the bar shows the first that fits): with the seed
    (as the player typed it, when given) and the turn, without the turn (the seed names the game), without the
    seed, then in short forms (``HP D12/12 S10/10 Lv2/1  $125  L1``; the levels left out, then the gold, then the
    floor); a potion in force, how many moves it lasts (``Heroism 30 moves``, short ``Her30``: every action
    but a rest is a move, :func:`undercroft.narrate.moves_left`). ``Lv``: each character's level (ours: a delver
    who grows); the fullest form tells the cap too (``Lv3 of 15``, a lone character; ``Lv15 max`` at it)."""
    st = game.state
    if len(st.party) == 1:
        m = st.party[0]
        hp = short = f"HP {m.hp}/{m.max_hp}"
    else:
        hp = "HP " + " ".join(f"{m.name[:3]} {m.hp}/{m.max_hp}" for m in st.party)
        short = "HP " + " ".join(f"{m.name[:1]}{m.hp}/{m.max_hp}" for m in st.party)
    shown = st.seed if seed is None else seed
    tired = ["EXHAUSTED"] if st.exhausted else []
    # each character's level, where the ruleset has growth (ours: rules.yaml growth)
    grown = "Lv" + "/".join(str(m.level) for m in st.party) if game.rs.growth else ""
    cap = game.content.rules.growth.max_level
    capped = grown + (" max" if st.party[0].level >= cap else f" of {cap}") if grown and len(st.party) == 1 else grown
    gold, level, turn = f"Gold {st.gold}", f"Level {st.depth + 1}", f"Turn {st.turn}"
    exh = ["EXH"] if tired else []
    # the potions in force and how long they last, in moves from now ("Heroism 30 moves"; short: "Her30")
    fx = [(e.capitalize(), moves_left(until - st.rounds, game.content.rules.time)) for e, until in effects_left(game)]
    long_fx, short_fx = [f"{e} {plural(n, 'move')}" for e, n in fx], [f"{e[:3]}{n}" for e, n in fx]
    variants = [
        [f"{hp} {capped}".strip(), gold, level, turn, f"Seed {shown}", *tired, *long_fx],
        [f"{hp} {grown}".strip(), gold, level, turn, f"Seed {shown}", *tired, *long_fx],
        # (the seed names the game: kept longer than the turn)
        [f"{hp} {grown}".strip(), gold, level, f"Seed {shown}", *tired, *long_fx],
        [f"{hp} {grown}".strip(), gold, level, turn, *tired, *long_fx],
        [f"{hp} {grown}".strip(), gold, level, *tired, *long_fx],
        [f"{short} {grown}".strip(), f"${st.gold}", f"L{st.depth + 1}", f"T{st.turn}", *exh, *short_fx],
        [f"{short} {grown}".strip(), f"${st.gold}", f"L{st.depth + 1}", *exh, *short_fx],
        [short, f"${st.gold}", f"L{st.depth + 1}", *exh, *short_fx],
        [short, f"L{st.depth + 1}", *exh],
        [short, *exh],  # (a party of four beside a wide end panel at 80x24)
    ]
    return ["  ".join(v) for v in variants]


def effects_left(game: Game) -> list[tuple[str, int]]:
    """The potions' effects in force: (effect, the clock's round it ends at), by name."""
    catalogue = game.content.items
    return sorted((str(catalogue[p].effect), until) for p, until in game.state.effects.items())


def draw_status(
    console: tcod.console.Console,
    game: Game,
    y: int = STATUS_Y,
    seed: str | None = None,
    x: int = 0,
    width: int | None = None,
) -> None:
    """HP x/y, gold, level, turn and seed (as typed, when given) on one bar from ``x``, ``width`` wide (default:
    the console's); the pack on its right when it fits. A narrow bar leaves out the cap (before the pack), the
    turn, then the seed, then uses short forms (:func:`status_texts`), rather than cut it."""
    width = console.width - x if width is None else width
    console.draw_rect(x, y, width, 1, ord(" "), fg=TEXT, bg=STATUS_BG)
    texts = status_texts(game, seed)
    words, glyphs = pack_texts(game)
    text = next((t for t in texts if len(t) + 2 <= width), texts[-1])
    if glyphs and text == texts[0] and len(text) + len(glyphs) + 4 > width >= len(texts[1]) + len(glyphs) + 4:
        text = texts[1]  # the level's cap is the first thing left out: before the supplies
    low = any(m.hp * 3 <= m.max_hp for m in game.state.party if m.alive)
    put_text(console, x + 1, y, text, BAD if low else WHITE, STATUS_BG, width=width - 2)
    for pack in (words, glyphs):  # in words where they fit ("!2 potions"), else the glyphs alone ("!2")
        if pack and len(text) + len(pack) + 4 <= width:
            put_text(console, x + width - len(pack) - 1, y, pack, GOLD, STATUS_BG)
            break


PACK_WORDS: Final = {
    "potion": ("healing", "healing"),
    "oil": ("oil", "oil"),
    "food": ("ration", "rations"),
    "chart": ("chart", "charts"),
}


def pack_texts(game: Game) -> tuple[str, str]:
    """The supplies the party carries into a meeting, in words (``!2 healing  !1 oil  ,1 ration``) and in glyphs
    only (``!2  !1  ,1``): the healing potions (all that ``Drink`` takes, of every strength), the oil, the
    rations, and a chart (a floor not searched, kept for one that goes badly: easily forgotten); the rest of the
    pack is the inventory's (``i``). A bar that listed every kind carried ("!1 *1 !1 !7 (1 !1 ,2 /1", three of them
    "!") had no room left for it by floor 3 and showed nothing."""
    content = game.content
    have = game.state.items
    words, glyphs = [], []
    for kind, (one, many) in PACK_WORDS.items():
        n = items.carried(content, have, kind)
        if n:
            glyph = next(content.items[i].glyph for i in sorted(have) if have[i] > 0 and content.items[i].kind == kind)
            words.append(f"{glyph}{n} {one if n == 1 else many}")
            glyphs.append(f"{glyph}{n}")
    return "  ".join(words), "  ".join(glyphs)


def draw_log(
    console: tcod.console.Console,
    lines: Sequence[tuple[str, str]],
    y: int = LOG_Y,
    rows: int = LOG_ROWS,
    fresh: int = 0,
    x: int = 0,
    width: int | None = None,
    whole: bool = False,
) -> None:
    """The newest messages, wrapped, newest at the bottom; the last ``fresh`` ones bright, older ones dimmed. Only
    whole messages: an older one that would not fit whole is left to the full log (``L``), and so is the newest with
    ``whole`` (beside a panel that has the screen's attention), else its first rows are shown."""
    n = len(lines)
    out: list[list[tuple[str, RGB]]] = []
    used = 0
    for i in range(n - 1, max(-1, n - rows - 1), -1):
        text, kind = lines[i]
        colour = KIND_COLOURS.get(kind, TEXT)
        if i < n - fresh:
            colour = fade(colour, FADE_OLD)
        parts = wrap(text, (console.width - x if width is None else width) - 2)
        if used + len(parts) > rows:
            if not out and not whole:  # the newest alone does not fit: its first rows (a cut)
                _cut(text)
                out.append([(p, colour) for p in parts[:rows]])
            break
        out.append([(p, colour) for p in parts])
        used += len(parts)
    wrapped = [r for m in reversed(out) for r in m]
    for i, (text, colour) in enumerate(wrapped):
        put_text(console, x + 1, y + i, text, colour)
