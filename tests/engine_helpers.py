"""Shared helpers for the rules-engine tests (``tests/test_engine_*.py``).

The API is small and meant to stay stable:

* :func:`content` - the shipped rules data, loaded once;
* :func:`make_game` - a game of a ruleset; with a :class:`ScriptedDice`, every gameplay roll comes from the script
  (the start gold is answered for you, see below), while maps still come from the seed;
* :func:`script` - the scripted dice of a game made with one;
* :func:`path_to` - the shortest walk to some tiles through some segments, around the monsters;
* :func:`walk_to`, :func:`walk_into`, :func:`go_down` - drive the party through :meth:`Game.step`; on each
  segment entered on the way the helper scripts a monster check that finds nothing (:data:`NOTHING`);
* :func:`place_group` and :func:`meet` - put a group of monsters in front of the party and start an encounter
  with the engine's own procedure (where the ruleset rolls a distance, the meeting places the group at it);
* :func:`walk_up_to` - walk the party to a tile beside a group;
* :func:`encounter_faces` - the faces of the encounter sequence (distance, surprise, reaction) of seed 003;
* :func:`of`, :func:`one`, :func:`kinds`, :func:`rolls` - pick events out of a step's result;
* :func:`say` - an event's line as the player reads it; :func:`why` - a ``refused`` event's reason;
* :func:`act` - take one action with exactly the faces scripted for it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from functools import cache
from typing import TypeVar
from weakref import WeakKeyDictionary

from undercroft.content import Content, load_content
from undercroft.narrate import Narrator
from undercroft.paths import data_dir
from undercroft.rules import dungeon
from undercroft.rules import events as evt
from undercroft.rules.actions import Action, Descend, LeaveShop, Move
from undercroft.rules.dice import Dice, ScriptedDice
from undercroft.rules.events import Event
from undercroft.rules.game import Game
from undercroft.rules.refusals import Reason
from undercroft.rules.state import Group
from undercroft.rules.types import Mode, Origin

# A monster-check face that finds nothing in any segment of any shipped ruleset (residents on 1-4 at most).
NOTHING = 6

_SCRIPTS: WeakKeyDictionary[Game, ScriptedDice] = WeakKeyDictionary()


@cache
def content() -> Content:
    """The shipped rules data (read only)."""
    return load_content(data_dir())


class _SetupThenScript:
    """Answers the ``n`` start-gold dice with 1s, then hands every roll to the test's script."""

    def __init__(self, n: int, then: ScriptedDice) -> None:
        self.n = n
        self.then = then

    def die(self, sides: int) -> int:
        if self.n > 0:
            self.n -= 1
            return 1
        return self.then.die(sides)


def make_game(
    ruleset: str = "undercroft", seed: int = 1, dice: ScriptedDice | None = None, *, gold: int | None = None
) -> Game:
    """A new game. ``dice``: None for the seeded dice, or a script for every gameplay roll.

    With a script, the start-gold roll takes no faces from it (it is answered with 1s), so the first face of the
    script is the first roll of play. ``gold`` sets the party's gold before the first action.
    """
    if dice is None:
        game = Game(content(), ruleset, seed)
    else:
        n = Dice.parse(content().ruleset(ruleset).start_gold).count
        game = Game(content(), ruleset, seed, dice=_SetupThenScript(n, dice))
        _SCRIPTS[game] = dice
    if gold is not None:
        game.state.gold = gold
    return game


def clear_unique(game: Game) -> Game:
    """Take the current floor's unique (its named monster, waiting in the set-piece room) off the level: for a test
    of something else that walks the floor, as it would clear any monster in its way."""
    lv = game.state.level
    for g in [g for g in lv.groups if game.monster_of(g).unique]:
        lv.remove_group(g)
    return game


def script(game: Game) -> ScriptedDice:
    """The scripted dice of ``game`` (made by :func:`make_game` with ``dice``)."""
    try:
        return _SCRIPTS[game]
    except KeyError:
        raise AssertionError("this game rolls seeded dice: make it with make_game(..., dice=ScriptedDice())") from None


E = TypeVar("E", bound=Event)

# --- events --------------------------------------------------------------------------------------------------


def of(events: Iterable[Event], kind: type[E], **fields: object) -> list[E]:
    """The events of class ``kind`` (whose fields match ``fields``)."""
    return [e for e in events if isinstance(e, kind) and all(getattr(e, k) == v for k, v in fields.items())]


def one(events: Iterable[Event], kind: type[E], **fields: object) -> E:
    """The single event of class ``kind`` (matching ``fields``); fails otherwise."""
    found = of(events, kind, **fields)
    assert len(found) == 1, f"expected one {kind.type!r} event {fields or ''}, got {len(found)}: {list(events)}"
    return found[0]


def attacks(events: Iterable[Event]) -> list[evt.PartyAttack | evt.MonsterAttack]:
    """The ``attack`` events, of either side, in order."""
    return [e for e in events if isinstance(e, evt.PartyAttack | evt.MonsterAttack)]


def say(game: Game, event: Event) -> str:
    """The player's line for ``event`` of ``game`` (:mod:`undercroft.narrate`)."""
    return Narrator(game.content, game.ruleset_id).text(event)


def why(event: Event) -> Reason:
    """The reason of a ``refused`` event: its code and fields (the action's type aside)."""
    assert isinstance(event, evt.Refused), event
    return event.why


def roll_line(game: Game, event: Event) -> str:
    """The roll behind an attack event, as the log shows it."""
    assert isinstance(event, evt.PartyAttack | evt.MonsterAttack), event
    return Narrator(game.content, game.ruleset_id).roll_line(event)


def kinds(events: Iterable[Event]) -> list[str]:
    """The types of ``events``, in order."""
    return [e.type for e in events]


def rolls(events: Iterable[Event], purpose: str) -> list[evt.Roll]:
    """The ``roll`` events of one purpose (``monster_check``, ``reaction``...)."""
    return of(events, evt.Roll, purpose=purpose)


# --- walking -------------------------------------------------------------------------------------------------


def _occupied(game: Game) -> set[tuple[int, int]]:
    return {g.pos for g in game.state.level.groups if not g.defeated and not g.hidden}


def _haunted(game: Game) -> set[int]:
    return {g.segment for g in game.state.level.groups if not g.defeated}


def path_to(game: Game, goals: set[tuple[int, int]], allowed: set[int]) -> list[tuple[int, int]]:
    """Shortest orthogonal path (without the start) to the nearest goal, through ``allowed`` segments only."""
    st = game.state
    m = st.level.map
    blocked = _occupied(game)
    start = st.pos
    prev: dict[tuple[int, int], tuple[int, int] | None] = {start: None}
    todo = deque([start])
    while todo:
        p = todo.popleft()
        if p in goals:
            out = []
            q: tuple[int, int] | None = p
            while q is not None and q != start:
                out.append(q)
                q = prev[q]
            return out[::-1]
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            x, y = p[0] + dx, p[1] + dy
            if not (0 <= x < m.width and 0 <= y < m.height) or (x, y) in prev:
                continue
            if m.tiles[y, x] == dungeon.WALL or (x, y) in blocked:
                continue
            if (x, y) not in goals and int(m.segment_of[y, x]) not in allowed:
                continue
            prev[(x, y)] = p
            todo.append((x, y))
    raise AssertionError(f"no way from {start} to any of {len(goals)} goal tiles")


def _walk(game: Game, path: Sequence[tuple[int, int]], last_faces: Sequence[int] | None) -> list[Event]:
    """Step along ``path``; every segment entered on the way finds nothing; the last step gets ``last_faces``."""
    st = game.state
    dice = script(game)
    events: list[Event] = []
    for k, (x, y) in enumerate(path):
        assert st.mode == "explore", f"walking, but the game is in mode {st.mode}: {events}"
        seg = int(st.level.map.segment_of[y, x])
        last = k == len(path) - 1
        if last and last_faces is not None:
            dice.push(*last_faces)
        elif seg != st.segment and seg >= 0 and not any(g.segment == seg for g in st.level.groups if not g.defeated):
            dice.push(NOTHING)
        events = game.step(Move(x - st.pos[0], y - st.pos[1]))
        assert not of(events, evt.Refused), events
        assert st.pos == (x, y)
    return events


def walk_to(game: Game, tile: tuple[int, int], *, faces: Sequence[int] | None = None) -> list[Event]:
    """Walk the party to ``tile``, avoiding monsters' segments; returns the last step's events.

    Every segment entered on the way is checked with :data:`NOTHING`; with ``faces``, those are scripted for the
    last step instead (and only them).
    """
    st = game.state
    if st.pos == tile:
        return []
    haunted = _haunted(game) - {st.segment}
    allowed = {s.id for s in st.level.map.segments} - haunted
    return _walk(game, path_to(game, {tile}, allowed), faces)


def walk_into(
    game: Game, kind: str = "room", *, visited: bool | None = None, faces: Sequence[int] = (NOTHING,)
) -> list[Event]:
    """Walk into the nearest other segment of ``kind`` ("room" or "corridor"), and return that step's events.

    ``visited``: only rooms or corridors already visited (True) or not yet (False); None: any. The segments on the
    way find nothing; ``faces`` are scripted for the step into the segment (its monster check and whatever
    follows). The segment holds no monster yet.
    """
    st = game.state
    m = st.level.map
    haunted = _haunted(game) - {st.segment}
    targets = [
        s
        for s in m.segments
        if s.kind == kind
        and s.id != st.segment
        and s.id not in haunted
        and (visited is None or bool(st.level.visited[s.id]) == visited)
    ]
    assert targets, f"no {kind} (visited={visited}) left to walk into"
    ids = {s.id for s in targets}
    goals = {
        (x, y)
        for s in targets
        for y in range(s.y1, s.y2 + 1)
        for x in range(s.x1, s.x2 + 1)
        if int(m.segment_of[y, x]) in ids
    }
    allowed = {s.id for s in m.segments} - haunted
    path = path_to(game, goals, allowed)
    return _walk(game, path, faces)


def go_down(game: Game) -> list[Event]:
    """Walk to the stairs (finding nothing on the way) and descend, leaving the merchant at the foot of the stairs
    where the ruleset has one; returns the descend step's events. The floor's unique, if it has one, is taken out
    of the way first (it may wait in a room the walk must cross)."""
    stairs = game.state.level.map.stairs
    assert stairs is not None, "this level has no stairs"
    clear_unique(game)
    walk_to(game, stairs)
    shop = game.rs.shop
    scripted = game in _SCRIPTS
    if scripted and not shop and not game.rs.levels[game.state.depth].final:
        script(game).push(NOTHING)  # the room arrived in: its monster check (000), on arrival
    events = game.step(Descend())
    assert of(events, evt.Descend), events
    if game.state.mode == Mode.SHOP:
        assert of(events, evt.Shop), events
        if scripted:
            script(game).push(NOTHING)  # the room arrived in: its monster check once the merchant is left
        assert not of(game.step(LeaveShop()), evt.Refused)
    return events


# --- monsters ------------------------------------------------------------------------------------------------


def encounter_faces(
    distance: tuple[int, int] = (3, 3), surprise: tuple[int, int] = (6, 6), reaction: tuple[int, int] = (4, 4)
) -> tuple[int, ...]:
    """The faces of seed 003's encounter sequence, in the order the engine rolls them.

    Defaults: 60 ft (in sight), nobody surprised, reaction 8 (uncertain). Rulesets without distance, surprise or
    reaction (citadel, warden) roll none of these: script nothing for them.
    """
    return (*distance, *surprise, *reaction)


def place_group(
    game: Game,
    monster: str,
    count: int = 1,
    *,
    treasure: int = 0,
    origin: Origin = Origin.RESIDENT,
    hp: Sequence[int] | None = None,
) -> tuple[Group, list[Event]]:
    """Put ``count`` x ``monster`` next to the party, in its segment, and start the encounter.

    The engine's own encounter procedure runs (distance, surprise and reaction as the ruleset says: script their
    faces first). Returns the group and the events of the meeting.
    """
    st = game.state
    m = st.level.map
    taken = _occupied(game)
    spots = [
        (st.pos[0] + dx, st.pos[1] + dy)
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1))
    ]
    free = [
        p
        for p in spots
        if 0 <= p[0] < m.width
        and 0 <= p[1] < m.height
        and m.tiles[p[1], p[0]] == dungeon.FLOOR
        and int(m.segment_of[p[1], p[0]]) == st.segment
        and p not in taken
    ]
    g = game.add_group(monster, count, hp=hp, pos=free[0] if free else st.pos, origin=origin, treasure=treasure)
    return g, game.start_encounter(g)


def meet(
    game: Game,
    monster: str,
    count: int = 1,
    *,
    faces: Sequence[int] = (),
    treasure: int = 0,
    origin: Origin = Origin.RESIDENT,
) -> tuple[Group, list[Event]]:
    """Walk into a new room (it holds nothing), then meet ``count`` x ``monster`` there.

    ``faces`` are scripted for the meeting (e.g. :func:`encounter_faces` for undercroft and crawler). The party
    came in through a door, so running leaves by it.
    """
    walk_into(game, "room", visited=False)
    script(game).push(*faces)
    return place_group(game, monster, count, treasure=treasure, origin=origin)


def act(game: Game, action: Action, *faces: int) -> list[Event]:
    """Script exactly ``faces`` for ``action``; every one must be used, and the action must be accepted."""
    dice = script(game)
    dice.push(*faces)
    events = game.step(action)
    assert not of(events, evt.Refused), events
    assert dice.remaining == 0, f"{dice.remaining} scripted faces left unused: {events}"
    return events


# --- walking out of a segment ----------------------------------------------------------------------------------


def way_out(game: Game, avoid: tuple[int, int]) -> list[tuple[int, int]]:
    """The shortest walk through the party's segment to a tile outside it other than ``avoid`` (the last step
    leaves the segment), around the monsters."""
    st = game.state
    m = st.level.map
    blocked = {g.pos for g in st.level.groups if not g.defeated and not g.hidden}
    prev: dict[tuple[int, int], tuple[int, int] | None] = {st.pos: None}
    todo = deque([st.pos])
    while todo:
        p = todo.popleft()
        if int(m.segment_of[p[1], p[0]]) != st.segment:
            out = []
            q: tuple[int, int] | None = p
            while q is not None and q != st.pos:
                out.append(q)
                q = prev[q]
            return out[::-1]
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            x, y = p[0] + dx, p[1] + dy
            if (x, y) in prev or (x, y) in blocked or (x, y) == avoid or m.tiles[y, x] == dungeon.WALL:
                continue
            prev[(x, y)] = p
            todo.append((x, y))
    raise AssertionError("no other way out")


def walk(game: Game, path: list[tuple[int, int]]) -> list[list[Event]]:
    """Step along ``path`` (no die is rolled on the way; the caller scripts the last step)."""
    out = []
    for x, y in path:
        st = game.state
        out.append(game.step(Move(x - st.pos[0], y - st.pos[1])))
        assert not of(out[-1], evt.Refused), out[-1]
    return out


def walk_out_past(game: Game, *faces: int) -> list[Event]:
    """Walk out of the party's segment by another way than it came in (past whatever lies there); ``faces`` are
    scripted for the last step, which leaves the segment. Returns that step's events."""
    st = game.state
    path = way_out(game, avoid=st.segment_entry)
    for x, y in path[:-1]:
        events = game.step(Move(x - st.pos[0], y - st.pos[1]))
        assert not of(events, evt.Refused), events
    return act(game, Move(path[-1][0] - st.pos[0], path[-1][1] - st.pos[1]), *faces)


def walk_up_to(game: Game, g: Group) -> list[list[Event]]:
    """Walk the party, inside its segment and around the monsters, to a tile beside ``g`` (a group met at a
    distance stands some way off: 1 tile = 10 ft). No die may be rolled on the way. Returns each step's events."""
    st = game.state
    m = st.level.map
    near = {
        (g.pos[0] + dx, g.pos[1] + dy)
        for dx in (-1, 0, 1)
        for dy in (-1, 0, 1)
        if (dx, dy) != (0, 0)
        and m.tiles[g.pos[1] + dy, g.pos[0] + dx] == dungeon.FLOOR
        and int(m.segment_of[g.pos[1] + dy, g.pos[0] + dx]) == st.segment
    }
    if st.pos in near:
        return []
    used = len(script(game).used) if game in _SCRIPTS else 0
    out = walk(game, path_to(game, near, {st.segment}))
    assert game not in _SCRIPTS or len(script(game).used) == used, "a die was rolled on the way"
    assert max(abs(g.pos[0] - st.pos[0]), abs(g.pos[1] - st.pos[1])) == 1
    return out
