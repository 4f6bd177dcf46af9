"""The lines of running, evasion and pursuit, and of what is dropped or thrown behind to stop a chaser."""

from __future__ import annotations

from undercroft.narrate.lines.base import line
from undercroft.narrate.words import Words, agree, plural
from undercroft.rules import events as ev
from undercroft.rules.names import The, the


@line(ev.Run)
def _e_run(nar: Words, e: ev.Run) -> str:
    return "You run through the door."


@line(ev.Leave)
def _e_leave(nar: Words, e: ev.Leave) -> str:
    name, many = nar.group(e.monster, e.count)
    they = nar.pronouns(e.monster, many)[0]
    return f"{The(name)} {agree(many, 'stays', 'stay')} where {they} {agree(many, 'is', 'are')}."


@line(ev.Evade)
def _e_evade(nar: Words, e: ev.Evade) -> str:
    name, many = nar.group(e.monster, e.count)
    if e.reason == "faster":
        return f"You are faster than {the(name)} ({e.party_speed} vs {e.monster_speed} ft): you get away."
    if e.reason == "out_of_sight":
        return f"{The(name)} never saw where you went."
    return f"{The(name)} {agree(many, 'does', 'do')} not follow."


@line(ev.Pursuit)
def _e_pursuit(nar: Words, e: ev.Pursuit) -> str:
    name, many = nar.group(e.monster, e.count)
    comes = f"{The(name)} {agree(many, 'comes', 'come')} after you"
    if e.distance <= nar.content.rules.encounter.feet_per_tile:  # a step away: from a fight, at your heels
        return f"{comes}, right at your heels!"
    return f"{comes}! ({e.distance} ft behind)"


@line(ev.Pursue)
def _e_pursue(nar: Words, e: ev.Pursue) -> str:
    return f"You go after {the(nar.group(e.monster, e.count)[0])}! ({e.distance} ft ahead)"


@line(ev.LetGo)
def _e_let_go(nar: Words, e: ev.LetGo) -> str:
    return f"You let {the(nar.group(e.monster, e.count)[0])} go."


@line(ev.Chase)
def _e_chase(nar: Words, e: ev.Chase) -> str:
    name, many = nar.group(e.monster, e.count)
    where = "ahead of" if e.by == "party" else "behind"
    return f"{The(name)} {agree(many, 'is', 'are')} {e.distance} ft {where} you."


@line(ev.Exhausted)
def _e_exhausted(nar: Words, e: ev.Exhausted) -> str:
    fat = nar.content.rules.fatigue
    return (
        f"You have run {plural(e.rounds, 'round')}: exhausted until you rest "
        f"{plural(fat.rest_turns, 'turn')} (-{fat.to_hit_penalty} to hit, -{fat.damage_penalty} damage, "
        f"foes +{fat.opponent_bonus})."
    )


@line(ev.Drop)
def _e_drop(nar: Words, e: ev.Drop) -> str:
    if e.item == "gold":
        return f"You drop {e.amount} gold."
    it = nar.content.items.get(e.item)
    return f"You drop {the(it.name)}." if it is not None and it.kind == "treasure" else "You drop food."


@line(ev.Distracted)
def _e_distracted(nar: Words, e: ev.Distracted) -> str:
    name, many = nar.group(e.monster, e.count)
    return f"{The(name)} {agree(many, 'stops', 'stop')} for the {e.by}."


@line(ev.Ignored)
def _e_ignored(nar: Words, e: ev.Ignored) -> str:
    name, many = nar.group(e.monster, e.count)
    what = e.what
    if what == "fire":
        return f"{The(name)} {agree(many, 'comes', 'come')} on through the flames."
    it = nar.content.items.get(what)
    thing = "gold" if what == "gold" else it.name if it is not None and it.kind == "treasure" else "food"
    return f"{The(name)} {agree(many, 'ignores', 'ignore')} the {thing}."


@line(ev.Oil)
def _e_oil(nar: Words, e: ev.Oil) -> str:
    if e.damage is None or e.target_index is None:  # (thrown behind the party in a chase)
        return "You throw burning oil behind you."
    name = nar.creature(e.monster, e.target_index, e.count)
    return f"Burning oil. {e.damage} damage. {name} at {e.target_hp_after}."


@line(ev.Slowed)
def _e_slowed(nar: Words, e: ev.Slowed) -> str:
    name, many = nar.group(e.monster, e.count)
    balks, waits = agree(many, "balks", "balk"), agree(many, "waits", "wait")
    rounds = e.rounds
    return f"{The(name)} {balks} at the fire and {waits} {rounds} round{'s' if rounds != 1 else ''} for it to die."


@line(ev.Caught)
def _e_caught(nar: Words, e: ev.Caught) -> str:
    name, many = nar.group(e.monster, e.count)
    if e.by == "party":
        return f"You catch up with {the(name)}!"
    if e.exhausted:
        return "Too exhausted to run on, you turn to fight."
    if not e.fights:
        return f"{The(name)} {agree(many, 'catches up, and only wants', 'catch up, and only want')} to be friends."
    return f"{The(name)} {agree(many, 'catches', 'catch')} you!"


@line(ev.Escape)
def _e_escape(nar: Words, e: ev.Escape) -> str:
    name, many = nar.group(e.monster, e.count)
    if e.reason == "gave_up":
        return f"{The(name)} {agree(many, 'gives', 'give')} up the chase."
    return (  # (it may still be drawn on the map: it is the one that cannot see)
        f"{The(name)} {agree(many, 'has', 'have')} lost sight of you ({e.distance} ft off) and "
        f"{agree(many, 'gives', 'give')} up."
    )


@line(ev.GotAway)
def _e_got_away(nar: Words, e: ev.GotAway) -> str:
    name, many = nar.group(e.monster, e.count)
    if e.reason == "gave_up":
        return f"You give up the chase: {the(name)} {agree(many, 'gets', 'get')} away."
    return (  # (the map still draws the group met, wherever it stands: "out of sight" would contradict it)
        f"You lose sight of {the(name)} ({e.distance} ft off): "
        f"{nar.pronouns(e.monster, many)[0]} {agree(many, 'gets', 'get')} away."
    )
