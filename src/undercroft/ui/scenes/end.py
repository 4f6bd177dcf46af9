"""The end of a game, death or victory (and its morgue file)."""

from __future__ import annotations

import tcod.console
import tcod.event

from undercroft.rules.types import OVER, Mode
from undercroft.ui import keys, render
from undercroft.ui.layout import Layout, Rect
from undercroft.ui.render import DIM, KEY, TEXT
from undercroft.ui.scenes.base import Push, Transition
from undercroft.ui.scenes.game import GameScene, leave, shows
from undercroft.ui.scenes.log import LogScene
from undercroft.ui.session import Session, end_lines


@shows(*OVER)
class EndScene(GameScene):
    """Death (or victory): cause, turn, depth, seed and score, where the run turned (a recorded game lost after a
    choice: :meth:`Session.turning_lines`); the morgue file is written once, for a recorded game."""

    def __init__(self, session: Session, *, write_morgue: bool | None = None) -> None:
        super().__init__(session)
        self.mode = session.mode
        self.morgue_error = ""
        if write_morgue is None:
            write_morgue = session.keep_morgue
        if write_morgue and session.morgue is None:
            try:
                session.write_morgue()
            except OSError as exc:
                self.morgue_error = f"The morgue file could not be written: {exc.strerror or exc}"

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if not isinstance(event, tcod.event.KeyDown):
            return None
        c = keys.char(event)
        if c == "L":
            return Push(LogScene(self.session))
        if keys.is_confirm(event) or keys.is_cancel(event) or c == " ":
            return leave(self.session)
        return None

    def panel_rect(self, layout: Layout) -> Rect | None:
        return layout.panel(self.panel_right())  # beside the party and what killed it, never over them

    def on_draw(self, console: tcod.console.Console) -> None:
        game = self.session.game
        dead = game.state.mode == Mode.DEAD
        _, r = self.draw_world(console)
        assert r is not None
        x, w = r.x, r.w
        render.panel(console, r.x, r.y, r.w, r.h, "Death" if dead else "Victory")
        sections = self.sections(w - 4, whole_path=True)
        room = r.h - 5  # the rows between the title and the key hint
        spaced = sum(len(s) for s in sections) + len(sections) - 1 <= room
        if not spaced and sum(len(s) for s in sections) > room:
            sections = self.sections(w - 4, whole_path=False)  # the morgue file by its name alone
        if sum(len(s) for s in sections) > room:
            sections = self.sections(w - 4, whole_path=False, command=False)  # the command left to the morgue
        y = r.y + 2
        for section in sections:
            for text, colour in section:
                render.put_text(console, x + 2, y, text, colour, width=w - 4)
                y += 1
            y += int(spaced)
        render.put_lines(console, x + 2, max(y, r.y + r.h - 3), w - 4, [("Enter: title   L: the whole log", KEY)])

    def sections(self, w: int, *, whole_path: bool, command: bool = True) -> list[list[tuple[str, render.RGB]]]:
        """The end screen's text in rows of ``w``, by section: the end, the facts, where it turned and
        (``command``) the command that plays on from there, the morgue file (``whole_path``: its whole path, else
        its name and the folder's)."""
        game = self.session.game
        dead = game.state.mode == Mode.DEAD
        lines = end_lines(game, self.session.seed_label)

        def rows(texts: list[str], colour: render.RGB) -> list[tuple[str, render.RGB]]:
            return [(part, colour) for t in texts for part in render.wrap(t, w)]

        out = [rows(lines[:1], render.BAD if dead else render.GOLD), rows(lines[1:], TEXT)]
        turning = self.session.turning_lines()
        if turning:
            out.append([("Where it turned:", KEY), *rows(turning, TEXT)])
            if command and (line := self.session.turning_command()):
                out.append(
                    [("Play on from just before it:", KEY), *((p, TEXT) for p in render.wrap_path(line, w, " /"))]
                )
        if self.session.morgue is not None:
            where = render.home_short(str(self.session.morgue))
            path = where if whole_path else f"{self.session.morgue.name} (the morgue folder)"
            out.append([("Morgue file:", DIM), *((p, DIM) for p in render.wrap_path(path, w))])
        elif self.morgue_error:
            out.append(rows([self.morgue_error], render.BAD))
        return out
