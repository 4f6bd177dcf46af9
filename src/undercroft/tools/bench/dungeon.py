"""The ``mapgen_ms`` metric: how long the dungeon generator takes for one level (registered with ``bench``)."""

from __future__ import annotations

import argparse
import statistics
import time

from undercroft.tools.bench.core import load_data, metric

LEVELS = 41  # distinct levels timed; the median is reported


@metric("mapgen_ms", "ms")
def mapgen_ms(args: argparse.Namespace) -> float:
    """Median time to generate one level of the shipped "maze" profile (a fresh level stream each time)."""
    from undercroft.rules.dungeon import generate_level
    from undercroft.rules.rng import LEVEL, Stream

    profile = load_data(args).dungeon["maze"]
    generate_level(profile, Stream(0, LEVEL, 0))  # warm up imports and caches
    times = []
    for index in range(LEVELS):
        stream = Stream(20240601, LEVEL, index)
        t0 = time.perf_counter()
        generate_level(profile, stream)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000.0
