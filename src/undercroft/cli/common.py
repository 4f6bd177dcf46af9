"""What the command line's subcommands share: exit codes, the one-line user error, ``--data`` and loading it,
``--jobs``/``--dask``, ``--games`` per ruleset, and printing text from files escaped (``show``, ``say``).

It sits below :mod:`undercroft.cli.main` (which registers every subcommand module), so the subcommand modules
and the benchmarks import this and never the command line's entry point: the imports run one way. It imports
nothing heavy when imported (``--help`` and ``--version`` load none of the data layer, numpy, tcod or pydantic).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from undercroft.printable import printable

if TYPE_CHECKING:
    from undercroft.content import Content

EXIT_OK = 0
EXIT_FAIL = 1
EXIT_USAGE = 2

MAX_GAMES = 1_000_000  # per ruleset: the bound of ``soak --games`` and ``balance --games``


class UserError(Exception):
    """A problem the user can fix; printed as one line, exit status 2 unless ``code`` says otherwise."""

    def __init__(self, message: str, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.code = code


def load_data(args: argparse.Namespace) -> Content:
    """The validated data of ``--data`` (or the shipped data); raises DataError."""
    from undercroft.content import load_content
    from undercroft.paths import data_dir

    directory = Path(args.data) if getattr(args, "data", None) else data_dir()
    return load_content(directory)


def add_data_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", metavar="DIR", help="rules data directory (default: the shipped data/)")


def show(text: str) -> None:
    """Print ``text`` on stdout, each of its lines through :func:`printable`: a name from the data or a label from a
    side file cannot move the cursor, retitle the terminal or split a line."""
    print("\n".join(printable(line) for line in text.split("\n")))


def say(text: str) -> None:
    """One line on stderr, every control character escaped: it may quote a recording's fields or its name."""
    print(printable(text), file=sys.stderr)


def check_output(path: Path) -> None:
    """Refuse (a UserError) an output path where something other than a regular file is, before any work is done:
    a FIFO would block the write, a device or a directory take it. (The writer checks again as it opens the file:
    it may change in between.)"""
    import stat

    from undercroft.content.loader import file_kind

    try:
        st = path.stat()
    except OSError:
        return  # nothing there yet (or nothing that can be looked at: the write says why)
    if not stat.S_ISREG(st.st_mode):
        raise UserError(printable(f"{path}: is {file_kind(st.st_mode)}, not a file to write"))


def whole(text: str, lo: int, hi: int) -> int:
    """A whole number lo..hi from the command line, or an ArgumentTypeError of one line (argparse adds the option)."""
    digits = text.strip()
    body = digits.lstrip("+-").lstrip("0")
    if len(body) > len(str(hi)):  # counted first: int() of thousands of digits is refused with a note on internals
        raise argparse.ArgumentTypeError(f"expected a whole number {lo}..{hi}, not a number of {len(body)} digits")
    try:
        n = int(digits)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number {lo}..{hi}, not {printable(repr(text))}") from None
    if not lo <= n <= hi:
        raise argparse.ArgumentTypeError(f"expected a whole number {lo}..{hi}, not {n}")
    return n


def _jobs(text: str) -> int:
    try:
        n = int(text, 10) if len(text) <= 4 else -1
    except ValueError:
        n = -1
    if not 1 <= n <= 1024:
        raise argparse.ArgumentTypeError(f"expected a whole number 1..1024, got {text[:20]!r}")
    return n


def add_jobs_args(p: argparse.ArgumentParser) -> None:
    """``--jobs N`` and ``--dask ADDRESS``: where the games are played (the results are the same either way)."""
    where = p.add_mutually_exclusive_group()
    where.add_argument(
        "--jobs",
        type=_jobs,
        default=None,
        metavar="N",
        help="play the games in N processes (default and most: one per core); the same results, byte for byte, "
        "whatever N",
    )
    where.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="play the games on the Dask cluster whose scheduler is at ADDRESS (tcp://HOST:PORT); "
        "needs the optional extra undercroft[cluster]",
    )


def games_per_ruleset(text: str) -> int:
    """``--games`` of ``soak`` and ``balance``: a whole number 1..MAX_GAMES (an argparse error otherwise)."""
    try:
        n = int(text, 10) if len(text) <= 8 else -1
    except ValueError:
        n = -1
    if not 1 <= n <= MAX_GAMES:
        raise argparse.ArgumentTypeError(f"expected a whole number 1..{MAX_GAMES:,}, got {text[:20]!r}")
    return n
