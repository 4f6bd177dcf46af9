"""The inventory over the scene below: what the party carries."""

from __future__ import annotations

from collections.abc import Callable

import tcod.console
import tcod.event

from undercroft.rules import formulas
from undercroft.ui import keys, render
from undercroft.ui.render import DIM, TEXT
from undercroft.ui.scenes.base import Pop, Scene, Transition
from undercroft.ui.session import Session


class InventoryScene(Scene):
    """What the party carries; ``q`` drinks a potion (the scene below does it)."""

    opaque = False

    def __init__(self, session: Session, drink: Callable[[], Transition | None]) -> None:
        self.session = session
        self.drink = drink

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if not isinstance(event, tcod.event.KeyDown):
            return None
        if keys.char(event) == "q":
            return Pop(then=self.drink())
        if keys.is_cancel(event) or keys.char(event) == "i" or keys.is_confirm(event):
            return Pop()
        return None

    def on_draw(self, console: tcod.console.Console) -> None:
        g = self.session.game
        st = g.state
        w = 60
        x = (console.width - w) // 2
        lines: list[tuple[str, render.RGB]] = [(f"Gold: {st.gold}", render.GOLD)]
        tired = formulas.exhausted_counts(st.exhausted, g.proc.fatigue)
        for m in st.party:
            dmg = formulas.damage(
                formulas.damage_bonus(m.might, m.weapon, tired, g.rules.fatigue), False, g.rules.combat, g.rules.fatigue
            )
            lines.append((f"{m.name}: HP {m.hp}/{m.max_hp}, damage {dmg} (weapon +{m.weapon})", TEXT))
            lines.append((f"   MIGHT {m.might}, AGILITY {m.agility}, defense {m.defense}", DIM))
        lines.append(("", TEXT))
        if not st.items:
            lines.append(("Your pack is empty.", DIM))
        for item_id, n in sorted(st.items.items()):
            item = g.content.items[item_id]
            lines.append((f"{item.glyph} {item.name} x{n}", render.hex_rgb(item.colour)))
            lines.append((f"   {item.description}", DIM))
        rows = sum(len(render.wrap(t, w - 4)) for t, _ in lines)
        h = min(rows + 5, console.height)
        y = max(0, min(4, (console.height - h) // 2))
        render.panel(console, x, y, w, h, "Inventory")
        render.put_lines(console, x + 2, y + 2, w - 4, lines, max_rows=h - 5, keep_last=False)
        render.put_text(console, x + 2, y + h - 2, "q: drink a potion   Esc: close", DIM)
