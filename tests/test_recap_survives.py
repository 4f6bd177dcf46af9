"""The recap travels with the run: a screenshot of its end and the end of a replay watched show where it turned,
a branch keeps the seed's words, and the play-on command's short name finds its save."""

from __future__ import annotations

from pathlib import Path

import pytest
import tcod.console
from engine_helpers import content
from test_no_cut import box_text
from test_ui_replay import recorded_game, user  # noqa: F401  (the fixture)
from ui_helpers import rows

from undercroft import paths, record
from undercroft.record import saves
from undercroft.tools.autoplay import play_game
from undercroft.ui import render
from undercroft.ui.replay_view import ReplayScene, branch, screenshot_stack


@pytest.mark.slow
def test_the_screenshot_and_the_watch_of_a_lost_run_end_on_the_recap(user: Path) -> None:  # noqa: F811
    path = user / "saves" / "warden-7-20261207-120000.jsonl"
    path.parent.mkdir(parents=True)
    play_game(content(), "warden", 7, record=str(path), max_actions=5000)  # (the morgue tests' lost run)
    rec = record.load_recording(path)
    assert rec.end == "dead"
    console = tcod.console.Console(render.WIDTH, render.HEIGHT, order="F")
    screenshot_stack(content(), path, None).draw(console)
    shot = str(console)
    assert "You are dead." in shot and "Where it turned:" in shot
    watched = ReplayScene(content(), rec, paused=True)
    watched.jump(rec.turns)
    console.clear()
    watched.on_draw(console)
    assert "Where it turned:" in str(console)
    short = paths.recording_short_name(path)
    assert short == "warden-7-20261207" and paths.find_recording(short) == path
    said = box_text(str(console), "Death")
    assert "the command on the last row" in said  # (longer than the 80-column panel's rows: a row of its own)
    assert any(row.strip().startswith(f"undercroft replay {short} --until ") for row in rows(str(console)))


def test_a_branch_keeps_the_seed_as_typed(user: Path) -> None:  # noqa: F811
    path = recorded_game(seed=4, actions=10)
    saves.remember_seed(path, "salt marsh")
    session = branch(content(), path, 5)
    try:
        assert session.seed_label == "salt marsh" and session.path is not None
        assert saves.seed_label(session.path, session.game.state.seed) == "salt marsh"  # and after Continue
    finally:
        session.close()
