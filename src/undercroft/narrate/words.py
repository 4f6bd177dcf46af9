"""What every line of the narration is made of: :class:`Words`, which names things for one ruleset (a monster, a
group and its pronouns, a creature of it, a character, a table, a level's greeting), and the small words the lines
share (:func:`agree`, :func:`plural`, a duration in moves: :func:`time_left`).

:class:`~undercroft.narrate.narrator.Narrator` is :class:`Words` with its public face; the line of each event class
(``narrate/lines/``) takes the :class:`Words` it speaks with.
"""

from __future__ import annotations

from typing import Any

from undercroft.content import Content
from undercroft.content.schema import TimeRules
from undercroft.rules.names import group_name, one_name, the

PRONOUNS: dict[str, tuple[str, str]] = {"it": ("it", "its"), "he": ("he", "his"), "she": ("she", "her")}


def agree(many: bool, one: str, several: str) -> str:
    """The words for one creature, or for several (a verb that agrees with its subject: "does" / "do")."""
    return several if many else one


def plural(n: int, one: str, many: str | None = None) -> str:
    """'1 round', '3 rounds'."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def moves_left(rounds: int, time: TimeRules) -> int:
    """The moves (every action but a rest: a step, a round of a meeting or a fight, a drink) that ``rounds`` of
    the clock last: each moves it ``time.move_rounds`` round(s) on."""
    return -(-max(0, rounds) // max(1, time.move_rounds))


def time_left(rounds: int, time: TimeRules, *, begun: bool = True) -> str:
    """A duration from now, in what the player does (:func:`moves_left`; a rest moves the clock
    ``time.rest_rounds``): "30 more moves, a rest ends it", "90 more moves, a rest uses 60"; ``begun`` False, of
    one that has not begun (a potion not drunk yet): "30 moves, a rest ends it". Every screen that tells how long
    something lasts (the potion's line, the inventory, the use list; the status bar, in short, from
    :func:`moves_left`) says it with this."""
    rest = "a rest ends it" if rounds <= time.rest_rounds else f"a rest uses {time.rest_rounds}"
    return f"{plural(moves_left(rounds, time), 'more move' if begun else 'move')}, {rest}"


class Words:
    """How the narration of games of one ruleset names things (the party's names, whether it is a lone delver,
    "You", or a party of named characters)."""

    def __init__(self, content: Content, ruleset: str) -> None:
        self.content = content
        self.rs = content.ruleset(ruleset)
        self.seed = ""  # the seed as the player knows it (typed words), for the death line; "": its number
        self.party = list(self.rs.party)
        self.solo = len(self.party) == 1

    # --- names ------------------------------------------------------------------------------------------------

    def monster(self, monster_id: str) -> str:
        """A monster's name ("Ghoul", "The Unlit"); an unknown id as it is."""
        m = self.content.monsters.get(monster_id)
        return m.name if m is not None else monster_id

    def group(self, monster_id: str, count: int) -> tuple[str, bool]:
        """The group an event about a whole group speaks of: its name (the plural when the event's ``count`` is above
        1: "Bandits"; :func:`~undercroft.rules.names.group_name`) and whether it is several (for the verb:
        :func:`agree`)."""
        m = self.content.monsters.get(monster_id)
        return group_name(monster_id if m is None else m.name, None if m is None else m.plural, count)

    def pronouns(self, monster_id: str, many: bool) -> tuple[str, str]:
        """How the words speak of the group an event is about, as subject and possessive: ("it", "its"), or the
        monster's own (``pronoun``: ("she", "her") for the Drowned Queen); ("they", "their") for several."""
        if many:
            return "they", "their"
        m = self.content.monsters.get(monster_id)
        return PRONOUNS[m.pronoun if m is not None else "it"]

    def creature(self, monster_id: str, index: int, count: int) -> str:
        """One creature of a group: "Ghoul", or "Ghoul #2" in a group of several; one of a monster whose name
        names several by its one name ("Sump Leech #2", never "Sump Leeches #2")."""
        name = one_name(self.monster(monster_id))
        return name if count == 1 else f"{name} #{index + 1}"

    def table_name(self, table_id: str) -> str:
        """An encounter table as a player reads it, never its id: "The resident table of level 2"."""
        for i, lv in enumerate(self.rs.levels):
            if table_id in (lv.resident, lv.wandering):
                origin = "resident" if table_id == lv.resident else "wandering"
                return f"The {origin} table of level {i + 1}"
        for origin in ("resident", "wandering"):
            if origin in table_id:
                return f"The {origin} table"
        return "The monster table"

    def member(self, index: int) -> str:
        """A character's name ("Warrior"); "You" for a lone delver."""
        if self.solo:
            return "You"
        if 0 <= index < len(self.party):
            return self.content.party[self.party[index]].name
        return f"character {index + 1}"

    def template_name(self, template: str) -> str:
        c = self.content.party.get(template)
        return c.name if c is not None else template

    @staticmethod
    def verb(who: str, base: str, third: str | None = None) -> str:
        """'You hit', 'Warrior hits'."""
        return f"{who} {base}" if who == "You" else f"{who} {third or base + 's'}"

    def greeting(self, depth: int) -> str:
        """The line level ``depth`` (0-based) greets the party with on arrival (its `greeting`), or ""."""
        levels = self.rs.levels
        return (levels[depth].greeting or "") if 0 <= depth < len(levels) else ""

    def death(self, death: dict[str, Any]) -> str:
        """ "Killed by the Ogre on turn 12, level 2." for a recorded death (``state.death``)."""
        return f"Killed by {the(str(death['cause']))} on turn {death['turn']}, level {int(death['depth']) + 1}."
