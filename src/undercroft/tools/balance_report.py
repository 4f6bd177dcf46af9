"""The generated section of docs/BALANCE.md: the statistics and verdicts of :mod:`undercroft.tools.balance` as
markdown (:func:`render_section`), the text between :data:`BEGIN` and :data:`END`, which :func:`replace_section` puts
in place of the old one; :func:`write_atomic` writes the file.
"""

from __future__ import annotations

import os
import tempfile
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from undercroft.tools.balance import (
    BUILDS,
    CHART_NAMES,
    DEEP_FLOORS,
    DEEP_SHARE,
    FINALE_ODDS,
    FLAT_SHARE,
    FLOOR_1_SHARE,
    GREEDY_SHARE,
    KIT_SHARE,
    LAST_FLOOR_WINS,
    LAST_POTIONS,
    MAX_CORNERED,
    MAX_CRASHES,
    MAX_NO_CHOICE_SHARE,
    MAX_TIMEOUTS,
    NOVICE_REACHES,
    NOVICE_WIN_TARGETS,
    RAN_FIRST_SHARE,
    SPENT_SHARE,
    TOP_MONSTERS,
    WIN_TARGETS,
    RulesetStats,
    ci_text,
    pct,
    share_of,
    verdicts,
)

BEGIN = "<!-- autoplay:begin -->"
END = "<!-- autoplay:end -->"


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
    deep = DEEP_FLOORS.get(s.ruleset)
    greedy = v.get("greedy_share")
    return [
        s.ruleset,
        s.policy,
        str(s.games),
        judged("win_rate", f"{100 * s.win_rate:.1f} [{100 * low:.1f}, {100 * high:.1f}]"),
        str(s.deaths),
        judged("floor_1", pct(share_of(s.deaths_on(1, 1), s.deaths))),
        judged("deep_floors", pct(share_of(s.deaths_on(*deep), s.deaths))) if deep else "",
        judged("no_choice", pct(s.no_choice_share)),
        judged("timeouts", str(s.timeouts)),
        f"{greedy.value.split(' [')[0]} {_mark(greedy.met)}" if greedy else "",
    ]


def _targets_text() -> list[str | None]:
    """The targets in words, from the tables above."""
    bands = ", ".join(f"{name} {100 * lo:.0f}-{100 * hi:.0f} %" for name, (lo, hi) in WIN_TARGETS.items())
    deep = ", ".join(
        f"{name}: floor 1 at most {100 * FLOOR_1_SHARE[name]:.0f} % of its deaths, floors {a}-{b} at least "
        f"{100 * DEEP_SHARE[name]:.0f} %"
        for name, (a, b) in DEEP_FLOORS.items()
    )
    novice = ", ".join(
        f"{name}: wins at least {100 * NOVICE_WIN_TARGETS[name][0]:.0f} %, reaches floor {k} in at least "
        f"{100 * least:.0f} % of its games"
        for name, (k, least) in NOVICE_REACHES.items()
    )
    greedy = ", ".join(
        f"{name}: at most {most:.2f} x the careful bot's win rate (it wins 1.3 x)"
        for name, most in GREEDY_SHARE.items()
    )
    return [
        "Targets:",
        "",
        f"- the careful bot: win rate {bands};",
        f"  {deep};" if deep else None,
        f"  deaths without a choice (the party never had a way out of the fatal meeting) at most "
        f"{100 * MAX_NO_CHOICE_SHARE:.0f} % of the deaths;",
        f"  {MAX_CORNERED} floor-1 meetings that cornered it (nothing but a fight lost more often than not: no way",
        "  round, no talk, no affordable bribe, no run that works half the time);",
        *(
            f"  {name}: at most {100 * most:.0f} % of its deaths to a group it ran from at first sight;"
            for name, most in RAN_FIRST_SHARE.items()
        ),
        f"- the novice: {novice};",
        "- the greedy player (the top number at every meeting, the careful bot in all else):",
        f"  {greedy};",
        *(
            line
            for name, (a, b) in DEEP_FLOORS.items()
            if name in LAST_FLOOR_WINS
            for line in textwrap.wrap(
                f"{name}'s last floors: at most {100 * LAST_FLOOR_WINS[name]:.0f} % of the games that reach the "
                f"last floor win; each final guardian's median first-decision odds at most "
                f"{100 * FINALE_ODDS[name]:.0f} %; at most {100 * FLAT_SHARE[name]:.0f} % flat meetings on each of "
                f"floors {a}-{b}; at most {LAST_POTIONS[name]:g} potions carried on the last floor; no kept thing in "
                f"more than {100 * KIT_SHARE[name]:.0f} % of the kits; at least {BUILDS[name][0]} builds each in "
                f"{100 * BUILDS[name][1]:.0f} % of the wins; at least {100 * SPENT_SHARE[name]:.0f} % of the gold "
                f"carried onto floors {a}-{b} spent there;",
                width=114,
                initial_indent="  ",
                subsequent_indent="  ",
            )
        ),
        f"- every bot: {MAX_TIMEOUTS} timeouts, {MAX_CRASHES} crashes.",
    ]


def _verdict_lines(s: RulesetStats) -> list[str]:
    """Each target of ``s``: the value measured with its 95 % interval, the target, the verdict."""
    out = ["Targets:", ""]
    took = dict(s.settled)
    for v in verdicts(s):
        line = f"- {v.name.replace('_', ' ')}: {v.value}; target {v.target}: {_mark(v.met)}"
        if v.name in took:
            n = took[v.name]
            line += f" (decided after {n} games)" if n else f" (not decided after {s.games} games, the cap)"
        out.append(line)
    return out


def render_section(
    stats: Sequence[RulesetStats],
    *,
    command: str,
    seed: int,
    games: int,
    charts: Mapping[str, str] | None = None,
    batch: int = 0,
) -> str:
    """The generated section of docs/BALANCE.md, markers included, without a final newline. ``command`` is the
    command that made it; ``charts`` maps a chart's file name (:data:`CHART_NAMES`) to its path relative to the
    document (none: no charts are linked); ``batch``: the games were played until settled, in batches of that many,
    ``games`` the cap (0: ``games`` of each)."""
    played = (
        f"Played until settled: batches of {batch} games per ruleset and policy, each stopped once every one of its"
        f"\ntargets was decided (its 95 % interval wholly inside or wholly outside the target) or at {games} games;"
        "\nthe games each verdict took are given with it. Seed"
        if batch
        else f"{games} games per ruleset and policy, seed"
    )
    policies = "|".join(dict.fromkeys(s.policy for s in stats)) or "careful"
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
        *f"{played} {seed} (game i of each ruleset uses seed {seed}+i), played by".split("\n"),
        f"each bot (`undercroft autoplay --policy {policies}`) on the same seeds. Rates with their 95 % intervals",
        "(Wilson's score interval; for the greedy player's share of the careful bot's win rate, Katz's log",
        "interval of a ratio). A target is judged by the value measured.",
        "",
        *(line for line in _targets_text() if line is not None),
        "",
    ]
    lines += _table(
        [
            "ruleset",
            "bot",
            "games",
            "win % [95% CI]",
            "deaths",
            "floor 1",
            "deep floors",
            "no choice",
            "timeouts",
            "x careful",
        ],
        (_summary_row(s) for s in stats),
        right=(2, 4),
    )
    lines += [
        "",
        "Floor 1, deep floors (6-8) and no choice: shares of the deaths; x careful: the greedy player's win rate",
        "against the careful bot's. Each judged against its bot's targets (ok, **no**); every target, with its",
        "interval, is listed in the ruleset's section below.",
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
            "floors.png": "Floor by floor per ruleset and policy: deaths per arrival, flat meetings, HP lost a fight",
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
            + f" ({pct(s.no_choice_share)} of the deaths).",
            "",
            f"Floor-1 meetings that cornered the party: {s.cornered_meetings}"
            + (f" ({cornered})" if cornered else "")
            + f". Deaths to a group run from at first sight: {s.ran_first}"
            + f" ({pct(share_of(s.ran_first, s.deaths))}).",
            "",
            *textwrap.wrap(
                "Survival (share of games that reached the level): "
                + ", ".join(f"L{k} {pct(x)}" for k, x in enumerate(s.survival, 1))
                + f", won {pct(s.win_rate)}.",
                width=118,
            ),
            "",
            *_verdict_lines(s),
            "",
        ]
        per_level = zip(s.deaths_by_level, s.level_shares, strict=True)
        lines += _table(
            ["level", "deaths", "share of deaths"],
            ([str(k), str(n), pct(x)] for k, (n, x) in enumerate(per_level, 1)),
            right=(0, 1, 2),
        )
        lines.append("")
        top = s.deaths_by_monster[:TOP_MONSTERS]
        if top:
            lines += _table(
                ["monster", "deaths", "share of deaths"],
                ([name, str(n), pct(share_of(n, s.deaths))] for name, n in top),
                right=(1, 2),
            )
            rest = s.deaths_by_monster[TOP_MONSTERS:]
            if rest:
                others = sum(n for _, n in rest)
                lines.append(f"| ({len(rest)} other) | {others} | {pct(share_of(others, s.deaths))} |")
        else:
            lines.append("No deaths.")
        lines += _depth_lines(s)
    lines += ["", END]
    return "\n".join(lines)


def _depth_lines(s: RulesetStats) -> list[str]:
    """The floor-by-floor measures of ``s`` (none for games not measured so)."""
    floors = s.depth.get("floors", [])
    if not floors:
        return []
    out = ["", "Floor by floor (flat: the fight reads 95 % or more at a meeting's first decision):", ""]
    out += _table(
        ["floor", "arrived", "deaths", "flat", "HP lost a fight", "gold in", "potions", "spent", "level"],
        (
            [
                str(f["floor"]),
                str(f["arrivals"]),
                str(f["deaths"]),
                f"{pct(f['flat'])} of {f['meetings']}",
                pct(f["hp_lost_per_fight"]),
                f"{f['gold_on_arrival']:.0f}",
                f"{f['potions_on_arrival']:.1f}",
                pct(f["spent_share"]),
                f"{f['level_on_arrival']:g}",
            ]
            for f in floors
        ),
        right=tuple(range(9)),
    )
    finale = "; ".join(
        f"{name} {pct(g['median'])} {ci_text(g['median_ci95'])} ({g['meetings']})"
        for name, g in s.depth["finale"].items()
    )
    kits = ", ".join(f"{item} {pct(x)}" for item, x in s.depth["kit_shares"].items())
    builds = ", ".join(f"{name} {n}" for name, n in s.depth["builds"].items())
    out += [
        "",
        f"Final guardians, median first-decision odds [95 % interval] (meetings): {finale or 'none met'}.",
        "",
        f"Kits that set out on the last floor ({s.depth['kits']}): {kits or 'none'}.",
        "",
        f"Builds of the wins (weapon, armour): {builds or 'none'}.",
    ]
    return out


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


__all__ = ["BEGIN", "END", "render_section", "replace_section", "write_atomic"]
