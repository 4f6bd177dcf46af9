"""Overlays drawn over the scene below: help, prompts, choosers, the full log, the inventory."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import tcod.console
import tcod.event
from tcod.event import KeySym

from undercroft.narrate import Entry, Level, plural
from undercroft.rules import formulas
from undercroft.ui import keys, render
from undercroft.ui.render import DIM, KEY, TEXT, TITLE
from undercroft.ui.scenes.base import Pop, Scene, Transition
from undercroft.ui.session import Session

HELP: list[tuple[str, list[tuple[str, str]]]] = [
    ("Exploring", [
        ("arrows, numpad, 1-9, vi", "walk (eight directions; the vi-keys: hjkl yubn)"),
        (">", "walk to the known stairs; on them, go down (last level: out, and win)"),
        ("x", "explore: walk to the nearest place not yet seen"),
        ("click", "walk to a known tile (any key or monster stops a walk)"),
        ("z  .  5", "rest a turn (wanderers may come)"),
        ("f", "attack a monster here (even one under terms)"),
        ("p", "pursue a monster that has just gone its way"),
        ("q", "drink a healing potion"),
        ("i", "inventory"),
        (";", "look (also in an encounter, a fight, a chase): a cursor says what is there; Tab: next creature"),
        ("L", "the whole log (Shift+L, on every screen); in it, a: the rolls too, then everything"),
        ("?", "this help"),
        ("Esc", "back to the title (the game is kept)"),
    ]),
    ("An encounter", [
        ("f  t  b", "fight, talk, bribe (once it is in sight; a bribe after a failed talk: you type the gold)"),
        ("r  w", "run through a door (several open: choose which, r again for the way you came in), wait a round"),
        ("d  g  o", "drop food, drop treasure, burning oil"),
        ("q  L", "drink, the log; arrows/numpad: walk on or away"),
        (">", "on the stairs, if it lets you go: down (last level: out)"),
    ]),
    ("A fight", [
        ("up/down, Tab, 1-9", "choose the target"),
        ("a  f  Enter", "attack it"),
        ("q  o  w", "drink, throw oil at it, hold back"),
        ("r", "run through a door, as in an encounter"),
    ]),
    ("Pursued", [
        ("r", "keep running"),
        ("d  g  o", "drop food, drop treasure, throw oil behind you"),
        ("f  q", "turn and fight, drink"),
    ]),
    ("Giving chase", [
        ("r  w  q", "run on after it, let it go, drink"),
    ]),
    ("Anywhere", [
        ("Alt+Enter", "fullscreen on/off"),
        ("closing the window", "keeps the game: every action is already saved"),
    ]),
]


class HelpScene(Scene):
    """Every key, by scene. Any key closes it."""

    opaque = True

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if isinstance(event, tcod.event.KeyDown) and event.sym not in _MODIFIER_KEYS:
            return Pop()
        return None

    def on_draw(self, console: tcod.console.Console) -> None:
        render.panel(console, 0, 0, console.width, console.height, "Help")
        y = 2
        col = 30
        for section, rows in HELP:
            render.put_text(console, 2, y, section, TITLE)
            y += 1
            for k, what in rows:
                render.put_text(console, 4, y, k, KEY, width=col - 5)
                y += render.put_lines(console, col, y, console.width - col - 2, [(what, TEXT)])
            y += 1
        render.put_text(console, 2, console.height - 2, "Any key: back. docs/PLAYING.md says more.", DIM)


_MODIFIER_KEYS = {KeySym.LSHIFT, KeySym.RSHIFT, KeySym.LCTRL, KeySym.RCTRL, KeySym.LALT, KeySym.RALT,
                  KeySym.LGUI, KeySym.RGUI}


class PromptScene(Scene):
    """Type a line (a number, a seed); Enter hands it to ``on_done`` (which returns the next transition for the
    scene below), Esc cancels. ``hint`` may describe the text typed so far (for example the odds of a bribe)."""

    opaque = False
    wants_text = True

    def __init__(self, title: str, question: str, on_done: Callable[[str], Transition | None], *,
                 digits_only: bool = False, max_len: int = 20, initial: str = "",
                 hint: Callable[[str], str] | None = None) -> None:
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
        y = 16
        render.panel(console, x, y, w, 8, self.title)
        render.put_text(console, x + 2, y + 2, self.question, TEXT, width=w - 4)
        render.put_text(console, x + 2, y + 3, "> " + self.text + "_", KEY, width=w - 4)
        if self.hint is not None:
            render.put_text(console, x + 2, y + 4, self.hint(self.text), DIM, width=w - 4)
        render.put_text(console, x + 2, y + 6, "Enter: ok   Esc: cancel", DIM)


class MenuScene(Scene):
    """Choose one of a few options by its key (or arrows and Enter); Esc cancels."""

    opaque = False

    def __init__(self, title: str, options: Sequence[tuple[str, str]],
                 on_choose: Callable[[int], Transition | None]) -> None:
        self.title = title
        self.options = list(options)  # (key character, label)
        self.on_choose = on_choose
        self.cursor = 0

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if not isinstance(event, tcod.event.KeyDown):
            return None
        if keys.is_cancel(event):
            return Pop()
        if keys.is_confirm(event):
            return Pop(then=self.on_choose(self.cursor))
        if event.sym in (KeySym.UP, KeySym.KP_8):
            self.cursor = (self.cursor - 1) % len(self.options)
        elif event.sym in (KeySym.DOWN, KeySym.KP_2, KeySym.TAB):
            self.cursor = (self.cursor + 1) % len(self.options)
        else:
            c = keys.char(event)
            for i, (k, _) in enumerate(self.options):
                if c == k:
                    return Pop(then=self.on_choose(i))
        return None

    def on_draw(self, console: tcod.console.Console) -> None:
        w = max(30, max(len(label) for _, label in self.options) + 10)
        h = len(self.options) + 4
        x = (console.width - w) // 2
        y = 14
        render.panel(console, x, y, w, h, self.title)
        for i, (k, label) in enumerate(self.options):
            bg = render.SELECT_BG if i == self.cursor else None
            if bg is not None:
                console.draw_rect(x + 1, y + 2 + i, w - 2, 1, ord(" "), bg=bg)
            render.choice(console, x + 2, y + 2 + i, k, label)


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
                colour = render.dim(colour, 0.75 if lv == "detail" else 0.55)
            out.extend((part, colour) for part in render.wrap(text, width))
        self._cache = (key, out, len(entries))
        return out, len(entries)

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if not isinstance(event, tcod.event.KeyDown):
            return None
        step = {KeySym.UP: 1, KeySym.DOWN: -1, KeySym.PAGEUP: 20, KeySym.PAGEDOWN: -20, KeySym.KP_8: 1,
                KeySym.KP_2: -1, KeySym.K: 1, KeySym.J: -1}.get(event.sym)
        if step is not None:
            self.offset = max(0, self.offset + step)
        elif event.sym == KeySym.HOME:
            self.offset = 10**9
        elif event.sym == KeySym.END:
            self.offset = 0
        elif event.sym == KeySym.TAB or keys.char(event) in ("a", "A"):
            self.level = (self.level + 1) % len(LOG_LEVELS)
            self.offset = 0
        elif keys.is_cancel(event) or keys.char(event) in ("l", "L", "q") or keys.is_confirm(event):
            return Pop()
        return None

    def on_draw(self, console: tcod.console.Console) -> None:
        render.panel(console, 0, 0, console.width, console.height, f"Message log: {LOG_LEVELS[self.level][1]}")
        rows, n = self._rows(console.width - 4)
        view = console.height - 5
        self.offset = min(self.offset, max(0, len(rows) - view))
        end = len(rows) - self.offset
        for i, (text, colour) in enumerate(rows[max(0, end - view):end]):
            render.put_text(console, 2, 1 + i, text, colour)
        more = ("a: back to what happened" if self.level == len(LOG_LEVELS) - 1
                else "a: more (the rolls, then the rules' own working)")
        render.put_text(console, 2, console.height - 3, f"{plural(n, 'message')}. {more}.", DIM)
        render.put_text(console, 2, console.height - 2,
                        "Up/Down, PgUp/PgDn, Home/End scroll; Esc closes.", DIM)


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
            dmg = formulas.damage(formulas.damage_bonus(m.might, m.weapon, tired, g.rules.fatigue), False,
                                  g.rules.combat, g.rules.fatigue)
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
        h = rows + 5
        render.panel(console, x, 4, w, h, "Inventory")
        render.put_lines(console, x + 2, 6, w - 4, lines)
        render.put_text(console, x + 2, 4 + h - 2, "q: drink a potion   Esc: close", DIM)
