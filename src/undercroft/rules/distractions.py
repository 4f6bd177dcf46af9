"""Distractions in a chase (003): "the party may drop possessions to slow pursuit". Food dropped stops an
unintelligent pursuer, treasure an intelligent one, each on a percentile chance, and the chase ends; burning oil
stops a monster with self-preservation, or slows it. A drop buys off nobody: there is none in a meeting or a fight
(refused, ``not_fleeing``), where paying a monster is a bribe (000). The chase itself: :mod:`undercroft.rules.flight`.
"""

from __future__ import annotations

from undercroft.rules import flight, formulas
from undercroft.rules.context import Ctx
from undercroft.rules.events import Event
from undercroft.rules.rng import ENCOUNTER
from undercroft.rules.state import Group
from undercroft.rules.types import Behaviour, Distraction, Mode


def _stops(ctx: Ctx, g: Group, why: Distraction, events: list[Event]) -> None:
    st = ctx.state
    events.append(Event("distracted", {"group": g.id, "by": why, "monster": g.monster, "count": g.count_told}))
    st.mode, st.pursuit, st.encounter = Mode.EXPLORE, None, None


def drop_food(ctx: Ctx, events: list[Event]) -> None:
    """Throw down food while fleeing: an unintelligent pursuer may stop to eat, and the chase ends (003). Only in
    a pursuit: in a meeting, paying a monster is a bribe (000, :func:`undercroft.rules.parley.bribe`)."""
    food = ctx.item_of("food")
    assert food is not None  # the precheck
    g = ctx.current_group()
    mon = ctx.monster_of(g)
    ctx.take_item(food)
    events.append(Event("drop", {"item": food, "amount": 1}))
    works = formulas.distracted_by("food", mon.intelligent, Behaviour.SUBMERGED in mon.behaviours)
    if works and ctx.percent(events, "food_distracts", ctx.content.tables.distractions.food, group=g.id):
        _stops(ctx, g, "food", events)
        return
    if not works:
        events.append(Event("ignored", {"group": g.id, "monster": g.monster, "count": g.count_told, "what": "food"}))
    _after_drop(ctx, events)


def drop_treasure(ctx: Ctx, events: list[Event]) -> None:
    """Throw down treasure while fleeing: an intelligent pursuer may stop for it (it then keeps it), and the chase
    ends (003). Only in a pursuit, as :func:`drop_food`. The least valuable gem goes first (ours: gold buys bribes
    and wares; a gem only counts when carried out), else gold (:func:`dropped_treasure`)."""
    st = ctx.state
    g = ctx.current_group()
    mon = ctx.monster_of(g)
    item, amount, value = dropped_treasure(ctx, events)
    events.append(Event("drop", {"item": item, "amount": amount}))
    works = formulas.distracted_by("treasure", mon.intelligent, Behaviour.SUBMERGED in mon.behaviours)
    if works and ctx.percent(events, "treasure_distracts", ctx.content.tables.distractions.treasure, group=g.id):
        g.treasure += value  # (a gem's worth joins its hoard: killed later, it pays out as gold)
        _stops(ctx, g, "treasure", events)
        return
    st.level.items.setdefault(st.pos, []).append((item, amount))
    st.level.touch()
    if not works:
        events.append(Event("ignored", {"group": g.id, "monster": g.monster, "count": g.count_told, "what": item}))
    _after_drop(ctx, events)


def dropped_treasure(ctx: Ctx, events: list[Event]) -> tuple[str, int, int]:
    """What the party throws down, taken from it: (item, amount, value in gold). The least valuable gem it carries
    (ties by id), its value off the floor's haul; else ``distractions.treasure_gold`` gold (at most all of it)."""
    st = ctx.state
    gems = sorted(
        (ctx.content.items[i].value or 0, i)
        for i, n in st.items.items()
        if n > 0 and ctx.content.items[i].kind == "treasure"
    )
    if gems:
        value, gem = gems[0]
        ctx.take_item(gem)
        st.haul = max(0, st.haul - value)
        return gem, 1, value
    want, _ = ctx.roll(events, "treasure_dropped", ctx.content.tables.distractions.treasure_gold, ENCOUNTER)
    gold = max(1, min(st.gold, want))
    st.gold -= gold
    return "gold", gold, gold


def _after_drop(ctx: Ctx, events: list[Event]) -> None:
    """The drop did not stop the pursuer: the chase goes on (a round of running, or of being caught up with)."""
    if not ctx.tired():
        flight.keep_running(ctx, events)
    else:
        flight.pursuit_round(ctx, events)


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
    events.append(Event("oil", {"item": item, "group": g.id, "monster": g.monster, "count": g.count_told}))
    if not mon.self_preservation:
        events.append(Event("ignored", {"group": g.id, "monster": g.monster, "count": g.count_told, "what": "fire"}))
    elif ctx.percent(events, "oil_stops", d.oil_stops, group=g.id):
        _stops(ctx, g, "fire", events)
        return
    else:
        slowed = formulas.oil_slowed_feet(d.oil_slows_rounds, mon.speed, ctx.rules.encounter.running_multiplier)
        p.distance += slowed
        events.append(Event("slowed", {"group": g.id, "feet": slowed, "monster": g.monster, "count": g.count_told}))
    _after_drop(ctx, events)
