"""One save, one game, whatever is done to the files beside it: two front ends at one save, its lock file removed
or replaced by a FIFO, a symbolic link or a folder; the second is refused and offered Watch, and no action is
written twice. Every file in a tmp folder."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from engine_helpers import content
from tcod.event import KeySym
from ui_helpers import Driver, isolate_user_data, names, press, screen

from undercroft import record
from undercroft.record import saves
from undercroft.rules.actions import Rest
from undercroft.ui.scenes import SceneStack, TitleScene
from undercroft.ui.session import Session

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="no save lock on Windows")

SRC = Path(__file__).resolve().parents[1] / "src"
FRONT_END = """
import sys
from pathlib import Path
from undercroft.content import load_content
from undercroft.paths import data_dir
from undercroft.rules.actions import Rest
from undercroft.ui.session import Session
s = Session.resume(load_content(data_dir()), Path(sys.argv[1]))
print("open", flush=True)
for line in sys.stdin:
    if line.strip() == "rest":
        s.act(Rest())
        print("rested", flush=True)
    else:
        break
s.close()
print("closed", flush=True)
"""


def remove(p: Path) -> None:
    p.unlink(missing_ok=True)


def fifo(p: Path) -> None:
    remove(p)
    os.mkfifo(p)


def symlink(p: Path) -> None:
    remove(p)
    p.symlink_to(p.with_name("elsewhere.txt"))


def folder(p: Path) -> None:
    remove(p)
    p.mkdir()


@pytest.fixture
def first(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[tuple[Path, subprocess.Popen[str]]]:
    """A game open in another process (the first front end), which rests on each ``rest`` it is sent."""
    isolate_user_data(monkeypatch, tmp_path)
    s = Session.new(content(), "undercroft", 11)
    s.act(Rest())
    s.close()
    assert s.path is not None
    env = dict(os.environ, PYTHONPATH=str(SRC))
    p = subprocess.Popen(
        [sys.executable, "-c", FRONT_END, str(s.path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert p.stdout is not None and p.stdout.readline().strip() == "open"
    yield s.path, p
    if p.poll() is None:
        p.kill()
    p.wait()


def tell(p: subprocess.Popen[str], word: str) -> str:
    assert p.stdin is not None and p.stdout is not None
    p.stdin.write(word + "\n")
    p.stdin.flush()
    return p.stdout.readline().strip()


@pytest.mark.slow
def test_two_front_ends_at_one_save_write_no_action_twice(first: tuple[Path, subprocess.Popen[str]]) -> None:
    path, other = first
    sabotage: list[Callable[[Path], None]] = [remove, fifo, symlink, folder]
    for spoil in sabotage:
        spoil(saves.lock_path(path))
        assert saves.holder(path) is not None, spoil.__name__
        with pytest.raises(saves.SaveLocked):
            Session.resume(content(), path)
        d = Driver(SceneStack([TitleScene(content(), seed=7)]))
        assert "open in another window" in screen(d), spoil.__name__
        press(d, KeySym.DOWN)
        press(d, KeySym.C)  # the second front end: refused, offered Watch
        assert names(d) == ["TitleScene", "ChoiceScene"] and "Watch it" in screen(d), spoil.__name__
        press(d, KeySym.W)
        assert names(d) == ["TitleScene", "WatchScene"]
        assert tell(other, "rest") == "rested"  # the first goes on writing
        if os.path.isdir(saves.lock_path(path)):
            os.rmdir(saves.lock_path(path))
    assert tell(other, "close") == "closed"
    rec = record.load_recording(path)
    turns = [t for t, _, _ in rec.actions]
    assert turns == list(range(1, len(turns) + 1)) and len(turns) == 1 + len(sabotage)  # none written twice
    record.replay(content(), rec, verify=True)
    again = Session.resume(content(), path)  # free once the first has closed it
    again.close()
