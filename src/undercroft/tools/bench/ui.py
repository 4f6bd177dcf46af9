"""The ``explore_frame_ms`` metrics: drawing one full explore frame (registered with ``bench``).

``explore_frame_ms`` draws into the 80x50 console (the window's size, the row's size since it was added);
``explore_frame_ms_WxH`` draws into a console of each size of :data:`SIZES` (the scenes lay out
for any console from 80x24 up).
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import TYPE_CHECKING

from undercroft.rules.types import Mode
from undercroft.tools.bench.core import load_data, metric

if TYPE_CHECKING:
    import tcod.console

    from undercroft.ui.scenes import SceneStack

FRAMES = 101
SIZES: list[tuple[int, int]] = [(80, 24), (80, 50), (200, 60)]  # the smallest, the window's, a large terminal


def median_draw_ms(stack: SceneStack, console: tcod.console.Console) -> float:
    """Median time in ms of :data:`FRAMES` draws of ``stack`` into ``console``, after one to warm up."""
    stack.draw(console)
    times = []
    for _ in range(FRAMES):
        t0 = time.perf_counter()
        stack.draw(console)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000.0


def frame_ms(args: argparse.Namespace, size: tuple[int, int] | None = None) -> float:
    """Median time in ms to draw the explore scene into a console of ``size`` (None: ``new_console()``'s)."""
    from undercroft.rules.actions import Move
    from undercroft.rules.game import Game
    from undercroft.ui.frontend import new_console
    from undercroft.ui.scenes import ExploreScene, SceneStack
    from undercroft.ui.session import Session

    content = load_data(args)
    game = Game(content, "undercroft", 20240601)
    session = Session.watch(content, game)
    # walk about the first level for some explored map and log lines (whatever happens, stay in explore)
    for dx, dy in [(1, 0), (0, 1), (-1, 0), (0, -1)] * 10:
        if game.state.mode != Mode.EXPLORE:
            break
        session.act(Move(dx, dy))
    stack = SceneStack([ExploreScene(session)])
    console = new_console() if size is None else new_console(*size)
    return median_draw_ms(stack, console)


@metric("explore_frame_ms", "ms")
def explore_frame_ms(args: argparse.Namespace) -> float:
    """Median time to draw a full explore frame (map with field of view, items, monsters, status bar and message
    log) into an 80x50 console, for a game some way into its first level. No window is opened."""
    return frame_ms(args)


def _register_sized(width: int, height: int) -> None:
    def sized(args: argparse.Namespace) -> float:
        return frame_ms(args, (width, height))

    sized.__doc__ = f"The same frame as explore_frame_ms, drawn into a {width}x{height} console; median of {FRAMES}."
    metric(f"explore_frame_ms_{width}x{height}", "ms")(sized)


for _w, _h in SIZES:
    _register_sized(_w, _h)


def meeting_frame_ms(args: argparse.Namespace, look: bool, size: tuple[int, int]) -> float:
    """Median time in ms to draw a meeting with three orcs beside the party (the encounter panel with the threat
    told), with look's panel over it when ``look``, into a console of ``size``."""
    from undercroft.rules.approach import STEPS8
    from undercroft.rules.game import Game
    from undercroft.ui.frontend import new_console
    from undercroft.ui.scenes import SceneStack, game_stack
    from undercroft.ui.scenes.look import LookScene
    from undercroft.ui.session import Session

    content = load_data(args)
    game = Game(content, "undercroft", 20240601)
    st = game.state
    m = st.level.map
    x, y = st.pos
    spot = next(
        (x + dx, y + dy)
        for dx, dy in STEPS8
        if m.tiles[y + dy, x + dx] == 1 and int(m.segment_of[y + dy, x + dx]) == st.segment
    )
    g = game.add_group("orc", 3, pos=spot)
    game.start_encounter(g, meeting=False)
    session = Session(content, game)
    stack = SceneStack(game_stack(session))
    if look:
        scene = LookScene(session)
        scene.cursor = game.creature_tiles(g)[0]
        stack.scenes.append(scene)
    console = new_console(*size)
    return median_draw_ms(stack, console)


def _register_meeting(name: str, look: bool, width: int, height: int) -> None:
    def sized(args: argparse.Namespace) -> float:
        return meeting_frame_ms(args, look, (width, height))

    what = "look's panel over a meeting" if look else "a meeting's encounter panel"
    sized.__doc__ = (
        f"Median of {FRAMES} draws of {what} (three orcs beside the party: the threat told, the odds) into a "
        f"{width}x{height} console."
    )
    metric(f"{name}_{width}x{height}", "ms")(sized)


for _w, _h in SIZES:
    _register_meeting("encounter_frame_ms", False, _w, _h)
    _register_meeting("look_frame_ms", True, _w, _h)
