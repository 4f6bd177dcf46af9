"""The mouse in the real terminal app: ``undercroft play --terminal`` under a pseudo-terminal (the helpers of
``test_term_pty``), sent xterm SGR mouse reports as a terminal with mouse reporting on would."""

from __future__ import annotations

import sys
from collections.abc import Callable

import pytest

pytest.importorskip("pyte")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")

if sys.platform != "win32":
    from test_term_pty import PtyGame, _in_game, _restored
    from test_term_pty import game as game  # the fixture: a game started in a pty, closed after the test

MOUSE_ON = b"\x1b[?1006h\x1b[?1003h"
MOUSE_OFF = b"\x1b[?1003l\x1b[?1006l"


def sgr(button: int, x: int, y: int, release: bool = False) -> bytes:
    """The SGR report of ``button`` at the 0-based cell (x, y)."""
    return f"\x1b[<{button};{x + 1};{y + 1}{'m' if release else 'M'}".encode()


def _mouse_off_at_exit(g: PtyGame) -> None:
    raw = bytes(g.raw)
    assert raw.rfind(MOUSE_OFF) > raw.rfind(MOUSE_ON) >= 0, "mouse reporting was left on"
    assert raw.rfind(MOUSE_OFF) < raw.rfind(b"\x1b[?1049l")


@pytest.mark.slow
def test_hover_and_click_in_a_terminal(game: Callable[..., PtyGame]) -> None:
    g = game("play", "--terminal", "--seed", "3", cols=100, rows=55)  # the level centred: 10 columns in
    _in_game(g)
    assert MOUSE_ON in bytes(g.raw)
    at = g.find("@", rows=55)
    assert at is not None
    lines = g.lines()
    target = next(((at[0] + dx, at[1]) for dx in (2, -2, 3, -3) if lines[at[1]][at[0] + dx] == "\u00b7"), None)
    assert target is not None, g.text()
    g.send(sgr(35, *target))  # a move: the top row of the console says what is there
    g.wait_for("the tile described", lambda: "Floor" in g.lines()[0])
    g.send(sgr(0, *target) + sgr(0, *target, release=True))  # a left click: travel there
    g.wait_for("the delver there", lambda: g.find("@", rows=55) == target)
    g.send(sgr(0, 3, 3) + sgr(0, 3, 3, release=True))  # beside the level, off the map: nothing
    g.pump(0.3)
    assert g.find("@", rows=55) == target
    g.send(b"\x1b")  # Esc pauses; t goes to the title
    g.wait_for("the pause menu", lambda: "Paused" in g.text())
    g.send(b"t")
    g.wait_for("the title screen", lambda: "[q] Quit" in g.text())
    g.send(b"q")
    assert g.wait_exit() == 0
    _restored(g)
    _mouse_off_at_exit(g)


@pytest.mark.slow
def test_ctrl_c_turns_the_mouse_off(game: Callable[..., PtyGame]) -> None:
    g = game("play", "--terminal", "--seed", "1")
    _in_game(g)
    g.send(b"\x03")
    assert g.wait_exit() == 130
    _restored(g)
    _mouse_off_at_exit(g)


@pytest.mark.slow
def test_no_mouse_when_asked(game: Callable[..., PtyGame]) -> None:
    g = game("play", "--terminal", "--seed", "1", env={"UNDERCROFT_NO_MOUSE": "1"})
    _in_game(g)
    g.send(b"\x1b")  # Esc pauses; t goes to the title
    g.wait_for("the pause menu", lambda: "Paused" in g.text())
    g.send(b"t")
    g.wait_for("the title screen", lambda: "[q] Quit" in g.text())
    g.send(b"q")
    assert g.wait_exit() == 0
    assert b"?1003" not in bytes(g.raw) and b"?1006" not in bytes(g.raw)


@pytest.mark.slow
def test_ctrl_z_turns_the_mouse_off_and_on_again(game: Callable[..., PtyGame]) -> None:
    """Ctrl-Z gives the terminal back with the mouse off; continued, the game turns it on again. (Here the game
    leads an orphaned process group, which the kernel does not stop: it is continued at once.)"""
    g = game("play", "--terminal", "--seed", "1")
    _in_game(g)
    start = len(g.raw)
    g.send(b"\x1a")
    g.wait_for("the mouse off and on again", lambda: MOUSE_ON in bytes(g.raw[start:]))
    after = bytes(g.raw[start:])
    assert 0 <= after.find(MOUSE_OFF) < after.find(b"\x1b[?1049l") < after.find(MOUSE_ON)
    g.send(b"\x03")
    assert g.wait_exit() == 130
    _restored(g)
    _mouse_off_at_exit(g)
