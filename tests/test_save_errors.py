"""Write failures as the player sees them (a recorder that cannot write: a line in the log, the title told of
what was lost), Continue on a save made with another setup (the differences, a new branch or watching), a new game
that cannot be saved, and a terminal that goes away (quiet, status 129, no traceback)."""

from __future__ import annotations

import errno
import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path
from typing import Any

import pytest
from engine_helpers import content
from tcod.event import KeySym
from ui_helpers import Driver, isolate_user_data, names, press, screen

from undercroft import record
from undercroft.record import saves
from undercroft.rules.actions import Action, Rest
from undercroft.rules.game import Game
from undercroft.ui.scenes import SceneStack, TitleScene, game_stack
from undercroft.ui.session import Session

SRC = Path(__file__).resolve().parents[1] / "src"


@pytest.fixture
def user(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    return isolate_user_data(monkeypatch, tmp_path)


class FakeRecorder:
    """A recorder whose disk is full when the test says so (the attributes of record.Recorder's write errors)."""

    def __init__(self) -> None:
        self.path = Path("fake.jsonl")
        self.error: str | None = None
        self.pending = 0
        self.disk_full = False
        self.closed = False

    def record(self, action: Action, game: Game) -> None:
        if self.disk_full:
            self.pending += 1
            self.error = "No space left on device"
        else:  # as record.Recorder: the lines held are written first, once the disk allows
            self.flush_pending()

    def finish(self, game: Game) -> None:
        pass

    def flush_pending(self) -> bool:
        if self.disk_full:
            return False
        self.pending, self.error = 0, None
        return True

    def close(self) -> None:
        self.closed = True


def fake_session() -> tuple[Session, FakeRecorder]:
    rec = FakeRecorder()
    s = Session(content(), Game(content(), "undercroft", 4), rec, path=None)  # type: ignore[arg-type]
    return s, rec


def bad_lines(s: Session) -> list[str]:
    return [t for t, kind in s.log.lines if kind == "bad" and "saved" in t]


def test_a_write_failure_is_told_once_then_saved_again() -> None:
    s, rec = fake_session()
    s.act(Rest())
    assert s.save_problem() == ""
    rec.disk_full = True
    s.act(Rest())
    s.act(Rest())
    assert s.save_problem() == (
        "Not saved: No space left on device (2 actions waiting; they are saved as soon as the disk allows)"
    )
    assert bad_lines(s) == [
        "Your game could not be saved: No space left on device. It goes on: what you do is kept "
        "and saved as soon as the disk allows."
    ]  # once, not per action
    rec.disk_full = False
    assert rec.flush_pending()
    s.act(Rest())
    assert s.save_problem() == "" and s.log.lines[-1] == ("Saved again.", "good")
    s.close()
    assert rec.closed and s.unsaved == ""


def test_the_status_bar_says_not_saved_while_the_disk_is_full() -> None:
    s, rec = fake_session()
    d = Driver(SceneStack(game_stack(s)), size=(80, 24))
    assert "NOT SAVED" not in screen(d)
    rec.disk_full = True
    s.act(Rest())
    bar = next(line for line in screen(d).splitlines() if "HP " in line)
    assert "NOT SAVED" in bar
    press(d, KeySym.SEMICOLON)  # the look draws its own bar beside its panel: the flag stays on it
    assert names(d)[-1] == "LookScene"
    assert "NOT SAVED" in next(line for line in screen(d).splitlines() if "Gold " in line)
    press(d, KeySym.ESCAPE)
    rec.disk_full = False
    s.act(Rest())
    assert "NOT SAVED" not in screen(d)


def test_quitting_with_actions_not_saved_tells_the_title(user: Path) -> None:
    s, rec = fake_session()
    rec.disk_full = True
    for _ in range(3):
        s.act(Rest())
    d = Driver(SceneStack(game_stack(s)))
    press(d, KeySym.ESCAPE, KeySym.T)  # back to the title? first asked what becomes of the 3 actions
    assert names(d)[-1] == "ChoiceScene" and "3 actions of this game are not in its save" in screen(d)
    press(d, KeySym.D)  # leave without them: the game left is closed
    assert names(d) == ["TitleScene"] and rec.closed
    text = " ".join(screen(d).split())
    assert "3 actions of your last game could not be saved (No space left on device): left behind" in text


def test_a_new_game_that_cannot_be_saved(user: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(*args: Any, **kw: Any) -> Any:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(record.Recorder, "create", full)
    d = Driver(SceneStack([TitleScene(content(), seed=7)]))
    press(d, KeySym.N)
    assert names(d) == ["TitleScene"]
    assert "Cannot create the save file: No space left on device" in " ".join(screen(d).split())
    assert list((user / "saves").glob("*")) == []  # no lock file left either


def _game(ruleset: str = "undercroft", seed: int = 21) -> Path:
    s = Session.new(content(), ruleset, seed)
    s.act(Rest())
    s.act(Rest())
    s.close()
    assert s.path is not None
    return s.path


def _differ(monkeypatch: pytest.MonkeyPatch) -> None:
    def compatibility(header: record.Header, data_digest: str) -> list[str]:
        return [f"rules data: recorded with {header.data_digest[:8]}, this data is other", "numpy 1.0 → 2.0"]

    monkeypatch.setattr(record, "compatibility", compatibility, raising=False)


def test_continue_with_differences_offers_a_branch(user: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _game()
    before = path.read_bytes()
    _differ(monkeypatch)
    d = Driver(SceneStack([TitleScene(content(), seed=7)]))
    press(d, KeySym.C)
    assert names(d) == ["TitleScene", "ChoiceScene"]
    text = screen(d)
    assert "Saved with a different setup" in text and "rules data: recorded with" in text and "numpy 1.0" in text
    assert "Go on as a new branch" in text and "Watch it" in text
    press(d, KeySym.G)
    assert names(d)[0] == "ExploreScene"
    session = d.scenes[0].session  # type: ignore[attr-defined]
    assert session.path != path and session.game.state.turn == 2
    assert any("A new branch of " + path.name in t for t, _ in session.log.lines)
    session.close()
    assert path.read_bytes() == before  # the old save is kept as it was


def test_a_save_this_version_no_longer_replays_offers_a_branch(user: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Played: an engine change made a save desync at turn 818, and the title said only "Cannot continue". It
    offers a new branch (repeating its actions up to the last turn that replays), or watching it."""
    path = _game()
    before = path.read_bytes()

    def desync(cls: type[Session], content: Any, p: Path) -> Session:
        raise record.Desync(1, Rest(), ["refused: not_now"])

    monkeypatch.setattr(Session, "resume", classmethod(desync))
    d = Driver(SceneStack([TitleScene(content(), seed=7)]))
    press(d, KeySym.C)
    assert names(d) == ["TitleScene", "ChoiceScene"]
    text = " ".join(screen(d).split())
    assert "does not replay here from turn 1 (desync at turn 1 (action rest): differs in refused: not_now)" in text
    assert "new branch from turn 0, the last that replays" in text
    press(d, KeySym.G)
    session = d.scenes[0].session  # type: ignore[attr-defined]
    assert names(d)[0] == "ExploreScene" and session.path != path and session.game.state.turn == 0
    session.close()
    assert path.read_bytes() == before  # the old save is kept as it was


def test_continue_with_differences_may_watch(user: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _game()
    _differ(monkeypatch)
    d = Driver(SceneStack([TitleScene(content(), seed=7)]))
    press(d, KeySym.C)
    press(d, KeySym.W)
    assert names(d) == ["TitleScene", "WatchScene"]
    press(d, KeySym.ESCAPE)
    assert names(d) == ["TitleScene"]


def test_continue_without_differences_goes_on(user: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = _game()
    monkeypatch.setattr(record, "compatibility", lambda header, digest: [], raising=False)
    d = Driver(SceneStack([TitleScene(content(), seed=7)]))
    press(d, KeySym.C)
    assert names(d)[0] == "ExploreScene" and d.scenes[0].session.path == path  # type: ignore[attr-defined]
    d.scenes[0].session.close()  # type: ignore[attr-defined]


def test_the_list_reads_the_header_when_continuing(user: Path) -> None:
    path = _game()
    (g,) = saves.unfinished(content=content())
    header = saves.header_of(g.path)
    assert header is not None and header.seed == g.seed and g.open_pid is None and g.path == path


# --- the terminal going away ---------------------------------------------------------------------------------


def _start(tmp_path: Path, controlling: bool) -> tuple[subprocess.Popen[bytes], int]:
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    env.update(
        TERM="xterm-256color",
        HOME=str(home),
        XDG_DATA_HOME=str(home / "data"),
        XDG_CONFIG_HOME=str(home / "config"),
        LANG="C.UTF-8",
        LC_ALL="C.UTF-8",
        PYTHONPATH=str(SRC),
    )
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, 80, 0, 0))

    def take_tty() -> None:
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    p = subprocess.Popen(
        [sys.executable, "-m", "undercroft", "play", "--terminal", "--seed", "1"],
        stdin=slave,
        stdout=slave,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,
        preexec_fn=take_tty if controlling else None,
    )
    os.close(slave)
    seen = b""
    end = time.monotonic() + 20
    while time.monotonic() < end and b"HP " not in seen:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            data = os.read(master, 65536)
            seen += data
            if b"\x1b[6n" in data:  # blessed asks where the cursor is
                os.write(master, b"\x1b[1;1R")
    assert b"HP " in seen, "the game did not start"
    return p, master


def _ended_quietly(p: subprocess.Popen[bytes]) -> None:
    try:
        status = p.wait(15)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        pytest.fail("the game did not end when its terminal went away")
    assert p.stderr is not None
    err = p.stderr.read().decode(errors="replace")
    assert status == 129 and "Traceback" not in err and err.strip() == "", err


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
@pytest.mark.parametrize("controlling", [True, False], ids=["hangup", "eio"])
def test_closing_the_terminal_ends_the_game_quietly(tmp_path: Path, controlling: bool) -> None:
    p, master = _start(tmp_path, controlling)
    os.close(master)  # the terminal window closed: SIGHUP (its controlling terminal) or EIO on the next read
    _ended_quietly(p)
    saved = list((tmp_path / "home" / "data" / "undercroft" / "saves").glob("*.jsonl"))
    assert len(saved) == 1 and not list(saved[0].parent.glob("*.lock"))  # the game kept, its lock let go


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")
def test_sighup_exits_quietly(tmp_path: Path) -> None:
    p, master = _start(tmp_path, True)
    try:
        p.send_signal(signal.SIGHUP)
        _ended_quietly(p)
    finally:
        os.close(master)
