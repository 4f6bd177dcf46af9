"""A menu over the scene below: choose one of a few options."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import tcod.console
import tcod.event

from undercroft.ui import keymap, keys, render
from undercroft.ui.render import DIM, KEY, TEXT
from undercroft.ui.scenes.base import Buttons, Pop, Scene, Transition


class MenuScene(Scene):
    """Choose one of a few options: the walking keys move the choice, Enter takes it, a click on an option takes
    it, Esc cancels. An option's own key (a letter, never a walking key) takes it too."""

    opaque = False
    keymode = "menu"

    def __init__(
        self, title: str, options: Sequence[tuple[str, str]], on_choose: Callable[[int], Transition | None]
    ) -> None:
        self.title = title
        self.options = list(options)  # (key character or "", label)
        for k, _ in self.options:
            if k and k in keymap.WALK:
                raise ValueError(f"menu key {k!r} is a walking key")
        self.on_choose = on_choose
        self.cursor = 0
        self.buttons = Buttons()

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if isinstance(event, (tcod.event.MouseMotion, tcod.event.MouseButtonDown)):
            what = self.buttons.at(int(event.position[0]), int(event.position[1]))
            if not isinstance(what, int):
                return None
            self.cursor = what
            if isinstance(event, tcod.event.MouseButtonDown) and event.button == tcod.event.MouseButton.LEFT:
                return Pop(then=self.on_choose(what))
            return None
        if not isinstance(event, tcod.event.KeyDown):
            return None
        hit = keymap.lookup(self.keymode, event)
        if hit is not None:
            command, name = hit
            if command == "close":
                return Pop()
            if command == "choose":
                return Pop(then=self.on_choose(self.cursor))
            self.cursor = (self.cursor + keymap.list_step(name)) % len(self.options)
            return None
        c = keys.char(event)
        for i, (k, _) in enumerate(self.options):
            if k and c == k:
                return Pop(then=self.on_choose(i))
        return None

    def on_draw(self, console: tcod.console.Console) -> None:
        hint = "Up/Down, Enter or a click; Esc: cancel"
        w = max(len(hint) + 4, max(len(label) for _, label in self.options) + 10)
        h = len(self.options) + 5
        x = (console.width - w) // 2
        y = max(0, min(14, (console.height - h) // 2))
        self.buttons.clear()
        render.panel(console, x, y, w, h, self.title)
        for i in range(len(self.options)):
            self.draw_option(console, x, y + 2 + i, w, i)
        render.put_text(console, x + 2, y + h - 2, hint, DIM, width=w - 4)

    def draw_option(self, console: tcod.console.Console, x: int, y: int, w: int, i: int) -> None:
        """Option ``i`` on row ``y`` of a panel at ``x``, ``w`` wide: "[k] label", or "> label" (one without a
        key) when chosen; the chosen one on the selection's colour; a click on the row chooses it."""
        k, label = self.options[i]
        sel = i == self.cursor
        if sel:
            console.draw_rect(x + 1, y, w - 2, 1, ord(" "), bg=render.SELECT_BG)
        if k:
            render.choice(console, x + 2, y, k, label, width=w - 4)
        else:
            marked = ("> " if sel else "  ") + label
            render.put_text(
                console, x + 2, y, marked, KEY if sel else TEXT, render.SELECT_BG if sel else None, width=w - 4
            )
        self.buttons.add(x + 1, y, w - 2, i)
