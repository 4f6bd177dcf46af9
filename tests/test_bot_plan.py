"""The bot's walking plans give the same play as the whole-level computation: the flood that stops at the nearest
goal (``CostFlood``, the engine's search) agrees with tcod's ``dijkstra2d`` and ``hillclimb2d``, the goals as bit
sets are the goals as masks, and a whole game planned either way is the same game."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest
import tcod.path
from bot_helpers import played, tcod_costs

from undercroft.bot import Bot, policy
from undercroft.bot.planning import PASS_COST, STOCKED, Walker, count
from undercroft.content import Content
from undercroft.rules import dungeon
from undercroft.rules.floods import MAX_DIST, bits_of, tiles_of
from undercroft.rules.game import Game
from undercroft.rules.searches import CostFlood, dijkstra_map


def random_cost(rng: np.random.Generator, h: int, w: int, *, passes: bool) -> npt.NDArray[np.int8]:
    cost = (rng.random((h, w)) < 0.7).astype(np.int8)
    if passes:
        cost[(cost > 0) & (rng.random((h, w)) < 0.1)] = PASS_COST
    return cost


def classes(cost: npt.NDArray[np.int8]) -> list[tuple[int, int]]:
    return [(int(c), bits_of(cost == c)) for c in np.unique(cost) if c > 0]


@pytest.mark.parametrize("passes", [False, True])
@pytest.mark.parametrize("diagonal", [False, True])
def test_the_flood_gives_the_engines_distances_and_tcods_path(passes: bool, diagonal: bool) -> None:
    rng = np.random.default_rng(7 + 2 * passes + diagonal)
    for _ in range(30):
        h, w = int(rng.integers(3, 20)), int(rng.integers(3, 30))
        cost = random_cost(rng, h, w, passes=passes)
        origin = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        want = tcod_costs(cost, origin, diagonal)
        flood = CostFlood(w, h, classes(cost), origin, diagonal)
        assert flood.nearest(0) is None  # (floods the whole map: nothing to find)
        got = np.full((h, w), MAX_DIST, dtype=np.int32)
        for d in flood.order:
            for x, y in flood.at(d, -1):
                got[y, x] = d
        np.testing.assert_array_equal(got, want)
        for y, x in zip(*np.nonzero(want < MAX_DIST), strict=True):
            climbed = tcod.path.hillclimb2d(want, (int(y), int(x)), True, diagonal)
            expected = [(int(cx), int(cy)) for cy, cx in climbed[::-1][1:]]
            assert flood.path((int(x), int(y)), int(want[y, x])) == expected


def test_the_flood_stops_at_the_nearest_goal_with_every_nearer_tile_settled() -> None:
    rng = np.random.default_rng(3)
    for _ in range(50):
        h, w = 15, 25
        cost = random_cost(rng, h, w, passes=True)
        origin = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        goal = rng.random((h, w)) < 0.05
        goal[origin[1], origin[0]] = False
        dist = tcod_costs(cost, origin, True)
        reach = goal & (dist < MAX_DIST)
        flood = CostFlood(w, h, classes(cost), origin, True)
        best = flood.nearest(bits_of(goal))
        if not reach.any():
            assert best is None
            continue
        assert best == int(dist[reach].min())
        ys, xs = np.nonzero(reach & (dist == best))
        assert flood.at(best, bits_of(goal)) == [(int(x), int(y)) for y, x in zip(ys, xs, strict=True)]
        assert not flood.done or best == max(flood.order)  # (stopped there, not at the end of the map)


def test_bit_sets_list_tiles_in_row_major_order() -> None:
    mask = np.zeros((4, 5), dtype=bool)
    for x, y in ((4, 3), (0, 0), (2, 1), (4, 0)):
        mask[y, x] = True
    assert tiles_of(bits_of(mask), 6) == [(0, 0), (4, 0), (2, 1), (4, 3)]


def goal_masks(self: Walker) -> list[tuple[str, npt.NDArray[np.bool_]]]:
    """The walk's goals (Walker.goal_bits, then Walker.reengage_bits) as masks, in order of preference, worked out
    over the whole level with numpy, as the planner had them."""
    st = self.game.state
    lv = st.level
    m = lv.map
    walk = (m.tiles != dungeon.WALL) & lv.explored  # (the floor seen: all it knows)
    out: list[tuple[str, npt.NDArray[np.bool_]]] = []
    items = np.zeros_like(walk)
    for x, y in lv.items:
        if lv.explored[y, x]:
            items[y, x] = True
    out.append(("item", items))
    stairs = np.zeros_like(walk)
    if m.stairs is not None:  # every level the engine makes has them (the last one's are the way out)
        stairs[m.stairs[1], m.stairs[0]] = True
    final = self.game.rs.levels[st.depth].final
    potions = count(self.game, "potion")  # (the healing ones: the other potions do not make a delver stocked)
    if (final or potions >= STOCKED) and m.stairs is not None and lv.explored[m.stairs[1], m.stairs[0]]:
        # The way on is known and the party is stocked: every room more is one more monster check (and on the
        # final level, the guardians wait in their rooms).
        out.append(("stairs", stairs))
    seen = bool(lv.explored[m.stairs[1], m.stairs[0]])
    if self.level_moves < self.max_level_moves or not seen:
        # The floor seen beside a tile not seen (inside the map), but where it has looked round from already.
        unseen = np.pad(~lv.explored, 1, constant_values=False)
        h, w = walk.shape
        beside = np.zeros_like(walk)
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                beside |= unseen[1 + dy : 1 + dy + h, 1 + dx : 1 + dx + w]
        for (x, y), _radius in lv.looked:
            beside[y, x] = False
        out.append(("explore", walk & beside))
    if seen:
        out.append(("stairs", stairs))
    # Last resort: a monster that is not at peace stands in the way. Walking into its segment starts an
    # encounter, so step out of the segment first when the party shares it.
    hostile = [
        grp
        for grp in lv.groups
        if not grp.defeated and grp.known and not grp.peaceful and (grp.met or lv.explored[grp.pos[1], grp.pos[0]])
    ]
    if any(grp.segment == st.segment for grp in hostile):
        out.append(("reengage", walk & (m.segment_of != st.segment) & (m.segment_of >= 0)))
    elif hostile:
        mask = np.zeros_like(walk)
        for grp in hostile:
            mask |= (m.segment_of == grp.segment) & walk
            mask[grp.pos[1], grp.pos[0]] = True  # (it may stand in its segment's only door: step into it)
        out.append(("reengage", mask))
    return out


class WholeLevelWalker(Walker):
    """The planner as it was: a dijkstra_map of the whole level for each pass, hillclimb2d back."""

    def plan(self) -> None:
        st = self.game.state
        self.path, self.goal, self.kind = [], None, ""
        self.planned_at = (st.level.index, st.level.rev)
        goals = goal_masks(self)
        m = st.level.map
        seen = st.level.explored[m.stairs[1], m.stairs[0]]
        on = ("stairs", "reengage") if seen else ("stairs", "reengage", "explore")
        passes = ((True, False), (True, True), (False, False), (False, True))
        for last_resort, (avoid, diagonal) in [(r, p) for r in (False, True) for p in passes]:
            cost = self.walk_cost(avoid, through=last_resort)
            dist = dijkstra_map(cost, st.pos, diagonal)
            for kind, mask in goals:
                if (kind == "reengage") != last_resort:
                    continue
                if not avoid and kind not in on:
                    continue
                if kind == "stairs" and bool(mask[st.pos[1], st.pos[0]]):
                    self.goal, self.kind, self.forced = st.pos, kind, not avoid
                    return
                reach = mask & (dist < MAX_DIST) & (cost > 0)
                reach[st.pos[1], st.pos[0]] = False
                if not reach.any():
                    continue
                d = np.where(reach, dist, MAX_DIST)
                best = int(d.min())
                ys, xs = np.nonzero(d == best)
                i = self.rng.below(len(xs)) if len(xs) > 1 else 0
                goal = (int(xs[i]), int(ys[i]))
                path = tcod.path.hillclimb2d(dist, (goal[1], goal[0]), True, diagonal)
                self.path = [(int(x), int(y)) for y, x in path[::-1][1:]]
                self.goal, self.kind, self.forced = goal, kind, not avoid
                return


@pytest.mark.slow  # (whole games: the undercroft one took 1.1 s of CPU once the cells were fewer)
@pytest.mark.parametrize(("ruleset", "seed"), [("undercroft", 3), ("crawler", 5), ("citadel", 8), ("warden", 13)])
def test_a_whole_game_planned_to_the_nearest_goal_is_the_game_planned_over_the_whole_level(
    content: Content, ruleset: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = played(content, ruleset, seed, monkeypatch)
    with monkeypatch.context() as m:
        m.setattr(policy, "Walker", WholeLevelWalker)
        slow = played(content, ruleset, seed, monkeypatch)
    assert fast == slow


def test_the_goal_bit_sets_are_the_goal_masks(content: Content) -> None:
    for ruleset in ("undercroft", "crawler"):
        game = Game(content, ruleset, 21)
        b = Bot(game, 21)
        w = b.walk
        for _ in range(400):
            if game.over:
                break
            reengage = w.reengage_bits()
            want = w.goal_bits() + ([] if reengage is None else [("reengage", reengage)])
            assert [(k, bits_of(m)) for k, m in goal_masks(w)] == want
            cost = w.walk_cost(True, through=bool(game.state.turn % 2))
            assert sorted(w.cost_bits(True, through=bool(game.state.turn % 2))) == sorted(
                (c, bits_of(cost == c)) for c in (1, PASS_COST)
            )
            action = b.choose()
            events = game.step(action)
            if len(events) == 1 and events[0].type == "refused":
                b.refused(action)
