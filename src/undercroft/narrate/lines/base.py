"""The table of lines: :data:`LINES`, the line of each event class, each registered by :func:`line` in the module
of ``narrate/lines/`` named as the events' module (``rules/events/chase.py``: ``narrate/lines/chase.py``), and
:data:`SILENT`, the classes with none."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from undercroft.narrate.words import Words
from undercroft.rules import events as ev
from undercroft.rules.events import Event

E = TypeVar("E", bound=Event)

#: The line of each event class: a function of the narrator's :class:`~undercroft.narrate.words.Words` and the
#: event, registered by :func:`line` (mypy checks that it takes that class). Every event class has one, or is in
#: :data:`SILENT` (a test checks both).
LINES: dict[type[Event], Callable[[Words, Any], str]] = {}

#: The event classes a player never reads a line of: the map shows them.
SILENT: frozenset[type[Event]] = frozenset({ev.Move, ev.Enter})


def line(kind: type[E]) -> Callable[[Callable[[Words, E], str]], Callable[[Words, E], str]]:
    """Register the decorated function as the line of the events of class ``kind`` (in :data:`LINES`)."""

    def register(words: Callable[[Words, E], str]) -> Callable[[Words, E], str]:
        assert kind not in LINES, f"two lines for {kind.__name__}"
        LINES[kind] = words
        return words

    return register
