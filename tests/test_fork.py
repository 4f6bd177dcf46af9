"""A fork of the game (the chase's rollouts) is a copy of the state that shares nothing it may change: built field
by field, it is what ``copy.deepcopy`` of the state gives, the other levels and the maps shared."""

from __future__ import annotations

import copy
import dataclasses
from typing import Any

import numpy as np
import pytest

from undercroft.content import Content
from undercroft.rules import game as game_module
from undercroft.rules.events import Event
from undercroft.rules.game import Game
from undercroft.rules.state import GameState, fork_state
from undercroft.rules.types import Mode
from undercroft.sim import chase
from undercroft.tools.autoplay import play_game

Path = tuple[str, ...]


def _deep_fork(st: GameState) -> GameState:
    """The reference: a deepcopy of ``st`` that shares the other levels and the maps."""
    lv = st.level
    memo: dict[int, Any] = {id(x): x for x in st.levels.values() if x is not lv}
    memo[id(lv.map)] = lv.map
    return copy.deepcopy(st, memo)


def _items(x: object) -> list[tuple[object, object]] | None:
    """The parts of a container or a state record (its owner aside: checked by itself), None for a leaf."""
    if isinstance(x, dict):
        return list(x.items())
    if isinstance(x, list):
        return list(enumerate(x))
    if dataclasses.is_dataclass(x):
        return [(k, v) for k, v in vars(x).items() if k != "owner"]
    return None


def _differences(a: object, b: object, orig: object, path: Path, shared: set[int]) -> list[str]:
    """Where ``b`` (the fork) differs from ``a`` (the deepcopy), or shares a mutable value with ``orig``."""
    where = ".".join(path)
    if id(b) in shared:
        return [] if b is orig else [f"{where} not shared"]
    if type(a) is not type(b):
        return [f"{where}: {type(a).__name__} vs {type(b).__name__}"]
    mutable = isinstance(a, (list, dict, set, np.ndarray)) or dataclasses.is_dataclass(a)
    out = [f"{where} shared with the game"] if mutable and b is orig else []
    if isinstance(a, np.ndarray):
        assert isinstance(b, np.ndarray)
        return out + ([] if a.dtype == b.dtype and np.array_equal(a, b) else [where])
    parts_a, parts_b = _items(a), _items(b)
    if parts_a is None or parts_b is None:
        return out + ([] if a == b else [where])
    if [k for k, _ in parts_a] != [k for k, _ in parts_b]:
        return [*out, f"{where}: keys"]
    parts_orig = dict((_items(orig) or []) if type(orig) is type(a) else [])
    for (k, x), (_, y) in zip(parts_a, parts_b, strict=True):
        out += _differences(x, y, parts_orig.get(k), (*path, str(k)), shared)
    return out


def test_a_fork_is_a_deepcopy_that_shares_nothing_it_changes(content: Content, monkeypatch: pytest.MonkeyPatch) -> None:
    modes: list[Mode] = []
    checked: list[str] = []
    fork, play_out = fork_state, chase._play_out

    def check(st: GameState) -> GameState:
        modes.append(st.mode)
        new = fork(st)
        lv = st.level
        shared = {id(x) for x in st.levels.values() if x is not lv} | {id(lv.map)}
        checked.extend(_differences(_deep_fork(st), new, st, ("state",), shared))
        assert all(g.owner is new.level for g in new.level.groups)
        return new

    def checking_play_out(fork: Game, events: list[Event]) -> tuple[int, str]:
        check(fork.state)  # (a chase under way: a fork of a state in pursuit)
        return play_out(fork, events)

    monkeypatch.setattr(game_module, "fork_state", check)
    monkeypatch.setattr(chase, "_play_out", checking_play_out)
    play_game(content, "crawler", 1601, max_actions=600)
    assert {Mode.ENCOUNTER, Mode.COMBAT, Mode.CHASE} <= set(modes)
    assert checked == []
