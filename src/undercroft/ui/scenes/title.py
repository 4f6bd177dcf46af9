"""The title screen: new game (a random seed shown, or one typed in), every unfinished game to continue or abandon,
the past games, ruleset, help, quit.

A game open in another window (its save locked, see :mod:`undercroft.record.saves`) is listed as such: Continue and
Abandon are refused and it may be watched instead. A save made with other rules data or other versions is not
continued silently: Continue names the differences and offers a new branch (a new file) or watching it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from pathlib import Path

import tcod.console
import tcod.event

from undercroft import record
from undercroft.content import Content
from undercroft.record import saves as saves_mod
from undercroft.rules.rng import parse_seed
from undercroft.ui import keys, render
from undercroft.ui.render import DIM, FAINT, TITLE
from undercroft.ui.scenes.base import Buttons, Exit, Push, Reset, Scene, Transition
from undercroft.ui.scenes.choice import ChoiceScene
from undercroft.ui.scenes.game import game_stack
from undercroft.ui.scenes.help import HelpScene
from undercroft.ui.scenes.menu import MenuScene
from undercroft.ui.scenes.past_games import PastGamesScene
from undercroft.ui.scenes.prompt import PromptScene
from undercroft.ui.scenes.watch import WatchScene
from undercroft.ui.session import Session, save_differences

SCAN_S = 0.25  # seconds of replaying saves per listing on the title (the rest goes on between frames)
TICK_S = 0.1  # seconds of replaying per frame after that (the title answers keys meanwhile)
READING = "Reading the saves:"

_LOGO = [
    r" _   _           _                           __ _   ",
    r"| | | |_ __   __| | ___ _ __ ___ _ __ ___   / _| |_ ",
    r"| | | | '_ \ / _` |/ _ \ '__/ __| '__/ _ \ | |_| __|",
    r"| |_| | | | | (_| |  __/ | | (__| | | (_) ||  _| |_ ",
    r" \___/|_| |_|\__,_|\___|_|  \___|_|  \___/ |_|  \__|",
]


NONE_FREE = "Each unfinished game is open in another window: Up or Down chooses one to watch."


def random_seed() -> int:
    """A fresh seed for the title screen, from the system's entropy (never a gameplay stream)."""
    return random.SystemRandom().randrange(1, 10**9)


class TitleScene(Scene):
    LIST_Y = 27  # first row of the unfinished games
    LIST_ROWS = 8

    def __init__(
        self,
        content: Content,
        *,
        ruleset: str = "undercroft",
        seed: int | None = None,
        saves: Path | None = None,
        left: Session | None = None,
        daily: str = "",
    ) -> None:
        self.content = content
        self.daily = daily  # the date of the day's game (``play --daily``): its seed is marked daily when played
        self.ruleset = ruleset if ruleset in content.rulesets else next(iter(content.rulesets))
        self.seed = seed if seed is not None else random_seed()
        self.seed_typed = seed is not None
        self.seed_text = str(self.seed)
        self.saves = saves
        self.message = ""
        self.notes: list[str] = []
        self.waiting = 0  # unfinished games not replayed yet (a first listing of a large folder goes on between frames)
        self.checker: saves_mod.Checker | None = None
        self.games: list[saves_mod.GameInfo] = []
        self.cursor: int | None = 0  # the chosen game of the list; None: none (each is open in another window)
        self.confirm_abandon: Path | None = None
        self.buttons = Buttons()
        if left is not None:  # the game just left (Esc, or its end screen): closed, its lock let go
            left.close()
            if left.unsaved:
                self.message = left.unsaved + "."
        self._scan()
        self._offer_copies()

    @classmethod
    def after(cls, left: Session) -> TitleScene:
        """The title screen after the game ``left`` (Esc, or its end screen), on that game's ruleset: the home of
        every scene stack the loop runs."""
        return cls(left.content, ruleset=left.game.ruleset_id, left=left)

    def _scan(self) -> None:
        """Find every game that can be continued (newest first), replaying for a moment at most: what is left is
        replayed a slice at a time between frames (:meth:`on_tick`), how many are left said at the bottom."""
        self.notes = []
        work = saves_mod.Pass(deadline=time.monotonic() + SCAN_S)
        try:
            self.games = saves_mod.unfinished(self.saves, self.content, self.notes, work)
        except OSError as exc:
            self.games = []
            self.notes.append(f"cannot read the saves folder: {exc.strerror or exc}")
        self.waiting = work.waiting
        if work.waiting:
            self.notes.insert(0, f"{READING} {work.waiting:,} still to replay...")
        at = max(0, min(self.cursor or 0, len(self.games) - 1))
        if self.games and self.games[at].open_pid is not None:  # never chosen for you: one open elsewhere
            self.cursor = next((i for i, g in enumerate(self.games) if g.open_pid is None), None)
        else:
            self.cursor = at

    def tick_interval(self) -> float | None:
        return 0.01 if self.waiting else None

    def on_tick(self) -> Transition | None:
        """Replay a slice of the unfinished games the listing left unchecked (the first rows first)."""
        if not self.waiting:
            return None
        checker = self.checker = self.checker or saves_mod.Checker(self.saves, self.content)
        games = [g for g in checker.slice(self.games, TICK_S) if g.result == "playing"]  # (not over after all)
        self.games = games
        self.waiting = sum(not g.checked for g in games)
        if self.cursor is not None and self.cursor >= len(games):
            self.cursor = len(games) - 1 if games else 0
        if self.notes and self.notes[0].startswith(READING):
            self.notes.pop(0)
        if self.waiting:
            self.notes.insert(0, f"{READING} {self.waiting:,} still to replay...")
        else:
            checker.close()
            self.checker = None
        return None

    def _offer_copies(self) -> None:
        """Name every copy a game wrote to the temporary folder when its disk was full, that holds actions its save
        lacks (at every start, until it is copied over its save or removed)."""
        copies = saves_mod.emergency_copies(self.saves)
        if len(copies) > 1 or (copies and str(copies[0]) not in self.message):
            where = ", ".join(str(p) for p in copies)
            said = f"Actions your saves lack are in {where} (copy one over its save to continue it)."
            self.message = f"{self.message} {said}".strip()

    @property
    def chosen(self) -> saves_mod.GameInfo | None:
        """The unfinished game chosen in the list (None: none, or each is open in another window)."""
        return None if self.cursor is None or not self.games else self.games[self.cursor]

    def describe(self, g: saves_mod.GameInfo, room: int = 1 << 16) -> str:
        """An unfinished game in a row of ``room`` columns: the whole, else in short forms ("T400, L2"), else
        without its HP, else its ruleset and seed alone (what it is said first, never cut at the edge)."""
        title = saves_mod.ruleset_title(self.content, g.ruleset) + g.other_rules
        what = f"{title}, seed {g.seed_text}, turn {g.turns}"
        if g.open_pid is not None:
            return next((t for t in (f"{saves_mod.open_elsewhere(g.open_pid)}: {what}", what) if len(t) <= room), what)
        level = f", level {g.level}" if g.level is not None else ""
        lv = f", L{g.level}" if g.level is not None else ""
        hp = f", HP {g.hp}" if g.hp else ""
        short = f"{title}, seed {g.seed_text}, T{g.turns}{lv}"
        variants = (f"{what}{level}{hp}", f"{short}{hp}", f"{short}{hp.split(' (')[0]}", short)
        return next((t for t in variants if len(t) <= room), f"{title}, seed {g.seed_text}")

    # --- actions ---------------------------------------------------------------------------------------------

    def start(self, seed: int) -> Transition | None:
        try:
            daily = self.daily if self.daily and seed == parse_seed(saves_mod.daily_word(self.daily)) else ""
            words = self.seed_text if self.seed_typed and self.seed_text != str(seed) else ""
            session = Session.new(self.content, self.ruleset, seed, daily=daily, seed_text=words)
        except OSError as exc:
            self.message = f"Cannot create the save file: {exc.strerror or exc}"
            return None
        if words and session.path is not None:
            saves_mod.remember_seed(session.path, self.seed_text)
        return self._enter(session)

    def resume(self, index: int | None = None) -> Transition | None:
        if index is None and self.cursor is None and self.games:
            self._scan()  # asked again: another window may have closed since (its game is then chosen, not begun)
            self.message = "" if self.cursor is not None else NONE_FREE
            return None
        index = self.cursor if index is None else index
        if index is None or not self.games:
            self.message = "There is no unfinished game to continue."
            return None
        g = self.games[index]
        g.open_pid = saves_mod.holder(g.path)  # asked now: the other window may have closed since the list was made
        if g.open_pid is not None:
            return self.refuse_open(g.path, g.open_pid)
        header = saves_mod.header_of(g.path)  # (a file that cannot be read: continuing it says why)
        if header is not None:
            try:
                differences = save_differences(self.content, header)
            except Exception as exc:  # a check that fails must not keep the player from the title
                differences = [f"the check failed: {type(exc).__name__}: {exc}"]
            if differences:
                return self.offer_differences(g.path, differences)
        return self._resume(g)

    def _resume(self, g: saves_mod.GameInfo) -> Transition | None:
        try:
            session = Session.resume(self.content, g.path)
        except saves_mod.SaveLocked as exc:
            g.open_pid = exc.pid
            return self.refuse_open(g.path, exc.pid)
        except record.Desync as exc:  # the same setup, but it does not replay: never continued (nor written to)
            why = f"it does not replay here from turn {exc.turn} ({exc})"
            return self.offer_differences(g.path, [why], until=max(0, exc.turn - 1))
        except (record.RecordingError, OSError, ValueError, KeyError) as exc:
            self.message = f"Cannot continue {g.path.name}: {exc}"
            return None
        title = saves_mod.ruleset_title(self.content, g.ruleset)
        note = f"Continuing a game of {title} (seed {g.seed_text})"
        if g.ruleset != self.ruleset:
            note += f": its own ruleset, not the {self.content.rulesets[self.ruleset].title} chosen on the title"
        session.log.add(note + ".", "alert")
        return self._enter(session)

    def refuse_open(self, path: Path, pid: int) -> Transition | None:
        """Continue on a game open elsewhere: refused, with the offer to watch it."""
        self.message = f"{path.name} is {saves_mod.open_elsewhere(pid)}: one save, one game."
        return Push(
            ChoiceScene(
                "Open in another window",
                [
                    f"This game is {saves_mod.open_elsewhere(pid)}. It cannot be continued here while it is open "
                    "there: both would write to the same save.",
                    "You may watch it instead (it follows the other window).",
                ],
                [("w", "Watch it"), ("q", "Back to the title")],
                lambda i: self.watch(path) if i == 0 else None,
            )
        )

    def offer_differences(self, path: Path, differences: list[str], until: int | None = None) -> Transition | None:
        """Continue on a save made with other data or versions, or that does not replay (``until``: its last turn
        that does): say what differs, offer a branch (up to that turn) or watching."""
        setup = "was saved with a different setup" if until is None else "cannot be continued"
        self.message = f"{path.name} {setup}: " + "; ".join(differences)
        branch = "Go on as a new branch (a new file; this save is kept as it is)"
        if until is not None:
            branch = f"Go on as a new branch from turn {until}, the last that replays (a new file; this save is kept)"

        def chosen(i: int) -> Transition | None:
            return self.branch(path, until) if i == 0 else self.watch(path) if i == 1 else None

        head, say = (
            "Saved with a different setup",
            ("This save was made with other rules data or versions; continuing it here would not replay the same:"),
        )
        if until is not None:
            head, say = (
                "It does not replay",
                (
                    "This save does not replay here (edited, corrupt, or made by another version of the game): "
                    "continuing it would add to a game whose result could never be verified:"
                ),
            )
        return Push(
            ChoiceScene(
                head,
                [say, *(f"- {d}" for d in differences)],
                [
                    ("g", branch),
                    ("w", "Watch it"),
                    ("q", "Back to the title"),
                ],
                chosen,
            )
        )

    def branch(self, path: Path, until: int | None = None) -> Transition | None:
        try:
            session = Session.branch(self.content, path, until)
        except (record.RecordingError, OSError, ValueError, KeyError) as exc:
            self.message = f"Cannot branch {path.name}: {exc}"
            return None
        except Exception as exc:  # the engine under other data (a crash report is beside the new file)
            self.message = f"Cannot branch {path.name}: {type(exc).__name__}: {exc}"
            return None
        return self._enter(session)

    def watch(self, path: Path) -> Transition | None:
        try:
            scene = WatchScene(self.content, path, self.back_from_watch)
        except (record.RecordingError, OSError, ValueError, KeyError) as exc:
            self.message = f"Cannot watch {path.name}: {exc}"
            return None
        return Push(scene)

    def back_from_watch(self) -> Transition | None:
        self.message = ""
        self._scan()
        return None

    def abandon(self) -> Transition | None:
        path = self.confirm_abandon
        self.confirm_abandon = None
        if path is None:
            return None
        try:
            dest = saves_mod.abandon(path)
        except saves_mod.SaveLocked as exc:
            self.message = f"Cannot abandon {path.name}: it is {saves_mod.open_elsewhere(exc.pid)}."
            self._scan()
            return None
        except OSError as exc:
            self.message = f"Cannot move {path.name} aside: {exc.strerror or exc}"
            return None
        self.message = f"Abandoned: moved to {dest.parent.name}/{dest.name} (listed under Past games)."
        self._scan()
        return None

    @staticmethod
    def _enter(session: Session) -> Transition:
        stack = game_stack(session)
        return Reset(stack[0], tuple(stack[1:]))

    def typed_seed(self, text: str) -> Transition | None:
        self.seed = parse_seed(text)
        self.seed_typed = True
        self.seed_text = text.strip() or str(self.seed)
        return self.start(self.seed)

    def choose_ruleset(self, i: int) -> Transition | None:
        self.ruleset = list(self.content.rulesets)[i]
        return None

    # --- input and drawing -------------------------------------------------------------------------------------

    def _row_at(self, y: int) -> int | None:
        i = y - self.LIST_Y - 1
        top = self._top()
        return top + i if 0 <= i < self.LIST_ROWS and top + i < len(self.games) else None

    def _top(self) -> int:
        return max(0, (self.cursor or 0) - self.LIST_ROWS + 1)

    def _menu(
        self,
        console: tcod.console.Console,
        x: int,
        y: int,
        key: str,
        label: str,
        *,
        enabled: bool = True,
        width: int | None = None,
    ) -> None:
        """A menu row, ``[k] label``; a click on it is its key."""
        render.choice(console, x, y, key, label, enabled=enabled, width=width)
        self.buttons.add(x, y, (width or console.width - x), key)

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if isinstance(event, tcod.event.MouseButtonDown):
            return self.on_click(event)
        if isinstance(event, tcod.event.KeyDown):
            return self.on_key(event)
        return None

    def on_click(self, event: tcod.event.MouseButtonDown) -> Transition | None:
        """A click on a menu row is its key; on a game of the list, chooses it (on the chosen one, continues it)."""
        what = self.buttons.at(int(event.position[0]), int(event.position[1]))
        if isinstance(what, str) and event.button == tcod.event.MouseButton.LEFT:
            return self.on_event(keys.key(tcod.event.KeySym(ord(what))))  # a click on a menu row: its key
        row = self._row_at(int(event.position[1]))
        if row is None:
            return None
        self.confirm_abandon = None
        if row == self.cursor:
            return self.resume(row)  # a click on the chosen game continues it
        self.cursor = row
        return None

    def on_key(self, event: tcod.event.KeyDown) -> Transition | None:
        self.message = ""
        c = keys.char(event)
        if self.confirm_abandon is not None:
            if c in ("y", "Y"):
                return self.abandon()
            self.confirm_abandon = None
            self.message = "Kept."
            return None
        if event.sym in (tcod.event.KeySym.UP, tcod.event.KeySym.DOWN) and self.games:
            step = -1 if event.sym == tcod.event.KeySym.UP else 1
            at = (-1 if step > 0 else 0) if self.cursor is None else self.cursor  # (none chosen: the first or last)
            self.cursor = (at + step) % len(self.games)
            return None
        if keys.is_confirm(event):
            c = "n"
        elif keys.is_cancel(event):
            c = "q"
        command = self.menu_keys().get(c or "")
        return command() if command is not None else None

    def menu_keys(self) -> dict[str, Callable[[], Transition | None]]:
        """What each key of the menu does (Enter is ``n``, Esc ``q``)."""
        return {
            "n": lambda: self.start(self.seed),
            "s": lambda: Push(
                PromptScene("Seed", "Type a seed (a number, or any words):", self.typed_seed, max_len=40)
            ),
            "c": self.resume,
            "a": self.ask_abandon,
            "p": lambda: Push(PastGamesScene(self.content, self.saves)),
            "r": self.ruleset_menu,
            "?": lambda: Push(HelpScene()),
            "h": lambda: Push(HelpScene()),
            "q": lambda: Exit(0),
        }

    def ask_abandon(self) -> Transition | None:
        """``a``: ask before the chosen game is abandoned (never one open in another window)."""
        if self.cursor is None or not self.games:
            self.message = NONE_FREE if self.games else "There is no unfinished game to abandon."
            return None
        g = self.games[self.cursor]
        g.open_pid = saves_mod.holder(g.path)
        if g.open_pid is not None:
            self.message = f"Cannot abandon {g.path.name}: it is {saves_mod.open_elsewhere(g.open_pid)}."
            return None
        self.confirm_abandon = g.path
        return None

    def ruleset_menu(self) -> Transition | None:
        names = list(self.content.rulesets)
        options = [("", f"{self.content.rulesets[n].title} ({n})") for n in names]
        menu = MenuScene("Ruleset", options, self.choose_ruleset)
        menu.cursor = names.index(self.ruleset)
        return Push(menu)

    def on_draw(self, console: tcod.console.Console) -> None:
        compact = console.height < 40  # a short screen: a one-line title, the menu from the top, a shorter list
        tag = "A seeded, recorded dungeon crawl. Every number is in the data."
        if compact:
            render.put_text(console, 2, 0, "UNDERCROFT", TITLE)
            render.put_text(console, 14, 0, tag, DIM, width=console.width - 15)
            y = 2
        else:
            cx = (console.width - len(_LOGO[0])) // 2
            for i, line in enumerate(_LOGO):
                render.put_text(console, cx, 3 + i, line, TITLE)
            render.put_text(console, (console.width - len(tag)) // 2, 9, tag, DIM)
            y = 12
        x, w = 6, console.width - 7
        self.LIST_Y = y + 15
        said = self._said(console.width - 8)
        footer = 0 if compact else 4  # the footer's rows at the bottom (never drawn over what is said)
        room = console.height - footer - self.LIST_Y - 2 - len(said)  # the list's rows: what is said comes first
        self.LIST_ROWS = max(1, min(8, room))
        seed_note = "(typed)" if self.seed_typed else "(random)"
        shown = self.seed_text if self.seed_typed else str(self.seed)
        self.buttons.clear()
        self._menu(console, x, y, "n", f"New game        seed {shown} {seed_note}", width=w)
        self._menu(console, x, y + 1, "s", "New game with a seed you type")
        rs = self.content.rulesets[self.ruleset]
        self._menu(console, x, y + 3, "r", f"Ruleset         {rs.title}")
        if len(render.wrap(rs.description, w - 8)) <= 4:  # (the ruleset menu names them all)
            render.put_lines(console, x + 4, y + 4, w - 8, [(rs.description, DIM)])
        self._menu(console, x, y + 8, "p", "Past games      every finished or abandoned game, high scores")
        self._menu(console, x, y + 9, "?", "Help: every key")
        self._menu(console, x, y + 10, "q", "Quit")
        g = self.chosen
        if g is not None:
            about = self.describe(g, w - 4 - len("Continue        "))
            if g.open_pid is not None:
                self._menu(console, x, y + 12, "c", f"Continue        {about}", width=w)
                self._menu(console, x, y + 13, "a", "Abandon: not while it is open in another window", enabled=False)
            else:
                self._menu(console, x, y + 12, "c", f"Continue        {about}", width=w)
                self._menu(console, x, y + 13, "a", "Abandon the chosen game (moved aside, never deleted)")
        else:
            none = "(each unfinished game is open in another window)" if self.games else "(no unfinished game)"
            self._menu(console, x, y + 12, "c", f"Continue        {none}", enabled=False, width=w)
        ly = self.LIST_Y
        if self.games:
            render.put_text(
                console, x, ly, f"Unfinished games ({len(self.games)}): Up/Down or click to choose", DIM, width=w
            )
            top = self._top()
            for i, g in enumerate(self.games[top : top + self.LIST_ROWS]):
                chosen = top + i == self.cursor
                when = f"{g.date}  " if g.open_pid is None else ""
                render.put_text(
                    console,
                    x,
                    ly + 1 + i,
                    ("> " if chosen else "  ") + f"{when}{self.describe(g, w - 2 - len(when))}",
                    render.TEXT if chosen else DIM,
                    width=w,
                )
        my = min(ly + self.LIST_ROWS + 2, max(ly + 2, console.height - footer - len(said)))
        if said and my + len(said) > console.height - footer:
            my, footer = max(ly + 2, console.height - len(said)), 0  # the footer gives way to what is said
        if said and my + len(said) > console.height:  # longer still: over the list and the menu above it
            my = max(0, console.height - len(said))
            console.draw_rect(0, my, console.width, console.height - my, ord(" "))
        for i, (row, colour) in enumerate(said[: max(0, console.height - my)]):
            render.put_text(console, 4, my + i, row, colour, width=console.width - 8)
        if footer:
            foot = "Closing the window keeps your game: Continue resumes it."
            render.put_text(console, (console.width - len(foot)) // 2, console.height - 3, foot, FAINT)
            render.put_text(console, 2, console.height - 1, f"{len(self.content.rulesets)} rulesets", FAINT)

    def _said(self, width: int) -> list[tuple[str, render.RGB]]:
        """What the title has to say under the list (a question, a message, a note), wrapped to ``width``."""
        if self.confirm_abandon is not None:
            text, colour = (
                f"Abandon {self.confirm_abandon.name}? It moves to saves/{saves_mod.ABANDONED}/ and shows under "
                "Past games. y: abandon, any other key: keep it.",
                render.BAD,
            )
        elif self.message:
            text, colour = self.message, render.BAD
        elif self.notes:
            text = self.notes[0] + (f" (+{len(self.notes) - 1} more)" if len(self.notes) > 1 else "")
            colour = FAINT
        else:
            return []
        return [(row, colour) for row in render.wrap(text, width)]
