"""``undercroft validate [DIR] [--json]``: check the rules data and list every problem (exit 2), or print what it
holds: one line in words, or its size as JSON."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from undercroft.cli.common import EXIT_OK, add_data_arg, load_data
from undercroft.printable import printable

if TYPE_CHECKING:
    from undercroft.content import Content


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("validate", help="check the rules data and list every problem")
    p.add_argument("dir", nargs="?", metavar="DIR", help="data directory (same as --data)")
    p.add_argument(
        "--json",
        action="store_true",
        help="print the content's size as one JSON object (rulesets and their levels, monsters, items)",
    )
    add_data_arg(p)
    p.set_defaults(handler=cmd_validate)


def sizes(content: Content) -> dict[str, Any]:
    """The content's size: each ruleset's levels, the monsters, items and encounter tables, and the digest."""
    return {
        "directory": str(content.directory),
        "digest": content.digest,
        "rulesets": {name: {"levels": len(rs.levels)} for name, rs in content.rulesets.items()},
        "monsters": len(content.monsters),
        "items": len(content.items),
        "encounter_tables": len(content.encounters),
    }


def cmd_validate(args: argparse.Namespace) -> int:
    if args.dir:
        args.data = args.dir
    content = load_data(args)
    if args.json:
        print(json.dumps(sizes(content), indent=1))
        return EXIT_OK
    n_cells = sum(len(row) for grid in content.encounters.values() for row in grid)
    levels = ", ".join(f"{name} {len(rs.levels)}" for name, rs in content.rulesets.items())
    print(
        printable(
            f"{content.directory}: ok: {len(content.monsters)} monsters, {len(content.items)} items, "
            f"{len(content.encounters)} encounter tables ({n_cells} cells), {len(content.rulesets)} rulesets "
            f"({', '.join(content.rulesets)}; levels: {levels}); digest {content.digest}"
        )
    )
    return EXIT_OK
