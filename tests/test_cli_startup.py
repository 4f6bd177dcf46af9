"""The command line starts at once: ``undercroft --version`` and ``--help`` (and ``undercroft SUB --help``) import
no heavy module. Each runs ``python -X importtime -m undercroft ...`` in a new process and reads the modules it
imported from that report, so a heavy import added anywhere on the way (``import numpy`` in ``cli/main.py``, the
data layer in a subcommand's module) fails here."""

from __future__ import annotations

import subprocess
import sys

import pytest

from undercroft.cli.main import COMMANDS
from undercroft.cli.replay import LOG_LEVELS
from undercroft.narrate import LEVELS

# Not one of these (or anything under them) may be imported to print the version or a help text.
HEAVY: tuple[str, ...] = (
    "undercroft.bot",
    "undercroft.sim",
    "undercroft.content",
    "undercroft.rules",
    "undercroft.ui",
    "undercroft.term",
    "undercroft.record",
    "undercroft.narrate",
    "undercroft.tools",
    "tcod",
    "pydantic",
    "numpy",
    "tqdm",
    "yaml",
)

SUBCOMMANDS = [m.__name__.rsplit(".", 1)[1] for m in COMMANDS]


def imported(*argv: str) -> set[str]:
    """Every module ``python -m undercroft ARGV`` imports (``-X importtime``'s report on stderr)."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "undercroft", *argv], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    names = {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "undercroft.cli.main" in names  # the report is read right: it names the entry point
    return names


def heavy(names: set[str]) -> list[str]:
    return sorted(n for n in names if any(n == h or n.startswith(h + ".") for h in HEAVY))


@pytest.mark.slow
@pytest.mark.parametrize("argv", [["--version"], ["--help"], *([sub, "--help"] for sub in SUBCOMMANDS)])
def test_version_and_help_import_nothing_heavy(argv: list[str]) -> None:
    assert heavy(imported(*argv)) == []


def test_the_check_sees_a_heavy_import() -> None:
    """A subcommand that is run imports its modules: the same reading finds them."""
    found = heavy(imported("validate"))
    assert "undercroft.content" in found and "pydantic" in found


def test_every_subcommand_is_checked() -> None:
    assert SUBCOMMANDS == ["validate", "bench", "play", "replay", "autoplay", "sim", "games", "soak", "balance"]


def test_log_levels_are_the_narrations() -> None:
    """``replay --log-level`` spells out the narration's levels (to leave the narration unloaded for --help)."""
    assert LOG_LEVELS == LEVELS
