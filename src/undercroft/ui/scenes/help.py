"""The help screen: every key, by screen, made from the keymap; then what the status bar's words mean."""

from __future__ import annotations

import tcod.console
import tcod.event
from tcod.event import KeySym

from undercroft.ui import keymap, render
from undercroft.ui.render import DIM, KEY, RGB, TEXT, TITLE
from undercroft.ui.scenes.base import Pop, Scene, Transition

#: What the status bar says, after the keys (the words, what they mean).
STATUS_BAR: tuple[tuple[str, str], ...] = (
    ("HP 12/12", "hit points now and at most; they come back by resting (z) or drinking"),
    (
        "Lv3 of 15",
        "the undercroft: your level and the highest there is (Lv15 max once reached); renown from kills and from "
        "treasure carried down the stairs raises it, and each level costs more renown than the last; kills on a "
        "floor you have far outgrown give less",
    ),
    ("Gold  Level  Turn", "your purse, the floor you are on (1 is the first) and the actions taken"),
)


class HelpScene(Scene):
    """Every key, by screen, made from the keymap (:mod:`undercroft.ui.keymap`). The walking keys and the mouse
    wheel scroll it when it is longer than the screen; any other key closes it."""

    opaque = True

    def __init__(self) -> None:
        self.offset = 0  # rows scrolled down
        self.page = 1  # rows shown, as last drawn

    def lines(self, width: int) -> list[tuple[int, str, RGB]]:
        """The help as rows to draw: (indent, text, colour); the keys in a column, what they do wrapped beside."""
        col = 26
        out: list[tuple[int, str, RGB]] = []
        for section, rows in keymap.help_sections():
            out.append((0, section, TITLE))
            for k, what in rows:
                parts = render.wrap(what, width - col)
                kk = k if len(k) <= col - 3 else k[: col - 4] + "~"
                out.append((2, f"{kk:<{col - 2}}" + (parts[0] if parts else ""), KEY))
                out.extend((col, part, TEXT) for part in parts[1:])
            out.append((0, "", TEXT))
        out.append((0, "The status bar", TITLE))
        for k, what in STATUS_BAR:
            parts = render.wrap(what, width - col)
            out.append((2, f"{k:<{col - 2}}" + (parts[0] if parts else ""), KEY))
            out.extend((col, part, TEXT) for part in parts[1:])
        return out

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if isinstance(event, tcod.event.MouseWheel):
            self.offset = max(0, self.offset - 3 * int(event.y))
            return None
        if isinstance(event, tcod.event.KeyDown) and event.sym not in _MODIFIER_KEYS:
            name = keymap.key_name(event)
            d = keymap.direction(name) if name is not None else None
            if d is not None and d[1] != 0:
                step = self.page if name in ("PgUp", "PgDn") else 1
                self.offset = max(0, self.offset + d[1] * step)
                return None
            return Pop()
        return None

    def on_draw(self, console: tcod.console.Console) -> None:
        render.panel(console, 0, 0, console.width, console.height, "Help")
        rows = self.lines(console.width - 6)
        self.page = max(1, console.height - 4)
        self.offset = min(self.offset, max(0, len(rows) - self.page))
        for i, (indent, text, colour) in enumerate(rows[self.offset : self.offset + self.page]):
            if colour == KEY and indent == 2:  # the keys bright, what they do in the text colour
                render.put_text(console, 2 + indent, 1 + i, text[:24], KEY)
                render.put_text(console, 2 + 26, 1 + i, text[24:], TEXT, width=console.width - 30)
            else:
                render.put_text(console, 2 + indent, 1 + i, text, colour, width=console.width - 4 - indent)
        more = len(rows) > self.page
        hint = "Any key: back. docs/PLAYING.md says more."
        if more:
            hint = "Up/Down, PgUp/PgDn, wheel: scroll. " + hint
        render.put_text(console, 2, console.height - 2, hint, DIM, width=console.width - 4)


_MODIFIER_KEYS = {
    KeySym.LSHIFT,
    KeySym.RSHIFT,
    KeySym.LCTRL,
    KeySym.RCTRL,
    KeySym.LALT,
    KeySym.RALT,
    KeySym.LGUI,
    KeySym.RGUI,
}
