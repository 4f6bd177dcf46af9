"""Running, evasion and pursuit (001 running; 003 evasion, pursuit, food, treasure, oil).

* Running (:func:`run`): the party leaves through the door it came in by. A monster pursues only if the ruleset
  has pursuit on and its data says it pursues; one that does not stays where it is (001). Otherwise 003: before
  the combat phase (running from the encounter) a party faster than the monster evades it automatically
  (:func:`formulas.escapes_by_speed`), and a group that never saw where it went (out of sight) loses it; from a
  fight neither applies. Then the reaction band's pursuit chance decides whether it follows (certain for a group
  with no reaction, and for a submerged monster). A chase from the encounter starts at its distance; from a fight
  at 0 ft (the sides were in melee).
* Pursuit (:func:`pursuit_round`): each round the pursuer gains (its speed - the party's) x the running multiplier
  in feet; at 0 ft it catches the party (a fight, or, on a friendly reaction, only company); beyond sight, or after
  ``pursuit_max_rounds`` rounds, it gives up. A submerged monster never gives up.
* Distractions (003): dropped food stops an unintelligent pursuer, dropped treasure an intelligent one, each on a
  percentile chance; burning oil stops a monster with self-preservation, or slows it.
* Every round of running counts towards exhaustion (:mod:`undercroft.rules.fatigue`).
"""

from __future__ import annotations

from typing import Literal

from undercroft.rules import combat, encounter, fatigue, formulas
from undercroft.rules.context import Ctx
from undercroft.rules.events import Event
from undercroft.rules.rng import ENCOUNTER
from undercroft.rules.state import Group, Pursuit
from undercroft.rules.types import Behaviour, Mode


def run(ctx: Ctx, events: list[Event]) -> None:
    """Run from the group in front of the party (from an encounter or a fight)."""
    st = ctx.state
    enc = st.encounter
    g = ctx.current_group()
    mon = ctx.monster_of(g)
    entry = enc.entry if enc is not None else st.prev_pos
    from_fight = st.combat is not None  # 003: evasion by speed or out of sight only before the combat phase
    fatigue.run_round(ctx, events)
    ctx.tick(1)
    st.combat = None
    submerged = Behaviour.SUBMERGED in mon.behaviours
    # Leave through the door the party came in by.
    st.prev_pos, st.pos = st.pos, entry
    st.segment = int(st.level.map.segment_of[entry[1], entry[0]])
    ctx.see()
    if Behaviour.KNEELS in mon.behaviours:
        g.risen = False
    if not formulas.follows(ctx.proc.pursuit, mon.pursues):
        events.append(Event("leave", {"group": g.id, "pursued": False, "monster": g.monster}))
        st.mode, st.encounter = Mode.EXPLORE, None
        return
    band = encounter.reaction_band(ctx, g)
    party_speed, monster_speed = ctx.party_speed(), mon.speed
    evaded = formulas.automatic_evasion(in_fight=from_fight, submerged=submerged, party_speed_=party_speed,
                                        monster_speed=monster_speed,
                                        out_of_sight=enc is not None and enc.out_of_sight)
    if evaded is not None:
        speeds = {"party_speed": party_speed, "monster_speed": monster_speed} if evaded == "faster" else {}
        events.append(Event("evade", {"group": g.id, "reason": evaded, "monster": g.monster, **speeds}))
        st.mode, st.encounter = Mode.EXPLORE, None
        return
    chance = formulas.PERCENT if (band is None or submerged) else band.pursuit
    if not ctx.percent(events, "pursuit", chance, group=g.id):
        events.append(Event("evade", {"group": g.id, "reason": "no_pursuit", "monster": g.monster}))
        st.mode, st.encounter = Mode.EXPLORE, None
        return
    distance = enc.distance if (not from_fight and enc is not None and ctx.proc.distance) else 0
    fights = band.pursuit_fights if band is not None else True
    st.pursuit = Pursuit(g.id, distance, 0, fights)
    st.mode = Mode.PURSUIT
    events.append(Event("pursuit", {"group": g.id, "distance": distance, "monster": g.monster}))
    pursuit_round(ctx, events)


def pursuit_round(ctx: Ctx, events: list[Event]) -> None:
    """One round of the chase: the pursuer gains or loses ground, catches up, or gives up."""
    st = ctx.state
    p = st.pursuit
    assert p is not None
    g = st.group(p.group)
    mon = ctx.monster_of(g)
    rules = ctx.rules.encounter
    p.rounds += 1
    p.distance -= formulas.pursuit_gain(mon.speed, ctx.party_speed(), rules.running_multiplier)
    if p.distance <= 0:
        if not p.fights:
            events.append(Event("caught", {"group": g.id, "fights": False, "monster": g.monster}))
            g.peaceful = True
            st.mode, st.pursuit, st.encounter = Mode.EXPLORE, None, None
            return
        events.append(Event("caught", {"group": g.id, "fights": True, "monster": g.monster}))
        st.pursuit = None
        combat.start(ctx, g, events)
        return
    if p.distance > rules.sight_feet:
        events.append(Event("escape", {"group": g.id, "distance": p.distance, "monster": g.monster,
                                       "reason": "out_of_sight"}))
        st.mode, st.pursuit, st.encounter = Mode.EXPLORE, None, None
        return
    if p.rounds >= rules.pursuit_max_rounds and Behaviour.SUBMERGED not in mon.behaviours:
        events.append(Event("escape", {"group": g.id, "distance": p.distance, "monster": g.monster,
                                       "reason": "gave_up"}))
        st.mode, st.pursuit, st.encounter = Mode.EXPLORE, None, None
        return
    events.append(Event("chase", {"group": g.id, "distance": p.distance, "round": p.rounds, "monster": g.monster}))


def keep_running(ctx: Ctx, events: list[Event]) -> None:
    """Run on while pursued; too exhausted to run on, the party turns to fight."""
    fatigue.run_round(ctx, events)  # the precheck (and after_drop) never run an exhausted party
    ctx.tick(1)
    pursuit_round(ctx, events)
    st = ctx.state
    if st.mode == Mode.PURSUIT and st.exhausted:
        p = st.pursuit
        assert p is not None
        g = st.group(p.group)
        events.append(Event("caught", {"group": g.id, "fights": True, "monster": g.monster, "exhausted": True}))
        st.pursuit = None
        combat.start(ctx, g, events)


def turn_and_fight(ctx: Ctx, events: list[Event]) -> None:
    """Stop running and fight the pursuer."""
    st = ctx.state
    assert st.pursuit is not None
    g = st.group(st.pursuit.group)
    st.pursuit = None
    combat.start(ctx, g, events)


def _stops(ctx: Ctx, g: Group, why: Literal["food", "treasure", "fire"], events: list[Event]) -> None:
    st = ctx.state
    events.append(Event("distracted", {"group": g.id, "by": why, "monster": g.monster}))
    if st.mode == Mode.ENCOUNTER:
        g.peaceful = True  # busy with it: it lets the party be
    st.mode, st.pursuit, st.encounter = Mode.EXPLORE, None, None


def drop_food(ctx: Ctx, events: list[Event]) -> None:
    """Throw down food: an unintelligent monster may stop to eat."""
    food = ctx.item_of("food")
    assert food is not None  # the precheck
    g = ctx.current_group()
    mon = ctx.monster_of(g)
    ctx.take_item(food)
    events.append(Event("drop", {"item": food, "amount": 1}))
    works = not mon.intelligent and Behaviour.SUBMERGED not in mon.behaviours
    if works and ctx.percent(events, "food_distracts", ctx.content.tables.distractions.food, group=g.id):
        _stops(ctx, g, "food", events)
        return
    if not works:
        events.append(Event("ignored", {"group": g.id, "monster": g.monster, "what": "food"}))
    _after_drop(ctx, events)


def drop_treasure(ctx: Ctx, events: list[Event]) -> None:
    """Throw down gold: an intelligent monster may stop for it (it then keeps it)."""
    st = ctx.state
    g = ctx.current_group()
    mon = ctx.monster_of(g)
    want, _ = ctx.roll(events, "treasure_dropped", ctx.content.tables.distractions.treasure_gold, ENCOUNTER)
    gold = max(1, min(st.gold, want))
    st.gold -= gold
    events.append(Event("drop", {"item": "gold", "amount": gold}))
    works = mon.intelligent and Behaviour.SUBMERGED not in mon.behaviours
    if works and ctx.percent(events, "treasure_distracts", ctx.content.tables.distractions.treasure, group=g.id):
        g.treasure += gold
        _stops(ctx, g, "treasure", events)
        return
    st.level.items.setdefault(st.pos, []).append(("gold", gold))
    if not works:
        events.append(Event("ignored", {"group": g.id, "monster": g.monster, "what": "gold"}))
    _after_drop(ctx, events)


def _after_drop(ctx: Ctx, events: list[Event]) -> None:
    st = ctx.state
    if st.mode == Mode.PURSUIT:
        if not ctx.tired():
            keep_running(ctx, events)
        else:
            pursuit_round(ctx, events)
    elif st.mode == Mode.ENCOUNTER:
        encounter.round_passes(ctx, events)


def oil(ctx: Ctx, events: list[Event]) -> None:
    """Throw burning oil behind the party: a monster with self-preservation may stop, or balks and falls back."""
    st = ctx.state
    item = ctx.item_of("oil")
    assert item is not None  # the precheck
    ctx.take_item(item)
    p = st.pursuit
    assert p is not None
    g = st.group(p.group)
    mon = ctx.monster_of(g)
    d = ctx.content.tables.distractions
    events.append(Event("oil", {"item": item, "group": g.id, "monster": g.monster}))
    if not mon.self_preservation:
        events.append(Event("ignored", {"group": g.id, "monster": g.monster, "what": "fire"}))
    elif ctx.percent(events, "oil_stops", d.oil_stops, group=g.id):
        _stops(ctx, g, "fire", events)
        return
    else:
        slowed = formulas.oil_slowed_feet(d.oil_slows_rounds, mon.speed, ctx.rules.encounter.running_multiplier)
        p.distance += slowed
        events.append(Event("slowed", {"group": g.id, "feet": slowed, "monster": g.monster}))
    _after_drop(ctx, events)
