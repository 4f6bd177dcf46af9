"""Recordings on screen: watch with keyframes (through the one loop), branch off a turn, and a PNG of a turn without
a window."""

from __future__ import annotations

import functools
import struct
import zlib
from pathlib import Path

import numpy as np
import pytest
import tcod.console
import tcod.event
from engine_helpers import content
from tcod.event import KeySym, Modifier
from ui_helpers import Driver, isolate_user_data, names, press, screen, seek_fight_key, type_text

from undercroft import record
from undercroft.record import saves
from undercroft.rules.game import Game
from undercroft.ui import loop, render
from undercroft.ui.app import Window
from undercroft.ui.frontend import NullFrontEnd
from undercroft.ui.keys import key
from undercroft.ui.png import encode_png
from undercroft.ui.replay_view import KEYFRAME_EVERY, ReplayScene, branch, screenshot, screenshot_stack
from undercroft.ui.scenes import SceneStack, game_stack
from undercroft.ui.session import Session


@pytest.fixture
def user(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    from tcod.cffi import lib

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    lib.SDL_SetHint(b"SDL_VIDEO_DRIVER", b"dummy")
    return isolate_user_data(monkeypatch, tmp_path)


def recorded_game(seed: int = 5, actions: int = 120, *, fight: bool = True) -> Path:
    """A recording made by playing through the loop (seeking fights, or running from everything), then closing."""
    session = Session.new(content(), "undercroft", seed)
    presses = [0]

    def keys(timeout: float | None) -> list[tcod.event.Event] | None:
        presses[0] += 1
        if session.game.state.turn >= actions or session.game.over or presses[0] > actions * 3:
            return None  # closed
        return [key(seek_fight_key(session, fight=fight))]

    assert loop.run(NullFrontEnd(source=keys).open, lambda: SceneStack(game_stack(session))) == 0
    assert session.path is not None
    return session.path


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    w, h = struct.unpack(">II", data[16:24])
    return w, h


def test_png_encoder_round_trip() -> None:
    pixels = np.arange(2 * 3 * 4, dtype=np.uint8).reshape(2, 3, 4)
    data = encode_png(pixels)
    assert png_size(data) == (3, 2)
    idat = data[data.index(b"IDAT") + 4 : data.index(b"IEND") - 8]
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(2, 1 + 3 * 4)
    assert (raw[:, 0] == 0).all() and np.array_equal(raw[:, 1:].reshape(2, 3, 4), pixels)


@pytest.mark.slow
def test_screenshot_writes_the_screen_of_that_turn(user: Path, tmp_path: Path) -> None:
    path = recorded_game(actions=30)
    out = tmp_path / "turn10.png"
    screenshot(content(), path, 10, out)
    data = out.read_bytes()
    assert png_size(data) == (800, 800)  # 80x50 tiles of 10x16 px
    # the same pixels as drawing the replayed game at turn 10 ourselves
    game = record.replay(content(), record.load_recording(path), until=10)
    assert game.state.turn == 10
    idat = data[data.index(b"IDAT") + 4 : data.index(b"IEND") - 8]
    rgba = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(800, 1 + 800 * 4)[:, 1:].reshape(800, 800, 4)
    assert rgba[..., 3].min() == 255  # opaque
    assert len(np.unique(rgba.reshape(-1, 4), axis=0)) > 10  # a picture, not a blank


def test_the_screenshot_and_the_watch_show_the_seed_as_typed(user: Path) -> None:
    """A word seed shows as the word on the status bar of a screenshot and of a replay watched, as in the game
    (they once showed its number)."""
    path = recorded_game(actions=10)
    saves.remember_seed(path, "salt marsh")
    console = tcod.console.Console(render.WIDTH, render.HEIGHT, order="F")
    screenshot_stack(content(), path, 5).draw(console)
    assert "Seed salt marsh" in str(console)
    watched = ReplayScene(content(), record.load_recording(path), paused=True)
    assert watched.session.seed_label == "salt marsh"


def test_watch_steps_jumps_back_by_keyframe_and_ends_like_the_replay(user: Path) -> None:
    rec = record.load_recording(Path(__file__).parent / "golden" / "v3" / "undercroft-1.jsonl")  # ~300 actions
    n = len(rec.actions)
    assert n > KEYFRAME_EVERY * 2
    frontend = NullFrontEnd()
    scene = ReplayScene(content(), rec, paused=True, clock=frontend.now)  # the front end's simulated time
    stack = Driver(SceneStack([scene]), frontend=frontend)
    assert "REPLAY  turn 0/" in screen(stack) and "paused" in screen(stack)
    press(stack, KeySym.PERIOD)  # one step
    assert scene.turn == 1
    press(stack, KeySym.SPACE)  # play: 4 actions a second
    stack.idle(1.0)
    assert scene.turn == 5
    assert frontend.timeouts[-1] == pytest.approx(1 / 60)  # while playing, the loop waits no longer than a tick
    press(stack, KeySym.EQUALS, mod=Modifier.LSHIFT)  # faster: 8 a second
    stack.idle(1.0)
    assert scene.turn == 13
    assert "turn 13/" in screen(stack) and "playing" in screen(stack)
    press(stack, KeySym.MINUS)
    press(stack, KeySym.SPACE)  # pause
    stack.idle(10.0)
    assert scene.turn == 13
    assert frontend.timeouts[-1] is None  # paused: the loop just waits for a key
    # jump to the end, then back: the way back starts from a keyframe, not from turn 0
    press(stack, KeySym.G)
    type_text(stack, str(n))
    press(stack, KeySym.RETURN)
    assert scene.turn == n and names(stack) == ["ReplayScene"]
    assert scene.game.checksum() == record.replay(content(), rec).checksum()
    before = scene.replayed
    target = n - 3
    press(stack, KeySym.G)
    type_text(stack, str(target))
    press(stack, KeySym.RETURN)
    assert scene.turn == target
    assert scene.replayed - before < KEYFRAME_EVERY + 1  # from the nearest keyframe, not a replay from turn 0
    assert scene.game.checksum() == record.replay(content(), rec, until=target).checksum()
    press(stack, KeySym.LEFT)  # one step back
    assert scene.turn == target - 1
    assert scene.game.checksum() == record.replay(content(), rec, until=target - 1).checksum()
    press(stack, KeySym.HOME)
    assert scene.turn == 0
    assert scene.game.checksum() == Game(content(), rec.header.ruleset, rec.header.seed).checksum()
    press(stack, KeySym.Q)
    assert stack.exit_code == 0


def test_watch_in_the_window(user: Path) -> None:
    path = recorded_game(actions=20)
    batches = iter([[key(KeySym.END)], [key(KeySym.HOME)], [key(KeySym.SPACE)], [], [key(KeySym.Q)]])
    source = functools.partial(Window.open, source=lambda t: next(batches, None))
    assert loop.watch(source, content(), path) == 0
    assert next(batches, None) is None  # every key was read: q left


def test_watch_through_the_loop_plays_at_its_speed_and_quits(user: Path) -> None:
    """``replay --watch`` on the null front end: from --until, paused; space plays (4 actions a second), q leaves."""
    path = recorded_game(actions=30)
    frontend = NullFrontEnd([[key(KeySym.SPACE)], 1.0, [], [key(KeySym.Q)]])
    frames: list[str] = []
    frontend.on_present = lambda console: frames.append(str(console).splitlines()[0])
    assert loop.watch(frontend.open, content(), path, loop.WatchOptions(start=10, paused=True)) == 0
    assert "turn 10/" in frames[0] and "paused" in frames[0]
    assert frontend.queue == type(frontend.queue)()  # q was the last thing read: the loop ended there
    assert "playing" in frames[-1]
    assert "turn 14/" in frames[-1]  # a second passed: 4 more actions


def test_branch_repeats_the_turns_then_records_a_new_game(user: Path) -> None:
    path = recorded_game(seed=2, actions=40)
    original = path.read_bytes()
    rec = record.load_recording(path)
    session = branch(content(), path, 12)
    assert session.game.state.turn == 12
    assert session.game.checksum() == record.replay(content(), rec, until=12).checksum()
    assert session.path is not None and session.path != path
    stack = SceneStack(game_stack(session))
    assert "Branched from" in screen(stack)
    for _ in range(3):
        stack.handle(key(seek_fight_key(session)))
    session.close()
    new = record.load_recording(session.path)
    assert new.turns == session.game.state.turn and new.turns > 12
    assert [a for _, a, _ in new.actions[:12]] == [a for _, a, _ in rec.actions[:12]]
    record.replay(content(), new, verify=True)
    assert path.read_bytes() == original  # the original recording is untouched


def test_branch_play_in_the_window(user: Path) -> None:
    path = recorded_game(seed=3, actions=15)
    assert loop.branch_play(functools.partial(Window.open, source=lambda t: None), content(), path, 5) == 0
    saves = sorted(path.parent.glob("*.jsonl"))
    assert len(saves) == 2  # the branch: a new recording, of 5 turns so far
    new = next(p for p in saves if p != path)
    assert record.load_recording(new).turns == 5


def test_replay_command_flags(user: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from undercroft.cli.main import main

    path = recorded_game(actions=12)
    out = tmp_path / "shot.png"
    assert main(["replay", str(path), "--until", "4", "--screenshot", str(out)]) == 0
    assert png_size(out.read_bytes()) == (800, 800)
    assert main(["replay", str(path), "--play"]) == 2
    assert "--play needs --until TURN" in capsys.readouterr().err
    assert main(["replay", str(path), "--until", "2", "--screenshot", str(tmp_path / "no" / "x.png")]) == 2
    assert main(["replay", str(path), "--watch", "--play", "--until", "2"]) == 2


def test_the_log_is_shift_l_in_the_viewer_and_plain_l_does_nothing() -> None:
    """The log is `L` on every screen; plain `l` (a vi-key walking east in play) opens nothing here."""
    golden = Path(__file__).parent / "golden" / "undercroft-1.jsonl"
    scene = ReplayScene(content(), record.load_recording(golden), paused=True)
    stack = Driver(SceneStack([scene]))
    press(stack, KeySym.PERIOD)
    assert scene.turn == 1
    assert "L log" in screen(stack).splitlines()[0]  # the bar says so, on an 80-column screen
    press(stack, KeySym.L)
    assert names(stack) == ["ReplayScene"] and scene.turn == 1 and scene.paused
    press(stack, KeySym.L, mod=Modifier.LSHIFT)
    assert names(stack) == ["ReplayScene", "LogScene"]
    press(stack, KeySym.L, mod=Modifier.LSHIFT)  # and L closes it again
    assert names(stack) == ["ReplayScene"]


def test_the_replay_bar_keeps_the_log_and_quit_hints_when_narrow() -> None:
    from undercroft.ui.replay_view import hint_text

    assert hint_text(200) == "space pause  . step  , back  +/- speed  g jump  L log  q quit "
    for room in (80, 44, 30, 10):
        text = hint_text(room)
        assert "L log" in text and "q quit" in text and "space pause" in text
        assert len(text) <= max(room, len(hint_text(0)))
    assert "g jump" not in hint_text(44) and ", back" in hint_text(44)
