"""legal() and refusal(): what the screens grey out is exactly what the engine would refuse, and why."""

from __future__ import annotations

from engine_helpers import encounter_faces, make_game, meet, say, script

from undercroft.rules.actions import Bribe, Descend, Drink, DropFood, DropTreasure, Fight, Run, Talk, ThrowOil, Wait
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.types import Mode


def test_legal_follows_the_state_not_only_the_mode() -> None:
    game = make_game("undercroft", dice=ScriptedDice(), gold=0)
    st = game.state
    st.items.clear()
    for action, why in [
        (Drink(), "You have no potion."),
        (Descend(), "There are no stairs down here."),
        (Fight(), "There is nothing here to fight."),
    ]:
        assert not game.legal(action) and game.refusal(action) == why
        before = game.checksum()
        (e,) = game.step(action)
        assert e.type == "refused" and say(game, e) == why and game.checksum() == before
    meet(game, "demon", faces=encounter_faces())
    for action, why in [
        (Talk(), "The Demon cannot be negotiated with."),
        (Bribe(10), "The Demon cannot be bribed."),
        (DropFood(), "You have no food to drop."),
        (DropTreasure(), "You have no treasure to drop."),
    ]:
        assert not game.legal(action) and game.refusal(action) == why
    assert game.legal(Run()) and game.legal(Wait()) and game.legal(Fight())
    assert game.refusal(ThrowOil()) == "You cannot oil now (encounter)."


def test_a_bribe_is_legal_only_after_a_failed_talk_and_only_once() -> None:
    game = make_game("undercroft", dice=ScriptedDice(), gold=100)
    g, _ = meet(game, "goblin", faces=encounter_faces())
    assert game.refusal(Bribe(0)) == "Try talking first: a bribe comes only after a failed negotiation."
    script(game).push(1, 1)  # 2 - 2: failure
    game.step(Talk())
    assert game.legal(Bribe(0)) and not game.legal(Talk())
    script(game).push(6, 2)  # refused: the goblin attacks first (and misses)
    game.step(Bribe(10))
    assert g.bribe_tried and game.state.mode == "combat"
    game.state.mode, game.state.combat = Mode.ENCOUNTER, None  # as if back in the encounter
    assert game.refusal(Bribe(0)) == "The Goblin has already been offered a bribe."


def test_exhausted_the_party_cannot_run() -> None:
    game = make_game("undercroft", dice=ScriptedDice())
    meet(game, "goblin", faces=encounter_faces())
    game.state.exhausted = True
    assert game.refusal(Run()) == "You are too exhausted to run: rest first, or fight."
