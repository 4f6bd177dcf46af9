"""The reference player's kit: what it buys from the merchant and what it puts on, by the engine's own measures.

A weapon beats another by :func:`undercroft.rules.formulas.weapon_score` (the measure by which the engine takes up
a weapon found), armour by its ``defense``. Items are named as ``Use`` and ``Buy`` name them: by their number in
the catalogue (:func:`undercroft.rules.items.item_number`).
"""

from __future__ import annotations

from collections.abc import Callable

from undercroft.rules import formulas, items, shop
from undercroft.rules.game import Game
from undercroft.rules.state import Member


def _held(game: Game, m: Member) -> int:
    """The weapon score of what ``m`` wields."""
    wielded = game.content.items[m.wielded] if m.wielded else None
    return formulas.weapon_score(wielded.to_hit if wielded else 0, m.weapon)


def _worn(game: Game, m: Member) -> int:
    """The defense of the armour ``m`` wears (0: none)."""
    return game.content.items[m.armour].defense if m.armour else 0


def _value(game: Game, item: str) -> int:
    """A weapon's score or an armour's defense."""
    it = game.content.items[item]
    return formulas.weapon_score(it.to_hit, it.damage) if it.kind == "weapon" else it.defense


def _kit(game: Game, kind: str, with_pack: bool) -> dict[int, int]:
    """Each living character's weapon score (``kind`` "weapon") or armour defense; ``with_pack``: as it will be once
    the better pieces the party carries are put on (each to the character worst off), which a purchase must beat."""
    st = game.state
    kit = {i: (_held if kind == "weapon" else _worn)(game, m) for i, m in enumerate(st.party) if m.alive}
    if with_pack and kit:
        pieces = sorted(
            (
                _value(game, i)
                for i, n in sorted(st.items.items())
                if game.content.items[i].kind == kind
                for _ in range(n)
            ),
            reverse=True,
        )
        for piece in pieces:
            worst = min(kit, key=lambda i: (kit[i], i))
            if piece > kit[worst]:
                kit[worst] = piece
    return kit


def gain(game: Game, item: str, *, with_pack: bool = False) -> tuple[int, int]:
    """How much ``item`` beats the kit of the living character it is best for, and that character's index
    ((0, -1): it beats nobody's; a weapon by its score, armour by its defense, anything else by nothing).
    ``with_pack``: the kit as it will be once the better pieces carried are put on (what a purchase must beat)."""
    kind = game.content.items[item].kind
    if kind not in ("weapon", "armour"):
        return (0, -1)
    value = _value(game, item)
    best = (0, -1)
    for i, worn in _kit(game, kind, with_pack).items():
        if value - worn > best[0]:
            best = (value - worn, i)
    return best


def cheapest(game: Game, want: Callable[[str], bool]) -> int | None:
    """The number of the cheapest ware the party can pay for whose id ``want`` takes (ties: by id), or None."""
    st = game.state
    content = game.content
    wares = sorted((content.items[i].price or 0, i) for i in shop.for_sale(st) if want(i))
    for price, item in wares:
        if price <= st.gold:
            return items.item_number(content, item)
    return None


def cheapest_healing(game: Game) -> int | None:
    """The cheapest healing potion the party can pay for."""
    items_ = game.content.items
    return cheapest(game, lambda i: items_[i].kind == "potion" and items_[i].heal is not None)


def upgrade(game: Game, keep: int = 0) -> int | None:
    """The armour or weapon for sale the party can pay for, keeping ``keep`` gold, that beats its kit the most (then
    the cheapest), or None."""
    st = game.state
    content = game.content
    offers = []
    for i in shop.for_sale(st):
        price = content.items[i].price or 0
        better, _ = gain(game, i, with_pack=True)  # (a piece bought and not yet put on counts as worn)
        if better > 0 and price + keep <= st.gold:
            offers.append((-better, price, i))
    return items.item_number(content, min(offers)[2]) if offers else None


def better_in_pack(game: Game) -> tuple[int, int] | None:
    """(item number, character) of the armour or weapon the party carries that beats what someone wears or wields
    the most, or None."""
    st = game.state
    found = []
    for i in sorted(st.items):
        if st.items[i] > 0:
            better, member = gain(game, i)
            if better > 0:
                found.append((-better, i, member))
    if not found:
        return None
    _, item, member = min(found)
    return items.item_number(game.content, item), member


def fleetness(game: Game) -> int | None:
    """The number of a potion of fleetness the party carries, when none is working now; else None."""
    st = game.state
    content = game.content
    if any(content.items[i].effect == "fleetness" for i in st.effects):
        return None
    for i in sorted(st.items):
        if st.items[i] > 0 and content.items[i].effect == "fleetness":
            return items.item_number(content, i)
    return None


def vigour(game: Game, keep: int) -> int | None:
    """The number of the cheapest potion of ``vigour`` (the elixir, for good) for sale that the party can pay for
    keeping ``keep`` gold and that would still add to the first living character's hit points, or None."""
    st = game.state
    content = game.content
    m = next((m for m in st.party if m.alive), None)
    given = 0 if m is None else items.vigour_given(content, game.rs.growth, m)
    wares = sorted(
        (it.price or 0, i)
        for i in shop.for_sale(st)
        if (it := content.items[i]).effect == "vigour" and formulas.vigour_gain(it.bonus, it.limit, given) > 0
    )
    return next((items.item_number(content, i) for p, i in wares if p + keep <= st.gold), None)


def vigour_in_pack(game: Game) -> int | None:
    """The number of a potion of ``vigour`` the party carries (drunk at once: it is for good), or None."""
    st = game.state
    content = game.content
    found = (i for i in sorted(st.items) if st.items[i] > 0 and content.items[i].effect == "vigour")
    return next((items.item_number(content, i) for i in found), None)
