"""Keys: tcod key events to directions and characters, independent of how SDL reports shifted keys."""

from __future__ import annotations

import tcod.event
from tcod.event import KeySym, Modifier

K = KeySym

# Eight directions: arrows, numpad (with or without num lock) and vi-keys.
DIRECTIONS: dict[KeySym, tuple[int, int]] = {
    K.UP: (0, -1),
    K.DOWN: (0, 1),
    K.LEFT: (-1, 0),
    K.RIGHT: (1, 0),
    K.HOME: (-1, -1),
    K.PAGEUP: (1, -1),
    K.END: (-1, 1),
    K.PAGEDOWN: (1, 1),
    K.KP_8: (0, -1),
    K.KP_2: (0, 1),
    K.KP_4: (-1, 0),
    K.KP_6: (1, 0),
    K.KP_7: (-1, -1),
    K.KP_9: (1, -1),
    K.KP_1: (-1, 1),
    K.KP_3: (1, 1),
}
# The digit row as a numpad: what a terminal sends for the numpad with NumLock on (and a phone-pad habit).
DIGITS: dict[KeySym, tuple[int, int]] = {
    K.N8: (0, -1),
    K.N2: (0, 1),
    K.N4: (-1, 0),
    K.N6: (1, 0),
    K.N7: (-1, -1),
    K.N9: (1, -1),
    K.N1: (-1, 1),
    K.N3: (1, 1),
}
VI_KEYS: dict[str, tuple[int, int]] = {
    "k": (0, -1),
    "j": (0, 1),
    "h": (-1, 0),
    "l": (1, 0),
    "y": (-1, -1),
    "u": (1, -1),
    "b": (-1, 1),
    "n": (1, 1),
}

# Shifted punctuation: SDL may report the unshifted key with SHIFT, or the character itself.
_SHIFTED: dict[KeySym, str] = {
    K.SLASH: "?",
    K.PERIOD: ">",
    K.COMMA: "<",
    K.EQUALS: "+",
    K.N1: "!",
    K.N2: "@",
    K.N3: "#",
    K.N4: "$",
    K.N8: "*",
    K.SEMICOLON: ":",
    K.MINUS: "_",
}
_PLAIN: dict[KeySym, str] = {
    K.QUESTION: "?",
    K.GREATER: ">",
    K.LESS: "<",
    K.PLUS: "+",
    K.KP_PLUS: "+",
    K.MINUS: "-",
    K.KP_MINUS: "-",
    K.PERIOD: ".",
    K.COMMA: ",",
    K.SLASH: "/",
    K.SPACE: " ",
    K.EXCLAIM: "!",
    K.KP_PERIOD: ".",
    K.EQUALS: "=",
    K.SEMICOLON: ";",
    K.COLON: ":",
    K.DOLLAR: "$",
    K.KP_5: ".",
}


def key(sym: KeySym, mod: Modifier = Modifier.NONE) -> tcod.event.KeyDown:
    """A synthetic key press (tests, screenshots, replays of input)."""
    return tcod.event.KeyDown(scancode=tcod.event.Scancode.UNKNOWN, sym=sym, mod=mod)


def shifted(event: tcod.event.KeyDown) -> bool:
    return bool(event.mod & Modifier.SHIFT)


def char(event: tcod.event.KeyDown) -> str | None:
    """The character a key press types, as the game understands it ('h', 'H', '?', '>', '3'), or None."""
    sym = event.sym
    shift = shifted(event)
    if K.A <= sym <= K.Z:
        c = chr(int(sym))
        return c.upper() if shift else c
    if shift and sym in _SHIFTED:
        return _SHIFTED[sym]
    if K.N0 <= sym <= K.N9:
        return chr(int(sym))
    if sym in _PLAIN:
        return _PLAIN[sym]
    return None


def digit(event: tcod.event.KeyDown) -> int | None:
    """0-9 from the number row or the numpad (numpad digits also move: callers decide)."""
    if K.N0 <= event.sym <= K.N9 and not shifted(event):
        return int(event.sym) - int(K.N0)
    return None


def direction(event: tcod.event.KeyDown, *, vi: bool = True) -> tuple[int, int] | None:
    """A step (dx, dy) for arrows, numpad, the digit row laid out as a numpad, and (``vi``) vi-keys (lower case
    only), or None."""
    if event.mod & (Modifier.CTRL | Modifier.ALT | Modifier.GUI):
        return None
    d = DIRECTIONS.get(event.sym)
    if d is not None:
        return d
    if not event.mod & Modifier.SHIFT and event.sym in DIGITS:
        return DIGITS[event.sym]
    c = char(event) if vi else None
    return VI_KEYS.get(c) if c is not None else None


def is_confirm(event: tcod.event.KeyDown) -> bool:
    return event.sym in (K.RETURN, K.KP_ENTER) and not event.mod & Modifier.ALT


def is_cancel(event: tcod.event.KeyDown) -> bool:
    return event.sym == K.ESCAPE


def is_fullscreen_toggle(event: tcod.event.Event) -> bool:
    """Alt+Enter."""
    return (
        isinstance(event, tcod.event.KeyDown) and event.sym in (K.RETURN, K.KP_ENTER) and bool(event.mod & Modifier.ALT)
    )
