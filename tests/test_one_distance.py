"""One distance: the encounter panel, the look line and a walk's stop line print what the map shows."""

from __future__ import annotations

import pytest
import tcod.console
from engine_helpers import content

from undercroft.bot import Bot
from undercroft.rules.actions import Action
from undercroft.rules.game import Game
from undercroft.rules.types import Mode
from undercroft.rules.view import View
from undercroft.ui.scenes import EncounterScene
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
