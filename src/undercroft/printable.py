"""Text made safe to print on a terminal: :func:`printable`.

This module is a leaf: it imports nothing from ``undercroft``, so the data layer (a data error's excerpt), the
recordings (their fields, crash messages and file names) and the command line (``--help`` loads nothing heavy) all
escape text the same way without importing each other.
"""

from __future__ import annotations

import unicodedata

__all__ = ["printable"]

_ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})  # controls, format (bidi), surrogates, separators


def printable(text: object) -> str:
    """``text`` made safe to print on a terminal, on one line: every control character (C0, DEL, C1: ESC, CR, LF,
    TAB, ... as ``\\xNN``) and every invisible format or line-separator character (bidi overrides, U+2028, ... as
    ``\\uNNNN``) is written as its escape; everything else, backslashes included, is kept as it is.

    Every text that comes from a file (a data error's excerpt, a recording's fields and crash message, a file name)
    goes through this before it is printed, so a crafted file cannot move the cursor, clear the screen or set the
    terminal's title."""
    s = str(text)
    if s.isprintable():  # the common case, fast: nothing to escape (isprintable() is False for all of the above)
        return s
    out = []
    for ch in s:
        o = ord(ch)
        if o < 0x20 or 0x7F <= o < 0xA0:
            out.append(f"\\x{o:02x}")
        elif unicodedata.category(ch) in _ESCAPED_CATEGORIES:
            out.append(f"\\u{o:04x}" if o <= 0xFFFF else f"\\U{o:08x}")
        else:
            out.append(ch)
    return "".join(out)
