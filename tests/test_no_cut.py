"""No text cut. Every screen is drawn inside ``render.watch_cuts()``, which
records any line clipped at its width or the console's edge, any message of which only a part was drawn, and any
message left out behind a "..."; at the smallest layout (80x24) it must record nothing for every monster's
description (the encounter panel and look), every scene of autoplayed games of every ruleset (the log line, the
panels' "What happened" and "This round", the shop, the inventory, the overview, look, the log, a refusal's notice,
the end screen and its recap, the title and the past games), and every line of the help."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import tcod.console
from engine_helpers import content, make_game, walk_into
from tcod.event import KeySym
from test_ui_encounter_map import beside
from test_ui_shop import at_the_merchant
from ui_helpers import Driver, isolate_user_data, press

from undercroft.bot import Bot
from undercroft.rules.dice import ScriptedDice
from undercroft.tools.autoplay import game_seed
from undercroft.ui import keymap, render
from undercroft.ui.scenes import (
    HelpScene,
    InventoryScene,
    LogScene,
    PastGamesScene,
    Scene,
    SceneStack,
    TitleScene,
    game_stack,
)
from undercroft.ui.scenes.look import LookScene, targets
from undercroft.ui.scenes.overview import OverviewScene
from undercroft.ui.scenes.prompt import NoticeScene
from undercroft.ui.scenes.shop import ShopScene
from undercroft.ui.session import Session

LAYOUTS = [(80, 24), (render.WIDTH, render.HEIGHT)]  # the smallest layout the game draws, and the window's
RULESETS = ["undercroft", "crawler", "citadel", "warden"]


def words(text: str) -> str:
    """Text with its wrapping undone: one space between words."""
    return re.sub(r"\s+", " ", text).strip()


def box_text(text: str, title: str) -> str:
    """The words inside the framed box titled ``title`` on the screen ``text``."""
    rows = text.splitlines()
    for y, row in enumerate(rows):
        x0 = row.find(f"┌─ {title} ")
        if x0 >= 0:
            x1 = row.index("┐", x0)
            inner = []
            for r in rows[y + 1 :]:
                if r[x0] == "└":
                    break
                inner.append(r[x0 + 1 : x1])
            return words(" ".join(inner))
    raise AssertionError(f"no box {title!r} on the screen")


def broken_frames(text: str) -> list[str]:
    """The framed boxes on the screen ``text`` ("┌─ Title ") with something drawn over their frame: a side or the
    bottom row that is not the frame's own line (a panel's text run past its last row, onto its border)."""
    rows = text.splitlines()
    out = []
    for y, row in enumerate(rows):
        for found in re.finditer(r"┌─ ([^─]+) ─", row):
            x0 = found.start()
            x1 = row.index("┐", x0)
            y1 = next((j for j in range(y + 1, len(rows)) if rows[j][x0] == "└"), None)
            bottom = y1 is not None and rows[y1][x0 : x1 + 1] == "└" + "─" * (x1 - x0 - 1) + "┘"
            sides = y1 is not None and all(rows[j][x0] == rows[j][x1] == "│" for j in range(y + 1, y1))
            if not (bottom and sides):
                out.append(found.group(1))
    return out


def draw(stack: SceneStack, size: tuple[int, int], frames: bool = True) -> tuple[str, list[str]]:
    """The screen of ``stack`` at ``size``, and what was cut: text clipped or left out, and (``frames``: not for
    a screen opened over a panel, which covers part of its frame) a panel whose frame has text over it
    (:func:`broken_frames`)."""
    console = tcod.console.Console(*size, order="F")
    with render.watch_cuts() as cuts:
        stack.draw(console)
    text = str(console)
    return text, [*cuts, *(f"over the frame of {t}" for t in broken_frames(text) if frames)]


@pytest.mark.parametrize("size", LAYOUTS)
def test_every_monster_description_is_whole_in_the_encounter_panel_and_in_look(size: tuple[int, int]) -> None:
    c = content()
    for monster_id in sorted(c.monsters):
        mon = c.monsters[monster_id]
        game = make_game("undercroft", 1, dice=ScriptedDice())
        walk_into(game, "room", visited=False)
        st = game.state
        g = game.add_group(monster_id, 3, pos=beside(game))
        game.start_encounter(g, meeting=False)
        assert st.pos not in game.creature_tiles(g)
        session = Session(c, game)
        stack = SceneStack(game_stack(session))
        text, cuts = draw(stack, size)
        assert cuts == [], (monster_id, cuts)
        if size[1] >= 40:  # on a tall screen the encounter panel has room for it; a short one leaves it to look
            assert words(mon.description) in box_text(text, "Encounter"), monster_id
        look = LookScene(session)
        look.cursor = game.creature_tiles(g)[0]
        stack.scenes.append(look)
        text, cuts = draw(stack, size)
        assert cuts == [], (monster_id, "look", cuts)
        assert words(mon.description) in box_text(text, "Look"), (monster_id, "look")


def overlays(session: Session) -> list[Scene]:
    """The screens a player opens over a game: the inventory, the overview, the whole log, and look on every
    creature, item and the stairs Tab goes to (each page of its panel)."""
    scenes: list[Scene] = [
        InventoryScene(session, lambda: None, lambda: None),
        OverviewScene(session),
        LogScene(session),
    ]
    for p in [session.game.state.pos, *targets(session)]:
        look = LookScene(session)
        look.cursor = p
        scenes.append(look)
    return scenes


def draw_over(stack: SceneStack, scene: Scene, size: tuple[int, int]) -> list[str]:
    """Draw ``scene`` over ``stack``'s (every page of a look panel or the inventory); the cuts."""
    stack.scenes.append(scene)
    try:
        found = []
        for page in range(4 if isinstance(scene, (LookScene, InventoryScene)) else 1):
            if isinstance(scene, (LookScene, InventoryScene)):
                scene.page = page
            found += draw(stack, size, frames=False)[1]
        return found
    finally:
        stack.scenes.pop()


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_screen_of_autoplayed_games_draws_its_texts_whole(
    ruleset: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Two recorded bot games of each ruleset played to their end, every screen after each of their first 400
    actions and the last at the smallest layout (and every fifth at 80x50): the log, the status bar, the panels
    and their "What happened" (each event text of the game narrated and shown whole, or left out whole, never
    behind a "..."), the shop, the end screen and its recap; every tenth action the screens opened over the game
    too (inventory, overview, the log, look on every target) and a refusal's notice; at the end the title and the
    past games with those games in them."""
    isolate_user_data(monkeypatch, tmp_path)
    drawn = 0
    for i in range(2):
        seed = game_seed(4242, i)
        session = Session.new(content(), ruleset, seed)
        game = session.game
        bot = Bot(game, seed)
        for n in range(3000):  # every screen of its first 400 actions, then on to its end (its end screen)
            if game.over:
                break
            action = bot.choose()
            events = session.act(action)
            refused = len(events) == 1 and events[0].type == "refused"
            if refused:
                bot.refused(action)
            if n >= 400 and not game.over:
                continue
            where = f"{ruleset} seed {seed} turn {game.state.turn}"
            for size in LAYOUTS if game.state.turn % 5 == 0 else LAYOUTS[:1]:
                _, cuts = draw(SceneStack(game_stack(session)), size)
                assert cuts == [], f"{where} at {size}: {cuts}"
            if n % 10 == 0 or refused:
                stack = SceneStack(game_stack(session))
                extra = overlays(session) if n % 10 == 0 else []
                if refused and session.refused:
                    extra.append(NoticeScene("Not now", session.refused))
                for scene in extra:
                    assert draw_over(stack, scene, LAYOUTS[0]) == [], f"{where}: {type(scene).__name__}"
            drawn += 1
        assert game.over, f"{ruleset} seed {seed}: no end in 3000 actions"
        session.close()
    for home in (TitleScene(content(), seed=1), PastGamesScene(content())):
        _, cuts = draw(SceneStack([home]), LAYOUTS[0])
        assert cuts == [], (type(home).__name__, cuts)
    assert drawn > 100


@pytest.mark.parametrize("size", LAYOUTS)
def test_every_help_line_is_whole(size: tuple[int, int]) -> None:
    scene = HelpScene()
    stack = SceneStack([scene])
    pages = []
    for _ in range(80):
        text, cuts = draw(stack, size)
        assert cuts == []
        pages.append(text)
        scene.offset += scene.page // 2  # (half a page on: a line wrapped over a page's last row is whole on the next)
    everything = words(" ".join(" ".join(row.strip(" │") for row in p.splitlines()) for p in pages))
    for _, rows in keymap.help_sections():
        for shown, what in rows:
            assert words(shown) in everything and words(what) in everything, (shown, what)


def test_the_check_can_fail() -> None:
    """A line too long for its width, and a log message longer than the log, are both caught."""
    console = tcod.console.Console(40, 10, order="F")
    with render.watch_cuts() as cuts:
        render.put_text(console, 2, 1, "x" * 30, width=20)
    assert cuts == ["x" * 30]
    with render.watch_cuts() as cuts:
        render.draw_log(console, [("word " * 200, "info")], y=5, rows=3)
    assert len(cuts) == 1
    with render.watch_cuts() as cuts:  # whole messages left out are a cut too: a "..." row is not the text
        used = render.put_lines(console, 0, 0, 20, [(f"{i} a b c", render.TEXT) for i in range(10)], max_rows=4)
    assert cuts == ["... 0 a b c"] and used == 4


def test_the_merchant_is_whole_at_80x24_for_every_ware() -> None:
    """The shop at the smallest layout: every ware chosen in turn and bought (its description, what is carried, the
    purchase's "What happened" or the refusal), nothing cut."""
    session, driver = at_the_merchant(gold=500)
    scene = driver.top
    assert isinstance(scene, ShopScene)
    for _ in range(len(scene.wares())):
        press(driver, KeySym.RETURN)
        if driver.top is not scene:  # a ware dearer than a third of the purse: asked first, and bought
            press(driver, KeySym.RETURN)
        for size in LAYOUTS:
            _, cuts = draw(driver.stack, size)
            assert cuts == [], (scene.wares()[scene.cursor], size, cuts)
        press(driver, KeySym.DOWN)
    assert session.game.state.gold < 500


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_refusal_in_the_encounter_panel_stays_inside_it(ruleset: str) -> None:
    """A refused choice ("Not now: ...") in a meeting at 80x24, after the whole panel: wrapped inside the panel,
    never over its border (the "What happened" below gives way)."""
    game = make_game(ruleset, 1, dice=ScriptedDice())
    walk_into(game, "room", visited=False)
    g = game.add_group("gaoler", 3, pos=beside(game))
    game.start_encounter(g, meeting=False)
    session = Session(content(), game)
    driver = Driver(SceneStack(game_stack(session)), size=LAYOUTS[0])
    press(driver, KeySym.D)  # drop food: only in a chase
    assert session.refused
    text, cuts = draw(driver.stack, LAYOUTS[0])
    assert cuts == []
    assert words("Not now: " + session.refused) in box_text(text, "Encounter")


def test_a_frame_written_over_is_caught() -> None:
    console = tcod.console.Console(40, 10, order="F")
    render.panel(console, 0, 0, 20, 6, "Box")
    assert broken_frames(str(console)) == []
    render.put_text(console, 2, 5, "past the end")
    assert broken_frames(str(console)) == ["Box"]
