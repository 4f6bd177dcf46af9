"""Watching a save from the title screen (the replay viewer), following a game still played elsewhere."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import tcod.console
import tcod.event

from undercroft import record
from undercroft.content import Content
from undercroft.ui import keys
from undercroft.ui.scenes.base import Exit, Pop, Scene, Transition


class WatchScene(Scene):
    """Watching a save from the title (the replay viewer): q or Esc goes back to the title. A game still being
    played in another window is followed: what it records is shown as it comes."""

    FOLLOW_S = 0.5  # how often a watched save that has reached its end is read again

    def __init__(self, content: Content, path: Path, back: Callable[[], Transition | None]) -> None:
        from undercroft.ui.replay_view import ReplayScene

        self.path = path
        self.back = back
        rec = record.load_recording(path, lenient_tail=True)
        self.replay = ReplayScene(content, rec)
        self.session = self.replay.session
        self.size = rec.size
        self.checked = self.replay.clock()

    def follow(self) -> None:
        """Take in the actions recorded since the save was read (another window goes on playing it)."""
        try:
            size = self.path.stat().st_size
        except OSError:
            return
        if size == self.size:
            return
        try:
            rec = record.load_recording(self.path, lenient_tail=True)
        except (record.RecordingError, OSError):
            return
        self.size = rec.size
        known = len(self.replay.actions)
        if len(rec.actions) > known:
            self.replay.actions.extend(a for _, a, _ in rec.actions[known:])
            self.replay.paused = False

    def tick_interval(self) -> float | None:
        inner = self.replay.tick_interval()
        return self.FOLLOW_S if inner is None and self.replay.at_end and not self.replay.error else inner

    def on_tick(self) -> Transition | None:
        if self.replay.at_end:
            now = self.replay.clock()
            if now - self.checked >= self.FOLLOW_S:
                self.checked = now
                self.follow()
            self.replay.last = now
            return None
        return self.replay.on_tick()

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if isinstance(event, tcod.event.KeyDown) and (keys.char(event) == "q" or keys.is_cancel(event)):
            return Pop(then=self.back())
        t = self.replay.on_event(event)
        return None if isinstance(t, Exit) else t

    def on_draw(self, console: tcod.console.Console) -> None:
        self.replay.on_draw(console)
