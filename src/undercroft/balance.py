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
MAX_NO_CHOICE_SHARE = 0.20  # deaths without a choice must stay under this share of the deaths
MAX_TIMEOUTS = 0  # games the bot did not finish

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
            "timeouts": self.timeouts,
            "crashes": self.crashes,
            "survival": [round(s, 4) for s in self.survival],
            "mean_turns": self.mean_turns,
            "targets": {v.name: {"met": v.met, "target": v.target, "value": v.value} for v in verdicts(self)},
        }


def ruleset_stats(ruleset: str, results: Sequence[GameResult], levels: int) -> RulesetStats:
    """The statistics of ``results``, the games of ``ruleset``, whose dungeon has ``levels`` levels (a death deeper
    than that widens the level tables to its level)."""
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
    """The targets of ``stats`` (the win rate only for a ruleset with a target in :data:`WIN_TARGETS`)."""
    out: list[Verdict] = []
    band = WIN_TARGETS.get(stats.ruleset)
    if band is not None:
        lo, hi = band
        out.append(
            Verdict(
                "win_rate",
                stats.games > 0 and lo <= stats.win_rate <= hi,
                f"{100 * lo:.0f}-{100 * hi:.0f} %",
                _pct(stats.win_rate),
            )
        )
    level, share = stats.worst_level
    out.append(
        Verdict(
            "worst_level",
            share <= MAX_LEVEL_SHARE,
            f"<= {100 * MAX_LEVEL_SHARE:.0f} % of the deaths",
            f"level {level}: {_pct(share)}" if level else "no deaths",
        )
    )
    out.append(
        Verdict(
            "no_choice",
            stats.no_choice_share < MAX_NO_CHOICE_SHARE,
            f"< {100 * MAX_NO_CHOICE_SHARE:.0f} % of the deaths",
            _pct(stats.no_choice_share),
        )
    )
    out.append(Verdict("timeouts", stats.timeouts <= MAX_TIMEOUTS, f"{MAX_TIMEOUTS}", str(stats.timeouts)))
    return out


def all_met(stats: Iterable[RulesetStats]) -> bool:
    """Whether every target of every ruleset is met."""
    return all(v.met for s in stats for v in verdicts(s))


# --- markdown ---------------------------------------------------------------------------------------------------


def _mark(met: bool) -> str:
    return "met" if met else "**missed**"


def _table(header: Sequence[str], rows: Iterable[Sequence[str]], right: Sequence[int] = ()) -> list[str]:
    lines = [
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---:" if i in right else "---" for i in range(len(header))) + "|",
    ]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


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
        f"{games} games per ruleset, seed {seed} (game i of each ruleset uses seed {seed}+i), played by the",
        "autoplay bot (`undercroft autoplay`). Win % with its 95 % Wilson score interval.",
        "",
        "Targets: win rate "
        + ", ".join(f"{name} {100 * lo:.0f}-{100 * hi:.0f} %" for name, (lo, hi) in WIN_TARGETS.items())
        + ";",
        f"no level over {100 * MAX_LEVEL_SHARE:.0f} % of a ruleset's deaths; deaths without a choice (the party "
        "never had a way out",
        f"of the fatal meeting) under {100 * MAX_NO_CHOICE_SHARE:.0f} % of the deaths; {MAX_TIMEOUTS} timeouts.",
        "",
    ]
    rows = []
    for s in stats:
        v = {x.name: x for x in verdicts(s)}
        low, high = s.win_interval
        win = v.get("win_rate")
        level, share = s.worst_level
        rows.append(
            [
                s.ruleset,
                str(s.games),
                f"{100 * s.win_rate:.1f} [{100 * low:.1f}, {100 * high:.1f}]",
                f"{win.target} {_mark(win.met)}" if win else "none",
                str(s.deaths),
                (f"L{level} {_pct(share)} " if level else "none ") + _mark(v["worst_level"].met),
                f"{_pct(s.no_choice_share)} {_mark(v['no_choice'].met)}",
                f"{s.timeouts} {_mark(v['timeouts'].met)}",
            ]
        )
    lines += _table(
        ["ruleset", "games", "win % [95% CI]", "target", "deaths", "worst level share", "no-choice share", "timeouts"],
        rows,
        right=(1, 4),
    )
    missed = {s.ruleset: [v.name for v in verdicts(s) if not v.met] for s in stats}
    if any(missed.values()):
        lines += ["", "Missed targets:", ""]
        lines += [f"- {name}: {', '.join(names)}" for name, names in missed.items() if names]
    else:
        lines += ["", "Every target is met."]
    crashed = [f"{s.ruleset} {s.crashes}" for s in stats if s.crashes]
    if crashed:
        lines += ["", "Crashed games (counted in the games, not in the deaths): " + ", ".join(crashed) + "."]
    if charts:
        alts = {
            "survival.png": "Survival by level: the share of games that reached each level, and won",
            "win_rate.png": "Win rate per ruleset with its 95 % interval and the target band",
            "deaths_by_monster.png": "Deaths by monster per ruleset, the most deadly first",
        }
        for name in CHART_NAMES:
            if name in charts:
                lines += ["", f"![{alts[name]}]({charts[name]})"]
    for s in stats:
        lines += [
            "",
            f"### {s.ruleset}",
            "",
            f"{s.games} games: {s.wins} won, {s.deaths} dead, {s.timeouts} timeouts"
            + (f", {s.crashes} crashed" if s.crashes else "")
            + f"; mean turns {s.mean_turns}; deaths without a choice {s.no_choice}"
            + f" ({_pct(s.no_choice_share)} of the deaths).",
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
    _figure, agg = modules
    agg.FigureCanvasAgg(fig)
    fig.savefig(path, format="png", dpi=100, metadata={"Software": None})


def _survival_chart(modules: Any, stats: Sequence[RulesetStats], path: Path) -> None:
    fig = modules[0].Figure(figsize=(8, 4.5), layout="constrained")
    ax = fig.add_subplot()
    depth = max((len(s.survival) for s in stats), default=0)
    labels = [f"L{k}" for k in range(1, depth + 1)] + ["won"]
    for s in stats:
        ys = [100 * x for x in s.survival] + [None] * (depth - len(s.survival)) + [100 * s.win_rate]
        ax.plot(range(len(labels)), ys, marker="o", label=s.ruleset)
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
        ax.barh(range(len(top)), counts, color=f"C{i}")
        ax.set_yticks(range(len(top)), names)
        ax.set_title(f"{s.ruleset}: {s.deaths} deaths in {s.games} games")
        ax.set_xlabel("deaths")
        if not top:
            ax.text(0.5, 0.5, "no deaths", ha="center", va="center", transform=ax.transAxes)
    fig.suptitle(f"Deaths by monster (top {TOP_MONSTERS})")
    _save(modules, fig, path)


def _win_chart(modules: Any, stats: Sequence[RulesetStats], path: Path) -> None:
    fig = modules[0].Figure(figsize=(8, 4.5), layout="constrained")
    ax = fig.add_subplot()
    labelled = False
    for i, s in enumerate(stats):
        band = WIN_TARGETS.get(s.ruleset)
        if band is not None:
            ax.fill_between(
                [i - 0.4, i + 0.4],
                100 * band[0],
                100 * band[1],
                color="tab:green",
                alpha=0.2,
                label=None if labelled else "target",
            )
            labelled = True
        low, high = s.win_interval
        rate = 100 * s.win_rate
        ax.errorbar(
            [i],
            [rate],
            yerr=[[max(0.0, rate - 100 * low)], [max(0.0, 100 * high - rate)]],
            fmt="o",
            capsize=6,
            color=f"C{i}",
        )
        ax.annotate(f"{rate:.1f} %", (i, rate), textcoords="offset points", xytext=(10, -3))
    ax.set_xticks(range(len(stats)), [s.ruleset for s in stats])
    ax.set_xlim(-0.6, len(stats) - 0.4)
    top = max([100 * s.win_interval[1] for s in stats] + [100 * WIN_TARGETS.get(s.ruleset, (0, 0))[1] for s in stats])
    ax.set_ylim(0, min(100.0, max(50.0, top + 10)))
    ax.set_ylabel("win %")
    ax.set_title("Win rate with its 95 % interval; the shaded band is the target")
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
    "MAX_LEVEL_SHARE",
    "MAX_NO_CHOICE_SHARE",
    "MAX_TIMEOUTS",
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
