"""Distractions in a chase (003): "the party may drop possessions to slow pursuit". What the party throws down
lies on its tile; the pursuer, following the party's path, comes to it (:mod:`undercroft.rules.chase.moves`): food may
stop an unintelligent pursuer, treasure an intelligent one, each on a percentile chance, and the one that takes it
stops there and the chase ends; what is not taken stays on the floor. Burning oil sets the tiles just behind the
party alight: a monster with self-preservation that comes to them may stop, else it waits until they burn out; one
without runs through. A drop buys off nobody: there is none in a meeting or a fight (refused, ``not_fleeing``),
where paying a monster is a bribe (000). The chase itself: :mod:`undercroft.rules.chase.running`.
"""

from __future__ import annotations

from undercroft.rules import events as ev
from undercroft.rules.chase import running
from undercroft.rules.context import Ctx
from undercroft.rules.events import Event
from undercroft.rules.rng import ENCOUNTER


def drop_food(ctx: Ctx, events: list[Event]) -> None:
    """Throw down food while fleeing: it lies where the party stands, for the pursuer to come to (003). Only in a
    pursuit: in a meeting, paying a monster is a bribe (000, :func:`undercroft.rules.parley.bribe`)."""
    food = ctx.item_of("food")
    assert food is not None  # the precheck
    ctx.take_item(food)
    events.append(ev.Drop(item=food, amount=1))
    _lay(ctx, food, 1)
    _after_drop(ctx, events)


def drop_treasure(ctx: Ctx, events: list[Event]) -> None:
    """Throw down treasure while fleeing: it lies where the party stands, for the pursuer to come to (003); one that
    takes it keeps it. Only in a pursuit, as :func:`drop_food`. The least valuable gem goes first (ours: gold buys
    bribes and wares; a gem only counts when carried out), else gold (:func:`dropped_treasure`)."""
    item, amount, _ = dropped_treasure(ctx, events)
    events.append(ev.Drop(item=item, amount=amount))
    _lay(ctx, item, amount)
    _after_drop(ctx, events)


def _lay(ctx: Ctx, item: str, amount: int) -> None:
    st = ctx.state
    p = st.pursuit
    assert p is not None
    st.level.items.setdefault(st.pos, []).append((item, amount))
    st.level.touch()
    if st.pos not in p.lures:
        p.lures.append(st.pos)


def dropped_treasure(ctx: Ctx, events: list[Event]) -> tuple[str, int, int]:
    """What the party throws down, taken from it: (item, amount, value in gold). The least valuable gem it carries
    (ties by id), its value off the floor's haul; else ``distractions.treasure_gold`` gold (at most all of it)."""
    st = ctx.state
    gems = sorted(
        (ctx.content.items[i].value or 0, i)
        for i, n in st.items.items()
        if n > 0 and ctx.content.items[i].kind == "treasure"
    )
    if gems:
        value, gem = gems[0]
        ctx.take_item(gem)
        st.haul = max(0, st.haul - value)
        return gem, 1, value
    want, _ = ctx.roll(events, "treasure_dropped", ctx.content.tables.distractions.treasure_gold, ENCOUNTER)
    gold = max(1, min(st.gold, want))
    st.gold -= gold
    return "gold", gold, gold


def _after_drop(ctx: Ctx, events: list[Event]) -> None:
    """The drop did not stop the pursuer: the chase goes on (a round of running, or of being caught up with)."""
    if not ctx.tired():
        running.keep_running(ctx, events)
    else:
        running.pursuit_round(ctx, events)


def oil(ctx: Ctx, events: list[Event]) -> None:
    """Throw burning oil behind the party: the last ``distractions.oil_tiles`` tiles of its path (its own tile, which
    it runs on from, and those behind it) burn for ``distractions.oil_slows_rounds`` rounds
    (:mod:`undercroft.rules.chase.moves` says what the pursuer does there)."""
    st = ctx.state
    item = ctx.item_of("oil")
    assert item is not None  # the precheck
    ctx.take_item(item)
    p = st.pursuit
    assert p is not None
    g = st.group(p.group)
    d = ctx.content.tables.distractions
    behind = [t for t in p.trail if t != g.pos][-d.oil_tiles :]  # the party's own tile (it runs on) and behind it
    p.fire, p.fire_out, p.balked = behind, p.rounds + 1 + d.oil_slows_rounds, False  # it burns the next rounds
    tiles = [list(t) for t in behind]
    events.append(ev.Oil(item=item, group=g.id, monster=g.monster, count=g.count_told, tiles=tiles))
    _after_drop(ctx, events)
