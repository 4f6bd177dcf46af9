"""``searches.dijkstra_map`` (our own search, replacing tcod's leaking ``dijkstra2d``) against
``tcod.path.dijkstra2d``, an independent implementation, on many random grids and costs."""

from __future__ import annotations

import argparse

import numpy as np
import pytest
import tcod.path

from undercroft.cli.common import load_data
from undercroft.rules.floods import MAX_DIST, flood8, flood_layers
from undercroft.rules.game import Game
from undercroft.rules.levelmap import walkable
from undercroft.rules.searches import descend_path, dijkstra_map, distance_map, distances_to, least_cost_path

COSTS = ([1], [1, 8], [1, 13], [1, 2, 3, 5, 9], [1, 100], [7])


def _tcod(cost: np.ndarray, origin: tuple[int, int], diagonal: bool) -> np.ndarray:
    dist = tcod.path.maxarray(cost.shape, dtype=np.int32)
    dist[origin[1], origin[0]] = 0
    tcod.path.dijkstra2d(dist, cost, 1, 1 if diagonal else None, out=dist)
    return dist


@pytest.mark.slow
@pytest.mark.parametrize("diagonal", [False, True])
@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.bool_])
def test_same_as_tcod_on_random_grids(diagonal: bool, dtype: type) -> None:
    rng = np.random.default_rng(15 + int(diagonal))
    for t in range(250):
        h, w = (int(v) for v in rng.integers(1, 40, size=2))
        values = [1] if dtype is np.bool_ else COSTS[t % len(COSTS)]
        walls = rng.random((h, w)) < rng.random()
        cost: np.ndarray = np.where(walls, 0, rng.choice(values, size=(h, w))).astype(dtype)
        origin = (int(rng.integers(w)), int(rng.integers(h)))
        ref = _tcod(cost.astype(np.int32), origin, diagonal)
        got = dijkstra_map(cost, origin, diagonal)
        assert got.dtype == np.int32 and got.shape == cost.shape
        np.testing.assert_array_equal(got, ref, err_msg=f"case {t}: origin {origin}\n{cost}")


def test_edge_cases() -> None:
    blocked = np.zeros((3, 4), dtype=np.int8)
    got = dijkstra_map(blocked, (1, 1))
    assert got[1, 1] == 0 and int((got == MAX_DIST).sum()) == 11
    np.testing.assert_array_equal(got, _tcod(blocked, (1, 1), False))
    one = np.ones((1, 1), dtype=np.int8)
    assert dijkstra_map(one, (0, 0)).tolist() == [[0]]
    walled_in = np.array([[1, 0, 1], [0, 5, 0], [1, 0, 1]], dtype=np.int8)  # the origin's own cost is not paid
    assert dijkstra_map(walled_in, (1, 1), True).tolist() == _tcod(walled_in, (1, 1), True).tolist()
    assert int(dijkstra_map(walled_in, (1, 1))[0, 0]) == MAX_DIST


def test_distance_map_on_a_level() -> None:
    game = Game(load_data(argparse.Namespace(data=None)), "undercroft", 1)
    walk = walkable(game.state.level.map)
    x, y = game.state.pos
    np.testing.assert_array_equal(distance_map(walk, (x, y)), _tcod(walk.astype(np.int8), (x, y), False))


def test_a_search_with_a_goal_settles_everything_cheaper_than_it() -> None:
    """``dijkstra_map(..., goal=)`` (the corridor router's) stops early: every tile cheaper than the goal has the
    full search's cost, the rest is left unreached."""
    rng = np.random.default_rng(17)
    for t in range(200):
        h, w = (int(v) for v in rng.integers(1, 40, size=2))
        cost = np.where(rng.random((h, w)) < 0.3, 0, rng.choice(COSTS[t % len(COSTS)], size=(h, w))).astype(np.int32)
        origin = (int(rng.integers(w)), int(rng.integers(h)))
        goal = (int(rng.integers(w)), int(rng.integers(h)))
        full = dijkstra_map(cost, origin)
        got = dijkstra_map(cost, origin, goal=goal)
        assert got[goal[1], goal[0]] == full[goal[1], goal[0]]
        cheaper = full < full[goal[1], goal[0]]
        np.testing.assert_array_equal(got[cheaper], full[cheaper], err_msg=f"case {t}")
        assert ((got == full) | (got == MAX_DIST)).all()


def _tcod8(walk: np.ndarray, origin: tuple[int, int]) -> np.ndarray:
    """tcod's eight-direction step counts, -1 where not reached (the origin always open, as flood8 has it)."""
    cost = walk.astype(np.int32)
    cost[origin[1], origin[0]] = 1
    dist = _tcod(cost, origin, True)
    return np.where(dist == MAX_DIST, -1, dist)


def test_the_eight_way_flood_against_tcod_with_limits_and_targets() -> None:
    """``flood8`` / ``flood_layers`` (the engine's walking distances, kept as bit layers) against tcod: the same
    steps everywhere, within ``limit`` steps where there is one, and up to the target's where there is one; the
    steps to one tile (``Flood.at``) are the array's."""
    rng = np.random.default_rng(8)
    for t in range(300):
        h, w = (int(v) for v in rng.integers(1, 45, size=2))
        walk = rng.random((h, w)) < rng.uniform(0.3, 0.95)
        origin = (int(rng.integers(w)), int(rng.integers(h)))
        ref = _tcod8(walk, origin)
        limit = None if t % 3 == 0 else int(rng.integers(0, 30))
        target = None if t % 2 else (int(rng.integers(w)), int(rng.integers(h)))
        flood = flood_layers(walk, origin, limit, target)
        got = flood.array()
        np.testing.assert_array_equal(got, flood8(walk, origin, limit, target))
        want = ref.copy()
        if limit is not None:
            want[want > limit] = -1
        if target is not None and want[target[1], target[0]] >= 0:
            want[want > want[target[1], target[0]]] = -1
        np.testing.assert_array_equal(got, want, err_msg=f"case {t}: origin {origin}, limit {limit}, target {target}")
        for _ in range(10):
            x, y = int(rng.integers(-1, w + 1)), int(rng.integers(-1, h + 1))
            assert flood.at(x, y) == (int(got[y, x]) if 0 <= x < w and 0 <= y < h else -1)


def test_the_least_cost_path_is_the_walk_down_the_distance_map() -> None:
    """``least_cost_path`` (the corridor router's, read off the search's bit sets) gives the path that
    ``descend_path`` walks down the full distance map, tie for tie."""
    rng = np.random.default_rng(23)
    for t in range(300):
        h, w = (int(v) for v in rng.integers(1, 40, size=2))
        cost = np.where(rng.random((h, w)) < 0.3, 0, rng.choice(COSTS[t % len(COSTS)], size=(h, w))).astype(np.int32)
        origin = (int(rng.integers(w)), int(rng.integers(h)))
        goal = (int(rng.integers(w)), int(rng.integers(h)))
        want = descend_path(dijkstra_map(cost, origin), goal)
        assert least_cost_path(cost, origin, goal) == want, f"case {t}: {origin} -> {goal}\n{cost}"


def test_distances_to_a_few_tiles_are_the_distance_maps() -> None:
    """``distances_to`` (the generator's far rooms, read off the search's bit sets) gives ``distance_map``'s
    values at the tiles asked for, unreachable and off-map ones as MAX_DIST."""
    rng = np.random.default_rng(29)
    for t in range(200):
        h, w = (int(v) for v in rng.integers(1, 40, size=2))
        walk = rng.random((h, w)) < rng.uniform(0.3, 0.95)
        origin = (int(rng.integers(w)), int(rng.integers(h)))
        points = [(int(rng.integers(-1, w + 1)), int(rng.integers(-1, h + 1))) for _ in range(8)]
        full = distance_map(walk, origin)
        want = [int(full[y, x]) if 0 <= x < w and 0 <= y < h else MAX_DIST for x, y in points]
        assert distances_to(walk, origin, points) == want, f"case {t}"
