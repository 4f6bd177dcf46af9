"""Progress bars of the long commands: on a terminal a rate and the time left, otherwise nothing at
all; and ``soak`` gives the same result in one process or two."""

from __future__ import annotations

import argparse
import io
import re
import time

import pytest

from undercroft.cli import progress
from undercroft.cli.main import main
from undercroft.cli.soak import soak


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_bar_on_a_terminal_shows_its_rate_and_the_time_left() -> None:
    tty = FakeTTY()
    with progress.Bar(10, "autoplay", unit="game", stream=tty) as bar:
        bar.update(1, "0 won")
        time.sleep(0.25)  # past the bar's minimum interval between two redraws
        bar.update(1, "1 won")
    text = tty.getvalue()
    assert "autoplay" in text and "2/10" in text and "1 won" in text
    assert re.search(r"<\d\d:\d\d, +[\d.]+game/s", text), text  # tqdm's "[elapsed<left, rate]"


def test_a_disabled_bar_is_silent() -> None:
    tty = FakeTTY()
    with progress.Bar(10, "autoplay", enabled=False, stream=tty) as bar:
        bar.update(5, "note")
    assert tty.getvalue() == ""


def test_wanted_only_on_a_terminal_and_never_with_json() -> None:
    assert progress.wanted(True) is False
    assert progress.wanted(True, FakeTTY()) is False
    assert progress.wanted(False, FakeTTY()) is True
    assert progress.wanted(False, io.StringIO()) is False


@pytest.mark.slow
@pytest.mark.parametrize(
    "argv",
    [
        ["sim", "--all", "--fights", "100", "--count", "1"],
        ["sim", "--all", "--fights", "100", "--count", "1", "--markdown"],
        ["bench", "--only", "data_load_s"],
        ["soak", "--games", "1"],
    ],
)
def test_nothing_on_stderr_when_it_is_not_a_terminal(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == "" and out


def test_soak_reports_its_games() -> None:
    one = soak(argparse.Namespace(data=None), 2, 6, rulesets=("warden",), jobs=1)  # seeds 6, 7: short games
    assert list(one) == [
        "games",
        "actions",
        "wins",
        "deaths",
        "timeouts",
        "crashes",
        "desyncs",
        "seconds",
        "seed",
        "rulesets",
        "problems",
    ]  # the keys of soak --json, as before
    assert one["games"] == 2 and one["actions"] > 0 and one["seconds"] >= 0


@pytest.mark.slow  # (forking this big test process costs 0.5-1 s of CPU, more or less as the heap stands)
def test_soak_gives_the_same_result_in_one_process_or_two() -> None:
    one, two = (soak(argparse.Namespace(data=None), 2, 6, rulesets=("undercroft",), jobs=jobs) for jobs in (1, 2))
    assert one.pop("seconds") >= 0 and two.pop("seconds") >= 0
    assert one == two and one["games"] == 2
