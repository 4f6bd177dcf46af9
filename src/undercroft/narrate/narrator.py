"""Narration: the player's text for each engine event, in the plain style of the source texts.

The engine (:mod:`undercroft.rules`) emits events as data only; this module words them, once, for every reader:
the window and the terminal (the message log), ``replay --events``, the morgue file and autoplay. Articles are
handled in one place (:mod:`undercroft.rules.names`): "the Ghoul", "The Unlit", never "the The Unlit".

A :class:`Narrator` knows the data and the ruleset (the party's names, whether it is a lone delver, "You", or a
party of named characters). ``text(event)`` is the event's line ("" for events a player does not read, such as a
step); ``lines(event)`` the log lines with a colour kind each, the player's roll before its outcome;
``entries(event)`` the same with each line's level (``player``, ``detail``, ``internal``: see :data:`LEVELS`), by
which the message log shows a player only what a player needs. No line names a table or a monster by its id.

The line of each event class is a function in ``narrate/lines/``, in the module named as the one of
``rules/events/`` that holds the class (``lines/chase.py`` words ``rules/events/chase.py``), registered in
``LINES``; what they name things with is :class:`~undercroft.narrate.words.Words`, which the narrator is.

A group come upon out of the party's sight is not told at all until the sides meet (003: "only when the monster and
party actually meet will the party know an encounter has occurred"): ``log_lines(events, unseen)``
(``log_entries``, with the levels) words one action's events in order, following which groups are still unseen
(``unseen``, kept by the caller from one action to the next), and gives no line, at any level, to their events,
nor to the monster check and the rolls that found and placed them.
"""

from __future__ import annotations

from collections.abc import Sequence

from undercroft.narrate.levels import (
    ALERT,
    BAD,
    EVENT_LEVELS,
    GOOD,
    QUIET,
    ROLL_LEVELS,
    Entry,
    Level,
    LogLine,
    Unseen,
)
from undercroft.narrate.lines import LINES
from undercroft.narrate.words import Words
from undercroft.rules import events as ev
from undercroft.rules.events import Event


def untold(events: Sequence[Event], unseen: Unseen) -> set[int]:
    """The indexes of the events of one action that the party cannot know of: those about a group come upon out of
    its sight and not seen yet (``unseen``, group ids, updated in place: a group placed out of sight joins it, one
    the party meets leaves it), and the monster check and the rolls that found it (from the check's roll to its
    ``placed``)."""
    hidden: set[int] = set()
    check = -1  # where the events of the last monster check begin
    for i, e in enumerate(events):
        if isinstance(e, ev.Roll) and e.purpose == "monster_check":
            check = i
        elif isinstance(e, ev.Placed) and e.out_of_sight:
            unseen.add(e.group)  # (it was never met: nothing before told of it either)
            hidden.update(range(check, i) if check >= 0 else ())
    for i, e in enumerate(events):
        if isinstance(e, ev.Encounter | ev.InSight):  # met, or seen: known from then on
            unseen.discard(e.group)
        if ev.about_group(e) in unseen:
            hidden.add(i)
    return hidden


class Narrator(Words):
    """Words the events of games of one ruleset (see the module docstring; how it names things:
    :class:`~undercroft.narrate.words.Words`)."""

    def text(self, event: Event) -> str:
        """The event's line for the player ("" when there is nothing to read: ``lines.SILENT``)."""
        line = LINES.get(type(event))
        return line(self, event) if line is not None else ""

    def roll_line(self, event: ev.PartyAttack | ev.MonsterAttack) -> str:
        """The roll behind an attack: "You roll 15 + 3 = 18 vs defense 12."."""
        if isinstance(event, ev.PartyAttack):
            who = self.member(event.member)
        else:
            who = self.creature(event.attacker, event.attacker_index, event.count)
        mod = event.modifier
        sign = "+" if mod >= 0 else "-"
        return f"{self.verb(who, 'roll')} {event.natural} {sign} {abs(mod)} = {event.total} vs defense {event.defense}."

    def level(self, event: Event) -> Level:
        """The level of an event's line (an attack's roll line aside: see :meth:`entries`)."""
        if isinstance(event, ev.Roll):
            if event.purpose in ("monster_check", "out_of_depth") and event.result in ("none", "no"):
                return "internal"
            return ROLL_LEVELS.get(event.purpose, "detail")
        return EVENT_LEVELS.get(event.type, "detail")

    def entries(self, event: Event) -> list[Entry]:
        """The log lines of one event, each with its colour kind and level; the player's roll before its outcome."""
        e = event
        text = self.text(e)
        level = self.level(e)
        if isinstance(e, ev.PartyAttack):  # 001: the player's roll is shown, before the outcome
            return [Entry(self.roll_line(e), "roll", "player"), Entry(text, "good" if e.hit else "normal", "player")]
        if isinstance(e, ev.MonsterAttack):
            return [Entry(text, "bad" if e.hit else "normal", "player"), Entry(self.roll_line(e), "detail", "detail")]
        if not text:
            return []
        if e.type == "refused":
            kind = "refused"
        elif e.type == "roll":
            kind = "roll"
        elif e.type in QUIET:
            kind = "detail"
        elif e.type in ("negotiate", "bribe"):
            kind = "roll"
        elif isinstance(e, ev.Victory) and e.gold:
            kind = "gold"
        else:
            kind = "good" if e.type in GOOD else "bad" if e.type in BAD else "alert" if e.type in ALERT else "normal"
        return [Entry(text, kind, level)]

    def lines(self, event: Event) -> list[LogLine]:
        """The log lines of one event, each with its colour kind (every level: see :meth:`entries`)."""
        return [(x.text, x.kind) for x in self.entries(event)]

    def log_entries(self, events: Sequence[Event], unseen: Unseen | None = None) -> list[Entry]:
        """The log lines of one action's events, in order, each with its level, without a word about the groups
        not seen yet (:func:`untold`).

        ``unseen`` (group ids) is what the party has come upon and not seen before these events; it is followed
        through them and updated in place, so a caller keeps one from action to action (a fresh one for a game
        told from its start)."""
        hidden = untold(events, set() if unseen is None else unseen)
        return [x for i, e in enumerate(events) if i not in hidden for x in self.entries(e)]

    def log_lines(self, events: Sequence[Event], unseen: Unseen | None = None) -> list[LogLine]:
        """:meth:`log_entries` without the levels: every line, as ``(text, kind)``."""
        return [(x.text, x.kind) for x in self.log_entries(events, unseen)]
