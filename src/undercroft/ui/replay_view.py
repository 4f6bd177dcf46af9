"""Recordings on screen: the scene that watches one (``--watch``), a new game branched off one of its turns
(``--play``), and a photograph of a turn (``--screenshot``, no window at all). The loop that shows the first two,
in the window or the terminal, is :mod:`undercroft.ui.loop`.

Watching keeps **keyframes**: a copy of the game every :data:`KEYFRAME_EVERY` actions (and wherever a jump lands),
so jumping back to a turn replays from the nearest keyframe before it, never from turn 0.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from pathlib import Path

import tcod.console
import tcod.event
from tcod.event import KeySym

from undercroft import record
from undercroft.content import Content
from undercroft.narrate import Narrator
from undercroft.record import saves
from undercroft.rules.actions import Action
from undercroft.rules.events import Event
from undercroft.rules.game import Game
from undercroft.rules.types import OVER
from undercroft.ui import keys, render
from undercroft.ui.frontend import new_console
from undercroft.ui.png import write_png
from undercroft.ui.scenes.base import Exit, Push, Scene, SceneStack, Transition
from undercroft.ui.scenes.end import EndScene
from undercroft.ui.scenes.game import game_stack, scene_for_mode
from undercroft.ui.scenes.log import LogScene
from undercroft.ui.scenes.prompt import PromptScene
from undercroft.ui.session import MessageLog, Session, unseen_groups
from undercroft.ui.tiles import load_tileset

KEYFRAME_EVERY = 50
SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0)  # actions per second
DEFAULT_SPEED = 3  # SPEEDS[3]: 4 actions a second


def clone(game: Game) -> Game:
    """An independent copy of ``game`` (sharing the read-only content)."""
    return copy.deepcopy(game, {id(game.content): game.content})


class ReplayScene(Scene):
    """Play a recording back: pause, single step (forward and back), faster/slower, jump to a turn."""

    def __init__(
        self,
        content: Content,
        rec: record.Recording,
        *,
        speed: int = DEFAULT_SPEED,
        paused: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.content = content
        self.rec = rec
        self.actions: list[Action] = [a for _, a, _ in rec.actions]
        game = Game(content, rec.header.ruleset, rec.header.seed)
        self.keyframes: dict[int, Game] = {0: clone(game)}
        self.session = Session.watch(content, game)
        self.session.seed_text = saves.seed_label(rec.path, rec.header.seed, rec.header.daily)  # as the game showed
        self.session.path = rec.path  # (read back at its end: the recap, where the run turned)
        self.session.log.add(
            f"Replay of {rec.path.name}: {game.rs.title}, seed {self.session.seed_label}, {len(self.actions)} actions.",
            "alert",
        )
        self.index = 0  # actions applied
        self.speed = max(0, min(len(SPEEDS) - 1, speed))
        self.paused = paused
        self.clock = clock
        self.last = clock()
        self.budget = 0.0
        self.error = ""
        self.replayed = 0  # actions stepped since the start (tests: jumps use keyframes)

    # --- moving through the recording ------------------------------------------------------------------------

    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def turn(self) -> int:
        return self.game.state.turn

    @property
    def at_end(self) -> bool:
        return self.index >= len(self.actions)

    def _apply(self, log: MessageLog | None) -> bool:
        if self.at_end or self.error:
            return False
        action = self.actions[self.index]
        try:
            events = self.game.step(action)
        except Exception as exc:  # a recording that crashed the engine: show it, do not die
            self.error = f"The engine failed at turn {self.index + 1}: {type(exc).__name__}: {exc}"
            self.paused = True
            return False
        self.replayed += 1
        if len(events) == 1 and events[0].type == "refused":
            self.error = (
                f"Desync at turn {self.index + 1}: the engine refused it ({self.session.narrator.text(events[0])})"
            )
            self.paused = True
            return False
        self.index += 1
        if self.index % KEYFRAME_EVERY == 0 and self.index not in self.keyframes:
            self.keyframes[self.index] = clone(self.game)
        if log is not None:
            log.add_events(events, self.session.narrator)
            self.session.last_events = events
        return True

    def step(self) -> bool:
        return self._apply(self.session.log)

    def jump(self, target: int) -> None:
        """Go to the state after ``target`` actions: from the nearest keyframe at or before it."""
        target = max(0, min(len(self.actions), target))
        if target == self.index:
            return
        self.error = ""
        before = self.index
        if not (self.index < target and target - self.index <= KEYFRAME_EVERY):
            base = max(k for k in self.keyframes if k <= target)
            self.session.game = clone(self.keyframes[base])
            self.index = base
        quiet = MessageLog(unseen=unseen_groups(self.game) if self.index != before else self.session.log.unseen)
        while self.index < target and self._apply(quiet):
            pass
        for text, kind in quiet.lines[-40:]:
            self.session.log.add(text, kind)
        self.session.log.unseen = quiet.unseen
        self.session.log.add(f"Jumped to turn {self.turn}.", "alert")
        self.session.last_events = []
        if self.index not in self.keyframes:
            self.keyframes[self.index] = clone(self.game)

    # --- scene -------------------------------------------------------------------------------------------------

    def tick_interval(self) -> float | None:
        return None if self.paused or self.at_end else 1 / 60

    def on_tick(self) -> Transition | None:
        now = self.clock()
        if self.paused or self.at_end:
            self.last = now
            return None
        self.budget += (now - self.last) * SPEEDS[self.speed]
        self.last = now
        n = int(self.budget)
        self.budget -= n
        for _ in range(min(n, 500)):
            if not self.step():
                break
        if self.at_end:
            self.paused = True
        return None

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if not isinstance(event, tcod.event.KeyDown):
            return None
        c = keys.char(event)
        sym = event.sym
        if c == " " or sym == KeySym.P:
            self.paused = not self.paused
            self.last = self.clock()
        elif c == "." or sym in (KeySym.RIGHT, KeySym.KP_6):
            self.paused = True
            self.step()
        elif c == "," or sym in (KeySym.LEFT, KeySym.KP_4):
            self.paused = True
            self.jump(self.index - 1)
        elif c in ("+", "=") or sym in (KeySym.UP, KeySym.KP_PLUS):
            self.speed = min(len(SPEEDS) - 1, self.speed + 1)
        elif c in ("-", "_") or sym in (KeySym.DOWN, KeySym.KP_MINUS):
            self.speed = max(0, self.speed - 1)
        elif sym == KeySym.HOME:
            self.jump(0)
        elif sym == KeySym.END:
            self.jump(len(self.actions))
        elif c == "g":
            self.paused = True

            def go(text: str) -> Transition | None:
                self.jump(int(text))
                return None

            return Push(PromptScene("Jump", f"Go to turn (0-{len(self.actions)}):", go, digits_only=True, max_len=9))
        elif c == "L":  # Shift+L, as everywhere in the game (plain l is a vi-key walking east: nothing here)
            return Push(LogScene(self.session))
        elif c == "q" or keys.is_cancel(event):
            return Exit(0)
        return None

    def on_draw(self, console: tcod.console.Console) -> None:
        s = self.session
        scene = scene_for_mode(s) if s.mode not in OVER else EndScene(s, write_morgue=False)
        scene.on_draw(console)
        state = "ERROR" if self.error else "end" if self.at_end else "paused" if self.paused else "playing"
        speed = SPEEDS[self.speed]
        status = f" REPLAY  turn {self.turn}/{len(self.actions)}  {state}  x{speed:g}/s   "
        bar = status + hint_text(console.width - len(status))
        console.draw_rect(0, 0, console.width, 1, ord(" "), bg=(90, 20, 20))
        render.put_text(console, 0, 0, bar[: console.width], render.WHITE, (90, 20, 20))
        if self.error:
            render.put_lines(console, 2, 1, console.width - 4, [(self.error, render.BAD)])


# The keys of the replay bar, in the order shown, and the order in which they give way on a narrow screen.
HINTS: tuple[tuple[str, str], ...] = (
    ("space", "pause"),
    (".", "step"),
    (",", "back"),
    ("+/-", "speed"),
    ("g", "jump"),
    ("L", "log"),
    ("q", "quit"),
)
HINTS_DROPPED_FIRST = ("+/-", "g", ",", ".")


def hint_text(room: int) -> str:
    """The replay bar's key hints in at most ``room`` characters: spaced out if they fit, else closer together,
    else without the least needed (the log and quitting stay)."""
    hints = list(HINTS)
    drop = list(HINTS_DROPPED_FIRST)
    while True:
        for sep in ("  ", " "):
            text = sep.join(f"{k} {what}" for k, what in hints) + " "
            if len(text) <= room or not drop:
                return text
        gone = drop.pop(0)
        hints = [h for h in hints if h[0] != gone]


# --- entry points ----------------------------------------------------------------------------------------------


def branch(content: Content, path: Path, until: int) -> Session:
    """A new recorded game that repeats the first ``until`` turns of recording ``path`` and goes on from there."""
    rec = record.load_recording(path)
    h = rec.header
    game = Game(content, h.ruleset, h.seed)
    new_path = saves.new_save_path(game.state.seed, h.ruleset)
    recorder = record.Recorder.create(new_path, game, content)
    session = Session(content, game, recorder)
    words = saves.seed_label(path, h.seed, h.daily)  # the seed as the game was started (its words), kept
    session.seed_text = words
    if words != str(h.seed):
        saves.remember_seed(new_path, words)
    for turn, action, _ in rec.actions:
        if turn > until or game.over:
            break
        session.act(action)
    session.last_events = []
    session.log.add(
        f"Branched from {Path(path).name} at turn {game.state.turn}: this game is recorded to {new_path.name}.", "alert"
    )
    return session


def console_png(console: tcod.console.Console, out_png: Path | str) -> Path:
    """Write ``console`` as a PNG in the project's tileset (no window)."""
    return write_png(out_png, load_tileset().render(console))


def render_png(stack: SceneStack, out_png: Path | str) -> Path:
    """Draw ``stack`` into an 80x50 console and write it as a PNG in the project's tileset (no window)."""
    console = new_console()
    stack.draw(console)
    return console_png(console, out_png)


def screenshot(content: Content, path: Path, until: int | None, out_png: Path | str) -> Path:
    """``undercroft replay FILE --until TURN --screenshot OUT.png``: the screen at that turn, without a window."""
    return render_png(screenshot_stack(content, path, until), out_png)


def screenshot_stack(content: Content, path: Path, until: int | None) -> SceneStack:
    """The scenes of the recording ``path`` at turn ``until`` (the end: None), as the game showed them then (its
    log, the seed as typed)."""
    rec = record.load_recording(path)
    log = MessageLog()
    last: list[Event] = []

    narrator = Narrator(content, rec.header.ruleset)

    def collect(turn: int, action: Action, events: list[Event]) -> None:
        log.add_events(events, narrator)
        last[:] = events

    game = record.replay(content, rec, until=until, on_events=collect)
    session = Session.watch(content, game)
    session.seed_text = saves.seed_label(path, rec.header.seed, rec.header.daily)  # the seed as the game showed it
    session.path = Path(path)  # (read back at the end: the recap, where the run turned)
    session.log = log
    session.last_events = last
    return SceneStack(game_stack(session))
