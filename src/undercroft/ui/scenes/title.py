"""The title screen: new game (a random seed shown, or one typed in), continue, ruleset, help, quit."""

from __future__ import annotations

import random
from pathlib import Path

import tcod.console
import tcod.event

from undercroft import record
from undercroft.content import Content
from undercroft.rules.rng import parse_seed
from undercroft.ui import keys, render
from undercroft.ui.render import DIM, FAINT, TITLE
from undercroft.ui.scenes.base import Exit, Push, Reset, Scene, Transition
from undercroft.ui.scenes.overlays import HelpScene, MenuScene, PromptScene
from undercroft.ui.scenes.play import game_stack
from undercroft.ui.session import Session

_LOGO = [
    r" _   _           _                           __ _   ",
    r"| | | |_ __   __| | ___ _ __ ___ _ __ ___   / _| |_ ",
    r"| | | | '_ \ / _` |/ _ \ '__/ __| '__/ _ \ | |_| __|",
    r"| |_| | | | | (_| |  __/ | | (__| | | (_) ||  _| |_ ",
    r" \___/|_| |_|\__,_|\___|_|  \___|_|  \___/ |_|  \__|",
]


def random_seed() -> int:
    """A fresh seed for the title screen, from the system's entropy (never a gameplay stream)."""
    return random.SystemRandom().randrange(1, 10**9)


class TitleScene(Scene):
    def __init__(self, content: Content, *, ruleset: str = "undercroft", seed: int | None = None,
                 saves: Path | None = None) -> None:
        self.content = content
        self.ruleset = ruleset if ruleset in content.rulesets else next(iter(content.rulesets))
        self.seed = seed if seed is not None else random_seed()
        self.seed_typed = seed is not None
        self.saves = saves
        self.message = ""
        self._continue: tuple[Path, str] | None = None
        self._scan()

    def _scan(self) -> None:
        """Find the game to continue (the newest unfinished recording)."""
        self._continue = None
        try:
            path = record.latest_unfinished(self.saves)
        except OSError:
            path = None
        if path is None:
            return
        try:
            rec = record.load_recording(path, lenient_tail=True)
        except record.RecordingError as exc:
            self._continue = (path, f"cannot be read: {exc.message}")
            return
        h = rec.header
        title = self.content.rulesets[h.ruleset].title if h.ruleset in self.content.rulesets else h.ruleset
        self._continue = (path, f"{title}, seed {h.seed}, turn {rec.turns}")

    # --- actions ---------------------------------------------------------------------------------------------

    def start(self, seed: int) -> Transition | None:
        try:
            session = Session.new(self.content, self.ruleset, seed)
        except OSError as exc:
            self.message = f"Cannot create the save file: {exc.strerror or exc}"
            return None
        return self._enter(session)

    def resume(self) -> Transition | None:
        if self._continue is None:
            self.message = "There is no unfinished game to continue."
            return None
        path, _ = self._continue
        try:
            session = Session.resume(self.content, path)
        except (record.RecordingError, record.Desync, OSError, ValueError, KeyError) as exc:
            self.message = f"Cannot continue {path.name}: {exc}"
            return None
        return self._enter(session)

    @staticmethod
    def _enter(session: Session) -> Transition:
        stack = game_stack(session)
        return Reset(stack[0], tuple(stack[1:]))

    def typed_seed(self, text: str) -> Transition | None:
        self.seed = parse_seed(text)
        self.seed_typed = True
        return self.start(self.seed)

    def choose_ruleset(self, i: int) -> Transition | None:
        self.ruleset = list(self.content.rulesets)[i]
        return None

    # --- input and drawing -------------------------------------------------------------------------------------

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if not isinstance(event, tcod.event.KeyDown):
            return None
        self.message = ""
        c = keys.char(event)
        if c == "n" or keys.is_confirm(event):
            return self.start(self.seed)
        if c == "s":
            return Push(PromptScene("Seed", "Type a seed (a number, or any words):", self.typed_seed, max_len=40))
        if c == "c":
            return self.resume()
        if c == "r":
            names = list(self.content.rulesets)
            options = [(str(i + 1), f"{self.content.rulesets[n].title} ({n})") for i, n in enumerate(names)]
            menu = MenuScene("Ruleset", options, self.choose_ruleset)
            menu.cursor = names.index(self.ruleset)
            return Push(menu)
        if c == "?" or c == "h":
            return Push(HelpScene())
        if c == "q" or keys.is_cancel(event):
            return Exit(0)
        return None

    def on_draw(self, console: tcod.console.Console) -> None:
        cx = (console.width - len(_LOGO[0])) // 2
        for i, line in enumerate(_LOGO):
            render.put_text(console, cx, 4 + i, line, TITLE)
        tag = "A seeded, recorded dungeon crawl. Every number is in the data."
        render.put_text(console, (console.width - len(tag)) // 2, 11, tag, DIM)
        x, y = 20, 15
        seed_note = "(typed)" if self.seed_typed else "(random)"
        render.choice(console, x, y, "n", f"New game        seed {self.seed} {seed_note}")
        render.choice(console, x, y + 2, "s", "New game with a seed you type")
        if self._continue is not None:
            render.choice(console, x, y + 4, "c", f"Continue        {self._continue[1]}", width=console.width - x - 1)
        else:
            render.choice(console, x, y + 4, "c", "Continue        (no unfinished game)", enabled=False)
        rs = self.content.rulesets[self.ruleset]
        render.choice(console, x, y + 6, "r", f"Ruleset         {rs.title}")
        render.put_lines(console, x + 4, y + 7, console.width - x - 8, [(rs.description, DIM)])
        render.choice(console, x, y + 12, "?", "Help: every key")
        render.choice(console, x, y + 14, "q", "Quit")
        if self.message:
            render.put_lines(console, 4, y + 17, console.width - 8, [(self.message, render.BAD)])
        foot = "Closing the window keeps your game: Continue resumes it."
        render.put_text(console, (console.width - len(foot)) // 2, console.height - 3, foot, FAINT)
        render.put_text(console, 2, console.height - 1, f"{len(self.content.rulesets)} rulesets", FAINT)
