"""The balance report's charts (``undercroft balance``, beside docs/BALANCE.md): survival by floor, deaths by
monster and the win rates, each policy drawn its own way. They need matplotlib, the optional extra
``undercroft[plot]``: :func:`plotting` says whether it can be imported. The statistics: :mod:`undercroft.tools.balance`.
"""

from __future__ import annotations

import importlib
import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from undercroft.tools.balance import CHART_NAMES, TOP_MONSTERS, WIN_TARGETS, RulesetStats

POLICY_LOOK: dict[str, tuple[str, str, float, float]] = {  # in the charts: line, marker, alpha, offset
    "careful": ("-", "o", 1.0, -0.2),
    "novice": ("--", "s", 0.55, 0.0),
    "greedy": (":", "^", 0.35, 0.2),
    "thorough": ("-.", "D", 0.75, 0.4),
}


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
        style = POLICY_LOOK.get(s.policy, POLICY_LOOK["careful"])[0]
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
        alpha = POLICY_LOOK.get(s.policy, POLICY_LOOK["careful"])[2]
        ax.barh(range(len(top)), counts, color=_colours(stats)[s.ruleset], alpha=alpha)
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
        look = POLICY_LOOK.get(s.policy, POLICY_LOOK["careful"])
        x = rulesets.index(s.ruleset) + look[3]
        low, high = s.win_interval
        rate = 100 * s.win_rate
        ax.errorbar(
            [x],
            [rate],
            yerr=[[max(0.0, rate - 100 * low)], [max(0.0, 100 * high - rate)]],
            fmt=look[1],
            capsize=6,
            color=colours[s.ruleset],
        )
        ax.annotate(f"{s.policy[0]} {rate:.1f} %", (x, rate), textcoords="offset points", xytext=(8, -3))
    ax.set_xticks(range(len(rulesets)), rulesets)
    ax.set_xlim(-0.6, len(rulesets) - 0.4)
    top = max([100 * s.win_interval[1] for s in stats] + [100 * WIN_TARGETS.get(r, (0, 0))[1] for r in rulesets])
    ax.set_ylim(0, min(100.0, max(50.0, top + 10)))
    ax.set_ylabel("win %")
    ax.set_title("Win rate (c: careful, circles; n: novice, squares; g: greedy, triangles) with its 95 % interval")
    ax.grid(True, axis="y", alpha=0.3)
    if labelled:
        ax.legend(loc="upper right")
    _save(modules, fig, path)


def _floors_chart(modules: Any, stats: Sequence[RulesetStats], path: Path) -> None:
    """Floor by floor: the deaths per arrival, the flat meetings' share and the hit points lost a fight."""
    fig = modules[0].Figure(figsize=(12, 4), layout="constrained")
    axes = fig.subplots(1, 3)
    colours = _colours(stats)
    panels = (
        ("deaths per arrival", "deaths"),
        ("flat meetings (the fight reads 95 % or more)", "flat"),
        ("HP lost a fight, of the maximum", "hp_lost_per_fight"),
    )
    for ax, (title, key) in zip(axes, panels, strict=True):
        for s in stats:
            floors = s.depth.get("floors", [])
            style = POLICY_LOOK.get(s.policy, POLICY_LOOK["careful"])[0]
            xs = [f["floor"] for f in floors]
            per = [f["arrivals"] if key == "deaths" else 1 for f in floors]
            ys = [100 * f[key] / max(1, n) for f, n in zip(floors, per, strict=True)]
            ax.plot(xs, ys, style, marker="o", color=colours[s.ruleset], label=f"{s.ruleset}, {s.policy}")
        ax.set_title(title)
        ax.set_xlabel("floor")
        ax.set_ylabel("%")
        ax.grid(True, alpha=0.3)
    axes[0].legend(fontsize="small")
    _save(modules, fig, path)


def write_charts(modules: Any, stats: Sequence[RulesetStats], directory: Path) -> dict[str, Path]:
    """Draw the charts of :data:`CHART_NAMES` into ``directory`` (which must exist) with the modules of
    :func:`plotting`; their paths by name. Raises OSError."""
    out: dict[str, Path] = {}
    for name, draw in zip(CHART_NAMES, (_survival_chart, _monster_chart, _win_chart, _floors_chart), strict=True):
        path = directory / name
        draw(modules, stats, path)
        out[name] = path
    return out
