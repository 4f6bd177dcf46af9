"""One distance: the encounter panel, the look line and a walk's stop line print what the map shows."""

from __future__ import annotations

import pytest
import tcod.console
from engine_helpers import content
from tcod.event import KeySym
from ui_helpers import press, walk_out

from undercroft import travel
from undercroft.bot import Bot
from undercroft.rules.actions import Action
from undercroft.rules.game import Game
from undercroft.rules.state import Group
from undercroft.rules.types import Mode
from undercroft.rules.view import View
from undercroft.ui.scenes import EncounterScene, ExploreScene, SceneStack
from undercroft.ui.scenes.look import describe
from undercroft.ui.session import Session


def map_feet(game: Game) -> tuple[int, int]:
    """The group met, from the map: (the engine's walking feet to it, the feet as the crow flies to the nearest
    of its creatures the map draws)."""
    st = game.state
    assert st.encounter is not None
    g = st.group(st.encounter.group)
    drawn = [p for p, (shown, idx) in View(game).creatures().items() if shown is g]
    px, py = st.pos
    near = min(max(abs(x - px), abs(y - py)) for x, y in drawn)
    return st.encounter.distance, near * game.content.rules.encounter.feet_per_tile


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["undercroft", "citadel", "warden"])
def test_every_meeting_of_a_game_prints_the_maps_distance(ruleset: str) -> None:
    checked = 0
    differ = 0

    def watch(game: Game, _action: Action | None) -> None:
        nonlocal checked, differ
        if game.state.mode != Mode.ENCOUNTER or game.state.encounter is None:
            return
        walk, straight = map_feet(game)
        told = f"{walk} ft" if straight >= walk else f"{walk} ft ({straight} ft straight)"
        session = Session(content(), game)
        if game.proc.distance:  # (a ruleset without 003's distance has no such line)
            console = tcod.console.Console(120, 40, order="F")
            EncounterScene(session).on_draw(console)
            panel = " ".join(str(console).split())
            assert f"Distance: {told}" in panel, (game.state.turn, told)
        g = game.state.front_group()
        assert g is not None
        assert f"{told} away." in describe(session, g.pos)  # the look cursor on it
        checked += 1
        differ += straight < walk

    for seed in (1, 2):  # the careful bot's games, watched before each of its decisions
        game = Game(content(), ruleset, seed)
        bot, refused = Bot(game, seed), 0
        while not game.over and game.state.turn < 1500 and refused < 20:
            watch(game, None)
            turn, action = game.state.turn, bot.choose()
            game.step(action)
            refused = refused + 1 if game.state.turn == turn else 0
            if refused:
                bot.refused(action)
    assert checked > 10
    print(f"{ruleset}: {checked} decisions in meetings, {differ} with a wall between (both told)")


def map_told(game: Game, g: Group) -> str:
    """How far ``g`` is by the map: the engine's walking feet, and the feet as the crow flies to the nearest of its
    creatures the map draws where that is nearer."""
    drawn = [p for p, (shown, _idx) in View(game).creatures().items() if shown is g]
    px, py = game.state.pos
    straight = min(max(abs(x - px), abs(y - py)) for x, y in drawn) * game.content.rules.encounter.feet_per_tile
    walk = game.distance_to(g)
    return f"{walk} ft" if straight >= walk else f"{walk} ft ({straight} ft straight)"


@pytest.mark.slow
def test_the_stop_line_of_a_walk_prints_the_maps_distance() -> None:
    """Auto-explore driven through the explore scene's own keys and ticks, game after game (the careful bot
    settling each meeting), until a group coming into sight stops it: the stop line, the look line on that group
    and the map say one distance."""
    checked = 0
    for ruleset, seed in [("undercroft", s) for s in range(1, 10)] + [("warden", 1)]:
        game = Game(content(), ruleset, seed)
        bot = Bot(game, seed)
        session = Session.watch(content(), game)
        stack = SceneStack([ExploreScene(session)])
        for _ in range(40):  # walks
            if game.state.mode != Mode.EXPLORE:
                stack = SceneStack([ExploreScene(session)])  # (the meeting's screens left to the bot)
            for _ in range(300):  # a meeting, a fight: the bot settles it
                if game.over or game.state.mode == Mode.EXPLORE:
                    break
                turn, action = game.state.turn, bot.choose()
                session.act(action)
                if game.state.turn == turn:
                    bot.refused(action)
            if game.over or game.state.mode != Mode.EXPLORE:
                break
            before = travel.visible_groups(game)
            press(stack, KeySym.X)
            scene = stack.scenes[0]
            assert isinstance(scene, ExploreScene)
            walk_out(stack, scene, 400)
            said = session.log.lines[-1][0]
            new = travel.visible_groups(game) - before
            come = [g for g in game.state.level.groups if g.id in new and not g.peaceful]
            if not said.startswith("You stop: ") or " in sight, " not in said or not come:
                continue
            g = min(come, key=game.distance_to)
            told = map_told(game, g)
            assert said.endswith(f" in sight, {told} away."), (ruleset, seed, said, told)
            # the look cursor on it: on the nearest of its creatures the map draws (the group's own tile may be
            # out of sight while another of its creatures is in it)
            drawn = [p for p, (shown, _idx) in View(game).creatures().items() if shown is g]
            px, py = game.state.pos
            nearest = min(drawn, key=lambda q: (max(abs(q[0] - px), abs(q[1] - py)), q))
            assert f"{told} away." in describe(session, nearest), (ruleset, seed, g.pos, nearest)
            checked += 1
    assert checked >= 10
