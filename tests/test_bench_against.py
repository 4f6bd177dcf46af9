"""``undercroft bench --against REV``: the same rows on this tree and on another commit, in turn, side by side."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from undercroft.cli.main import main
from undercroft.tools.bench.against import Compared, known_rows, table, unpack

REPO = Path(__file__).resolve().parents[1]


def _git_checkout() -> bool:
    done = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True)
    return done.returncode == 0


needs_git = pytest.mark.skipif(not _git_checkout(), reason="needs a git checkout of the project")


def test_a_revision_that_is_no_commit_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--against", "no-such-revision-anywhere", "--only", "data_load_s"]) == 2
    out, err = capsys.readouterr()
    assert "--against no-such-revision-anywhere: not a commit" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in out + err


def test_the_table_puts_both_sides_and_their_ratio_on_one_row() -> None:
    rows = [Compared("step_us_per_action", (30.0, 20.0, 25.0), (50.0, 40.0, 60.0)), Compared("new_row", (1.0,), ())]
    text = table("abc1234", rows, {"step_us_per_action": "us"})
    head, step, new = text.splitlines()
    assert "here" in head and "abc1234" in head
    assert step.split()[:4] == ["step_us_per_action", "25", "50", "0.50"]  # medians, and here / there
    assert "20-30 | 40-60 us" in step
    assert "(no row)" in new  # a row the older tree lacks


@needs_git
@pytest.mark.slow
def test_against_head_measures_both_trees(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--against", "HEAD", "--rounds", "1", "--only", "data_load_s", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    rev = got["against"]
    row = got["rows"]["data_load_s"]
    assert len(row["here"]) == 1 and len(row[rev]) == 1 and row["ratio"] > 0


@needs_git
@pytest.mark.slow
def test_the_rows_an_older_tree_knows_are_read_from_its_own_bench(tmp_path: Path) -> None:
    unpack("HEAD", tmp_path)
    known = known_rows(tmp_path / "tree" / "src")
    assert {"data_load_s", "step_us_per_action", "replay_actions_per_s"} <= known
