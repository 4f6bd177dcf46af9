"""The encounter (003): meeting a group, its distance, surprise and reaction, and what the monster does.

* First meeting (:func:`begin`): distance (``encounter.distance``; farther than ``sight_feet`` it is out of sight
  and comes closer each round), surprise for each side (1..``surprised_max`` on the surprise die; both surprised
  cancels out: neither side moves nor fights that round, and far apart they pass each other by), then the 2d6
  reaction (the reaction table's bands).
* A group met again keeps its reaction. A submerged monster is not seen at all until the party walks on.
* The monster acts on its reaction when the party waits or was surprised (:func:`monster_reacts`): the band's
  chance to attack, else a peaceful or friendly group goes its way (a wanderer) or lets the party be.
* Every action that lets a round pass in an encounter (:func:`round_passes`) brings a far group closer.
* The party may fight (:func:`fight`), or break an agreement by attacking a peaceful group (:func:`break_peace`,
  000 8.6).
"""

from __future__ import annotations

from undercroft.content.schema import Monster, ReactionBand
from undercroft.rules import combat, formulas
from undercroft.rules.context import Ctx
from undercroft.rules.dice import Dice
from undercroft.rules.events import Event
from undercroft.rules.rng import ENCOUNTER
from undercroft.rules.state import Encounter, Group
from undercroft.rules.types import Behaviour, Mode, Origin, Side

_QUIET = (Behaviour.PASSIVE, Behaviour.HOLDS_GROUND)


def reaction_band(ctx: Ctx, g: Group) -> ReactionBand | None:
    """The reaction band of ``g`` (None: no reaction was rolled)."""
    if not g.reaction:
        return None
    return formulas.band(ctx.content.tables.reaction.bands, g.reaction)


def initiates(ctx: Ctx, g: Group, mon: Monster) -> bool:
    """Whether ``g`` starts anything: standing, not at peace, neither passive nor holding its ground."""
    return g.risen and not g.peaceful and not any(b in mon.behaviours for b in _QUIET)


def lets_party_move(g: Group, mon: Monster) -> bool:
    """Whether the party may walk on (or down) while ``g`` faces it."""
    return g.peaceful or not g.risen or any(b in mon.behaviours for b in _QUIET)


def begin(ctx: Ctx, g: Group, events: list[Event]) -> None:
    """The party meets ``g``: the meeting procedure the first time, then what the monster does."""
    st = ctx.state
    mon = ctx.monster_of(g)
    enc = Encounter(g.id, entry=ctx.way_out())
    first = not g.met
    if first and Behaviour.SUBMERGED in mon.behaviours:
        g.hidden = True
        g.met = True
        events.append(Event("hidden", {"group": g.id}))
        return
    st.mode, st.encounter = Mode.ENCOUNTER, enc
    events.append(Event("encounter", {"group": g.id, "monster": g.monster, "count": len(g.alive),
                                      "hp": list(g.hp), "origin": g.origin, "first": first}))
    both_surprised = False
    if first:
        g.met = True
        both_surprised = _first_meeting(ctx, g, mon, enc, events)
        if st.mode != Mode.ENCOUNTER:  # far apart and both surprised: they passed each other by
            return
    elif ctx.proc.reaction and not g.reaction:
        roll_reaction(ctx, g, events)  # met before without a reaction (both sides surprised, far apart)
    if enc.out_of_sight:
        events.append(Event("out_of_sight", {"group": g.id, "distance": enc.distance}))
        return
    if both_surprised:
        # 003: "neither side moves nor fights that round": the round goes by, and what follows is the next one.
        round_passes(ctx, events)
        events.append(Event("round_lost", {"group": g.id, "monster": g.monster}))
    if not initiates(ctx, g, mon):
        return
    if g.reaction_result == "attacks" and not enc.monster_surprised:
        events.append(Event("attacks", {"group": g.id, "monster": g.monster}))
        combat.start(ctx, g, events)
        return
    if not ctx.proc.reaction and not ctx.proc.negotiation:
        # The Warden: a monster in the room means a fight.
        combat.start(ctx, g, events)
        return
    if enc.party_surprised:
        monster_reacts(ctx, g, events)


def _first_meeting(ctx: Ctx, g: Group, mon: Monster, enc: Encounter, events: list[Event]) -> bool:
    """Distance, surprise and reaction, settled once when first met. True when both sides were surprised (far
    apart, they pass each other by: the party is exploring again)."""
    st = ctx.state
    rules = ctx.rules.encounter
    both = False
    if ctx.proc.distance:
        dist, _ = ctx.roll(events, "distance", rules.distance, ENCOUNTER)
        enc.distance = dist
        enc.out_of_sight = dist > rules.sight_feet
    if ctx.proc.surprise:
        sm = rules.surprised_max
        sd = Dice(1, rules.surprise_die)

        def result(t: int) -> str:
            return "surprised" if formulas.surprised(t, sm) else "ready"

        _, pr = ctx.roll(events, "surprise_party", sd, ENCOUNTER, target=sm, result=result)
        _, mr = ctx.roll(events, "surprise_monster", sd, ENCOUNTER, target=sm, result=result, monster=g.monster)
        ps, ms = pr == "surprised", mr == "surprised"
        both = ps and ms
        if both:
            events.append(Event("surprise", {"party": True, "monster": True, "monster_id": g.monster}))
            enc.first_round = False
        else:
            enc.party_surprised, enc.monster_surprised = ps, ms
            if ps or ms:
                events.append(Event("surprise", {"party": ps, "monster": ms, "monster_id": g.monster}))
        if ps and ms and enc.out_of_sight:
            events.append(Event("bypass", {"group": g.id}))
            st.mode, st.encounter = Mode.EXPLORE, None
            return True
    if ctx.proc.reaction:
        roll_reaction(ctx, g, events)
    return both


def roll_reaction(ctx: Ctx, g: Group, events: list[Event]) -> None:
    table = ctx.content.tables.reaction
    total, res = ctx.roll(events, "reaction", table.dice, ENCOUNTER,
                          result=lambda t: str(formulas.band(table.bands, t).result))
    g.reaction, g.reaction_result = total, res


def monster_reacts(ctx: Ctx, g: Group, events: list[Event]) -> None:
    """The monster acts on its reaction (the party waited, or was surprised)."""
    st = ctx.state
    mon = ctx.monster_of(g)
    if not initiates(ctx, g, mon):
        return
    band = reaction_band(ctx, g)
    chance = band.attacks_chance if band is not None else formulas.PERCENT
    if ctx.percent(events, "monster_attacks", chance, group=g.id):
        events.append(Event("attacks", {"group": g.id, "monster": g.monster}))
        combat.start(ctx, g, events, first=Side.MONSTERS)
        return
    if g.reaction_result in ("peaceful", "friendly"):
        if g.origin == Origin.WANDERING:
            st.level.groups.remove(g)
            events.append(Event("leaves", {"group": g.id, "monster": g.monster}))
        else:
            g.peaceful = True
            events.append(Event("peaceful", {"group": g.id, "monster": g.monster, "already": False}))
        st.mode, st.encounter = Mode.EXPLORE, None


def round_passes(ctx: Ctx, events: list[Event]) -> None:
    """A round of the encounter goes by: surprise no longer counts, and a far group comes closer."""
    st = ctx.state
    ctx.tick(1)
    enc = st.encounter
    if enc is not None:
        enc.first_round = False
        if enc.out_of_sight:
            g = st.group(enc.group)
            mon = ctx.monster_of(g)
            enc.distance = max(0, enc.distance - mon.speed)
            enc.out_of_sight = enc.distance > ctx.rules.encounter.sight_feet
            events.append(Event("approach", {"group": g.id, "distance": enc.distance, "monster": g.monster,
                                             "out_of_sight": enc.out_of_sight}))


def wait(ctx: Ctx, events: list[Event]) -> None:
    """The party waits to see what the monster does."""
    st = ctx.state
    assert st.encounter is not None
    g = st.group(st.encounter.group)
    events.append(Event("wait", {"combat": False}))
    round_passes(ctx, events)
    if not st.encounter.out_of_sight:
        monster_reacts(ctx, g, events)


def fight(ctx: Ctx, events: list[Event]) -> None:
    """The party attacks the group it faces."""
    st = ctx.state
    assert st.encounter is not None
    g = st.group(st.encounter.group)
    g.peaceful = False
    g.risen = True
    combat.start(ctx, g, events)


def break_peace(ctx: Ctx, events: list[Event]) -> None:
    """Break an agreement: attack the nearest monster the party can see in its segment (000 8.6)."""
    st = ctx.state
    g = ctx.nearest_here()
    assert g is not None  # the precheck
    st.encounter = Encounter(g.id, entry=ctx.way_out(), first_round=False)
    st.mode = Mode.ENCOUNTER
    if g.peaceful:
        events.append(Event("break_peace", {"group": g.id, "monster": g.monster}))
    fight(ctx, events)
