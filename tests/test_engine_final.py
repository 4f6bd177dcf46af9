"""The final level: the things at the end wait in its farthest rooms; the way out is behind the first of them."""

from __future__ import annotations

import pytest
from engine_helpers import (
    NOTHING,
    content,
    encounter_faces,
    go_down,
    kinds,
    make_game,
    of,
    one,
    path_to,
    rolls,
    say,
    script,
    walk_to,
)

from undercroft.rules import dungeon, explore
from undercroft.rules import events as evt
from undercroft.rules.actions import Descend, Fight, Move, Run, Wait
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.game import Game
from undercroft.rules.reaction import WaitOutcome
from undercroft.rules.refusals import Code, Reason
from undercroft.rules.state import Group

STANDOFF = content().rules.encounter.standoff_rounds


def final_level(ruleset: str = "undercroft", seed: int = 1) -> Game:
    game = make_game(ruleset, seed, ScriptedDice())
    while not game.rs.levels[game.state.depth].final:
        go_down(game)
    return game


def guardian(game: Game, index: int) -> Group:
    mid = game.rs.levels[game.state.depth].guardians[index]
    return next(g for g in game.state.level.groups if g.origin == "guardian" and g.monster == mid)


def steps_inside(game: Game, goal: tuple[int, int]) -> list[tuple[int, int]]:
    """Orthogonal steps through the party's segment to ``goal``, around the monsters."""
    return path_to(game, {goal}, {game.state.segment})


def door_step(game: Game, room: int) -> tuple[int, int]:
    """The step (dx, dy) from the party's tile into ``room`` (the party stands in one of its doors)."""
    st = game.state
    m = st.level.map
    return next(
        (dx, dy)
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))
        if int(m.segment_of[st.pos[1] + dy, st.pos[0] + dx]) == room
    )


def enter_the_exit_room(game: Game) -> Group:
    st = game.state
    m = st.level.map
    assert m.stairs is not None
    room = m.segments[int(m.segment_of[m.stairs[1], m.stairs[0]])]
    walk_to(game, room.doors[0])
    script(game).push(*encounter_faces())  # met at 60 ft, nobody surprised, reaction 8: uncertain
    ev = game.step(Move(*door_step(game, room.id)))
    g = guardian(game, 0)
    assert one(ev, evt.Encounter).group == g.id and st.mode == "encounter"
    return g


def test_the_way_out_is_in_the_farthest_room_where_the_first_guardian_waits() -> None:
    for ruleset in ("undercroft", "warden", "citadel", "crawler"):
        game = final_level(ruleset)
        m = game.state.level.map
        assert m.stairs is not None, ruleset
        room = int(m.segment_of[m.stairs[1], m.stairs[0]])
        assert room == m.far_rooms[0]
        first, second = guardian(game, 0), guardian(game, 1)
        assert first.segment == room and first.pos != m.stairs
        assert second.segment == m.far_rooms[1]


def test_walking_past_the_patient_one_and_out_through_the_seal_wins() -> None:
    game = final_level("warden")  # the warden's way out, as its text has it: the Patient One's room
    st = game.state
    m = st.level.map
    room = m.segments[int(m.segment_of[m.stairs[1], m.stairs[0]])]
    walk_to(game, room.doors[0])
    ev = game.step(Move(*door_step(game, room.id)))  # (warden: no encounter rolls)
    g = guardian(game, 0)
    assert one(ev, evt.Encounter).group == g.id and st.mode == "encounter"
    assert g.monster == "the_patient_one"  # it never closes: the party may walk past it
    st = game.state
    m = st.level.map
    assert m.stairs is not None
    for p in steps_inside(game, m.stairs):
        ev = game.step(Move(p[0] - st.pos[0], p[1] - st.pos[1]))
        assert "refused" not in kinds(ev) and "attack" not in kinds(ev)
    ev = game.step(Descend())
    won = one(ev, evt.Won)
    assert won.how == "escaped" and st.mode == "won" and game.over
    assert g in st.level.groups  # it was never fought
    assert won.guardians == [["the_patient_one", "passed"], ["the_unlit", "unmet"]]
    assert say(game, won) == (
        "You got past the Patient One; you never met the Unlit. You climb out through the seal. You have won."
    )


def test_the_undercrofts_finale_is_a_meeting_with_the_lampless_at_the_way_out() -> None:
    """The Lampless waits in the room of the way out; walking in meets it by the ordinary procedure, and
    while it faces the party (an uncertain reaction) the way out is barred."""
    game = final_level()
    g = enter_the_exit_room(game)
    assert g.monster == "the_lampless" and not g.peaceful
    assert game.refusal(Descend()) is not None  # not two steps past it: it must be dealt with first
    assert guardian(game, 1).monster == "the_long_patience" and guardian(game, 1).segment != g.segment


@pytest.mark.clause("003-reaction-9", "003-reaction-12")
def test_a_kind_lampless_keeps_the_way_out_however_long_the_party_waits() -> None:
    """Play test: a peaceful Lampless let the party by after one Wait, and a tester walked out past the last
    floor's guardian without a blow. A final guardian keeps the way out: on a kind reaction (003, 9-12: no attack)
    a Wait brings nothing, and at the standoff's end it stays, told once; walking on and the way out stay barred,
    and the party may still fight it or run."""
    game = final_level()
    st = game.state
    m = st.level.map
    assert m.stairs is not None
    room = m.segments[int(m.segment_of[m.stairs[1], m.stairs[0]])]
    walk_to(game, room.doors[0])
    script(game).push(*encounter_faces(reaction=(5, 6)))  # reaction 11: no attack
    game.step(Move(*door_step(game, room.id)))
    g = guardian(game, 0)
    assert g.monster == "the_lampless" and g.reaction_result == "peaceful" and st.mode == "encounter"
    door = st.pos
    st.pos = m.stairs  # (on the stairs, in its room: only the guardian stands between the party and the way out)
    barred = Reason(Code.FACING, {"monster": "the_lampless", "talks": False, "runs": True})
    told = []
    for left in range(STANDOFF, 0, -1):
        assert game.wait_outcome(g) == WaitOutcome(0.0, "stays", left, 0.0, "stays", False)
        events = game.step(Wait())
        assert not of(events, evt.Peaceful) and not of(events, evt.Leaves) and not of(events, evt.Attacks)
        assert st.mode == "encounter" and not g.peaceful
        assert game.refusal(Descend()) == barred and explore.check_walk(game) == barred
        told += [say(game, e) for e in events if isinstance(e, evt.Standoff | evt.Guards)]
    assert told == [
        f"{STANDOFF} rounds of this, and the Lampless makes up its mind.",
        "The Lampless will not leave the way out.",
    ]
    events = game.step(Wait())  # told once: it has made up its mind
    assert (
        not of(events, evt.Standoff)
        and not of(events, evt.Guards)
        and game.wait_outcome(g) == WaitOutcome(0.0, "stays", 0, 0.0, "stays", False)
    )
    assert game.legal(Fight()) and game.legal(Run())
    st.pos = door
    script(game).push(NOTHING)  # (the monster check of where it runs to)
    assert not of(game.step(Run()), evt.Refused) and st.mode == "explore" and st.segment != g.segment


@pytest.mark.clause("003-reaction-6")
def test_an_uncertain_final_guardian_attacks_or_stays_at_the_standoffs_end() -> None:
    for d100, attacks in ((50, True), (51, False)):
        game = final_level()
        g = enter_the_exit_room(game)  # reaction 8: uncertain
        for _ in range(STANDOFF - 1):
            game.step(Wait())
        assert game.wait_outcome(g) == WaitOutcome(0.5, "stays", 1, 0.5, "stays", False)
        script(game).push(d100, *([1] if attacks else []))
        events = game.step(Wait())
        assert one(rolls(events, "standoff_attacks"), evt.Roll).result == ("yes" if attacks else "no")
        if attacks:
            assert one(events, evt.Combat).first == "monsters" and game.state.mode == "combat"
        else:
            assert one(events, evt.Guards).group == g.id and game.state.mode == "encounter"
            assert game.refusal(Descend()) is not None and not g.peaceful
        assert script(game).remaining == 0


def test_a_guardian_that_faces_the_party_bars_the_way_out() -> None:
    game = final_level("citadel")  # The Nameless One guards the citadel's way out (no encounter rolls there)
    st = game.state
    m = st.level.map
    assert m.stairs is not None
    first = guardian(game, 0)
    assert first.monster == "the_nameless_one"
    room = m.segments[first.segment]
    walk_to(game, room.doors[0])
    game.step(Move(*door_step(game, room.id)))
    assert st.mode == "encounter"
    before = game.checksum()
    ev = game.step(
        Move(
            *next(
                (dx, dy)
                for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0))
                if int(m.segment_of[st.pos[1] + dy, st.pos[0] + dx]) == room.id
                and (st.pos[0] + dx, st.pos[1] + dy) != first.pos
            )
        )
    )
    assert kinds(ev) == ["refused"] and "facing you" in say(game, ev[0]) and game.checksum() == before


def test_the_stairs_of_a_level_that_is_not_final_lead_down() -> None:
    game = make_game("undercroft", 1, ScriptedDice())
    ev = go_down(game)
    assert one(ev, evt.Descend).depth == 1 and game.state.mode == "explore"
    assert (
        game.state.levels[0].map.tiles[game.state.levels[0].map.stairs[1], game.state.levels[0].map.stairs[0]]
        == dungeon.STAIRS
    )
