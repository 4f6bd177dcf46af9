"""Terminal keys: blessed decodes the bytes, keys.py turns them into the KeyDown events the window sends."""

from __future__ import annotations

import blessed
import pytest
from tcod.event import KeyDown, KeySym, Modifier, TextInput

from undercroft.term.keys import key_events


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
        ("\x1b[A", KeySym.UP), ("\x1b[B", KeySym.DOWN), ("\x1b[C", KeySym.RIGHT), ("\x1b[D", KeySym.LEFT),
        ("\x1bOA", KeySym.UP), ("\x1bOD", KeySym.LEFT),
        # The numpad in keypad mode (application keypad), and its centre key.
        ("\x1bOx", KeySym.KP_8), ("\x1bOr", KeySym.KP_2), ("\x1bOt", KeySym.KP_4), ("\x1bOv", KeySym.KP_6),
        ("\x1bOw", KeySym.KP_7), ("\x1bOy", KeySym.KP_9), ("\x1bOq", KeySym.KP_1), ("\x1bOs", KeySym.KP_3),
        ("\x1bOu", KeySym.KP_5), ("\x1b[E", KeySym.KP_5), ("\x1bOE", KeySym.KP_5),
        # The numpad with NumLock off outside keypad mode: Home/PgUp/End/PgDn are the diagonals.
        ("\x1b[H", KeySym.HOME), ("\x1b[5~", KeySym.PAGEUP), ("\x1b[F", KeySym.END), ("\x1b[6~", KeySym.PAGEDOWN),
        # vi-keys and other plain keys.
        ("h", KeySym.H), ("j", KeySym.J), ("k", KeySym.K), ("l", KeySym.L),
        ("y", KeySym.Y), ("u", KeySym.U), ("b", KeySym.B), ("n", KeySym.N),
        ("\r", KeySym.RETURN), ("\n", KeySym.RETURN), ("\x1b", KeySym.ESCAPE), ("\x7f", KeySym.BACKSPACE),
        ("\t", KeySym.TAB), (" ", KeySym.SPACE), ("5", KeySym.N5), (".", KeySym.PERIOD), ("\x1bOP", KeySym.F1),
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
        ("\x1bx", KeySym.X, Modifier.LALT),
    ],
)
def test_modified_keys(term: blessed.Terminal, data: str, sym: KeySym, mod: Modifier) -> None:
    assert decode(term, data) == [(sym, mod)]


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
