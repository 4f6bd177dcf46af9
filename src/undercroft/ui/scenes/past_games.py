"""The past games: every finished, crashed or abandoned game, by date or depth, and the high-score tables."""

from __future__ import annotations

import time
from pathlib import Path

import tcod.console
import tcod.event

from undercroft.content import Content
from undercroft.record import saves as saves_mod
from undercroft.ui import keys, render
from undercroft.ui.render import DIM, FAINT, KEY, TITLE
from undercroft.ui.scenes.base import Pop, Scene, Transition

SCAN_S = 0.25  # seconds of replaying saves when the list is made (the rest goes on between frames)
TICK_S = 0.1  # seconds of replaying per frame after that
READING = "Reading the saves:"


class PastGamesScene(Scene):
    """The morgue index: every finished, crashed or abandoned game, sorted by date or by depth; or the high-score
    tables, one per ruleset (``s``)."""

    TOP = 5  # first row of the table body

    def __init__(self, content: Content, saves: Path | None = None) -> None:
        self.content = content
        self.saves = saves
        self.sort = "date"  # "date", "depth" or "score" (the high-score tables)
        self.offset = 0
        self.cursor = 0
        self.notes: list[str] = []
        self.games: list[saves_mod.GameInfo] = []
        self.tables: dict[str, list[saves_mod.GameInfo]] = {}
        self.shown: list[int | None] = []  # the game of each row drawn (None: a ruleset's title)
        self.every: list[saves_mod.GameInfo] = []  # every past game, as listed (some maybe not replayed yet)
        self.checker: saves_mod.Checker | None = None  # replays those a frame at a time (see on_tick)
        self._scan()

    def _scan(self) -> None:
        self.notes = []
        work = saves_mod.Pass(deadline=time.monotonic() + SCAN_S)
        try:
            self.every = saves_mod.past_games(self.saves, content=self.content, notes=self.notes, work=work)
        except OSError as exc:
            self.every = []
            self.notes.append(f"cannot read the saves folder: {exc.strerror or exc}")
        self._arrange()

    def _arrange(self) -> None:
        """The rows for the sort chosen, from :attr:`every`; how many games are still to replay said first."""
        self.notes = [n for n in self.notes if not n.startswith(READING)]
        if waiting := sum(not g.checked for g in self.every):
            self.notes.insert(0, f"{READING} {waiting:,} still to replay (their results are unverified until then)...")
        self.games = saves_mod.sort_games(self.every, "date" if self.sort == "score" else self.sort)
        if self.sort == "score":
            self.tables = saves_mod.high_scores(self.games, self.content)
            if note := saves_mod.unverified_note(self.games):
                self.notes.insert(1 if waiting else 0, note)
            self.games = [g for games in self.tables.values() for g in games]
        self.cursor = max(0, min(self.cursor, len(self.games) - 1))

    def tick_interval(self) -> float | None:
        return 0.01 if any(not g.checked for g in self.every) else None

    def on_tick(self) -> Transition | None:
        """Replay a slice of the games the listing left unchecked."""
        if self.checker is None:
            self.checker = saves_mod.Checker(self.saves, self.content)
        self.every = self.checker.slice(self.every, TICK_S)
        if all(g.checked for g in self.every):
            self.checker.close()
            self.checker = None
        self._arrange()
        return None

    def _rows(self, console: tcod.console.Console) -> int:
        return max(1, console.height - self.TOP - 6)

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if isinstance(event, tcod.event.MouseButtonDown):
            row = int(event.position[1]) - self.TOP
            if 0 <= row < len(self.shown) and (i := self.shown[row]) is not None:
                self.cursor = i
            return None
        if not isinstance(event, tcod.event.KeyDown):
            return None
        c = keys.char(event)
        if c in ("d", "t", "s"):
            self.sort = {"d": "date", "t": "depth", "s": "score"}[c]
            self.offset = self.cursor = 0
            self._arrange()
            return None
        if event.sym in (tcod.event.KeySym.UP, tcod.event.KeySym.DOWN) and self.games:
            self.cursor = max(
                0, min(len(self.games) - 1, self.cursor + (-1 if event.sym == tcod.event.KeySym.UP else 1))
            )
            return None
        if c == "q" or keys.is_cancel(event) or keys.is_confirm(event) or event.sym == tcod.event.KeySym.SPACE:
            return Pop()
        return None

    def _lines(self, width: int) -> tuple[str, list[tuple[str, int | None]]]:
        """(the column header, the rows: each line with the index of its game, None for a ruleset's title)."""
        if self.sort != "score":
            lines = saves_mod.format_table(self.games, self.content, max_width=width)
            return lines[0], [(line, i) for i, line in enumerate(lines[1:])]
        out: list[tuple[str, int | None]] = []
        head = ""
        k = 0
        for rs, games in self.tables.items():
            head, *rows = saves_mod.format_scores(games, max_width=width)
            out.append((saves_mod.ruleset_title(self.content, rs), None))
            out.extend((line, k + i) for i, line in enumerate(rows))
            k += len(games)
        return head, out

    def _draw_rows(self, console: tcod.console.Console) -> None:
        head, lines = self._lines(console.width - 4)
        render.put_text(console, 2, self.TOP - 1, head, KEY)
        rows = self._rows(console)
        at = next(n for n, (_, i) in enumerate(lines) if i == self.cursor)
        if at < self.offset:
            self.offset = max(0, at - 1 if at and lines[at - 1][1] is None else at)
        elif at >= self.offset + rows:
            self.offset = at - rows + 1
        self.shown = [i for _, i in lines[self.offset : self.offset + rows]]
        for n, (line, i) in enumerate(lines[self.offset : self.offset + rows]):
            colour = TITLE if i is None else render.TEXT if i == self.cursor else DIM
            render.put_text(console, 2, self.TOP + n, line, colour)

    def on_draw(self, console: tcod.console.Console) -> None:
        console.clear()
        title = (
            "Past games: "
            + {
                "date": "newest first",
                "depth": "deepest first, then most turns",
                "score": "high scores, by ruleset",
            }[self.sort]
        )
        render.put_text(console, 2, 1, title, TITLE)
        render.put_text(
            console,
            2,
            2,
            "d: by date   t: by depth   s: high scores   Up/Down: choose   Esc: back",
            DIM,
            width=console.width - 4,
        )
        if not self.games:
            self.shown = []
            none = "No finished game has a score yet." if self.sort == "score" else "No game has ended yet."
            render.put_text(console, 2, self.TOP, none, DIM)
        else:
            self._draw_rows(console)
            g = self.games[self.cursor]
            watch = f"Watch it: undercroft replay {render.home_short(str(g.path))} --watch"
            for i, part in enumerate(render.wrap_path(watch, console.width - 4)[:3]):  # (rows height-5 to -3)
                render.put_text(console, 2, console.height - 5 + i, part, FAINT, width=console.width - 4)
        if self.notes:
            render.put_text(
                console,
                2,
                console.height - 2,
                self.notes[0] + (f" (+{len(self.notes) - 1} more)" if len(self.notes) > 1 else ""),
                FAINT,
                width=console.width - 4,
            )
