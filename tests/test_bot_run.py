"""Running (Walker.run) picks its door as it did with a whole-level dijkstra_map from the goal: the walk from the
goal is now flooded only when doors tie on what comes before it, and only as far as their landings
(CostFlood.distance). The same distances, the same doors, the same games."""

from __future__ import annotations

import numpy as np
import pytest
from bot_helpers import played, tcod_costs

from undercroft.bot import policy
from undercroft.bot.planning import FAR, PASS_COST, Walker, steps
from undercroft.content import Content
from undercroft.rules.actions import Run
from undercroft.rules.floods import MAX_DIST, bits_of
from undercroft.rules.searches import CostFlood, dijkstra_map


@pytest.mark.parametrize("diagonal", [False, True])
def test_the_floods_distances_are_tcods(diagonal: bool) -> None:
    rng = np.random.default_rng(21 + diagonal)
    for _ in range(40):
        h, w = int(rng.integers(3, 18)), int(rng.integers(3, 28))
        cost = (rng.random((h, w)) < 0.7).astype(np.int8)
        cost[(cost > 0) & (rng.random((h, w)) < 0.1)] = PASS_COST
        origin = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        want = tcod_costs(cost, origin, diagonal)
        flood = CostFlood(w, h, [(int(c), bits_of(cost == c)) for c in np.unique(cost) if c > 0], origin, diagonal)
        tiles = [(x, y) for y in range(h) for x in range(w)]
        for i in rng.permutation(len(tiles)):  # asked in any order, nearer or farther than before
            x, y = tiles[int(i)]
            assert flood.distance((x, y)) == int(want[y, x])
    assert FAR == MAX_DIST


class WholeLevelRunWalker(Walker):
    """Walker.run as it was: the walk from the goal over the whole level for every door, every time."""

    def run(self) -> Run:
        game = self.game
        st = game.state
        lv = st.level
        ways = game.exits()
        open_ = [i for i, w in enumerate(ways) if not w.blocked]
        if not open_:
            return Run()
        g = st.front_group()
        tiles = [] if g is None else [p for p, hp in zip(game.creature_tiles(g), g.hp, strict=True) if hp > 0]
        hostile = {
            o.segment
            for o in lv.groups
            if not o.defeated and o.known and not o.peaceful and (g is None or o.id != g.id)
        }
        goal = self.goal if self.goal is not None else lv.map.stairs
        to_goal = None
        if goal is not None:
            cost = self.walk_cost(True)
            cost[goal[1], goal[0]] = 1
            to_goal = dijkstra_map(cost, goal, diagonal=True)

        def key(i: int) -> tuple[bool, bool, bool, bool, int, int, int]:
            w = ways[i]
            them = min((steps(t, w.door) for t in tiles), default=FAR)
            lead = them - steps(st.pos, w.door)
            seen = w.segment >= 0 and bool(lv.visited[w.segment])
            far = FAR if to_goal is None else int(to_goal[w.landing[1], w.landing[0]])
            return (w.segment in hostile, w.segment in self.avoid, lead <= 0, not seen, far, -lead, i)

        best = min(open_, key=key)
        return Run() if ways[best].came_in else Run(door=best)


@pytest.mark.slow  # (eight bot games)
def test_runs_pick_the_doors_they_picked_over_the_whole_level(
    content: Content, monkeypatch: pytest.MonkeyPatch
) -> None:
    floods = 0
    from_goal = Walker.from_goal

    def counted(self: Walker) -> CostFlood | None:
        nonlocal floods
        floods += 1
        return from_goal(self)

    for ruleset, seed in (("warden", 1), ("warden", 2), ("undercroft", 8), ("crawler", 8)):
        with monkeypatch.context() as m:
            m.setattr(Walker, "from_goal", counted)
            fast = played(content, ruleset, seed, monkeypatch)
        with monkeypatch.context() as m:
            m.setattr(policy, "Walker", WholeLevelRunWalker)
            slow = played(content, ruleset, seed, monkeypatch)
        assert fast == slow, (ruleset, seed)
    assert floods > 0  # (doors did tie, and the walk from the goal decided)
