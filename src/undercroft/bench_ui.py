"""The ``explore_frame_ms`` metric: drawing one full explore frame (registered with ``bench``)."""

from __future__ import annotations

import argparse
import statistics
import time

from undercroft.bench import _data, metric
from undercroft.rules.types import Mode

FRAMES = 101


@metric("explore_frame_ms", "ms")
def explore_frame_ms(args: argparse.Namespace) -> float:
    """Median time to draw a full explore frame (map with field of view, items, monsters, status bar and message
    log) into an 80x50 console, for a game some way into its first level. No window is opened."""
    from undercroft.content import load_content
    from undercroft.rules.actions import Move
    from undercroft.rules.game import Game
    from undercroft.ui.frontend import new_console
    from undercroft.ui.scenes import SceneStack
    from undercroft.ui.scenes.play import ExploreScene
    from undercroft.ui.session import Session

    content = load_content(_data(args))
    game = Game(content, "undercroft", 20240601)
    session = Session.watch(content, game)
    # walk about the first level for some explored map and log lines (whatever happens, stay in explore)
    for dx, dy in [(1, 0), (0, 1), (-1, 0), (0, -1)] * 10:
        if game.state.mode != Mode.EXPLORE:
            break
        session.act(Move(dx, dy))
    stack = SceneStack([ExploreScene(session)])
    console = new_console()
    stack.draw(console)  # warm up
    times = []
    for _ in range(FRAMES):
        t0 = time.perf_counter()
        stack.draw(console)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000.0
