"""Every save and past game: the title's list of unfinished games, abandoning, the past-games screen and
``undercroft games`` (all in a tmp user data directory)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import tcod.event
from engine_helpers import content
from tcod.event import KeySym
from ui_helpers import Driver, isolate_user_data, names, press, screen, type_text

from undercroft import record
from undercroft.cli.main import main
from undercroft.record import saves
from undercroft.rules.actions import Rest
from undercroft.rules.rng import parse_seed
from undercroft.tools import autoplay
from undercroft.ui.scenes import PastGamesScene, SceneStack, TitleScene
from undercroft.ui.session import Session


@pytest.fixture
def user(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    return isolate_user_data(monkeypatch, tmp_path)


def unfinished_game(ruleset: str, seed: int, mtime: float, seed_text: str = "") -> Path:
    s = Session.new(content(), ruleset, seed)
    s.act(Rest())
    s.close()
    assert s.path is not None
    if seed_text:
        saves.remember_seed(s.path, seed_text)
    os.utime(s.path, (mtime, mtime))
    return s.path


def finished_game(user: Path, ruleset: str, seed: int, mtime: float) -> Path:
    """The first bot game of ``ruleset`` from ``seed`` on that ends in death (most do), saved and with its morgue."""
    for tried in range(seed, seed + 40):
        path = user / "saves" / f"{ruleset}-{tried}-done.jsonl"
        result = autoplay.play_game(content(), ruleset, tried, record=str(path), max_actions=3000)
        if result.outcome == "dead":
            break
        path.unlink()
    assert result.outcome == "dead"
    rec = record.load_recording(path)
    Session(content(), record.replay(content(), rec), path=path).write_morgue(user / "morgue")
    os.utime(path, (mtime, mtime))
    return path


def test_title_lists_every_unfinished_game_and_continues_the_second(user: Path) -> None:
    first = unfinished_game("citadel", parse_seed("goblin king"), 2_000_000_000, "goblin king")
    second = unfinished_game("warden", 5, 1_900_000_000)
    (user / "saves" / "junk.jsonl").write_text("not json\n", encoding="utf-8")
    d = Driver(SceneStack([TitleScene(content(), seed=7)]))
    text = screen(d)
    assert "Unfinished games (2)" in text
    assert "Citadel, seed goblin king, turn 1, level 1, HP" in text  # the word seed as typed, not its number
    assert "The Warden, seed 5, turn 1, level 1" in text
    assert text.index("goblin king") < text.index("The Warden, seed 5")  # newest first
    assert "skipped junk.jsonl" in text  # one line, no traceback
    press(d, KeySym.DOWN)
    press(d, KeySym.C)
    assert names(d)[0] == "ExploreScene"
    session = d.scenes[0].session  # type: ignore[attr-defined]
    assert session.path == second and session.game.ruleset_id == "warden"
    log = " ".join(t for t, _ in session.log.lines)
    assert "Continuing a game of The Warden (seed 5): its own ruleset, not the Undercroft chosen on the title" in log
    session.close()
    assert first.exists()


def test_abandon_asks_then_moves_the_game_aside(user: Path) -> None:
    path = unfinished_game("crawler", 3, 2_000_000_000)
    d = Driver(SceneStack([TitleScene(content(), seed=7)]))
    press(d, KeySym.A)
    assert "Abandon " + path.name in screen(d).replace("\n", "").replace(" ", " ")
    press(d, KeySym.N)  # anything but y keeps it
    assert path.exists() and "Kept." in screen(d)
    press(d, KeySym.A)
    press(d, KeySym.Y)
    assert not path.exists()
    moved = user / "saves" / "abandoned" / path.name
    assert moved.exists() and "(no unfinished game)" in screen(d)
    press(d, KeySym.P)
    text = screen(d)
    assert "Past games" in text and "abandoned" in text


def test_a_typed_word_seed_is_kept(user: Path) -> None:
    d = Driver(SceneStack([TitleScene(content(), seed=None)]))
    press(d, KeySym.S)
    type_text(d, "dragon")
    press(d, KeySym.RETURN)
    session = d.scenes[0].session  # type: ignore[attr-defined]
    assert session.game.state.seed > 10**9
    press(d, KeySym.ESCAPE, KeySym.T)
    assert "seed dragon, turn 0" in screen(d)


def test_click_a_row_chooses_then_continues(user: Path) -> None:
    unfinished_game("citadel", 1, 2_000_000_000)
    second = unfinished_game("undercroft", 2, 1_900_000_000)
    title = TitleScene(content(), seed=7)
    d = Driver(SceneStack([title]))
    y = TitleScene.LIST_Y + 2  # the second row of the list (the tile under the pointer)
    click = tcod.event.MouseButtonDown(
        position=tcod.event.Point(10.0, float(y)), tile=tcod.event.Point(10, y), button=tcod.event.MouseButton.LEFT
    )
    d.send(click)
    assert title.cursor == 1 and names(d) == ["TitleScene"]
    d.send(click)
    assert d.scenes[0].session.path == second  # type: ignore[attr-defined]
    d.scenes[0].session.close()  # type: ignore[attr-defined]


@pytest.mark.slow  # (real seeded games listed and replayed: 0.66 s of CPU quiet, over 1 s with the other core busy)
def test_past_games_screen_and_command(user: Path, capsys: pytest.CaptureFixture[str]) -> None:
    finished_game(user, "undercroft", 51, 1_900_000_000)  # (the bot dies on turn 344): who kills it depends on the bot
    finished_game(user, "citadel", 2, 2_000_000_000)
    unfinished_game("crawler", parse_seed("moth"), 2_100_000_000, "moth")
    (user / "saves" / "foreign.jsonl").write_text('{"hello": 1}\n', encoding="utf-8")
    facts = {g.ruleset: g for g in saves.past_games(content=content())}
    killer = {r: g.cause.removeprefix("the ").removeprefix("The ") for r, g in facts.items()}
    assert all(killer.values()) and all(g.level is not None for g in facts.values())
    scene = PastGamesScene(content())
    d = Driver(SceneStack([scene]))
    text = screen(d)
    assert "Past games: newest first" in text
    assert "Citadel" in text and killer["citadel"] in text and killer["undercroft"] in text and "dead" in text
    assert text.index("Citadel") < text.index("Undercroft")  # newest first
    assert "skipped foreign.jsonl: not an Undercroft recording" in text
    press(d, KeySym.T)
    assert "high scores" in screen(d)
    deeper = sorted(facts.values(), key=lambda g: (-(g.level or 0), -g.turns))
    assert [g.ruleset for g in scene.games] == [g.ruleset for g in deeper]  # deepest first

    assert main(["games", "--sort", "depth"]) == 0
    out, err = capsys.readouterr()
    assert "Past games (2):" in out and "Unfinished games (1):" in out and "seed moth" in out
    assert "skipped foreign.jsonl" in err and "Traceback" not in err
    lines = out.splitlines()
    assert lines[1].split() == ["Date", "Ruleset", "Seed", "Result", "Level", "Turns", "Cause"]
    assert killer[deeper[0].ruleset] in lines[2] and f" {deeper[1].turns} " in lines[3]
    assert main(["games", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [g["ruleset"] for g in data["past"]] == ["citadel", "undercroft"]
    assert data["past"][1]["cause"] == facts["undercroft"].cause
    assert data["past"][1]["level"] == facts["undercroft"].level
    assert data["unfinished"][0]["seed_text"] == "moth"
    assert data["skipped"] == ["skipped foreign.jsonl: not an Undercroft recording"]

    # the high-score tables: per ruleset, each finished game with the score of its end line
    scores = {r: record.load_recording(g.path).score for r, g in facts.items()}
    assert all(isinstance(v, int) and v >= 100 for v in scores.values())
    assert main(["games", "--scores"]) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0] == "Undercroft (undercroft): 1 game" and table[3] == "Citadel (citadel): 1 game"
    assert table[1].split() == ["Rank", "Score", "Depth", "Won", "Date", "Seed", "Daily"]
    assert table[2].split()[:3] == ["1", str(scores["undercroft"]), str(facts["undercroft"].level)]
    assert main(["games", "--scores", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    best = data["scores"]["citadel"][0]
    assert (best["rank"], best["score"], best["won"], best["daily"]) == (1, scores["citadel"], False, "")
    press(d, KeySym.S)
    text = screen(d)
    assert "high scores, by ruleset" in text and "Rank  Score" in text
    assert text.index("Undercroft") < text.index("Citadel")  # the data's order of rulesets
    assert f"1     {scores['citadel']}" in text


def info(score: int, mtime: float, daily: str = "", result: str = "dead", verified: bool = True) -> saves.GameInfo:
    return saves.GameInfo(
        Path(f"g{mtime}.jsonl"),
        "warden",
        1,
        "1",
        result,
        10,
        f"2026-12-0{mtime:.0f}",
        3,
        mtime=mtime,
        score=score,
        daily=daily,
        verified=verified,
    )


def test_high_scores_rank_by_score_then_the_earlier_game_and_mark_the_daily() -> None:
    games = [info(300, 1), info(500, 2, "2026-12-02"), info(300, 0), info(900, 3, result="crashed"), info(1, 4)]
    games.append(info(99999999, 6, verified=False))  # its recording does not bear it out: never ranked
    games.append(saves.GameInfo(Path("old.jsonl"), "warden", 1, "1", "dead", 10, "", mtime=5))  # before scores
    tables = saves.high_scores(games, content())
    assert [(g.score, g.mtime) for g in tables["warden"]] == [(500, 2), (300, 0), (300, 1), (1, 4)]
    rows = saves.score_rows(tables["warden"])
    assert rows[0] == ("1", "500", "3", "", "2026-12-02", "1", "daily") and rows[1][-1] == ""
    assert [r[0] for r in rows] == ["1", "2", "3", "4"]


def test_a_word_seed_given_on_the_command_line_is_kept_as_typed(user: Path) -> None:
    from undercroft.ui.loop import PlayOptions, play_stack

    stack = play_stack(content(), PlayOptions(seed=parse_seed("goblin king"), seed_text="goblin king"))
    games = saves.unfinished(None, content(), [])
    assert [g.seed_text for g in games] == ["goblin king"]
    assert not isinstance(stack.scenes[-1], TitleScene)  # straight into the game


def test_the_daily_seed_is_the_same_all_day_and_differs_from_day_to_day(
    user: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from undercroft.ui import loop

    started: list[loop.PlayOptions] = []

    def fake_play(front_end: object, data: object, options: loop.PlayOptions) -> int:
        started.append(options)
        loop.play_stack(content(), options)  # straight into the day's game, as the window would
        return 0

    monkeypatch.setattr(loop, "play", fake_play)
    monkeypatch.setattr("undercroft.term.app.choose", lambda options: None)
    for day in ("2026-12-02", "2026-12-02", "2026-12-03"):
        monkeypatch.setattr(saves, "today_utc", lambda day=day: day)
        assert main(["play", "--daily", "--ruleset", "warden"]) == 0
    first, again, tomorrow = started
    assert first.seed == again.seed == parse_seed("daily-2026-12-02") and first.seed_text == "daily-2026-12-02"
    assert tomorrow.seed == parse_seed("daily-2026-12-03") != first.seed
    assert first.daily == "2026-12-02" and tomorrow.daily == "2026-12-03"
    games = sorted(saves.unfinished(None, content(), []), key=lambda g: g.seed_text)
    assert [(g.seed_text, g.daily) for g in games] == [
        ("daily-2026-12-02", "2026-12-02"),
        ("daily-2026-12-02", "2026-12-02"),
        ("daily-2026-12-03", "2026-12-03"),
    ]
    assert main(["play", "--daily", "--seed", "5"]) == 2  # one or the other


def test_a_seed_typed_as_the_days_word_is_not_the_daily_game(user: Path) -> None:
    from undercroft.ui.loop import PlayOptions, play_stack

    play_stack(content(), PlayOptions(seed=parse_seed("daily-2026-12-02"), seed_text="daily-2026-12-02"))
    (game,) = saves.unfinished(None, content(), [])
    assert game.daily == "" and record.load_recording(game.path).header.daily == ""
