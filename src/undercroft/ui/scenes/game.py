"""What the scenes of a game share (:class:`GameScene`), and the scene of each engine mode.

Each game scene shows one engine mode (explore, encounter, combat, pursuit, the end), in its own module, which
registers it for that mode (``@shows``). After every action the scene asks the game which mode it is in and moves
to that mode's scene (:func:`scene_for_mode`): explore stays at the bottom of the stack and the others are pushed
over it (and popped when the game is back to exploring). Leaving the game (Esc, or its end screen) is ``Home``:
the stack goes back to its home scene, the title screen, which no game scene imports. The scenes hold no rules:
what is open now is ``game.legal(action)``, and why an action was not taken is the engine's refused text.
"""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np
import tcod.console
import tcod.event

from undercroft.narrate import plural, time_left
from undercroft.narrate.refusals import WHEN
from undercroft.rules import items
from undercroft.rules.actions import Action, Drink, Run, Use
from undercroft.rules.events import Refused
from undercroft.rules.levelmap import Point
from undercroft.rules.refusals import Code
from undercroft.rules.types import Mode
from undercroft.sim.odds import PARTY, fight_odds, someone_falls
from undercroft.ui import keymap, render, settings, threat
from undercroft.ui.bar import draw_bar_and_log
from undercroft.ui.layout import TOP, Layout, Rect, panel_on_right
from undercroft.ui.render import DIM, RGB, TEXT
from undercroft.ui.scenes.base import Buttons, Home, Pop, Push, Replace, Scene, Transition
from undercroft.ui.scenes.choice import ChoiceScene
from undercroft.ui.scenes.door import DoorScene, beyond
from undercroft.ui.scenes.help import HelpScene
from undercroft.ui.scenes.inventory import InventoryScene
from undercroft.ui.scenes.log import LogScene
from undercroft.ui.scenes.look import LookScene, draw_hover, explore_odds, odds_line
from undercroft.ui.scenes.menu import MenuScene
from undercroft.ui.scenes.overview import OverviewScene
from undercroft.ui.scenes.prompt import PromptScene
from undercroft.ui.session import Session

Handler = Callable[[str], "Transition | None"]  # a command's handler, given the name of the key pressed
G = TypeVar("G", bound="GameScene")

# The scene of each engine mode, as each scene's module registers it (``@shows``): the scenes of one mode make
# another's without importing it. ``scenes/__init__.py`` imports every scene module, so all are registered before
# any is used (any import of a module under it runs it first).
SCENE_OF_MODE: dict[str, type[GameScene]] = {}


def shows(*modes: Mode) -> Callable[[type[G]], type[G]]:
    """Class decorator: the scene of the game in these ``modes`` (what :func:`scene_for_mode` makes)."""

    def register(cls: type[G]) -> type[G]:
        for mode in modes:
            SCENE_OF_MODE[mode] = cls
        return cls

    return register


def scene_for_mode(session: Session) -> Scene:
    return SCENE_OF_MODE[session.mode](session)


def game_stack(session: Session) -> list[Scene]:
    """The scenes for a game as it stands (a new game, a continued one, a replay at some turn)."""
    base: list[Scene] = [SCENE_OF_MODE[Mode.EXPLORE](session)]
    if session.mode != Mode.EXPLORE:
        base.append(scene_for_mode(session))
    return base


class GameScene(Scene):
    """What every game scene shares: the world drawn below, common keys, following the engine's mode.

    Keys go through the keymap (:mod:`undercroft.ui.keymap`): :meth:`handlers` gives the scene's handler of each
    command of its mode (``keymode``). A click on a choice drawn with :meth:`choice` runs that choice's handler,
    as its key would; the pointer over the map is described on the top row."""

    mode: str = Mode.EXPLORE
    keymode: str = "explore"

    def __init__(self, session: Session) -> None:
        self.session = session
        self.buttons = Buttons()
        self.notice = ""  # why a key did nothing here (walking in a fight): shown in the panel until the next key

    @property
    def hover(self) -> Point | None:
        """The screen cell under the mouse pointer (what the top row describes): the session's, so that every
        game scene, the one just opened included, describes where the pointer is now, not where it last moved."""
        return self.session.pointer

    @hover.setter
    def hover(self, cell: Point | None) -> None:
        self.session.pointer = cell

    def follow(self) -> Transition | None:
        """The transition to the scene of the game's current mode (None: still this one)."""
        mode = self.session.mode
        if mode == self.mode:
            return None
        nxt = scene_for_mode(self.session)
        if self.mode == Mode.EXPLORE:
            return Push(nxt)
        if mode == Mode.EXPLORE:
            return Pop()
        return Replace(nxt)

    def act(self, action: Action) -> Transition | None:
        warning = self.warning(action)
        if warning is not None:
            return warning
        self.session.act(action)
        return self.follow()

    def warning(self, action: Action) -> Transition | None:
        """Before a step into the room of a final guardian (the engine's :meth:`Game.finale_ahead`), once a game
        session: what waits there, what will not work against it and what may, the odds of fighting it (as the
        look panel's), and the question; going in takes the step (an ordinary ``Move``), staying back nothing.
        None when there is nothing to warn of."""
        game = self.session.game
        terms = game.finale_ahead(action)
        if terms is None or terms.group in self.session.warned:
            return None

        def chosen(i: int) -> Transition | None:
            if i != 0:
                return None
            self.session.warned.add(terms.group)
            return self.act(action)

        odds = [text for text, _ in explore_odds(self.session, game.state.group(terms.group))]
        lines = [*threat.finale_lines(game, terms), *odds, "Go in?"]
        return Push(ChoiceScene("The way out", lines, [("g", "Go in"), ("s", "Stay back")], chosen))

    # --- input -------------------------------------------------------------------------------------------------

    def handlers(self) -> dict[str, Handler]:
        """The scene's handler of each command of its keymap mode (a test checks they are the same set)."""
        return {
            "inventory": lambda _k: Push(InventoryScene(self.session, self.drink, self.use_menu, self.panel_rect)),
            "look": lambda _k: Push(LookScene(self.session, self.odds_lines, panel=self.panel_rect)),
            "log": lambda _k: Push(LogScene(self.session)),
            "overview": lambda _k: Push(OverviewScene(self.session)),
            "help": lambda _k: Push(HelpScene()),
            "title": lambda _k: pause(self.session),
        }

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if isinstance(event, tcod.event.MouseMotion):
            self.hover = (int(event.position[0]), int(event.position[1]))
            return None
        if isinstance(event, tcod.event.MouseButtonDown):
            return self.on_click(event)
        if not isinstance(event, tcod.event.KeyDown):
            return None
        hit = keymap.lookup(self.key_mode(), event)
        return self.run(*hit) if hit is not None else None

    def run(self, command: str, key: str) -> Transition | None:
        """Carry out a command of the keymap (``key``: the key's name, or "click")."""
        self.notice = ""
        return self.handlers()[command](key)

    def on_click(self, event: tcod.event.MouseButtonDown) -> Transition | None:
        """A left click on a choice of the panel takes it, as its key would."""
        if event.button != tcod.event.MouseButton.LEFT:
            return None
        what = self.buttons.at(int(event.position[0]), int(event.position[1]))
        if isinstance(what, str) and what in self.handlers():
            return self.run(what, "click")
        if self.session.camera.last.to_map((int(event.position[0]), int(event.position[1]))) is not None:
            self.notice = "a click here takes a choice in the panel (the map walks only while exploring)."
        return None

    def key_mode(self) -> str:
        """The keymap mode of the scene now (a chase has two)."""
        return self.keymode

    def taker(self, action: Action) -> Handler:
        """A handler that takes ``action``."""
        return lambda _key: self.act(action)

    def no_walking(self, text: str) -> Handler:
        """The walking keys where the party cannot walk (a fight, a chase): a notice, no action, no turn."""

        def handler(_key: str) -> Transition | None:
            self.notice = text
            return None

        return handler

    def choice(
        self,
        console: tcod.console.Console,
        x: int,
        y: int,
        command: str,
        label: str,
        enabled: bool,
        width: int,
        *,
        wrap: bool = False,
    ) -> int:
        """A choice of the panel, ``[k] label``, with its key from the keymap; a click on it takes it. ``wrap``: a
        label too long for the row goes on under it (indented), else it is cut. Returns the rows used."""
        key = keymap.key_for(self.key_mode(), command)
        indent = len(key) + 3
        rows = render.wrap(label, width - indent) if wrap else [label]
        render.choice(console, x, y, key, rows[0], enabled, width=width)
        for i, row in enumerate(rows[1:], 1):
            render.put_text(console, x + indent, y + i, row, TEXT if enabled else render.FAINT, width=width - indent)
        for i in range(len(rows)):
            self.buttons.add(x, y + i, width, command)
        return len(rows)

    def refusal_text(self) -> str:
        """Why the last key did nothing ("Not now: ..."): the engine's refusal, or the scene's notice ("": none)."""
        text = self.session.refused or self.notice
        return "Not now: " + text if text else ""

    def refusal_rows(self, w: int) -> int:
        """The rows :meth:`draw_refusal` takes at width ``w`` (what a panel keeps for it below its choices)."""
        text = self.refusal_text()
        return len(render.wrap(text, w)) + 1 if text else 0

    def draw_refusal(self, console: tcod.console.Console, x: int, y: int, w: int) -> int:
        """Why the last key did nothing (:meth:`refusal_text`). Returns the rows used (and one blank after)."""
        text = self.refusal_text()
        if not text:
            return 0
        return render.put_lines(console, x, y, w, [(text, render.KIND_COLOURS["refused"])]) + 1

    def draw_hover_line(
        self, console: tcod.console.Console, panel: Rect | None = None, right: int | None = None
    ) -> None:
        """The top row: what is under the mouse pointer (in every game scene, as exploring), up to column
        ``right``; nothing when the pointer is over the panel, or off the map."""
        s = self.hover
        if s is None or (panel is not None and s in panel):
            return
        p = self.session.camera.last.to_map(s)
        x0, x1 = Layout.of(console.width, console.height).clear(panel)
        draw_hover(console, self.session, p, (right if right is not None else x1 - 1) - x0 - 1, x=x0 + 1)

    def odds_lines(self) -> list[tuple[str, RGB]]:
        """The odds of fighting on from here, computed from the real rules (cached by state: see sim.odds)."""
        odds = fight_odds(self.session.content, self.session.game)
        if odds is None:
            return []
        out = [odds_line(odds, "If you fight on", someone_falls(self.session.content, self.session.game))]
        if len(self.session.game.state.party) > 1 and odds.character != PARTY:
            out.append((f"(for {odds.character} alone, the only one standing)", DIM))
        return out

    def drink_label(self, room: int = 1 << 16) -> str:
        """The drink choice's label with the healing potions carried, in ``room`` columns: "Drink (2 left)", or
        "Drink (2)"; "Drink (none)"."""
        n = items.carried(self.session.content, self.session.game.state.items, "potion")
        long = f"Drink ({n} left)" if n else "Drink (none)"
        return long if len(long) <= room else f"Drink ({n})"

    def drink(self) -> Transition | None:
        """Drink a potion: the one living character at once; in a party, choose who (the most wounded is offered
        first)."""
        party = self.session.game.state.party
        living = [i for i, m in enumerate(party) if m.alive]
        if len(living) == 1:
            return self.act(Drink(living[0]))
        options = [("", f"{m.name} (HP {m.hp}/{m.max_hp})" if m.alive else f"{m.name} (down)") for m in party]
        menu = MenuScene("Who drinks?", options, lambda i: self.act(Drink(i)))
        if living:
            menu.cursor = min(living, key=lambda i: (party[i].hp - party[i].max_hp, i))
        return Push(menu)

    def use_menu(self) -> Transition | None:
        """Use something carried (:mod:`undercroft.rules.items`): choose what, then (in a party) who."""
        game = self.session.game
        wares = items.usable(game)
        if not wares:
            return self.act(Use(0))  # the engine says why not: nothing to use
        every = items.catalogue(self.session.content)
        options = [(keymap.item_letter(every, i), self.item_label(i)) for i in wares]
        return Push(MenuScene("Use what?", options, lambda k: self.use_by(wares[k])))

    def item_label(self, item: str) -> str:
        """ "Healing Potion x3"; "Potion of Heroism x1 (lasts 30 moves, a rest ends it)"; for a lone delver,
        with what the engine says against using it now, in short: "Healing Potion x3 (not hurt)" (in a party, who
        uses it is asked next, and each may differ)."""
        game = self.session.game
        it = self.session.content.items[item]
        label = f"{it.name} x{game.state.items.get(item, 0)}"
        if it.rounds:  # a potion whose effect wears off: how long, in what the player does
            label += f" (lasts {time_left(it.rounds, self.session.content.rules.time, begun=False)})"  # (once drunk)
        if len(game.state.party) == 1:
            why = items.use_refusal(game, item, 0)
            if why is not None and why.code == Code.NOT_NOW:
                label += f" (not {WHEN.get(str(why.fields.get('mode', '')), 'now')})"  # "(not in a fight)"
            elif why is not None:
                said = self.session.narrator.text(Refused(why=why))
                head = said.split(":")[0].split(".")[0]
                label += f" ({head[:1].lower()}{head[1:]})"
        return label

    def use_by(self, item: str) -> Transition | None:
        """Who uses ``item``: the lone delver at once; in a party, choose."""
        party = self.session.game.state.party
        number = items.item_number(self.session.content, item)
        if len(party) == 1:
            return self.act(Use(number, 0))
        options = [("", f"{m.name} (HP {m.hp}/{m.max_hp})" if m.alive else f"{m.name} (down)") for m in party]
        return Push(MenuScene("Who?", options, lambda i: self.act(Use(number, i))))

    def panel_right(self) -> bool:
        """Whether a side panel goes on the right: the party stands in the left part of the level."""
        st = self.session.game.state
        return panel_on_right(st.pos[0], st.level.map.width)

    def panel_rect(self, layout: Layout) -> Rect | None:
        """Where this scene's side panel goes (None: no panel, the whole map shows)."""
        return None

    def faced(self) -> tuple[Point, ...]:
        """The tiles of the creatures the party faces, as the map shows them: kept in view beside the panel with
        the party; with none faced, those in sight (a walk that stops for one in sight shows it)."""
        game = self.session.game
        g = game.state.front_group()
        if g is None:
            return tuple(self.session.view.creatures())
        return tuple(p for p, (shown, _) in self.session.view.creatures().items() if shown is g)

    def draw_world(
        self, console: tcod.console.Console, highlight: int | None = None, target: int | None = None
    ) -> tuple[Layout, Rect | None]:
        """The map through the camera, the status bar and the log, laid out for the console's size; returns the
        layout and where the panel goes."""
        g = self.session.game
        st = g.state
        self.buttons.clear()
        layout = Layout.of(console.width, console.height)
        panel = self.panel_rect(layout)
        m = st.level.map
        seen = st.level.explored
        cols, rows = np.flatnonzero(seen.any(axis=0)), np.flatnonzero(seen.any(axis=1))
        known = (int(cols[0]), int(rows[0]), int(cols[-1]), int(rows[-1])) if cols.size else None
        port = self.session.camera.view(
            layout, (m.width, m.height), st.pos, level=st.depth, panel=panel, keep=self.faced(), known=known
        )
        render.draw_map(console, self.session.view, port=port, highlight=highlight, target=target)
        if panel is not None:  # no map beside the panel's frame, nor under it: the map is the columns it leaves
            c0, c1 = layout.clear(panel)
            console.rgb[:c0, TOP : layout.map_h] = render.SHROUD
            console.rgb[c1:, TOP : layout.map_h] = render.SHROUD
        x0, x1 = layout.text_columns(panel)
        draw_bar_and_log(console, self.session, layout, (x0, x1))
        return layout, panel

    def run_away(self) -> Transition | None:
        """Run: through the one open door at once; with several, choose which (:class:`DoorScene`); with none (or
        no running now), the engine says why not."""
        game = self.session.game
        open_ = [i for i, w in enumerate(game.exits()) if not w.blocked]
        if not game.legal(Run()) or len(open_) <= 1:
            return self.act(Run(door=open_[0]) if len(open_) == 1 else Run())
        return Push(DoorScene(self.session, lambda i: self.act(Run(door=i))))

    def run_label(self, one: str, several: str) -> str:
        """The run choice's label: ``several`` when running is open and a choice of doors follows (more than one
        door is open)."""
        game = self.session.game
        return several if sum(not w.blocked for w in game.exits()) > 1 and game.legal(Run()) else one

    def why_not(self, action: Action) -> str:
        """Why the engine refuses ``action`` now, in its own words as a clause ("the Orc stands between you and
        every way out"; what it says of the other ways, after a colon, left off: the panel lists them), "" when it
        allows it: what a greyed choice says beside it."""
        why = self.session.game.refusal(action)
        if why is None:
            return ""
        text = self.session.narrator.text(Refused(why=why)).rstrip(".").split(": ")[0]
        plain = text.split(" ")[0] in ("The", "You", "There", "A", "An", "No", "Nobody", "Nothing", "Not")
        return text[:1].lower() + text[1:] if plain else text  # (a name keeps its capital)

    def run_beyond(self) -> str:
        """What waits beyond the one door a run takes at once, as the door list says it ("the Gaoler beyond"):
        "" when nothing met is there, or running is not open, or a choice of doors follows."""
        game = self.session.game
        doors = [w for w in game.exits() if not w.blocked]
        return beyond(game, doors[0]) if len(doors) == 1 and game.legal(Run()) else ""

    def draw_panel_events(
        self, console: tcod.console.Console, x: int, y: int, w: int, rows: int, heading: str = "What happened:"
    ) -> None:
        """The last action's outcome, each result with the roll behind it (as the log told it: a group not seen
        yet is not named): the newest results that fit whole in ``rows`` (with the heading); when the older ones
        do not, the heading says where they are ("What happened (before: L):", the whole log)."""
        lines: list[tuple[str, RGB]] = []
        for text, kind in self.session.log.batch if self.session.last_events else []:
            if kind != "detail":
                lines.append((text, render.KIND_COLOURS.get(kind, TEXT)))
        if not lines or rows <= 1:
            return
        room = rows - 1
        start = len(lines)
        while start > 0 and len(render.wrap(lines[start - 1][0], w)) <= room:
            start -= 1
            room -= len(render.wrap(lines[start][0], w))
        if start == len(lines):
            return  # not even the last result fits whole: the log below tells it
        if start:
            heading = f"{heading.removesuffix(':')} (before: L):"
        render.put_text(console, x, y, heading, DIM, width=w)
        render.put_lines(console, x, y + 1, w, lines[start:])


# --- leaving a game ------------------------------------------------------------------------------------------------


def pause(session: Session) -> Transition:
    """Esc on a game screen: a pause menu, never the title at once. Esc again (or ``c``) carries on; ``t`` goes
    back to the title (:func:`leave`), the game kept for Continue; ``w`` sets the share of hit points under which
    walks do not start (:attr:`Session.stop_hp`)."""

    def chosen(i: int) -> Transition | None:
        if i == 1:
            return leave(session)
        if i == 2:
            question = "Travel and auto-explore stop when a character's HP is under this share (0-100, in %):"
            return Push(
                PromptScene(
                    "Walks stop at",
                    question,
                    lambda t: _set_stop_hp(session, t),
                    digits_only=True,
                    max_len=3,
                    initial=str(session.stop_hp),
                )
            )
        return None

    lines = ["The game is saved after every action: Continue on the title screen resumes it."]
    options = [("c", "Carry on (Esc)"), ("t", "Back to the title"), ("w", f"Walks stop under {session.stop_hp}% HP")]
    return Push(ChoiceScene("Paused", lines, options, chosen))


def _set_stop_hp(session: Session, text: str) -> None:
    """The share typed, kept for this game and remembered for the next (in a real game's settings file)."""
    session.stop_hp = min(100, int(text))
    if session.settings_file is not None:
        path = session.settings_file
        settings.save(dataclasses.replace(settings.load(path), stop_hp=session.stop_hp), path)
    session.log.add(f"Travel and auto-explore now stop under {session.stop_hp}% HP.")


def leave(session: Session, note: str = "") -> Transition:
    """Back to the title (``Home``), but never past actions its save could not take (a full disk) without asking:
    try again, write the whole game to the temporary folder or to a place typed, leave them behind, or go back."""
    n = session.unsaved_actions()
    if not n or session.let_go:
        return Home(session)
    error = session.recorder.error if session.recorder is not None else None
    tmp = tempfile.gettempdir()

    def chosen(i: int) -> Transition | None:
        if i == 0:
            return leave(session)
        if i == 1:
            return _write_elsewhere(session, None)
        if i == 2:
            question = "A folder or a file for the whole game:"
            return Push(PromptScene("Write it to", question, lambda t: _write_elsewhere(session, Path(t)), max_len=200))
        if i == 3:
            session.let_go = True
            return Home(session)
        return None

    lines = [
        f"{plural(n, 'action')} of this game are not in its save ({error or 'the disk refused them'}).",
        "They are lost if you leave without them; the whole game can be written to another place instead.",
    ]
    return Push(
        ChoiceScene(
            "Not saved",
            [*lines, note] if note else lines,
            [
                ("r", "Try the save again"),
                ("t", f"Write the whole game to {tmp}"),
                ("p", "Write the whole game to a place you type"),
                ("d", f"Leave without the {plural(n, 'action')} (they are lost)"),
                ("g", "Go back to the game"),
            ],
            chosen,
        )
    )


def _write_elsewhere(session: Session, where: Path | None) -> Transition:
    try:
        session.save_elsewhere(where)
    except (OSError, ValueError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return leave(session, f"It could not be written there: {reason}.")
    return Home(session)
