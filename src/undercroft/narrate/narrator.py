"""Narration: the player's text for each engine event, in the plain style of the source texts.

The engine (:mod:`undercroft.rules`) emits events as data only; this module words them, once, for every reader:
the window and the terminal (the message log), ``replay --events``, the morgue file and autoplay. Articles are
handled in one place (:mod:`undercroft.rules.names`): "the Ghoul", "The Unlit", never "the The Unlit".

A :class:`Narrator` knows the data and the ruleset (the party's names, whether it is a lone delver, "You", or a
party of named characters). ``text(event)`` is the event's line ("" for events a player does not read, such as a
step); ``lines(event)`` the log lines with a colour kind each, the player's roll before its outcome;
``entries(event)`` the same with each line's level (``player``, ``detail``, ``internal``: see :data:`LEVELS`), by
which the message log shows a player only what a player needs. No line names a table or a monster by its id.

A group come upon out of the party's sight is not told at all until the sides meet (003: "only when the monster and
party actually meet will the party know an encounter has occurred"): ``log_lines(events, unseen)``
(``log_entries``, with the levels) words one action's events in order, following which groups are still unseen
(``unseen``, kept by the caller from one action to the next), and gives no line, at any level, to their events,
nor to the monster check and the rolls that found and placed them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from undercroft.content import Content
from undercroft.content.schema import TimeRules
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
from undercroft.narrate.refusals import DOING, REFUSALS, WHEN
from undercroft.rules import events as ev
from undercroft.rules.events import Event
from undercroft.rules.names import The, a_name, group_name, the

PRONOUNS: dict[str, tuple[str, str]] = {"it": ("it", "its"), "he": ("he", "his"), "she": ("she", "her")}


def _agree(many: bool, one: str, several: str) -> str:
    """The words for one creature, or for several (a verb that agrees with its subject: "does" / "do")."""
    return several if many else one


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


_FATES = {
    "slain": "you slew {the}",
    "at_peace": "{The} let you pass",
    "passed": "you got past {the}",
    "unmet": "you never met {the}",
}


def finale(content: Content, fates: Sequence[Sequence[str]]) -> str:
    """How the party got past the guardians, from a ``won`` event's ``guardians`` ([monster id, how] each): "The
    Unlit let you pass; you never met the Patient One." ("" for none)."""
    parts = []
    for mid, how in fates:
        name = content.monsters[mid].name if mid in content.monsters else mid
        parts.append(_FATES.get(how, "you got past {the}").format(the=the(name), The=The(name)))
    text = "; ".join(parts)
    return text[:1].upper() + text[1:] + "." if text else ""


def plural(n: int, one: str, many: str | None = None) -> str:
    """'1 round', '3 rounds'."""
    return f"{n} {one if n == 1 else (many or one + 's')}"


def moves_left(rounds: int, time: TimeRules) -> int:
    """The moves (every action but a rest: a step, a round of a meeting or a fight, a drink) that ``rounds`` of
    the clock last: each moves it ``time.move_rounds`` round(s) on."""
    return -(-max(0, rounds) // max(1, time.move_rounds))


def time_left(rounds: int, time: TimeRules) -> str:
    """A duration from now, in what the player does (:func:`moves_left`; a rest moves the clock
    ``time.rest_rounds``): "30 more moves, a rest ends it", "90 more moves, a rest uses 60". Every screen that
    tells how long something lasts (the potion's line, the inventory, the use list; the status bar, in short,
    from :func:`moves_left`) says it with this."""
    rest = "a rest ends it" if rounds <= time.rest_rounds else f"a rest uses {time.rest_rounds}"
    return f"{plural(moves_left(rounds, time), 'more move')}, {rest}"


E = TypeVar("E", bound=Event)

#: The line of each event class: a method of :class:`Narrator` registered by :func:`_line` (mypy checks that it
#: takes that class). Every event class has one, or is in :data:`SILENT` (a test checks both).
LINES: dict[type[Event], Callable[[Narrator, Any], str]] = {}

#: The event classes a player never reads a line of: the map shows them.
SILENT: frozenset[type[Event]] = frozenset({ev.Move, ev.Enter})


def _line(kind: type[E]) -> Callable[[Callable[[Narrator, E], str]], Callable[[Narrator, E], str]]:
    """Register the decorated method as the line of the events of class ``kind`` (in :data:`LINES`)."""

    def register(line: Callable[[Narrator, E], str]) -> Callable[[Narrator, E], str]:
        assert kind not in LINES, f"two lines for {kind.__name__}"
        LINES[kind] = line
        return line

    return register


class Narrator:
    """Words the events of games of one ruleset (see the module docstring)."""

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
        :func:`_agree`)."""
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
        """One creature of a group: "Ghoul", or "Ghoul #2" in a group of several."""
        name = self.monster(monster_id)
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

    # --- the public face --------------------------------------------------------------------------------------

    def text(self, event: Event) -> str:
        """The event's line for the player ("" when there is nothing to read: :data:`SILENT`)."""
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

    def death(self, death: dict[str, Any]) -> str:
        """ "Killed by the Ogre on turn 12, level 2." for a recorded death (``state.death``)."""
        return f"Killed by {the(str(death['cause']))} on turn {death['turn']}, level {int(death['depth']) + 1}."

    # --- the line of each event class (``LINES``; :data:`SILENT` have none) --------------------------------------

    @_line(ev.Refused)
    def _e_refused(self, e: ev.Refused) -> str:
        fields = e.why.fields
        monster = str(fields.get("monster", ""))
        name = self.monster(monster)
        item = self.content.items.get(str(fields.get("item", "")))
        action = e.action or ""
        return REFUSALS[e.why.code].format(
            **{"action": action, "reason": str(e.why.code), **fields, **({"item": item.name} if item else {})},
            The=The(name) if monster else "It",
            the=the(name) if monster else "it",
            doing=DOING.get(action, (e.action or "that").replace("_", " ")),
            when=WHEN.get(str(fields.get("mode", "")), "now"),
            ways=ways(bool(fields.get("talks", True)), bool(fields.get("runs", True))),
        )

    @_line(ev.Roll)
    def _e_roll(self, e: ev.Roll) -> str:
        purpose, total, res = e.purpose, e.total, e.result
        if purpose == "monster_check":
            fresh_room = e.kind == "room" and not e.visited
            where = "new room" if fresh_room else ("corridor" if e.kind == "corridor" else "visited room")
            origin = "resident" if fresh_room else "wandering"
            found = f"a {origin} monster" if res != "none" else "nothing"
            return f"Monster check ({where}): rolled {total}, 1-{e.target} means a {origin} monster: {found}."
        if purpose == "out_of_depth":
            return f"Out of depth: rolled {total}, 1-{e.target} means something from deeper down, with a hoard!"
        if purpose == "distance":
            return f"Distance: {total} ft."
        if purpose == "surprise_party":
            return f"Surprise (party): rolled {total}: {res}."
        if purpose == "surprise_monster":
            return f"Surprise ({self.monster(e.monster or '')}): rolled {total}: {res}."
        if purpose == "reaction":
            labels = {str(b.result): b.label for b in self.content.tables.reaction.bands}
            return f"Reaction: rolled {total}: {labels.get(res, res)}."
        if e.dice and res in ("yes", "no"):  # a percentile check (a certain one rolls no die: no line)
            return f"{purpose.replace('_', ' ').capitalize()}: rolled {total} vs {e.target}%: {res}."
        return ""

    @_line(ev.Encounter)
    def _e_encounter(self, e: ev.Encounter) -> str:
        name, count = self.monster(e.monster), e.count
        if e.sighted:  # out of sight until now
            who = f"{count} {self.group(e.monster, count)[0]} come" if count > 1 else f"{a_name(name)} comes"
            return f"{who} into sight, {e.distance} ft away!"
        return f"{count} x {name}!" if count > 1 else f"{a_name(name)}!"

    @_line(ev.Hidden)
    def _e_hidden(self, e: ev.Hidden) -> str:
        return "The water is still. You see nothing."

    @_line(ev.Reveal)
    def _e_reveal(self, e: ev.Reveal) -> str:
        return f"Something rises from the water behind you: {self.monster(e.monster)}!"

    @_line(ev.WalkedPast)
    def _e_walked_past(self, e: ev.WalkedPast) -> str:
        name, many = self.group(e.monster, e.count)
        they = self.pronouns(e.monster, many)[0]
        return f"You walk past {the(name)}, and {they} {_agree(many, 'objects', 'object')}."

    @_line(ev.Pass)
    def _e_pass(self, e: ev.Pass) -> str:
        name, many = self.group(e.monster, e.count)
        return f"{The(name)} {_agree(many, 'lets', 'let')} you pass."

    @_line(ev.Peaceful)
    def _e_peaceful(self, e: ev.Peaceful) -> str:
        name, many = self.group(e.monster, e.count)
        verb = _agree(many, "lets", "let") if e.already else _agree(many, "leaves", "leave")
        return f"{The(name)} {verb} you be."

    @_line(ev.Table)
    def _e_table(self, e: ev.Table) -> str:
        return f"{self.table_name(e.table)}: row {e.row}, column {e.column}: {e.number} x {self.monster(e.monster)}."

    @_line(ev.Pickup)
    def _e_pickup(self, e: ev.Pickup) -> str:
        item, amount = self.content.items[e.item], e.amount
        if item.kind == "gold":
            return f"You pick up {amount} gold."
        what = f"the {item.name}" if amount == 1 else f"{amount} x {item.name}"  # (as "You buy the Healing Potion")
        return f"You pick up {what}."

    @_line(ev.Wield)
    def _e_wield(self, e: ev.Wield) -> str:
        who = self.member(e.member)
        aim = f", {e.to_hit:+d} to hit" if e.to_hit else ""
        return f"{self.verb(who, 'take')} up the {self.content.items[e.item].name}: {e.damage} damage a hit{aim}."

    @_line(ev.Wear)
    def _e_wear(self, e: ev.Wear) -> str:
        who = self.member(e.member)
        name = self.content.items[e.item].name
        return f"{self.verb(who, 'put')} on the {name}: defense {e.defense}, speed {e.speed} ft a round."

    @_line(ev.Quaff)
    def _e_quaff(self, e: ev.Quaff) -> str:
        who = self.member(e.member)
        what = {"fleetness": "feet faster a round", "heroism": "to hit", "sight": "tiles farther seen"}
        if e.until is None:  # (ours: vigour, for good)
            name = self.content.items[e.item].name
            hp = f"HP {e.hp}/{e.max_hp}"
            return f"{self.verb(who, 'drink')} the {name}: +{e.bonus} maximum hit points for good, {hp}."
        it = self.content.items[e.item]
        return (
            f"{self.verb(who, 'drink')} the {it.name}: +{e.bonus} "
            f"{what.get(str(e.effect), str(e.effect))} for {time_left(it.rounds, self.content.rules.time)}."
        )

    @_line(ev.EffectEnded)
    def _e_effect_ended(self, e: ev.EffectEnded) -> str:
        return f"The {self.content.items[e.item].name} wears off."

    @_line(ev.LevelUp)
    def _e_level_up(self, e: ev.LevelUp) -> str:
        who = "You reach" if self.solo else f"{e.name} reaches"
        text = f"{who} level {e.level}: HP {e.max_hp}, MIGHT {e.might}, AGILITY {e.agility}."
        if e.level in self.content.rules.growth.rest_heal_at and e.rest_heal:
            text += f" A turn of rest heals {e.rest_heal}."
        return text

    @_line(ev.Shop)
    def _e_shop(self, e: ev.Shop) -> str:
        return f"A merchant waits at the foot of the stairs, with {plural(len(e.stock), 'ware')} to sell."

    @_line(ev.Trade)
    def _e_trade(self, e: ev.Trade) -> str:
        name, many = self.group(e.monster, e.count)
        its = self.pronouns(e.monster, many)[1]
        return f"{The(name)} {_agree(many, 'opens', 'open')} {its} pack: {plural(len(e.stock), 'ware')}."

    @_line(ev.Bought)
    def _e_bought(self, e: ev.Bought) -> str:
        return f"You buy the {self.content.items[e.item].name} for {e.price} gold ({e.gold} left)."

    @_line(ev.ShopLeft)
    def _e_shop_left(self, e: ev.ShopLeft) -> str:
        return "You leave the merchant."

    @_line(ev.Directions)
    def _e_directions(self, e: ev.Directions) -> str:
        name, many = self.group(e.monster, e.count)
        if e.known:
            return f"{The(name)} {_agree(many, 'points', 'point')} you to the stairs you know already: nothing new."
        return f"{The(name)} {_agree(many, 'tells', 'tell')} you the way down: it is on your map (> to go)."

    @_line(ev.Charted)
    def _e_charted(self, e: ev.Charted) -> str:
        way = "the way out" if e.out else "the way down"
        return f"You read the {self.content.items[e.item].name}: {way} is on your map (> to go)."

    @_line(ev.Hired)
    def _e_hired(self, e: ev.Hired) -> str:
        name, many = self.group(e.monster, e.count)
        fights = _agree(many, "it fights", "they fight")
        return f"{The(name)} {_agree(many, 'comes', 'come')} along: {fights} at your side on this floor."

    @_line(ev.HirelingAttack)
    def _e_hireling_attack(self, e: ev.HirelingAttack) -> str:
        who = The(self.monster(e.monster))
        foe = self.creature(e.target, e.target_index, e.count)
        if not e.hit:
            return f"{who} misses {foe}."
        return f"{who} hits {foe}. {e.damage} damage. {foe} at {e.target_hp_after}."

    @_line(ev.HirelingLeft)
    def _e_hireling_left(self, e: ev.HirelingLeft) -> str:
        name, many = self.group(e.monster, e.count)
        return f"{The(name)} {_agree(many, 'stays', 'stay')} behind on this floor."

    @_line(ev.Initiative)
    def _e_initiative(self, e: ev.Initiative) -> str:
        name, many = self.group(e.monster_id, e.count)
        first = "you act first." if e.first == "party" else f"{the(name)} {_agree(many, 'acts', 'act')} first."
        return f"AGILITY {e.party} vs {e.monster}: {first}"

    @_line(ev.Combat)
    def _e_combat(self, e: ev.Combat) -> str:
        free = {"party": " Free round: yours.", "monsters": " Free round: theirs."}.get(str(e.free_round), "")
        return f"Fight!{free}"

    @_line(ev.PartyAttack)
    def _e_party_attack(self, e: ev.PartyAttack) -> str:
        who = self.member(e.member)
        if not e.hit:
            return f"{self.verb(who, 'miss', 'misses')}."
        name = self.creature(e.target, e.target_index, e.count)
        crit = "A critical hit! " if e.critical else ""
        return f"{crit}{self.verb(who, 'hit')}. {e.damage} damage. {name} at {e.target_hp_after}."

    @_line(ev.MonsterAttack)
    def _e_monster_attack(self, e: ev.MonsterAttack) -> str:
        name = self.creature(e.attacker, e.attacker_index, e.count)
        if not e.hit:
            return f"{name} misses."
        crit = "A critical hit! " if e.critical else ""
        hp = f"HP {e.target_hp_after}/{e.target_max_hp}."
        if self.solo:
            return f"{crit}{name} hits. {e.damage} damage. {hp}"
        target = self.template_name(e.target)
        return f"{crit}{name} hits {target}. {e.damage} damage. {target} {hp}"

    @_line(ev.Kill)
    def _e_kill(self, e: ev.Kill) -> str:
        return f"{self.creature(e.monster, e.index, e.count)} is dead."

    @_line(ev.Oil)
    def _e_oil(self, e: ev.Oil) -> str:
        if e.damage is None or e.target_index is None:  # (thrown behind the party in a chase)
            return "You throw burning oil behind you."
        name = self.creature(e.monster, e.target_index, e.count)
        return f"Burning oil. {e.damage} damage. {name} at {e.target_hp_after}."

    @_line(ev.Wait)
    def _e_wait(self, e: ev.Wait) -> str:
        return "You hold back." if e.combat else "You wait."

    @_line(ev.SurprisedSkip)
    def _e_surprised_skip(self, e: ev.SurprisedSkip) -> str:
        if e.side == "party":
            return "Surprised, you lose the round."
        name, many = self.group(e.monster, e.count)
        return f"{The(name)} {_agree(many, 'is surprised and does', 'are surprised and do')} not act."

    @_line(ev.Standoff)
    def _e_standoff(self, e: ev.Standoff) -> str:
        name, many = self.group(e.monster, e.count)
        return f"{plural(e.rounds, 'round')} of this, and {the(name)} {_agree(many, 'makes', 'make')} up " + (
            f"{self.pronouns(e.monster, many)[1]} mind."
        )

    @_line(ev.Idle)
    def _e_idle(self, e: ev.Idle) -> str:
        name, many = self.group(e.monster, e.count)
        return f"Left alone, {the(name)} {_agree(many, 'kneels', 'kneel')} again."

    @_line(ev.Holds)
    def _e_holds(self, e: ev.Holds) -> str:
        name, many = self.group(e.monster, e.count)
        return f"{The(name)} {_agree(many, 'waits', 'wait')}."

    @_line(ev.Slow)
    def _e_slow(self, e: ev.Slow) -> str:
        name, many = self.group(e.monster, e.count)
        return f"{The(name)} {_agree(many, 'is', 'are')} slow to move."

    @_line(ev.Rises)
    def _e_rises(self, e: ev.Rises) -> str:
        name, many = self.group(e.monster, e.count)
        return f"{The(name)} {_agree(many, 'rises', 'rise')}."

    @_line(ev.Regenerate)
    def _e_regenerate(self, e: ev.Regenerate) -> str:
        name = self.creature(e.monster, e.index, e.count)
        return f"{name} closes up. {name} at {e.hp}."

    @_line(ev.Victory)
    def _e_victory(self, e: ev.Victory) -> str:
        gold = e.gold
        name, many = self.group(e.monster, e.count)
        text = f"{The(name)} {_agree(many, 'is', 'are')} defeated." + (f" You take {gold} gold." if gold else "")
        if len(e.shares) > 1 and gold:
            text += " Shares: " + ", ".join(f"{self.template_name(t)} {n}" for t, n in e.shares) + "."
        spoils = [f"the {self.content.items[i].name}" for i in e.spoils or []]
        if spoils:
            lies = spoils[0] if len(spoils) == 1 else ", ".join(spoils[:-1]) + " and " + spoils[-1]
            they = self.pronouns(e.monster, many)[0]
            text += f" Where {they} fell {_agree(len(spoils) > 1, 'lies', 'lie')} {lies}."
        return text

    @_line(ev.Won)
    def _e_won(self, e: ev.Won) -> str:
        past = finale(self.content, e.guardians)
        if e.how == "escaped":
            return f"{past} You climb out through the seal. You have won.".lstrip()
        return f"The last of the things at the end is down. {past} You have won.".replace("  ", " ")

    @_line(ev.Death)
    def _e_death(self, e: ev.Death) -> str:
        died = self.death({"cause": e.cause, "turn": e.turn, "depth": e.depth})
        return f"You are dead. {died} Seed {self.seed or e.seed}."

    @_line(ev.Descend)
    def _e_descend(self, e: ev.Descend) -> str:
        return f"You go down to level {e.depth + 1}: {e.name}. {self.greeting(e.depth)}".rstrip()

    def greeting(self, depth: int) -> str:
        """The line level ``depth`` (0-based) greets the party with on arrival (its `greeting`), or ""."""
        levels = self.rs.levels
        return (levels[depth].greeting or "") if 0 <= depth < len(levels) else ""

    @_line(ev.Rest)
    def _e_rest(self, e: ev.Rest) -> str:
        text = "You rest for a turn."
        progress = e.progress
        if e.recovered:
            text = "You rest for a turn. You are no longer exhausted."
        elif progress:
            text = f"You rest for a turn ({progress[0]}/{progress[1]} rounds of rest)."
        if e.healed:
            if self.solo:
                text += " " + " ".join(f"HP {h}/{mx}." for _, h, mx in e.hp)
            else:
                text += " " + " ".join(f"{self.member(i)}: HP {h}/{mx}." for i, h, mx in e.hp)
        return text

    @_line(ev.Drink)
    def _e_drink(self, e: ev.Drink) -> str:
        who = self.member(e.member)
        return f"{self.verb(who, 'drink')}. {e.healed} healed. HP {e.hp}/{e.max_hp}."

    @_line(ev.InSight)
    def _e_in_sight(self, e: ev.InSight) -> str:
        name, count = self.monster(e.monster), e.count
        who = f"{count} {self.group(e.monster, count)[0]} come" if count > 1 else f"{a_name(name)} comes"
        return f"{who} into sight, {e.distance} ft away."

    @_line(ev.Approach)
    def _e_approach(self, e: ev.Approach) -> str:
        name, many = self.group(e.monster, e.count)
        return f"{The(name)} {_agree(many, 'comes', 'come')} closer: {e.distance} ft."

    @_line(ev.Attacks)
    def _e_attacks(self, e: ev.Attacks) -> str:
        name, many = self.group(e.monster, e.count)
        return f"{The(name)} {_agree(many, 'attacks', 'attack')}!"

    @_line(ev.Leaves)
    def _e_leaves(self, e: ev.Leaves) -> str:
        name, many = self.group(e.monster, e.count)
        return f"{The(name)} {_agree(many, 'goes', 'go')} on {self.pronouns(e.monster, many)[1]} way."

    @_line(ev.Surprise)
    def _e_surprise(self, e: ev.Surprise) -> str:
        if e.party and e.monster:
            return "Both sides are surprised: the surprise cancels out."
        name, many = self.group(e.monster_id, e.count)
        who = "You are" if e.party else f"{The(name)} {_agree(many, 'is', 'are')}"
        return f"{who} surprised."

    @_line(ev.RoundLost)
    def _e_round_lost(self, e: ev.RoundLost) -> str:
        return "Neither side moves nor fights this round."

    @_line(ev.BreakPeace)
    def _e_break_peace(self, e: ev.BreakPeace) -> str:
        return f"You break the peace with {the(self.group(e.monster, e.count)[0])}."

    @_line(ev.Negotiate)
    def _e_negotiate(self, e: ev.Negotiate) -> str:
        name, many = self.group(e.monster, e.count)
        parts = f"{sum(e.faces)}"
        if e.use_reluctance:
            parts += f" - {e.reluctance} reluctance"
        if e.use_ability:
            parts += f" + {e.ability} negotiation"
        outcome = {
            "failure": "Failure.",
            "agreement": f"Agreement: {the(name)} will not attack while you do not.",
            "intimidation": f"Intimidation: {the(name)} will not attack while you do not"
            + (f", and {_agree(many, 'hands', 'hand')} over {e.tribute} gold as tribute." if e.tribute else "."),
        }[e.result]
        return f"Negotiation: {parts} = {e.total}. {outcome}"

    @_line(ev.Bribe)
    def _e_bribe(self, e: ev.Bribe) -> str:
        head = f"Bribe of {e.gold} gold: rolled {e.total} vs {e.digit}: "
        if e.result == "accepted":
            return head + "accepted."
        name, many = self.group(e.monster, e.count)
        return head + f"refused. {The(name)} {_agree(many, 'keeps the gold and attacks', 'keep the gold and attack')}!"

    @_line(ev.Exhausted)
    def _e_exhausted(self, e: ev.Exhausted) -> str:
        fat = self.content.rules.fatigue
        return (
            f"You have run {plural(e.rounds, 'round')}: exhausted until you rest "
            f"{plural(fat.rest_turns, 'turn')} (-{fat.to_hit_penalty} to hit, -{fat.damage_penalty} damage, "
            f"foes +{fat.opponent_bonus})."
        )

    @_line(ev.Leave)
    def _e_leave(self, e: ev.Leave) -> str:
        name, many = self.group(e.monster, e.count)
        they = self.pronouns(e.monster, many)[0]
        return f"{The(name)} {_agree(many, 'stays', 'stay')} where {they} {_agree(many, 'is', 'are')}."

    @_line(ev.Run)
    def _e_run(self, e: ev.Run) -> str:
        return "You run through the door."

    @_line(ev.Placed)
    def _e_placed(self, e: ev.Placed) -> str:
        where = "out of sight" if e.out_of_sight else "in sight"
        return f"On the map: {e.distance} ft away, {where} (rolled {e.rolled} ft)."

    @_line(ev.Close)
    def _e_close(self, e: ev.Close) -> str:
        name = the(self.group(e.monster, e.count)[0])
        if e.distance <= self.content.rules.encounter.feet_per_tile:
            return f"You close with {name}."
        return f"You close in on {name}: {e.distance} ft apart."

    @_line(ev.Pursue)
    def _e_pursue(self, e: ev.Pursue) -> str:
        return f"You go after {the(self.group(e.monster, e.count)[0])}! ({e.distance} ft ahead)"

    @_line(ev.LetGo)
    def _e_let_go(self, e: ev.LetGo) -> str:
        return f"You let {the(self.group(e.monster, e.count)[0])} go."

    @_line(ev.GotAway)
    def _e_got_away(self, e: ev.GotAway) -> str:
        name, many = self.group(e.monster, e.count)
        if e.reason == "gave_up":
            return f"You give up the chase: {the(name)} {_agree(many, 'gets', 'get')} away."
        return (  # (the map still draws the group met, wherever it stands: "out of sight" would contradict it)
            f"You lose sight of {the(name)} ({e.distance} ft off): "
            f"{self.pronouns(e.monster, many)[0]} {_agree(many, 'gets', 'get')} away."
        )

    @_line(ev.Evade)
    def _e_evade(self, e: ev.Evade) -> str:
        name, many = self.group(e.monster, e.count)
        if e.reason == "faster":
            return f"You are faster than {the(name)} ({e.party_speed} vs {e.monster_speed} ft): you get away."
        if e.reason == "out_of_sight":
            return f"{The(name)} never saw where you went."
        return f"{The(name)} {_agree(many, 'does', 'do')} not follow."

    @_line(ev.Pursuit)
    def _e_pursuit(self, e: ev.Pursuit) -> str:
        name, many = self.group(e.monster, e.count)
        comes = f"{The(name)} {_agree(many, 'comes', 'come')} after you"
        if e.distance <= self.content.rules.encounter.feet_per_tile:  # a step away: from a fight, at your heels
            return f"{comes}, right at your heels!"
        return f"{comes}! ({e.distance} ft behind)"

    @_line(ev.Caught)
    def _e_caught(self, e: ev.Caught) -> str:
        name, many = self.group(e.monster, e.count)
        if e.by == "party":
            return f"You catch up with {the(name)}!"
        if e.exhausted:
            return "Too exhausted to run on, you turn to fight."
        if not e.fights:
            return f"{The(name)} {_agree(many, 'catches up, and only wants', 'catch up, and only want')} to be friends."
        return f"{The(name)} {_agree(many, 'catches', 'catch')} you!"

    @_line(ev.Escape)
    def _e_escape(self, e: ev.Escape) -> str:
        name, many = self.group(e.monster, e.count)
        if e.reason == "gave_up":
            return f"{The(name)} {_agree(many, 'gives', 'give')} up the chase."
        return (  # (it may still be drawn on the map: it is the one that cannot see)
            f"{The(name)} {_agree(many, 'has', 'have')} lost sight of you ({e.distance} ft off) and "
            f"{_agree(many, 'gives', 'give')} up."
        )

    @_line(ev.Chase)
    def _e_chase(self, e: ev.Chase) -> str:
        name, many = self.group(e.monster, e.count)
        where = "ahead of" if e.by == "party" else "behind"
        return f"{The(name)} {_agree(many, 'is', 'are')} {e.distance} ft {where} you."

    @_line(ev.Distracted)
    def _e_distracted(self, e: ev.Distracted) -> str:
        name, many = self.group(e.monster, e.count)
        return f"{The(name)} {_agree(many, 'stops', 'stop')} for the {e.by}."

    @_line(ev.Drop)
    def _e_drop(self, e: ev.Drop) -> str:
        if e.item == "gold":
            return f"You drop {e.amount} gold."
        it = self.content.items.get(e.item)
        return f"You drop {the(it.name)}." if it is not None and it.kind == "treasure" else "You drop food."

    @_line(ev.Ignored)
    def _e_ignored(self, e: ev.Ignored) -> str:
        name, many = self.group(e.monster, e.count)
        what = e.what
        if what == "fire":
            return f"{The(name)} {_agree(many, 'comes', 'come')} on through the flames."
        it = self.content.items.get(what)
        thing = "gold" if what == "gold" else it.name if it is not None and it.kind == "treasure" else "food"
        return f"{The(name)} {_agree(many, 'ignores', 'ignore')} the {thing}."

    @_line(ev.Slowed)
    def _e_slowed(self, e: ev.Slowed) -> str:
        name, many = self.group(e.monster, e.count)
        balks, waits = _agree(many, "balks", "balk"), _agree(many, "waits", "wait")
        rounds = e.rounds
        return f"{The(name)} {balks} at the fire and {waits} {rounds} round{'s' if rounds != 1 else ''} for it to die."


def ways(talks: bool, runs: bool) -> str:
    """What a party facing a monster may do instead of walking on, as a refusal says it: "fight, talk, wait or run",
    without talk where the monster hears no terms and without run where the rules have no running away."""
    parts = ["fight", *(["talk"] if talks else []), "wait", *(["run"] if runs else [])]
    return ", ".join(parts[:-1]) + " or " + parts[-1]
