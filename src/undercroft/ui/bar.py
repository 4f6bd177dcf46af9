"""The status bar and the newest messages of the log, drawn alike by the game scenes (across the screen below the
map, or beside a side panel) and by the look (beside its own panel, over what the scene below drew)."""

from __future__ import annotations

import tcod.console

from undercroft.ui import render
from undercroft.ui.layout import Layout
from undercroft.ui.session import Session


def draw_bar_and_log(
    console: tcod.console.Console, session: Session, layout: Layout, columns: tuple[int, int], *, whole: bool = False
) -> None:
    """The session's status bar and log in the columns ``[x0, x1)`` (``layout.text_columns``): with ``whole``, the
    newest message only if it fits whole (beside a panel that has the screen's attention: ``render.draw_log``).
    A save that failed (a full disk) is said on the bar as long as it lasts, whatever panel is open (the log says
    why)."""
    x0, x1 = columns
    render.draw_status(console, session.game, layout.status_y, seed=session.seed_label, x=x0, width=x1 - x0)
    if session.save_problem():
        render.put_text(console, x1 - 12, layout.status_y, " NOT SAVED ", render.BAD, render.STATUS_BG)
    log = session.log
    render.draw_log(
        console, log.lines, layout.log_y, layout.log_rows, fresh=log.fresh, x=x0, width=x1 - x0, whole=whole
    )
