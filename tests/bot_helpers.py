"""Shared by the bot's tests: one whole game, as the actions the bot tried and its result."""

from __future__ import annotations

import hashlib

import pytest

from undercroft.bot import play_game
from undercroft.content import Content
from undercroft.rules.actions import Action
from undercroft.rules.game import Game


def played(content: Content, ruleset: str, seed: int, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """(a hash of every action the bot tried, the result) of one whole game."""
    tried: list[str] = []
    step = Game.step

    def recording(game: Game, action: Action) -> object:
        tried.append(repr(action))
        return step(game, action)

    with monkeypatch.context() as m:
        m.setattr(Game, "step", recording)
        result = play_game(content, ruleset, seed)
    return hashlib.sha256("\n".join(tried).encode()).hexdigest(), repr(result)
