"""``undercroft bench`` metrics of the bot's games (docs/PERFORMANCE.md, "Autoplay speed").

``autoplay_games_per_s``: :data:`GAMES` bot games of the :data:`RULESET` ruleset from :data:`FIRST_SEED` on, each
recorded (into a temporary directory, as ``undercroft autoplay --record`` and ``undercroft soak`` do), played by
:func:`undercroft.autoplay.run` with ``jobs=1`` (in this process); the rate is games over wall-clock seconds.
``autoplay_games_per_s_jobs``: the same batch with ``jobs=cores()`` (one process per core, the pool's start
included). ``autoplay_speedup``: the second rate over the first. Each is one run (the batch is long enough to be
steady); a rate measured once in a process is reused by the speedup row, so ``--only`` all three plays each batch
once. ``autoplay_actions_per_s`` is the one-core batch's actions (each game's turns) over the same seconds.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from undercroft import autoplay
from undercroft.bench import metric
from undercroft.bot import MAX_ACTIONS, play_game
from undercroft.cliutil import load_data

GAMES = 40
RULESET = "undercroft"
FIRST_SEED = 1600

# (--data, jobs) -> (games per second, actions per second), measured once in this process
_RATES: dict[tuple[str | None, int], tuple[float, float]] = {}


def games_per_s(args: argparse.Namespace, jobs: int) -> float:
    """Games per second of the batch (see the module docstring) in ``jobs`` processes."""
    return _rates(args, jobs)[0]


def _rates(args: argparse.Namespace, jobs: int) -> tuple[float, float]:
    key = (getattr(args, "data", None), jobs)
    if key not in _RATES:
        content = load_data(args)
        ruleset = RULESET if RULESET in content.rulesets else next(iter(content.rulesets))
        play_game(content, ruleset, FIRST_SEED, max_actions=200)  # warm up the caches (before any fork)
        with tempfile.TemporaryDirectory(prefix="undercroft-bench-autoplay-") as tmp:
            t0 = time.perf_counter()
            results = autoplay.run(content, ruleset, FIRST_SEED, GAMES, max_actions=MAX_ACTIONS,
                                   record_dir=Path(tmp), jobs=jobs)
            seconds = time.perf_counter() - t0
            _RATES[key] = (GAMES / seconds, sum(r.turns for r in results) / seconds)
    return _RATES[key]


@metric("autoplay_games_per_s", "games/s")
def autoplay_games_per_s(args: argparse.Namespace) -> float:
    """Recorded bot games of the undercroft ruleset per second on one core (40 games from seed 1600, jobs=1)."""
    return games_per_s(args, 1)


@metric("autoplay_actions_per_s", "actions/s")
def autoplay_actions_per_s(args: argparse.Namespace) -> float:
    """The actions of the same 40 recorded games (the bot's choice, the step, the recording's line) per second on
    one core: the batch of ``autoplay_games_per_s``, measured once with it."""
    return _rates(args, 1)[1]


@metric("autoplay_games_per_s_jobs", "games/s")
def autoplay_games_per_s_jobs(args: argparse.Namespace) -> float:
    """The same 40 recorded games in one process per core (jobs=cores())."""
    return games_per_s(args, autoplay.cores())


@metric("autoplay_speedup", "x")
def autoplay_speedup(args: argparse.Namespace) -> float:
    """``autoplay_games_per_s_jobs`` over ``autoplay_games_per_s`` (each measured once per process)."""
    return games_per_s(args, autoplay.cores()) / games_per_s(args, 1)
