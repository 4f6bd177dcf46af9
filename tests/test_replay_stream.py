"""A recording replayed as it is read (``record.replay_file``) plays and checks exactly as
``replay(load_recording(...))`` does, and holds none of its actions (memory flat however long it is)."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest
from engine_helpers import content
from test_record_format3 import rechain

from undercroft.cli.main import main
from undercroft.record import Desync, load_recording, replay, replay_file
from undercroft.tools.bench.replay import write_long_recording

GOLDEN = sorted((Path(__file__).parent / "golden").glob("**/*.jsonl"))


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_streamed_replay_ends_where_the_loaded_one_does(path: Path) -> None:
    rec = load_recording(path)
    streamed, game = replay_file(content(), path, verify=True)
    assert game.digest() == replay(content(), rec, verify=True).digest()
    assert (streamed.end, streamed.score, streamed.actions) == (rec.end, rec.score, [])


def test_a_streamed_replay_stops_at_the_first_desync_as_the_loaded_one_does(tmp_path: Path) -> None:
    golden = next(p for p in GOLDEN if p.parent.name == "v3")
    lines = golden.read_bytes().splitlines()
    turn, kind, *fields, digest, h = lines[10].decode().split(" ")
    wrong = ("0" if digest[0] != "0" else "1") + digest[1:]
    lines[10] = " ".join([turn, kind, *fields, wrong, h]).encode()
    forged = tmp_path / "forged.jsonl"
    forged.write_bytes(rechain(lines))  # (the chain holds: only the replay can tell)
    with pytest.raises(Desync) as loaded:
        replay(content(), load_recording(forged), verify=True)
    with pytest.raises(Desync) as streamed:
        replay_file(content(), forged, verify=True)
    assert (streamed.value.turn, streamed.value.line, str(streamed.value)) == (
        loaded.value.turn,
        loaded.value.line,
        str(loaded.value),
    )
    assert streamed.value.line == 11


@pytest.mark.slow
def test_a_streamed_replay_keeps_no_action(tmp_path: Path) -> None:
    path = tmp_path / "long.jsonl"
    write_long_recording(content(), path, 3000)
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        _, game = replay_file(content(), path, verify=True)
        streamed = tracemalloc.get_traced_memory()[1] - base
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        loaded = replay(content(), load_recording(path), verify=True)
        held = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert game.state.turn == loaded.state.turn == 3000
    assert held > 3 * streamed  # (3,000 actions held: about 0.6 MB; streamed: the game and one line)


@pytest.mark.slow
def test_replay_verify_on_the_command_line_keeps_no_action(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def peak(actions: int) -> int:
        path = tmp_path / f"long{actions}.jsonl"
        write_long_recording(content(), path, actions)
        tracemalloc.start()
        try:
            assert main(["replay", str(path), "--verify"]) == 0
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
            assert f"ok: {actions} actions verified" in capsys.readouterr().out

    short, long = peak(3000), peak(6000)
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        rec = load_recording(tmp_path / "long3000.jsonl")
        held = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert len(rec.actions) == 3000
    assert long - short < held / 3  # (3,000 more actions: the peak hardly moves; held, they would add `held`)
