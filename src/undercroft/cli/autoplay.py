"""``undercroft autoplay``: the bot plays whole games headless and the command line summarizes them (the soak test).

The games are played by :func:`undercroft.tools.batch.run` (in ``--jobs`` processes or on a Dask cluster; the same
results either way). Exit status: 0 fine, 1 a game crashed, 2 an argument that cannot be used (one line).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from undercroft.cli.common import EXIT_FAIL, EXIT_OK, UserError, add_data_arg, add_jobs_args, load_data, say, whole
from undercroft.printable import printable

MAX_COUNT = 1_000_000  # the bound of --games and --max-actions


def _count(text: str) -> int:
    return whole(text, 1, MAX_COUNT)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "autoplay",
        help="let a bot play whole games headless and summarize them (the soak test)",
        description="A bot plays N games headless; prints games, wins, deaths by cause, deepest level, mean turns.",
    )
    p.add_argument(
        "--games", type=_count, default=10, metavar="N", help=f"number of games, 1..{MAX_COUNT:,} (default 10)"
    )
    p.add_argument("--seed", default="0", metavar="S", help="seed of the first game; game i uses S+i (default 0)")
    p.add_argument("--ruleset", default="undercroft", metavar="R", help="ruleset (default undercroft)")
    p.add_argument(
        "--policy",
        default="careful",
        choices=("careful", "novice", "greedy", "thorough"),
        help="the bot: careful, the reference player (default), novice, a first-time player, greedy, the top "
        "number at every meeting (careful in all else), or thorough, every floor explored, every sure fight "
        "fought, rested to full",
    )
    p.add_argument("--record", metavar="DIR", help="write one recording per game into DIR")
    p.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    p.add_argument(
        "--max-actions",
        type=_count,
        default=None,
        metavar="N",
        help=f"stop a game after N actions (1..{MAX_COUNT:,}) and count it as a timeout (default 5000)",
    )
    add_jobs_args(p)
    add_data_arg(p)
    p.set_defaults(handler=cmd_autoplay)


def cmd_autoplay(args: argparse.Namespace) -> int:
    from undercroft.cli import progress
    from undercroft.rules.rng import parse_seed
    from undercroft.tools import batch
    from undercroft.tools.autoplay import MAX_ACTIONS, GameResult, game_seed, summarize

    content = load_data(args)
    if args.ruleset not in content.rulesets:
        raise UserError(f"unknown ruleset '{args.ruleset}'; known: {', '.join(content.rulesets)}")
    try:
        seed = parse_seed(args.seed)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    record_dir = Path(args.record) if args.record else None
    if record_dir is not None:
        try:
            record_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserError(printable(f"{record_dir}: cannot create the directory: {exc.strerror or exc}")) from None
    bar = progress.Bar(args.games, f"autoplay {args.ruleset}", enabled=progress.wanted(args.json))
    wins = 0

    def tick(r: GameResult) -> None:
        nonlocal wins
        wins += r.outcome == "won"
        bar.update(1, f"{wins} won")

    try:
        with bar:
            results = batch.run(
                content,
                args.ruleset,
                seed,
                args.games,
                max_actions=args.max_actions or MAX_ACTIONS,
                record_dir=record_dir,
                jobs=args.jobs or batch.cores(),
                dask=args.dask,
                progress=tick,
                policy=args.policy,
            )
    except batch.ClusterError as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:
        raise UserError(printable(f"{record_dir}: cannot write a recording: {exc.strerror or exc}")) from None
    summary: dict[str, Any] = {**summarize(results), "ruleset": args.ruleset, "seed": seed, "policy": args.policy}
    if args.json:
        print(json.dumps(summary))
    else:
        deaths = summary["deaths"]
        dead = sum(deaths.values())
        print(
            f"Autoplay: {summary['games']} games of {args.ruleset}, seeds {seed}..{game_seed(seed, args.games - 1)}, "
            f"the {args.policy} bot"
        )
        print(f"  wins:       {summary['wins']}")
        print(
            f"  deaths:     {dead}" + (" (" + ", ".join(f"{k} {v}" for k, v in deaths.items()) + ")" if deaths else "")
        )
        if dead:
            print("  by level:   " + ", ".join(f"{k} {v}" for k, v in enumerate(summary["deaths_by_level"], 1)))
            print(f"  no choice:  {summary['deaths_without_choice']} of the deaths had no way out of the meeting")
            print(f"  ran first:  {summary['deaths_after_running']} of the deaths to a group run from at first sight")
        cornered = summary["cornered_by_monster"]
        print(
            f"  cornered:   {summary['cornered_on_floor_1']} floor-1 meetings left nothing but a losing fight"
            + (" (" + ", ".join(f"{k} {v}" for k, v in cornered.items()) + ")" if cornered else "")
        )
        print(f"  timeouts:   {summary['timeouts']}")
        if summary["crashes"]:
            print(f"  crashes:    {summary['crashes']}")
        print(f"  deepest:    level {summary['deepest']}")
        print(f"  mean turns: {summary['mean_turns']}")
        _print_depth(summary)
        if record_dir is not None:
            print(printable(f"  recordings: {record_dir}"))
    for r in results:
        if r.outcome == "crash":
            where = f" (recording {r.recording})" if r.recording else ""
            say(f"undercroft: game seed {r.seed} crashed at turn {r.turns + 1}: {r.cause}{where}")
    return EXIT_FAIL if summary["crashes"] else EXIT_OK


def _print_depth(summary: dict[str, Any]) -> None:
    """The floor-by-floor measures (:func:`undercroft.tools.autoplay.depth_report`) as text."""
    print("  floor  arrived  deaths  flat  HP lost a fight  gold in  potions  spent  level")
    for f in summary["floors"]:
        print(
            f"  {f['floor']:5}  {f['arrivals']:7}  {f['deaths']:6}  {f['flat']:4.0%}  {f['hp_lost_per_fight']:15.0%}"
            f"  {f['gold_on_arrival']:7.0f}  {f['potions_on_arrival']:7.1f}  {f['spent_share']:5.0%}"
            f"  {f['level_on_arrival']:5g}"
        )
    for name, g in summary["finale"].items():
        print(f"  guardian:   {name}, median odds {g['median']:.0%} at the first decision ({g['meetings']} met)")
    if summary["kits"]:
        kits = ", ".join(f"{k} {v:.0%}" for k, v in summary["kit_shares"].items())
        print(f"  kits:       {summary['kits']} on the last floor: {kits}")
    if summary["builds"]:
        print("  builds:     " + ", ".join(f"{k} {v}" for k, v in summary["builds"].items()))
