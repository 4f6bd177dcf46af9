"""The lines of the end of a game: the victory (:func:`finale`: how the party got past the guardians) and death."""

from __future__ import annotations

from collections.abc import Sequence

from undercroft.content import Content
from undercroft.narrate.lines.base import line
from undercroft.narrate.words import Words
from undercroft.rules import events as ev
from undercroft.rules.names import The, the

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


@line(ev.Won)
def _e_won(nar: Words, e: ev.Won) -> str:
    past = finale(nar.content, e.guardians)
    if e.how == "escaped":
        return f"{past} You climb out through the seal. You have won.".lstrip()
    return f"The last of the things at the end is down. {past} You have won.".replace("  ", " ")


@line(ev.Death)
def _e_death(nar: Words, e: ev.Death) -> str:
    died = nar.death({"cause": e.cause, "turn": e.turn, "depth": e.depth})
    return f"You are dead. {died} Seed {nar.seed or e.seed}."
