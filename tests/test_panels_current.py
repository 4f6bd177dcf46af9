"""Panels are drawn from the state after every action. A panel drawn in a game being played
shows the same facts as the same panel drawn from a fresh load of that game's save at the same turn."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_helpers import content
from ui_helpers import isolate_user_data, panel_text, screen

from undercroft.bot import Bot
from undercroft.rules.types import Mode
from undercroft.ui.scenes import GameScene, SceneStack, game_stack
from undercroft.ui.session import Session

CUT = ("What happened:", "This round:", "Your choice:", "Your turn.", "If you fight on")


def facts(stack: SceneStack, session: Session) -> str:
    """The panel's lines about the state (the part above the choices and the round's story)."""
    text = panel_text(screen(stack), session)
    for marker in CUT:
        if marker in text:
            text = text[: text.index(marker)]
    return text.strip()


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["undercroft", "crawler"])
def test_a_panel_after_an_action_matches_one_drawn_from_a_fresh_load(
    ruleset: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    isolate_user_data(monkeypatch, tmp_path)
    live = Session.new(content(), ruleset, 7)
    bot = Bot(live.game, 7)
    stack = SceneStack(game_stack(live))  # one stack for the whole game: its scenes live on from action to action
    compared = 0
    for _ in range(400):
        if live.game.over:
            break
        action = bot.choose()
        before = live.game.state.turn
        top = stack.top
        assert isinstance(top, GameScene)
        stack.apply(top.act(action))  # as a key would: the scene acts, then follows the game's mode
        if live.game.state.turn == before:
            bot.refused(action)
            continue
        if live.mode in (Mode.ENCOUNTER, Mode.COMBAT, Mode.CHASE):
            assert live.path is not None
            fresh = Session.load(content(), live.path)  # read-only: the live game holds the save's lock
            assert facts(stack, live) == facts(SceneStack(game_stack(fresh)), fresh), f"turn {live.game.state.turn}"
            compared += 1
    live.close()
    assert compared >= 5
