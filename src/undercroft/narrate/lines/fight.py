"""The lines of a fight: who acts first, each swing, a creature that does not act, a death, the defeat."""

from __future__ import annotations

from undercroft.narrate.lines.base import line
from undercroft.narrate.words import Words, agree
from undercroft.rules import events as ev
from undercroft.rules.names import The, the


@line(ev.Initiative)
def _e_initiative(nar: Words, e: ev.Initiative) -> str:
    name, many = nar.group(e.monster_id, e.count)
    first = "you act first." if e.first == "party" else f"{the(name)} {agree(many, 'acts', 'act')} first."
    return f"AGILITY {e.party} vs {e.monster}: {first}"


@line(ev.Combat)
def _e_combat(nar: Words, e: ev.Combat) -> str:
    free = {"party": " Free round: yours.", "monsters": " Free round: theirs."}.get(str(e.free_round), "")
    return f"Fight!{free}"


@line(ev.SurprisedSkip)
def _e_surprised_skip(nar: Words, e: ev.SurprisedSkip) -> str:
    if e.side == "party":
        return "Surprised, you lose the round."
    name, many = nar.group(e.monster, e.count)
    return f"{The(name)} {agree(many, 'is surprised and does', 'are surprised and do')} not act."


@line(ev.PartyAttack)
def _e_party_attack(nar: Words, e: ev.PartyAttack) -> str:
    who = nar.member(e.member)
    if not e.hit:
        return f"{nar.verb(who, 'miss', 'misses')}."
    name = nar.creature(e.target, e.target_index, e.count)
    crit = "A critical hit! " if e.critical else ""
    return f"{crit}{nar.verb(who, 'hit')}. {e.damage} damage. {name} at {e.target_hp_after}."


@line(ev.MonsterAttack)
def _e_monster_attack(nar: Words, e: ev.MonsterAttack) -> str:
    name = nar.creature(e.attacker, e.attacker_index, e.count)
    if not e.hit:
        return f"{name} misses."
    crit = "A critical hit! " if e.critical else ""
    hp = f"HP {e.target_hp_after}/{e.target_max_hp}."
    if nar.solo:
        return f"{crit}{name} hits. {e.damage} damage. {hp}"
    target = nar.template_name(e.target)
    return f"{crit}{name} hits {target}. {e.damage} damage. {target} {hp}"


@line(ev.Kill)
def _e_kill(nar: Words, e: ev.Kill) -> str:
    return f"{nar.creature(e.monster, e.index, e.count)} is dead."


@line(ev.Slow)
def _e_slow(nar: Words, e: ev.Slow) -> str:
    name, many = nar.group(e.monster, e.count)
    return f"{The(name)} {agree(many, 'is', 'are')} slow to move."


@line(ev.Holds)
def _e_holds(nar: Words, e: ev.Holds) -> str:
    name, many = nar.group(e.monster, e.count)
    return f"{The(name)} {agree(many, 'waits', 'wait')}."


@line(ev.Idle)
def _e_idle(nar: Words, e: ev.Idle) -> str:
    name, many = nar.group(e.monster, e.count)
    return f"Left alone, {the(name)} {agree(many, 'kneels', 'kneel')} again."


@line(ev.Regenerate)
def _e_regenerate(nar: Words, e: ev.Regenerate) -> str:
    name = nar.creature(e.monster, e.index, e.count)
    return f"{name} closes up. {name} at {e.hp}."


@line(ev.Victory)
def _e_victory(nar: Words, e: ev.Victory) -> str:
    gold = e.gold
    name, many = nar.group(e.monster, e.count)
    text = f"{The(name)} {agree(many, 'is', 'are')} defeated." + (f" You take {gold} gold." if gold else "")
    if len(e.shares) > 1 and gold:
        text += " Shares: " + ", ".join(f"{nar.template_name(t)} {n}" for t, n in e.shares) + "."
    spoils = [f"the {nar.content.items[i].name}" for i in e.spoils or []]
    if spoils:
        lies = spoils[0] if len(spoils) == 1 else ", ".join(spoils[:-1]) + " and " + spoils[-1]
        they = nar.pronouns(e.monster, many)[0]
        text += f" Where {they} fell {agree(len(spoils) > 1, 'lies', 'lie')} {lies}."
    return text
