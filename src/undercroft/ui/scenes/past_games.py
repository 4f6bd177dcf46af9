"""The past games: every finished, crashed or abandoned game, by date or as a high-score table."""

from __future__ import annotations

from pathlib import Path

import tcod.console
import tcod.event

from undercroft import saves as saves_mod
from undercroft.content import Content
from undercroft.ui import keys, render
from undercroft.ui.render import DIM, FAINT, KEY, TITLE
from undercroft.ui.scenes.base import Pop, Scene, Transition


class PastGamesScene(Scene):
    """The morgue index: every finished, crashed or abandoned game; sorted by date or as a high-score table."""

    TOP = 5  # first row of the table body

    def __init__(self, content: Content, saves: Path | None = None) -> None:
        self.content = content
        self.saves = saves
        self.sort = "date"
        self.offset = 0
        self.cursor = 0
        self.notes: list[str] = []
        self.games: list[saves_mod.GameInfo] = []
        self._scan()

    def _scan(self) -> None:
        self.notes = []
        try:
            self.games = saves_mod.past_games(self.saves, content=self.content, notes=self.notes, sort=self.sort)
        except OSError as exc:
            self.games = []
            self.notes.append(f"cannot read the saves folder: {exc.strerror or exc}")
        self.cursor = max(0, min(self.cursor, len(self.games) - 1))

    def _rows(self, console: tcod.console.Console) -> int:
        return max(1, console.height - self.TOP - 6)

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if isinstance(event, tcod.event.MouseButtonDown):
            i = int(event.position[1]) - self.TOP
            if i >= 0 and self.offset + i < len(self.games):
                self.cursor = self.offset + i
            return None
        if not isinstance(event, tcod.event.KeyDown):
            return None
        c = keys.char(event)
        if c == "d" or c == "t":
            self.sort = "date" if c == "d" else "depth"
            self.offset = self.cursor = 0
            self._scan()
            return None
        if event.sym in (tcod.event.KeySym.UP, tcod.event.KeySym.DOWN) and self.games:
            self.cursor = max(
                0, min(len(self.games) - 1, self.cursor + (-1 if event.sym == tcod.event.KeySym.UP else 1))
            )
            return None
        if c == "q" or keys.is_cancel(event) or keys.is_confirm(event) or event.sym == tcod.event.KeySym.SPACE:
            return Pop()
        return None

    def on_draw(self, console: tcod.console.Console) -> None:
        console.clear()
        title = "Past games: " + ("newest first" if self.sort == "date" else "high scores (deepest, then most turns)")
        render.put_text(console, 2, 1, title, TITLE)
        render.put_text(
            console,
            2,
            2,
            "d: by date   t: high scores (depth, turns)   Up/Down: choose   Esc: back",
            DIM,
            width=console.width - 4,
        )
        if not self.games:
            render.put_text(console, 2, self.TOP, "No game has ended yet.", DIM)
        else:
            lines = saves_mod.format_table(self.games, self.content, max_width=console.width - 4)
            render.put_text(console, 2, self.TOP - 1, lines[0], KEY)
            rows = self._rows(console)
            if self.cursor < self.offset:
                self.offset = self.cursor
            elif self.cursor >= self.offset + rows:
                self.offset = self.cursor - rows + 1
            for i, line in enumerate(lines[1 + self.offset : 1 + self.offset + rows]):
                chosen = self.offset + i == self.cursor
                render.put_text(console, 2, self.TOP + i, line, render.TEXT if chosen else DIM)
            g = self.games[self.cursor]
            render.put_text(
                console,
                2,
                console.height - 4,
                f"Watch it: undercroft replay {g.path} --watch",
                FAINT,
                width=console.width - 4,
            )
        if self.notes:
            render.put_text(
                console,
                2,
                console.height - 2,
                self.notes[0] + (f" (+{len(self.notes) - 1} more)" if len(self.notes) > 1 else ""),
                FAINT,
                width=console.width - 4,
            )
