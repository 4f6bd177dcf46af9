"""``undercroft replay FILE --shrink``: the shortest recording that still reaches an event, raises its crash, or
(cut, not shrunk) desyncs; written beside FILE as a recording that replays as it says."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from undercroft.content import Content
from undercroft.record import load_recording, replay
from undercroft.record.format import _line
from undercroft.record.shrink import Goal, attempt, shrink
from undercroft.rules.actions import Descend, Move
from undercroft.rules.game import Game
from undercroft.tools.autoplay import play_game

Run = Callable[..., tuple[int, str, str]]  # (the `run` fixture: tests/conftest.py)

GOLDEN = Path(__file__).parent / "golden"


@pytest.fixture
def warden(tmp_path: Path) -> Path:
    """A golden bot game (300 actions; the party first runs away at turn 119), copied where a test may write
    beside it."""
    return Path(shutil.copy(GOLDEN / "v3" / "warden-33.jsonl", tmp_path / "warden-33.jsonl"))


def one_line(err: str) -> str:
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def event_turns(content: Content, path: Path, kind: str) -> list[int]:
    """The turns of a recording's replay at which an event of ``kind`` happened."""
    turns: list[int] = []
    replay(content, load_recording(path), on_events=lambda t, a, evs: turns.extend(t for e in evs if e.type == kind))
    return turns


# --- an event -------------------------------------------------------------------------------------------------


def test_shrinking_to_an_event_writes_a_shorter_recording_that_verifies(
    run: Run, content: Content, warden: Path
) -> None:
    code, out, err = run("replay", str(warden), "--shrink", "--until-event", "run")
    assert code == 0, err
    shrunk = warden.with_name("warden-33.shrunk.jsonl")
    assert out.startswith(f"{shrunk}: ") and "still reaches a 'run' event (no single one can be left out" in out
    rec = load_recording(shrunk)
    original = load_recording(warden)
    assert (rec.header.seed, rec.header.ruleset) == (original.header.seed, original.header.ruleset)
    assert 0 < len(rec.actions) < event_turns(content, warden, "run")[0]  # shorter than the way the bot went
    assert event_turns(content, shrunk, "run") == [len(rec.actions)]  # the party runs at its last action
    code, out, err = run("replay", "--verify", str(shrunk))
    assert code == 0 and ": ok: " in out, err
    actions = [a for _, a, _ in rec.actions]
    for i in range(len(actions)):  # 1-minimal: without any one of its actions, no running away
        assert attempt(content, "warden", rec.header.seed, actions[:i] + actions[i + 1 :], Goal("event", "run")) is None


def test_the_output_never_overwrites(run: Run, warden: Path) -> None:
    first = warden.with_name("warden-33.shrunk.jsonl")
    first.write_text("mine\n")
    code, out, err = run("replay", str(warden), "--shrink", "--until-event", "encounter")
    assert code == 0, err
    assert first.read_text() == "mine\n"
    assert out.startswith(f"{warden.with_name('warden-33.shrunk-2.jsonl')}: ")
    code, _, err = run("replay", str(warden), "--shrink", "--until-event", "encounter", "-o", str(first))
    assert code == 2 and "already exists: not overwritten" in one_line(err)
    assert first.read_text() == "mine\n"


def test_an_action_refused_in_a_candidate_is_skipped(content: Content) -> None:
    rec = load_recording(GOLDEN / "v3" / "warden-33.jsonl")
    actions = [a for _, a, _ in rec.actions]
    game = Game(content, "warden", rec.header.seed)
    assert game.step(Descend())[0].type == "refused"  # not on the stairs at the start
    got = attempt(content, "warden", rec.header.seed, [Descend(), *actions], Goal("event", "encounter"))
    assert (
        got is not None
        and Descend() not in got
        and got == attempt(content, "warden", rec.header.seed, actions, Goal("event", "encounter"))
    )


def test_the_work_is_capped(content: Content) -> None:
    rec = load_recording(GOLDEN / "v3" / "warden-33.jsonl")
    actions = [a for _, a, _ in rec.actions]
    seen: list[tuple[int, int]] = []
    got = shrink(
        content,
        "warden",
        rec.header.seed,
        actions,
        Goal("event", "combat"),
        max_replays=5,
        progress=lambda n, r: seen.append((n, r)),
    )
    assert got is not None and got.replays == 5 and not got.minimal
    assert [r for _, r in seen] == [1, 2, 3, 4, 5]
    whole = shrink(content, "warden", rec.header.seed, actions, Goal("event", "combat"))
    assert whole is not None and whole.minimal and len(whole.actions) <= len(got.actions) < len(actions)


def test_a_progress_bar_on_a_terminal(run: Run, warden: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("undercroft.cli.progress.wanted", lambda *a, **k: True)  # as if stderr were a terminal
    code, out, err = run("replay", str(warden), "--shrink", "--until-event", "run")
    assert code == 0 and "shrinking:" in err and "/300" in err and "still reaches a 'run' event" in out


def test_an_event_that_never_happens_is_nothing_to_shrink(run: Run, warden: Path) -> None:
    code, _, err = run("replay", str(warden), "--shrink", "--until-event", "won")
    assert code == 1 and "no 'won' event in its replay: nothing to shrink" in one_line(err)
    assert not warden.with_name("warden-33.shrunk.jsonl").exists()


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--shrink", "--until-event", "died"], "no event type 'died'"),
        (["--shrink", "--until-event", "refused"], "a refused action is never recorded"),
        (["--shrink"], "it replays and verifies: no crash or desync to shrink"),
        (["--shrink", "--verify"], "--shrink replays on its own: --verify does not go with it"),
        (["--shrink", "--diff", "x.jsonl"], "choose one of --shrink, --diff"),
        (["--until-event", "death"], "--until-event goes with --shrink"),
        (["-o", "x.jsonl"], "-o goes with --shrink"),
    ],
)
def test_arguments_that_cannot_be_used_give_one_line(run: Run, warden: Path, argv: list[str], words: str) -> None:
    code, out, err = run("replay", str(warden), *argv)
    assert code == 2 and words in one_line(err) and out == ""


def test_bad_input_gives_one_line(run: Run, warden: Path, tmp_path: Path) -> None:
    code, _, err = run("replay", str(tmp_path / "missing.jsonl"), "--shrink", "--until-event", "combat")
    assert code == 2 and "no such file" in one_line(err)
    (tmp_path / "junk.jsonl").write_text("not a recording\n")
    code, _, err = run("replay", str(tmp_path / "junk.jsonl"), "--shrink", "--until-event", "combat")
    assert code == 2 and "junk.jsonl:1:" in one_line(err)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    code, _, err = run("replay", str(warden), "--shrink", "--until-event", "combat", "-o", str(blocker / "out.jsonl"))
    assert code == 2 and "cannot save" in one_line(err)


# --- a crash --------------------------------------------------------------------------------------------------


@pytest.fixture
def broken_move(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A bug: a step west raises from round 10 of the clock on."""
    from undercroft.rules.game import HANDLERS
    from undercroft.rules.types import Mode

    original = HANDLERS[(Mode.EXPLORE, "move")]

    def broken(ctx: Any, a: Any, events: Any) -> None:
        if ctx.state.rounds >= 10 and a.dx == -1:
            raise ZeroDivisionError("injected")
        original(ctx, a, events)

    monkeypatch.setitem(HANDLERS, (Mode.EXPLORE, "move"), broken)
    yield


def test_shrinking_a_crash_keeps_the_crash(run: Run, content: Content, tmp_path: Path, broken_move: None) -> None:
    path = tmp_path / "crash.jsonl"
    assert play_game(content, "undercroft", 5, record=str(path)).outcome == "crash"
    before = load_recording(path)
    assert before.crash is not None
    code, out, err = run("replay", str(path), "--shrink")
    assert code == 0, err
    shrunk = tmp_path / "crash.shrunk.jsonl"
    assert "still raises ZeroDivisionError" in out
    rec = load_recording(shrunk)
    assert rec.crash is not None and rec.crash["type"] == "ZeroDivisionError" and rec.crash["action"] == Move(-1, 0)
    assert len(rec.actions) < len(before.actions)
    assert (tmp_path / "crash.shrunk.crash.txt").is_file()  # the crash report, as for any crashed game
    code, _, err = run("replay", "--verify", str(shrunk))
    assert code == 1 and f"the recorded crash reproduced at turn {rec.crash['turn']}" in err


def test_a_recording_the_engine_now_crashes_on_shrinks_to_that_crash(run: Run, warden: Path, broken_move: None) -> None:
    """No crash line (it was recorded before the bug): its replay raising is the goal, as a recorded crash is."""
    code, out, err = run("replay", str(warden), "--shrink")
    assert code == 0, err
    assert "still raises ZeroDivisionError" in out
    rec = load_recording(warden.with_name("warden-33.shrunk.jsonl"))
    assert rec.crash is not None and rec.crash["type"] == "ZeroDivisionError" and len(rec.actions) < 20


def test_a_crash_that_no_longer_happens_is_nothing_to_shrink(
    run: Run, content: Content, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from undercroft.rules.game import HANDLERS
    from undercroft.rules.types import Mode

    original = HANDLERS[(Mode.EXPLORE, "move")]
    with monkeypatch.context() as m:
        m.setitem(HANDLERS, (Mode.EXPLORE, "move"), lambda c, a, e: 1 / 0 if c.state.turn >= 9 else original(c, a, e))
        path = tmp_path / "crash.jsonl"
        assert play_game(content, "undercroft", 6, record=str(path)).outcome == "crash"
    code, _, err = run("replay", str(path), "--shrink")  # the bug is fixed
    assert code == 1 and "the recorded crash (ZeroDivisionError) does not happen again" in one_line(err)


# --- a desync -------------------------------------------------------------------------------------------------


def test_a_desync_is_cut_after_its_line(run: Run, tmp_path: Path) -> None:
    """A desync cannot be shrunk (without an action, no recorded digest to compare with): the file is cut after the
    line where it first desyncs, and that cut desyncs at the same line."""
    src = GOLDEN / "undercroft-1.jsonl"  # format 2: JSON lines, easy to edit
    prev, out = "", []
    for n, text in enumerate(src.read_text().splitlines(), 1):
        obj = json.loads(text)
        obj.pop("hash")
        if n == 31:
            obj["checksum"] = "0" * 16
        prev, data = _line(prev, obj)
        out.append(data)
    path = tmp_path / "desync.jsonl"
    path.write_bytes(b"".join(out))
    code, out_text, err = run("replay", str(path), "--shrink")
    assert code == 0, err
    cut = tmp_path / "desync.shrunk.jsonl"
    assert "the first 31 of 301 lines" in out_text and "first desync (line 31, turn 30" in out_text
    assert cut.read_bytes() == b"".join(out[:31])
    code, _, err = run("replay", "--verify", str(cut))
    assert code == 1 and f"{cut}:31: desync at turn 30" in err
