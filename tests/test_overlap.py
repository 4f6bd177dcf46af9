"""At 80x24 (and 120x40, the map's tiles two columns wide) nothing is drawn over anything else.
Every frame on the screen is whole (a panel drawn over part of another's frame, a list run past its panel's bottom,
two frames side by side: caught), and no text stands on the map (the floor's title once covered the map's top row):
what the scene shows of the map is what :func:`undercroft.ui.render.draw_map` draws there. Over every scene of bot
games, the merchant with every ware chosen and the inventory over it, and look over a meeting."""

from __future__ import annotations

import pytest
import tcod.console
from engine_helpers import content
from tcod.event import KeySym
from test_ui_encounter_map import in_a_new_room, meet_at
from test_ui_shop import at_the_merchant
from ui_helpers import Driver, press

from undercroft.bot import Bot
from undercroft.rules import shop
from undercroft.rules.rng import parse_seed
from undercroft.ui import render, threat
from undercroft.ui.layout import Layout
from undercroft.ui.scenes import SceneStack, game_stack
from undercroft.ui.scenes.game import GameScene
from undercroft.ui.scenes.shop import ShopScene
from undercroft.ui.session import Session

SMALL = (80, 24)
WIDE = (120, 40)  # a tile two columns wide (the map fills a wide screen)


def broken_frames(text: str) -> list[str]:
    """Every frame on the screen ``text`` that is not whole: a top-left corner whose top edge, sides and bottom
    edge are not all there (another panel drawn over part of it, text run onto its bottom), and two frames' sides
    standing next to each other (a double border)."""
    rows = text.splitlines()
    out = []
    for y, row in enumerate(rows):
        for x0, ch in enumerate(row):
            if ch != "┌":
                continue
            x1 = row.find("┐", x0)
            y1 = next((j for j in range(y + 1, len(rows)) if rows[j][x0] != "│"), len(rows))
            whole = (
                x1 > x0
                and "┌" not in row[x0 + 1 : x1]
                and y1 < len(rows)
                and rows[y1][x0 : x1 + 1] == "└" + "─" * (x1 - x0 - 1) + "┘"
                and all(rows[j][x1] == "│" for j in range(y + 1, y1))
            )
            if not whole:
                out.append(f"the frame at ({x0}, {y}) is not whole")
    for y, row in enumerate(rows):
        if "││" in row or "│ │" in row:
            out.append(f"two frames side by side on row {y}: {row.strip()!r}")
    return out


def over_the_map(session: Session, console: tcod.console.Console) -> list[str]:
    """The map's cells (those no panel of the scene covers) where the screen does not show what the map is: the map
    in the columns a panel leaves, nothing beside or under the panel."""
    top = SceneStack(game_stack(session)).top
    layout = Layout.of(console.width, console.height)
    panel = top.panel_rect(layout) if isinstance(top, GameScene) else None
    view = session.camera.last
    alone = tcod.console.Console(console.width, console.height, order="F")
    render.draw_map(alone, session.view, port=view)
    shown, drawn = render.cells(console)["ch"], render.cells(alone)["ch"]
    c0, c1 = layout.clear(panel)  # (with a panel, the map is the columns it leaves: blank beside and under it)
    out = []
    for y in range(view.top, layout.map_h):
        for x in range(console.width):
            if panel is not None and (x, y) in panel:
                continue
            want = drawn[y, x] if c0 <= x < c1 else ord(" ")
            if shown[y, x] != want:
                out.append(f"({x}, {y}): {chr(int(shown[y, x]))!r} over the map's {chr(int(want))!r}")
    return out


def drawn(stack: SceneStack, size: tuple[int, int] = SMALL) -> tcod.console.Console:
    console = tcod.console.Console(*size, order="F")
    stack.draw(console)
    return console


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "seed"), [("undercroft", "8123"), ("citadel", "copper hinge")])
def test_no_scene_of_a_bot_game_draws_over_a_frame_or_the_map(ruleset: str, seed: str) -> None:
    n = parse_seed(seed)
    session = Session.new(content(), ruleset, n)
    game = session.game
    bot = Bot(game, n)
    checked = 0
    while not game.over and checked < 1500:
        action = bot.choose()
        events = session.act(action)
        if len(events) == 1 and events[0].type == "refused":
            bot.refused(action)
        for size in (SMALL, WIDE):
            console = drawn(SceneStack(game_stack(session)), size)
            where = f"{ruleset} {seed!r} turn {game.state.turn} ({game.state.mode}) at {size}"
            assert broken_frames(str(console)) == [], where
            assert over_the_map(session, console) == [], where
        checked += 1
    session.close()
    assert checked > 200


def test_the_merchant_with_every_ware_and_the_inventory_over_it() -> None:
    """The deepest merchant's wares at 80x24 (the list once ran over its panel's bottom), each chosen in turn,
    and the inventory opened over it (once two frames side by side)."""
    session, driver = at_the_merchant(gold=2000)
    session.game.state.wares = {i: 3 for i in shop.stock(content(), 7)}
    small = Driver(driver.stack, size=SMALL)
    scene = small.top
    assert isinstance(scene, ShopScene) and len(scene.wares()) == 21
    for i in range(18):
        if i % 4 == 0:
            press(small, KeySym.RETURN)  # bought: "What happened" and "You carry" take their rows too
        console = drawn(small.stack)
        assert broken_frames(str(console)) == [], scene.wares()[i]
        assert over_the_map(session, console) == [], scene.wares()[i]
        assert f"{content().items[scene.wares()[i]].name}" in str(console)
        press(small, KeySym.DOWN)
    press(small, KeySym.I)
    console = drawn(small.stack)
    assert "Inventory" in str(console) and broken_frames(str(console)) == []


def test_look_in_a_meeting_stands_over_its_panel_and_leaves_the_map() -> None:
    game = in_a_new_room()
    _, driver, session = meet_at(game, "orc", 3, (2, 2))
    small = Driver(driver.stack, size=SMALL)
    press(small, KeySym.SEMICOLON)
    console = drawn(small.stack)
    text = str(console)
    assert "Look" in text and "Encounter" not in text  # over the meeting's panel
    assert broken_frames(text) == [] and over_the_map(session, console) == []


def test_the_checks_can_fail() -> None:
    boxed = "┌─ A ─┐\n│     │\n└─────┘"
    assert broken_frames(boxed) == []
    assert broken_frames("┌─ A ─┐\n│  ┌─ B ──┐\n└──│      │\n   └──────┘") != []  # B drawn over A's corner
    assert broken_frames("┌─ A ─┐┌─ B ─┐\n│     ││     │\n└─────┘└─────┘") != []  # side by side
    session = Session.new(content(), "undercroft", 5)
    console = drawn(SceneStack(game_stack(session)))
    assert over_the_map(session, console) == []
    view = session.camera.last
    x, y = view.to_screen(session.game.state.pos)
    render.put_text(console, x - 2, y, "Level 1", render.TEXT)  # a title over the party
    assert over_the_map(session, console) != []
    session.close()


def test_the_bribe_choice_keeps_its_sum_at_80x24() -> None:
    """On a short screen the choices stand in two columns; the bribe has the last row to itself, so its label
    keeps the sum its chance is for ("Bribe... 67% at 100"), which a column's half width cut off."""
    game = in_a_new_room()
    g, driver, _ = meet_at(game, "kobold", 2, (2, 2))
    g.negotiation = "failure"  # the talk failed: a bribe may be offered
    game.state.gold = 500
    chance = threat.way_chances(game, g)["bribe"]
    assert " at " in chance
    small = Driver(driver.stack, size=SMALL)
    assert f"[$] Bribe... {chance}" in str(drawn(small.stack))
