"""The meeting-odds report (python -m undercroft.tools.meeting_odds): every meeting counted once, in one band."""

from __future__ import annotations

import pytest

from undercroft.content import Content
from undercroft.tools.meeting_odds import BANDS, main, play, table


def test_each_meeting_of_a_game_falls_in_exactly_one_band(content: Content) -> None:
    f = play(content, "undercroft", 952, "careful")  # a short game: dead on floor 1 on turn 48
    assert f.reached[1] == 1 and f.meetings[1] >= 1
    for floor, n in f.meetings.items():
        assert sum(f.bands[name][floor] for name, *_ in BANDS[:3]) == n  # >=99, 90-99 and <90 part the meetings
        assert f.bands["<50%"][floor] <= f.bands["<90%"][floor] and f.resting[floor] <= n
    lines = table(f)
    assert lines[0].startswith("| floor | games | meetings a game | while resting | >=99%")
    assert lines[2].startswith(f"| 1 | 1 | {f.meetings[1]:.1f} |")


def test_the_command_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--games", "1", "--seed", "952", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("| floor |") and "| 1 | 1 |" in out
