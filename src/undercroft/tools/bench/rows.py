"""Which metrics ``undercroft bench`` runs, and in what order: :func:`select` loads every module that registers rows
(:mod:`~undercroft.tools.bench.core`'s own first: the startup and data-loading rows) and picks the names asked for.

The modules of the rows import :mod:`~undercroft.tools.bench.core` (the registry) and nothing here; this module
imports them. So the import runs one way, and ``core`` imports none of the modules that register with it.
"""

from __future__ import annotations

from undercroft.tools.bench.core import METRICS, BenchError


def _load_metrics() -> None:
    """Import the modules that register the other metrics with :func:`~.core.metric`, in the order of their rows."""
    import importlib

    importlib.import_module("undercroft.tools.bench.dungeon")
    importlib.import_module("undercroft.tools.bench.ui")
    importlib.import_module("undercroft.tools.bench.replay")
    importlib.import_module("undercroft.tools.bench.listing")
    importlib.import_module("undercroft.tools.bench.sim")
    importlib.import_module("undercroft.tools.bench.term")
    importlib.import_module("undercroft.tools.bench.soak")
    importlib.import_module("undercroft.tools.bench.autoplay")


def select(only: str | None) -> list[str]:
    """The names of the metrics to run: every one, or those of ``only`` (comma-separated), in that order."""
    _load_metrics()
    if only is None:
        return list(METRICS)
    wanted = [n.strip() for n in only.split(",") if n.strip()]
    if not wanted:  # --only "" or ",,,": nothing would run, and exit 0 would say all is well
        raise BenchError(f"--only names no metric; known: {', '.join(METRICS)}")
    unknown = [n for n in wanted if n not in METRICS]
    if unknown:
        raise BenchError(f"unknown metric(s) {', '.join(unknown)}; known: {', '.join(METRICS)}")
    return wanted
