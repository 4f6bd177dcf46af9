"""The window and its main loop: draw the scene stack, present it, hand events to the top scene.

The console is always 80x50 cells; the window scales it by whole multiples (``integer_scaling``) when resized,
Alt+Enter toggles fullscreen. Closing the window at any time keeps the game: every action is already on disk.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterable

import tcod.console
import tcod.context
import tcod.event

from undercroft.content import Content
from undercroft.ui import render
from undercroft.ui.keys import is_fullscreen_toggle
from undercroft.ui.scenes.base import SceneStack
from undercroft.ui.tiles import load_tileset

NO_DISPLAY = "no display available (set DISPLAY, or use SDL_VIDEODRIVER=dummy for tests)"

EventSource = Callable[[float | None], Iterable[tcod.event.Event]]


class NoDisplay(Exception):
    """tcod could not open a window."""


def new_console() -> tcod.console.Console:
    return tcod.console.Console(render.WIDTH, render.HEIGHT, order="F")


def open_window(title: str = "Undercroft") -> tcod.context.Context:
    """A resizable window for an 80x50 console in the project's own tileset; :class:`NoDisplay` if none."""
    tileset = load_tileset()
    # tcod passes SDL's and libtcod's log lines (start-up chatter, and the failure we report in one line
    # ourselves) to Python logging, whose last-resort handler would print them: keep them off the terminal.
    logging.getLogger("tcod").setLevel(logging.CRITICAL)
    try:
        return tcod.context.new(
            columns=render.WIDTH,
            rows=render.HEIGHT,
            tileset=tileset,
            title=title,
            vsync=True,
            sdl_window_flags=tcod.context.SDL_WINDOW_RESIZABLE,
            argv=[],  # libtcod must not read our command line
        )
    except RuntimeError as exc:
        raise NoDisplay(str(exc).strip().splitlines()[-1] if str(exc).strip() else NO_DISPLAY) from None


def toggle_fullscreen(context: tcod.context.Context) -> None:
    window = context.sdl_window
    if window is None:
        return
    with contextlib.suppress(RuntimeError, ValueError):  # a driver without fullscreen (dummy): stay windowed
        window.fullscreen = not window.fullscreen


def run(make_stack: Callable[[], SceneStack], *, title: str = "Undercroft", events: EventSource | None = None,
        max_frames: int | None = None) -> int:
    """Open the window, then run the scenes of ``make_stack()`` until one exits or the window is closed.

    ``events`` replaces the SDL event queue (tests feed synthetic events through the real window); ``max_frames``
    stops after that many presented frames. Returns the exit status (0: quit or window closed).
    """
    context = open_window(title)
    console = new_console()
    text_input = False
    try:
        stack = make_stack()
        frames = 0
        while stack.exit_code is None and stack.scenes:
            stack.draw(console)
            context.present(console, keep_aspect=True, integer_scaling=True)
            frames += 1
            if max_frames is not None and frames >= max_frames:
                return 0
            top = stack.top
            if top.wants_text != text_input and context.sdl_window is not None:
                text_input = top.wants_text
                if text_input:
                    context.sdl_window.start_text_input()
                else:
                    context.sdl_window.stop_text_input()
            timeout = top.tick_interval()
            if events is not None:
                source = events(timeout)
            elif max_frames is not None:
                source = tcod.event.get()  # a bounded run never blocks waiting for input
            else:
                source = tcod.event.wait(timeout)
            for event in source:
                if events is None:
                    event = context.convert_event(event)
                if isinstance(event, tcod.event.Quit) or (
                    isinstance(event, tcod.event.WindowEvent) and event.type == "WindowClose"
                ):
                    return 0  # the recording is the save: nothing to write
                if is_fullscreen_toggle(event):
                    toggle_fullscreen(context)
                    continue
                stack.handle(event)
                if stack.exit_code is not None:
                    break
            if timeout is not None:
                stack.tick()
        return stack.exit_code if stack.exit_code is not None else 0
    finally:
        context.close()


def play(content: Content, ruleset: str = "undercroft", seed: int | None = None, **kw: object) -> int:
    """``undercroft play``: the title screen (or straight into a new game when a seed is given)."""
    from undercroft.ui.scenes.title import TitleScene

    def make() -> SceneStack:
        t = TitleScene(content, ruleset=ruleset, seed=seed)
        stack = SceneStack([t])
        if seed is not None:
            stack.apply(t.start(seed))
        return stack

    return run(make, **kw)  # type: ignore[arg-type]
