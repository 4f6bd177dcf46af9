"""The terminal front end for real: ``undercroft play`` under a pseudo-terminal, its screen read by pyte.

Each test starts the game in a pty of a given size, feeds everything it writes into a ``pyte.Screen`` and types
keys into it. Every wait has a deadline, and a game still running at the end of a test is killed.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pyte = pytest.importorskip("pyte")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")

TIMEOUT = 15.0  # seconds for any one thing to appear on the screen


class _AnsweringScreen(pyte.Screen):  # type: ignore[misc,name-defined]
    """A pyte screen that answers the terminal's reports (cursor position, device attributes), as a real one does:
    blessed asks when it starts and waits for the answer."""

    answer: Callable[[str], object] = staticmethod(lambda text: None)

    def write_process_input(self, data: str) -> None:
        self.answer(data)


class PtyGame:
    """``python -m undercroft ARGS`` in a pseudo-terminal of ``cols`` x ``rows``."""

    def __init__(
        self, args: list[str], home: Path, cols: int = 80, rows: int = 50, env: dict[str, str] | None = None
    ) -> None:
        self.screen = _AnsweringScreen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.status: int | None = None
        environ = {
            k: v
            for k, v in os.environ.items()
            if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "COLORTERM", "ESCDELAY")
        }
        environ.update(
            TERM="xterm-256color",
            HOME=str(home),
            XDG_DATA_HOME=str(home / "data"),
            XDG_CONFIG_HOME=str(home / "config"),
            LANG="C.UTF-8",
            LC_ALL="C.UTF-8",
            ESCDELAY="50",
        )
        environ.update(env or {})
        pid, fd = pty.fork()
        if pid == 0:  # the child: the pty is its controlling terminal and its stdin, stdout and stderr
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
                # A terminal's signals as a shell in a terminal gives them, whatever this process inherited (a
                # background job of a script ignores SIGINT and SIGQUIT, and Python keeps an ignored SIGINT so).
                for sig in (signal.SIGINT, signal.SIGQUIT, signal.SIGTSTP, signal.SIGHUP):
                    signal.signal(sig, signal.SIG_DFL)
                os.execve(sys.executable, [sys.executable, "-m", "undercroft", *args], environ)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.screen.answer = lambda text: os.write(fd, text.encode())

    def pump(self, seconds: float) -> None:
        """Read what the game writes for up to ``seconds``."""
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                return
            try:
                data = os.read(self.fd, 65536)
            except OSError:  # EIO: the game has exited and closed the pty
                self.poll()
                return
            if not data:
                return
            self.raw += data
            self.stream.feed(data)

    def wait_for(self, what: str, ok: Callable[[], bool], timeout: float = TIMEOUT) -> None:
        end = time.monotonic() + timeout
        while not ok():
            if time.monotonic() > end or self.poll() is not None:
                self.pump(0.2)
                if ok():
                    return
                pytest.fail(f"timed out waiting for {what}; exit status {self.status}; screen:\n{self.text()}")
            self.pump(0.1)

    def send(self, data: bytes) -> None:
        os.write(self.fd, data)

    def resize(self, cols: int, rows: int) -> None:
        fcntl.ioctl(self.fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.screen.resize(rows, cols)

    def lines(self) -> list[str]:
        return list(self.screen.display)

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.lines())

    def find(self, glyph: str, rows: int = 43) -> tuple[int, int] | None:
        """(x, y) of ``glyph`` in the map area (the top ``rows`` rows)."""
        for y, line in enumerate(self.lines()[:rows]):
            x = line.find(glyph)
            if x >= 0:
                return x, y
        return None

    def poll(self) -> int | None:
        if self.status is None:
            pid, st = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(st)
        return self.status

    def wait_exit(self, timeout: float = TIMEOUT) -> int:
        end = time.monotonic() + timeout
        while self.poll() is None:
            if time.monotonic() > end:
                pytest.fail(f"the game did not exit; screen:\n{self.text()}")
            self.pump(0.1)
        self.pump(0.2)  # the last bytes written before it exited
        assert self.status is not None
        return self.status

    def tty_modes(self) -> tuple[bool, bool]:
        """(canonical input, echo) of the pty now."""
        lflag = termios.tcgetattr(self.fd)[3]
        return bool(lflag & termios.ICANON), bool(lflag & termios.ECHO)

    def close(self) -> None:
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)


@pytest.fixture
def game(tmp_path: Path) -> Iterator[Callable[..., PtyGame]]:
    started: list[PtyGame] = []

    def start(*args: str, **kw: object) -> PtyGame:
        g = PtyGame(list(args), tmp_path, **kw)  # type: ignore[arg-type]
        started.append(g)
        return g

    yield start
    for g in started:
        g.close()


def _restored(g: PtyGame) -> None:
    """The terminal is as it was: main screen, cursor shown, cooked mode, colours reset."""
    raw = bytes(g.raw)
    assert raw.rfind(b"\x1b[?1049l") > raw.rfind(b"\x1b[?1049h") >= 0, "the alternate screen was not left"
    assert raw.rfind(b"\x1b[?25h") > raw.rfind(b"\x1b[?25l") >= 0, "the cursor was left hidden"
    assert not g.screen.cursor.hidden
    assert g.tty_modes() == (True, True), "the terminal was left in cbreak mode"


def _in_game(g: PtyGame) -> None:
    g.wait_for("the status bar and the delver", lambda: "HP " in g.text() and g.find("@") is not None)


@pytest.mark.slow
def test_play_in_a_terminal_moves_and_quits(game: Callable[..., PtyGame]) -> None:
    g = game("play", "--terminal", "--seed", "1")
    _in_game(g)
    status = next(line for line in g.lines() if "HP " in line)
    assert "Seed 1" in status and "Turn 0" in status
    assert "Level 1" in g.text()
    start = g.find("@")
    # Step in some direction that is open: vi-keys, then arrows. The delver moves on the screen.
    for key in (b"l", b"h", b"j", b"k", b"\x1b[C", b"\x1b[D", b"\x1b[B", b"\x1b[A"):
        g.send(key)
        with contextlib.suppress(BaseException):
            g.wait_for("a step", lambda: g.find("@") not in (start, None), timeout=1.5)
        if g.find("@") not in (start, None):
            break
    moved = g.find("@")
    assert moved is not None and moved != start, g.text()
    assert start is not None and abs(moved[0] - start[0]) + abs(moved[1] - start[1]) == 1
    assert "Turn 1" in g.text()
    # Quit: Esc (the pause menu), t to the title screen, then q.
    g.send(b"\x1b")  # Esc pauses; t goes to the title
    g.wait_for("the pause menu", lambda: "Paused" in g.text())
    g.send(b"t")
    g.wait_for("the title screen", lambda: "[q] Quit" in g.text())
    g.send(b"q")
    assert g.wait_exit() == 0
    _restored(g)


@pytest.mark.slow
def test_title_enter_help_and_numpad(game: Callable[..., PtyGame]) -> None:
    g = game("play", "--terminal")
    g.wait_for("the title screen", lambda: "[n] New game" in g.text() and "[q] Quit" in g.text())
    g.send(b"\r")  # Enter: a new game with the seed shown
    _in_game(g)
    g.send(b"?")
    g.wait_for("the help screen", lambda: "Help" in g.text() and "Exploring" in g.text())
    g.send(b"x")
    g.wait_for("the map again", lambda: g.find("@") is not None and "Exploring" not in g.text())
    start = g.find("@")
    # The numpad in keypad mode: ESC O x (8), ESC O r (2), ESC O t (4), ESC O v (6).
    for key in (b"\x1bOv", b"\x1bOt", b"\x1bOr", b"\x1bOx"):
        g.send(key)
        with contextlib.suppress(BaseException):
            g.wait_for("a step", lambda: g.find("@") not in (start, None), timeout=1.5)
        if g.find("@") not in (start, None):
            break
    assert g.find("@") not in (start, None), g.text()


@pytest.mark.slow
def test_ctrl_c_restores_the_terminal(game: Callable[..., PtyGame]) -> None:
    """No display and a terminal: plain ``play`` picks the terminal by itself. Ctrl-C leaves cleanly."""
    g = game("play", "--seed", "1")
    _in_game(g)
    g.send(b"\x03")
    assert g.wait_exit() == 130
    _restored(g)
    assert "interrupted" in g.text()


@pytest.mark.slow
def test_ctrl_backslash_restores_the_terminal_and_lets_go_of_the_save(
    game: Callable[..., PtyGame], tmp_path: Path
) -> None:
    """Ctrl-\\ (SIGQUIT) in ``play --terminal``: no core dump and a broken terminal, but the way out of Ctrl-C."""
    g = game("play", "--terminal", "--seed", "1")
    _in_game(g)
    saves = tmp_path / "data" / "undercroft" / "saves"
    assert len(list(saves.glob("*.lock"))) == 1
    g.send(b"\x1c")
    assert g.wait_exit() == 131
    _restored(g)
    assert list(saves.glob("*.lock")) == [] and len(list(saves.glob("*.jsonl"))) == 1


@pytest.mark.slow
def test_too_small_then_resized(game: Callable[..., PtyGame]) -> None:
    g = game("play", "--terminal", "--seed", "1", cols=60, rows=20)
    g.wait_for("the size notice", lambda: "terminal too small: need 80x24, have 60x20" in g.text())
    g.send(b"l")  # ignored while the game cannot be seen
    g.resize(100, 55)
    os.kill(g.pid, signal.SIGWINCH)
    _in_game(g)
    assert "too small" not in g.text()
    # Laid out for the larger terminal: the title's row and the whole level (43 rows, centred 10 columns in), the
    # status bar under it, 10 rows of log.
    status_row = next(i for i, line in enumerate(g.lines()) if "HP " in line)
    assert status_row == 44
    assert g.lines()[status_row].startswith(" HP ")
    assert "Turn 0" in g.lines()[status_row]
    assert "@" in "".join(line[10:90] for line in g.lines()[1:44])
    g.send(b"\x03")
    assert g.wait_exit() == 130
    _restored(g)


@pytest.mark.slow
def test_terminal_flag_without_a_terminal_is_a_clear_error(tmp_path: Path) -> None:
    import subprocess

    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env.update(HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path / "data"))
    proc = subprocess.run(
        [sys.executable, "-m", "undercroft", "play", "--terminal", "--seed", "1"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        "undercroft: --terminal needs a terminal: standard input and output must both be a TTY"
    )
    assert proc.stdout == ""


@pytest.mark.slow
def test_replay_watch_in_a_terminal(game: Callable[..., PtyGame], tmp_path: Path) -> None:
    """Record a short game (played in the terminal), then watch it with ``replay FILE --watch --terminal``."""
    g = game("play", "--terminal", "--seed", "5")
    _in_game(g)
    for key in (b"l", b"j", b"h", b"k", b"y", b"u", b"b", b"n"):
        g.send(key)
        g.pump(0.15)
    g.send(b"\x1b")  # Esc pauses; t goes to the title
    g.wait_for("the pause menu", lambda: "Paused" in g.text())
    g.send(b"t")
    g.wait_for("the title screen", lambda: "[q] Quit" in g.text())
    g.send(b"q")
    assert g.wait_exit() == 0
    saves = sorted((tmp_path / "data").rglob("*.jsonl"))
    assert len(saves) == 1
    w = game("replay", str(saves[0]), "--watch", "--terminal")
    w.wait_for("the replay bar", lambda: "REPLAY" in w.lines()[0] and "HP " in w.text())
    w.send(b" ")  # pause (or play, if it had reached the end: either way the bar says so)
    w.wait_for("a paused or finished replay", lambda: "paused" in w.lines()[0] or " end " in w.lines()[0])
    w.send(b"q")
    assert w.wait_exit() == 0
    _restored(w)
