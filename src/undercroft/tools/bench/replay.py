"""Benchmarks of recording and replaying (docs/PERFORMANCE.md, docs/REPLAY.md).

The workload is a set of autoplay recordings written once per process into a temporary directory: bot games of
the default ruleset from fixed seeds, keeping only games of at least :data:`MIN_GAME` actions, until there are
:data:`WORKLOAD_ACTIONS` actions in all. (A bot game lasts a few hundred actions, so "a long recording" is a batch
of the longer ones; short games would mostly measure level generation, which a replay repeats once per level.)
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from undercroft.content import Content
from undercroft.record import Recorder, Recording, load_recording, play_step, replay
from undercroft.rules.game import Game
from undercroft.tools.autoplay import play_game
from undercroft.tools.bench.core import load_data, median_time, metric

WORKLOAD_ACTIONS = 5000
MIN_GAME = 300
RULESET = "undercroft"
FIRST_SEED = 1000
_content_cache: dict[str, Content] = {}
_recs_cache: dict[str, list[Recording]] = {}


def _content(args: argparse.Namespace) -> Content:
    key = str(getattr(args, "data", None))
    if key not in _content_cache:
        _content_cache[key] = load_data(args)
    return _content_cache[key]


def workload(args: argparse.Namespace) -> list[Recording]:
    """The loaded recordings (played and written once per process)."""
    key = str(getattr(args, "data", None))
    if key in _recs_cache:
        return _recs_cache[key]
    content = _content(args)
    tmp = Path(tempfile.mkdtemp(prefix="undercroft-bench-"))
    recs: list[Recording] = []
    total = 0
    seed = FIRST_SEED
    while total < WORKLOAD_ACTIONS:
        path = tmp / f"bench-{seed}.jsonl"
        seed += 1
        if play_game(content, RULESET, seed - 1, record=str(path)).turns < MIN_GAME:
            path.unlink()
            continue
        rec = load_recording(path)
        recs.append(rec)
        total += len(rec.actions)
    _recs_cache[key] = recs
    return recs


def _actions(recs: list[Recording]) -> int:
    return sum(len(r.actions) for r in recs)


def _replay_all(args: argparse.Namespace, verify: bool) -> float:
    content = _content(args)
    recs = workload(args)

    def run() -> None:
        for r in recs:
            replay(content, r, verify=verify)

    return _actions(recs) / median_time(run, repeat=5)


@metric("replay_actions_per_s", "actions/s")
def replay_actions_per_s(args: argparse.Namespace) -> float:
    """Headless replay (rebuild each game from its seed, re-apply its actions, no checksums) of autoplay
    recordings of 300 actions or more, 5000 actions or more in all; median of 5."""
    return _replay_all(args, verify=False)


@metric("verify_actions_per_s", "actions/s")
def verify_actions_per_s(args: argparse.Namespace) -> float:
    """``replay --verify``: as replay_actions_per_s, plus the state's digest (``Game.digest()``) compared after
    every action."""
    return _replay_all(args, verify=True)


@metric("verify_share_of_replay", "ratio")
def verify_share_of_replay(args: argparse.Namespace) -> float:
    """``verify_actions_per_s / replay_actions_per_s``, measured in pairs: each replay of the workload timed right
    beside a verifying one (in turn first and second), the median of 7 pairs' ratios. A machine whose speed drifts
    from one second to the next moves both runs of a pair alike (the two rows' medians, taken apart, can land on
    different speeds of the machine)."""
    content = _content(args)
    recs = workload(args)

    def run(verify: bool) -> float:
        t0 = time.perf_counter()
        for r in recs:
            replay(content, r, verify=verify)
        return time.perf_counter() - t0

    run(True)  # (warm)
    ratios = []
    for i in range(7):
        if i % 2:
            checked, plain = run(True), run(False)
        else:
            plain, checked = run(False), run(True)
        ratios.append(plain / checked)
    return statistics.median(ratios)


@metric("load_recording_lines_per_s", "lines/s")
def load_recording_lines_per_s(args: argparse.Namespace) -> float:
    """Reading and checking the same recordings (the header and end lines' JSON, each action line's fields, the hash
    chain), without replaying; median of 5."""
    recs = workload(args)
    paths = [r.path for r in recs]

    def run() -> None:
        for p in paths:
            load_recording(p)

    return (_actions(recs) + len(recs)) / median_time(run, repeat=5)


@metric("recording_bytes_per_action", "bytes/action")
def recording_bytes_per_action(args: argparse.Namespace) -> float:
    """The size of the same recordings (header, action lines, end lines) divided by their actions: what a
    recording costs on disk per action (format 3: a line of about 55 bytes)."""
    recs = workload(args)
    return sum(r.path.stat().st_size for r in recs) / _actions(recs)


@metric("record_overhead_us", "us/action")
def record_overhead_us(args: argparse.Namespace) -> float:
    """What recording adds to an action: ``play_step`` with a Recorder (the state's digest ``Game.digest()``, the
    action's text, one blake2b for the hash chain, one write of a whole line) minus a plain ``game.step``, per
    action, over the same actions; median of 5."""
    content = _content(args)
    recs = workload(args)
    tmp = Path(tempfile.mkdtemp(prefix="undercroft-bench-rec-"))

    def plain() -> None:
        for r in recs:
            g = Game(content, r.header.ruleset, r.header.seed)
            for _, a, _ in r.actions:
                g.step(a)

    def recorded() -> None:
        for r in recs:
            g = Game(content, r.header.ruleset, r.header.seed)
            with Recorder.create(tmp / "out.jsonl", g, content, overwrite=True) as rec:
                for _, a, _ in r.actions:
                    play_step(g, rec, a)

    t_plain = median_time(plain, repeat=5)
    t_rec = median_time(recorded, repeat=5)
    return max(0.0, (t_rec - t_plain) / _actions(recs) * 1e6)


LONG_ACTIONS = 1_000_000


def write_long_recording(content: Content, path: Path, actions: int = LONG_ACTIONS) -> None:
    """A recording of ``actions`` actions: a party of the default ruleset walking one step east and back, over and
    over (the first move the room allows)."""
    from undercroft.rules.actions import Move, Rest

    game = Game(content, RULESET, 1)
    moves = (Move(1, 0), Move(-1, 0), Move(0, 1), Move(0, -1), Rest())
    with Recorder.create(path, game, content, batch=512) as rec:
        for i in range(actions):
            for a in (moves[i % 2], moves[(i + 1) % 2], *moves[2:]):
                events = game.step(a)
                if not (len(events) == 1 and events[0].type == "refused"):
                    rec.record(a, game)
                    break
            else:
                raise RuntimeError(f"no move accepted at action {i}")


@metric("replay_peak_mb_1m", "MB")
def replay_peak_mb(args: argparse.Namespace) -> float:
    """How much the resident set size of a new process grows (its peak, ``getrusage``, over its size before) while
    a recording of 1,000,000 actions (:func:`write_long_recording`) is replayed with every state checked
    (``record.replay_file``, what the saves' index does: the file streamed, no action kept). One run."""
    import subprocess
    import sys

    content = _content(args)
    with tempfile.TemporaryDirectory(prefix="undercroft-bench-long-") as tmp:
        path = Path(tmp) / "long.jsonl"
        write_long_recording(content, path)
        data = ["--data", str(args.data)] if getattr(args, "data", None) else []
        code = "import sys; from undercroft.tools.bench.replay import peak_growth_main as m; m(sys.argv[1:])"
        out = subprocess.run([sys.executable, "-c", code, str(path), *data], check=True, capture_output=True)
    return float(out.stdout)


def peak_growth_main(argv: list[str]) -> None:
    """``PATH [--data DIR]``: print the growth in MB of this process's peak resident size while ``record.replay_file``
    replays ``PATH`` with every state checked (the data loaded before)."""
    import resource

    from undercroft.record import replay_file
    from undercroft.tools.bench.soak import rss_mb

    path, *rest = argv
    content = load_data(argparse.Namespace(data=rest[1] if rest else None))
    before = rss_mb()
    replay_file(content, Path(path), verify=True)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**10  # (KB on Linux)
    print(f"{max(0.0, peak - before):.1f}")
