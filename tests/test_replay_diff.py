"""``undercroft replay A --diff B``: where two recordings of one seed part ways, the actions and the state."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from undercroft.content import Content
from undercroft.record import Recorder, load_recording, play_step
from undercroft.record.format import _line
from undercroft.rules.actions import Move, Rest
from undercroft.rules.game import Game

Run = Callable[..., tuple[int, str, str]]  # (the `run` fixture: tests/conftest.py)

GOLDEN = Path(__file__).parent / "golden" / "v3"
A = GOLDEN / "undercroft-1.jsonl"


def one_line(err: str) -> str:
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def test_where_the_party_rested_instead_of_walking(run: Run, content: Content, tmp_path: Path) -> None:
    """B is A up to turn 20, then a rest where A took a step: the first different action and the party's place."""
    rec = load_recording(A)
    game = Game(content, "undercroft", rec.header.seed)
    b = tmp_path / "b.jsonl"
    with Recorder.create(b, game, content) as out:
        for turn, action, _ in rec.actions:
            if turn > 20 and isinstance(action, Move) and game.legal(Rest()):
                break
            play_step(game, out, action)
        else:
            pytest.fail("the bot never walked where it could have rested")
        before = game.state.pos
        assert play_step(game, out, Rest())[0].type != "refused"
    assert isinstance(action, Move)
    dx, dy = action.dx, action.dy
    code, text, err = run("replay", str(A), "--diff", str(b))
    assert code == 1, err
    lines = text.splitlines()
    assert lines[:3] == [
        f"the actions first differ at turn {turn}:",
        f"  {A}:{turn + 1}: move {dx} {dy}",
        f"  {b}:{turn + 1}: rest",
    ]
    assert lines[3].startswith(f"the states first differ after turn {turn}, in ") and "party" in lines[3]
    assert f"  party: pos: {(before[0] + dx, before[1] + dy)} | {before}" in lines


def test_a_recording_and_its_first_lines(run: Run, tmp_path: Path) -> None:
    b = tmp_path / "b.jsonl"
    b.write_text("".join(A.read_text().splitlines(keepends=True)[:51]))  # the header and 50 actions
    code, text, err = run("replay", str(A), "--diff", str(b))
    assert code == 1, err
    assert text.splitlines() == [
        "the states are the same after each of the 50 turns both have",
        f"{A} goes on to turn 300; the other ends at turn 50",
    ]


def test_the_same_game_twice(run: Run, tmp_path: Path) -> None:
    b = Path(shutil.copy(A, tmp_path / "copy.jsonl"))
    code, text, err = run("replay", str(A), "--diff", str(b))
    assert (code, text, err) == (0, "the states are the same after each of the 300 turns both have\n", "")


def test_other_games_and_bad_input_give_one_line(run: Run, tmp_path: Path) -> None:
    code, out, err = run("replay", str(A), "--diff", str(GOLDEN / "warden-33.jsonl"))
    assert code == 2 and out == ""
    assert "are not the same game (seed 1, ruleset undercroft | seed 33, ruleset warden)" in one_line(err)
    code, _, err = run("replay", str(A), "--diff", str(tmp_path / "missing.jsonl"))
    assert code == 2 and f"{tmp_path / 'missing.jsonl'}: no such file" in one_line(err)
    (tmp_path / "junk.jsonl").write_text("[]\n")
    code, _, err = run("replay", str(A), "--diff", str(tmp_path / "junk.jsonl"))
    assert code == 2 and "junk.jsonl:1:" in one_line(err)
    code, _, err = run("replay", str(A), "--diff", str(A), "--events")
    assert code == 2 and "--diff replays on its own: --events does not go with it" in one_line(err)


def test_an_action_the_engine_refuses_stops_the_replay(run: Run, tmp_path: Path) -> None:
    """B says the party took the stairs at turn 10, far from them (an edited recording, its chain made again)."""
    src = GOLDEN.parent / "undercroft-1.jsonl"  # format 2: JSON lines, easy to edit
    prev, lines = "", []
    for n, text in enumerate(src.read_text().splitlines(), 1):
        obj = json.loads(text)
        obj.pop("hash")
        if n == 11:
            obj["action"] = {"type": "descend"}
        prev, data = _line(prev, obj)
        lines.append(data)
    b = tmp_path / "b.jsonl"
    b.write_bytes(b"".join(lines))
    code, text, err = run("replay", str(src), "--diff", str(b))
    assert code == 1, err
    assert text.splitlines()[2:] == [
        f"  {b}:11: descend",
        f"the replay stopped: {b}: the action of turn 10 (descend) is refused by the engine (no_stairs)",
    ]


def test_the_same_actions_recorded_by_another_engine(
    run: Run, content: Content, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """B took A's actions under rules where a rest finds a coin: this engine replays both the same, and the
    digests the files carry (format 3) say where the recorded games parted: after the rest, in the party."""
    from typing import Any

    from undercroft.rules.game import HANDLERS
    from undercroft.rules.types import Mode

    actions = [Move(0, 1), Move(0, 1), Rest(), Move(0, 1)]

    def record(path: Path) -> Path:
        game = Game(content, "undercroft", 5)
        with Recorder.create(path, game, content) as out:
            for action in actions:
                assert play_step(game, out, action)[0].type != "refused"
        return path

    a = record(tmp_path / "a.jsonl")
    rest = HANDLERS[(Mode.EXPLORE, "rest")]

    def generous(ctx: Any, action: Any, events: Any) -> None:
        rest(ctx, action, events)
        ctx.state.gold += 1

    monkeypatch.setitem(HANDLERS, (Mode.EXPLORE, "rest"), generous)
    b = record(tmp_path / "b.jsonl")
    monkeypatch.undo()
    code, out, _ = run("replay", str(a), "--diff", str(b))
    assert code == 1
    assert out.splitlines() == [
        "the states are the same after each of the 4 turns both have",
        "but the digests the files carry first differ after turn 3, in party: they were recorded with other data or "
        "another version of the rules",
    ]
    assert run("replay", str(a), "--diff", str(a))[0] == 0


def test_the_same_actions_with_another_end_line_or_score_are_not_the_same(run: Run, tmp_path: Path) -> None:
    """B is A with an end line A lacks (a win scoring 5): the actions and states agree, but the files do not."""
    rec = load_recording(A)
    turn, _, digest = rec.actions[-1]
    b = tmp_path / "b.jsonl"
    end = _line(rec.last_hash, {"end": "won", "turn": turn, "digest": digest, "score": 5})[1]
    b.write_bytes(A.read_bytes() + end)
    code, out, _ = run("replay", str(A), "--diff", str(b))
    assert code == 1, out
    assert "the end line differs (A | B): - | won" in out and "the score differs (A | B): - | 5" in out
