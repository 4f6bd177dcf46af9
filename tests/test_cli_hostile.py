"""Issue 36, items 3 (autoplay on a full disk), 5, 6 and 8: the command line never hangs, never prints a raw
control character, never starts more processes than cores, and ends quietly when its reader goes away."""

from __future__ import annotations

import errno
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from engine_helpers import content
from ui_helpers import isolate_user_data

import undercroft.autoplay
from undercroft import autoplay, record, saves
from undercroft.cli.main import main
from undercroft.rules.actions import Rest
from undercroft.rules.rng import parse_seed
from undercroft.ui.session import Session


def test_jobs_are_capped_at_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    from concurrent.futures import ProcessPoolExecutor

    def pool(**kwargs: Any) -> ProcessPoolExecutor:
        asked.append(kwargs["max_workers"])
        return ProcessPoolExecutor(**kwargs)

    monkeypatch.setattr(undercroft.autoplay, "ProcessPoolExecutor", pool)
    monkeypatch.setattr(undercroft.autoplay, "cores", lambda: 2)
    one = autoplay.run(content(), "crawler", 5, 3, max_actions=30, jobs=1)
    many = autoplay.run(content(), "crawler", 5, 3, max_actions=30, jobs=1024)
    assert asked == [2] and many == one


def test_autoplay_on_a_full_disk_leaves_a_finished_recording_or_none(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    real = record.writer._os_write
    second = f"autoplay-crawler-{autoplay.game_seed(3, 1)}.jsonl"

    calls = [0]

    def full(fd: int, data: memoryview) -> int:  # the disk fills up while the second recording is written
        if second in os.readlink(f"/proc/self/fd/{fd}"):
            calls[0] += 1
            if calls[0] > 1:
                raise OSError(errno.ENOSPC, "No space left on device")
            return real(fd, data[: len(data) // 2])  # half of it went out
        return real(fd, data)

    monkeypatch.setattr(record.writer, "_os_write", full)
    code = main(
        [
            "autoplay",
            "--games",
            "2",
            "--seed",
            "3",
            "--ruleset",
            "crawler",
            "--max-actions",
            "20",
            "--jobs",
            "1",
            "--record",
            str(tmp_path / "rec"),
        ]
    )
    err = capsys.readouterr().err
    assert code == 2
    [line] = err.splitlines()
    assert "not written (No space left on device): no part of it was left" in line
    left = sorted(p.name for p in (tmp_path / "rec").iterdir())
    assert left == [
        f"autoplay-crawler-{autoplay.game_seed(3, 0)}.jsonl"
    ]  # the first whole, the second not at all, no temporary file
    record.load_recording(tmp_path / "rec" / left[0])


@pytest.fixture
def server() -> Iterator[tuple[str, list[bytes]]]:
    """A TCP server on localhost that accepts and answers each connection with what the test puts in the list
    (nothing: it stays silent)."""
    sock = socket.create_server(("127.0.0.1", 0))
    answer: list[bytes] = []
    conns: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = sock.accept()
            except OSError:
                return
            conns.append(conn)
            for data in answer:
                conn.sendall(data)

    threading.Thread(target=serve, daemon=True).start()
    yield f"tcp://127.0.0.1:{sock.getsockname()[1]}", answer
    sock.close()
    for c in conns:
        c.close()


@pytest.mark.extras
@pytest.mark.slow
@pytest.mark.parametrize("kind", ["silent", "http"])
def test_a_dask_address_that_is_not_a_scheduler_is_one_line_in_bounded_time(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    server: tuple[str, list[bytes]],
    kind: str,
) -> None:
    pytest.importorskip("distributed")
    address, answer = server
    if kind == "http":
        answer.append(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
    monkeypatch.setattr(undercroft.autoplay, "HANDSHAKE_S", 0.5)
    code = main(["autoplay", "--games", "2", "--dask", address])
    err = capsys.readouterr().err
    assert code == 2
    [line] = err.splitlines()
    what = "did not answer as a Dask scheduler within 0.5 s" if kind == "silent" else "is not a Dask scheduler"
    assert line.startswith(f"undercroft: the server at {address} ") and what in line


GOLDEN = Path(__file__).resolve().parent / "golden" / "v3" / "warden-33.jsonl"


@pytest.mark.slow
@pytest.mark.parametrize("args", [["replay", str(GOLDEN)], ["replay", str(GOLDEN), "--events"], ["--help"]])
def test_a_closed_pipe_ends_quietly(args: list[str]) -> None:
    """``undercroft replay FILE | head``: the reader goes away at once; exit 0, nothing on stderr."""
    proc = subprocess.Popen([sys.executable, "-m", "undercroft", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(timeout=120) in (0, 141), err
    assert err == b""


def test_arguments_echoed_back_are_escaped(capsys: pytest.CaptureFixture[str]) -> None:
    for command in (
        ["sim", "--ruleset", "\x1b]0;owned\x07", "goblin"],
        ["autoplay", "--ruleset", "x\x1b[2J"],
        ["play", "--ruleset", "\x1b[2J\nfake: line"],
    ):
        assert main(command) == 2
        err = capsys.readouterr().err
        assert "\x1b" not in err and "\x07" not in err and err.count("\n") == 1, err
        assert "\\x1b" in err


def test_games_escapes_a_seed_label_from_a_side_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    isolate_user_data(monkeypatch, tmp_path)
    label = "evil\x1b[2J\x07\nfake line"  # (a label is shown only when it is the game's seed)
    s = Session.new(content(), "crawler", parse_seed(label))
    s.act(Rest())
    s.close()
    assert s.path is not None
    saves.remember_seed(s.path, label)
    assert main(["games"]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "fake line" in out
    assert "seed evil\\x1b[2J\\x07\\x0afake line" in out
