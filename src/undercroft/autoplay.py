"""Many bot games at once: in this process, in N local processes, or on a Dask cluster.

Whatever the way, a batch gives the same results in the same order and the same recordings byte for byte: each
game is a pure function of (data, ruleset, seed, action cap), played by :func:`undercroft.bot.play_game`; a worker
returns the game's result and, when asked, the bytes of its recording, and only this process writes files (in the
order of the games). The scheduling, the transport and the retries are the standard library's
(:class:`concurrent.futures.ProcessPoolExecutor`) or Dask's (``distributed``, the optional extra
``undercroft[cluster]``): nothing of our own.
"""

from __future__ import annotations

import importlib
import multiprocessing
import os
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from undercroft.bot import MAX_ACTIONS, GameResult, game_seed, play_game
from undercroft.content import Content

CHUNK = 4  # games a worker plays per task: few enough for a live progress bar, enough to make transport cheap
DASK_RETRIES = 2  # a task lost with its worker is run again elsewhere (Dask's retries)
CONNECT_TIMEOUT = "10s"  # to reach the scheduler


class ClusterError(RuntimeError):
    """The Dask cluster cannot be used: the extra is not installed, or the scheduler cannot be reached."""


@dataclass(frozen=True)
class Played:
    """One game's result and, when recordings were asked for, its files' bytes by suffix (``.jsonl``, and
    ``.crash.txt`` after a crash)."""

    index: int
    result: GameResult
    files: tuple[tuple[str, bytes], ...] = ()


def cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # (not on every platform)
        return max(1, os.cpu_count() or 1)


def play_chunk(
    content: Content, ruleset: str, seeds: Sequence[tuple[int, int]], max_actions: int, record: bool
) -> list[Played]:
    """Play the games ``(index, seed)`` of one task (in a worker, or here)."""
    out: list[Played] = []
    for index, seed in seeds:
        if not record:
            out.append(Played(index, play_game(content, ruleset, seed, max_actions=max_actions)))
            continue
        with tempfile.TemporaryDirectory(prefix="undercroft-autoplay-") as tmp:
            path = Path(tmp) / "game.jsonl"
            r = play_game(content, ruleset, seed, record=str(path), max_actions=max_actions)
            files = tuple((p.name.removeprefix("game"), p.read_bytes()) for p in sorted(Path(tmp).iterdir()))
            out.append(Played(index, replace(r, recording=None), files))
    return out


# --- local processes ---------------------------------------------------------------------------------------------

_WORKER_CONTENT: Content | None = None


def _init_worker(content: Content) -> None:
    global _WORKER_CONTENT
    _WORKER_CONTENT = content


def _worker_chunk(ruleset: str, seeds: Sequence[tuple[int, int]], max_actions: int, record: bool) -> list[Played]:
    assert _WORKER_CONTENT is not None, "the worker was started without its data"
    return play_chunk(_WORKER_CONTENT, ruleset, seeds, max_actions, record)


def _context() -> multiprocessing.context.BaseContext:
    # fork where it is the platform's way (cheap: the data is already loaded); spawn elsewhere
    return multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")


def _chunks(seeds: Sequence[int], size: int) -> Iterator[list[tuple[int, int]]]:
    items = list(enumerate(seeds))
    for i in range(0, len(items), size):
        yield items[i : i + size]


def _local(
    content: Content,
    ruleset: str,
    seeds: Sequence[int],
    max_actions: int,
    record: bool,
    jobs: int,
    done: Callable[[Played], None],
) -> None:
    if jobs <= 1 or len(seeds) <= 1:
        for chunk in _chunks(seeds, 1):
            for p in play_chunk(content, ruleset, chunk, max_actions, record):
                done(p)
        return
    size = max(1, min(CHUNK, len(seeds) // (jobs * 4)))
    with ProcessPoolExecutor(
        max_workers=jobs, mp_context=_context(), initializer=_init_worker, initargs=(content,)
    ) as pool:
        futures: list[Future[list[Played]]] = [
            pool.submit(_worker_chunk, ruleset, chunk, max_actions, record) for chunk in _chunks(seeds, size)
        ]
        for fut in as_completed(futures):
            for p in fut.result():
                done(p)


# --- a Dask cluster ----------------------------------------------------------------------------------------------


def _dask(
    content: Content,
    ruleset: str,
    seeds: Sequence[int],
    max_actions: int,
    record: bool,
    address: str,
    done: Callable[[Played], None],
) -> None:
    try:  # (imported by name: an optional extra, untyped, absent where CI type-checks)
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise ClusterError("--dask needs the optional extra: pip install 'undercroft[cluster]'") from None
    try:
        client = distributed.Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    try:
        data = client.scatter(content, broadcast=True)
        size = max(1, min(CHUNK, len(seeds) // 64))
        futures = [
            client.submit(play_chunk, data, ruleset, chunk, max_actions, record, pure=False, retries=DASK_RETRIES)
            for chunk in _chunks(seeds, size)
        ]
        for fut in distributed.as_completed(futures):
            for p in fut.result():
                done(p)
    finally:
        client.close()


# --- the batch ---------------------------------------------------------------------------------------------------


def run(
    content: Content,
    ruleset: str,
    first_seed: int,
    games: int,
    *,
    max_actions: int = MAX_ACTIONS,
    record_dir: Path | None = None,
    jobs: int = 1,
    dask: str | None = None,
    progress: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    """Play ``games`` games (game i with seed ``game_seed(first_seed, i)``); their results in game order. With
    ``record_dir``, each game's recording is written there as ``autoplay-RULESET-SEED.jsonl``."""
    seeds = [game_seed(first_seed, i) for i in range(games)]
    results: list[GameResult | None] = [None] * games

    def done(p: Played) -> None:
        r = p.result
        if record_dir is not None:
            stem = record_dir / f"autoplay-{ruleset}-{seeds[p.index]}"
            for suffix, data in p.files:
                Path(f"{stem}{suffix}").write_bytes(data)
            r = replace(r, recording=f"{stem}.jsonl")
        results[p.index] = r
        if progress is not None:
            progress(r)

    record = record_dir is not None
    if dask is not None:
        _dask(content, ruleset, seeds, max_actions, record, dask, done)
    else:
        _local(content, ruleset, seeds, max_actions, record, jobs, done)
    missing = [i for i, r in enumerate(results) if r is None]
    if missing:
        raise RuntimeError(f"{len(missing)} games came back with no result (the first: game {missing[0]})")
    return [r for r in results if r is not None]


__all__ = ["CHUNK", "ClusterError", "Played", "cores", "play_chunk", "run"]
