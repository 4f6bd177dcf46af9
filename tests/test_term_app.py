"""The terminal front end in-process, under the one loop: choosing it, the size notice, centring, the restore
codes, keys in batches, a resize, watching a recording."""

from __future__ import annotations

import functools
import io
import sys
from pathlib import Path

import blessed
import pyte
import pytest
import tcod.event
from blessed.keyboard import Keystroke

from undercroft.content import Content
from undercroft.term import app
from undercroft.term.app import Screen, TerminalFrontEnd, choose, has_display, too_small_message, use_terminal
from undercroft.ui import loop
from undercroft.ui.frontend import FrontEndFactory, FrontEndOptions, new_console
from undercroft.ui.loop import PlayOptions, play_stack, run
from undercroft.ui.scenes import SceneStack


class FakeTerm(blessed.Terminal):
    """A blessed terminal writing into a string, with a fixed size and keys queued by ``ungetch``."""

    def __init__(self, cols: int = 80, rows: int = 50) -> None:
        self.out = io.StringIO()
        super().__init__(kind="xterm-256color", stream=self.out, force_styling=True)
        self._size = (cols, rows)

    @property
    def width(self) -> int:
        return self._size[0]

    @property
    def height(self) -> int:
        return self._size[1]

    def open(self) -> FrontEndFactory:
        """A factory of the terminal front end on this fake terminal."""
        return functools.partial(TerminalFrontEnd.open, term=self)


def test_has_display() -> None:
    assert not has_display({}, "linux")
    assert has_display({"DISPLAY": ":0"}, "linux")
    assert has_display({"WAYLAND_DISPLAY": "wayland-0"}, "linux")
    assert has_display({"SDL_VIDEODRIVER": "dummy"}, "linux")
    assert not has_display({"SDL_VIDEODRIVER": "x11"}, "linux")
    assert has_display({}, "darwin") and has_display({}, "win32")


def test_use_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app, "is_terminal", lambda: True)
    assert use_terminal(True, {"DISPLAY": ":0"})
    assert use_terminal(False, {})  # no display, a terminal: the terminal by itself
    assert not use_terminal(False, {"DISPLAY": ":0"})
    monkeypatch.setattr(app, "is_terminal", lambda: False)
    assert not use_terminal(False, {})  # no terminal either: the window is tried (and says there is no display)
    with pytest.raises(ValueError, match="needs a terminal"):
        use_terminal(True, {})


def test_choose_the_front_end(monkeypatch: pytest.MonkeyPatch) -> None:
    from undercroft.ui.app import Window

    monkeypatch.setattr(app, "is_terminal", lambda: True)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    if sys.platform in ("win32", "darwin"):
        pytest.skip("a window can always be opened there")
    assert choose(FrontEndOptions()) == TerminalFrontEnd.open  # no display: the terminal by itself
    monkeypatch.setenv("DISPLAY", ":0")
    assert choose(FrontEndOptions()) == Window.open
    assert choose(FrontEndOptions(terminal=True)) == TerminalFrontEnd.open
    monkeypatch.setattr(app, "is_terminal", lambda: False)
    with pytest.raises(ValueError, match="needs a terminal"):
        choose(FrontEndOptions(terminal=True))


def test_too_small_notice() -> None:
    screen = Screen(truecolor=True)
    out = screen.resize(60, 20)
    assert not screen.fits
    term = pyte.Screen(60, 20)
    pyte.Stream(term).feed(out)
    text = "\n".join(term.display)
    assert too_small_message(60, 20) == "terminal too small: need 80x24, have 60x20"
    assert too_small_message(60, 20) in text
    assert "Ctrl-C quits" in text
    tiny = Screen(truecolor=True)
    pyte.Stream(pyte.Screen(10, 2)).feed(tiny.resize(10, 2))  # clipped, never wrapped or scrolled
    small = pyte.Screen(20, 10)
    pyte.Stream(small).feed(Screen(truecolor=True).resize(20, 10))
    said = " ".join(" ".join(small.display).split())
    assert "terminal too small: need 80x24, have 20x10" in said and "Ctrl-C quits." in said  # wrapped, not cut


def test_the_game_in_a_larger_terminal_is_centred(
    content: Content, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    screen = Screen(truecolor=False)
    out = screen.resize(100, 60)
    stack = play_stack(content, PlayOptions(seed=7))
    console = new_console()
    stack.draw(console)
    out += screen.frame(console)
    assert out.count(app.SYNC_BEGIN) == 1 and out.endswith(app.SYNC_END)  # a big frame is shown at once
    term = pyte.Screen(100, 60)
    pyte.Stream(term).feed(out)
    status = next(i for i, line in enumerate(term.display) if "HP " in line)
    assert status == 44 + 5  # the title's row and the level's 43, in a 50-row game centred in 60
    assert term.display[status].startswith(" " * 10 + " HP ")
    assert screen.frame(console) == ""  # nothing changed: nothing sent


def test_run_in_process(content: Content, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole loop on a fake terminal: new game, a step east, back to the title, quit."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    term = FakeTerm()
    term.ungetch("n")  # title: new game
    assert run(term.open(), lambda: play_stack(content), max_frames=2) == 0
    written = term.out.getvalue()
    assert written.startswith(term.enter_fullscreen)
    assert written.endswith(term.exit_fullscreen)
    assert term.normal_cursor in written and term.hide_cursor in written
    screen = pyte.Screen(80, 50)
    pyte.Stream(screen).feed(written)
    assert any("HP " in line for line in screen.display)


def test_run_exits_with_the_scene_code(content: Content, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    term = FakeTerm()
    term.ungetch("q")  # title: quit
    assert loop.play(term.open(), content) == 0
    assert term.out.getvalue().endswith(term.exit_fullscreen)


def test_a_crash_restores_the_terminal(content: Content) -> None:
    term = FakeTerm()

    def broken() -> SceneStack:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        run(term.open(), broken)
    written = term.out.getvalue()
    assert written.startswith(term.enter_fullscreen) and written.endswith(term.exit_fullscreen)
    assert written.rfind(term.normal_cursor) > written.rfind(term.hide_cursor)


def test_a_terminal_that_is_not_utf8_gets_question_marks() -> None:
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="latin-1")
    tty = app._Terminal(FakeTerm())
    tty.stream = stream
    tty.write("a\u2500b\u00b7")
    assert raw.getvalue() == b"a?b\xb7"


def test_watch_a_recording_in_the_terminal(content: Content, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Play steps (recorded as any game is), then watch the recording: the window's replay scene, the same loop."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    term = FakeTerm()
    term.ungetch("hjklyubnhjkl")
    assert loop.play(term.open(), content, PlayOptions(seed=11), max_frames=2) == 0  # the keys are one batch
    saves = sorted(tmp_path.rglob("*.jsonl"))
    assert len(saves) == 1
    from undercroft.record import load_recording

    assert load_recording(saves[0]).turns >= 2
    term = FakeTerm()
    term.ungetch("..")  # two steps
    assert loop.watch(term.open(), content, saves[0], loop.WatchOptions(paused=True), max_frames=2) == 0
    screen = pyte.Screen(80, 50)
    pyte.Stream(screen).feed(term.out.getvalue())
    assert "REPLAY  turn 2/" in screen.display[0]
    assert any("HP " in line for line in screen.display)
    term = FakeTerm()
    term.ungetch("q")
    assert loop.watch(term.open(), content, saves[0], loop.WatchOptions(paused=True)) == 0


def test_keys_of_a_hidden_game_do_nothing_until_it_fits_again(
    content: Content, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Too small: the notice, the keys typed meanwhile dropped; enlarged: the game, and keys move again."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    term = FakeTerm(60, 20)
    stack = play_stack(content, PlayOptions(seed=11))
    session = stack.scenes[0].session  # type: ignore[attr-defined]
    with TerminalFrontEnd.open(term=term) as frontend:
        lp = loop.Loop(frontend, stack)
        lp.draw()
        assert not lp.fits
        term.ungetch("hjkl")
        lp.wait()
        assert session.game.state.turn == 0  # nothing happened behind the notice
        term._size = (80, 50)
        assert list(frontend.events(0.0)) == [
            tcod.event.WindowResized(type="WindowResized", window_id=0, data=(80, 50))
        ]
        lp.draw()
        assert lp.fits
        term.ungetch("hjklhjkl")
        lp.wait()
        assert session.game.state.turn >= 1
    assert too_small_message(60, 20) in term.out.getvalue()


# --- the mouse ---------------------------------------------------------------------------------------------------

MOUSE_ON = "\x1b[?1006h\x1b[?1003h"
MOUSE_OFF = "\x1b[?1003l\x1b[?1006l"


def test_the_mouse_codes() -> None:
    assert app.mouse_codes(True) == MOUSE_ON
    assert app.mouse_codes(False) == MOUSE_OFF
    assert app.mouse_wanted({}) and app.mouse_wanted({"UNDERCROFT_NO_MOUSE": "0"})
    assert not app.mouse_wanted({"UNDERCROFT_NO_MOUSE": "1"})
    tty = app._Terminal(FakeTerm())
    assert "\x1b[?1003h" in tty._enter_codes() and "\x1b[?1006h" in tty._enter_codes()  # back from Ctrl-Z
    assert "\x1b[?1003l" in tty._leave_codes() and "\x1b[?1006l" in tty._leave_codes()  # Ctrl-Z
    off = app._Terminal(FakeTerm(), mouse=False)
    assert "?1003" not in off._enter_codes() + off._leave_codes()
    assert "?1006" not in off._enter_codes() + off._leave_codes()


def test_the_mouse_is_on_while_the_game_runs(content: Content, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("UNDERCROFT_NO_MOUSE", raising=False)
    term = FakeTerm()
    term.ungetch("q")
    assert loop.play(term.open(), content) == 0
    written = term.out.getvalue()
    on, off = written.find(MOUSE_ON), written.rfind(MOUSE_OFF)
    assert written.find(term.enter_fullscreen) < on < off < written.rfind(term.exit_fullscreen)
    assert written.count(MOUSE_ON) == 1
    monkeypatch.setenv("UNDERCROFT_NO_MOUSE", "1")
    term = FakeTerm()
    term.ungetch("q")
    assert loop.play(term.open(), content) == 0
    assert "\x1b[?1003" not in term.out.getvalue() and "\x1b[?1006" not in term.out.getvalue()
    term.ungetch("\x1b[<0;11;6M")  # not decoded as a mouse report: no mouse event
    with TerminalFrontEnd.open(term=term) as frontend:
        assert not any(isinstance(e, tcod.event.MouseButtonDown) for e in frontend.events(0.0))


def test_a_crash_turns_the_mouse_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("UNDERCROFT_NO_MOUSE", raising=False)
    term = FakeTerm()

    def broken() -> SceneStack:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        run(term.open(), broken)
    written = term.out.getvalue()
    assert written.rfind(MOUSE_OFF) > written.rfind(MOUSE_ON) >= 0
    assert written.endswith(term.exit_fullscreen)


def _mouse_frontend_events(cols: int, rows: int, data: str) -> list[tcod.event.Event]:
    """The events of the input ``data`` on a ``cols`` x ``rows`` terminal with mouse on, after a first frame."""
    term = FakeTerm(cols, rows)
    with TerminalFrontEnd.open(term=term, mouse=True) as frontend:
        frontend.size()
        frontend.present(new_console())
        term.ungetch(data)
        return list(frontend.events(0.0))


def test_mouse_events_in_the_console_tiles() -> None:
    """80x50: the console at the corner; 100x55: centred at (10, 2), which is taken off."""
    (down,) = _mouse_frontend_events(80, 50, "\x1b[<0;11;6M")
    assert isinstance(down, tcod.event.MouseButtonDown)
    assert down.button == tcod.event.MouseButton.LEFT and down.position == (10, 5)
    down, up = _mouse_frontend_events(100, 55, "\x1b[<0;21;8M\x1b[<0;21;8m")
    assert isinstance(down, tcod.event.MouseButtonDown) and down.position == (10, 5)
    assert isinstance(up, tcod.event.MouseButtonUp) and up.position == (10, 5)
    (wheel,) = _mouse_frontend_events(100, 55, "\x1b[<65;11;3M")
    assert isinstance(wheel, tcod.event.MouseWheel) and wheel.y == -1 and wheel.position == (0, 0)
    # In the margins around the centred console: dropped.
    assert _mouse_frontend_events(100, 55, "\x1b[<0;10;8M\x1b[<0;91;8M\x1b[<0;21;2M\x1b[<35;21;53M") == []
    # Too small: the notice is shown, the game is not, and clicks on it do nothing.
    assert _mouse_frontend_events(60, 20, "\x1b[<0;11;6M\x1b[<35;2;2M") == []


def test_a_burst_of_moves_is_its_last() -> None:
    events = _mouse_frontend_events(80, 50, "".join(f"\x1b[<35;{x};6M" for x in range(1, 31)))
    assert len(events) == 1 and isinstance(events[0], tcod.event.MouseMotion) and events[0].position == (29, 5)
    # Moves around a key or a click keep their order: each run of moves becomes its last move.
    events = _mouse_frontend_events(80, 50, "\x1b[<35;1;1M\x1b[<35;2;1Mx\x1b[<35;3;1M\x1b[<0;3;1M\x1b[<35;4;1M")
    assert [type(e).__name__ for e in events] == [
        "MouseMotion",
        "KeyDown",
        "MouseMotion",
        "MouseButtonDown",
        "MouseMotion",
    ]
    assert [e.position for e in events if isinstance(e, tcod.event.MouseMotion)] == [(1, 0), (2, 0), (3, 0)]


def test_hover_and_click_in_the_game(content: Content, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The scenes get the terminal's mouse as the window's: a hover describes a tile, a click travels."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    term = FakeTerm(100, 55)
    stack = play_stack(content, PlayOptions(seed=3))
    session = stack.scenes[0].session  # type: ignore[attr-defined]
    with TerminalFrontEnd.open(term=term, mouse=True) as frontend:
        lp = loop.Loop(frontend, stack)
        lp.draw()
        screen = pyte.Screen(100, 55)
        stream = pyte.Stream(screen)

        def show() -> None:  # what was written since the last look
            stream.feed(term.out.getvalue())
            term.out.seek(0)
            term.out.truncate()

        show()
        at = next((x, y) for y, line in enumerate(screen.display) if (x := line.find("@")) >= 0)
        # A floor tile two steps east or west of the delver, in terminal cells.
        target = next((at[0] + dx, at[1]) for dx in (2, -2, 3, -3) if screen.display[at[1]][at[0] + dx] == "\u00b7")
        term.ungetch(f"\x1b[<35;{target[0] + 1};{target[1] + 1}M")
        lp.wait()
        lp.draw()
        show()
        assert "Floor" in screen.display[0]  # the top row: the console is the whole terminal
        term.ungetch(f"\x1b[<0;{target[0] + 1};{target[1] + 1}M\x1b[<0;{target[0] + 1};{target[1] + 1}m")
        for _ in range(50):  # the trip takes a step a tick
            lp.wait()
            lp.draw()
            show()
            if screen.display[target[1]][target[0]] == "@":
                break
        assert screen.display[target[1]][target[0]] == "@"
        assert session.game.state.turn >= 2


# --- a key held down, told from keys typed ahead -----------------------------------------------------------------


class TimedTerm(FakeTerm):
    """A fake terminal whose keys come at set times on a clock of its own (``now``): a read finds those already
    come, or waits (moving the clock on) for the next one within its timeout."""

    def __init__(self, presses: list[tuple[float, str]], start: float = 0.0) -> None:
        super().__init__()
        self.presses = sorted(presses)
        self.now = start

    def inkey(self, timeout: float | None = None, esc_delay: float = 0.35, capture_cpr: bool = False) -> Keystroke:
        if self.presses and self.presses[0][0] <= self.now + (timeout or 0.0):
            self.now = max(self.now, self.presses[0][0])
            return Keystroke(self.presses.pop(0)[1])
        self.now += timeout or 0.0
        return Keystroke("")


def _repeats(term: TimedTerm, frontend: TerminalFrontEnd, busy: float) -> list[bool]:
    """The game busy for ``busy`` seconds (a frame, a key handled), then one read: each key's ``repeat``."""
    term.now += busy
    return [e.repeat for e in frontend.events(None) if isinstance(e, tcod.event.KeyDown)]


def _timed(presses: list[tuple[float, str]], start: float = -0.05) -> tuple[TimedTerm, TerminalFrontEnd]:
    term = TimedTerm(presses, start)
    frontend = TerminalFrontEnd(term, mouse=False)
    frontend.clock = lambda: term.now
    return term, frontend


def test_keys_typed_while_the_game_is_busy_are_never_a_held_key() -> None:
    """j pressed by hand 0.3 s apart while a frame took a second: read back to back, yet none is a repeat (a held
    key's repeats are swallowed on a new screen); nor is a j pressed just after them, 40 ms after they were read."""
    term, frontend = _timed([(0.0, "j"), (0.3, "j"), (0.6, "j"), (0.9, "j"), (1.04, "j")])
    assert _repeats(term, frontend, 0.0) == [False]
    assert _repeats(term, frontend, 1.0) == [False, False, False]
    assert _repeats(term, frontend, 0.005) == [False]


def test_a_key_held_down_is_still_a_held_key() -> None:
    """The terminal's auto-repeat (a j every 35 ms): every j after the first is a repeat, read one by one as they
    come, or behind slower frames (30 ms), or several at a time behind a frame slower still."""
    term, frontend = _timed([(i * 0.035, "j") for i in range(30)])
    seen = [r for _ in range(6) for r in _repeats(term, frontend, 0.005)]
    assert seen == [False] + [True] * 5
    seen = [r for _ in range(6) for r in _repeats(term, frontend, 0.03)]
    assert len(seen) >= 5 and all(seen)
    # Five come behind a frame of 0.2 s: the first two might have been typed, but not five that fast.
    assert _repeats(term, frontend, 0.2) == [False, False, True, True, True]
    term.presses.clear()  # let go
    assert _repeats(term, frontend, 0.5) == []
    term.presses.append((term.now + 0.05, "j"))
    assert _repeats(term, frontend, 0.0) == [False]  # pressed afresh
