"""Scenes and the scene stack.

A scene turns input into a transition and draws itself::

    on_event(event) -> Push | Pop | Replace | Reset | Home | Exit | None
    on_draw(console)

The stack draws from the topmost opaque scene upward (an overlay such as a prompt or the help screen draws over
the scene below it) and gives events to the top scene only. Scenes that animate (replays) return from
``tick_interval()`` the seconds between calls of ``on_tick``. A game scene leaves for the title screen with
``Home``: the stack's ``home`` makes the scene it goes back to (the loop gives every stack the title screen), so
no game scene imports the title.

"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias

import tcod.console
import tcod.event

from undercroft.ui.session import Session


class Scene:
    """Base scene: opaque, no ticks, no text input; ignores every event."""

    opaque: bool = True  # draws the whole screen: scenes below it are not drawn
    wants_text: bool = False  # needs TextInput events (the app starts SDL text input while it is on top)

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        return None

    def on_draw(self, console: tcod.console.Console) -> None:
        pass

    def tick_interval(self) -> float | None:
        """Seconds between ``on_tick`` calls now; None: just wait for input."""
        return None

    def on_tick(self) -> Transition | None:
        return None


@dataclass(frozen=True)
class Push:
    scene: Scene


@dataclass(frozen=True)
class Pop:
    """Remove the top scene; then apply ``then`` (a transition for the scene that is now on top)."""

    then: Transition | None = None


@dataclass(frozen=True)
class Replace:
    scene: Scene


@dataclass(frozen=True)
class Reset:
    """Replace the whole stack by ``scene`` (and ``above`` on top of it): into a game."""

    scene: Scene
    above: tuple[Scene, ...] = ()


@dataclass(frozen=True)
class Home:
    """Replace the whole stack by its home scene (the title screen), leaving the game ``left`` (closed there)."""

    left: Session


@dataclass(frozen=True)
class Exit:
    """Leave the program with ``code``."""

    code: int = 0


Transition: TypeAlias = Push | Pop | Replace | Reset | Home | Exit


class SceneStack:
    """The scenes, bottom first. ``exit_code`` is set once a scene asks to leave (or the stack empties). ``home``
    makes the scene ``Home`` goes back to, from the game left; without one, ``Home`` leaves as ``Exit(0)`` does."""

    def __init__(self, scenes: list[Scene], home: Callable[[Session], Scene] | None = None) -> None:
        self.scenes = list(scenes)
        self.home = home
        self.exit_code: int | None = None if self.scenes else 0

    @property
    def top(self) -> Scene:
        return self.scenes[-1]

    def apply(self, t: Transition | None) -> None:
        while t is not None:
            nxt: Transition | None = None
            if isinstance(t, Push):
                self.scenes.append(t.scene)
            elif isinstance(t, Pop):
                if self.scenes:
                    self.scenes.pop()
                nxt = t.then
            elif isinstance(t, Replace):
                if self.scenes:
                    self.scenes.pop()
                self.scenes.append(t.scene)
            elif isinstance(t, Reset):
                self.scenes = [t.scene, *t.above]
            elif isinstance(t, Home) and self.home is not None:
                self.scenes = [self.home(t.left)]
            else:  # Exit, or Home with nowhere to go
                self.exit_code = t.code if isinstance(t, Exit) else 0
                return
            t = nxt
        if not self.scenes:
            self.exit_code = 0

    def handle(self, event: tcod.event.Event) -> None:
        if self.scenes and self.exit_code is None:
            self.apply(self.top.on_event(event))

    def feed(self, *events: tcod.event.Event) -> None:
        """Handle several events (tests and scripted screenshots)."""
        for e in events:
            self.handle(e)

    def tick(self) -> None:
        if self.scenes and self.exit_code is None:
            self.apply(self.top.on_tick())

    def draw(self, console: tcod.console.Console) -> None:
        console.clear()
        start = 0
        for i in range(len(self.scenes) - 1, -1, -1):
            if self.scenes[i].opaque:
                start = i
                break
        for scene in self.scenes[start:]:
            scene.on_draw(console)


class Buttons:
    """The clickable places a scene drew this frame: a row of cells and what a click there means (a command of
    the scene's keymap, or any value the scene gives). Cleared at the start of each draw."""

    def __init__(self) -> None:
        self.rows: list[tuple[int, int, int, object]] = []  # (x, y, width, what)

    def clear(self) -> None:
        self.rows.clear()

    def add(self, x: int, y: int, width: int, what: object) -> None:
        self.rows.append((x, y, max(1, width), what))

    def at(self, x: int, y: int) -> object | None:
        """What the cell (x, y) is a button for (the last one drawn there), or None."""
        for bx, by, bw, what in reversed(self.rows):
            if by == y and bx <= x < bx + bw:
                return what
        return None
