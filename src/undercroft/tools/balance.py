"""The balance of ``undercroft balance``: statistics of bot games and their targets.

Everything here is a pure function of a list of :class:`~undercroft.tools.autoplay.GameResult` (the games are played by
:mod:`undercroft.cli.balance`). The statistics of one ruleset are a :class:`RulesetStats`; each is judged against
the targets below (:func:`verdicts`). The markdown of docs/BALANCE.md's generated section:
:mod:`undercroft.tools.balance_report`; the charts: :mod:`undercroft.tools.balance_charts`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from undercroft.tools.autoplay import GameResult, depth_report

# The targets: a run with an arc, and planning that pays. The careful bot's win rate: the share of games won, as a
# fraction, lowest and highest (both included).
WIN_TARGETS: dict[str, tuple[float, float]] = {
    "undercroft": (0.30, 0.50),
    "crawler": (0.15, 0.40),
    "citadel": (0.15, 0.40),
    "warden": (0.05, 0.25),
}
MAX_NO_CHOICE_SHARE = 0.05  # deaths without a choice must stay at or under this share of the deaths
# Getting away is worth what it leaves behind: at most this share of the deaths are to a group the party ran from
# at first sight (its first answer to the group was to run: autoplay.GameResult.ran_first).
RAN_FIRST_SHARE: dict[str, float] = {"warden": 1 / 3}
MAX_TIMEOUTS = 0  # games the bot did not finish
MAX_CRASHES = 0  # games the engine crashed in
MAX_CORNERED = 0  # floor-1 meetings that left the careful bot nothing but a fight it loses more often than not
# Where the careful bot dies (the danger rises with depth): floor 1 holds at most FLOOR_1_SHARE of its deaths, the
# deep floors (DEEP_FLOORS, first and last) at least DEEP_SHARE.
FLOOR_1_SHARE: dict[str, float] = {"undercroft": 0.20}
DEEP_FLOORS: dict[str, tuple[int, int]] = {"undercroft": (6, 8)}
DEEP_SHARE: dict[str, float] = {"undercroft": 0.40}
# The second half (the deep floors above) asks to the end, measured floor by floor (autoplay.depth_report): at most
# LAST_FLOOR_WINS of the games that reach the last floor win; each final guardian's median first-decision fight
# odds at most FINALE_ODDS; at most FLAT_SHARE of a deep floor's meetings are flat (their fight reads 95 % or more);
# at most LAST_POTIONS potions carried on the last floor (mean); no kept thing in more than KIT_SHARE of the kits
# that set out on it; at least BUILDS[0] builds each in BUILDS[1] of the wins or more; at least SPENT_SHARE of the
# gold carried onto the deep floors spent there.
LAST_FLOOR_WINS: dict[str, float] = {"undercroft": 0.75}
FINALE_ODDS: dict[str, float] = {"undercroft": 0.85}
FLAT_SHARE: dict[str, float] = {"undercroft": 0.60}
LAST_POTIONS: dict[str, float] = {"undercroft": 4.0}
KIT_SHARE: dict[str, float] = {"undercroft": 0.75}
BUILDS: dict[str, tuple[int, float]] = {"undercroft": (3, 0.10)}
SPENT_SHARE: dict[str, float] = {"undercroft": 0.40}
# The novice's (a person's first games): its win rate (lowest, highest), and a floor it reaches in at least a share
# of its games.
NOVICE_WIN_TARGETS: dict[str, tuple[float, float]] = {"undercroft": (0.02, 1.0)}
NOVICE_REACHES: dict[str, tuple[int, float]] = {"undercroft": (3, 0.5)}
# The greedy player's (judgment must pay): its win rate at most this times the careful bot's on the same seeds
# (the careful bot wins at least 1.3 times as often).
GREEDY_SHARE: dict[str, float] = {"undercroft": 1 / 1.3}
# The thorough player's (growth must not let grinding outgrow the game): its win rate at most the careful bot's on
# the same seeds plus this.
THOROUGH_MARGIN: dict[str, float] = {"undercroft": 0.15}

Z95 = 1.959963984540054  # the standard normal quantile of 0.975: a 95 % two-sided interval

CHART_NAMES: tuple[str, ...] = (
    "survival.png",
    "deaths_by_monster.png",
    "win_rate.png",
    "floors.png",
)  # balance_charts.py
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


def ratio_interval(a: int, n1: int, b: int, n2: int, z: float = Z95) -> tuple[float, float]:
    """The 95 % interval of the ratio of two proportions, ``a`` in ``n1`` over ``b`` in ``n2`` (Katz's log method;
    a half added to each count when either is 0); (0, inf) without trials."""
    if n1 <= 0 or n2 <= 0 or (a <= 0 and b <= 0):
        return (0.0, math.inf)
    x, y, m1, m2 = (a + 0.5, b + 0.5, n1 + 0.5, n2 + 0.5) if a == 0 or b == 0 else (a, b, n1, n2)
    ratio = (x / m1) / (y / m2)
    se = math.sqrt(1 / x - 1 / m1 + 1 / y - 1 / m2)
    return (ratio * math.exp(-z * se), ratio * math.exp(z * se))


def share_of(part: int, whole: int) -> float:
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
    careful: tuple[int, int] | None = None  # (wins, games) of the careful bot on the same seeds (the greedy's target)
    # ``balance --until-settled``: each target's games to its verdict (its interval decided from then on; 0: not
    # decided when the games stopped at the cap); empty for a fixed number of games
    settled: tuple[tuple[str, int], ...] = ()
    depth: Mapping[str, Any] = field(default_factory=dict)  # the floor-by-floor measures (autoplay.depth_report)
    ran_first: int = 0  # deaths to a group the party ran from at first sight

    @property
    def cornered_meetings(self) -> int:
        """Floor-1 meetings that left the party nothing but a fight it loses more often than not."""
        return sum(n for _, n in self.cornered)

    @property
    def win_rate(self) -> float:
        return share_of(self.wins, self.games)

    @property
    def win_interval(self) -> tuple[float, float]:
        """The 95 % Wilson score interval of the win rate."""
        return wilson(self.wins, self.games)

    @property
    def level_shares(self) -> tuple[float, ...]:
        """Each level's share of the deaths (all 0 without deaths)."""
        return tuple(share_of(n, self.deaths) for n in self.deaths_by_level)

    @property
    def worst_level(self) -> tuple[int, float]:
        """The level with the largest share of the deaths (the lowest such level) and that share; (0, 0.0)
        without deaths."""
        if not self.deaths:
            return (0, 0.0)
        shares = self.level_shares
        best = max(range(len(shares)), key=lambda i: (shares[i], -i))
        return (best + 1, shares[best])

    def reached(self, level: int) -> int:
        """The games that reached ``level`` (or won)."""
        return round(self.survival[level - 1] * self.games) if 1 <= level <= len(self.survival) else 0

    def deaths_on(self, first: int, last: int) -> int:
        """The deaths on levels ``first`` to ``last``."""
        return sum(self.deaths_by_level[max(0, first - 1) : last])

    @property
    def no_choice_share(self) -> float:
        """The share of the deaths that were deaths without a choice."""
        return share_of(self.no_choice, self.deaths)

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
            "deaths_after_running": self.ran_first,
            "cornered_on_floor_1": self.cornered_meetings,
            "cornered_by_monster": dict(self.cornered),
            "timeouts": self.timeouts,
            "crashes": self.crashes,
            "survival": [round(s, 4) for s in self.survival],
            "mean_turns": self.mean_turns,
            **self.depth,
            "targets": {
                v.name: {"met": v.met, "target": v.target, "value": v.value, "ci95": [round(x, 4) for x in v.ci95]}
                | ({"decided_after": dict(self.settled)[v.name]} if v.name in dict(self.settled) else {})
                for v in verdicts(self)
            },
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
        share_of(sum(r.outcome == "won" or r.deepest >= k for r in results), games) for k in range(1, depth + 1)
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
        depth=depth_report(results),
        ran_first=sum(r.ran_first is True for r in dead),
    )


@dataclass(frozen=True)
class Verdict:
    """One target of one ruleset and policy: its name, whether it is met (by the value measured), the target and
    the value in words, and the value's 95 % interval (as fractions; a count's is the count twice)."""

    name: str  # "win_rate", "floor_1", "deep_floors", "no_choice", "cornered", "timeouts", ...
    met: bool
    target: str
    value: str
    ci95: tuple[float, float] = (0.0, 0.0)
    band: tuple[float, float] | None = None  # the target as (lowest, highest) of the value; None: no interval to judge

    @property
    def decided(self) -> bool:
        """Whether more games would hardly change the verdict: the 95 % interval wholly inside the band or wholly
        outside it (a count's interval is the count itself: always decided; so is a target without a band)."""
        if self.band is None:
            return True
        (low, high), (lo, hi) = self.ci95, self.band
        return (lo <= low and high <= hi) or high < lo or low > hi


def pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def ci_text(interval: tuple[float, float]) -> str:
    return f"[{100 * interval[0]:.1f}, {100 * interval[1]:.1f}]"


def _proportion(name: str, part: int, whole: int, target: str, ok: bool, band: tuple[float, float]) -> Verdict:
    """A target on a share ``part`` of ``whole`` (``band``: the shares it allows), with its Wilson interval."""
    ci = wilson(part, whole)
    return Verdict(name, ok, target, f"{pct(share_of(part, whole))} {ci_text(ci)}", ci, band)


def _count(name: str, n: int, most: int) -> Verdict:
    return Verdict(name, n <= most, f"<= {most}", str(n), (float(n), float(n)), (0.0, float(most)))


def verdicts(stats: RulesetStats) -> list[Verdict]:
    """The targets of ``stats``: those of its policy (the careful bot's, the novice's, the greedy or the thorough
    player's)."""
    if stats.policy == "novice":
        out = _novice_verdicts(stats)
    elif stats.policy == "greedy":
        out = _greedy_verdicts(stats)
    elif stats.policy == "thorough":
        out = _thorough_verdicts(stats)
    else:
        out = _careful_verdicts(stats)
    return [*out, _count("timeouts", stats.timeouts, MAX_TIMEOUTS), _count("crashes", stats.crashes, MAX_CRASHES)]


def _win_verdict(stats: RulesetStats, band: tuple[float, float] | None) -> list[Verdict]:
    if band is None:
        return []
    lo, hi = band
    target = f"{100 * lo:.0f}-{100 * hi:.0f} %" if hi < 1 else f">= {100 * lo:.0f} %"
    ok = stats.games > 0 and lo <= stats.win_rate <= hi
    return [_proportion("win_rate", stats.wins, stats.games, target, ok, band)]


def _careful_verdicts(stats: RulesetStats) -> list[Verdict]:
    out = _win_verdict(stats, WIN_TARGETS.get(stats.ruleset))
    most = FLOOR_1_SHARE.get(stats.ruleset)
    if most is not None:
        n = stats.deaths_on(1, 1)
        target = f"<= {100 * most:.0f} % of the deaths"
        out.append(_proportion("floor_1", n, stats.deaths, target, n <= most * stats.deaths, (0.0, most)))
    deep = DEEP_FLOORS.get(stats.ruleset)
    if deep is not None:
        least = DEEP_SHARE[stats.ruleset]
        n = stats.deaths_on(*deep)
        target = f">= {100 * least:.0f} % of the deaths on floors {deep[0]}-{deep[1]}"
        out.append(_proportion("deep_floors", n, stats.deaths, target, n >= least * stats.deaths, (least, 1.0)))
    out.append(
        _proportion(
            "no_choice",
            stats.no_choice,
            stats.deaths,
            f"<= {100 * MAX_NO_CHOICE_SHARE:.0f} % of the deaths",
            stats.no_choice <= MAX_NO_CHOICE_SHARE * stats.deaths,
            (0.0, MAX_NO_CHOICE_SHARE),
        )
    )
    out.append(_count("cornered", stats.cornered_meetings, MAX_CORNERED))
    most = RAN_FIRST_SHARE.get(stats.ruleset)
    if most is not None:
        n, target = stats.ran_first, f"<= {100 * most:.0f} % of the deaths to a group run from at first sight"
        out.append(_proportion("ran_first", n, stats.deaths, target, n <= most * stats.deaths, (0.0, most)))
    return out + _depth_verdicts(stats)


def _depth_verdicts(stats: RulesetStats) -> list[Verdict]:
    """The second half's targets (:data:`LAST_FLOOR_WINS` and the rest), for games measured floor by floor."""
    floors = stats.depth.get("floors", [])
    deep = DEEP_FLOORS.get(stats.ruleset)
    if not floors or deep is None or stats.ruleset not in LAST_FLOOR_WINS:
        return []
    r = stats.ruleset
    none: Mapping[str, Any] = {"arrivals": 0, "potions_on_arrival": 0.0}
    last: Mapping[str, Any] = floors[-1] if len(floors) == len(stats.survival) else none
    out = [
        _proportion(
            "last_floor_wins",
            stats.wins,
            last["arrivals"],
            f"<= {100 * LAST_FLOOR_WINS[r]:.0f} % of the games on the last floor",
            stats.wins <= LAST_FLOOR_WINS[r] * last["arrivals"],
            (0.0, LAST_FLOOR_WINS[r]),
        )
    ]
    for name, g in stats.depth["finale"].items():
        lo, hi = g["median_ci95"]
        out.append(
            Verdict(
                f"finale_{name}",
                g["median"] <= FINALE_ODDS[r],
                f"median first-decision odds <= {100 * FINALE_ODDS[r]:.0f} %",
                f"{pct(g['median'])} {ci_text((lo, hi))} ({g['meetings']} meetings)",
                (lo, hi),
                (0.0, FINALE_ODDS[r]),
            )
        )
    for f in floors[deep[0] - 1 : deep[1]]:
        n = round(f["flat"] * f["meetings"])
        target = f"<= {100 * FLAT_SHARE[r]:.0f} % of floor {f['floor']}'s meetings"
        ok = n <= FLAT_SHARE[r] * f["meetings"]
        out.append(_proportion(f"flat_{f['floor']}", n, f["meetings"], target, ok, (0.0, FLAT_SHARE[r])))
    ci = tuple(last.get("potions_ci95", (0.0, 0.0)))
    potions = last["potions_on_arrival"]
    out.append(
        Verdict(
            "potions",
            potions <= LAST_POTIONS[r],
            f"<= {LAST_POTIONS[r]:g} on the last floor",
            f"{potions:.2f} [{ci[0]:.2f}, {ci[1]:.2f}]",
            (float(ci[0]), float(ci[1])),
            (0.0, LAST_POTIONS[r]),
        )
    )
    kits, shares = stats.depth["kits"], stats.depth["kit_shares"]
    if kits:
        item, share = next(iter(shares.items()))
        n = round(share * kits)
        out.append(
            _proportion(
                "kits",
                n,
                kits,
                f"no thing in > {100 * KIT_SHARE[r]:.0f} % of the kits ({item})",
                n <= KIT_SHARE[r] * kits,
                (0.0, KIT_SHARE[r]),
            )
        )
    least, part = BUILDS[r]
    builds = sum(n >= part * stats.wins for n in stats.depth["builds"].values()) if stats.wins else 0
    out.append(
        Verdict(
            "builds",
            builds >= least,
            f">= {least} builds in >= {100 * part:.0f} % of the wins each",
            str(builds),
            (float(builds), float(builds)),
        )
    )
    here = floors[deep[0] - 1 : deep[1]]
    carried, spent = sum(f["gold_carried"] for f in here), sum(f["gold_spent"] for f in here)
    share = share_of(spent, carried)
    out.append(
        Verdict(
            "spending",
            share >= SPENT_SHARE[r],
            f">= {100 * SPENT_SHARE[r]:.0f} % of the gold carried onto floors {deep[0]}-{deep[1]}",
            f"{pct(share)} ({spent} of {carried})",
            (share, share),
        )
    )
    return out


def _novice_verdicts(stats: RulesetStats) -> list[Verdict]:
    out = _win_verdict(stats, NOVICE_WIN_TARGETS.get(stats.ruleset))
    reaches = NOVICE_REACHES.get(stats.ruleset)
    if reaches is not None:
        level, least = reaches
        n = stats.reached(level)
        target = f"reaches floor {level} in >= {100 * least:.0f} % of the games"
        ok = stats.games > 0 and n >= least * stats.games
        out.append(_proportion("reaches", n, stats.games, target, ok, (least, 1.0)))
    return out


def _greedy_verdicts(stats: RulesetStats) -> list[Verdict]:
    most = GREEDY_SHARE.get(stats.ruleset)
    if most is None or stats.careful is None:
        return []
    wins, games = stats.careful
    careful = share_of(wins, games)
    ratio = stats.win_rate / careful if careful else math.inf if stats.wins else 0.0
    ci = ratio_interval(stats.wins, stats.games, wins, games)
    value = f"{ratio:.2f} x [{ci[0]:.2f}, {ci[1]:.2f}] ({pct(stats.win_rate)} against {pct(careful)})"
    return [
        Verdict("greedy_share", ratio <= most, f"<= {most:.2f} x the careful bot's win rate", value, ci, (0.0, most))
    ]


def decided(stats: RulesetStats) -> bool:
    """Whether every target of ``stats`` is decided (:attr:`Verdict.decided`): ``balance --until-settled`` stops
    its ruleset and policy there."""
    return all(v.decided for v in verdicts(stats))


def settled_after(batches: Sequence[RulesetStats]) -> tuple[tuple[str, int], ...]:
    """``batches``: the statistics of one ruleset and policy after each batch of games. Each target of the last, with
    the games after which it was decided and stayed so to the end (0: not decided at the end)."""
    first: dict[str, int] = {}
    for s in batches:
        for v in verdicts(s):
            if not v.decided:
                first.pop(v.name, None)
            else:
                first.setdefault(v.name, s.games)
    return tuple((v.name, first.get(v.name, 0)) for v in verdicts(batches[-1])) if batches else ()


def _thorough_verdicts(stats: RulesetStats) -> list[Verdict]:
    margin = THOROUGH_MARGIN.get(stats.ruleset)
    if margin is None or stats.careful is None:
        return []
    careful = share_of(*stats.careful)
    lo, hi = wilson(stats.wins, stats.games)
    value = f"{pct(stats.win_rate)} [{pct(lo)}, {pct(hi)}] against {pct(careful)}"
    target = f"<= the careful bot's win rate + {100 * margin:.0f} points"
    ok = stats.win_rate <= careful + margin
    return [Verdict("thorough_margin", ok, target, value, (lo, hi), (0.0, careful + margin))]


def all_met(stats: Iterable[RulesetStats]) -> bool:
    """Whether every target of every ruleset is met."""
    return all(v.met for s in stats for v in verdicts(s))


__all__ = [
    "CHART_NAMES",
    "DEEP_FLOORS",
    "DEEP_SHARE",
    "FLOOR_1_SHARE",
    "GREEDY_SHARE",
    "MAX_CORNERED",
    "MAX_CRASHES",
    "MAX_NO_CHOICE_SHARE",
    "MAX_TIMEOUTS",
    "NOVICE_REACHES",
    "NOVICE_WIN_TARGETS",
    "WIN_TARGETS",
    "RulesetStats",
    "Verdict",
    "all_met",
    "ci_text",
    "pct",
    "ratio_interval",
    "ruleset_stats",
    "share_of",
    "verdicts",
    "wilson",
]
