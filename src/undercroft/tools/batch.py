"""Many games of the reference player at once (:func:`run`): in this process, in N local processes or on a Dask
cluster, each played by :func:`undercroft.tools.autoplay.play_game`.

Whatever the way, a batch gives the same results in the same order and the same recordings byte for byte: each game
is a pure function of (data, ruleset, seed, action cap); a worker returns the game's result and, when asked, the
bytes of its recording, and only this process writes files (in the order of the games). The scheduling, the
transport and the retries are the standard library's (:class:`concurrent.futures.ProcessPoolExecutor`) or Dask's
(``distributed``, the optional extra ``undercroft[cluster]``): nothing of our own.
"""

from __future__ import annotations

import importlib
import logging
import multiprocessing
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from undercroft.content import Content
from undercroft.record import write_side_file
from undercroft.tools.autoplay import MAX_ACTIONS, GameResult, game_seed, play_game

CHUNK = 4  # games a worker plays per task: few enough for a live progress bar, enough to make transport cheap
DASK_RETRIES = 2  # a task lost with its worker is run again elsewhere (Dask's retries)
CONNECT_TIMEOUT = "10s"  # to reach the scheduler
HANDSHAKE_S = 10.0  # a scheduler greets at once: a server silent this long is not one (see _probe_scheduler)
MAX_GREETING = 1 << 20  # the length a scheduler's greeting announces (58 bytes in 2024): more is not a scheduler


# --- many games -------------------------------------------------------------------------------------------------


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


class RecordingNotWritten(OSError):
    """A game's recording could not be written whole (a full disk): no part of it is left; says which file."""

    def __init__(self, path: Path, exc: OSError) -> None:
        self.path = path
        super().__init__(exc.errno, f"{path.name} not written ({exc.strerror or exc}): no part of it was left")


def _write_whole(path: Path, data: bytes) -> None:
    """A finished file or none (:func:`undercroft.record.write_side_file`: a temporary file renamed over it)."""
    try:
        write_side_file(path, data)
    except OSError as exc:
        raise RecordingNotWritten(path, exc) from exc


def play_chunk(
    content: Content,
    ruleset: str,
    seeds: Sequence[tuple[int, int]],
    max_actions: int,
    record: bool,
    policy: str = "careful",
) -> list[Played]:
    """Play the games ``(index, seed)`` of one task (in a worker, or here) with the bot of ``policy``."""
    out: list[Played] = []
    for index, seed in seeds:
        if not record:
            out.append(Played(index, play_game(content, ruleset, seed, max_actions=max_actions, policy=policy)))
            continue
        with tempfile.TemporaryDirectory(prefix="undercroft-autoplay-") as tmp:
            path = Path(tmp) / "game.jsonl"
            r = play_game(content, ruleset, seed, record=str(path), max_actions=max_actions, policy=policy)
            files = tuple((p.name.removeprefix("game"), p.read_bytes()) for p in sorted(Path(tmp).iterdir()))
            out.append(Played(index, replace(r, recording=None), files))
    return out


# --- local processes ---------------------------------------------------------------------------------------------

_WORKER_CONTENT: Content | None = None


def _init_worker(content: Content) -> None:
    global _WORKER_CONTENT
    _WORKER_CONTENT = content


def _worker_chunk(
    ruleset: str, seeds: Sequence[tuple[int, int]], max_actions: int, record: bool, policy: str
) -> list[Played]:
    assert _WORKER_CONTENT is not None, "the worker was started without its data"
    return play_chunk(_WORKER_CONTENT, ruleset, seeds, max_actions, record, policy)


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
    policy: str,
) -> None:
    jobs = min(jobs, cores(), len(seeds))  # more processes than cores (or games) only cost their start
    if jobs <= 1:
        for chunk in _chunks(seeds, 1):
            for p in play_chunk(content, ruleset, chunk, max_actions, record, policy):
                done(p)
        return
    size = max(1, min(CHUNK, len(seeds) // (jobs * 4)))
    with ProcessPoolExecutor(
        max_workers=jobs, mp_context=_context(), initializer=_init_worker, initargs=(content,)
    ) as pool:
        futures: list[Future[list[Played]]] = [
            pool.submit(_worker_chunk, ruleset, chunk, max_actions, record, policy) for chunk in _chunks(seeds, size)
        ]
        for fut in as_completed(futures):
            for p in fut.result():
                done(p)


# --- a Dask cluster ----------------------------------------------------------------------------------------------


def _probe_scheduler(address: str) -> None:
    """Check that a Dask scheduler answers at ``tcp://HOST:PORT`` before Dask is given the address: a scheduler
    sends its greeting as soon as it accepts (8 bytes of length, then that many bytes of frames: their count, their
    lengths, the frames). Dask waits for the whole greeting with no deadline and trusts what its lengths say, so a
    server that stays silent, announces a greeting and never sends it, or sends it a byte at a time would hang it
    for good, and one that answers something else (HTTP) makes it allocate what the first bytes say (exbibytes).
    Here the whole greeting must arrive within :data:`HANDSHAKE_S` in all and add up: anything else is a
    :class:`ClusterError` in words. Other schemes (``tls://``, ``inproc://``) are left to Dask."""
    import socket
    from urllib.parse import urlsplit

    try:
        url = urlsplit(address if "://" in address else f"tcp://{address}")
        host, port = url.hostname, url.port or 8786
    except ValueError as exc:
        raise ClusterError(f"--dask {address}: not an address tcp://HOST:PORT ({exc})") from None
    if url.scheme != "tcp" or not host:
        return
    deadline = time.monotonic() + HANDSHAKE_S
    try:
        with socket.create_connection((host, port), timeout=HANDSHAKE_S) as sock:
            greeting = _greeting(sock, deadline)
    except TimeoutError:
        raise ClusterError(
            f"the server at {address} did not answer as a Dask scheduler within {HANDSHAKE_S:g} s"
        ) from None
    except OSError as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc.strerror or exc}") from None
    if isinstance(greeting, bytes):
        raise ClusterError(f"the server at {address} is not a Dask scheduler (its first bytes: {greeting[:8]!r})")


def _greeting(sock: Any, deadline: float) -> bytes | None:
    """Read a Dask greeting from ``sock`` by ``deadline`` (TimeoutError after it, however slowly the bytes come):
    None when it is one, else the bytes read, which are not."""
    import struct

    def take(n: int) -> bytes:
        have = b""
        while len(have) < n:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError
            sock.settimeout(left)
            chunk = sock.recv(min(n - len(have), 65536))
            if not chunk:
                break  # closed: not a scheduler
            have += chunk
        return have

    head = take(8)
    size = struct.unpack("<Q", head)[0] if len(head) == 8 else 0
    if not 16 <= size <= MAX_GREETING:
        return head
    body = take(size)
    frames = struct.unpack_from("<Q", body)[0] if len(body) == size else 0
    if not 1 <= frames <= size // 8 - 1:
        return head + body
    lengths = struct.unpack_from(f"<{frames}Q", body, 8)
    return None if sum(lengths) == size - 8 * (frames + 1) else head + body


def _dask(
    content: Content,
    ruleset: str,
    seeds: Sequence[int],
    max_actions: int,
    record: bool,
    address: str,
    done: Callable[[Played], None],
    policy: str,
) -> None:
    try:  # (imported by name: an optional extra, untyped, absent where CI type-checks)
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise ClusterError("--dask needs the optional extra: pip install 'undercroft[cluster]'") from None
    _probe_scheduler(address)
    was = logging.root.manager.disable
    logging.disable(logging.CRITICAL)  # Dask logs a traceback of a greeting it cannot read: one line says it below
    try:
        client = distributed.Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    except Exception as exc:  # what a server that is not one makes Dask raise, or a scheme it cannot use here
        raise ClusterError(f"cannot use the Dask scheduler at {address}: {type(exc).__name__}: {exc}") from None
    finally:
        logging.disable(was)
    try:
        data = client.scatter(content, broadcast=True)
        size = max(1, min(CHUNK, len(seeds) // 64))
        futures = [
            client.submit(
                play_chunk, data, ruleset, chunk, max_actions, record, policy, pure=False, retries=DASK_RETRIES
            )
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
    policy: str = "careful",
) -> list[GameResult]:
    """Play ``games`` games (game i with seed ``game_seed(first_seed, i)``) with the bot of ``policy``; their
    results in game order. With
    ``record_dir``, each game's recording is written there as ``autoplay-RULESET-SEED.jsonl``."""
    seeds = [game_seed(first_seed, i) for i in range(games)]
    results: list[GameResult | None] = [None] * games

    def done(p: Played) -> None:
        r = p.result
        if record_dir is not None:
            stem = record_dir / f"autoplay-{ruleset}-{seeds[p.index]}"
            for suffix, data in p.files:
                _write_whole(Path(f"{stem}{suffix}"), data)
            r = replace(r, recording=f"{stem}.jsonl")
        results[p.index] = r
        if progress is not None:
            progress(r)

    record = record_dir is not None
    if dask is not None:
        _dask(content, ruleset, seeds, max_actions, record, dask, done, policy)
    else:
        _local(content, ruleset, seeds, max_actions, record, jobs, done, policy)
    missing = [i for i, r in enumerate(results) if r is None]
    if missing:
        raise RuntimeError(f"{len(missing)} games came back with no result (the first: game {missing[0]})")
    return [r for r in results if r is not None]
