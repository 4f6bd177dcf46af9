"""The window: the front end (:class:`~undercroft.ui.frontend.FrontEnd`) that shows the console with SDL.

The console is always 80x50 cells; the window scales it by whole multiples (``integer_scaling``) when resized,
Alt+Enter toggles fullscreen. The loop that runs the scenes in it is :mod:`undercroft.ui.loop`, the same for every
front end: closing the window at any time keeps the game, every action is already on disk.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator

import tcod.console
import tcod.context
import tcod.event

from undercroft.ui import render
from undercroft.ui.frontend import EventSource, new_console
from undercroft.ui.keys import is_fullscreen_toggle
from undercroft.ui.tiles import load_tileset

NO_DISPLAY = "no display available (set DISPLAY, or use SDL_VIDEODRIVER=dummy for tests)"

__all__ = ["NO_DISPLAY", "EventSource", "NoDisplay", "Window", "new_console", "open_window", "toggle_fullscreen"]


class NoDisplay(Exception):
    """tcod could not open a window."""


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


class Window:
    """The SDL window as a front end. ``source`` replaces SDL's event queue (tests feed synthetic events through
    the real window); Alt+Enter is the window's own (fullscreen) and never reaches the scenes."""

    def __init__(self, context: tcod.context.Context, source: EventSource | None = None) -> None:
        self.context = context
        self.source = source
        self.text = False

    @classmethod
    @contextlib.contextmanager
    def open(cls, title: str = "Undercroft", *, source: EventSource | None = None) -> Iterator[Window]:
        """Open the window (:class:`NoDisplay` without a display) for the length of the ``with`` block."""
        context = open_window(title)
        try:
            yield cls(context, source)
        finally:
            context.close()

    def size(self) -> tuple[int, int]:
        # The console is scaled to the window, so it always fits; more cells would fit at 1x when it is large.
        return self.context.recommended_console_size(render.WIDTH, render.HEIGHT)

    def present(self, console: tcod.console.Console) -> None:
        self.context.present(console, keep_aspect=True, integer_scaling=True)

    def events(self, timeout: float | None) -> Iterator[tcod.event.Event]:
        if self.source is not None:
            batch = self.source(timeout)
            events = iter([tcod.event.Quit()] if batch is None else batch)
        else:
            events = (self.context.convert_event(e) for e in (tcod.event.get() if timeout == 0
                                                                else tcod.event.wait(timeout)))
        for event in events:
            if is_fullscreen_toggle(event):
                toggle_fullscreen(self.context)
                continue
            yield event

    def now(self) -> float:
        return time.monotonic()

    def text_input(self, on: bool) -> None:
        window = self.context.sdl_window
        if on == self.text or window is None:
            return
        self.text = on
        if on:
            window.start_text_input()
        else:
            window.stop_text_input()
