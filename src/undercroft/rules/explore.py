"""Exploring: moving, segments, items, rest and the stairs.

* A step is one tile in one of eight directions; walls stop it (:func:`move`). Walking into a segment runs its
  entry procedure (:func:`enter_segment`): a group already there is met (:mod:`~undercroft.rules.encounter`),
  else the monster check (:mod:`~undercroft.rules.monster_check`, 000). Walking out of one lets what lies in wait
  react (:func:`leave_segment`: a passive monster objects once, 001; a submerged one rises behind the party).
* While a monster faces the party it may walk on only if the monster lets it (peaceful, kneeling, passive,
  holding its ground) or was caught unaware (its surprised first round); each step is a round of the meeting.
* What lies on a tile is picked up; a plainly better weapon is wielded at once (:func:`pickup`,
  :mod:`~undercroft.rules.items`); treasure is the floor's haul.
* Resting (:func:`rest`) is a turn of the clock (:mod:`~undercroft.rules.chase.fatigue`) and a wandering-monster check.
* The stairs (:func:`descend`) lead down; on the final level they are the way out, and going out wins. Ours: the
  floor's haul is renown (:mod:`~undercroft.rules.growth`), hirelings stay behind, and where the ruleset has the
  shop a merchant waits at the foot of the stairs (:mod:`~undercroft.rules.shop`).
* A submerged monster rises only once the party is past it (leaves by another way than it came); the segment
  stepped into then gets its entry procedure when the fight is over (:func:`settle`), as a segment the party ran
  into gets it when the run is over.
"""

from __future__ import annotations

from fractions import Fraction

from undercroft.rules import (
    agreements,
    approach,
    combat,
    dungeon,
    encounter,
    formulas,
    growth,
    items,
    monster_check,
    reaction,
    shop,
    unseen,
)
from undercroft.rules import events as ev
from undercroft.rules.chase import fatigue
from undercroft.rules.context import Ctx, init_behaviour
from undercroft.rules.events import Event
from undercroft.rules.levels import guardian_fates, make_level
from undercroft.rules.refusals import Code, Reason, Refused
from undercroft.rules.state import Encounter, Group
from undercroft.rules.types import Behaviour, FreeRound, Mode, Origin, Side


def move(ctx: Ctx, dx: int, dy: int, events: list[Event]) -> None:
    st = ctx.state
    m = st.level.map
    if not (-1 <= dx <= 1 and -1 <= dy <= 1) or (dx == 0 and dy == 0):
        raise Refused(Reason(Code.BAD_STEP))
    x, y = st.pos[0] + dx, st.pos[1] + dy
    if not (0 <= x < m.width and 0 <= y < m.height) or m.tile_rows[y][x] == dungeon.WALL:
        raise Refused(Reason(Code.WALL))
    blocker = ctx.group_at((x, y))
    if blocker is not None and blocker.peaceful and holds_its_tile(ctx, blocker):
        raise Refused(Reason(Code.IN_THE_WAY, {"monster": blocker.monster}))  # 001: it never leaves the room
    if blocker is not None and not blocker.peaceful:
        if st.mode == Mode.EXPLORE:
            # Walking into a monster the party had left alone confronts it again.
            encounter.begin(ctx, blocker, events)
            return
        raise Refused(Reason(Code.IN_THE_WAY, {"monster": blocker.monster}))
    new_seg = m.segment_rows[y][x]
    meeting = st.mode == Mode.ENCOUNTER  # (looked up once: see settle)
    if meeting:
        why = check_walk(ctx)
        if why is not None:
            raise Refused(why)
    st.prev_pos = st.pos
    st.pos = (x, y)
    if blocker is not None:  # a peaceful monster steps aside: it takes the party's place
        blocker.pos = st.prev_pos
        events.append(ev.Pass(group=blocker.id, monster=blocker.monster, count=blocker.count_told))
    events.append(ev.Move(from_=list(st.prev_pos), to=[x, y], segment=new_seg))
    ctx.see()
    if meeting and new_seg == st.segment:
        assert st.encounter is not None
        g = st.group(st.encounter.group)
        if not g.risen:
            # kneelers rise once the party is inside the room
            ctx.tick(ctx.rules.time.move_rounds)
            g.risen = True
            events.append(ev.Rises(group=g.id, monster=g.monster, count=g.count_told))
            combat.start(ctx, g, events)
            return
        encounter.round_passes(ctx, events)  # a step in front of the monster: a round of the meeting
    else:
        ctx.tick(ctx.rules.time.move_rounds)
        if meeting:  # out of the segment: the monster let the party go
            st.mode, st.encounter = Mode.EXPLORE, None
    pickup(ctx, events)
    if new_seg != st.segment and new_seg >= 0:
        approach.owe_entry(ctx)  # (walked out of a segment still waiting for its entry, as from a meeting)
        leave_segment(ctx, st.segment, events)
        if st.mode in (Mode.DEAD, Mode.COMBAT):
            approach.enter_later(ctx, new_seg, st.prev_pos)  # its entry procedure waits until the fight is over
            return
        enter_segment(ctx, new_seg, events)


def pickup(ctx: Ctx, events: list[Event]) -> None:
    """Take up whatever lies where the party stands."""
    st = ctx.state
    pile = st.level.items.pop(st.pos, None)
    if not pile:
        return
    st.level.touch()
    for item, amount in pile:
        it = ctx.content.items[item]
        if it.kind == "gold":
            st.gold += amount
        else:
            st.items[item] = st.items.get(item, 0) + amount
        if it.kind == "treasure":
            st.haul += it.value * amount
        events.append(ev.Pickup(item=item, amount=amount))
        items.take_up(ctx, item, events)


def leave_segment(ctx: Ctx, old: int, events: list[Event]) -> None:
    """Walking out of a segment: what lies in wait there reacts (passive strikes, the submerged rise)."""
    st = ctx.state
    for g in ctx.groups_in(old):
        mon = ctx.monster_of(g)
        if g.hidden:
            if st.pos == st.segment_entry:
                continue  # stepped straight back out the way it came: not past the water, nothing rises
            g.hidden = False
            g.pos = st.prev_pos  # it rises from the water behind the party, in its own segment
            g.segment = int(st.level.map.segment_of[g.pos[1], g.pos[0]])
            g.met = True
            events.append(ev.Reveal(group=g.id, monster=g.monster, count=g.count_told))
            # It rose behind the party (on the tile it just left): the way out is onward, not back past it. It
            # strikes first; where the rules have surprise (003) the party is surprised and loses round 1 (a
            # quicker monster then strikes again, by AGILITY, before the party acts); where they do not (001's
            # fight as written) it strikes once, then the sides alternate.
            st.encounter = Encounter(g.id, entry=st.pos)
            free = FreeRound.MONSTERS if ctx.proc.surprise else FreeRound.NONE
            combat.start(ctx, g, events, Side.MONSTERS, free)
            return
        if Behaviour.PASSIVE in mon.behaviours and not g.peaceful and st.pos != st.segment_entry:
            # It "only objects to being walked past" (001): one strike, from the first of them. It is
            # dangerous in numbers only if the party stands in it and fights.
            events.append(ev.WalkedPast(group=g.id, monster=g.monster, count=g.count_told))
            combat.monster_attack(ctx, g, g.alive[0], events)
            if not ctx.living():
                combat.die(ctx, mon.name, events)
                return


def enter_segment(ctx: Ctx, seg: int, events: list[Event], entry: tuple[int, int] | None = None) -> None:
    """The entry procedure of a segment: meet who is there, else the monster check. ``entry``: the tile the party
    came in from (default: the one it just left)."""
    st = ctx.state
    lv = st.level
    s = lv.map.segments[seg]
    visited = bool(lv.visited[seg])
    st.segment = seg
    st.segment_entry = st.prev_pos if entry is None else entry
    st.entered = True
    # (not the group that has just lost the party in a chase: it stays where it stopped, ``passed``, and the
    # segment it stands in gets no monster check either)
    present = [g for g in ctx.groups_in(seg) if not g.hidden and g.id != st.lost]
    lost = any(g.id == st.lost for g in ctx.groups_in(seg))
    events.append(ev.Enter(segment=seg, kind=s.kind, visited=visited, passed=st.lost if lost else None))
    lv.visit(seg)
    if present:
        # the nearest group is the one met (the others stand behind it); the first listed between equals
        g = (
            present[0]
            if len(present) == 1
            else min(present, key=lambda grp: (approach.steps_between(ctx, st.pos, grp.pos), present.index(grp)))
        )
        mon = ctx.monster_of(g)
        if g.peaceful:
            events.append(ev.Peaceful(group=g.id, monster=g.monster, count=g.count_told, already=True))
            return
        init_behaviour(g, mon)
        encounter.begin(ctx, g, events)
        return
    if lost:
        return
    under = next((g for g in ctx.groups_in(seg) if g.hidden), None)
    if under is not None:  # a monster lies under the water here: the segment holds one, nothing else is looked for
        events.append(ev.Hidden(group=under.id))  # (told as on the first entry: the water is still)
        return
    if ctx.proc.monster_check:
        monster_check.check(ctx, seg, s.kind, visited, events)


def enter_behind(ctx: Ctx, seg: int, events: list[Event]) -> None:
    """The entry procedure of a segment the party stood in or ran through during a fight or a chase and has left
    (``GameState.owed``): event ``enter`` with ``behind``; a group that stands there is left where it is (the party
    ran past it: ``passed``, its id), else the monster check, whose group stands in that segment and is met as any
    group come upon (:func:`encounter.begin`: in sight, now; out of sight, when it comes into sight)."""
    st = ctx.state
    lv = st.level
    s = lv.map.segments[seg]
    visited = bool(lv.visited[seg])
    there = [g for g in ctx.groups_in(seg) if not g.hidden] or [g for g in lv.groups if g.segment == seg and g.hidden]
    passed = there[0].id if there else None
    events.append(ev.Enter(segment=seg, kind=s.kind, visited=visited, behind=True, passed=passed))
    lv.visit(seg)
    if not there and ctx.proc.monster_check:
        monster_check.check(ctx, seg, s.kind, visited, events)


def settle(ctx: Ctx, events: list[Event]) -> None:
    """After every action. A party exploring in a segment whose entry procedure it has not had (it ran into it, or a
    fight broke out on the threshold, as when a submerged monster rises behind it) looks round and gets it now, as any
    entry does; one that stands where it has not looked round from (a chase over in a segment already entered)
    looks round. In an encounter, the distance follows the map (:func:`encounter.follow`); the groups come upon out
    of sight come closer, and are met once seen (:func:`unseen.watch`)."""
    st = ctx.state
    explore = Mode.EXPLORE  # (looked up once: Python 3.11 finds an enum's member through a slow metaclass hook)
    while st.owed and st.mode == explore:
        enter_behind(ctx, st.owed.pop(0), events)
    if st.mode == explore:
        if not st.entered:
            ctx.see()
            if st.segment >= 0:
                enter_segment(ctx, st.segment, events, st.segment_entry)
            else:
                st.entered = True
        elif (st.pos, ctx.fov_radius()) not in st.level.looked:
            ctx.see()  # a chase over (nothing is mapped on the way, 003): the party looks round where it stopped
    if st.mode == explore:
        st.lost = 0
    encounter.follow(ctx)
    unseen.watch(ctx, events)


def check_walk(ctx: Ctx) -> Reason | None:
    """Why the party cannot walk on (or down) in front of the group it has met, or None: the monster lets it
    (:func:`reaction.lets_party_move`), or is caught unaware in the first round (003: "those not surprised may
    move and attack the first round")."""
    st = ctx.state
    enc = st.encounter
    if enc is None or st.mode != Mode.ENCOUNTER:
        return None
    g = st.group(enc.group)
    if reaction.lets_party_move(g, ctx.monster_of(g)) or reaction.unaware(enc):
        return None
    talks = ctx.proc.negotiation and ctx.negotiable(g)  # (what the player may do instead, as the panel lists it)
    return Reason(Code.FACING, {"monster": g.monster, "talks": talks, "runs": ctx.proc.running})


def holds_its_tile(ctx: Ctx, g: Group) -> bool:
    """A guardian that holds its ground (001's Patient One) never steps aside, even at peace; any other peaceful
    group does (a peddler in a corridor must not close the only way on)."""
    return g.origin == Origin.GUARDIAN and Behaviour.HOLDS_GROUND in ctx.monster_of(g).behaviours


def check_descend(ctx: Ctx) -> Reason | None:
    """Why the party cannot take the stairs now, or None."""
    if ctx.state.level.map.stairs != ctx.state.pos:
        return Reason(Code.NO_STAIRS)
    return check_walk(ctx)


def descend(ctx: Ctx, events: list[Event]) -> None:
    st = ctx.state
    if st.mode == Mode.ENCOUNTER:
        st.mode, st.encounter = Mode.EXPLORE, None  # it lets the party go
    if ctx.rs.levels[st.depth].final:
        ctx.tick(ctx.rules.time.move_rounds)
        st.mode = Mode.WON
        fates = guardian_fates(ctx.content, ctx.ruleset_id, st.level)
        events.append(ev.Won(turn=st.turn + 1, depth=st.depth, seed=st.seed, how="escaped", guardians=fates))
        return
    agreements.part(ctx, events)
    growth.descend(ctx, events)
    st.owed.clear()  # (segments run through above and never entered: the party has left their floor)
    st.depth += 1
    if st.depth not in st.levels:
        st.levels[st.depth] = make_level(ctx.content, ctx.ruleset_id, ctx.streams, st.depth)
    lv = st.level
    st.pos = st.prev_pos = lv.map.start
    st.segment = int(lv.map.segment_of[st.pos[1], st.pos[0]])
    st.segment_entry = st.pos
    st.entered = False  # 000: arriving down the stairs is entering a segment: its entry follows (settle)
    spec = ctx.rs.levels[st.depth]
    ctx.tick(ctx.rules.time.move_rounds)
    ctx.see()
    events.append(ev.Descend(depth=st.depth, name=spec.name))
    if ctx.rs.shop:
        shop.open_shop(ctx, events)


def rest_wanderer_chance(ctx: Ctx) -> Fraction:
    """The chance that a turn of rest where the party stands calls a wandering monster: the monster check that
    :func:`rest` rolls (faces 1..``wandering_max`` of a ``die``, :func:`formulas.monster_check`), where it rolls
    one (the ruleset checks, and nobody is present); 0 elsewhere. For the screens, before a rest begins."""
    st = ctx.state
    if not ctx.proc.monster_check or ctx.groups_in(st.segment):
        return Fraction(0)
    chk = ctx.content.check_rules(ctx.rs)
    hits = sum(1 for face in range(1, chk.die + 1) if formulas.monster_check(face, chk.wandering_max))
    return Fraction(hits, chk.die)


def rest_deeper_share(ctx: Ctx) -> Fraction:
    """Of the wanderers a turn of rest here calls (:func:`rest_wanderer_chance`), the share that comes from deeper
    down (:func:`monster_check.deeper_chance` for a wanderer found resting; 0 where none may come). For the
    screens, before a rest begins."""
    if not rest_wanderer_chance(ctx):
        return Fraction(0)
    return monster_check.deeper_chance(ctx.rs.levels[ctx.state.depth], resting=True)


def turns_to_rest(ctx: Ctx) -> int | None:
    """The turns of rest (:func:`rest`) until every living character's hit points are full and exhaustion is
    gone, if nothing comes; None when rest heals nobody who is hurt (no healing in this ruleset)."""
    st = ctx.state
    t = ctx.rules.time
    turns = 0
    if st.exhausted:
        need = ctx.rules.fatigue.rest_turns * t.rounds_per_turn - st.rest_rounds
        turns = max(1, -(-need // t.rest_rounds))
    at = ctx.rules.growth.rest_heal_at if ctx.rs.growth else ()
    for m in ctx.living():
        if m.hp >= m.max_hp:
            continue
        heal = formulas.rest_heal(t.rest_heal, m.level, at)
        if heal <= 0:
            return None
        turns = max(turns, -(-(m.max_hp - m.hp) // heal))
    return turns


def rest(ctx: Ctx, events: list[Event]) -> None:
    """A turn of rest (:func:`fatigue.rest`), then the wandering-monster check where nobody is present."""
    st = ctx.state
    fatigue.rest(ctx, events)
    if ctx.proc.monster_check:
        s = st.level.map.segments[st.segment]
        if not ctx.groups_in(st.segment):
            monster_check.check(ctx, st.segment, s.kind, True, events, resting=True)
