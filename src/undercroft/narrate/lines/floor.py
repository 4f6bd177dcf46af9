"""The lines of exploring a floor: a find, a rest, the way down, the monster check's table (``move`` and
``enter`` have none: :data:`~undercroft.narrate.lines.base.SILENT`)."""

from __future__ import annotations

from undercroft.narrate.lines.base import line
from undercroft.narrate.words import Words
from undercroft.rules import events as ev


@line(ev.Pickup)
def _e_pickup(nar: Words, e: ev.Pickup) -> str:
    item, amount = nar.content.items[e.item], e.amount
    if item.kind == "gold":
        return f"You pick up {amount} gold."
    what = f"the {item.name}" if amount == 1 else f"{amount} x {item.name}"  # (as "You buy the Healing Potion")
    return f"You pick up {what}."


@line(ev.Rest)
def _e_rest(nar: Words, e: ev.Rest) -> str:
    text = "You rest for a turn."
    progress = e.progress
    if e.recovered:
        text = "You rest for a turn. You are no longer exhausted."
    elif progress:
        text = f"You rest for a turn ({progress[0]}/{progress[1]} rounds of rest)."
    if e.healed:
        if nar.solo:
            text += " " + " ".join(f"HP {h}/{mx}." for _, h, mx in e.hp)
        else:
            text += " " + " ".join(f"{nar.member(i)}: HP {h}/{mx}." for i, h, mx in e.hp)
    return text


@line(ev.Descend)
def _e_descend(nar: Words, e: ev.Descend) -> str:
    return f"You go down to level {e.depth + 1}: {e.name}. {nar.greeting(e.depth)}".rstrip()


@line(ev.Table)
def _e_table(nar: Words, e: ev.Table) -> str:
    return f"{nar.table_name(e.table)}: row {e.row}, column {e.column}: {e.number} x {nar.monster(e.monster)}."
