"""``undercroft balance``: the bot plays every ruleset, and docs/BALANCE.md gets the results.

The bot plays ``--games`` games of each ruleset of ``--rulesets`` (game i with seed ``game_seed(--seed, i)``, as
``undercroft autoplay`` does; the results are the same whatever ``--jobs`` or ``--dask``). Their statistics and targets
(:mod:`undercroft.tools.balance`), as markdown (:mod:`undercroft.tools.balance_report`), replace the generated section
of ``--write`` (default docs/BALANCE.md under the current directory; the rest of the file is kept byte for byte), and
three PNG charts are drawn into ``--charts`` (default the folder ``balance`` beside that file) when matplotlib is
installed. Output: a short summary per ruleset, or with ``--json`` the statistics as one JSON object. Exit status 0, 1
if a game crashed, 2 for an argument or a file that cannot be used (one line).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from undercroft.cli.common import (
    EXIT_FAIL,
    EXIT_OK,
    MAX_GAMES,
    UserError,
    add_data_arg,
    add_jobs_args,
    check_output,
    games_per_ruleset,
    load_data,
)
from undercroft.cli.soak import RULESETS
from undercroft.printable import printable

if TYPE_CHECKING:
    from undercroft.cli import progress
    from undercroft.content import Content
    from undercroft.tools.autoplay import GameResult

DEFAULT_WRITE = Path("docs") / "BALANCE.md"
BATCH = 100  # --until-settled: games of a ruleset and policy played between two looks at its targets
# (undercroft.bot.POLICIES, not imported before a command needs it)
POLICY_NAMES = ("careful", "novice", "greedy", "thorough")
NO_PLOT = "undercroft: charts need the optional extra: pip install 'undercroft[plot]'"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "balance",
        help="autoplay every ruleset and write the balance report (docs/BALANCE.md) with charts",
        description="The bot plays N games of each ruleset; the statistics (win rate with its 95 % interval, "
        "deaths by level and by monster, deaths without a choice, timeouts) and their targets "
        "replace the generated section of docs/BALANCE.md, and PNG charts go beside it.",
    )
    p.add_argument(
        "--games",
        type=games_per_ruleset,
        default=1000,
        metavar="N",
        help=f"games per ruleset, 1..{MAX_GAMES:,} (default 1000); with --until-settled, the most",
    )
    p.add_argument(
        "--until-settled",
        action="store_true",
        help=f"play in batches of {BATCH} games and stop each ruleset and policy once every one of its targets is "
        "decided (its 95 %% interval wholly inside or wholly outside the target) or at --games",
    )
    p.add_argument("--seed", default="1", metavar="S", help="seed of the first game; game i uses S+i (default 1)")
    p.add_argument(
        "--rulesets",
        default=",".join(RULESETS),
        metavar="R,R",
        help=f"the rulesets, comma-separated (default {','.join(RULESETS)})",
    )
    p.add_argument(
        "--policies",
        default=",".join(POLICY_NAMES),
        metavar="P,P",
        help=f"the bots, comma-separated, reported side by side (default {','.join(POLICY_NAMES)})",
    )
    p.add_argument(
        "--write",
        metavar="FILE",
        help="the markdown file whose generated section is rewritten (default docs/BALANCE.md)",
    )
    p.add_argument("--charts", metavar="DIR", help="where the PNG charts go (default: the folder balance beside FILE)")
    p.add_argument("--json", action="store_true", help="print the statistics as one JSON object")
    add_jobs_args(p)
    add_data_arg(p)
    p.set_defaults(handler=cmd_balance)


def _rulesets(text: str, known: Sequence[str], what: str = "ruleset", option: str = "--rulesets") -> list[str]:
    names: list[str] = []
    for part in text.split(","):
        name = part.strip()
        if name and name not in names:
            names.append(name)
    if not names:
        raise UserError(f"{option} names no {what}")
    for name in names:
        if name not in known:
            raise UserError(printable(f"unknown {what} '{name}'; known: {', '.join(known)}"))
    return names


def _command(
    args: argparse.Namespace, seed_text: str, rulesets: Sequence[str], policies: Sequence[str] = POLICY_NAMES
) -> str:
    """The command that regenerates the report, as it would be typed (the placement options left out)."""
    words = ["undercroft", "balance", "--games", str(args.games), "--seed", seed_text]
    if getattr(args, "until_settled", False):
        words.append("--until-settled")
    if tuple(rulesets) != RULESETS:
        words += ["--rulesets", ",".join(rulesets)]
    if tuple(policies) != POLICY_NAMES:
        words += ["--policies", ",".join(policies)]
    for option in ("write", "charts", "data"):
        value = getattr(args, option, None)
        if value:
            words += [f"--{option}", str(value)]
    return " ".join(shlex.quote(w) for w in words)


def _writable_file(path: Path) -> str:
    """The current text of ``path`` ("" if there is none yet), after checking that it can be rewritten."""
    from undercroft.content.loader import read_data_file

    name = printable(str(path))
    check_output(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"{name}: cannot create its directory: {exc.strerror or exc}") from None
    if not os.access(path.parent, os.W_OK | os.X_OK):
        raise UserError(f"{name}: cannot write into its directory")
    if path.exists() and not os.access(path, os.W_OK):
        raise UserError(f"{name}: the file is not writable")
    try:
        return read_data_file(path).decode("utf-8") if path.exists() else ""
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"{name}: cannot read it: {getattr(exc, 'strerror', None) or exc}") from None


def _relative(target: Path, start: Path) -> str:
    return Path(os.path.relpath(target.resolve(), start.resolve())).as_posix()


def _charts_dir_ready(charts_dir: Path, names: Sequence[str]) -> None:
    """Make the charts' folder; refuse (a UserError) a chart's path where something else than a file is."""
    try:
        charts_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(printable(f"{charts_dir}: cannot create the directory: {exc.strerror or exc}")) from None
    for name in names:
        check_output(charts_dir / name)


def _play(
    args: argparse.Namespace, content: Content, name: str, first: int, n: int, policy: str, bar: progress.Bar
) -> list[GameResult]:
    """``n`` games of ``name`` by the bot of ``policy``, the first with seed ``first`` (a batch of the balance)."""
    from undercroft.tools import batch
    from undercroft.tools.autoplay import MAX_ACTIONS

    def tick(r: GameResult) -> None:
        bar.update(1, f"{name} {policy}")

    try:
        return batch.run(
            content,
            name,
            first,
            n,
            max_actions=MAX_ACTIONS,
            jobs=args.jobs or batch.cores(),
            dask=args.dask,
            progress=tick,
            policy=policy,
        )
    except batch.ClusterError as exc:
        raise UserError(str(exc)) from None


def cmd_balance(args: argparse.Namespace) -> int:
    from undercroft.cli import progress
    from undercroft.rules.rng import parse_seed
    from undercroft.tools import balance, balance_charts, balance_report
    from undercroft.tools.autoplay import game_seed

    content = load_data(args)
    names = _rulesets(args.rulesets, list(content.rulesets))
    policies = _rulesets(getattr(args, "policies", "careful"), POLICY_NAMES, "policy", "--policies")
    try:
        seed = parse_seed(args.seed)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    write = Path(args.write) if args.write else DEFAULT_WRITE
    charts_dir = Path(args.charts) if args.charts else write.parent / "balance"
    old = _writable_file(write)  # checked before the games: a bad path costs nothing
    try:
        balance_report.replace_section(old, "")
    except ValueError as exc:
        raise UserError(printable(f"{write}: {exc}")) from None
    modules = balance_charts.plotting()
    if modules is not None:
        _charts_dir_ready(charts_dir, balance.CHART_NAMES)

    batch = BATCH if getattr(args, "until_settled", False) else 0
    played: dict[tuple[str, str], balance.RulesetStats] = {}
    crashes: list[GameResult] = []
    bar = progress.Bar(args.games * len(names) * len(policies), "balance", enabled=progress.wanted(args.json))
    with bar:
        for name in names:
            careful: tuple[int, int] | None = None
            # (the careful bot first: the greedy and thorough players' targets are read against its win rate)
            for policy in sorted(policies, key=lambda p: p != "careful"):
                results: list[GameResult] = []
                batches: list[balance.RulesetStats] = []
                while len(results) < args.games:
                    n = min(batch or args.games, args.games - len(results))
                    results += _play(args, content, name, game_seed(seed, len(results)), n, policy, bar)
                    s = balance.ruleset_stats(name, results, len(content.rulesets[name].levels), policy)
                    batches.append(replace(s, careful=careful) if policy in ("greedy", "thorough") else s)
                    if batch and balance.decided(batches[-1]):
                        bar.update(args.games - len(results), f"{name} {policy}")  # (the games not played)
                        break
                s = batches[-1]
                played[(name, policy)] = replace(s, settled=balance.settled_after(batches)) if batch else s
                careful = (s.wins, s.games) if policy == "careful" else careful
                crashes += [r for r in results if r.outcome == "crash"]
    stats = [played[(name, policy)] for name in names for policy in policies]
    charts: dict[str, Path] = {}
    if modules is None:
        print(NO_PLOT, file=sys.stderr)
    else:
        try:
            charts = balance_charts.write_charts(modules, stats, charts_dir)
        except OSError as exc:
            raise UserError(
                printable(f"{exc.filename or charts_dir}: cannot write a chart: {exc.strerror or exc}")
            ) from None
    section = balance_report.render_section(
        stats,
        command=_command(args, args.seed, names, policies),
        seed=seed,
        games=args.games,
        charts={n: _relative(p, write.parent) for n, p in charts.items()},
        batch=batch,
    )
    try:
        # (read again: the games take minutes, and the prose round the section may have been edited meanwhile)
        balance_report.write_atomic(write, balance_report.replace_section(_writable_file(write), section))
    except OSError as exc:
        raise UserError(printable(f"{write}: cannot write it: {exc.strerror or exc}")) from None

    if args.json:
        out: dict[str, Any] = {
            "seed": seed,
            "games": args.games,
            "rulesets": {s.ruleset: s.to_dict() for s in stats if s.policy == policies[0]},
            "policies": {p: {s.ruleset: s.to_dict() for s in stats if s.policy == p} for p in policies},
            "all_met": balance.all_met(stats),
            "write": str(write),
            "charts": [str(p) for p in charts.values()],
        }
        print(json.dumps(out))
    else:
        many = f"until settled (batches of {batch}, at most {args.games} games)" if batch else f"{args.games} games"
        print(f"Balance: {many} of each of {', '.join(names)}, seeds from {seed}")
        for s in stats:
            low, high = s.win_interval
            missed = [v.name for v in balance.verdicts(s) if not v.met]
            level, share = s.worst_level
            print(
                f"  {s.ruleset + ' ' + s.policy + ':':19s} {f'{s.games} games, ' if batch else ''}"
                f"won {100 * s.win_rate:.1f} % "
                f"[{100 * low:.1f}, {100 * high:.1f}], "
                f"{s.deaths} deaths (most on level {level}: {100 * share:.0f} %), "
                f"no choice {100 * s.no_choice_share:.0f} %, cornered {s.cornered_meetings}, {s.timeouts} timeouts; "
                + ("every target met" if not missed else "missed: " + ", ".join(missed))
            )
        print(printable(f"  wrote {write}" + (f" and {len(charts)} charts in {charts_dir}" if charts else "")))
    for r in crashes:
        print(
            printable(f"undercroft: {r.ruleset} game seed {r.seed} crashed at turn {r.turns + 1}: {r.cause}"),
            file=sys.stderr,
        )
    return EXIT_FAIL if crashes else EXIT_OK


__all__ = ["cmd_balance", "register"]
