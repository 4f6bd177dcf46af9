"""The encounter (003): meeting a group, its distance, surprise and reaction, and what the monster does.

* First meeting (:func:`begin`): distance (``encounter.distance``: the group stands at that walking distance on
  the map, :func:`undercroft.rules.approach.place`; where the party cannot see its tile it is out of sight and
  walks toward the party each round, and the encounter opens when it comes into sight), surprise for each side
  (1..``surprised_max`` on the surprise die; both surprised cancels out: neither side moves nor fights that
  round, and out of sight they pass each other by), then the 2d6 reaction (the reaction table's bands).
* The distance is the walking distance on the map, measured after every action (:func:`follow`). Talking,
  bribing and fighting need the group in sight; to fight, the sides close at their speeds (:func:`fight`), round
  by round, and a hostile monster may attack meanwhile. A monster that attacks comes at the party at its speed.
* A group met again keeps its reaction. A submerged monster is not seen at all until the party walks on.
* The monster acts on its reaction when the party waits or was surprised (:func:`monster_reacts`): the band's
  chance to attack, else a peaceful or friendly group goes its way (a wanderer: the party may pursue it, 003) or
  lets the party be.
* Every action that lets a round pass in an encounter (:func:`round_passes`) brings a far group closer.
* The party may fight (:func:`fight`), or break an agreement by attacking a peaceful group (:func:`break_peace`,
  000 8.6).
"""

from __future__ import annotations

from undercroft.content.schema import Monster, ReactionBand
from undercroft.rules import approach, combat, formulas
from undercroft.rules.context import Ctx
from undercroft.rules.dice import Dice
from undercroft.rules.events import Event
from undercroft.rules.refusals import Code, Reason
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
    measure(ctx, enc, g)
    met = Event(
        "encounter",
        {
            "group": g.id,
            "monster": g.monster,
            "count": len(g.alive),
            "hp": list(g.hp),
            "origin": g.origin,
            "first": first,
            "out_of_sight": enc.out_of_sight,
        },
    )
    events.append(met)
    both_surprised = False
    if first:
        g.met = True
        both_surprised = _first_meeting(ctx, g, mon, enc, events)
        met.data["out_of_sight"] = enc.out_of_sight  # where it stands was settled by the meeting
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
        events.append(Event("round_lost", {"group": g.id, "monster": g.monster, "count": g.count_told}))
    if not initiates(ctx, g, mon):
        return
    if g.reaction_result == "attacks" and not enc.monster_surprised:
        events.append(Event("attacks", {"group": g.id, "monster": g.monster, "count": g.count_told}))
        charge(ctx, g, events)
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
        g.pos = approach.place(ctx, g, dist, anywhere=g.origin == Origin.WANDERING)
        g.segment = int(st.level.map.segment_of[g.pos[1], g.pos[0]])
        measure(ctx, enc, g)
        events.append(
            Event(
                "placed",
                {
                    "group": g.id,
                    "pos": list(g.pos),
                    "distance": enc.distance,
                    "rolled": dist,
                    "out_of_sight": enc.out_of_sight,
                },
            )
        )
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
            events.append(
                Event("surprise", {"party": True, "monster": True, "monster_id": g.monster, "count": g.count_told})
            )
            enc.first_round = False
        else:
            enc.party_surprised, enc.monster_surprised = ps, ms
            if ps or ms:
                events.append(
                    Event("surprise", {"party": ps, "monster": ms, "monster_id": g.monster, "count": g.count_told})
                )
        if ps and ms and enc.out_of_sight:
            events.append(Event("bypass", {"group": g.id}))
            st.mode, st.encounter = Mode.EXPLORE, None
            return True
    if ctx.proc.reaction:
        roll_reaction(ctx, g, events)
    return both


def roll_reaction(ctx: Ctx, g: Group, events: list[Event]) -> None:
    table = ctx.content.tables.reaction
    total, _ = ctx.roll(
        events, "reaction", table.dice, ENCOUNTER, result=lambda t: formulas.band(table.bands, t).result
    )
    g.reaction, g.reaction_result = total, formulas.band(table.bands, total).result


def monster_reacts(ctx: Ctx, g: Group, events: list[Event]) -> None:
    """The monster acts on its reaction (the party waited, or was surprised)."""
    st = ctx.state
    mon = ctx.monster_of(g)
    if not initiates(ctx, g, mon):
        return
    band = reaction_band(ctx, g)
    chance = band.attacks_chance if band is not None else formulas.PERCENT
    if ctx.percent(events, "monster_attacks", chance, group=g.id):
        events.append(Event("attacks", {"group": g.id, "monster": g.monster, "count": g.count_told}))
        charge(ctx, g, events)
        combat.start(ctx, g, events, first=Side.MONSTERS)
        return
    if g.reaction_result in ("peaceful", "friendly"):
        if g.origin == Origin.WANDERING:
            # It goes its way; until the party's next action it may be pursued (flight.pursue), then it is gone.
            st.fled = g.id
            events.append(
                Event(
                    "leaves",
                    {"group": g.id, "monster": g.monster, "count": g.count_told, "distance": approach.distance(ctx, g)},
                )
            )
        else:
            g.peaceful = True
            events.append(
                Event("peaceful", {"group": g.id, "monster": g.monster, "count": g.count_told, "already": False})
            )
        st.mode, st.encounter = Mode.EXPLORE, None


def round_passes(ctx: Ctx, events: list[Event]) -> None:
    """A round of the encounter goes by: surprise no longer counts, and a group out of sight walks toward the
    party at its speed (it may come into sight)."""
    st = ctx.state
    ctx.tick(1)
    enc = st.encounter
    if enc is not None:
        enc.first_round = False
        if enc.out_of_sight:
            g = st.group(enc.group)
            approach.advance(ctx, g, approach.tiles_per_round(ctx, ctx.monster_of(g).speed))
            measure(ctx, enc, g)
            events.append(
                Event(
                    "approach",
                    {
                        "group": g.id,
                        "distance": enc.distance,
                        "monster": g.monster,
                        "count": g.count_told,
                        "out_of_sight": enc.out_of_sight,
                    },
                )
            )
            if not enc.out_of_sight:
                comes_into_sight(ctx, g, events)


def measure(ctx: Ctx, enc: Encounter, g: Group) -> None:
    """The encounter's distance (walking, in feet) and whether the group is out of sight, from the map."""
    enc.distance = approach.distance(ctx, g)
    enc.out_of_sight = ctx.proc.distance and not approach.in_sight(ctx, g)


def follow(ctx: Ctx, events: list[Event]) -> None:
    """After every action in an encounter: the distance and sight as the map has them now; a group that has come
    into sight (the party walked into view of it) opens the encounter."""
    st = ctx.state
    enc = st.encounter
    if st.mode != Mode.ENCOUNTER or enc is None:
        return
    try:
        g = st.group(enc.group)
    except KeyError:
        return
    was = enc.out_of_sight
    measure(ctx, enc, g)
    if was and not enc.out_of_sight:
        comes_into_sight(ctx, g, events)


def comes_into_sight(ctx: Ctx, g: Group, events: list[Event]) -> None:
    """The party and a group that was out of sight see each other: now it is met (003); one that attacks comes on."""
    st = ctx.state
    enc = st.encounter
    assert enc is not None
    events.append(
        Event("in_sight", {"group": g.id, "monster": g.monster, "distance": enc.distance, "count": len(g.alive)})
    )
    if initiates(ctx, g, ctx.monster_of(g)) and g.reaction_result == "attacks" and not enc.monster_surprised:
        events.append(Event("attacks", {"group": g.id, "monster": g.monster, "count": g.count_told}))
        charge(ctx, g, events, moved=True)
        combat.start(ctx, g, events)


def charge(ctx: Ctx, g: Group, events: list[Event], *, moved: bool = False) -> None:
    """A monster that attacks comes at the party at its speed: a round for each stretch it covers beyond the
    first, and for the first too when it has already walked this round (``moved``: it came into sight walking).
    A monster that cannot move stays where it is."""
    st = ctx.state
    tiles = approach.tiles_per_round(ctx, ctx.monster_of(g).speed)
    first = not moved
    while not approach.side_by_side(ctx, g):
        if not first:
            ctx.tick(1)
        first = False
        if not approach.advance(ctx, g, tiles):
            break
        events.append(
            Event(
                "approach",
                {
                    "group": g.id,
                    "distance": approach.distance(ctx, g),
                    "monster": g.monster,
                    "count": g.count_told,
                    "out_of_sight": False,
                },
            )
        )
    if st.encounter is not None:
        st.encounter.distance = approach.distance(ctx, g)


def check_in_sight(ctx: Ctx) -> Reason | None:
    """Why the party cannot deal with the group it has met yet: it is out of sight (None: it is in sight)."""
    enc = ctx.state.encounter
    if ctx.state.mode == Mode.ENCOUNTER and enc is not None and enc.out_of_sight:
        return Reason(Code.UNSEEN)
    return None


def wait(ctx: Ctx, events: list[Event]) -> None:
    """The party waits to see what the monster does."""
    st = ctx.state
    assert st.encounter is not None
    g = st.group(st.encounter.group)
    events.append(Event("wait", {"combat": False}))
    unseen = st.encounter.out_of_sight
    round_passes(ctx, events)
    if not unseen and st.mode == Mode.ENCOUNTER:  # (a group that came into sight spent the round coming)
        monster_reacts(ctx, g, events)


def fight(ctx: Ctx, events: list[Event]) -> None:
    """The party attacks the group it faces: where the ruleset has distance, the sides first close (:func:`close`)."""
    st = ctx.state
    assert st.encounter is not None
    g = st.group(st.encounter.group)
    g.peaceful = False
    g.risen = True
    if ctx.proc.distance:
        close(ctx, g, events)
        if st.mode != Mode.ENCOUNTER:  # the monster struck first on the way
            return
    combat.start(ctx, g, events)


def close(ctx: Ctx, g: Group, events: list[Event]) -> None:
    """The party closes on ``g`` to fight it: each round it walks its speed toward the group (which, hostile, comes
    on at its own); every round they are still apart the monster may attack first (its reaction band's chance)."""
    st = ctx.state
    enc = st.encounter
    assert enc is not None
    mon = ctx.monster_of(g)
    while not approach.side_by_side(ctx, g):
        moved = approach.party_advance(ctx, g, approach.tiles_per_round(ctx, ctx.party_speed()))
        if initiates(ctx, g, mon):
            moved = approach.advance(ctx, g, approach.tiles_per_round(ctx, mon.speed)) or moved
        enc.distance = approach.distance(ctx, g)
        events.append(
            Event("close", {"group": g.id, "monster": g.monster, "count": g.count_told, "distance": enc.distance})
        )
        if approach.side_by_side(ctx, g) or not moved:
            return
        ctx.tick(1)  # a round goes by with the sides still apart
        enc.first_round = False
        band = reaction_band(ctx, g)
        if (
            initiates(ctx, g, mon)
            and band is not None
            and ctx.percent(events, "monster_attacks", band.attacks_chance, group=g.id)
        ):
            events.append(Event("attacks", {"group": g.id, "monster": g.monster, "count": g.count_told}))
            charge(ctx, g, events)
            combat.start(ctx, g, events, first=Side.MONSTERS)
            return


def break_peace(ctx: Ctx, events: list[Event]) -> None:
    """Break an agreement: attack the nearest monster the party can see in its segment (000 8.6)."""
    st = ctx.state
    g = ctx.nearest_here()
    assert g is not None  # the precheck
    st.encounter = Encounter(g.id, entry=ctx.way_out(), first_round=False)
    st.mode = Mode.ENCOUNTER
    if g.peaceful:
        events.append(Event("break_peace", {"group": g.id, "monster": g.monster, "count": g.count_told}))
    fight(ctx, events)
