"""One save, one game: a game open in one process is locked (``NAME.lock``, flock); another process's title lists
it as open elsewhere, refuses Continue and Abandon and offers to watch it; a lock left by a dead process is taken
over."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from engine_helpers import content
from tcod.event import KeySym
from ui_helpers import Driver, isolate_user_data, names, press, screen

from undercroft.record import saves
from undercroft.rules.actions import Rest
from undercroft.ui.scenes import SceneStack, TitleScene
from undercroft.ui.session import Session

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="no save lock on Windows")

SRC = Path(__file__).resolve().parents[1] / "src"
HOLD = (
    "import sys, time; from pathlib import Path; from undercroft.record.saves import SaveLock; "
    "lock = SaveLock.acquire(Path(sys.argv[1])); print('locked', flush=True); time.sleep(60)"
)


@pytest.fixture
def user(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    return isolate_user_data(monkeypatch, tmp_path)


def a_game() -> Path:
    s = Session.new(content(), "undercroft", 11)
    s.act(Rest())
    s.close()
    assert s.path is not None
    return s.path


@pytest.fixture
def holder() -> Iterator[list[subprocess.Popen[str]]]:
    started: list[subprocess.Popen[str]] = []
    yield started
    for p in started:
        if p.poll() is None:
            p.kill()
        p.wait()


def hold(path: Path, started: list[subprocess.Popen[str]]) -> subprocess.Popen[str]:
    """Another process (another window) with the game open."""
    env = dict(os.environ, PYTHONPATH=str(SRC))
    p = subprocess.Popen([sys.executable, "-c", HOLD, str(path)], stdout=subprocess.PIPE, text=True, env=env)
    started.append(p)
    assert p.stdout is not None and p.stdout.readline().strip() == "locked"
    return p


def test_a_session_holds_the_lock_until_closed(user: Path) -> None:
    s = Session.new(content(), "undercroft", 3)
    assert s.path is not None
    lock = saves.lock_path(s.path)
    assert json.loads(lock.read_text())["pid"] == os.getpid()
    assert saves.holder(s.path) is None  # this process's own lock is not "another window"
    s.close()
    assert not lock.exists() and saves.holder(s.path) is None
    again = Session.resume(content(), s.path)  # free again
    again.close()


@pytest.mark.slow
def test_another_process_has_it_open(user: Path, holder: list[subprocess.Popen[str]]) -> None:
    path = a_game()
    other = hold(path, holder)
    assert saves.holder(path) == other.pid
    with pytest.raises(saves.SaveLocked) as info:
        Session.resume(content(), path)
    assert info.value.pid == other.pid and f"open in another window (pid {other.pid})" in str(info.value)
    with pytest.raises(saves.SaveLocked):
        saves.abandon(path)
    assert path.exists()

    d = Driver(SceneStack([TitleScene(content(), seed=7)]))
    text = screen(d)
    assert f"open in another window (pid {other.pid})" in text
    press(d, KeySym.DOWN)  # (never chosen for you: chosen here)
    press(d, KeySym.A)  # abandon: refused
    assert "Cannot abandon" in screen(d) and path.exists()
    press(d, KeySym.C)  # continue: refused, and watching offered
    assert names(d) == ["TitleScene", "ChoiceScene"]
    text = screen(d)
    assert "Open in another window" in text and "cannot be continued here" in text and "Watch it" in text
    press(d, KeySym.W)
    assert names(d) == ["TitleScene", "WatchScene"]
    assert "REPLAY" in screen(d)
    press(d, KeySym.Q)  # back to the title, not out of the program
    assert names(d) == ["TitleScene"] and d.exit_code is None
    other.kill()  # the other window closes: the title's list is old, but c asks again and goes on
    other.wait()
    press(d, KeySym.C)  # none chosen (it was open elsewhere): c asks again, and chooses it now it is free
    assert names(d) == ["TitleScene"] and "> " in screen(d)
    press(d, KeySym.C)
    assert names(d) == ["ExploreScene"]


@pytest.mark.slow
def test_the_title_never_chooses_a_game_open_elsewhere(user: Path, holder: list[subprocess.Popen[str]]) -> None:
    """The newest game, open in another window, was once the one chosen: Enter-c went to a refusal. Now the
    title chooses the newest game that is free."""
    free = a_game()
    busy = a_game()
    os.utime(busy, (free.stat().st_mtime + 60, free.stat().st_mtime + 60))  # the newest
    hold(busy, holder)
    title = TitleScene(content(), seed=7)
    assert [g.path for g in title.games] == [busy, free]  # newest first
    assert title.chosen is not None and title.chosen.path == free
    d = Driver(SceneStack([title]))
    press(d, KeySym.C)
    assert names(d) == ["ExploreScene"]


@pytest.mark.slow
def test_with_every_game_open_elsewhere_none_is_chosen(user: Path, holder: list[subprocess.Popen[str]]) -> None:
    """Both unfinished games are open in other windows: the title shows neither as the one to continue (no row
    marked, Continue greyed and saying why); c and a say so; Down chooses one, and c then offers to watch it."""
    first, second = a_game(), a_game()
    pids = [hold(first, holder).pid, hold(second, holder).pid]
    d = Driver(SceneStack([TitleScene(content(), seed=7)]))
    text = screen(d)
    rows = [row.strip() for row in text.splitlines()]
    listed = [row for row in rows if "open in another window (pid" in row]
    assert len(listed) == 2 and all(row.startswith("open in another window") for row in listed), rows
    assert not any(row.startswith(">") for row in rows)
    assert "Continue (each unfinished game is open in another window)" in " ".join(text.split())
    for k in (KeySym.C, KeySym.A):
        press(d, k)
        assert names(d) == ["TitleScene"]
        assert "Each unfinished game is open in another window" in " ".join(screen(d).split())
    press(d, KeySym.DOWN)
    chosen = [row for row in screen(d).splitlines() if row.strip().startswith(">")]
    assert len(chosen) == 1 and any(f"pid {p})" in chosen[0] for p in pids)
    press(d, KeySym.C)
    assert names(d) == ["TitleScene", "ChoiceScene"] and "Watch it" in screen(d)


def test_a_lock_left_by_a_dead_process_is_taken_over(user: Path, holder: list[subprocess.Popen[str]]) -> None:
    path = a_game()
    other = hold(path, holder)
    assert saves.holder(path) == other.pid
    other.send_signal(signal.SIGKILL)
    other.wait()
    assert saves.lock_path(path).exists()  # the stale file stays, the lock went with the process
    assert saves.holder(path) is None
    d = Driver(SceneStack([TitleScene(content(), seed=7)]))
    assert "open in another window" not in screen(d)
    press(d, KeySym.C)
    assert names(d)[0] == "ExploreScene"
    session = d.scenes[0].session  # type: ignore[attr-defined]
    assert json.loads(saves.lock_path(path).read_text())["pid"] == os.getpid()
    session.close()


def test_back_at_the_title_the_game_left_is_not_open_elsewhere(user: Path) -> None:
    d = Driver(SceneStack([TitleScene(content(), seed=5)]))
    press(d, KeySym.N)
    session = d.scenes[0].session  # type: ignore[attr-defined]
    press(d, KeySym.ESCAPE, KeySym.T)
    assert names(d) == ["TitleScene"]
    assert session.closed and "open in another window" not in screen(d)
    press(d, KeySym.C)
    assert names(d)[0] == "ExploreScene"
    d.scenes[0].session.close()  # type: ignore[attr-defined]
