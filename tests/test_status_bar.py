"""The status bar says what the party carries in words (a bare `!2 o1 ,1` told a player nothing)."""

from __future__ import annotations

from pathlib import Path

import pytest
import tcod.console
from engine_helpers import content, make_game
from tcod.event import KeySym
from ui_helpers import Driver, isolate_user_data, names, press, rows, screen, type_text

from undercroft.ui import render
from undercroft.ui.scenes import SceneStack, TitleScene


def bar(ruleset: str, width: int = 80) -> str:
    game = make_game(ruleset, 11)
    console = tcod.console.Console(width, 3, order="C")
    render.draw_status(console, game, y=1)
    return str(console).splitlines()[1]


def test_a_lone_delver_sees_the_pack_in_words() -> None:
    # (from 87 columns with this seed: the delver's level and its cap, "Lv1 of 15", take the last columns of an
    # 86-column bar, where the glyphs alone show)
    assert "!2  !1  ,1" in bar("undercroft")
    assert "Lv1 of 15" in bar("undercroft")  # the level cap, told
    line = bar("undercroft", width=87)
    assert "!2 potions" in line and "!1 oil" in line and ",1 ration" in line


def test_a_party_on_a_narrow_screen_falls_back_to_the_glyphs() -> None:
    line = bar("crawler", width=80)  # two characters' HP take the room the words would need
    assert "HP Del" in line and "!2" in line and "potions" not in line


def test_a_word_seed_shows_as_typed_on_the_status_bar_and_after_continue(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A seed typed as words is shown as typed, not as the 19-digit number it hashes to."""
    isolate_user_data(monkeypatch, tmp_path)
    stack = Driver(SceneStack([TitleScene(content(), seed=None)]))
    press(stack, KeySym.S)
    type_text(stack, "goblin king")
    press(stack, KeySym.RETURN)
    assert names(stack) == ["ExploreScene"]
    status = rows(screen(stack))[render.STATUS_Y]
    assert "Seed goblin king" in status
    press(stack, KeySym.ESCAPE)  # back to the title: the game is kept; continue it
    press(stack, KeySym.C)
    assert names(stack) == ["ExploreScene"] and "Seed goblin king" in rows(screen(stack))[render.STATUS_Y]
