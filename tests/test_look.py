"""Look: ``;`` opens a cursor over the map that says what is under it; the mouse pointer over
the map says the same on the map's top row. It names only what is in sight, remembers the rest, and sends no
action. The scenes through the one loop on the null front end; every roll scripted."""

from __future__ import annotations

import pytest
import tcod.event
from engine_helpers import content, encounter_faces, make_game, script, walk_into
from tcod.event import KeySym, Modifier
from ui_helpers import Driver, names, press, rows, screen

from undercroft.rules.dice import ScriptedDice
from undercroft.rules.game import Game
from undercroft.rules.state import Group
from undercroft.rules.types import Mode, Origin
from undercroft.ui import render
from undercroft.ui.scenes import LookScene, SceneStack, game_stack
from undercroft.ui.scenes.look import describe, targets
from undercroft.ui.session import Session


def in_a_new_room() -> Game:
    game = make_game("undercroft", 1, dice=ScriptedDice())
    walk_into(game, "room", visited=False)
    return game


def meet_at(
    game: Game, monster: str, count: int, distance: tuple[int, int], *, origin: Origin = Origin.RESIDENT
) -> tuple[Group, Driver, Session]:
    """Meet ``count`` x ``monster`` at the rolled ``distance`` (nobody surprised), on the screen."""
    g = game.add_group(monster, count, pos=game.state.pos, origin=origin)
    script(game).push(*encounter_faces(distance=distance, reaction=(4, 4)))
    events = game.start_encounter(g)
    session = Session(content(), game)
    session.log.add_events(events, session.narrator)
    return g, Driver(SceneStack(game_stack(session))), session


def exploring() -> tuple[Driver, Session]:
    session = Session(content(), make_game("undercroft", 11))
    return Driver(SceneStack(game_stack(session))), session


def look(driver: Driver) -> LookScene:
    press(driver, KeySym.SEMICOLON)
    top = driver.top
    assert isinstance(top, LookScene)
    return top


def no_action(session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_: object) -> None:
        raise AssertionError("the look sent an action")

    monkeypatch.setattr(session, "act", refuse)


def test_the_cursor_starts_on_the_party_moves_and_closes_with_esc_or_semicolon_changing_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    driver, session = exploring()
    game = session.game
    st = game.state
    before, turn, pos, log = game.checksum(), st.turn, st.pos, len(session.log.lines)
    no_action(session, monkeypatch)
    scene = look(driver)
    assert names(driver) == ["ExploreScene", "LookScene"] and scene.cursor == pos
    assert "You (Delver, HP 12/12)" in screen(driver)
    press(driver, KeySym.RIGHT, KeySym.L, KeySym.KP_2)  # arrows, vi-keys, numpad: the cursor, never the party
    assert scene.cursor == (pos[0] + 2, pos[1] + 1) and st.pos == pos
    press(driver, KeySym.LEFT, mod=Modifier.LSHIFT)  # Shift: five at a time
    assert scene.cursor == (max(0, pos[0] - 3), pos[1] + 1) and st.pos == pos
    press(driver, KeySym.TAB, KeySym.H)
    press(driver, KeySym.ESCAPE)
    assert names(driver) == ["ExploreScene"]
    look(driver)
    press(driver, KeySym.SEMICOLON)
    assert names(driver) == ["ExploreScene"]
    assert game.checksum() == before and st.turn == turn and st.pos == pos and len(session.log.lines) == log


def test_the_cursor_is_drawn_inverse() -> None:
    driver, _ = exploring()
    scene = look(driver)
    driver.screen()
    console = driver.frontend.console
    assert console is not None
    x, y = scene.session.camera.last.to_screen(scene.cursor)
    cell = render.cells(console)[y, x]
    assert tuple(int(c) for c in cell["fg"]) == render.BLACK and tuple(int(c) for c in cell["bg"]) != render.BLACK


def test_the_stairs_are_stairs_down_seen_or_remembered() -> None:
    driver, session = exploring()
    lv = session.game.state.level
    sx, sy = lv.map.stairs
    scene = look(driver)
    scene.cursor = (sx, sy)
    text = screen(driver)
    if session.game.visible()[sy, sx]:
        assert "Stairs down." in text
    elif lv.explored[sy, sx]:
        assert "You remember stairs down." in text
    else:
        assert "Unexplored." in text
        lv.explored[sy, sx] = True  # seen once: remembered
        assert "You remember stairs down." in screen(driver)
    assert describe(session, (sx, sy)).endswith("stairs down.")


def test_a_group_in_sight_is_named_with_which_one_its_hp_and_the_odds(monkeypatch: pytest.MonkeyPatch) -> None:
    game = in_a_new_room()
    g, driver, session = meet_at(game, "orc", 3, (2, 2))  # 40 ft: in sight in this room
    assert names(driver) == ["ExploreScene", "EncounterScene"]
    no_action(session, monkeypatch)
    scene = look(driver)
    assert targets(session)[:3] == game.creature_tiles(g)
    press(driver, KeySym.TAB)
    assert scene.cursor == game.creature_tiles(g)[0]
    text = " ".join(r.strip() for r in rows(screen(driver)))
    assert f"Orc, 1 of 3: HP {g.hp[0]}/{g.max_hp}, {game.distance_to(g)} ft away." in text
    assert "If you fight on: win" in text  # the encounter panel's odds line
    assert game.monster_of(g).description.split()[0] in text
    g.set_hp(1, 2)
    press(driver, KeySym.TAB)
    assert scene.cursor == game.creature_tiles(g)[1]
    assert f"Orc, 2 of 3: HP 2/{g.max_hp}" in screen(driver)
    press(driver, KeySym.TAB, mod=Modifier.LSHIFT)  # back
    assert scene.cursor == game.creature_tiles(g)[0]
    press(driver, KeySym.ESCAPE)
    assert names(driver) == ["ExploreScene", "EncounterScene"] and game.state.mode == Mode.ENCOUNTER


def test_a_group_out_of_sight_is_never_described() -> None:
    game = in_a_new_room()
    g, driver, session = meet_at(game, "orc", 3, (6, 6), origin=Origin.WANDERING)  # 120 ft, out of sight
    assert g.unseen
    scene = look(driver)
    press(driver, KeySym.TAB)
    assert scene.cursor not in game.creature_tiles(g)  # Tab never goes to it
    for tile in [*game.creature_tiles(g), g.pos]:
        scene.cursor = tile
        text = screen(driver)
        assert "Orc" not in text and "HP 8/" not in text and "ft away." not in text
        assert "Orc" not in describe(session, tile)


def test_the_mouse_over_the_map_says_what_is_there_on_the_top_row() -> None:
    driver, session = exploring()
    sx, sy = session.game.state.level.map.stairs
    x, y = session.game.state.pos
    driver.send(
        tcod.event.MouseMotion(position=tcod.event.Point(float(x + 1), float(y)), tile=tcod.event.Point(x + 1, y))
    )
    top = rows(screen(driver))[0]
    assert describe(session, (x + 1, y)) in top and names(driver) == ["ExploreScene"]
    driver.send(tcod.event.MouseMotion(position=tcod.event.Point(float(sx), float(sy)), tile=tcod.event.Point(sx, sy)))
    assert describe(session, (sx, sy)) in rows(screen(driver))[0]


def test_tab_goes_to_an_item_in_sight_and_names_it_with_its_amount() -> None:
    driver, session = exploring()
    game = session.game
    vis = game.visible()
    m = game.state.level.map
    spot = next(
        (x, y)
        for y in range(m.height)
        for x in range(m.width)
        if vis[y, x] and m.tiles[y, x] == 1 and (x, y) != game.state.pos
    )
    game.state.level.items[spot] = [("gold", 30), ("healing_potion", 2)]
    scene = look(driver)
    press(driver, KeySym.TAB)
    assert scene.cursor == spot
    assert describe(session, spot) == "Floor; here: 30 gold, 2 x Healing Potion."
    assert "30 gold, 2 x" in screen(driver)


def test_shift_and_a_vi_key_moves_the_cursor_five_as_shift_and_an_arrow_does() -> None:
    """Play test: "K" (Shift+k) did nothing in look, though the walking keys move five tiles with Shift, vi-keys
    included."""
    driver, _ = exploring()
    for vi, arrow in (
        (KeySym.K, KeySym.UP),
        (KeySym.J, KeySym.DOWN),
        (KeySym.H, KeySym.LEFT),
        (KeySym.L, KeySym.RIGHT),
    ):
        moved = []
        for sym in (vi, arrow):
            scene = look(driver)
            start = scene.cursor
            press(driver, sym, mod=Modifier.LSHIFT)
            moved.append((scene.cursor[0] - start[0], scene.cursor[1] - start[1]))
            press(driver, KeySym.ESCAPE)
        assert moved[0] == moved[1] and moved[0] != (0, 0) and max(map(abs, moved[0])) > 1, (vi, moved)


def test_at_80x24_look_lays_the_bar_and_the_log_out_beside_its_panel() -> None:
    """Play test (lantern moth, turn 61): at 80x24 look was drawn over the left of the status bar and the log,
    leaving fragments ("  Turn 61  Seed lantern moth", "60 ft away."); the meeting panels lay them out beside
    themselves, and so does look now."""
    session = Session(content(), make_game("undercroft", 11))
    session.log.add("You stop: the Leech-Mother in sight, 60 ft away.")
    driver = Driver(SceneStack(game_stack(session)), size=(80, 24))
    look(driver)
    beside = [row.replace("┘", "│").split("│")[-1] for row in rows(screen(driver))[-4:]]  # right of the panel
    words = " ".join(" ".join(beside).split())
    assert "HP 12/12 Lv1" in words  # the bar, from its start, beside the panel
    assert "You stop: the Leech-Mother in sight, 60 ft away." in words  # the log too, whole


def test_a_fight_not_certain_is_never_told_as_won_for_sure() -> None:
    """Play test: "win 100%, death <1%" side by side on many flat fights (rounding). A Goblin against a fresh
    delver: not certain either way, and said so."""
    from undercroft.sim.odds import fight_odds
    from undercroft.ui.scenes.look import odds_line

    game = make_game("undercroft", 11)
    odds = fight_odds(content(), game, game.add_group("goblin", 1))
    assert odds is not None and 0.995 <= odds.win < 1 and odds.death > 0
    line = odds_line(odds, "If you fight it")[0]
    assert line.startswith("If you fight it: win >99%, death <1%,") and "100%" not in line


def test_a_fight_that_cannot_be_lost_is_not_told_as_not_certain() -> None:
    """Play test (a Peddler on floor 7): "win >99%, death 0%", where the exact odds summed to 0.9999999999999476
    for a fight that cannot end otherwise: a rounding of the floats, told as the certainty it is."""
    from undercroft.sim.odds import Odds
    from undercroft.ui.scenes.look import odds_line

    odds = Odds(
        win=0.9999999999999476,
        death=0.0,
        hp_lost_mean=0.2,
        rounds_mean=1.25,
        method="exact",
        character="delver",
        exact=True,
    )
    assert odds_line(odds, "If you fight it")[0].startswith("If you fight it: win 100%, death 0%,")
    near = Odds(
        win=0.996, death=0.004, hp_lost_mean=0.2, rounds_mean=1.25, method="exact", character="delver", exact=True
    )
    assert odds_line(near, "If you fight it")[0].startswith("If you fight it: win >99%, death <1%,")
