"""Screens from 80x24 up. The layout of each size, the camera that follows the party
(scrolling only near the edges), the party and the creatures it faces never under a panel (checked on every
screen of autoplayed games at 80x24 and 80x50), a resize laid out at once, and a larger screen showing more."""

from __future__ import annotations

import itertools
import re

import pytest
import tcod.console
from engine_helpers import content
from test_ui_encounter_map import in_a_new_room, meet_at
from ui_helpers import Driver, rows, screen

from undercroft.bot import Bot
from undercroft.rules.game import Game
from undercroft.rules.types import Mode
from undercroft.tools.autoplay import game_seed
from undercroft.ui.layout import MAP_MIN, MIN_H, MIN_W, PANEL_W, Camera, Layout, Rect, panel_on_right
from undercroft.ui.scenes import SceneStack, game_stack
from undercroft.ui.session import Session


def test_the_layout_of_each_size() -> None:
    small = Layout.of(80, 24)
    assert (small.map_h, small.status_y, small.log_y, small.log_rows) == (20, 20, 21, 3) and not small.tall
    classic = Layout.of(80, 50)
    assert (classic.map_h, classic.status_y, classic.log_y, classic.log_rows) == (44, 44, 45, 5) and classic.tall
    big = Layout.of(200, 60)
    assert (big.map_h, big.log_rows) == (44, 15)  # the title's row and the whole level, and the rest is log
    assert Layout.of(60, 20) == Layout.of(MIN_W, MIN_H)  # never laid out smaller (the front ends say "too small")


def test_panels_stand_over_the_map_when_tall_and_take_a_side_when_short() -> None:
    assert Layout.of(80, 50).panel(right=True) == Rect(41, 1, PANEL_W, 42)
    assert Layout.of(80, 50).text_columns(Layout.of(80, 50).panel(True)) == (0, 80)
    short = Layout.of(80, 24)
    right, left = short.panel(right=True), short.panel(right=False)
    assert right == Rect(42, 0, PANEL_W, 24) and left == Rect(0, 0, PANEL_W, 24)
    assert short.text_columns(right) == (0, 42) and short.text_columns(left) == (38, 80)
    assert short.clear(right) == (0, 42) and short.clear(left) == (38, 80)


def test_a_wider_screen_widens_the_panels_and_keeps_the_map_beside_them() -> None:
    """At 80 columns a panel is PANEL_W; wider, it takes what the map does not need (to PANEL_MAX), so its lines
    wrap less: at 120x40 the fight's odds stand on one row, with the party and the orcs on the map beside it."""
    assert [Layout.of(w, 40).panel(True).w for w in (80, 96, 110, 120, 123, 200)] == [PANEL_W, 38, 52, 62, 64, 64]
    for w, h in ((100, 30), (120, 40), (123, 44), (200, 60)):
        layout = Layout.of(w, h)
        for right in (True, False):
            x0, x1 = layout.clear(layout.panel(right))
            assert x1 - x0 >= min(w - PANEL_W - 2, MAP_MIN - 1), (w, h, right)  # (a column of margin)
    game = in_a_new_room()
    _, driver, _ = meet_at(game, "orc", 3, (2, 2))
    text = screen(Driver(driver.stack, size=(120, 40)))
    fight = next(row for row in text.splitlines() if "If you fight on:" in row)
    assert re.search(r"If you fight on: win \d+%, death \d+%, HP lost [\d.]+ \(exact\) +│", fight), fight
    assert "@" in text


def test_the_camera_scrolls_only_near_the_edges() -> None:
    layout = Layout.of(80, 24)  # 19 rows of a 43-row level, below the title's row
    cam = Camera()
    origins = []
    for y in range(2, 41):
        view = cam.view(layout, (80, 43), (40, y), level=0)
        sy = view.to_screen((40, y))[1]
        assert view.top == 1 <= sy < view.h  # always on screen, never on the title's row
        first = view.oy  # the level's row on the map's first row
        assert first in (0, 43 - 19) or 19 // 4 <= sy - 1 < 19 - 19 // 4  # away from the edges, but at the level's
        origins.append(view.oy)
    changes = sum(a != b for a, b in itertools.pairwise(origins))
    assert 0 < changes <= 6, origins  # a few jumps, not a scroll every step
    assert cam.view(layout, (80, 43), (40, 3), level=1).oy == 0  # a new level: placed afresh


def test_a_level_narrower_than_the_screen_is_centred() -> None:
    view = Camera().view(Layout.of(200, 60), (80, 43), (10, 10))
    assert view.sx == 2  # a wide screen: a tile two columns wide
    assert (view.ox, view.oy) == (-10, 0)  # 10 tiles either side, the whole level below the title
    view = Camera().view(Layout.of(100, 60), (80, 43), (10, 10))
    assert view.sx == 1 and (view.ox, view.oy) == (-10, 0)


def test_on_a_wide_screen_the_map_fills_it() -> None:
    """At 120x40 the level's 80 columns sat in the middle of black; from 110 columns a tile is two
    columns wide (about square), the view 60 tiles wide, following the party."""
    layout = Layout.of(120, 40)
    assert layout.sx == 2 and Layout.of(110, 40).sx == 2 and Layout.of(109, 40).sx == 1 and Layout.of(80, 24).sx == 1
    view = Camera().view(layout, (80, 43), (70, 20))
    assert view.to_screen((70, 20))[0] % 2 == 0 and view.shows((70, 20))
    x, y = view.to_screen((70, 20))
    assert view.to_map((x, y)) == view.to_map((x + 1, y)) == (70, 20)  # both columns are the tile's
    assert view.ox == 80 - 60  # the level's right edge at the screen's: no black beside it


def party_and_faced_clear(session: Session, size: tuple[int, int]) -> None:
    """On the screen drawn last: the party's glyph where the camera puts it, off every panel; the creatures it
    faces (in sight) off the panel too, when the clear part of the map is wide enough for them and the party."""
    game = session.game
    st = game.state
    view = session.camera.last
    layout = Layout.of(*size)
    panel = None
    if st.mode in (Mode.ENCOUNTER, Mode.COMBAT, Mode.CHASE, Mode.DEAD, Mode.WON):  # the end screen's too
        panel = layout.panel(panel_on_right(st.pos[0], st.level.map.width))
    sx, sy = view.to_screen(st.pos)
    assert view.top <= sy < layout.map_h and 0 <= sx < layout.width
    assert panel is None or (sx, sy) not in panel
    g = st.front_group()
    if panel is None or g is None:
        return
    vis = game.visible()
    tiles = game.creature_tiles(g)
    faced = [tiles[i] for i in g.alive if vis[tiles[i][1], tiles[i][0]]]
    xs = [p[0] for p in (st.pos, *faced)]
    ys = [p[1] for p in (st.pos, *faced)]
    c0, c1 = layout.clear(panel)
    if max(xs) - min(xs) < c1 - c0 and max(ys) - min(ys) < layout.map_h - 1:
        for p in faced:
            q = view.to_screen(p)
            assert q not in panel and view.top <= q[1] < layout.map_h, (p, q, panel)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["undercroft", "crawler", "citadel", "warden"])
def test_panels_never_hide_the_party_or_what_it_faces(ruleset: str) -> None:
    checked = 0
    for i in range(2):
        seed = game_seed(1414, i)
        game = Game(content(), ruleset, seed)
        bot = Bot(game, seed)
        session = Session(content(), game)
        for _ in range(300):
            if game.over:
                for size in ((80, 24), (80, 50)):  # the end screen: the party (and its killer) beside its panel
                    console = tcod.console.Console(*size, order="F")
                    SceneStack(game_stack(session)).draw(console)
                    party_and_faced_clear(session, size)
                break
            action = bot.choose()
            events = session.act(action)
            if len(events) == 1 and events[0].type == "refused":
                bot.refused(action)
            for size in ((80, 24), (80, 50)):
                console = tcod.console.Console(*size, order="F")
                SceneStack(game_stack(session)).draw(console)
                party_and_faced_clear(session, size)
            checked += game.mode != Mode.EXPLORE
    assert checked > 5


def test_a_resize_lays_the_screen_out_at_once() -> None:
    session = Session(content(), Game(content(), "undercroft", 3))
    for n in range(12):
        session.log.add(f"Message {n}.")
    driver = Driver(SceneStack(game_stack(session)), size=(80, 50))
    assert "HP 12/12" in rows(screen(driver))[44]
    driver.frontend.columns, driver.frontend.rows = 80, 24
    text = rows(screen(driver))
    assert len(text) == 24 and "HP 12/12" in text[20] and "Message 11." in text[23]
    driver.frontend.columns, driver.frontend.rows = 200, 60
    text = rows(screen(driver))
    assert len(text) == 60 and len(text[0]) == 200 and "HP 12/12" in text[44]
    assert sum("Message" in line for line in text[45:]) == 12  # a taller screen: more of the log


def test_a_path_breaks_after_a_slash_never_inside_a_name() -> None:
    from undercroft.ui import render

    path = "/home/someone/.local/share/undercroft/morgue/morgue-undercroft-12345-turn678.txt"
    rows = render.wrap_path(path, 40)
    assert "".join(rows) == path and all(len(r) <= 40 for r in rows) and len(rows) > 1
    assert all(r.endswith(("/", "-")) for r in rows[:-1])
    assert render.wrap_path("a" * 50, 20) == ["a" * 20, "a" * 20, "a" * 10]


def test_what_has_been_seen_is_shown_whole_beside_a_panel_where_it_fits() -> None:
    """A room seen whole is not cut at a panel's edge while columns are left empty on the other side (played in
    the window: a room's east wall under the encounter panel, a third of the map black on the left): where the
    tiles seen so far fit in the columns the panel leaves, the camera shows them all, the party and what it faces
    still in view; where they do not fit, it follows the party as before."""
    layout = Layout.of(120, 40)  # tiles two columns wide
    panel = layout.panel(True)
    x0, x1 = layout.clear(panel)
    span = (x1 - x0) // layout.sx
    known = (20, 5, 20 + span - 4, 30)  # the level seen so far: a little narrower than the columns left
    party = (known[2] - 1, 20)  # at its east end, facing a creature beside it
    plain = Camera().view(layout, (80, 43), party, panel=panel, keep=((known[2], 20),))
    assert not x0 <= plain.to_screen((known[0], 20))[0] < x1  # (without the tiles seen: the west end cut)
    view = Camera().view(layout, (80, 43), party, panel=panel, keep=((known[2], 20),), known=known)
    for x in (known[0], known[2], party[0]):
        assert x0 <= view.to_screen((x, 20))[0] < x1, x  # the whole span seen, the party and the creature
    wide = (2, 5, 2 + span + 10, 30)  # seen wider than the columns left: the party is followed as before
    assert Camera().view(layout, (80, 43), party, panel=panel, keep=((known[2], 20),), known=wide).ox == plain.ox
