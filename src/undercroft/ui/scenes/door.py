"""Running: which door, over the scene below (the doors marked on the map and listed in the panel)."""

from __future__ import annotations

import math
from collections.abc import Callable

import tcod.console
import tcod.event

from undercroft.rules.game import Game
from undercroft.rules.names import group_name, the
from undercroft.rules.state import Group
from undercroft.rules.ways_out import Exit
from undercroft.ui import keymap, render
from undercroft.ui.layout import Layout, panel_on_right
from undercroft.ui.palette import DOOR_BLOCKED_BG, DOOR_CURSOR_BG, DOOR_OPEN_BG
from undercroft.ui.render import DIM, FAINT, TEXT
from undercroft.ui.scenes.base import Buttons, Pop, Scene, Transition
from undercroft.ui.session import Session


def _bearing(dx: int, dy: int) -> float:
    """Clockwise from north, in turns (0 <= b < 1): the order the doors are listed and stepped through in."""
    return (math.atan2(dx, -dy) / (2 * math.pi)) % 1.0


def beyond(game: Game, way: Exit) -> str:
    """What the party knows of the room or corridor beyond a door: the groups met there and still living (never one
    out of sight or under the water), "" for none ("the Gaoler beyond"). A closed door says why: "leads back to the
    Ossuary Knot", or the monsters stand in front of it. (The door list says it of each door, the run choice of the
    one door a run takes at once.)"""
    faced = game.state.front_group()
    known = [
        g
        for g in game.state.level.groups
        if g.segment == way.segment and g.met and not g.hidden and not g.unseen and not g.defeated
    ]
    known.sort(key=lambda g: g is not faced)  # (the group faced first)

    def name(g: Group) -> str:
        mon = game.monster_of(g)
        told, many = group_name(mon.name, mon.plural, g.count_told)
        return f"{g.count_told} {told}" if many else the(told)

    names = ", ".join(name(g) for g in known)
    if way.blocked:
        if faced is not None and faced.segment == way.segment:
            return f"closed: it leads back to {names or name(faced)}"
        return "closed: the monsters stand in front of it"
    return f"{names} beyond" if names else ""


class DoorScene(Scene):
    """Which door to run through: the ways out of the party's room or corridor, marked on the map and listed with
    where each is from the party ("north-east, 6 tiles"), the way in first, then clockwise from north; a door the
    monsters stand in front of, or whose room or corridor beyond is the one they stand in, is shown closed, saying
    why; each door names the monsters met and still there beyond it ("the Gaoler beyond"). The walking keys move
    the choice (up or left: the one before; down or right: the next), Enter runs through it, ``r`` the way the
    party came in (or the first open door), a click on a door (on the map or in the list) runs through it, Esc
    stays. Digits are walking keys, never door numbers."""

    opaque = False
    keymode = "door"

    def __init__(self, session: Session, on_choose: Callable[[int], Transition | None]) -> None:
        self.session = session
        self.on_choose = on_choose  # called with the door's index in game.exits()
        self.buttons = Buttons()
        doors = self.open_doors()
        self.cursor = doors.index(self.default(doors)) if doors else 0  # among the open doors

    def ways(self) -> list[Exit]:
        return self.session.game.exits()

    def order(self) -> list[int]:
        """The indexes (in ``game.exits()``) of every door: the way the party came in first (the one chosen at
        first, at the top where the eye starts), then clockwise from north as seen from the party."""
        px, py = self.session.game.state.pos
        ways = self.ways()
        return sorted(
            range(len(ways)),
            key=lambda i: (not ways[i].came_in, _bearing(ways[i].door[0] - px, ways[i].door[1] - py), i),
        )

    def open_doors(self) -> list[int]:
        """The indexes (in ``game.exits()``) of the doors open now, in the order they are listed."""
        ways = self.ways()
        return [i for i in self.order() if not ways[i].blocked]

    def describe(self, way: Exit) -> str:
        """Where a door is from the party: "6 tiles north-east", "7 tiles north, 2 west"; "the door you stand in"."""
        px, py = self.session.game.state.pos
        dx, dy = way.door[0] - px, way.door[1] - py
        return "the door you stand in" if dx == dy == 0 else render.compass(dx, dy)

    def handlers(self) -> dict[str, Callable[[str], Transition | None]]:
        return {
            "cursor": self.move,
            "choose": lambda _k: self.choose(self.cursor),
            "run": lambda _k: self.choose_door(self.default(self.open_doors())),
            "close": lambda _k: Pop(),
        }

    def move(self, key: str) -> Transition | None:
        n = len(self.open_doors())
        if n:
            self.cursor = (self.cursor + keymap.list_step(key)) % n
        return None

    def choose(self, n: int) -> Transition | None:
        doors = self.open_doors()
        return self.choose_door(doors[min(n, len(doors) - 1)])

    def choose_door(self, i: int) -> Transition | None:
        return Pop(then=self.on_choose(i))

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        doors = self.open_doors()
        if not doors:
            return Pop() if isinstance(event, (tcod.event.KeyDown, tcod.event.MouseButtonDown)) else None
        self.cursor = min(self.cursor, len(doors) - 1)
        if isinstance(event, tcod.event.MouseMotion):
            what = self.buttons.at(int(event.position[0]), int(event.position[1]))
            if isinstance(what, int) and what in doors:
                self.cursor = doors.index(what)
            return None
        if isinstance(event, tcod.event.MouseButtonDown):
            what = self.buttons.at(int(event.position[0]), int(event.position[1]))
            if event.button == tcod.event.MouseButton.LEFT and isinstance(what, int) and what in doors:
                return self.choose_door(what)
            return None
        if not isinstance(event, tcod.event.KeyDown):
            return None
        hit = keymap.lookup(self.keymode, event)
        return self.handlers()[hit[0]](hit[1]) if hit is not None else None

    def default(self, doors: list[int]) -> int:
        """The door ``r`` runs through: the way the party came in when it is open, else the first open one."""
        ways = self.ways()
        return next((i for i in doors if ways[i].came_in), doors[0]) if doors else 0

    def on_draw(self, console: tcod.console.Console) -> None:
        game = self.session.game
        ways = self.ways()
        doors = self.open_doors()
        self.cursor = min(self.cursor, max(0, len(doors) - 1))
        self.buttons.clear()
        out = render.cells(console)
        view = self.session.camera.last
        # The doors on the map: each open one marked (the chosen one brighter), the blocked ones struck out.
        for i, way in enumerate(ways):
            x, y = view.to_screen(way.door)
            if not (view.shows(way.door) and 0 <= y < console.height and 0 <= x < console.width):
                continue
            if way.blocked:
                out["ch"][y, x], out["fg"][y, x], out["bg"][y, x] = ord("x"), render.WHITE, DOOR_BLOCKED_BG
            else:
                chosen = doors.index(i) == self.cursor
                out["ch"][y, x], out["fg"][y, x] = ord("+"), render.BLACK
                out["bg"][y, x] = DOOR_CURSOR_BG if chosen else DOOR_OPEN_BG
                bx, by = view.cell(way.door)  # (the door's whole block is the button: a tile scaled up)
                for row in range(by, by + view.sy):
                    self.buttons.add(bx, row, view.sx, i)
        # The list, in place of the side panel.
        st = game.state
        r = Layout.of(console.width, console.height).panel(panel_on_right(st.pos[0], st.level.map.width))
        w, px = r.w, r.x
        render.panel(console, r.x, r.y, r.w, r.h, "Run: which door?")
        y = r.y + 2
        for i in self.order():
            way = ways[i]
            label = self.describe(way) + (" (the way you came)" if way.came_in else "")
            chosen = not way.blocked and doors.index(i) == self.cursor
            mark = "x" if way.blocked else ">" if chosen else "+"
            colour = FAINT if way.blocked else render.KEY if chosen else TEXT
            known = beyond(game, way)
            for k, part in enumerate(render.wrap(f"{label}: {known}" if known else label, w - 6)):
                if chosen:  # (a long one on two rows, under its mark)
                    console.draw_rect(px + 1, y, w - 2, 1, ord(" "), bg=render.SELECT_BG)
                bg = render.SELECT_BG if chosen else None
                render.put_text(console, px + 2, y, f"{mark if k == 0 else ' '} {part}", colour, bg, width=w - 4)
                if not way.blocked:
                    self.buttons.add(px + 1, y, w - 2, i)
                y += 1
        y += 1
        if doors:
            back = ways[self.default(doors)].came_in
            hints = [
                "Up/Down: choose   Enter: run",
                f"r: {'the way in' if back else 'the first'}     Esc: stay",
                "Or click a door.",
            ]
            y += render.put_lines(console, px + 2, y, w - 4, [(h, DIM) for h in hints]) + 1
        if any(way.blocked for way in ways):
            render.put_lines(console, px + 2, y, w - 4, [("x: closed to a run (the list says why).", DIM)])
