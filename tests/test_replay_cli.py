"""``undercroft replay``: the log, --verify, --events, --until, --force, and every kind of bad file."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from format2 import as_format_2

from undercroft.content import Content, load_content
from undercroft.record import MAX_LINE, load_recording
from undercroft.record.format import _line
from undercroft.tools.autoplay import play_game

Run = Callable[..., tuple[int, str, str]]  # (the `run` fixture: tests/conftest.py)


@pytest.fixture(scope="module")
def recording3(tmp_path_factory: pytest.TempPathFactory, content: Content) -> Path:
    """A finished bot game of the default ruleset that ends in death (the first such seed from 6 on: a short game),
    as the game records it now (format 3)."""
    directory = tmp_path_factory.mktemp("rec")
    for seed in (952, 166, *range(6, 60)):  # (952 dies on turn 48: cheap)
        path = directory / f"game-{seed}.jsonl"
        if play_game(content, "undercroft", seed, record=str(path)).outcome == "dead":
            return path
    raise AssertionError("no bot game from seeds 6..59 died")


@pytest.fixture(scope="module")
def recording(tmp_path_factory: pytest.TempPathFactory, content: Content, recording3: Path) -> Path:
    """The same game in format 2 (JSON lines, every line an object: what the JSON-editing cases below edit)."""
    return as_format_2(content, recording3, tmp_path_factory.mktemp("rec2") / recording3.name)


def rewrite(src: Path, dst: Path, edit: Callable[[int, dict[str, Any]], dict[str, Any] | None]) -> Path:
    """Copy a recording, editing lines (1-based number, object without its hash) and re-chaining the hashes: a
    recording that is well formed but says something else."""
    prev = ""
    out = []
    for n, text in enumerate(src.read_text().splitlines(), 1):
        obj = json.loads(text)
        obj.pop("hash")
        new = edit(n, obj)
        if new is None:
            continue
        prev, data = _line(prev, new)
        out.append(data)
    dst.write_bytes(b"".join(out))
    return dst


def one_error_line(err: str, path: Path, line: int | None) -> str:
    lines = [x for x in err.splitlines() if x.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    msg = lines[0]
    where = f"{path}:{line}:" if line is not None else f"{path}:"
    assert where in msg, msg
    return msg


# --- the modes ------------------------------------------------------------------------------------------------


def test_default_prints_the_plain_log(run: Run, recording: Path) -> None:
    code, out, err = run("replay", str(recording))
    assert code == 0, err
    lines = out.splitlines()
    assert any(x.startswith(("  . Monster check", "  : Monster check")) for x in lines)  # marked: not the player's
    assert lines[-1].startswith("You are dead. Killed by the")
    assert not any(x.startswith("{") for x in lines)


GOLDEN = Path(__file__).parent / "golden" / "v3" / "undercroft-1.jsonl"  # format 3 (the format 2 one logs the same)
MARKS = ("  . ", "  : ")  # the detail and internal lines of the plain log (docs/REPLAY.md)


def found_nothing(line: str) -> bool:
    """A monster check that found nothing: the rules' own working (narrate: ``internal``)."""
    return "Monster check (" in line and line.endswith(": nothing.")


def test_log_level_player_prints_only_the_players_lines(run: Run) -> None:
    code, everything, err = run("replay", str(GOLDEN))
    assert code == 0, err
    code, out, err = run("replay", "--log-level", "player", str(GOLDEN))
    assert code == 0, err
    full, player = everything.splitlines(), out.splitlines()
    assert any(found_nothing(x) for x in full)
    assert 0 < len(player) < len(full)
    assert not any(found_nothing(x) or "Monster check" in x for x in player)
    assert not any(x.startswith(MARKS) or x.startswith(" ") for x in player)  # unmarked: nothing but the player's
    assert player == [x for x in full if not x.startswith(MARKS)]  # the same lines, in the same order
    assert "You pick up the Rations." in player and "A Hobgoblin!" in player
    table = "The resident table of level 1: row 6, column 4: 1 x Ghoul."
    assert not {"Distance: 80 ft.", "Distance rolled: 80 ft.", table} & set(player)


def test_log_level_internal_is_the_default_and_marks_every_line_below_the_players(run: Run) -> None:
    _, default, _ = run("replay", str(GOLDEN))
    code, out, err = run("replay", "--log-level", "internal", str(GOLDEN))
    assert code == 0, err
    assert out == default
    lines = out.splitlines()
    nothing = [x for x in lines if found_nothing(x)]
    assert nothing and all(x.startswith("  : Monster check (") for x in nothing)
    assert "  : The resident table of level 1: row 2, column 4: 1 x Goblin." in lines
    assert "  : Distance rolled: 60 ft." in lines
    assert "  . Monster check (new room): rolled 3, 1-3 means a resident monster: a resident monster." in lines
    assert "  . Distance: 40 ft (rolled 60 ft)." in lines and "  . Reaction: rolled 8: uncertain." in lines
    assert "A Goblin!" in lines and "  . A Goblin!" not in lines  # the player's lines as they were


def test_log_level_detail_adds_the_rolls_but_not_the_rules_working(run: Run) -> None:
    counts: dict[str, int] = {}
    for level in ("player", "detail", "internal"):
        code, out, err = run("replay", "--log-level", level, str(GOLDEN))
        assert code == 0, err
        counts[level] = len(out.splitlines())
        if level == "detail":
            lines = out.splitlines()
            assert "  . Distance: 40 ft (rolled 60 ft)." in lines  # the map's, as the panel says
            assert not any(x.startswith("  : ") or found_nothing(x) for x in lines)
    assert counts["player"] < counts["detail"] < counts["internal"]


def test_log_level_is_checked(run: Run, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        run("replay", "--log-level", "everything", str(GOLDEN))
    assert info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
    for flag in ("--events", "--verify"):  # they print no plain log: the level would silently mean nothing
        code, out, err = run("replay", "--log-level", "player", flag, str(GOLDEN))
        assert code == 2 and out == "" and "Traceback" not in err
        assert err.strip().splitlines() == [
            f"undercroft: --log-level chooses the lines of the plain log, which {flag} does not print"
        ]


@pytest.fixture(params=["recording3", "recording"], ids=["format3", "format2"])
def either(request: pytest.FixtureRequest) -> Path:
    """The recorded game, in the current format and in format 2: the modes work the same on both."""
    path = request.getfixturevalue(request.param)
    assert isinstance(path, Path)
    return path


def test_verify_accepts_a_good_recording(run: Run, either: Path) -> None:
    code, out, err = run("replay", "--verify", str(either))
    assert code == 0, err
    assert "ok" in out and "actions verified" in out and "finished: dead" in out
    fmt = load_recording(either).header.format
    assert ("final digest " if fmt >= 3 else "final checksum ") in out


def test_events_are_json_lines(run: Run, either: Path) -> None:
    code, out, _ = run("replay", "--events", str(either))
    assert code == 0
    events = [json.loads(x) for x in out.splitlines()]
    assert {e["type"] for e in events} >= {"move", "enter", "roll", "attack", "death"}
    assert all(isinstance(e["turn"], int) and e["turn"] >= 1 for e in events)
    attack = next(e for e in events if e["type"] == "attack")
    assert {"attacker", "target", "natural", "hit", "damage", "text"} <= set(attack)
    assert events[-1]["type"] == "death"


def test_until_prints_the_state_summary(run: Run, either: Path) -> None:
    code, out, _ = run("replay", "--verify", "--until", "40", str(either))
    assert code == 0
    assert "Turn 40 " in out and "Delver HP" in out and "Gold:" in out and "Level 1" in out
    assert "Segment" in out and "Monsters present:" in out


def test_until_must_be_a_turn(run: Run, recording: Path) -> None:
    with pytest.raises(SystemExit) as info:
        run("replay", "--until", "-3", str(recording))
    assert info.value.code == 2


def test_a_changed_action_fails_verify_at_its_turn(run: Run, recording: Path, tmp_path: Path) -> None:
    lines = [json.loads(t) for t in recording.read_text().splitlines()]
    turn = next(o["turn"] for o in lines if o.get("turn", 0) >= 30 and o.get("action", {}).get("type") == "move")

    def edit(n: int, obj: dict[str, Any]) -> dict[str, Any]:
        if obj.get("turn") == turn and "action" in obj:
            assert obj["action"]["type"] == "move", "pick a turn where the bot walked"
            obj["action"] = {"type": "rest"}
        return obj

    bad = rewrite(recording, tmp_path / "changed.jsonl", edit)
    code, _, err = run("replay", "--verify", str(bad))
    assert code == 1
    assert f"{bad}:{turn + 1}: desync at turn {turn}" in err
    assert '"type": "rest"' in err and "the state differs in:" in err and "clock" in err
    assert "Traceback" not in err


# --- other data, another version --------------------------------------------------------------------------------


def test_other_data_warns_and_refuses_unless_forced(
    run: Run, data_copy: Path, mutate: Any, tmp_path: Path, content: Content
) -> None:
    mutate(data_copy, "monsters.yaml", "Barely a monster.", "Hardly a monster.")  # changes only the digest
    other = load_content(data_copy)
    assert other.digest != content.digest
    path = tmp_path / "other.jsonl"
    play_game(other, "undercroft", 5, record=str(path), max_actions=60)
    code, out, err = run("replay", "--verify", str(path))
    assert code == 2
    assert "warning" in err and "other rules data" in err and "--force" in err
    assert "Traceback" not in err and out == ""
    code, out, err = run("replay", "--verify", "--force", str(path))
    assert code == 0 and "ok" in out and "warning" in err
    code, out, err = run("replay", "--verify", "--data", str(data_copy), str(path))
    assert code == 0 and "warning" not in err


def test_another_game_version_warns_and_goes_on(run: Run, recording: Path, tmp_path: Path) -> None:
    from undercroft import __version__

    def edit(n: int, obj: dict[str, Any]) -> dict[str, Any]:
        if n == 1:
            obj["game_version"] = "0.0.1"
            obj["python"] = "3.9.0"
        return obj

    old = rewrite(recording, tmp_path / "old.jsonl", edit)
    code, out, err = run("replay", "--verify", str(old))
    assert code == 0 and "ok" in out
    warnings = [x for x in err.splitlines() if "warning" in x]
    assert len(warnings) == 2, err  # each difference named, before the replay
    assert f"game version 0.0.1 → {__version__}" in warnings[0] and "Python 3.9.0 → " in warnings[1]
    assert "--force" not in err and "Traceback" not in err


def test_an_unknown_ruleset_is_refused(run: Run, recording: Path, tmp_path: Path) -> None:
    def edit(n: int, obj: dict[str, Any]) -> dict[str, Any]:
        if n == 1:
            obj["ruleset"] = "nethack"
        return obj

    bad = rewrite(recording, tmp_path / "rs.jsonl", edit)
    code, _, err = run("replay", "--force", str(bad))
    assert code == 2
    assert "ruleset 'nethack'" in one_error_line(err, bad, 1)


# --- bad files: one clear line naming the line, exit 2 ---------------------------------------------------------


def bad_files(recording: Path, d: Path) -> list[tuple[str, Path, int | None, str]]:
    text = recording.read_bytes()
    lines = text.splitlines(keepends=True)
    out: list[tuple[str, Path, int | None, str]] = []

    def put(name: str, data: bytes, line: int | None, words: str) -> None:
        p = d / f"{name}.jsonl"
        p.write_bytes(data)
        out.append((name, p, line, words))

    out.append(("missing", d / "missing.jsonl", None, "no such file"))
    put("empty", b"", 1, "empty")
    put("truncated", b"".join(lines[:-1]) + lines[-1][: len(lines[-1]) // 2], len(lines), "truncated")
    put("cut_after_header", lines[0][:40], 1, "truncated")
    put("random_text", b"Dear diary, today I went to the dungeon.\nIt was dark.\n", 1, "not JSON")
    put("json_array", b"[1, 2, 3]\n", 1, "JSON object")
    put("other_json", b'{"name": "a package.json"}\n', 1, "not an Undercroft recording")
    put("binary", bytes(range(128, 256)) + b"\n", 1, "UTF-8")
    tampered = [*lines]
    tampered[10] = re.sub(rb'"checksum":"[0-9a-f]{16}"', b'"checksum":"0123456789abcdef"', lines[10], count=1)
    assert tampered[10] != lines[10]
    put("tampered_checksum", b"".join(tampered), 11, "tampered")
    edited = [*lines]
    k = next(i for i in range(20, len(lines)) if b'"type":"move"' in lines[i])
    edited[k] = re.sub(
        rb'"d([xy])":(-?[01])',
        lambda m: b'"d' + m.group(1) + b'":' + (b"0" if m.group(2) != b"0" else b"1"),
        lines[k],
        count=1,
    )
    assert edited[k] != lines[k]
    put("tampered_action", b"".join(edited), k + 1, "tampered")
    field = [*lines]
    field[15] = field[15].replace(b'"turn":15', b'"turn":16', 1)
    assert field[15] != lines[15]
    put("tampered_turn", b"".join(field), 16, "tampered")
    dropped = [*lines[:12], *lines[13:]]
    put("dropped_line", b"".join(dropped), 13, "tampered")
    put("huge_line", lines[0] + b'{"turn":1,"pad":"' + b"x" * (MAX_LINE + 10) + b'"}\n', 2, "longer than")
    put("deep_nesting", lines[0] + b"[" * 50_000 + b"]" * 50_000 + b"\n", 2, "longer than")
    put("deep_nesting_short", lines[0] + b"[" * 20_000 + b"]" * 20_000 + b"\n", 2, "nested too deeply")
    put("nan", lines[0] + b'{"turn":NaN}\n', 2, "NaN")
    put("blank_line", lines[0] + b"\n" + b"".join(lines[1:]), 2, "blank line")
    put("after_end", text + lines[5], len(lines) + 1, "nothing may follow")
    os.makedirs(d / "a_directory.jsonl", exist_ok=True)
    out.append(("directory", d / "a_directory.jsonl", None, "directory"))
    return out


CASES = [
    "missing",
    "empty",
    "truncated",
    "cut_after_header",
    "random_text",
    "json_array",
    "other_json",
    "binary",
    "tampered_checksum",
    "tampered_action",
    "tampered_turn",
    "dropped_line",
    "huge_line",
    "deep_nesting",
    "deep_nesting_short",
    "nan",
    "blank_line",
    "after_end",
    "directory",
]


@pytest.mark.parametrize("case", CASES)
def test_bad_files_give_one_clear_line_and_exit_2(run: Run, recording: Path, tmp_path: Path, case: str) -> None:
    files = {name: (p, line, words) for name, p, line, words in bad_files(recording, tmp_path)}
    path, line, words = files[case]
    for flags in ((), ("--verify",), ("--events",)):
        code, out, err = run("replay", *flags, str(path))
        assert code == 2, (case, err)
        msg = one_error_line(err, path, line)
        assert words.lower() in msg.lower(), msg
        assert out == ""


@pytest.mark.slow
def test_bad_files_never_show_a_traceback_in_a_real_process(recording: Path, tmp_path: Path) -> None:
    files = bad_files(recording, tmp_path)
    for name, path, _, _ in files:
        if name not in ("truncated", "tampered_checksum", "deep_nesting_short"):
            continue
        p = subprocess.run(
            [sys.executable, "-m", "undercroft", "replay", "--verify", str(path)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert p.returncode == 2, (name, p.stderr)
        assert "Traceback" not in p.stderr and p.stdout == ""
        assert len(p.stderr.strip().splitlines()) == 1, p.stderr


def test_a_newer_format_is_refused(run: Run, recording: Path, tmp_path: Path) -> None:
    def edit(n: int, obj: dict[str, Any]) -> dict[str, Any]:
        if n == 1:
            obj["format"] = 99
        return obj

    bad = rewrite(recording, tmp_path / "new.jsonl", edit)
    code, _, err = run("replay", str(bad))
    assert code == 2 and "format 99" in one_error_line(err, bad, 1)


def test_an_unknown_action_type_is_refused(run: Run, recording: Path, tmp_path: Path) -> None:
    def edit(n: int, obj: dict[str, Any]) -> dict[str, Any]:
        if n == 8:
            obj["action"] = {"type": "teleport"}
        return obj

    bad = rewrite(recording, tmp_path / "tp.jsonl", edit)
    code, _, err = run("replay", str(bad))
    assert code == 2 and "teleport" in one_error_line(err, bad, 8)


def test_no_pickle_anywhere() -> None:
    src = Path(__file__).resolve().parents[1] / "src" / "undercroft"
    files = sorted(src.rglob("*.py"))  # every module: the recordings, the replay command and the bot among them
    assert src / "record" / "reader.py" in files
    for path in files:
        text = path.read_text()
        for word in ("import pickle", "pickle.load", "marshal", "eval(", "exec(", "yaml.load("):
            assert word not in text, (str(path.relative_to(src)), word)


# --- crashes --------------------------------------------------------------------------------------------------


def test_a_crash_recording_reproduces_through_the_cli(
    run: Run, content: Content, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from undercroft.rules.game import HANDLERS
    from undercroft.rules.types import Mode

    original = HANDLERS[(Mode.EXPLORE, "move")]

    def broken(ctx: Any, a: Any, events: Any) -> None:
        if ctx.state.turn >= 19:  # the first step at or after turn 20
            raise ZeroDivisionError("injected")
        original(ctx, a, events)

    monkeypatch.setitem(HANDLERS, (Mode.EXPLORE, "move"), broken)
    path = tmp_path / "crash.jsonl"
    r = play_game(content, "undercroft", 5, record=str(path))
    assert r.outcome == "crash" and r.turns >= 19
    turn = r.turns + 1
    rec = load_recording(path)
    assert rec.crash is not None and rec.crash["turn"] == turn and len(rec.actions) == turn - 1
    code, _, err = run("replay", "--verify", str(path))
    assert code == 1
    assert "Traceback" in err and "ZeroDivisionError: injected" in err
    assert f"{path}:{turn + 1}: the recorded crash reproduced at turn {turn}" in err
    monkeypatch.setitem(HANDLERS, (Mode.EXPLORE, "move"), original)  # the bug is fixed
    code, _, err = run("replay", "--verify", str(path))
    assert code == 0 and f"did not happen again at turn {turn}" in err
