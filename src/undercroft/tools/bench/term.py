"""The terminal front end's measures (registered with ``bench``; docs/PERFORMANCE.md).

The workload: an explore screen of a game some way into its first level, the delver stepping back and forth.
After each step the scene is drawn into the 80x50 console and :class:`~undercroft.term.ansi.AnsiRenderer` turns
it into the escape codes for the terminal (24-bit colour, the larger of the two colour modes), as
``play --terminal`` does. Nothing is written to a terminal.

The unsuffixed rows measure the 80x50 console (their size since they were added); ``terminal_frame_ms_WxH`` the
same workload on a terminal of each size of :data:`SIZES` (the console is the terminal's size,
from 80x24 up), through :class:`~undercroft.term.app.Screen` as the game loop does.
"""

from __future__ import annotations

import argparse
import statistics
import time
from dataclasses import dataclass

from undercroft.rules.types import Mode
from undercroft.tools.bench.core import load_data, metric

SEED = 20240601
STEPS = 41
SIZES: list[tuple[int, int]] = [(80, 24), (80, 50), (200, 60)]  # the smallest, the window's, a large terminal


@dataclass(frozen=True)
class FrameStats:
    times_ms: list[float]  # draw + diff + encode, one per step
    diff_ms: list[float]  # diff + encode only
    sizes: list[int]  # bytes sent, one per step
    full_bytes: int  # bytes of a redraw of every cell of the same screen


_cache: dict[tuple[str, tuple[int, int] | None], FrameStats] = {}


def frame_stats(args: argparse.Namespace, size: tuple[int, int] | None = None) -> FrameStats:
    """Step, draw, diff; once per process and size (the metrics of one size read the same run). ``size`` None:
    ``new_console()``'s console and the bare renderer (the unsuffixed rows); else a console of that size and the
    terminal front end's :class:`~undercroft.term.app.Screen` laid out for a terminal of that size."""
    key = (str(getattr(args, "data", None)), size)
    if key in _cache:
        return _cache[key]
    from undercroft.rules.actions import Move
    from undercroft.rules.game import Game
    from undercroft.term.ansi import AnsiRenderer
    from undercroft.term.app import Screen
    from undercroft.ui.frontend import new_console
    from undercroft.ui.scenes import ExploreScene, SceneStack
    from undercroft.ui.session import Session

    content = load_data(args)
    game = Game(content, "undercroft", SEED)
    session = Session.watch(content, game)
    for dx, dy in [(1, 0), (0, 1), (-1, 0), (0, -1)] * 10:  # some explored map and some log lines
        if game.state.mode != Mode.EXPLORE:
            break
        session.act(Move(dx, dy))
    stack = SceneStack([ExploreScene(session)])
    if size is None:
        console = new_console()
        renderer = AnsiRenderer(truecolor=True)
        render = renderer.render
    else:
        console = new_console(*size)
        screen = Screen(truecolor=True)
        screen.resize(*size)
        render = screen.frame
    stack.draw(console)
    full_bytes = len(render(console).encode("utf-8"))

    # A pair of opposite steps that both succeed here: back and forth over the same floor.
    pair = None
    for d in [(1, 0), (0, 1), (1, 1), (1, -1)]:
        there, back = Move(*d), Move(-d[0], -d[1])
        if game.legal(there) and game.state.mode == Mode.EXPLORE:
            pair = (there, back)
            break
    if pair is None:
        raise RuntimeError(f"bench.term: no open step for seed {SEED}; pick another seed")

    times: list[float] = []
    diffs: list[float] = []
    sizes: list[int] = []
    for i in range(STEPS):
        turn = game.state.turn
        session.act(pair[i % 2])
        if game.state.mode != Mode.EXPLORE or game.state.turn == turn:
            break  # a monster came, or the step was refused: enough samples either way
        t0 = time.perf_counter()
        stack.draw(console)
        t1 = time.perf_counter()
        data = render(console).encode("utf-8")
        t2 = time.perf_counter()
        times.append((t2 - t0) * 1000.0)
        diffs.append((t2 - t1) * 1000.0)
        sizes.append(len(data))
    if not sizes:
        raise RuntimeError(f"bench.term: the delver could not step for seed {SEED}")
    stats = FrameStats(times, diffs, sizes, full_bytes)
    _cache[key] = stats
    return stats


@metric("terminal_frame_ms", "ms")
def terminal_frame_ms(args: argparse.Namespace) -> float:
    """Median time to redraw the explore screen in the terminal after one step: draw the scenes into the console,
    diff it against the last frame, encode the escape codes of the changed cells."""
    return statistics.median(frame_stats(args).times_ms)


@metric("terminal_frame_bytes", "B")
def terminal_frame_bytes(args: argparse.Namespace) -> float:
    """Median bytes sent to the terminal for that frame (24-bit colour); compare terminal_full_frame_bytes."""
    return float(statistics.median(frame_stats(args).sizes))


@metric("terminal_full_frame_bytes", "B")
def terminal_full_frame_bytes(args: argparse.Namespace) -> float:
    """Bytes of a redraw of every cell of the same screen (the first frame, and after a resize)."""
    return float(frame_stats(args).full_bytes)


def _register_sized(width: int, height: int) -> None:
    def sized(args: argparse.Namespace) -> float:
        return statistics.median(frame_stats(args, (width, height)).times_ms)

    sized.__doc__ = (
        f"terminal_frame_ms on a {width}x{height} terminal (a {width}x{height} console drawn and "
        f"sent through Screen.frame); median of up to {STEPS} steps."
    )
    metric(f"terminal_frame_ms_{width}x{height}", "ms")(sized)


for _w, _h in SIZES:
    _register_sized(_w, _h)
