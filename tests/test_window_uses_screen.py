"""The map uses the screen a panel leaves: laid out in those columns, never beside the panel's frame nor under it;
the pointer's line is current on every scene; a click that does nothing says why."""

from __future__ import annotations

import pytest
import tcod.event
from engine_helpers import content, make_game
from test_ui_encounter_map import face
from ui_helpers import Driver

from undercroft.rules.dice import ScriptedDice
from undercroft.ui.layout import TOP, Layout
from undercroft.ui.scenes import EncounterScene, SceneStack, game_stack
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
