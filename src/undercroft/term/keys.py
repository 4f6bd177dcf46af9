"""Turn blessed keystrokes into the tcod key events the window's scenes already understand.

blessed reads the terminal's input and decodes its escape sequences (arrows, the numpad in keypad mode, function
keys, xterm's modifier encoding) into a :class:`blessed.keyboard.Keystroke` with a name such as ``KEY_UP`` or
``KEY_KP_8``, or plain text such as ``"h"``. :func:`key_events` maps each one to the
:class:`tcod.event.KeyDown` an SDL window would have sent for the same key (the same ``KeySym``, ``Scancode`` and
``Modifier``), followed by a :class:`tcod.event.TextInput` for a printable character, as SDL does while text
input is on. So the scenes need not know which front end they run under.

What a terminal cannot tell apart it cannot report: with NumLock on, most terminals send a numpad digit as the
digit itself, and with NumLock off as the arrow or Home/End/PgUp/PgDn key; only in keypad mode (which the
terminal app turns on) do some send distinct numpad sequences (``KEY_KP_8``), and those become ``KeySym.KP_8``.

The mouse: while the terminal app has xterm mouse reporting on (any-motion tracking, SGR encoding), blessed decodes
each report into a keystroke named ``MOUSE_...`` (:func:`is_mouse`), and :func:`mouse_events` turns it into the
event the window would send, in the game console's tiles (the terminal cell less the console's ``origin``): a
:class:`tcod.event.MouseMotion` for a move (with or without a button held), a
:class:`tcod.event.MouseButtonDown` / :class:`tcod.event.MouseButtonUp` for a press / release of the left, middle,
right or back/forward button, a :class:`tcod.event.MouseWheel` (``y`` +1 up, -1 down; ``x`` for sideways
scrolling). A report outside the console is dropped, as is a legacy (non-SGR) release, which does not say which
button it was.
"""

from __future__ import annotations

from typing import Final

from blessed.keyboard import Keystroke
from blessed.mouse import MouseEvent
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
    Point,
    Scancode,
    TextInput,
)

# blessed key names (without modifier prefixes) -> the SDL key symbol.
_NAMED: Final[dict[str, KeySym]] = {
    "KEY_UP": KeySym.UP,
    "KEY_DOWN": KeySym.DOWN,
    "KEY_LEFT": KeySym.LEFT,
    "KEY_RIGHT": KeySym.RIGHT,
    "KEY_HOME": KeySym.HOME,
    "KEY_END": KeySym.END,
    "KEY_PGUP": KeySym.PAGEUP,
    "KEY_PGDOWN": KeySym.PAGEDOWN,
    "KEY_INSERT": KeySym.INSERT,
    "KEY_DELETE": KeySym.DELETE,
    "KEY_ENTER": KeySym.RETURN,
    "KEY_ESCAPE": KeySym.ESCAPE,
    "KEY_BACKSPACE": KeySym.BACKSPACE,
    "KEY_TAB": KeySym.TAB,
    "KEY_BTAB": KeySym.TAB,  # sent with SHIFT, see _IMPLIED_MOD
    # The numpad in keypad (application) mode.
    "KEY_KP_0": KeySym.KP_0,
    "KEY_KP_1": KeySym.KP_1,
    "KEY_KP_2": KeySym.KP_2,
    "KEY_KP_3": KeySym.KP_3,
    "KEY_KP_4": KeySym.KP_4,
    "KEY_KP_5": KeySym.KP_5,
    "KEY_KP_6": KeySym.KP_6,
    "KEY_KP_7": KeySym.KP_7,
    "KEY_KP_8": KeySym.KP_8,
    "KEY_KP_9": KeySym.KP_9,
    "KEY_KP_ENTER": KeySym.KP_ENTER,
    "KEY_KP_ADD": KeySym.KP_PLUS,
    "KEY_KP_SUBTRACT": KeySym.KP_MINUS,
    "KEY_KP_MULTIPLY": KeySym.KP_MULTIPLY,
    "KEY_KP_DIVIDE": KeySym.KP_DIVIDE,
    "KEY_KP_DECIMAL": KeySym.KP_PERIOD,
    "KEY_KP_EQUAL": KeySym.KP_EQUALS,
    "KEY_KP_SEPARATOR": KeySym.KP_COMMA,
    # The numpad's keys by their NumLock-off meaning, as terminals with the kitty keyboard protocol name them.
    "KEY_KP_HOME": KeySym.KP_7,
    "KEY_KP_UP": KeySym.KP_8,
    "KEY_KP_PAGE_UP": KeySym.KP_9,
    "KEY_KP_LEFT": KeySym.KP_4,
    "KEY_KP_BEGIN": KeySym.KP_5,
    "KEY_KP_RIGHT": KeySym.KP_6,
    "KEY_KP_END": KeySym.KP_1,
    "KEY_KP_DOWN": KeySym.KP_2,
    "KEY_KP_PAGE_DOWN": KeySym.KP_3,
    "KEY_KP_INSERT": KeySym.KP_0,
    "KEY_KP_DELETE": KeySym.KP_PERIOD,
    # The numpad's middle key with NumLock off: "begin" (ESC O E) or "center" (ESC [ E); nothing else sends it.
    "KEY_BEGIN": KeySym.KP_5,
    "KEY_CENTER": KeySym.KP_5,
    **{f"KEY_F{n}": KeySym[f"F{n}"] for n in range(1, 13)},
}

_IMPLIED_MOD: Final[dict[str, Modifier]] = {"KEY_BTAB": Modifier.LSHIFT}

# Keys whose plain form is a single control character, which blessed reports with a Ctrl modifier.
_CONTROL_CHAR_KEYS: Final = frozenset({"KEY_ENTER", "KEY_TAB", "KEY_BACKSPACE", "KEY_ESCAPE"})

# The control characters a key sends (Enter, Esc, Tab, Backspace), as the second of two read as Alt+key.
_CONTROL_AFTER_ESC: Final = {
    "\r": KeySym.RETURN,
    "\n": KeySym.RETURN,
    "\x1b": KeySym.ESCAPE,
    "\t": KeySym.TAB,
    "\x7f": KeySym.BACKSPACE,
    "\x08": KeySym.BACKSPACE,
}

# Characters typed with Shift on a US layout -> the unshifted character of the same key. Their KeyDown carries
# SHIFT and that key's scancode, as the window's would.
_SHIFTED: Final = dict(zip('~!@#$%^&*()_+{}|:"<>?', "`1234567890-=[]\\;',./", strict=True))

# blessed's modifier bits (xterm's encoding, less one) -> SDL modifiers (the left-hand key).
_MOD_BITS: Final = ((1, Modifier.LSHIFT), (2, Modifier.LALT), (4, Modifier.LCTRL), (8, Modifier.LGUI))
_MOD_PREFIXES: Final = ("SHIFT_", "ALT_", "CTRL_", "SUPER_", "META_", "HYPER_")


def _modifiers(bits: int) -> Modifier:
    mod = Modifier.NONE
    for bit, flag in _MOD_BITS:
        if bits & bit:
            mod |= flag
    return mod


def _base_name(name: str) -> str:
    """``KEY_CTRL_SHIFT_UP`` -> ``KEY_UP``: the key itself, its modifiers stripped (they come from the bits)."""
    rest = name[4:]
    stripped = True
    while stripped:
        stripped = False
        for prefix in _MOD_PREFIXES:
            if rest.startswith(prefix) and rest != prefix.rstrip("_"):
                rest = rest[len(prefix) :]
                stripped = True
    return "KEY_" + rest


def _scancode(sym: KeySym) -> Scancode:
    """The US-layout physical key of ``sym`` (the scancode SDL would report), or UNKNOWN."""
    try:
        return Scancode[sym.name]
    except KeyError:
        return Scancode.UNKNOWN


def _char_key(ch: str) -> tuple[KeySym, Modifier, Scancode]:
    """The key symbol of a typed character, the Shift it took and its physical key (US layout)."""
    if ch == " ":
        return KeySym.SPACE, Modifier.NONE, Scancode.SPACE
    if "A" <= ch <= "Z":
        sym = KeySym(ord(ch.lower()))
        return sym, Modifier.LSHIFT, _scancode(sym)
    if ch in _SHIFTED:
        return KeySym(ord(ch)), Modifier.LSHIFT, _scancode(KeySym(ord(_SHIFTED[ch])))
    if " " < ch < "\x7f":
        sym = KeySym(ord(ch))
        return sym, Modifier.NONE, _scancode(sym)
    return KeySym.UNKNOWN, Modifier.NONE, Scancode.UNKNOWN


def key_down(sym: KeySym, mod: Modifier = Modifier.NONE, scancode: Scancode | None = None) -> KeyDown:
    """A synthetic key press, as SDL would deliver it (``pressed`` true)."""
    return KeyDown(sym=sym, scancode=_scancode(sym) if scancode is None else scancode, mod=mod, pressed=True)


def key_events(ks: Keystroke, text: bool = True) -> list[Event]:
    """The tcod events for one blessed keystroke: a KeyDown, plus a TextInput for printable text when ``text``
    (the window sends those only while a scene wants text: ``Scene.wants_text``). [] if unknown."""
    typed = str(ks)
    if not typed:  # a timeout
        return []
    if len(typed) == 2 and typed[0] == "\x1b" and typed[1] != "[":
        # Esc and a key typed quickly after it, which blessed reads as Alt+key (a meta key sends Esc first): the
        # game binds no Alt+key a terminal can act on, so it is Esc, then the key (a lone Esc is never lost).
        second = _CONTROL_AFTER_ESC.get(typed[1])
        return [key_down(KeySym.ESCAPE), *([key_down(second)] if second else key_events(Keystroke(typed[1]), text))]
    name = ks.name
    bits = ks.modifiers_bits
    if name is not None and name.startswith("KEY_"):
        base = _base_name(name)
        if base in _CONTROL_CHAR_KEYS and len(typed) == 1:
            bits &= ~4  # Enter, Tab, Backspace, Escape are control characters, not Ctrl-something
        sym = _NAMED.get(base)
        if sym is not None:
            return [key_down(sym, _modifiers(bits) | _IMPLIED_MOD.get(base, Modifier.NONE))]
        value = ks.value
        if len(value) == 1 and (bits & ~1) and value.isprintable():  # Ctrl-x, Alt-x, Ctrl-Alt-x
            csym, cmod, scan = _char_key(value)
            if csym != KeySym.UNKNOWN:
                return [key_down(csym, cmod | _modifiers(bits), scan)]
        return []
    if ks.is_sequence:
        return []  # an escape sequence blessed could not name
    events: list[Event] = []
    for ch in typed:
        if not ch.isprintable():
            continue
        csym, cmod, scan = _char_key(ch)
        events.append(key_down(csym, cmod, scan))
        if text:
            events.append(TextInput(text=ch))
    return events


# The default console that mouse positions are reported in (the front end passes the real size; not imported from the
# layout, to keep this module free of the renderer).
CONSOLE_W: Final = 80
CONSOLE_H: Final = 50

# xterm's button numbers (modifier and motion bits stripped) -> tcod's buttons, and the buttons held in a drag.
_BUTTONS: Final[dict[int, MouseButton]] = {
    0: MouseButton.LEFT,
    1: MouseButton.MIDDLE,
    2: MouseButton.RIGHT,
    128: MouseButton.X1,  # button 8: back
    129: MouseButton.X2,  # button 9: forward
}
_HELD: Final[dict[int, MouseButtonMask]] = {
    0: MouseButtonMask.LEFT,
    1: MouseButtonMask.MIDDLE,
    2: MouseButtonMask.RIGHT,
    128: MouseButtonMask.X1,
    129: MouseButtonMask.X2,
}
# Wheel buttons 4-7 -> (x, y) of a MouseWheel: up, down, left, right.
_WHEEL: Final[dict[int, tuple[int, int]]] = {64: (0, 1), 65: (0, -1), 66: (-1, 0), 67: (1, 0)}


def is_mouse(ks: Keystroke) -> bool:
    """Whether ``ks`` is a mouse report blessed decoded (named ``MOUSE_LEFT``, ``MOUSE_MOTION`` ...)."""
    name = ks.name
    return name is not None and name.startswith("MOUSE_")


def _mouse_event(ks: Keystroke) -> MouseEvent | None:
    """The decoded report behind a mouse keystroke (blessed offers it only as ``_mode_values``)."""
    value = ks._mode_values  # blessed has no public accessor for the whole report
    return value if isinstance(value, MouseEvent) else None


def mouse_events(
    ks: Keystroke, origin: tuple[int, int] = (0, 0), size: tuple[int, int] = (CONSOLE_W, CONSOLE_H)
) -> list[Event]:
    """The tcod events for one blessed mouse keystroke, at the console tile under the pointer: the terminal cell
    less ``origin`` (where the console's top-left corner is drawn). [] for a report outside the ``size`` console,
    or one that is not a mouse report."""
    report = _mouse_event(ks) if is_mouse(ks) else None
    if report is None:
        return []
    x, y = report.x - origin[0], report.y - origin[1]
    if not (0 <= x < size[0] and 0 <= y < size[1]):
        return []
    position = Point(float(x), float(y))
    tile = Point(x, y)
    b = report.button_value
    if b in _WHEEL:
        if report.released:
            return []
        dx, dy = _WHEEL[b]
        return [MouseWheel(x=dx, y=dy, flipped=False, position=position)]
    if report.is_motion:
        return [
            MouseMotion(
                position=position,
                motion=Point(0.0, 0.0),
                tile=tile,
                tile_motion=Point(0, 0),
                state=_HELD.get(b, MouseButtonMask(0)),
            )
        ]
    button = _BUTTONS.get(b)
    if button is None:  # a legacy release (which button?) or an unknown extra button
        return []
    cls = MouseButtonUp if report.released else MouseButtonDown
    return [cls(position=position, tile=tile, button=button)]
