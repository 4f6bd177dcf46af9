"""Terminal keys and mouse: blessed decodes the bytes, keys.py turns them into the events the window sends
(KeyDown, TextInput; MouseMotion, MouseButtonDown/Up, MouseWheel in console tiles)."""

from __future__ import annotations

import io

import blessed
import pytest
from tcod.event import (
    Event,
    KeyDown,
    KeySym,
    Modifier,
    MouseButton,
    MouseButtonDown,
    MouseButtonMask,
    MouseButtonUp,
    MouseMotion,
    MouseWheel,
    TextInput,
)

from undercroft.term.keys import is_mouse, key_events, mouse_events


@pytest.fixture(scope="module")
def term() -> blessed.Terminal:
    return blessed.Terminal(kind="xterm-256color", force_styling=True)


def decode(term: blessed.Terminal, data: str) -> list[tuple[KeySym, Modifier]]:
    """Every KeyDown that the bytes ``data`` typed into the terminal produce."""
    term.ungetch(data)
    out: list[tuple[KeySym, Modifier]] = []
    while True:
        ks = term.inkey(timeout=0, esc_delay=0)
        if not ks:
            return out
        out.extend((e.sym, e.mod) for e in key_events(ks) if isinstance(e, KeyDown))


NONE = Modifier.NONE


@pytest.mark.parametrize(
    ("data", "sym"),
    [
        # Arrows, in normal and in application cursor mode.
        ("\x1b[A", KeySym.UP),
        ("\x1b[B", KeySym.DOWN),
        ("\x1b[C", KeySym.RIGHT),
        ("\x1b[D", KeySym.LEFT),
        ("\x1bOA", KeySym.UP),
        ("\x1bOD", KeySym.LEFT),
        # The numpad in keypad mode (application keypad), and its centre key.
        ("\x1bOx", KeySym.KP_8),
        ("\x1bOr", KeySym.KP_2),
        ("\x1bOt", KeySym.KP_4),
        ("\x1bOv", KeySym.KP_6),
        ("\x1bOw", KeySym.KP_7),
        ("\x1bOy", KeySym.KP_9),
        ("\x1bOq", KeySym.KP_1),
        ("\x1bOs", KeySym.KP_3),
        ("\x1bOu", KeySym.KP_5),
        ("\x1b[E", KeySym.KP_5),
        ("\x1bOE", KeySym.KP_5),
        # The numpad with NumLock off outside keypad mode: Home/PgUp/End/PgDn are the diagonals.
        ("\x1b[H", KeySym.HOME),
        ("\x1b[5~", KeySym.PAGEUP),
        ("\x1b[F", KeySym.END),
        ("\x1b[6~", KeySym.PAGEDOWN),
        # vi-keys and other plain keys.
        ("h", KeySym.H),
        ("j", KeySym.J),
        ("k", KeySym.K),
        ("l", KeySym.L),
        ("y", KeySym.Y),
        ("u", KeySym.U),
        ("b", KeySym.B),
        ("n", KeySym.N),
        ("\r", KeySym.RETURN),
        ("\n", KeySym.RETURN),
        ("\x1b", KeySym.ESCAPE),
        ("\x7f", KeySym.BACKSPACE),
        ("\t", KeySym.TAB),
        (" ", KeySym.SPACE),
        ("5", KeySym.N5),
        (".", KeySym.PERIOD),
        ("\x1bOP", KeySym.F1),
    ],
)
def test_plain_keys(term: blessed.Terminal, data: str, sym: KeySym) -> None:
    assert decode(term, data) == [(sym, NONE)]


@pytest.mark.parametrize(
    ("data", "sym", "mod"),
    [
        ("H", KeySym.H, Modifier.LSHIFT),
        ("?", KeySym.QUESTION, Modifier.LSHIFT),
        (">", KeySym.GREATER, Modifier.LSHIFT),
        ("\x1b[Z", KeySym.TAB, Modifier.LSHIFT),
        ("\x1b[1;2A", KeySym.UP, Modifier.LSHIFT),
        ("\x1b[1;5D", KeySym.LEFT, Modifier.LCTRL),
        ("\x01", KeySym.A, Modifier.LCTRL),
    ],
)
def test_modified_keys(term: blessed.Terminal, data: str, sym: KeySym, mod: Modifier) -> None:
    assert decode(term, data) == [(sym, mod)]


@pytest.mark.parametrize(
    ("data", "then"),
    [
        ("\x1bx", (KeySym.X, NONE)),
        ("\x1bT", (KeySym.T, Modifier.LSHIFT)),
        ("\x1b\r", (KeySym.RETURN, NONE)),
        ("\x1b\x1b", (KeySym.ESCAPE, NONE)),
    ],
)
def test_esc_then_a_quick_key_is_esc_and_the_key_never_alt(
    term: blessed.Terminal, data: str, then: tuple[KeySym, Modifier]
) -> None:
    """Esc pressed and a key right after it reach the terminal as one "Alt+key" sequence: it is read as the two
    keys pressed, so the Esc (the pause menu) is never lost and the key never becomes an Alt chord."""
    assert decode(term, data) == [(KeySym.ESCAPE, NONE), then]


def test_printable_keys_also_type_text(term: blessed.Terminal) -> None:
    term.ungetch("7?")
    events = [e for _ in range(2) for e in key_events(term.inkey(timeout=0))]
    assert [type(e) for e in events] == [KeyDown, TextInput, KeyDown, TextInput]
    assert [e.text for e in events if isinstance(e, TextInput)] == ["7", "?"]
    assert decode(term, "\x1b[A") == [(KeySym.UP, NONE)]  # a named key types nothing


def test_the_window_key_helpers_read_terminal_keys_the_same(term: blessed.Terminal) -> None:
    """The scenes read keys through undercroft.ui.keys: arrows, numpad and vi-keys give the same steps."""
    ui_keys = pytest.importorskip("undercroft.ui.keys")

    def steps(data: str) -> list[tuple[int, int] | None]:
        term.ungetch(data)
        out: list[tuple[int, int] | None] = []
        while ks := term.inkey(timeout=0, esc_delay=0):
            out.extend(ui_keys.direction(e) for e in key_events(ks) if isinstance(e, KeyDown))
        return out

    north, south, west, east = (0, -1), (0, 1), (-1, 0), (1, 0)
    assert steps("\x1b[A\x1b[B\x1b[D\x1b[C") == [north, south, west, east]
    assert steps("kjhl") == [north, south, west, east]
    assert steps("\x1bOx\x1bOr\x1bOt\x1bOv") == [north, south, west, east]
    assert steps("yubn") == [(-1, -1), (1, -1), (-1, 1), (1, 1)]
    assert steps("\x1bOw\x1bOy\x1bOq\x1bOs") == [(-1, -1), (1, -1), (-1, 1), (1, 1)]
    assert steps("\x1b[H\x1b[5~\x1b[F\x1b[6~") == [(-1, -1), (1, -1), (-1, 1), (1, 1)]
    # NumLock on: the numpad arrives as plain digits, which walk like the numpad (and "!" is no step).
    assert steps("8246") == [north, south, west, east]
    assert steps("7913") == [(-1, -1), (1, -1), (-1, 1), (1, 1)]
    assert steps("!") == [None]
    assert steps("HK\x1b[1;5A") == [None, None, None]  # Shift-h is not a step; nor Ctrl-Up
    term.ungetch("?")
    (ev, _) = key_events(term.inkey(timeout=0))
    assert isinstance(ev, KeyDown) and ui_keys.char(ev) == "?"


# --- the mouse ---------------------------------------------------------------------------------------------------


@pytest.fixture
def mouse_term() -> blessed.Terminal:
    """A terminal with mouse reporting on (as the terminal app sets it): blessed decodes the reports."""
    t = blessed.Terminal(kind="xterm-256color", force_styling=True, stream=io.StringIO())
    t._dec_mode_set_enabled(1006)
    t._dec_mode_set_enabled(1003)
    return t


def mouse(term: blessed.Terminal, data: str, origin: tuple[int, int] = (0, 0)) -> list[Event]:
    """Every event that the mouse reports ``data`` produce, the console drawn at ``origin``."""
    term.ungetch(data)
    out: list[Event] = []
    while ks := term.inkey(timeout=0, esc_delay=0):
        assert is_mouse(ks), ks.name
        out.extend(mouse_events(ks, origin))
    return out


def test_a_left_click_is_a_button_down_at_its_tile(mouse_term: blessed.Terminal) -> None:
    (down,) = mouse(mouse_term, "\x1b[<0;11;6M")  # column 11, row 6, counted from 1
    assert isinstance(down, MouseButtonDown)
    assert down.button == MouseButton.LEFT
    assert down.position == (10.0, 5.0) and down.integer_position == (10, 5)
    (up,) = mouse(mouse_term, "\x1b[<0;11;6m")
    assert isinstance(up, MouseButtonUp) and up.button == MouseButton.LEFT and up.position == (10, 5)
    (right,) = mouse(mouse_term, "\x1b[<2;1;1M")
    assert isinstance(right, MouseButtonDown) and right.button == MouseButton.RIGHT and right.position == (0, 0)
    (middle,) = mouse(mouse_term, "\x1b[<1;80;50M")
    assert isinstance(middle, MouseButtonDown) and middle.button == MouseButton.MIDDLE
    assert middle.position == (79, 49)
    (ctrl,) = mouse(mouse_term, "\x1b[<16;3;3M")  # Ctrl-click: still a left click
    assert isinstance(ctrl, MouseButtonDown) and ctrl.button == MouseButton.LEFT


def test_the_console_origin_is_taken_off(mouse_term: blessed.Terminal) -> None:
    (down,) = mouse(mouse_term, "\x1b[<0;21;9M", origin=(10, 3))
    assert isinstance(down, MouseButtonDown) and down.position == (10, 5)
    # Left of, above, right of and below the console: nothing.
    assert mouse(mouse_term, "\x1b[<0;10;9M\x1b[<0;21;3M\x1b[<0;91;9M\x1b[<0;21;54M", origin=(10, 3)) == []
    assert mouse(mouse_term, "\x1b[<35;91;9M\x1b[<64;21;54M", origin=(10, 3)) == []


def test_motion_and_drag_are_mouse_motion(mouse_term: blessed.Terminal) -> None:
    (move,) = mouse(mouse_term, "\x1b[<35;4;7M")
    assert isinstance(move, MouseMotion)
    assert move.position == (3, 6) and move.motion == (0, 0) and move.state == MouseButtonMask(0)
    (drag,) = mouse(mouse_term, "\x1b[<32;5;7M", origin=(1, 1))
    assert isinstance(drag, MouseMotion) and drag.position == (3, 5) and drag.state == MouseButtonMask.LEFT


def test_the_wheel(mouse_term: blessed.Terminal) -> None:
    up, down = mouse(mouse_term, "\x1b[<64;4;7M\x1b[<65;4;7M")
    assert isinstance(up, MouseWheel) and (up.x, up.y) == (0, 1) and up.position == (3, 6)
    assert isinstance(down, MouseWheel) and (down.x, down.y) == (0, -1)


def test_mouse_reports_are_not_keys(mouse_term: blessed.Terminal, term: blessed.Terminal) -> None:
    mouse_term.ungetch("\x1b[<0;11;6M")
    ks = mouse_term.inkey(timeout=0)
    assert is_mouse(ks) and key_events(ks) == []
    mouse_term.ungetch("x")
    ks = mouse_term.inkey(timeout=0)
    assert not is_mouse(ks) and mouse_events(ks) == []
    assert decode(term, "\x1b[A") == [(KeySym.UP, NONE)]
