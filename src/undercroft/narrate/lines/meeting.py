"""The lines of a meeting with a monster group: found, placed, seen, surprise, and how it behaves while the
sides face each other."""

from __future__ import annotations

from undercroft.narrate.lines.base import line
from undercroft.narrate.words import Words, agree, plural
from undercroft.rules import events as ev
from undercroft.rules.names import The, a_name, the


@line(ev.Encounter)
def _e_encounter(nar: Words, e: ev.Encounter) -> str:
    name, count = nar.monster(e.monster), e.count
    if e.sighted:  # out of sight until now
        who = f"{count} {nar.group(e.monster, count)[0]} come" if count > 1 else f"{a_name(name)} comes"
        return f"{who} into sight, {e.distance} ft away!"
    return f"{count} x {name}!" if count > 1 else f"{a_name(name)}!"


@line(ev.Placed)
def _e_placed(nar: Words, e: ev.Placed) -> str:
    # (the distance the panel and the encounter go by: the map's, never the roll where the room is shorter)
    where = ", out of sight" if e.out_of_sight else ""
    rolled = f" (rolled {e.rolled} ft)" if e.rolled != e.distance else ""
    return f"Distance: {e.distance} ft{where}{rolled}."


@line(ev.Hidden)
def _e_hidden(nar: Words, e: ev.Hidden) -> str:
    return "The water is still. You see nothing."


@line(ev.Reveal)
def _e_reveal(nar: Words, e: ev.Reveal) -> str:
    return f"Something rises from the water behind you: {nar.monster(e.monster)}!"


@line(ev.InSight)
def _e_in_sight(nar: Words, e: ev.InSight) -> str:
    name, count = nar.monster(e.monster), e.count
    who = f"{count} {nar.group(e.monster, count)[0]} come" if count > 1 else f"{a_name(name)} comes"
    return f"{who} into sight, {e.distance} ft away."


@line(ev.Close)
def _e_close(nar: Words, e: ev.Close) -> str:
    name = the(nar.group(e.monster, e.count)[0])
    if e.distance <= nar.content.rules.encounter.feet_per_tile:
        return f"You close with {name}."
    return f"You close in on {name}: {e.distance} ft apart."


@line(ev.Surprise)
def _e_surprise(nar: Words, e: ev.Surprise) -> str:
    if e.party and e.monster:
        return "Both sides are surprised: the surprise cancels out."
    name, many = nar.group(e.monster_id, e.count)
    who = "You are" if e.party else f"{The(name)} {agree(many, 'is', 'are')}"
    return f"{who} surprised."


@line(ev.RoundLost)
def _e_round_lost(nar: Words, e: ev.RoundLost) -> str:
    return "Neither side moves nor fights this round."


@line(ev.Approach)
def _e_approach(nar: Words, e: ev.Approach) -> str:
    name, many = nar.group(e.monster, e.count)
    return f"{The(name)} {agree(many, 'comes', 'come')} closer: {e.distance} ft."


@line(ev.Standoff)
def _e_standoff(nar: Words, e: ev.Standoff) -> str:
    name, many = nar.group(e.monster, e.count)
    return f"{plural(e.rounds, 'round')} of this, and {the(name)} {agree(many, 'makes', 'make')} up " + (
        f"{nar.pronouns(e.monster, many)[1]} mind."
    )


@line(ev.Guards)
def _e_guards(nar: Words, e: ev.Guards) -> str:
    name, _ = nar.group(e.monster, e.count)
    return f"{The(name)} will not leave the way out."


@line(ev.Attacks)
def _e_attacks(nar: Words, e: ev.Attacks) -> str:
    name, many = nar.group(e.monster, e.count)
    return f"{The(name)} {agree(many, 'attacks', 'attack')}!"


@line(ev.Leaves)
def _e_leaves(nar: Words, e: ev.Leaves) -> str:
    name, many = nar.group(e.monster, e.count)
    return f"{The(name)} {agree(many, 'goes', 'go')} on {nar.pronouns(e.monster, many)[1]} way."


@line(ev.Peaceful)
def _e_peaceful(nar: Words, e: ev.Peaceful) -> str:
    name, many = nar.group(e.monster, e.count)
    verb = agree(many, "lets", "let") if e.already else agree(many, "leaves", "leave")
    return f"{The(name)} {verb} you be."


@line(ev.Pass)
def _e_pass(nar: Words, e: ev.Pass) -> str:
    name, many = nar.group(e.monster, e.count)
    return f"{The(name)} {agree(many, 'lets', 'let')} you pass."


@line(ev.WalkedPast)
def _e_walked_past(nar: Words, e: ev.WalkedPast) -> str:
    name, many = nar.group(e.monster, e.count)
    they = nar.pronouns(e.monster, many)[0]
    return f"You walk past {the(name)}, and {they} {agree(many, 'objects', 'object')}."


@line(ev.BreakPeace)
def _e_break_peace(nar: Words, e: ev.BreakPeace) -> str:
    return f"You break the peace with {the(nar.group(e.monster, e.count)[0])}."


@line(ev.Rises)
def _e_rises(nar: Words, e: ev.Rises) -> str:
    name, many = nar.group(e.monster, e.count)
    return f"{The(name)} {agree(many, 'rises', 'rise')}."
