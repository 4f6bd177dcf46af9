"""``undercroft bench``: its arguments, and the rows it prints; the metrics are :mod:`undercroft.tools.bench`."""

from __future__ import annotations

import argparse
import json
import sys

from undercroft.cli.common import EXIT_OK, UserError, add_data_arg


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("bench", help="measure performance (see docs/PERFORMANCE.md)")
    p.add_argument("--json", action="store_true", help="print one JSON object of metric: value")
    p.add_argument("--only", metavar="NAMES", help="comma-separated metric names to run")
    p.add_argument(
        "--against",
        metavar="REV",
        help="measure the rows here and on commit REV in turn, in new processes, and print both with the ratio "
        "(default rows: step_us_per_action, record_overhead_us, replay_actions_per_s, autoplay_actions_per_s)",
    )
    p.add_argument("--rounds", type=int, default=3, metavar="N", help="with --against: rounds of each side (3)")
    add_data_arg(p)
    p.set_defaults(handler=cmd_bench)


def cmd_bench(args: argparse.Namespace) -> int:
    if args.against:
        return _against(args)
    from tqdm import tqdm

    from undercroft.cli import progress
    from undercroft.tools.bench.core import METRICS, BenchError
    from undercroft.tools.bench.rows import select

    results: dict[str, float] = {}
    try:
        names = select(args.only)
        # A bar over the rows on stderr, only on a terminal and not with --json; each row's line is printed with
        # the bar lifted (tqdm's external_write_mode), so the two never share a line.
        with progress.Bar(len(names), "bench", unit="row", enabled=progress.wanted(args.json)) as bar:
            for name in names:
                bar.update(0, name)
                fn, unit = METRICS[name]
                value = fn(args)
                results[name] = round(value, 6) if isinstance(value, float) else value
                if not args.json:
                    with tqdm.external_write_mode(file=sys.stdout):
                        print(f"{name:28s} {value:14.6g} {unit}", flush=True)
                bar.update(1)
    except BenchError as exc:
        raise UserError(str(exc)) from None
    if args.json:
        print(json.dumps(results))
    return EXIT_OK


def _against(args: argparse.Namespace) -> int:
    from undercroft.tools.bench import against
    from undercroft.tools.bench.core import METRICS, BenchError
    from undercroft.tools.bench.rows import select

    try:
        names = select(args.only or ",".join(against.DEFAULT_ROWS))
        rev, rows = against.compare(args.against, names, args.rounds, args.data)
    except BenchError as exc:
        raise UserError(str(exc)) from None
    if args.json:
        print(
            json.dumps(
                {
                    "against": rev,
                    "rounds": args.rounds,
                    "rows": {c.name: {"here": c.here, rev: c.there, "ratio": c.ratio} for c in rows},
                }
            )
        )
    else:
        print(against.table(rev, rows, {n: unit for n, (_, unit) in METRICS.items()}))
    return EXIT_OK
