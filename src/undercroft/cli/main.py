"""The ``undercroft`` command line: one script, one subcommand per job, each in its own module of this package.

Every subcommand accepts ``--data DIR``. Bad data stops the program before anything else happens, with every
problem listed as ``file:line:col: where: what`` and exit status 2. No traceback reaches the user: not for an error
of argparse (its line escaped), nor for standard output that cannot be written (one line naming it, exit status 1;
a reader gone away, ``| head``, is a quiet 0).

Building the parser imports only the subcommand modules, which import nothing heavy until their handler runs:
``undercroft --version`` and ``--help`` load none of the data layer, the rules, the bot, numpy, tcod or pydantic
(tests/test_cli_startup.py).
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn, TextIO, cast

from undercroft import __version__
from undercroft.cli import autoplay, balance, bench, games, play, replay, sim, soak, validate
from undercroft.cli.common import EXIT_FAIL, EXIT_OK, EXIT_USAGE, UserError
from undercroft.printable import printable

__all__ = ["OutputError", "build_parser", "main"]

Handler = Callable[[argparse.Namespace], int]

# The subcommands in the order --help lists them; each module has ``register(sub)``.
COMMANDS = (validate, bench, play, replay, autoplay, sim, games, soak, balance)


class _Parser(argparse.ArgumentParser):
    """argparse's parser, its error line escaped: it quotes the arguments as typed (``--ruleset $'\\e[2J'``)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {printable(message)}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="undercroft",
        description="Undercroft: a seeded, recorded roguelike dungeon crawler.",
    )
    parser.add_argument("--version", action="version", version=f"undercroft {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        command.register(sub)
    return parser


class OutputError(BaseException):
    """Standard output cannot be written: a full disk, a closed descriptor, a reader gone away (``| head``). Not an
    Exception, as KeyboardInterrupt is not: no command's own error handling (replay's report of an engine that
    raised, above all) may take it for its own and blame its input."""

    def __init__(self, exc: OSError) -> None:
        super().__init__(exc.strerror or str(exc))
        self.errno = exc.errno


class _Stdout:
    """``sys.stdout`` while a command runs: the stream it wraps (None when descriptor 1 was closed at start), its
    write errors raised as :class:`OutputError`; everything else is the stream's."""

    def __init__(self, stream: TextIO | None) -> None:
        self._stream = stream

    def _real(self) -> TextIO:
        if self._stream is None:
            raise OutputError(OSError(errno.EBADF, os.strerror(errno.EBADF)))
        return self._stream

    def write(self, text: str) -> int:
        try:
            return self._real().write(text)
        except OSError as exc:
            raise OutputError(exc) from None

    def flush(self) -> None:
        if self._stream is None:
            return  # nothing was written, nothing is lost
        try:
            self._stream.flush()
        except OSError as exc:
            raise OutputError(exc) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (``argv``: the arguments, default sys.argv's); its exit status. Every write to standard
    output goes through :class:`_Stdout`: when it fails, one line on stderr names the output and the status is
    1 (0, quietly, when the reader went away: ``undercroft replay FILE | head``)."""
    real = sys.stdout
    if real is None:
        _hold_descriptor_1()
    sys.stdout = cast(TextIO, _Stdout(real))
    try:
        try:
            return _run(argv)
        finally:
            sys.stdout.flush()  # (here, not at exit: its error is told below)
    except OutputError as exc:
        _stdout_gone(real)
        if exc.errno == errno.EPIPE:
            return EXIT_OK
        if sys.stderr is not None:
            with contextlib.suppress(OSError):
                print(f"undercroft: cannot write to standard output: {exc}", file=sys.stderr)
        return EXIT_FAIL
    finally:
        sys.stdout = real


def _run(argv: Sequence[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:  # no subcommand: play
        return _run([*(argv or []), "play"])
    try:
        return handler(args)
    except UserError as exc:
        print(f"undercroft: {printable(str(exc))}", file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:
        print("undercroft: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        known = _known_error(exc)
        if known is None:
            raise
        return known


def _hold_descriptor_1() -> None:
    """Standard output was closed at start: /dev/null takes descriptor 1, so that no file opened later (a save)
    gets it and receives what a library writes there."""
    try:
        os.fstat(1)
        return  # open after all (sys.stdout was left None for another reason): not ours to replace
    except OSError:
        pass
    with contextlib.suppress(OSError):
        fd = os.open(os.devnull, os.O_WRONLY)
        if fd != 1:
            os.dup2(fd, 1)
            os.close(fd)


def _stdout_gone(stream: TextIO | None) -> None:
    """What is still buffered for ``stream`` goes nowhere (Python's own flush at exit would fail again, with noise
    and exit status 120)."""
    if stream is None:
        return
    with contextlib.suppress(OSError, ValueError):
        fd = stream.fileno()  # (none for a stream in memory)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, fd)
        os.close(devnull)


def _known_error(exc: Exception) -> int | None:
    """The exit status of an error the user can fix (bad data: every problem; no saves folder: one line); None for
    any other exception (it goes on up)."""
    from undercroft.content import DataError  # (imported here: the data layer is not loaded to show --help)
    from undercroft.record.saves import SavesFolderError

    if isinstance(exc, SavesFolderError):
        print(f"undercroft: {printable(str(exc))}", file=sys.stderr)
        return EXIT_FAIL
    if not isinstance(exc, DataError):
        return None
    for problem in exc.problems:
        print(problem, file=sys.stderr)
    print(f"undercroft: {len(exc.problems)} problem(s) in the rules data", file=sys.stderr)
    return EXIT_USAGE
