"""The window: the front end (:class:`~undercroft.ui.frontend.FrontEnd`) that shows the console with SDL.

The window uses the screen. It opens at a step of :data:`LADDER` (a tileset at a whole-number scale): the largest
whose cells give a console of at least 80x:data:`OPEN_ROWS` in :data:`COMFORT` of the display's usable area (the
whole screen under a bare X server), or the one the player chose (the remembered :mod:`undercroft.ui.settings`);
the window is then that comfortable area in whole cells, wider than 80 columns where the screen is wide (more
map beside the panel). The console grows with the window: :meth:`Window.size` is how many
cells of the current step fit in it (fullscreen, maximised or resized by hand shows more cells, never a blurry
stretch); a console smaller than the window is drawn at the largest whole multiple that fits (``integer_scaling``).

The window's own keys, which never reach the scenes: Alt+Enter and F11 toggle fullscreen; Ctrl+= (Ctrl++,
keypad +) steps up the ladder, Ctrl+- (keypad -) down, Ctrl+0 (keypad 0) back to automatic; a step chosen is
remembered. The loop that runs the scenes in it is :mod:`undercroft.ui.loop`, the same for every front end:
closing the window at any time keeps the game, every action is already on disk.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

import tcod.console
import tcod.context
import tcod.event
import tcod.sdl.video
from tcod.cffi import ffi, lib
from tcod.event import KeySym, Modifier

from undercroft.ui import render, settings
from undercroft.ui.frontend import EventSource, new_console
from undercroft.ui.keys import is_fullscreen_toggle
from undercroft.ui.settings import Settings
from undercroft.ui.tiles import TILESETS, load_tileset

NO_DISPLAY = "no window can open here: this session has no graphical display"

__all__ = [
    "COMFORT",
    "LADDER",
    "MIN_COLUMNS",
    "MIN_ROWS",
    "NO_DISPLAY",
    "EventSource",
    "NoDisplay",
    "Step",
    "Window",
    "auto_step",
    "cells_in",
    "choose_step",
    "new_console",
    "open_window",
    "opening_size",
    "scale_key",
    "toggle_fullscreen",
]

MIN_COLUMNS, MIN_ROWS = 80, 24  # the smallest console the scenes lay out for
COMFORT = 0.9  # the share of the display's usable area an automatic window takes
OPEN_ROWS = 40  # an automatic step leaves at least this many rows (most of a level's 43, with the log)


class NoDisplay(Exception):
    """tcod could not open a window."""


@dataclass(frozen=True)
class Step:
    """A rung of the scale ladder: the tileset ``tile`` drawn at ``scale`` screen pixels per tileset pixel."""

    tile: str
    scale: int

    @property
    def cell(self) -> tuple[int, int]:
        """One cell on screen, in pixels."""
        info = TILESETS[self.tile]
        return info.tile_w * self.scale, info.tile_h * self.scale

    def pixels(self, columns: int = render.WIDTH, rows: int = render.HEIGHT) -> tuple[int, int]:
        """A window of ``columns`` x ``rows`` cells, in pixels."""
        w, h = self.cell
        return columns * w, rows * h


# Each step a larger cell (pixels of an 80x50 window in brackets); a size a larger tileset draws itself is never
# an upscaled smaller one (small x2 would be large x1, blurrier).
LADDER: tuple[Step, ...] = (
    Step("small", 1),  # 10x16 px cells (800x800): laptops and 1080p screens
    Step("medium", 1),  # 14x22 (1120x1100): 1440p
    Step("large", 1),  # 20x32 (1600x1600): 4K
    Step("medium", 2),  # 28x44 (2240x2200): 5K
    Step("large", 2),  # 40x64 (3200x3200): 8K
    Step("large", 3),  # 60x96 (4800x4800)
)


def _fits(size: tuple[int, int], area: tuple[int, int]) -> bool:
    return size[0] <= area[0] and size[1] <= area[1]


def auto_step(usable: tuple[int, int] | None) -> Step:
    """The largest step whose 80 x :data:`OPEN_ROWS` console fits in :data:`COMFORT` of ``usable`` (the display's
    usable area in pixels; None, unknown: the smallest step)."""
    if usable is None:
        return LADDER[0]
    comfortable = (int(usable[0] * COMFORT), int(usable[1] * COMFORT))
    fitting = [s for s in LADDER if _fits(s.pixels(MIN_COLUMNS, OPEN_ROWS), comfortable)]
    return fitting[-1] if fitting else LADDER[0]


def largest_step(usable: tuple[int, int] | None) -> Step:
    """The largest step that can show the smallest console (80x24) on the display at all."""
    if usable is None:
        return LADDER[-1]
    fitting = [s for s in LADDER if _fits(s.pixels(MIN_COLUMNS, MIN_ROWS), usable)]
    return fitting[-1] if fitting else LADDER[0]


def choose_step(usable: tuple[int, int] | None, chosen: Settings) -> Step:
    """The step to open at: automatic (:func:`auto_step`), or the player's, unless too large for the display."""
    if chosen.automatic:
        return auto_step(usable)
    step = Step(chosen.tile, chosen.scale)
    limit = largest_step(usable)
    if usable is not None and not _fits(step.pixels(MIN_COLUMNS, MIN_ROWS), usable):
        return limit
    return step


def next_step(step: Step, delta: int, usable: tuple[int, int] | None) -> Step:
    """One rung up (``delta`` 1) or down (-1) the ladder, never past its ends nor larger than the display (a step
    chosen by hand off the ladder: up is the first rung with taller cells, down the last with shorter ones)."""
    if step in LADDER:
        i = LADDER.index(step) + delta
    else:
        h = step.cell[1]
        above = [i for i, s in enumerate(LADDER) if s.cell[1] > h]
        below = [i for i, s in enumerate(LADDER) if s.cell[1] < h]
        i = (above[0] if above else len(LADDER) - 1) if delta > 0 else (below[-1] if below else 0)
    return LADDER[max(0, min(i, LADDER.index(largest_step(usable))))]


def opening_size(step: Step, usable: tuple[int, int] | None) -> tuple[int, int]:
    """The window's size in cells at opening: as many whole cells of ``step`` as fill :data:`COMFORT` of the
    usable area (never under 80x24); 80x50 when the display is unknown."""
    if usable is None:
        return render.WIDTH, render.HEIGHT
    w, h = step.cell
    return max(MIN_COLUMNS, int(usable[0] * COMFORT) // w), max(MIN_ROWS, int(usable[1] * COMFORT) // h)


def cells_in(pixels: tuple[int, int], step: Step) -> tuple[int, int]:
    """How many whole cells of ``step`` fit in ``pixels``, never under 80x24 (a smaller window scales down)."""
    w, h = step.cell
    return max(MIN_COLUMNS, pixels[0] // w), max(MIN_ROWS, pixels[1] // h)


def scale_key(event: tcod.event.Event) -> str | None:
    """The window's own keys: "bigger" (Ctrl+=, Ctrl++, Ctrl+keypad +), "smaller" (Ctrl+-, Ctrl+keypad -), "auto"
    (Ctrl+0, Ctrl+keypad 0), "fullscreen" (Alt+Enter, F11); None for every other event."""
    if not isinstance(event, tcod.event.KeyDown):
        return None
    if is_fullscreen_toggle(event) or (event.sym == KeySym.F11 and not event.mod & (Modifier.CTRL | Modifier.ALT)):
        return "fullscreen"
    if not event.mod & Modifier.CTRL or event.mod & (Modifier.ALT | Modifier.GUI):
        return None
    if event.sym in (KeySym.EQUALS, KeySym.PLUS, KeySym.KP_PLUS):
        return "bigger"
    if event.sym in (KeySym.MINUS, KeySym.KP_MINUS):
        return "smaller"
    if event.sym in (KeySym.N0, KeySym.KP_0):
        return "auto"
    return None


# --- SDL: the display and the window ------------------------------------------------------------------------------


def _usable_bounds(display: int) -> tuple[int, int] | None:
    if not display:
        return None
    rect = ffi.new("SDL_Rect*")
    if not lib.SDL_GetDisplayUsableBounds(display, rect) or rect.w <= 0 or rect.h <= 0:
        return None
    return int(rect.w), int(rect.h)


def _quiet() -> None:
    # tcod passes SDL's and libtcod's log lines (start-up chatter, and the failure we report in one line
    # ourselves) to Python logging, whose last-resort handler would print them: keep them off the terminal.
    logging.getLogger("tcod").setLevel(logging.CRITICAL)
    driver = x11_only(os.environ)
    if driver is not None:
        os.environ["SDL_VIDEO_DRIVER"] = driver


def x11_only(environ: Mapping[str, str]) -> str | None:
    """ "x11" when SDL should not try Wayland first: an X display and no Wayland one, and no driver chosen by the
    player. Wayland's client library, tried first, prints "error: XDG_RUNTIME_DIR not set in the environment"
    straight to the terminal where that variable is missing (an X server over ssh, Xvfb)."""
    if environ.get("WAYLAND_DISPLAY") or not environ.get("DISPLAY"):
        return None
    if environ.get("SDL_VIDEO_DRIVER") or environ.get("SDL_VIDEODRIVER"):
        return None
    return "x11"


def _dummy_driver() -> bool:
    name = lib.SDL_GetCurrentVideoDriver()
    return bool(name) and ffi.string(name) in (b"dummy", b"offscreen")


def display_usable_size() -> tuple[int, int] | None:
    """The primary display's usable area (without task bars), in screen coordinates; None when SDL cannot say,
    or its display is made up (the dummy and offscreen drivers of tests). Initialises SDL's video (the window's
    context would anyway; it keeps it)."""
    _quiet()
    if not lib.SDL_InitSubSystem(lib.SDL_INIT_VIDEO) or _dummy_driver():
        return None
    return _usable_bounds(lib.SDL_GetPrimaryDisplay())


def open_window(
    title: str = "Undercroft", step: Step | None = None, size: tuple[int, int] | None = None
) -> tcod.context.Context:
    """A resizable window of ``size`` cells (80x50) of ``step`` (small x1); :class:`NoDisplay` if none."""
    step = LADDER[0] if step is None else step
    columns, rows = (render.WIDTH, render.HEIGHT) if size is None else size
    tileset = load_tileset(step.tile)
    _quiet()
    width, height = step.pixels(columns, rows)
    try:
        return tcod.context.new(
            width=width,
            height=height,
            columns=columns,
            rows=rows,
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
    the real window); the window's own keys (:func:`scale_key`) never reach the scenes."""

    def __init__(
        self,
        context: tcod.context.Context,
        source: EventSource | None = None,
        step: Step = LADDER[0],
        chosen: Settings | None = None,
    ) -> None:
        self.context = context
        self.source = source
        self.text = False
        self.step = step
        self.settings = Settings() if chosen is None else chosen

    @classmethod
    @contextlib.contextmanager
    def open(cls, title: str = "Undercroft", *, source: EventSource | None = None) -> Iterator[Window]:
        """Open the window (:class:`NoDisplay` without a display) for the length of the ``with`` block, at the
        step the remembered settings and the display call for."""
        chosen = settings.load()
        usable = display_usable_size()
        step = choose_step(usable, chosen)
        context = open_window(title, step, opening_size(step, usable))
        try:
            yield cls(context, source, step, chosen)
        finally:
            context.close()

    # --- the window's size ---

    def pixels(self) -> tuple[int, int]:
        """The window's drawable size in pixels (not screen coordinates: they differ on high-density screens)."""
        p = self.context.sdl_window_p
        if p:
            size = ffi.new("int[2]")
            if lib.SDL_GetWindowSizeInPixels(p, size, size + 1) and size[0] > 0 and size[1] > 0:
                return int(size[0]), int(size[1])
        return self.step.pixels()

    def density(self) -> float:
        p = self.context.sdl_window_p
        d = float(lib.SDL_GetWindowPixelDensity(p)) if p else 0.0
        return d if d > 0 else 1.0

    def usable(self) -> tuple[int, int] | None:
        """The usable area of the display the window is on, in pixels (None: unknown)."""
        p = self.context.sdl_window_p
        bounds = _usable_bounds(lib.SDL_GetDisplayForWindow(p)) if p and not _dummy_driver() else None
        if bounds is None:
            return None
        d = self.density()
        return int(bounds[0] * d), int(bounds[1] * d)

    def filling(self) -> bool:
        """Fullscreen or maximised: the window's size is not ours to change."""
        window = self.context.sdl_window
        if window is None:
            return False
        return bool(window.flags & (tcod.sdl.video.WindowFlags.FULLSCREEN | tcod.sdl.video.WindowFlags.MAXIMIZED))

    def set_step(self, step: Step, chosen: Settings) -> None:
        """Draw with ``step`` from now on, the window resized to it (unless fullscreen or maximised); remember
        ``chosen``."""
        if step.tile != self.step.tile:
            self.context.change_tileset(load_tileset(step.tile))
        self.step = step
        window = self.context.sdl_window
        if window is not None and not self.filling():
            columns, rows = opening_size(step, self.usable())
            w, h = step.pixels(columns, rows)
            d = self.density()
            with contextlib.suppress(RuntimeError, ValueError):
                window.size = (round(w / d), round(h / d))
        self.settings = chosen
        settings.save(dataclasses.replace(chosen, stop_hp=settings.load().stop_hp))  # (the walks' share kept)

    def rescale(self, action: str) -> None:
        """A scale key: one step "bigger" or "smaller", or back to "auto"."""
        usable = self.usable()
        if action == "auto":
            self.set_step(auto_step(usable), Settings(scale=0))
            return
        step = next_step(self.step, 1 if action == "bigger" else -1, usable)
        self.set_step(step, Settings(step.tile, step.scale))

    # --- the front end ---

    def size(self) -> tuple[int, int]:
        # Whole cells of the current step: a larger window shows more of them, never a stretched 80x50.
        return cells_in(self.pixels(), self.step)

    def present(self, console: tcod.console.Console) -> None:
        self.context.present(console, keep_aspect=True, integer_scaling=True)

    def events(self, timeout: float | None) -> Iterator[tcod.event.Event]:
        if self.source is not None:
            batch = self.source(timeout)
            events = iter([tcod.event.Quit()] if batch is None else batch)
        else:
            events = (
                self.context.convert_event(e) for e in (tcod.event.get() if timeout == 0 else tcod.event.wait(timeout))
            )
        for event in events:
            action = scale_key(event)
            if action == "fullscreen":
                toggle_fullscreen(self.context)
                continue
            if action is not None:
                self.rescale(action)
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
