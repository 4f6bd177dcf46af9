"""The registry of ``undercroft bench``'s metrics (docs/PERFORMANCE.md), and what the metrics share.

Each metric is a function registered in :data:`METRICS`; later work adds its own. Times are medians of several
runs on the machine it runs on; it is a benchmark, not a test, and CI never times anything. The command
(:mod:`undercroft.cli.bench`) picks the metrics with :func:`.rows.select`, runs them and prints them; this package
never imports the command line (the command line imports it), and this module none of the modules of the rows.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from undercroft.paths import data_dir

if TYPE_CHECKING:
    from undercroft.content import Content

Metric = Callable[[argparse.Namespace], float]
METRICS: dict[str, tuple[Metric, str]] = {}


def metric(name: str, unit: str) -> Callable[[Metric], Metric]:
    def deco(fn: Metric) -> Metric:
        METRICS[name] = (fn, unit)
        return fn

    return deco


class BenchError(Exception):
    """A metric that cannot be run as asked (an unknown name, data without what it needs): one line, exit 2."""


def _data(args: argparse.Namespace) -> Path:
    return Path(args.data) if getattr(args, "data", None) else data_dir()


def load_data(args: argparse.Namespace) -> Content:
    """The validated data of ``--data`` (or the shipped data); raises DataError."""
    from undercroft.content import load_content

    return load_content(_data(args))


def median_time(fn: Callable[[], object], repeat: int = 7) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _process_s(argv: list[str], repeat: int) -> float:
    """The median wall time of ``repeat`` runs of ``python -m undercroft ARGV`` in a new process, after one run
    that warms the file cache and the bytecode."""
    cmd = [sys.executable, "-m", "undercroft", *argv]

    def once() -> None:
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)

    once()
    return median_time(once, repeat=repeat)


@metric("startup_s", "s")
def startup_s(args: argparse.Namespace) -> float:
    """A new Python process that starts the command line and exits: ``python -m undercroft --version`` run in a
    subprocess (``sys.executable``), its wall time from start to exit; the median of 7 runs after one warm-up.
    What every command costs before it does anything: the interpreter and the parser's imports."""
    return _process_s(["--version"], repeat=7)


@metric("validate_s", "s")
def validate_s(args: argparse.Namespace) -> float:
    """A new Python process that loads and validates the data, then exits (``python -m undercroft validate
    --data DIR``): the wait before anything appears; the median of 5 runs after one warm-up."""
    return _process_s(["validate", "--data", str(_data(args))], repeat=5)


@metric("data_load_s", "s")
def data_load_s(args: argparse.Namespace) -> float:
    """Parse and validate every data file in this process."""
    from undercroft.content import load_content

    d = _data(args)
    load_content(d)
    return median_time(lambda: load_content(d), repeat=9)
