"""Groups come upon out of the party's sight (003: "If the players are surprised and the monster is beyond their
field of vision the monster will navigate towards the party the best it can. Only when the monster and party
actually meet will the party know an encounter has occurred."): after every action each walks toward the party as
far as the rounds gone by let it, and the one the party sees is met (:func:`watch`). The meeting itself:
:mod:`undercroft.rules.encounter`.
"""

from __future__ import annotations

from undercroft.rules import approach, encounter, reaction
from undercroft.rules import events as ev
from undercroft.rules.context import Ctx
from undercroft.rules.events import Event
from undercroft.rules.state import Group
from undercroft.rules.types import OVER, Mode, Surprise


def watch(ctx: Ctx, events: list[Event]) -> None:
    """After every action: the groups come upon out of the party's sight. While the party explores, each that
    knows it is there (it was not surprised) walks toward it as far as the rounds gone by let it, "the best it can"
    (003), for at most ``encounter.approach_rounds`` rounds, stopping as it comes into sight. One the party sees
    (its field of view, as the map shows it) is known from then on; exploring, the party meets the nearest of
    them (:func:`meet`); in the middle of another meeting, a fight or a chase, it is met later like any group left
    alone (one meeting at a time)."""
    st = ctx.state
    unseen = [g for g in st.level.groups if g.unseen]
    if not unseen or st.mode in OVER:
        return
    exploring = st.mode == Mode.EXPLORE
    sighted = []
    for g in unseen:
        if exploring:
            _come(ctx, g, events)
        if _seen(ctx, g):
            g.unseen = False
            sighted.append(g)
    met = None
    if exploring and sighted:
        met = min(sighted, key=lambda o: (approach.steps_between(ctx, st.pos, o.pos), sighted.index(o)))
    for g in sighted:
        if g is not met:  # seen, and known from now on, but not met now
            events.append(
                ev.InSight(group=g.id, monster=g.monster, count=len(g.alive), distance=approach.distance(ctx, g))
            )
    if met is not None:
        encounter.meet(ctx, met, events, first=True, sighted=True)


def _seen(ctx: Ctx, g: Group) -> bool:
    """Whether the party sees ``g`` now (:func:`approach.in_sight`, asked only within sight's reach)."""
    px, py = ctx.state.pos
    near = max(abs(g.pos[0] - px), abs(g.pos[1] - py)) <= ctx.fov_radius()
    return near and approach.in_sight(ctx, g)


def _come(ctx: Ctx, g: Group, events: list[Event]) -> None:
    """An unseen group that knows of the party walks toward it the rounds gone by since it last did (see
    :func:`watch`)."""
    st = ctx.state
    mon = ctx.monster_of(g)
    if g.surprise in (Surprise.MONSTERS, Surprise.BOTH) or not reaction.initiates(ctx, g, mon):
        return  # it does not know the party is there (or never starts anything): it goes on as it was
    rounds = min(st.rounds - g.since, ctx.rules.encounter.approach_rounds) - g.walked
    if rounds <= 0:
        return
    g.walked += rounds
    if approach.advance(ctx, g, rounds * approach.tiles_per_round(ctx, mon.speed), until=lambda: _seen(ctx, g)):
        events.append(
            ev.Approach(
                group=g.id,
                distance=approach.distance(ctx, g),
                monster=g.monster,
                count=g.count_told,
                out_of_sight=not _seen(ctx, g),
            )
        )
