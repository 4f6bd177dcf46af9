"""The fight (001), with the fatigue of 003.

* Order: the higher AGILITY acts first, the party wins ties, a monster that holds its ground never opens
  (:func:`formulas.party_acts_first`); a surprised side loses the first round (:func:`formulas.free_round`), and
  round 2 goes in the order of AGILITY again (a quicker side may act twice in a row across the seam).
* The party's turn (:func:`attack`): every living character rolls d20 + MIGHT against the target's defense
  (:func:`formulas.attack`): a natural 1 misses, a natural 20 hits for double damage (:func:`formulas.damage`).
  Burning oil (:func:`oil`) and holding back (:func:`wait`) also take the party's turn.
* The monsters' turn: each living creature strikes (slow ones every n-th turn, :func:`formulas.monster_acts`) at
  the character the data's targeting picks; a kneeler left alone kneels again; one holding its ground answers
  only a blow. Regeneration at the end of the round.
* The fight is to the death: a group with no creature standing is defeated (:func:`victory`: its treasure and the
  bribes it took are shared); a party with no one standing is dead (:func:`die`).
"""

from __future__ import annotations

from undercroft.rules import approach, formulas, growth, levels
from undercroft.rules import events as ev
from undercroft.rules.context import Ctx
from undercroft.rules.dice import Dice, roll
from undercroft.rules.events import Event
from undercroft.rules.refusals import Code, Reason, Refused
from undercroft.rules.rng import COMBAT
from undercroft.rules.state import Combat, Encounter, Group
from undercroft.rules.types import Behaviour, FreeRound, Mode, Origin, Side


def start(
    ctx: Ctx, g: Group, events: list[Event], first: Side | None = None, free_round: FreeRound = FreeRound.NONE
) -> None:
    """The fight with ``g`` begins: who acts first, a free round for the side that was not surprised."""
    st = ctx.state
    enc = st.encounter
    g.peaceful = False
    g.risen = True
    g.turns = 0
    if enc is not None and not free_round:
        free_round = formulas.free_round(enc.first_round, enc.party_surprised, enc.monster_surprised)
    if enc is not None:
        enc.first_round = False
    if free_round:
        first = Side(free_round.value)
    elif first is None:
        first = _initiative(ctx, g, events)
    if Behaviour.HOLDS_GROUND in ctx.monster_of(g).behaviours:
        approach.party_advance(ctx, g, approach.REACH)  # 001: it never closes: the party goes to it
    else:
        approach.beside(ctx, g)  # the sides stand together (a fight with no distance rolled closes at once)
    st.mode = Mode.COMBAT
    st.pursuit = None
    c = st.combat = Combat(g.id, 1, first == Side.PARTY, False, free_round)
    if st.encounter is None:
        st.encounter = Encounter(g.id, entry=st.prev_pos, first_round=False)
    events.append(ev.Combat(group=g.id, first=first, free_round=free_round, monster=g.monster, count=g.count_told))
    if first == Side.MONSTERS:
        monsters_turn(ctx, g, events)
        if free_round == FreeRound.MONSTERS and st.combat is c:  # the surprised party lost round 1
            events.append(ev.SurprisedSkip(group=g.id, monster=g.monster, count=g.count_told, side=Side.PARTY))
            if _initiative(ctx, g, events) == Side.MONSTERS:  # round 2 in the order of AGILITY (001)
                c.party_turn = False
                monsters_turn(ctx, g, events)


def _initiative(ctx: Ctx, g: Group, events: list[Event]) -> Side:
    """Who acts first in a round (001): the higher AGILITY, the party on a tie, always the party against a
    monster that holds its ground."""
    mon = ctx.monster_of(g)
    party_agility = formulas.party_agility(m.agility for m in ctx.living())
    first = formulas.first_side(
        formulas.party_acts_first(party_agility, mon.agility, Behaviour.HOLDS_GROUND in mon.behaviours)
    )
    events.append(
        ev.Initiative(
            party=party_agility, monster=mon.agility, first=first, group=g.id, monster_id=g.monster, count=g.count_told
        )
    )
    return first


def _fight_of(ctx: Ctx) -> Combat:
    """The fight in progress (a combat handler runs only in one)."""
    c = ctx.state.combat
    assert c is not None
    return c


def _target_or_refuse(g: Group, target: int) -> None:
    if not 0 <= target < len(g.hp) or g.hp[target] <= 0:
        raise Refused(Reason(Code.NO_TARGET))


def attack(ctx: Ctx, target: int, events: list[Event]) -> None:
    """The party's turn: every living character strikes ``target`` (the next living creature once it falls)."""
    st = ctx.state
    c = _fight_of(ctx)
    g = st.group(c.group)
    _target_or_refuse(g, target)
    for i, m in enumerate(st.party):
        if not m.alive or g.defeated:
            continue
        member_attack(ctx, i, g, target if g.hp[target] > 0 else g.alive[0], events)
    after_party_turn(ctx, g, events, attacked=True)


def member_attack(ctx: Ctx, i: int, g: Group, target: int, events: list[Event]) -> None:
    """Character ``i`` strikes creature ``target`` of ``g``."""
    st = ctx.state
    m = st.party[i]
    mon = ctx.monster_of(g)
    cr, fat = ctx.rules.combat, ctx.rules.fatigue
    tired = ctx.tired()
    bonus = formulas.to_hit_bonus(m.might, tired, fat, m.to_hit)
    n = roll(ctx.dice(COMBAT), Dice(1, cr.attack_die)).total
    swing = formulas.attack(n, bonus, mon.defense, cr)
    dealt = 0
    if swing.hit:
        dealt = formulas.damage(formulas.damage_bonus(m.might, m.weapon, tired, fat), swing.critical, cr, fat)
        g.set_hp(target, max(0, g.hp[target] - dealt))
    events.append(
        ev.PartyAttack(
            attacker=m.template,
            attacker_side=Side.PARTY,
            member=i,
            target=g.monster,
            target_index=target,
            group=g.id,
            count=len(g.hp),
            dice=f"1d{cr.attack_die}",
            natural=n,
            modifier=bonus,
            total=swing.total,
            defense=mon.defense,
            hit=swing.hit,
            critical=swing.critical,
            damage=dealt,
            target_hp_after=g.hp[target],
        )
    )
    if g.hp[target] <= 0 and swing.hit:
        events.append(ev.Kill(group=g.id, index=target, monster=g.monster, count=len(g.hp)))


def oil(ctx: Ctx, target: int, events: list[Event]) -> None:
    """The party's turn spent throwing burning oil at one creature."""
    st = ctx.state
    c = _fight_of(ctx)
    g = st.group(c.group)
    _target_or_refuse(g, target)
    item = ctx.item_of("oil")
    assert item is not None  # the precheck
    ctx.take_item(item)
    dmg_dice = ctx.content.items[item].oil_damage
    assert dmg_dice is not None
    dmg, _ = ctx.roll(events, "oil_damage", dmg_dice, COMBAT)
    dmg = max(ctx.rules.fatigue.minimum_damage, dmg)
    g.set_hp(target, max(0, g.hp[target] - dmg))
    events.append(
        ev.Oil(
            item=item,
            group=g.id,
            target_index=target,
            damage=dmg,
            target_hp_after=g.hp[target],
            monster=g.monster,
            count=len(g.hp),
        )
    )
    if g.hp[target] <= 0:
        events.append(ev.Kill(group=g.id, index=target, monster=g.monster, count=len(g.hp)))
    after_party_turn(ctx, g, events, attacked=True)


def wait(ctx: Ctx, events: list[Event]) -> None:
    """The party holds back this round."""
    st = ctx.state
    c = _fight_of(ctx)
    events.append(ev.Wait(combat=True))
    after_party_turn(ctx, st.group(c.group), events, attacked=False)


def after_party_turn(ctx: Ctx, g: Group, events: list[Event], *, attacked: bool) -> None:
    c = _fight_of(ctx)
    c.party_attacked = attacked
    hirelings_strike(ctx, g, events)
    if g.defeated:
        victory(ctx, g, events)
        return
    c.party_turn = False
    if c.free_round == FreeRound.PARTY and c.round == 1:  # the surprised monsters lose round 1
        events.append(ev.SurprisedSkip(group=g.id, monster=g.monster, count=g.count_told, side=Side.MONSTERS))
        end_round(ctx, g, events)
        if _initiative(ctx, g, events) == Side.MONSTERS:  # round 2 in the order of AGILITY (001)
            c.party_turn, c.party_attacked = False, attacked
            monsters_turn(ctx, g, events)
        return
    monsters_turn(ctx, g, events)


def hirelings_strike(ctx: Ctx, foe: Group, events: list[Event]) -> None:
    """Ours: the hirelings (:mod:`~undercroft.rules.agreements`) strike the party's foe (its first creature
    standing), each creature of them once."""
    cr, fat = ctx.rules.combat, ctx.rules.fatigue
    for h in ctx.hirelings():
        mon = ctx.monster_of(h)
        for i in h.alive:
            if foe.defeated:
                return
            target = foe.alive[0]
            defense = ctx.monster_of(foe).defense
            n = roll(ctx.dice(COMBAT), Dice(1, cr.attack_die)).total
            swing = formulas.attack(n, mon.attack, defense, cr)
            dealt = formulas.damage(mon.damage, swing.critical, cr, fat) if swing.hit else 0
            foe.set_hp(target, max(0, foe.hp[target] - dealt))
            events.append(
                ev.HirelingAttack(
                    group=h.id,
                    monster=h.monster,
                    attacker_index=i,
                    target=foe.monster,
                    target_index=target,
                    count=len(foe.hp),
                    natural=n,
                    total=swing.total,
                    defense=defense,
                    hit=swing.hit,
                    critical=swing.critical,
                    damage=dealt,
                    target_hp_after=foe.hp[target],
                )
            )


def monsters_turn(ctx: Ctx, g: Group, events: list[Event]) -> None:
    st = ctx.state
    c = _fight_of(ctx)
    mon = ctx.monster_of(g)
    kneel_back = Behaviour.KNEELS in mon.behaviours and c.round > 1 and not c.party_attacked
    first_turn_of_fight = g.turns == 0 and c.round == 1
    if kneel_back and not first_turn_of_fight:
        g.risen = False
        events.append(ev.Idle(group=g.id, monster=g.monster, count=g.count_told))
        st.combat = None
        st.mode = Mode.ENCOUNTER
        return
    acts = formulas.monster_acts(g.turns, mon.acts_every)
    if formulas.holds_back(Behaviour.HOLDS_GROUND in mon.behaviours, c.party_attacked):
        acts = False
        events.append(ev.Holds(group=g.id, monster=g.monster, count=g.count_told))
    elif not acts:
        events.append(ev.Slow(group=g.id, monster=g.monster, count=g.count_told))
    if acts:
        for i in g.alive:
            monster_attack(ctx, g, i, events)
            if not ctx.living():
                die(ctx, mon.name, events)
                return
    end_round(ctx, g, events)


def end_round(ctx: Ctx, g: Group, events: list[Event]) -> None:
    c = _fight_of(ctx)
    mon = ctx.monster_of(g)
    g.turns += 1
    if mon.regenerate:
        healed = []
        for i in g.alive:
            before = g.hp[i]
            g.set_hp(i, min(g.max_hp, g.hp[i] + mon.regenerate))
            if g.hp[i] > before:
                healed.append(i)
        for i in healed:
            events.append(ev.Regenerate(group=g.id, index=i, hp=g.hp[i], monster=g.monster, count=len(g.hp)))
    ctx.tick(1)
    c.round += 1
    c.party_turn = True
    c.party_attacked = False


def monster_attack(ctx: Ctx, g: Group, i: int, events: list[Event]) -> None:
    """Creature ``i`` of ``g`` strikes a character (the data's targeting rule picks which)."""
    st = ctx.state
    mon = ctx.monster_of(g)
    cr, fat = ctx.rules.combat, ctx.rules.fatigue
    hps = [m.hp for m in st.party]
    nth = ctx.dice(COMBAT).die(sum(h > 0 for h in hps)) - 1 if cr.monster_targeting == "random" else 0
    tj = formulas.monster_target(hps, cr.monster_targeting, nth)
    m = st.party[tj]
    bonus = formulas.monster_bonus(mon.attack, ctx.tired(), fat)
    n = roll(ctx.dice(COMBAT), Dice(1, cr.attack_die)).total
    swing = formulas.attack(n, bonus, m.defense, cr)
    dealt = 0
    if swing.hit:
        dealt = formulas.damage(mon.damage, swing.critical, cr, fat)
        m.hp = max(0, m.hp - dealt)
    events.append(
        ev.MonsterAttack(
            attacker=g.monster,
            attacker_side=Side.MONSTERS,
            attacker_index=i,
            group=g.id,
            count=len(g.hp),
            target=m.template,
            member=tj,
            dice=f"1d{cr.attack_die}",
            natural=n,
            modifier=bonus,
            total=swing.total,
            defense=m.defense,
            hit=swing.hit,
            critical=swing.critical,
            damage=dealt,
            target_hp_after=m.hp,
            target_max_hp=m.max_hp,
        )
    )


def victory(ctx: Ctx, g: Group, events: list[Event]) -> None:
    """The group is down: the party shares its treasure and the bribes it took; on the final level, the last
    guardian down wins the game."""
    st = ctx.state
    gold = g.treasure + g.bribes
    living = [i for i, m in enumerate(st.party) if m.alive]
    share, rest = divmod(gold, len(living))
    # (in party order, one pair a living member: two of the same character keep two shares)
    shares = [[st.party[i].template, share + (1 if k < rest else 0)] for k, i in enumerate(living)]
    st.gold += gold
    g.treasure = g.bribes = 0
    st.kills += len(g.hp)
    st.slain[g.monster] = st.slain.get(g.monster, 0) + len(g.hp)
    st.level.remove_group(g)
    spoils = list(ctx.monster_of(g).spoils)
    if spoils:  # (ours) its prize lies where it fell, to be taken up as anything found
        st.level.items.setdefault(g.pos, []).extend((item, 1) for item in spoils)
        st.level.touch()
    st.mode, st.combat, st.encounter, st.pursuit = Mode.EXPLORE, None, None, None
    events.append(
        ev.Victory(group=g.id, monster=g.monster, count=g.count_told, gold=gold, shares=shares, spoils=spoils or None)
    )
    growth.victory(ctx, g, events)
    if ctx.rs.levels[st.depth].final and not any(gg.origin == Origin.GUARDIAN for gg in st.level.groups):
        st.mode = Mode.WON
        fates = levels.guardian_fates(ctx.content, ctx.ruleset_id, st.level)
        events.append(ev.Won(turn=st.turn + 1, depth=st.depth, seed=st.seed, how="slew", guardians=fates))


def die(ctx: Ctx, cause: str, events: list[Event]) -> None:
    """The party is dead; ``cause`` is the name of what killed it."""
    st = ctx.state
    st.mode = Mode.DEAD
    st.combat = st.encounter = st.pursuit = None
    st.death = {"cause": cause, "turn": st.turn + 1, "depth": st.depth, "seed": st.seed}
    events.append(ev.Death(cause=cause, turn=st.turn + 1, depth=st.depth, seed=st.seed))
