"""A recorded game as an asciinema v2 recording (``undercroft replay FILE --cast OUT.cast``): a run to share.

The frames are the terminal front end's own (:class:`undercroft.term.app.Screen`: the escape codes of what changed
since the last frame) of the replay viewer (:class:`undercroft.ui.replay_view.ReplayScene`), one a recorded
action, at ``speed`` actions a second; a frame whose action brought something to read (a meeting, a fight, a
floor, the end) is held ``hold`` seconds more, never more than the ``idle`` cap, which the header also gives
asciinema (``idle_time_limit``). It ends on the end screen, where the run turned, held ``idle`` seconds.

The format (asciinema's "asciicast v2"): a first line, a JSON object (``version`` 2, ``width``, ``height``, ...),
then one line per frame, a JSON array ``[seconds, "o", text]``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import IO

import tcod.console

from undercroft import record
from undercroft.content import Content
from undercroft.term.app import Screen
from undercroft.ui.replay_view import SPEEDS, ReplayScene

QUIET = frozenset({"move", "enter", "roll", "rest"})  # events that bring nothing to read: no hold


@dataclass(frozen=True)
class CastOptions:
    speed: float = 8.0  # recorded actions a second
    idle: float = 2.0  # the longest a frame is held (and asciinema's idle_time_limit)
    hold: float = 1.0  # the extra time of a frame with something to read
    size: tuple[int, int] = (80, 24)


def write_cast(content: Content, path: Path, out: Path, options: CastOptions = CastOptions()) -> int:
    """Write the recording ``path`` to ``out`` as an asciinema v2 recording; returns the number of frames."""
    rec = record.load_recording(path)
    width, height = options.size
    with out.open("w", encoding="utf-8", newline="\n") as f:
        header = {
            "version": 2,
            "width": width,
            "height": height,
            "idle_time_limit": options.idle,
            "title": f"Undercroft: {path.name}",
            "env": {"TERM": "xterm-256color"},
        }
        f.write(json.dumps(header) + "\n")
        return _frames(content, rec, f, options)


def _frames(content: Content, rec: record.Recording, f: IO[str], options: CastOptions) -> int:
    nearest = min(range(len(SPEEDS)), key=lambda i: abs(SPEEDS[i] - options.speed))  # (what the bar says)
    scene = ReplayScene(content, rec, speed=nearest, paused=False)  # (never ticked: stepped here, a frame each)
    screen = Screen(truecolor=False)
    width, height = options.size
    console = tcod.console.Console(width, height, order="F")
    clock = 0.0
    frames = 0

    def emit(text: str) -> None:
        nonlocal frames
        if text:
            f.write(json.dumps([round(clock, 3), "o", text]) + "\n")
            frames += 1

    def draw() -> str:
        console.clear()
        scene.on_draw(console)
        return screen.frame(console)

    emit(screen.resize(width, height) + draw())
    step = 1.0 / options.speed
    while not scene.at_end:
        if not scene.step():
            break  # (a desync or a crash: the viewer says so on the screen, the last frame)
        busy = any(e.type not in QUIET for e in scene.session.last_events)
        clock += step
        emit(draw())
        if busy:
            clock += min(options.hold, options.idle)
    clock += options.idle
    emit(" \b")  # (the end screen stays this long: a last, blank output)
    return frames
