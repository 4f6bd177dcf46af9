"""What the meetings of a bot's games read, floor by floor: a measure of whether a floor asks questions.

For each floor: the meetings a game reached it (each group the party faced, counted once, at its first decision),
how many of them came while resting, and the share whose fight odds, as the panel shows them
(:func:`undercroft.bot.meeting.fight_win`), read at least 99 %, 90-99 %, under 90 % and under 50 %. A floor where
nearly every meeting reads 99 % is one where the odds panel settles every choice (docs/BALANCE.md)::

    python -m undercroft.tools.meeting_odds --games 100 --seed 1 --policy careful --ruleset undercroft
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from undercroft import paths
from undercroft.bot import POLICIES
from undercroft.content import Content, load_content
from undercroft.tools.autoplay import game_seed, play_game

SURE = 0.99  # a meeting that reads at least this settles itself
BANDS: tuple[tuple[str, float, float], ...] = (
    (">=99%", SURE, 2.0),
    ("90-99%", 0.9, SURE),
    ("<90%", 0.0, 0.9),
    ("<50%", 0.0, 0.5),
)


@dataclass
class Floors:
    """Per floor (1-based): the meetings, those met while resting, those in each band; the games that reached it."""

    meetings: Counter[int] = field(default_factory=Counter)
    resting: Counter[int] = field(default_factory=Counter)
    bands: dict[str, Counter[int]] = field(default_factory=lambda: {name: Counter() for name, *_ in BANDS})
    reached: Counter[int] = field(default_factory=Counter)

    def add(self, other: Floors) -> None:
        self.meetings.update(other.meetings)
        self.resting.update(other.resting)
        self.reached.update(other.reached)
        for name, c in other.bands.items():
            self.bands[name].update(c)


def play(content: Content, ruleset: str, seed: int, policy: str) -> Floors:
    """One bot game (:func:`undercroft.tools.autoplay.play_game`, unrecorded), its meetings (the result's) counted."""
    out = Floors()
    result = play_game(content, ruleset, seed, policy=policy)
    for m in result.meetings:
        out.meetings[m.floor] += 1
        out.resting[m.floor] += m.resting
        for name, low, high in BANDS:
            out.bands[name][m.floor] += low <= m.win < high
    out.reached.update(range(1, result.deepest + 1))
    return out


_CONTENT: Content | None = None


def _play(args: tuple[str, str, int, str]) -> Floors:
    global _CONTENT
    if _CONTENT is None:
        _CONTENT = load_content(args[0])
    return play(_CONTENT, args[1], args[2], args[3])


def table(f: Floors) -> list[str]:
    """The report's lines: one a floor."""
    head = "| floor | games | meetings a game | while resting | " + " | ".join(n for n, *_ in BANDS) + " |"
    lines = [head, "|" + "---:|" * (4 + len(BANDS))]
    for floor in sorted(f.meetings):
        n = f.meetings[floor]
        shares = " | ".join(f"{f.bands[name][floor] / n:.0%}" for name, *_ in BANDS)
        per = n / max(1, f.reached[floor])
        lines.append(
            f"| {floor} | {f.reached[floor]} | {per:.1f} | {f.resting[floor] / n:.0%} | {shares} |".replace("%", " %")
        )
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m undercroft.tools.meeting_odds", description=__doc__.split("\n")[0])
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", default="1")
    p.add_argument("--policy", default="careful", choices=sorted(POLICIES))
    p.add_argument("--ruleset", default="undercroft")
    p.add_argument("--jobs", type=int, default=2)
    a = p.parse_args(argv)
    data = str(paths.data_dir())
    jobs = [(data, a.ruleset, game_seed(a.seed, i), a.policy) for i in range(a.games)]
    total = Floors()
    if a.jobs <= 1:
        for j in jobs:
            total.add(_play(j))
    else:
        with ProcessPoolExecutor(a.jobs) as pool:
            for f in pool.map(_play, jobs, chunksize=4):
                total.add(f)
    print("\n".join(table(total)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
