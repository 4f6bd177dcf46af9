"""The bots see what the player sees: they plan with one player's view of the level (``rules/view.py: View``), the
floor seen and the groups the screens have shown, and what they cannot know does not change what they do."""

from __future__ import annotations

import copy

import numpy as np
import pytest
import tcod.console

from undercroft.bot import POLICIES, Bot
from undercroft.content import Content
from undercroft.rules import dungeon
from undercroft.rules.game import Game
from undercroft.rules.types import Mode
from undercroft.rules.view import View
from undercroft.ui import render


def without_the_unknown(game: Game, bot: Bot, alone: Game) -> Bot:
    """``alone`` made the game as the player knows it (every group on the level the view does not show taken off:
    a guardian in a room never seen, a monster lying submerged), and a copy of ``bot``, its memory and its stream
    as they are, playing it."""
    alone.restore(game.snapshot())
    lv = alone.state.level
    view = View(alone)
    for g in [g for g in lv.groups if not g.defeated and not view.knows(g)]:
        lv.remove_group(g)
    twin = copy.deepcopy(bot, {id(game): alone, id(game.content): game.content})
    if bot.walk.planned_at == (game.state.level.index, game.state.level.rev):
        twin.walk.planned_at = (lv.index, lv.rev)  # (its plan made on the level as it is: still as good)
    return twin


def compare(content: Content, ruleset: str, seed: int, policy: str, actions: int, every: int) -> tuple[int, int]:
    """Play ``actions`` actions of one game, and at every ``every``-th decision ask a copy of the bot facing the game
    without what the player cannot know: it must choose the same. (decisions compared, of them with something
    hidden)."""
    game = Game(content, ruleset, seed)
    alone = Game(content, ruleset, seed)
    bot = POLICIES[policy](game, seed)
    compared = hidden = 0
    for i in range(actions):
        if game.over:
            break
        if i % every == 0:
            twin = without_the_unknown(game, bot, alone)
            unknown = len(game.state.level.groups) - len(alone.state.level.groups)
            action = bot.choose()
            assert twin.choose() == action, (ruleset, seed, game.state.turn, action)
            compared += 1
            hidden += unknown > 0
        else:
            action = bot.choose()
        path = bot.walk.path
        if path:  # every walk is over the floor seen
            explored = game.state.level.explored
            assert all(explored[y, x] for x, y in path), (ruleset, seed, game.state.turn)
        events = game.step(action)
        if len(events) == 1 and events[0].type == "refused":
            bot.refused(action)
    return compared, hidden


@pytest.mark.slow
@pytest.mark.parametrize("policy", ["careful", "novice", "greedy", "thorough"])
@pytest.mark.parametrize("ruleset", ["undercroft", "citadel", "warden", "crawler"])
def test_a_bot_facing_only_what_the_player_knows_plays_the_same(content: Content, ruleset: str, policy: str) -> None:
    compared = hidden = 0
    for seed in (3, 4):
        c, h = compare(content, ruleset, seed, policy, actions=600, every=7)
        compared, hidden = compared + c, hidden + h
    assert compared >= 20
    if ruleset == "undercroft":  # (its floors have guardians and uniques waiting from the start)
        assert hidden >= compared // 4


def test_the_view_shows_a_group_waiting_in_a_room_once_the_room_is_seen(content: Content) -> None:
    game = Game(content, "undercroft", 3)
    view = View(game)
    lv = game.state.level
    guardians = [g for g in lv.groups if not g.met]  # (its unique waits in its room from the level's making)
    assert guardians and not any(lv.explored[g.pos[1], g.pos[0]] for g in guardians)
    assert not any(view.knows(g) for g in guardians) and view.groups() == [
        g for g in lv.groups if g.met and not g.defeated
    ]
    g = guardians[0]
    lv.look(g.pos)  # the party has looked into its room
    assert view.knows(g) and g in view.groups()


def test_the_frontier_is_the_floor_seen_beside_the_unseen(content: Content) -> None:
    game = Game(content, "undercroft", 3)
    view = View(game)
    lv = game.state.level
    stride = lv.map.width + 1
    frontier = view.frontier_bits()
    assert frontier and frontier & ~view.floor_bits() == 0
    for y, x in zip(*np.nonzero(lv.explored), strict=True):
        beside = view.beside_unseen((int(x), int(y)))
        assert bool(frontier >> (int(y) * stride + int(x)) & 1) == (beside and bool(lv.map.tiles[y, x] != dungeon.WALL))
    assert view.stairs() is None or lv.explored[lv.map.stairs[1], lv.map.stairs[0]]


@pytest.mark.parametrize(("ruleset", "seed"), [("undercroft", 4), ("citadel", 4), ("warden", 3)])
def test_the_map_draws_what_the_bot_plans_with(content: Content, ruleset: str, seed: int) -> None:
    """Over a bot's game, the map drawn from the player's view after every action: every creature it draws is of a
    group the bot plans round (``View.groups``), every creature of those groups standing in sight is drawn, the
    group met is drawn wherever it stands, and nothing else is drawn where the player has not seen."""
    game = Game(content, ruleset, seed)
    bot = POLICIES["careful"](game, seed)
    m = game.state.level.map
    letters = {ord(mon.glyph) for mon in content.monsters.values()}
    met_drawn = 0
    for _ in range(400):
        if game.over:
            break
        events = game.step(action := bot.choose())
        if len(events) == 1 and events[0].type == "refused":
            bot.refused(action)
        view = View(game)
        m = game.state.level.map
        console = tcod.console.Console(m.width, m.height, order="F")
        vis = render.draw_map(console, view)
        ch = render.cells(console)["ch"]
        known = view.groups()
        where = {p for g in known for i in g.alive for p in [game.creature_tiles(g)[i]]}
        st = game.state
        drawn = {(int(x), int(y)) for y, x in zip(*np.nonzero(np.isin(ch, list(letters))), strict=True)}
        drawn |= {(int(x), int(y)) for y, x in zip(*np.nonzero((ch >= ord("2")) & (ch <= ord("9"))), strict=True)}
        drawn.discard(st.pos)
        assert drawn <= where, (ruleset, seed, st.turn, drawn - where)
        front = st.front_group() if st.mode in (Mode.ENCOUNTER, Mode.COMBAT) else None
        for g in known:
            tiles = game.creature_tiles(g)
            want = {tiles[i] for i in g.alive if g is front or vis[tiles[i][1], tiles[i][0]]} - {st.pos}
            assert want <= drawn, (ruleset, seed, st.turn, g.monster, want - drawn)
            met_drawn += g is front and bool(want)
        blank = ~view.seen(vis)
        for x, y in game.creature_tiles(front) if front is not None else ():
            blank[y, x] = False  # (met round a corner: drawn where it stands, seen or not)
        assert (ch[blank] == ord(" ")).all(), (ruleset, seed, st.turn)
    assert met_drawn > 0  # (the game met something)
