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
    scene below), Esc cancels. ``hint`` may describe the text typed so far (for example the odds of a bribe).
    ``initial`` is a suggestion, shown selected: Enter takes it, the first character typed replaces it (``400``
    then ``1`` is ``1``, never ``4001``), Backspace edits it."""

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
        self.prefilled = bool(initial)  # a suggestion: the first character typed replaces it (Backspace edits it)
        self.hint = hint

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if isinstance(event, tcod.event.TextInput):
            if self.prefilled and any(c.isprintable() and (c.isdigit() or not self.digits_only) for c in event.text):
                self.text, self.prefilled = "", False  # (the "$" that opened a bribe's prompt replaces nothing)
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
                self.prefilled = False
        return None

    def on_draw(self, console: tcod.console.Console) -> None:
        w = min(50, console.width)
        x = (console.width - w) // 2
        question = render.wrap(self.question, w - 4)
        hint = render.wrap(self.hint(self.text), w - 4) if self.hint is not None else []
        hint = [line for line in hint if line]
        h = 6 + len(question) + max(1, len(hint))  # the hint's rows kept even when empty: the box does not jump
        y = max(0, min(16, (console.height - h) // 2))
        render.panel(console, x, y, w, h, self.title)
        row = y + 2
        for line in question:
            render.put_text(console, x + 2, row, line, TEXT, width=w - 4)
            row += 1
        shown = self.text[-(w - 8) :]
        render.put_text(console, x + 2, row, "> " + shown + "_", KEY, width=w - 4)
        if self.prefilled:  # the suggestion, selected: typing replaces it
            render.put_text(console, x + 4, row, shown, KEY, render.SELECT_BG)
        for i, line in enumerate(hint):
            render.put_text(console, x + 2, row + 1 + i, line, DIM, width=w - 4)
        render.put_text(console, x + 2, y + h - 2, "Enter: ok   Esc: cancel", DIM)


class NoticeScene(Scene):
    """A short notice over the scene below (why a dialog could not open). Only Enter, Esc or Space close it;
    every other key is held here, so what was typed for the dialog (``$100``) neither walks nor rests."""

    opaque = False
    wants_text = True

    def __init__(self, title: str, text: str) -> None:
        self.title = title
        self.text = text

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if isinstance(event, tcod.event.KeyDown) and (
            keys.is_cancel(event) or keys.is_confirm(event) or event.sym == KeySym.SPACE
        ):
            return Pop()
        return None

    def on_draw(self, console: tcod.console.Console) -> None:
        w = min(50, console.width)
        x = (console.width - w) // 2
        lines = render.wrap(self.text, w - 4)
        h = len(lines) + 5
        y = max(0, min(16, (console.height - h) // 2))
        render.panel(console, x, y, w, h, self.title)
        for i, line in enumerate(lines):
            render.put_text(console, x + 2, y + 2 + i, line, TEXT, width=w - 4)
        render.put_text(console, x + 2, y + h - 2, "Enter: ok", DIM)
