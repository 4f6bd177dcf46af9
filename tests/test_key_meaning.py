"""Plain `l` walks east while exploring and never opens the log in the panels, where
an accident would cost a turn's attention; the log is `L` on every screen."""

from __future__ import annotations

from engine_helpers import content, make_game, walk_into
from tcod.event import KeySym, Modifier
from ui_helpers import Driver, names, press, screen

from undercroft.rules.actions import Descend
from undercroft.rules.dice import ScriptedDice
from undercroft.ui.scenes import SceneStack, game_stack
from undercroft.ui.session import Session


def facing_a_monster() -> tuple[Driver, Session]:
    game = make_game("undercroft", 1, dice=ScriptedDice())
    walk_into(game, "room", visited=False)
    st = game.state
    g = game.add_group("orc", 1, pos=(st.pos[0], st.pos[1]))
    game.start_encounter(g, meeting=False)
    session = Session(content(), game)
    return Driver(SceneStack(game_stack(session))), session


def test_plain_l_does_not_open_the_log_in_an_encounter_and_shift_l_does() -> None:
    driver, session = facing_a_monster()
    turn = session.game.state.turn
    press(driver, KeySym.L)
    assert "LogScene" not in names(driver) and session.game.state.turn == turn
    press(driver, KeySym.L, mod=Modifier.LSHIFT)
    assert names(driver)[-1] == "LogScene"


def test_plain_l_walks_east_while_exploring() -> None:
    game = make_game("undercroft", 1)
    session = Session(content(), game)
    driver = Driver(SceneStack(game_stack(session)))
    x, y = game.state.pos
    east_open = game.state.level.map.tiles[y, x + 1] != 0
    press(driver, KeySym.L)
    assert "LogScene" not in names(driver)
    assert game.state.pos == ((x + 1, y) if east_open else (x, y))


def test_on_the_way_out_the_encounter_panel_offers_the_stairs_and_takes_them() -> None:
    """On the final level's exit with a guardian's panel open, `>` did nothing and said nothing, though
    the engine allowed it."""
    from test_engine_final import final_level

    from undercroft.rules.types import Mode

    game = final_level("undercroft")
    st = game.state
    m = st.level.map
    st.pos = st.prev_pos = m.stairs
    st.segment = int(m.segment_of[m.stairs[1], m.stairs[0]])
    g = game.add_group(
        "the_patient_one",
        1,
        pos=next(
            (m.stairs[0] + dx, m.stairs[1] + dy)
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if m.tiles[m.stairs[1] + dy, m.stairs[0] + dx] == 1
        ),
    )
    game.start_encounter(g, meeting=False)  # it holds its ground: it lets the party go
    assert game.legal(Descend())
    session = Session(content(), game)
    driver = Driver(SceneStack(game_stack(session)))
    assert "[>] Leave: out, and win" in screen(driver)
    press(driver, KeySym.PERIOD, mod=Modifier.LSHIFT)
    assert game.state.mode == Mode.WON
