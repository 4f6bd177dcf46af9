"""The command line never hangs, never prints a raw
control character, never starts more processes than cores, and ends quietly when its reader goes away."""

from __future__ import annotations

import contextlib
import errno
import os
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from engine_helpers import content
from ui_helpers import isolate_user_data

import undercroft.tools.batch
from undercroft import record
from undercroft.cli.main import main
from undercroft.record import saves
from undercroft.rules.actions import Rest
from undercroft.rules.rng import parse_seed
from undercroft.tools import autoplay, batch
from undercroft.ui.session import Session


def test_jobs_are_capped_at_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    from concurrent.futures import ProcessPoolExecutor

    def pool(**kwargs: Any) -> ProcessPoolExecutor:
        asked.append(kwargs["max_workers"])
        return ProcessPoolExecutor(**kwargs)

    monkeypatch.setattr(undercroft.tools.batch, "ProcessPoolExecutor", pool)
    monkeypatch.setattr(undercroft.tools.batch, "cores", lambda: 2)
    one = batch.run(content(), "crawler", 5, 3, max_actions=30, jobs=1)
    many = batch.run(content(), "crawler", 5, 3, max_actions=30, jobs=1024)
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


Script = Callable[[socket.socket, threading.Event], None]


@pytest.fixture
def server() -> Iterator[tuple[str, list[Script]]]:
    """A TCP server on 127.0.0.1 for the test's life, stopped and joined at its end: its i-th connection is handed
    to the i-th script the test puts in the list (the last one from then on; none: it stays silent). A script is
    told to stop by the event."""
    sock = socket.create_server(("127.0.0.1", 0))
    sock.settimeout(0.1)
    scripts: list[Script] = []
    stop = threading.Event()
    conns: list[socket.socket] = []
    threads: list[threading.Thread] = []

    def run(script: Script, conn: socket.socket) -> None:
        with contextlib.suppress(OSError):  # the client hung up
            script(conn, stop)

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = sock.accept()
            except TimeoutError:
                continue
            conns.append(conn)
            if scripts:
                script = scripts[min(len(conns), len(scripts)) - 1]
                threads.append(threading.Thread(target=run, args=(script, conn), daemon=True))
                threads[-1].start()

    serving = threading.Thread(target=serve, daemon=True)
    serving.start()
    yield f"tcp://127.0.0.1:{sock.getsockname()[1]}", scripts
    stop.set()
    for t in (serving, *threads):
        t.join(5)
    sock.close()
    for c in conns:
        c.close()


def says(data: bytes, pause: float = 0.0) -> Script:
    """A script that sends ``data`` (a byte at a time, ``pause`` s apart, when ``pause``), then stays silent."""

    def script(conn: socket.socket, stop: threading.Event) -> None:
        if not pause:
            conn.sendall(data)
        for i in range(len(data) if pause else 0):
            if stop.wait(pause):
                return
            conn.sendall(data[i : i + 1])

    return script


# What a Dask scheduler greets with (2026.8): 8 bytes of length, a frame count, the frames' lengths, the frames.
GREETING = struct.pack("<QQQ", 58, 1, 42) + b"\x83" + b"x" * 41


@pytest.mark.extras
@pytest.mark.slow
@pytest.mark.parametrize(
    ("kind", "answers", "what"),
    [
        ("silent", [], "did not answer as a Dask scheduler within 0.5 s"),
        ("http", [b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"], "is not a Dask scheduler"),
        ("a length, then nothing", [GREETING[:8]], "did not answer as a Dask scheduler within 0.5 s"),
        ("a greeting cut short", [GREETING[:20]], "did not answer as a Dask scheduler within 0.5 s"),
        ("frames that do not add up", [struct.pack("<QQQQ", 24, 1 << 40, 0, 0)], "is not a Dask scheduler"),
        ("a greeting, then garbage", [GREETING, struct.pack("<QQQ", 16, 1, 0)], "cannot use the Dask scheduler"),
    ],
)
def test_a_dask_address_that_is_not_a_scheduler_is_one_line_in_bounded_time(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    server: tuple[str, list[Script]],
    kind: str,
    answers: list[bytes],
    what: str,
) -> None:
    """The last: the probe is answered as a scheduler would, Dask's own connection with what it cannot read."""
    pytest.importorskip("distributed")
    address, scripts = server
    scripts.extend(says(a) for a in answers)
    monkeypatch.setattr(undercroft.tools.batch, "HANDSHAKE_S", 0.5)
    start = time.monotonic()
    code = main(["autoplay", "--games", "2", "--dask", address])
    err = capsys.readouterr().err
    assert code == 2 and time.monotonic() - start < 10
    [line] = err.splitlines()
    assert line.startswith(f"undercroft: the server at {address} ") or line.startswith(
        f"undercroft: cannot use the Dask scheduler at {address}: "
    )
    assert what in line


@pytest.mark.extras
@pytest.mark.slow
def test_a_greeting_dripped_a_byte_at_a_time_is_bounded_by_one_deadline(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, server: tuple[str, list[Script]]
) -> None:
    pytest.importorskip("distributed")
    address, scripts = server
    scripts.append(says(GREETING, pause=0.05))  # each byte well within the deadline, the whole 3.3 s
    monkeypatch.setattr(undercroft.tools.batch, "HANDSHAKE_S", 0.5)
    start = time.monotonic()
    assert main(["autoplay", "--games", "2", "--dask", address]) == 2
    assert time.monotonic() - start < 3
    [line] = capsys.readouterr().err.splitlines()
    assert line == f"undercroft: the server at {address} did not answer as a Dask scheduler within 0.5 s"


@pytest.mark.extras
@pytest.mark.slow
@pytest.mark.parametrize("address", ["tls://127.0.0.1:9", "tcp://[::1", "tcp://127.0.0.1:99999"])
def test_a_dask_address_dask_cannot_use_is_one_line(capsys: pytest.CaptureFixture[str], address: str) -> None:
    pytest.importorskip("distributed")
    assert main(["autoplay", "--games", "2", "--dask", address]) == 2
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith(("undercroft: cannot use the Dask scheduler at ", "undercroft: --dask ")), line


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


def run_with_stdout(args: list[str], tmp_path: Path, *, stdout: str) -> subprocess.CompletedProcess[str]:
    """``undercroft ARGS`` in a new process with its standard output ``full`` (/dev/full) or ``closed``, its
    saves in ``tmp_path``."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg"), "HOME": str(tmp_path)}
    argv = [sys.executable, "-m", "undercroft", *args]
    if stdout == "closed":
        argv = ["sh", "-c", 'exec "$@" >&-', "sh", *argv]
    with open("/dev/full", "w") as full:
        return subprocess.run(argv, stdout=full, stderr=subprocess.PIPE, text=True, env=env, timeout=120)


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("stdout", ["full", "closed"])
@pytest.mark.parametrize(
    "args",
    [["games"], ["games", "--json"], ["sim", "goblin"], ["validate"], ["replay", str(GOLDEN), "--events"], ["--help"]],
)
def test_an_output_that_cannot_be_written_is_one_line_naming_it(args: list[str], stdout: str, tmp_path: Path) -> None:
    done = run_with_stdout(args, tmp_path, stdout=stdout)
    why = "No space left on device" if stdout == "full" else "Bad file descriptor"
    assert done.returncode == 1
    assert done.stderr.splitlines() == [f"undercroft: cannot write to standard output: {why}"]  # not the recording


def test_a_closed_output_is_no_error_for_a_command_that_writes_nothing_there(tmp_path: Path) -> None:
    done = run_with_stdout(["games", "--bogus"], tmp_path, stdout="closed")
    assert done.returncode == 2 and done.stderr.splitlines()[-1] == "undercroft: error: unrecognized arguments: --bogus"


def test_argparse_errors_are_escaped(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--ruleset", "\x1b[31mx"], ["games", "--bogus", "\x1b]0;owned\x07\nfake: line"], ["\x1b[2J"]):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 2
        err = capsys.readouterr().err
        assert "\x1b" not in err and "\x07" not in err and err.count("\n") == 2, err  # the usage and one line
        assert "\\x1b" in err


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
