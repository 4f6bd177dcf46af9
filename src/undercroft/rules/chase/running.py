"""Running, evasion and pursuit (001 running; 003 evasion, pursuit, food, treasure, oil).

* Running (:func:`run`): the party leaves through a door of its segment, the one the player chooses (001: "any
  door"), for the tile beyond it (at once when nothing chases it, else round by round); where 003 is on, a door a
  pursuer stands in front of (no way round its creatures, or the group beyond it) is blocked (003: evasion only
  when the route is not blocked; :func:`undercroft.rules.ways_out.blocks`). Nothing is mapped while running;
  once the run is over the party looks round and the segment it ran into gets its entry procedure, as any entry.
  A monster pursues only if the ruleset has pursuit on and its data says it pursues; one that does not stays
  where it is, keeping its damage (001). Otherwise 003: before
  the combat phase (running from the encounter) a party faster than the monster evades it automatically
  (:func:`formulas.escapes_by_speed`), and a group that never saw where it went (out of sight) loses it; from a
  fight neither applies. Then the reaction band's pursuit chance decides whether it follows (certain for a group
  with no reaction, and for a submerged monster), rolled once, the first time the party runs from the group: its
  answer stands for every later run from it (``Group.pursues``). A chase starts where the sides stand on the map
  as the party turns to run: from the encounter its first round is part of the Run; from a fight (the sides in
  melee) its rounds are the Runs that follow.
* Pursuit (:func:`pursuit_round`): each round both sides run on the map, the party toward the tile beyond its door
  and then away, the pursuer along the party's path; it catches the party beside it (a fight, or, on a friendly
  reaction, only company), and loses it once it cannot see it from its own tile, or after ``pursuit_max_rounds``
  rounds (:mod:`undercroft.rules.chase.moves`). A submerged monster never gives up.
* Distractions (003: food, treasure, burning oil dropped while fleeing): :mod:`undercroft.rules.chase.distractions`.
* The party may pursue a group that goes its way (:func:`pursue`, 003): the same chase turned round, the group
  running away on the map and the party following its path; it catches it (a fight), loses sight of it or gives
  up (the group is gone), or lets it go (``wait``).
* Every round of running counts towards exhaustion (:mod:`undercroft.rules.chase.fatigue`).
"""

from __future__ import annotations

from undercroft.rules import approach, combat, formulas, reaction, ways_out
from undercroft.rules import events as ev
from undercroft.rules.chase import fatigue, moves
from undercroft.rules.context import Ctx
from undercroft.rules.events import Event
from undercroft.rules.refusals import Code, Reason, Refused
from undercroft.rules.state import Pursuit
from undercroft.rules.types import Behaviour, Mode, Side


def exit_for(ctx: Ctx, door: int) -> ways_out.Exit:
    """The way out a run through ``door`` takes (-1: the way the party came in, unless it is blocked or leads into
    the group's own segment: then the first open one, into another segment if there is one); :class:`Refused` when
    there is no such door or it is blocked."""
    g = ctx.state.front_group()
    ways = ways_out.exits(ctx, g)
    if door == -1:  # the way it came in; else (down the stairs, blocked) the first open one; not into the group
        away = g.segment if g is not None else -2
        way = min(
            (w for w in ways if not w.blocked),
            key=lambda w: (w.segment == away, not w.came_in),
            default=None,
        )
    elif 0 <= door < len(ways):
        way = ways[door]
    else:
        raise Refused(Reason(Code.NO_SUCH_DOOR))
    if way is None:
        raise Refused(Reason(Code.NO_WAY_OUT))
    if way.blocked:
        raise Refused(Reason(Code.DOOR_BLOCKED, {"monster": g.monster if g is not None else ""}))
    return way


def check_run(ctx: Ctx) -> Reason | None:
    """Why the party cannot run from where it stands now (every way out blocked), or None."""
    st = ctx.state
    if st.mode not in (Mode.ENCOUNTER, Mode.COMBAT):
        return None
    ways = ways_out.exits(ctx, st.front_group())
    if ways and all(w.blocked for w in ways):
        g = st.front_group()
        return Reason(Code.ALL_BLOCKED, {"monster": g.monster if g is not None else ""})
    return None


def run(ctx: Ctx, door: int, events: list[Event]) -> None:
    """Run from the group in front of the party (from an encounter or a fight) through ``door``."""
    st = ctx.state
    enc = st.encounter
    g = ctx.current_group()
    mon = ctx.monster_of(g)
    way = exit_for(ctx, door)
    from_fight = st.combat is not None  # 003: evasion by speed or out of sight only before the combat phase
    fatigue.run_round(ctx, events)
    ctx.tick(1)
    st.combat = None
    submerged = Behaviour.SUBMERGED in mon.behaviours
    events.append(ev.Run(group=g.id, door=list(way.door), to=list(way.landing), segment=way.segment))
    if Behaviour.KNEELS in mon.behaviours:
        g.risen = False
    if not formulas.follows(ctx.proc.pursuit, mon.pursues):
        _land(ctx, way)
        events.append(ev.Leave(group=g.id, pursued=False, monster=g.monster, count=g.count_told))
        st.mode, st.encounter = Mode.EXPLORE, None
        return
    band = reaction.reaction_band(ctx, g)
    party_speed, monster_speed = ctx.party_speed(), mon.speed
    evaded = formulas.automatic_evasion(
        in_fight=from_fight,
        submerged=submerged,
        party_speed_=party_speed,
        monster_speed=monster_speed,
        out_of_sight=reaction.unaware(enc),  # surprised, in its first round: it never saw where the party went
    )
    if evaded is not None:
        _land(ctx, way)
        fast = evaded == "faster"
        events.append(
            ev.Evade(
                group=g.id,
                reason=evaded,
                monster=g.monster,
                count=g.count_told,
                party_speed=party_speed if fast else None,
                monster_speed=monster_speed if fast else None,
            )
        )
        st.mode, st.encounter = Mode.EXPLORE, None
        return
    if not g.pursuit_rolled:  # 003: the monster responds on its reaction, once: a second run asks it again of nobody
        chance = formulas.pursuit_chance(band.pursuit if band is not None else None, submerged, False, False)
        g.pursues, g.pursuit_rolled = ctx.percent(events, "pursuit", chance, group=g.id), True
    if not g.pursues:
        _land(ctx, way)
        events.append(ev.Evade(group=g.id, reason="no_pursuit", monster=g.monster, count=g.count_told))
        st.mode, st.encounter = Mode.EXPLORE, None
        return
    fights = band.pursuit_fights if band is not None else True
    trail = moves.start_trail(ctx, st.pos, g.pos)
    st.pursuit = Pursuit(g.id, approach.distance(ctx, g), 0, fights, to=way.landing, trail=trail)
    st.mode = Mode.CHASE
    events.append(ev.Pursuit(group=g.id, distance=st.pursuit.distance, monster=g.monster, count=g.count_told))
    if from_fight:
        return  # 003: the chase begins where the fight is; its rounds are the Runs that follow
    pursuit_round(ctx, events)


def _land(ctx: Ctx, way: ways_out.Exit) -> None:
    """A run nothing chases: through the door to the tile beyond it. Nothing is mapped on the way (003), and the
    segment is entered (its entry procedure) once the run is over."""
    st = ctx.state
    before = way.door if way.landing != way.door else _inside(ctx, way.door)
    st.prev_pos, st.pos = before, way.landing
    approach.enter_later(ctx, way.segment, before)


def _inside(ctx: Ctx, door: tuple[int, int]) -> tuple[int, int]:
    """The tile inside the party's segment next to one of its doors (where a runner steps through it from)."""
    st = ctx.state
    m = st.level.map
    for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        x, y = door[0] + dx, door[1] + dy
        if 0 <= x < m.width and 0 <= y < m.height and int(m.segment_of[y, x]) == st.segment:
            return (x, y)
    return st.pos


def pursue(ctx: Ctx, events: list[Event]) -> None:
    """Go after the group that has just gone its way (003: "the party must decide whether or not to pursue")."""
    st = ctx.state
    g = st.group(st.fled)
    st.fled = 0
    distance = approach.distance(ctx, g)
    st.pursuit = Pursuit(g.id, distance, 0, True, Side.PARTY, trail=moves.start_trail(ctx, g.pos, st.pos))
    st.mode, st.encounter = Mode.CHASE, None
    events.append(ev.Pursue(group=g.id, distance=distance, monster=g.monster, count=g.count_told))
    keep_running(ctx, events)


def check_pursue(ctx: Ctx) -> Reason | None:
    """Why the party cannot pursue now, or None."""
    st = ctx.state
    if not st.fled:
        return Reason(Code.NOTHING_TO_PURSUE)
    if not ctx.proc.pursuit:
        return Reason(Code.NO_PURSUIT)
    if ctx.tired():
        return Reason(Code.TOO_TIRED_TO_CHASE)
    return None


def let_go(ctx: Ctx, events: list[Event]) -> None:
    """The party does not pursue (any action but ``pursue`` after a group went its way; ``wait`` in a chase):
    the group is gone."""
    st = ctx.state
    giving_chase = st.pursuit is not None and st.pursuit.chaser == Side.PARTY
    # (A group that went its way while another came on and now chases the party: the one that went is gone.)
    gid = st.pursuit.group if st.pursuit is not None and giving_chase else st.fled
    st.fled = 0
    if giving_chase:
        events.append(ev.LetGo(group=gid, monster=st.group(gid).monster, count=st.group(gid).count_told))
        st.mode, st.pursuit = Mode.EXPLORE, None
    _gone(ctx, gid)


def _gone(ctx: Ctx, gid: int) -> None:
    lv = ctx.state.level
    for g in [g for g in lv.groups if g.id == gid]:
        lv.remove_group(g)


def pursuit_round(ctx: Ctx, events: list[Event], *, party_stands: bool = False) -> None:
    """One round of the chase on the map (:func:`undercroft.rules.chase.moves.round_`): the pursuer catches up, is
    stopped by something dropped, loses sight of the runner or gives up, or the chase goes on. ``party_stands``:
    the party spends the round drinking or using a thing (:func:`undercroft.rules.items.after_use`): only the
    other side runs."""
    st = ctx.state
    p = st.pursuit
    assert p is not None
    g = st.group(p.group)
    p.rounds += 1
    out = moves.round_(ctx, p, g, events, party_stands=party_stands)
    monster, count = g.monster, g.count_told
    by_party = p.chaser == Side.PARTY
    if out.end == "caught":
        if by_party or p.fights:
            by = "party" if by_party else None
            events.append(ev.Caught(group=g.id, fights=True, monster=monster, count=count, by=by))
            st.pursuit = None
            g.peaceful = g.peaceful and not by_party
            combat.start(ctx, g, events)
            return
        events.append(ev.Caught(group=g.id, fights=False, monster=monster, count=count))
        g.peaceful = True
        st.mode, st.pursuit, st.encounter = Mode.EXPLORE, None, None
        return
    if out.end == "distracted":
        events.append(ev.Distracted(group=g.id, by=out.by, monster=monster, count=count))
        st.mode, st.pursuit, st.encounter, st.lost = Mode.EXPLORE, None, None, g.id
        return
    if out.end and by_party:
        events.append(ev.GotAway(group=g.id, distance=p.distance, monster=monster, count=count, reason=out.end))
        st.mode, st.pursuit = Mode.EXPLORE, None
        _gone(ctx, g.id)
        return
    if out.end:
        events.append(ev.Escape(group=g.id, distance=p.distance, monster=monster, count=count, reason=out.end))
        st.mode, st.pursuit, st.encounter, st.lost = Mode.EXPLORE, None, None, g.id
        return
    by = "party" if by_party else None
    events.append(ev.Chase(group=g.id, distance=p.distance, round=p.rounds, monster=monster, count=count, by=by))


def keep_running(ctx: Ctx, events: list[Event]) -> None:
    """Run on while pursued; too exhausted to run on, the party turns to fight."""
    fatigue.run_round(ctx, events)  # the precheck (and after_drop) never run an exhausted party
    ctx.tick(1)
    pursuit_round(ctx, events)
    st = ctx.state
    if st.mode == Mode.CHASE and st.exhausted:
        p = st.pursuit
        assert p is not None
        g = st.group(p.group)
        if p.chaser == Side.PARTY:  # too exhausted to chase on: it gets away
            let_go(ctx, events)
            return
        events.append(ev.Caught(group=g.id, fights=True, monster=g.monster, count=g.count_told, exhausted=True))
        st.pursuit = None
        combat.start(ctx, g, events)


def turn_and_fight(ctx: Ctx, events: list[Event]) -> None:
    """Stop running and fight the pursuer."""
    st = ctx.state
    assert st.pursuit is not None
    g = st.group(st.pursuit.group)
    st.pursuit = None
    combat.start(ctx, g, events)
