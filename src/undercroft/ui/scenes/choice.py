"""A menu under a few lines of explanation: the title's answers when Continue cannot go on as asked."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import tcod.console
import tcod.event

from undercroft.ui import render
from undercroft.ui.render import DIM
from undercroft.ui.scenes.base import Transition
from undercroft.ui.scenes.menu import MenuScene


class ChoiceScene(MenuScene):
    """A menu under a few lines of explanation (why Continue cannot go on as asked)."""

    def __init__(
        self,
        title: str,
        lines: Sequence[str],
        options: Sequence[tuple[str, str]],
        on_choose: Callable[[int], Transition | None],
    ) -> None:
        super().__init__(title, options, on_choose)
        self.lines = list(lines)

    def on_draw(self, console: tcod.console.Console) -> None:
        w = min(console.width - 2, max(50, max(len(label) for _, label in self.options) + 10))
        text = [row for line in self.lines for row in render.wrap(line, w - 4)]
        room = max(0, console.height - len(self.options) - 7)
        text = text[:room]
        h = len(text) + len(self.options) + 6
        x = (console.width - w) // 2
        y = max(0, min(12, (console.height - h) // 2))
        self.buttons.clear()
        render.panel(console, x, y, w, h, self.title)
        for i, row in enumerate(text):
            render.put_text(console, x + 2, y + 2 + i, row, render.TEXT, width=w - 4)
        oy = y + 3 + len(text)
        for i in range(len(self.options)):
            self.draw_option(console, x, oy + i, w, i)
        render.put_text(console, x + 2, y + h - 2, "Up/Down, Enter, a key or a click; Esc: back", DIM, width=w - 4)
