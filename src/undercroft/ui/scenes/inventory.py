"""The inventory over the scene below: what the party carries."""

from __future__ import annotations

from collections.abc import Callable

import tcod.console
import tcod.event

from undercroft.narrate import time_left
from undercroft.rules import formulas, items
from undercroft.ui import keymap, keys, render
from undercroft.ui.layout import Layout, Rect
from undercroft.ui.render import DIM, TEXT
from undercroft.ui.scenes.base import Pop, Scene, Transition
from undercroft.ui.session import Session

WIDE = 60  # the inventory's least width


class InventoryScene(Scene):
    """What the party carries; ``q`` drinks a healing potion, ``u`` uses a thing (the scene below does it)."""

    opaque = False

    def __init__(
        self,
        session: Session,
        drink: Callable[[], Transition | None],
        use: Callable[[], Transition | None],
        panel: Callable[[Layout], Rect | None] | None = None,
    ) -> None:
        self.session = session
        self.drink = drink
        self.use = use
        self.panel = panel  # where the scene below has its side panel: the inventory stands beside it, or over all
        self.page = 0  # the page shown when the pack has more than the screen's height (Space: the next)

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if not isinstance(event, tcod.event.KeyDown):
            return None
        if keys.char(event) == "q":
            return Pop(then=self.drink())
        if keys.char(event) == "u":
            return Pop(then=self.use())
        if keys.char(event) == " ":
            self.page += 1  # (on_draw goes back to the first after the last)
            return None
        if keys.is_cancel(event) or keys.char(event) == "i" or keys.is_confirm(event):
            return Pop()
        return None

    def on_draw(self, console: tcod.console.Console) -> None:
        g = self.session.game
        st = g.state
        layout = Layout.of(console.width, console.height)
        below = self.panel(layout) if self.panel is not None else None
        x0, x1 = layout.clear(below)  # the columns the panel below leaves
        if x1 - x0 >= WIDE + 2:  # room beside it: there, centred
            w = min(76, x1 - x0 - 2)
            x = x0 + (x1 - x0 - w) // 2
        elif below is not None:  # no room beside a panel: over the whole screen, never over a part of its frame
            x, w = 0, console.width
        else:
            w = max(WIDE, min(76, console.width - 4))
            x = (console.width - w) // 2
        lines: list[tuple[str, render.RGB]] = [(f"Gold: {st.gold}", render.GOLD)]
        tired = formulas.exhausted_counts(st.exhausted, g.proc.fatigue)
        for m in st.party:
            dmg = formulas.damage(
                formulas.damage_bonus(m.might, m.weapon, tired, g.rules.fatigue), False, g.rules.combat, g.rules.fatigue
            )
            hit = formulas.to_hit_bonus(m.might, tired, g.rules.fatigue, m.to_hit)
            weapon = g.content.items[m.wielded].name if m.wielded else "weapon"
            armour = g.content.items[m.armour].name if m.armour else "no armour"
            lines.append((f"{m.name}, level {m.level} (renown {m.renown}): HP {m.hp}/{m.max_hp}", TEXT))
            lines.append((f"   {weapon}: {hit:+d} to hit, damage {dmg}; {armour}", TEXT))
            lines.append((f"   MIGHT {m.might}, AGILITY {m.agility}, defense {m.defense}, speed {m.speed} ft", DIM))
        for potion, until in sorted(st.effects.items()):
            it = g.content.items[potion]
            left = time_left(until - st.rounds, g.content.rules.time)
            lines.append((f"{it.name}: {it.effect} +{it.bonus} for {left}", render.GOLD))
        lines.append(("", TEXT))
        if not st.items:
            lines.append(("Your pack is empty.", DIM))
        every = items.catalogue(g.content)
        for item_id, n in sorted(st.items.items()):
            item = g.content.items[item_id]
            letter = keymap.item_letter(every, item_id) or " "  # its letter for the whole game (as in `u`'s list)
            lines.append((f"{letter} - {item.glyph} {item.name} x{n}", render.hex_rgb(item.colour)))
            lines.append((f"   {item.description}", DIM))
        rows = sum(len(render.wrap(t, w - 4)) for t, _ in lines)
        h = min(rows + 5, console.height)
        y = max(0, min(4, (console.height - h) // 2))
        if below is not None and x == 0:
            y, h = 0, console.height
        render.panel(console, x, y, w, h, "Inventory")
        pages = render.paged(lines, w - 4, max(1, h - 5))
        page = self.page = self.page % len(pages)
        render.put_lines(console, x + 2, y + 2, w - 4, pages[page])
        hint = "q: drink a healing potion   u: use a thing   Esc: close"
        if len(pages) > 1:
            hint = f"Space: more ({page + 1}/{len(pages)})   q: drink   u: use   Esc: close"
        render.put_text(console, x + 2, y + h - 2, hint, DIM, width=w - 4)
