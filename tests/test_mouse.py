"""The mouse everywhere a key works. A click on a panel's choice takes it as its key would; in a
fight a click on a creature (on the map or in the list) targets it; a click on a door runs through it; a menu's
option is taken by a click; the wheel scrolls the log and the help; the pointer is described on every game screen.
(The terminal delivers the same events: tests/test_term_mouse.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_helpers import NOTHING, content, make_game, script
from tcod.event import KeySym
from test_ui_encounter_map import face, in_a_new_room, meet_at
from ui_helpers import (
    Driver,
    click,
    click_text,
    isolate_user_data,
    names,
    panel_rect,
    panel_text,
    pointer,
    press,
    rows,
    screen,
    wheel,
)

from undercroft.rules import events as evt
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.types import Mode
from undercroft.ui.scenes import DoorScene, ExploreScene, HelpScene, LogScene, SceneStack, TitleScene, game_stack
from undercroft.ui.scenes.look import describe
from undercroft.ui.session import Session


def test_a_click_on_a_choice_of_the_encounter_panel_takes_it() -> None:
    game = in_a_new_room()
    _, driver, session = meet_at(game, "orc", 1, (2, 2))
    turn = game.state.turn
    script(game).push(*[NOTHING] * 4)
    click_text(driver, "[w] Wait")
    assert game.state.turn == turn + 1 and any(isinstance(e, evt.Wait) for e in session.last_events)
    click_text(driver, "Talk")  # on the label, not only the key
    assert game.state.turn == turn + 2 and session.last_events[0].type != "refused"


def test_a_click_on_a_greyed_choice_says_why_as_its_key_would() -> None:
    game = in_a_new_room()
    _, driver, session = meet_at(game, "orc", 1, (2, 2))
    game.state.items.clear()  # no potion: Drink is greyed out
    click_text(driver, "[q] Drink")
    assert "Not now:" in panel_text(screen(driver), session)


def test_in_a_fight_a_click_on_a_creature_on_the_map_or_in_the_list_targets_it() -> None:
    game = in_a_new_room()
    g, driver, _session = meet_at(game, "orc", 3, (2, 2))
    press(driver, KeySym.F)
    assert game.state.mode == Mode.COMBAT
    assert "[a] Attack Orc #1" in screen(driver)
    x, y = _session.camera.last.to_screen(game.creature_tiles(g)[2])
    driver.send(click(x, y))  # on the map
    assert "[a] Attack Orc #3" in screen(driver)
    click_text(driver, "2. Orc #2")  # in the list
    assert "[a] Attack Orc #2" in screen(driver)
    assert game.state.combat is not None and game.state.combat.round == 1  # targeting takes no turn


def test_a_click_on_a_door_runs_through_it() -> None:
    game = in_a_new_room("warden", 2)  # no pursuit in warden: the run is over at once
    _, driver, _ = face(game, "gaoler")
    press(driver, KeySym.R)
    scene = driver.top
    assert isinstance(scene, DoorScene)
    far = scene.open_doors()[-1]
    way = game.exits()[far]
    door = scene.session.camera.last.to_screen(way.door)
    driver.send(pointer(*door))  # the pointer over a door chooses it
    assert scene.open_doors()[scene.cursor] == far
    script(game).push(NOTHING)
    driver.send(click(*door))
    assert names(driver) == ["ExploreScene"] and game.state.pos == way.landing


def test_a_click_on_a_menu_option_takes_it() -> None:
    game = make_game("crawler", 1, dice=ScriptedDice())
    game.state.party[1].hp -= 5
    game.state.party[0].hp -= 2  # (the one clicked must be hurt: a potion for the unhurt is refused)
    session = Session(content(), game)
    driver = Driver(SceneStack(game_stack(session)))
    press(driver, KeySym.Q)  # in a party: who drinks?
    assert names(driver)[-1] == "MenuScene"
    text = screen(driver)
    second = game.state.party[1].name
    assert f"> {second}" in text  # the wounded one is offered first
    script(game).push(*[4] * 8)  # the potion's roll, then anything the turn asks
    first = game.state.party[0].name
    click_text(driver, first + " (HP")
    assert names(driver) == ["ExploreScene"]
    drank = [e for e in session.last_events if isinstance(e, evt.Drink)]
    assert drank and drank[0].member == 0


def test_the_wheel_scrolls_the_log_and_the_help() -> None:
    game = make_game("undercroft", 1)
    session = Session(content(), game)
    for i in range(80):
        session.log.add(f"Line {i}.")
    log = LogScene(session)
    stack = SceneStack([log])
    first = screen(stack)
    stack.handle(wheel(2))
    assert log.offset == 6 and screen(stack) != first
    stack.handle(wheel(-1))
    assert log.offset == 3
    helpscene = HelpScene()
    stack = SceneStack([helpscene])
    top = screen(stack)
    stack.handle(wheel(-2))
    assert helpscene.offset == 6 and screen(stack) != top and names(stack) == ["HelpScene"]


def test_the_pointer_is_described_on_the_encounter_screen_but_not_over_its_panel() -> None:
    game = in_a_new_room()
    st = game.state
    meet_at(game, "orc", 1, (2, 2))
    g = st.front_group()
    assert g is not None
    session = Session(content(), game)
    driver = Driver(SceneStack(game_stack(session)))
    x, y = session.camera.last.to_screen(game.creature_tiles(g)[0])
    driver.send(pointer(x, y))
    assert "Orc" in rows(screen(driver))[0]
    px = panel_rect(session).x
    y = 10
    game.state.level.explored[y, px + 5] = True  # a known tile of the map that the panel covers
    bare = Session(content(), game)
    assert describe(bare, (px + 5, y))  # it has something to say, off the panel
    driver.send(pointer(px + 5, y))
    top = rows(screen(driver))[0]
    assert describe(bare, (px + 5, y)) not in top


def test_a_click_on_a_title_menu_row_is_its_key(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    isolate_user_data(monkeypatch, tmp_path)
    stack = Driver(SceneStack([TitleScene(content(), seed=7)]))
    click_text(stack, "Help: every key")
    assert names(stack)[-1] == "HelpScene"
    press(stack, KeySym.ESCAPE)
    click_text(stack, "Ruleset ")
    assert names(stack)[-1] == "MenuScene"
    click_text(stack, "The Warden (warden)")
    click_text(stack, "New game ")
    scene = stack.scenes[0]
    assert isinstance(scene, ExploreScene) and scene.session.game.ruleset_id == "warden"
