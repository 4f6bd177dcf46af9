"""The balance report of ``undercroft balance``: statistics of bot games, their targets, markdown and charts.

Everything here is a pure function of a list of :class:`~undercroft.autoplay.GameResult` (the games are played by
:mod:`undercroft.cli.balance`), apart from :func:`write_atomic` and :func:`write_charts`, which write files.
The statistics of one ruleset are a :class:`RulesetStats`; each is judged against the targets below
(:func:`verdicts`); :func:`render_section` turns them into the generated section of docs/BALANCE.md, the text
between :data:`BEGIN` and :data:`END`, which :func:`replace_section` puts in place of the old one. The charts
need matplotlib (the optional extra ``undercroft[plot]``); :func:`plotting` says whether it can be imported.
"""

from __future__ import annotations

import importlib
import io
import math
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from undercroft.autoplay import GameResult

BEGIN = "<!-- autoplay:begin -->"
END = "<!-- autoplay:end -->"

# The targets. Win rate: the share of games won, as a fraction, lowest and highest (both included).
WIN_TARGETS: dict[str, tuple[float, float]] = {
    "undercroft": (0.25, 0.45),
    "crawler": (0.15, 0.40),
    "citadel": (0.15, 0.40),
    "warden": (0.05, 0.25),
}
MAX_LEVEL_SHARE = 0.40  # no level may hold more than this share of a ruleset's deaths
MAX_NO_CHOICE_SHARE = 0.10  # deaths without a choice must stay at or under this share of the deaths
MAX_TIMEOUTS = 0  # games the bot did not finish
MAX_CORNERED = 0  # floor-1 meetings that left the careful bot nothing but a fight it loses more often than not
# The novice's targets (a person's first games): its win rate (lowest, highest) where it has one, and floor 1's
# share of deaths.
NOVICE_WIN_TARGETS: dict[str, tuple[float, float]] = {"undercroft": (0.05, 1.0)}
FLOOR_1_SHARE = {"careful": 1 / 3, "novice": 1 / 2}  # floor 1 holds at most this share of the deaths

Z95 = 1.959963984540054  # the standard normal quantile of 0.975: a 95 % two-sided interval

CHART_NAMES: tuple[str, ...] = ("survival.png", "deaths_by_monster.png", "win_rate.png")
TOP_MONSTERS = 10  # monsters shown per ruleset, in the tables and the chart


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion of ``successes`` in ``n`` trials, as (low, high) fractions;
    (0, 1) when there were no trials."""
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be 0..{n}, not {successes}")
    p = successes / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def _share(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


@dataclass(frozen=True)
class RulesetStats:
    """The statistics of the bot's games of one ruleset.

    ``deaths_by_level[k - 1]`` counts the deaths on level k; ``deaths_by_monster`` is (monster, deaths), most
    deaths first, then by name; ``survival[k - 1]`` is the share of games that reached level k (k = 1..levels),
    and ``win_rate`` the share that won, the last step of the survival curve."""

    ruleset: str
    games: int
    wins: int
    deaths: int
    deaths_by_level: tuple[int, ...]
    deaths_by_monster: tuple[tuple[str, int], ...]
    no_choice: int
    timeouts: int
    crashes: int
    survival: tuple[float, ...]
    mean_turns: float
    policy: str = "careful"
    cornered: tuple[tuple[str, int], ...] = ()  # floor-1 meetings that cornered the party, by monster (most first)

    @property
    def cornered_meetings(self) -> int:
        """Floor-1 meetings that left the party nothing but a fight it loses more often than not."""
        return sum(n for _, n in self.cornered)

    @property
    def win_rate(self) -> float:
        return _share(self.wins, self.games)

    @property
    def win_interval(self) -> tuple[float, float]:
        """The 95 % Wilson score interval of the win rate."""
        return wilson(self.wins, self.games)

    @property
    def level_shares(self) -> tuple[float, ...]:
        """Each level's share of the deaths (all 0 without deaths)."""
        return tuple(_share(n, self.deaths) for n in self.deaths_by_level)

    @property
    def worst_level(self) -> tuple[int, float]:
        """The level with the largest share of the deaths (the lowest such level) and that share; (0, 0.0)
        without deaths."""
        if not self.deaths:
            return (0, 0.0)
        shares = self.level_shares
        best = max(range(len(shares)), key=lambda i: (shares[i], -i))
        return (best + 1, shares[best])

    @property
    def no_choice_share(self) -> float:
        """The share of the deaths that were deaths without a choice."""
        return _share(self.no_choice, self.deaths)

    def to_dict(self) -> dict[str, Any]:
        """The statistics and the verdicts as JSON-ready values (rates as fractions rounded to 4 places)."""
        low, high = self.win_interval
        level, share = self.worst_level
        return {
            "ruleset": self.ruleset,
            "policy": self.policy,
            "games": self.games,
            "wins": self.wins,
            "win_rate": round(self.win_rate, 4),
            "win_ci95": [round(low, 4), round(high, 4)],
            "deaths": self.deaths,
            "deaths_by_level": list(self.deaths_by_level),
            "death_share_by_level": [round(s, 4) for s in self.level_shares],
            "worst_level": level,
            "worst_level_share": round(share, 4),
            "deaths_by_monster": dict(self.deaths_by_monster),
            "deaths_without_choice": self.no_choice,
            "no_choice_share": round(self.no_choice_share, 4),
            "cornered_on_floor_1": self.cornered_meetings,
            "cornered_by_monster": dict(self.cornered),
            "timeouts": self.timeouts,
            "crashes": self.crashes,
            "survival": [round(s, 4) for s in self.survival],
            "mean_turns": self.mean_turns,
            "targets": {v.name: {"met": v.met, "target": v.target, "value": v.value} for v in verdicts(self)},
        }


def _tally(names: Iterable[str]) -> tuple[tuple[str, int], ...]:
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return tuple(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def ruleset_stats(ruleset: str, results: Sequence[GameResult], levels: int, policy: str = "careful") -> RulesetStats:
    """The statistics of ``results``, the games of ``ruleset`` played by the bot of ``policy``, whose dungeon has
    ``levels`` levels (a death deeper than that widens the level tables to its level)."""
    dead = [r for r in results if r.outcome == "dead"]
    depth = max([levels, *(r.deepest for r in dead)])
    by_level = [0] * depth
    monsters: dict[str, int] = {}
    for r in dead:
        if r.deepest >= 1:
            by_level[r.deepest - 1] += 1
        key = r.cause or "unknown"
        monsters[key] = monsters.get(key, 0) + 1
    games = len(results)
    survival = tuple(
        _share(sum(r.outcome == "won" or r.deepest >= k for r in results), games) for k in range(1, depth + 1)
    )
    return RulesetStats(
        ruleset=ruleset,
        games=games,
        wins=sum(r.outcome == "won" for r in results),
        deaths=len(dead),
        deaths_by_level=tuple(by_level),
        deaths_by_monster=tuple(sorted(monsters.items(), key=lambda kv: (-kv[1], kv[0]))),
        no_choice=sum(r.choice is False for r in dead),
        timeouts=sum(r.outcome == "timeout" for r in results),
        crashes=sum(r.outcome == "crash" for r in results),
        survival=survival,
        mean_turns=round(sum(r.turns for r in results) / games, 1) if games else 0.0,
        policy=policy,
        cornered=_tally(name for r in results for name in r.cornered),
    )


@dataclass(frozen=True)
class Verdict:
    """One target of one ruleset: its name, whether it is met, the target and the value in words."""

    name: str  # "win_rate", "worst_level", "no_choice", "timeouts"
    met: bool
    target: str
    value: str


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def verdicts(stats: RulesetStats) -> list[Verdict]:
    """The targets of ``stats``: those of its policy (the careful bot's, or the novice's)."""
    return _novice_verdicts(stats) if stats.policy == "novice" else _careful_verdicts(stats)


def _win_verdict(stats: RulesetStats, band: tuple[float, float] | None) -> list[Verdict]:
    if band is None:
        return []
    lo, hi = band
    target = f"{100 * lo:.0f}-{100 * hi:.0f} %" if hi < 1 else f">= {100 * lo:.0f} %"
    return [Verdict("win_rate", stats.games > 0 and lo <= stats.win_rate <= hi, target, _pct(stats.win_rate))]


def _floor_1_verdict(stats: RulesetStats) -> Verdict:
    most = FLOOR_1_SHARE[stats.policy]
    share = stats.level_shares[0] if stats.level_shares else 0.0
    return Verdict("floor_1", share <= most + 1e-9, f"<= {100 * most:.0f} % of the deaths", _pct(share))


def _careful_verdicts(stats: RulesetStats) -> list[Verdict]:
    out = _win_verdict(stats, WIN_TARGETS.get(stats.ruleset))
    level, share = stats.worst_level
    out.append(
        Verdict(
            "worst_level",
            share <= MAX_LEVEL_SHARE,
            f"<= {100 * MAX_LEVEL_SHARE:.0f} % of the deaths",
            f"level {level}: {_pct(share)}" if level else "no deaths",
        )
    )
    out.append(_floor_1_verdict(stats))
    out.append(
        Verdict(
            "no_choice",
            stats.no_choice_share <= MAX_NO_CHOICE_SHARE,
            f"<= {100 * MAX_NO_CHOICE_SHARE:.0f} % of the deaths",
            _pct(stats.no_choice_share),
        )
    )
    out.append(
        Verdict("cornered", stats.cornered_meetings <= MAX_CORNERED, f"{MAX_CORNERED}", str(stats.cornered_meetings))
    )
    out.append(Verdict("timeouts", stats.timeouts <= MAX_TIMEOUTS, f"{MAX_TIMEOUTS}", str(stats.timeouts)))
    return out


def _novice_verdicts(stats: RulesetStats) -> list[Verdict]:
    band = NOVICE_WIN_TARGETS.get(stats.ruleset)
    out = _win_verdict(stats, band)
    if band is not None:  # (the novice targets are undercroft's)
        out.append(_floor_1_verdict(stats))
    out.append(Verdict("timeouts", stats.timeouts <= MAX_TIMEOUTS, f"{MAX_TIMEOUTS}", str(stats.timeouts)))
    return out


def all_met(stats: Iterable[RulesetStats]) -> bool:
    """Whether every target of every ruleset is met."""
    return all(v.met for s in stats for v in verdicts(s))


# --- markdown ---------------------------------------------------------------------------------------------------


def _mark(met: bool) -> str:
    return "ok" if met else "**no**"


def _table(header: Sequence[str], rows: Iterable[Sequence[str]], right: Sequence[int] = ()) -> list[str]:
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---:" if i in right else "---" for i in range(len(header))) + "|",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def _summary_row(s: RulesetStats) -> list[str]:
    v = {x.name: x for x in verdicts(s)}

    def judged(name: str, text: str) -> str:
        return f"{text} {_mark(v[name].met)}" if name in v else text

    low, high = s.win_interval
    win = v.get("win_rate")
    floor_1 = s.level_shares[0] if s.level_shares else 0.0
    return [
        s.ruleset,
        s.policy,
        str(s.games),
        f"{100 * s.win_rate:.1f} [{100 * low:.1f}, {100 * high:.1f}]",
        f"{win.target} {_mark(win.met)}" if win else "none",
        str(s.deaths),
        judged("floor_1", _pct(floor_1)),
        judged("no_choice", _pct(s.no_choice_share)),
        judged("cornered", str(s.cornered_meetings)),
        judged("timeouts", str(s.timeouts)),
    ]


def render_section(
    stats: Sequence[RulesetStats], *, command: str, seed: int, games: int, charts: Mapping[str, str] | None = None
) -> str:
    """The generated section of docs/BALANCE.md, markers included, without a final newline. ``command`` is the
    command that made it; ``charts`` maps a chart's file name (:data:`CHART_NAMES`) to its path relative to the
    document (none: no charts are linked)."""
    lines = [
        BEGIN,
        "",
        "## Bot games",
        "",
        "Generated; do not edit by hand. Regenerated with:",
        "",
        "```sh",
        command,
        "```",
        "",
        f"{games} games per ruleset and policy, seed {seed} (game i of each ruleset uses seed {seed}+i), played by",
        "the careful bot and the novice (`undercroft autoplay --policy careful|novice`), side by side. Win % with its",
        "95 % Wilson score interval.",
        "",
        "Targets of the careful bot: win rate "
        + ", ".join(f"{name} {100 * lo:.0f}-{100 * hi:.0f} %" for name, (lo, hi) in WIN_TARGETS.items())
        + ";",
        f"no level over {100 * MAX_LEVEL_SHARE:.0f} % of a ruleset's deaths, floor 1 at most "
        f"{100 * FLOOR_1_SHARE['careful']:.0f} %; deaths without a choice (the party",
        f"never had a way out of the fatal meeting) at most {100 * MAX_NO_CHOICE_SHARE:.0f} % of the deaths; "
        f"{MAX_CORNERED} floor-1 meetings that cornered it",
        "(nothing but a fight lost more often than not: no way round, no talk, no affordable bribe, no run that",
        f"works half the time); {MAX_TIMEOUTS} timeouts.",
        "Targets of the novice: win rate "
        + ", ".join(f"{name} at least {100 * lo:.0f} %" for name, (lo, _hi) in NOVICE_WIN_TARGETS.items())
        + f", floor 1 at most {100 * FLOOR_1_SHARE['novice']:.0f} % of its deaths there; {MAX_TIMEOUTS} timeouts.",
        "",
    ]
    lines += _table(
        [
            "ruleset",
            "bot",
            "games",
            "win % [95% CI]",
            "target",
            "deaths",
            "floor 1",
            "no choice",
            "cornered",
            "timeouts",
        ],
        (_summary_row(s) for s in stats),
        right=(2, 5),
    )
    lines += [
        "",
        "Floor 1 and no choice: shares of the deaths; cornered: floor-1 meetings that left the party nothing but a",
        "fight it loses more often than not. Each judged against its bot's targets (ok, **no**); the worst level",
        "below (the level tables) is judged too.",
    ]
    missed = {f"{s.ruleset} ({s.policy})": [v.name for v in verdicts(s) if not v.met] for s in stats}
    if any(missed.values()):
        lines += ["", "Missed targets:", ""]
        lines += [f"- {name}: {', '.join(names)}" for name, names in missed.items() if names]
    else:
        lines += ["", "Every target is met."]
    crashed = [f"{s.ruleset} ({s.policy}) {s.crashes}" for s in stats if s.crashes]
    if crashed:
        lines += ["", "Crashed games (counted in the games, not in the deaths): " + ", ".join(crashed) + "."]
    if charts:
        alts = {
            "survival.png": "Survival by level per ruleset and policy: the share of games that reached each level, "
            "and won",
            "win_rate.png": "Win rate per ruleset and policy with its 95 % interval and the careful bot's target band",
            "deaths_by_monster.png": "Deaths by monster per ruleset and policy, the most deadly first",
        }
        for name in CHART_NAMES:
            if name in charts:
                lines += ["", f"![{alts[name]}]({charts[name]})"]
    for s in stats:
        cornered = ", ".join(f"{name} {n}" for name, n in s.cornered)
        lines += [
            "",
            f"### {s.ruleset}, {s.policy}",
            "",
            f"{s.games} games: {s.wins} won, {s.deaths} dead, {s.timeouts} timeouts"
            + (f", {s.crashes} crashed" if s.crashes else "")
            + f"; mean turns {s.mean_turns}; deaths without a choice {s.no_choice}"
            + f" ({_pct(s.no_choice_share)} of the deaths).",
            "",
            f"Floor-1 meetings that cornered the party: {s.cornered_meetings}"
            + (f" ({cornered})" if cornered else "")
            + ".",
            "",
            "Survival (share of games that reached the level): "
            + ", ".join(f"L{k} {_pct(x)}" for k, x in enumerate(s.survival, 1))
            + f", won {_pct(s.win_rate)}.",
            "",
        ]
        per_level = zip(s.deaths_by_level, s.level_shares, strict=True)
        lines += _table(
            ["level", "deaths", "share of deaths"],
            ([str(k), str(n), _pct(x)] for k, (n, x) in enumerate(per_level, 1)),
            right=(0, 1, 2),
        )
        lines.append("")
        top = s.deaths_by_monster[:TOP_MONSTERS]
        if top:
            lines += _table(
                ["monster", "deaths", "share of deaths"],
                ([name, str(n), _pct(_share(n, s.deaths))] for name, n in top),
                right=(1, 2),
            )
            rest = s.deaths_by_monster[TOP_MONSTERS:]
            if rest:
                others = sum(n for _, n in rest)
                lines.append(f"| ({len(rest)} other) | {others} | {_pct(_share(others, s.deaths))} |")
        else:
            lines.append("No deaths.")
    lines += ["", END]
    return "\n".join(lines)


def replace_section(document: str, section: str) -> str:
    """``document`` with its text from :data:`BEGIN` to :data:`END` (markers included) replaced by ``section``,
    every other byte kept; without the markers, ``section`` is appended after a blank line. Raises ValueError when
    the markers are there but not as one :data:`BEGIN` followed by one :data:`END`."""
    begins, ends = document.count(BEGIN), document.count(END)
    if begins == 0 and ends == 0:
        if not document:
            return section + "\n"
        return document + ("\n" if document.endswith("\n") else "\n\n") + section + "\n"
    start, stop = document.find(BEGIN), document.find(END)
    if begins != 1 or ends != 1 or stop < start:
        raise ValueError(f"the document must hold one {BEGIN} followed by one {END}")
    return document[:start] + section + document[stop + len(END) :]


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file beside it and os.replace: a reader sees the old
    file or the new one, never half of one. Raises OSError."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        if path.exists():
            os.chmod(tmp, path.stat().st_mode & 0o7777)
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# --- charts -----------------------------------------------------------------------------------------------------


def plotting() -> Any | None:
    """matplotlib's ``figure`` and Agg canvas modules as a pair, or None when matplotlib is not installed."""
    try:
        figure: Any = importlib.import_module("matplotlib.figure")
        agg: Any = importlib.import_module("matplotlib.backends.backend_agg")
    except ImportError:
        return None
    return (figure, agg)


def _save(modules: Any, fig: Any, path: Path) -> None:
    """Draw ``fig`` as a PNG into ``path``, a regular file (a FIFO there is refused, never waited on)."""
    from undercroft.content.loader import write_checked

    _figure, agg = modules
    agg.FigureCanvasAgg(fig)
    png = io.BytesIO()
    fig.savefig(png, format="png", dpi=100, metadata={"Software": None})
    write_checked(path, png.getvalue())


def _survival_chart(modules: Any, stats: Sequence[RulesetStats], path: Path) -> None:
    fig = modules[0].Figure(figsize=(8, 4.5), layout="constrained")
    ax = fig.add_subplot()
    depth = max((len(s.survival) for s in stats), default=0)
    labels = [f"L{k}" for k in range(1, depth + 1)] + ["won"]
    colours = _colours(stats)
    for s in stats:
        ys = [100 * x for x in s.survival] + [None] * (depth - len(s.survival)) + [100 * s.win_rate]
        style = "--" if s.policy == "novice" else "-"
        ax.plot(range(len(labels)), ys, style, marker="o", color=colours[s.ruleset], label=f"{s.ruleset}, {s.policy}")
    ax.set_xticks(range(len(labels)), labels)
    ax.set_ylim(0, 105)
    ax.set_ylabel("% of games")
    ax.set_title("Survival by level: games that reached each level, and won")
    ax.grid(True, alpha=0.3)
    ax.legend()
    _save(modules, fig, path)


def _monster_chart(modules: Any, stats: Sequence[RulesetStats], path: Path) -> None:
    n = max(1, len(stats))
    cols = 2 if n > 1 else 1
    rows = (n + cols - 1) // cols
    fig = modules[0].Figure(figsize=(6 * cols, 3.2 * rows), layout="constrained")
    axes = fig.subplots(rows, cols, squeeze=False)
    for i in range(rows * cols):
        ax = axes[i // cols][i % cols]
        if i >= len(stats):
            ax.set_axis_off()
            continue
        s = stats[i]
        top = list(s.deaths_by_monster[:TOP_MONSTERS])
        names = [name for name, _ in reversed(top)]
        counts = [count for _, count in reversed(top)]
        ax.barh(range(len(top)), counts, color=_colours(stats)[s.ruleset], alpha=0.55 if s.policy == "novice" else 1)
        ax.set_yticks(range(len(top)), names)
        ax.set_title(f"{s.ruleset}, {s.policy}: {s.deaths} deaths in {s.games} games")
        ax.set_xlabel("deaths")
        if not top:
            ax.text(0.5, 0.5, "no deaths", ha="center", va="center", transform=ax.transAxes)
    fig.suptitle(f"Deaths by monster (top {TOP_MONSTERS})")
    _save(modules, fig, path)


def _colours(stats: Sequence[RulesetStats]) -> dict[str, str]:
    """One colour per ruleset (both policies of a ruleset share it), in the order the rulesets come."""
    out: dict[str, str] = {}
    for s in stats:
        out.setdefault(s.ruleset, f"C{len(out)}")
    return out


def _win_chart(modules: Any, stats: Sequence[RulesetStats], path: Path) -> None:
    fig = modules[0].Figure(figsize=(8, 4.5), layout="constrained")
    ax = fig.add_subplot()
    colours = _colours(stats)
    rulesets = list(colours)
    labelled = False
    for name in rulesets:
        i = rulesets.index(name)
        band = WIN_TARGETS.get(name)
        if band is not None:
            ax.fill_between(
                [i - 0.4, i + 0.4],
                100 * band[0],
                100 * band[1],
                color="tab:green",
                alpha=0.2,
                label=None if labelled else "target (careful)",
            )
            labelled = True
    for s in stats:
        x = rulesets.index(s.ruleset) + (0.15 if s.policy == "novice" else -0.15)
        low, high = s.win_interval
        rate = 100 * s.win_rate
        ax.errorbar(
            [x],
            [rate],
            yerr=[[max(0.0, rate - 100 * low)], [max(0.0, 100 * high - rate)]],
            fmt="s" if s.policy == "novice" else "o",
            capsize=6,
            color=colours[s.ruleset],
        )
        ax.annotate(f"{s.policy[0]} {rate:.1f} %", (x, rate), textcoords="offset points", xytext=(8, -3))
    ax.set_xticks(range(len(rulesets)), rulesets)
    ax.set_xlim(-0.6, len(rulesets) - 0.4)
    top = max([100 * s.win_interval[1] for s in stats] + [100 * WIN_TARGETS.get(r, (0, 0))[1] for r in rulesets])
    ax.set_ylim(0, min(100.0, max(50.0, top + 10)))
    ax.set_ylabel("win %")
    ax.set_title("Win rate (c: careful, circles; n: novice, squares) with its 95 % interval")
    ax.grid(True, axis="y", alpha=0.3)
    if labelled:
        ax.legend(loc="upper right")
    _save(modules, fig, path)


def write_charts(modules: Any, stats: Sequence[RulesetStats], directory: Path) -> dict[str, Path]:
    """Draw the three charts of :data:`CHART_NAMES` into ``directory`` (which must exist) with the modules of
    :func:`plotting`; their paths by name. Raises OSError."""
    out: dict[str, Path] = {}
    for name, draw in zip(CHART_NAMES, (_survival_chart, _monster_chart, _win_chart), strict=True):
        path = directory / name
        draw(modules, stats, path)
        out[name] = path
    return out


__all__ = [
    "BEGIN",
    "CHART_NAMES",
    "END",
    "MAX_CORNERED",
    "MAX_LEVEL_SHARE",
    "MAX_NO_CHOICE_SHARE",
    "MAX_TIMEOUTS",
    "NOVICE_WIN_TARGETS",
    "WIN_TARGETS",
    "RulesetStats",
    "Verdict",
    "all_met",
    "plotting",
    "render_section",
    "replace_section",
    "ruleset_stats",
    "verdicts",
    "wilson",
    "write_atomic",
    "write_charts",
]
