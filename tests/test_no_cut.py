"""Issue 13, point 8: no text cut. Every screen is drawn inside ``render.watch_cuts()``, which records any line
clipped at its width or the console's edge and any message of which only a part was drawn; at the smallest layout
it must record nothing for every monster's description (the encounter panel and look), every event text of
autoplayed games of every ruleset (the log line and the panels' "What happened"), and every line of the help."""

from __future__ import annotations

import re

import pytest
import tcod.console
from engine_helpers import content, make_game, walk_into
from test_ui_encounter_map import beside

from undercroft.autoplay import game_seed
from undercroft.bot import Bot
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.game import Game
from undercroft.ui import keymap, render
from undercroft.ui.scenes import HelpScene, SceneStack, game_stack
from undercroft.ui.scenes.look import LookScene
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


def draw(stack: SceneStack, size: tuple[int, int]) -> tuple[str, list[str]]:
    console = tcod.console.Console(*size, order="F")
    with render.watch_cuts() as cuts:
        stack.draw(console)
    return str(console), list(cuts)


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


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_screen_of_autoplayed_games_draws_its_texts_whole(ruleset: str) -> None:
    """Two bot games of each ruleset, every screen after every action at the smallest layout (and every fifth at
    80x50): the log, the status bar, the panels and their "What happened" (each event text of the game narrated
    and shown whole, or left out whole)."""
    drawn = 0
    for i in range(2):
        seed = game_seed(4242, i)
        game = Game(content(), ruleset, seed)
        bot = Bot(game, seed)
        session = Session(content(), game)
        for _ in range(400):
            if game.over:
                break
            action = bot.choose()
            events = session.act(action)
            if len(events) == 1 and events[0].type == "refused":
                bot.refused(action)
            for size in LAYOUTS if game.state.turn % 5 == 0 else LAYOUTS[:1]:
                _, cuts = draw(SceneStack(game_stack(session)), size)
                assert cuts == [], f"{ruleset} seed {seed} turn {game.state.turn} at {size}: {cuts}"
            drawn += 1
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
    with render.watch_cuts() as cuts:  # whole messages left out are not cuts: the "..." says so
        used = render.put_lines(console, 0, 0, 20, [("a b c", render.TEXT)] * 10, max_rows=4)
    assert cuts == [] and used == 4
