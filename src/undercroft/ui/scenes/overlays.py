"""Overlays drawn over the scene below: help, prompts, choosers, the full log, the inventory."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import tcod.console
import tcod.event
from tcod.event import KeySym

from undercroft.narrate import Entry, Level, plural
from undercroft.rules import formulas
from undercroft.ui import keymap, keys, palette, render
from undercroft.ui.render import DIM, KEY, RGB, TEXT, TITLE
from undercroft.ui.scenes.base import Buttons, Pop, Scene, Transition
from undercroft.ui.session import Session


class HelpScene(Scene):
    """Every key, by screen, made from the keymap (:mod:`undercroft.ui.keymap`). The walking keys and the mouse
    wheel scroll it when it is longer than the screen; any other key closes it."""

    opaque = True

    def __init__(self) -> None:
        self.offset = 0  # rows scrolled down
        self.page = 1  # rows shown, as last drawn

    def lines(self, width: int) -> list[tuple[int, str, RGB]]:
        """The help as rows to draw: (indent, text, colour); the keys in a column, what they do wrapped beside."""
        col = 26
        out: list[tuple[int, str, RGB]] = []
        for section, rows in keymap.help_sections():
            out.append((0, section, TITLE))
            for k, what in rows:
                parts = render.wrap(what, width - col)
                kk = k if len(k) <= col - 3 else k[: col - 4] + "~"
                out.append((2, f"{kk:<{col - 2}}" + (parts[0] if parts else ""), KEY))
                out.extend((col, part, TEXT) for part in parts[1:])
            out.append((0, "", TEXT))
        return out

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if isinstance(event, tcod.event.MouseWheel):
            self.offset = max(0, self.offset - 3 * int(event.y))
            return None
        if isinstance(event, tcod.event.KeyDown) and event.sym not in _MODIFIER_KEYS:
            name = keymap.key_name(event)
            d = keymap.direction(name) if name is not None else None
            if d is not None and d[1] != 0:
                step = self.page if name in ("PgUp", "PgDn") else 1
                self.offset = max(0, self.offset + d[1] * step)
                return None
            return Pop()
        return None

    def on_draw(self, console: tcod.console.Console) -> None:
        render.panel(console, 0, 0, console.width, console.height, "Help")
        rows = self.lines(console.width - 6)
        self.page = max(1, console.height - 4)
        self.offset = min(self.offset, max(0, len(rows) - self.page))
        for i, (indent, text, colour) in enumerate(rows[self.offset : self.offset + self.page]):
            if colour == KEY and indent == 2:  # the keys bright, what they do in the text colour
                render.put_text(console, 2 + indent, 1 + i, text[:24], KEY)
                render.put_text(console, 2 + 26, 1 + i, text[24:], TEXT, width=console.width - 30)
            else:
                render.put_text(console, 2 + indent, 1 + i, text, colour, width=console.width - 4 - indent)
        more = len(rows) > self.page
        hint = "Any key: back. docs/PLAYING.md says more."
        if more:
            hint = "Up/Down, PgUp/PgDn, wheel: scroll. " + hint
        render.put_text(console, 2, console.height - 2, hint, DIM, width=console.width - 4)


_MODIFIER_KEYS = {
    KeySym.LSHIFT,
    KeySym.RSHIFT,
    KeySym.LCTRL,
    KeySym.RCTRL,
    KeySym.LALT,
    KeySym.RALT,
    KeySym.LGUI,
    KeySym.RGUI,
}


class PromptScene(Scene):
    """Type a line (a number, a seed); Enter hands it to ``on_done`` (which returns the next transition for the
    scene below), Esc cancels. ``hint`` may describe the text typed so far (for example the odds of a bribe)."""

    opaque = False
    wants_text = True

    def __init__(
        self,
        title: str,
        question: str,
        on_done: Callable[[str], Transition | None],
        *,
        digits_only: bool = False,
        max_len: int = 20,
        initial: str = "",
        hint: Callable[[str], str] | None = None,
    ) -> None:
        self.title = title
        self.question = question
        self.on_done = on_done
        self.digits_only = digits_only
        self.max_len = max_len
        self.text = initial
        self.hint = hint

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if isinstance(event, tcod.event.TextInput):
            for c in event.text:
                if len(self.text) >= self.max_len or (self.digits_only and not c.isdigit()) or not c.isprintable():
                    continue
                self.text += c
        elif isinstance(event, tcod.event.KeyDown):
            if keys.is_cancel(event):
                return Pop()
            if keys.is_confirm(event):
                if not self.text.strip():
                    return None
                return Pop(then=self.on_done(self.text.strip()))
            if event.sym == KeySym.BACKSPACE:
                self.text = self.text[:-1]
        return None

    def on_draw(self, console: tcod.console.Console) -> None:
        w = 50
        x = (console.width - w) // 2
        y = max(0, min(16, (console.height - 8) // 2))
        render.panel(console, x, y, w, 8, self.title)
        render.put_text(console, x + 2, y + 2, self.question, TEXT, width=w - 4)
        render.put_text(console, x + 2, y + 3, "> " + self.text + "_", KEY, width=w - 4)
        if self.hint is not None:
            render.put_text(console, x + 2, y + 4, self.hint(self.text), DIM, width=w - 4)
        render.put_text(console, x + 2, y + 6, "Enter: ok   Esc: cancel", DIM)


class MenuScene(Scene):
    """Choose one of a few options: the walking keys move the choice, Enter takes it, a click on an option takes
    it, Esc cancels. An option's own key (a letter, never a walking key) takes it too."""

    opaque = False
    keymode = "menu"

    def __init__(
        self, title: str, options: Sequence[tuple[str, str]], on_choose: Callable[[int], Transition | None]
    ) -> None:
        self.title = title
        self.options = list(options)  # (key character or "", label)
        for k, _ in self.options:
            if k and k in keymap.WALK:
                raise ValueError(f"menu key {k!r} is a walking key")
        self.on_choose = on_choose
        self.cursor = 0
        self.buttons = Buttons()

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if isinstance(event, (tcod.event.MouseMotion, tcod.event.MouseButtonDown)):
            what = self.buttons.at(int(event.position[0]), int(event.position[1]))
            if not isinstance(what, int):
                return None
            self.cursor = what
            if isinstance(event, tcod.event.MouseButtonDown) and event.button == tcod.event.MouseButton.LEFT:
                return Pop(then=self.on_choose(what))
            return None
        if not isinstance(event, tcod.event.KeyDown):
            return None
        hit = keymap.lookup(self.keymode, event)
        if hit is not None:
            command, name = hit
            if command == "close":
                return Pop()
            if command == "choose":
                return Pop(then=self.on_choose(self.cursor))
            self.cursor = (self.cursor + keymap.list_step(name)) % len(self.options)
            return None
        c = keys.char(event)
        for i, (k, _) in enumerate(self.options):
            if k and c == k:
                return Pop(then=self.on_choose(i))
        return None

    def on_draw(self, console: tcod.console.Console) -> None:
        w = max(30, max(len(label) for _, label in self.options) + 10)
        h = len(self.options) + 5
        x = (console.width - w) // 2
        y = max(0, min(14, (console.height - h) // 2))
        self.buttons.clear()
        render.panel(console, x, y, w, h, self.title)
        for i, (k, label) in enumerate(self.options):
            sel = i == self.cursor
            if sel:
                console.draw_rect(x + 1, y + 2 + i, w - 2, 1, ord(" "), bg=render.SELECT_BG)
            if k:
                render.choice(console, x + 2, y + 2 + i, k, label)
            else:
                render.put_text(
                    console,
                    x + 2,
                    y + 2 + i,
                    ("> " if sel else "  ") + label,
                    KEY if sel else TEXT,
                    render.SELECT_BG if sel else None,
                    width=w - 4,
                )
            self.buttons.add(x + 1, y + 2 + i, w - 2, i)
        render.put_text(console, x + 2, y + h - 2, "Up/Down, Enter or a click; Esc: cancel", DIM, width=w - 4)


# The full log's levels, from the quiet default to everything (``a`` or Tab goes to the next).
LOG_LEVELS: list[tuple[Level, str]] = [
    ("player", "what happened"),
    ("detail", "what happened and the rolls behind it"),
    ("internal", "everything, the rules' own working too"),
]


class LogScene(Scene):
    """The whole message log, newest at the bottom; scroll with arrows, PgUp/PgDn, Home/End. ``a`` (or Tab) shows
    more: the rolls a player may want (surprise, reaction, distance), then the rules' own working (the monster
    checks that found nothing, the table cells, where a group was placed); the lines below the player's drawn
    dimmer."""

    opaque = True

    def __init__(self, session: Session) -> None:
        self.session = session
        self.offset = 0  # rows scrolled up from the bottom
        self.level = 0  # index into LOG_LEVELS
        self._cache: tuple[tuple[int, int, int, int], list[tuple[str, render.RGB]], int] | None = None

    def _rows(self, width: int) -> tuple[list[tuple[str, render.RGB]], int]:
        """The wrapped rows of the log at the chosen level, and how many messages they are."""
        log = self.session.log
        key = (self.level, len(log.full), len(log.lines), width)
        if self._cache is not None and self._cache[0] == key:
            return self._cache[1], self._cache[2]
        level = LOG_LEVELS[self.level][0]
        entries = log.view(level) if level != "player" else [Entry(t, k, "player") for t, k in log.lines]
        out: list[tuple[str, render.RGB]] = []
        for text, kind, lv in entries:
            colour = render.KIND_COLOURS.get(kind, TEXT)
            if lv != "player":
                colour = palette.fade(colour, palette.FADE_DETAIL if lv == "detail" else palette.FADE_INTERNAL)
            out.extend((part, colour) for part in render.wrap(text, width))
        self._cache = (key, out, len(entries))
        return out, len(entries)

    keymode = "log"

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if isinstance(event, tcod.event.MouseWheel):
            self.offset = max(0, self.offset + 3 * int(event.y))
            return None
        if not isinstance(event, tcod.event.KeyDown):
            return None
        hit = keymap.lookup(self.keymode, event)
        if hit is None:
            return None
        command, name = hit
        if command == "close":
            return Pop()
        if command == "more":
            self.level = (self.level + 1) % len(LOG_LEVELS)
            self.offset = 0
        elif name == "Home":
            self.offset = 10**9
        elif name == "End":
            self.offset = 0
        else:
            dy = keymap.WALK[name][1]
            self.offset = max(0, self.offset - dy * (20 if name in ("PgUp", "PgDn") else 1))
        return None

    def on_draw(self, console: tcod.console.Console) -> None:
        render.panel(console, 0, 0, console.width, console.height, f"Message log: {LOG_LEVELS[self.level][1]}")
        rows, n = self._rows(console.width - 4)
        view = console.height - 5
        self.offset = min(self.offset, max(0, len(rows) - view))
        end = len(rows) - self.offset
        for i, (text, colour) in enumerate(rows[max(0, end - view) : end]):
            render.put_text(console, 2, 1 + i, text, colour)
        more = (
            "a: back to what happened"
            if self.level == len(LOG_LEVELS) - 1
            else "a: more (the rolls, then the rules' own working)"
        )
        render.put_text(console, 2, console.height - 3, f"{plural(n, 'message')}. {more}.", DIM)
        render.put_text(
            console, 2, console.height - 2, "Up/Down, PgUp/PgDn, Home/End, the wheel scroll; Esc closes.", DIM
        )


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
