"""A run lost with no choice at its end (an ambush met walking on, fatal before any decision) still says where it
turned and offers to play on: from before the step that met the killer (played in the window: the end screen
after such a death had neither, though five potions were left)."""

from __future__ import annotations

from pathlib import Path

from engine_helpers import content

from undercroft import recap
from undercroft.recap import Began, Story


def lost(**kw: object) -> Story:
    run = Story(cause="Cistern Drowner", ruleset="undercroft", seed=1, path=str(Path("/elsewhere/u-1.jsonl")))
    for k, v in kw.items():
        setattr(run, k, v)
    return run


def test_a_death_with_no_choice_names_the_step_and_plays_on_from_before_it() -> None:
    run = lost(walked=Began(109, 3, "at HP 9/14 with 5 potions", 0.0))
    assert recap.turning_lines(content(), run) == [
        "On turn 109 you walked on, at HP 9/14 with 5 potions, and met the Cistern Drowner: it gave you no choice."
    ]
    assert recap.replay_command(content(), run) == "undercroft replay /elsewhere/u-1.jsonl --until 108 --play"


def test_no_such_line_for_a_won_run_or_a_meeting_not_met_walking() -> None:
    assert recap.turning_lines(content(), lost(cause="", walked=Began(109, 3, "at HP 9/14", 0.0))) == []
    assert recap.turning_lines(content(), lost(walked=Began(109, 3, "", 0.0))) == []  # (begun in a chase, a fight)
    assert recap.replay_command(content(), lost(walked=None)) == ""
