"""A save's side files are never written through a link and never block,
a saves folder that cannot be made is one line, and a game over whose end line is missing is not offered under
Continue. Every file in a tmp folder."""

from __future__ import annotations

import contextlib
import json
import os
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from engine_helpers import content
from ui_helpers import Driver, isolate_user_data, screen

from undercroft.cli.main import main
from undercroft.record import save_index, saves
from undercroft.rules.actions import Rest
from undercroft.tools import autoplay
from undercroft.ui.scenes import SceneStack, TitleScene
from undercroft.ui.session import Session


@pytest.fixture
def user(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    return isolate_user_data(monkeypatch, tmp_path)


@contextlib.contextmanager
def within(seconds: int) -> Iterator[None]:
    """Fails (instead of hanging the suite) when the body blocks for ``seconds``."""

    def expired(signum: int, frame: object) -> None:
        raise TimeoutError(f"blocked for {seconds} s")

    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def unfinished_game(seed: int = 3) -> Path:
    s = Session.new(content(), "undercroft", seed)
    s.act(Rest())
    s.close()
    assert s.path is not None
    return s.path


def test_a_sidecar_or_the_index_that_is_a_link_is_replaced_never_written_through(user: Path, tmp_path: Path) -> None:
    path = unfinished_game()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    meta, index = saves.meta_path(path), user / "saves" / save_index.INDEX
    for side in (meta, index):
        side.unlink(missing_ok=True)
        side.symlink_to(victim)
    assert main(["games"]) == 0  # the listing writes its index
    saves.remember_seed(path, "3")  # and the sidecar keeps the seed as typed
    assert victim.read_text(encoding="utf-8") == "precious\n"
    assert not meta.is_symlink() and json.loads(meta.read_text(encoding="utf-8"))["seed_text"] == "3"
    assert not index.is_symlink() and str(path.name).encode() in index.read_bytes()


def test_a_lock_that_is_a_link_is_never_written_through_nor_its_target_deleted(user: Path, tmp_path: Path) -> None:
    path = unfinished_game()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    saves.lock_path(path).symlink_to(victim)
    assert saves.holder(path) is None  # not a lock of ours
    s = Session.resume(content(), path)  # Continue
    assert victim.read_text(encoding="utf-8") == "precious\n"
    s.act(Rest())
    s.close()
    assert victim.read_text(encoding="utf-8") == "precious\n"
    assert not saves.lock_path(path).exists() and not saves.lock_path(path).is_symlink()


def test_a_lock_that_is_a_hard_link_is_replaced_never_written_through(user: Path, tmp_path: Path) -> None:
    path = unfinished_game()
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    os.link(victim, saves.lock_path(path))  # O_NOFOLLOW stops only symbolic links
    s = Session.resume(content(), path)  # (the lock is on the recording itself: the side file only names the pid)
    assert json.loads(saves.lock_path(path).read_text())["pid"] == os.getpid()
    s.close()
    assert victim.read_text(encoding="utf-8") == "precious\n" and victim.stat().st_nlink == 1
    assert not saves.lock_path(path).exists() and path.exists()


@pytest.mark.parametrize("side", ["lock", "meta", "morgue"])
def test_a_fifo_in_place_of_a_side_file_never_blocks(user: Path, side: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = unfinished_game()
    fifo = {
        "lock": saves.lock_path(path),
        "meta": saves.meta_path(path),
        "morgue": user / "morgue" / f"morgue-{path.stem}.txt",
    }[side]
    fifo.parent.mkdir(parents=True, exist_ok=True)
    fifo.unlink(missing_ok=True)
    os.mkfifo(fifo)
    with within(10):
        assert main(["games"]) == 0
        games = saves.unfinished(content=content())
        s = Session.resume(content(), path)
        s.close()
    assert [g.path for g in games] == [path]
    assert "Unfinished games (1)" in capsys.readouterr().out
    assert path.stat().st_size > 0


def test_a_saves_folder_that_cannot_be_made_is_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "file").write_text("", encoding="utf-8")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "file"))
    for command in (["games"], ["games", "--json"], ["play", "--terminal"]):
        assert main(command) == 1
        out, err = capsys.readouterr()
        assert err.splitlines() == [
            f"undercroft: cannot make the saves folder {tmp_path}/file/undercroft/saves: Not a directory"
        ]
        assert out == ""


def test_saves_dir_says_a_file_is_in_its_place(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("undercroft.paths.user_data_dir", lambda: tmp_path)
    (tmp_path / "saves").write_text("", encoding="utf-8")
    with pytest.raises(saves.SavesFolderError, match="a file is in its place"):
        saves.saves_dir()


def test_an_empty_folder_in_place_of_the_lock_is_made_a_lock_again(user: Path) -> None:
    path = unfinished_game()
    saves.lock_path(path).mkdir()
    s = Session.resume(content(), path)
    assert saves.lock_path(path).is_file()
    s.close()
    assert not saves.lock_path(path).exists()


@pytest.fixture(scope="module")
def dead_crawler_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The recording of the first bot game of the crawler from seed 18 on that dies within 400 actions (read only;
    the games of seeds 1-17 outlast them)."""
    d = tmp_path_factory.mktemp("dead")
    for seed in range(18, 60):
        path = d / f"crawler-{seed}.jsonl"
        if autoplay.play_game(content(), "crawler", seed, record=str(path), max_actions=400).outcome == "dead":
            return path
    raise AssertionError("no crawler game from seeds 18..59 died within 400 actions")


@pytest.mark.parametrize("cut", ["line", "torn", "newline"])
def test_a_dead_game_without_its_end_line_is_not_offered_under_continue(
    user: Path, cut: str, dead_crawler_game: Path
) -> None:
    path = user / "saves" / dead_crawler_game.name
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = dead_crawler_game.read_bytes().splitlines(keepends=True)
    assert b'"end"' in lines[-1]
    last = {"line": b"", "torn": lines[-1][:5], "newline": lines[-1][:-1]}[cut]
    path.write_bytes(b"".join(lines[:-1]) + last)  # the end line never written whole (a full disk, a kill)
    assert saves.unfinished(content=content()) == []
    past = saves.past_games(content=content())
    assert [(g.path, g.result) for g in past] == [(path, "dead")]


def test_no_file_in_the_saves_folder_stops_the_title(user: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A recording's name on a file too large, a FIFO, a folder, a device, a dangling link: each is listed as
    unreadable with its reason; the game beside them is listed and the title opens."""
    path = unfinished_game()
    folder = path.parent
    with open(folder / "big.jsonl", "wb") as fh:
        fh.truncate(65 * 1024 * 1024)  # (sparse: over the 64 MiB a recording may be)
    os.mkfifo(folder / "fifo.jsonl")
    (folder / "dir.jsonl").mkdir()
    (folder / "zero.jsonl").symlink_to("/dev/zero")
    (folder / "gone.jsonl").symlink_to(folder / "nowhere")
    with within(10):
        assert main(["games"]) == 0
        title = TitleScene(content(), seed=7)
    err = capsys.readouterr().err
    for name, why in [
        ("big.jsonl", "larger than the 64 MiB"),
        ("fifo.jsonl", "a FIFO"),
        ("dir.jsonl", "a directory"),
        ("zero.jsonl", "a device"),
        ("gone.jsonl", "No such file"),
    ]:
        assert f"skipped {name}: unreadable: " in err and why in err.split(f"skipped {name}: ")[1].splitlines()[0]
    assert [g.path for g in title.games] == [path] and "(+4 more)" in " ".join(
        screen(Driver(SceneStack([title]))).split()
    )
