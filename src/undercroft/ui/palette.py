"""The colours of every screen, and the contrast rules they keep: every text readable on its background.

Every colour constant of :mod:`undercroft.ui.render` lives here under the same name and type (``RGB`` tuples,
the map's numpy arrays with the same shape, dtype and order), retuned where they were too faint, plus:

* :func:`luminance` and :func:`contrast`: the WCAG 2 relative luminance and contrast ratio;
* :data:`AA` (4.5): the least contrast of any text on its background (WCAG 2 success criterion 1.4.3, level AA);
* :data:`NON_TEXT` (3.0): the least contrast of glyphs that are not text (map glyphs, frames; WCAG 1.4.11);
* :data:`TEXT_ON`: for each place text is drawn, which text colours are drawn on which backgrounds; the tests
  check exactly these pairs;
* :data:`DISABLED_ON`: the same for the text of choices not open now (:data:`FAINT`). WCAG 1.4.3 does not ask
  contrast of inactive user interface components, so these need only :data:`DISABLED_MIN` (3.0), but they must stay
  clearly apart from :data:`DIM` (see ``tests/test_contrast.py``);
* :func:`fade`: replaces ``render.dim``; it dims a colour by a factor but never below :data:`AA` on the background
  it is drawn on, so faded log lines stay readable while visibly dimmer (:data:`FADE_OLD`, :data:`FADE_DETAIL`,
  :data:`FADE_INTERNAL`, :data:`FADE_REMEMBERED` are the factors the screens use);
* :data:`TARGET_FG`: the glyph colour of the creature targeted in a fight, drawn on :data:`TARGET_BG` instead of the
  monster's own colour (which cannot be readable on that bright red).

The data colours (``colour:`` of ``data/monsters.yaml`` and ``data/items.yaml``) are drawn on :data:`MONSTER_TEXT_BGS`
/ :data:`ITEM_TEXT_BGS` (as names and glyphs) and must reach :data:`AA` there; monsters also stand on
:data:`MET_BG` (:data:`NON_TEXT`). This module imports nothing of the game, so anything may use it.
"""

from __future__ import annotations

from typing import Final

import numpy as np

RGB = tuple[int, int, int]

# --- text and frames -------------------------------------------------------------------------------------------

BLACK: Final[RGB] = (0, 0, 0)
WHITE: Final[RGB] = (255, 255, 255)
TEXT: Final[RGB] = (220, 215, 200)
DIM: Final[RGB] = (145, 139, 127)  # was (130, 125, 115): kept clearly brighter than FAINT
FAINT: Final[RGB] = (104, 100, 92)  # was (80, 78, 72), 2.3:1 on panels; disabled choices, >= 3.0 (WCAG-exempt)
TITLE: Final[RGB] = (255, 200, 90)
KEY: Final[RGB] = (255, 220, 120)
GOOD: Final[RGB] = (130, 220, 120)
BAD: Final[RGB] = (255, 100, 80)
ALERT: Final[RGB] = (255, 160, 60)
GOLD: Final[RGB] = (255, 215, 0)
ROLL: Final[RGB] = (150, 170, 200)
REFUSED: Final[RGB] = (230, 150, 110)
PANEL_BG: Final[RGB] = (14, 12, 20)
STATUS_BG: Final[RGB] = (30, 34, 56)
FRAME: Final[RGB] = (150, 140, 120)
SELECT_BG: Final[RGB] = (58, 42, 16)  # was (70, 50, 20): darker, so monster names on it reach 4.5

KIND_COLOURS: Final[dict[str, RGB]] = {
    "normal": TEXT,
    "roll": ROLL,
    "detail": DIM,
    "good": GOOD,
    "bad": BAD,
    "alert": ALERT,
    "gold": GOLD,
    "refused": REFUSED,
}

# --- the map ---------------------------------------------------------------------------------------------------

# Tile looks, one row per tile code, in the order of undercroft.rules.dungeon: WALL 0, FLOOR 1, DOOR 2, STAIRS 3,
# WATER 4.
LIT_FG: Final = np.array(
    [(176, 156, 124), (132, 122, 100), (230, 170, 70), (255, 255, 255), (96, 160, 230)], dtype=np.uint8
)
LIT_BG: Final = np.array([(66, 54, 42), (26, 23, 20), (70, 44, 20), (50, 50, 80), (14, 30, 52)], dtype=np.uint8)
DIM_FG: Final = np.array([(74, 70, 78), (46, 46, 56), (96, 80, 60), (130, 130, 160), (40, 56, 86)], dtype=np.uint8)
DIM_BG: Final = np.array([(22, 21, 28), (0, 0, 0), (20, 16, 12), (16, 16, 30), (4, 10, 20)], dtype=np.uint8)
TILE_NAMES: Final = ("wall", "floor", "door", "stairs", "water")  # the rows of the four arrays above
LIT_FLOOR_BG: Final[RGB] = (26, 23, 20)  # LIT_BG's floor row, as an RGB

MET_BG: Final[RGB] = (110, 20, 20)  # behind each creature of the group met (badly hurt: a third of its HP or less)
HURT_BG: Final[RGB] = (86, 62, 0)  # behind a creature of the group met that has lost a third of its HP
UNHURT_BG: Final[RGB] = (24, 70, 34)  # behind a creature of the group met that has lost less
TARGET_BG: Final[RGB] = (200, 60, 30)  # behind the creature targeted in a fight
FIRE_FG: Final[RGB] = (255, 210, 80)  # burning oil on the map (a chase)
FIRE_BG: Final[RGB] = (150, 40, 0)
TARGET_FG: Final[RGB] = WHITE  # the targeted creature's glyph (5.1:1 on TARGET_BG; its own colour is not readable)

# Scene colours, kept here so the contrast test sees them (look.py's cursor, play.py's door choice).
CURSOR_FG: Final[RGB] = BLACK
CURSOR_BG: Final[RGB] = (230, 230, 230)
DOOR_OPEN_BG: Final[RGB] = (40, 120, 50)
DOOR_CURSOR_BG: Final[RGB] = (90, 200, 90)
DOOR_BLOCKED_BG: Final[RGB] = (130, 30, 30)

# --- contrast --------------------------------------------------------------------------------------------------

AA: Final = 4.5  # WCAG 2, 1.4.3 (AA): text and its background
NON_TEXT: Final = 3.0  # WCAG 2, 1.4.11 (AA): glyphs and marks that are not text
DISABLED_MIN: Final = 3.0  # our own floor for disabled choices (WCAG 1.4.3 exempts inactive components)


def _channel(v: int) -> float:
    s = v / 255
    return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4


def luminance(c: RGB) -> float:
    """WCAG 2 relative luminance of an sRGB colour, 0 (black) to 1 (white)."""
    r, g, b = c
    return 0.2126 * _channel(r) + 0.7152 * _channel(g) + 0.0722 * _channel(b)


def contrast(fg: RGB, bg: RGB) -> float:
    """WCAG 2 contrast ratio of two colours, 1 to 21 (symmetric: which one is the text does not matter)."""
    a, b = luminance(fg), luminance(bg)
    hi, lo = max(a, b), min(a, b)
    return (hi + 0.05) / (lo + 0.05)


def hex_rgb(text: str) -> RGB:
    """'#rrggbb' to (r, g, b)."""
    return int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16)


# --- fading ----------------------------------------------------------------------------------------------------

FADE_OLD: Final = 0.6  # the log's older lines (render.draw_log)
FADE_DETAIL: Final = 0.75  # the full log's "detail" lines
FADE_INTERNAL: Final = 0.55  # the full log's "internal" lines
FADE_REMEMBERED: Final = 0.45  # items remembered but not in view on the map


def _scale(c: RGB, f: float) -> RGB:
    return int(c[0] * f), int(c[1] * f), int(c[2] * f)


def fade(c: RGB, f: float, on: RGB = PANEL_BG) -> RGB:
    """``c`` dimmed by ``f`` (0 to 1, each channel scaled, so the hue stays), but never below :data:`AA` on ``on``
    (default :data:`PANEL_BG`, the lightest background text is faded on; black is darker, so it passes there too):
    the smallest dimming at least ``f`` that still reads. A colour that fails on ``on`` even undimmed is returned
    as it is."""
    f = min(max(f, 0.0), 1.0)
    out = _scale(c, f)
    if contrast(c, on) < AA:
        return c
    if contrast(out, on) >= AA:
        return out
    lo, hi = f, 1.0  # lo fails, hi passes: bisect to the darkest factor that passes
    for _ in range(24):
        mid = (lo + hi) / 2
        if contrast(_scale(c, mid), on) >= AA:
            hi = mid
        else:
            lo = mid
    return _scale(c, hi)


# --- who is drawn on what --------------------------------------------------------------------------------------

_ALL_KINDS: Final = tuple(KIND_COLOURS.values())

TEXT_ON: Final[dict[str, tuple[tuple[RGB, ...], tuple[RGB, ...]]]] = {
    # the bare screen: the log (every kind), the title screen, lists of games, the dungeon's name over the map
    "screen": ((TEXT, DIM, TITLE, KEY, WHITE, *_ALL_KINDS), (BLACK,)),
    # inside panels (render.panel): menus, fight, look, inventory, the full log, the end screen, the panel events
    "panel": ((TEXT, DIM, TITLE, KEY, WHITE, *_ALL_KINDS), (PANEL_BG,)),
    # the status bar: the numbers (BAD when an HP is low) and the pack
    "status": ((TEXT, WHITE, BAD, GOLD), (STATUS_BG,)),
    # the selected row of a menu, the fight list, the door list: the key or the label
    "selected": ((KEY, TEXT), (SELECT_BG,)),
    # the look cursor (render inverted) and the targeted creature
    "cursor": ((CURSOR_FG,), (CURSOR_BG,)),
    "target": ((TARGET_FG,), (TARGET_BG,)),
}

DISABLED_ON: Final[dict[str, tuple[tuple[RGB, ...], tuple[RGB, ...]]]] = {
    # choices not open now, dead creatures, the title screen's footnotes: on the screen and in panels
    "disabled": ((FAINT,), (BLACK, PANEL_BG)),
}

# Where the data colours (hex_rgb of a monster's or item's ``colour``) are drawn, as text or glyph.
MONSTER_TEXT_BGS: Final[tuple[RGB, ...]] = (
    LIT_FLOOR_BG,  # its glyph on the lit floor
    PANEL_BG,  # its name in the panels
    SELECT_BG,  # its name on the selected row of the fight list
    BLACK,  # the look cursor inverts its glyph onto black
)
# behind each creature of the group met, by its health (NON_TEXT)
MONSTER_GLYPH_BGS: Final[tuple[RGB, ...]] = (UNHURT_BG, HURT_BG, MET_BG)
ITEM_TEXT_BGS: Final[tuple[RGB, ...]] = (
    LIT_FLOOR_BG,  # on the lit floor
    PANEL_BG,  # in the inventory
)


def health_bg(hp: int, max_hp: int) -> RGB:
    """The background of a creature of the group met, by its health: green while it has lost less than a third of
    its hit points, amber down to a third, red below (the targeted one is drawn on :data:`TARGET_BG`)."""
    if 3 * hp > 2 * max_hp:
        return UNHURT_BG
    if 3 * hp > max_hp:
        return HURT_BG
    return MET_BG
