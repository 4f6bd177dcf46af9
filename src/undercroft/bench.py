"""``undercroft bench``: the performance measures of docs/PERFORMANCE.md.

Each metric is a function registered in :data:`METRICS`; later work adds its own. Times are medians of several
runs on the machine it runs on; it is a benchmark, not a test, and CI never times anything.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from undercroft.paths import data_dir

Metric = Callable[[argparse.Namespace], float]
METRICS: dict[str, tuple[Metric, str]] = {}


def metric(name: str, unit: str) -> Callable[[Metric], Metric]:
    def deco(fn: Metric) -> Metric:
        METRICS[name] = (fn, unit)
        return fn

    return deco


def _data(args: argparse.Namespace) -> Path:
    return Path(args.data) if getattr(args, "data", None) else data_dir()


def median_time(fn: Callable[[], object], repeat: int = 7) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


@metric("startup_s", "s")
def startup_s(args: argparse.Namespace) -> float:
    """A new Python process: start, import, load and validate the data, exit (``undercroft validate``)."""
    cmd = [sys.executable, "-m", "undercroft", "validate", "--data", str(_data(args))]
    env = dict(os.environ)

    def once() -> None:
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)

    once()  # warm the file cache and bytecode
    return median_time(once, repeat=5)


@metric("data_load_s", "s")
def data_load_s(args: argparse.Namespace) -> float:
    """Parse and validate every data file in this process."""
    from undercroft.content import load_content

    d = _data(args)
    load_content(d)
    return median_time(lambda: load_content(d), repeat=9)


def _load_extra_metrics() -> None:
    import importlib

    for mod in _METRIC_MODULES:
        importlib.import_module(mod)


# Modules that register more metrics with @metric when imported.
_METRIC_MODULES: list[str] = [
    "undercroft.bench_dungeon",
    "undercroft.bench_ui",
    "undercroft.bench_replay",
    "undercroft.bench_sim",
    "undercroft.bench_term",
    "undercroft.bench_soak",
    "undercroft.bench_autoplay",
]


def run(args: argparse.Namespace) -> int:
    _load_extra_metrics()
    names = list(METRICS)
    if getattr(args, "only", None):
        wanted = [n.strip() for n in args.only.split(",") if n.strip()]
        unknown = [n for n in wanted if n not in METRICS]
        if unknown:
            from undercroft.cliutil import UserError

            raise UserError(f"unknown metric(s) {', '.join(unknown)}; known: {', '.join(METRICS)}")
        names = wanted
    from tqdm import tqdm

    from undercroft import progress

    results: dict[str, float] = {}
    # A bar over the rows on stderr, only on a terminal and not with --json; each row's line is printed with the
    # bar lifted (tqdm's external_write_mode), so the two never share a line.
    with progress.Bar(len(names), "bench", unit="row", enabled=progress.wanted(args.json)) as bar:
        for name in names:
            bar.update(0, name)
            fn, unit = METRICS[name]
            value = fn(args)
            results[name] = round(value, 6) if isinstance(value, float) else value
            if not args.json:
                with tqdm.external_write_mode(file=sys.stdout):
                    print(f"{name:28s} {value:14.6g} {unit}", flush=True)
            bar.update(1)
    if args.json:
        print(json.dumps(results))
    return 0
