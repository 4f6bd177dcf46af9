"""A prompt over the scene below: type a line (a number, a seed)."""

from __future__ import annotations

from collections.abc import Callable

import tcod.console
import tcod.event
from tcod.event import KeySym

from undercroft.ui import keys, render
from undercroft.ui.render import DIM, KEY, TEXT
from undercroft.ui.scenes.base import Pop, Scene, Transition


class PromptScene(Scene):
    """Type a line (a number, a seed); Enter hands it to ``on_done`` (which returns the next transition for the
    scene below), Esc cancels. ``hint`` may describe the text typed so far (for example the odds of a bribe)."""

    opaque = False
    wants_text = True

    def __init__(
        self,
        title: str,
        question: str,
        on_done: Callable[[str], Transition | None],
        *,
        digits_only: bool = False,
        max_len: int = 20,
        initial: str = "",
        hint: Callable[[str], str] | None = None,
    ) -> None:
        self.title = title
        self.question = question
        self.on_done = on_done
        self.digits_only = digits_only
        self.max_len = max_len
        self.text = initial
        self.hint = hint

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if isinstance(event, tcod.event.TextInput):
            for c in event.text:
                if len(self.text) >= self.max_len or (self.digits_only and not c.isdigit()) or not c.isprintable():
                    continue
                self.text += c
        elif isinstance(event, tcod.event.KeyDown):
            if keys.is_cancel(event):
                return Pop()
            if keys.is_confirm(event):
                if not self.text.strip():
                    return None
                return Pop(then=self.on_done(self.text.strip()))
            if event.sym == KeySym.BACKSPACE:
                self.text = self.text[:-1]
        return None

    def on_draw(self, console: tcod.console.Console) -> None:
        w = 50
        x = (console.width - w) // 2
        y = max(0, min(16, (console.height - 8) // 2))
        render.panel(console, x, y, w, 8, self.title)
        render.put_text(console, x + 2, y + 2, self.question, TEXT, width=w - 4)
        render.put_text(console, x + 2, y + 3, "> " + self.text + "_", KEY, width=w - 4)
        if self.hint is not None:
            render.put_text(console, x + 2, y + 4, self.hint(self.text), DIM, width=w - 4)
        render.put_text(console, x + 2, y + 6, "Enter: ok   Esc: cancel", DIM)
