"""An encounter on the screen: each creature of a group in sight on its own tile, the distance the map measures, a group
out of sight neither drawn nor named, running through a chosen door, and the party's own chase. The scenes through
the one loop on the null front end; every roll scripted."""

from __future__ import annotations

import dataclasses
import math
import re

import numpy as np
import pytest
import tcod.console
from art_maps import on_art
from engine_helpers import NOTHING, content, encounter_faces, make_game, script, walk_into
from tcod.event import KeySym
from test_chase_map import STRAIGHT
from ui_helpers import Driver, names, panel_rect, panel_text, press, rows, screen

from undercroft.rules import approach
from undercroft.rules.actions import Move
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.game import Game
from undercroft.rules.state import Group
from undercroft.rules.types import Mode, Origin, Side
from undercroft.rules.view import View
from undercroft.ui import palette, render
from undercroft.ui.layout import PANEL_W
from undercroft.ui.scenes import DoorScene, SceneStack, game_stack
from undercroft.ui.session import Session


def in_a_new_room(ruleset: str = "undercroft", seed: int = 1) -> Game:
    game = make_game(ruleset, seed, dice=ScriptedDice())
    walk_into(game, "room", visited=False)
    return game


def meet_at(
    game: Game,
    monster: str,
    count: int,
    distance: tuple[int, int],
    *,
    origin: Origin = Origin.RESIDENT,
    reaction: tuple[int, int] = (4, 4),
) -> tuple[Group, Driver, Session]:
    """Meet ``count`` x ``monster`` at the rolled ``distance`` (nobody surprised), on the screen."""
    g = game.add_group(monster, count, pos=game.state.pos, origin=origin)
    script(game).push(*encounter_faces(distance=distance, reaction=reaction))
    events = game.start_encounter(g)
    session = Session(content(), game)
    session.log.add_events(events, session.narrator)
    session.last_events = events
    return g, Driver(SceneStack(game_stack(session))), session


def beside(game: Game) -> tuple[int, int]:
    """A floor tile of the party's segment next to the party."""
    st = game.state
    m = st.level.map
    for dx, dy in approach.STEPS8:
        x, y = st.pos[0] + dx, st.pos[1] + dy
        if m.tiles[y, x] == 1 and int(m.segment_of[y, x]) == st.segment:
            return (x, y)
    raise AssertionError("no floor beside the party")


def face(game: Game, monster: str, count: int = 1) -> tuple[Group, Driver, Session]:
    """Face a group met before, standing beside the party (nothing rolled)."""
    g = game.add_group(monster, count, pos=beside(game))
    game.start_encounter(g, meeting=False)
    session = Session(content(), game)
    return g, Driver(SceneStack(game_stack(session))), session


def cells_of(driver: Driver) -> np.ndarray:
    driver.screen()
    console = driver.frontend.console
    assert console is not None
    return render.cells(console)


def glyphs(driver: Driver, glyph: str, game: Game) -> set[tuple[int, int]]:
    """The map tiles (beside the side panel) showing ``glyph``, in the level's coordinates."""
    x0 = panel_rect(Session(content(), game)).x
    cells = cells_of(driver)["ch"]
    view = driver.stack.scenes[-1].session.camera.last  # type: ignore[attr-defined]
    ys, xs = np.nonzero(cells[: render.MAP_ROWS] == ord(glyph))
    shown = {(int(x), int(y)) for x, y in zip(xs, ys, strict=True) if not x0 <= x < x0 + PANEL_W}
    return {p for s in shown if (p := view.to_map(s)) is not None}


def screen_at(driver: Driver, p: tuple[int, int]) -> tuple[int, int]:
    """Where level tile ``p`` is on the screen, as (row, column): an index of the cells."""
    x, y = driver.stack.scenes[-1].session.camera.last.to_screen(p)  # type: ignore[attr-defined]
    return y, x


def colour_of(driver: Driver, label: str) -> tuple[int, int, int]:
    console = tcod.console.Console(render.WIDTH, render.HEIGHT, order="F")
    driver.stack.draw(console)
    for y, row in enumerate(rows(str(console))):
        x = row.find(label)
        if x >= 0:
            return tuple(int(c) for c in console.fg[x, y])  # type: ignore[return-value]
    raise AssertionError(f"{label!r} is not on the screen")


# --- 1. each creature on the map -----------------------------------------------------------------------------------


def test_a_group_of_three_shows_three_creatures_beside_the_party_in_a_fight() -> None:
    game = in_a_new_room()
    st = game.state
    g, driver, _ = meet_at(game, "orc", 3, (2, 2))  # 40 ft: in sight in this room
    tiles = game.creature_tiles(g)
    assert glyphs(driver, "o", game) == set(tiles) and len(set(tiles)) == 3  # each on its own tile, met already
    press(driver, KeySym.F)  # the sides close: the fight is side by side
    assert names(driver) == ["ExploreScene", "CombatScene"] and st.mode == Mode.COMBAT
    tiles = game.creature_tiles(g)
    assert glyphs(driver, "o", game) == set(tiles)
    assert all(max(abs(x - st.pos[0]), abs(y - st.pos[1])) <= 2 for x, y in tiles)
    cells = cells_of(driver)
    bg = {p: tuple(int(c) for c in cells["bg"][screen_at(driver, p)]) for p in tiles}
    assert bg[tiles[0]] == render.TARGET_BG  # the target: white on red
    assert tuple(int(c) for c in cells["fg"][screen_at(driver, tiles[0])]) == palette.TARGET_FG
    assert bg[tiles[1]] == bg[tiles[2]] == palette.UNHURT_BG  # the others on the colour of their health
    g.hp = (g.hp[0], g.max_hp * 2 // 3, max(1, g.max_hp // 3), *g.hp[3:])  # hurt; badly hurt
    cells = cells_of(driver)
    assert tuple(int(c) for c in cells["bg"][screen_at(driver, tiles[1])]) == palette.HURT_BG
    assert tuple(int(c) for c in cells["bg"][screen_at(driver, tiles[2])]) == palette.MET_BG
    press(driver, KeySym.TAB)  # target the second
    cells = cells_of(driver)
    assert tuple(int(c) for c in cells["bg"][screen_at(driver, tiles[1])]) == render.TARGET_BG
    g.set_hp(1, 0)  # fallen: not drawn
    assert glyphs(driver, "o", game) == {tiles[0], tiles[2]}


# --- 2. the panel: distance, out of sight ----------------------------------------------------------------------------


@pytest.mark.clause("003-distance-3")
def test_a_group_out_of_sight_is_neither_drawn_nor_named_until_it_comes_into_sight() -> None:
    game = in_a_new_room()
    st = game.state
    g, driver, session = meet_at(game, "orc", 3, (6, 6), origin=Origin.WANDERING)  # 120 ft, out of sight
    assert g.unseen and st.mode == Mode.EXPLORE and names(driver) == ["ExploreScene"]
    text = screen(driver)
    assert "Orc" not in text and "Something" not in text and "ft" not in text  # not a word of it, anywhere
    assert session.log.full == []  # not even in the full log: the check that found it, its rolls, its place
    assert not glyphs(driver, "o", game) & {g.pos, *game.creature_tiles(g)}
    m = st.level.map
    keys = {(0, -1): KeySym.UP, (0, 1): KeySym.DOWN, (-1, 0): KeySym.LEFT, (1, 0): KeySym.RIGHT}
    for _ in range(4):  # the party walks about the room; the orcs (90 ft a round) come on unseen, then into sight
        step = next(
            d
            for d in keys
            if m.tiles[st.pos[1] + d[1], st.pos[0] + d[0]] == 1
            and int(m.segment_of[st.pos[1] + d[1], st.pos[0] + d[0]]) == st.segment
        )
        press(driver, keys[step])
        if not g.unseen:
            break
        assert "Orc" not in screen(driver) and not glyphs(driver, "o", game) & {g.pos, *game.creature_tiles(g)}
    assert game.mode == Mode.ENCOUNTER and names(driver)[-1] == "EncounterScene"
    enc = st.encounter
    assert enc is not None
    text = screen(driver)
    panel = panel_text(text, session)
    assert "3 x Orc (wandering)" in panel and f"Distance: {enc.distance} ft" in panel
    assert f"3 Orcs come into sight, {enc.distance} ft away!" in text
    # the group met: every creature its panel counts on the map, those round a corner too
    assert (
        glyphs(driver, "o", game)
        == set(game.creature_tiles(g))
        != {p for p in game.creature_tiles(g) if game.visible()[p[1], p[0]]}
    )
    assert colour_of(driver, "[f] Fight") != render.FAINT


def test_the_distance_on_the_panel_is_the_maps_after_every_step() -> None:
    game = in_a_new_room()
    st = game.state
    g, driver, session = meet_at(game, "orc", 1, (6, 6), origin=Origin.WANDERING)
    for sym in (KeySym.UP, KeySym.UP, KeySym.DOWN):
        if st.mode != Mode.ENCOUNTER:
            break
        script(game).push(*[NOTHING] * 4)
        press(driver, sym)
        if st.mode == Mode.ENCOUNTER:
            assert st.encounter is not None
            shown = game.distance_to(g)
            assert st.encounter.distance == shown
            assert f"Distance: {shown} ft" in panel_text(screen(driver), session)


# --- 3. running through a chosen door ------------------------------------------------------------------------------


def test_r_with_several_doors_open_asks_which_and_marks_them_on_the_map() -> None:
    game = in_a_new_room("warden", 2)  # no pursuit in warden: the run is over at once
    st = game.state
    _, driver, _ = face(game, "gaoler")
    ways = game.exits()
    open_ = [i for i, w in enumerate(ways) if not w.blocked]
    assert len(open_) >= 2, "this room needs two open doors"
    turn = st.turn
    press(driver, KeySym.R)
    assert names(driver)[-1] == "DoorScene"
    text = screen(driver)
    assert "Run: which door?" in text
    scene = driver.top
    assert isinstance(scene, DoorScene)
    order = scene.open_doors()  # the way in first, then clockwise from north
    assert sorted(order) == open_
    for i in order:
        dx, dy = ways[i].door[0] - st.pos[0], ways[i].door[1] - st.pos[1]
        assert render.compass(dx, dy) in text
        y, x = screen_at(driver, ways[i].door)
        assert rows(text)[y][x] == "+"  # marked on the map
    press(driver, KeySym.ESCAPE)  # stay: nothing happened
    assert names(driver)[-1] == "EncounterScene" and st.turn == turn and "Run: which door?" not in screen(driver)
    press(driver, KeySym.R)
    first = scene.cursor
    press(driver, KeySym.DOWN)  # the next door in the list (a walking key moves the choice, never runs)
    assert names(driver)[-1] == "DoorScene" and st.turn == turn
    chosen = driver.top.open_doors()[(driver.top.cursor)] if isinstance(driver.top, DoorScene) else -1
    assert driver.top.cursor != first or len(order) == 1  # type: ignore[attr-defined]
    script(game).push(NOTHING)  # the monster check of the segment run into
    press(driver, KeySym.RETURN)
    assert names(driver) == ["ExploreScene"]
    assert st.pos == ways[chosen].landing
    text = screen(driver)
    assert "You run through the door." in text and "The Gaoler stays where it is." in text


def test_r_with_one_door_open_runs_at_once_and_with_none_says_why() -> None:
    game = make_game("undercroft", 2, dice=ScriptedDice())  # the start room has one door
    st = game.state
    (door,) = st.level.map.segments[st.segment].doors
    g = game.add_group("orc", 1, pos=door)  # in the doorway
    game.start_encounter(g, meeting=False)
    session = Session(content(), game)
    driver = Driver(SceneStack(game_stack(session)))
    assert colour_of(driver, "[r] Run") == render.FAINT
    press(driver, KeySym.R)
    assert names(driver) == ["ExploreScene", "EncounterScene"]
    assert "Not now: The Orc stands between you and every way out." in panel_text(screen(driver), session)
    g.pos = beside(game)  # inside the room: the one door is open
    assert colour_of(driver, "[r] Run") != render.FAINT and "[r] Run..." not in screen(driver)
    room = st.segment
    press(driver, KeySym.R)  # met without a reaction, it follows for sure: a chase, no roll
    assert not isinstance(driver.top, DoorScene)
    assert st.segment != room and "You run through the door." in screen(driver)


def test_r_twice_runs_the_way_in() -> None:
    game = in_a_new_room("warden", 2)
    st = game.state
    _, driver, session = face(game, "gaoler")
    ways = game.exits()
    back = next(w for w in ways if w.came_in and not w.blocked)
    press(driver, KeySym.R)
    assert "r: the way in" in panel_text(screen(driver), session)
    script(game).push(NOTHING)
    press(driver, KeySym.R)
    assert names(driver) == ["ExploreScene"] and st.pos == back.landing


# --- 4. the party gives chase ----------------------------------------------------------------------------------------


def friendly_wanderer() -> tuple[Game, Group, Driver, Session]:
    game = in_a_new_room()
    g, driver, session = meet_at(game, "kobold", 1, (2, 2), origin=Origin.WANDERING, reaction=(6, 5))
    press(driver, KeySym.W)  # 11: no attack; a wanderer goes its way
    assert game.state.fled == g.id
    return game, g, driver, session


def test_a_group_that_goes_its_way_may_be_pursued() -> None:
    _game, _g, driver, _ = friendly_wanderer()
    assert names(driver) == ["ExploreScene"]
    assert "The Kobold goes its way: [p] pursue" in rows(screen(driver))[0]
    press(driver, KeySym.P)  # its room's doors are behind the party: cornered, it is caught at once
    assert names(driver) == ["ExploreScene", "CombatScene"] and "You catch up with the Kobold!" in screen(driver)


def wanderer_down_a_corridor(count: int = 1) -> tuple[Game, Group, Driver, Session]:
    """Kobolds (60 ft a round) that went their way down a long corridor, 30 ft off; the party (as fast) may chase."""
    game = make_game("undercroft", dice=ScriptedDice())
    on_art(game, STRAIGHT, (7, 1))
    g = game.add_group("kobold", count, pos=(10, 1), origin=Origin.WANDERING)
    g.met = True
    game.state.fled = g.id
    for m in game.state.party:
        m.speed = game.monster_of(g).speed
    session = Session(content(), game)
    return game, g, Driver(SceneStack(game_stack(session))), session


def test_the_chase_panel_while_giving_chase() -> None:
    game, g, driver, session = wanderer_down_a_corridor()
    st = game.state
    press(driver, KeySym.P)
    assert names(driver) == ["ExploreScene", "ChaseScene"]
    assert st.pursuit is not None and st.pursuit.chaser == Side.PARTY
    text = screen(driver)
    panel = panel_text(text, session)
    assert "Giving chase" in text
    assert f"You are chasing the Kobold, {st.pursuit.distance} ft ahead." in panel
    assert "[r] Run on after it" in panel and "[w] Let it go" in panel and "Turn and fight" not in panel
    assert "You go after the Kobold!" in text
    for m in st.party:
        m.speed = game.monster_of(g).speed + 30  # faster now: it catches up
    press(driver, KeySym.R)
    assert names(driver) == ["ExploreScene", "CombatScene"] and "You catch up with the Kobold!" in screen(driver)


def test_letting_it_go() -> None:
    _, _, driver, _ = wanderer_down_a_corridor()
    press(driver, KeySym.P)
    press(driver, KeySym.W)
    assert names(driver) == ["ExploreScene"]
    text = screen(driver)
    assert "You let the Kobold go." in text and "[p] pursue" not in text


def test_the_offer_is_gone_after_any_other_action() -> None:
    game, _, driver, _ = friendly_wanderer()
    script(game).push(NOTHING)  # a rest: the monster check finds nothing
    press(driver, KeySym.Z)  # (the chance of a wanderer told: nothing done yet)
    assert "[p] pursue" in screen(driver)
    press(driver, KeySym.Z)
    assert game.state.fled == 0 and "[p] pursue" not in screen(driver)


def test_compass_words() -> None:
    assert render.compass(0, -4) == "4 tiles north" and render.compass(6, 0) == "6 tiles east"
    assert render.compass(3, -3) == "3 tiles north-east" and render.compass(-1, 1) == "1 tile south-west"
    assert render.compass(0, 0) == "here"
    # never rounded to a direction it is not: a door 7 up and 2 left is not "north"
    assert render.compass(-2, -7) == "7 tiles north, 2 west" and render.compass(6, 1) == "6 tiles east, 1 south"


def test_a_group_of_several_that_goes_its_way_is_offered_and_chased_as_several() -> None:
    game = in_a_new_room()
    g, driver, _ = meet_at(game, "kobold", 3, (2, 2), origin=Origin.WANDERING, reaction=(6, 5))
    press(driver, KeySym.W)  # 11: no attack; the wanderers go their way
    assert game.state.fled == g.id
    assert "The Kobolds go their way: [p] pursue" in rows(screen(driver))[0]
    game, g, driver, session = wanderer_down_a_corridor(3)
    press(driver, KeySym.P)
    st = game.state
    assert st.pursuit is not None
    text = screen(driver)
    panel = panel_text(text, session)
    assert f"You are chasing the Kobolds, {st.pursuit.distance} ft ahead." in panel
    assert "[r] Run on after them" in panel and "[w] Let them go" in panel
    assert "You go after the Kobolds!" in text


def test_the_door_list_wraps_a_long_way_at_80x24(monkeypatch: pytest.MonkeyPatch) -> None:
    """'x south-west, 1 tile (the way you came): blocked' once ran past the panel's edge at 80x24, cut."""
    game = in_a_new_room("warden", 2)
    _, driver, _ = face(game, "gaoler")
    ways = [dataclasses.replace(w, blocked=True) if w.came_in else w for w in game.exits()]
    monkeypatch.setattr(game, "exits", lambda: ways)  # the way in blocked, as when a creature stands before it
    small = Driver(driver.stack, size=(80, 24))
    press(small, KeySym.R)
    with render.watch_cuts() as cuts:
        text = screen(small)
    assert cuts == [], cuts
    top = next(row for row in rows(text) if "┌─ Run: which door?" in row)
    x0, x1 = top.index("┌"), top.index("┐")
    words = " ".join(" ".join(row[x0 + 1 : x1] for row in rows(text)).split())
    assert "(the way you came): closed: the monsters stand in front of it" in words and "Enter: run" in words


def test_burning_oil_is_drawn_on_the_map_while_it_burns() -> None:
    from test_chase_map import chased

    game = chased(STRAIGHT, "orc", (10, 1), (3, 1))
    st = game.state
    st.level.look(st.pos, 8)
    p = st.pursuit
    assert p is not None
    p.fire, p.fire_out = [(8, 1), (9, 1)], 3
    console = tcod.console.Console(80, 6, order="F")
    render.draw_map(console, View(game))
    row = str(console).splitlines()[1]
    assert row[row.index("o") :].startswith("o···+^^@")  # the orc, the room, the door, the fire, the delver
    p.rounds = 3  # burnt out
    render.draw_map(console, View(game))
    assert "^" not in str(console)


def test_the_door_list_names_the_monsters_met_beyond_and_why_a_door_is_closed() -> None:
    # The warden play test: a door marked "blocked" though no door is blocked in warden (it led back into the room
    # of the monster the delver was facing), and a door picked blind into a room whose Gaoler was known.
    game = in_a_new_room("warden", 2)
    ways = {w.segment: w for w in game.exits()}  # one door into each room or corridor beyond
    assert len(ways) >= 2, "this room needs doors into two places"
    first, second = list(ways.values())[:2]
    gaoler = game.add_group("gaoler", 1, pos=first.landing)
    gaoler.segment, gaoler.met = first.segment, True  # met in the room beyond the first door
    game.add_group("orc", 1, pos=first.landing).segment = first.segment  # there too, but never seen: not named
    knot = game.add_group("ossuary_knot", 1, pos=second.landing)
    knot.segment = second.segment  # the one faced followed the party in: its room is behind the second door
    game.start_encounter(knot, meeting=False)
    driver = Driver(SceneStack(game_stack(Session(content(), game))))
    now = {w.door: w.blocked for w in game.exits()}
    assert now[second.door] and not now[first.door]
    press(driver, KeySym.R)
    text = " ".join(" ".join(screen(driver).split()).split("│"))
    text = " ".join(text.split())
    assert "the Gaoler beyond" in text
    assert "closed: it leads back to the Ossuary Knot" in text
    assert "Orc" not in text and "blocked" not in text


def test_a_kneeler_s_reaction_does_not_say_it_may_attack() -> None:
    """The Iron Abbot, left alone after a drink, "kneels again" while the panel said "hostile, may attack"
    (play test, turn 668): a kneeler attacks nothing until the party steps further into its room."""
    game = in_a_new_room()
    g, driver, session = meet_at(game, "iron_abbot", 1, (1, 1), reaction=(1, 2))  # 3: hostile
    assert g.reaction_result == "hostile" and not g.risen
    text = " ".join(panel_text(screen(driver), session).split())
    assert "Reaction: 3, hostile; kneeling until you step further in" in text and "may attack" not in text
    g.risen = True  # standing, it may
    assert "Reaction: 3, hostile, may attack" in " ".join(panel_text(screen(driver), session).split())


def test_the_door_chosen_first_heads_the_list() -> None:
    """Play test: the door chosen first ("the way you came") sat in the middle of a clockwise list, and one Up took
    the delver through the wrong door. The way in now heads the list; the others follow clockwise from north."""
    heads = 0
    for seed in range(1, 7):
        game = in_a_new_room("warden", seed)
        _, driver, _ = face(game, "gaoler")
        ways = game.exits()
        if len([w for w in ways if not w.blocked]) < 2:
            continue
        press(driver, KeySym.R)
        scene = driver.top
        assert isinstance(scene, DoorScene)
        order = scene.open_doors()
        assert ways[order[0]].came_in and scene.cursor == 0, seed
        pos = game.state.pos
        bearing = [bearing_of(pos, ways[i].door) for i in order[1:]]
        assert bearing == sorted(bearing), seed  # the others clockwise from north
        heads += not ways[min(order, key=lambda i: bearing_of(pos, ways[i].door))].came_in
    assert heads, "no room here where the way in was not first clockwise"


def bearing_of(pos: tuple[int, int], door: tuple[int, int]) -> float:
    """Clockwise from north, in radians, as seen from ``pos``."""
    return math.atan2(door[0] - pos[0], pos[1] - door[1]) % (2 * math.pi)


def test_the_one_door_run_says_what_waits_beyond_it_as_the_door_list_does() -> None:
    """With one door open ``r`` runs at once, with no list to read: the run choice names the monsters met beyond it
    (the warden play test ran through its one door into a Gaoler's room it knew of)."""
    game = make_game("undercroft", 2, dice=ScriptedDice())  # the start room has one door
    (way,) = game.exits()
    goblins = game.add_group("goblin", 2, pos=way.landing)
    goblins.segment, goblins.met = way.segment, True  # met beyond the door before
    g = game.add_group("orc", 1, pos=beside(game))
    game.start_encounter(g, meeting=False)
    session = Session(content(), game)
    driver = Driver(SceneStack(game_stack(session)))
    text = " ".join(panel_text(screen(driver), session).split())
    assert "[r] Run" in text and "2 Goblins beyond" in text
    script(game).push(*[3] * 20)
    press(driver, KeySym.F)
    assert game.state.mode == Mode.COMBAT
    text = " ".join(panel_text(screen(driver), session).split())
    assert re.search(r"\[r\] Run through the door \(\d+%\): 2 Goblins beyond", text)
    goblins.met = False  # nothing known there: nothing said
    assert "beyond" not in panel_text(screen(driver), session)


def test_what_the_engine_refuses_is_never_offered_and_the_panel_says_why() -> None:
    """The play test: "walking keys: walk on, or away" listed while the Ghoul facing the delver refused the walk;
    in a fight, "Throw oil at it" with no oil and "Run through the door" with every door blocked, with no chance and
    no reason (greyed only, which a terminal without colour does not show)."""
    game = make_game("undercroft", 2, dice=ScriptedDice())  # the start room has one door
    st = game.state
    (door,) = st.level.map.segments[st.segment].doors
    st.items.pop("oil_flask", None)
    g = game.add_group("orc", 1, pos=door)  # in the doorway
    game.start_encounter(g, meeting=False)
    session = Session(content(), game)
    driver = Driver(SceneStack(game_stack(session)))
    assert not any(game.legal(Move(dx, dy)) for dx, dy in approach.STEPS8)
    text = " ".join(panel_text(screen(driver), session).split())
    assert "walk on, or away" not in text and "no walking: the Orc faces you" in text
    script(game).push(*[3] * 20)
    press(driver, KeySym.F)
    assert game.state.mode == Mode.COMBAT
    text = " ".join(panel_text(screen(driver), session).split())
    assert "[o] Throw oil at it (none)" in text
    assert "[r] Run: the Orc stands between you and every way out" in text
