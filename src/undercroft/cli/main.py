"""The ``undercroft`` command line: one script, one subcommand per job, each in its own module of this package.

Every subcommand accepts ``--data DIR``. Bad data stops the program before anything else happens, with every
problem listed as ``file:line:col: where: what`` and exit status 2. No traceback reaches the user.

Building the parser imports only the subcommand modules, which import nothing heavy until their handler runs:
``undercroft --version`` and ``--help`` load none of the data layer, the rules, the bot, numpy, tcod or pydantic
(tests/test_cli_startup.py).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from undercroft import __version__
from undercroft.cli import autoplay, balance, bench, games, play, replay, sim, soak, validate
from undercroft.cli.common import EXIT_FAIL, EXIT_OK, EXIT_USAGE, UserError, printable

__all__ = ["build_parser", "main"]

Handler = Callable[[argparse.Namespace], int]

# The subcommands in the order --help lists them; each module has ``register(sub)``.
COMMANDS = (validate, bench, play, replay, autoplay, sim, games, soak, balance)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="undercroft",
        description="Undercroft: a seeded, recorded roguelike dungeon crawler.",
    )
    parser.add_argument("--version", action="version", version=f"undercroft {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:  # no subcommand: play
        return main([*(argv or []), "play"])
    try:
        code = handler(args)
        sys.stdout.flush()  # (here, not at exit: a reader gone away is a quiet end, below)
        return code
    except UserError as exc:
        print(f"undercroft: {printable(str(exc))}", file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:
        print("undercroft: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _stdout_gone()
        return EXIT_OK
    except Exception as exc:
        known = _known_error(exc)
        if known is None:
            raise
        return known


def _stdout_gone() -> None:
    """The reader of our output went away (``undercroft replay FILE | head``): a quiet end. What is still buffered
    goes nowhere (Python's own flush at exit would fail again, with noise and exit status 120)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def _known_error(exc: Exception) -> int | None:
    """The exit status of an error the user can fix (bad data: every problem; no saves folder: one line); None for
    any other exception (it goes on up)."""
    from undercroft.content import DataError  # (imported here: the data layer is not loaded to show --help)
    from undercroft.saves import SavesFolderError

    if isinstance(exc, SavesFolderError):
        print(f"undercroft: {printable(str(exc))}", file=sys.stderr)
        return EXIT_FAIL
    if not isinstance(exc, DataError):
        return None
    for problem in exc.problems:
        print(problem, file=sys.stderr)
    print(f"undercroft: {len(exc.problems)} problem(s) in the rules data", file=sys.stderr)
    return EXIT_USAGE
