"""The monster check and the 6x6 tables (000).

* Entering a room never visited: a resident on 1..``check.resident_max`` of the check die; a corridor or a room
  visited before (and every turn of rest): a wanderer on 1..``check.wandering_max``.
* A monster found: d6 for the row and d6 for the column of the level's resident or wandering table; the cell names
  the monster and may give its number appearing (else the monster's own ``number``), plus the level's
  ``number_bonus``, at least one; then its treasure.
* Ours: where the level has ``out_of_depth``, a monster found comes on 1..``max`` of its die from that deeper table
  instead (DCSS's out-of-depth monsters), with ``hoard`` times its treasure (the ``table`` event's ``deeper``);
  a wanderer found by a turn of rest on 1..``resting`` of that die, where the level gives it.
* The new group stands on the segment tile farthest from the party (:func:`far_tile`), and is met at once.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from undercroft.content.schema import Level, OutOfDepth
from undercroft.rules import encounter, formulas
from undercroft.rules import events as ev
from undercroft.rules.context import Ctx, init_behaviour
from undercroft.rules.dice import Dice
from undercroft.rules.events import Event
from undercroft.rules.rng import ENCOUNTER
from undercroft.rules.state import Group
from undercroft.rules.types import Origin


def check(ctx: Ctx, seg: int, kind: str, visited: bool, events: list[Event], *, resting: bool = False) -> None:
    """The monster check on entering (or, ``resting``, resting in) segment ``seg``."""
    chk = ctx.content.check_rules(ctx.rs)
    st = ctx.state
    if kind == "room" and not visited:
        limit, origin = chk.resident_max, Origin.RESIDENT
    else:
        limit, origin = chk.wandering_max, Origin.WANDERING
    _, res = ctx.roll(
        events,
        "monster_check",
        Dice(1, chk.die),
        ENCOUNTER,
        target=limit,
        result=lambda t: str(origin) if formulas.monster_check(t, limit) else "none",
        segment=seg,
        kind=kind,
        visited=visited,
    )
    if res == "none":
        return
    spec = ctx.rs.levels[st.depth]
    table_id, hoard, deep = _table(ctx, spec, origin, events, resting)
    grid = ctx.content.encounters[table_id]
    d6 = Dice(1, 6)
    row, _ = ctx.roll(events, "table_row", d6, ENCOUNTER, table=table_id)
    col, _ = ctx.roll(events, "table_column", d6, ENCOUNTER, table=table_id)
    cell = grid[row - 1][col - 1]
    mon = ctx.content.monsters[cell.monster]
    number_dice = cell.number or Dice.parse(mon.number)
    n, _ = ctx.roll(
        events, "number_appearing", number_dice, ENCOUNTER, modifier=spec.number_bonus, monster=cell.monster
    )
    n = max(1, n)
    treasure, _ = ctx.roll(events, "treasure", mon.treasure, ENCOUNTER, monster=cell.monster)
    treasure = formulas.treasure_share(treasure, ctx.rs.treasure_percent) * hoard
    events.append(
        ev.Table(table=table_id, row=row, column=col, monster=cell.monster, number=n, deeper=True if deep else None)
    )
    g = Group(st.next_group, cell.monster, [mon.hp] * n, mon.hp, st.depth, seg, far_tile(ctx, seg), origin, treasure)
    st.next_group += 1
    init_behaviour(g, mon)
    st.level.add_group(g)
    encounter.begin(ctx, g, events)


def _table(ctx: Ctx, spec: Level, origin: Origin, events: list[Event], resting: bool) -> tuple[str, int, bool]:
    """The table a monster found is rolled on, its treasure's multiplier and whether it came from deeper down
    (``resting``: found by a turn of rest)."""
    table_id = spec.resident if origin == Origin.RESIDENT else spec.wandering
    ood = spec.out_of_depth
    if ood is None:
        return table_id, 1, False
    most = deeper_most(ood, resting)
    _, deeper = ctx.roll(
        events,
        "out_of_depth",
        Dice(1, ood.die),
        ENCOUNTER,
        target=most,
        result=lambda t: "yes" if t <= most else "no",
        table=ood.table,
    )
    if deeper != "yes":
        return table_id, 1, False
    return (ood.wandering if origin == Origin.WANDERING and ood.wandering else ood.table), ood.hoard, True


def deeper_most(ood: OutOfDepth, resting: bool) -> int:
    """The highest face of the out-of-depth die on which a monster found comes from deeper down: ``resting`` where
    the level gives it for a wanderer found by a turn of rest, else ``max``."""
    return ood.resting if resting and ood.resting is not None else ood.max


def deeper_chance(spec: Level, *, resting: bool = False) -> Fraction:
    """The chance that a monster found on level ``spec`` (``resting``: by a turn of rest) comes from deeper down
    (:func:`deeper_most` faces of the out-of-depth die; 0 where the level has none). For the screens."""
    ood = spec.out_of_depth
    return Fraction(0) if ood is None else Fraction(deeper_most(ood, resting), ood.die)


def far_tile(ctx: Ctx, seg: int) -> tuple[int, int]:
    """Where a new group stands: the segment tile farthest from the party (ties: top, then left); never a door
    or the stairs, never a tile another group holds."""
    st = ctx.state
    xs, ys = st.level.map.floor_of(seg)
    if len(xs) == 0:
        return st.pos
    occupied = {g.pos for g in st.level.groups if not g.defeated}
    dist = np.maximum(np.abs(xs - st.pos[0]), np.abs(ys - st.pos[1]))
    order = np.lexsort((xs, ys, -dist))
    for i in order:
        p = (int(xs[i]), int(ys[i]))
        if p not in occupied and p != st.pos:
            return p
    return (int(xs[order[0]]), int(ys[order[0]]))
