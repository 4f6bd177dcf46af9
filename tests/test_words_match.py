"""Words that match the map and the clock: directions never rounded, durations from now, refusals in plain words,
and choices that cannot help greyed with why (or left off)."""

from __future__ import annotations

from engine_helpers import content, make_game
from test_running import chase
from test_ui_encounter_map import colour_of
from ui_helpers import Driver, screen

from undercroft.narrate import Narrator
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.events import Event
from undercroft.rules.types import Mode
from undercroft.ui import render
from undercroft.ui.scenes import SceneStack, game_stack
from undercroft.ui.scenes.game import GameScene
from undercroft.ui.session import Session


def test_a_potion_says_how_long_from_now_not_until_which_round() -> None:
    said = Narrator(content(), "undercroft").text(
        Event("quaff", {"member": 0, "item": "heroism_potion", "effect": "heroism", "bonus": 2, "until": 2120})
    )
    rounds = content().items["heroism_potion"].rounds
    assert said == f"You drink the Potion of Heroism: +2 to hit for {rounds} rounds (a step is 1 round, a rest 60)."
    assert "2120" not in said


def test_a_refusal_names_the_moment_in_words_and_the_use_list_says_it_short() -> None:
    said = Narrator(content(), "undercroft").text(
        Event("refused", {"reason": "not_now", "action": "oil", "mode": "encounter"})
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
