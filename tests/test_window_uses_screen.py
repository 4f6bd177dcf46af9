"""The map uses the screen a panel leaves: laid out in those columns, never beside the panel's frame nor under it;
a small level is scaled up to fill it, centred; the pointer's line is current on every scene; a click that does
nothing says why."""

from __future__ import annotations

import dataclasses
import functools

import pytest
import tcod.event
from engine_helpers import content, make_game
from test_ui_encounter_map import beside, face
from ui_helpers import Driver, walk_out

from undercroft.content import Content
from undercroft.rules import dungeon
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.game import Game
from undercroft.ui.layout import TOP, Layout, Viewport
from undercroft.ui.scenes import EncounterScene, ExploreScene, SceneStack, game_stack
from undercroft.ui.scenes.look import describe
from undercroft.ui.session import Session


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)])
def test_with_a_panel_the_map_is_only_in_the_columns_it_leaves(size: tuple[int, int]) -> None:
    game = make_game("undercroft", 2, dice=ScriptedDice())
    _, driver, session = face(game, "orc")
    driver = Driver(driver.stack, size=size)
    driver.screen()
    console = driver.frontend.console
    assert console is not None and isinstance(driver.top, EncounterScene)
    layout = Layout.of(*size)
    panel = driver.top.panel_rect(layout)
    assert panel is not None
    c0, c1 = layout.clear(panel)
    for x in [*range(c0), *range(c1, size[0])]:
        for y in range(TOP, layout.map_h):
            if (x, y) not in panel:  # beside the panel's frame, or under it: nothing of the map
                assert console.ch[x, y] == ord(" "), (x, y, chr(console.ch[x, y]))
    sx, _ = session.camera.last.to_screen(game.state.pos)
    assert c0 <= sx < c1  # the party in the columns the panel leaves


def test_the_pointer_line_is_current_on_a_scene_just_opened() -> None:
    game = make_game("undercroft", 2, dice=ScriptedDice())
    g, driver, session = face(game, "orc")
    driver.screen()
    x, y = session.camera.last.to_screen(g.pos)
    at = tcod.event.Point(float(x), float(y))
    driver.send(tcod.event.MouseMotion(position=at, motion=tcod.event.Point(0.0, 0.0), tile=tcod.event.Point(x, y)))
    assert session.pointer == (x, y)
    fresh = EncounterScene(session)  # a scene opened now (no pointer move since): it tells what is under it
    assert fresh.hover == (x, y)


def test_a_click_that_walks_nowhere_says_why() -> None:
    game = make_game("undercroft", 2, dice=ScriptedDice())
    session = Session(content(), game)
    stack = Driver(SceneStack(game_stack(session)))
    stack.screen()
    port = session.camera.last
    unknown = next(
        (sx, sy)
        for sy in range(port.top, port.h)
        for sx in range(port.w)
        if (p := port.to_map((sx, sy))) is not None
        and 0 <= p[1] < game.state.level.map.height
        and 0 <= p[0] < game.state.level.map.width
        and not session.view.explored()[p[1], p[0]]
    )
    click = tcod.event.MouseButtonDown(
        position=tcod.event.Point(float(unknown[0]), float(unknown[1])), button=tcod.event.MouseButton.LEFT
    )
    stack.send(click)
    assert session.log.lines[-1][0] == "You do not know that place: a click walks only to a tile you have seen."


def test_at_80x24_beside_a_panel_the_status_bar_keeps_the_seed() -> None:
    game = make_game("undercroft", 2, dice=ScriptedDice())
    _, driver, session = face(game, "orc")
    text = Driver(driver.stack, size=(80, 24)).screen()
    bar = next(row for row in text.splitlines() if "HP " in row and "Gold" in row)
    assert f"Seed {session.seed_label}" in bar  # the turn goes first: the seed names the game


# A small level: every floor of the dungeon profiles cut to 24 x 9 tiles (two or three small rooms). At 80x24,
# 120x40 and 200x60 it once stood in the top left of the map's rows (a band in a black 1080p window).
SMALL = (24, 9)
SIZES = [(80, 24), (120, 40), (200, 60)]
SCALES = {(80, 24): (2, 2), (120, 40): (4, 2), (200, 60): (8, 4)}  # columns x rows a tile, no panel


@functools.cache
def small_content() -> Content:
    c = content()
    w, h = SMALL
    cut = {"width": w, "height": h, "rooms_min": 2, "rooms_max": 3, "room_size_min": 3, "room_size_max": 5}
    return dataclasses.replace(c, dungeon={k: v.model_copy(update=cut) for k, v in c.dungeon.items()})


def small_game() -> tuple[Session, Driver]:
    game = Game(small_content(), "undercroft", 2)
    assert (game.state.level.map.width, game.state.level.map.height) == SMALL
    session = Session(small_content(), game)
    return session, Driver(SceneStack(game_stack(session)))


def blocks_on_screen(port: Viewport, size: tuple[int, int], x0: int, x1: int) -> None:
    """Every tile of the small level a whole block of the port, in columns [x0, x1) and the map's rows, each cell
    of it mapping back to the tile; the level centred there (its margins differ by a cell at most; a tile's width
    when it is not scaled up: it is placed by whole tiles then)."""
    layout = Layout.of(*size)
    w, h = SMALL
    for y in range(h):
        for x in range(w):
            bx, by = port.cell((x, y))
            assert x0 <= bx <= x1 - port.sx and TOP <= by <= layout.map_h - port.sy
            corners = [(bx, by), (bx + port.sx - 1, by), (bx, by + port.sy - 1), (bx + port.sx - 1, by + port.sy - 1)]
            assert all(port.to_map(c) == (x, y) for c in corners)
    left, right = port.cell((0, 0))[0] - x0, x1 - (port.cell((w - 1, 0))[0] + port.sx)
    above, below = port.cell((0, 0))[1] - TOP, layout.map_h - (port.cell((0, h - 1))[1] + port.sy)
    slack = 1 if port.sy > 1 else port.sx
    assert abs(left - right) <= slack and abs(above - below) <= 1, (left, right, above, below)


@pytest.mark.parametrize("size", SIZES)
def test_a_small_level_fills_the_map_scaled_up_and_centred(size: tuple[int, int]) -> None:
    session, driver = small_game()
    text = Driver(driver.stack, size=size).screen()
    port = session.camera.last
    assert (port.sx, port.sy) == SCALES[size]
    blocks_on_screen(port, size, 0, size[0])
    rows = [line[1:] for line in text[:-1].splitlines()]  # (str(console) frames its rows in "<" and ">")
    x, y = port.to_screen(session.game.state.pos)
    assert rows[y][x] == "@"  # the party's glyph in its block's middle cell, the rest of the block blank
    bx, by = port.cell(session.game.state.pos)
    assert sum(rows[j][bx : bx + port.sx].count("@") for j in range(by, by + port.sy)) == 1
    m = session.game.state.level.map
    seen = session.view.explored()
    wall = next(
        (px, py) for py in range(m.height) for px in range(m.width) if seen[py, px] and m.tiles[py, px] == dungeon.WALL
    )
    bx, by = port.cell(wall)
    assert all(rows[j][bx : bx + port.sx] == "#" * port.sx for j in range(by, by + port.sy))  # a wall stays solid


@pytest.mark.parametrize("size", SIZES)
def test_a_click_on_any_cell_of_a_scaled_tile_walks_to_that_tile(size: tuple[int, int]) -> None:
    session, driver = small_game()
    driver = Driver(driver.stack, size=size)
    driver.screen()
    game, port = session.game, session.camera.last
    seen = session.view.explored()
    m = game.state.level.map
    room = m.segment_of[game.state.pos[1], game.state.pos[0]]  # (the party's room: a walk stops at a door)
    goal = max(
        (
            (px, py)
            for py in range(m.height)
            for px in range(m.width)
            if seen[py, px] and m.tiles[py, px] == dungeon.FLOOR and m.segment_of[py, px] == room
        ),
        key=lambda p: abs(p[0] - game.state.pos[0]) + abs(p[1] - game.state.pos[1]),
    )
    bx, by = port.cell(goal)
    px, py = port.cell(game.state.pos)  # the pointer on the party's block's far corner: the line tells of it
    corner = (px + port.sx - 1, py + port.sy - 1)
    at = tcod.event.Point(float(corner[0]), float(corner[1]))
    driver.send(tcod.event.MouseMotion(position=at, motion=tcod.event.Point(0.0, 0.0), tile=tcod.event.Point(*corner)))
    said = describe(session, game.state.pos)
    assert said.startswith("You (") and said in driver.screen().splitlines()[0]
    x, y = bx + port.sx - 1, by + port.sy - 1  # the block's far corner, not its glyph's cell
    click = tcod.event.MouseButtonDown(
        position=tcod.event.Point(float(x), float(y)), button=tcod.event.MouseButton.LEFT
    )
    driver.send(click)
    scene = driver.top
    assert isinstance(scene, ExploreScene)
    walk_out(driver.stack, scene)
    assert game.state.pos == goal


@pytest.mark.parametrize("size", SIZES)
def test_beside_a_panel_a_small_level_is_scaled_in_the_columns_it_leaves(size: tuple[int, int]) -> None:
    session, _ = small_game()
    game = session.game
    g = game.add_group("orc", 1, pos=beside(game))
    game.start_encounter(g, meeting=False)
    driver = Driver(SceneStack(game_stack(session)), size=size)
    driver.screen()
    console = driver.frontend.console
    assert console is not None and isinstance(driver.top, EncounterScene)
    layout = Layout.of(*size)
    panel = driver.top.panel_rect(layout)
    assert panel is not None
    c0, c1 = layout.clear(panel)
    port = session.camera.last
    assert port.sy == (2 if size == (200, 60) else 1)  # (the columns a panel leaves hold it twice at 200x60 only)
    blocks_on_screen(port, size, c0, c1)
    for x in [*range(c0), *range(c1, size[0])]:
        for y in range(TOP, layout.map_h):
            if (x, y) not in panel:
                assert console.ch[x, y] == ord(" "), (x, y, chr(console.ch[x, y]))
