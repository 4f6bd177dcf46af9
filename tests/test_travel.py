"""Travel (``>``, a click) and auto-explore (``x``): the planner (``undercroft.travel``) and the explore scene's walk,
one ordinary ``Move`` a tick through the session."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import tcod.event
from engine_helpers import clear_unique, content
from tcod.event import KeySym, Modifier
from ui_helpers import Driver, TestDice, isolate_user_data, press

from undercroft import record, travel
from undercroft.rules import levelmap
from undercroft.rules.actions import Descend, Move
from undercroft.rules.game import Game
from undercroft.rules.types import Mode, Origin
from undercroft.ui.scenes import EncounterScene, ExploreScene, SceneStack
from undercroft.ui.scenes.explore import Trip
from undercroft.ui.session import Session

SEED = 11


def calm_session(seed: int = SEED) -> Session:
    """A game whose monster checks never find anything (TestDice: a d6 shows 6), and without the floor's unique
    (the Leech-Mother, whose coming into sight would stop a walk)."""
    return Session.watch(content(), clear_unique(Game(content(), "undercroft", seed, dice=TestDice())))


def click(x: int, y: int) -> tcod.event.MouseButtonDown:
    """A left click on the console's cell (x, y), as the window converts it."""
    return tcod.event.MouseButtonDown(position=tcod.event.Point(float(x), float(y)), button=tcod.event.MouseButton.LEFT)


def walk_out(stack: SceneStack, scene: ExploreScene, limit: int = 5000) -> int:
    """Tick the scene until its walk ends; the number of ticks."""
    n = 0
    while scene.trip is not None and n < limit:
        stack.tick()
        n += 1
    return n


def explore_all(session: Session, limit: int = 100) -> tuple[ExploreScene, SceneStack, int]:
    """Press ``x`` until the level says it is explored (or the walk leaves exploring); the presses."""
    scene = ExploreScene(session)
    stack = SceneStack([scene])
    for presses in range(1, limit + 1):
        press(stack, KeySym.X)
        walk_out(stack, scene)
        if session.mode != Mode.EXPLORE or session.log.lines[-1][0].startswith("Explored."):
            return scene, stack, presses
    raise AssertionError("auto-explore never finished")


# --- the planner -------------------------------------------------------------------------------------------------


def test_the_path_uses_only_known_tiles_and_reaches_the_stairs() -> None:
    game = calm_session().game
    lv = game.state.level
    assert travel.stairs(game) is None  # not seen yet: no travel to it
    assert travel.path(game, lv.map.stairs) == []
    lv.explored[...] = True
    p = travel.path(game, lv.map.stairs)
    assert p and p[-1] == lv.map.stairs
    prev = game.state.pos
    for x, y in p:
        assert max(abs(x - prev[0]), abs(y - prev[1])) == 1 and lv.map.tiles[y, x] != levelmap.WALL
        prev = (x, y)
    # forget a tile of that path: the new one goes round it, or there is none
    hx, hy = p[len(p) // 2]
    lv.explored[hy, hx] = False
    q = travel.path(game, lv.map.stairs)
    assert (hx, hy) not in q
    assert all(lv.explored[y, x] for x, y in q)
    assert travel.path(game, lv.map.stairs) == q  # deterministic


def test_the_flood_counts_eight_direction_steps() -> None:
    walk = np.ones((5, 7), dtype=bool)
    walk[:, 3] = False
    walk[4, 3] = True
    steps = travel.flood(walk, (0, 0))
    assert steps[0, 0] == 0 and steps[2, 2] == 2 and steps[4, 3] == 4 and steps[0, 6] == 8
    assert steps[0, 3] == travel.UNREACHED


# --- auto-explore and travel in the explore scene ------------------------------------------------------------------


def test_auto_explore_explores_everything_reachable_then_names_the_stairs() -> None:
    session = calm_session()
    _, stack, presses = explore_all(session)
    lv = session.game.state.level
    walk = levelmap.walkable(lv.map)
    reach = travel.flood(walk, lv.map.start) >= 0
    assert (lv.explored | ~reach).all()
    assert lv.visited.all()
    assert not lv.items  # everything seen was picked up on the way
    assert session.log.lines[-1][0].startswith("Explored. The stairs are ")
    assert presses < 20
    # > walks to the stairs, one Move a tick, then > takes them
    press(stack, KeySym.PERIOD, mod=Modifier.SHIFT)
    scene = stack.top
    assert isinstance(scene, ExploreScene)
    walk_out(stack, scene)
    assert session.game.state.pos == lv.map.stairs and session.game.legal(Descend())
    press(stack, KeySym.PERIOD, mod=Modifier.SHIFT)
    assert session.game.state.depth == 1


def test_auto_explore_stops_at_the_step_that_meets_a_monster() -> None:
    session = Session.watch(content(), Game(content(), "undercroft", SEED))  # the seeded dice: a monster soon
    scene, stack, _ = explore_all(session)
    assert session.mode == Mode.ENCOUNTER and scene.trip is None
    assert isinstance(stack.top, EncounterScene)
    assert any(e.type == "encounter" for e in session.last_events)  # the last step taken is the one that met it


def test_travel_stops_when_a_group_comes_into_sight() -> None:
    session = calm_session()
    game = session.game
    lv = game.state.level
    m = lv.map
    sx, sy = m.stairs
    spot = next(
        (sx + dx, sy + dy)
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1))
        if m.tiles[sy + dy, sx + dx] == levelmap.FLOOR
    )
    mon = next(iter(content().monsters))
    g = game.add_group(mon, 1, pos=spot, origin=Origin.WANDERING)
    g.segment = int(m.segment_of[spot[1], spot[0]])
    scene = ExploreScene(session)
    stack = SceneStack([scene])
    seen_before = False
    for _ in range(50):
        press(stack, KeySym.X)
        while scene.trip is not None:
            seen_before = g.id in travel.visible_groups(game)
            assert not seen_before  # a walk never goes on with a new group in sight
            stack.tick()
        if g.id in travel.visible_groups(game) or session.mode != Mode.EXPLORE:
            break
    assert g.id in travel.visible_groups(game) or session.mode != Mode.EXPLORE


def test_a_click_travels_to_a_known_tile_and_not_to_an_unknown_one() -> None:
    session = calm_session()
    game = session.game
    lv = game.state.level
    scene = ExploreScene(session)
    stack = SceneStack([scene])
    reach = travel.flood(travel.known_walk(game), game.state.pos)
    y, x = np.unravel_index(int(np.argmax(reach)), reach.shape)  # the farthest known tile there is a way to
    far = (int(x), int(y))
    assert reach[far[1], far[0]] > 1
    stack.handle(click(*far))
    walk_out(stack, scene)
    assert game.state.pos == far or session.mode != Mode.EXPLORE
    uy, ux = map(int, np.argwhere(~lv.explored)[0])
    turn = game.state.turn
    stack.handle(click(ux, uy))
    assert scene.trip is None and game.state.turn == turn


def test_a_key_stops_the_walk_through_the_loop() -> None:
    session = calm_session()
    driver = Driver(SceneStack([ExploreScene(session)]))
    scene = driver.top
    assert isinstance(scene, ExploreScene)
    press(driver, KeySym.X)  # the first step at once
    assert session.game.state.turn == 1 and scene.trip is not None
    assert driver.loop.stack.top.tick_interval() is not None
    driver.idle(1.0)  # a tick: one more step, shown in its own frame
    driver.idle(1.0)
    assert session.game.state.turn == 3
    press(driver, KeySym.SPACE)  # any key
    assert scene.trip is None
    pos = session.game.state.pos
    driver.idle(1.0)
    assert session.game.state.pos == pos and session.game.state.turn == 3


def test_the_recording_of_a_travelled_game_holds_only_moves_and_replays(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    isolate_user_data(monkeypatch, tmp_path)
    session = Session.new(content(), "undercroft", SEED)
    scene = ExploreScene(session)
    stack = SceneStack([scene])
    for _ in range(5):
        if session.mode != Mode.EXPLORE:
            break
        press(stack, KeySym.X)
        walk_out(stack, scene)
    session.close()
    assert session.path is not None
    rec = record.load_recording(session.path)
    assert rec.actions and all(isinstance(a, (Move, Descend)) for _, a, _ in rec.actions)
    again = record.replay(content(), rec)
    assert again.checksum() == session.game.checksum()


def test_auto_explore_keeps_away_from_a_monster_left_behind_until_told_twice() -> None:
    session = calm_session()
    game = session.game
    m = game.state.level.map
    sx, sy = m.stairs
    room = int(m.segment_of[sy, sx])
    spot = next(
        (x, y)
        for y in range(m.height)
        for x in range(m.width)
        if m.segment_of[y, x] == room and m.tiles[y, x] == levelmap.FLOOR
    )
    g = game.add_group("gaoler", 1, pos=spot, origin=Origin.RESIDENT)
    g.segment, g.met = room, True  # met before and left alone: walking in meets it again
    name = "the Gaoler"
    scene = ExploreScene(session)
    stack = SceneStack([scene])
    said = False
    for _ in range(60):
        if session.mode != Mode.EXPLORE:
            break
        press(stack, KeySym.X)
        walk_out(stack, scene)
        assert said or int(m.segment_of[game.state.pos[1], game.state.pos[0]]) != room
        said = (
            said
            or session.log.lines[-1][0] == f"Nothing more to explore without going past {name} (x again: go anyway)."
        )
    assert said  # x stopped short of it, naming it (the play test's x went past a Gaoler it did not name), then went on
    assert session.mode == Mode.ENCOUNTER
    assert travel.haunted(game) >= {room}


def test_a_group_come_into_sight_stops_a_walk_by_its_name_unless_it_is_at_peace() -> None:
    """Found in play: a walk stopped with "You stop: The Leech-Mother in sight" (a capital mid-sentence), and again
    and again for a Kobold and a Peddler that had agreed to let the delver be."""
    session = calm_session()
    game = session.game
    scene = ExploreScene(session)
    vis = game.visible()
    px, py = game.state.pos
    spot = min(
        ((int(x), int(y)) for y, x in zip(*np.nonzero(vis & levelmap.walkable(game.state.level.map)), strict=True)),
        key=lambda p: (-max(abs(p[0] - px), abs(p[1] - py)), p),
    )  # the farthest tile in sight
    hp = tuple(m.hp for m in game.state.party)
    g = game.add_group("leech_mother", 1, pos=spot, origin=Origin.WANDERING)
    said = scene.stop_cause(Trip(None, True, hp, frozenset()), [])
    assert said == f"You stop: the Leech-Mother in sight, {game.distance_to(g)} ft away."
    g.met = g.peaceful = True  # it has agreed to let the party be
    assert scene.stop_cause(Trip(None, True, hp, frozenset()), []) is None
    game.state.level.remove_group(g)
    k = game.add_group("kobold", 2, pos=spot, origin=Origin.WANDERING)
    assert scene.stop_cause(Trip(None, True, hp, frozenset()), []) == (
        f"You stop: 2 Kobolds in sight, {game.distance_to(k)} ft away."
    )
