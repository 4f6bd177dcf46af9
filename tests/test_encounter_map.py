"""An encounter has a place on the map (003 distance), running goes through any door (001) and into the
entry procedure of the segment beyond, the way out may be blocked (003), nothing is mapped while running, and the
party may pursue a group that goes its way (003). Scripted dice throughout."""

from __future__ import annotations

import pytest
from engine_helpers import (
    NOTHING,
    act,
    clear_unique,
    content,
    encounter_faces,
    kinds,
    make_game,
    of,
    one,
    rolls,
    script,
    walk_into,
    walk_to,
    why,
)

from undercroft.rules import approach, ways_out
from undercroft.rules import events as evt
from undercroft.rules.actions import Bribe, Descend, Fight, Move, Pursue, Rest, Run, Talk, Wait
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.game import Game
from undercroft.rules.levelmap import FLOOR
from undercroft.rules.refusals import Code, Reason
from undercroft.rules.state import Group
from undercroft.rules.types import Mode, Origin

FEET = 10  # rules.yaml encounter.feet_per_tile


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
    origin: Origin = Origin.RESIDENT,
    reaction: tuple[int, int] = (4, 4),
) -> tuple[Group, list[object]]:
    g = game.add_group(monster, count, pos=game.state.pos, origin=origin)
    script(game).push(*encounter_faces(distance=distance, reaction=reaction))
    events = game.start_encounter(g)
    assert script(game).remaining == 0
    return g, list(events)


def steps(game: Game, a: tuple[int, int], b: tuple[int, int]) -> int:
    return approach.step_map(game.state.level.map, a).at(b)


# --- 1. the group stands at the rolled distance ------------------------------------------------------------------


@pytest.mark.clause("003-seq-2")
def test_a_resident_stands_in_its_room_at_the_rolled_walking_distance() -> None:
    game = in_a_new_room()
    st = game.state
    g, events = meet_at(game, "orc", 3, (2, 2))  # 40 ft: four tiles
    placed = one(events, evt.Placed)  # type: ignore[arg-type]
    assert placed.rolled == 40 and placed.distance == 40
    assert steps(game, st.pos, g.pos) == 4 and g.segment == st.segment
    assert st.encounter is not None and st.encounter.distance == 40 and not g.unseen
    tiles = game.creature_tiles(g)
    assert len(set(tiles)) == 3 and st.pos not in tiles  # each creature has its own tile
    assert all(int(st.level.map.segment_of[y, x]) == st.segment for x, y in tiles)

    def cheb(p: tuple[int, int]) -> int:
        return max(abs(p[0] - st.pos[0]), abs(p[1] - st.pos[1]))

    assert all(cheb(p) >= cheb(g.pos) for p in tiles)  # none nearer than the group: its distance is theirs


@pytest.mark.clause("003-seq-2")
def test_a_resident_in_a_room_smaller_than_the_roll_stands_at_its_farthest_tile() -> None:
    game = in_a_new_room()
    st = game.state
    m = st.level.map
    g, _ = meet_at(game, "orc", 1, (6, 6))  # 120 ft: farther than this room reaches
    sm = approach.step_map(m, st.pos)
    room = [
        (x, y)
        for y in range(m.height)
        for x in range(m.width)
        if int(m.segment_of[y, x]) == st.segment and m.tiles[y, x] == 1
    ]
    farthest = max(sm.at(p) for p in room)
    assert farthest < 12 and steps(game, st.pos, g.pos) == farthest
    assert st.encounter is not None and st.encounter.distance == farthest * FEET


@pytest.mark.clause("003-distance-1")
def test_a_wanderer_may_stand_beyond_the_room_out_of_sight_and_comes_closer_at_its_speed() -> None:
    game = in_a_new_room()
    st = game.state
    g, events = meet_at(game, "orc", 2, (6, 6), origin=Origin.WANDERING)  # 120 ft, anywhere on the level
    assert one(events, evt.Placed).distance == 120 and g.unseen  # type: ignore[arg-type]
    assert not game.visible()[g.pos[1], g.pos[0]]
    # 003: nothing is met until the sides meet: the party explores as if alone.
    assert st.mode == Mode.EXPLORE and st.encounter is None and not of(events, evt.Encounter)  # type: ignore[arg-type]
    for action in (Talk(), Bribe(5), Fight(), Wait(), Run()):
        assert not game.legal(action)
    assert game.legal(Rest())
    # The party takes a step (a round): the orc (90 ft a round) walks toward it and stops as it comes into sight.
    start = approach.steps_between(game, st.pos, g.pos)
    m = st.level.map
    inside = [
        (dx, dy)
        for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0))
        if m.tiles[st.pos[1] + dy, st.pos[0] + dx] == 1 and m.segment_of[st.pos[1] + dy, st.pos[0] + dx] == st.segment
    ]
    ev = act(game, Move(*inside[0]))  # no die: nothing is rolled for it
    walked = one(ev, evt.Approach)
    met = one(ev, evt.Encounter)
    assert st.encounter is not None and met.sighted and met.first
    assert met.distance == walked.distance == st.encounter.distance
    assert not g.unseen and game.visible()[g.pos[1], g.pos[0]] and st.mode == Mode.ENCOUNTER
    assert start - approach.steps_between(game, st.pos, g.pos) <= 9 + 1  # at most its 9 tiles (and the step)
    assert game.legal(Talk()) and game.legal(Fight())


def test_the_party_may_take_the_stairs_with_a_group_out_of_sight_not_past_one_facing_it() -> None:
    game = clear_unique(make_game("undercroft", dice=ScriptedDice()))  # (the Leech-Mother's room is on the way)
    st = game.state
    walk_to(game, st.level.map.stairs)
    g, _ = meet_at(game, "orc", 1, (6, 6), origin=Origin.WANDERING)
    assert g.unseen and game.legal(Descend())
    meet_at(game, "orc", 1, (1, 1))  # 20 ft, in sight, uncertain: it faces the party
    assert game.refusal(Descend()) == Reason(Code.FACING, {"monster": "orc", "talks": True, "runs": True})


def test_the_distance_shown_follows_the_map_after_every_action() -> None:
    game = in_a_new_room()
    st = game.state
    g, _ = meet_at(game, "the_patient_one", 1, (3, 3))  # it holds its ground: the party may walk about
    enc = st.encounter
    assert enc is not None
    for dx, dy in ((0, -1), (0, -1), (1, 0)):
        if not game.legal(Move(dx, dy)) or st.mode != Mode.ENCOUNTER:
            continue
        game.step(Move(dx, dy))
        assert enc.distance == steps(game, st.pos, g.pos) * FEET


@pytest.mark.clause("003-seq-7", "003-actions-2")
def test_to_fight_the_sides_close_and_the_fight_is_side_by_side() -> None:
    game = in_a_new_room()
    st = game.state
    g, _ = meet_at(game, "orc", 3, (2, 3))  # 50 ft
    assert steps(game, st.pos, g.pos) == 5
    ev = act(game, Fight())  # party speed 90: nine tiles in the round, so the sides meet in it (no attack roll)
    assert kinds(ev)[:3] == ["close", "initiative", "combat"] and one(ev, evt.Close).distance == FEET
    assert st.mode == Mode.COMBAT and steps(game, st.pos, g.pos) == 1
    tiles = game.creature_tiles(g)
    assert all(steps(game, st.pos, p) <= 2 for p in tiles) and st.pos not in tiles


def test_a_slow_party_closing_gives_a_hostile_monster_its_chance_to_strike_first() -> None:
    game = in_a_new_room()
    st = game.state
    for m in st.party:
        m.speed = 10  # one tile a round
    meet_at(game, "the_patient_one", 1, (2, 3))  # holds its ground: it never comes on, nor strikes first
    ev = act(game, Fight())  # four rounds of walking, no attack roll: it does not initiate
    assert len(of(ev, evt.Close)) == 4 and not rolls(ev, "monster_attacks") and st.mode == Mode.COMBAT
    game2 = in_a_new_room()
    for m in game2.state.party:
        m.speed = 10
    meet_at(game2, "orc", 1, (2, 3), reaction=(2, 2))  # hostile (reaction 4): it comes on at 9 tiles a round
    ev = act(game2, Fight())
    assert len(of(ev, evt.Close)) == 1 and game2.state.mode == Mode.COMBAT  # it met the party in the first round


@pytest.mark.clause("003-surprise-4")
def test_a_monster_caught_unaware_does_not_come_on_in_the_first_round_of_closing() -> None:
    game = in_a_new_room()
    st = game.state
    for m in st.party:
        m.speed = 10  # one tile a round
    g = game.add_group("orc", 1, pos=st.pos)
    script(game).push(*encounter_faces(distance=(2, 3), surprise=(6, 1), reaction=(2, 2)))  # hostile, surprised
    game.start_encounter(g)
    assert steps(game, st.pos, g.pos) == 5
    ev = act(game, Fight())  # round 1: only the party moves (and the orc, unaware, strikes nothing); round 2 both
    assert kinds(ev) == ["close", "surprised_skip", "close", "initiative", "combat"]
    first, second = of(ev, evt.Close)
    assert first.distance == 40 and second.distance == FEET  # the orc, surprised, did not move in round 1
    assert st.mode == Mode.COMBAT and one(ev, evt.Combat).free_round == ""


def test_a_monster_that_attacks_on_sight_comes_at_the_party() -> None:
    game = in_a_new_room()
    st = game.state
    g, events = meet_at(game, "orc", 1, (2, 3), reaction=(1, 1))  # reaction 2: it attacks at once
    assert kinds(events)[-3:] == ["initiative", "combat", "attack"] or one(events, evt.Combat)  # type: ignore[arg-type]
    assert one(events, evt.Approach)  # type: ignore[arg-type]
    assert st.mode == Mode.COMBAT and steps(game, st.pos, g.pos) == 1


# --- 2, 3. running through any door, blocked ways, and the entry procedure beyond ----------------------------------


@pytest.mark.clause("001-run-1")
def test_running_goes_through_the_chosen_door_and_the_segment_beyond_gets_its_monster_check() -> None:
    game = in_a_new_room("warden", 2)  # no pursuit in warden: the run is over at once
    st = game.state
    g = game.add_group("gaoler", 1, pos=st.pos)
    game.start_encounter(g, meeting=False)
    ways = game.exits()
    assert len(ways) >= 2, "this room needs two doors for the test"
    other = next(i for i, w in enumerate(ways) if not w.came_in and not w.blocked)
    ev = act(game, Run(door=other), NOTHING)
    run = one(ev, evt.Run)
    assert tuple(run.to) == ways[other].landing == st.pos and st.segment == ways[other].segment
    check = one(ev, evt.Roll, purpose="monster_check")
    assert check.segment == ways[other].segment  # the entry procedure of the segment run into
    assert kinds(ev).index("run") < kinds(ev).index("enter") and st.mode == Mode.EXPLORE
    assert g.segment != st.segment and g.hp == (game.monster_of(g).hp,)  # it stays where it was


@pytest.mark.clause("003-evasion-2")
def test_a_door_behind_the_group_is_blocked_and_with_every_way_blocked_there_is_no_running() -> None:
    game = make_game("undercroft", dice=ScriptedDice())
    st = game.state
    m = st.level.map
    walk_into(game, "corridor", visited=False)
    seg = m.segments[st.segment]
    ways = game.exits()
    came = next(w for w in ways if w.came_in)
    ahead = [w for w in ways if not w.came_in]
    assert ahead, "this corridor needs a second door"
    # Stand the group in the corridor one step on from the party, toward the other doors.
    sm = approach.step_map(m, ahead[0].door, within=seg.id)
    nxt = min(
        (
            (st.pos[0] + dx, st.pos[1] + dy)
            for dx, dy in approach.STEPS8
            if sm.at((st.pos[0] + dx, st.pos[1] + dy)) >= 0
            and int(m.segment_of[st.pos[1] + dy, st.pos[0] + dx]) == seg.id
        ),
        key=lambda p: sm.at(p),
    )
    g = game.add_group("orc", 1, pos=nxt)
    game.start_encounter(g, meeting=False)
    ways = game.exits()
    assert all(w.blocked for w in ways if not w.came_in) and not next(w for w in ways if w.came_in).blocked
    i = next(i for i, w in enumerate(ways) if not w.came_in)
    assert why(game.step(Run(door=i))[0]) == Reason(Code.DOOR_BLOCKED, {"monster": "orc"})
    assert game.legal(Run())  # the way back is open
    ev = act(game, Run())  # met without a reaction, it follows for sure; the chase starts 10 ft apart
    assert tuple(one(ev, evt.Run).to) == came.landing and one(ev, evt.Pursuit).distance == FEET


@pytest.mark.clause("001-end-4")
@pytest.mark.parametrize("ruleset", ["warden", "citadel", "undercroft"])
def test_the_patient_one_never_closes_the_party_goes_to_it(ruleset: str) -> None:
    """001: the thing at the end "never closes": choosing Fight walks the party to it, never it to the party (in
    every ruleset: with a rolled distance or without)."""
    game = in_a_new_room(ruleset)
    st = game.state
    m = st.level.map
    seg = m.segments[st.segment]
    far = max(
        ((x, y) for y in range(seg.y1, seg.y2 + 1) for x in range(seg.x1, seg.x2 + 1) if m.tiles[y, x] == FLOOR),
        key=lambda p: (max(abs(p[0] - st.pos[0]), abs(p[1] - st.pos[1])), p),
    )
    assert steps(game, st.pos, far) >= 3, "this room is too small"
    g = game.add_group("the_patient_one", 1, pos=far)
    game.start_encounter(g, meeting=False)
    start = st.pos
    ev = act(game, Fight())
    assert one(ev, evt.Combat) and st.mode == Mode.COMBAT
    assert g.pos == far and st.pos != start and approach.side_by_side(game, g)


@pytest.mark.clause("001-run-1", "003-evasion-2")
@pytest.mark.parametrize(("ruleset", "monster"), [("warden", "gaoler"), ("undercroft", "empty_harness")])
def test_only_a_pursuer_where_003_is_on_blocks_the_route(ruleset: str, monster: str) -> None:
    """001 (warden): "leave through any door, any time": a group between the party and a door does not block it;
    nor, where 003 is on, one that would not pursue. Only a creature on the door or the tile beyond it does."""
    game = make_game(ruleset, dice=ScriptedDice())
    st = game.state
    m = st.level.map
    walk_into(game, "corridor", visited=False)
    seg = m.segments[st.segment]
    ahead = [w for w in game.exits() if not w.came_in]
    assert ahead, "this corridor needs a second door"
    sm = approach.step_map(m, ahead[0].door, within=seg.id)
    nxt = min(
        (
            (st.pos[0] + dx, st.pos[1] + dy)
            for dx, dy in approach.STEPS8
            if sm.at((st.pos[0] + dx, st.pos[1] + dy)) >= 0
            and int(m.segment_of[st.pos[1] + dy, st.pos[0] + dx]) == seg.id
        ),
        key=lambda p: sm.at(p),
    )
    g = game.add_group(monster, 1, pos=nxt)
    game.start_encounter(g, meeting=False)
    assert not ways_out.blocks(game, g)
    ways = game.exits()
    assert not any(w.blocked for w in ways if w.door != nxt and w.landing != nxt)
    i = next(i for i, w in enumerate(ways) if not w.came_in and not w.blocked)
    ev = act(game, Run(door=i), NOTHING)  # it does not follow; the segment beyond gets its monster check
    assert tuple(one(ev, evt.Run).to) == ways[i].landing and one(ev, evt.Leave).pursued is False


@pytest.mark.clause("003-evasion-2")
def test_with_the_group_in_the_only_doorway_there_is_no_running() -> None:
    game = make_game("undercroft", 2, dice=ScriptedDice())  # the start room has one door
    st = game.state
    (door,) = st.level.map.segments[st.segment].doors
    g = game.add_group("orc", 1, pos=door)
    game.start_encounter(g, meeting=False)
    assert [w.blocked for w in game.exits()] == [True]
    assert game.refusal(Run()) == Reason(Code.ALL_BLOCKED, {"monster": "orc"})
    assert game.step(Run())[0].type == "refused"
    g.pos = (st.pos[0] + 1, st.pos[1])  # beside the party, inside the room: the door is open again
    assert game.legal(Run())


# --- 9. the party may pursue a group that goes its way -------------------------------------------------------------


def friendly_wanderer(game: Game) -> Group:
    g, _ = meet_at(game, "kobold", 1, (2, 2), origin=Origin.WANDERING, reaction=(6, 5))  # 11: leaves or parleys
    ev = act(game, Wait())  # the band's attack chance is nil: a wanderer goes its way
    assert one(ev, evt.Leaves).distance > 0 and game.state.fled == g.id
    return g


@pytest.mark.clause("003-evasion-4")
def test_the_party_may_pursue_a_group_that_goes_its_way_and_catch_it() -> None:
    """The kobold goes its way in a room whose doors are behind the party: it is cornered, and caught at once."""
    game = in_a_new_room()
    st = game.state
    g = friendly_wanderer(game)
    assert game.legal(Pursue())
    ev = act(game, Pursue())
    assert one(ev, evt.Pursue) and one(ev, evt.Caught, by="party") and st.mode == Mode.COMBAT
    assert steps(game, st.pos, g.pos) == 1


@pytest.mark.clause("003-evasion-4")
def test_not_pursuing_lets_it_go() -> None:
    game = in_a_new_room()
    st = game.state
    g = friendly_wanderer(game)
    act(game, Rest(), NOTHING)  # anything but a pursuit: it is gone
    assert st.fled == 0 and all(x.id != g.id for x in st.level.groups)
    assert game.refusal(Pursue()) == Reason(Code.NOTHING_TO_PURSUE)


@pytest.mark.parametrize("ruleset", ["citadel", "warden"])
def test_no_pursuit_where_the_rules_have_none(ruleset: str) -> None:
    game = in_a_new_room(ruleset)
    game.state.fled = game.add_group("orc" if ruleset == "citadel" else "gaoler", 1).id
    assert game.refusal(Pursue()) == Reason(Code.NO_PURSUIT)


# --- 11. properties of autoplayed games of every ruleset, from the events alone ----------------------------------

from test_rules_properties import RULESETS, played, where  # noqa: E402  (the same games, played once)


@pytest.mark.clause("003-distance-3")
@pytest.mark.slow
@pytest.mark.usefixtures("autoplayed")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_nothing_happens_with_a_group_out_of_sight_until_the_sides_meet(ruleset: str) -> None:
    """003: "Only when the monster and party actually meet will the party know an encounter has occurred": from the
    moment a group is placed out of sight until its meeting, the only events about it are the rolls that placed it
    and its walk toward the party."""
    unseen_seen = 0
    for p in played(ruleset):
        unseen: set[int] = set()
        for turn, events in enumerate(p.steps):
            for e in events:
                gid = getattr(e, "group", None)
                if isinstance(e, evt.Placed) and e.out_of_sight:
                    unseen.add(e.group)
                    unseen_seen += 1
                elif isinstance(e, evt.Encounter | evt.InSight):
                    unseen.discard(e.group)
                elif gid in unseen:
                    ok = isinstance(e, evt.Approach) or (
                        isinstance(e, evt.Roll) and e.purpose in ("surprise_party", "surprise_monster", "reaction")
                    )
                    assert ok, f"{where(p, turn)}: {e.type} about a group out of sight"
    if ruleset in ("undercroft", "crawler"):
        assert unseen_seen > 5
    else:
        assert unseen_seen == 0  # these rules roll no distance: every group is met where it stands


@pytest.mark.usefixtures("autoplayed")
@pytest.mark.parametrize("ruleset", [r for r in RULESETS if r != "citadel"])
def test_every_run_into_a_segment_gets_its_entry_procedure(ruleset: str) -> None:
    """Running is an entry like walking: once the run is over, the segment run into is entered (its monster
    check, or the group there is met), unless a fight on the threshold ends the game or the party runs on."""
    runs = entered = 0
    checks = content().ruleset(ruleset).procedures.monster_check  # (every shipped ruleset has it)
    for p in played(ruleset):
        pending: int | None = None  # the segment run into, not yet entered
        where_from = ""
        lurking: dict[int, int] = {}  # group -> the segment it lies submerged in (an entry there meets nothing)
        last_enter = -1
        ran = False  # the party has run a round of the chase since its last run
        for turn, events in enumerate(p.steps):
            stood = any(
                isinstance(x, evt.Drink | evt.Quaff | evt.Wield | evt.Wear) for x in events
            )  # (once a step, not an event)
            for i, e in enumerate(events):
                if isinstance(e, evt.Enter):
                    last_enter = e.segment
                if isinstance(e, evt.Hidden):
                    lurking[e.group] = last_enter
                elif isinstance(e, evt.Reveal):
                    lurking.pop(e.group, None)
                if isinstance(e, evt.Run):
                    runs += 1
                    pending, where_from = e.segment, where(p, turn)
                    ran = any(isinstance(x, evt.Chase | evt.Caught | evt.Escape | evt.Distracted) for x in events)
                elif isinstance(e, evt.Chase | evt.Escape) and not stood:
                    ran = True
                elif isinstance(e, evt.Caught) and stood and not ran:
                    # a chase from a fight caught the party while it drank, before it ran a step (a drink is its
                    # round of the chase): it is still where it fought, short of the segment it ran for
                    pending = None
                elif isinstance(e, evt.Distracted):
                    # a chase ended by a drop before the party reached its door leaves it short of the segment it
                    # ran for, in one it has entered already (or enters now, below)
                    pending = None
                elif isinstance(e, evt.Enter) and pending is not None and e.segment != pending:
                    # another segment's entry: one left behind, or one walked into from a meeting before the
                    # segment run into had its own (it is owed it, and gets it as an entry behind)
                    continue
                elif isinstance(e, evt.Enter) and pending is not None:
                    nxt = events[i + 1] if i + 1 < len(events) else None
                    met = nxt is not None and isinstance(nxt, evt.Encounter | evt.Peaceful | evt.Hidden)
                    # (a resident waiting there, a floor's named monster, is met: its distance is rolled first)
                    rolled = (
                        nxt is not None and isinstance(nxt, evt.Roll) and nxt.purpose in ("monster_check", "distance")
                    )
                    passed = e.passed is not None  # a group stands there: run past, or the one that lost the party
                    assert met or rolled or passed or not checks or e.segment in lurking.values(), (
                        f"{where(p, turn)}: {[x.type for x in events]}"
                    )
                    entered += 1
                    pending = None
                elif isinstance(e, evt.Move) and pending is not None and turn and p.where[turn - 1][1] == Mode.EXPLORE:
                    # (in a meeting, as with a group found in a segment left behind, the entry waits for its end)
                    raise AssertionError(f"{where_from}: walked on from segment {pending} without entering it")
        # (a game may end, in death or at the action cap, before the run is over)
    assert runs >= 5 and entered > 3, (runs, entered)  # (the careful bot runs less where a group would wait on its way)


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["undercroft", "crawler", "warden"])  # (the citadel has no running)
def test_the_ways_out_kept_are_the_ways_out_worked_out_afresh(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # ways_out.exits keeps its last answer by what it depends on; each answer it gives, kept or not, must be the one
    # worked out afresh from the state (the bot's games ask at every decision of a meeting or a fight).
    from undercroft.tools.autoplay import play_game

    kept = ways_out.exits
    asked = [0, 0]  # answers given, answers given from the memo

    def checked(ctx: Game, g: Group | None) -> list[ways_out.Exit]:
        before = ctx.exits_memo
        got = kept(ctx, g)
        asked[0] += 1
        asked[1] += ctx.exits_memo is before
        memo, ctx.exits_memo = ctx.exits_memo, None  # (nothing kept: the answer worked out afresh)
        assert got == kept(ctx, g)
        ctx.exits_memo = memo
        return got

    monkeypatch.setattr(ways_out, "exits", checked)
    for seed in range(1, 9):
        play_game(content(), ruleset, seed, max_actions=1500)
    assert asked[0] > 50 and asked[1] > 10  # (many answers, and the memo gave some of them)
