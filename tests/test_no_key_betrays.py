"""No key does what the player did not mean: Esc pauses, a prefilled number is replaced, each thing keeps its
letter, ``f`` asks which group and asks before breaking a peace, and a key held across a new screen does
nothing there."""

from __future__ import annotations

from engine_helpers import content, encounter_faces, make_game, meet, one, script
from tcod.event import KeySym, TextInput
from ui_helpers import Driver, names, press, screen

from undercroft.rules import events as evt
from undercroft.rules import items
from undercroft.rules.actions import Fight, Talk, action_from_text, action_to_text
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.game import Game
from undercroft.rules.types import Mode
from undercroft.ui import keymap
from undercroft.ui.keys import key
from undercroft.ui.scenes import ExploreScene, SceneStack, game_stack
from undercroft.ui.scenes.prompt import PromptScene
from undercroft.ui.session import Session


def at_peace(extra: bool = True) -> tuple[Game, Session]:
    """A goblin that has agreed to let the party be (60 ft away), and, with ``extra``, two orcs beside the
    party in the same room, met and left alone."""
    game = make_game("undercroft", dice=ScriptedDice())
    meet(game, "goblin", faces=encounter_faces(), treasure=40)
    script(game).push(6, 6)  # 12 - reluctance 2 = 10: agreement
    assert one(game.step(Talk()), evt.Negotiate).result == "agreement"
    if extra:
        orcs = game.add_group("orc", 2, pos=game.state.pos)
        orcs.met = True
    return game, Session(content(), game)


def test_esc_pauses_and_esc_again_carries_on() -> None:
    _, session = at_peace(extra=False)
    stack = SceneStack(game_stack(session))
    press(stack, KeySym.ESCAPE)
    assert names(stack) == ["ExploreScene", "ChoiceScene"] and "Paused" in screen(stack)
    assert "[t] Back to the title" in screen(stack)
    press(stack, KeySym.ESCAPE)  # a second Esc: back in the game, nothing left
    assert names(stack) == ["ExploreScene"] and stack.exit_code is None


def test_a_prefilled_number_is_replaced_by_the_first_digit_typed() -> None:
    got: list[str] = []

    def done(text: str) -> None:
        got.append(text)

    prompt = PromptScene("Bribe", "How much?", done, digits_only=True, initial="400")
    stack = SceneStack([prompt])
    stack.feed(TextInput(text="$"))  # the key that opened it replaces nothing
    assert prompt.text == "400"
    stack.feed(TextInput(text="1"), TextInput(text="0"), TextInput(text="0"))
    assert prompt.text == "100"  # never "400100"
    press(stack, KeySym.RETURN)
    assert got == ["100"]
    edited = PromptScene("Bribe", "How much?", lambda t: None, digits_only=True, initial="400")
    SceneStack([edited]).feed(key(KeySym.BACKSPACE), TextInput(text="5"))
    assert edited.text == "405"  # Backspace edits the suggestion instead


def test_each_thing_keeps_its_letter_whatever_else_is_carried() -> None:
    every = items.catalogue(content())
    letters = [keymap.item_letter(every, i) for i in every]
    assert len(set(letters)) == len(letters) and not set(letters) & set(keymap.WALK)
    game = make_game("undercroft", dice=ScriptedDice())
    session = Session(content(), game)
    stack = SceneStack(game_stack(session))
    potion = keymap.item_letter(every, "healing_potion")

    def use_list() -> str:
        press(stack, KeySym.I, KeySym.U)
        text = screen(stack)
        press(stack, KeySym.ESCAPE)
        return text

    game.state.items.update({"healing_potion": 2, "great_axe": 1})
    first = use_list()
    game.state.items.update({"clarity_potion": 1, "dagger": 1})  # things sorted before it come into the pack
    del game.state.items["great_axe"]
    second = use_list()
    assert f"[{potion}] Healing Potion x2" in first and f"[{potion}] Healing Potion x2" in second
    assert "Great Axe" in first and "Great Axe" not in second and "Dagger" in second


def test_f_with_two_groups_asks_which_and_a_peace_is_broken_only_when_confirmed() -> None:
    game, session = at_peace()
    goblin, orcs = game.state.level.groups[-2], game.state.level.groups[-1]
    assert goblin.peaceful and {g.id for g in game.here()} == {goblin.id, orcs.id}
    stack = SceneStack(game_stack(session))
    press(stack, KeySym.F)
    text = screen(stack)
    assert "Attack which?" in text and "2 Orcs, 0 ft" in text and "A Goblin, 60 ft (at peace)" in text
    press(stack, KeySym.DOWN, KeySym.RETURN)  # the goblin: asked first
    assert "Break the peace?" in screen(stack) and game.state.mode == Mode.EXPLORE
    press(stack, KeySym.RETURN)  # Enter (or a key held) leaves the peace be: only "a" attacks
    assert names(stack) == ["ExploreScene"] and goblin.peaceful and game.state.mode == Mode.EXPLORE
    press(stack, KeySym.F, KeySym.DOWN, KeySym.RETURN, KeySym.A)
    assert not goblin.peaceful and game.state.mode == Mode.COMBAT  # the one chosen, not the nearest
    assert game.state.combat is not None and game.state.combat.group == goblin.id


def test_fight_names_its_group_in_a_recording_only_when_one_is_chosen() -> None:
    assert action_to_text(Fight()) == "fight" and action_from_text("fight") == Fight()
    assert action_to_text(Fight(7)) == "fight 7" and action_from_text("fight 7") == Fight(7)
    game, _ = at_peace(extra=False)
    before = game.checksum()
    assert one(game.step(Fight(999)), evt.Refused).why.code == "nothing_to_fight"
    assert game.checksum() == before


def test_a_key_held_across_a_fights_start_does_nothing_there() -> None:
    """``f`` then ``a`` read together (the ``a`` pressed before the fight showed), and ``a`` held (repeats):
    swallowed; a fresh press acts."""
    game, session = at_peace(extra=False)
    d = Driver(SceneStack(game_stack(session)))
    script(game).push(*[3] * 40)
    d.send(key(KeySym.F))
    assert "Break the peace?" in d.screen()
    d.send(key(KeySym.A), key(KeySym.A))  # "attack": the fight begins; the second a was read with it
    assert game.state.mode == Mode.COMBAT
    turn = game.state.rounds
    held = key(KeySym.A)
    held.repeat = True
    d.send(held)
    d.send(held)
    assert game.state.rounds == turn  # the held key struck nothing
    d.send(key(KeySym.A))
    assert game.state.rounds != turn or game.state.mode != Mode.COMBAT  # a fresh press does
    assert isinstance(d.scenes[0], ExploreScene)


def test_a_sum_typed_for_a_bribe_while_exploring_never_walks() -> None:
    game, session = at_peace(extra=False)  # (talk made terms: the meeting is over)
    stack = SceneStack(game_stack(session))
    pos, turn = game.state.pos, game.state.turn
    press(stack, KeySym.DOLLAR)
    assert "A bribe is offered in a meeting" in screen(stack)
    press(stack, KeySym.N3, KeySym.N0)  # the sum meant for a bribe: held by the notice
    assert game.state.pos == pos and game.state.turn == turn
    press(stack, KeySym.RETURN)
    assert names(stack) == ["ExploreScene"] and game.state.pos == pos
