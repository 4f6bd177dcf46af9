"""``undercroft replay FILE --cast OUT.cast``: the game as an asciinema v2 recording that ends on the recap."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from engine_helpers import content

from undercroft.cli.main import main
from undercroft.term.cast import CastOptions, write_cast
from undercroft.tools.autoplay import play_game


def read_cast(path: Path) -> tuple[dict[str, object], list[tuple[float, str]]]:
    """The header and the frames of an asciicast v2 file, every line checked against the format: a JSON object,
    then JSON arrays ``[seconds, "o", text]`` in time order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    assert isinstance(header, dict) and header["version"] == 2
    assert isinstance(header["width"], int) and isinstance(header["height"], int)
    frames: list[tuple[float, str]] = []
    for line in lines[1:]:
        t, kind, text = json.loads(line)
        assert isinstance(t, (int, float)) and kind == "o" and isinstance(text, str) and text
        assert not frames or t >= frames[-1][0]
        frames.append((float(t), text))
    return header, frames


def test_a_cast_is_asciicast_v2_at_its_speed_with_idle_capped(tmp_path: Path) -> None:
    rec = tmp_path / "g.jsonl"
    play_game(content(), "warden", 3, record=str(rec), max_actions=20)
    out = tmp_path / "g.cast"
    n = write_cast(content(), rec, out, CastOptions(speed=8.0, idle=0.5, hold=3.0))
    header, frames = read_cast(out)
    assert (header["width"], header["height"], header["idle_time_limit"]) == (80, 24, 0.5)
    assert len(frames) == n and frames[0][0] == 0.0 and frames[0][1].startswith("\x1b[0m\x1b[H\x1b[2J")
    gaps = [b[0] - a[0] for a, b in itertools.pairwise(frames)]
    assert min(gaps) >= 0.125 - 1e-9 and max(gaps) <= 0.125 + 0.5 + 1e-9  # a step each 1/8 s; a hold capped
    assert "REPLAY" in frames[0][1] and "x8/s" in frames[0][1]  # the viewer's bar says the speed


@pytest.mark.slow
def test_the_cast_of_a_lost_game_ends_on_where_it_turned(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rec = tmp_path / "dead.jsonl"
    play_game(content(), "warden", 7, record=str(rec), max_actions=5000)  # (the morgue tests' lost run)
    out = tmp_path / "dead.cast"
    assert main(["replay", str(rec), "--cast", str(out), "--speed", "32"]) == 0
    assert f"{out}:" in capsys.readouterr().out
    _, frames = read_cast(out)
    last = "".join(text for _, text in frames[-3:])
    assert "You are dead." in last and "Where it turned:" in last
    assert main(["replay", str(rec), "--cast", str(out), "--until", "5"]) != 0  # the whole game or nothing
