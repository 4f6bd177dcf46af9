"""The end of a game, death or victory (and its morgue file)."""

from __future__ import annotations

import tcod.console
import tcod.event

from undercroft.rules.types import OVER, Mode
from undercroft.ui import keys, render
from undercroft.ui.layout import Layout, Rect
from undercroft.ui.render import DIM, KEY, TEXT
from undercroft.ui.scenes.base import Home, Push, Transition
from undercroft.ui.scenes.game import GameScene, shows
from undercroft.ui.scenes.log import LogScene
from undercroft.ui.session import Session, end_lines


@shows(*OVER)
class EndScene(GameScene):
    """Death (or victory): cause, turn, depth and seed; the morgue file is written once, for a recorded game."""

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
            return Home(self.session)
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
        lines = end_lines(game, self.session.seed_label)
        y = r.y + 2
        y += render.put_lines(console, x + 2, y, w - 4, [(lines[0], render.BAD if dead else render.GOLD)]) + 1
        y += render.put_lines(console, x + 2, y, w - 4, [(line, TEXT) for line in lines[1:]]) + 1
        if self.session.morgue is not None:
            render.put_text(console, x + 2, y, "Morgue file:", DIM)
            for part in render.wrap_path(render.home_short(str(self.session.morgue)), w - 4):
                y += 1
                render.put_text(console, x + 2, y, part, DIM)
            y += 2
        elif self.morgue_error:
            y += render.put_lines(console, x + 2, y, w - 4, [(self.morgue_error, render.BAD)]) + 1
        render.put_lines(console, x + 2, max(y, r.y + r.h - 3), w - 4, [("Enter: title   L: the whole log", KEY)])
