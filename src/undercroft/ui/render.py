"""Drawing: the map from the engine's numpy arrays, and the text parts of every screen.

The map is drawn whole with numpy (``np.select`` over the visible and explored masks) into ``console.rgb``; only
the few things on it (the party, monsters in view, items) are placed one by one. Nothing here reads a gameplay
random stream or changes the game.
"""

from __future__ import annotations

import contextlib
import textwrap
from collections.abc import Iterable, Iterator, Sequence
from typing import Final

import numpy as np
import numpy.typing as npt
import tcod.console

from undercroft.rules import dungeon
from undercroft.rules.game import Game
from undercroft.rules.types import Mode

RGB = tuple[int, int, int]

WIDTH: Final = 80
HEIGHT: Final = 50
MAP_ROWS: Final = 43  # the dungeon profiles are 80x43
STATUS_Y: Final = 43
LOG_Y: Final = 44
LOG_ROWS: Final = HEIGHT - LOG_Y

# --- palette ---------------------------------------------------------------------------------------------------

BLACK: Final[RGB] = (0, 0, 0)
WHITE: Final[RGB] = (255, 255, 255)
TEXT: Final[RGB] = (220, 215, 200)
DIM: Final[RGB] = (130, 125, 115)
FAINT: Final[RGB] = (80, 78, 72)
TITLE: Final[RGB] = (255, 200, 90)
KEY: Final[RGB] = (255, 220, 120)
GOOD: Final[RGB] = (130, 220, 120)
BAD: Final[RGB] = (255, 100, 80)
ALERT: Final[RGB] = (255, 160, 60)
GOLD: Final[RGB] = (255, 215, 0)
ROLL: Final[RGB] = (150, 170, 200)
PANEL_BG: Final[RGB] = (14, 12, 20)
STATUS_BG: Final[RGB] = (30, 34, 56)
FRAME: Final[RGB] = (150, 140, 120)
SELECT_BG: Final[RGB] = (70, 50, 20)

KIND_COLOURS: Final[dict[str, RGB]] = {
    "normal": TEXT,
    "roll": ROLL,
    "detail": DIM,
    "good": GOOD,
    "bad": BAD,
    "alert": ALERT,
    "gold": GOLD,
    "refused": (230, 150, 110),
}

# Tile looks, indexed by tile code (WALL, FLOOR, DOOR, STAIRS).
_N_TILES = 4
TILE_CH: Final = np.zeros(_N_TILES, dtype=np.int32)
TILE_CH[[dungeon.WALL, dungeon.FLOOR, dungeon.DOOR, dungeon.STAIRS]] = [ord("#"), 0xB7, ord("+"), ord(">")]
LIT_FG: Final = np.array([(176, 156, 124), (112, 104, 88), (230, 170, 70), (255, 255, 255)], dtype=np.uint8)
LIT_BG: Final = np.array([(66, 54, 42), (26, 23, 20), (70, 44, 20), (50, 50, 80)], dtype=np.uint8)
DIM_FG: Final = np.array([(74, 70, 78), (46, 46, 56), (96, 80, 60), (130, 130, 160)], dtype=np.uint8)
DIM_BG: Final = np.array([(22, 21, 28), (0, 0, 0), (20, 16, 12), (16, 16, 30)], dtype=np.uint8)
SHROUD: Final = np.zeros((), dtype=tcod.console.rgb_graphic)
SHROUD["ch"] = ord(" ")


def hex_rgb(text: str) -> RGB:
    """'#rrggbb' to (r, g, b)."""
    return int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16)


def dim(c: RGB, f: float = 0.45) -> RGB:
    return int(c[0] * f), int(c[1] * f), int(c[2] * f)


def cells(console: tcod.console.Console) -> npt.NDArray[np.void]:
    """``console.rgb`` as a (height, width) view, whatever the console's order."""
    a = console.rgb
    return a.T if a.strides[0] < a.strides[1] else a


# --- the map ---------------------------------------------------------------------------------------------------


MET_BG: Final[RGB] = (110, 20, 20)  # behind each creature of the group met
TARGET_BG: Final[RGB] = (200, 60, 30)  # behind the creature targeted in a fight


def draw_map(console: tcod.console.Console, game: Game, visible: npt.NDArray[np.bool_] | None = None,
             *, x: int = 0, y: int = 0, highlight: int | None = None,
             target: int | None = None) -> npt.NDArray[np.bool_]:
    """The current level at (x, y): lit where seen now, dim where remembered, dark elsewhere; items, monsters
    in view and the party on top. Each living creature of a group in sight stands on its own tile
    (``game.creature_tiles``); a group met but not yet seen is not drawn. ``highlight`` is a group id to mark (the
    one met), ``target`` the index of its creature to mark brighter (the one targeted in a fight). Returns the
    visible mask."""
    st = game.state
    lv = st.level
    m = lv.map
    if visible is None:
        visible = game.visible()
    explored = lv.explored | visible
    tiles = m.tiles
    h = min(m.height, console.height - y)
    w = min(m.width, console.width - x)
    out = cells(console)[y:y + h, x:x + w]
    vis = visible[:h, :w]
    exp = explored[:h, :w]
    t = tiles[:h, :w]
    out["ch"] = np.where(exp, TILE_CH[t], SHROUD["ch"])
    cond = [vis[..., np.newaxis], exp[..., np.newaxis]]
    out["fg"] = np.select(cond, [LIT_FG[t], DIM_FG[t]], default=SHROUD["fg"])
    out["bg"] = np.select(cond, [LIT_BG[t], DIM_BG[t]], default=SHROUD["bg"])

    def put(px: int, py: int, glyph: str, colour: RGB, bg: RGB | None = None) -> None:
        if 0 <= px < w and 0 <= py < h:
            out["ch"][py, px] = ord(glyph)
            out["fg"][py, px] = colour
            if bg is not None:
                out["bg"][py, px] = bg

    content = game.content
    for (ix, iy), pile in lv.items.items():
        if pile and 0 <= iy < h and 0 <= ix < w and exp[iy, ix]:
            item = content.items[pile[-1][0]]
            colour = hex_rgb(item.colour)
            put(ix, iy, item.glyph, colour if vis[iy, ix] else dim(colour))
    enc = st.encounter
    unseen = enc.group if enc is not None and enc.out_of_sight else None  # met, but not yet in sight
    for g in lv.groups:
        gx, gy = g.pos
        if g.defeated or g.hidden or g.id == unseen or not (0 <= gy < h and 0 <= gx < w) or not vis[gy, gx]:
            continue
        mon = content.monsters[g.monster]
        colour = hex_rgb(mon.colour)
        spots = game.creature_tiles(g)
        for i in reversed(g.alive):  # the first creature last: on a shared tile, it is the one shown
            cx, cy = spots[i]
            if 0 <= cy < h and 0 <= cx < w and vis[cy, cx]:
                bg = None if g.id != highlight else TARGET_BG if i == target else MET_BG
                put(cx, cy, mon.glyph, colour, bg)
    px, py = st.pos
    lead = next((mm for mm in st.party if mm.alive), st.party[0])
    put(px, py, content.party[lead.template].glyph if lead.template in content.party else "@",
        WHITE if st.mode != Mode.DEAD else BAD)
    return visible


# --- text ----------------------------------------------------------------------------------------------------


def wrap(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width, break_long_words=True, break_on_hyphens=False) or [""]


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


def put_text(console: tcod.console.Console, x: int, y: int, text: str, fg: RGB = TEXT, bg: RGB | None = None,
             width: int | None = None) -> None:
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


def put_lines(console: tcod.console.Console, x: int, y: int, width: int, lines: Iterable[tuple[str, RGB]],
              max_rows: int | None = None, *, keep_last: bool = True) -> int:
    """Wrapped lines from (x, y), each a whole message; returns the number of rows used. When they do not fit in
    ``max_rows``, whole messages are left out, never a part of one: the oldest (``keep_last``: the newest are
    kept) or the last ones, and a dim ``...`` row says so (the whole log, ``L``, has them)."""
    messages = [[(part, colour) for part in wrap(text, width)] for text, colour in lines]
    rows = [r for m in messages for r in m]
    if max_rows is not None and len(rows) > max_rows:
        kept: list[list[tuple[str, RGB]]] = []
        room = max_rows - 1  # one row for the "..."
        for m in (reversed(messages) if keep_last else messages):
            if len(m) > room:
                break
            kept.append(m)
            room -= len(m)
        if not kept and messages:  # not even one whole message fits: its first rows, and the cut is known
            m = messages[-1] if keep_last else messages[0]
            _cut(" ".join(part for part, _ in m))
            kept = [m[: max(0, max_rows - 1)]]
        if keep_last:
            kept.reverse()
        body = [r for m in kept for r in m]
        rows = [(MORE, DIM), *body] if keep_last else [*body, (MORE, DIM)]
        rows = rows[:max_rows]
    for i, (text, colour) in enumerate(rows):
        put_text(console, x, y + i, text, colour, width=width)
    return len(rows)


def panel(console: tcod.console.Console, x: int, y: int, width: int, height: int, title: str = "") -> None:
    """A framed box with a solid background."""
    console.draw_frame(x, y, width, height, clear=True, fg=FRAME, bg=PANEL_BG)
    if title:
        put_text(console, x + 2, y, f" {title} ", TITLE, PANEL_BG)


def choice(console: tcod.console.Console, x: int, y: int, keyname: str, label: str, enabled: bool = True,
           width: int | None = None) -> None:
    """'[f] Fight': the key bright, the label grey when the choice is not open now."""
    put_text(console, x, y, f"[{keyname}]", KEY if enabled else FAINT)
    put_text(console, x + len(keyname) + 3, y, label, TEXT if enabled else FAINT,
             width=None if width is None else width - len(keyname) - 3)


def compass(dx: int, dy: int) -> str:
    """Where (dx, dy) lies on the map in words (north is up): "south" when it is (nearly) straight south, else
    "south-east" once the smaller part is a third of the larger; "here" for (0, 0)."""
    if dx == 0 and dy == 0:
        return "here"
    ns = "north" if dy < 0 else "south"
    ew = "west" if dx < 0 else "east"
    if 3 * min(abs(dx), abs(dy)) < max(abs(dx), abs(dy)):
        return ns if abs(dy) > abs(dx) else ew
    return f"{ns}-{ew}"


def side_panel_x(game: Game, width: int) -> int:
    """Put a panel on the side of the map away from the party, so it never hides the party."""
    right = WIDTH - width - 1
    return right if game.state.pos[0] < right else 1


def status_text(game: Game, seed: str | None = None) -> str:
    """The status bar's text; ``seed``: the seed as the player typed it (default: its number)."""
    st = game.state
    if len(st.party) == 1:
        m = st.party[0]
        hp = f"HP {m.hp}/{m.max_hp}"
    else:
        hp = "HP " + " ".join(f"{m.name[:3]} {m.hp}/{m.max_hp}" for m in st.party)
    shown = st.seed if seed is None else seed
    parts = [hp, f"Gold {st.gold}", f"Level {st.depth + 1}", f"Turn {st.turn}", f"Seed {shown}"]
    if st.exhausted:
        parts.append("EXHAUSTED")
    return "  ".join(parts)


def draw_status(console: tcod.console.Console, game: Game, y: int = STATUS_Y, seed: str | None = None) -> None:
    """HP x/y, gold, level, turn and seed (as typed, when given) on one bar; the pack on its right when it fits."""
    console.draw_rect(0, y, console.width, 1, ord(" "), fg=TEXT, bg=STATUS_BG)
    text = status_text(game, seed)
    low = any(m.hp * 3 <= m.max_hp for m in game.state.party if m.alive)
    put_text(console, 1, y, text, BAD if low else WHITE, STATUS_BG)
    for pack in pack_texts(game):  # in words where they fit ("!2 potions"), else the glyphs alone ("!2")
        if pack and len(text) + len(pack) + 4 <= console.width:
            put_text(console, console.width - len(pack) - 1, y, pack, GOLD, STATUS_BG)
            break


PACK_WORDS = {"potion": ("potion", "potions"), "oil": ("oil", "oil"), "food": ("ration", "rations")}


def pack_texts(game: Game) -> tuple[str, str]:
    """What the party carries, in words (``!2 potions  o1 oil  ,1 ration``) and in glyphs only (``!2  o1  ,1``)."""
    items = [(game.content.items[i], n) for i, n in sorted(game.state.items.items()) if n > 0]
    words = []
    for item, n in items:
        one, many = PACK_WORDS.get(item.kind, (item.name.lower(), item.name.lower()))
        words.append(f"{item.glyph}{n} {one if n == 1 else many}")
    return "  ".join(words), "  ".join(f"{item.glyph}{n}" for item, n in items)


def draw_log(console: tcod.console.Console, lines: Sequence[tuple[str, str]], y: int = LOG_Y,
             rows: int = LOG_ROWS, fresh: int = 0) -> None:
    """The newest messages, wrapped, newest at the bottom; the last ``fresh`` ones bright, older ones dimmed. Only
    whole messages: an older one that would not fit whole is left to the full log (``L``)."""
    n = len(lines)
    out: list[list[tuple[str, RGB]]] = []
    used = 0
    for i in range(n - 1, max(-1, n - rows - 1), -1):
        text, kind = lines[i]
        colour = KIND_COLOURS.get(kind, TEXT)
        if i < n - fresh:
            colour = dim(colour, 0.6)
        parts = wrap(text, console.width - 2)
        if used + len(parts) > rows:
            if not out:  # the newest alone does not fit: its first rows (a cut)
                _cut(text)
                out.append([(p, colour) for p in parts[:rows]])
            break
        out.append([(p, colour) for p in parts])
        used += len(parts)
    wrapped = [r for m in reversed(out) for r in m]
    for i, (text, colour) in enumerate(wrapped):
        put_text(console, 1, y + i, text, colour)
