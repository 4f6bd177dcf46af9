"""The encounter (003): coming upon a group, its distance, surprise and reaction, the meeting, and what the monster
does.

* The first time the party comes upon a group (:func:`begin`): the distance (``encounter.distance``: the group
  stands at that walking distance on the map, :func:`undercroft.rules.approach.place`), surprise for each side
  (1..``surprised_max`` on the surprise die), then the 2d6 reaction (the reaction table's bands).
* Where the party cannot see the group's tile it is ``unseen``: nothing about it reaches the player (003: "only
  when the monster and party actually meet will the party know an encounter has occurred"), and the party explores
  as if alone. One that was not surprised knows the party is there and walks toward it as the rounds pass
  (:func:`watch`), for at most ``approach_rounds`` rounds; a surprised one goes on as it was. The sides meet
  when it comes into the party's sight.
* The meeting (:func:`meet`): the surprise rolled applies then, and a surprised side loses the first round,
  played out before the party chooses (both: neither side moves nor fights that round; the party: the monster
  acts on its reaction; the monster: it neither moves nor acts while the party has the round, :func:`reaction.unaware`).
* The distance is the walking distance on the map, measured after every action (:func:`follow`). To fight, the
  sides close at their speeds (:func:`fight`), round by round, and a hostile monster may attack meanwhile. A
  monster that attacks comes at the party at its speed.
* A group met again keeps its reaction. A submerged monster is not seen at all until the party walks on.
* The monster acts on its reaction when the party waits or was surprised (:func:`monster_reacts`): the band's
  chance to attack, else a peaceful or friendly group goes its way (a wanderer: the party may pursue it, 003) or
  lets the party be. A monster still facing the party after ``standoff_rounds`` rounds makes up its mind
  (:func:`standoff`): the band's ``standoff_attacks`` chance to attack, else it goes or lets the party be. A
  guardian of the final level never goes nor lets the party be (:func:`reaction.is_final_guardian`): it keeps
  the way out.
  What a Wait brings, as the panels and the bot read it: :func:`reaction.wait_outcome`.
* The party may fight (:func:`fight`), or break an agreement by attacking a peaceful group (:func:`break_peace`,
  000 8.6).
"""

from __future__ import annotations

from undercroft.rules import approach, combat, formulas, reaction
from undercroft.rules import events as ev
from undercroft.rules.context import Ctx
from undercroft.rules.dice import Dice
from undercroft.rules.events import Event
from undercroft.rules.refusals import Code, Reason, Refused
from undercroft.rules.rng import ENCOUNTER
from undercroft.rules.state import Encounter, Group
from undercroft.rules.types import Behaviour, FreeRound, Mode, Origin, Side, Surprise


def begin(ctx: Ctx, g: Group, events: list[Event]) -> None:
    """The party comes upon ``g`` (a group the monster check found, or one it walks into): the first time, the
    meeting's rolls (:func:`_first_meeting`); then the meeting itself (:func:`meet`), unless the group stands out
    of the party's sight: then nothing is met yet (:func:`watch`)."""
    first = not g.met
    if first and Behaviour.SUBMERGED in ctx.monster_of(g).behaviours:
        g.hidden = True
        g.met = True
        events.append(ev.Hidden(group=g.id))
        return
    if first:
        g.met = True
        _first_meeting(ctx, g, events)
        if g.unseen:
            return
    meet(ctx, g, events, first=first)


def _first_meeting(ctx: Ctx, g: Group, events: list[Event]) -> None:
    """Distance, surprise and reaction, rolled once, when the group is first come upon (003's sequence). Where the
    ruleset rolls a distance the group stands at it on the map, and where the party cannot see it, it is
    ``unseen``; the surprise is held until the sides meet (``Group.surprise``)."""
    st = ctx.state
    rules = ctx.rules.encounter
    g.since = st.rounds
    if ctx.proc.distance:
        dist, _ = ctx.roll(events, "distance", rules.distance, ENCOUNTER, group=g.id)
        g.pos = approach.place(ctx, g, dist, anywhere=g.origin == Origin.WANDERING)
        g.segment = int(st.level.map.segment_of[g.pos[1], g.pos[0]])
        g.unseen = not approach.in_sight(ctx, g)
        events.append(
            ev.Placed(
                group=g.id, pos=list(g.pos), distance=approach.distance(ctx, g), rolled=dist, out_of_sight=g.unseen
            )
        )
    if ctx.proc.surprise:
        sm = rules.surprised_max
        sd = Dice(1, rules.surprise_die)

        def result(t: int) -> str:
            return "surprised" if formulas.surprised(t, sm) else "ready"

        _, pr = ctx.roll(events, "surprise_party", sd, ENCOUNTER, target=sm, result=result, group=g.id)
        _, mr = ctx.roll(
            events, "surprise_monster", sd, ENCOUNTER, target=sm, result=result, monster=g.monster, group=g.id
        )
        g.surprise = formulas.surprise(pr == "surprised", mr == "surprised")
    if ctx.proc.reaction:
        roll_reaction(ctx, g, events)


def roll_reaction(ctx: Ctx, g: Group, events: list[Event]) -> None:
    table = ctx.content.tables.reaction
    total, _ = ctx.roll(
        events,
        "reaction",
        table.dice,
        ENCOUNTER,
        result=lambda t: formulas.band(table.bands, t).result,
        group=g.id,
    )
    g.reaction, g.reaction_result = total, formulas.band(table.bands, total).result


def meet(ctx: Ctx, g: Group, events: list[Event], *, first: bool, sighted: bool = False) -> None:
    """The party and ``g`` meet: the encounter opens (``sighted``: the group has just come into sight). The
    surprise rolled when the group was first come upon applies now, and a surprised side loses this first round,
    played out before the party chooses: both surprised, "neither side moves nor fights that round" (003); the
    party surprised, the monster acts on its reaction and the party does nothing; the monster surprised, the party
    has the round to itself (:func:`reaction.unaware`)."""
    st = ctx.state
    mon = ctx.monster_of(g)
    g.unseen = False
    enc = Encounter(g.id, entry=ctx.way_out(), distance=approach.distance(ctx, g))
    st.mode, st.encounter = Mode.ENCOUNTER, enc
    events.append(
        ev.Encounter(
            group=g.id,
            monster=g.monster,
            count=len(g.alive),
            hp=list(g.hp),
            origin=g.origin,
            first=first,
            distance=enc.distance,
            sighted=sighted,
        )
    )
    surprise, g.surprise = g.surprise, Surprise.NONE
    if surprise:
        enc.party_surprised, enc.monster_surprised = surprise == Surprise.PARTY, surprise == Surprise.MONSTERS
        both = surprise == Surprise.BOTH
        events.append(
            ev.Surprise(
                party=both or enc.party_surprised,
                monster=both or enc.monster_surprised,
                monster_id=g.monster,
                count=g.count_told,
                group=g.id,
            )
        )
        if both:  # 003: "neither side moves nor fights that round": it goes by, and what follows is the next one
            events.append(ev.RoundLost(group=g.id, monster=g.monster, count=g.count_told))
            round_passes(ctx, events)
    if st.mode != Mode.ENCOUNTER:
        return
    if not reaction.initiates(ctx, g, mon):
        if enc.party_surprised:
            round_passes(ctx, events)  # the party's surprised round: nothing comes of it
        return
    if g.reaction_result == "attacks" and not enc.monster_surprised:
        _attacks(ctx, g, events, moved=sighted)
        return
    if not ctx.proc.reaction and not ctx.proc.negotiation:
        # The Warden: a monster in the room means a fight.
        combat.start(ctx, g, events)
        return
    if enc.party_surprised:
        monster_reacts(ctx, g, events)  # its free round: it acts on its reaction...
        if st.mode == Mode.ENCOUNTER:
            round_passes(ctx, events)  # ...and the party, surprised, does nothing


def _attacks(ctx: Ctx, g: Group, events: list[Event], *, first: Side | None = None, moved: bool = False) -> None:
    """The monster attacks: it comes at the party (:func:`charge`) and the fight begins (``first``: it strikes
    first)."""
    events.append(ev.Attacks(group=g.id, monster=g.monster, count=g.count_told))
    charge(ctx, g, events, moved=moved)
    combat.start(ctx, g, events, first=first)


def monster_reacts(ctx: Ctx, g: Group, events: list[Event]) -> None:
    """The monster acts on its reaction (the party waited, or was surprised); a quiet wanderer
    (:func:`reaction.moves_on`) at peace with the party goes its way."""
    mon = ctx.monster_of(g)
    if not reaction.initiates(ctx, g, mon):
        if reaction.moves_on(g, mon) and g.reaction_result in reaction.KIND:
            _lets_be(ctx, g, events)
        return
    if ctx.percent(events, "monster_attacks", reaction.attacks_chance(ctx, g), group=g.id):
        _attacks(ctx, g, events, first=Side.MONSTERS)
    elif reaction.gives_way(ctx, g):
        _lets_be(ctx, g, events)


def _lets_be(ctx: Ctx, g: Group, events: list[Event]) -> None:
    """The monster will not attack: a wanderer goes its way (the party may pursue it, 003), any other lets the
    party be."""
    st = ctx.state
    if g.origin == Origin.WANDERING:
        # It goes its way; until the party's next action it may be pursued (flight.pursue), then it is gone.
        st.fled = g.id
        events.append(ev.Leaves(group=g.id, monster=g.monster, count=g.count_told, distance=approach.distance(ctx, g)))
    else:
        g.peaceful = True
        events.append(ev.Peaceful(group=g.id, monster=g.monster, count=g.count_told, already=False))
    st.mode, st.encounter = Mode.EXPLORE, None


def round_passes(ctx: Ctx, events: list[Event], *, waited: bool = False) -> None:
    """A round of the meeting goes by (a Wait, a failed Talk, a drink, a drop, a step in front of a monster that
    lets the party walk): a side surprised in the first round loses it (003: it neither moves nor acts); after a
    Wait, a drink or a thing used (``waited``) the monster acts on its reaction, unless it was the one surprised;
    and one that still faces the party
    after ``standoff_rounds`` rounds makes up its mind (:func:`standoff`)."""
    st = ctx.state
    ctx.tick(1)
    enc = st.encounter
    if st.mode != Mode.ENCOUNTER or enc is None:
        return
    g = st.group(enc.group)
    free = formulas.free_round(enc.first_round, enc.party_surprised, enc.monster_surprised)
    enc.first_round = False
    enc.rounds += 1
    if waited and free != FreeRound.PARTY:
        monster_reacts(ctx, g, events)
    if free:  # the round the surprised side lost is over
        lost = Side.PARTY if free == FreeRound.MONSTERS else Side.MONSTERS
        events.append(ev.SurprisedSkip(group=g.id, monster=g.monster, count=g.count_told, side=lost))
    if (
        st.mode == Mode.ENCOUNTER
        and enc.rounds >= ctx.rules.encounter.standoff_rounds
        and reaction.standoff_due(ctx, g, enc)
    ):
        standoff(ctx, g, events)


def standoff(ctx: Ctx, g: Group, events: list[Event]) -> None:
    """A meeting that has lasted ``encounter.standoff_rounds`` rounds with the monster still facing the party
    (neither attacking nor going) ends: it makes up its mind (003's "monster confused"). One that starts things
    attacks, striking first, on its band's ``standoff_attacks`` chance (without a reaction: it attacks); else, and
    one that never starts anything (a quiet wanderer, :func:`reaction.moves_on`), goes its way or lets the party
    be, as on a kind reaction; but a final guardian stays where it is, keeping the way out (a ``guards`` event),
    and makes up its mind no more in this meeting."""
    enc = ctx.state.encounter
    assert enc is not None
    events.append(ev.Standoff(group=g.id, monster=g.monster, count=g.count_told, rounds=enc.rounds))
    if reaction.initiates(ctx, g, ctx.monster_of(g)) and (
        reaction.reaction_band(ctx, g) is None
        or ctx.percent(events, "standoff_attacks", reaction.standoff_chance(ctx, g), group=g.id)
    ):
        _attacks(ctx, g, events, first=Side.MONSTERS)
    elif reaction.is_final_guardian(ctx, g):
        enc.stays = True
        events.append(ev.Guards(group=g.id, monster=g.monster, count=g.count_told))
    else:
        _lets_be(ctx, g, events)


def follow(ctx: Ctx) -> None:
    """After every action in an encounter: the distance as the map has it now."""
    st = ctx.state
    enc = st.encounter
    if enc is None or st.mode != Mode.ENCOUNTER:
        return
    try:
        enc.distance = approach.distance(ctx, st.group(enc.group))
    except KeyError:
        return


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
            ev.Approach(
                group=g.id,
                distance=approach.distance(ctx, g),
                monster=g.monster,
                count=g.count_told,
                out_of_sight=False,
            )
        )
    if st.encounter is not None:
        st.encounter.distance = approach.distance(ctx, g)


def wait(ctx: Ctx, events: list[Event]) -> None:
    """The party waits to see what the monster does."""
    events.append(ev.Wait(combat=False))
    round_passes(ctx, events, waited=True)


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
        caught_unaware = reaction.unaware(enc)  # a surprised monster does not move in the first round
        moved = approach.party_advance(ctx, g, approach.tiles_per_round(ctx, ctx.party_speed()))
        if reaction.initiates(ctx, g, mon) and not caught_unaware:
            moved = approach.advance(ctx, g, approach.tiles_per_round(ctx, mon.speed)) or moved
        enc.distance = approach.distance(ctx, g)
        events.append(ev.Close(group=g.id, monster=g.monster, count=g.count_told, distance=enc.distance))
        if approach.side_by_side(ctx, g) or not moved:
            return
        ctx.tick(1)  # a round goes by with the sides still apart
        enc.first_round = False
        if caught_unaware:
            events.append(ev.SurprisedSkip(group=g.id, monster=g.monster, count=g.count_told, side=Side.MONSTERS))
            continue
        band = reaction.reaction_band(ctx, g)
        if (
            reaction.initiates(ctx, g, mon)
            and band is not None
            and ctx.percent(events, "monster_attacks", band.attacks_chance, group=g.id)
        ):
            _attacks(ctx, g, events, first=Side.MONSTERS)
            return


def break_peace(ctx: Ctx, events: list[Event], group: int = -1) -> None:
    """Break an agreement: attack group ``group`` of the party's segment, one it can see (-1: the nearest) (000
    8.6)."""
    st = ctx.state
    g = ctx.nearest_here() if group < 0 else next((o for o in ctx.here() if o.id == group), None)
    if g is None:
        raise Refused(Reason(Code.NOTHING_TO_FIGHT))
    st.encounter = Encounter(g.id, entry=ctx.way_out(), first_round=False)
    st.mode = Mode.ENCOUNTER
    if g.peaceful:
        events.append(ev.BreakPeace(group=g.id, monster=g.monster, count=g.count_told))
    fight(ctx, events)
