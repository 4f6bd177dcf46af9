"""The thorough player: every floor explored before it goes down, every sure fight fought, rested to full."""

from __future__ import annotations

from art_maps import on_art
from engine_helpers import make_game, walk_into

from undercroft.bot import Bot, Thorough
from undercroft.bot.meeting import fight_win, values
from undercroft.rules.actions import Fight, Move, Rest, Talk
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.types import Origin

# The stairs in the room the party stands in; a corridor leads on to floor not seen yet.
STAIRS_SEEN = """
############
#.....+,,,,#
#..>..#,####
#.....#,####
######################
"""


def test_it_explores_on_where_the_careful_bot_takes_the_stairs_it_has_seen() -> None:
    game = make_game("undercroft", 2, dice=ScriptedDice())
    lv = on_art(game, STAIRS_SEEN, (1, 1))
    lv.memory[:4, :7] = True  # the room seen, the corridor beyond its door not
    game.state.items["healing_potion"] = 2  # (the careful bot goes down with two in hand)
    careful, thorough = Bot(game, 1), Thorough(game, 1)
    assert isinstance(careful.choose(), Move) and careful.walk.kind == "stairs"
    assert isinstance(thorough.choose(), Move) and thorough.walk.kind == "explore"


def test_it_fights_a_fight_the_panel_gives_at_least_ninety_percent() -> None:
    game = make_game("undercroft", 2, dice=ScriptedDice())
    walk_into(game, "room", visited=False)
    g = game.add_group("ghoul", 1, pos=game.state.pos, origin=Origin.WANDERING)
    game.start_encounter(g, meeting=False)
    assert 0.9 <= fight_win(game) < 0.95  # (the careful bot fights a fight of 95 % or more too)
    assert Bot(game, 1).choose() == Talk() and Thorough(game, 1).choose() == Fight()


def test_the_careful_bot_fights_a_sure_fight_it_could_talk_away() -> None:
    """A fight the panel gives 95 % or more (a flat one) is worth its renown and treasure: the careful bot fights
    it where talk reads higher (it talked before, and fell a level behind the greedy player deep down)."""
    game = make_game("undercroft", 2, dice=ScriptedDice())
    walk_into(game, "room", visited=False)
    g = game.add_group("bandit", 1, pos=game.state.pos, origin=Origin.WANDERING)
    game.start_encounter(g, meeting=False)
    assert 0.95 <= fight_win(game) < 1 and values(game, g, fight_win(game))["talk"] > fight_win(game)
    assert Bot(game, 1).choose() == Fight()


def test_it_rests_to_full_where_the_careful_bot_walks_on() -> None:
    game = make_game("undercroft", 2, dice=ScriptedDice())
    game.state.party[0].hp -= 1  # a scratch: above the careful bot's REST_UNTIL
    assert Bot(game, 1).choose() != Rest() and Thorough(game, 1).choose() == Rest()
