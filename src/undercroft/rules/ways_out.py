"""The ways out of the party's segment (001: "leave through any door"; 003: a blocked route): each door, the tile
beyond it where a runner lands, and whether the group faced stands between the party and it. Only a group that
would pursue, and only where the ruleset has 003's pursuit, blocks the route (:func:`blocks`); in every ruleset a
door into the group's own segment is closed to a run (it leads back to it). Running itself:
:mod:`undercroft.rules.chase.running`.
"""

from __future__ import annotations

from dataclasses import dataclass

from undercroft.rules import approach, floods, formulas, levelmap
from undercroft.rules.context import Ctx
from undercroft.rules.levelmap import LevelMap, Point
from undercroft.rules.state import Group


@dataclass(frozen=True)
class Exit:
    """A way out of the party's segment: its door, the tile beyond it where a runner lands, and whether the group
    faced stands between the party and it."""

    door: Point
    landing: Point
    segment: int  # the segment the landing tile is in
    blocked: bool
    came_in: bool  # the way the party came in


def exits(ctx: Ctx, g: Group | None) -> list[Exit]:
    """The ways out of the party's segment, in the segment's door order (see :class:`Exit`).

    The last answer is kept (``ctx.exits_memo``) with everything it depends on: the level, where the party stands
    and came in, the encounter's group, the group asked about (where it stands, which of its creatures
    live, whether it is hidden or defeated), and, for a group of several, the tiles the other groups stand on (its
    creatures stand round it: :func:`creature_tiles`); the same question again (a run's precheck, then the run; the
    bot's and the screens' questions between two actions; a fight's rounds, where hit points change but no one
    falls) costs a comparison. tests/test_encounter_map.py checks it against the answer computed afresh."""
    st = ctx.state
    enc = st.encounter
    key = (
        id(st),
        st.depth,
        st.pos,
        st.prev_pos,
        st.segment,
        st.segment_entry,
        None if enc is None else enc.group,
        None
        if g is None
        else (
            id(g),
            g.pos,
            g.segment,
            g.hidden,
            g.defeated,
            tuple(h > 0 for h in g.hp),
            tuple(sorted(approach.occupied(ctx, g))) if len(g.hp) > 1 else (),
        ),
    )
    memo = ctx.exits_memo
    if memo is not None and memo[0] == key:
        return list(memo[1])
    out = _exits(ctx, g)
    ctx.exits_memo = (key, tuple(out))
    return out


def _free_beside(m: LevelMap, p: Point, seg: int, taken: set[Point]) -> Point | None:
    """The first tile (in :data:`approach.STEPS8` order) next to ``p`` in segment ``seg``, not a wall nor taken."""
    for dx, dy in approach.STEPS8:
        x, y = p[0] + dx, p[1] + dy
        if (
            0 <= x < m.width
            and 0 <= y < m.height
            and m.tile_rows[y][x] != levelmap.WALL
            and m.segment_rows[y][x] == seg
            and (x, y) not in taken
        ):
            return (x, y)
    return None


def blocks(ctx: Ctx, g: Group) -> bool:
    """Whether ``g`` can block the party's route to a door (003: evasion "only if the evading side is not forced to
    stop"): only where the ruleset has 003's pursuit, and only a group that would pursue. Where 003 is off
    (``warden``, 001 alone: "leave through any door, any time"; ``citadel`` has no running) the party runs round
    it, and past one in the doorway to a free tile beyond it."""
    return formulas.follows(ctx.proc.pursuit, ctx.monster_of(g).pursues)


def _exits(ctx: Ctx, g: Group | None) -> list[Exit]:
    st = ctx.state
    m = st.level.map
    if st.segment < 0:
        return []
    seg = m.segments[st.segment]
    blockers: set[Point] = set()
    if g is not None and not g.hidden and not g.defeated:
        blockers = {p for i, p in enumerate(approach.creature_tiles(ctx, g)) if g.hp[i] > 0}
    route = blockers if g is not None and blocks(ctx, g) else set()  # 003's blocked route
    # The way to a door runs inside the segment; it is never longer than the segment's tiles.
    sm = approach.step_map(m, st.pos, min(m.segment_sizes[seg.id] + 2, 4 * approach.REACH), route, within=seg.id)
    came = ctx.way_out()
    seg_rows, tile_rows = m.segment_rows, m.tile_rows
    out: list[Exit] = []
    for door in seg.doors:
        landing = door
        if seg_rows[door[1]][door[0]] == st.segment:  # a corridor's own door: the room tile beyond it
            for dx, dy in floods.STEPS:
                p = (door[0] + dx, door[1] + dy)
                if (
                    0 <= p[0] < m.width
                    and 0 <= p[1] < m.height
                    and tile_rows[p[1]][p[0]] != levelmap.WALL
                    and seg_rows[p[1]][p[0]] not in (st.segment, -1)
                ):
                    landing = p
                    break
        beyond = seg_rows[landing[1]][landing[0]]
        if route:  # 003: a pursuer in the way, in the doorway or in the segment beyond blocks the route
            blocked = (
                door in blockers or landing in blockers or sm.at(door) < 0 or (g is not None and g.segment == beyond)
            )
        else:  # no route is blocked: the party slips past a creature in the doorway to a free tile beyond it
            if landing in blockers:
                landing = _free_beside(m, landing, beyond, blockers) or landing
            # ... but never into the group's own segment: a run there ends where the group is (001's free exit is
            # away from it)
            blocked = (
                landing in blockers or sm.at(door) < 0 or (bool(blockers) and g is not None and g.segment == beyond)
            )
        out.append(Exit(door, landing, beyond, blocked, came in (door, landing)))
    return out
