"""A full disk loses nothing the player did not agree to lose. The disk is simulated by the
recorder's one write (``record.writer._os_write``) refusing with ENOSPC; the temporary folder is a tmp folder."""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

import pytest
from engine_helpers import content
from tcod.event import KeySym
from ui_helpers import Driver, isolate_user_data, names, press, screen, type_text

from undercroft import record
from undercroft.rules.actions import Rest
from undercroft.ui.loop import close_games
from undercroft.ui.scenes import SceneStack, TitleScene, game_stack
from undercroft.ui.session import Session


class Disk:
    """The disk of the saves folder (the temporary folder is another), full when ``full`` is set."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.full = False
        real = record.writer._os_write

        def write(fd: int, data: memoryview) -> int:
            if self.full and "/saves/" in os.readlink(f"/proc/self/fd/{fd}"):
                raise OSError(errno.ENOSPC, "No space left on device")
            return real(fd, data)

        monkeypatch.setattr(record.writer, "_os_write", write)


@pytest.fixture
def tmp(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    isolate_user_data(monkeypatch, tmp_path)
    t = tmp_path / "tmp"
    t.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(t))
    return t


def played(disk: Disk, saved: int, unsaved: int) -> tuple[Session, Driver]:
    s = Session.new(content(), "crawler", 1)  # (a seed where eight rests in a row are all accepted)
    for _ in range(saved):
        s.act(Rest())
    disk.full = True
    for _ in range(unsaved):
        s.act(Rest())
    assert s.recorder is not None and s.recorder.pending == unsaved
    stack = SceneStack(game_stack(s), home=TitleScene.after)
    return s, Driver(stack)


def turns(path: Path) -> int:
    return record.load_recording(path).turns


def test_leaving_asks_and_writes_the_whole_game_to_the_temporary_folder(
    monkeypatch: pytest.MonkeyPatch, tmp: Path
) -> None:
    disk = Disk(monkeypatch)
    s, d = played(disk, 3, 4)
    assert s.path is not None
    press(d, KeySym.ESCAPE, KeySym.T)
    text = screen(d)
    assert names(d)[-1] == "ChoiceScene" and "4 actions of this game are not in its save" in text
    assert "Write the whole game to /tmp" in text  # (the temporary folder's name, cut at the panel's edge)
    press(d, KeySym.T)
    assert names(d) == ["TitleScene"]
    copy = tmp / s.path.name
    assert turns(copy) == 7 and turns(s.path) == 3  # nothing lost: the 4 actions are in the copy
    said = "".join(screen(d).split())
    print(screen(d))
    assert "".join(f"the whole game is in {copy}".split()) in said


def test_a_path_typed_and_trying_again_once_the_disk_has_room(monkeypatch: pytest.MonkeyPatch, tmp: Path) -> None:
    disk = Disk(monkeypatch)
    s, d = played(disk, 2, 3)
    assert s.path is not None
    press(d, KeySym.ESCAPE, KeySym.T)
    press(d, KeySym.P)
    type_text(d, str(tmp / "nowhere" / "x.jsonl"))
    press(d, KeySym.RETURN)  # a folder that does not exist: asked again, with why
    assert names(d)[-1] == "ChoiceScene" and "It could not be written there" in screen(d)
    press(d, KeySym.G)  # back to the game
    assert names(d)[-1] != "ChoiceScene"
    disk.full = False
    press(d, KeySym.ESCAPE, KeySym.T)  # the save takes them now: no question
    assert names(d) == ["TitleScene"] and turns(s.path) == 5
    assert list(tmp.iterdir()) == []


def test_a_window_closed_with_unsaved_actions_writes_them_to_the_temporary_folder(
    monkeypatch: pytest.MonkeyPatch, tmp: Path
) -> None:
    disk = Disk(monkeypatch)
    s, d = played(disk, 1, 2)
    assert s.path is not None
    close_games(d.stack)  # (the window closed: nobody to ask)
    assert turns(tmp / s.path.name) == 3 and turns(s.path) == 1
    assert f"the whole game is in {tmp / s.path.name}" in s.unsaved


def test_a_window_closed_twice_on_a_full_disk_keeps_both_copies_and_the_title_names_them(
    monkeypatch: pytest.MonkeyPatch, tmp: Path
) -> None:
    disk = Disk(monkeypatch)
    s, d = played(disk, 1, 2)
    assert s.path is not None
    close_games(d.stack)  # the window closed: the whole game (3 actions) into the temporary folder
    first = tmp / s.path.name
    again = Session.resume(content(), s.path)  # (the disk still full) continued from its save, 1 action
    for _ in range(3):
        again.act(Rest())
    again.close()  # closed again: the first copy's name is taken, so the second gets a name of its own
    second = tmp / f"{s.path.stem}-2.jsonl"
    assert turns(first) == 3 and turns(second) == 4 and turns(s.path) == 1
    assert f"the whole game is in {second}" in again.unsaved
    text = "".join(screen(Driver(SceneStack([TitleScene(content())]))).split())  # the next start
    assert "".join(f"{first}, {second}".split()) in text
    first.unlink()
    second.unlink()
    assert "lack" not in screen(Driver(SceneStack([TitleScene(content())])))
