"""The bot under the map's rules: it knows nothing of a group out of sight, runs through a door away
from the group rather than past it, and chases a group that goes its way only for its treasure and when it would
fight it anyway. Scripted dice, the engine's public interface."""

from __future__ import annotations

import pytest
from engine_helpers import NOTHING, act, encounter_faces, make_game, of, one, script, walk_into, walk_to

from undercroft.bot import Bot
from undercroft.rules import events as evt
from undercroft.rules.actions import Drink, Move, Pursue, Run, Wait
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.game import Game
from undercroft.rules.state import Group
from undercroft.rules.types import Mode, Origin


def in_a_new_room(ruleset: str = "undercroft", seed: int = 1) -> Game:
    game = make_game(ruleset, seed, dice=ScriptedDice())
    walk_into(game, "room", visited=False)
    return game


def meet_at(
    game: Game,
    monster: str,
    count: int,
    distance: tuple[int, int],
    *,
    treasure: int = 0,
    reaction: tuple[int, int] = (4, 4),
) -> Group:
    """A wandering group met with the engine's own procedure at the rolled ``distance`` (2d6 x 10 ft faces)."""
    g = game.add_group(monster, count, pos=game.state.pos, origin=Origin.WANDERING, treasure=treasure)
    script(game).push(*encounter_faces(distance=distance, reaction=reaction))
    game.start_encounter(g)
    assert script(game).remaining == 0
    return g


def steps(a: tuple[int, int], b: tuple[int, int]) -> int:
    return max(abs(a[0] - b[0]), abs(a[1] - b[1]))


# --- a group out of sight ------------------------------------------------------------------------------------------


@pytest.mark.clause("003-distance-3")
def test_the_bot_knows_nothing_of_a_group_out_of_sight() -> None:
    game = in_a_new_room()
    st = game.state
    g = meet_at(game, "goblin", 1, (6, 6))  # 120 ft, beyond sight: nothing is met yet
    assert g.unseen and st.mode == Mode.EXPLORE
    alone = make_game("undercroft", 1, dice=ScriptedDice())  # the same game without it
    alone.restore(game.snapshot())
    alone.state.level.remove_group(next(o for o in alone.state.level.groups if o.id == g.id))
    bot, bot_alone = Bot(game, 1), Bot(alone, 1)
    # its tile is what it would be without it (floor seen, or unknown): the bot does not know
    assert (bot.walk.walk_cost(True) == bot_alone.walk.walk_cost(True)).all()
    for _ in range(3):
        action = bot.choose()
        assert action == bot_alone.choose() and isinstance(action, Move)
        script(game).push(*[NOTHING] * 3)
        script(alone).push(*[NOTHING] * 3)
        game.step(action)
        alone.step(action)
        if not g.unseen:
            break


# --- running: the door ---------------------------------------------------------------------------------------------


def test_the_bot_runs_through_a_door_away_from_the_group_not_past_it() -> None:
    game = in_a_new_room("warden", 2)  # a room with three doors; no pursuit in warden: the run is over at once
    st = game.state
    st.party[0].hp = 6  # (hurt, nothing to drink: the fight met again rested is the better chance)
    st.items.pop("healing_potion", None)
    m = st.level.map
    seg = m.segments[st.segment]
    entry = st.pos  # just inside the door the party came in by
    far = max((w for w in game.exits() if not w.came_in), key=lambda w: steps(w.door, entry))
    # The party crosses the room toward its farthest door; a demon comes in behind it, by the door it came in by.
    inside = [
        (x, y)
        for y in range(seg.y1, seg.y2 + 1)
        for x in range(seg.x1, seg.x2 + 1)
        if int(m.segment_of[y, x]) == seg.id
    ]
    walk_to(game, min(inside, key=lambda p: (steps(p, far.door), p)))
    g = game.add_group("demon", 1, pos=entry)
    game.start_encounter(g, meeting=False)
    ways = game.exits()
    assert not any(w.blocked for w in ways)  # the engine would let it run through any door, back past the demon too
    action = Bot(game, 1).choose()
    assert isinstance(action, Run) and action.door >= 0
    way = ways[action.door]
    assert not way.came_in and way.door == far.door
    assert steps(g.pos, way.door) > steps(st.pos, way.door)  # the party is nearer that door than the demon
    ev = act(game, action, NOTHING)
    assert tuple(one(ev, evt.Run).to) == way.landing == st.pos and st.mode == Mode.EXPLORE
    assert st.segment == way.segment != g.segment


# --- a group that goes its way -------------------------------------------------------------------------------------


def wanderer_goes_its_way(treasure: int) -> tuple[Game, Bot, Group]:
    """Three kobolds (the bot's odds against them are good, short of sure) meet the party in a friendly mood; the
    bot gives them a moment, and they go their way."""
    game = in_a_new_room()
    g = meet_at(game, "kobold", 3, (2, 2), treasure=treasure, reaction=(6, 5))  # 40 ft; reaction 11
    bot = Bot(game, 1)
    assert bot.choose() == Wait()
    ev = act(game, Wait())
    assert one(ev, evt.Leaves) and game.state.fled == g.id and game.legal(Pursue())
    return game, bot, g


def test_the_bot_chases_a_group_that_goes_off_with_treasure_and_catches_it() -> None:
    game, bot, g = wanderer_goes_its_way(treasure=50)
    st = game.state
    assert bot.choose() == Pursue()
    game.step(Pursue())
    while st.mode == Mode.CHASE:
        action = bot.choose()
        assert action == Run()  # faster than kobolds: it runs on
        assert not of(game.step(action), evt.Refused)
    assert st.mode == Mode.COMBAT and st.combat is not None and st.combat.group == g.id


def test_the_bot_lets_a_group_with_nothing_to_take_go_its_way() -> None:
    game, bot, g = wanderer_goes_its_way(treasure=0)
    st = game.state
    action = bot.choose()
    assert action != Pursue() and isinstance(action, Move)  # it walks on
    game.step(action)
    assert st.fled == 0 and all(x.id != g.id for x in st.level.groups)  # and the kobolds are gone


# --- cornered meetings --------------------------------------------------------------------------------------------


def test_a_meeting_with_nothing_but_a_losing_fight_is_cornered_and_one_with_a_way_is_not() -> None:
    """The citadel has no running; The Nameless One can be neither talked to nor bribed: the party meeting three
    has nothing but a fight it loses (cornered). The peddler holds its ground and can be talked to: not cornered."""
    from undercroft.bot.meeting import cornered, fight_win

    game = in_a_new_room("citadel")
    g = game.add_group("the_nameless_one", 3, pos=game.state.pos, origin=Origin.WANDERING)
    game.start_encounter(g)  # (the citadel rolls no distance, surprise or reaction: nothing scripted)
    assert game.state.mode == Mode.ENCOUNTER
    win = fight_win(game)
    assert win < 0.5 and not game.legal(Run())
    assert cornered(game, g, win)
    assert not cornered(game, g, 0.5)  # an even fight is no corner
    game = in_a_new_room("undercroft")
    peddler = meet_at(game, "peddler", 1, (3, 3))
    assert not cornered(game, peddler, 0.0)


def test_a_talk_that_cannot_succeed_still_opens_the_bribe_so_the_meeting_is_no_corner() -> None:
    """000: a bribe comes after a failed negotiation. A lone warrior (negotiation 0) cannot talk a Wight
    (reluctance 6) round, but with gold a failed talk opens a bribe: not cornered, and the careful bot talks,
    then bribes."""
    from undercroft.bot.meeting import cornered, fight_win
    from undercroft.rules.actions import Bribe, Talk
    from undercroft.sim import chances

    game = in_a_new_room("citadel")
    st = game.state
    for m in st.party[1:]:
        m.hp = 0
    st.party[0].hp, st.gold = 7, 825
    st.items.pop("healing_potion", None)
    g = game.add_group("wight", 1, pos=st.pos, origin=Origin.WANDERING)
    game.start_encounter(g)
    win = fight_win(game)
    assert chances.talk_chance(game, g) == 0.0 and chances.best_bribe(game, g) is None  # (talk first)
    assert not cornered(game, g, win)
    bot = Bot(game, 1)
    assert isinstance(bot.choose(), Talk)
    script(game).push(6, 6)  # 12 - 6 reluctance: failure
    act(game, Talk())
    assert g.negotiation == "failure" and isinstance(bot.choose(), Bribe)
    game.state.gold = 0
    assert cornered(game, g, win)  # (no gold, no bribe: nothing but the fight)


def test_in_warden_the_bot_runs_again_from_a_foe_it_wounded_since_it_last_ran() -> None:
    """001: running costs nothing and the monster keeps the damage done. A delver that ran twice from a Gaoler
    (it stops running from one that gets no worse) runs again once it has wounded it, hurt: back rested."""
    from undercroft.bot.meeting import Met
    from undercroft.rules.actions import Attack

    game = in_a_new_room("warden")
    g = game.add_group("gaoler", 1, pos=game.state.pos, origin=Origin.WANDERING)
    script(game).push(1)  # a monster in the room means a fight: the Gaoler (AGILITY 4) strikes first, a natural 1
    game.start_encounter(g)
    assert game.state.mode == Mode.COMBAT
    game.state.party[0].hp = 5
    bot = Bot(game, 1)
    assert isinstance(bot.choose(), Run)  # (hurt at first: a run back to rest, the fight met again rested)
    bot.met[g.id] = Met(fled=2, hp=16, committed=True)
    assert isinstance(bot.choose(), Attack)  # (unhurt since the last run: a fight to the end)
    g.set_hp(0, 10)
    assert isinstance(bot.choose(), Run)


# --- drinking in a meeting --------------------------------------------------------------------------------------


@pytest.mark.parametrize(("reaction", "drinks"), [((4, 4), True), ((2, 3), False)])
def test_the_bot_drinks_in_a_meeting_only_where_the_monster_cannot_attack_on_it(
    reaction: tuple[int, int], drinks: bool
) -> None:
    """A drink in a meeting is answered as a wait is: hurt, the bot drinks in front of an uncertain group (it
    never attacks on the round), not in front of a hostile one (50 % it attacks on it): it takes another way."""
    game = in_a_new_room()
    g = meet_at(game, "kobold", 1, (1, 1), reaction=reaction)
    assert game.state.mode == Mode.ENCOUNTER
    game.state.party[0].hp = 2
    o = game.wait_outcome(g)
    assert o is not None and (o.attacks == 0) == drinks
    assert isinstance(Bot(game, 1).choose(), Drink) == drinks
