"""Words that match the map and the clock: directions never rounded, durations from now, refusals in plain words,
and choices that cannot help greyed with why (or left off)."""

from __future__ import annotations

import itertools

import tcod.console
from engine_helpers import content, make_game
from event_helpers import sample
from tcod.event import KeySym
from test_running import chase
from test_ui_encounter_map import colour_of
from ui_helpers import Driver, press, screen

from undercroft.narrate import Narrator, time_left
from undercroft.rules import items
from undercroft.rules.actions import Move, Use
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.types import Mode
from undercroft.ui import render
from undercroft.ui.scenes import SceneStack, game_stack
from undercroft.ui.scenes.game import GameScene
from undercroft.ui.session import Session


def test_a_potion_says_how_long_from_now_not_until_which_round() -> None:
    said = Narrator(content(), "undercroft").text(
        sample({"type": "quaff", "member": 0, "item": "heroism_potion", "effect": "heroism", "bonus": 2, "until": 2120})
    )
    assert content().items["heroism_potion"].rounds == 30  # (a rest, 60 rounds, outlasts it)
    assert said == "You drink the Potion of Heroism: +2 to hit for 30 more moves, a rest ends it."
    assert "2120" not in said


def test_every_duration_on_the_screens_counts_moves_from_now() -> None:
    """A Potion of Heroism (30 rounds of the clock) drunk, then 12 steps: the drink's line, the status bar (wide
    and short), the inventory and the use list count the same moves left, from one clock; a rest (60) ends it."""
    game = make_game("undercroft", dice=ScriptedDice())
    game.state.items["heroism_potion"] = 2
    session = Session(content(), game)
    stack = SceneStack(game_stack(session))
    press(stack, KeySym.I, KeySym.U)  # the use list (from the inventory), before the drink: not "more" moves yet
    assert "Potion of Heroism x2 (lasts 30 moves, a rest ends it)" in " ".join(screen(stack).split())
    session.act(Use(items.item_number(content(), "heroism_potion"), 0))
    assert "for 30 more moves, a rest ends it." in session.log.lines[-1][0]
    ways = itertools.cycle(Move(dx, dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))
    while game.state.turn < 13:  # the drink and twelve steps (a wall in the way takes no time)
        session.act(next(ways))
        assert game.state.mode == Mode.EXPLORE
    status = next(line for line in screen(SceneStack(game_stack(session))).splitlines() if "Turn " in line)
    assert "Turn 13" in status and "Heroism 18 moves" in status  # the 30 told after the drink, less 12 steps
    narrow = tcod.console.Console(40, 1, order="F")
    render.draw_status(narrow, game, y=0)
    assert "T13  Her18" in str(narrow)
    stack = SceneStack(game_stack(session))
    press(stack, KeySym.I)
    assert "Potion of Heroism: heroism +2 for 18 more moves, a rest ends it" in " ".join(screen(stack).split())
    assert time_left(90, game.content.rules.time) == "90 more moves, a rest uses 60"


def test_a_refusal_names_the_moment_in_words_and_the_use_list_says_it_short() -> None:
    said = Narrator(content(), "undercroft").text(
        sample({"type": "refused", "reason": "not_now", "action": "oil", "mode": "encounter"})
    )
    assert said == "You cannot throw oil in an encounter."
    game = make_game("undercroft", dice=ScriptedDice())
    game.state.items["delvers_chart"] = 1
    game.state.mode = Mode.COMBAT  # (only the use list's label is read)
    label = GameScene(Session(content(), game)).item_label("delvers_chart")
    assert label == "Delver's Chart x1 (not in a fight)"  # never "(you cannot now (combat))"


def test_in_a_chase_a_drop_with_nothing_to_drop_says_none_and_is_greyed() -> None:
    game, _ = chase("gaoler")
    for item in [i for i in game.state.items if game.content.items[i].kind in ("oil", "food")]:
        del game.state.items[item]
    driver = Driver(SceneStack(game_stack(Session(content(), game))))
    assert colour_of(driver, "[o] Throw burning oil (none)") == render.FAINT
    assert colour_of(driver, "[d] Drop food (none)") == render.FAINT


def test_in_a_chase_the_treasure_choice_says_what_goes() -> None:
    game, _ = chase("gaoler")
    session = Session(content(), game)
    assert "[g] Drop gold (" in screen(SceneStack(game_stack(session)))
    game.state.items["garnet"] = 1
    assert "[g] Drop a gem (" in screen(SceneStack(game_stack(session)))  # (the Garnet, the least worth, goes)
