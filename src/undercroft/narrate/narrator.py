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
from typing import Any

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
from undercroft.rules.events import Event
from undercroft.rules.names import The, a_name, group_name, the
from undercroft.rules.refusals import Code

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
        if e.type == "roll" and e.get("purpose") == "monster_check":
            check = i
        elif e.type == "placed" and e.get("out_of_sight"):
            unseen.add(int(e["group"]))  # (it was never met: nothing before told of it either)
            hidden.update(range(check, i) if check >= 0 else ())
    for i, e in enumerate(events):
        if e.type in ("encounter", "in_sight"):  # met, or seen: known from then on
            unseen.discard(int(e["group"]))
        if int(e.get("group", 0)) in unseen:
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


class Narrator:
    """Words the events of games of one ruleset (see the module docstring)."""

    def __init__(self, content: Content, ruleset: str) -> None:
        self.content = content
        self.rs = content.ruleset(ruleset)
        self.seed = ""  # the seed as the player knows it (typed words), for the death line; "": its number
        self.party = list(self.rs.party)
        self.solo = len(self.party) == 1
        self._table: dict[str, Callable[[Event], str]] = {
            name[3:]: getattr(self, name) for name in dir(self) if name.startswith("_e_")
        }

    # --- names ------------------------------------------------------------------------------------------------

    def monster(self, monster_id: str) -> str:
        """A monster's name ("Ghoul", "The Unlit"); an unknown id as it is."""
        m = self.content.monsters.get(monster_id)
        return m.name if m is not None else monster_id

    def group(self, e: Event, key: str = "monster") -> tuple[str, bool]:
        """The group an event about a whole group speaks of: its name (the plural when the event's ``count`` is above
        1: "Bandits"; :func:`~undercroft.rules.names.group_name`) and whether it is several (for the verb:
        :func:`_agree`)."""
        monster_id = str(e.get(key, ""))
        m = self.content.monsters.get(monster_id)
        return group_name(monster_id if m is None else m.name, None if m is None else m.plural, int(e.get("count", 1)))

    def pronouns(self, e: Event, many: bool) -> tuple[str, str]:
        """How the words speak of the group an event is about, as subject and possessive: ("it", "its"), or the
        monster's own (``pronoun``: ("she", "her") for the Drowned Queen); ("they", "their") for several."""
        if many:
            return "they", "their"
        m = self.content.monsters.get(str(e.get("monster", "")))
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
        """The event's line for the player ("" when there is nothing to read)."""
        f = self._table.get(event.type)
        return f(event) if f is not None else ""

    def roll_line(self, event: Event) -> str:
        """The roll behind an attack: "You roll 15 + 3 = 18 vs defense 12."."""
        d = event.data
        if d.get("attacker_side") == "party":
            who = self.member(int(d["member"]))
        else:
            who = self.creature(str(d["attacker"]), int(d.get("attacker_index", 0)), int(d.get("count", 1)))
        mod = int(d["modifier"])
        sign = "+" if mod >= 0 else "-"
        return f"{self.verb(who, 'roll')} {d['natural']} {sign} {abs(mod)} = {d['total']} vs defense {d['defense']}."

    def level(self, event: Event) -> Level:
        """The level of an event's line (an attack's roll line aside: see :meth:`entries`)."""
        if event.type == "roll":
            purpose = str(event.get("purpose", ""))
            if purpose in ("monster_check", "out_of_depth") and event.get("result") in ("none", "no"):
                return "internal"
            return ROLL_LEVELS.get(purpose, "detail")
        return EVENT_LEVELS.get(event.type, "detail")

    def entries(self, event: Event) -> list[Entry]:
        """The log lines of one event, each with its colour kind and level; the player's roll before its outcome."""
        e = event
        text = self.text(e)
        level = self.level(e)
        if e.type == "attack":
            roll = self.roll_line(e)
            if e.get("attacker_side") == "party":  # 001: the player's roll is shown, before the outcome
                return [Entry(roll, "roll", "player"), Entry(text, "good" if e.get("hit") else "normal", "player")]
            return [Entry(text, "bad" if e.get("hit") else "normal", "player"), Entry(roll, "detail", "detail")]
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
        elif e.type == "victory" and e.get("gold"):
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

    # --- one method per event type (``_e_<type>``) ------------------------------------------------------------

    def _e_refused(self, e: Event) -> str:
        monster = str(e.get("monster", ""))
        name = self.monster(monster)
        item = self.content.items.get(str(e.get("item", "")))
        return REFUSALS[Code(e["reason"])].format(
            **{**e.data, **({"item": item.name} if item is not None else {})},
            The=The(name) if monster else "It",
            the=the(name) if monster else "it",
            doing=DOING.get(str(e.get("action", "")), str(e.get("action", "that")).replace("_", " ")),
            when=WHEN.get(str(e.get("mode", "")), "now"),
            ways=ways(bool(e.get("talks", True)), bool(e.get("runs", True))),
        )

    def _e_roll(self, e: Event) -> str:
        d = e.data
        purpose = str(d.get("purpose", ""))
        total, res = d.get("total"), d.get("result")
        if purpose == "monster_check":
            fresh_room = d.get("kind") == "room" and not d.get("visited")
            where = "new room" if fresh_room else ("corridor" if d.get("kind") == "corridor" else "visited room")
            origin = "resident" if fresh_room else "wandering"
            found = f"a {origin} monster" if res != "none" else "nothing"
            return f"Monster check ({where}): rolled {total}, 1-{d['target']} means a {origin} monster: {found}."
        if purpose == "out_of_depth":
            return f"Out of depth: rolled {total}, 1-{d['target']} means something from deeper down, with a hoard!"
        if purpose == "distance":
            return f"Distance: {total} ft."
        if purpose == "surprise_party":
            return f"Surprise (party): rolled {total}: {res}."
        if purpose == "surprise_monster":
            return f"Surprise ({self.monster(str(d.get('monster', '')))}): rolled {total}: {res}."
        if purpose == "reaction":
            labels = {str(b.result): b.label for b in self.content.tables.reaction.bands}
            return f"Reaction: rolled {total}: {labels.get(str(res), res)}."
        if d.get("dice") and res in ("yes", "no"):  # a percentile check (a certain one rolls no die: no line)
            return f"{purpose.replace('_', ' ').capitalize()}: rolled {total} vs {d['target']}%: {res}."
        return ""

    def _e_encounter(self, e: Event) -> str:
        name, count = self.monster(e["monster"]), int(e["count"])
        if e.get("sighted"):  # out of sight until now
            who = f"{count} {self.group(e)[0]} come" if count > 1 else f"{a_name(name)} comes"
            return f"{who} into sight, {e['distance']} ft away!"
        return f"{count} x {name}!" if count > 1 else f"{a_name(name)}!"

    def _e_hidden(self, e: Event) -> str:
        return "The water is still. You see nothing."

    def _e_reveal(self, e: Event) -> str:
        return f"Something rises from the water behind you: {self.monster(e['monster'])}!"

    def _e_walked_past(self, e: Event) -> str:
        name, many = self.group(e)
        return f"You walk past {the(name)}, and {self.pronouns(e, many)[0]} {_agree(many, 'objects', 'object')}."

    def _e_pass(self, e: Event) -> str:
        name, many = self.group(e)
        return f"{The(name)} {_agree(many, 'lets', 'let')} you pass."

    def _e_peaceful(self, e: Event) -> str:
        name, many = self.group(e)
        verb = _agree(many, "lets", "let") if e.get("already") else _agree(many, "leaves", "leave")
        return f"{The(name)} {verb} you be."

    def _e_table(self, e: Event) -> str:
        return (
            f"{self.table_name(str(e['table']))}: row {e['row']}, column {e['column']}: {e['number']} x "
            f"{self.monster(e['monster'])}."
        )

    def _e_pickup(self, e: Event) -> str:
        item, amount = self.content.items[e["item"]], int(e["amount"])
        if item.kind == "gold":
            return f"You pick up {amount} gold."
        what = f"the {item.name}" if amount == 1 else f"{amount} x {item.name}"  # (as "You buy the Healing Potion")
        return f"You pick up {what}."

    def _e_wield(self, e: Event) -> str:
        who = self.member(int(e["member"]))
        hit = int(e.get("to_hit", 0))
        aim = f", {hit:+d} to hit" if hit else ""
        return f"{self.verb(who, 'take')} up the {self.content.items[e['item']].name}: {e['damage']} damage a hit{aim}."

    def _e_wear(self, e: Event) -> str:
        who = self.member(int(e["member"]))
        name = self.content.items[e["item"]].name
        return f"{self.verb(who, 'put')} on the {name}: defense {e['defense']}, speed {e['speed']} ft a round."

    def _e_quaff(self, e: Event) -> str:
        who = self.member(int(e["member"]))
        what = {"fleetness": "feet faster a round", "heroism": "to hit", "sight": "tiles farther seen"}
        if e["until"] is None:  # (ours: vigour, for good)
            name = self.content.items[e["item"]].name
            hp = f"HP {e['hp']}/{e['max_hp']}"
            return f"{self.verb(who, 'drink')} the {name}: +{e['bonus']} maximum hit points for good, {hp}."
        it = self.content.items[e["item"]]
        return (
            f"{self.verb(who, 'drink')} the {it.name}: +{e['bonus']} "
            f"{what.get(str(e['effect']), str(e['effect']))} for {time_left(it.rounds, self.content.rules.time)}."
        )

    def _e_effect_ended(self, e: Event) -> str:
        return f"The {self.content.items[e['item']].name} wears off."

    def _e_level_up(self, e: Event) -> str:
        who = "You reach" if self.solo else f"{e['name']} reaches"
        text = f"{who} level {e['level']}: HP {e['max_hp']}, MIGHT {e['might']}, AGILITY {e['agility']}."
        if e["level"] in self.content.rules.growth.rest_heal_at and e["rest_heal"]:
            text += f" A turn of rest heals {e['rest_heal']}."
        return text

    def _e_shop(self, e: Event) -> str:
        return f"A merchant waits at the foot of the stairs, with {plural(len(e['stock']), 'ware')} to sell."

    def _e_trade(self, e: Event) -> str:
        name, many = self.group(e)
        its = self.pronouns(e, many)[1]
        return f"{The(name)} {_agree(many, 'opens', 'open')} {its} pack: {plural(len(e['stock']), 'ware')}."

    def _e_bought(self, e: Event) -> str:
        return f"You buy the {self.content.items[e['item']].name} for {e['price']} gold ({e['gold']} left)."

    def _e_shop_left(self, e: Event) -> str:
        return "You leave the merchant."

    def _e_directions(self, e: Event) -> str:
        name, many = self.group(e)
        if e.get("known"):
            return f"{The(name)} {_agree(many, 'points', 'point')} you to the stairs you know already: nothing new."
        return f"{The(name)} {_agree(many, 'tells', 'tell')} you the way down: it is on your map (> to go)."

    def _e_charted(self, e: Event) -> str:
        way = "the way out" if e.get("out") else "the way down"
        return f"You read the {self.content.items[e['item']].name}: {way} is on your map (> to go)."

    def _e_hired(self, e: Event) -> str:
        name, many = self.group(e)
        fights = _agree(many, "it fights", "they fight")
        return f"{The(name)} {_agree(many, 'comes', 'come')} along: {fights} at your side on this floor."

    def _e_hireling_attack(self, e: Event) -> str:
        who = The(self.monster(str(e["monster"])))
        foe = self.creature(str(e["target"]), int(e["target_index"]), int(e["count"]))
        if not e["hit"]:
            return f"{who} misses {foe}."
        return f"{who} hits {foe}. {e['damage']} damage. {foe} at {e['target_hp_after']}."

    def _e_hireling_left(self, e: Event) -> str:
        name, many = self.group(e)
        return f"{The(name)} {_agree(many, 'stays', 'stay')} behind on this floor."

    def _e_initiative(self, e: Event) -> str:
        name, many = self.group(e, "monster_id")
        first = "you act first." if e["first"] == "party" else f"{the(name)} {_agree(many, 'acts', 'act')} first."
        return f"AGILITY {e['party']} vs {e['monster']}: {first}"

    def _e_combat(self, e: Event) -> str:
        free = {"party": " Free round: yours.", "monsters": " Free round: theirs."}.get(str(e.get("free_round")), "")
        return f"Fight!{free}"

    def _e_attack(self, e: Event) -> str:
        d = e.data
        if d.get("attacker_side") == "party":
            who = self.member(int(d["member"]))
            if not d["hit"]:
                return f"{self.verb(who, 'miss', 'misses')}."
            name = self.creature(str(d["target"]), int(d["target_index"]), int(d.get("count", 1)))
            crit = "A critical hit! " if d.get("critical") else ""
            return f"{crit}{self.verb(who, 'hit')}. {d['damage']} damage. {name} at {d['target_hp_after']}."
        name = self.creature(str(d["attacker"]), int(d.get("attacker_index", 0)), int(d.get("count", 1)))
        if not d["hit"]:
            return f"{name} misses."
        crit = "A critical hit! " if d.get("critical") else ""
        hp = f"HP {d['target_hp_after']}/{d['target_max_hp']}."
        if self.solo:
            return f"{crit}{name} hits. {d['damage']} damage. {hp}"
        target = self.template_name(str(d["target"]))
        return f"{crit}{name} hits {target}. {d['damage']} damage. {target} {hp}"

    def _e_kill(self, e: Event) -> str:
        return f"{self.creature(e['monster'], int(e['index']), int(e.get('count', 1)))} is dead."

    def _e_oil(self, e: Event) -> str:
        if "damage" not in e.data:
            return "You throw burning oil behind you."
        name = self.creature(e["monster"], int(e["target_index"]), int(e.get("count", 1)))
        return f"Burning oil. {e['damage']} damage. {name} at {e['target_hp_after']}."

    def _e_wait(self, e: Event) -> str:
        return "You hold back." if e.get("combat") else "You wait."

    def _e_surprised_skip(self, e: Event) -> str:
        if e.get("side") == "party":
            return "Surprised, you lose the round."
        name, many = self.group(e)
        return f"{The(name)} {_agree(many, 'is surprised and does', 'are surprised and do')} not act."

    def _e_standoff(self, e: Event) -> str:
        name, many = self.group(e)
        return f"{plural(int(e['rounds']), 'round')} of this, and {the(name)} {_agree(many, 'makes', 'make')} up " + (
            f"{self.pronouns(e, many)[1]} mind."
        )

    def _e_idle(self, e: Event) -> str:
        name, many = self.group(e)
        return f"Left alone, {the(name)} {_agree(many, 'kneels', 'kneel')} again."

    def _e_holds(self, e: Event) -> str:
        name, many = self.group(e)
        return f"{The(name)} {_agree(many, 'waits', 'wait')}."

    def _e_slow(self, e: Event) -> str:
        name, many = self.group(e)
        return f"{The(name)} {_agree(many, 'is', 'are')} slow to move."

    def _e_rises(self, e: Event) -> str:
        name, many = self.group(e)
        return f"{The(name)} {_agree(many, 'rises', 'rise')}."

    def _e_regenerate(self, e: Event) -> str:
        name = self.creature(e["monster"], int(e["index"]), int(e.get("count", 1)))
        return f"{name} closes up. {name} at {e['hp']}."

    def _e_victory(self, e: Event) -> str:
        gold = int(e["gold"])
        name, many = self.group(e)
        text = f"{The(name)} {_agree(many, 'is', 'are')} defeated." + (f" You take {gold} gold." if gold else "")
        shares: list[list[Any]] = e.get("shares") or []
        if len(shares) > 1 and gold:
            text += " Shares: " + ", ".join(f"{self.template_name(t)} {n}" for t, n in shares) + "."
        spoils = [f"the {self.content.items[i].name}" for i in e.get("spoils") or []]
        if spoils:
            lies = spoils[0] if len(spoils) == 1 else ", ".join(spoils[:-1]) + " and " + spoils[-1]
            text += f" Where {self.pronouns(e, many)[0]} fell {_agree(len(spoils) > 1, 'lies', 'lie')} {lies}."
        return text

    def _e_won(self, e: Event) -> str:
        past = finale(self.content, e.get("guardians") or [])
        if e.get("how") == "escaped":
            return f"{past} You climb out through the seal. You have won.".lstrip()
        return f"The last of the things at the end is down. {past} You have won.".replace("  ", " ")

    def _e_death(self, e: Event) -> str:
        return f"You are dead. {self.death(e.data)} Seed {self.seed or e['seed']}."

    def _e_descend(self, e: Event) -> str:
        depth = int(e["depth"])
        return f"You go down to level {depth + 1}: {e['name']}. {self.greeting(depth)}".rstrip()

    def greeting(self, depth: int) -> str:
        """The line level ``depth`` (0-based) greets the party with on arrival (its `greeting`), or ""."""
        levels = self.rs.levels
        return (levels[depth].greeting or "") if 0 <= depth < len(levels) else ""

    def _e_rest(self, e: Event) -> str:
        text = "You rest for a turn."
        progress = e.get("progress")
        if e.get("recovered"):
            text = "You rest for a turn. You are no longer exhausted."
        elif progress:
            text = f"You rest for a turn ({progress[0]}/{progress[1]} rounds of rest)."
        if e.get("healed"):
            hp = e.get("hp") or []
            if self.solo:
                text += " " + " ".join(f"HP {h}/{mx}." for _, h, mx in hp)
            else:
                text += " " + " ".join(f"{self.member(int(i))}: HP {h}/{mx}." for i, h, mx in hp)
        return text

    def _e_drink(self, e: Event) -> str:
        who = self.member(int(e["member"]))
        return f"{self.verb(who, 'drink')}. {e['healed']} healed. HP {e['hp']}/{e['max_hp']}."

    def _e_in_sight(self, e: Event) -> str:
        name, count = self.monster(e["monster"]), int(e["count"])
        who = f"{count} {self.group(e)[0]} come" if count > 1 else f"{a_name(name)} comes"
        return f"{who} into sight, {e['distance']} ft away."

    def _e_approach(self, e: Event) -> str:
        name, many = self.group(e)
        return f"{The(name)} {_agree(many, 'comes', 'come')} closer: {e['distance']} ft."

    def _e_attacks(self, e: Event) -> str:
        name, many = self.group(e)
        return f"{The(name)} {_agree(many, 'attacks', 'attack')}!"

    def _e_leaves(self, e: Event) -> str:
        name, many = self.group(e)
        return f"{The(name)} {_agree(many, 'goes', 'go')} on {self.pronouns(e, many)[1]} way."

    def _e_surprise(self, e: Event) -> str:
        if e["party"] and e["monster"]:
            return "Both sides are surprised: the surprise cancels out."
        name, many = self.group(e, "monster_id")
        who = "You are" if e["party"] else f"{The(name)} {_agree(many, 'is', 'are')}"
        return f"{who} surprised."

    def _e_round_lost(self, e: Event) -> str:
        return "Neither side moves nor fights this round."

    def _e_break_peace(self, e: Event) -> str:
        return f"You break the peace with {the(self.group(e)[0])}."

    def _e_negotiate(self, e: Event) -> str:
        name, many = self.group(e)
        parts = f"{sum(e['faces'])}"
        if e.get("use_reluctance"):
            parts += f" - {e['reluctance']} reluctance"
        if e.get("use_ability"):
            parts += f" + {e['ability']} negotiation"
        outcome = {
            "failure": "Failure.",
            "agreement": f"Agreement: {the(name)} will not attack while you do not.",
            "intimidation": f"Intimidation: {the(name)} will not attack while you do not"
            + (f", and {_agree(many, 'hands', 'hand')} over {e['tribute']} gold as tribute." if e["tribute"] else "."),
        }[str(e["result"])]
        return f"Negotiation: {parts} = {e['total']}. {outcome}"

    def _e_bribe(self, e: Event) -> str:
        head = f"Bribe of {e['gold']} gold: rolled {e['total']} vs {e['digit']}: "
        if e["result"] == "accepted":
            return head + "accepted."
        name, many = self.group(e)
        return head + f"refused. {The(name)} {_agree(many, 'keeps the gold and attacks', 'keep the gold and attack')}!"

    def _e_exhausted(self, e: Event) -> str:
        fat = self.content.rules.fatigue
        return (
            f"You have run {plural(int(e['rounds']), 'round')}: exhausted until you rest "
            f"{plural(fat.rest_turns, 'turn')} (-{fat.to_hit_penalty} to hit, -{fat.damage_penalty} damage, "
            f"foes +{fat.opponent_bonus})."
        )

    def _e_leave(self, e: Event) -> str:
        name, many = self.group(e)
        they = self.pronouns(e, many)[0]
        return f"{The(name)} {_agree(many, 'stays', 'stay')} where {they} {_agree(many, 'is', 'are')}."

    def _e_run(self, e: Event) -> str:
        return "You run through the door."

    def _e_placed(self, e: Event) -> str:
        where = "out of sight" if e.get("out_of_sight") else "in sight"
        return f"On the map: {e['distance']} ft away, {where} (rolled {e['rolled']} ft)."

    def _e_close(self, e: Event) -> str:
        name = the(self.group(e)[0])
        if int(e["distance"]) <= self.content.rules.encounter.feet_per_tile:
            return f"You close with {name}."
        return f"You close in on {name}: {e['distance']} ft apart."

    def _e_pursue(self, e: Event) -> str:
        return f"You go after {the(self.group(e)[0])}! ({e['distance']} ft ahead)"

    def _e_let_go(self, e: Event) -> str:
        return f"You let {the(self.group(e)[0])} go."

    def _e_got_away(self, e: Event) -> str:
        name, many = self.group(e)
        if e.get("reason") == "gave_up":
            return f"You give up the chase: {the(name)} {_agree(many, 'gets', 'get')} away."
        return (  # (the map still draws the group met, wherever it stands: "out of sight" would contradict it)
            f"You lose sight of {the(name)} ({e['distance']} ft off): "
            f"{self.pronouns(e, many)[0]} {_agree(many, 'gets', 'get')} away."
        )

    def _e_evade(self, e: Event) -> str:
        name, many = self.group(e)
        reason = e.get("reason")
        if reason == "faster":
            return f"You are faster than {the(name)} ({e['party_speed']} vs {e['monster_speed']} ft): you get away."
        if reason == "out_of_sight":
            return f"{The(name)} never saw where you went."
        return f"{The(name)} {_agree(many, 'does', 'do')} not follow."

    def _e_pursuit(self, e: Event) -> str:
        name, many = self.group(e)
        comes = f"{The(name)} {_agree(many, 'comes', 'come')} after you"
        if e["distance"] <= self.content.rules.encounter.feet_per_tile:  # a step away: from a fight, at your heels
            return f"{comes}, right at your heels!"
        return f"{comes}! ({e['distance']} ft behind)"

    def _e_caught(self, e: Event) -> str:
        name, many = self.group(e)
        if e.get("by") == "party":
            return f"You catch up with {the(name)}!"
        if e.get("exhausted"):
            return "Too exhausted to run on, you turn to fight."
        if not e["fights"]:
            return f"{The(name)} {_agree(many, 'catches up, and only wants', 'catch up, and only want')} to be friends."
        return f"{The(name)} {_agree(many, 'catches', 'catch')} you!"

    def _e_escape(self, e: Event) -> str:
        name, many = self.group(e)
        if e.get("reason") == "gave_up":
            return f"{The(name)} {_agree(many, 'gives', 'give')} up the chase."
        return (  # (it may still be drawn on the map: it is the one that cannot see)
            f"{The(name)} {_agree(many, 'has', 'have')} lost sight of you ({e['distance']} ft off) and "
            f"{_agree(many, 'gives', 'give')} up."
        )

    def _e_chase(self, e: Event) -> str:
        name, many = self.group(e)
        where = "ahead of" if e.get("by") == "party" else "behind"
        return f"{The(name)} {_agree(many, 'is', 'are')} {e['distance']} ft {where} you."

    def _e_distracted(self, e: Event) -> str:
        name, many = self.group(e)
        return f"{The(name)} {_agree(many, 'stops', 'stop')} for the {e['by']}."

    def _e_drop(self, e: Event) -> str:
        item = str(e["item"])
        if item == "gold":
            return f"You drop {e['amount']} gold."
        it = self.content.items.get(item)
        return f"You drop {the(it.name)}." if it is not None and it.kind == "treasure" else "You drop food."

    def _e_ignored(self, e: Event) -> str:
        name, many = self.group(e)
        what = e.get("what")
        if what == "fire":
            return f"{The(name)} {_agree(many, 'comes', 'come')} on through the flames."
        it = self.content.items.get(str(what))
        thing = "gold" if what == "gold" else it.name if it is not None and it.kind == "treasure" else "food"
        return f"{The(name)} {_agree(many, 'ignores', 'ignore')} the {thing}."

    def _e_slowed(self, e: Event) -> str:
        name, many = self.group(e)
        balks, waits = _agree(many, "balks", "balk"), _agree(many, "waits", "wait")
        rounds = int(e["rounds"])
        return f"{The(name)} {balks} at the fire and {waits} {rounds} round{'s' if rounds != 1 else ''} for it to die."


def ways(talks: bool, runs: bool) -> str:
    """What a party facing a monster may do instead of walking on, as a refusal says it: "fight, talk, wait or run",
    without talk where the monster hears no terms and without run where the rules have no running away."""
    parts = ["fight", *(["talk"] if talks else []), "wait", *(["run"] if runs else [])]
    return ", ".join(parts[:-1]) + " or " + parts[-1]
