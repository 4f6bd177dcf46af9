"""The real window (SDL's dummy video driver) as a front end of the one loop: frames presented, Alt+Enter, closed
and continued. (A fight closed mid-way and continued: tests/test_ui_loop.py, on the null front end.)"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import tcod.event
from engine_helpers import content
from tcod.cffi import lib
from tcod.event import KeySym, Modifier
from ui_helpers import isolate_user_data, seek_fight_key

from undercroft.record import saves
from undercroft.ui import app, loop
from undercroft.ui.app import Window
from undercroft.ui.frontend import EventSource, FrontEndFactory
from undercroft.ui.keys import key
from undercroft.ui.scenes import SceneStack, TitleScene


def set_sdl_hint(name: bytes, value: bytes) -> None:
    lib.SDL_SetHint(name, value)


@pytest.fixture(autouse=True)
def dummy_video(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """SDL's dummy video driver. SDL 3 keeps its own copy of the environment from when tcod was imported, so
    setting SDL_VIDEODRIVER in os.environ now is not enough: the hint is set as well."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    set_sdl_hint(b"SDL_VIDEO_DRIVER", b"dummy")
    return isolate_user_data(monkeypatch, tmp_path)


def feed(*batches: list[tcod.event.Event]) -> EventSource:
    """An event source giving one batch per frame, then closing the window."""
    it: Iterator[list[tcod.event.Event]] = iter(batches)

    def source(timeout: float | None) -> list[tcod.event.Event]:
        return next(it, [tcod.event.Quit()])

    return source


def window(source: EventSource) -> FrontEndFactory:
    """The real window, its SDL event queue replaced by ``source``."""
    return functools.partial(Window.open, source=source)


def test_window_opens_presents_frames_and_closes() -> None:
    frames: list[int] = []

    def source(timeout: float | None) -> list[tcod.event.Event]:
        frames.append(1)
        if len(frames) == 1:
            return [key(KeySym.RETURN, Modifier.LALT)]  # fullscreen on (ignored by the dummy driver)...
        if len(frames) == 2:
            return [key(KeySym.RETURN, Modifier.LALT), key(KeySym.SLASH, Modifier.LSHIFT)]  # ...off; help
        if len(frames) == 3:
            return [key(KeySym.SPACE), tcod.event.WindowEvent(type="WindowResized", window_id=0, data=(1700, 900))]
        return [tcod.event.Quit()]

    assert loop.play(window(source), content()) == 0
    assert len(frames) == 4


def test_alt_enter_is_the_windows_own() -> None:
    """Alt+Enter toggles fullscreen and never reaches the scenes; other keys do."""
    with Window.open(source=feed([key(KeySym.RETURN, Modifier.LALT), key(KeySym.Q)])) as w:
        assert list(w.events(0.0)) == [key(KeySym.Q)]
        assert w.size()[0] >= 80 and w.size()[1] >= 24  # fullscreen (the dummy driver has one): more cells
        w.text_input(True)
        assert w.text
        w.text_input(False)
        assert not w.text


def test_window_max_frames_and_quit_key() -> None:
    def make() -> SceneStack:
        return SceneStack([TitleScene(content(), seed=3)])

    assert loop.run(Window.open, make, max_frames=3) == 0  # never blocks waiting for input
    assert loop.run(window(feed([key(KeySym.Q)])), make) == 0


def test_a_game_in_the_window_closed_then_continued(dummy_video: Path) -> None:
    """Play a few steps in the real window, close it: the save is there, and the title continues it."""
    holder: dict[str, SceneStack] = {}

    def make() -> SceneStack:
        holder["stack"] = loop.play_stack(content(), loop.PlayOptions(seed=4))
        return holder["stack"]

    calls: list[float | None] = []

    def steps(timeout: float | None) -> list[tcod.event.Event]:
        calls.append(timeout)
        session = holder["stack"].scenes[0].session  # type: ignore[attr-defined]
        if session.game.state.turn >= 3 or session.game.over or len(calls) > 50:
            return [tcod.event.WindowEvent(type="WindowClose", window_id=1, data=(0, 0))]  # the close button
        return [key(seek_fight_key(session, fight=False))]

    assert loop.run(window(steps), make) == 0
    session = holder["stack"].scenes[0].session  # type: ignore[attr-defined]
    assert session.game.state.turn >= 3 and not session.game.over
    assert session.recorder._fd is None  # the recording was closed with the window
    path = session.path
    assert saves.latest_unfinished() == path
    turn, checksum = session.game.state.turn, session.game.checksum()
    holder.clear()

    def make2() -> SceneStack:
        holder["stack"] = SceneStack([TitleScene(content())])
        return holder["stack"]

    assert loop.run(window(feed([key(KeySym.C)])), make2) == 0
    again = holder["stack"].scenes[0].session  # type: ignore[attr-defined]
    assert again.path == path and again.game.state.turn == turn and again.game.checksum() == checksum


@pytest.mark.slow
def test_no_display_is_one_clear_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["SDL_VIDEODRIVER"] = "no_such_driver"
    env["XDG_DATA_HOME"] = str(tmp_path)
    for argv in (["play", "--seed", "1"], []):
        out = subprocess.run(
            [sys.executable, "-m", "undercroft", *argv],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
        assert out.returncode == 2
        assert out.stderr.startswith(f"undercroft: {app.NO_DISPLAY}")
        assert len(out.stderr.strip().splitlines()) == 1, out.stderr
        assert out.stdout == ""
