"""The key tables of docs/PLAYING.md, made from the keymap (:mod:`undercroft.ui.keymap`).

Each table stands between ``<!-- keys:MODE -->`` and ``<!-- /keys -->`` (MODE a keymap mode, or ``common`` for the
keys every game screen shares)::

    python -m undercroft.ui.keytable            # print every table
    python -m undercroft.ui.keytable --check    # exit 1 if docs/PLAYING.md is out of date
    python -m undercroft.ui.keytable --write    # rewrite the tables in docs/PLAYING.md
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from undercroft.ui import keymap

PLAYING = Path(__file__).resolve().parents[3] / "docs" / "PLAYING.md"
_BLOCK = re.compile(r"(<!-- keys:(?P<mode>[a-z]+) -->\n)(?P<body>.*?)(<!-- /keys -->)", re.S)


def update(text: str) -> str:
    """``text`` with every key table made anew from the keymap (an unknown mode is a ValueError)."""

    def table(m: re.Match[str]) -> str:
        mode = m.group("mode")
        if mode != "common" and mode not in keymap.BY_NAME:
            raise ValueError(f"PLAYING.md names an unknown key mode: {mode}")
        return f"{m.group(1)}{keymap.markdown_table(mode)}\n{m.group(4)}"

    return _BLOCK.sub(table, text)


def modes_in(text: str) -> list[str]:
    return [m.group("mode") for m in _BLOCK.finditer(text)]


def regenerate(
    argv: Sequence[str] | None, prog: str, what: str, update: Callable[[str], str], show: Callable[[], None]
) -> int:
    """The command line of a generator of PLAYING.md's sections (``what``, made anew by ``update``): ``--check``
    (exit 1 when out of date), ``--write``, or else print them (``show``). :mod:`undercroft.ui.floortable` too."""
    ap = argparse.ArgumentParser(prog=f"python -m {prog}", description=f"PLAYING.md's {what}, generated")
    ap.add_argument("--check", action="store_true", help="exit 1 if docs/PLAYING.md is out of date")
    ap.add_argument("--write", action="store_true", help=f"rewrite the {what} in docs/PLAYING.md")
    args = ap.parse_args(argv)
    text = PLAYING.read_text(encoding="utf-8")
    new = update(text)
    if args.check:
        if new != text:
            print(f"docs/PLAYING.md: the {what} are out of date (python -m {prog} --write)", file=sys.stderr)
            return 1
        return 0
    if args.write:
        if new != text:
            PLAYING.write_text(new, encoding="utf-8")
        return 0
    show()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    def show() -> None:
        for mode in ("common", *keymap.BY_NAME):
            print(f"## {mode}\n\n{keymap.markdown_table(mode)}\n")

    return regenerate(argv, "undercroft.ui.keytable", "key tables", update, show)


if __name__ == "__main__":
    raise SystemExit(main())
