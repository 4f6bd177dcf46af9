"""The greedy player: at a meeting the top number the panel shows; in all else (shopping, drinking) the careful bot."""

from __future__ import annotations

from engine_helpers import make_game, walk_into

from undercroft.bot import Bot, Greedy
from undercroft.bot.meeting import fight_win
from undercroft.rules import shop
from undercroft.rules.actions import Buy, Drink, Fight, Run
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.game import Game
from undercroft.rules.types import Mode, Origin


def in_a_new_room(ruleset: str, seed: int = 2) -> Game:
    game = make_game(ruleset, seed, dice=ScriptedDice())
    walk_into(game, "room", visited=False)
    return game


def test_it_takes_the_top_number_and_runs_back_the_way_it_came() -> None:
    game = in_a_new_room("warden")  # no pursuit in warden: running gets away (100 %)
    g = game.add_group("demon", 1, pos=game.state.pos)
    game.start_encounter(g, meeting=False)
    assert game.state.mode == Mode.ENCOUNTER
    assert fight_win(game) < 1.0
    assert Greedy(game, 1).choose() == Run()  # back the way it came: no door planned


def test_after_many_runs_on_a_level_it_runs_no_more_there() -> None:
    """Found in a balance run (greedy, undercroft seed 558): 165 runs on one floor, each back the way it came,
    and the game timed out at 5000 actions. After LEVEL_RUNS runs on a level it stands."""
    from undercroft.bot.greedy import LEVEL_RUNS

    game = in_a_new_room("warden")
    g = game.add_group("demon", 1, pos=game.state.pos)
    game.start_encounter(g, meeting=False)
    bot = Greedy(game, 1)
    bot.choose()  # (the level is its own from here)
    bot.level_runs = LEVEL_RUNS
    assert bot.choose() != Run()


def test_with_only_a_fight_shown_it_fights() -> None:
    game = in_a_new_room("citadel")  # no running; The Nameless One will not talk nor take gold
    g = game.add_group("the_nameless_one", 3, pos=game.state.pos, origin=Origin.WANDERING)
    game.start_encounter(g)
    assert Greedy(game, 1).choose() == Fight()


def test_it_drinks_as_the_careful_bot_does() -> None:
    """Greedy differs from the careful bot only at a meeting: hurt while exploring, both drink."""
    game = make_game("undercroft", 3)
    m = game.state.party[0]
    assert game.state.items.get("healing_potion", 0) > 0
    m.hp = m.max_hp // 3
    assert Greedy(game, 1).choose() == Bot(game, 1).choose() == Drink(0)
    m.hp = m.max_hp - 1  # (a scratch: neither drinks)
    assert not isinstance(Greedy(game, 1).choose(), Drink) and not isinstance(Bot(game, 1).choose(), Drink)


def test_it_shops_as_the_careful_bot_does() -> None:
    """At the merchant, with gold: the careful bot's first purchase, not a walk out with nothing."""
    game = make_game("undercroft", 3, gold=400)
    shop.open_shop(game, [])
    assert game.state.mode == Mode.SHOP
    first = Bot(game, 1).choose()
    assert isinstance(first, Buy) and Greedy(game, 1).choose() == first
