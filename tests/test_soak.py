"""``undercroft soak`` at CI size: 50 games of each of the four rulesets, played, recorded and verified in-process
through the command's own function."""

from __future__ import annotations

import argparse

import pytest

from undercroft.cli.soak import RULESETS, soak

GAMES_PER_RULESET = 50  # 200 games in all: the CI-sized soak (about 60 s on 2 cores)


@pytest.mark.slow
def test_ci_soak_has_no_crash_or_desync() -> None:
    result = soak(argparse.Namespace(data=None), GAMES_PER_RULESET, seed=15)
    assert result["games"] == GAMES_PER_RULESET * len(RULESETS)
    assert result["crashes"] == 0 and result["desyncs"] == 0, result["problems"]
    assert result["actions"] > result["games"]
    assert result["wins"] + result["deaths"] + result["timeouts"] == result["games"]
