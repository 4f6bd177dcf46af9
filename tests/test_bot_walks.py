"""The bot walks each way it chose to its end (docs/BALANCE.md, "Exploring"): a walk to unexplored floor goes on
once the spot it made for has come into view, and the next plan is made where the walk ends; resting on the stairs
plans nothing; a walk back at a group in the way holds while the level's groups stay as they are. And
``play_game(timing=...)``, which ``undercroft bench``'s ``bot_step_ratio`` rows read, times the games it plays
without changing them."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import pytest

from undercroft.bot import Bot
from undercroft.bot.planning import Walker
from undercroft.content import Content
from undercroft.rules.game import Game
from undercroft.rules.types import Mode
from undercroft.tools.autoplay import Timing, play_game

Point = tuple[int, int]


@dataclass
class Plan:
    turn: int  # the turn it was made at
    depth: int
    pos: Point  # where the party stood
    kind: str  # what it made for
    goal: Point | None
    walk: list[Point]  # the tiles of the walk, the party's own first


class WatchedWalker(Walker):
    """The walks, noting every plan made."""

    plans: list[Plan]

    def plan(self) -> None:
        st = self.game.state
        super().plan()
        self.plans.append(Plan(st.turn, st.depth, st.pos, self.kind, self.goal, [st.pos, *self.path]))


class Watched(Bot):
    """The bot, noting every plan it makes."""

    def __init__(self, game: Game, seed: int) -> None:
        super().__init__(game, seed)
        self.walk = self.watched = WatchedWalker(game, self.walk.rng, self.walk.max_level_moves)
        self.plans: list[Plan] = []
        self.watched.plans = self.plans


@dataclass
class Turn:
    """One decision: the turn, level and mode it was taken in, whether the engine refused it, and after it where
    the party stands and which goals of the plans so far have come into view."""

    turn: int
    depth: int
    mode: str
    refused: bool
    pos: Point
    explored: frozenset[Point]


def watch(content: Content, ruleset: str, seed: int, actions: int) -> tuple[Watched, list[Turn]]:
    game = Game(content, ruleset, seed)
    bot = Watched(game, seed)
    turns: list[Turn] = []
    for _ in range(actions):
        if game.over:
            break
        st = game.state
        turn, depth, mode = st.turn, st.depth, st.mode
        action = bot.choose()
        events = game.step(action)
        refused = len(events) == 1 and events[0].type == "refused"
        if refused:
            bot.refused(action)
        ex = st.level.explored
        goals = frozenset(
            p.goal for p in bot.plans if p.goal is not None and p.depth == st.depth and bool(ex[p.goal[1], p.goal[0]])
        )
        turns.append(Turn(turn, depth, mode, refused, st.pos, goals))
    return bot, turns


@pytest.mark.parametrize(("ruleset", "seed"), [("undercroft", 3), ("warden", 15)])
def test_a_walk_to_unexplored_floor_goes_on_to_the_spot_once_it_is_in_view(
    content: Content, ruleset: str, seed: int
) -> None:
    bot, turns = watch(content, ruleset, seed, 500)
    in_view_before_there = ended_there = stopped_at_the_edge = 0
    for plan, after in pairwise(bot.plans):
        if plan.kind != "explore" or plan.goal is None:
            continue
        between = [t for t in turns if plan.turn <= t.turn < after.turn]
        if any(t.mode != Mode.EXPLORE or t.refused or t.depth != plan.depth for t in between):
            continue  # (a meeting, a refused step or the stairs cut the walk short)
        if after.goal == plan.goal:
            continue  # (a way round something that stepped into the walk, to the same spot)
        seen_early = any(plan.goal in t.explored and t.pos != plan.goal for t in between)
        in_view_before_there += seen_early
        # It makes for somewhere else only where the walk ended (on the spot it made for), or where the walk would
        # step into another segment for a spot already in view.
        if after.pos != plan.goal:
            seg = bot.game.state.levels[plan.depth].map.segment_rows
            nxt = plan.walk[plan.walk.index(after.pos) + 1]
            assert between and plan.goal in between[-1].explored, (plan, after)
            assert seg[nxt[1]][nxt[0]] != seg[after.pos[1]][after.pos[0]], (plan, after)
            stopped_at_the_edge += 1
        else:
            ended_there += 1
    assert ended_there >= 10
    assert in_view_before_there >= 10  # (the spot came into view on the way, and the walk went on)
    assert stopped_at_the_edge >= 1


@pytest.mark.slow
def test_resting_on_the_stairs_makes_no_plan(content: Content) -> None:
    for seed in range(1, 30):
        bot, turns = watch(content, "undercroft", seed, 900)
        stairs_rests = [
            nxt
            for t, nxt in pairwise(turns)
            if t.pos == nxt.pos
            and t.mode == Mode.EXPLORE == nxt.mode
            and t.depth == nxt.depth
            and bot.game.state.levels[t.depth].map.stairs == t.pos
        ]
        if len(stairs_rests) >= 3:
            planned_then = [p for p in bot.plans if any(p.turn == t.turn and p.depth == t.depth for t in stairs_rests)]
            assert planned_then == []
            return
    pytest.fail("no game of these seeds rests on the stairs")


def test_timing_counts_every_action_and_changes_nothing(content: Content, tmp_path: Path) -> None:
    plain = play_game(content, "undercroft", 5, max_actions=400)
    timing = Timing()
    timed = play_game(content, "undercroft", 5, max_actions=400, timing=timing)
    assert timed == plain
    assert timing.actions >= plain.turns  # (refused actions are timed too)
    assert timing.bot > 0 and timing.step > 0
    recorded = Timing()
    rec = tmp_path / "g.jsonl"
    assert play_game(content, "undercroft", 5, max_actions=400, record=str(rec), timing=recorded).turns == plain.turns
    assert recorded.actions == timing.actions and rec.stat().st_size > 0


@pytest.mark.parametrize("seed", [3, 5])
def test_the_novice_late_on_a_level_explores_on_while_no_way_to_the_seen_stairs_is_known(
    content: Content, seed: int
) -> None:
    """Found in a balance run (novice, seeds 924 and 927): late on a level (its steps there used up), the novice
    went only for the stairs once seen; seen from afar, with no known way to them, it rested at full HP until the
    game timed out. Now it explores on until a way is known."""
    from undercroft import travel
    from undercroft.bot import POLICIES
    from undercroft.rules.actions import Move

    game = Game(content, "undercroft", seed)
    bot = POLICIES["novice"](game, seed)
    game.step(bot.choose())  # (its first step on the level: the level is its own from here)
    lv = game.state.level
    sx, sy = lv.map.stairs
    lv.explored[sy, sx] = True  # (seen from afar)
    assert travel.stairs(game) == (sx, sy) and travel.step_toward(game, (sx, sy), travel.BOLD) is None
    bot.walk.level_moves = bot.walk.max_level_moves
    assert isinstance(bot.choose(), Move)
