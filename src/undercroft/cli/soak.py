"""``undercroft soak``: the release soak test (docs/REPLAY.md).

The bot plays ``--games`` games of each of the four rulesets (:data:`RULESETS`), each recorded into a temporary
directory, and every recording is then verified by replaying it (:func:`undercroft.record.replay` with
``verify=True``, as ``undercroft replay --verify`` does). Game ``i`` of every ruleset uses the seed
``game_seed(--seed, i)``. Output: games, actions, wins, deaths, timeouts, crashes, desyncs and seconds, as text or
one JSON object. Exit status 1 on any crash (a game that raised, or a recording that could not be replayed) or
desync, else 0.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from undercroft.cli.common import (
    EXIT_FAIL,
    EXIT_OK,
    MAX_GAMES,
    UserError,
    add_data_arg,
    add_jobs_args,
    games_per_ruleset,
    load_data,
)

if TYPE_CHECKING:
    from undercroft.content import Content
    from undercroft.tools.autoplay import GameResult

RULESETS: tuple[str, ...] = ("undercroft", "crawler", "citadel", "warden")  # (and balance's, by default)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "soak",
        help="the release soak test: autoplay every ruleset and verify every recording",
        description="The bot plays N recorded games of each ruleset (undercroft, crawler, citadel, warden); every "
        "recording is then replayed and verified. Exit 1 on any crash or desync.",
    )
    p.add_argument(
        "--games",
        type=games_per_ruleset,
        default=250,
        metavar="N",
        help=f"games per ruleset, 1..{MAX_GAMES:,} (default 250)",
    )
    p.add_argument("--seed", default="0", metavar="S", help="seed of the first game; game i uses S+i (default 0)")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    add_jobs_args(p)
    add_data_arg(p)
    p.set_defaults(handler=cmd_soak)


def _verify(content: Content, name: str, r: GameResult) -> tuple[int, str | None, str | None]:
    """Replay one game's recording with verification: (actions, "desyncs" or "crashes" or None, problem line)."""
    from undercroft.record import Desync, RecordingError, load_recording, replay

    s = r.seed
    if r.outcome == "crash":
        return 0, "crashes", f"{name} seed {s}: crashed at turn {r.turns + 1}: {r.cause}"
    if r.recording is None:
        return 0, "crashes", f"{name} seed {s}: the game left no recording"
    path = Path(r.recording)
    actions = 0
    try:
        rec = load_recording(path)
        actions = len(rec.actions)
        replay(content, rec, verify=True)
    except Desync as exc:
        return actions, "desyncs", f"{name} seed {s}: desync: {exc}"
    except (RecordingError, OSError) as exc:
        return actions, "crashes", f"{name} seed {s}: the recording cannot be read: {exc}"
    except Exception as exc:  # a replay that raises is what the soak is looking for
        return actions, "crashes", f"{name} seed {s}: the replay raised {type(exc).__name__}: {exc}"
    finally:
        path.unlink(missing_ok=True)
    return actions, None, None


def soak(
    args: argparse.Namespace,
    games: int,
    seed: int | str = 0,
    rulesets: Sequence[str] = RULESETS,
    progress: Callable[[str], None] | None = None,
    *,
    jobs: int | None = None,
    dask: str | None = None,
    bar: bool = False,
) -> dict[str, Any]:
    """Play and verify ``games`` games of each ruleset; the result (see the module docstring), with ``problems``:
    one line for each crash and desync, in the order of the rulesets and the games.

    The games are played by :func:`undercroft.tools.batch.run` in ``jobs`` processes (default: one per core) or on
    the Dask cluster at ``dask``; each recording is verified here as it arrives (while the workers play on). The
    result is the same whatever ``jobs``, apart from ``seconds``. ``progress`` is called with one line per ruleset
    done; ``bar`` draws a progress bar over all the games on stderr."""
    from undercroft.cli.progress import Bar
    from undercroft.rules.rng import parse_seed
    from undercroft.tools import batch

    content = load_data(args)
    for name in rulesets:
        if name not in content.rulesets:
            raise UserError(f"unknown ruleset '{name}'; known: {', '.join(content.rulesets)}")
    try:
        first = parse_seed(seed)
    except ValueError as exc:
        raise UserError(str(exc)) from None
    start = time.perf_counter()
    out: dict[str, Any] = {
        "games": 0,
        "actions": 0,
        "wins": 0,
        "deaths": 0,
        "timeouts": 0,
        "crashes": 0,
        "desyncs": 0,
        "seconds": 0.0,
        "seed": first,
        "rulesets": list(rulesets),
    }
    problems: list[str] = []
    with (
        tempfile.TemporaryDirectory(prefix="undercroft-soak-") as tmp,
        Bar(games * len(rulesets), "soak", unit="game", enabled=bar) as shown,
    ):
        for name in rulesets:
            found: dict[int, str] = {}  # seed -> problem line, put in game order afterwards
            done = 0

            def check(r: GameResult, name: str = name, found: dict[int, str] = found) -> None:
                nonlocal done
                actions, kind, line = _verify(content, name, r)
                out["games"] += 1
                out["actions"] += actions
                out["wins"] += r.outcome == "won"
                out["deaths"] += r.outcome == "dead"
                out["timeouts"] += r.outcome == "timeout"
                if kind is not None and line is not None:
                    out[kind] += 1
                    found[r.seed] = line
                done += 1
                shown.update(1, f"{name} {done}/{games}")

            try:
                results = batch.run(
                    content,
                    name,
                    first,
                    games,
                    record_dir=Path(tmp),
                    jobs=jobs if jobs is not None else batch.cores(),
                    dask=dask,
                    progress=check,
                )
            except batch.ClusterError as exc:
                raise UserError(str(exc)) from None
            problems += [found[r.seed] for r in results if r.seed in found]
            if progress is not None:
                progress(f"{name}: {games} games played and verified ({time.perf_counter() - start:.1f} s)")
    out["seconds"] = round(time.perf_counter() - start, 1)
    out["problems"] = problems
    return out


def cmd_soak(args: argparse.Namespace) -> int:
    from undercroft.cli.progress import wanted

    result = soak(args, args.games, args.seed, jobs=args.jobs, dask=args.dask, bar=wanted(args.json))
    if args.json:
        print(json.dumps(result))
    else:
        print(f"Soak: {args.games} games of each of {', '.join(result['rulesets'])}, seeds from {result['seed']}")
        for key in ("games", "actions", "wins", "deaths", "timeouts", "crashes", "desyncs", "seconds"):
            print(f"  {key + ':':10s} {result[key]}")
    for line in result["problems"]:
        print(f"undercroft: soak: {line!r}"[:2000], file=sys.stderr)
    return EXIT_FAIL if result["crashes"] or result["desyncs"] else EXIT_OK


__all__ = ["RULESETS", "cmd_soak", "register", "soak"]
