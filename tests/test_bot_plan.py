"""The bot's walking plans and its per-decision shortcuts give the same play as the whole-level computation: the
flood that stops at the nearest goal (``CostFlood``, the engine's search) agrees with tcod's ``dijkstra2d`` and
``hillclimb2d``, a whole game planned either way is the same game, and the remembered ``legal`` answers are the
engine's."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
import tcod.path
from bot_helpers import played, tcod_costs

from undercroft import bot as bot_module
from undercroft.bot import PASS_COST, Bot
from undercroft.content import Content, load_content
from undercroft.rules.actions import (
    Action,
    Bribe,
    Descend,
    Drink,
    DropFood,
    DropTreasure,
    Fight,
    Move,
    Pursue,
    Rest,
    Run,
    Talk,
    ThrowOil,
    Wait,
)
from undercroft.rules.floods import MAX_DIST, bits_of, tiles_of
from undercroft.rules.game import Game
from undercroft.rules.searches import CostFlood, dijkstra_map


@pytest.fixture(scope="module")
def content(shipped_data: Path) -> Content:
    return load_content(shipped_data)


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


def test_floods_sharing_the_maps_parts_answer_as_the_whole_level_does() -> None:
    """Floods of one map share its parts: a goal out of the origin's part is answered None without flooding, and
    every answer (near, far, out of reach, asked in any order, from any origin) is still dijkstra_map's."""
    rng = np.random.default_rng(11)
    shortcuts = 0
    for _ in range(40):
        h, w = int(rng.integers(5, 16)), int(rng.integers(5, 26))
        cost = random_cost(rng, h, w, passes=bool(rng.integers(0, 2)))
        cost[:, w // 2] = 0  # (a wall down the middle, a door or none: parts out of each other's reach)
        if rng.integers(0, 2):
            cost[h // 2, w // 2] = 1
        diagonal = bool(rng.integers(0, 2))
        parts: list[int] = []
        ys, xs = np.nonzero(cost)
        for _ in range(12):
            i = int(rng.integers(0, len(xs)))
            origin = (int(xs[i]), int(ys[i]))  # (a tile of the map, as the party's is in _plan)
            dist = tcod_costs(cost, origin, diagonal)
            flood = CostFlood(w, h, classes(cost), origin, diagonal, parts)
            for _ in range(3):
                goal = rng.random((h, w)) < 0.03
                goal[origin[1], origin[0]] = False
                reach = goal & (dist < MAX_DIST)
                known = flood.part is not None and not flood.done
                best = flood.nearest(bits_of(goal))
                if reach.any():
                    assert best == int(dist[reach].min())
                else:
                    assert best is None
                    shortcuts += known and not flood.done
    assert shortcuts > 20  # (the parts did answer without a flood)


def test_bit_sets_list_tiles_in_row_major_order() -> None:
    mask = np.zeros((4, 5), dtype=bool)
    for x, y in ((4, 3), (0, 0), (2, 1), (4, 0)):
        mask[y, x] = True
    assert tiles_of(bits_of(mask), 6) == [(0, 0), (4, 0), (2, 1), (4, 3)]


class WholeLevelBot(Bot):
    """The planner as it was: a dijkstra_map of the whole level for each pass, hillclimb2d back."""

    def _plan(self) -> None:
        st = self.game.state
        self._path, self._goal, self._goal_kind = [], None, ""
        goals = self._goals()
        passes = ((True, False), (True, True), (False, False), (False, True))
        for last_resort, (avoid, diagonal) in [(r, p) for r in (False, True) for p in passes]:
            cost = self._walk_cost(avoid, through=last_resort)
            dist = dijkstra_map(cost, st.pos, diagonal)
            for kind, mask in goals:
                if (kind == "reengage") != last_resort:
                    continue
                if not avoid and kind not in ("stairs", "reengage"):
                    continue
                if kind == "stairs" and bool(mask[st.pos[1], st.pos[0]]):
                    self._goal, self._goal_kind, self._forced = st.pos, kind, not avoid
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
                self._path = [(int(x), int(y)) for y, x in path[::-1][1:]]
                self._goal, self._goal_kind, self._forced = goal, kind, not avoid
                return


@pytest.mark.parametrize(("ruleset", "seed"), [("undercroft", 3), ("crawler", 5), ("citadel", 8), ("warden", 13)])
def test_a_whole_game_planned_to_the_nearest_goal_is_the_game_planned_over_the_whole_level(
    content: Content, ruleset: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = played(content, ruleset, seed, monkeypatch)
    with monkeypatch.context() as m:
        m.setattr(bot_module, "Bot", WholeLevelBot)
        slow = played(content, ruleset, seed, monkeypatch)
    assert fast == slow


def test_the_goal_bit_sets_are_the_goal_masks(content: Content) -> None:
    for ruleset in ("undercroft", "crawler"):
        game = Game(content, ruleset, 21)
        b = Bot(game, 21)
        for _ in range(400):
            if game.over:
                break
            assert [(k, bits_of(m)) for k, m in b._goals()] == b._goal_bits()
            cost = b._walk_cost(True, through=bool(game.state.turn % 2))
            assert sorted(b._cost_bits(True, through=bool(game.state.turn % 2))) == sorted(
                (c, bits_of(cost == c)) for c in (1, PASS_COST)
            )
            action = b.choose()
            events = game.step(action)
            if len(events) == 1 and events[0].type == "refused":
                b.refused(action)


KINDS: tuple[Action, ...] = (
    Move(1, 0),
    Descend(),
    Rest(),
    Fight(),
    Talk(),
    Bribe(0),
    Wait(),
    Run(),
    Run(door=0),
    Drink(0),
    DropFood(),
    DropTreasure(),
    ThrowOil(),
    Pursue(),
)


def test_the_bots_remembered_legal_answers_are_the_engines(content: Content) -> None:
    for ruleset in ("undercroft", "citadel"):
        game = Game(content, ruleset, 4)
        b = Bot(game, 4)
        for _ in range(600):
            if game.over:
                break
            action = b.choose()
            assert [b.legal(a) for a in KINDS] == [game.legal(a) for a in KINDS]
            events = game.step(action)
            if len(events) == 1 and events[0].type == "refused":
                b.refused(action)
