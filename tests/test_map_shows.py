"""What the panel lists, the map shows. Over bot games, after every action, the screen drawn at
80x24 and 120x40: every living creature of the group met (the encounter's or the fight's, as its panel counts
them) stands on the map, on its own tile, as its letter; where several share a tile, their number. Every creature
in sight of a group the party knows of is drawn as well. A group met round a corner (the citadel's rules open the
meeting at its rolled distance, out of the field of view) is drawn too."""

from __future__ import annotations

import pytest
import tcod.console
from engine_helpers import content, make_game
from ui_helpers import Driver, rows

from undercroft.bot import Bot
from undercroft.rules.rng import parse_seed
from undercroft.rules.state import Group
from undercroft.rules.types import Mode
from undercroft.ui import render
from undercroft.ui.layout import Layout
from undercroft.ui.scenes import SceneStack, game_stack
from undercroft.ui.scenes.game import GameScene
from undercroft.ui.scenes.look import describe_lines
from undercroft.ui.session import Session

GAMES = [("citadel", "4"), ("undercroft", "8153")]  # a crowded corridor (till the bot changed: "copper hinge")
SIZES = [(80, 24), (120, 40)]


def drawn_count(screen: object, glyph: str) -> int:
    """How many creatures one map cell stands for: 1 for the letter ``glyph``, n for the digit n; 0 else."""
    ch = chr(int(screen))  # type: ignore[call-overload]
    return 1 if ch == glyph else int(ch) if ch.isdigit() else 0


def drawn(session: Session, size: tuple[int, int]) -> tcod.console.Console:
    console = tcod.console.Console(*size, order="F")
    SceneStack(game_stack(session)).draw(console)
    return console


def shown_wrongly(session: Session, size: tuple[int, int], console: tcod.console.Console | None = None) -> list[str]:
    """The creatures the map (drawn at ``size``, or ``console`` as drawn) does not show as it should: for the
    group met, each of its living creatures; for every other group the party knows of, each creature on a tile in
    sight."""
    game = session.game
    st = game.state
    if console is None:
        console = drawn(session, size)
    scene = SceneStack(game_stack(session)).top
    layout = Layout.of(*size)
    panel = scene.panel_rect(layout) if isinstance(scene, GameScene) else None
    view = session.camera.last
    cells = render.cells(console)["ch"]
    met = st.front_group() if st.mode in (Mode.ENCOUNTER, Mode.COMBAT) else None
    vis = game.visible()
    out = []
    for g in st.level.groups:
        if g.defeated or not g.known:
            continue
        tiles = game.creature_tiles(g)
        want = [tiles[i] for i in g.alive if g is met or vis[tiles[i][1], tiles[i][0]]]
        if g is met:
            assert len(want) == len(g.alive)
        glyph = game.monster_of(g).glyph
        for p in set(want):
            sx, sy = view.to_screen(p)
            if not view.shows(p) or (panel is not None and (sx, sy) in panel):
                out.append(f"{g.monster} at {p}: off the map's uncovered part" if g is met else "")
                continue
            if drawn_count(cells[sy, sx], glyph) != want.count(p):
                out.append(f"{g.monster} at {p}: {chr(int(cells[sy, sx]))!r} for {want.count(p)}")
            told = f"{want.count(p)} of them stand on this tile"
            if want.count(p) > 1 and not any(told in t for t, _ in describe_lines(session, p)):
                out.append(f"{g.monster} at {p}: look does not say {told!r}")
    return [o for o in out if o]


def play(ruleset: str, seed: int, actions: int) -> tuple[int, int, int]:
    """Play the careful bot's game, checking the map after each action; (turns checked, turns with a group met,
    turns with creatures sharing a tile)."""
    session = Session.new(content(), ruleset, seed)
    game = session.game
    bot = Bot(game, seed)
    met = shared = n = 0
    while n < actions and not game.over:
        n += 1
        action = bot.choose()
        events = session.act(action)
        if len(events) == 1 and events[0].type == "refused":
            bot.refused(action)
        for size in SIZES:
            wrong = shown_wrongly(session, size)
            assert wrong == [], f"{ruleset} seed {seed} turn {game.state.turn} at {size}: {wrong}"
        met += game.state.mode in (Mode.ENCOUNTER, Mode.COMBAT)
        shared += any(len(who) > 1 for _, who in session.view.creatures().values())
    session.close()
    return n, met, shared


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "seed"), GAMES)
def test_every_creature_the_panel_counts_is_on_the_map_every_turn(ruleset: str, seed: str) -> None:
    turns, met, shared = play(ruleset, parse_seed(seed), 700)
    assert turns > 100 and met > 10
    if ruleset == "citadel":  # (the undercroft's first floors now meet few crowds: the citadel's classic ones)
        assert shared > 0, "the case of creatures sharing a tile (a crowded corridor)"


def test_a_group_met_round_a_corner_is_drawn_whole() -> None:
    """The play-test's case (its citadel game "copper hinge" until the floor-1 crowds shrank; now citadel seed 31):
    on turn 18 (the bot's walk), three hobgoblins met at their rolled distance, none in the field of view; the
    panel says "3 x Hobgoblin" and the map shows three h's."""
    session = Session.new(content(), "citadel", 31)
    game = session.game
    bot = Bot(game, game.state.seed)
    while game.state.turn < 18:
        session.act(bot.choose())
    g = game.state.front_group()
    assert isinstance(g, Group) and game.state.mode == Mode.ENCOUNTER and len(g.alive) == 3
    vis = game.visible()
    assert not any(vis[y, x] for x, y in game.creature_tiles(g)), "the case: none of them in sight"
    for size in SIZES:
        assert shown_wrongly(session, size) == []
    console = drawn(session, (80, 24))
    assert "3 x Hobgoblin" in str(console)
    # the check can fail: one ghoul rubbed off the map is missed
    x, y = session.camera.last.to_screen(game.creature_tiles(g)[1])
    render.cells(console)["ch"][y, x] = ord(".")
    assert shown_wrongly(session, (80, 24), console) == [f"hobgoblin at {game.creature_tiles(g)[1]}: '.' for 1"]
    session.close()


def test_exploring_the_camera_keeps_a_creature_in_sight_on_the_screen() -> None:
    """Play test (lantern moth, turn 61, 80x24): "You stop: the Leech-Mother in sight, 60 ft away." while she was
    below the map's bottom edge; the map scrolled only two steps later. Exploring, the camera keeps the creatures
    in sight on the screen with the party (where both fit), as it keeps the group faced in a meeting."""
    game = make_game("undercroft", 1)
    session = Session(content(), game)
    driver = Driver(SceneStack(game_stack(session)), size=(80, 24))
    driver.screen()
    orc = (60, 14)  # in sight, 6 rows above the party (59, 20)
    assert session.view.visible()[orc[1], orc[0]]
    game.add_group("orc", 1, pos=orc)
    origin = session.camera.origin
    assert origin is not None
    session.camera.origin = (origin[0], origin[1] + 5)  # a camera left where the orc is a row above the map
    text = driver.screen()
    x, y = session.camera.last.to_screen(orc)
    px, py = session.camera.last.to_screen(game.state.pos)
    assert 0 < y < py and rows(text)[y][x] == "o" and rows(text)[py][px] == "@"
