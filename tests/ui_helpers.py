"""Helpers for the window tests (``tests/test_ui_*.py``): dice to force a fight, key presses, screen text.

:class:`Driver` plays a scene stack through the one loop (:class:`undercroft.ui.loop.Loop`) on the null front end:
keys go in as the front end's events, the screen is the frame the loop presents. ``press``, ``type_text`` and
``screen`` take a Driver (through the loop) or a bare SceneStack (straight to the scenes).
"""

from __future__ import annotations

from collections import deque
from pathlib import Path

import pytest
import tcod.console
import tcod.event
from tcod.event import KeySym, Modifier

from undercroft.ui import render
from undercroft.ui.frontend import NullFrontEnd
from undercroft.ui.keys import key
from undercroft.ui.layout import Layout, Rect, panel_on_right
from undercroft.ui.loop import Loop
from undercroft.ui.scenes import ExploreScene, Scene, SceneStack
from undercroft.ui.session import Session


class TestDice:
    """Every gameplay roll: queued faces first; unscripted, a d20 shows 2 (every attack misses) and any other die
    its highest face (a monster check of 6 finds nothing). A one-sided die (a random target among one) is always 1
    and takes nothing from the queue."""

    __test__ = False

    def __init__(self) -> None:
        self.queue: deque[int] = deque()
        self.rolled: list[tuple[int, int]] = []

    def push(self, *faces: int) -> None:
        self.queue.extend(faces)

    def die(self, sides: int) -> int:
        if sides == 1:
            return 1
        face = self.queue.popleft() if self.queue else (2 if sides == 20 else sides)
        assert 1 <= face <= sides, f"scripted face {face} does not fit a d{sides}"
        self.rolled.append((sides, face))
        return face


class Driver:
    """A scene stack on the null front end, driven through the one loop: each :meth:`send` is one round of it
    (the events of one wait, handled, then a frame presented). Time is the front end's simulated clock."""

    def __init__(
        self,
        stack: SceneStack,
        *,
        size: tuple[int, int] = (render.WIDTH, render.HEIGHT),
        frontend: NullFrontEnd | None = None,
    ) -> None:
        self.frontend = frontend if frontend is not None else NullFrontEnd(size=size)
        self.loop = Loop(self.frontend, stack)
        self.loop.draw()

    @property
    def stack(self) -> SceneStack:
        return self.loop.stack

    @property
    def scenes(self) -> list[Scene]:
        return self.stack.scenes

    @property
    def top(self) -> Scene:
        return self.stack.top

    @property
    def exit_code(self) -> int | None:
        return self.stack.exit_code

    def send(self, *events: tcod.event.Event) -> None:
        """One round of the loop: ``events`` arrive together; they are handled, then the next frame presented."""
        self.frontend.push(*events)
        self.loop.wait()
        if self.loop.running:
            self.loop.draw()

    def idle(self, seconds: float) -> None:
        """Nobody presses anything for ``seconds``: scenes that animate tick."""
        self.frontend.idle(seconds)
        self.loop.wait()
        if self.loop.running:
            self.loop.draw()

    def screen(self) -> str:
        """The next frame the loop presents (drawn now: it shows changes made to the game behind the scenes')."""
        self.loop.draw()
        return self.frontend.screen()


Target = Driver | SceneStack


def press(target: Target, *syms: KeySym, mod: Modifier = Modifier.NONE) -> None:
    """Press keys one after the other (through the loop, one round each, for a Driver)."""
    for s in syms:
        if isinstance(target, Driver):
            target.send(key(s, mod))
        else:
            target.handle(key(s, mod))


def type_text(target: Target, text: str) -> None:
    event = tcod.event.TextInput(text=text)
    if isinstance(target, Driver):
        assert target.frontend.text, "typing where no scene wants text: the front end would send no TextInput"
        target.send(event)
    else:
        target.handle(event)


def screen(target: Target) -> str:
    if isinstance(target, Driver):
        return target.screen()
    console = tcod.console.Console(80, 50, order="F")
    target.draw(console)
    return str(console)


def rows(text: str) -> list[str]:
    """The screen rows of ``str(console)`` (which is framed as '<row0\n row1\n ... rowN>')."""
    return [line[1:] for line in text[:-1].splitlines()]


def panel_rect(session: Session, size: tuple[int, int] = (render.WIDTH, render.HEIGHT)) -> Rect:
    """Where a game scene's side panel stands on a screen of ``size`` (on the side away from the party)."""
    st = session.game.state
    return Layout.of(*size).panel(panel_on_right(st.pos[0], st.level.map.width))


def panel_text(text: str, session: Session) -> str:
    """The side panel's text with its wrapped lines joined again (one space between rows)."""
    lines = rows(text)
    r = panel_rect(session, (max(len(line) for line in lines), len(lines)))
    parts = [line[r.x + 1 : r.x + r.w - 1].strip() for line in lines[r.y + 1 : r.y + r.h - 1]]
    return " ".join(p for p in parts if p)


def row_of(text: str, needle: str, start: int = 0) -> int:
    """The first screen row from ``start`` holding ``needle`` (fails when absent)."""
    for i, line in enumerate(rows(text)):
        if i >= start and needle in line:
            return i
    raise AssertionError(f"{needle!r} is not on the screen:\n{text}")


def names(target: Target) -> list[str]:
    return [type(s).__name__ for s in target.scenes]


def isolate_user_data(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Saves and morgue files go to ``tmp_path/user``, the user's state and config to ``tmp_path`` too (never the real
    user directories)."""
    d = tmp_path / "user"
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))  # (the saves' index key)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setattr("undercroft.paths.user_data_dir", lambda: d)
    return d


_ARROWS = {(0, -1): KeySym.UP, (0, 1): KeySym.DOWN, (-1, 0): KeySym.LEFT, (1, 0): KeySym.RIGHT}


def seek_fight_key(session: Session, *, fight: bool = True) -> KeySym:
    """A key that heads for a fight: walk to the nearest unvisited room, fight whatever is met (waiting for one
    out of sight to come), attack. With ``fight`` off, it runs from whatever it meets instead (for long games):
    pressed again over the choice of doors, ``r`` takes the way in (or the first open door)."""
    from undercroft.rules import dungeon
    from undercroft.rules.actions import Fight

    st = session.game.state
    if st.mode in ("encounter", "pursuit"):
        if not fight:
            return KeySym.R  # (with a choice of doors, r again takes the way in, or the first open door)
        if st.mode == "encounter" and not session.game.legal(Fight()):
            return KeySym.W  # out of sight: wait for it to come
        return KeySym.F if session.game.legal(Fight()) else KeySym.R  # giving chase: run on after it
    if st.mode == "combat":
        return KeySym.A if fight else KeySym.R
    m = st.level.map
    best: list[tuple[int, int]] | None = None
    for s in m.rooms:
        if st.level.visited[s.id]:
            continue
        path = dungeon.path_between(m, st.pos, ((s.x1 + s.x2) // 2, (s.y1 + s.y2) // 2))
        if len(path) > 1 and (best is None or len(path) < len(best)):
            best = path
    if best is None:
        return KeySym.Z  # rest: wanderers come
    nx, ny = best[1]
    return _ARROWS[(nx - st.pos[0], ny - st.pos[1])]


def click(x: int, y: int, button: tcod.event.MouseButton = tcod.event.MouseButton.LEFT) -> tcod.event.MouseButtonDown:
    """A click on the console's cell (x, y), as the front ends deliver it (the window converts pixels to cells,
    the terminal reports cells)."""
    return tcod.event.MouseButtonDown(position=tcod.event.Point(float(x), float(y)), button=button)


def pointer(x: int, y: int) -> tcod.event.MouseMotion:
    """The mouse pointer moved onto the cell (x, y)."""
    return tcod.event.MouseMotion(position=tcod.event.Point(float(x), float(y)))


def wheel(up: int) -> tcod.event.MouseWheel:
    """The wheel turned ``up`` notches up (negative: down)."""
    return tcod.event.MouseWheel(x=0, y=up, flipped=False)


def click_text(target: Target, needle: str) -> None:
    """A left click on the first cell of ``needle`` where it is on the screen (an AssertionError when it is not)."""
    text = screen(target)
    for y, row in enumerate(rows(text)):
        x = row.find(needle)
        if x >= 0:
            ev = click(x, y)
            if isinstance(target, Driver):
                target.send(ev)
            else:
                target.handle(ev)
            return
    raise AssertionError(f"{needle!r} is not on the screen")


def walk_out(stack: SceneStack, scene: ExploreScene, limit: int = 2000) -> int:
    """Tick ``stack`` until the walk (travel, auto-explore, rest) of ``scene`` stops, at most ``limit`` ticks: how
    many it took."""
    n = 0
    while scene.trip is not None and n < limit:
        stack.tick()
        n += 1
    return n
