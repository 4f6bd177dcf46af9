"""Regenerate the screenshots of docs/screenshots/ (no window needed).

    python docs/screenshots/make_screenshots.py [--seed N] [--out docs/screenshots] [--only SET ...]

Four sets (``--only`` picks some; all by default):

``window``    the window's console, 80x50, in the small tileset (10x16 px tiles): ``OUT/*.png``
``large``     the same frames in the large tileset (20x32 px tiles, the window on a high-resolution screen):
              ``OUT/large/*.png``
``wide``      a 120x50 console in the small tileset (a maximised window shows more of the map): ``OUT/wide/*.png``
``terminal``  ``undercroft play --terminal`` for real, in a pseudo-terminal of 80x24, its screen read by pyte and
              drawn cell by cell (glyph, foreground, background) in the small tileset: ``OUT/terminal/*.png``

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
from typing import Any

from tcod.event import KeyDown, KeySym, Modifier

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
ARROWS = {(0, -1): KeySym.UP, (0, 1): KeySym.DOWN, (-1, 0): KeySym.LEFT, (1, 0): KeySym.RIGHT}
SETS = ("window", "large", "wide", "terminal")
SCENES = ("explore", "encounter", "unseen", "combat", "run", "death")
TERM_SIZE = (80, 24)
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
        if "terminal" in args.only:
            terminal_shots(args.term_seed, args.term_ruleset, out / "terminal", fresh("terminal"))
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
    import tcod.event

    from undercroft.content import load_content
    from undercroft.paths import data_dir
    from undercroft.rules import dungeon
    from undercroft.rules.actions import Fight, Run
    from undercroft.ui import loop
    from undercroft.ui.frontend import NullFrontEnd
    from undercroft.ui.keys import key
    from undercroft.ui.scenes import SceneStack, TitleScene, game_stack
    from undercroft.ui.session import Session

    content = load_content(data_dir())

    def shot(frontend: NullFrontEnd, name: str) -> None:
        """The frame the loop has just presented."""
        assert frontend.console is not None
        for directory, tileset in outputs:
            write(frontend.console, directory / f"{name}.png", tileset)

    title = TitleScene(content, seed=first_seed)
    title.seed_typed = False
    fe = NullFrontEnd(size=size)
    loop.run(fe.open, lambda: SceneStack([title]), max_frames=1)
    shot(fe, "title")

    def step_key(session: Session) -> KeySym:
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

    taken: set[str] = set()

    def play(seed: int) -> None:
        """One game of ``seed`` through the loop, photographing each scene the first time it looks its part."""
        stack = loop.play_stack(content, loop.PlayOptions(seed=seed))
        frontend = NullFrontEnd(size=size)
        presses = [0]

        def script(timeout: float | None) -> list[tcod.event.Event] | None:
            """Called as the loop waits for input: the frame on the front end is the game as it is now."""
            top = type(stack.top).__name__
            session = stack.top.session  # type: ignore[attr-defined]
            st = session.game.state
            if (
                top == "ExploreScene"
                and "explore" not in taken
                and st.turn >= 30
                and st.level.explored.sum() > 500
                and st.party[0].hp * 3 >= st.party[0].max_hp * 2
            ):
                shot(frontend, "explore")
                taken.add("explore")
            if (
                top == "EncounterScene"
                and "encounter" not in taken
                and st.encounter is not None
                and not st.encounter.out_of_sight
                and len(session.game.state.level.groups)
                and st.turn > 10
            ):
                shot(frontend, "encounter")
                taken.add("encounter")
            if (
                top == "EncounterScene"
                and "unseen" not in taken
                and st.encounter is not None
                and st.encounter.out_of_sight
            ):
                shot(frontend, "unseen")
                taken.add("unseen")
            swung = any(e.type == "attack" and e.get("attacker_side") == "party" for e in session.last_events)
            if (
                top == "CombatScene"
                and "combat" not in taken
                and st.combat is not None
                and st.combat.round >= 2
                and swung
            ):
                shot(frontend, "combat")
                taken.add("combat")
            if top == "DoorScene" and "run" not in taken:  # the choice of doors, over the fight
                shot(frontend, "run")
                taken.add("run")
                return [key(KeySym.ESCAPE)]
            game = session.game
            front = st.front_group()
            if (
                top == "CombatScene"
                and "combat" in taken
                and "run" not in taken
                and game.legal(Run())
                and front is not None
                and len(front.alive) >= 2
                and sum(not w.blocked for w in game.exits()) >= 2
            ):
                return [key(KeySym.R)]
            if top == "EndScene":
                if "death" not in taken and st.mode == "dead":
                    shot(frontend, "death")
                    taken.add("death")
                return None  # close
            presses[0] += 1
            if presses[0] > 600:
                return None
            return [key(step_key(session))]

        frontend.source = script
        loop.run(frontend.open, lambda: stack)

    for seed in range(first_seed, first_seed + 200):
        play(seed)
        if set(SCENES) <= taken:
            break
    # the help overlay over a game
    fe = NullFrontEnd([[key(KeySym.SLASH, Modifier.LSHIFT)]], size=size)
    loop.run(fe.open, lambda: SceneStack(game_stack(Session.new(content, "undercroft", first_seed))), max_frames=2)
    shot(fe, "help")
    print(f"window {size[0]}x{size[1]}: missing:", set(SCENES) - taken or "none")


# --- the terminal: planned on the null front end, played in a pseudo-terminal ----------------------------------


def key_event(c: str) -> KeyDown:
    """The key press that types ``c`` (a character, Esc or Enter), as the terminal front end reports it."""
    from undercroft.ui.keys import key

    named = {
        "\x1b": key(KeySym.ESCAPE),
        "\r": key(KeySym.RETURN),
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


def plan_terminal(seed: int, ruleset: str) -> Plan:
    """Play ``seed`` of ``ruleset`` on a null front end of 80x24 with a script that visits every scene.

    Returns the keys (characters), the names of the screenshots to take before key ``i`` (``len(keys)``: at the
    end, on the title screen), and the screen expected before each key and at the end."""
    import tcod.event

    from undercroft.content import load_content
    from undercroft.paths import data_dir
    from undercroft.rules.actions import Fight, Run
    from undercroft.ui import loop
    from undercroft.ui.frontend import NullFrontEnd

    content = load_content(data_dir())
    stack = loop.play_stack(content, loop.PlayOptions(ruleset=ruleset, seed=seed))
    fe = NullFrontEnd(size=TERM_SIZE)
    keys: list[str] = []
    screens: list[list[str]] = []
    shots: dict[int, list[str]] = {}
    taken: set[str] = set()
    queued: list[str] = []
    waits = [0]

    def script(timeout: float | None) -> list[tcod.event.Event] | None:
        if timeout is not None:  # a walk (auto-explore) under way: let it go on
            return []
        assert fe.console is not None
        top = type(stack.top).__name__

        def shoot(name: str) -> None:
            if name not in taken:
                taken.add(name)
                shots.setdefault(len(keys), []).append(name)

        def press(c: str) -> list[tcod.event.Event]:
            screens.append(screen_text(fe.console))
            keys.append(c)
            return [key_event(c)]

        overlay = {"LookScene": "look", "LogScene": "log", "HelpScene": "help", "DoorScene": "run"}.get(top)
        if overlay:
            shoot(overlay)
        if queued:
            return press(queued.pop(0))
        if top == "TitleScene":
            shoot("title")
            screens.append(screen_text(fe.console))
            return None  # the end
        session = stack.top.session  # type: ignore[attr-defined]
        game = session.game
        st = game.state
        if top == "EndScene":
            shoot("death" if st.mode == "dead" else "victory")
            return press("\r")
        if len(keys) > 300:
            raise RuntimeError(f"seed {seed} ({ruleset}): no end within 300 keys")
        if top == "ExploreScene":
            if waits[0] < 1:  # a turn's rest, then auto-explore
                waits[0] += 1
                return press("z")
            if st.turn >= 6:
                shoot("explore")
            return press("x")
        if top == "EncounterScene":
            assert st.encounter is not None
            if st.encounter.out_of_sight:
                shoot("unseen")
                return press("w")
            if "encounter" not in taken:
                shoot("encounter")
                queued.extend([";", "\x1b", "L", "\x1b", "?", "\x1b"])  # look, the log, help; then back
                return press(queued.pop(0))
            return press("f" if game.legal(Fight()) else "r")
        if top == "CombatScene":
            assert st.combat is not None
            swung = any(e.type == "attack" and e.get("attacker_side") == "party" for e in session.last_events)
            if st.combat.round >= 2 and swung:
                shoot("combat")
            if (
                "combat" in taken
                and "run" not in taken
                and game.legal(Run())
                and sum(not w.blocked for w in game.exits()) >= 2
            ):
                return press("r")
            return press("a")
        if top == "DoorScene":
            return press("\x1b")  # stay and fight on
        if top == "PursuitScene":
            return press("f")
        return press("\x1b")

    fe.source = script
    loop.run(fe.open, lambda: stack)
    return keys, shots, screens


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


def terminal_shots(seed: int, ruleset: str, out: Path, home: Path) -> None:
    """The terminal set: plan the keys, then type them into the real game in an 80x24 pty and photograph it."""
    try:
        import pyte  # noqa: F401
    except ImportError:
        print("terminal: skipped (pyte is not installed: pip install pyte)")
        return
    t0 = time.monotonic()
    keys, shots, screens = plan_terminal(seed, ruleset)  # (its saves in home/data, as the game's will be)
    print(f"terminal: {len(keys)} keys planned in {time.monotonic() - t0:.1f} s:", repr("".join(keys)))
    shutil.rmtree(home, ignore_errors=True)  # the plan's saves
    home.mkdir(parents=True)
    cols, rows = TERM_SIZE
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
