"""``undercroft games``: the past games (the morgue index) and the unfinished ones, in the shell."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING

from undercroft.cli.common import EXIT_OK, add_data_arg, load_data, say
from undercroft.printable import printable

if TYPE_CHECKING:
    from undercroft.content import Content
    from undercroft.record.saves import GameInfo


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "games",
        help="list past games (and the unfinished ones)",
        description="Every finished, crashed or abandoned game in the saves folder, with the level "
        "and cause its recording replays to (a result it does not bear out is marked unverified and never "
        "ranked); then the games that can be continued.",
    )
    p.add_argument(
        "--sort",
        choices=("date", "depth"),
        default="date",
        help="date: newest first (default); depth: deepest first, then most turns (high scores)",
    )
    p.add_argument(
        "--scores",
        action="store_true",
        help="the high-score tables instead: per ruleset, rank, score, depth, won, date, seed, daily",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print one JSON object: past, unfinished, skipped (--scores: scores, unverified, skipped)",
    )
    p.add_argument(
        "--replay-for",
        type=float,
        default=REPLAY_FOR_S,
        metavar="SECONDS",
        help=f"replay the recordings not replayed before for at most this long (default {REPLAY_FOR_S:g}; 'inf': "
        "every one); the rest are listed from their first and last lines, unverified, and the next listing goes on",
    )
    add_data_arg(p)
    p.set_defaults(handler=cmd_games)


REPLAY_FOR_S = 20.0  # a first listing of a large folder answers within this (and keeps what it did for the next)


def cmd_games(args: argparse.Namespace) -> int:
    from undercroft.cli.progress import Bar, wanted
    from undercroft.record import saves

    content = load_data(args)
    notes: list[str] = []
    with Bar(0, "reading the saves", unit="save", enabled=wanted(args.json)) as bar:  # (a first listing replays each)
        work = saves.Pass(time.monotonic() + args.replay_for, tell=lambda done, total: bar.set(done, total))
        past, todo = saves.listing(content=content, notes=notes, sort=args.sort, work=work)
    notes = list(dict.fromkeys(notes))
    if work.waiting:
        notes.append(
            f"{work.waiting:,} of {work.total:,} saves not replayed yet (listed unverified, not ranked): "
            "'undercroft games' again goes on where this one stopped"
        )
    if args.scores:
        return _print_scores(past, content, notes, as_json=args.json, data=args.data or "")
    if args.json:
        print(_json_lists({"past": [g.as_json() for g in past], "unfinished": [g.as_json() for g in todo]}, notes))
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
                f"  {g.date}  {saves.ruleset_title(content, g.ruleset)}{g.other_rules}, seed {g.seed_text}, level "
                f"{g.level if g.level is not None else '?'}, turn {g.turns}, HP {g.hp or '?'}  ({g.path.name})"
            )
        )
    return EXIT_OK


def _json_lists(lists: dict[str, list[dict[str, object]]], notes: list[str]) -> str:
    """One JSON object, each element of its lists on a line of its own (the C encoder: thousands of games)."""
    parts = [
        f" {json.dumps(k)}: [" + ",".join(f"\n  {json.dumps(x)}" for x in v) + ("\n ]" if v else "]")
        for k, v in lists.items()
    ]
    return "{\n" + ",\n".join([*parts, f' "skipped": {json.dumps(notes)}']) + "\n}"


def _print_scores(past: list[GameInfo], content: Content, notes: list[str], *, as_json: bool, data: str) -> int:
    from undercroft.record import saves

    tables = saves.high_scores(past, content)
    if as_json:
        scores = {
            rs: [
                {
                    "rank": k,
                    "score": g.score,
                    "depth": g.level,
                    "won": g.result == "won",
                    "date": g.date,
                    "seed": g.seed_text,
                    "daily": g.daily,
                    "path": str(g.path),
                }
                for k, g in enumerate(games, 1)
            ]
            for rs, games in tables.items()
        }
        unverified = [
            {"path": str(g.path), "ruleset": g.ruleset, "result": g.result, "score": g.score, "why": g.why}
            for g in saves.unverified(past)
        ]
        out = {"scores": scores, "data": content.digest, "unverified": unverified, "skipped": notes}
        print(json.dumps(out, indent=1))
        return EXIT_OK
    for note in notes:
        print(f"undercroft: {note}", file=sys.stderr)
    if not tables:
        print("No finished game has a score yet.")
    for rs, games in tables.items():
        with_data = f", with the data {data} ({content.digest[:8]})" if data else ""
        print(
            f"{saves.ruleset_title(content, rs)} ({rs}{with_data}): {len(games)} game{'s' if len(games) != 1 else ''}"
        )
        for line in saves.format_scores(games):
            print(printable("  " + line))
    if note := saves.unverified_note(past):
        print(note)
    return EXIT_OK
