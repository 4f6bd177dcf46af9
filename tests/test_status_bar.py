"""The status bar says what the party carries in words (issue 13: `!2 o1 ,1` was never explained)."""

from __future__ import annotations

import tcod.console
from engine_helpers import make_game

from undercroft.ui import render


def bar(ruleset: str, width: int = 80) -> str:
    game = make_game(ruleset, 11)
    console = tcod.console.Console(width, 3, order="C")
    render.draw_status(console, game, y=1)
    return str(console).splitlines()[1]


def test_a_lone_delver_sees_the_pack_in_words() -> None:
    line = bar("undercroft")
    assert "!2 potions" in line and "o1 oil" in line and ",1 ration" in line


def test_a_party_on_a_narrow_screen_falls_back_to_the_glyphs() -> None:
    line = bar("crawler", width=80)  # two characters' HP take the room the words would need
    assert "HP Del" in line and "!2" in line and "potions" not in line
