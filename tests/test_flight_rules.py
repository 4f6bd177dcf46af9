"""Evasion by speed only before the fight (003); nothing follows a running delver in warden (001).

Every roll is forced; each step asserts that the engine used exactly the faces scripted for it.
"""

from __future__ import annotations

import pytest
from engine_helpers import (
    NOTHING,
    act,
    encounter_faces,
    kinds,
    make_game,
    meet,
    of,
    one,
    rolls,
    say,
    script,
    walk_out_past,
    why,
)

from undercroft.rules import approach
from undercroft.rules import events as evt
from undercroft.rules.actions import Fight, Run
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.game import Game
from undercroft.rules.refusals import Code, Reason
from undercroft.rules.state import Encounter, Group
from undercroft.rules.types import Behaviour, Mode

HOSTILE = (2, 2)  # reaction 4: hostile, 75% pursuit
ATTACKS = (1, 1)  # reaction 2: attacks at once, 100%
FORTY_FEET = (2, 2)  # distance 2d6 x 10 = 40 ft


def crawl_meet(
    monster: str,
    reaction: tuple[int, int] = HOSTILE,
    distance: tuple[int, int] = (3, 3),
    *,
    ruleset: str = "undercroft",
    speed: int | None = None,
) -> tuple[Game, Group]:
    """Meet ``monster`` in a new room, nobody surprised; ``speed``: the delver's."""
    game = make_game(ruleset, dice=ScriptedDice())
    g, _ = meet(game, monster, faces=encounter_faces(distance=distance, reaction=reaction))
    assert script(game).remaining == 0
    if speed is not None:
        game.state.party[0].speed = speed
    return game, g


def fight(game: Game) -> None:
    """Begin the fight (the ghoul, agility 3: the delver acts first, no die)."""
    act(game, Fight())
    assert game.state.mode == "combat" and game.state.combat is not None and game.state.combat.party_turn


@pytest.mark.clause("003-evasion-3")
def test_a_faster_party_evades_automatically_only_before_the_fight() -> None:
    # Before any fight: 100 ft a round against the ghoul's 90, it is gone, no die.
    game, _ = crawl_meet("ghoul", speed=100)
    assert game.state.mode == "encounter"
    ev = act(game, Run(), NOTHING)  # (the d6: the monster check of the segment run into, once it is gone)
    assert one(ev, evt.Evade).reason == "faster" and not rolls(ev, "pursuit") and not of(ev, evt.Pursuit)
    assert game.state.mode == "explore"
    # The same party, the same ghoul, but the fight has begun: no automatic evasion; the pursuit roll decides.
    game, _ = crawl_meet("ghoul", speed=100)
    fight(game)
    ev = act(game, Run(), 75)
    r = one(ev, evt.Roll, purpose="pursuit")
    assert (r.total, r.target, r.result) == (75, 75, "yes") and not of(ev, evt.Evade)
    assert one(ev, evt.Pursuit).distance == 10  # the sides were in melee: a step apart
    assert say(game, one(ev, evt.Pursuit)) == "The Ghoul comes after you, right at your heels!"
    assert not of(ev, evt.Chase) and game.state.mode == "pursuit"  # the chase starts where the fight is
    ev = act(game, Run())
    assert one(ev, evt.Chase).distance == 10 + 3 * (100 - 90)  # a step apart, it falls 3 tiles behind a round
    assert game.state.mode == "pursuit"


def test_a_faster_party_running_from_a_fight_gets_away_when_the_monster_does_not_follow() -> None:
    game, _g = crawl_meet("ghoul", speed=100)
    fight(game)
    ev = act(game, Run(), 76, NOTHING)  # it stays: the run is over, the segment run into gets its check
    assert one(ev, evt.Roll, purpose="pursuit").result == "no"
    assert one(ev, evt.Evade).reason == "no_pursuit" and game.state.mode == "explore"


@pytest.mark.clause("003-evasion-3")
def test_a_pursuit_starts_at_the_encounters_distance_but_from_a_fight_a_step_apart() -> None:
    # From the encounter, 40 ft away and as fast as the party: the chase starts and holds at 40 ft.
    game, _ = crawl_meet("ghoul", distance=FORTY_FEET, speed=90)
    ev = act(game, Run(), 75)
    assert one(ev, evt.Pursuit).distance == 40 and one(ev, evt.Chase).distance == 40
    assert game.state.mode == "pursuit"
    # From the fight, met at the same 40 ft: it starts at the party's heels and catches it at once.
    game, _ = crawl_meet("ghoul", distance=FORTY_FEET, speed=90)
    fight(game)
    st = game.state
    fought_at, segment = st.pos, st.segment
    ev = act(game, Run(), 75)
    assert one(ev, evt.Pursuit).distance == 10 and not of(ev, evt.Chase) and st.mode == "pursuit"
    assert (st.pos, st.segment) == (fought_at, segment)  # the chase starts where the fight is
    ev = act(game, Run())  # the chase's first round: it catches the party at once, on its way out
    assert one(ev, evt.Caught).fights is True and st.mode == "combat"
    assert st.pos != fought_at  # the party ran its round on the map before it was caught


@pytest.mark.clause("003-evasion-5")
def test_the_chance_of_pursuit_is_rolled_once_not_on_every_run() -> None:
    """003: the monster responds on its reaction result, once. Caught and running again from the same group asks
    no second pursuit roll (undercroft seed 62022 rolled it at turns 253 and 255)."""
    game, g = crawl_meet("ghoul", distance=FORTY_FEET, speed=90)
    fight(game)
    ev = act(game, Run(), 75)  # the one pursuit roll: 75 <= 75, it comes
    assert one(ev, evt.Roll, purpose="pursuit").total == 75 and g.pursues
    ev = act(game, Run())
    assert one(ev, evt.Caught).fights is True and game.state.mode == "combat"
    ev = act(game, Run())  # running from the same group again: no die, it still comes
    assert not of(ev, evt.Roll) and one(ev, evt.Pursuit).distance == 10 and game.state.mode == "pursuit"


def test_a_monster_that_attacked_at_once_pursues_a_faster_party_from_the_fight() -> None:
    game, _ = crawl_meet("ghoul", ATTACKS, speed=120)  # it attacks at once: 100%, no die
    assert game.state.mode == "combat"
    ev = act(game, Run())  # no pursuit die: from the fight it comes, at the party's heels, where the fight is
    assert one(ev, evt.Roll, purpose="pursuit").result == "yes" and one(ev, evt.Pursuit).distance == 10
    assert not of(ev, evt.Evade) and not of(ev, evt.Escape) and game.state.mode == "pursuit"
    assert approach.sight_feet(game) < 90  # the map's field of view on this level, at its scale
    # (the d6s: the checks of the three segments it ran through or into, once the ghoul has lost it)
    ev = act(game, Run(), NOTHING, NOTHING, NOTHING)
    assert one(ev, evt.Escape).reason == "out_of_sight"  # 100 ft ahead after the chase's first round
    assert one(ev, evt.Escape).distance == 100 == approach.distance(game, game.state.group(1))


def drowner_fight(ruleset: str, seed: int = 1) -> Game:
    """Meet the Cistern Drowner (under the water) and walk out past it: it rises and misses (a 1); with surprise
    (undercroft) that was its free round, and it misses again (quicker than the delver) in round 2."""
    game = make_game(ruleset, seed, dice=ScriptedDice())
    g, _ = meet(game, "cistern_drowner")  # no die: it is hidden
    mon = game.monster_of(g)
    assert Behaviour.SUBMERGED in mon.behaviours and mon.pursues
    st = game.state
    walk_out_past(game, *((1, 1) if game.proc.surprise else (1,)))
    assert st.mode == "combat" and st.combat is not None and st.combat.party_turn
    return game


@pytest.mark.clause("000-proc-1", "001-run-5")
def test_in_warden_the_drowner_does_not_follow_a_delver_who_runs_from_its_fight() -> None:
    game = drowner_fight("warden", 2)
    st = game.state
    g = st.group(st.combat.group if st.combat is not None else 0)
    assert not game.proc.pursuit
    # No die for the run: nothing follows (001). Then the entries: the corridor where the fight broke out on the
    # threshold (stood in, never entered: its check is owed), then the room run into.
    ev = act(game, Run(), NOTHING, NOTHING)
    assert kinds(ev) == ["run", "leave", "enter", "roll", "enter", "roll"] and one(ev, evt.Leave).pursued is False
    behind, landing = of(ev, evt.Enter)
    assert behind.behind is True and landing.behind is None and behind.segment != landing.segment
    assert not rolls(ev, "pursuit") and [r.purpose for r in of(ev, evt.Roll)] == ["monster_check"] * 2
    assert st.mode == "explore" and st.pursuit is None and g in st.level.groups


@pytest.mark.clause("001-run-1")
def test_a_run_never_lands_in_the_segment_of_the_monster_it_leaves() -> None:
    """001's free exit is away from the monster: in the warden the risen drowner stands in its own room, behind the
    delver on the threshold; the doors into that room are blocked for the run (a run there ended in a new fight
    inside the Run: 11 of 646 runs, 2 deaths), the others free, and Run's own choice takes a free one."""
    game = drowner_fight("warden", 2)
    st = game.state
    g = st.group(st.combat.group if st.combat is not None else 0)
    ways = game.exits()
    into = [i for i, w in enumerate(ways) if w.segment == g.segment]
    assert into and all(ways[i].blocked for i in into)
    assert all(not w.blocked for w in ways if w.segment != g.segment)
    assert why(game.step(Run(door=into[0]))[0]) == Reason(Code.DOOR_BLOCKED, {"monster": "cistern_drowner"})
    ev = act(game, Run(), NOTHING, NOTHING)
    assert st.segment != g.segment and st.mode == "explore" and not of(ev, evt.Combat)


@pytest.mark.clause("001-run-1")
def test_where_every_way_out_leads_into_its_segment_there_is_no_running() -> None:
    """A room whose one door opens into the monster's own corridor: no way out but past it, so no running (every
    way is blocked); the party fights it, or in the warden waits, where nothing can be said."""
    game = make_game("warden", 2, dice=ScriptedDice())
    st = game.state
    m = st.level.map
    dead_end = next(s for s in m.segments if s.kind == "room" and len(s.doors) == 1 and len(s.neighbours) == 1)
    corridor = dead_end.neighbours[0]
    ys, xs = (m.segment_of == corridor).nonzero()
    centre = ((dead_end.x1 + dead_end.x2) // 2, (dead_end.y1 + dead_end.y2) // 2)
    far = max(zip(xs.tolist(), ys.tolist(), strict=True), key=lambda p: abs(p[0] - centre[0]) + abs(p[1] - centre[1]))
    st.pos = st.prev_pos = st.segment_entry = centre
    st.segment = dead_end.id
    ghoul = game.add_group("ghoul", pos=far)
    ghoul.segment = corridor
    st.mode, st.encounter = Mode.ENCOUNTER, Encounter(ghoul.id, entry=st.pos)
    ways = game.exits()
    assert len(ways) == 1 and ways[0].segment == corridor and ways[0].blocked
    assert game.refusal(Run()) == Reason(Code.ALL_BLOCKED, {"monster": "ghoul"})


def test_in_undercroft_the_drowner_still_pursues_from_its_fight() -> None:
    game = drowner_fight("undercroft")
    assert game.proc.pursuit
    ev = act(game, Run())  # certain pursuit (no die), from 0 ft, where the fight is
    r = one(ev, evt.Roll, purpose="pursuit")
    assert (r.target, r.result) == (100, "yes") and one(ev, evt.Pursuit).distance == 10
    ev = act(game, Run(), 1)  # 120 against 90: caught in the chase's first round; it strikes first
    assert one(ev, evt.Caught).fights is True and game.state.mode == "combat"


def test_a_group_that_does_not_follow_is_told_as_the_group_it_is() -> None:
    """Three Bandits met and run from: "The Bandits do not follow."; the last one standing of them: "The Bandit"."""
    for hp, line in (([6, 6, 6], "The Bandits do not follow."), ([0, 0, 4], "The Bandit does not follow.")):
        game = make_game("undercroft", dice=ScriptedDice())
        g, met = meet(game, "bandit", 3, faces=encounter_faces(distance=(3, 3), reaction=HOSTILE))
        assert say(game, one(met, evt.Encounter)) == "3 x Bandit!"
        game.state.party[0].speed = game.content.monsters["bandit"].speed  # not faster: its pursuit roll decides
        g.hp = hp
        ev = act(game, Run(), 76, NOTHING)  # 76 against its 75%: it stays; the segment run into finds nothing
        assert say(game, one(ev, evt.Evade)) == line
