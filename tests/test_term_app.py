"""The terminal loop in-process: choosing the front end, the size notice, centring, the restore codes."""

from __future__ import annotations

import io
from pathlib import Path

import blessed
import pyte
import pytest

from undercroft.content import Content, load_content
from undercroft.term import app
from undercroft.term.app import Screen, has_display, play_stack, run, too_small_message, use_terminal


@pytest.fixture(scope="module")
def content(shipped_data: Path) -> Content:
    return load_content(shipped_data)


class FakeTerm(blessed.Terminal):  # type: ignore[misc]
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


def test_too_small_notice() -> None:
    screen = Screen(truecolor=True)
    out = screen.resize(60, 20)
    assert not screen.fits
    term = pyte.Screen(60, 20)
    pyte.Stream(term).feed(out)
    text = "\n".join(term.display)
    assert too_small_message(60, 20) == "terminal too small: need 80x50, have 60x20"
    assert too_small_message(60, 20) in text
    assert "Ctrl-C quits" in text
    tiny = Screen(truecolor=True)
    pyte.Stream(pyte.Screen(10, 2)).feed(tiny.resize(10, 2))  # clipped, never wrapped or scrolled


def test_the_game_in_a_larger_terminal_is_centred(content: Content, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    from undercroft.ui.app import new_console

    screen = Screen(truecolor=False)
    out = screen.resize(100, 60)
    stack = play_stack(content, seed=7)
    out += screen.frame(stack, new_console())
    assert out.count(app.SYNC_BEGIN) == 1 and out.endswith(app.SYNC_END)  # a big frame is shown at once
    term = pyte.Screen(100, 60)
    pyte.Stream(term).feed(out)
    status = next(i for i, line in enumerate(term.display) if "HP " in line)
    assert status == 43 + 5
    assert term.display[status].startswith(" " * 10 + " HP ")
    assert screen.frame(stack, new_console()) == ""  # nothing changed: nothing sent


def test_run_in_process(content: Content, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole loop on a fake terminal: new game, a step east, back to the title, quit."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    term = FakeTerm()
    term.ungetch("n")  # title: new game
    assert run(lambda: play_stack(content), term=term, max_frames=2) == 0
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
    assert run(lambda: play_stack(content), term=term) == 0
    assert term.out.getvalue().endswith(term.exit_fullscreen)


def test_a_crash_restores_the_terminal(content: Content) -> None:
    term = FakeTerm()

    def broken() -> app.SceneStack:
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        run(broken, term=term)
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


def test_watch_a_recording_in_the_terminal(content: Content, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Play three steps (recorded as any game is), then watch the recording: the window's replay scene."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path))
    term = FakeTerm()
    term.ungetch("hjklyubnhjkl")
    assert run(lambda: play_stack(content, seed=11), term=term, max_frames=2) == 0  # the keys are one batch
    saves = sorted(tmp_path.rglob("*.jsonl"))
    assert len(saves) == 1
    from undercroft.record import load_recording

    assert load_recording(saves[0]).turns >= 2
    term = FakeTerm()
    term.ungetch("..")  # two steps
    monkeypatch.setattr(app, "run", lambda make, term: run(make, term=term, max_frames=2))
    assert app.watch(content, saves[0], paused=True, term=term) == 0
    screen = pyte.Screen(80, 50)
    pyte.Stream(screen).feed(term.out.getvalue())
    assert "REPLAY  turn 2/" in screen.display[0]
    assert any("HP " in line for line in screen.display)
    term = FakeTerm()
    term.ungetch("q")
    assert app.watch(content, saves[0], paused=True, term=term) == 0
