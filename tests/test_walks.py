"""The walks of many steps and rests of many turns, as a player meets them: a walk that stops getting
closer stops and says why; ``Z`` rests until healed and stops when anything happens; the look cursor's Enter
walks to a known place and Tab reaches the known items and the stairs; ``X`` shows the whole level on one
screen at any size."""

from __future__ import annotations

import pytest
import tcod.console
from engine_helpers import content, script
from tcod.event import KeySym, Modifier
from test_ui_encounter_map import in_a_new_room, meet_at
from ui_helpers import Driver, TestDice, press, walk_out

from undercroft import travel
from undercroft.rules import dungeon
from undercroft.rules.actions import Move
from undercroft.rules.game import Game
from undercroft.rules.types import Mode, Origin
from undercroft.ui import render
from undercroft.ui.scenes import ExploreScene, SceneStack, game_stack
from undercroft.ui.scenes.look import LookScene, targets
from undercroft.ui.scenes.overview import OverviewScene
from undercroft.ui.session import Session

SEED = 11


def calm(seed: int = SEED, dice: TestDice | None = None) -> Session:
    """A game whose monster checks find nothing unless the dice are scripted (TestDice)."""
    return Session.watch(content(), Game(content(), "undercroft", seed, dice=dice or TestDice()))


def messages(session: Session) -> list[str]:
    return [text for text, _ in session.log.lines]


def test_a_walk_that_comes_back_on_itself_stops_and_names_what_is_in_the_way(monkeypatch: pytest.MonkeyPatch) -> None:
    session = calm()
    game = session.game
    x, y = game.state.pos
    dirs = [(dx, dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)) if game.legal(Move(dx, dy))]
    there = dirs[0]
    aside = next(d for d in dirs if d[0] * there[0] + d[1] * there[1] == 0)  # beside both tiles of the walk
    g = game.add_group("bandit", 2, pos=(x + aside[0], y + aside[1]), origin=Origin.WANDERING)
    g.peaceful = True  # in sight, beside the party, letting it pass

    def back_and_forth(*_a: object, **_k: object) -> Move:  # from either tile of the pair, to the other
        return Move(*there) if game.state.pos == (x, y) else Move(-there[0], -there[1])

    # the way keeps shifting (a monster steps aside, then back into it): the planner's steps go back and forth
    monkeypatch.setattr(travel, "step_toward", back_and_forth)
    reach = travel.flood(travel.known_walk(game), game.state.pos)
    far = max(zip(*reach.nonzero(), strict=True), key=lambda rc: int(reach[rc]))
    scene = ExploreScene(session)
    stack = SceneStack([scene])
    scene.start((int(far[1]), int(far[0])))
    walk_out(stack, scene)
    assert scene.trip is None and game.state.turn <= 3  # two steps that bring it no nearer, and it stops
    assert messages(session)[-1] == "You stop: the way is blocked by the Bandits."
    turn = game.state.turn
    scene.start((int(far[1]), int(far[0])))  # travel again: the way tried afresh, never a stop without a step
    walk_out(stack, scene)
    assert scene.trip is None and game.state.turn == turn + 2
    assert messages(session)[-1] == "You stop: the way is blocked by the Bandits. (x2)"


def test_auto_explore_stopped_short_aims_elsewhere_and_never_stops_without_a_step(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The play-tests' "You stop: the way there keeps turning you back. (x80)": x pressed again and again after a
    walk stopped short, each time the same line and no step. Now x again aims at another place."""
    session = calm()
    game = session.game
    x, y = game.state.pos
    there = next(d for d in ((1, 0), (-1, 0), (0, 1), (0, -1)) if game.legal(Move(*d)))
    first = travel.explore_target(game)
    assert first is not None

    def back_and_forth(_game: Game, goal: tuple[int, int], _caution: int = 0, _least: int = travel.BOLD) -> Move:
        if goal != first:  # another place: walked to as ever
            step = real(_game, goal, _caution, _least)
            assert step is not None
            return step
        return Move(*there) if game.state.pos == (x, y) else Move(-there[0], -there[1])

    real = travel.step_toward
    monkeypatch.setattr(travel, "step_toward", back_and_forth)
    scene = ExploreScene(session)
    stack = SceneStack([scene])
    press(stack, KeySym.X)
    walk_out(stack, scene)
    assert game.state.turn == 2 and messages(session)[-1] == "You stop: the way there keeps turning you back."
    for _ in range(5):  # x again: somewhere else, a step at least each time
        turn = game.state.turn
        press(stack, KeySym.X)
        walk_out(stack, scene)
        assert game.state.turn > turn
    assert "(x" not in " ".join(messages(session))


def test_rest_until_healed_rests_turn_by_turn_to_full_hit_points() -> None:
    session = calm()
    game = session.game
    me = game.state.party[0]
    me.hp = me.max_hp - 5
    scene = ExploreScene(session)
    stack = SceneStack([scene])
    press(stack, KeySym.Z, mod=Modifier.SHIFT)
    press(stack, KeySym.R)  # the wanderer's chance told: rest
    walk_out(stack, scene)
    assert me.hp == me.max_hp
    assert game.state.turn == 5  # one Rest a turn (rest_heal 1), and not one more
    assert messages(session)[-1] == "You are rested."
    press(stack, KeySym.Z, mod=Modifier.SHIFT)
    assert scene.trip is None and game.state.turn == 5
    assert messages(session)[-1] == "You are rested already: nothing to heal."


def test_rest_until_healed_stops_when_a_wanderer_comes() -> None:
    dice = TestDice()
    session = calm(dice=dice)
    game = session.game
    me = game.state.party[0]
    me.hp = 2
    scene = ExploreScene(session)
    stack = SceneStack([scene])
    dice.push(6, 6, 1)  # the third rest's wandering-monster check finds one
    press(stack, KeySym.Z, mod=Modifier.SHIFT)
    press(stack, KeySym.R)
    walk_out(stack, scene)
    assert scene.trip is None
    assert game.state.turn == 3 and me.hp < me.max_hp  # stopped at the rest that brought it, not one rest later


def test_the_look_cursor_walks_to_a_known_place_and_tab_reaches_the_stairs() -> None:
    session = calm()
    game = session.game
    lv = game.state.level
    lv.explored[:] = True  # every tile known: the stairs among them
    scene = ExploreScene(session)
    stack = SceneStack([scene])
    press(stack, KeySym.SEMICOLON)
    look = stack.top
    assert isinstance(look, LookScene)
    stairs = travel.stairs(game)
    assert stairs is not None and targets(session)[-1] == stairs
    while look.cursor != stairs:
        press(stack, KeySym.TAB)
    press(stack, KeySym.RETURN)
    assert stack.top is scene and game.state.turn == 1  # the first step at once, the rest a tick each
    walk_out(stack, scene)
    assert game.state.pos == stairs or session.mode != Mode.EXPLORE


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (80, 50)])
def test_the_overview_shows_the_whole_level_at_any_size(size: tuple[int, int]) -> None:
    session = calm()
    game = session.game
    game.state.level.explored[:] = True
    console = tcod.console.Console(*size, order="F")
    OverviewScene(session).on_draw(console)
    text = str(console)
    assert text.count("@") == 2  # the party (and the legend's "@ you")
    assert ">" in text.replace("> stairs", "")  # the stairs, wherever they are
    assert "Level 1: The Drowned Cellars" in text
    if size[1] < game.state.level.map.height + 2:
        assert "one cell: 1x2 tiles" in text


def test_auto_explore_stopped_by_a_group_out_of_sight_says_something_unseen_moves() -> None:
    """The play-tests' silent stops: a group come upon out of sight walks toward the party; each of its steps
    stopped auto-explore and the log said nothing. Now the stop says so, naming nothing of it."""
    game = in_a_new_room()
    g, driver, session = meet_at(game, "drowned_dead", 2, (6, 6), origin=Origin.WANDERING)  # 120 ft, out of sight, slow
    assert g.unseen and game.state.mode == Mode.EXPLORE
    scene = driver.top
    assert isinstance(scene, ExploreScene)
    press(driver.stack, KeySym.X)
    walk_out(driver.stack, scene)
    said = messages(session)
    assert said[-1] == "You stop: something unseen moves nearby." and "Drowned" not in " ".join(said), said
    # Told once: x again walks on while the same group moves out of sight (not a stop at every one of its steps),
    # until something else stops it (the group comes into sight, or it meets the party).
    turn = game.state.turn
    script(game).push(*[6] * 60)  # the monster checks of the floors walked into find nothing
    press(driver.stack, KeySym.X)
    walk_out(driver.stack, scene)
    said = messages(session)
    assert game.state.turn > turn + 1 and not said[-1].startswith("You stop: something unseen"), said


def test_a_walk_drawn_back_by_turns_played_elsewhere_goes_on_afresh() -> None:
    """Found in play: a fight (played in the encounter's own scene) drew the delver toward the monster, away from
    the stairs; the next walk to them stopped after two steps, each nearer, with "You stop: the way there keeps
    turning you back.", the walk's best so far kept from before the fight."""
    session = calm()
    game = session.game
    scene = ExploreScene(session)
    stack = SceneStack([scene])
    reach = travel.flood(travel.known_walk(game), game.state.pos)
    far = max(zip(*reach.nonzero(), strict=True), key=lambda rc: int(reach[rc]))
    goal = (int(far[1]), int(far[0]))
    assert int(reach[far]) >= 5
    scene.start(goal)
    trail = [game.state.pos]
    for _ in range(3):
        stack.tick()
        trail.append(game.state.pos)
    scene.trip = None  # (a key stops the walk)
    for a, b in zip(trail[::-1], trail[-2::-1], strict=False):  # turns played elsewhere, back the way it came
        session.act(Move(b[0] - a[0], b[1] - a[1]))
    assert game.state.pos == trail[0]
    scene.start(goal)
    walk_out(stack, scene)
    assert game.state.pos == goal, messages(session)[-3:]
    assert not any("keeps turning you back" in m for m in messages(session))


def test_a_walk_goes_on_past_a_group_already_at_peace() -> None:
    """Found in play: a Wight that "lets you be" stopped every walk and auto-explore at each room or corridor it
    stood in ("The Wight lets you be."), so the level could not be crossed without a key a step. The reminder is
    logged and the walk goes on."""
    session = calm()
    game = session.game
    st, m = game.state, game.state.level.map
    scene = ExploreScene(session)
    stack = SceneStack([scene])
    reach = travel.flood(travel.known_walk(game), st.pos)
    far = max(zip(*reach.nonzero(), strict=True), key=lambda rc: int(reach[rc]))
    goal = (int(far[1]), int(far[0]))
    way = travel.path(game, goal)
    on_way = [int(m.segment_of[y, x]) for x, y in way]
    seg = next(s for s in on_way if s not in (-1, st.segment))  # a room or corridor the walk crosses
    spot = next(
        (x, y)
        for y in range(m.height)
        for x in range(m.width)
        if int(m.segment_of[y, x]) == seg and (x, y) not in way and m.tiles[y, x] == dungeon.FLOOR
    )
    g = game.add_group("wight", pos=spot)
    g.segment, g.met, g.peaceful = seg, True, True
    scene.start(goal)
    walk_out(stack, scene)
    said = messages(session)
    assert game.state.pos == goal, said[-3:]
    assert "The Wight lets you be." in said


def test_f_with_a_monster_in_sight_beyond_this_room_says_where_it_is() -> None:
    """The play-test's "There is nothing here to fight." with the Leech-Mother in sight 30 ft away: a fight is
    with what shares the party's room or corridor (the engine refuses it), and now the log says where the one in
    sight is and how to meet it."""
    session = calm()
    game = session.game
    st, m = game.state, game.state.level.map
    px, py = st.pos
    spots = [
        (x, y)
        for y in range(max(0, py - 8), min(m.height, py + 9))
        for x in range(max(0, px - 8), min(m.width, px + 9))
        if m.tiles[y, x] != dungeon.WALL and int(m.segment_of[y, x]) != st.segment
    ]
    for x, y in spots:  # the first tile of another segment the party sees
        g = game.add_group("ghoul", 1, pos=(x, y))
        g.segment = int(m.segment_of[y, x])
        if g.id in travel.visible_groups(game):
            break
        st.level.remove_group(g)
    else:
        pytest.fail("no tile of another segment in sight")
    driver = Driver(SceneStack(game_stack(session)))
    press(driver.stack, KeySym.F)
    assert game.state.mode == Mode.EXPLORE
    assert messages(session)[-2:] == [
        "There is nothing here to fight.",
        f"The Ghoul is {render.distance_text(game, g)} away, beyond this room or corridor: walk up to meet it.",
    ]
