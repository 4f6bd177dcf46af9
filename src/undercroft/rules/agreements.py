"""Talk that pays (ours, where the texts are silent): what an agreement brings besides peace.

After a negotiation that succeeds (000: agreement or intimidation), a monster with an ``agreement`` in the data
does more (:func:`after_terms`):

* ``directions``: it tells the way down; the stairs and the shortest way there are shown on the level's map
  (event ``directions``), so the party can travel there.
* ``hireling``: it follows the party and fights beside it for the rest of the floor (event ``hired``): it keeps
  one tile behind the party (:func:`follow`), strikes the party's foe after the party's turn
  (:func:`combat.hirelings_strike`, 001's attack roll with its own attack and damage; the foes strike only the
  party), and stays behind when the party takes the stairs (:func:`part`, event ``hireling_left``).
* ``trade``: it opens its pack: the merchant's shop (event ``trade``, :mod:`~undercroft.rules.shop`).
"""

from __future__ import annotations

from undercroft.rules import events as ev
from undercroft.rules import items, shop
from undercroft.rules.context import Ctx
from undercroft.rules.events import Event
from undercroft.rules.state import Group


def after_terms(ctx: Ctx, g: Group, events: list[Event]) -> None:
    """``g`` came to terms with the party: what its agreement brings."""
    st = ctx.state
    what = ctx.monster_of(g).agreement
    if what == "directions":
        known = items.show_way_down(ctx)
        x, y = st.level.map.stairs
        events.append(ev.Directions(group=g.id, monster=g.monster, count=g.count_told, stairs=[x, y], known=known))
    elif what == "hireling":
        g.hired = True
        g.pos = st.prev_pos
        events.append(ev.Hired(group=g.id, monster=g.monster, count=g.count_told))
    elif what == "trade":
        shop.open_shop(ctx, events, g)


def follow(ctx: Ctx) -> None:
    """Each hireling keeps one step behind the party (after every action)."""
    st = ctx.state
    for g in ctx.hirelings():
        if g.pos != st.prev_pos or g.segment != st.segment:
            g.pos, g.segment = st.prev_pos, st.segment


def part(ctx: Ctx, events: list[Event]) -> None:
    """The party takes the stairs: its hirelings stay on their floor."""
    st = ctx.state
    for g in ctx.hirelings():
        st.level.remove_group(g)
        events.append(ev.HirelingLeft(group=g.id, monster=g.monster, count=g.count_told))
