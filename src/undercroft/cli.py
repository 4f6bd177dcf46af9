"""The ``undercroft`` command line: one script, one subcommand per job.

Every subcommand accepts ``--data DIR``. Bad data stops the program before anything else happens, with every
problem listed as ``file:line:col: where: what`` and exit status 2. No traceback reaches the user.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from undercroft import __version__
from undercroft.cliutil import EXIT_FAIL, EXIT_OK, EXIT_USAGE, UserError, load_data
from undercroft.content import DataError

__all__ = ["EXIT_FAIL", "EXIT_OK", "EXIT_USAGE", "UserError", "build_parser", "load_data", "main"]

Handler = Callable[[argparse.Namespace], int]


def _add_data_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--data", metavar="DIR", help="rules data directory (default: the shipped data/)")


def cmd_validate(args: argparse.Namespace) -> int:
    if args.dir:
        args.data = args.dir
    content = load_data(args)
    n_cells = sum(len(row) for grid in content.encounters.values() for row in grid)
    print(
        f"{content.directory}: ok: {len(content.monsters)} monsters, {len(content.items)} items, "
        f"{len(content.encounters)} encounter tables ({n_cells} cells), {len(content.rulesets)} rulesets "
        f"({', '.join(content.rulesets)}); digest {content.digest}"
    )
    return EXIT_OK


def cmd_bench(args: argparse.Namespace) -> int:
    from undercroft import bench

    return bench.run(args)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="undercroft",
        description="Undercroft: a seeded, recorded roguelike dungeon crawler.",
    )
    parser.add_argument("--version", action="version", version=f"undercroft {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("validate", help="check the rules data and list every problem")
    p.add_argument("dir", nargs="?", metavar="DIR", help="data directory (same as --data)")
    _add_data_arg(p)
    p.set_defaults(handler=cmd_validate)

    p = sub.add_parser("bench", help="measure performance (see docs/PERFORMANCE.md)")
    p.add_argument("--json", action="store_true", help="print one JSON object of metric: value")
    p.add_argument("--only", metavar="NAMES", help="comma-separated metric names to run")
    _add_data_arg(p)
    p.set_defaults(handler=cmd_bench)

    for register in _extra_commands():
        register(sub, _add_data_arg)
    return parser


def _extra_commands() -> list[
    Callable[[argparse._SubParsersAction[argparse.ArgumentParser], Callable[[argparse.ArgumentParser], None]], None]
]:
    """Subcommands that live in their own modules; each module has ``register(sub, add_data_arg)``."""
    import importlib

    out = []
    for name in _COMMAND_MODULES:
        mod = importlib.import_module(name)
        out.append(mod.register)
    return out


# Modules that add subcommands (play, replay, sim, autoplay, ...). Each is imported lazily by build_parser.
_COMMAND_MODULES: list[str] = [
    "undercroft.commands_play",
    "undercroft.commands_replay",
    "undercroft.commands_sim",
    "undercroft.commands_games",
    "undercroft.commands_soak",
    "undercroft.commands_balance",
]


def _registered(parser: argparse.ArgumentParser) -> set[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    return set()


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        if args.command is None and "play" in _registered(parser):
            return main([*(argv or []), "play"])
        parser.print_help()
        return EXIT_OK
    try:
        return handler(args)
    except DataError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        print(f"undercroft: {len(exc.problems)} problem(s) in the rules data", file=sys.stderr)
        return EXIT_USAGE
    except UserError as exc:
        print(f"undercroft: {exc}", file=sys.stderr)
        return exc.code
    except KeyboardInterrupt:
        print("undercroft: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
