"""The game inside the terminal: the window's scene stack, drawn with ANSI escape codes, read with blessed.

The same scenes as the window (:mod:`undercroft.ui.scenes`) draw into the same 80x50 console; instead of
presenting it in an SDL window, :class:`~undercroft.term.ansi.AnsiRenderer` sends the cells that changed since the
last frame, and keys read by blessed become the tcod key events the scenes expect (:mod:`undercroft.term.keys`).

The terminal is put back as it was however the game ends: quitting, Ctrl-C, a crash, SIGTERM or a hang-up all leave
through the same ``with`` blocks (alternate screen, hidden cursor, cbreak, keypad mode). Ctrl-Z restores it
before stopping and takes it over again on ``fg``. A resize redraws everything (centred when the terminal is
larger than the game); a terminal smaller than 80x50 shows what it needs instead of a broken screen.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import IO, TYPE_CHECKING, Final

import tcod.console

from undercroft.content import Content
from undercroft.term.ansi import CSI, RESET, AnsiRenderer
from undercroft.ui import render
from undercroft.ui.scenes.base import SceneStack

if TYPE_CHECKING:  # blessed is imported when the terminal is used, not when the window is
    import blessed

NEED_W: Final = render.WIDTH
NEED_H: Final = render.HEIGHT
POLL_S: Final = 0.1  # how often the size is checked while waiting for a key
MAX_BATCH: Final = 64  # keys handled before the next redraw when input arrives faster than frames
CLEAR: Final = f"{RESET}{CSI}H{CSI}2J"
# Synchronized output (DEC mode 2026): a terminal that knows it shows the frame at once, the others ignore it.
SYNC_BEGIN: Final = f"{CSI}?2026h"
SYNC_END: Final = f"{CSI}?2026l"
SYNC_MIN_BYTES: Final = 1024

NO_TTY = "--terminal needs a terminal: standard input and output must both be a TTY"
TERMINAL_HINT = "; or play inside a terminal with --terminal"


def has_display(environ: dict[str, str] | None = None, platform: str = sys.platform) -> bool:
    """Whether a window can be expected to open: always on Windows and macOS; elsewhere an X11 or Wayland display,
    or SDL's dummy video driver (tests)."""
    env = os.environ if environ is None else environ
    if platform in ("win32", "darwin"):
        return True
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY")) or env.get("SDL_VIDEODRIVER") == "dummy"


def is_terminal() -> bool:
    """Standard input and output are both a terminal (not a pipe, a file or CI)."""
    try:
        return os.isatty(sys.stdin.fileno()) and os.isatty(sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):
        return False


def use_terminal(requested: bool, environ: dict[str, str] | None = None) -> bool:
    """Play in the terminal: when asked to, or when there is no display but there is a terminal.

    Raises ValueError (with :data:`NO_TTY`) when asked to but there is no terminal."""
    tty = is_terminal()
    if requested:
        if not tty:
            raise ValueError(NO_TTY)
        return True
    return tty and not has_display(environ)


def too_small_message(width: int, height: int) -> str:
    return f"terminal too small: need {NEED_W}x{NEED_H}, have {width}x{height}"


class Screen:
    """What goes to the terminal: the game's frames (only what changed) or, when it does not fit, a notice."""

    def __init__(self, truecolor: bool) -> None:
        self.renderer = AnsiRenderer(truecolor=truecolor)
        self.size: tuple[int, int] | None = None
        self.fits = True

    def resize(self, width: int, height: int) -> str:
        """Lay out for a terminal of ``width`` x ``height``; returns what to write (a clear, maybe the notice)."""
        self.size = (width, height)
        self.fits = width >= NEED_W and height >= NEED_H
        self.renderer.invalidate()
        if self.fits:
            self.renderer.origin = ((width - NEED_W) // 2, (height - NEED_H) // 2)
            return CLEAR
        lines = [
            too_small_message(width, height),
            "Enlarge the window or make the font smaller;",
            "the game comes back by itself. Ctrl-C quits.",
        ]
        out = [CLEAR]
        top = max(0, (height - len(lines)) // 2)
        for i, line in enumerate(lines):
            if top + i >= height:
                break
            text = line[: max(width, 1)]
            out.append(f"{CSI}{top + i + 1};{max(0, (width - len(text)) // 2) + 1}H{text}")
        return "".join(out)

    def frame(self, stack: SceneStack, console: tcod.console.Console) -> str:
        """The escape codes for the stack's next frame ("" when nothing changed or the game does not fit)."""
        if not self.fits:
            return ""
        stack.draw(console)
        out = self.renderer.render(console)
        if len(out) >= SYNC_MIN_BYTES:
            out = f"{SYNC_BEGIN}{out}{SYNC_END}"
        return out


class _Terminal:
    """Hands the terminal over to the game and back; also on Ctrl-Z, SIGTERM and SIGHUP."""

    def __init__(self, term: blessed.Terminal) -> None:
        self.term = term
        self.stream: IO[str] = term.stream
        self.redraw = False  # set when the screen must be drawn anew (back from Ctrl-Z)
        self._saved_tty: list[object] | None = None

    def write(self, text: str) -> None:
        if not text:
            return
        try:
            self.stream.write(text)
        except UnicodeEncodeError:  # a terminal that is not UTF-8: '?' for what its encoding lacks
            encoding = getattr(self.stream, "encoding", None) or "ascii"
            self.stream.write(text.encode(encoding, "replace").decode(encoding))
        self.stream.flush()

    @contextlib.contextmanager
    def session(self) -> Iterator[None]:
        term = self.term
        with contextlib.ExitStack() as stack:
            stack.enter_context(self._signals())
            self._save_tty()
            stack.enter_context(term.fullscreen())
            stack.enter_context(term.hidden_cursor())
            stack.enter_context(term.keypad())
            stack.enter_context(term.cbreak())
            stack.callback(self.write, RESET)
            yield

    def _save_tty(self) -> None:
        if sys.platform == "win32":
            return
        import termios

        try:
            self._saved_tty = termios.tcgetattr(sys.stdin.fileno())
        except (termios.error, OSError, ValueError):
            self._saved_tty = None

    def _enter_codes(self) -> str:
        t = self.term
        return f"{t.enter_fullscreen}{t.hide_cursor}{t.smkx}"

    def _leave_codes(self) -> str:
        t = self.term
        return f"{RESET}{t.rmkx}{t.normal_cursor}{t.exit_fullscreen}"

    def _suspend(self, signum: int, frame: FrameType | None) -> None:
        """Ctrl-Z: give the terminal back as it was, stop, and take it over again when continued."""
        if sys.platform == "win32":
            return
        import termios
        import tty

        fd = sys.stdin.fileno()
        with contextlib.suppress(OSError):
            self.write(self._leave_codes())
        if self._saved_tty is not None:
            with contextlib.suppress(termios.error, OSError):
                termios.tcsetattr(fd, termios.TCSAFLUSH, self._saved_tty)  # type: ignore[arg-type]
        signal.signal(signal.SIGTSTP, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTSTP)  # stops here until SIGCONT
        signal.signal(signal.SIGTSTP, self._suspend)
        with contextlib.suppress(termios.error, OSError):
            tty.setcbreak(fd, termios.TCSANOW)
        with contextlib.suppress(OSError):
            self.write(self._enter_codes())
        self.redraw = True

    @staticmethod
    def _terminate(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(128 + signum)

    @contextlib.contextmanager
    def _signals(self) -> Iterator[None]:
        """Ctrl-Z suspends cleanly; SIGTERM and SIGHUP unwind through the ``with`` blocks (restoring the tty)."""
        if sys.platform == "win32":
            yield
            return
        handlers: dict[int, Callable[[int, FrameType | None], None]] = {
            signal.SIGTSTP: self._suspend,
            signal.SIGTERM: self._terminate,
            signal.SIGHUP: self._terminate,
        }
        old: dict[int, object] = {}
        try:
            for sig, handler in handlers.items():
                old[sig] = signal.signal(sig, handler)
            yield
        finally:
            for sig, previous in old.items():
                signal.signal(sig, previous)  # type: ignore[arg-type]


def run(make_stack: Callable[[], SceneStack], *, term: blessed.Terminal | None = None,
        max_frames: int | None = None) -> int:
    """Run the scenes of ``make_stack()`` in the terminal until one exits. Returns the exit status.

    Ctrl-C raises KeyboardInterrupt after the terminal is restored (the command line reports it, status 130);
    every action is already saved by then, as when the window is closed.
    """
    import blessed

    from undercroft.term.keys import key_events
    from undercroft.ui.app import new_console

    term = term if term is not None else blessed.Terminal()

    console = new_console()
    screen = Screen(truecolor=term.number_of_colors >= 1 << 24)
    tty = _Terminal(term)
    with tty.session():
        stack = make_stack()
        frames = 0
        next_tick: float | None = None
        while stack.exit_code is None and stack.scenes:
            size = (term.width, term.height)
            if size != screen.size or tty.redraw:
                tty.redraw = False
                tty.write(screen.resize(*size))
            tty.write(screen.frame(stack, console))
            frames += 1
            if max_frames is not None and frames >= max_frames:
                return 0
            interval = stack.top.tick_interval()
            now = time.monotonic()
            if interval is None:
                next_tick = None
            elif next_tick is None:
                next_tick = now + interval
            wait = POLL_S if next_tick is None else max(0.0, min(POLL_S, next_tick - now))
            ks = term.inkey(timeout=wait)
            handled = 0
            while ks:  # this key and any already typed after it, then one frame for them all
                if screen.fits:  # keys pressed while the game is hidden do nothing
                    for event in key_events(ks, text=stack.top.wants_text):
                        stack.handle(event)
                        if stack.exit_code is not None:
                            break
                handled += 1
                if handled >= MAX_BATCH or stack.exit_code is not None:
                    break
                ks = term.inkey(timeout=0)
            if next_tick is not None and time.monotonic() >= next_tick and stack.exit_code is None:
                next_tick = None
                if screen.fits:
                    stack.tick()
        return stack.exit_code if stack.exit_code is not None else 0


def play_stack(content: Content, ruleset: str = "undercroft", seed: int | None = None) -> SceneStack:
    """The window's first scenes: the title screen, or straight into a new game when a seed is given."""
    from undercroft.ui.scenes.title import TitleScene

    title = TitleScene(content, ruleset=ruleset, seed=seed)
    stack = SceneStack([title])
    if seed is not None:
        stack.apply(title.start(seed))
    return stack


def play(content: Content, ruleset: str = "undercroft", seed: int | None = None, *,
         term: blessed.Terminal | None = None) -> int:
    """``undercroft play --terminal``."""
    return run(lambda: play_stack(content, ruleset, seed), term=term)


def watch(content: Content, path: Path, *, start: int = 0, speed: int | None = None, paused: bool = False,
          term: blessed.Terminal | None = None) -> int:
    """``undercroft replay FILE --watch --terminal``: the window's replay viewer (its scene, its keys) in the
    terminal. Raises RecordingError for a bad file before the terminal is taken over."""
    from undercroft import record
    from undercroft.ui.replay_view import DEFAULT_SPEED, ReplayScene

    rec = record.load_recording(path)

    def make() -> SceneStack:
        scene = ReplayScene(content, rec, speed=DEFAULT_SPEED if speed is None else speed, paused=paused)
        if start:
            scene.jump(start)
        return SceneStack([scene])

    return run(make, term=term)


def replay_in_terminal(args: argparse.Namespace, content: Content, path: Path) -> int | None:
    """``undercroft replay FILE --watch [--terminal] [--until TURN]`` in the terminal when asked for (or when there
    is no display but a terminal); None when the window should show it (or another flag was given)."""
    from undercroft import record
    from undercroft.cli import UserError

    if getattr(args, "terminal", False) and not args.watch:
        raise UserError("--terminal goes with --watch (or with play: undercroft play --terminal)")
    if not args.watch or args.play or args.screenshot:
        return None
    try:
        if not use_terminal(bool(getattr(args, "terminal", False))):
            return None
    except ValueError as exc:
        raise UserError(str(exc)) from None
    try:
        return watch(content, path, start=args.until or 0)
    except record.RecordingError as exc:
        raise UserError(str(exc)) from None
