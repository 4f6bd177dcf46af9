"""The status bar says what the party carries in words (a bare `!2 o1 ,1` told a player nothing)."""

from __future__ import annotations

from pathlib import Path

import pytest
import tcod.console
from engine_helpers import content, make_game, script
from tcod.event import KeySym
from test_ui_encounter_map import in_a_new_room, meet_at
from ui_helpers import Driver, isolate_user_data, names, press, rows, screen, type_text

from undercroft.rules.actions import Attack, Fight
from undercroft.rules.types import Mode
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
    assert "!2 healing" in line and "!1 oil" in line and ",1 ration" in line


def test_a_full_pack_still_shows_the_supplies_a_fight_draws_on() -> None:
    """Found in play on floor 3: the bar listed every kind carried ("!1 *1 !1 !7 (1 !1 ,2 /1") until it no longer
    fitted, and then showed no supplies at all. It tells the healing potions (of every strength), the oil and the
    rations; the rest is the inventory's."""
    game = make_game("undercroft", 11)
    game.state.items.update(
        {"greater_healing_potion": 1, "clarity_potion": 1, "spear": 1, "mace": 1, "garnet": 2, "lantern": 1}
    )
    console = tcod.console.Console(100, 3, order="C")
    render.draw_status(console, game, y=1)
    line = str(console).splitlines()[1]
    assert line.rstrip().endswith("!3 healing  !1 oil  ,1 ration"), line
    console = tcod.console.Console(80, 3, order="C")
    render.draw_status(console, game, y=1)
    assert str(console).splitlines()[1].rstrip().endswith("!3  !1  ,1")


def test_a_narrow_bar_drops_the_level_cap_before_the_supplies() -> None:
    """Play test (lantern moth, turns 796-980, 80 columns): with four digits of gold the supplies vanished and
    "Lv5 of 15" stayed, though the cap is the first thing a narrow bar leaves out."""
    game = make_game("undercroft", 11)
    game.state.gold, game.state.turn = 1165, 796
    game.state.party[0].level = 5
    console = tcod.console.Console(80, 3, order="C")
    render.draw_status(console, game, y=1, seed="lantern moth")
    line = str(console).splitlines()[1]
    assert "Lv5 " in line and "of 15" not in line and line.rstrip().endswith("!2  !1  ,1"), line
    assert "Turn 796" in line and "Seed lantern moth" in line


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
    assert "Undercroft, seed goblin king. " in " ".join(screen(stack).split())  # the log's first line too
    press(stack, KeySym.ESCAPE, KeySym.T)  # back to the title: the game is kept; continue it
    press(stack, KeySym.C)
    assert names(stack) == ["ExploreScene"] and "Seed goblin king" in rows(screen(stack))[render.STATUS_Y]
    assert "Continued: Undercroft, seed goblin king, turn 0." in " ".join(screen(stack).split())


def test_the_death_line_names_a_word_seed_as_typed() -> None:
    """The log's last line at a death once gave the seed's number where the status bar and the end panel gave
    the words."""
    game = in_a_new_room()
    _, _, session = meet_at(game, "orc", 3, (2, 2))
    session.seed_text = "goblin king"
    game.state.party[0].hp = 1
    script(game).push(*[20] * 40)  # every roll a 20: the orcs' first blow kills
    for action in (Fight(), Attack(), Attack()):
        if not game.over:
            session.act(action)
    assert game.state.mode == Mode.DEAD
    assert session.log.lines[-1][0].endswith(", level 1. Seed goblin king.")
