"""The merchant's wares (engine mode ``shop``): at the foot of the stairs, or a peddler's pack, each with its price
(under the list, how many the merchant has of the one chosen). Each weapon and armour is compared with what is
wielded or worn (:func:`compare`: better, worse or the same on the list, the difference under it), a potion with
how many of it are carried."""

from __future__ import annotations

from typing import Final

import tcod.console
import tcod.event

from undercroft.content import Content
from undercroft.rules import formulas, items
from undercroft.rules.actions import Buy, LeaveShop
from undercroft.rules.state import GameState, Member
from undercroft.rules.types import Mode
from undercroft.ui import keymap, render
from undercroft.ui.layout import Layout, Rect
from undercroft.ui.render import DIM, KEY, TEXT
from undercroft.ui.scenes.base import Push, Transition
from undercroft.ui.scenes.choice import ChoiceScene
from undercroft.ui.scenes.game import GameScene, Handler, shows
from undercroft.ui.scenes.help import HelpScene
from undercroft.ui.scenes.inventory import InventoryScene
from undercroft.ui.scenes.log import LogScene

DEAR = 3  # a ware dearer than a third of the purse asks to be confirmed


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else str(n)


# How a weapon or armour compares with what is held or worn, from the best for the party down: the list's word
VERDICTS: Final = ("better", "mixed", "same", "worse")


def _against(content: Content, m: Member, ware: str) -> tuple[str, str]:
    """How ``ware`` (a weapon or armour) compares with what ``m`` wields or wears, by the engine's own measures (a
    weapon's to-hit plus damage; armour's defense and its weight): one of :data:`VERDICTS` (armour with more
    defense and less speed, or the other way round, is mixed: plate over runed mail is +1 defense for 45 ft
    a round, not "better"), and the difference."""
    it = content.items[ware]
    if it.kind == "weapon":
        held = content.items[m.wielded or content.party[m.template].weapon]
        hit, dmg = it.to_hit - held.to_hit, it.damage - held.damage
        score = formulas.weapon_score(it.to_hit, it.damage) - formulas.weapon_score(held.to_hit, held.damage)
        # (a trade of to-hit for damage that scores even is "mixed", never "same")
        word = "better" if score > 0 else "worse" if score < 0 else "mixed" if hit or dmg else "same"
        return word, f"against the {held.name}: {_signed(hit)} to hit, {_signed(dmg)} damage"
    worn = content.items[m.armour] if m.armour else None
    defense = it.defense - (worn.defense if worn else 0)
    lighter = (worn.speed_penalty if worn else 0) - it.speed_penalty
    weight = "as quick" if lighter == 0 else f"{abs(lighter)} ft a round {'quicker' if lighter > 0 else 'slower'}"
    what = f"the {worn.name}" if worn else "no armour"
    if formulas.armour_better(defense, lighter):  # (what the engine puts on at once, found or bought)
        word = "better"
    else:
        word = "mixed" if defense * lighter < 0 else "worse" if defense + lighter < 0 else "same"
    return word, f"against {what}: {_signed(defense)} defense, {weight}"


def compare(content: Content, st: GameState, growth: bool, ware: str) -> tuple[str, str]:
    """What a ware is to the party: a word for the list (one of :data:`VERDICTS` for a weapon or armour, the best
    any living member would find it; "no use" or "" else) and a sentence
    for under it (the difference with what is wielded or worn, how many are carried)."""
    it = content.items[ware]
    living = [m for m in st.party if m.alive]
    have = st.items.get(ware, 0)
    if it.kind in ("weapon", "armour") and living:
        told = [(_against(content, m, ware), m.name) for m in living]
        best = min((word for (word, _), _ in told), key=VERDICTS.index)
        solo = len(living) == 1
        said = "; ".join(text[0].upper() + text[1:] if solo else f"{name}, {text}" for (_, text), name in told)
        return best, said + "."
    if it.effect == "vigour" and living:
        m = living[0]
        left = it.bonus if it.limit == 0 else max(0, it.limit - items.vigour_given(content, growth, m))
        if it.limit:  # (those carried, not drunk yet, will take their share first)
            left = max(0, left - have * it.bonus)
        carried = f" once the {have} you carry {'is' if have == 1 else 'are'} drunk" if have else ""
        return ("" if left else "no use"), f"Elixirs can give you {left} more maximum HP{carried} (of {it.limit})."
    if it.kind == "potion" and it.heal is not None:
        potions = items.carried(content, st.items, "potion")
        return "", f"You carry {have} of these, {potions} healing potions in all."
    return "", f"You carry {have}." if have else ""


@shows(Mode.SHOP)
class ShopScene(GameScene):
    """The merchant's stock with prices: the walking keys choose a ware, Enter (or B, or a click) buys one, i opens
    the inventory (where u wields or wears what was bought), Esc leaves."""

    mode = Mode.SHOP
    keymode = "shop"
    cursor = 0

    def wares(self) -> list[str]:
        """What the merchant opened its shop with (a ware sold out stays on the list, so the cursor stays on it)."""
        return list(self.session.game.state.wares)

    def panel_rect(self, layout: Layout) -> Rect | None:
        return layout.panel(self.panel_right())

    def buy(self, ware: int) -> Transition | None:
        """Buy ``ware``; one that costs more than :data:`DEAR` of the purse asks first, unless it cannot be bought
        (sold out, too dear: the engine says why at once, never behind a confirmation)."""
        wares = self.wares()
        if not wares:
            return None
        self.cursor = ware % len(wares)
        it = self.session.content.items[wares[self.cursor]]
        number = items.item_number(self.session.content, wares[self.cursor])
        gold, price = self.session.game.state.gold, it.price or 0
        stock = self.session.game.state.wares.get(wares[self.cursor], 0)
        if not (stock and price <= gold and price * DEAR > gold):
            return self.act(Buy(number))  # (one the party cannot buy: the engine says why)
        ask = f"The {it.name} costs {price} gold: more than a third of your {gold}."
        options = [("", f"Buy it ({gold - price} gold left)"), ("", "Keep the gold")]
        return Push(ChoiceScene("Buy?", [ask], options, lambda i: self.act(Buy(number)) if i == 0 else None))

    def handlers(self) -> dict[str, Handler]:
        def move(key: str) -> Transition | None:
            self.cursor = (self.cursor + keymap.list_step(key)) % max(1, len(self.wares()))
            return None

        return {
            "cursor": move,
            "buy": lambda _k: self.buy(self.cursor),
            "inventory": lambda _k: Push(InventoryScene(self.session, self.drink, self.use_menu, self.panel_rect)),
            "log": lambda _k: Push(LogScene(self.session)),
            "help": lambda _k: Push(HelpScene()),
            "leave": self.taker(LeaveShop()),
        }

    def on_click(self, event: tcod.event.MouseButtonDown) -> Transition | None:
        what = self.buttons.at(int(event.position[0]), int(event.position[1]))
        if event.button == tcod.event.MouseButton.LEFT and isinstance(what, int):
            return self.buy(what)
        return None

    def on_draw(self, console: tcod.console.Console) -> None:
        game = self.session.game
        st = game.state
        _, r = self.draw_world(console)
        assert r is not None
        x, w, bottom = r.x, r.w, r.y + r.h - 1
        render.panel(console, r.x, r.y, r.w, r.h, "The merchant")
        self.draw_hover_line(console, r)
        y = r.y + 2
        y += render.put_lines(console, x + 2, y, w - 4, [(f"You have {st.gold} gold.", render.GOLD)])
        y += 1
        wares = self.wares()
        hint = [("Enter: buy  i: pack  Esc: leave", DIM)]
        refusal = self.refusal_rows(w - 4)
        about = ""
        if wares:
            ware = wares[self.cursor % len(wares)]
            said = compare(game.content, st, game.rs.growth, ware)[1]
            left = st.wares.get(ware, 0)
            has = (
                f"The merchant has {left}."
                if left > 1
                else "The merchant has only this one."
                if left
                else "The merchant has none left."
            )
            about = game.content.items[ware].description + (f" {said}" if said else "") + f" {has}"
        # the list, the ware's whole description, the hint and a refusal inside the frame: on a short screen a
        # window of the list around the cursor, the rest counted
        room = max(3, bottom - y - (1 + len(render.wrap(about, w - 4)) + 1 + len(hint) + refusal))
        first, last = 0, len(wares)
        if len(wares) > room:
            first = max(0, min(len(wares) - (room - 1), self.cursor - (room - 1) // 2))
            last = first + room - 1
            if first > 0 and last < len(wares):  # hidden above and below: a line for each
                first += int(self.cursor >= last - 1)
                last = first + room - 2
        if first:
            render.put_text(console, x + 4, y, f"... {first} more above (walking keys)", DIM, width=w - 6)
            y += 1
        for i in range(first, last):
            it = game.content.items[wares[i]]
            price = it.price or 0
            sel = i == self.cursor
            if sel:
                console.draw_rect(x + 1, y, w - 2, 1, ord(" "), bg=render.SELECT_BG)
            left = st.wares.get(wares[i], 0)
            colour = render.hex_rgb(it.colour) if price <= st.gold and left else DIM
            tag = compare(game.content, st, game.rs.growth, wares[i])[0]
            label = f"{'>' if sel else ' '} {it.glyph} {it.name}" + (f" ({tag})" if tag else "")
            render.put_text(console, x + 2, y, label, colour, render.SELECT_BG if sel else None, width=w - 11)
            told = f"{price:>4} g" if left else "sold"
            render.put_text(console, x + w - 8, y, f"{told:>6}", KEY if sel else TEXT if left else DIM)
            self.buttons.add(x + 1, y, w - 2, i)
            y += 1
        if last < len(wares):
            more = f"... {len(wares) - last} more below (walking keys)"
            render.put_text(console, x + 4, y, more, DIM, width=w - 6)
            y += 1
        y += 1
        if about:
            y += render.put_lines(console, x + 2, y, w - 4, [(about, DIM)]) + 1
        y += render.put_lines(console, x + 2, y, w - 4, hint) + 1
        y += self.draw_refusal(console, x + 2, y, w - 4)
        self.draw_panel_events(console, x + 2, y, w - 4, bottom - y)
