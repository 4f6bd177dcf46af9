"""The chase on the map (003 pursuit: "movement for both sides is considered running; monsters chase only as long
as characters from the party are in sight"; "the party may drop possessions to slow pursuit").

A round of a chase (:func:`round_`) moves both sides on the level's map, each at its running speed (its speed x
``encounter.running_multiplier``, at the map's scale, :func:`undercroft.rules.approach.tiles_per_round`):

* **The runner** (the party, or a group the party gives chase to) runs first: to the tile beyond its door while it
  is not there yet, then away (:func:`_flight_path`): toward the tile of the map it reaches before the chaser that
  lies farthest from the chaser (walking steps; ties: nearest the runner, then top, then left). Nothing is mapped
  while the party runs; each segment it runs into is owed its entry (:func:`undercroft.rules.approach.enter_later`).
* **The chaser** follows the runner's path (``Pursuit.trail``), cutting a corner where a later tile of the path is
  a step away. Beside the runner it catches it. A tile on fire holds a monster with self-preservation (003:
  burning oil) and a food or treasure lure on its way may stop it (:mod:`.distractions` drops them).
* **Sight**: after both have moved, a chaser that cannot see the runner from its own tile (the level's field of
  view, the party's light radius: the sides see each other by it) has lost it (a submerged monster never gives up),
  as has one that has chased ``encounter.pursuit_max_rounds`` rounds.

The distance told in every chase event is the walking distance between the sides (:func:`undercroft.rules.approach.
distance`). The procedure is deterministic: the chase's dice are the pursuit roll (rolled before it starts) and the
rolls a lure or a fire asks for, when the chaser reaches them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from undercroft.rules import approach, formulas, sight
from undercroft.rules import events as ev
from undercroft.rules.context import Ctx
from undercroft.rules.events import Event
from undercroft.rules.levelmap import LevelMap, Point
from undercroft.rules.state import Group, Pursuit
from undercroft.rules.types import Behaviour, Side

#: A step's reach: the chaser catches a runner within one step; a lure within a step of it is seen.
BESIDE = 1


@dataclass(frozen=True)
class Outcome:
    """How a round ended: ``end`` is "" while the chase goes on, else "caught", "out_of_sight", "gave_up" or
    "distracted" (``by``: "food", "treasure" or "fire")."""

    end: str = ""
    by: str = ""


def _near(a: Point, b: Point) -> bool:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= BESIDE


def start_trail(ctx: Ctx, runner: Point, chaser: Point) -> list[Point]:
    """The chaser's way to the runner at the chase's start: a shortest walk round the other groups' creatures (through
    them where they close the only way: they give way to it), its last tile the runner's."""
    if _near(runner, chaser):
        return [runner]
    m = ctx.state.level.map
    others = approach.occupied(ctx) - {chaser, runner}
    for blocked in (others, set()) if others else (others,):  # the others give way when they close the only way
        field = approach.step_map(m, runner, approach.REACH, blocked, target=chaser)
        out: list[Point] = []
        here = chaser
        while True:
            nxt = approach.next_step(field, here)
            if nxt is None:
                break
            out.append(nxt)
            here = nxt
        if out and _near(out[-1], runner):
            return [*out, runner]
    return [runner]


def _floods(m: LevelMap, runner: Point, chaser: Point, blocked: set[Point]) -> tuple[np.ndarray, np.ndarray]:
    """Walking steps over the whole map from the runner (the chaser's tile and the other groups' in the way), -1
    where not reached within :data:`approach.REACH`, and from the chaser, as far again (every tile the runner
    reaches, the chaser being within its reach: a chase farther apart is over), the other groups giving way to it
    (as to the chaser's own way, :func:`start_trail`: a group in a corridor does not make the whole map "out of
    the chaser's reach", which would leave the runner no tile farther than another)."""
    out = []
    for origin, way, limit in ((runner, blocked | {chaser}, approach.REACH), (chaser, set(), 2 * approach.REACH)):
        sm = approach.step_map(m, origin, limit, way)
        full = np.full((m.height, m.width), -1, dtype=np.int32)
        arr = sm.flood.array()
        full[sm.y0 : sm.y0 + arr.shape[0], sm.x0 : sm.x0 + arr.shape[1]] = arr
        out.append(full)
    return out[0], out[1]


def _flight_path(ctx: Ctx, runner: Point, chaser: Point, blocked: set[Point]) -> list[Point]:
    """The runner's way away from the chaser (the module docstring): the tiles from its next step to its goal."""
    m = ctx.state.level.map
    mine, theirs = _floods(m, runner, chaser, blocked)
    far = 2 * approach.REACH + 1
    safe = (mine > 0) & ((theirs < 0) | (mine < theirs))
    if not safe.any():
        return []
    score = np.where(theirs < 0, far, theirs)
    ys, xs = np.nonzero(safe)
    order = np.lexsort((xs, ys, mine[ys, xs], -score[ys, xs]))
    goal = (int(xs[order[0]]), int(ys[order[0]]))
    if score[goal[1], goal[0]] <= max(0, int(theirs[runner[1], runner[0]])):
        return []  # nowhere farther from the chaser than where it stands
    path = [goal]
    here, n = goal, int(mine[goal[1], goal[0]])
    while n > 1:  # back down the runner's steps: the first neighbour one step nearer, in the fixed step order
        for dx, dy in approach.STEPS8:
            x, y = here[0] + dx, here[1] + dy
            if 0 <= x < m.width and 0 <= y < m.height and mine[y, x] == n - 1:
                here, n = (x, y), n - 1
                path.append(here)
                break
        else:  # (cannot happen: a flood's tile at n steps has one at n - 1 beside it)
            return []
    path.reverse()
    return path


def _to_door(ctx: Ctx, p: Pursuit, runner: Point, blocked: set[Point]) -> list[Point]:
    """The runner's way to the tile beyond its door (``Pursuit.to``)."""
    if p.to is None or p.to == runner:
        return []
    m = ctx.state.level.map
    field = approach.step_map(m, p.to, approach.REACH, blocked - {p.to}, target=runner)
    out: list[Point] = []
    here = runner
    while here != p.to:
        nxt = p.to if field.at(here) == 1 else approach.next_step(field, here)
        if nxt is None or field.at(here) <= 0:
            break
        out.append(nxt)
        here = nxt
    return out


def runner_steps(ctx: Ctx, p: Pursuit, runner: Point, chaser: Point, tiles: int) -> list[Point]:
    """Where the runner runs this round (at most ``tiles`` steps): to its door, then away from the chaser."""
    blocked = approach.occupied(ctx) - {runner, chaser}
    path = _to_door(ctx, p, runner, blocked | {chaser})
    if len(path) < tiles:
        here = path[-1] if path else runner
        path += _flight_path(ctx, here, chaser, blocked)
    return path[:tiles]


def sees(ctx: Ctx, frm: Point, to: Point) -> bool:
    """Whether ``to`` is in the field of view from ``frm`` (the party's light radius: the sides see each other by
    it; symmetric: the runner sees the chaser exactly when the chaser sees the runner)."""
    m = ctx.state.level.map
    y0, x0, seen = sight.fov_window(m, frm[0], frm[1], ctx.fov_radius())
    x, y = to[0] - x0, to[1] - y0
    return 0 <= y < seen.shape[0] and 0 <= x < seen.shape[1] and bool(seen[y, x])


def burning(p: Pursuit, tile: Point) -> bool:
    return p.rounds < p.fire_out and tile in p.fire


def round_(ctx: Ctx, p: Pursuit, g: Group, events: list[Event], *, party_stands: bool = False) -> Outcome:
    """One round of the chase on the map (the module docstring); ``p.rounds`` counts it. ``party_stands``: the
    party spends the round on something else (it drinks or uses a thing): it does not move, the other side does."""
    st = ctx.state
    mon = ctx.monster_of(g)
    mult = ctx.rules.encounter.running_multiplier
    party_runs = p.chaser == Side.MONSTERS
    runner, chaser = (st.pos, g.pos) if party_runs else (g.pos, st.pos)
    run_speed, chase_speed = (ctx.party_speed(), mon.speed) if party_runs else (mon.speed, ctx.party_speed())
    runs = 0 if party_stands and party_runs else approach.tiles_per_round(ctx, run_speed * mult)
    for step in runner_steps(ctx, p, runner, chaser, runs) if runs else ():
        _move_runner(ctx, p, g, step)
        if step == p.to:
            p.to = None  # beyond its door: on, away from the chaser
    follows = 0 if party_stands and not party_runs else approach.tiles_per_round(ctx, chase_speed * mult)
    out = _follow(ctx, p, g, follows, events)
    p.distance = approach.distance(ctx, g)
    if out.end:
        return out
    never = party_runs and Behaviour.SUBMERGED in mon.behaviours  # a submerged pursuer never gives up
    if not never and not sees(ctx, g.pos, st.pos):
        return Outcome("out_of_sight")
    if p.rounds >= ctx.rules.encounter.pursuit_max_rounds and not never:
        return Outcome("gave_up")
    return Outcome()


def _move_runner(ctx: Ctx, p: Pursuit, g: Group, step: Point) -> None:
    st = ctx.state
    m = st.level.map
    p.trail.append(step)
    seg = int(m.segment_of[step[1], step[0]])
    if p.chaser == Side.MONSTERS:
        st.prev_pos, st.pos = st.pos, step
        if seg != st.segment and seg >= 0:
            approach.enter_later(ctx, seg, st.prev_pos)
    else:
        g.pos = step
        if seg >= 0:
            g.segment = seg


def _follow(ctx: Ctx, p: Pursuit, g: Group, tiles: int, events: list[Event]) -> Outcome:
    """The chaser runs up to ``tiles`` steps along the runner's path (see the module docstring)."""
    st = ctx.state
    m = st.level.map
    party_runs = p.chaser == Side.MONSTERS
    runner = st.pos if party_runs else g.pos
    for _ in range(tiles):
        here = g.pos if party_runs else st.pos
        if _near(here, runner):
            return Outcome("caught")
        # the farthest tile of the path a step away (a corner cut), else its next tile (_near, inlined: the path is
        # read from its end at every step of the chaser)
        nxt = 0
        hx, hy = here
        for j in range(len(p.trail) - 1, -1, -1):
            tx, ty = p.trail[j]
            if -BESIDE <= tx - hx <= BESIDE and -BESIDE <= ty - hy <= BESIDE:
                nxt = j
                break
        if party_runs:  # no corner cut past the fire: it comes to it
            nxt = next((j for j in range(nxt + 1) if burning(p, p.trail[j])), nxt)
        tile = p.trail[nxt]
        if party_runs and burning(p, tile):
            out = _fire(ctx, p, g, events)
            if out is not None:
                return out
            if p.fire:
                break  # held before the fire until it burns out
        del p.trail[: nxt + 1]
        if party_runs:
            g.pos = tile
            seg = int(m.segment_of[tile[1], tile[0]])
            if seg >= 0:
                g.segment = seg
            out = _lure(ctx, p, g, events)
            if out is not None:
                return out
        else:
            st.prev_pos, st.pos = st.pos, tile
            seg = int(m.segment_of[tile[1], tile[0]])
            if seg != st.segment and seg >= 0:
                approach.enter_later(ctx, seg, st.prev_pos)
        if not p.trail:
            break
    here = g.pos if party_runs else st.pos
    return Outcome("caught") if _near(here, runner) else Outcome()


def _fire(ctx: Ctx, p: Pursuit, g: Group, events: list[Event]) -> Outcome | None:
    """The pursuer comes to the burning oil: one without self-preservation runs through it (the flames are
    trampled out); one with it may stop (the chase is over), else it balks and waits until the fire burns out (003:
    "burning oil will slow/stop monsters with any self preservation")."""
    chance = formulas.oil_stop_percent(ctx.content.tables.distractions, ctx.monster_of(g).self_preservation)
    if not chance:  # (no self-preservation: fire means nothing to it)
        p.fire = []
        events.append(ev.Ignored(group=g.id, monster=g.monster, count=g.count_told, what="fire"))
        return None
    if p.balked:
        return None
    if ctx.percent(events, "oil_stops", chance, group=g.id):
        return Outcome("distracted", "fire")
    p.balked = True
    events.append(ev.Slowed(group=g.id, rounds=p.fire_out - p.rounds, monster=g.monster, count=g.count_told))
    return None


def _lure(ctx: Ctx, p: Pursuit, g: Group, events: list[Event]) -> Outcome | None:
    """The pursuer passes a thing the party dropped in this chase (a step away or on it): food may stop an
    unintelligent one, treasure (a gem or gold) an intelligent one (003, each on its chance in the data); the one
    that takes it stops there, and the chase is over. What it does not take lies on the floor."""
    st = ctx.state
    mon = ctx.monster_of(g)
    submerged = Behaviour.SUBMERGED in mon.behaviours
    for tile in [t for t in p.lures if _near(g.pos, t)]:
        p.lures.remove(tile)
        for item, amount in list(st.level.items.get(tile, [])):
            kind = _lure_kind(ctx, item)
            if kind is None:
                continue
            chance = formulas.distraction_percent(kind, ctx.content.tables.distractions, mon.intelligent, submerged)
            if not chance:  # (not the kind that stops it)
                events.append(ev.Ignored(group=g.id, monster=g.monster, count=g.count_told, what=item))
                continue
            if ctx.percent(events, f"{kind}_distracts", chance, group=g.id):
                st.level.items[tile].remove((item, amount))
                if not st.level.items[tile]:
                    del st.level.items[tile]
                st.level.touch()
                if kind == "treasure":  # it keeps it: killed later, it pays out as gold
                    g.treasure += amount if item == "gold" else (ctx.content.items[item].value or 0) * amount
                if tile != st.pos and tile not in approach.occupied(ctx, g):
                    g.pos = tile
                return Outcome("distracted", kind)
    return None


def _lure_kind(ctx: Ctx, item: str) -> Literal["food", "treasure"] | None:
    if item == "gold":
        return "treasure"
    kind = ctx.content.items[item].kind
    return "food" if kind == "food" else "treasure" if kind == "treasure" else None
