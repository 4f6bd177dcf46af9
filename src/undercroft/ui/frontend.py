"""What the game runs on: a front end presents an 80x50 console, delivers input events and reports its size.

:class:`FrontEnd` is the whole interface the one loop (:mod:`undercroft.ui.loop`) needs. There are three:

- the window (:class:`undercroft.ui.app.Window`): SDL through ``tcod.context``, the console scaled to fit;
- the terminal (:class:`undercroft.term.app.TerminalFrontEnd`): ANSI escape codes, keys read with blessed;
- :class:`NullFrontEnd`: scripted events, no output, a fixed size (tests and the screenshot script).

Events are tcod's (:class:`tcod.event.KeyDown`, :class:`tcod.event.TextInput`, :class:`tcod.event.MouseButtonDown`,
:class:`tcod.event.WindowResized`, ...); :func:`is_close` tells the ones that close the front end
(:class:`tcod.event.Quit`, or the window's close button). A front end is opened by a :data:`FrontEndFactory`
(``open(title)``, a context manager) and given back as it was when that context ends, however it ends.
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

import tcod.console
import tcod.event

from undercroft.ui import render

# Events for a wait of at most ``timeout`` seconds (None: until there are some); None from a script: close.
EventSource = Callable[[float | None], Iterable[tcod.event.Event] | None]


def new_console(width: int = render.WIDTH, height: int = render.HEIGHT) -> tcod.console.Console:
    """The console every scene draws into (80x50 cells unless the front end shows more), indexed [x, y]."""
    return tcod.console.Console(width, height, order="F")


class FrontEnd(Protocol):
    """Where the scenes are shown and where input comes from."""

    def size(self) -> tuple[int, int]:
        """How many columns and rows it can show now (a window scales the console: always at least 80x50)."""
        ...

    def present(self, console: tcod.console.Console) -> None:
        """Show ``console``; one smaller than the console says so instead (the loop then does not draw)."""
        ...

    def events(self, timeout: float | None) -> Iterable[tcod.event.Event]:
        """The input that arrives within ``timeout`` seconds (None: wait for some; it may come back empty early)."""
        ...

    def text_input(self, on: bool) -> None:
        """Whether typed text should also come as :class:`tcod.event.TextInput` events (a scene that wants it)."""
        ...

    def now(self) -> float:
        """Its clock, in seconds: when the scenes' ticks are due (the null front end's is simulated)."""
        ...


# Opens a front end for a title (the window's; the terminal ignores it) for the length of a ``with`` block.
FrontEndFactory = Callable[[str], contextlib.AbstractContextManager[FrontEnd]]


def is_close(event: tcod.event.Event) -> bool:
    """The front end is being closed: the window's close button, or a quit request."""
    return isinstance(event, tcod.event.Quit) or (
        isinstance(event, tcod.event.WindowEvent) and event.type == "WindowClose"
    )


def fits(size: tuple[int, int], console: tcod.console.Console) -> bool:
    return size[0] >= console.width and size[1] >= console.height


@dataclass(frozen=True)
class FrontEndOptions:
    """How the command line asked for the game to be shown (filled in from its flags by ``undercroft.cli``; the
    choice is :func:`undercroft.term.app.choose`, which knows both front ends: ``ui`` never imports ``term``)."""

    terminal: bool = False  # --terminal: in this terminal, not a window


class NullFrontEnd:
    """A front end with no output and a fixed size, whose input is scripted.

    Each wait takes the next batch of ``batches`` (or, with ``source``, asks it, as the SDL queue would be asked);
    when the script is over, or ``source`` returns None, the front end is closed (a :class:`tcod.event.Quit`).
    Time is simulated: :meth:`now` advances by the whole timeout of a wait that brings no events, and a batch that
    is a number of seconds is a wait of that long with nothing pressed.
    """

    def __init__(
        self,
        batches: Iterable[Sequence[tcod.event.Event] | float] = (),
        *,
        source: EventSource | None = None,
        size: tuple[int, int] = (render.WIDTH, render.HEIGHT),
    ) -> None:
        self.queue: deque[list[tcod.event.Event] | float] = deque(
            b if isinstance(b, (int, float)) else list(b) for b in batches
        )
        self.source = source
        self.columns, self.rows = size
        self.frames = 0  # consoles presented
        self.console: tcod.console.Console | None = None  # the last one presented (not a copy)
        self.on_present: Callable[[tcod.console.Console], None] | None = None
        self.text = False
        self.time = 0.0
        self.timeouts: list[float | None] = []  # of every wait, in order

    @contextlib.contextmanager
    def open(self, title: str = "") -> Iterator[NullFrontEnd]:
        yield self

    def now(self) -> float:
        """The simulated clock (seconds)."""
        return self.time

    def push(self, *events: tcod.event.Event) -> None:
        """Queue one batch: the events of the next wait."""
        self.queue.append(list(events))

    def idle(self, seconds: float) -> None:
        """Queue a wait of ``seconds`` in which nothing is pressed."""
        self.queue.append(float(seconds))

    def size(self) -> tuple[int, int]:
        return self.columns, self.rows

    def present(self, console: tcod.console.Console) -> None:
        self.frames += 1
        self.console = console
        if self.on_present is not None:
            self.on_present(console)

    def events(self, timeout: float | None) -> list[tcod.event.Event]:
        self.timeouts.append(timeout)
        batch: Iterable[tcod.event.Event] | float | None
        if self.queue:
            batch = self.queue.popleft()
        elif self.source is not None:
            batch = self.source(timeout)
        else:
            batch = None
        if batch is None:
            return [tcod.event.Quit()]
        if isinstance(batch, float):
            self.time += batch
            return []
        out = list(batch)
        if not out and timeout is not None:
            self.time += timeout
        return out

    def text_input(self, on: bool) -> None:
        self.text = on

    def screen(self) -> str:
        """The text of the last frame presented ('' before the first)."""
        return "" if self.console is None else str(self.console)
