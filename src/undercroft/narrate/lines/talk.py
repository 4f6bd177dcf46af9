"""The lines of talk with a monster group and what it buys: a negotiation, a bribe, the way down, a hireling."""

from __future__ import annotations

from undercroft.narrate.lines.base import line
from undercroft.narrate.words import Words, agree
from undercroft.rules import events as ev
from undercroft.rules.names import The, the


@line(ev.Negotiate)
def _e_negotiate(nar: Words, e: ev.Negotiate) -> str:
    name, many = nar.group(e.monster, e.count)
    parts = f"{sum(e.faces)}"
    if e.use_reluctance:
        parts += f" - {e.reluctance} reluctance"
    if e.use_ability:
        parts += f" + {e.ability} negotiation"
    outcome = {
        "failure": "Failure.",
        "agreement": f"Agreement: {the(name)} will not attack while you do not.",
        "intimidation": f"Intimidation: {the(name)} will not attack while you do not"
        + (f", and {agree(many, 'hands', 'hand')} over {e.tribute} gold as tribute." if e.tribute else "."),
    }[e.result]
    return f"Negotiation: {parts} = {e.total}. {outcome}"


@line(ev.Bribe)
def _e_bribe(nar: Words, e: ev.Bribe) -> str:
    head = f"Bribe of {e.gold} gold: rolled {e.total} vs {e.digit}: "
    if e.result == "accepted":
        return head + "accepted."
    name, many = nar.group(e.monster, e.count)
    return head + f"refused. {The(name)} {agree(many, 'keeps the gold and attacks', 'keep the gold and attack')}!"


@line(ev.Directions)
def _e_directions(nar: Words, e: ev.Directions) -> str:
    name, many = nar.group(e.monster, e.count)
    if e.known:
        return f"{The(name)} {agree(many, 'points', 'point')} you to the stairs you know already: nothing new."
    return f"{The(name)} {agree(many, 'tells', 'tell')} you the way down: it is on your map (> to go)."


@line(ev.Hired)
def _e_hired(nar: Words, e: ev.Hired) -> str:
    name, many = nar.group(e.monster, e.count)
    fights = agree(many, "it fights", "they fight")
    return f"{The(name)} {agree(many, 'comes', 'come')} along: {fights} at your side on this floor."


@line(ev.HirelingAttack)
def _e_hireling_attack(nar: Words, e: ev.HirelingAttack) -> str:
    who = The(nar.monster(e.monster))
    foe = nar.creature(e.target, e.target_index, e.count)
    if not e.hit:
        return f"{who} misses {foe}."
    return f"{who} hits {foe}. {e.damage} damage. {foe} at {e.target_hp_after}."


@line(ev.HirelingLeft)
def _e_hireling_left(nar: Words, e: ev.HirelingLeft) -> str:
    name, many = nar.group(e.monster, e.count)
    return f"{The(name)} {agree(many, 'stays', 'stay')} behind on this floor."
