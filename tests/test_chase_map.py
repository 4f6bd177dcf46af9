"""The chase on the map (003 pursuit): both sides run on the level's tiles, the pursuer along the party's path, as
long as it sees the party from its own tile; what the party drops lies on the tiles. Levels drawn in text."""

from __future__ import annotations

import pytest
from art_maps import on_art
from engine_helpers import act, make_game, of, one, script

from undercroft.rules import approach
from undercroft.rules import events as evt
from undercroft.rules.actions import Drink, DropFood, DropTreasure, Run, ThrowOil, Wait
from undercroft.rules.chase import moves
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.game import Game
from undercroft.rules.refusals import Code, Reason
from undercroft.rules.state import Group, Pursuit
from undercroft.rules.types import Mode, Origin, Side
from undercroft.sim.chase import RunOdds, run_odds

# A room and a long straight corridor: 60 tiles, all of it in sight of its own length up to the light's radius.
STRAIGHT = """
###########################################################################
#......+,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,#
#......####################################################################
#......####################################################################
###########################################################################
"""

# The corridor turns a corner 25 steps from the party's tile in the room.
CORNER = "\n".join(
    [
        "#" * 34,
        "#......+" + "," * 23 + "###",
        "#......" + "#" * 23 + ",###",
        "#......" + "#" * 23 + ",###",
        *["#" * 30 + ",###" for _ in range(26)],
        "#" * 34,
    ]
)


def chased(art: str, monster: str, party: tuple[int, int], monster_at: tuple[int, int], speed: int = 90) -> Game:
    """The party at ``party`` on ``art``, ``monster`` at ``monster_at`` chasing it (met, its pursuit rolled)."""
    game = make_game("undercroft", dice=ScriptedDice())
    on_art(game, art, party)
    st = game.state
    st.party[0].speed = speed
    g = game.add_group(monster, 1, pos=monster_at, origin=Origin.WANDERING)
    g.met = True
    st.pursuit = Pursuit(g.id, approach.distance(game, g), trail=moves.start_trail(game, st.pos, g.pos))
    st.mode = Mode.CHASE
    return game


def pursuer(game: Game) -> Group:
    p = game.state.pursuit
    assert p is not None
    return game.state.group(p.group)


@pytest.mark.clause("003-running-1", "003-pursuit-2")
def test_both_sides_run_their_running_speed_and_the_distance_is_the_walk() -> None:
    game = chased(STRAIGHT, "orc", (10, 1), (7, 1))  # the orc 3 tiles behind, both at 90 ft: 27 tiles a round
    g = pursuer(game)
    ev = act(game, Run())
    assert game.state.pos == (37, 1) and g.pos == (34, 1)
    c = one(ev, evt.Chase)
    assert c.distance == 30 == approach.distance(game, g) and c.round == 1
    assert game.state.mode == "pursuit"


@pytest.mark.clause("003-pursuit-2")
def test_a_faster_pursuer_catches_the_party_beside_it() -> None:
    game = chased(STRAIGHT, "orc", (10, 1), (7, 1), speed=60)  # 18 tiles a round against the orc's 27
    ev = act(game, Run())  # (the fight begins: initiative is by agility, no die)
    assert one(ev, evt.Caught).fights is True and game.state.mode == "combat"
    g = pursuer_of(ev, game)
    assert max(abs(g.pos[0] - game.state.pos[0]), abs(g.pos[1] - game.state.pos[1])) <= 1
    assert game.state.pos == (28, 1)  # it ran its 18 tiles before it was caught


def pursuer_of(ev: list, game: Game) -> Group:  # type: ignore[type-arg]
    return game.state.group(one(ev, evt.Caught).group)


@pytest.mark.clause("003-pursuit-3")
def test_a_slower_pursuer_left_beyond_the_light_loses_the_party() -> None:
    game = chased(STRAIGHT, "goblin", (10, 1), (7, 1))  # 18 tiles a round against the party's 27
    g = pursuer(game)
    ev = act(game, Run())
    e = one(ev, evt.Escape)
    assert e.reason == "out_of_sight" and e.distance == 120  # 3 + 9 tiles: beyond the light's 8
    assert game.state.pos == (37, 1) and g.pos == (25, 1)
    assert not moves.sees(game, g.pos, game.state.pos)


@pytest.mark.clause("003-pursuit-3")
def test_a_corner_hides_the_party_from_a_pursuer_as_fast_as_it() -> None:
    game = chased(CORNER, "orc", (5, 1), (2, 1))  # 3 tiles behind, as fast: only the corner can lose it
    g = pursuer(game)
    ev = act(game, Run())
    e = one(ev, evt.Escape)
    assert e.reason == "out_of_sight" and e.distance == 30
    assert game.state.pos == (30, 4) and g.pos == (29, 1)  # the party round the corner, the orc not yet


@pytest.mark.clause("003-pursuit-3")
def test_in_sight_the_chase_goes_on_round_after_round_and_gives_up_at_last() -> None:
    game = chased(STRAIGHT, "orc", (10, 1), (7, 1), speed=90)
    game.content.rules.encounter.__dict__["pursuit_max_rounds"] = 2  # (the shipped 30 needs a longer corridor)
    try:
        assert one(act(game, Run()), evt.Chase).round == 1
        ev = act(game, Run())
        assert one(ev, evt.Escape).reason == "gave_up" and game.state.mode == "explore"
    finally:
        game.content.rules.encounter.__dict__["pursuit_max_rounds"] = 30


@pytest.mark.clause("003-pursuit-4")
@pytest.mark.parametrize(("face", "stops"), [(50, True), (51, False)])
def test_food_lies_where_it_was_dropped_and_stops_the_pursuer_that_comes_to_it(face: int, stops: bool) -> None:
    game = chased(STRAIGHT, "troll", (10, 1), (7, 1))  # a troll: no intelligence, eats food
    st = game.state
    st.items["rations"] = 2
    g = pursuer(game)
    ev = act(game, DropFood(), face)  # dropped at (10, 1); the troll comes to it in this round's run
    assert one(ev, evt.Roll, purpose="food_distracts").faces == [face]
    if stops:
        assert one(ev, evt.Distracted).by == "food" and st.mode == "explore"
        assert g.pos == (10, 1) and (10, 1) not in st.level.items  # it stopped there and ate it
    else:
        assert st.mode == "pursuit" and st.level.items[(10, 1)] == [("rations", 1)]  # it lies on the floor
        assert g.pos == (34, 1)


@pytest.mark.clause("003-pursuit-5")
def test_food_dropped_before_an_intelligent_pursuer_stays_on_the_floor() -> None:
    game = chased(STRAIGHT, "orc", (10, 1), (7, 1))
    game.state.items["rations"] = 1
    ev = act(game, DropFood())  # no die: an orc does not stop to eat
    assert one(ev, evt.Ignored).what == "rations"
    assert game.state.level.items[(10, 1)] == [("rations", 1)] and game.state.mode == "pursuit"


@pytest.mark.clause("003-pursuit-7")
@pytest.mark.parametrize(("face", "stops"), [(50, True), (51, False)])
def test_burning_oil_holds_or_stops_a_pursuer_with_self_preservation(face: int, stops: bool) -> None:
    game = chased(STRAIGHT, "orc", (10, 1), (7, 1))
    st = game.state
    st.items["oil_flask"] = 1
    g = pursuer(game)
    ev = act(game, ThrowOil(), face)
    fire = one(ev, evt.Oil).tiles
    assert fire == [[9, 1], [10, 1]]  # the party's own tile (it runs on from it) and the one behind it
    assert one(ev, evt.Roll, purpose="oil_stops").faces == [face]
    if stops:
        assert one(ev, evt.Distracted).by == "fire" and st.mode == "explore" and g.pos == (8, 1)
        return
    assert one(ev, evt.Slowed).rounds == 3 and g.pos == (8, 1)  # held before the fire, it loses the party
    assert one(ev, evt.Escape).reason == "out_of_sight" and st.pos == (37, 1)


@pytest.mark.clause("003-pursuit-7")
def test_burning_oil_does_not_hold_a_pursuer_without_self_preservation() -> None:
    game = chased(STRAIGHT, "ghoul", (10, 1), (7, 1))
    game.state.items["oil_flask"] = 1
    ev = act(game, ThrowOil())  # no die
    assert one(ev, evt.Ignored).what == "fire" and not of(ev, evt.Slowed)
    assert pursuer(game).pos == (34, 1)


@pytest.mark.clause("003-evasion-4")
def test_the_party_giving_chase_follows_the_group_on_the_map() -> None:
    game = giving_chase(90)  # the goblin runs 18 tiles, the party 27
    st = game.state
    ev = act(game, Run())
    c = one(ev, evt.Caught)
    assert c.by == "party" and st.mode == "combat"
    g = pursuer_of(ev, game)
    assert max(abs(g.pos[0] - st.pos[0]), abs(g.pos[1] - st.pos[1])) <= 1 and g.pos[0] > 10  # it ran, and was caught


def giving_chase(speed: int) -> Game:
    """The party in the room gives chase to a goblin (60 ft a round: 18 tiles) running down the corridor."""
    game = chased(STRAIGHT, "goblin", (7, 1), (10, 1), speed=speed)
    p = game.state.pursuit
    assert p is not None
    p.chaser, p.trail = Side.PARTY, moves.start_trail(game, pursuer(game).pos, game.state.pos)
    return game


@pytest.mark.clause("003-evasion-4")
def test_the_party_giving_chase_has_nothing_to_throw_and_may_let_it_go() -> None:
    game = giving_chase(60)  # as fast: the distance holds
    st = game.state
    st.items.update({"rations": 2, "oil_flask": 1})
    st.gold = 10
    assert one(act(game, Run()), evt.Chase).distance == 30
    for throw in (DropFood(), DropTreasure(), ThrowOil()):
        assert game.refusal(throw) == Reason(Code.GIVING_CHASE)
    g = pursuer(game)
    ev = act(game, Wait())  # in a chase, waiting lets it go: it is gone
    assert one(ev, evt.LetGo) and st.mode == Mode.EXPLORE and g not in st.level.groups


@pytest.mark.clause("003-evasion-4")
def test_a_group_faster_than_the_party_giving_chase_gets_away_and_is_gone() -> None:
    game = giving_chase(30)  # 9 tiles a round against its 18: 3 + 9 tiles apart, beyond the light
    g = pursuer(game)
    ev = act(game, Run())
    assert one(ev, evt.GotAway, reason="out_of_sight").distance == 120
    assert game.state.mode == Mode.EXPLORE and g not in game.state.level.groups


@pytest.mark.clause("003-running-2")
def test_nothing_is_mapped_while_running_and_the_party_looks_round_once_it_is_over() -> None:
    game = chased(CORNER, "orc", (5, 1), (2, 1))
    st = game.state
    before = st.level.explored.copy()
    ev = act(game, Run())  # round the corner: the orc loses it
    assert one(ev, evt.Escape) and st.mode == Mode.EXPLORE
    assert one(ev, evt.Enter).segment == st.segment  # the corridor's entry, once the chase is over
    seen_now = st.level.explored & ~before
    assert seen_now[st.pos[1], st.pos[0]] and not seen_now[1, 15]  # looked round where it stopped, not on the way


@pytest.mark.clause("003-running-2")
def test_a_chase_over_in_a_corridor_already_entered_looks_round_where_it_stopped() -> None:
    """Found by the bot's stalls (two timeouts in 1,000 games): a chase that ended on a tile of a segment the party
    had already entered left it standing on a tile it never saw, with nothing mapped round it: a player saw darkness
    and a bot found no floor to walk on. It looks round there now, as at the end of a run into a new segment."""
    game = chased(STRAIGHT, "goblin", (10, 1), (7, 1))
    st = game.state
    assert st.entered and not st.level.explored[1, 37]
    ev = act(game, Run())
    assert one(ev, evt.Escape) and st.mode == Mode.EXPLORE and st.pos == (37, 1)
    assert not of(ev, evt.Enter)  # (the corridor had its entry already)
    assert st.level.explored[1, 37] and st.level.explored[1, 40] and not st.level.explored[1, 20]


@pytest.mark.clause("003-pursuit-3")
def test_a_submerged_pursuer_never_gives_up_and_ignores_food() -> None:
    game = chased(STRAIGHT, "cistern_drowner", (10, 1), (4, 1), speed=130)  # 39 tiles a round against its 36
    st = game.state
    st.items["rations"] = 1
    g = pursuer(game)
    ev = act(game, DropFood())  # no d100: nothing distracts it
    assert one(ev, evt.Ignored).what == "rations" and not of(ev, evt.Roll)
    c = one(ev, evt.Chase)  # 9 tiles behind, beyond the light: any other pursuer would have lost the party
    assert c.distance == 90 and not moves.sees(game, g.pos, st.pos) and st.mode == "pursuit"


def test_the_odds_of_running_are_the_chase_played_out_on_a_fork() -> None:
    game = chased(STRAIGHT, "orc", (10, 1), (7, 1))  # as fast, in sight: the corridor's dead end catches the party
    before = game.checksum()
    assert run_odds(game) == RunOdds(0.0, 1.0, 3, "")
    assert game.checksum() == before  # the game itself is untouched: not a die drawn from its streams
    assert run_odds(chased(STRAIGHT, "goblin", (10, 1), (7, 1))) == RunOdds(1.0, 1.0, 0, "out_of_sight")
    assert run_odds(chased(STRAIGHT, "orc", (10, 1), (7, 1), speed=60)) == RunOdds(0.0, 1.0, 1, "")
    assert run_odds(chased(CORNER, "orc", (5, 1), (2, 1))) == RunOdds(1.0, 1.0, 0, "out_of_sight")


@pytest.mark.parametrize(("speed", "away", "caught"), [(90, 1.0, 0), (60, 0.25, 1)])
def test_the_odds_of_running_from_a_meeting_weigh_the_pursuit_roll(speed: int, away: float, caught: int) -> None:
    from test_running import HOSTILE, long_meet  # a gaoler (90 ft) 60 ft off, hostile: it follows 75% of the time

    game, _, _ = long_meet("gaoler", HOSTILE, party_speed=speed)
    odds = run_odds(game)
    assert odds is not None and (odds.away, odds.follows, odds.caught) == (away, 0.75, caught)
    script(game).push(75, *[1] * 10)  # it follows (then the fight's dice, if it comes to one)
    ev = game.step(Run())  # and the chase goes as the odds said
    assert bool(of(ev, evt.Caught)) == (caught == 1)


def test_oil_thrown_at_a_pursuer_at_the_partys_heels_burns_between_them() -> None:
    """From a fight the pursuer stands beside the party: the oil burns the party's own tile, which the pursuer must
    cross (no corner cut past the flames)."""
    game = chased(STRAIGHT, "orc", (10, 1), (9, 1))
    game.state.items["oil_flask"] = 1
    g = pursuer(game)
    ev = act(game, ThrowOil(), 51)  # it balks, and waits while the party runs out of its sight
    assert one(ev, evt.Oil).tiles == [[10, 1]] and one(ev, evt.Slowed) and g.pos == (9, 1) and one(ev, evt.Escape)


@pytest.mark.clause("003-pursuit-2")
def test_drinking_while_pursued_takes_the_round_the_pursuer_closes_in() -> None:
    game = chased(STRAIGHT, "goblin", (30, 1), (18, 1))  # 12 tiles behind; the goblin runs 18 a round
    st = game.state
    st.party[0].hp, st.items["healing_potion"] = 5, 1
    g = pursuer(game)
    ev = act(game, Drink(0), 2, 2)  # heals 2d4+4 = 8; the party stands, the goblin runs its round
    assert one(ev, evt.Drink).healed == 7 and st.party[0].hp == 12
    assert one(ev, evt.Caught).fights is True and st.mode == "combat"
    assert st.pos == (30, 1) and max(abs(g.pos[0] - 30), abs(g.pos[1] - 1)) <= 1


@pytest.mark.clause("003-pursuit-2")
def test_drinking_while_giving_chase_lets_the_group_run_its_round() -> None:
    game = giving_chase(60)  # as fast as the goblin: 3 tiles apart, and it gains its 18 tiles while the party drinks
    st = game.state
    st.party[0].hp, st.items["healing_potion"] = 5, 1
    g = pursuer(game)
    ev = act(game, Drink(0), 2, 2)
    assert st.pos == (7, 1) and g.pos == (28, 1)
    assert one(ev, evt.GotAway, reason="out_of_sight").distance == 210 and g not in st.level.groups


@pytest.mark.clause("003-pursuit-2")
def test_a_group_standing_in_the_pursuers_way_does_not_stop_the_party_running_its_speed() -> None:
    game = chased(STRAIGHT, "orc", (20, 1), (12, 1))  # the orc 8 tiles behind, a goblin between them
    other = game.add_group("goblin", 1, pos=(14, 1), origin=Origin.WANDERING)
    g = pursuer(game)
    ev = act(game, Run())  # both run 27 tiles: the orc squeezes past the goblin, no nearer than it was
    assert game.state.pos == (47, 1) and g.pos == (39, 1) and other.pos == (14, 1)
    assert one(ev, evt.Chase).distance == 80
