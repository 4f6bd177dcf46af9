"""Things (ours, where the texts are silent): what each kind of item does when used, carried or worn.

* Items are named in actions by their number in the catalogue, every item id sorted (:func:`catalogue`):
  ``Use(item, member)`` and ``Buy(item)`` carry that number, as every action carries only whole numbers.
* A potion heals (``heal``, :func:`drink`, also ``Drink``) or gives its ``effect`` for ``rounds`` rounds of the
  clock (:func:`quaff`): ``fleetness`` adds ``bonus`` feet to each character's speed (running is a multiple of it:
  003's evasion and pursuit then use the faster party), ``heroism`` adds ``bonus`` to each character's attack roll,
  ``sight`` lets the party see ``bonus`` tiles farther. The same potion again lengthens its effect, never doubles
  it. An effect ends when the clock reaches its round (:func:`expire`). Ours: ``vigour`` (an elixir, Brogue's
  potion of life) is for good and the drinker's alone: ``bonus`` more maximum hit points (no more in all than its
  ``limit``: :func:`formulas.vigour_gain`), and ``bonus`` healed.
* A weapon is wielded (:func:`wield`): its ``to_hit`` goes on the attack roll, its ``damage`` on MIGHT; the one put
  down goes into the pack. A weapon found is taken up at once by whoever it is plainly better for
  (:func:`formulas.weapon_score` higher than the wielded one's).
* Armour is worn (:func:`wear`): ``defense`` added, ``speed_penalty`` feet taken off the wearer's speed.
* A tool works while carried (:meth:`Ctx.effect_bonus`): a lantern's ``sight``.
* A chart, read while exploring (or at the merchant's), shows the way down from where the party stands, as a
  kobold's directions do (:func:`show_way_down`, event ``charted``); refused where the stairs are on the map
  already: it would be wasted.
* Treasure (gems) is carried: its ``value`` taken up on a floor is that floor's haul, renown once carried down the
  stairs (:mod:`~undercroft.rules.growth`).

In a fight, using a thing is the user's action: the others strike (as with ``Drink``). In a meeting it is a round
the monster answers as it answers a Wait. While pursued (or giving chase) it is the party's round of the chase: it
stands while the other side runs (:func:`after_use`).
"""

from __future__ import annotations

from collections.abc import Mapping

from undercroft.content import Content
from undercroft.content.schema import Item
from undercroft.rules import combat, dungeon, encounter, formulas, searches
from undercroft.rules import events as ev
from undercroft.rules.chase import running
from undercroft.rules.context import Ctx
from undercroft.rules.dice import Dice
from undercroft.rules.events import Event
from undercroft.rules.refusals import Code, Reason, Refused
from undercroft.rules.rng import COMBAT, ENCOUNTER
from undercroft.rules.state import Member
from undercroft.rules.types import Mode

#: The kinds of item ``Use`` takes: drunk, wielded, worn or read.
USABLE = ("potion", "weapon", "armour", "chart")


def catalogue(content: Content) -> tuple[str, ...]:
    """Every item id, sorted: an item's number in an action is its place here."""
    return tuple(sorted(content.items))


def item_number(content: Content, item: str) -> int:
    """The number ``Use`` and ``Buy`` name ``item`` by."""
    return catalogue(content).index(item)


def item_named(ctx: Ctx, number: int) -> str:
    """The item an action's number names; refused when it names none."""
    ids = catalogue(ctx.content)
    if not 0 <= number < len(ids):
        raise Refused(Reason(Code.NO_SUCH_ITEM))
    return ids[number]


def usable(ctx: Ctx) -> list[str]:
    """The items the party carries that ``Use`` takes, by id."""
    st = ctx.state
    return [i for i in sorted(st.items) if st.items[i] > 0 and ctx.content.items[i].kind in USABLE]


def check_use(ctx: Ctx) -> Reason | None:
    """Why the party cannot use anything now, or None."""
    return None if usable(ctx) else Reason(Code.NOTHING_TO_USE)


def carried(content: Content, have: Mapping[str, int], kind: str) -> int:
    """How many of ``have`` (item id -> count, the party's) are of ``kind``; of potions, those that heal: what
    ``Drink`` takes ("Drink (3 left)", the status bar's "!3 healing", the shop's "healing potions in all")."""
    known = content.items
    return sum(
        n
        for i, n in have.items()
        if n > 0 and known[i].kind == kind and (kind != "potion" or known[i].heal is not None)
    )


def healing_potion(ctx: Ctx) -> str | None:
    """The healing potion ``Drink`` takes: the weakest the party carries (ties: by id), or None."""
    st = ctx.state
    heals = [
        (Dice.parse(it.heal).maximum, i)
        for i in sorted(st.items)
        if st.items[i] > 0 and (it := ctx.content.items[i]).kind == "potion" and it.heal is not None
    ]
    return min(heals)[1] if heals else None


def use(ctx: Ctx, number: int, member: int, events: list[Event]) -> None:
    """Character ``member`` uses the item numbered ``number``: drinks it, wields it or puts it on."""
    item = item_named(ctx, number)
    it = ctx.content.items[item]
    why = use_refusal(ctx, item, member)
    if why is not None:
        raise Refused(why)
    if it.kind == "potion" and it.heal is not None:
        drink(ctx, member, item, events)
        return
    if it.kind == "chart":
        read_chart(ctx, item, events)
        return
    if it.kind == "potion":
        quaff(ctx, member, item, events)
    elif it.kind == "weapon":
        wield(ctx, member, item, events)
    else:
        wear(ctx, member, item, events)
    after_use(ctx, member, events)


def use_refusal(ctx: Ctx, item: str, member: int) -> Reason | None:
    """Why character ``member`` cannot use ``item`` now, or None (read-only): not carried, not a thing one uses,
    no such living character, a healing potion for one unhurt (:func:`unhurt`), or a chart out of exploring or
    with the way down on the map already. ``Use`` is refused for these reasons, and the screens ask before offering
    it ("Healing Potion x3 (not hurt)")."""
    st = ctx.state
    it = ctx.content.items[item]
    if st.items.get(item, 0) <= 0:
        return Reason(Code.NOT_CARRIED, {"item": item})
    if it.kind not in USABLE:
        return Reason(Code.NOT_USABLE, {"item": item})
    if not 0 <= member < len(st.party) or not st.party[member].alive:
        return Reason(Code.NO_DRINKER)
    if it.kind == "chart":
        if st.mode not in (Mode.EXPLORE, Mode.SHOP):
            return Reason(Code.NOT_NOW, {"mode": st.mode.value})
        return Reason(Code.WAY_KNOWN, {"item": item}) if stairs_seen(ctx) else None
    return unhurt(st.party[member]) if it.kind == "potion" and it.heal is not None else None


def stairs_seen(ctx: Ctx) -> bool:
    """Whether the stairs down (the way out, on the last floor) are on the level's map already."""
    x, y = ctx.state.level.map.stairs
    return bool(ctx.state.level.explored[y, x])  # (folds the looks in first)


def show_way_down(ctx: Ctx) -> bool:
    """Mark the stairs down and the shortest way there from where the party stands on the level's map, as if
    walked; whether they were seen already (:func:`stairs_seen`: then nothing is marked)."""
    st = ctx.state
    known = stairs_seen(ctx)
    if not known:
        m = st.level.map
        for px, py in searches.least_cost_path(m.tiles != dungeon.WALL, st.pos, m.stairs):
            st.level.memory[py, px] = True
        st.level.touch()
    return known


def read_chart(ctx: Ctx, chart: str, events: list[Event]) -> None:
    """A chart is read (and used up): the way down is on the map (:func:`show_way_down`)."""
    st = ctx.state
    st.items[chart] -= 1
    show_way_down(ctx)
    x, y = st.level.map.stairs
    events.append(ev.Charted(item=chart, stairs=[x, y], out=ctx.rs.levels[st.depth].final))


def unhurt(m: Member) -> Reason | None:
    """A healing potion heals nothing at full hit points: the reason to refuse it, or None."""
    return Reason(Code.UNHURT) if m.hp >= m.max_hp else None


def drink_action(ctx: Ctx, member: int, events: list[Event]) -> None:
    """``Drink``: character ``member`` drinks a healing potion (:func:`healing_potion`)."""
    st = ctx.state
    if not 0 <= member < len(st.party) or not st.party[member].alive:
        raise Refused(Reason(Code.NO_DRINKER))
    potion = healing_potion(ctx)
    assert potion is not None  # the precheck
    drink(ctx, member, potion, events)


def drink(ctx: Ctx, member: int, potion: str, events: list[Event]) -> None:
    """Character ``member`` drinks the healing ``potion`` (not at full hit points: it would heal nothing)."""
    st = ctx.state
    m = st.party[member]
    why = unhurt(m)
    if why is not None:
        raise Refused(why)
    ctx.take_item(potion)
    heal_dice = ctx.content.items[potion].heal
    assert heal_dice is not None
    heal, _ = ctx.roll(events, "heal", heal_dice, ENCOUNTER if st.mode != Mode.COMBAT else COMBAT)
    before = m.hp
    m.hp = min(m.max_hp, m.hp + heal)
    events.append(ev.Drink(member=member, item=potion, heal=heal, healed=m.hp - before, hp=m.hp, max_hp=m.max_hp))
    after_use(ctx, member, events)


def after_use(ctx: Ctx, member: int, events: list[Event]) -> None:
    """What follows a thing used: in a fight the others strike and the monsters answer; in a meeting a round
    passes that the monster answers as it answers a Wait (:func:`encounter.monster_reacts`: a round is a round,
    whatever the party spends it on); in a chase the round is the party's round of the chase, spent standing: the
    other side runs it (the pursuer closes in, a group the party chases runs on)."""
    st = ctx.state
    if st.mode == Mode.COMBAT:
        assert st.combat is not None
        g = st.group(st.combat.group)
        attacked = False
        for i, mm in enumerate(st.party):
            if not mm.alive or i == member:
                continue
            if g.defeated:
                break
            combat.member_attack(ctx, i, g, g.alive[0], events)
            attacked = True
        combat.after_party_turn(ctx, g, events, attacked=attacked)
    elif st.mode == Mode.CHASE:
        ctx.tick(1)
        running.pursuit_round(ctx, events, party_stands=True)
    elif st.mode == Mode.ENCOUNTER:
        encounter.round_passes(ctx, events, waited=True)


def _apply(ctx: Ctx, it: Item, sign: int) -> None:
    """Put a potion's effect on every character (``sign`` 1) or take it off (-1)."""
    for m in ctx.state.party:
        if it.effect == "fleetness":
            m.speed += sign * it.bonus
        elif it.effect == "heroism":
            m.to_hit += sign * it.bonus


def quaff(ctx: Ctx, member: int, potion: str, events: list[Event]) -> None:
    """Character ``member`` drinks a potion with an effect: it holds for the potion's rounds from now."""
    st = ctx.state
    it = ctx.content.items[potion]
    ctx.take_item(potion)
    if it.effect == "vigour":
        m = st.party[member]
        gain = formulas.vigour_gain(it.bonus, it.limit, vigour_given(ctx.content, ctx.rs.growth, m))
        m.max_hp += gain
        m.hp = min(m.max_hp, m.hp + it.bonus)
        events.append(
            ev.Quaff(member=member, item=potion, effect=it.effect, bonus=gain, until=None, hp=m.hp, max_hp=m.max_hp)
        )
        return
    if potion not in st.effects:
        _apply(ctx, it, 1)
    st.effects[potion] = st.rounds + it.rounds
    assert it.effect is not None
    events.append(ev.Quaff(member=member, item=potion, effect=it.effect, bonus=it.bonus, until=st.effects[potion]))


def vigour_given(content: Content, growth: bool, m: Member) -> int:
    """The maximum hit points elixirs (``vigour``) have given ``m``: its maximum above what its template and its
    level (where the ruleset has ``growth``) give."""
    grown = content.rules.growth.hp_per_level * (m.level - 1) if growth else 0
    return m.max_hp - content.party[m.template].hp - grown


def expire(ctx: Ctx, events: list[Event]) -> None:
    """Every effect whose round has come ends (after each action)."""
    st = ctx.state
    if not st.effects:
        return
    for potion in sorted(st.effects):
        if st.effects[potion] <= st.rounds:
            del st.effects[potion]
            it = ctx.content.items[potion]
            _apply(ctx, it, -1)
            events.append(ev.EffectEnded(item=potion, effect=it.effect))


def wield(ctx: Ctx, member: int, weapon: str, events: list[Event]) -> None:
    """Character ``member`` takes up ``weapon`` from the pack; the one it held goes into the pack."""
    st = ctx.state
    m = st.party[member]
    it = ctx.content.items[weapon]
    ctx.take_item(weapon)
    if m.wielded:
        st.items[m.wielded] = st.items.get(m.wielded, 0) + 1
    old_to_hit = ctx.content.items[m.wielded].to_hit if m.wielded else 0
    m.wielded, m.weapon, m.to_hit = weapon, it.damage, m.to_hit - old_to_hit + it.to_hit
    events.append(ev.Wield(member=member, item=weapon, weapon=it.damage, to_hit=it.to_hit, damage=m.might + m.weapon))


def take_up(ctx: Ctx, item: str, events: list[Event]) -> None:
    """A thing found or bought that is plainly better is used at once: a weapon (:func:`wield_found`) or armour
    (:func:`wear_found`); anything else, or a trade-off, stays in the pack for ``Use``."""
    kind = ctx.content.items[item].kind
    if kind == "weapon":
        wield_found(ctx, item, events)
    elif kind == "armour":
        wear_found(ctx, item, events)


def wear_found(ctx: Ctx, armour: str, events: list[Event]) -> None:
    """Armour found or bought is put on at once by the living character it plainly beats
    (:func:`formulas.armour_better`, against what it wears: none is 0 and 0), the one with the least defense from
    its armour. Armour that trades speed for defense (a mail shirt over leather) stays in the pack."""
    st = ctx.state
    items = ctx.content.items
    it = items[armour]
    worn = {
        j: (items[m.armour].defense, items[m.armour].speed_penalty) if m.armour else (0, 0)
        for j, m in enumerate(st.party)
        if m.alive
    }
    members = [j for j, (d, p) in worn.items() if formulas.armour_better(it.defense - d, p - it.speed_penalty)]
    if members:
        wear(ctx, min(members, key=lambda j: (worn[j][0], j)), armour, events)


def wield_found(ctx: Ctx, weapon: str, events: list[Event]) -> None:
    """A weapon found is taken up at once by the living character it is plainly better for (the one with the
    weakest weapon, by :func:`formulas.weapon_score`); otherwise it stays in the pack."""
    st = ctx.state
    items = ctx.content.items
    score = formulas.weapon_score(items[weapon].to_hit, items[weapon].damage)

    def held(j: int) -> int:
        m = st.party[j]
        return formulas.weapon_score(items[m.wielded].to_hit if m.wielded else 0, m.weapon)

    members = [j for j, m in enumerate(st.party) if m.alive and held(j) < score]
    if members:
        wield(ctx, min(members, key=lambda j: (held(j), j)), weapon, events)


def wear(ctx: Ctx, member: int, armour: str, events: list[Event]) -> None:
    """Character ``member`` puts on ``armour``; what it wore goes into the pack."""
    st = ctx.state
    m = st.party[member]
    it = ctx.content.items[armour]
    ctx.take_item(armour)
    if m.armour:
        old = ctx.content.items[m.armour]
        st.items[m.armour] = st.items.get(m.armour, 0) + 1
        m.defense -= old.defense
        m.speed += old.speed_penalty
    m.armour = armour
    m.defense += it.defense
    m.speed -= it.speed_penalty
    events.append(ev.Wear(member=member, item=armour, defense=m.defense, speed=m.speed))
