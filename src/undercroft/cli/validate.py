"""``undercroft validate [DIR]``: check the rules data and list every problem (exit 2), or print one line of what
it holds."""

from __future__ import annotations

import argparse

from undercroft.cli.common import EXIT_OK, add_data_arg, load_data, printable


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("validate", help="check the rules data and list every problem")
    p.add_argument("dir", nargs="?", metavar="DIR", help="data directory (same as --data)")
    add_data_arg(p)
    p.set_defaults(handler=cmd_validate)


def cmd_validate(args: argparse.Namespace) -> int:
    if args.dir:
        args.data = args.dir
    content = load_data(args)
    n_cells = sum(len(row) for grid in content.encounters.values() for row in grid)
    print(
        printable(
            f"{content.directory}: ok: {len(content.monsters)} monsters, {len(content.items)} items, "
            f"{len(content.encounters)} encounter tables ({n_cells} cells), {len(content.rulesets)} rulesets "
            f"({', '.join(content.rulesets)}); digest {content.digest}"
        )
    )
    return EXIT_OK
