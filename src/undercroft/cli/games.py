"""``undercroft games``: the past games (the morgue index) and the unfinished ones, in the shell."""

from __future__ import annotations

import argparse
import json

from undercroft.cli.common import EXIT_OK, add_data_arg, load_data, printable, say


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "games",
        help="list past games (and the unfinished ones)",
        description="Every finished, crashed or abandoned game in the saves folder, with the level "
        "and cause from its morgue file; then the games that can be continued.",
    )
    p.add_argument(
        "--sort",
        choices=("date", "depth"),
        default="date",
        help="date: newest first (default); depth: deepest first, then most turns (high scores)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object: past, unfinished, skipped")
    add_data_arg(p)
    p.set_defaults(handler=cmd_games)


def cmd_games(args: argparse.Namespace) -> int:
    from undercroft import saves

    content = load_data(args)
    notes: list[str] = []
    past = saves.past_games(content=content, notes=notes, sort=args.sort)
    todo = saves.unfinished(content=content, notes=notes)
    notes = list(dict.fromkeys(notes))
    if args.json:
        print(
            json.dumps(
                {"past": [g.as_json() for g in past], "unfinished": [g.as_json() for g in todo], "skipped": notes},
                indent=1,
            )
        )
        return EXIT_OK
    for note in notes:
        say(f"undercroft: {note}")
    print(f"Past games ({len(past)}):")
    if past:
        for line in saves.format_table(past, content):
            print(printable("  " + line))
    print(f"Unfinished games ({len(todo)}):")
    for g in todo:
        print(
            printable(
                f"  {g.date}  {saves.ruleset_title(content, g.ruleset)}, seed {g.seed_text}, level "
                f"{g.level if g.level is not None else '?'}, turn {g.turns}, HP {g.hp or '?'}  ({g.path.name})"
            )
        )
    return EXIT_OK
