"""Benchmark of memory over many games in one process (docs/PERFORMANCE.md).

``autoplay_rss_growth_mb_per_1000_games``: play :data:`WARMUP_GAMES` bot games (imports, caches and the
allocator's pools settle), read the resident set size, play :data:`SOAK_GAMES` more, read it again, and scale the
growth to 1,000 games. Games are not recorded (the recorder's file writes are not what is measured) and use the
default ruleset from :data:`FIRST_SEED` on. A flat process gives a figure near 0; a leak of ``k`` MB a game gives
``1000 * k``.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
from collections.abc import Callable

from undercroft.tools.autoplay import game_seed, play_game
from undercroft.tools.bench.core import load_data, metric

WARMUP_GAMES = 100  # (the fight odds and the wrapped words fill their caches until about game 100)
SOAK_GAMES = 300
RULESET = "undercroft"
FIRST_SEED = 7000


def rss_mb() -> float:
    """The current resident set size in MB (``/proc/self/statm``; the peak from ``getrusage`` elsewhere)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as fh:
            pages = int(fh.read().split()[1])
        return pages * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):  # no /proc (macOS): the peak, which never falls, is an upper bound
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak / 2**20 if os.uname().sysname == "Darwin" else peak / 2**10


def soak(
    args: argparse.Namespace,
    games: int,
    ruleset: str = RULESET,
    first_seed: int = FIRST_SEED,
    report: Callable[[int, float], None] | None = None,
    every: int = 100,
) -> list[tuple[int, float]]:
    """Play ``games`` unrecorded bot games in this process; the resident size (MB) after each ``every`` games and
    after :data:`WARMUP_GAMES`, as ``(games played, MB)``; ``report`` is called with each."""
    content = load_data(args)
    marks: list[tuple[int, float]] = []
    for i in range(games):
        play_game(content, ruleset, game_seed(first_seed, i))
        n = i + 1
        if n in (WARMUP_GAMES, games) or n % every == 0:
            gc.collect()
            mark = (n, rss_mb())
            marks.append(mark)
            if report is not None:
                report(*mark)
    return marks


@metric("autoplay_rss_growth_mb_per_1000_games", "MB")
def autoplay_rss_growth(args: argparse.Namespace) -> float:
    """Resident growth from game 100 to game 100 + 300, scaled to 1,000 games (see the module docstring)."""
    marks = dict(soak(args, WARMUP_GAMES + SOAK_GAMES, every=WARMUP_GAMES + SOAK_GAMES))
    growth = marks[WARMUP_GAMES + SOAK_GAMES] - marks[WARMUP_GAMES]
    return growth * 1000 / SOAK_GAMES


def main(argv: list[str] | None = None) -> int:
    """``python -m undercroft.tools.bench.soak GAMES``: print the resident size as the games go (for long soaks)."""
    import sys
    import time

    parser = argparse.ArgumentParser(prog="python -m undercroft.tools.bench.soak")
    parser.add_argument("games", type=int, nargs="?", default=2000)
    parser.add_argument("--data", default=None)
    parser.add_argument("--every", type=int, default=100)
    ns = parser.parse_args(argv)
    start = time.perf_counter()

    def show(n: int, mb: float) -> None:
        print(f"{n:6d} games  {mb:8.1f} MB  {time.perf_counter() - start:8.1f} s", flush=True)

    soak(ns, ns.games, report=show, every=ns.every)
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
