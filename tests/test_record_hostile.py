"""Hostile recordings and full disks: only regular files of bounded size are read,
field types are strict, text from a file is printed escaped, a failed write loses nothing, a recording names the
versions it was made with, and the commands' numbers and paths are bounded and checked."""

from __future__ import annotations

import dataclasses
import errno
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from format2 import as_format_2
from test_replay_cli import Run
from test_side_files import within

from undercroft import __version__, record
from undercroft.bot import Bot
from undercroft.cli.main import main
from undercroft.content import Content
from undercroft.content.loader import FileRefused, write_checked
from undercroft.record import (
    FORMAT_VERSION,
    KNOWN_PARTS,
    MAX_FILE,
    Recorder,
    RecordingError,
    SaveError,
    compatibility,
    installed_versions,
    load_recording,
    play_step,
    printable,
    replay,
    writer,
)
from undercroft.record.format import _line
from undercroft.rules.actions import Rest
from undercroft.rules.game import Game
from undercroft.tools.autoplay import play_game

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "v3" / "warden-33.jsonl"


@pytest.fixture(scope="module")
def unfinished(tmp_path_factory: pytest.TempPathFactory, content: Content) -> Path:
    """A bot game of 60 actions that did not end (no end line: a crash line may follow), in format 2 (JSON lines:
    what ``rewrite`` edits; tests/test_record_format3.py has the cases of format 3's text lines)."""
    d = tmp_path_factory.mktemp("rec")
    path = d / "open3.jsonl"
    r = play_game(content, "undercroft", 5, record=str(path), max_actions=60)
    assert r.outcome == "timeout"
    return as_format_2(content, path, d / "open.jsonl")


def rewrite(
    src: Path,
    dst: Path,
    edit: Callable[[int, dict[str, Any]], dict[str, Any] | None],
    extra: list[dict[str, Any]] | None = None,
) -> Path:
    """Copy a recording with lines edited (or ``extra`` lines appended), hashes re-chained: well formed, but lying."""
    prev = ""
    out = []
    objs = []
    for n, text in enumerate(src.read_text().splitlines(), 1):
        obj = json.loads(text)
        obj.pop("hash")
        new = edit(n, obj)
        if new is not None:
            objs.append(new)
    for obj in [*objs, *(extra or [])]:
        prev, data = _line(prev, obj)
        out.append(data)
    dst.write_bytes(b"".join(out))
    return dst


def cli(*argv: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run(
        [sys.executable, "-m", "undercroft", *argv], capture_output=True, text=True, timeout=timeout, env=env
    )


def one_line(err: str) -> str:
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


# --- only regular files of bounded size --------------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_never_hangs_replay(tmp_path: Path) -> None:
    fifo = tmp_path / "save.jsonl"
    os.mkfifo(fifo)
    p = cli("replay", "--verify", str(fifo))  # the timeout is the test: it used to wait for a writer forever
    assert p.returncode == 2 and p.stdout == ""
    msg = one_line(p.stderr)
    assert f"{fifo}: " in msg and "FIFO" in msg and "regular file" in msg


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_in_the_saves_folder_is_passed_over(tmp_path: Path, unfinished: Path) -> None:
    os.mkfifo(tmp_path / "zz-fifo.jsonl")
    (tmp_path / "game.jsonl").write_bytes(unfinished.read_bytes())
    code = (
        "import sys; from pathlib import Path; from undercroft.record.saves import latest_unfinished; "
        "print(latest_unfinished(Path(sys.argv[1])))"
    )
    p = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=30,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == str(tmp_path / "game.jsonl")


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero here")
def test_a_device_is_refused(run: Run, tmp_path: Path) -> None:
    link = tmp_path / "zero.jsonl"
    link.symlink_to("/dev/zero")
    code, out, err = run("replay", str(link))
    assert code == 2 and out == ""
    assert "is a device" in one_line(err)
    with pytest.raises(RecordingError, match="device"):
        load_recording(link)


def test_a_directory_is_refused(run: Run, tmp_path: Path) -> None:
    d = tmp_path / "dir.jsonl"
    d.mkdir()
    code, _, err = run("replay", "--verify", str(d))
    assert code == 2 and "directory" in one_line(err)


def test_an_oversized_file_is_refused_before_it_is_read(run: Run, tmp_path: Path, unfinished: Path) -> None:
    big = tmp_path / "big.jsonl"
    big.write_bytes(unfinished.read_bytes())
    with open(big, "r+b") as fh:
        fh.truncate(MAX_FILE + 1)  # sparse: no disk used
    code, out, err = run("replay", str(big))
    assert code == 2 and out == ""
    assert "larger than" in one_line(err) and f"{big}: " in err


# --- strict field types ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [1.0, True, "1", None])
def test_a_turn_that_is_not_a_whole_number_is_refused(run: Run, tmp_path: Path, unfinished: Path, value: Any) -> None:
    def edit(n: int, obj: dict[str, Any]) -> dict[str, Any]:
        if n == 2:
            obj["turn"] = value
        return obj

    bad = rewrite(unfinished, tmp_path / "turn.jsonl", edit)
    code, _, err = run("replay", str(bad))
    assert code == 2
    msg = one_line(err)
    assert f"{bad}:2: " in msg and "whole number" in msg


def test_a_crash_turn_that_is_not_a_whole_number_is_refused(tmp_path: Path, unfinished: Path) -> None:
    n = len(load_recording(unfinished).actions)
    crash = {"turn": float(n + 1), "action": {"type": "wait"}, "crash": {"type": "Boom", "message": "x"}}
    bad = rewrite(unfinished, tmp_path / "crash.jsonl", lambda _n, obj: obj, [crash])
    with pytest.raises(RecordingError, match="whole number") as info:
        load_recording(bad)
    assert info.value.line == n + 2


@pytest.mark.parametrize(
    "parts",
    [
        ["clock", "levels", "mode", "party", "rng", "secrets"],  # a part the game does not have
        ["clock", "levels", "mode", "party", "party"],  # twice
        ["rng", "clock", "levels", "mode", "party"],  # out of order
    ],
)
def test_made_up_state_parts_are_refused(run: Run, tmp_path: Path, unfinished: Path, parts: list[str]) -> None:
    def edit(n: int, obj: dict[str, Any]) -> dict[str, Any]:
        if n == 1:
            obj["parts"] = parts
        return obj

    bad = rewrite(unfinished, tmp_path / "parts.jsonl", edit)
    code, _, err = run("replay", str(bad))
    assert code == 2 and f"{bad}:1: " in one_line(err) and "'parts'" in err


def test_known_parts_are_the_games_parts(content: Content) -> None:
    assert set(Game(content, "undercroft", 1).canonical()) <= KNOWN_PARTS


# --- text from a file is printed escaped -------------------------------------------------------------------------


def test_printable_escapes_every_control_character() -> None:
    assert printable("plain text, é, ß, 勇者") == "plain text, é, ß, 勇者"
    assert printable("a\x1b[2Jb") == "a\\x1b[2Jb"
    assert printable("\x00\x07\t\n\r\x7f\x85\x9b") == "\\x00\\x07\\x09\\x0a\\x0d\\x7f\\x85\\x9b"
    assert printable("\u202eevil\u2028") == "\\u202eevil\\u2028"
    assert printable("C:\\saves\\a.jsonl") == "C:\\saves\\a.jsonl"  # a backslash is left as it is


def test_a_crafted_crash_message_is_printed_escaped(run: Run, tmp_path: Path, unfinished: Path) -> None:
    n = len(load_recording(unfinished).actions)
    crash = {
        "turn": n + 1,
        "action": {"type": "wait"},
        "crash": {"type": "Boom\x1b]0;title\x07", "message": "\x1b[2Jthe screen is gone\r\nfake: line"},
    }
    bad = rewrite(unfinished, tmp_path / "crash.jsonl", lambda _n, obj: obj, [crash])
    code, _, err = run("replay", "--verify", str(bad))
    assert code == 0  # a wait does not crash: "the recorded crash (...) did not happen again", quoting it
    assert "\x1b" not in err and "\x07" not in err and "\r" not in err
    line = next(x for x in err.splitlines() if "recorded crash" in x)
    assert "\\x1b[2Jthe screen is gone\\x0d\\x0afake: line" in line and "Boom\\x1b]0;title\\x07" in line


@pytest.mark.parametrize("field", ["ruleset", "game_version", "python", "numpy", "tcod", "data_digest"])
def test_crafted_header_text_is_printed_escaped(run: Run, tmp_path: Path, unfinished: Path, field: str) -> None:
    def edit(n: int, obj: dict[str, Any]) -> dict[str, Any]:
        if n == 1:
            obj[field] = "\x1b[31mred\x1b[0m\x9b2J"
        return obj

    bad = rewrite(unfinished, tmp_path / f"{field}\x1b[1m.jsonl", edit)
    code, out, err = run("replay", "--verify", str(bad))
    assert "\x1b" not in err + out and "\x9b" not in err + out
    assert "\\x1b[31mred\\x1b[0m\\x9b2J" in err
    assert "\\x1b[1m.jsonl" in err  # the file name too
    assert code == (2 if field in ("ruleset", "data_digest") else 0), err


def test_a_recording_error_is_escaped(tmp_path: Path) -> None:
    bad = tmp_path / "x.jsonl"
    bad.write_bytes(b'{"recording":"undercroft","format":2,"\\u001b[2J":1}\n')
    with pytest.raises(RecordingError) as info:
        load_recording(bad)
    assert "\x1b" not in str(info.value)


# --- a full disk: nothing lost, nothing half written ---------------------------------------------------------------


class FullDisk:
    """Stands in for ``os.write``: the first failing call writes part of the line (as a disk filling up does),
    the next ``fails - 1`` raise ENOSPC, then writing works again."""

    def __init__(self, fails: int) -> None:
        self.fails = fails
        self.calls = 0

    def __call__(self, fd: int, data: memoryview) -> int:
        self.calls += 1
        if self.fails <= 0:
            return os.write(fd, data)
        self.fails -= 1
        if self.calls == 1 and len(data) > 4:
            return os.write(fd, data[: len(data) // 2])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def test_a_full_disk_mid_game_loses_nothing(content: Content, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.jsonl"
    game = Game(content, "undercroft", 3)
    bot = Bot(game, 3)
    rec = Recorder.create(path, game, content)

    def play(n: int) -> None:
        done = 0
        while done < n and not game.over:
            a = bot.choose()
            events = play_step(game, rec, a)  # never raises for the disk
            if len(events) == 1 and events[0].type == "refused":
                bot.refused(a)
            else:
                done += 1

    play(20)
    saved_turn = game.state.turn
    # Half a line and a refusal (action 1), a refusal each (actions 2 and 3, and flush_pending): four refusals.
    disk = FullDisk(fails=5)
    monkeypatch.setattr(writer, "_os_write", disk)
    play(3)
    assert rec.error == os.strerror(errno.ENOSPC) and rec.pending == 3
    data = path.read_bytes()
    assert data.endswith(b"\n")  # the half line was cut off again
    assert len(load_recording(path).actions) == saved_turn  # and the file loads up to the last whole line
    assert rec.flush_pending() is False and rec.pending == 3  # still full (the last failure)
    play(1)  # the disk has room again: the kept lines go first, then this one
    assert rec.error is None and rec.pending == 0
    assert rec.flush_pending() is True
    play(5)
    rec.close()
    loaded = load_recording(path)
    assert [t for t, _, _ in loaded.actions] == list(range(1, game.state.turn + 1))  # each action once, in order
    assert replay(content, loaded, verify=True).checksum() == game.checksum()


def test_a_batched_recorder_writes_whole_lines_and_loses_nothing(
    content: Content, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bot's recorder gathers its action lines (``batch``): between writes the file holds whole lines up to
    the last batch; a full disk keeps the batch in memory (counted as pending) and a half-written batch is cut off
    again; the end line and close write what was gathered; the game then loads and verifies whole."""
    path = tmp_path / "g.jsonl"
    game = Game(content, "undercroft", 3)
    bot = Bot(game, 3)
    rec = Recorder.create(path, game, content, batch=4)
    writes: list[int] = []

    def counting(fd: int, data: memoryview) -> int:
        writes.append(len(data))
        return os.write(fd, data)

    def play(n: int) -> None:
        done = 0
        while done < n and not game.over:
            a = bot.choose()
            events = play_step(game, rec, a)
            if len(events) == 1 and events[0].type == "refused":
                bot.refused(a)
            else:
                done += 1

    monkeypatch.setattr(writer, "_os_write", counting)
    play(10)
    assert len(writes) == 2 and rec.pending == 2  # two writes of four lines; two lines gathered
    assert len(load_recording(path).actions) == 8  # the file: whole lines, up to the last batch written
    monkeypatch.setattr(writer, "_os_write", FullDisk(fails=2))  # half of the next batch, then a refusal
    play(2)
    assert rec.error == os.strerror(errno.ENOSPC) and rec.pending == 4
    assert path.read_bytes().endswith(b"\n") and len(load_recording(path).actions) == 8  # the half batch cut off
    play(3)  # gathered behind the kept ones, which are tried again with the next batch
    assert rec.pending == 7 and len(load_recording(path).actions) == 8
    play(2)  # room again: the kept lines go first, then the batch
    assert rec.pending == 1 and rec.error is None and len(load_recording(path).actions) == 16
    rec.close()  # writes the one gathered
    loaded = load_recording(path)
    assert [t for t, _, _ in loaded.actions] == list(range(1, game.state.turn + 1))
    assert replay(content, loaded, verify=True).digest() == game.digest()


def test_a_crash_writes_the_gathered_lines_before_its_own(
    content: Content, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "g.jsonl"
    game = Game(content, "undercroft", 3)
    bot = Bot(game, 3)
    rec = Recorder.create(path, game, content, batch=64)
    for _ in range(5):
        play_step(game, rec, bot.choose())
    turn = game.state.turn
    assert rec.pending == turn > 0 and load_recording(path).actions == []

    def boom(*_: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(game, "step", boom)
    with pytest.raises(RuntimeError):
        play_step(game, rec, Rest())
    loaded = load_recording(path)
    assert len(loaded.actions) == turn and loaded.crash is not None and loaded.crash["turn"] == turn + 1


def test_the_end_line_waits_for_the_disk_too(content: Content, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "g.jsonl"
    r = play_game(content, "undercroft", 5, record=str(path), max_actions=40)
    assert r.outcome == "timeout"
    loaded = load_recording(path)
    rec = Recorder.append_to(path, recording=loaded)
    game = replay(content, loaded)
    monkeypatch.setattr(writer, "_os_write", FullDisk(fails=10**9))
    bot = Bot(game, 5)
    for _ in range(3):
        a = bot.choose()
        play_step(game, rec, a)
    assert rec.pending >= 1 and rec.error
    assert load_recording(path).size == loaded.size  # nothing of the failed lines in the file
    rec.close()  # one last try, which fails: pending says what was not saved
    assert rec.pending >= 1
    assert path.read_bytes().endswith(b"\n")


def test_a_new_recording_that_cannot_be_written_leaves_no_file(
    content: Content, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = Game(content, "undercroft", 1)
    path = tmp_path / "saves" / "new.jsonl"
    monkeypatch.setattr(writer, "_os_write", FullDisk(fails=10**9))
    with pytest.raises(SaveError) as info:
        Recorder.create(path, game, content)
    assert isinstance(info.value, OSError) and info.value.errno == errno.ENOSPC
    assert info.value.path == path and str(info.value) == f"{path}: cannot save: {os.strerror(errno.ENOSPC)}"
    assert not path.exists()
    monkeypatch.undo()
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(SaveError, match="cannot save"):
        Recorder.create(blocker / "new.jsonl", game, content)  # its directory cannot be made
    with Recorder.create(path, game, content) as rec:  # and with room on the disk, it is written
        assert rec.error is None and rec.pending == 0
    assert load_recording(path).header.seed == 1


# --- compatibility ------------------------------------------------------------------------------------------------


def test_the_header_records_the_versions(content: Content, tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    with Recorder.create(path, Game(content, "undercroft", 1), content):
        pass
    first = json.loads(path.read_text().splitlines()[0])
    v = installed_versions()
    assert first["format"] == FORMAT_VERSION == 3
    assert (first["game_version"], first["python"], first["numpy"], first["tcod"]) == (
        __version__,
        v["python"],
        v["numpy"],
        v["tcod"],
    )
    assert v["tcod"]
    h = load_recording(path).header
    assert h.tcod == v["tcod"]
    assert compatibility(h, content.digest) == []


def _as_format_1(src: Path, dst: Path) -> None:
    """A format 2 recording written again as format 1 wrote it: no ``tcod`` in the header, the chain recomputed."""
    prev = ""
    out = []
    for n, line in enumerate(src.read_text().splitlines()):
        obj = json.loads(line)
        obj.pop("hash")
        if n == 0:
            obj["format"] = 1
            del obj["tcod"]
        prev, data = _line(prev, obj)
        out.append(data)
    dst.write_bytes(b"".join(out))


@pytest.mark.parametrize("name", ["undercroft-1.jsonl", "warden-33.jsonl"])
def test_a_format_1_recording_without_tcod_still_loads_replays_and_verifies(
    content: Content, tmp_path: Path, name: str
) -> None:
    path = tmp_path / name
    _as_format_1(ROOT / "tests" / "golden" / name, path)
    rec = load_recording(path)
    assert rec.header.format == 1 and rec.header.tcod == ""
    assert not any(x.startswith("tcod") for x in compatibility(rec.header, content.digest))
    game = record.replay(content, rec, verify=True)
    assert game.state.turn == len(rec.actions) == 300
    # and its checks still bite: a line edited is tampering; edited with its chain redone, a desync at its turn,
    # naming the part
    lines = path.read_text().splitlines()
    obj = json.loads(lines[5])
    obj["checksum"] = "0" * 16
    obj["parts"] = obj["parts"][:12] + "0000" + obj["parts"][16:]  # the party's digest (parts are sorted by name)
    path.write_text("\n".join([*lines[:5], json.dumps(obj), *lines[6:]]) + "\n")
    with pytest.raises(record.RecordingError, match=":6: tampered or corrupt"):
        load_recording(path)
    prev, out = "", []
    for line in path.read_text().splitlines():
        edited = json.loads(line)
        edited.pop("hash")
        prev, data = _line(prev, edited)
        out.append(data)
    path.write_bytes(b"".join(out))
    with pytest.raises(record.Desync) as caught:
        record.replay(content, load_recording(path), verify=True)
    assert caught.value.turn == 5 and caught.value.parts == ["party"]


def test_compatibility_names_each_difference(content: Content, tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    with Recorder.create(path, Game(content, "undercroft", 1), content):
        pass
    h = load_recording(path).header
    v = installed_versions()
    assert compatibility(h, h.data_digest) == []
    other = dataclasses.replace(
        h, data_digest="84a4aaaaaaaaaaaaaaaaaaaa", game_version="0.0.1", python="3.9.1", numpy="1.26.0", tcod="16.0.0"
    )
    assert compatibility(other, h.data_digest) == [
        f"rules data: recorded with 84a4aaaaaaaaaaaaaaaaaaaa, this data is {h.data_digest}",
        f"game version 0.0.1 → {v['game']}",
        f"Python 3.9.1 → {v['python']}",
        f"numpy 1.26.0 → {v['numpy']}",
        f"tcod 16.0.0 → {v['tcod']}",
    ]
    assert compatibility(dataclasses.replace(h, numpy="0.1"), h.data_digest) == [f"numpy 0.1 → {v['numpy']}"]


def test_verify_names_every_difference_then_refuses_other_data(run: Run, tmp_path: Path, unfinished: Path) -> None:
    def edit(n: int, obj: dict[str, Any]) -> dict[str, Any]:
        if n == 1:
            obj["data_digest"] = "84a4" + obj["data_digest"][4:]
            obj["numpy"] = "1.0.0"
        return obj

    bad = rewrite(unfinished, tmp_path / "other.jsonl", edit)
    code, out, err = run("replay", "--verify", str(bad))
    lines = err.splitlines()
    assert code == 2 and out == "" and len(lines) == 3, err
    assert "rules data: recorded with 84a4" in lines[0] and "numpy 1.0.0 → " in lines[1]
    assert "--force" in lines[2]
    code, out, err = run("replay", "--verify", "--force", str(bad))
    assert code == 0 and "ok" in out and err.count("warning") == 2


# --- the commands' numbers and paths --------------------------------------------------------------------------------


def test_sim_fights_are_bounded(run: Run) -> None:
    code, out, err = run("sim", "goblin", "--fights", str(10**30))
    assert code == 2 and out == ""
    assert "--fights must be 1..100,000,000" in one_line(err)
    code, _, err = run("sim", "goblin", "--fights", "9" * 100_000)
    assert code == 2 and "--fights must be" in one_line(err) and "digits" in err


def test_sim_write_to_a_bad_path_is_one_line(run: Run, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    for target, words in ((blocker / "BALANCE.md", "not a directory"), (tmp_path, "a directory")):
        code, out, err = run("sim", "--all", "--markdown", "--fights", "10", "--write", str(target))
        assert code == 2 and out == "", err
        msg = one_line(err)
        assert f"{target}: cannot write the every-monster block" in msg and words in msg


def test_sim_write_in_a_real_process_has_no_traceback(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    p = cli("sim", "--all", "--markdown", "--fights", "10", "--write", str(blocker / "x.md"), timeout=120)
    assert p.returncode == 2 and "cannot write" in one_line(p.stderr)


@pytest.mark.parametrize("kind", ["fifo", "device", "directory"])
@pytest.mark.parametrize("command", ["replay --screenshot", "balance --write"])
def test_an_output_that_is_not_a_regular_file_is_refused_never_waited_on(
    run: Run, tmp_path: Path, kind: str, command: str
) -> None:
    target = {"fifo": tmp_path / "out.png", "device": Path(os.devnull), "directory": tmp_path}[kind]
    if kind == "fifo":
        os.mkfifo(target)
    argv = (
        ["replay", str(GOLDEN), "--screenshot", str(target)]
        if command == "replay --screenshot"
        else ["balance", "--games", "1", "--write", str(target)]
    )
    with within(20):  # (before the change: the FIFO was opened and waited on for good)
        code, out, err = run(*argv)
    assert code == 2 and out == ""
    what = {"fifo": "a FIFO (named pipe)", "device": "a device", "directory": "a directory"}[kind]
    assert one_line(err) == f"undercroft: {target}: is {what}, not a file to write"


@pytest.mark.extras
def test_a_fifo_in_place_of_a_balance_chart_is_refused_before_the_games(run: Run, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    charts = tmp_path / "charts"
    charts.mkdir()
    os.mkfifo(charts / "win_rate.png")
    with within(20):
        code, out, err = run(
            "balance",
            "--games",
            "1",
            "--rulesets",
            "warden",
            "--write",
            str(tmp_path / "B.md"),
            "--charts",
            str(charts),
        )
    assert code == 2 and out == ""
    assert one_line(err) == f"undercroft: {charts / 'win_rate.png'}: is a FIFO (named pipe), not a file to write"


def test_a_fifo_put_in_place_of_an_output_after_the_check_is_refused_too(tmp_path: Path) -> None:
    fifo = tmp_path / "out.png"
    os.mkfifo(fifo)
    with within(10):
        with pytest.raises(FileRefused, match=r"not a regular file \(a FIFO") as info:
            write_checked(fifo, b"png")  # nobody reads it
        assert info.value.filename == str(fifo)
        reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        try:
            with pytest.raises(FileRefused, match="FIFO"):
                write_checked(fifo, b"png")  # a reader waits on it: still not written
            assert os.read(reader, 10) == b""
        finally:
            os.close(reader)
        with pytest.raises(FileRefused, match="a directory"):
            write_checked(tmp_path, b"png")
    out = tmp_path / "new.png"
    out.write_bytes(b"a longer old file")
    write_checked(out, b"png")
    assert out.read_bytes() == b"png"


@pytest.mark.parametrize(
    "argv",
    [
        ["autoplay", "--games", "0"],
        ["autoplay", "--games", str(10**40)],
        ["autoplay", "--max-actions", "-5"],
        ["sim", "goblin", "--count", "x"],
    ],
)
def test_counts_are_bounded_by_argparse(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "error: argument" in err and "expected a whole number" in err and "Traceback" not in err


def test_a_seed_of_any_length_is_a_seed(run: Run) -> None:
    code, out, err = run("autoplay", "--games", "1", "--max-actions", "5", "--json", "--seed", "7" * 100_000)
    assert code == 0, err
    assert 0 <= json.loads(out)["seed"] < 2**64
