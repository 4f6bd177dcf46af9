"""The ANSI renderer: only changed cells are sent, colours map to the terminal's palette, the screen is exact."""

from __future__ import annotations

import numpy as np
import pyte
import pytest
import tcod.console

from undercroft.term.ansi import AnsiRenderer, rgb_to_xterm256

W, H = 80, 50


def _scene(seed: int = 0) -> tcod.console.Console:
    """A busy 80x50 console: random glyphs in a few colours, like a map with a status bar."""
    rng = np.random.default_rng(seed)
    con = tcod.console.Console(W, H, order="C")
    glyphs = np.array([ord(c) for c in "#.@g+~ ·░█═"], dtype=np.int32)
    palette = np.array([[200, 180, 50], [90, 90, 90], [255, 255, 255], [30, 200, 60], [0, 0, 0]], dtype=np.uint8)
    con.rgb["ch"] = glyphs[rng.integers(0, len(glyphs), (H, W))]
    con.rgb["fg"] = palette[rng.integers(0, 4, (H, W))]
    con.rgb["bg"] = palette[rng.integers(3, 5, (H, W))]
    con.print(0, 0, "HP 12/12  Gold 30  Depth 1", fg=(255, 255, 255), bg=(0, 0, 0))
    return con


def _feed(screen: pyte.Screen, data: str) -> None:
    pyte.ByteStream(screen).feed(data.encode("utf-8"))


def _rows(screen: pyte.Screen) -> list[str]:
    return [screen.display[y] for y in range(screen.lines)]


def _console_rows(con: tcod.console.Console) -> list[str]:
    return ["".join(chr(c) for c in row) for row in con.rgb["ch"]]


def test_unchanged_frame_emits_nothing() -> None:
    r = AnsiRenderer()
    con = _scene()
    assert len(r.render(con)) > W * H  # the first frame draws every cell
    assert r.render(con) == ""
    assert r.render(con) == ""


def test_one_cell_change_is_a_few_dozen_bytes() -> None:
    r = AnsiRenderer(truecolor=True)
    con = _scene()
    full = r.render(con).encode("utf-8")
    con.rgb["ch"][20, 40] = ord("@")
    con.rgb["fg"][20, 40] = (255, 255, 0)
    out = r.render(con)
    data = out.encode("utf-8")
    assert out.startswith("\x1b[21;41H")  # one cursor move to row 21, column 41 (1-based)
    assert out.endswith("@")
    assert len(data) <= 48, out
    assert len(data) * 100 < len(full)


def test_256_colour_one_cell_change_is_smaller_still() -> None:
    r = AnsiRenderer(truecolor=False)
    con = _scene()
    r.render(con)
    con.rgb["ch"][3, 7] = ord("g")
    out = r.render(con)
    assert out.startswith("\x1b[4;8H") and out.endswith("g")
    assert "38;2" not in out and len(out.encode()) <= 32, out


def test_nearby_changes_on_a_row_share_one_cursor_move() -> None:
    r = AnsiRenderer()
    con = _scene()
    r.render(con)
    for x in (10, 12, 15, 60):
        con.rgb["ch"][5, x] = ord("x")
    out = r.render(con)
    assert out.count("H") == 2, out  # one move for 10..15, one for 60


@pytest.mark.slow
@pytest.mark.parametrize("truecolor", [True, False])
def test_the_terminal_shows_exactly_the_console(truecolor: bool) -> None:
    """Feed a full frame then a series of partial ones into a terminal emulator: its text equals the console's."""
    screen = pyte.Screen(W, H)
    r = AnsiRenderer(truecolor=truecolor)
    con = _scene(1)
    _feed(screen, r.render(con))
    assert _rows(screen) == _console_rows(con)
    rng = np.random.default_rng(7)
    for _ in range(20):
        n = int(rng.integers(1, 40))
        ys, xs = rng.integers(0, H, n), rng.integers(0, W, n)
        con.rgb["ch"][ys, xs] = rng.integers(ord("a"), ord("z") + 1, n)
        con.rgb["fg"][ys, xs] = rng.integers(0, 256, (n, 3))
        _feed(screen, r.render(con))
        assert _rows(screen) == _console_rows(con)
    if truecolor:  # pyte keeps 24-bit colours as hex: check every cell's colours too
        for y in range(H):
            for x in range(W):
                cell = screen.buffer[y][x]
                assert cell.fg == "{:02x}{:02x}{:02x}".format(*con.rgb["fg"][y, x])
                assert cell.bg == "{:02x}{:02x}{:02x}".format(*con.rgb["bg"][y, x])


def test_origin_offsets_the_drawing() -> None:
    screen = pyte.Screen(100, 60)
    r = AnsiRenderer(origin=(10, 5))
    con = _scene()
    _feed(screen, r.render(con))
    assert screen.display[5][10:90] == _console_rows(con)[0]
    assert screen.display[4].strip() == ""


def test_invalidate_redraws_everything() -> None:
    r = AnsiRenderer()
    con = _scene()
    first = r.render(con)
    r.invalidate()
    assert r.render(con) == first
    assert r.full_frame_size(con) == len(first.encode("utf-8"))
    assert r.render(con) == ""  # full_frame_size left this renderer's last frame alone


def test_wide_and_control_glyphs_never_shift_the_row() -> None:
    screen = pyte.Screen(W, H)
    r = AnsiRenderer()
    con = tcod.console.Console(W, H, order="C")
    con.rgb["ch"][0, :5] = [ord(c) for c in "a\u4e00b\x07c"]  # a CJK (double-width) character and a bell
    _feed(screen, r.render(con))
    assert screen.display[0][:6] == "a?b c "


def test_256_palette_pure_colours() -> None:
    colours = np.array(
        [[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 255, 255], [0, 0, 0], [255, 255, 0], [0, 255, 255]],
        dtype=np.uint8,
    )
    assert rgb_to_xterm256(colours).tolist() == [196, 46, 21, 231, 16, 226, 51]


def test_256_palette_greys_and_cube_points() -> None:
    assert rgb_to_xterm256(np.array([128, 128, 128], dtype=np.uint8)).tolist() == 244  # grey ramp: 8 + 10 * 12
    assert rgb_to_xterm256(np.array([[95, 135, 175]], dtype=np.uint8)).tolist() == [16 + 36 * 1 + 6 * 2 + 3]
    assert rgb_to_xterm256(np.array([[8, 8, 8], [238, 238, 238]], dtype=np.uint8)).tolist() == [232, 255]
    # Every cube point maps to itself.
    levels = [0, 95, 135, 175, 215, 255]
    cube = np.array([[r, g, b] for r in levels for g in levels for b in levels], dtype=np.uint8)
    assert rgb_to_xterm256(cube).tolist() == list(range(16, 232))


def test_256_palette_is_nearest() -> None:
    """Against a brute-force search over indices 16..255."""
    levels = [0, 95, 135, 175, 215, 255]
    pal = [(r, g, b) for r in levels for g in levels for b in levels] + [(v, v, v) for v in range(8, 248, 10)]
    table = np.array(pal, dtype=np.int64)
    rng = np.random.default_rng(3)
    colours = rng.integers(0, 256, (500, 3)).astype(np.uint8)
    got = rgb_to_xterm256(colours).astype(np.int64) - 16
    dist = ((colours[:, None, :].astype(np.int64) - table[None, :, :]) ** 2).sum(axis=2)
    assert np.array_equal(dist[np.arange(500), got], dist.min(axis=1))
