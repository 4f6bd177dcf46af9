"""The window fits the screen: the scale ladder chosen from the display and the remembered setting, the scale
keys (the window's own), the console growing with the window, and the settings file."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import tcod.event
from tcod.cffi import lib
from tcod.event import KeySym, Modifier
from ui_helpers import isolate_user_data

from undercroft.ui import app, settings
from undercroft.ui.app import LADDER, Step, Window, auto_step, cells_in, choose_step, next_step, scale_key
from undercroft.ui.keys import key
from undercroft.ui.settings import Settings
from undercroft.ui.tiles import TILE_H, TILE_W, TILESETS, load_tileset


@pytest.fixture(autouse=True)
def dummy_video(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    lib.SDL_SetHint(b"SDL_VIDEO_DRIVER", b"dummy")
    return isolate_user_data(monkeypatch, tmp_path)


# --- the tilesets and the ladder ---


def test_every_tileset_loads_with_its_tile_size() -> None:
    assert (TILE_W, TILE_H) == (10, 16)  # the small one, as before
    for name, info in TILESETS.items():
        ts = load_tileset(name)
        assert (ts.tile_width, ts.tile_height) == (info.tile_w, info.tile_h)
        assert load_tileset(name) is ts  # loaded once
    assert load_tileset() is load_tileset("small")


def test_the_ladder_grows_step_by_step() -> None:
    cells = [s.cell for s in LADDER]
    assert cells == sorted(cells, key=lambda c: c[1]) and len(set(cells)) == len(cells)
    assert LADDER[0] == Step("small", 1)
    assert Step("small", 2) not in LADDER  # large x1 draws that size itself


@pytest.mark.parametrize(
    ("usable", "expected"),
    [
        (None, Step("small", 1)),  # unknown display
        ((1024, 740), Step("small", 1)),  # 80x40 of 10x16 cells (800x640) in 921x666
        ((1280, 760), Step("small", 1)),  # a 1280x800 laptop, less its panel: 14x22 cells would leave 31 rows
        ((1920, 1040), Step("medium", 1)),  # 1080p: 80x40 of 14x22 (1120x880) in 1728x936
        ((2560, 1400), Step("medium", 1)),  # 1440p: 80x40 of 20x32 is 1280 px high, over 1260
        ((3840, 2100), Step("medium", 2)),  # 4K: 80x40 of 28x44 (2240x1760) in 3456x1890
        ((5120, 2840), Step("medium", 2)),  # 5K: 40x64 cells would need 2560 px of 2556
        ((7680, 4280), Step("large", 3)),  # 8K: 80x40 of 60x96 (4800x3840) in 6912x3852
    ],
)
def test_automatic_step_for_a_display(usable: tuple[int, int] | None, expected: Step) -> None:
    assert auto_step(usable) == expected
    assert choose_step(usable, Settings()) == expected


def test_the_players_step_wins_unless_the_display_is_too_small() -> None:
    assert choose_step((1920, 1040), Settings("medium", 1)) == Step("medium", 1)  # 80x24 of it fits
    assert choose_step(None, Settings("large", 3)) == Step("large", 3)
    assert choose_step((1920, 1040), Settings("large", 3)) == Step("large", 1)  # 80x24 at 60x96 px would not fit
    assert choose_step((3840, 2100), Settings("small", 2)) == Step("small", 2)  # off the ladder, by hand: kept


def test_steps_up_and_down_stay_on_the_ladder_and_on_the_screen() -> None:
    assert next_step(Step("small", 1), 1, None) == Step("medium", 1)
    assert next_step(Step("small", 1), -1, None) == Step("small", 1)
    assert next_step(LADDER[-1], 1, None) == LADDER[-1]
    assert next_step(Step("large", 1), 1, (1920, 1040)) == Step("large", 1)  # 80x24 of the next would not fit
    assert next_step(Step("small", 2), -1, None) == Step("medium", 1)  # off the ladder: the rung below
    assert next_step(Step("small", 2), 1, None) == Step("medium", 2)


def test_opening_size_and_cells() -> None:
    assert app.opening_size(Step("small", 1), None) == (80, 50)
    assert app.opening_size(Step("small", 1), (1280, 760)) == (115, 42)  # 1152x684 px: 115 of 10, 42 of 16
    assert app.opening_size(Step("medium", 1), (1920, 1040)) == (123, 42)  # 1080p: 1722x924 px, 80% of the screen
    assert app.opening_size(Step("medium", 1), (1000, 500)) == (80, 24)  # never under the smallest console
    assert cells_in((1920, 1080), Step("small", 1)) == (192, 67)
    assert cells_in((1920, 1080), Step("medium", 1)) == (137, 49)
    assert cells_in((300, 200), Step("small", 1)) == (80, 24)  # never under the smallest console


def test_scale_keys() -> None:
    assert scale_key(key(KeySym.EQUALS, Modifier.LCTRL)) == "bigger"
    assert scale_key(key(KeySym.EQUALS, Modifier.LCTRL | Modifier.LSHIFT)) == "bigger"  # Ctrl++ on US layouts
    assert scale_key(key(KeySym.PLUS, Modifier.RCTRL)) == "bigger"
    assert scale_key(key(KeySym.KP_PLUS, Modifier.LCTRL)) == "bigger"
    assert scale_key(key(KeySym.MINUS, Modifier.LCTRL)) == "smaller"
    assert scale_key(key(KeySym.KP_MINUS, Modifier.LCTRL)) == "smaller"
    assert scale_key(key(KeySym.N0, Modifier.LCTRL)) == "auto"
    assert scale_key(key(KeySym.KP_0, Modifier.LCTRL)) == "auto"
    assert scale_key(key(KeySym.F11)) == "fullscreen"
    assert scale_key(key(KeySym.RETURN, Modifier.LALT)) == "fullscreen"
    for plain in (
        key(KeySym.EQUALS),
        key(KeySym.MINUS),
        key(KeySym.N0),
        key(KeySym.EQUALS, Modifier.LALT),
        key(KeySym.MINUS, Modifier.LCTRL | Modifier.LALT),
        key(KeySym.RETURN),
        tcod.event.Quit(),
    ):
        assert scale_key(plain) is None


# --- the settings file ---


def test_settings_round_trip(dummy_video: Path) -> None:
    assert settings.load() == Settings("small", 0)  # no file: automatic
    assert settings.save(Settings("large", 2))
    assert settings.settings_path() == dummy_video / "settings.json"
    assert json.loads(settings.settings_path().read_text()) == {"tile": "large", "scale": 2, "stop_hp": 50}
    assert settings.load() == Settings("large", 2)
    assert [p.name for p in dummy_video.iterdir()] == ["settings.json"]  # no temporary file left


@pytest.mark.parametrize(
    "text",
    [
        "",
        "{",
        "null",
        "[]",
        '{"tile": "huge", "scale": 2}',
        '{"tile": "large", "scale": -1}',
        '{"tile": "large", "scale": "2"}',
        '{"tile": 3, "scale": true}',
        '{"scale": 99}',
        "[" * 100000,
    ],
)
def test_corrupt_settings_are_the_defaults(dummy_video: Path, text: str) -> None:
    dummy_video.mkdir(parents=True)
    (dummy_video / "settings.json").write_text(text)
    assert settings.load() == Settings()


@pytest.mark.parametrize(
    "stop_hp", ["", '"stop_hp": 101, ', '"stop_hp": -1, ', '"stop_hp": true, ', '"stop_hp": "30", ']
)
def test_a_missing_or_bad_walks_share_alone_is_its_default(dummy_video: Path, stop_hp: str) -> None:
    """A file written before the walks' share was remembered (or with a bad one) keeps its tile and scale."""
    dummy_video.mkdir(parents=True)
    (dummy_video / "settings.json").write_text("{" + stop_hp + '"tile": "large", "scale": 2}')
    assert settings.load() == Settings("large", 2, 50)


def test_unreadable_or_binary_settings(dummy_video: Path) -> None:
    dummy_video.mkdir(parents=True)
    (dummy_video / "settings.json").write_bytes(b"\xff\xfe\x00garbage")
    assert settings.load() == Settings()
    (dummy_video / "settings.json").unlink()
    (dummy_video / "settings.json").mkdir()  # a directory where the file should be
    assert settings.load() == Settings()
    assert not settings.save(Settings("large", 1))


def test_unwritable_directory_is_no_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    monkeypatch.setattr("undercroft.paths.user_data_dir", lambda: blocker / "user")
    assert not settings.save(Settings("large", 1))
    assert settings.load() == Settings()
    if os.geteuid() != 0:  # root writes anywhere
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        assert not settings.save(Settings("large", 1), ro / "settings.json")


# --- the window ---


def test_scale_keys_are_the_windows_own_and_remembered(dummy_video: Path) -> None:
    batches = iter(
        [
            [key(KeySym.EQUALS, Modifier.LCTRL), key(KeySym.Q)],
            [key(KeySym.EQUALS, Modifier.LCTRL), key(KeySym.A)],
            [key(KeySym.MINUS, Modifier.LCTRL)],
            [key(KeySym.N0, Modifier.LCTRL), key(KeySym.N0)],
        ]
    )
    settings.save(Settings(stop_hp=35))  # set in a game's pause menu: the window's keys keep it
    with Window.open(source=lambda timeout: next(batches, None)) as w:
        assert w.step == Step("small", 1) and w.size() == (80, 50)  # the dummy display: unknown, 1x small
        assert list(w.events(0.0)) == [key(KeySym.Q)]
        assert w.step == Step("medium", 1)
        assert w.context.sdl_window is not None and w.context.sdl_window.size == (1120, 1100)
        assert w.size() == (80, 50)
        assert settings.load() == Settings("medium", 1, 35)
        assert list(w.events(0.0)) == [key(KeySym.A)]
        assert w.step == Step("large", 1) and w.pixels() == (1600, 1600) and w.size() == (80, 50)
        assert settings.load() == Settings("large", 1, 35)
        assert list(w.events(0.0)) == []
        assert w.step == Step("medium", 1) and w.pixels() == (1120, 1100)
        assert list(w.events(0.0)) == [key(KeySym.N0)]
        assert w.step == Step("small", 1) and w.pixels() == (800, 800)
        assert settings.load() == Settings("small", 0, 35)
    assert json.loads((dummy_video / "settings.json").read_text()) == {"tile": "small", "scale": 0, "stop_hp": 35}


def test_the_window_opens_at_the_remembered_step(dummy_video: Path) -> None:
    settings.save(Settings("large", 1))
    with Window.open(source=lambda timeout: None) as w:
        assert w.step == Step("large", 1)
        assert w.pixels() == (1600, 1600) and w.size() == (80, 50)


def test_size_grows_with_the_window() -> None:
    with Window.open(source=lambda timeout: None) as w:
        window = w.context.sdl_window
        assert window is not None
        assert w.size() == (80, 50)
        window.size = (1920, 1080)
        assert w.size() == (192, 67)
        window.size = (1000, 900)
        assert w.size() == (100, 56)
        window.size = (400, 300)
        assert w.size() == (80, 24)  # too small: the console is scaled down, never under 80x24
        window.size = (1920, 1080)
        w.rescale("bigger")  # a window sized by hand is resized to the step's
        assert w.step == Step("medium", 1) and w.size() == (80, 50)


def test_sdl_is_kept_from_wayland_where_there_is_only_an_x_display() -> None:
    assert app.x11_only({"DISPLAY": ":0"}) == "x11"  # Xvfb, ssh -X: no XDG_RUNTIME_DIR noise from Wayland
    assert app.x11_only({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}) is None  # a Wayland desktop: SDL's choice
    assert app.x11_only({"DISPLAY": ":0", "SDL_VIDEODRIVER": "dummy"}) is None  # the player's (or a test's) choice
    assert app.x11_only({}) is None  # no display at all: the one-line error, as before
