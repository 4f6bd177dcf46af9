"""``undercroft bench`` metrics of the bot's games (docs/PERFORMANCE.md).

``autoplay_games_per_s``: :data:`GAMES` bot games of the :data:`RULESET` ruleset from :data:`FIRST_SEED` on, each
recorded (into a temporary directory, as ``undercroft autoplay --record`` and ``undercroft soak`` do), played by
:func:`undercroft.tools.batch.run` with ``jobs=1`` (in this process); the rate is games over wall-clock seconds.
``autoplay_games_per_s_jobs``: the same batch with ``jobs=cores()`` (one process per core, the pool's start
included). ``autoplay_speedup``: the second rate over the first. Each is one run (the batch is long enough to be
steady); a rate measured once in a process is reused by the speedup row, so ``--only`` all three plays each batch
once. ``autoplay_actions_per_s`` is the one-core batch's actions (each game's turns) over the same seconds.

``bot_step_ratio`` (and ``bot_step_ratio_crawler``, ``_citadel``, ``_warden``): the same games of a ruleset, not
recorded, timed action by action (``play_game(timing=...)``): the seconds of the bot's side of each action over the
seconds of the engine's step: information, not a target (no player sees it). ``bot_us_per_action`` and
``step_us_per_action`` (with the same suffixes): the two sides' microseconds an action, from the same run (the step's
own seconds move between processes on a noisy host: docs/PERFORMANCE.md, "Findings a reader still needs").
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from undercroft.tools import batch
from undercroft.tools.autoplay import MAX_ACTIONS, Timing, play_game
from undercroft.tools.bench.core import BenchError, load_data, metric

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
            results = batch.run(
                content, ruleset, FIRST_SEED, GAMES, max_actions=MAX_ACTIONS, record_dir=Path(tmp), jobs=jobs
            )
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
    return games_per_s(args, batch.cores())


@metric("autoplay_speedup", "x")
def autoplay_speedup(args: argparse.Namespace) -> float:
    """``autoplay_games_per_s_jobs`` over ``autoplay_games_per_s`` (each measured once per process)."""
    return games_per_s(args, batch.cores()) / games_per_s(args, 1)


# --- the bot against the step: what the bot's decisions cost beside the engine's own step ------------------------

RATIO_RULESETS = ("undercroft", "crawler", "citadel", "warden")


# (--data, ruleset) -> the split of its games, measured once in this process (the ratio and the two rows of
# microseconds read the same run)
_SPLITS: dict[tuple[str | None, str], Timing] = {}


def _split(args: argparse.Namespace, ruleset: str) -> Timing:
    """The bot's and the engine's seconds over :data:`GAMES` unrecorded bot games of ``ruleset`` from
    :data:`FIRST_SEED` on (the batch of ``autoplay_actions_per_s`` for undercroft, less the recording), in this
    process; the caches warmed by one short game first, as that row does. Measured once a process."""
    key = (getattr(args, "data", None), ruleset)
    if key not in _SPLITS:
        content = load_data(args)
        play_game(content, ruleset, FIRST_SEED, max_actions=200)
        timing = Timing()
        for i in range(GAMES):
            play_game(content, ruleset, FIRST_SEED + i, timing=timing)
        _SPLITS[key] = timing
    return _SPLITS[key]


def _played(args: argparse.Namespace, ruleset: str, name: str) -> str:
    """The ruleset a row of ``ruleset`` plays: itself, or for undercroft's rows on data without it, the data's first
    (as ``autoplay_actions_per_s`` does)."""
    if ruleset in load_data(args).rulesets:
        return ruleset
    if ruleset != RULESET:
        raise BenchError(f"{name}: the data has no ruleset {ruleset!r}")
    return next(iter(load_data(args).rulesets))


def _ratio_metrics(ruleset: str) -> None:
    """The rows of ``ruleset``'s games: ``bot_step_ratio`` (``_<ruleset>``), and the bot's and the step's
    microseconds an action (``bot_us_per_action``, ``step_us_per_action``), all three from one run."""
    suffix = "" if ruleset == RULESET else f"_{ruleset}"
    games = f"{GAMES} unrecorded bot games of {ruleset} from seed {FIRST_SEED}"
    bot_side = (
        "had_a_way_out and Bot.choose (with every question they ask the engine, the fields of "
        "view folded in among them)"
    )

    def ratio(args: argparse.Namespace) -> float:
        t = _split(args, _played(args, ruleset, f"bot_step_ratio{suffix}"))
        return t.bot / t.step

    def bot_us(args: argparse.Namespace) -> float:
        t = _split(args, _played(args, ruleset, f"bot_us_per_action{suffix}"))
        return 1e6 * t.bot / t.actions

    def step_us(args: argparse.Namespace) -> float:
        t = _split(args, _played(args, ruleset, f"step_us_per_action{suffix}"))
        return 1e6 * t.step / t.actions

    ratio.__doc__ = (
        f"The bot's seconds over the engine's in {games}: {bot_side} against Game.step (information, not a target)."
    )
    bot_us.__doc__ = f"The bot's microseconds an action in {games} ({bot_side}): the same run as the ratio's."
    step_us.__doc__ = f"Game.step's microseconds an action in {games}: the same run as the ratio's."
    metric(f"bot_step_ratio{suffix}", "x")(ratio)
    metric(f"bot_us_per_action{suffix}", "us")(bot_us)
    metric(f"step_us_per_action{suffix}", "us")(step_us)


for _rs in RATIO_RULESETS:
    _ratio_metrics(_rs)
