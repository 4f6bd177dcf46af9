"""A delver who grows (ours, where the texts are silent; rules.yaml ``growth:``), where the ruleset has
``growth: true`` (``undercroft``: the others play their text as written, with no growth).

Renown comes from victories (the ``worth`` of every creature of a group defeated, :func:`victory`) and from treasure
carried down the stairs (the floor's haul, one renown per ``gold_per_renown`` gold of its value, :func:`descend`).
It is shared among the living characters, each its own share (the remainder to the first), and each character's
level follows its own renown (:func:`formulas.level_for`): each level brings ``hp_per_level`` more maximum hit
points, and +1 MIGHT or AGILITY at the levels the data names. Event ``level_up`` for each level gained.
"""

from __future__ import annotations

from undercroft.rules import events as ev
from undercroft.rules import formulas
from undercroft.rules.context import Ctx
from undercroft.rules.events import Event
from undercroft.rules.state import Group


def victory(ctx: Ctx, g: Group, events: list[Event]) -> None:
    """The party defeated ``g``: the worth of every creature of it is renown, less for a character that has
    outgrown the floor (:func:`formulas.renown_earned`; the floor's own ``outgrown_after`` where it gives one)."""
    gain(ctx, ctx.monster_of(g).worth * len(g.hp), events, floor=ctx.state.depth + 1)


def descend(ctx: Ctx, events: list[Event]) -> None:
    """The party takes the stairs down with the floor's haul: its value is renown."""
    st = ctx.state
    renown = st.haul // ctx.rules.growth.gold_per_renown
    st.haul = 0
    gain(ctx, renown, events)


def gain(ctx: Ctx, renown: int, events: list[Event], floor: int | None = None) -> None:
    """Share ``renown`` among the living characters; each rises to the level its renown gives. From a victory on
    ``floor``, each share is what a character of its level earns there (:func:`formulas.renown_earned`)."""
    st = ctx.state
    living = [i for i, m in enumerate(st.party) if m.alive]
    if renown <= 0 or not living or not ctx.rs.growth:
        return
    share, rest = divmod(renown, len(living))
    after = ctx.rules.growth.outgrown_after
    if floor is not None and (own := ctx.rs.levels[floor - 1].outgrown_after) is not None:
        after = own
    for k, i in enumerate(living):
        m = st.party[i]
        part = share + (1 if k < rest else 0)
        m.renown += part if floor is None else formulas.renown_earned(part, m.level, floor, after)
        while m.level < formulas.level_for(m.renown, ctx.rules.growth):
            level_up(ctx, i, events)


def level_up(ctx: Ctx, i: int, events: list[Event]) -> None:
    """Character ``i`` gains a level."""
    m = ctx.state.party[i]
    g = ctx.rules.growth
    m.level += 1
    m.max_hp += g.hp_per_level  # (not healed: the wounds of the fight stay, a rest or a potion heals them)
    if m.level in g.might_at:
        m.might += 1
    if m.level in g.agility_at:
        m.agility += 1
    events.append(
        ev.LevelUp(
            member=i,
            name=m.name,
            level=m.level,
            max_hp=m.max_hp,
            might=m.might,
            agility=m.agility,
            rest_heal=formulas.rest_heal(ctx.rules.time.rest_heal, m.level, g.rest_heal_at),
        )
    )
