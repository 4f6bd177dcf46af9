"""The merchant (ours, where the texts are silent; rules.yaml ``shop:``).

Where the ruleset turns the shop on (``shop: true``), a merchant waits at the foot of every stairs down: the party
arrives in mode ``shop`` (:func:`open_shop`, event ``shop``). A peddler who comes to an agreement (000's
negotiation, its ``agreement: trade``) opens the same shop where it stands (event ``trade``,
:mod:`~undercroft.rules.agreements`). The stock is the data's, each item from its floor on (:func:`stock`), at the
item's ``price``, as many as the party can pay for: ``Buy(item)`` (event ``bought``), then ``LeaveShop`` (event
``shop_left``) and the party explores on. A weapon bought that is plainly better is taken up at once, as one found.
"""

from __future__ import annotations

from undercroft.content import Content
from undercroft.rules import items
from undercroft.rules.context import Ctx
from undercroft.rules.events import Event
from undercroft.rules.refusals import Code, Reason, Refused
from undercroft.rules.state import Group
from undercroft.rules.types import Mode


def stock(content: Content, depth: int) -> list[str]:
    """What the merchant sells on the floor at ``depth`` (0: the first floor): each stock item from its floor on."""
    return [s.item for s in content.rules.shop.stock if s.from_floor <= depth + 1]


def open_shop(ctx: Ctx, events: list[Event], peddler: Group | None = None) -> None:
    """The merchant at the stairs (or ``peddler``) shows its wares: the party is in the shop until it leaves."""
    st = ctx.state
    st.mode = Mode.SHOP
    wares = {"depth": st.depth, "stock": stock(ctx.content, st.depth)}
    if peddler is None:
        events.append(Event("shop", wares))
    else:
        told = {"group": peddler.id, "monster": peddler.monster, "count": peddler.count_told}
        events.append(Event("trade", {**told, **wares}))


def buy(ctx: Ctx, number: int, events: list[Event]) -> None:
    """Buy one of the item numbered ``number`` (:func:`items.catalogue`)."""
    st = ctx.state
    item = items.item_named(ctx, number)
    if item not in stock(ctx.content, st.depth):
        raise Refused(Reason(Code.NOT_SOLD, {"item": item}))
    price = ctx.content.items[item].price
    assert price is not None  # the data's check: the stock has prices
    if price > st.gold:
        raise Refused(Reason(Code.TOO_DEAR, {"item": item}))
    st.gold -= price
    st.items[item] = st.items.get(item, 0) + 1
    events.append(Event("bought", {"item": item, "price": price, "gold": st.gold}))
    if ctx.content.items[item].kind == "weapon":
        items.wield_found(ctx, item, events)


def leave(ctx: Ctx, events: list[Event]) -> None:
    """The party leaves the merchant and explores on."""
    ctx.state.mode = Mode.EXPLORE
    events.append(Event("shop_left", {"gold": ctx.state.gold}))
