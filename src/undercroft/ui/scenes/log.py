"""The whole message log, at three levels of detail."""

from __future__ import annotations

import tcod.console
import tcod.event

from undercroft.narrate import Entry, Level, plural
from undercroft.ui import keymap, palette, render
from undercroft.ui.render import DIM, TEXT
from undercroft.ui.scenes.base import Pop, Scene, Transition
from undercroft.ui.session import Session

# The full log's levels, from the quiet default to everything (``a`` or Tab goes to the next).
LOG_LEVELS: list[tuple[Level, str]] = [
    ("player", "what happened"),
    ("detail", "what happened and the rolls behind it"),
    ("internal", "everything, the rules' own working too"),
]


class LogScene(Scene):
    """The whole message log, newest at the bottom; scroll with arrows, PgUp/PgDn, Home/End. ``a`` (or Tab) shows
    more: the rolls a player may want (surprise, reaction, distance), then the rules' own working (the monster
    checks that found nothing, the table cells, where a group was placed); the lines below the player's drawn
    dimmer."""

    opaque = True

    def __init__(self, session: Session) -> None:
        self.session = session
        self.offset = 0  # rows scrolled up from the bottom
        self.level = 0  # index into LOG_LEVELS
        self._cache: tuple[tuple[int, int, int, int], list[tuple[str, render.RGB]], int] | None = None

    def _rows(self, width: int) -> tuple[list[tuple[str, render.RGB]], int]:
        """The wrapped rows of the log at the chosen level, and how many messages they are."""
        log = self.session.log
        key = (self.level, len(log.full), len(log.lines), width)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1], self._cache[2]
        level = LOG_LEVELS[self.level][0]
        entries = log.view(level) if level != "player" else [Entry(t, k, "player") for t, k in log.lines]
        out: list[tuple[str, render.RGB]] = []
        for text, kind, lv in entries:
            colour = render.KIND_COLOURS.get(kind, TEXT)
            if lv != "player":
                colour = palette.fade(colour, palette.FADE_DETAIL if lv == "detail" else palette.FADE_INTERNAL)
            out.extend((part, colour) for part in render.wrap(text, width))
        self._cache = (key, out, len(entries))
        return out, len(entries)

    keymode = "log"

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if isinstance(event, tcod.event.MouseWheel):
            self.offset = max(0, self.offset + 3 * int(event.y))
            return None
        if not isinstance(event, tcod.event.KeyDown):
            return None
        hit = keymap.lookup(self.keymode, event)
        if hit is None:
            return None
        command, name = hit
        if command == "close":
            return Pop()
        if command == "more":
            self.level = (self.level + 1) % len(LOG_LEVELS)
            self.offset = 0
        elif name == "Home":
            self.offset = 10**9
        elif name == "End":
            self.offset = 0
        else:
            dy = keymap.WALK[name][1]
            self.offset = max(0, self.offset - dy * (20 if name in ("PgUp", "PgDn") else 1))
        return None

    def on_draw(self, console: tcod.console.Console) -> None:
        render.panel(console, 0, 0, console.width, console.height, f"Message log: {LOG_LEVELS[self.level][1]}")
        rows, n = self._rows(console.width - 4)
        view = console.height - 5
        self.offset = min(self.offset, max(0, len(rows) - view))
        end = len(rows) - self.offset
        for i, (text, colour) in enumerate(rows[max(0, end - view) : end]):
            render.put_text(console, 2, 1 + i, text, colour)
        more = (
            "a: back to what happened"
            if self.level == len(LOG_LEVELS) - 1
            else "a: more (the rolls, then the rules' own working)"
        )
        render.put_text(console, 2, console.height - 3, f"{plural(n, 'message')}. {more}.", DIM)
        render.put_text(
            console, 2, console.height - 2, "Up/Down, PgUp/PgDn, Home/End, the wheel scroll; Esc closes.", DIM
        )
