"""Travel and auto-explore: plans a walk over the part of the map the party knows, one ordinary step at a time.

Nothing here changes the game: the planner reads the state (the explored tiles, the map, the stairs, the groups
in sight) and says which ``Move(dx, dy)`` comes next; the front end sends it through the session like any other
key press, so a recording of a travelled game holds only ordinary moves. Deterministic: the same state gives the
same step (ties broken in the fixed order of :data:`STEPS8`). The walk only uses known (explored) floor and never
a tile where a group in sight stands (other than a peaceful one, which steps aside), and never goes through or
beside a group the party ran from while it knows the group is there (:func:`ran_from`), unless the player asks
for it (a walk that can only go past such a group says so and goes anyway when asked again). A breadth-first flood
in eight directions over numpy arrays (no ``tcod.path``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from undercroft.rules import floods, levelmap
from undercroft.rules.actions import Move
from undercroft.rules.approach import STEPS8
from undercroft.rules.game import Game
from undercroft.rules.levelmap import Point
from undercroft.rules.names import group_name, the
from undercroft.rules.state import Group
from undercroft.rules.types import Behaviour, Origin
from undercroft.rules.view import View

BoolArray = npt.NDArray[np.bool_]
Steps = npt.NDArray[np.int32]
UNREACHED = -1


# How careful a walk is: BOLD goes anywhere known (walking into a monster meets it) but through or beside a group
# the party ran from; PLAIN goes round the monsters in sight; WARY also keeps out of the rooms and corridors where
# monsters met and left alone wait. RECKLESS goes anywhere known, past a group run from too: a walk of the player's
# only when asked again after being told the way passes that group; the novice bot's last resort.
RECKLESS, BOLD, PLAIN, WARY = -1, 0, 1, 2


def known_walk(game: Game, caution: int = PLAIN) -> BoolArray:
    """(height, width): the tiles the party may travel over: explored and not a wall; from PLAIN up, no creature
    in sight that would not step aside on it (:func:`blocked`); WARY, not inside a room or corridor where a group
    met and left alone is (:func:`haunted`), but the party's own."""
    st = game.state
    lv = st.level
    walk = np.asarray(View(game).explored() & levelmap.walkable(lv.map))
    if caution >= PLAIN:
        for p in blocked(game):
            walk[p[1], p[0]] = False
    if caution >= WARY:
        for seg in haunted(game) - {st.segment}:
            walk[lv.map.segment_of == seg] = False
    h, w = walk.shape
    for x, y in ran_from_tiles(game) if caution >= BOLD else ():  # never through nor beside a group run from
        walk[max(0, y - 1) : min(h, y + 2), max(0, x - 1) : min(w, x + 2)] = False
    walk[st.pos[1], st.pos[0]] = True
    return walk


def ran_from(game: Game) -> list[Group]:
    """The groups the party has run from (``Group.pursuit_rolled``: the chance of pursuit rolled when it ran) that
    it knows to be on this level and that are not at peace with it: no walk goes through or beside them."""
    view = View(game)
    return [g for g in game.state.level.groups if g.pursuit_rolled and not g.peaceful and g.alive and view.knows(g)]


def ran_from_text(game: Game) -> str:
    """ "the Gaoler you ran from": the nearest group a walk keeps away from, as a stop line names it ("" none)."""
    groups = ran_from(game)
    if not groups:
        return ""
    g = min(groups, key=lambda o: (game.distance_to(o), o.id))
    mon = game.monster_of(g)
    return f"{the(group_name(mon.name, mon.plural, g.count_told)[0])} you ran from"


def ran_from_tiles(game: Game) -> list[Point]:
    """The tiles of the creatures of the groups the party ran from (:func:`ran_from`)."""
    return [p for g in ran_from(game) for p in game.creature_tiles(g)]


def visible_groups(game: Game) -> frozenset[int]:
    """The ids of the groups the map shows now (:meth:`undercroft.rules.view.View.in_sight`)."""
    return frozenset(g.id for g in View(game).in_sight())


def haunted(game: Game) -> set[int]:
    """The rooms and corridors of this level where a group the party has met, and that would not let it pass,
    still is (walking in meets it again)."""
    return {g.segment for g in game.state.level.groups if g.met and g.alive and not g.peaceful and g.known}


def blocked(game: Game) -> set[Point]:
    """The tiles of the creatures in sight that would not step aside (walking into them meets them, or, for one
    at peace that holds its ground, is refused)."""
    out: set[Point] = set()
    for p, (g, _) in View(game).creatures().items():
        if g.peaceful and not (g.origin == Origin.GUARDIAN and Behaviour.HOLDS_GROUND in game.monster_of(g).behaviours):
            continue  # it steps aside (a guardian that holds its ground never does)
        out.add(p)
    return out


def flood(walk: BoolArray, origin: Point) -> Steps:
    """Fewest steps (eight directions) from ``origin`` over ``walk`` to every tile; :data:`UNREACHED` elsewhere
    (the engine's own flood, :func:`undercroft.rules.floods.flood8`, over the whole map)."""
    return floods.flood8(walk, origin)


def path(game: Game, goal: Point, caution: int = WARY, least: int = BOLD) -> list[Point]:
    """The tiles of a shortest known walk from the party to ``goal``, the party's own tile left out ([] when the
    party is there or there is no known way): as careful as ``caution`` allows, less only where there is no other
    way, down to ``least`` (the last resort walks into a monster, which stops the walk)."""
    for c in range(caution, min(caution, least) - 1, -1):  # (never down to RECKLESS unless asked for it)
        p = _path(game, goal, known_walk(game, c))
        if p:
            return p
    return []


def _path(game: Game, goal: Point, walk: BoolArray) -> list[Point]:
    gx, gy = goal
    if not (0 <= gy < walk.shape[0] and 0 <= gx < walk.shape[1]) or not walk[gy, gx]:
        return []
    back = flood(walk, goal)
    x, y = game.state.pos
    d = int(back[y, x])
    out: list[Point] = []
    if d == UNREACHED:
        return out
    while d > 0:
        for dx, dy in STEPS8:
            nx, ny = x + dx, y + dy
            if 0 <= ny < back.shape[0] and 0 <= nx < back.shape[1] and back[ny, nx] == d - 1:
                x, y, d = nx, ny, d - 1
                out.append((x, y))
                break
        else:  # pragma: no cover - a flood always has a nearer neighbour
            return []
    return out


def step_toward(game: Game, goal: Point, caution: int = WARY, least: int = BOLD) -> Move | None:
    """The next step of the walk to ``goal`` (None: there already, or no known way; ``least`` as :func:`path`)."""
    p = path(game, goal, caution, least)
    if not p:
        return None
    x, y = game.state.pos
    return Move(p[0][0] - x, p[0][1] - y)


def stairs(game: Game) -> Point | None:
    """The stairs, once the party has seen them."""
    return View(game).stairs()


def targets(game: Game) -> BoolArray:
    """(height, width): where auto-explore goes: known floor beside a tile not yet seen, any known tile of a room
    or corridor not yet visited, and the items seen lying on the floor."""
    view = View(game)
    lv = view.level
    m = lv.map
    explored = np.asarray(view.explored(), dtype=bool)
    walk = explored & levelmap.walkable(m)
    unknown = np.pad(~explored, 1, constant_values=False)
    h, w = explored.shape
    near = np.zeros((h, w), dtype=bool)
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            near |= unknown[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w]
    out = walk & near
    seg = m.segment_of
    unvisited = np.zeros((h, w), dtype=bool)
    inside = seg >= 0
    unvisited[inside] = ~np.asarray(lv.visited, dtype=bool)[seg[inside]]
    out |= walk & unvisited
    for ix, iy in view.items():
        out[iy, ix] = True
    out[game.state.pos[1], game.state.pos[0]] = False
    return out


def explore_target(
    game: Game, keep: Point | None = None, caution: int = WARY, avoid: frozenset[Point] = frozenset()
) -> Point | None:
    """The nearest place left to explore (None: nothing reachable is left). ``keep``, the place aimed at so far,
    is kept while it still is one, so the walk does not waver between two equally near places. ``caution``: as
    :func:`known_walk` (WARY: not in, nor through, a room or corridor where a monster met and left alone waits,
    nor through a monster in sight). ``avoid``: places a walk stopped short of, not aimed at again."""
    want = targets(game)
    for ax, ay in avoid:
        want[ay, ax] = False
    reach = flood(known_walk(game, caution), game.state.pos)
    ok = want & (reach > 0)
    if keep is not None and ok[keep[1], keep[0]]:
        return keep
    if not ok.any():
        return None
    dist = np.where(ok, reach, np.iinfo(np.int32).max)
    y, x = np.unravel_index(int(np.argmin(dist)), dist.shape)  # nearest; ties: the first in reading order
    return int(x), int(y)


UNSEEN_STOP = "You stop: something unseen moves nearby."  # a group come upon out of sight: no more is told


def blocked_text(game: Game, goal: Point) -> str:
    """Why a walk to ``goal`` stopped getting closer, for the log: the group in sight nearest the party that
    stands on the way there (or beside the party), named as the map shows it; else a group come upon out of sight
    (:data:`UNSEEN_STOP`); else the way itself."""
    st = game.state
    way = set(_path(game, goal, known_walk(game, BOLD)))
    px, py = st.pos
    near: list[tuple[int, str]] = []
    seen = visible_groups(game)
    for g in st.level.groups:
        if g.id not in seen:
            continue
        tiles = game.creature_tiles(g)
        d = min(max(abs(x - px), abs(y - py)) for x, y in tiles)
        if d <= 1 or way.intersection(tiles):
            mon = game.monster_of(g)
            near.append((d, group_name(mon.name, mon.plural, g.count_told)[0]))
    if not near:
        unseen = any(g.unseen and g.alive and not g.defeated for g in st.level.groups)
        return UNSEEN_STOP if unseen else "You stop: the way there keeps turning you back."
    return f"You stop: the way is blocked by {the(min(near)[1])}."
