"""Regenerate the screenshots of docs/screenshots/ (no window needed).

    python docs/screenshots/make_screenshots.py [--seed N] [--out docs/screenshots] [--only SET ...]

Six sets (``--only`` picks some; all by default):

``window``    the window's console, 80x50, in the small tileset (10x16 px tiles): ``OUT/*.png``
``large``     the same frames in the large tileset (20x32 px tiles, the window on a high-resolution screen):
              ``OUT/large/*.png``
``wide``      a 120x50 console in the small tileset (a maximised window shows more of the map): ``OUT/wide/*.png``
``hd``        the window as it opens on a 1080p screen (1920x1080 usable, as under a bare X server): the tileset
              and console size :func:`undercroft.ui.app.auto_step` and ``opening_size`` choose there (the
              medium tileset, 123x44): ``OUT/1080p/*.png``
``terminal``  ``undercroft play --terminal`` for real, in a pseudo-terminal of 80x24, its screen read by pyte and
              drawn cell by cell (glyph, foreground, background) in the small tileset: ``OUT/terminal/*.png``
``terminal-wide``  the same in a pseudo-terminal of 120x40: ``OUT/terminal-120x40/*.png``

For the window sets a real game is played through the one loop (``undercroft.ui.loop``) on the null front end: the
script is its input, the same keys a player presses, and a frame the loop presents is written in the project's
tileset. The terminal set is planned the same way on a null front end of 80x24 (which keys reach each scene), then
those keys are typed into the real game in the pty; before each key the script waits until the terminal shows what
the plan saw, so the screenshot is the terminal's own screen at that moment (a difference is reported, and the
screen is photographed as it is). Saves and settings go to a temporary directory, never to your own. Seeds are
fixed; what differs from run to run is the random seed offered on the terminal's title screen and the time in the
morgue file's name on the death screens.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import os
import pty
import re
import select
import shutil
import signal
import struct
import sys
import tempfile
import termios
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tcod.event import Event, KeyDown, KeySym, Modifier

if TYPE_CHECKING:
    from undercroft.content import Content
    from undercroft.rules.game import Game
    from undercroft.rules.state import GameState
    from undercroft.ui.frontend import NullFrontEnd
    from undercroft.ui.scenes import SceneStack
    from undercroft.ui.session import Session

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
ARROWS = {(0, -1): KeySym.UP, (0, 1): KeySym.DOWN, (-1, 0): KeySym.LEFT, (1, 0): KeySym.RIGHT}
SETS = ("window", "large", "wide", "hd", "terminal", "terminal-wide")
TERM_SIZE = (80, 24)
TERM_WIDE = (120, 40)
HD = (1920, 1080)  # the display of the "hd" set: a 1080p screen (its usable area: a bare X server's, the whole)
TERM_TIMEOUT = 10.0  # seconds for the terminal to show what the plan saw


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=11, help="the first seed tried for the window sets")
    p.add_argument("--out", default=str(HERE))
    p.add_argument("--only", nargs="+", choices=SETS, default=list(SETS), help="the sets to make (default: all)")
    p.add_argument("--term-seed", type=int, default=3, help="the terminal set's game")
    p.add_argument("--term-ruleset", default="undercroft", help="the terminal set's ruleset")
    args = p.parse_args()
    out = Path(args.out)
    # Saves go to a fixed place of their own (so the morgue file's path on the death screens is the same each
    # time), a fresh one for each set.
    base = Path(tempfile.gettempdir()) / "undercroft-screenshots"
    start = time.monotonic()

    def fresh(name: str) -> Path:
        home = base / name
        shutil.rmtree(home, ignore_errors=True)
        home.mkdir(parents=True)
        os.environ["XDG_DATA_HOME"] = str(home / "data")
        os.environ["XDG_CONFIG_HOME"] = str(home / "config")  # not your settings either
        return home

    try:
        if "window" in args.only or "large" in args.only:
            outputs = [(out, "small")] if "window" in args.only else []
            outputs += [(out / "large", "large")] if "large" in args.only else []
            fresh("window")
            window_shots(args.seed, (80, 50), outputs)
        if "wide" in args.only:
            fresh("wide")
            window_shots(args.seed, (120, 50), [(out / "wide", "small")])
        if "hd" in args.only:
            from undercroft.ui.app import auto_step, opening_size

            step = auto_step(HD)  # the window as it opens on a 1080p screen: its tileset and console
            fresh("hd")
            window_shots(args.seed, opening_size(step, HD), [(out / "1080p", step.tile)])
        if "terminal" in args.only:
            terminal_shots(args.term_seed, args.term_ruleset, out / "terminal", fresh("terminal"))
        if "terminal-wide" in args.only:
            where = out / f"terminal-{TERM_WIDE[0]}x{TERM_WIDE[1]}"
            terminal_shots(args.term_seed, args.term_ruleset, where, fresh("terminal-wide"), TERM_WIDE)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print(f"done in {time.monotonic() - start:.1f} s")


def write(console: Any, path: Path, tileset: str = "small") -> None:
    """``console`` as a PNG in the project's tileset ``tileset`` (small, medium or large)."""
    from undercroft.ui.png import write_png
    from undercroft.ui.tiles import load_tileset

    path.parent.mkdir(parents=True, exist_ok=True)
    print("wrote", write_png(path, load_tileset(tileset).render(console)))


# --- the window: the null front end ------------------------------------------------------------------------------


def window_shots(first_seed: int, size: tuple[int, int], outputs: list[tuple[Path, str]]) -> None:
    """Every scene of the window at console ``size``, each frame written once per (directory, tileset)."""
    from undercroft.content import load_content
    from undercroft.paths import data_dir
    from undercroft.ui import loop
    from undercroft.ui.frontend import NullFrontEnd
    from undercroft.ui.keys import key
    from undercroft.ui.scenes import SceneStack, TitleScene, game_stack
    from undercroft.ui.session import Session

    content = load_content(data_dir())
    title = TitleScene(content, seed=first_seed)
    title.seed_typed = False
    fe = NullFrontEnd(size=size)
    loop.run(fe.open, lambda: SceneStack([title]), max_frames=1)
    write_frame(fe, "title", outputs)
    taken: set[str] = set()  # the scenes of WINDOW_LOOKS photographed, over the games
    for seed in range(first_seed, first_seed + 200):
        _WindowGame(content, seed, size, outputs, taken).play()
        if WINDOW_LOOKS.keys() <= taken:
            break
    # the help overlay over a game
    fe = NullFrontEnd([[key(KeySym.SLASH, Modifier.LSHIFT)]], size=size)
    loop.run(fe.open, lambda: SceneStack(game_stack(Session.new(content, "undercroft", first_seed))), max_frames=2)
    write_frame(fe, "help", outputs)
    print(f"window {size[0]}x{size[1]}: missing:", WINDOW_LOOKS.keys() - taken or "none")


def write_frame(frontend: NullFrontEnd, name: str, outputs: list[tuple[Path, str]]) -> None:
    """The frame the loop has just presented, as ``name``.png once per (directory, tileset)."""
    assert frontend.console is not None
    for directory, tileset in outputs:
        write(frontend.console, directory / f"{name}.png", tileset)


def _swung(session: Session) -> bool:
    """Whether the party struck at the foe on the last turn."""
    return any(e.type == "attack" and getattr(e, "attacker_side", None) == "party" for e in session.last_events)


def _time_to_run(game: Game, taken: set[str]) -> bool:
    """The fight photographed, not yet the choice of doors, and the party can run off by two ways or more."""
    from undercroft.rules.actions import Run

    return (
        "combat" in taken and "run" not in taken and game.legal(Run()) and sum(not w.blocked for w in game.exits()) >= 2
    )


def _explore_looks(session: Session) -> bool:
    """Well into the level, much of it seen, the party not much hurt."""
    st = session.game.state
    me = st.party[0]
    return st.turn >= 30 and bool(st.level.explored.sum() > 500) and me.hp * 3 >= me.max_hp * 2


def _encounter_looks(session: Session) -> bool:
    """A group in sight, past the first turns."""
    st = session.game.state
    return st.encounter is not None and len(st.level.groups) > 0 and st.turn > 10


def _combat_looks(session: Session) -> bool:
    """The second round or later, the party's blow just struck."""
    st = session.game.state
    return st.combat is not None and st.combat.round >= 2 and _swung(session)


# The window's scenes, each photographed the first time it looks its part: the scene on top and the test.
WINDOW_LOOKS: dict[str, tuple[str, Callable[[Session], bool]]] = {
    "explore": ("ExploreScene", _explore_looks),
    "encounter": ("EncounterScene", _encounter_looks),
    "combat": ("CombatScene", _combat_looks),
    "run": ("DoorScene", lambda session: True),  # the choice of doors, over the fight
    "death": ("EndScene", lambda session: session.game.state.mode == "dead"),
}


def _step_key(session: Session) -> KeySym:
    """The window's key in play: a potion when hurt, meet, fight or run on, else a step to the nearest room not
    visited (a rest when there is none)."""
    from undercroft.rules import dungeon
    from undercroft.rules.actions import Fight

    st = session.game.state
    me = st.party[0]
    if st.mode in ("explore", "combat") and me.hp * 2 < me.max_hp and st.items.get("healing_potion"):
        return KeySym.Q
    if st.mode == "encounter" and not session.game.legal(Fight()):
        return KeySym.W  # out of sight: wait for it to come
    if st.mode in ("encounter", "pursuit"):
        return KeySym.F if session.game.legal(Fight()) else KeySym.R  # giving chase: run on
    if st.mode == "combat":
        return KeySym.A
    m = st.level.map
    best = None
    for s in m.rooms:
        if st.level.visited[s.id]:
            continue
        path = dungeon.path_between(m, st.pos, ((s.x1 + s.x2) // 2, (s.y1 + s.y2) // 2))
        if len(path) > 1 and (best is None or len(path) < len(best)):
            best = path
    if best is None:
        return KeySym.Z
    return ARROWS[(best[1][0] - st.pos[0], best[1][1] - st.pos[1])]


class _WindowGame:
    """One game of ``seed`` through the loop at console ``size``, its input :meth:`script`: the scenes of
    :data:`WINDOW_LOOKS` not in ``taken`` (shared by the games) are photographed as they look their part."""

    def __init__(
        self, content: Content, seed: int, size: tuple[int, int], outputs: list[tuple[Path, str]], taken: set[str]
    ) -> None:
        from undercroft.ui import loop
        from undercroft.ui.frontend import NullFrontEnd

        self.stack = loop.play_stack(content, loop.PlayOptions(seed=seed))
        self.frontend = NullFrontEnd(size=size)
        self.frontend.source = self.script
        self.outputs = outputs
        self.taken = taken
        self.presses = 0

    def play(self) -> None:
        from undercroft.ui import loop

        loop.run(self.frontend.open, lambda: self.stack)

    def script(self, timeout: float | None) -> list[Event] | None:
        """Called as the loop waits for input: the frame on the front end is the game as it is now."""
        from undercroft.ui.keys import key

        top = type(self.stack.top).__name__
        session: Session = self.stack.top.session  # type: ignore[attr-defined]
        if "run" in self.photograph(top, session):  # the choice of doors photographed: back to the fight
            return [key(KeySym.ESCAPE)]
        front = session.game.state.front_group()
        if (
            top == "CombatScene"
            and _time_to_run(session.game, self.taken)
            and front is not None
            and len(front.alive) >= 2
        ):
            return [key(KeySym.R)]
        if top == "EndScene":
            return None  # close
        self.presses += 1
        if self.presses > 600:
            return None
        return [key(_step_key(session))]

    def photograph(self, top: str, session: Session) -> list[str]:
        """Writes the frame of each scene of WINDOW_LOOKS on top (``top``), not taken yet, that looks its part; returns
        their names."""
        names = [
            name
            for name, (scene, looks) in WINDOW_LOOKS.items()
            if scene == top and name not in self.taken and looks(session)
        ]
        for name in names:
            write_frame(self.frontend, name, self.outputs)
            self.taken.add(name)
        return names


# --- the terminal: planned on the null front end, played in a pseudo-terminal ----------------------------------


def key_event(c: str) -> KeyDown:
    """The key press that types ``c`` (a character, Esc or Enter), as the terminal front end reports it."""
    from undercroft.ui.keys import key

    named = {
        "\x1b": key(KeySym.ESCAPE),
        "\r": key(KeySym.RETURN),
        "\t": key(KeySym.TAB),
        "?": key(KeySym.SLASH, Modifier.LSHIFT),
        ";": key(KeySym.SEMICOLON),
        ">": key(KeySym.PERIOD, Modifier.LSHIFT),
    }
    if c in named:
        return named[c]
    if c.isupper():
        return key(KeySym(ord(c.lower())), Modifier.LSHIFT)
    return key(KeySym(ord(c)))


def screen_text(console: Any) -> list[str]:
    """The rows of ``console`` as the terminal front end writes them (a control character is a space)."""
    ch = console.ch.T if console.ch.shape == (console.width, console.height) else console.ch  # [x, y] or [y, x]
    return ["".join(" " if c < 0x20 or 0x7F <= c < 0xA0 else chr(c) for c in row) for row in ch.tolist()]


def _same(a: list[str], b: list[str]) -> bool:
    """Two screens alike, but for the random seed the title screen offers."""

    def norm(rows: list[str]) -> list[str]:
        rows = [re.sub(r"seed \d+ \(random\)", "seed N (random)", r) for r in rows]
        return [re.sub(r"\d{8}-\d{6}", "YYYYMMDD-HHMMSS", r).rstrip() for r in rows]  # the morgue file's name

    return norm(a) == norm(b)


Plan = tuple[list[str], dict[int, list[str]], list[list[str]]]

# the overlays of the terminal plan, photographed whenever they are on top: the scene and the screenshot's name
OVERLAYS = {"LookScene": "look", "LogScene": "log", "HelpScene": "help", "DoorScene": "run"}


def plan_terminal(seed: int, ruleset: str, size: tuple[int, int] = TERM_SIZE) -> Plan:
    """Play ``seed`` of ``ruleset`` on a null front end of ``size`` with a script that visits every scene.

    Returns the keys (characters), the names of the screenshots to take before key ``i`` (``len(keys)``: at the
    end, on the title screen), and the screen expected before each key and at the end."""
    from undercroft.content import load_content
    from undercroft.paths import data_dir
    from undercroft.ui import loop
    from undercroft.ui.frontend import NullFrontEnd

    content = load_content(data_dir())
    stack = loop.play_stack(content, loop.PlayOptions(ruleset=ruleset, seed=seed))
    plan = _TerminalPlan(stack, NullFrontEnd(size=size), f"seed {seed} ({ruleset})")
    loop.run(plan.fe.open, lambda: stack)
    return plan.keys, plan.shots, plan.screens


class _TerminalPlan:
    """The script of :func:`plan_terminal` (the input of ``fe``, which plays ``stack``) and what it records."""

    def __init__(self, stack: SceneStack, fe: NullFrontEnd, game_name: str) -> None:
        self.stack = stack
        self.fe = fe
        self.fe.source = self.script
        self.game_name = game_name
        self.keys: list[str] = []
        self.screens: list[list[str]] = []
        self.shots: dict[int, list[str]] = {}
        self.taken: set[str] = set()
        self.queued: list[str] = []
        self.rested = False

    def shoot(self, name: str) -> None:
        """A screenshot ``name`` before the next key, unless it was taken already."""
        if name not in self.taken:
            self.taken.add(name)
            self.shots.setdefault(len(self.keys), []).append(name)

    def press(self, c: str) -> list[Event]:
        """Types ``c``, the screen before it recorded."""
        self.screens.append(screen_text(self.fe.console))
        self.keys.append(c)
        return [key_event(c)]

    def script(self, timeout: float | None) -> list[Event] | None:
        """Called as the loop waits for input: the next key, or None at the end (back on the title screen)."""
        if timeout is not None:  # a walk (auto-explore) under way: let it go on
            return []
        assert self.fe.console is not None
        top = type(self.stack.top).__name__
        overlay = OVERLAYS.get(top)
        if overlay and (top != "LookScene" or self.keys[-1] == "\t"):  # look: on the creature Tab goes to
            self.shoot(overlay)
        if self.queued:
            return self.press(self.queued.pop(0))
        if top == "TitleScene":
            self.shoot("title")
            self.screens.append(screen_text(self.fe.console))
            return None  # the end
        session: Session = self.stack.top.session  # type: ignore[attr-defined]
        if top == "EndScene":
            self.shoot("death" if session.game.state.mode == "dead" else "victory")
            return self.press("\r")
        if len(self.keys) > 300:
            raise RuntimeError(f"{self.game_name}: no end within 300 keys")
        if top == "ExploreScene":
            return self.press(self.explore(session.game.state))
        if top == "EncounterScene":
            return self.press(self.encounter(session.game))
        if top == "CombatScene":
            return self.press(self.combat(session))
        if top == "ChaseScene":
            return self.press("f")
        return self.press("\x1b")  # (on the choice of doors: stay and fight on)

    def explore(self, st: GameState) -> str:
        """The key on the map: a rest, then auto-explore (photographed after the first turns)."""
        if not self.rested:  # a turn's rest, then auto-explore
            self.rested = True
            return "z"
        if st.turn >= 6:
            self.shoot("explore")
        return "x"

    def encounter(self, game: Game) -> str:
        """The key on meeting a group: the first time, look at it, read the log and the help; then fight (``r`` when
        a fight is not allowed)."""
        from undercroft.rules.actions import Fight

        if "encounter" not in self.taken:
            self.shoot("encounter")
            self.queued.extend([";", "\t", "\x1b", "L", "\x1b", "?", "\x1b"])  # look at it, the log, help; back
            return self.queued.pop(0)
        return "f" if game.legal(Fight()) else "r"

    def combat(self, session: Session) -> str:
        """The key in a fight: attack, or run once the fight is photographed (for the choice of doors)."""
        st = session.game.state
        assert st.combat is not None
        if st.combat.round >= 2 and _swung(session):
            self.shoot("combat")
        return "r" if _time_to_run(session.game, self.taken) else "a"


class _PtyGame:
    """``python -m undercroft ARGS`` in a pseudo-terminal, its output fed to a pyte screen (as tests/test_term_pty.py
    does)."""

    def __init__(self, args: list[str], home: Path, cols: int, rows: int) -> None:
        import pyte

        class Answering(pyte.Screen):
            """Answers the terminal's reports (cursor position, device attributes): blessed waits for them."""

            answer: Callable[[str], object] = staticmethod(lambda text: None)

            def write_process_input(self, data: str) -> None:
                self.answer(data)

        self.screen = Answering(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.status: int | None = None
        environ = {
            k: v
            for k, v in os.environ.items()
            if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER", "ESCDELAY")
        }
        src = str(ROOT / "src")
        environ.update(
            TERM="xterm-256color",
            COLORTERM="truecolor",
            HOME=str(home),
            XDG_DATA_HOME=str(home / "data"),
            XDG_CONFIG_HOME=str(home / "config"),
            LANG="C.UTF-8",
            LC_ALL="C.UTF-8",
            ESCDELAY="50",
            UNDERCROFT_NO_MOUSE="1",
            TZ="UTC",
            PYTHONPATH=os.pathsep.join(filter(None, [src, os.environ.get("PYTHONPATH", "")])),
        )
        pid, fd = pty.fork()
        if pid == 0:  # the child: the pty is its controlling terminal
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
                os.execve(sys.executable, [sys.executable, "-m", "undercroft", *args], environ)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.screen.answer = lambda text: os.write(fd, text.encode())

    def pump(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                return
            try:
                data = os.read(self.fd, 65536)
            except OSError:  # the game has exited
                return
            if not data:
                return
            self.stream.feed(data)

    def rows(self) -> list[str]:
        return list(self.screen.display)

    def wait_for(self, expected: list[str], timeout: float = TERM_TIMEOUT) -> bool:
        end = time.monotonic() + timeout
        while not _same(self.rows(), expected):
            if time.monotonic() > end or self.poll() is not None:
                return False
            self.pump(0.05)
        return True

    def send(self, text: str) -> None:
        os.write(self.fd, text.encode())
        if text == "\x1b":
            time.sleep(0.08)  # a lone Esc: past ESCDELAY before the next key

    def poll(self) -> int | None:
        if self.status is None:
            pid, st = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(st)
        return self.status

    def close(self) -> None:
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)


# the 16 ANSI colours as pyte names them (xterm's values)
ANSI = {
    "black": "000000",
    "red": "cd0000",
    "green": "00cd00",
    "brown": "cdcd00",
    "blue": "0000ee",
    "magenta": "cd00cd",
    "cyan": "00cdcd",
    "white": "e5e5e5",
    "brightblack": "7f7f7f",
    "brightred": "ff0000",
    "brightgreen": "00ff00",
    "brightbrown": "ffff00",
    "brightblue": "5c5cff",
    "brightmagenta": "ff00ff",
    "brightcyan": "00ffff",
    "brightwhite": "ffffff",
}
DEFAULT_FG, DEFAULT_BG = "e5e5e5", "000000"


def _rgb(colour: str, default: str) -> tuple[int, int, int]:
    """A pyte colour (``default``, an ANSI name, or hex ``rrggbb`` for 24-bit and 256-colour ones) as RGB."""
    if colour == "default":
        colour = default
    colour = ANSI.get(colour, colour)
    if not re.fullmatch(r"[0-9a-fA-F]{6}", colour):
        raise ValueError(f"a colour pyte gave that this script does not know: {colour!r}")
    return int(colour[0:2], 16), int(colour[2:4], 16), int(colour[4:6], 16)


def pyte_console(screen: Any) -> Any:
    """The pyte ``screen`` as a tcod console of its size: each cell's glyph, foreground and background."""
    import tcod.console

    console = tcod.console.Console(screen.columns, screen.lines, order="C")
    for y in range(screen.lines):
        line = screen.buffer[y]
        for x in range(screen.columns):
            cell = line[x]
            fg, bg = _rgb(cell.fg, DEFAULT_FG), _rgb(cell.bg, DEFAULT_BG)
            if cell.reverse:
                fg, bg = bg, fg
            console.ch[y, x] = ord(cell.data[:1] or " ")
            console.fg[y, x] = fg
            console.bg[y, x] = bg
    return console


def terminal_shots(seed: int, ruleset: str, out: Path, home: Path, size: tuple[int, int] = TERM_SIZE) -> None:
    """The terminal set: plan the keys, then type them into the real game in a pty of ``size`` (80x24) and
    photograph it."""
    try:
        import pyte  # noqa: F401
    except ImportError:
        print("terminal: skipped (pyte is not installed: pip install pyte)")
        return
    t0 = time.monotonic()
    keys, shots, screens = plan_terminal(seed, ruleset, size)  # (its saves in home/data, as the game's will be)
    print(f"terminal: {len(keys)} keys planned in {time.monotonic() - t0:.1f} s:", repr("".join(keys)))
    shutil.rmtree(home, ignore_errors=True)  # the plan's saves
    home.mkdir(parents=True)
    cols, rows = size
    game = _PtyGame(["play", "--terminal", "--seed", str(seed), "--ruleset", ruleset], home, cols, rows)
    problems: list[str] = []
    try:
        for i in range(len(keys) + 1):
            if not game.wait_for(screens[i]):
                diff = [
                    f"  row {y}: expected {a.rstrip()!r}\n  row {y}:      got {b.rstrip()!r}"
                    for y, (a, b) in enumerate(zip(screens[i], game.rows(), strict=True))
                    if a != b
                ]
                problems.append(
                    f"before key {i} ({keys[i] if i < len(keys) else 'end'!r}), the terminal differs "
                    f"from the plan:\n" + "\n".join(diff[:6])
                )
                print(problems[-1])
            for name in shots.get(i, []):
                write(pyte_console(game.screen), out / f"{name}.png")
            if i < len(keys):
                game.send(keys[i])
        game.send("q")  # quit from the title screen
        game.pump(0.5)
    finally:
        game.close()
    missing = {"title", "explore", "encounter", "look", "log", "help", "combat", "run", "death"} - {
        n for names in shots.values() for n in names
    }
    print(
        f"terminal: {time.monotonic() - t0:.1f} s, missing:",
        missing or "none",
        f"; {len(problems)} differences from the plan" if problems else "",
    )


if __name__ == "__main__":
    main()
