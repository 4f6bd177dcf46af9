"""The merchant (ours, where the texts are silent; rules.yaml ``shop:``).

Where the ruleset turns the shop on (``shop: true``), a merchant waits at the foot of every stairs down: the party
arrives in mode ``shop`` (:func:`open_shop`, event ``shop``). A peddler who comes to an agreement (000's
negotiation, its ``agreement: trade``) opens the same shop where it stands (event ``trade``,
:mod:`~undercroft.rules.agreements`). The stock is the data's, each item on its floors (:func:`stock`); each
merchant has a few of each, rolled when its shop opens (the ware's ``count``, on the level's ``shop`` stream, as the
level's making is: :data:`GameState.wares`), and a ware with a ``chance`` below 100 only that often
(:func:`stocked`), so what it has is a choice, not a tap. ``Buy(item)`` pays the item's
``price`` for one (event ``bought``), while it has one left; then ``LeaveShop`` (event ``shop_left``) and the party
explores on. A weapon bought that is plainly better is taken up at once, as one found.
"""

from __future__ import annotations

from undercroft.content import Content
from undercroft.rules import events as ev
from undercroft.rules import items
from undercroft.rules.context import Ctx
from undercroft.rules.dice import roll
from undercroft.rules.events import Event
from undercroft.rules.refusals import Code, Reason, Refused
from undercroft.rules.rng import SHOP
from undercroft.rules.state import GameState, Group
from undercroft.rules.types import Mode


def stock(content: Content, depth: int) -> list[str]:
    """What the merchants may sell on the floor at ``depth`` (0: the first floor): each stock item on its floors."""
    return [s.item for s in content.rules.shop.stock if s.from_floor <= depth + 1 <= s.to_floor]


def stocked(chance: int, face: int) -> bool:
    """Whether a merchant has a ware it stocks by ``chance`` (percent), on the ``face`` of a d100: 1..chance. A
    deep ware that not every merchant has makes what a delver finds at the stairs a choice between what is there
    (Brogue's vaults: one thing of several, not every thing)."""
    return face <= chance


def for_sale(state: GameState) -> list[str]:
    """What the open shop has left, in the stock's order."""
    return [i for i, n in state.wares.items() if n > 0]


def open_shop(ctx: Ctx, events: list[Event], peddler: Group | None = None) -> None:
    """The merchant at the stairs (or ``peddler``) shows its wares: the party is in the shop until it leaves."""
    st = ctx.state
    st.mode = Mode.SHOP
    dice = ctx.streams.get(SHOP, st.depth)  # (never the injected dice: what a merchant has is the level's making)
    floor = st.depth + 1
    st.wares = {}
    for s in ctx.content.rules.shop.stock:
        if not s.from_floor <= floor <= s.to_floor or (n := roll(dice, s.count).total) <= 0:
            continue
        if s.chance >= 100 or stocked(s.chance, roll(dice, "1d100").total):
            st.wares[s.item] = n
    if peddler is None:
        events.append(ev.Shop(depth=st.depth, stock=for_sale(st), wares=dict(st.wares)))
    else:
        events.append(
            ev.Trade(
                group=peddler.id,
                monster=peddler.monster,
                count=peddler.count_told,
                depth=st.depth,
                stock=for_sale(st),
                wares=dict(st.wares),
            )
        )


def buy(ctx: Ctx, number: int, events: list[Event]) -> None:
    """Buy one of the item numbered ``number`` (:func:`items.catalogue`)."""
    st = ctx.state
    item = items.item_named(ctx, number)
    if item not in stock(ctx.content, st.depth):
        raise Refused(Reason(Code.NOT_SOLD, {"item": item}))
    if st.wares.get(item, 0) <= 0:
        raise Refused(Reason(Code.SOLD_OUT, {"item": item}))
    price = ctx.content.items[item].price
    assert price is not None  # the data's check: the stock has prices
    if price > st.gold:
        raise Refused(Reason(Code.TOO_DEAR, {"item": item}))
    st.gold -= price
    st.wares[item] -= 1
    st.items[item] = st.items.get(item, 0) + 1
    events.append(ev.Bought(item=item, price=price, gold=st.gold, left=st.wares[item]))
    items.take_up(ctx, item, events)


def leave(ctx: Ctx, events: list[Event]) -> None:
    """The party leaves the merchant and explores on."""
    ctx.state.mode = Mode.EXPLORE
    ctx.state.wares = {}
    events.append(ev.ShopLeft(gold=ctx.state.gold))
