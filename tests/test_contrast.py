"""Every text colour on every background it is drawn on reads (WCAG AA, 4.5:1);
visible and remembered tiles are clearly apart; the data's monster and item colours read where they are drawn."""

from __future__ import annotations

import engine_helpers
import numpy as np
import numpy.typing as npt
import pytest

from undercroft.content import Content
from undercroft.rules import dungeon
from undercroft.ui import palette
from undercroft.ui.palette import AA, NON_TEXT, RGB, contrast, fade, hex_rgb, luminance


def content() -> Content:
    return engine_helpers.content()


def rgb(row: npt.NDArray[np.uint8]) -> RGB:
    r, g, b = (int(v) for v in row)
    return r, g, b


def pairs(table: dict[str, tuple[tuple[RGB, ...], tuple[RGB, ...]]]) -> list[tuple[str, RGB, RGB]]:
    return [(use, fg, bg) for use, (fgs, bgs) in table.items() for fg in fgs for bg in bgs]


# --- the checker itself ------------------------------------------------------------------------------------------


def test_the_formula_matches_wcag() -> None:
    assert luminance(palette.BLACK) == 0.0
    assert luminance(palette.WHITE) == pytest.approx(1.0)
    assert contrast(palette.WHITE, palette.BLACK) == pytest.approx(21.0)
    assert contrast(palette.BLACK, palette.WHITE) == pytest.approx(21.0)
    assert contrast((118, 118, 118), palette.WHITE) == pytest.approx(4.54, abs=0.01)  # the well-known AA grey


def test_the_checker_can_fail() -> None:
    assert contrast((80, 78, 72), palette.BLACK) < AA  # the old FAINT on the screen
    assert contrast((112, 104, 88), (26, 23, 20)) < AA  # the old floor dot on the lit floor


# --- text --------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("use", "fg", "bg"), pairs(palette.TEXT_ON))
def test_every_text_colour_reads_on_its_background(use: str, fg: RGB, bg: RGB) -> None:
    assert contrast(fg, bg) >= AA, f"{use}: {fg} on {bg} is {contrast(fg, bg):.2f}:1"


@pytest.mark.parametrize(("use", "fg", "bg"), pairs(palette.DISABLED_ON))
def test_disabled_choices_are_faint_but_legible(use: str, fg: RGB, bg: RGB) -> None:
    # WCAG 1.4.3 exempts inactive components; we still ask 3:1 so a closed choice can be read.
    assert contrast(fg, bg) >= palette.DISABLED_MIN, f"{use}: {fg} on {bg} is {contrast(fg, bg):.2f}:1"


def test_disabled_is_clearly_apart_from_dim() -> None:
    # DIM (hints, details) and FAINT (closed choices) sit side by side in menus: 1.6:1 between them is a step the eye
    # sees at once on a dark panel (the old pair was 2.0:1 but FAINT itself was unreadable at 2.3:1).
    assert contrast(palette.DIM, palette.FAINT) >= 1.6
    assert luminance(palette.DIM) > luminance(palette.FAINT)


def test_the_selected_row_reads() -> None:
    for fg in (palette.KEY, palette.TEXT):
        assert contrast(fg, palette.SELECT_BG) >= AA
    assert luminance(palette.SELECT_BG) > luminance(palette.PANEL_BG)  # the bar shows on the panel


@pytest.mark.parametrize("kind", sorted(palette.KIND_COLOURS))
@pytest.mark.parametrize("f", [palette.FADE_OLD, palette.FADE_DETAIL, palette.FADE_INTERNAL])
def test_faded_log_lines_stay_readable_and_dimmer(kind: str, f: float) -> None:
    c = palette.KIND_COLOURS[kind]
    faded = fade(c, f)
    for bg in (palette.BLACK, palette.PANEL_BG):  # the log at the bottom, the full log in its panel
        assert contrast(faded, bg) >= AA, f"{kind} faded by {f}: {faded} on {bg} is {contrast(faded, bg):.2f}:1"
    assert luminance(faded) < luminance(c)  # visibly dimmer: never the colour itself


def test_fade_dims_by_the_factor_when_that_reads() -> None:
    assert fade(palette.WHITE, 0.6) == (153, 153, 153)
    assert fade(palette.TEXT, 1.0) == palette.TEXT
    assert contrast(fade(palette.TEXT, 0.0), palette.PANEL_BG) >= AA  # never down to black


def test_the_log_kinds_are_the_text_colours() -> None:
    assert set(palette.KIND_COLOURS.values()) <= set(palette.TEXT_ON["screen"][0])
    assert set(palette.KIND_COLOURS.values()) <= set(palette.TEXT_ON["panel"][0])


# --- the map -----------------------------------------------------------------------------------------------------


def test_the_tile_rows_follow_the_tile_codes() -> None:
    assert (dungeon.WALL, dungeon.FLOOR, dungeon.DOOR, dungeon.STAIRS, dungeon.WATER) == (0, 1, 2, 3, 4)
    for a in (palette.LIT_FG, palette.LIT_BG, palette.DIM_FG, palette.DIM_BG):
        assert a.shape == (5, 3) and a.dtype.name == "uint8"
    assert rgb(palette.LIT_BG[dungeon.FLOOR]) == palette.LIT_FLOOR_BG


@pytest.mark.parametrize("tile", range(5))
def test_visible_and_remembered_tiles_are_clearly_apart(tile: int) -> None:
    # Whether a tile is seen now or only remembered is information, shown by the glyph: WCAG 1.4.11 asks 3:1 of
    # non-text information, so the lit glyph and the remembered glyph differ by at least 3:1. The background adds a
    # second cue: lit is always lighter than remembered (a ratio on such dark colours is small by nature, the
    # 0.05 flare term dominates, so only the order is asked).
    name = palette.TILE_NAMES[tile]
    lit_fg, dim_fg = rgb(palette.LIT_FG[tile]), rgb(palette.DIM_FG[tile])
    lit_bg, dim_bg = rgb(palette.LIT_BG[tile]), rgb(palette.DIM_BG[tile])
    assert contrast(lit_fg, dim_fg) >= NON_TEXT, f"{name}: lit vs remembered glyph {contrast(lit_fg, dim_fg):.2f}"
    assert luminance(lit_bg) > luminance(dim_bg), name
    assert luminance(lit_fg) > luminance(dim_fg), name
    # each glyph shows on its own background: lit ones at 3:1, remembered ones at least visibly (1.5:1)
    assert contrast(lit_fg, lit_bg) >= NON_TEXT, f"{name}: lit glyph on its tile {contrast(lit_fg, lit_bg):.2f}"
    assert contrast(dim_fg, dim_bg) >= 1.5, f"{name}: remembered glyph on its tile {contrast(dim_fg, dim_bg):.2f}"


def test_the_targeted_creature_reads() -> None:
    assert contrast(palette.TARGET_FG, palette.TARGET_BG) >= AA
    assert contrast(palette.TARGET_BG, palette.MET_BG) >= 1.5  # the target stands out of the group met


def test_the_door_choice_glyphs_show() -> None:
    assert contrast(palette.BLACK, palette.DOOR_OPEN_BG) >= NON_TEXT
    assert contrast(palette.BLACK, palette.DOOR_CURSOR_BG) >= NON_TEXT
    assert contrast(palette.WHITE, palette.DOOR_BLOCKED_BG) >= NON_TEXT
    assert contrast(palette.DOOR_OPEN_BG, palette.DOOR_CURSOR_BG) >= 1.5


# --- the data's colours ------------------------------------------------------------------------------------------


def monster_colours() -> list[tuple[str, RGB]]:
    return [(mid, hex_rgb(m.colour)) for mid, m in sorted(content().monsters.items())]


def item_colours() -> list[tuple[str, RGB]]:
    return [(iid, hex_rgb(i.colour)) for iid, i in sorted(content().items.items())]


def test_the_data_has_colours() -> None:
    assert len(monster_colours()) >= 20 and len(item_colours()) >= 5


@pytest.mark.parametrize(("monster", "colour"), monster_colours())
def test_monster_colours_read_where_they_are_drawn(monster: str, colour: RGB) -> None:
    for bg in palette.MONSTER_TEXT_BGS:
        assert contrast(colour, bg) >= AA, f"{monster} {colour} on {bg}: {contrast(colour, bg):.2f}:1"
    for bg in palette.MONSTER_GLYPH_BGS:
        assert contrast(colour, bg) >= NON_TEXT, f"{monster} {colour} on {bg}: {contrast(colour, bg):.2f}:1"


@pytest.mark.parametrize(("item", "colour"), item_colours())
def test_item_colours_read_where_they_are_drawn(item: str, colour: RGB) -> None:
    for bg in palette.ITEM_TEXT_BGS:
        assert contrast(colour, bg) >= AA, f"{item} {colour} on {bg}: {contrast(colour, bg):.2f}:1"
    remembered = fade(colour, palette.FADE_REMEMBERED)
    assert contrast(remembered, palette.BLACK) >= AA  # remembered, on the dark floor
    assert luminance(remembered) < luminance(colour)
