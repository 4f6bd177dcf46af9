"""Recordings: write, load, replay bit-exact, desyncs, crash capture, continuing a game, saves, golden games."""

from __future__ import annotations

import dataclasses
import json
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from undercroft import record
from undercroft.bot import Bot
from undercroft.content import Content, load_content
from undercroft.record import (
    FORMAT_VERSION,
    Desync,
    Header,
    Recorder,
    Recording,
    RecordingError,
    load_recording,
    play_step,
    replay,
    state_summary,
)
from undercroft.record.format import state_digests
from undercroft.record.saves import latest_unfinished, new_save_path, saves_dir
from undercroft.rules import events as evt
from undercroft.rules.actions import Action, Descend, Move, Rest, Wait
from undercroft.rules.digest import PARTS
from undercroft.rules.game import Game
from undercroft.tools.autoplay import play_game

GOLDEN_DIR = Path(__file__).parent / "golden"


class Boom(RuntimeError):
    """The injected engine bug."""


def bot_game(
    content: Content, path: Path, ruleset: str = "undercroft", seed: int = 3, actions: int = 400
) -> tuple[Game, Recorder]:
    """A game played by the bot for up to ``actions`` accepted actions, recorded at ``path`` (left open)."""
    game = Game(content, ruleset, seed)
    bot = Bot(game, seed)
    rec = Recorder.create(path, game, content)
    refusals = 0
    while not game.over and game.state.turn < actions and refusals < 20:
        a = bot.choose()
        events = play_step(game, rec, a)
        if len(events) == 1 and events[0].type == "refused":
            bot.refused(a)
            refusals += 1
        else:
            refusals = 0
    return game, rec


def dead_bot_game(content: Content, path: Path) -> tuple[Game, Recorder]:
    """The first bot game that ends in death, seed 952 first (it dies on turn 48, which keeps it cheap; most of the
    careful bot's undercroft games go deep), recorded at ``path`` (closed)."""
    for seed in (952, 166, *range(6, 60)):
        game, rec = bot_game(content, path, seed=seed, actions=5000)
        rec.close()
        if game.state.mode == "dead":
            return game, rec
        path.unlink()
    raise AssertionError("no bot game from seeds 6..59 died: has the game become that easy?")


def lines(path: Path) -> list[dict[str, Any]]:
    """The JSON lines of a recording (the header, the end or crash line; every line in format 2)."""
    return [json.loads(x) for x in path.read_text().splitlines() if x.startswith("{")]


def text_lines(path: Path) -> list[list[str]]:
    """The action lines of a recording of format 3, split into their fields."""
    return [x.split(" ") for x in path.read_text().splitlines() if not x.startswith("{")]


# --- writing and replaying --------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset,seed", [("undercroft", 3), ("citadel", 2), ("warden", 5), ("crawler", 6)])
def test_record_then_replay_reproduces_the_final_checksum(
    content: Content, tmp_path: Path, ruleset: str, seed: int
) -> None:
    path = tmp_path / "game.jsonl"
    game, rec = bot_game(content, path, ruleset, seed)
    rec.close()
    loaded = load_recording(path)
    assert len(loaded.actions) == game.state.turn > 20
    again = replay(content, loaded, verify=True)
    assert again.checksum() == game.checksum()
    assert again.state.turn == game.state.turn
    assert again.canonical() == game.canonical()


def test_header_and_lines(content: Content, tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    _, rec = bot_game(content, path, actions=5)
    rec.close()
    first, *rest = lines(path)
    assert first["recording"] == "undercroft"
    assert first["format"] == FORMAT_VERSION == 3
    assert first["ruleset"] == "undercroft" and first["seed"] == 3
    assert first["data_digest"] == content.digest
    assert {"game_version", "python", "numpy", "start", "parts", "hash"} <= set(first)
    assert first["parts"] == list(PARTS) and first["start"] == Game(content, "undercroft", 3).digest()
    assert rest == []  # the action lines are text
    acts = text_lines(path)
    assert [int(x[0]) for x in acts] == [1, 2, 3, 4, 5]
    assert all(len(x[-2]) == 30 and len(x[-1]) == 8 for x in acts)  # TURN TYPE FIELDS... DIGEST HASH
    h = load_recording(path).header
    assert isinstance(h, Header) and not h.finished and h.seed == 3 and h.format == FORMAT_VERSION


def test_checksum_is_the_games_own(content: Content) -> None:
    game = Game(content, "undercroft", 11)
    bot = Bot(game, 11)
    for _ in range(60):
        game.step(bot.choose())
        total, parts = state_digests(game)
        assert total == game.checksum()
        assert len(parts) == 4 * len(game.canonical())


def test_refused_actions_are_not_recorded(content: Content, tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    game = Game(content, "undercroft", 4)
    with Recorder.create(path, game, content) as rec:
        events = play_step(game, rec, Wait())  # no encounter: refused
        assert [e.type for e in events] == ["refused"]
        events = play_step(game, rec, Descend())  # not on the stairs: refused
        assert [e.type for e in events] == ["refused"]
        play_step(game, rec, Rest())
    got = load_recording(path)
    assert [(t, a) for t, a, _ in got.actions] == [(1, Rest())]


def test_record_refuses_an_action_that_was_not_accepted(content: Content, tmp_path: Path) -> None:
    game = Game(content, "undercroft", 4)
    with Recorder.create(tmp_path / "g.jsonl", game, content) as rec, pytest.raises(ValueError, match="turn"):
        rec.record(Rest(), game)  # the game never took it


def test_lines_are_written_whole_and_flushed_per_action(content: Content, tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    game, rec = bot_game(content, path, actions=30)
    # still open: everything written so far is already in the file, whole lines only
    data = path.read_bytes()
    assert data.endswith(b"\n")
    assert len(load_recording(path).actions) == game.state.turn
    rec.close()


@pytest.mark.clause("001-die-3")
def test_death_writes_the_end_line(content: Content, tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    game, _ = dead_bot_game(content, path)
    assert game.state.mode == "dead"
    last = lines(path)[-1]
    assert last["end"] == "dead" and last["turn"] == game.state.turn and last["digest"] == game.digest()
    got = load_recording(path)
    assert got.finished and got.header.finished and got.end == "dead"
    assert replay(content, got, verify=True).state.mode == "dead"
    with pytest.raises(RecordingError, match="over"):
        Recorder.append_to(path)


def test_until_stops_at_the_turn(content: Content, tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    _, rec = bot_game(content, path, actions=120)
    rec.close()
    got = load_recording(path)
    mid = replay(content, got, verify=True, until=50)
    assert mid.state.turn == 50
    assert mid.digest() == got.actions[49][2]
    assert replay(content, got, until=0).digest() == got.header.start


def test_on_events_sees_every_action(content: Content, tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    _, rec = bot_game(content, path, actions=80)
    rec.close()
    got = load_recording(path)
    seen: list[tuple[int, Action]] = []
    replay(content, got, on_events=lambda t, a, evs: seen.append((t, a)))
    assert seen == [(t, a) for t, a, _ in got.actions]


# --- desyncs --------------------------------------------------------------------------------------------------


def with_action(rec: Recording, index: int, action: Action) -> Recording:
    acts = list(rec.actions)
    turn, _, chk = acts[index]
    acts[index] = (turn, action, chk)
    return dataclasses.replace(rec, actions=acts)


def test_a_changed_action_is_caught_at_its_turn(content: Content, tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    _, rec = bot_game(content, path, actions=150)
    rec.close()
    got = load_recording(path)
    i = next(i for i, (t, a, _) in enumerate(got.actions) if isinstance(a, Move) and t > 20)
    changed = with_action(got, i, Rest())  # legal while exploring, a different outcome
    with pytest.raises(Desync) as info:
        replay(content, changed, verify=True)
    assert info.value.turn == got.actions[i][0]
    assert info.value.action == Rest()
    assert "clock" in info.value.parts  # a rest takes a turn of rounds, a step one round
    assert info.value.line == i + 2


def test_an_action_the_engine_refuses_is_a_desync_even_without_verify(content: Content, tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    _, rec = bot_game(content, path, actions=60)
    rec.close()
    got = load_recording(path)
    changed = with_action(got, 10, Descend())
    with pytest.raises(Desync) as info:
        replay(content, changed)
    assert info.value.turn == 11
    assert info.value.parts[0].startswith("refused:")


def test_other_data_desyncs_and_names_the_part(data_copy: Path, mutate: Any, tmp_path: Path) -> None:
    # The same recording replayed with tougher monsters: the first group met differs in its hit points.
    shipped = load_content(data_copy)
    path = tmp_path / "g.jsonl"
    wounds: list[int] = []  # turns at which the party's blow hit and left the creature standing

    def note(turn: int, _: Any, events: list[Any]) -> None:
        wounds.extend(turn for e in events if isinstance(e, evt.PartyAttack) and e.hit and e.target_hp_after > 0)

    for seed in range(3, 40):  # (a game in which the party wounds something within its 300 actions)
        path.unlink(missing_ok=True)
        _, rec = bot_game(shipped, path, seed=seed, actions=300)
        rec.close()
        replay(shipped, load_recording(path), on_events=note)
        if wounds:
            break
    assert wounds
    # (not the delver's own numbers: MIGHT, weapon and armour are part of the state from its start, turn 0)
    monsters = data_copy / "monsters.yaml"
    # (every monster but the uniques, which wait on their floors from the start: their hit points are turn 0's)
    entries = re.split(r"(?m)^(?=[a-z_]+:$)", monsters.read_text())
    tougher = (
        e if "  unique: true" in e else re.sub(r"(?m)^  hp: (\d+)$", lambda m: f"  hp: {int(m[1]) + 1}", e)
        for e in entries
    )
    monsters.write_text("".join(tougher))
    stronger = load_content(data_copy)
    assert stronger.digest != shipped.digest
    with pytest.raises(Desync) as info:
        replay(stronger, load_recording(path), verify=True)
    assert info.value.turn >= 1
    assert info.value.parts and not info.value.parts[0].startswith("the checksum")


# --- crash capture ------------------------------------------------------------------------------------------


CRASH_TURN = 10  # a step the bot takes (a move) early, before any fight: whatever the balance of the rules
CRASH_SEED = 3  # a warden game whose turns 6 and 10 are moves


def inject(monkeypatch: pytest.MonkeyPatch, at_turn: int) -> None:
    """Make the engine raise Boom while taking the action of turn ``at_turn`` (inside a move or a rest)."""
    from undercroft.rules.game import HANDLERS
    from undercroft.rules.types import Mode

    for kind in ("move", "rest"):
        key = (Mode.EXPLORE, kind)
        original = HANDLERS[key]

        def broken(ctx: Any, a: Any, events: Any, _original: Any = original) -> None:
            if ctx.state.turn + 1 == at_turn:
                raise Boom(f"injected at turn {at_turn}")
            _original(ctx, a, events)

        monkeypatch.setitem(HANDLERS, key, broken)


def play_until_crash(content: Content, path: Path) -> tuple[Game, Recorder, int]:
    game = Game(content, "warden", CRASH_SEED)
    bot = Bot(game, CRASH_SEED)
    rec = Recorder.create(path, game, content)
    with pytest.raises(Boom):
        while True:
            assert not game.over, "the bot died before the injected crash: choose another seed"
            a = bot.choose()
            events = play_step(game, rec, a)
            if len(events) == 1 and events[0].type == "refused":
                bot.refused(a)
    return game, rec, game.state.turn + 1


def test_an_injected_crash_is_captured_and_reproduced(
    content: Content, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "crash.jsonl"
    inject(monkeypatch, CRASH_TURN)
    _, rec, turn = play_until_crash(content, path)
    rec.close()
    assert turn == CRASH_TURN
    got = load_recording(path)
    assert len(got.actions) == CRASH_TURN - 1  # every action before the crash
    assert got.crash is not None and got.crash["turn"] == CRASH_TURN and got.crash["type"] == "Boom"
    assert got.crash["message"] == f"injected at turn {CRASH_TURN}"
    assert not got.finished
    report = record.crash_report_path(path)
    text = report.read_text()
    assert "Traceback (most recent call last)" in text and f"Boom: injected at turn {CRASH_TURN}" in text
    assert f"seed: {CRASH_SEED}" in text and f"turn: {CRASH_TURN}" in text and str(path) in text
    # Replaying raises the same exception at the same turn.
    turns: list[int] = []
    with pytest.raises(Boom, match=f"injected at turn {CRASH_TURN}") as info:
        replay(content, got, verify=True, on_events=lambda t, a, evs: turns.append(t))
    assert turns[-1] == CRASH_TURN - 1
    assert any(f"turn {CRASH_TURN}" in note for note in getattr(info.value, "__notes__", []))
    # A crashed recording is not a game to continue.
    with pytest.raises(RecordingError, match="crash"):
        Recorder.append_to(path)
    assert latest_unfinished(tmp_path) is None


def test_a_fixed_crash_replays_through(content: Content, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "crash.jsonl"
    with monkeypatch.context() as m:
        inject(m, CRASH_TURN - 4)
        _, rec, _ = play_until_crash(content, path)
        rec.close()
    got = load_recording(path)
    game = replay(content, got, verify=True)  # the bug is gone: the crashing action is simply taken
    assert game.state.turn == CRASH_TURN - 4


# --- continuing a game ----------------------------------------------------------------------------------------


def test_append_to_continues_a_game(content: Content, tmp_path: Path) -> None:
    whole = tmp_path / "whole.jsonl"
    game_a, rec = bot_game(content, whole, seed=9, actions=160)
    rec.close()
    actions = [a for _, a, _ in load_recording(whole).actions]
    assert len(actions) >= 20
    half = len(actions) // 2  # wherever the bot's game ended, stop halfway and continue
    part = tmp_path / "part.jsonl"
    game = Game(content, "undercroft", 9)
    with Recorder.create(part, game, content) as rec:
        for a in actions[:half]:
            play_step(game, rec, a)
    # continue: replay the saved game headless to its end, then play on into the same file
    got = load_recording(part)
    game_b = replay(content, got, verify=True)
    assert game_b.state.turn == half
    with Recorder.append_to(part, recording=got) as rec:
        for a in actions[half:]:
            play_step(game_b, rec, a)
    assert game_b.checksum() == game_a.checksum()
    both = load_recording(part)
    assert [x[2] for x in both.actions] == [x[2] for x in load_recording(whole).actions]
    assert replay(content, both, verify=True).checksum() == game_a.checksum()


def test_a_torn_last_line_is_refused_but_can_be_continued(content: Content, tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    game, rec = bot_game(content, path, actions=30)
    rec.close()
    with open(path, "ab") as fh:
        fh.write(b'{"action":{"type":"re')  # a writer killed mid-line (ours never does this)
    with pytest.raises(RecordingError) as info:
        load_recording(path)
    assert info.value.line == 32 and "truncated" in info.value.message
    lenient = load_recording(path, lenient_tail=True)
    assert len(lenient.actions) == 30
    bot = Bot(game, 3)
    with Recorder.append_to(path) as rec2:
        while game.state.turn == 30:
            a = bot.choose()
            if len(play_step(game, rec2, a)) == 1 and game.state.turn == 30:
                bot.refused(a)
    assert len(load_recording(path).actions) == 31
    assert replay(content, load_recording(path), verify=True).checksum() == game.checksum()


# --- saves ----------------------------------------------------------------------------------------------------


@pytest.fixture
def user_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    d = tmp_path / "user"
    monkeypatch.setattr("undercroft.paths.user_data_dir", lambda: d)
    yield d


def test_saves_live_in_the_user_data_directory(content: Content, user_dir: Path) -> None:
    d = saves_dir()
    assert d == user_dir / "saves" and d.is_dir()
    p1 = new_save_path(42, "undercroft")
    assert p1.parent == d and p1.suffix == ".jsonl" and "42" in p1.name and "undercroft" in p1.name
    p1.write_text("")
    p2 = new_save_path(42, "undercroft")
    assert p2 != p1


def test_latest_unfinished_skips_finished_and_foreign_files(content: Content, user_dir: Path) -> None:
    d = saves_dir()
    older = d / "a.jsonl"
    _, rec = bot_game(content, older, seed=3, actions=20)
    rec.close()
    dead = d / "b.jsonl"
    _, rec = bot_game(content, dead, seed=51, actions=5000)  # (the bot dies on turn 344)
    rec.close()
    assert load_recording(dead).finished
    (d / "c.jsonl").write_text("not a recording\n")
    (d / "notes.txt").write_text("hello")
    os.utime(older, (1_000_000_000, 1_000_000_000))
    assert latest_unfinished() == older
    newer = d / "d.jsonl"
    _, rec = bot_game(content, newer, seed=4, actions=10)
    rec.close()
    assert latest_unfinished() == newer
    assert latest_unfinished(user_dir / "nowhere") is None


def test_state_summary(content: Content, tmp_path: Path) -> None:
    game, _ = dead_bot_game(content, tmp_path / "g.jsonl")
    text = state_summary(game)
    assert re.search(r"Delver HP 0/\d+", text) and "Gold:" in text and "Level" in text and "Segment" in text
    assert "Monsters present:" in text and "Dead: killed by the" in text
    fresh = state_summary(Game(content, "citadel", 1))
    assert "Warrior HP 14/14" in fresh and "Turn 0" in fresh and "Monsters present: none." in fresh


# --- golden recordings -------------------------------------------------------------------------------------------


GOLDEN = sorted(GOLDEN_DIR.glob("*.jsonl")) + sorted((GOLDEN_DIR / "v3").glob("*.jsonl"))  # formats 2 and 3


def test_there_are_golden_recordings_in_both_formats() -> None:
    formats = [load_recording(p).header.format for p in GOLDEN]
    assert formats.count(2) >= 3 and formats.count(3) >= 3
    two = {p.name for p in GOLDEN if p.parent == GOLDEN_DIR}
    assert two == {p.name for p in GOLDEN if p.parent.name == "v3"}  # the same games in each format


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.relative_to(GOLDEN_DIR).as_posix())
def test_golden_recordings_still_replay(content: Content, path: Path) -> None:
    rec = load_recording(path)
    assert 100 <= len(rec.actions) <= 300
    try:
        replay(content, rec, verify=True)
    except Desync as exc:
        pytest.fail(
            f"{path.name} no longer replays: {exc}. If a rules or data change did this on purpose, run "
            "`python tests/golden/regenerate.py` and say why in the same commit (see docs/REPLAY.md)."
        )


def test_the_regeneration_script_writes_verifiable_recordings(content: Content, tmp_path: Path) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("regenerate", GOLDEN_DIR / "regenerate.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    written = mod.regenerate(tmp_path)
    assert sorted(p.relative_to(tmp_path) for p in written) == sorted(p.relative_to(GOLDEN_DIR) for p in GOLDEN)
    for path in written:
        replay(content, load_recording(path), verify=True)
        golden = GOLDEN_DIR / path.relative_to(tmp_path)
        # the same game, line for line but the header (which names this installation's versions)
        assert path.read_bytes().splitlines()[1:] == golden.read_bytes().splitlines()[1:]


def test_autoplay_recording_helper(content: Content, tmp_path: Path) -> None:
    r = play_game(content, "crawler", 7, record=str(tmp_path / "x.jsonl"), max_actions=50)
    assert r.turns <= 50
    assert replay(content, load_recording(tmp_path / "x.jsonl"), verify=True).state.turn == r.turns
