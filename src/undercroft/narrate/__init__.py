"""Narration: engine events -> the player's words (see :mod:`undercroft.narrate.narrator`).

``levels`` says who each line is for, ``refusals`` words the engine's refusal codes, ``narrator`` holds the
:class:`Narrator` that words every event once, for every reader, ``words`` what it names things with, and
``lines`` the line of each event class, a module a part of the rules as in ``rules/events/``."""

from undercroft.narrate.levels import EVENT_LEVELS, LEVELS, ROLL_LEVELS, Entry, Level, LogLine, Unseen
from undercroft.narrate.lines.end import finale
from undercroft.narrate.narrator import Narrator, untold
from undercroft.narrate.refusals import REFUSALS
from undercroft.narrate.words import moves_left, plural, time_left

__all__ = [
    "EVENT_LEVELS",
    "LEVELS",
    "REFUSALS",
    "ROLL_LEVELS",
    "Entry",
    "Level",
    "LogLine",
    "Narrator",
    "Unseen",
    "finale",
    "moves_left",
    "plural",
    "time_left",
    "untold",
]
