"""Shared by the bot's tests: one whole game, as the actions the bot tried and its result; tcod's least costs."""

from __future__ import annotations

import hashlib

import numpy as np
import numpy.typing as npt
import pytest
import tcod.path

from undercroft.content import Content
from undercroft.rules.actions import Action
from undercroft.rules.game import Game
from undercroft.tools.autoplay import play_game


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


def tcod_costs(cost: npt.NDArray[np.int8], origin: tuple[int, int], diagonal: bool) -> npt.NDArray[np.int32]:
    """tcod's own least costs from ``origin`` (the reference the engine's search, which is the flood, answers to)."""
    dist = tcod.path.maxarray(cost.shape, dtype=np.int32)
    dist[origin[1], origin[0]] = 0
    tcod.path.dijkstra2d(dist, cost.astype(np.int32), 1, 1 if diagonal else None, out=dist)
    return dist
