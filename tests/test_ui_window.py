"""The real window (SDL's dummy video driver): frames presented, closed cleanly, closed mid-fight and continued."""

from __future__ import annotations

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

from undercroft import record
from undercroft.ui import app
from undercroft.ui.keys import key
from undercroft.ui.scenes import CombatScene, SceneStack, TitleScene


def set_sdl_hint(name: bytes, value: bytes) -> None:
    lib.SDL_SetHint(name, value)


@pytest.fixture(autouse=True)
def dummy_video(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """SDL's dummy video driver. SDL 3 keeps its own copy of the environment from when tcod was imported, so
    setting SDL_VIDEODRIVER in os.environ now is not enough: the hint is set as well."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    set_sdl_hint(b"SDL_VIDEO_DRIVER", b"dummy")
    return isolate_user_data(monkeypatch, tmp_path)


def feed(*batches: list[tcod.event.Event]) -> app.EventSource:
    """An event source giving one batch per frame, then closing the window."""
    it: Iterator[list[tcod.event.Event]] = iter(batches)

    def source(timeout: float | None) -> list[tcod.event.Event]:
        return next(it, [tcod.event.Quit()])

    return source


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

    assert app.play(content(), events=source) == 0
    assert len(frames) == 4


def test_window_max_frames_and_quit_key() -> None:
    assert app.run(lambda: SceneStack([TitleScene(content(), seed=3)]), max_frames=3) == 0
    assert app.run(lambda: SceneStack([TitleScene(content(), seed=3)]), events=feed([key(KeySym.Q)])) == 0


def play_until_fight(seed: int) -> dict[str, object]:
    """Play a new recorded game of ``seed`` in the window, heading for a fight; close the window in round 2."""
    holder: dict[str, SceneStack] = {}
    seen: dict[str, object] = {}

    def make() -> SceneStack:
        t = TitleScene(content(), seed=seed)
        stack = SceneStack([t])
        stack.apply(t.start(seed))
        holder["stack"] = stack
        return stack

    def source(timeout: float | None) -> list[tcod.event.Event]:
        session = holder["stack"].scenes[0].session  # type: ignore[attr-defined]
        game = session.game
        if game.state.mode == "combat" and game.state.combat is not None and game.state.combat.round >= 2:
            seen["checksum"] = game.checksum()
            seen["turn"] = game.state.turn
            seen["path"] = session.path
            return [tcod.event.Quit()]  # the window closes mid-fight
        if game.over or game.state.turn > 400:
            return [tcod.event.Quit()]
        return [key(seek_fight_key(session))]

    assert app.run(make, events=source) == 0
    return seen


def test_close_the_window_mid_fight_then_continue(dummy_video: Path) -> None:
    found = None
    for seed in range(1, 30):
        seen = play_until_fight(seed)
        if "checksum" in seen:
            found = seen
            break
    assert found is not None, "no seed led to a fight"
    path = found["path"]
    assert isinstance(path, Path) and path.is_file()
    assert record.latest_unfinished() == path

    # a new start: the title offers to continue, and 'c' resumes exactly there, in the fight
    resumed: dict[str, object] = {}
    holder2: dict[str, SceneStack] = {}

    def make2() -> SceneStack:
        holder2["stack"] = SceneStack([TitleScene(content())])
        return holder2["stack"]

    steps = iter([[key(KeySym.C)], []])

    def source2(timeout: float | None) -> list[tcod.event.Event]:
        batch = next(steps, None)
        if batch is not None:
            return batch
        stack = holder2["stack"]
        resumed["scenes"] = [type(s).__name__ for s in stack.scenes]
        session = stack.scenes[0].session  # type: ignore[attr-defined]
        resumed["checksum"] = session.game.checksum()
        resumed["turn"] = session.game.state.turn
        assert isinstance(stack.top, CombatScene)
        stack.handle(key(KeySym.A))  # and the fight goes on, recorded in the same file
        resumed["after"] = session.game.state.turn
        return [tcod.event.Quit()]

    assert app.run(make2, events=source2) == 0
    assert resumed["scenes"] == ["ExploreScene", "CombatScene"]
    assert resumed["checksum"] == found["checksum"] and resumed["turn"] == found["turn"]
    rec = record.load_recording(path)
    assert rec.turns == resumed["after"]
    record.replay(content(), rec, verify=True)


def test_no_display_is_one_clear_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["SDL_VIDEODRIVER"] = "no_such_driver"
    env["XDG_DATA_HOME"] = str(tmp_path)
    for argv in (["play", "--seed", "1"], []):
        out = subprocess.run([sys.executable, "-m", "undercroft", *argv], env=env, capture_output=True, text=True,
                             timeout=60, stdin=subprocess.DEVNULL)
        assert out.returncode == 2
        assert out.stderr.startswith(f"undercroft: {app.NO_DISPLAY}")
        assert len(out.stderr.strip().splitlines()) == 1, out.stderr
        assert out.stdout == ""
