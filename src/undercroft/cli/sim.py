"""``undercroft sim``: the odds of a fight, by simulation.

``undercroft sim MONSTER`` simulates many fights of the delver's starting kit (the ruleset's first party member,
at full health unless ``--hp``) against ``--count`` of MONSTER, under the rules of :mod:`undercroft.sim.spec`,
and prints win %, death %, mean and 90th-percentile rounds and mean HP lost, each with its 95% interval.
``--all`` does every monster (one alone, and every group size its number-appearing dice can give);
``--all --markdown --write FILE`` rewrites the "Every monster" block of docs/BALANCE.md. On a terminal, and not
with ``--json``, ``--all`` shows a progress bar over its rows on stderr (:mod:`undercroft.cli.progress`).
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from undercroft.cli.common import UserError, add_data_arg, load_data, show
from undercroft.printable import printable

if TYPE_CHECKING:
    from undercroft.content import Content

DEFAULT_FIGHTS = 100_000
MAX_FIGHTS = 100_000_000  # per matchup: about a minute or two; more would only shrink intervals that are tiny already
MAX_COUNT = 100
MAX_HP = 1_000_000
BEGIN = "<!-- every-monster:begin -->"
END = "<!-- every-monster:end -->"
PROGRESS_AFTER_S = 0.5  # a run shows a progress bar once it has taken this long (and stderr is a terminal)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "sim",
        help="simulate fights against a monster: win %%, death %%, rounds, HP lost",
        description="Simulate N fights of the delver's starting kit against K of MONSTER (vectorized, the engine's "
        "rules) and print win %%, death %%, mean and 90th-percentile rounds and mean HP lost, each with a 95%% "
        "interval.",
    )
    p.add_argument("monster", nargs="?", metavar="MONSTER", help="the monster's id in data/monsters.yaml")
    p.add_argument(
        "--count", type=_whole("--count"), metavar="K", help=f"how many of MONSTER, 1..{MAX_COUNT} (default 1)"
    )
    p.add_argument(
        "--fights",
        type=_whole("--fights"),
        default=DEFAULT_FIGHTS,
        metavar="N",
        help=f"fights to simulate, 1..{MAX_FIGHTS:,} (default {DEFAULT_FIGHTS:,})",
    )
    p.add_argument(
        "--hp", type=_whole("--hp"), metavar="H", help="the delver's hit points at the start (default: full)"
    )
    p.add_argument("--exhausted", action="store_true", help="the delver is exhausted (where the ruleset tires)")
    p.add_argument("--seed", default="1", metavar="S", help="dice seed, a number or any text (default 1)")
    p.add_argument(
        "--ruleset",
        default="undercroft",
        metavar="R",
        help="whose rules and whose delver (its first party member); default undercroft",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object (a list with --all)")
    p.add_argument("--all", action="store_true", help="every monster, alone and in each group size it comes in")
    p.add_argument("--markdown", action="store_true", help="with --all: the 'Every monster' block of BALANCE.md")
    p.add_argument(
        "--write", metavar="FILE", help="with --markdown: replace the block between the every-monster markers in FILE"
    )
    add_data_arg(p)
    p.set_defaults(handler=cmd_sim)


def _whole(option: str) -> Callable[[str], int]:
    """An argparse type: a whole number (any size; its bounds are checked by _check_args, as one line)."""

    def parse(text: str) -> int:
        digits = text.strip()
        body = digits.lstrip("+-").lstrip("0")
        if len(body) > 30:  # counted first: int() of thousands of digits fails with a note about Python's internals
            return 10**31 if not digits.startswith("-") else -(10**31)  # out of every bound: _check_args says so
        try:
            return int(digits)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None

    parse.__name__ = option  # argparse names the type in its message
    return parse


def _bound(option: str, value: int, lo: int, hi: int, what: str = "") -> None:
    if not lo <= value <= hi:
        shown = (
            str(value)
            if abs(value) < 10**30
            else ("a number of 31 digits or more" if value > 0 else "a negative number of 31 digits or more")
        )
        raise UserError(f"{option} must be {lo:,}..{hi:,}{what}, not {shown}")


# --- the run -------------------------------------------------------------------------------------------------


class Progress:
    """A progress bar on stderr, drawn only once a run has lasted PROGRESS_AFTER_S and only on a terminal."""

    def __init__(self, total: int, stream: TextIO | None = None, *, enabled: bool = True) -> None:
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled and bool(getattr(self.stream, "isatty", lambda: False)())
        self.t0 = time.perf_counter()
        self.base = 0  # fights finished in earlier matchups
        self.drawn = False

    def update(self, done: int, _total: int = 0) -> None:
        if not self.enabled or time.perf_counter() - self.t0 < PROGRESS_AFTER_S:
            return
        n = self.base + done
        frac = min(1.0, n / self.total) if self.total else 1.0
        width = 30
        bar = "#" * int(frac * width) + "." * (width - int(frac * width))
        self.stream.write(f"\rsim [{bar}] {frac * 100:5.1f}% {n:,}/{self.total:,} fights")
        self.stream.flush()
        self.drawn = True

    def next_matchup(self, fights: int) -> None:
        self.base += fights

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\r" + " " * 79 + "\r")
            self.stream.flush()


def _check_args(args: argparse.Namespace, content: Content) -> None:
    from undercroft.content.content import unknown_message

    if args.all and args.monster:
        raise UserError("give a MONSTER or --all, not both")
    if not args.all and not args.monster:
        raise UserError(f"name a monster (one of: {', '.join(content.monsters)}) or use --all")
    if args.markdown and not args.all:
        raise UserError("--markdown makes the table of every monster: use it with --all")
    if args.write and not args.markdown:
        raise UserError("--write rewrites a markdown block: use it with --all --markdown")
    if args.markdown and args.json:
        raise UserError("--markdown and --json are two different outputs: choose one")
    _bound("--fights", args.fights, 1, MAX_FIGHTS)
    if args.count is not None:
        _bound("--count", args.count, 1, MAX_COUNT)
    if args.ruleset not in content.rulesets:
        raise UserError(unknown_message("ruleset", args.ruleset, content.rulesets))
    if args.monster and args.monster not in content.monsters:
        raise UserError(unknown_message("monster", args.monster, content.monsters))
    ch = content.party[content.rulesets[args.ruleset].party[0]]
    if args.hp is not None:
        _bound("--hp", args.hp, 1, ch.hp, f" (the {ch.name}'s hit points)")
    if args.write:
        check_writable(Path(args.write))


def _seed(text: str) -> int:
    from undercroft.rules.rng import parse_seed

    try:
        return parse_seed(text)
    except ValueError as exc:
        raise UserError(f"--seed: {exc}") from None


def group_sizes(content: Content, monster_id: str) -> list[int]:
    """1, and every number of ``monster_id`` its number-appearing dice can give."""
    from undercroft.rules.dice import Dice

    d = Dice.parse(content.monsters[monster_id].number)
    lo, hi = max(1, d.minimum), max(1, min(MAX_COUNT, d.maximum))
    return sorted({1, *range(lo, hi + 1)})


def run_one(
    content: Content, monster_id: str, count: int, args: argparse.Namespace, seed: int, progress: Progress
) -> dict[str, Any]:
    """Simulate one matchup; the JSON object of ``undercroft sim --json``."""
    from undercroft.sim import simulate
    from undercroft.sim.odds import matchup_spec

    spec = matchup_spec(content, monster_id, count=count, hp=args.hp, exhausted=args.exhausted, ruleset=args.ruleset)
    r = simulate(spec, args.fights, seed, progress=progress.update)
    progress.next_matchup(args.fights)
    ch = content.party[spec.character]
    mon = content.monsters[monster_id]
    return {
        "win": r.win,
        "death": r.death,
        "rounds_mean": r.rounds_mean,
        "rounds_p90": r.rounds_p90,
        "hp_lost_mean": r.hp_lost_mean,
        "fights": r.fights,
        "win_ci": list(r.win_ci),
        "death_ci": list(r.death_ci),
        "stalemate": r.stalemate,
        "rounds_mean_ci": list(r.rounds_mean_ci),
        "rounds_p90_ci": list(r.rounds_p90_ci),
        "hp_lost_mean_ci": list(r.hp_lost_mean_ci),
        "seed": seed,
        "ruleset": args.ruleset,
        "delver": {
            "character": spec.character,
            "name": ch.name,
            "hp": spec.delver_hp,
            "max_hp": spec.delver_max_hp,
            "defense": spec.delver_defense,
            "might": spec.might,
            "weapon": spec.weapon,
            "weapon_item": ch.weapon,
            "agility": spec.delver_agility,
            "exhausted": spec.exhausted,
        },
        "monster": {
            "id": monster_id,
            "name": mon.name,
            "count": spec.count,
            "hp": spec.monster_hp,
            "defense": spec.monster_defense,
            "attack": spec.monster_attack,
            "damage": spec.monster_damage,
            "agility": spec.monster_agility,
            "regenerate": spec.regenerate,
            "acts_every": spec.acts_every,
            "holds_ground": spec.holds_ground,
        },
    }


# --- output --------------------------------------------------------------------------------------------------


def _pct(p: float) -> str:
    return f"{p * 100:.2f}%"


def _ci_pct(ci: list[float]) -> str:
    return f"{ci[0] * 100:.2f}-{ci[1] * 100:.2f}%"


def delver_line(d: dict[str, Any]) -> str:
    tired = ", exhausted" if d["exhausted"] else ""
    return (
        f"{d['name']} (hp {d['hp']}/{d['max_hp']}, defense {d['defense']}, might {d['might']}, "
        f"weapon +{d['weapon']}, agility {d['agility']}{tired})"
    )


def monster_line(m: dict[str, Any]) -> str:
    more = "".join(f", {e}" for e in _traits(m))
    return (
        f"{m['count']} x {m['name']} (hp {m['hp']}, defense {m['defense']}, attack {m['attack']:+d}, "
        f"damage {m['damage']}, agility {m['agility']}{more})"
    )


def text_report(r: dict[str, Any]) -> str:
    lines = [
        f"{delver_line(r['delver'])} vs {monster_line(r['monster'])}",
        f"{r['fights']:,} fights, ruleset {r['ruleset']}, seed {r['seed']}; 95% intervals in brackets",
        f"  win       {_pct(r['win']):>8}  ({_ci_pct(r['win_ci'])})",
        f"  death     {_pct(r['death']):>8}  ({_ci_pct(r['death_ci'])})",
    ]
    if r["stalemate"]:
        lines.append(f"  stalemate {_pct(r['stalemate']):>8}  (no end after 500 rounds)")
    lo, hi = r["rounds_mean_ci"]
    plo, phi = r["rounds_p90_ci"]
    hlo, hhi = r["hp_lost_mean_ci"]
    lines += [
        f"  rounds    mean {r['rounds_mean']:.3f} ({lo:.3f}-{hi:.3f}), 90th percentile {r['rounds_p90']} ({plo}-{phi})",
        f"  HP lost   mean {r['hp_lost_mean']:.3f} ({hlo:.3f}-{hhi:.3f}) of {r['delver']['hp']}",
    ]
    return "\n".join(lines)


def _pm(p: float, ci: list[float]) -> str:
    """A percentage with the larger half of its interval; the extremes as <0.1 and >99.9 (no interval)."""
    pct = p * 100
    if p in (0.0, 1.0):
        return f"{pct:.0f}"
    if pct < 0.05:
        return "<0.1"
    if pct >= 99.95:
        return ">99.9"
    half = max(p - ci[0], ci[1] - p) * 100
    return f"{pct:.1f} ± {half:.1f}"


def _traits(m: dict[str, Any]) -> list[str]:
    out = []
    if m["regenerate"]:
        out.append(f"regenerates {m['regenerate']}")
    if m["acts_every"] > 1:
        out.append(f"acts every {m['acts_every']} turns")
    if m["holds_ground"]:
        out.append("holds its ground")
    return out


def table_rows(results: list[dict[str, Any]]) -> list[list[str]]:
    rows = []
    for r in results:
        m = r["monster"]
        rows.append(
            [
                f"{m['name']} (`{m['id']}`{''.join('; ' + t for t in _traits(m))})",
                str(m["count"]),
                f"{m['hp']} / {m['defense']} / {m['attack']:+d} / {m['damage']} / {m['agility']}",
                _pm(r["win"], r["win_ci"]),
                _pm(r["death"], r["death_ci"]),
                f"{r['rounds_mean']:.2f}",
                str(r["rounds_p90"]),
                f"{r['hp_lost_mean']:.2f}",
            ]
        )
    return rows


HEADER = [
    "monster",
    "count",
    "hp / def / att / dmg / agi",
    "win %",
    "death %",
    "rounds (mean)",
    "rounds (p90)",
    "HP lost (mean)",
]


def command_line(args: argparse.Namespace) -> str:
    parts = ["undercroft sim --all --markdown", f"--fights {args.fights}", f"--seed {args.seed}"]
    if args.ruleset != "undercroft":
        parts.append(f"--ruleset {args.ruleset}")
    if args.count is not None:
        parts.append(f"--count {args.count}")
    if args.hp is not None:
        parts.append(f"--hp {args.hp}")
    if args.exhausted:
        parts.append("--exhausted")
    if args.write:
        parts.append(f"--write {args.write}")
    return " ".join(parts)


def markdown_block(results: list[dict[str, Any]], args: argparse.Namespace) -> str:
    d = results[0]["delver"]
    sizes = (
        "every monster of `data/monsters.yaml`: alone and, for monsters met in groups, in every group size "
        "its number-appearing dice give"
        if args.count is None
        else f"{args.count} of every monster of `data/monsters.yaml`"
    )
    stalemates = [r for r in results if r["stalemate"]]
    lines = [
        BEGIN,
        "## Every monster",
        "",
        "Regenerated (everything between the two `every-monster` markers) by this command, from the repository root:",
        "",
        "```sh",
        command_line(args),
        "```",
        "",
        f"The {d['name']} of the `{args.ruleset}` rules ({d['hp']}/{d['max_hp']} HP, defense {d['defense']}, "
        f"might {d['might']}, weapon +{d['weapon']}, agility {d['agility']}"
        f"{', exhausted' if d['exhausted'] else ''}) against {sizes}. "
        f"{args.fights:,} simulated fights per row (seed {args.seed}); the delver strikes the first living "
        "creature until one side is down (no potions, no running). Win % and death %: the share of fights, "
        "± the larger half of the 95% interval (<0.1 and >99.9: closer than that to 0 or 100). Rounds: "
        "rounds begun, mean and 90th percentile. "
        f"HP lost: mean over all fights (a death loses all {d['hp']}). Monster stats: hit points, defense, "
        "attack bonus, damage, agility. `undercroft sim MONSTER --count K` gives any row with its intervals.",
        "",
        "| " + " | ".join(HEADER) + " |",
        "| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in table_rows(results)]
    if stalemates:
        lines += [
            "",
            "Unfinished after 500 rounds (counted as neither a win nor a death): "
            + ", ".join(
                f"{r['monster']['id']} x{r['monster']['count']} {r['stalemate'] * 100:.2f}%" for r in stalemates
            )
            + ".",
        ]
    lines.append(END)
    return "\n".join(lines) + "\n"


def text_table(results: list[dict[str, Any]]) -> str:
    rows = [["monster", "count", "hp/def/att/dmg/agi", "win %", "death %", "rounds", "p90", "HP lost"]]
    for r, row in zip(results, table_rows(results), strict=True):
        rows.append([r["monster"]["id"], *row[1:]])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        out.append(
            "  ".join(
                cell.ljust(w) if i in (0, 2) else cell.rjust(w)
                for i, (cell, w) in enumerate(zip(row, widths, strict=True))
            ).rstrip()
        )
    d = results[0]["delver"]
    head = f"{delver_line(d)}; {results[0]['fights']:,} fights per row, seed {results[0]['seed']}"
    return head + "\n" + "\n".join(out)


def _cannot(path: Path, exc: OSError | UnicodeError) -> UserError:
    reason = (
        exc.strerror
        if isinstance(exc, OSError) and exc.strerror
        else ("not UTF-8 text" if isinstance(exc, UnicodeError) else str(exc) or type(exc).__name__)
    )
    return UserError(f"{path}: cannot write the every-monster block: {reason}")


MAX_BLOCK_FILE = 16 * 1024 * 1024  # the largest file --write rewrites


def check_writable(path: Path) -> None:
    """Before a long run: ``path`` can be rewritten by :func:`write_block` (a regular UTF-8 file with sound
    markers that we may write, or a new file in a directory that exists or can be made), else one-line UserError."""
    from undercroft.content.loader import read_data_file

    if path.exists() or path.is_symlink():
        if not path.is_file():
            what = "a directory" if path.is_dir() else "not a regular file"
            raise UserError(f"{path}: cannot write the every-monster block: {what}")
        try:
            if path.stat().st_size > MAX_BLOCK_FILE:
                raise UserError(f"{path}: cannot write the every-monster block: larger than 16 MiB")
            _markers(path, read_data_file(path, MAX_BLOCK_FILE).decode("utf-8"))  # (never waits on a FIFO)
        except (OSError, UnicodeError) as exc:
            raise _cannot(path, exc) from None
        if not os.access(path, os.W_OK):
            raise _cannot(path, PermissionError(errno.EACCES, os.strerror(errno.EACCES)))
        return
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise _cannot(path, NotADirectoryError(errno.ENOTDIR, f"{parent} is not a directory"))
    if not os.access(parent, os.W_OK | os.X_OK):
        raise _cannot(path, PermissionError(errno.EACCES, f"{parent}: {os.strerror(errno.EACCES)}"))


def _markers(path: Path, text: str) -> tuple[int, int]:
    """(start of BEGIN, start of END) in ``text``; -1, -1 when the block is absent; UserError when half there."""
    start = text.find(BEGIN)
    end = text.find(END, start + 1) if start >= 0 else -1
    if start >= 0 and end < 0:
        raise UserError(f"{path}: '{BEGIN}' has no '{END}' after it; fix the file by hand")
    if start < 0 and END in text:
        raise UserError(f"{path}: '{END}' has no '{BEGIN}' before it; fix the file by hand")
    return start, end


def write_block(path: Path, block: str) -> str:
    """Replace the marked block of ``path`` (or append it; or create the file with a title). Returns what it did.
    A file that cannot be read or written is a one-line UserError (exit 2), never a traceback."""
    try:
        return _write_block(path, block)
    except (OSError, UnicodeError) as exc:
        raise _cannot(path, exc) from None


def _write_block(path: Path, block: str) -> str:
    from undercroft.content.loader import read_data_file, write_checked

    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        write_checked(path, ("# Balance\n\n" + block).encode())
        return "created"
    text = read_data_file(path, MAX_BLOCK_FILE).decode("utf-8")
    start = text.find(BEGIN)
    end = text.find(END, start + 1) if start >= 0 else -1
    if start >= 0 and end < 0:
        raise UserError(f"{path}: '{BEGIN}' has no '{END}' after it; fix the file by hand")
    if start < 0:
        if END in text:
            raise UserError(f"{path}: '{END}' has no '{BEGIN}' before it; fix the file by hand")
        sep = "" if text.endswith("\n\n") else ("\n" if text.endswith("\n") else "\n\n")
        write_checked(path, (text + sep + block).encode())
        return "appended"
    tail = text[end + len(END) :]
    tail = tail[1:] if tail.startswith("\n") else tail
    write_checked(path, (text[:start] + block + tail).encode())
    return "rewrote"


def cmd_sim(args: argparse.Namespace) -> int:
    from undercroft.cli.progress import Bar, wanted

    content = load_data(args)
    _check_args(args, content)
    seed = _seed(args.seed)
    if args.exhausted and not content.rulesets[args.ruleset].procedures.fatigue:
        print(
            f"undercroft: note: the {args.ruleset} rules have no fatigue, so --exhausted changes nothing",
            file=sys.stderr,
        )
    if args.all:
        matchups = [
            (mid, k)
            for mid in content.monsters
            for k in ([args.count] if args.count is not None else group_sizes(content, mid))
        ]
    else:
        matchups = [(args.monster, args.count or 1)]
    # One matchup: a bar over its fights once it lasts. --all: a bar over the rows (rate and time left) instead,
    # on stderr, only on a terminal and not with --json (stdout, the table or the markdown block, stays clean).
    progress = Progress(args.fights * len(matchups), enabled=not args.all)
    try:
        with Bar(len(matchups), "sim --all", unit="row", enabled=args.all and wanted(args.json)) as rows:
            results = []
            for mid, k in matchups:
                results.append(run_one(content, mid, k, args, seed, progress))
                rows.update(1, f"{mid} x{k}")
    finally:
        progress.close()
    if args.markdown:
        block = markdown_block(results, args)
        if args.write:
            did = write_block(Path(args.write), block)
            print(printable(f"{args.write}: {did} the every-monster block ({len(results)} rows)"))
        else:
            sys.stdout.write(block)
    elif args.json:
        print(json.dumps(results if args.all else results[0]))
    elif args.all:
        show(text_table(results))
    else:
        show(text_report(results[0]))
    return 0
