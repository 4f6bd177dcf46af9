"""legal() and refusal(): what the screens grey out is exactly what the engine would refuse, and why."""

from __future__ import annotations

import pytest
from engine_helpers import encounter_faces, make_game, meet, say, script, why

from undercroft.rules.actions import Bribe, Descend, Drink, DropFood, DropTreasure, Fight, Run, Talk, ThrowOil, Wait
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.refusals import Code, Reason
from undercroft.rules.types import Mode


@pytest.mark.clause("000-gen-1", "003-actions-1")
def test_legal_follows_the_state_not_only_the_mode() -> None:
    game = make_game("undercroft", dice=ScriptedDice(), gold=0)
    st = game.state
    st.items.clear()
    for action, code, line in [
        (Drink(), Code.NO_POTION, "You have no potion."),
        (Descend(), Code.NO_STAIRS, "You are not on the stairs down."),
        (Fight(), Code.NOTHING_TO_FIGHT, "There is nothing here to fight."),
    ]:
        assert not game.legal(action) and game.refusal(action) == Reason(code)
        before = game.checksum()
        (e,) = game.step(action)
        assert why(e) == Reason(code) and say(game, e) == line and game.checksum() == before
    meet(game, "demon", faces=encounter_faces())
    for action, reason in [
        (Talk(), Reason(Code.UNNEGOTIABLE, {"monster": "demon"})),
        (Bribe(10), Reason(Code.UNBRIBABLE, {"monster": "demon"})),
        (DropFood(), Reason(Code.NOT_FLEEING)),  # a drop stops a pursuer and buys off nobody (003)
        (DropTreasure(), Reason(Code.NOT_FLEEING)),
    ]:
        assert not game.legal(action) and game.refusal(action) == reason
    assert game.legal(Run()) and game.legal(Wait()) and game.legal(Fight())
    assert game.refusal(ThrowOil()) == Reason(Code.NOT_NOW, {"mode": "encounter"})
    assert say(game, game.step(ThrowOil())[0]) == "You cannot throw oil in an encounter."


@pytest.mark.clause("000-gen-1", "000-8.6a")
def test_a_bribe_is_legal_only_after_a_failed_talk_and_only_once() -> None:
    game = make_game("undercroft", dice=ScriptedDice(), gold=100)
    g, _ = meet(game, "goblin", faces=encounter_faces())
    assert game.refusal(Bribe(0)) == Reason(Code.TALK_FIRST)
    script(game).push(1, 1)  # 2 - 2: failure
    game.step(Talk())
    assert game.legal(Bribe(0)) and not game.legal(Talk())
    script(game).push(6, 2)  # refused: the goblin attacks first (and misses)
    game.step(Bribe(10))
    assert g.bribe_tried and game.state.mode == "combat"
    game.state.mode, game.state.combat = Mode.ENCOUNTER, None  # as if back in the encounter
    assert game.refusal(Bribe(0)) == Reason(Code.BRIBED, {"monster": "goblin"})


def test_exhausted_the_party_cannot_run() -> None:
    game = make_game("undercroft", dice=ScriptedDice())
    meet(game, "goblin", faces=encounter_faces())
    game.state.exhausted = True
    assert game.refusal(Run()) == Reason(Code.EXHAUSTED)
