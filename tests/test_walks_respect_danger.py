"""Walks and rests that respect danger: a rest says how likely a wanderer is before it begins and says why it
broke; no walk goes through or beside a group the party ran from; walks do not start under the HP share set."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import cast

import pytest
from engine_helpers import clear_unique, content, go_down, make_game, rolls
from tcod.event import KeySym, Modifier
from ui_helpers import TestDice, isolate_user_data, press, screen, type_text, walk_out

from undercroft import travel
from undercroft.rules import explore
from undercroft.rules.actions import Rest
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.game import Game
from undercroft.rules.types import Mode
from undercroft.ui import render
from undercroft.ui.scenes import ExploreScene, SceneStack
from undercroft.ui.scenes.explore import rest_odds, wanderer_text
from undercroft.ui.session import Session


def test_the_rest_chance_is_the_share_of_faces_that_call_a_wanderer_in_the_engine() -> None:
    """Every face of the rest's monster check played through the engine: the share that brings a monster is the
    chance the rest dialog tells."""
    for ruleset in ("undercroft", "citadel", "warden"):
        dice = TestDice()
        game = clear_unique(Game(content(), ruleset, 3, dice=dice))
        die = content().check_rules(game.rs).die
        snap = game.snapshot()
        came = 0
        for face in range(1, die + 1):
            game.restore(snap)
            dice.queue.clear()
            dice.queue.append(face)
            game.step(Rest())
            came += any(g.origin == "wandering" for g in game.state.level.groups)
        game.restore(snap)
        assert explore.rest_wanderer_chance(game) * die == came, ruleset


def hurt_session(hp: int, dice: TestDice | None = None) -> Session:
    game = clear_unique(Game(content(), "undercroft", 11, dice=dice or TestDice()))
    game.state.party[0].hp = hp
    return Session.watch(content(), game)


def test_rest_until_healed_tells_the_odds_first_and_why_it_broke() -> None:
    dice = TestDice()
    session = hurt_session(4, dice)
    game = session.game
    m = game.state.party[0]
    stack = SceneStack([ExploreScene(session)])
    press(stack, KeySym.Z, mod=Modifier.LSHIFT)
    text = screen(stack)
    turns = explore.turns_to_rest(game)
    assert turns is not None and turns > 1
    p = explore.rest_wanderer_chance(game)
    assert "Rest until healed?" in text and f"About {turns} turns of rest" in text
    assert f"{p.numerator} time in {p.denominator} a turn" in text
    assert f"{1 - (1 - float(p)) ** turns:.0%} that one comes" in text
    press(stack, KeySym.S)  # stay on your feet: nothing rested
    assert m.hp == 4 and game.state.turn == 0
    press(stack, KeySym.Z, mod=Modifier.LSHIFT)
    dice.queue.extend([6, 6, 1])  # two quiet turns, then a wanderer
    press(stack, KeySym.R)
    scene = stack.scenes[0]
    assert isinstance(scene, ExploreScene)
    walk_out(stack, scene, 10)
    said = " ".join(t for t, _ in session.log.lines)
    assert "Your rest is broken after 3 turns: something unseen moves nearby." in said


def test_a_single_rest_tells_the_chance_of_a_wanderer_before_it_is_taken() -> None:
    """``z`` where a wanderer may come: the first press tells the chance (the ``Z`` dialog's words) and rests
    nothing; the next rests, and so do the ones after it, without asking, while the chance holds."""
    dice = TestDice()
    session = hurt_session(4, dice)
    game = session.game
    stack = SceneStack([ExploreScene(session)])
    p = explore.rest_wanderer_chance(game)
    assert p > 0
    press(stack, KeySym.Z)
    assert game.state.turn == 0
    told = f"Resting here, a wandering monster comes {p.numerator} time in {p.denominator} a turn (z again: rest)."
    assert session.log.lines[-1][0] == told
    assert told[:60] in screen(stack)  # on the message line, before any rest
    dice.queue.extend([6, 6, 6])
    press(stack, KeySym.Z, KeySym.Z, KeySym.Z)
    assert game.state.turn == 3
    assert sum(t == told for t, _ in session.log.lines) == 1  # told once, not every turn


def test_a_rest_deep_down_says_how_many_wanderers_come_from_deeper() -> None:
    """The play test: on floors 6-8 the rest prompt said what it said on floor 1, though a wanderer found resting
    there comes from deeper down half the time or more. Both prompts now say the share, the engine's own: every
    face of the out-of-depth die played through a turn of rest brings one from deeper exactly that often."""
    assert wanderer_text(Fraction(1, 6), Fraction(1, 2)) == (
        "a wandering monster comes 1 time in 6 a turn, half of them from deeper down"
    )
    assert wanderer_text(Fraction(1, 6), Fraction(3, 8)).endswith(", 3 in 8 of them from deeper down")
    dice = TestDice()
    game = make_game("undercroft", 4, cast(ScriptedDice, dice))  # (unscripted rolls: nothing found on the way)
    session = Session.watch(content(), game)
    game.state.party[0].hp = 4
    stack = SceneStack([ExploreScene(session)])
    press(stack, KeySym.Z, mod=Modifier.LSHIFT)
    assert "Rest until healed?" in screen(stack) and "deeper" not in screen(stack)  # floor 1: none
    press(stack, KeySym.S)
    for _ in range(6):
        go_down(game)
    clear_unique(game)
    ood = game.rs.levels[game.state.depth].out_of_depth
    assert ood is not None and ood.resting is not None
    share = explore.rest_deeper_share(game)
    snap = game.snapshot()
    deeper = 0
    for face in range(1, ood.die + 1):
        game.restore(snap)
        dice.queue.clear()
        dice.push(1, face)  # a wanderer comes; the out-of-depth die shows this face
        deeper += rolls(game.step(Rest()), "out_of_depth")[0].result == "yes"
    game.restore(snap)
    assert 0 < share == Fraction(deeper, ood.die)
    game.state.party[0].hp = 4
    press(stack, KeySym.Z, mod=Modifier.LSHIFT)
    told = rest_odds(game)
    assert f"Here {wanderer_text(explore.rest_wanderer_chance(game), share)}: " in told
    assert "of them from deeper down" in told and all(row in screen(stack) for row in render.wrap(told, 46))
    press(stack, KeySym.S, KeySym.Z)
    assert session.log.lines[-1][0].endswith("of them from deeper down (z again: rest).")


def test_the_walks_hp_share_is_remembered_for_the_next_game(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    data = isolate_user_data(monkeypatch, tmp_path)
    session = Session.new(content(), "undercroft", 11)
    assert session.stop_hp == 50
    stack = SceneStack([ExploreScene(session)])
    press(stack, KeySym.ESCAPE, KeySym.W)
    type_text(stack, "35")
    press(stack, KeySym.RETURN)
    session.close()
    assert json.loads((data / "settings.json").read_text())["stop_hp"] == 35
    again = Session.new(content(), "undercroft", 12)
    assert again.stop_hp == 35
    again.close()
    watched = hurt_session(5)  # a game only looked at reads and writes no settings
    assert watched.stop_hp == 50 and watched.settings_file is None


def test_no_walk_goes_through_or_beside_a_group_the_party_ran_from() -> None:
    game = clear_unique(Game(content(), "undercroft", 11, dice=TestDice()))
    lv = game.state.level
    lv.explored[...] = True
    goal = lv.map.stairs
    way = travel.path(game, goal, travel.BOLD)
    assert len(way) > 6
    x, y = way[len(way) // 2]
    g = game.add_group("orc", 1, pos=(x, y))
    g.met = True
    g.segment = int(lv.map.segment_of[y, x])
    assert (x, y) in travel.path(game, goal, travel.BOLD)  # met, not run from: the last resort walks into it
    g.pursuit_rolled = True  # the party ran from it
    for caution in (travel.BOLD, travel.PLAIN, travel.WARY):
        for px, py in travel.path(game, goal, caution):
            assert max(abs(px - x), abs(py - y)) > 1
    assert travel.ran_from_text(game) == "the Orc you ran from"
    assert (x, y) in travel.path(game, goal, travel.RECKLESS)  # only the novice bot's last resort goes past it


def test_walks_do_not_start_under_the_hp_share_set_and_again_goes_anyway() -> None:
    session = hurt_session(5)
    game = session.game
    stack = SceneStack([ExploreScene(session)])
    press(stack, KeySym.ESCAPE, KeySym.W)
    assert "Walks stop at" in screen(stack)
    type_text(stack, "60")  # replaces the 50 shown
    press(stack, KeySym.RETURN)
    assert session.stop_hp == 60
    pos = game.state.pos
    press(stack, KeySym.X)
    said = session.log.lines[-1][0]
    top = game.state.party[0].max_hp
    assert said == f"You stop: HP 5/{top} is under the 60% you set (Esc to change it) (again: go anyway)."
    assert game.state.pos == pos
    press(stack, KeySym.X)
    assert game.state.pos != pos and game.state.mode == Mode.EXPLORE


def test_a_rest_stopped_by_the_still_water_says_why() -> None:
    """The play test's "The water is still. You see nothing." that ended a rest without a word: a wanderer that
    lies under the water (a Cistern Drowner) came. The rest stops (it will rise behind the party), and says why."""
    dice = TestDice()
    session = hurt_session(4, dice)
    stack = SceneStack([ExploreScene(session)])
    press(stack, KeySym.Z, mod=Modifier.LSHIFT)
    dice.queue.extend([6, 1, 5, 1])  # a quiet turn, then a wanderer: row 5, column 1 of level 1's, a drowner
    press(stack, KeySym.R)
    scene = stack.scenes[0]
    assert isinstance(scene, ExploreScene)
    walk_out(stack, scene, 10)
    said = [t for t, _ in session.log.lines]
    assert said[-2:] == [
        "The water is still. You see nothing.",
        "Your rest is broken after 2 turns: the water is still, and something may lie under it.",
    ]
    assert session.game.state.party[0].hp < session.game.state.party[0].max_hp  # not rested: it stopped


def ran_from_on_the_only_way(game: Game) -> tuple[int, int]:
    """An Orc the party ran from, standing where every known way to the stairs passes it (beside or through it)."""
    lv = game.state.level
    lv.explored[...] = True
    goal = lv.map.stairs
    way = travel.path(game, goal, travel.BOLD)
    for x, y in way[2:-2]:
        g = game.add_group("orc", 1, pos=(x, y))
        g.met, g.pursuit_rolled = True, True  # the party ran from it
        g.segment = int(lv.map.segment_of[y, x])
        if not travel.path(game, goal) and travel.path(game, goal, least=travel.RECKLESS):
            return x, y
        lv.groups.remove(g)
    raise AssertionError("no choke point on the way to the stairs")


def whole_past_a_group_run_from() -> tuple[Session, ExploreScene, SceneStack]:
    """A whole delver on the explore screen whose only way on passes a group it ran from."""
    session = hurt_session(99)
    game = session.game
    game.state.party[0].hp = game.state.party[0].max_hp
    ran_from_on_the_only_way(game)
    scene = ExploreScene(session)
    return session, scene, SceneStack([scene])


def test_travel_past_a_group_run_from_says_so_and_goes_anyway_when_asked_again() -> None:
    """The play test's ``>`` said "You know of no way to the stairs from here." when the way passed the Kobolds run
    from, and offered nothing: it says the way passes them, and ``>`` again walks it (ordinary moves) to meet them."""
    session, scene, stack = whole_past_a_group_run_from()
    game = session.game
    pos = game.state.pos
    press(stack, KeySym.PERIOD, mod=Modifier.LSHIFT)
    said = "The way to the stairs passes the Orc you ran from (> again: go anyway)."
    assert session.log.lines[-1][0] == said and said in screen(stack).replace("\n", "")
    assert game.state.pos == pos
    for _ in range(10):
        if session.mode != Mode.EXPLORE:
            break
        press(stack, KeySym.PERIOD, mod=Modifier.LSHIFT)
        walk_out(stack, scene)
    assert session.mode == Mode.ENCOUNTER and game.state.pos != pos


def test_explore_past_a_group_run_from_says_so_and_goes_anyway_when_asked_again() -> None:
    """The play test's ``x`` said "Nothing more to explore that keeps clear of the Kobolds you ran from." forty
    times: it offers to go past them, as it does past a monster left behind."""
    session, scene, stack = whole_past_a_group_run_from()
    said = "Nothing more to explore without going past the Orc you ran from (x again: go anyway)."
    told = False
    for _ in range(40):
        if session.mode != Mode.EXPLORE:
            break
        press(stack, KeySym.X)
        walk_out(stack, scene)
        told = told or session.log.lines[-1][0] == said
    assert told and session.mode == Mode.ENCOUNTER
