"""The one main loop: the scene stack on a front end (the window, the terminal or the null front end).

Each round draws the stack into the console and presents it, waits for input (no longer than the top scene's
next tick, see ``Scene.tick_interval``), hands each event to the top scene and ticks it when its time has come.
A front end too small for the console shows what it needs instead; meanwhile nothing is drawn, keys do nothing and
time stands still for the scenes.

Closing the front end at any time keeps the game: every action is already in the recording, which is the save.
Whichever way the loop ends (a scene exits, the window is closed, Ctrl-C, a crash) the recordings of the games on
the stack are closed, and the game can be continued from the title screen.

Also here, written once for every front end: ``undercroft play`` (:func:`play`), watching a recording
(:func:`watch`, ``replay FILE --watch``) and playing on from a turn of one (:func:`branch_play`, ``--play``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

import tcod.event

from undercroft import record
from undercroft.content import Content
from undercroft.ui.frontend import FrontEnd, FrontEndFactory, is_close, new_console
from undercroft.ui.layout import MIN_H, MIN_W
from undercroft.ui.scenes.base import SceneStack
from undercroft.ui.scenes.game import game_stack
from undercroft.ui.scenes.title import TitleScene
from undercroft.ui.session import Session

TITLE = "Undercroft"


class Loop:
    """The scene stack on one front end. :meth:`run` until the end; tests may go round by round (:meth:`draw`,
    then :meth:`wait`). A stack given without a home goes home to the title screen."""

    def __init__(self, frontend: FrontEnd, stack: SceneStack, *, clock: Callable[[], float] | None = None) -> None:
        self.frontend = frontend
        self.stack = stack
        if stack.home is None:
            stack.home = TitleScene.after
        self.clock = frontend.now if clock is None else clock
        self.console = new_console()
        self.closed = False  # the front end was closed (the window's close button, a quit request)
        self.fits = True  # the front end is large enough to show the console
        self.frames = 0
        self.next_tick: float | None = None
        self.hold = False  # the game's mode changed (a meeting, a fight's end): key repeats do nothing till a press

    def _mode(self) -> object:
        """The engine mode of the game on top (None: no game there)."""
        for scene in reversed(self.stack.scenes):  # (a menu over it has none of its own)
            session = getattr(scene, "session", None)
            if isinstance(session, Session):
                return session.mode
        return None

    def held(self, event: tcod.event.Event, changed: bool) -> bool:
        """Whether ``event`` is a key held or typed ahead across a change of the game's mode (a new meeting, a
        fight's end), swallowed as the classics' "more" does, so that no key acts on a screen not yet seen: the
        rest of the keys read with the one that changed it (``changed``), and key repeats (a key held down) until
        a key is pressed afresh. (Its text goes with it.)"""
        if not self.hold or not isinstance(event, (tcod.event.KeyDown, tcod.event.TextInput)):
            return False
        if isinstance(event, tcod.event.KeyDown) and not changed and not event.repeat:
            self.hold = False
            return False
        return True

    @property
    def running(self) -> bool:
        return not self.closed and self.stack.exit_code is None and bool(self.stack.scenes)

    @property
    def exit_code(self) -> int:
        """The status to leave with: the scene's, or 0 (the front end was closed)."""
        return self.stack.exit_code if self.stack.exit_code is not None and not self.closed else 0

    def draw(self) -> None:
        """Draw the stack (when it can be seen) and present the frame. The console takes the front end's size
        (from 80x24 up: the scenes lay out for any size); a smaller front end shows "too small" instead."""
        size = self.frontend.size()
        self.fits = size[0] >= MIN_W and size[1] >= MIN_H
        if self.fits and (self.console.width, self.console.height) != size:
            self.console = new_console(*size)
        if self.fits:
            self.stack.draw(self.console)
        self.frontend.present(self.console)
        self.frames += 1

    def _timeout(self) -> float | None:
        """Seconds until the top scene's next tick (None: it does not tick, wait for input)."""
        interval = self.stack.top.tick_interval()
        now = self.clock()
        if interval is None:
            self.next_tick = None
        elif self.next_tick is None:
            self.next_tick = now + interval
        return None if self.next_tick is None else max(0.0, self.next_tick - now)

    def handle(self, events: Iterable[tcod.event.Event]) -> None:
        """Give ``events`` to the top scene, one at a time, until the stack exits or the front end closes."""
        changed = False  # the game's mode changed in this batch: the keys after it were pressed before it showed
        for event in events:
            if is_close(event):
                self.closed = True
                return
            if not self.fits or self.held(event, changed):
                continue  # keys pressed while the game cannot be seen, or held across a new screen, do nothing
            mode = self._mode()
            self.stack.handle(event)
            if not self.running:
                return
            if mode is not None and self._mode() not in (None, mode):
                self.hold = changed = True
            self.frontend.text_input(self.stack.top.wants_text)  # a prompt opened by this key reads the next

    def wait(self, *, block: bool = True) -> None:
        """Wait for input (``block`` off: only what is already there), handle it, then tick if it is time."""
        if not self.running:
            return
        self.frontend.text_input(self.stack.top.wants_text)
        timeout = self._timeout()
        self.handle(self.frontend.events(timeout if block else 0.0))
        if self.running and self.next_tick is not None and self.clock() >= self.next_tick:
            self.next_tick = None
            if self.fits:
                mode = self._mode()
                self.stack.tick()
                if mode is not None and self.running and self._mode() not in (None, mode):
                    self.hold = True  # a walk that ran into a meeting: a key held for the walk does not act in it

    def run(self, max_frames: int | None = None) -> int:
        """Until a scene exits or the front end is closed; ``max_frames``: stop after that many frames, never
        blocking for input. Returns the exit status. The games' recordings are closed however it ends."""
        try:
            while self.running:
                self.draw()
                if max_frames is not None and self.frames >= max_frames:
                    return 0
                self.wait(block=max_frames is None)
            return self.exit_code
        finally:
            close_games(self.stack)


def close_games(stack: SceneStack) -> None:
    """Close the recordings of the games on the stack: everything is on disk already, the save is the recording."""
    seen: set[int] = set()
    for scene in stack.scenes:
        session = getattr(scene, "session", None)
        if isinstance(session, Session) and id(session) not in seen:
            seen.add(id(session))
            session.close()


def run(
    open_front_end: FrontEndFactory,
    make_stack: Callable[[], SceneStack],
    *,
    title: str = TITLE,
    max_frames: int | None = None,
) -> int:
    """Open the front end, then run the scenes of ``make_stack()`` on it (built once it is open: a crash there
    gives the terminal back too). Returns the exit status (0: quit, or the front end closed)."""
    with open_front_end(title) as frontend:
        return Loop(frontend, make_stack()).run(max_frames)


# --- what the command line starts --------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayOptions:
    """``undercroft play``: the ruleset, and a seed to go straight into a new game (None: the title screen)."""

    ruleset: str = "undercroft"
    seed: int | None = None
    seed_text: str = ""  # the seed as typed (a word seed is kept as the word), "" for none
    daily: str = ""  # a daily game (``play --daily``): its UTC date, YYYY-MM-DD; the seed is its word


def play_stack(content: Content, options: PlayOptions = PlayOptions()) -> SceneStack:
    """The first scenes: the title screen, or straight into a new game when a seed is given."""
    title = TitleScene(content, ruleset=options.ruleset, seed=options.seed, daily=options.daily)
    if options.seed_text:
        title.seed_text = options.seed_text.strip()[:40] or title.seed_text
    stack = SceneStack([title])
    if options.seed is not None:
        stack.apply(title.start(options.seed))
    return stack


def play(
    open_front_end: FrontEndFactory,
    content: Content,
    options: PlayOptions = PlayOptions(),
    *,
    max_frames: int | None = None,
) -> int:
    """``undercroft play``: the title screen (or a new game of ``options.seed``) until the player quits."""
    return run(open_front_end, lambda: play_stack(content, options), max_frames=max_frames)


@dataclass(frozen=True)
class WatchOptions:
    """``undercroft replay FILE --watch``: from which turn (``--until``), how fast, paused or not."""

    start: int = 0
    speed: int | None = None  # an index into replay_view.SPEEDS; None: the default
    paused: bool = False


def watch(
    open_front_end: FrontEndFactory,
    content: Content,
    path: Path,
    options: WatchOptions = WatchOptions(),
    *,
    max_frames: int | None = None,
) -> int:
    """Play a recording back: pause, step, faster/slower, jump. Raises RecordingError for a bad file before the
    front end is opened."""
    from undercroft.ui.replay_view import DEFAULT_SPEED, ReplayScene

    rec = record.load_recording(path)
    with open_front_end(f"{TITLE} replay: {Path(path).name}") as frontend:
        speed = DEFAULT_SPEED if options.speed is None else options.speed
        scene = ReplayScene(content, rec, speed=speed, paused=options.paused, clock=frontend.now)
        if options.start:
            scene.jump(options.start)
        return Loop(frontend, SceneStack([scene])).run(max_frames)


def branch_play(
    open_front_end: FrontEndFactory, content: Content, path: Path, until: int, *, max_frames: int | None = None
) -> int:
    """``undercroft replay FILE --until TURN --play``: continue interactively from that turn, as a new recorded
    game (the original is left as it is). A bad file fails before the front end is opened."""
    from undercroft.ui.replay_view import branch

    record.load_recording(path)

    def make() -> SceneStack:
        return SceneStack(game_stack(branch(content, path, until)))

    return run(open_front_end, make, max_frames=max_frames)
