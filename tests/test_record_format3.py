"""Recordings of format 3: text action lines (``TURN TYPE FIELDS... DIGEST HASH``) of at most 64 bytes an action on
average, with the same detection of tampering, truncation and desync as format 2; older formats still replay and
are continued in their own format."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from format2 import write_format_2
from test_replay_cli import Run, one_error_line

from undercroft.bot import Bot
from undercroft.content import Content
from undercroft.record import (
    Desync,
    Recorder,
    RecordingError,
    load_recording,
    play_step,
    replay,
    saves,
)
from undercroft.record.format import _chain_text, _line
from undercroft.rules.actions import (
    ACTION_TYPES,
    ActionError,
    Attack,
    Bribe,
    Move,
    Rest,
    action_from_text,
    action_to_text,
)
from undercroft.rules.actions import (
    Run as RunAway,
)
from undercroft.rules.digest import DIGEST_HEX, PARTS
from undercroft.rules.game import Game
from undercroft.tools.autoplay import play_game

GOLDEN_DIR = Path(__file__).parent / "golden"
GOLDEN3 = sorted((GOLDEN_DIR / "v3").glob("*.jsonl"))


@pytest.fixture(scope="module")
def golden(content: Content) -> Path:
    path = GOLDEN_DIR / "v3" / "undercroft-1.jsonl"
    assert load_recording(path).header.format == 3
    return path


def rechain(lines: list[bytes]) -> bytes:
    """Lines (without their newlines; JSON lines with or without their hash) hashed again in order: a file that is
    well formed and whose chain holds, whatever the lines say."""
    prev = ""
    out = []
    for raw in lines:
        if raw.startswith(b"{"):
            obj = json.loads(raw)
            obj.pop("hash", None)
            prev, data = _line(prev, obj)
            out.append(data)
        else:
            body = raw.decode().rsplit(" ", 1)[0]
            prev = _chain_text(prev, body)
            out.append(f"{body} {prev}\n".encode())
    return b"".join(out)


def body_lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines()


# --- the action's text -----------------------------------------------------------------------------------------


def test_every_action_type_round_trips_through_its_text() -> None:
    for kind, cls in ACTION_TYPES.items():
        a = cls(*[-1] * len(dataclasses.fields(cls)))  # every field set (the same value: -1)
        text = action_to_text(a)
        assert text.split(" ")[0] == kind and action_from_text(text) == a
    assert action_to_text(Move(1, 0)) == "move 1 0" and action_to_text(Rest()) == "rest"
    assert action_to_text(RunAway()) == "run -1" and action_to_text(Attack(2)) == "attack 2"
    assert action_from_text("bribe 1000000000") == Bribe(1_000_000_000)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "move",
        "move 1",
        "move 1 0 0",
        "move 1  0",
        " move 1 0",
        "move 1 0 ",
        "MOVE 1 0",
        "teleport",
        "rest 0",
        "move 01 0",
        "move +1 0",
        "move -0 0",
        "move 1.0 0",
        "move 1e3 0",
        "move 1_0 0",
        "move true 0",
        "move 0x1 0",
        "move \u0661 0",
        "move 1\t0",
        "bribe 1000000001",
        "bribe 99999999999999999999",
        "attack",
        "move 1 0\n",
    ],
)
def test_a_bad_action_text_raises_action_error(text: str) -> None:
    with pytest.raises(ActionError):
        action_from_text(text)


# --- size -----------------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_autoplay_recordings_take_at_most_64_bytes_an_action(content: Content, tmp_path: Path) -> None:
    size = actions = 0
    for ruleset, seed in (("undercroft", 1000), ("citadel", 7), ("warden", 3), ("crawler", 11)):
        path = tmp_path / f"{ruleset}.jsonl"
        r = play_game(content, ruleset, seed, record=str(path), max_actions=1500)
        assert r.turns > 50
        size += path.stat().st_size
        actions += len(load_recording(path).actions)
    assert size / actions <= 64


def test_an_action_line_is_turn_type_fields_digest_hash(golden: Path, content: Content) -> None:
    header, *rest = body_lines(golden)
    h = json.loads(header)
    assert h["format"] == 3 and h["parts"] == list(PARTS) and len(h["start"]) == DIGEST_HEX
    rec = load_recording(golden)
    for raw, (turn, action, digest) in zip(rest, rec.actions, strict=True):
        fields = raw.decode("ascii").split(" ")
        assert int(fields[0]) == turn and " ".join(fields[1:-2]) == action_to_text(action)
        assert fields[-2] == digest and len(digest) == DIGEST_HEX and len(fields[-1]) == 8
        assert len(raw) < 64


# --- golden: replays, verifies; every kind of tampering is caught at its line ---------------------------------------


@pytest.mark.parametrize("path", GOLDEN3, ids=lambda p: p.name)
def test_a_format_3_golden_replays_and_verifies(content: Content, path: Path) -> None:
    rec = load_recording(path)
    assert rec.header.format == 3 and 100 <= len(rec.actions) <= 300
    game = replay(content, rec, verify=True)
    assert game.digest() == rec.actions[-1][2]
    # the format 2 golden of the same game ends in the same state
    old = load_recording(GOLDEN_DIR / path.name)
    assert old.header.format == 2 and [a for _, a, _ in old.actions] == [a for _, a, _ in rec.actions]
    assert replay(content, old, verify=True).checksum() == game.checksum()


def tampered(golden: Path, d: Path) -> dict[str, tuple[Path, int, str]]:
    """Files made from the golden one by hand, without re-chaining: (path, the line caught, words of the message)."""
    lines = golden.read_bytes().splitlines(keepends=True)
    out: dict[str, tuple[Path, int, str]] = {}

    def put(name: str, data: bytes, line: int, words: str) -> None:
        p = d / f"{name}.jsonl"
        p.write_bytes(data)
        out[name] = (p, line, words)

    digest = [*lines]
    f = digest[10].split(b" ")
    f[-2] = b"0" * DIGEST_HEX
    digest[10] = b" ".join(f)
    put("edited_digest", b"".join(digest), 11, "tampered")
    action = [*lines]
    k = next(i for i in range(20, len(lines)) if b" move 1 0 " in lines[i])
    action[k] = lines[k].replace(b" move 1 0 ", b" move 0 1 ", 1)
    put("edited_action", b"".join(action), k + 1, "tampered")
    put("dropped_line", b"".join([*lines[:12], *lines[13:]]), 13, "tampered")
    put("moved_line", b"".join([*lines[:12], lines[13], lines[12], *lines[14:]]), 13, "tampered")
    put("duplicated_line", b"".join([*lines[:12], lines[12], *lines[12:]]), 14, "tampered")
    put("truncated_tail", b"".join(lines[:-1]) + lines[-1][:30], len(lines), "truncated")
    turn = [*lines]
    turn[15] = lines[15].replace(b"15 ", b"16 ", 1)
    put("edited_turn", b"".join(turn), 16, "tampered")
    return out


CASES = [
    "edited_digest",
    "edited_action",
    "dropped_line",
    "moved_line",
    "duplicated_line",
    "truncated_tail",
    "edited_turn",
]


@pytest.mark.parametrize("case", CASES)
def test_tampering_is_caught_at_its_line(golden: Path, tmp_path: Path, run: Run, case: str) -> None:
    path, line, words = tampered(golden, tmp_path)[case]
    with pytest.raises(RecordingError) as info:
        load_recording(path)
    assert info.value.line == line and words in info.value.message
    assert str(info.value).startswith(f"{path}:{line}: ")
    code, out, err = run("replay", "--verify", str(path))
    assert code == 2 and out == ""
    assert words in one_error_line(err, path, line)


def test_a_truncated_tail_is_ignored_with_lenient_tail_and_the_game_continues(content: Content, tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    r = play_game(content, "undercroft", 5, record=str(path), max_actions=40)
    assert r.outcome == "timeout"
    whole = path.read_bytes()
    path.write_bytes(whole + b"41 move 1 0 7bdc8f03e8")  # a writer killed mid-line
    with pytest.raises(RecordingError, match="truncated"):
        load_recording(path)
    rec = load_recording(path, lenient_tail=True)
    assert len(rec.actions) == 40 and rec.size == len(whole)
    game = replay(content, rec, verify=True)
    with Recorder.append_to(path, recording=rec) as out:
        bot = Bot(game, 5)
        while game.state.turn == 40:
            a = bot.choose()
            if len(play_step(game, out, a)) == 1 and game.state.turn == 40:
                bot.refused(a)
    again = load_recording(path)
    assert len(again.actions) == 41 and replay(content, again, verify=True).digest() == game.digest()


# --- desync: a lie that is well formed ---------------------------------------------------------------------------


def test_a_rechained_wrong_digest_is_a_desync_naming_the_part(
    golden: Path, content: Content, tmp_path: Path, run: Run
) -> None:
    lines = body_lines(golden)
    k = 30
    fields = lines[k].split(b" ")
    d = fields[-2].decode()
    i = PARTS.index("party") * 6
    fields[-2] = (d[:i] + ("0" if d[i] != "0" else "1") + d[i + 1 :]).encode()  # only the party's digest differs
    lines[k] = b" ".join(fields)
    bad = tmp_path / "lie.jsonl"
    bad.write_bytes(rechain(lines))
    rec = load_recording(bad)  # well formed: it loads
    with pytest.raises(Desync) as info:
        replay(content, rec, verify=True)
    assert (info.value.turn, info.value.line, info.value.parts) == (k, k + 1, ["party"])
    replay(content, rec)  # without --verify nothing is compared
    code, _, err = run("replay", "--verify", str(bad))
    assert code == 1
    assert f"{bad}:{k + 1}: desync at turn {k}: action " in err and "the state differs in: party" in err


def test_a_rechained_other_action_is_a_desync_at_its_turn(golden: Path, content: Content, tmp_path: Path) -> None:
    lines = body_lines(golden)
    k = next(i for i in range(20, len(lines)) if b" move " in lines[i])
    head, tail = lines[k].split(b" move ", 1)
    lines[k] = head + b" rest " + tail.split(b" ", 2)[2]  # a rest where the party moved: legal, another outcome
    bad = tmp_path / "rest.jsonl"
    bad.write_bytes(rechain(lines))
    with pytest.raises(Desync) as info:
        replay(content, load_recording(bad), verify=True)
    assert info.value.turn == k and info.value.action == Rest() and "clock" in info.value.parts


def test_a_wrong_start_is_a_desync_of_the_starting_state(golden: Path, content: Content, tmp_path: Path) -> None:
    lines = body_lines(golden)
    h = json.loads(lines[0])
    h["start"] = "0" * DIGEST_HEX
    lines[0] = json.dumps(h).encode()
    bad = tmp_path / "start.jsonl"
    bad.write_bytes(rechain(lines))
    with pytest.raises(Desync) as info:
        replay(content, load_recording(bad), verify=True)
    assert info.value.turn == 0 and info.value.line == 1 and "starting state" in info.value.parts[0]


# --- hostile lines: one clear line each, with file and line --------------------------------------------------------


BAD_LINES: list[tuple[str, bytes, str]] = [
    ("junk", b"Dear diary, today I went to the dungeon.", "not an action line"),
    ("negative_turn", b"-5 move 1 0 DIGEST", "whole number from 1"),
    ("float_turn", b"5.0 move 1 0 DIGEST", "whole number from 1"),
    ("huge_turn", b"99999999999999999999 move 1 0 DIGEST", "whole number from 1"),
    ("huge_field", b"5 move 99999999999999999999 0 DIGEST", "whole number"),
    ("leading_zero", b"5 move 01 0 DIGEST", "whole number"),
    ("unknown_action", b"5 teleport DIGEST", "unknown action type 'teleport'"),
    ("missing_field", b"5 move 1 DIGEST", "takes 2 fields"),
    ("extra_space", b"5 move 1  0 DIGEST", "extra spaces"),
    ("short_digest", b"5 move 1 0 0123abc", "digest must be 30 hex digits"),
    ("upper_digest", b"5 move 1 0 " + b"A" * 30, "digest must be 30 hex digits"),
    ("non_ascii", "5 move 1 0 DIGEST \u00e9".encode(), "not ASCII"),
    ("control", b"5 move 1 0 \x1b[2J DIGEST", "control character"),
    ("too_few", b"5 move", "not an action line"),
    ("json_action", b'{"action":{"dx":1,"dy":0,"type":"move"},"digest":"DIGEST","turn":5}', "not an end or crash line"),
]


@pytest.mark.parametrize("name,line,words", BAD_LINES, ids=[b[0] for b in BAD_LINES])
def test_a_bad_action_line_is_one_clear_error(
    golden: Path, tmp_path: Path, run: Run, name: str, line: bytes, words: str
) -> None:
    lines = body_lines(golden)[:5]
    digest = lines[4].split(b" ")[-2]
    text = line.replace(b"DIGEST", digest)
    bad = tmp_path / f"{name}.jsonl"
    # chained after the others (with a right hash), so that only what the line says can be wrong with it
    bad.write_bytes(rechain([*lines, text if text.startswith(b"{") else text + b" 00000000"]))
    with pytest.raises(RecordingError) as info:
        load_recording(bad)
    assert info.value.line == 6 and words in info.value.message, info.value.message
    code, out, err = run("replay", str(bad))
    assert code == 2 and out == ""
    assert words in one_error_line(err, bad, 6)
    assert "\x1b" not in err


def test_a_rechained_bad_turn_is_out_of_order(golden: Path, tmp_path: Path) -> None:
    lines = body_lines(golden)[:6]
    lines[5] = b"7" + lines[5][1:]
    bad = tmp_path / "order.jsonl"
    bad.write_bytes(rechain(lines))
    with pytest.raises(RecordingError, match="turn 7 out of order: expected 5") as info:
        load_recording(bad)
    assert info.value.line == 6


def test_nothing_may_follow_the_end_line(content: Content, tmp_path: Path) -> None:
    for seed in (952, 166, *range(6, 60)):  # (952 dies on turn 48: cheap)
        path = tmp_path / f"g{seed}.jsonl"
        if play_game(content, "undercroft", seed, record=str(path)).outcome == "dead":
            break
    lines = body_lines(path)
    assert json.loads(lines[-1])["end"] == "dead"
    assert json.loads(lines[-1])["digest"] == load_recording(path).actions[-1][2]
    path.write_bytes(path.read_bytes() + lines[3] + b"\n")
    with pytest.raises(RecordingError, match="nothing may follow the end line") as info:
        load_recording(path)
    assert info.value.line == len(lines) + 1


# --- older formats: still replay; continued in format 3 --------------------------------------------------------------


def test_a_format_2_save_is_continued_in_format_3(content: Content, tmp_path: Path) -> None:
    whole3 = tmp_path / "whole3.jsonl"
    r = play_game(content, "undercroft", 9, record=str(whole3), max_actions=120)
    assert r.turns == 120
    actions = [a for _, a, _ in load_recording(whole3).actions]
    part = write_format_2(content, "undercroft", 9, actions[:60], tmp_path / "part.jsonl")
    got = load_recording(part)
    assert got.header.format == 2
    game = replay(content, got, verify=True)
    with pytest.raises(ValueError, match="content"):
        Recorder.append_to(part, recording=got)  # (the older format is written again: it needs the data)
    assert part.read_bytes().startswith(b"{") and load_recording(part).header.format == 2  # left as it was
    with Recorder.append_to(part, recording=got, content=content) as rec:
        assert load_recording(part).header.format == 3  # written again before the first new line
        for a in actions[60:]:
            play_step(game, rec, a)
    both = load_recording(part)
    assert both.header.format == 3
    assert part.read_bytes().splitlines()[1:] == whole3.read_bytes().splitlines()[1:]  # one format throughout
    assert replay(content, both, verify=True).digest() == game.digest()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["part.jsonl", "whole3.jsonl"]  # nothing left beside it


def test_a_format_3_save_is_continued_in_format_3(content: Content, tmp_path: Path) -> None:
    whole = tmp_path / "whole.jsonl"
    play_game(content, "citadel", 4, record=str(whole), max_actions=80)
    actions = [a for _, a, _ in load_recording(whole).actions]
    part = tmp_path / "part.jsonl"
    game = Game(content, "citadel", 4)
    with Recorder.create(part, game, content) as rec:
        for a in actions[:40]:
            play_step(game, rec, a)
    game = replay(content, load_recording(part), verify=True)
    with Recorder.append_to(part) as rec:
        for a in actions[40:]:
            play_step(game, rec, a)
    assert part.read_bytes().splitlines()[1:] == whole.read_bytes().splitlines()[1:]


def test_the_format_3_path_never_computes_the_old_checksum(
    content: Content, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def slow(self: Game) -> str:
        raise AssertionError("Game.checksum() on the format 3 path")

    monkeypatch.setattr(Game, "checksum", slow)
    path = tmp_path / "g.jsonl"
    for seed in (952, 166, *range(6, 60)):  # (952 dies on turn 48: cheap)
        if play_game(content, "undercroft", seed, record=str(path)).outcome == "dead":
            break
    rec = load_recording(path)
    assert rec.finished
    replay(content, rec, verify=True)


def test_status_and_continue_see_format_3_games(content: Content, tmp_path: Path) -> None:
    open_game = tmp_path / "a.jsonl"
    play_game(content, "undercroft", 5, record=str(open_game), max_actions=30)
    assert saves._status(open_game) == "open"
    for seed in (952, 166, *range(6, 60)):  # (952 dies on turn 48: cheap)
        over = tmp_path / f"over-{seed}.jsonl"
        if play_game(content, "undercroft", seed, record=str(over)).outcome == "dead":
            break
        over.unlink()
    assert saves._status(over) == "finished"
    assert saves.latest_unfinished(tmp_path) == open_game


def test_verify_prints_the_final_digest_for_format_3_and_the_checksum_for_format_2(
    run: Run, content: Content, golden: Path
) -> None:
    code, out, err = run("replay", "--verify", str(golden))
    game = replay(content, load_recording(golden))
    assert code == 0, err
    assert out.strip().endswith(f"300 actions verified (unfinished); final digest {game.digest()}")
    code, out, err = run("replay", "--verify", str(GOLDEN_DIR / golden.name))
    assert code == 0 and out.strip().endswith(f"final checksum {game.checksum()}")
    code, out, err = run("replay", "--events", str(golden))
    assert code == 0 and json.loads(out.splitlines()[-1])["turn"] == 300


# --- the score on the end line, the daily date in the header --------------------------------------------------------


def _ended(content: Content, golden: Path, end: dict[str, object]) -> list[bytes]:
    """The golden game's lines with an end line ``end`` (its digest the last action's) after the last action."""
    lines = body_lines(golden)
    return [*lines, json.dumps({"digest": load_recording(golden).actions[-1][2], "turn": 300, **end}).encode()]


@pytest.mark.parametrize("score", [-1, 1.5, "12", True, None])
def test_an_end_line_score_that_is_not_a_whole_number_is_refused(
    content: Content, golden: Path, tmp_path: Path, score: object
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(rechain(_ended(content, golden, {"end": "dead", "score": score})))
    with pytest.raises(RecordingError, match="'score' must be a whole number") as info:
        load_recording(bad)
    assert info.value.line == 302


def test_an_end_line_reads_with_or_without_its_score(content: Content, golden: Path, tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_bytes(rechain(_ended(content, golden, {"end": "dead", "score": 344})))
    assert load_recording(path).score == 344
    path.write_bytes(rechain(_ended(content, golden, {"end": "dead"})))  # written before scores: still read
    got = load_recording(path)
    assert got.finished and got.score is None


@pytest.mark.parametrize("daily,ok", [("2026-12-02", True), ("2026-02-30", False), ("26-12-02", False), (7, False)])
def test_a_daily_header_holds_a_real_date(
    content: Content, golden: Path, tmp_path: Path, daily: object, ok: bool
) -> None:
    lines = body_lines(golden)
    header = json.loads(lines[0])
    header["daily"] = daily
    path = tmp_path / "d.jsonl"
    path.write_bytes(rechain([json.dumps(header).encode(), *lines[1:]]))
    if ok:
        assert load_recording(path).header.daily == daily
    else:
        with pytest.raises(RecordingError, match="'daily' must be a date") as info:
            load_recording(path)
        assert info.value.line == 1


def test_a_daily_game_is_marked_in_its_header(content: Content, tmp_path: Path) -> None:
    path = tmp_path / "daily.jsonl"
    game = Game(content, "undercroft", "daily-2026-12-02")
    with Recorder.create(path, game, content, daily="2026-12-02"):
        pass
    assert json.loads(body_lines(path)[0])["daily"] == "2026-12-02"
    assert load_recording(path).header.daily == "2026-12-02"
    with pytest.raises(ValueError, match="YYYY-MM-DD"):
        Recorder.create(tmp_path / "x.jsonl", Game(content, "undercroft", 1), content, daily="yesterday")


def test_a_player_continues_a_format_2_save_in_format_3(content: Content, tmp_path: Path) -> None:
    from undercroft.ui.session import Session

    whole = tmp_path / "whole.jsonl"
    play_game(content, "crawler", 3, record=str(whole), max_actions=40)
    actions = [a for _, a, _ in load_recording(whole).actions]
    save = write_format_2(content, "crawler", 3, actions[:20], tmp_path / "save.jsonl")
    s = Session.resume(content, save)
    try:
        for a in actions[20:]:
            s.act(a)
    finally:
        s.close()
    assert save.read_bytes().splitlines()[1:] == whole.read_bytes().splitlines()[1:]
    assert replay(content, load_recording(save), verify=True).state.turn == len(actions)
