"""The end of a game, death or victory (and its morgue file)."""

from __future__ import annotations

import functools
from typing import NamedTuple

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

Section = list[tuple[str, render.RGB]]  # a section of the end screen: its rows, each with its colour


class Plan(NamedTuple):
    """The end panel as laid out for one size (:meth:`EndScene.plan`)."""

    rect: Rect
    sections: list[Section]
    spaced: bool  # a blank row between sections
    below: bool  # the command that plays on on the screen's last row


END_W = 56  # the end panel's widest (a short console: wide enough for every section, not the map beside it)
END_MAP = 30  # the columns of map the end panel leaves at least (the party and what killed it)
BELOW = "Play on from just before it: the command on the last row."


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
        self._plan: tuple[tuple[int, int, bool], Plan] | None = None

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
        return self.plan(layout)[0]  # beside the party and what killed it, never over them

    def below(self, layout: Layout) -> bool:
        """Whether the command that plays on stands on the screen's last row, the whole width to itself: when it
        is longer than the widest panel's rows (a save's name carries its seed, up to nine digits from the title's
        random one), so that it is one line to copy, never wrapped."""
        line = self.turning[1]
        widest = max(layout.panel_w, min(END_W, layout.width - END_MAP)) - 4
        return bool(self.turning[0] and line) and widest < len(line) <= layout.width - 2

    def plan(self, layout: Layout) -> Plan:
        """Where the panel goes, what it says, whether a blank row parts its sections and whether the command that
        plays on stands on the last row (:meth:`below`), worked out once a
        size: the narrowest panel (from the layout's own, to :data:`END_MAP` columns of map left) that holds every
        section, with the morgue file's whole path where it fits, else its name; only when even the widest cannot,
        the command that plays on is left to the morgue file. A panel that takes its side's whole height ends a
        row short when the command stands on the last row (:meth:`below`)."""
        right = self.panel_right()
        key = (layout.width, layout.height, right)
        if self._plan is not None and self._plan[0] == key:
            return self._plan[1]
        widths = range(layout.panel_w, max(layout.panel_w, min(END_W, layout.width - END_MAP)) + 1, 2)
        tries = [(command, w, whole) for command in (True, False) for w in widths for whole in (True, False)]
        below = self.below(layout)
        plan = None
        for command, w, whole in tries:
            r = layout.panel(right, w)
            if command and below and r.y + r.h == layout.height:
                r = Rect(r.x, r.y, r.w, r.h - 1)
            sections = self.sections(w - 4, whole_path=whole, command=command, below=below)
            rows = sum(len(s) for s in sections)
            room = r.h - 4  # the rows between the title's blank row and the key hint
            if rows <= room:
                plan = Plan(r, sections, rows + len(sections) - 1 <= room, command and below)
                break
        if plan is None:  # (a long end at 80x24): the narrowest, its last sections left out (the morgue file's name
            r = layout.panel(right)  # first: the log names it too), so that nothing runs over the frame
            sections = self.sections(r.w - 4, whole_path=False, command=False)
            while len(sections) > 1 and sum(len(x) for x in sections) > r.h - 4:
                sections.pop()
            plan = Plan(r, sections, False, False)
        self._plan = (key, plan)
        return plan

    def on_draw(self, console: tcod.console.Console) -> None:
        game = self.session.game
        dead = game.state.mode == Mode.DEAD
        layout, r = self.draw_world(console)
        assert r is not None
        x, w = r.x, r.w
        render.panel(console, r.x, r.y, r.w, r.h, "Death" if dead else "Victory")
        _, sections, spaced, below = self.plan(layout)
        y = r.y + 2
        for section in sections:
            for text, colour in section:
                render.put_text(console, x + 2, y, text, colour, width=w - 4)
                y += 1
            y += int(spaced)
        render.put_lines(console, x + 2, r.y + r.h - 2, w - 4, [("Enter: title   L: the whole log", KEY)])
        if below:  # the command on the last row, the whole width its own (the log a row shorter above it: its
            y = layout.height - 1  # last message, the end the panel tells, left to L when it does not fit whole)
            x0, x1 = layout.text_columns(r)
            console.rgb[x0:x1, layout.log_y :] = render.SHROUD
            log, rows = self.session.log, layout.log_rows - 1
            if log.lines and len(render.wrap(log.lines[-1][0], x1 - x0 - 2)) <= rows:
                render.draw_log(console, log.lines, layout.log_y, rows, fresh=log.fresh, x=x0, width=x1 - x0)
            console.rgb[:, y] = render.SHROUD
            render.put_text(console, 1, y, self.turning[1], render.WHITE, width=layout.width - 2)

    @functools.cached_property
    def turning(self) -> tuple[list[str], str]:
        """Where the run turned and the command that plays on from there (worked out once: a game is replayed)."""
        return self.session.turning_lines(), self.session.turning_command()

    def sections(self, w: int, *, whole_path: bool, command: bool = True, below: bool = False) -> list[Section]:
        """The end screen's text in rows of ``w``, by section: the end, the facts, where it turned and
        (``command``) the command that plays on from there (``below``: where it is, when it is longer than ``w``),
        the morgue file (``whole_path``: its whole path, else its name and the folder's)."""
        game = self.session.game
        dead = game.state.mode == Mode.DEAD
        lines = end_lines(game, self.session.seed_label)

        def rows(texts: list[str], colour: render.RGB) -> list[tuple[str, render.RGB]]:
            return [(part, colour) for t in texts for part in render.wrap(t, w)]

        out = [rows(lines[:1], render.BAD if dead else render.GOLD), rows(lines[1:], TEXT)]
        turning = self.turning[0]
        if turning:
            out.append([("Where it turned:", KEY), *rows(turning, TEXT)])
            if command and (line := self.turning[1]):
                if below and len(line) > w:
                    out.append([(p, KEY) for p in render.wrap(BELOW, w)])
                else:
                    wrapped = render.wrap_path(line, w, " /-")
                    out.append([("Play on from just before it:", KEY), *((p, TEXT) for p in wrapped)])
        if self.session.morgue is not None:
            where = render.home_short(str(self.session.morgue))
            if whole_path:
                out.append([("Morgue file:", DIM), *((p, DIM) for p in render.wrap_path(where, w))])
            else:  # its name, after the label on the same row
                named = f"Morgue file (the morgue folder): {self.session.morgue.name}"
                out.append([(p, DIM) for p in render.wrap_path(named, w, " -")])
        elif self.morgue_error:
            out.append(rows([self.morgue_error], render.BAD))
        return out
