"""The terminal front end: the window's scenes, drawn with ANSI escape codes, read with blessed.

:class:`TerminalFrontEnd` is a :class:`~undercroft.ui.frontend.FrontEnd`: the one loop (:mod:`undercroft.ui.loop`)
draws the same scenes as in the window into a console of the terminal's size (80x24 at least); instead of
presenting it in an SDL window, :class:`~undercroft.term.ansi.AnsiRenderer` sends the cells that changed since the
last frame, and keys read by blessed become the tcod key events the scenes expect (:mod:`undercroft.term.keys`).

The mouse works as in the window: while the game owns the terminal, xterm mouse reporting is on (any-motion
tracking, DEC mode 1003, so hovering shows what is under the pointer; SGR encoding, mode 1006, so any column can be
reported). The modes are set outright, without first asking the terminal (blessed's ``mouse_enabled`` asks with
DECRQM and enables nothing when there is no answer, as under tmux, which does pass the modes on); a terminal
without mouse support ignores them. Reports become :class:`tcod.event.MouseMotion`, ``MouseButtonDown``,
``MouseButtonUp`` and ``MouseWheel`` events in the console's tiles (the centring offset taken off); those outside
the console, or while the terminal is too small, are dropped, and a burst of moves read in one batch comes as its
last. ``UNDERCROFT_NO_MOUSE=1`` in the environment leaves the mouse off (the terminal's own selection then works).

The terminal is put back as it was however the game ends: quitting, Ctrl-C, Ctrl-\\ (SIGQUIT: no core dump, the
save's lock let go, status 131), a crash, SIGTERM or a hang-up all leave
through the same ``with`` blocks (alternate screen, hidden cursor, cbreak, keypad mode, mouse reporting off, so the
shell gets no mouse reports afterwards: the input still unread then is discarded). Ctrl-Z restores it (mouse off
too) before stopping and takes it over again on ``fg``. A resize redraws everything (centred when the terminal is
larger than the game); a terminal smaller than 80x24 shows what it needs instead of a broken screen.

A terminal that goes away (the window closed, the ssh connection lost: SIGHUP, or a read or write that fails with
EIO) ends the game quietly with status 129: every action is already in the save, there is nothing to restore and
nothing is printed (the standard output is pointed at ``/dev/null``, so the restoring codes and Python's last flush
go nowhere instead of raising again).
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from types import FrameType
from typing import IO, TYPE_CHECKING, Final, NoReturn

import tcod.console
import tcod.event

from undercroft.term.ansi import CSI, RESET, AnsiRenderer
from undercroft.ui.frontend import FrontEndFactory, FrontEndOptions
from undercroft.ui.layout import MIN_H, MIN_W

if TYPE_CHECKING:  # blessed is imported when the terminal is used, not when the window is
    import blessed

NEED_W: Final = MIN_W  # the smallest terminal the game lays out for (a larger one shows more map and log)
NEED_H: Final = MIN_H
POLL_S: Final = 0.1  # how often the size is checked while waiting for a key
MAX_BATCH: Final = 64  # keys handled before the next redraw when input arrives faster than frames
# A key pressed again this soon after itself is the terminal's auto-repeat of a key held down (25-40 a second; two
# presses of one key by hand are slower): marked ``repeat``, as SDL marks it in the window. The terminal does not
# say when a key was pressed, only that it is there to read, so a key counts as a repeat only when the time between
# the two presses is known to be this short (see TerminalFrontEnd.events).
REPEAT_S: Final = 0.08
CLEAR: Final = f"{RESET}{CSI}H{CSI}2J"
# Synchronized output (DEC mode 2026): a terminal that knows it shows the frame at once, the others ignore it.
SYNC_BEGIN: Final = f"{CSI}?2026h"
SYNC_END: Final = f"{CSI}?2026l"
SYNC_MIN_BYTES: Final = 1024
# xterm mouse reporting: SGR-encoded reports (1006) of every move, press, release and wheel turn (1003). Enabled in
# this order and disabled in the reverse one, so that no report is ever sent in the legacy encoding.
MOUSE_MODES: Final = (1006, 1003)
NO_MOUSE_ENV: Final = "UNDERCROFT_NO_MOUSE"
MOUSE_SETTLE_S: Final = 0.03  # after turning the mouse off, for reports already on their way, then discarded
HANGUP_EXIT: Final = 128 + 1  # the status when the terminal is gone (as after SIGHUP)

NO_TTY = "--terminal needs a terminal: standard input and output must both be a TTY"
TERMINAL_HINT = " (play in this terminal instead: add --terminal)"


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


def choose(options: FrontEndOptions) -> FrontEndFactory:
    """The front end to open: the terminal when asked for (or when there is no display but a terminal), the window
    otherwise. Raises ValueError (:data:`NO_TTY`) when the terminal is asked for without one. Nothing is opened
    yet: the window may still find no display (:class:`undercroft.ui.app.NoDisplay`) when it is."""
    if use_terminal(options.terminal):
        return TerminalFrontEnd.open
    from undercroft.ui.app import Window

    return Window.open


def mouse_wanted(environ: dict[str, str] | None = None) -> bool:
    """Mouse reporting, unless :data:`NO_MOUSE_ENV` is set (to anything but "" or "0")."""
    env = os.environ if environ is None else environ
    return env.get(NO_MOUSE_ENV, "").strip() in ("", "0")


def mouse_codes(on: bool) -> str:
    """The DECSET (``on``) or DECRST codes of :data:`MOUSE_MODES`, one sequence each, in enabling or disabling
    order."""
    modes = MOUSE_MODES if on else MOUSE_MODES[::-1]
    return "".join(f"{CSI}?{mode}{'h' if on else 'l'}" for mode in modes)


def too_small_message(width: int, height: int) -> str:
    return f"terminal too small: need {NEED_W}x{NEED_H}, have {width}x{height}"


class Screen:
    """What goes to the terminal: the game's frames (only what changed) or, when it does not fit, a notice."""

    def __init__(self, truecolor: bool) -> None:
        self.renderer = AnsiRenderer(truecolor=truecolor)
        self.size: tuple[int, int] | None = None
        self.console_size: tuple[int, int] | None = None  # of the last frame: mouse reports are in its cells
        self.fits = True

    def resize(self, width: int, height: int) -> str:
        """Lay out for a terminal of ``width`` x ``height``; returns what to write (a clear, maybe the notice)."""
        self.size = (width, height)
        self.fits = width >= NEED_W and height >= NEED_H
        self.renderer.invalidate()
        if self.fits:
            return CLEAR
        lines = [  # (wrapped to the width: the size it needs is said first, never cut off)
            row
            for text in (
                too_small_message(width, height),
                "Enlarge the window or make the font smaller;",
                "the game comes back by itself. Ctrl-C quits.",
            )
            for row in textwrap.wrap(text, max(width, 1), break_on_hyphens=False)
        ]
        out = [CLEAR]
        top = max(0, (height - len(lines)) // 2)
        for i, line in enumerate(lines):
            if top + i >= height:
                break
            text = line[: max(width, 1)]
            out.append(f"{CSI}{top + i + 1};{max(0, (width - len(text)) // 2) + 1}H{text}")
        return "".join(out)

    def frame(self, console: tcod.console.Console) -> str:
        """The escape codes for the next frame, drawn in ``console`` ("" when nothing changed or it does not
        fit)."""
        if not self.fits:
            return ""
        self.console_size = (console.width, console.height)
        if self.size is not None:  # the console is the terminal's size; were it smaller, it would be centred
            origin = (max(0, (self.size[0] - console.width) // 2), max(0, (self.size[1] - console.height) // 2))
            if origin != self.renderer.origin:
                self.renderer.origin = origin
                self.renderer.invalidate()
        out = self.renderer.render(console)
        if len(out) >= SYNC_MIN_BYTES:
            out = f"{SYNC_BEGIN}{out}{SYNC_END}"
        return out


class _Terminal:
    """Hands the terminal over to the game and back; also on Ctrl-Z, SIGTERM and SIGHUP."""

    def __init__(self, term: blessed.Terminal, mouse: bool = True) -> None:
        self.term = term
        self.stream: IO[str] = term.stream
        self.mouse = mouse and term.does_styling  # blessed writes no DEC modes to a terminal it does not style
        self.redraw = False  # set when the screen must be drawn anew (back from Ctrl-Z)
        self._saved_tty: list[object] | None = None
        self.gone = False  # the terminal hung up: nothing more is written to it

    def write(self, text: str) -> None:
        if not text or self.gone:
            return
        try:
            try:
                self.stream.write(text)
            except UnicodeEncodeError:  # a terminal that is not UTF-8: '?' for what its encoding lacks
                encoding = getattr(self.stream, "encoding", None) or "ascii"
                self.stream.write(text.encode(encoding, "replace").decode(encoding))
            self.stream.flush()
        except OSError:  # EIO (the terminal closed), EPIPE: the game is saved, leave quietly
            self.hang_up()

    def hang_up(self) -> NoReturn:
        """The terminal is gone: write nothing more to it and leave with :data:`HANGUP_EXIT`."""
        self._gone()
        raise SystemExit(HANGUP_EXIT)

    def _gone(self) -> None:
        if self.gone:
            return
        self.gone = True
        for stream in (self.stream, sys.stdout, sys.stderr):  # what is left in their buffers goes nowhere
            try:
                fd = stream.fileno()
            except (AttributeError, OSError, ValueError):
                continue
            with contextlib.suppress(OSError):
                if os.isatty(fd) or stream is self.stream:
                    devnull = os.open(os.devnull, os.O_WRONLY)
                    os.dup2(devnull, fd)
                    os.close(devnull)

    @contextlib.contextmanager
    def session(self) -> Iterator[None]:
        try:
            with self._session():
                yield
        except BaseException as exc:  # the terminal hung up and restoring it failed: quietly out, no traceback
            if not isinstance(exc, (OSError, SystemExit)) and type(exc).__name__ != "error":  # termios.error
                raise
            if not (self.gone or (not isinstance(exc, SystemExit) and self._dead())):
                raise
            self._gone()
            raise SystemExit(exc.code if isinstance(exc, SystemExit) else HANGUP_EXIT) from None

    @staticmethod
    def _dead() -> bool:
        """The terminal no longer answers: a termios call there fails with EIO."""
        if sys.platform == "win32":
            return False
        import errno
        import termios

        try:
            termios.tcgetattr(sys.stdin.fileno())
        except termios.error as exc:
            return bool(exc.args) and exc.args[0] == errno.EIO
        except (OSError, ValueError):
            return False
        return False

    @contextlib.contextmanager
    def _session(self) -> Iterator[None]:
        term = self.term
        with contextlib.ExitStack() as stack:
            stack.enter_context(self._signals())
            self._save_tty()
            stack.enter_context(term.fullscreen())
            stack.enter_context(term.hidden_cursor())
            stack.enter_context(term.keypad())
            stack.enter_context(term.cbreak())
            if self.mouse:  # after cbreak, so that no report is echoed; off (and the input flushed) before it ends
                self._mouse(True)
                stack.callback(self._mouse, False)
            stack.callback(self.write, RESET)
            yield

    def _mouse(self, on: bool) -> None:
        """Mouse reporting on or off, through blessed, so that its ``inkey`` decodes the reports only while on
        (it matches those of the modes it believes set)."""
        for mode in MOUSE_MODES if on else MOUSE_MODES[::-1]:
            if on:
                self.term._dec_mode_set_enabled(mode)
            else:
                self.term._dec_mode_set_disabled(mode)
        if not on:
            self._discard_input()

    @staticmethod
    def _discard_input() -> None:
        """Drop the input not read yet (mouse reports sent before the terminal turned reporting off), so that the
        shell does not get it as typed text."""
        if sys.platform == "win32":
            return
        import termios

        try:
            fd = sys.stdin.fileno()
            if not os.isatty(fd):
                return
            time.sleep(MOUSE_SETTLE_S)
            termios.tcflush(fd, termios.TCIFLUSH)
        except (termios.error, OSError, ValueError):
            pass

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
        return f"{t.enter_fullscreen}{t.hide_cursor}{t.smkx}{mouse_codes(True) if self.mouse else ''}"

    def _leave_codes(self) -> str:
        t = self.term
        return f"{RESET}{mouse_codes(False) if self.mouse else ''}{t.rmkx}{t.normal_cursor}{t.exit_fullscreen}"

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

    def _terminate(self, signum: int, frame: FrameType | None) -> None:
        if signum == signal.SIGHUP:  # the terminal is gone: nothing to restore there
            self._gone()
        raise SystemExit(128 + signum)

    @contextlib.contextmanager
    def _signals(self) -> Iterator[None]:
        """Ctrl-Z suspends cleanly; SIGTERM, SIGHUP and SIGQUIT (Ctrl-\\) unwind through the ``with`` blocks (restoring
        the tty, closing the game)."""
        if sys.platform == "win32":
            yield
            return
        handlers: dict[int, Callable[[int, FrameType | None], None]] = {
            signal.SIGTSTP: self._suspend,
            signal.SIGTERM: self._terminate,
            signal.SIGHUP: self._terminate,
            signal.SIGQUIT: self._terminate,
        }
        old: dict[int, object] = {}
        try:
            for sig, handler in handlers.items():
                old[sig] = signal.signal(sig, handler)
            yield
        finally:
            for sig, previous in old.items():
                signal.signal(sig, previous)  # type: ignore[arg-type]


class TerminalFrontEnd:
    """This terminal as a front end: its size, the changed cells of each frame, its keys and mouse as tcod events.

    A wait for input lasts at most :data:`POLL_S`, so that a resize is noticed (and reported as a
    :class:`tcod.event.WindowResized`); the keys and mouse reports already there come as one batch (at most
    :data:`MAX_BATCH`) before the next frame, its pointer moves merged into the last. Ctrl-C raises
    KeyboardInterrupt, after the terminal is given back. ``mouse`` None: on unless :data:`NO_MOUSE_ENV` says no.
    """

    def __init__(self, term: blessed.Terminal, mouse: bool | None = None) -> None:
        self.term = term
        self.screen = Screen(truecolor=term.number_of_colors >= 1 << 24)
        self.tty = _Terminal(term, mouse=mouse_wanted() if mouse is None else mouse)
        self.text = False
        self.measured: tuple[int, int] | None = None  # the size last reported: what present() lays out for
        self.clock: Callable[[], float] = time.monotonic
        # The last keystroke read, and the earliest it can have been pressed (a repeat: the same, pressed soon after)
        self.last_key: tuple[str, float] = ("", -1.0)
        self.empty_at = -1.0  # when the input was last seen empty: a key read later was pressed after that

    @classmethod
    @contextlib.contextmanager
    def open(
        cls, title: str = "", *, term: blessed.Terminal | None = None, mouse: bool | None = None
    ) -> Iterator[TerminalFrontEnd]:
        """Take the terminal over (alternate screen, hidden cursor, cbreak, keypad mode, mouse reporting unless
        ``mouse`` is False or :data:`NO_MOUSE_ENV` says no) for the ``with`` block; ``title`` is the window's
        (unused here)."""
        import blessed

        frontend = cls(term if term is not None else blessed.Terminal(), mouse=mouse)
        with frontend.tty.session():
            yield frontend

    def size(self) -> tuple[int, int]:
        self.measured = (self.term.width, self.term.height)
        return self.measured

    def present(self, console: tcod.console.Console) -> None:
        size = self.measured if self.measured is not None else self.size()
        if size != self.screen.size or self.tty.redraw:
            self.tty.redraw = False
            self.tty.write(self.screen.resize(*size))
        self.tty.write(self.screen.frame(console))

    def events(self, timeout: float | None) -> Iterator[tcod.event.Event]:
        """The keys and mouse reports there are, or the first to come within ``timeout`` (at most :data:`POLL_S`),
        with those typed right after it.

        A key is a ``repeat`` (a key held down) only when it is the same as the last one and pressed, as far as can
        be known, within :data:`REPEAT_S` of it. A key that came while the game was waiting was pressed as it was
        read; one already there (typed while a frame was drawn or a key handled) was pressed at some time after the
        input was last seen empty. So keys typed ahead while the game was busy, read back to back, are never taken
        for a held key (and swallowed where a new screen holds repeats): only a press timed to follow another
        within :data:`REPEAT_S` is."""
        from undercroft.term.keys import is_mouse, key_events

        ks = self._read(0.0)  # already there: typed while the game was busy
        pressed = self.empty_at
        if not ks and timeout != 0.0:
            self.empty_at = self.clock()
            ks = self._read(POLL_S if timeout is None else min(POLL_S, timeout))
            pressed = self.clock()  # (it came while the game waited: pressed now)
        if not ks:
            self.empty_at = self.clock()
            size = (self.term.width, self.term.height)
            if size != self.measured:
                yield tcod.event.WindowResized(type="WindowResized", window_id=0, data=size)
            return
        handled = 0
        # The run of one key read here: the earliest its first press can be, and how many presses followed it
        since, gaps, keyed = pressed, 0, False
        moved: tcod.event.MouseMotion | None = None  # the last pointer move not yet passed on
        while ks:  # this key and any already typed after it, then one frame for them all
            # (read as the loop takes them: a prompt opened by one key gets the text of the next)
            repeat = False
            if not is_mouse(ks):
                if self.last_key[0] != str(ks):
                    since, gaps = pressed, 0
                else:  # the same again: were its presses (on average) this soon after each other?
                    since, gaps = (since, gaps + 1) if keyed else (self.last_key[1], 1)
                    repeat = (self.clock() - since) / gaps < REPEAT_S
                self.last_key = (str(ks), pressed)
                keyed = True
            for event in self.mouse_events(ks) if is_mouse(ks) else key_events(ks, text=self.text):
                if isinstance(event, tcod.event.KeyDown):
                    event.repeat = repeat
                if isinstance(event, tcod.event.MouseMotion):
                    moved = event  # a burst of moves: only where the pointer ended up
                    continue
                if moved is not None:
                    yield moved
                    moved = None
                yield event
            handled += 1
            if handled >= MAX_BATCH:
                break
            ks = self._read(0.0)
            pressed = self.empty_at  # (typed ahead: after the input was last seen empty)
            if not ks:
                self.empty_at = self.clock()
        if moved is not None:
            yield moved

    def _read(self, timeout: float) -> blessed.keyboard.Keystroke:
        try:
            return self.term.inkey(timeout=timeout)
        except OSError:  # EIO: the terminal closed under us (the game is saved)
            self.tty.hang_up()

    def mouse_events(self, ks: blessed.keyboard.Keystroke) -> list[tcod.event.Event]:
        """The events of a mouse report, in the console's tiles; none while the game is not shown (too small)."""
        from undercroft.term.keys import mouse_events

        if not self.screen.fits:
            return []
        size = self.screen.console_size or self.screen.size or (NEED_W, NEED_H)
        return mouse_events(ks, self.screen.renderer.origin, size)

    def text_input(self, on: bool) -> None:
        self.text = on

    def now(self) -> float:
        return self.clock()
