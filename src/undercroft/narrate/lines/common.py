"""The lines of the events of every part of the game: a refusal (in the words of
:mod:`undercroft.narrate.refusals`), a roll of the dice, a wait."""

from __future__ import annotations

from undercroft.narrate.lines.base import line
from undercroft.narrate.refusals import DOING, REFUSALS, WHEN
from undercroft.narrate.words import Words
from undercroft.rules import events as ev
from undercroft.rules.names import The, the


@line(ev.Refused)
def _e_refused(nar: Words, e: ev.Refused) -> str:
    fields = e.why.fields
    monster = str(fields.get("monster", ""))
    name = nar.monster(monster)
    item = nar.content.items.get(str(fields.get("item", "")))
    action = e.action or ""
    return REFUSALS[e.why.code].format(
        **{"action": action, "reason": str(e.why.code), **fields, **({"item": item.name} if item else {})},
        The=The(name) if monster else "It",
        the=the(name) if monster else "it",
        doing=DOING.get(action, (e.action or "that").replace("_", " ")),
        when=WHEN.get(str(fields.get("mode", "")), "now"),
        ways=ways(bool(fields.get("talks", True)), bool(fields.get("runs", True))),
    )


@line(ev.Roll)
def _e_roll(nar: Words, e: ev.Roll) -> str:
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
        return f"Distance rolled: {total} ft."
    if purpose == "surprise_party":
        return f"Surprise (party): rolled {total}: {res}."
    if purpose == "surprise_monster":
        return f"Surprise ({nar.monster(e.monster or '')}): rolled {total}: {res}."
    if purpose == "reaction":
        labels = {str(b.result): b.label for b in nar.content.tables.reaction.bands}
        return f"Reaction: rolled {total}: {labels.get(res, res)}."
    if e.dice and res in ("yes", "no"):  # a percentile check (a certain one rolls no die: no line)
        return f"{purpose.replace('_', ' ').capitalize()}: rolled {total} vs {e.target}%: {res}."
    return ""


@line(ev.Wait)
def _e_wait(nar: Words, e: ev.Wait) -> str:
    return "You hold back." if e.combat else "You wait."


def ways(talks: bool, runs: bool) -> str:
    """What a party facing a monster may do instead of walking on, as a refusal says it: "fight, talk, wait or run",
    without talk where the monster hears no terms and without run where the rules have no running away."""
    parts = ["fight", *(["talk"] if talks else []), "wait", *(["run"] if runs else [])]
    return ", ".join(parts[:-1]) + " or " + parts[-1]
