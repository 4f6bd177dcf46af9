"""The scenes of a game: explore, encounter, combat, pursuit, and the end (death or victory).

Each scene belongs to one engine mode. After every action the scene asks the game which mode it is in and moves
to that mode's scene: explore stays at the bottom of the stack and the others are pushed over it (and popped when
the game is back to exploring). The scenes hold no rules: what is open now is ``game.legal(action)``, and why an
action was not taken is the engine's refused text.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import tcod.console
import tcod.event

from undercroft import travel
from undercroft.narrate import plural
from undercroft.rules import formulas
from undercroft.rules.actions import (
    Action,
    Attack,
    Bribe,
    Descend,
    Drink,
    DropFood,
    DropTreasure,
    Fight,
    Move,
    Pursue,
    Rest,
    Run,
    Talk,
    ThrowOil,
    Wait,
)
from undercroft.rules.approach import Exit
from undercroft.rules.events import Event
from undercroft.rules.levelmap import Point
from undercroft.rules.names import The, a_name, group_name, the
from undercroft.rules.state import Group
from undercroft.rules.types import OVER, Mode, Side
from undercroft.sim.odds import PARTY, fight_odds
from undercroft.ui import keymap, keys, render
from undercroft.ui.keymap import WALK
from undercroft.ui.layout import Layout, Rect, panel_on_right
from undercroft.ui.palette import DOOR_BLOCKED_BG, DOOR_CURSOR_BG, DOOR_OPEN_BG
from undercroft.ui.render import DIM, FAINT, KEY, RGB, TEXT, TITLE
from undercroft.ui.scenes.base import Buttons, Pop, Push, Replace, Reset, Scene, Transition
from undercroft.ui.scenes.look import LookScene, draw_hover, odds_line
from undercroft.ui.scenes.overlays import HelpScene, InventoryScene, LogScene, MenuScene, PromptScene
from undercroft.ui.session import Session, end_lines


def scene_for_mode(session: Session) -> Scene:
    mode = session.mode
    if mode == Mode.ENCOUNTER:
        return EncounterScene(session)
    if mode == Mode.COMBAT:
        return CombatScene(session)
    if mode == Mode.PURSUIT:
        return PursuitScene(session)
    if mode in OVER:
        return EndScene(session)
    return ExploreScene(session)


def game_stack(session: Session) -> list[Scene]:
    """The scenes for a game as it stands (a new game, a continued one, a replay at some turn)."""
    base: list[Scene] = [ExploreScene(session)]
    if session.mode != Mode.EXPLORE:
        base.append(scene_for_mode(session))
    return base


def _title(session: Session) -> Scene:
    from undercroft.ui.scenes.title import TitleScene

    return TitleScene(session.content, ruleset=session.game.ruleset_id, left=session)


Handler = Callable[[str], "Transition | None"]  # a command's handler, given the name of the key pressed


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
        self.hover: Point | None = None  # the map tile under the mouse pointer (described on the top row)
        self.notice = ""  # why a key did nothing here (walking in a fight): shown in the panel until the next key

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
        self.session.act(action)
        return self.follow()

    # --- input -------------------------------------------------------------------------------------------------

    def handlers(self) -> dict[str, Handler]:
        """The scene's handler of each command of its keymap mode (a test checks they are the same set)."""
        return {
            "inventory": lambda _k: Push(InventoryScene(self.session, self.drink)),
            "look": lambda _k: Push(LookScene(self.session, self.odds_lines)),
            "log": lambda _k: Push(LogScene(self.session)),
            "help": lambda _k: Push(HelpScene()),
            "title": lambda _k: Reset(_title(self.session)),
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
        self, console: tcod.console.Console, x: int, y: int, command: str, label: str, enabled: bool, width: int
    ) -> None:
        """A choice of the panel, ``[k] label``, with its key from the keymap; a click on it takes it."""
        render.choice(console, x, y, keymap.key_for(self.key_mode(), command), label, enabled, width=width)
        self.buttons.add(x, y, width, command)

    def draw_refusal(self, console: tcod.console.Console, x: int, y: int, w: int) -> int:
        """Why the last key did nothing ("Not now: ..."): the engine's refusal, or the scene's notice. Returns the
        rows used (and one blank after)."""
        text = self.session.refused or self.notice
        if not text:
            return 0
        return render.put_lines(console, x, y, w, [("Not now: " + text, render.KIND_COLOURS["refused"])]) + 1

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
        out = [odds_line(odds, "If you fight on")]
        if len(self.session.game.state.party) > 1 and odds.character != PARTY:
            out.append((f"(for {odds.character} alone, the only one standing)", DIM))
        return out

    def drink(self) -> Transition | None:
        """Drink a potion: the lone delver at once; in a party, choose who (the most wounded is offered first)."""
        party = self.session.game.state.party
        if len(party) == 1:
            return self.act(Drink(0))
        options = [("", f"{m.name} (HP {m.hp}/{m.max_hp})" if m.alive else f"{m.name} (down)") for m in party]
        menu = MenuScene("Who drinks?", options, lambda i: self.act(Drink(i)))
        living = [i for i, m in enumerate(party) if m.alive]
        if living:
            menu.cursor = min(living, key=lambda i: (party[i].hp - party[i].max_hp, i))
        return Push(menu)

    def panel_right(self) -> bool:
        """Whether a side panel goes on the right: the party stands in the left part of the level."""
        st = self.session.game.state
        return panel_on_right(st.pos[0], st.level.map.width)

    def panel_rect(self, layout: Layout) -> Rect | None:
        """Where this scene's side panel goes (None: no panel, the whole map shows)."""
        return None

    def faced(self) -> tuple[Point, ...]:
        """The tiles of the creatures the party faces, in sight: kept in view beside the panel with the party."""
        game = self.session.game
        g = game.state.front_group()
        enc = game.state.encounter
        if g is None or (enc is not None and enc.out_of_sight):
            return ()
        vis = game.visible()
        tiles = game.creature_tiles(g)
        return tuple(tiles[i] for i in g.alive if vis[tiles[i][1], tiles[i][0]])

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
        view = self.session.camera.view(
            layout, (m.width, m.height), st.pos, level=st.depth, panel=panel, keep=self.faced()
        )
        render.draw_map(console, g, view=view, highlight=highlight, target=target)
        x0, x1 = layout.text_columns(panel)
        render.draw_status(console, g, layout.status_y, seed=self.session.seed_label, x=x0, width=x1 - x0)
        if self.session.save_problem():  # a full disk: said on the bar as long as it lasts (the log says why)
            render.put_text(console, x1 - 12, layout.status_y, " NOT SAVED ", render.BAD, render.STATUS_BG)
        render.draw_log(
            console,
            self.session.log.lines,
            layout.log_y,
            layout.log_rows,
            fresh=self.session.log.fresh,
            x=x0,
            width=x1 - x0,
        )
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

    def draw_panel_events(
        self, console: tcod.console.Console, x: int, y: int, w: int, rows: int, heading: str = "What happened:"
    ) -> None:
        """The last action's outcome, each result with the roll behind it (as the log told it: a group not seen
        yet is not named)."""
        lines: list[tuple[str, RGB]] = []
        for text, kind in self.session.log.batch if self.session.last_events else []:
            if kind != "detail":
                lines.append((text, render.KIND_COLOURS.get(kind, TEXT)))
        if not lines or rows <= 1:
            return
        sizes = [len(render.wrap(t, w)) for t, _ in lines]
        if sum(sizes) > rows - 1 and sizes[-1] + 1 > rows - 1:
            return  # not even the last result fits whole: the log below tells it
        render.put_text(console, x, y, heading, DIM)
        render.put_lines(console, x, y + 1, w, lines, max_rows=rows - 1)


# Travel: the events of a step that let a trip go on (any other one stops it: a pickup, a meeting, a refusal...).
QUIET_EVENTS: Final = frozenset({"move", "enter", "roll"})
TRAVEL_STEP_S: Final = 0.03  # between two steps of a trip: the walk is seen, and a key can stop it


@dataclass
class Trip:
    """A walk in progress, one ordinary ``Move`` a tick: to ``goal`` (travel), or, with ``explore``, to the
    nearest place left to explore (``goal`` the one aimed at now). It stops when anything happens."""

    goal: Point | None
    explore: bool
    hp: tuple[int, ...]
    seen: frozenset[int]  # the groups in sight at the last step
    caution: int = travel.WARY  # BOLD: past the monsters left behind, or into one in the way


class ExploreScene(GameScene):
    mode = Mode.EXPLORE
    keymode = "explore"

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.trip: Trip | None = None
        self.insist = False  # auto-explore stopped short of the monsters left behind: x again goes past them

    def handlers(self) -> dict[str, Handler]:
        return {
            **super().handlers(),
            "walk": lambda k: self.act(Move(*WALK[k])),
            "stairs": lambda _k: self.to_stairs(),
            "explore": lambda _k: self.start(None, explore=True),
            "rest": lambda _k: self.act(Rest()),
            "drink": lambda _k: self.drink(),
            "fight": lambda _k: self.act(Fight()),  # a monster met and left alone, or one under terms
            "pursue": lambda _k: self.act(Pursue()),  # a group that has just gone its way
        }

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if self.trip is not None and isinstance(event, (tcod.event.KeyDown, tcod.event.MouseButtonDown)):
            self.trip = None  # any key (or click) stops a walk, and does nothing else
            return None
        if isinstance(event, tcod.event.MouseButtonDown):
            self.insist = False
        return super().on_event(event)

    def run(self, command: str, key: str) -> Transition | None:
        if command != "explore":
            self.insist = False  # x again (and only x) goes past the monsters left behind
        return super().run(command, key)

    def on_click(self, event: tcod.event.MouseButtonDown) -> Transition | None:
        if self.buttons.at(int(event.position[0]), int(event.position[1])) is not None:
            return super().on_click(event)  # the [p] pursue offer
        return self.click(event)

    # --- travel ------------------------------------------------------------------------------------------------

    def tick_interval(self) -> float | None:
        return TRAVEL_STEP_S if self.trip is not None else None

    def on_tick(self) -> Transition | None:
        return self.travel_step()

    def click(self, event: tcod.event.MouseButtonDown) -> Transition | None:
        """A left click on a known tile of the map: travel there."""
        if event.button != tcod.event.MouseButton.LEFT:
            return None
        p = self.session.camera.last.to_map((int(event.position[0]), int(event.position[1])))
        lv = self.session.game.state.level
        if p is None or not (0 <= p[1] < lv.map.height and 0 <= p[0] < lv.map.width) or not lv.explored[p[1], p[0]]:
            return None
        if p == self.session.game.state.pos:
            return None
        return self.start(p)

    def to_stairs(self) -> Transition | None:
        """``>``: down the stairs when the party stands on them, else travel to them once they are known."""
        game = self.session.game
        stairs = travel.stairs(game)
        if game.legal(Descend()) or stairs is None or stairs == game.state.pos:
            return self.act(Descend())  # taken, or the engine says why not
        if not travel.path(game, stairs):
            self.session.log.add("You know of no way to the stairs from here.", "refused")
            return None
        return self.start(stairs)

    def start(self, goal: Point | None, *, explore: bool = False) -> Transition | None:
        """Begin a walk; its first step is taken at once, the others one a tick."""
        game = self.session.game
        self.trip = Trip(
            goal,
            explore,
            tuple(m.hp for m in game.state.party),
            travel.visible_groups(game),
            travel.BOLD if explore and self.insist else travel.WARY,
        )
        self.insist = False
        if not explore and goal is not None and not travel.path(game, goal):
            self.trip = None
            self.session.log.add("You know of no way there.", "refused")
            return None
        return self.travel_step()

    def travel_step(self) -> Transition | None:
        """One step of the walk, through the session like any key press; the walk ends when anything happens."""
        trip = self.trip
        game = self.session.game
        if trip is None or self.session.mode != Mode.EXPLORE:
            self.trip = None
            return None
        if trip.explore:
            trip.goal = travel.explore_target(game, trip.goal, trip.caution)
            if trip.goal is None:
                self.trip = None
                self.session.log.add(self.explored_text())
                return None
        assert trip.goal is not None
        move = travel.step_toward(game, trip.goal, trip.caution)
        if move is None:
            self.trip = None
            return None
        events = self.session.act(move)
        if self.interrupted(trip, events) or (not trip.explore and game.state.pos == trip.goal):
            self.trip = None
        return self.follow()

    def interrupted(self, trip: Trip, events: list[Event]) -> bool:
        """Whether a step's outcome stops the walk: a refusal, anything but walking on (a pickup, a monster
        check that finds something), another mode, HP changed, a group come into sight."""
        game = self.session.game
        if self.session.mode != Mode.EXPLORE or any(e.type not in QUIET_EVENTS for e in events):
            return True
        if any(e.type == "roll" and e.get("result") not in ("none", "", None) for e in events):
            return True
        hp = tuple(m.hp for m in game.state.party)
        seen = travel.visible_groups(game)
        new = seen - trip.seen
        trip.seen = seen
        if hp != trip.hp:
            return True
        return bool(new)

    def explored_text(self) -> str:
        """What auto-explore says when nothing reachable is left: where the stairs are."""
        game = self.session.game
        stairs = travel.stairs(game)
        if travel.explore_target(game, caution=travel.BOLD) is not None:
            self.insist = True
            return "Nothing more to explore without going past a monster (x again: go anyway)."
        if stairs is None:
            return "Explored. No stairs are known on this level."
        px, py = game.state.pos
        dx, dy = stairs[0] - px, stairs[1] - py
        n = max(abs(dx), abs(dy))
        if n == 0:
            return "Explored. You stand on the stairs."
        return f"Explored. The stairs are {render.compass(dx, dy)}, {n} tile{'' if n == 1 else 's'} away (> to go)."

    def fleeing(self) -> Group | None:
        """The group that has just gone its way, when the party may go after it now."""
        game = self.session.game
        st = game.state
        if not st.fled or not game.legal(Pursue()):
            return None
        return next((g for g in st.level.groups if g.id == st.fled), None)

    def on_draw(self, console: tcod.console.Console) -> None:
        away = self.fleeing()
        self.draw_world(console, highlight=away.id if away is not None else None)
        g = self.session.game
        name = f" Level {g.state.depth + 1}: {g.rs.levels[g.state.depth].name} "
        render.put_text(console, console.width - len(name) - 1, 0, name, TITLE, render.BLACK)
        if away is not None:
            mon = g.monster_of(away)
            name, many = group_name(mon.name, mon.plural, away.count_told)
            offer = f" {The(name)} {'go their' if many else 'goes its'} way: "
            x = 1
            render.put_text(console, x, 0, offer, render.hex_rgb(mon.colour), render.PANEL_BG)
            x += len(offer)
            render.put_text(console, x, 0, "[p]", render.KEY, render.PANEL_BG)
            render.put_text(console, x + 3, 0, " pursue ", TEXT, render.PANEL_BG)
            self.buttons.add(x, 0, 11, "pursue")
        elif self.trip is None:
            self.draw_hover_line(console, right=console.width - len(name) - 3)


# --- the encounter ---------------------------------------------------------------------------------------------

ENCOUNTER_CHOICES: list[tuple[str, str, Action]] = [  # (keymap command, label, the action it takes)
    ("fight", "Fight", Fight()),
    ("talk", "Talk", Talk()),
    ("bribe", "Bribe...", Bribe(0)),
    ("run", "Run", Run()),
    ("wait", "Wait", Wait()),
    ("food", "Drop food", DropFood()),
    ("treasure", "Drop treasure", DropTreasure()),
    ("oil", "Burning oil", ThrowOil()),
    ("drink", "Drink", Drink()),
]


class EncounterScene(GameScene):
    """The monsters met (name, count, distance, surprise, reaction) and the choices with their keys."""

    mode = Mode.ENCOUNTER
    keymode = "encounter"

    def panel_rect(self, layout: Layout) -> Rect | None:
        return layout.panel(self.panel_right())

    def group(self) -> Group | None:
        return self.session.game.state.front_group()

    def handlers(self) -> dict[str, Handler]:
        out: dict[str, Handler] = {**super().handlers()}
        for command, _, action in ENCOUNTER_CHOICES:
            out[command] = self.taker(action)
        out.update(
            {
                "walk": lambda k: self.act(Move(*WALK[k])),
                "stairs": lambda _k: self.act(Descend()),  # the engine says why not, if not
                "bribe": lambda _k: self.bribe_prompt(),
                "drink": lambda _k: self.drink(),
                "run": lambda _k: self.run_away(),
            }
        )
        return out

    def bribe_prompt(self) -> Transition | None:
        """Ask how much gold, when a bribe can be offered now; else the engine says why not (no prompt)."""
        if not self.session.game.legal(Bribe(0)):
            return self.act(Bribe(0))
        gold = self.session.game.state.gold

        def done(text: str) -> Transition | None:
            return self.act(Bribe(int(text)))

        return Push(
            PromptScene(
                "Bribe",
                f"How much gold do you offer? (you have {gold})",
                done,
                digits_only=True,
                max_len=7,
                hint=self.bribe_hint,
            )
        )

    def bribe_hint(self, text: str) -> str:
        g = self.group()
        game = self.session.game
        if g is None or not text.isdigit():
            return ""
        cell = formulas.bribe_cell(game.content.tables.bribery, game.monster_of(g), int(text))
        if cell is None:  # below the table's first row: the engine will say why on Enter
            return ""
        digit = cell[2]
        die = game.content.tables.bribery.die
        return f"The table says: accepted on 1d{die} <= {digit}."

    def info_lines(self) -> list[tuple[str, RGB]]:
        game = self.session.game
        st = game.state
        g = self.group()
        enc = st.encounter
        if g is None or enc is None:
            return []
        proc = game.proc
        out: list[tuple[str, RGB]]
        if enc.out_of_sight:  # 003: the party does not know what it is until it comes into sight
            out = [("Something is out there, coming closer.", render.ALERT)]
            if proc.distance:
                out.append((f"Distance: {enc.distance} ft (out of sight)", TEXT))
            out.append(("You cannot see what it is yet: wait for it, walk on, or run.", DIM))
            return out
        mon = game.monster_of(g)
        alive = g.alive
        head = f"{len(alive)} x {mon.name}" if len(alive) > 1 else a_name(mon.name)
        out = [(f"{head} ({g.origin})", render.hex_rgb(mon.colour))]
        out.append(
            (
                "HP " + "  ".join(str(g.hp[i]) for i in alive) + f"  (max {g.max_hp})"
                if len(alive) > 1
                else f"HP {g.hp[alive[0]]}/{g.max_hp}"
                if alive
                else "",
                TEXT,
            )
        )
        if proc.distance:
            out.append((f"Distance: {enc.distance} ft", TEXT))
        if proc.surprise:
            if enc.party_surprised and enc.monster_surprised:
                s = "both sides"
            elif enc.party_surprised:
                s = "you are surprised"
            elif enc.monster_surprised:
                who, many = group_name(mon.name, mon.plural, g.count_told)
                s = f"{the(who)} {'are' if many else 'is'} surprised"
            else:
                s = "nobody"
            out.append((f"Surprise: {s}", TEXT))
        if proc.reaction and g.reaction:
            label = next(
                (b.label for b in game.content.tables.reaction.bands if b.result == g.reaction_result),
                g.reaction_result,
            )
            out.append((f"Reaction: {g.reaction}, {label}", TEXT))
        talk = []
        if g.negotiated:
            talk.append("talked")
        if g.bribe_tried:
            talk.append("bribe offered")
        if talk:
            out.append(("Already: " + ", ".join(talk), DIM))
        out.extend(self.odds_lines())
        out.append((mon.description, DIM))
        return out

    def on_draw(self, console: tcod.console.Console) -> None:
        g = self.group()
        _, r = self.draw_world(console, highlight=g.id if g is not None else None)
        assert r is not None
        game = self.session.game
        x, w, bottom = r.x, r.w, r.y + r.h - 1
        render.panel(console, r.x, r.y, r.w, r.h, "Encounter")
        self.draw_hover_line(console, r)
        y = r.y + 2
        compact = r.h < 30  # a short screen: the choices in two columns, the run choice's label short
        stairs = game.legal(Descend())  # on the stairs (the last level's way out) with a monster that lets you go
        choices = (len(ENCOUNTER_CHOICES) + 1) // 2 if compact else len(ENCOUNTER_CHOICES)
        below = 2 + choices + int(stairs) + 2  # "Your choice:", the choices, the stairs, the walking hint
        y += render.put_lines(
            console, x + 2, y, w - 4, self.info_lines(), max_rows=max(3, bottom - y - below), keep_last=False
        )
        y += 1
        render.put_text(console, x + 2, y, "Your choice:", TITLE)
        y += 1
        col = (w - 4) // 2
        for i, (command, label, action) in enumerate(ENCOUNTER_CHOICES):
            if command == "run":
                label = self.run_label(label, "Run..." if compact else "Run... (choose a door)")
            if compact:
                self.choice(
                    console, x + 2 + col * (i // choices), y + i % choices, command, label, game.legal(action), col
                )
            else:
                self.choice(console, x + 2, y + i, command, label, game.legal(action), w - 4)
        y += choices
        if stairs:
            final = game.rs.levels[game.state.depth].final
            self.choice(
                console, x + 2, y, "stairs", "Leave: out, and win" if final else "Go down the stairs", True, w - 4
            )
            y += 1
        render.put_text(
            console, x + 2, y, "walking keys: walk on, or away", TEXT if game.legal(Move(1, 0)) else FAINT, width=w - 4
        )
        y += 2
        y += self.draw_refusal(console, x + 2, y, w - 4)
        self.draw_panel_events(console, x + 2, y, w - 4, bottom - y)


# --- the fight ---------------------------------------------------------------------------------------------------


class CombatScene(GameScene):
    """Every combatant with its HP; choose a target; attack, drink, throw oil, hold back, or run out the door."""

    mode = Mode.COMBAT
    keymode = "fight"

    def panel_rect(self, layout: Layout) -> Rect | None:
        return layout.panel(self.panel_right())

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.target = 0

    def group(self) -> Group | None:
        return self.session.game.state.front_group()

    def _fix_target(self) -> None:
        g = self.group()
        if g is None or not g.alive:
            return
        if self.target not in g.alive:
            later = [i for i in g.alive if i > self.target]
            self.target = later[0] if later else g.alive[0]

    def _cycle(self, step: int) -> Transition | None:
        g = self.group()
        if g is None or not g.alive:
            return None
        self._fix_target()
        alive = g.alive
        self.target = alive[(alive.index(self.target) + step) % len(alive)]
        return None

    def handlers(self) -> dict[str, Handler]:
        return {
            **super().handlers(),
            "walk": self.no_walking("no walking away from a fight: r runs through a door."),
            "next": lambda _k: self._cycle(1),
            "previous": lambda _k: self._cycle(-1),
            "fight": lambda _k: self.act(Attack(self.target)),
            "oil": lambda _k: self.act(ThrowOil(self.target)),
            "wait": lambda _k: self.act(Wait()),
            "run": lambda _k: self.run_away(),
            "drink": lambda _k: self.drink(),
        }

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        self._fix_target()
        return super().on_event(event)

    def on_click(self, event: tcod.event.MouseButtonDown) -> Transition | None:
        """A click on a living creature (its row in the panel, or its tile on the map) targets it."""
        if event.button != tcod.event.MouseButton.LEFT:
            return None
        x, y = int(event.position[0]), int(event.position[1])
        what = self.buttons.at(x, y)
        if isinstance(what, int):
            self.target = what
            return None
        if what is not None:
            return super().on_click(event)
        g = self.group()
        p = self.session.camera.last.to_map((x, y))
        if g is not None and p is not None:
            tiles = self.session.game.creature_tiles(g)
            hit = [i for i in g.alive if tiles[i] == p]
            if hit:
                self.target = hit[0]
        return None

    def on_draw(self, console: tcod.console.Console) -> None:
        self._fix_target()
        g = self.group()
        _, r = self.draw_world(console, highlight=g.id if g is not None else None, target=self.target)
        assert r is not None
        game = self.session.game
        st = game.state
        x, w, bottom = r.x, r.w, r.y + r.h - 1
        c = st.combat
        render.panel(console, r.x, r.y, r.w, r.h, f"Fight, round {c.round}" if c is not None else "Fight")
        self.draw_hover_line(console, r)
        y = r.y + 2
        if c is not None:
            turn = "Your turn." if c.party_turn else "Their turn."
            if st.exhausted:
                turn += " You are exhausted."
            render.put_text(console, x + 2, y, turn, TITLE)
            y += 2
        for m in st.party:
            colour = TEXT if m.alive else FAINT
            hp = f"HP {m.hp}/{m.max_hp}" if m.alive else "down"
            render.put_text(console, x + 4, y, f"{m.name:<20} {hp}", colour)
            y += 1
        y += 1
        if g is not None:
            mon = game.monster_of(g)
            mcol = render.hex_rgb(mon.colour)
            n = len(g.hp)
            room = max(2, bottom - y - 12)  # what the odds, the choices and the hint leave for the list
            first, last = 0, n
            if n > room:  # a window of the list around the target, the rest counted
                first = max(0, min(n - (room - 1), self.target - (room - 1) // 2))
                last = first + room - 1
            for i in range(first, last):
                hp_i = g.hp[i]
                name = self.session.narrator.creature(g.monster, i, n)
                sel = i == self.target and hp_i > 0
                label = f"{i + 1}. {name:<17} " + (f"HP {hp_i}/{g.max_hp}" if hp_i > 0 else "dead")
                if sel:
                    console.draw_rect(x + 1, y, w - 2, 1, ord(" "), bg=render.SELECT_BG)
                    render.put_text(console, x + 2, y, ">", render.KEY, render.SELECT_BG)
                render.put_text(
                    console,
                    x + 4,
                    y,
                    label,
                    mcol if hp_i > 0 else FAINT,
                    render.SELECT_BG if sel else None,
                    width=w - 6,
                )
                if hp_i > 0:
                    self.buttons.add(x + 1, y, w - 2, i)  # a click on its row targets it
                y += 1
            if last - first < n:
                render.put_text(console, x + 4, y, f"... {n - (last - first)} more (Tab: the next)", DIM, width=w - 6)
                y += 1
        y += 1
        y += render.put_lines(console, x + 2, y, w - 4, self.odds_lines())
        target_name = (
            self.session.narrator.creature(g.monster, self.target, len(g.hp)) if g is not None and g.alive else "it"
        )
        opts: list[tuple[str, str, Action]] = [
            ("fight", f"Attack {target_name}", Attack(self.target)),
            ("oil", "Throw oil at it", ThrowOil(self.target)),
            ("drink", "Drink", Drink()),
            ("wait", "Hold back", Wait()),
            ("run", self.run_label("Run through the door", "Run through a door..."), Run()),
        ]
        for command, label, action in opts:
            self.choice(console, x + 2, y, command, label, game.legal(action), w - 4)
            y += 1
        render.put_text(console, x + 2, y, "Tab, Shift+Tab or a click: target", DIM, width=w - 4)
        y += 2
        y += self.draw_refusal(console, x + 2, y, w - 4)
        self.draw_panel_events(console, x + 2, y, w - 4, bottom - y, heading="This round:")


# --- pursuit ---------------------------------------------------------------------------------------------------

PURSUIT_CHOICES: list[tuple[str, str, Action]] = [  # (keymap command, label, action)
    ("run", "Keep running", Run()),
    ("food", "Drop food", DropFood()),
    ("treasure", "Drop treasure", DropTreasure()),
    ("oil", "Throw burning oil", ThrowOil()),
    ("fight", "Turn and fight", Fight()),
    ("drink", "Drink", Drink()),
]
CHASE_CHOICES: list[tuple[str, str, Action]] = [  # the party is the one giving chase
    ("run", "Run on after {it}", Run()),
    ("wait", "Let {it} go", Wait()),
    ("drink", "Drink", Drink()),
]


class PursuitScene(GameScene):
    """A chase: a monster after the running party, or the party after a group that went its way."""

    mode = Mode.PURSUIT

    def panel_rect(self, layout: Layout) -> Rect | None:
        return layout.panel(self.panel_right())

    def key_mode(self) -> str:
        return "chase" if self.chasing() else "pursued"

    def chasing(self) -> bool:
        """Whether the party is the one giving chase."""
        p = self.session.game.state.pursuit
        return p is not None and p.chaser == Side.PARTY

    def chased(self) -> str:
        """What the party gives chase to, as the choices say it: "it", or "them" for several."""
        front = self.session.game.state.front_group()
        return "them" if front is not None and front.count_told > 1 else "it"

    def choices(self) -> list[tuple[str, str, Action]]:
        if not self.chasing():
            return PURSUIT_CHOICES
        it = self.chased()
        return [(command, label.format(it=it), action) for command, label, action in CHASE_CHOICES]

    def handlers(self) -> dict[str, Handler]:
        out: dict[str, Handler] = {**super().handlers()}
        for command, _, action in self.choices():
            out[command] = self.taker(action)
        out["drink"] = lambda _k: self.drink()
        out["walk"] = self.no_walking(
            f"you are chasing {self.chased()}: r runs on." if self.chasing() else "you are running: r keeps running."
        )
        return out

    def on_draw(self, console: tcod.console.Console) -> None:
        game = self.session.game
        st = game.state
        p = st.pursuit
        front = st.front_group()
        _, r = self.draw_world(console, highlight=front.id if front is not None else None)
        assert r is not None
        x, w, bottom = r.x, r.w, r.y + r.h - 1
        chasing = self.chasing()
        render.panel(console, r.x, r.y, r.w, r.h, "Giving chase" if chasing else "Running")
        self.draw_hover_line(console, r)
        y = r.y + 2
        if p is not None and front is not None:
            mon = game.monster_of(front)
            name, many = group_name(mon.name, mon.plural, front.count_told)
            where = (
                f"You are chasing {the(name)}, {p.distance} ft ahead."
                if chasing
                else f"{The(name)} {'are' if many else 'is'} {p.distance} ft behind you."
            )
            y += render.put_lines(console, x + 2, y, w - 4, [(where, render.hex_rgb(mon.colour))])
            wants = "They only want" if many else "It only wants"
            friends = f" {wants} to be friends." if not p.fights and not chasing else ""
            y += render.put_lines(console, x + 2, y, w - 4, [(f"Round {p.rounds} of the chase.{friends}", TEXT)])
            if game.proc.fatigue:
                render.put_text(
                    console,
                    x + 2,
                    y,
                    "Exhausted!" if st.exhausted else f"Running for {plural(st.running_rounds, 'round')}.",
                    TEXT,
                    width=w - 4,
                )
                y += 1
        y += 1
        for command, label, action in self.choices():
            self.choice(console, x + 2, y, command, label, game.legal(action), w - 4)
            y += 1
        y += 1
        y += self.draw_refusal(console, x + 2, y, w - 4)
        self.draw_panel_events(console, x + 2, y, w - 4, bottom - y)


# --- running: which door ---------------------------------------------------------------------------------------


def _bearing(dx: int, dy: int) -> float:
    """Clockwise from north, in turns (0 <= b < 1): the order the doors are listed and stepped through in."""
    return (math.atan2(dx, -dy) / (2 * math.pi)) % 1.0


class DoorScene(Scene):
    """Which door to run through: the ways out of the party's room or corridor, marked on the map and listed with
    where each is from the party ("north-east, 6 tiles"), clockwise from north; a door the monsters stand in
    front of is shown blocked. The walking keys move the choice (up or left: the one before; down or right: the
    next), Enter runs through it, ``r`` the way the party came in (or the first open door), a click on a door
    (on the map or in the list) runs through it, Esc stays. Digits are walking keys, never door numbers."""

    opaque = False
    keymode = "door"

    def __init__(self, session: Session, on_choose: Callable[[int], Transition | None]) -> None:
        self.session = session
        self.on_choose = on_choose  # called with the door's index in game.exits()
        self.buttons = Buttons()
        doors = self.open_doors()
        self.cursor = doors.index(self.default(doors)) if doors else 0  # among the open doors

    def ways(self) -> list[Exit]:
        return self.session.game.exits()

    def order(self) -> list[int]:
        """The indexes (in ``game.exits()``) of every door, clockwise from north as seen from the party."""
        px, py = self.session.game.state.pos
        ways = self.ways()
        return sorted(range(len(ways)), key=lambda i: (_bearing(ways[i].door[0] - px, ways[i].door[1] - py), i))

    def open_doors(self) -> list[int]:
        """The indexes (in ``game.exits()``) of the doors open now, in the order they are listed."""
        ways = self.ways()
        return [i for i in self.order() if not ways[i].blocked]

    def describe(self, way: Exit) -> str:
        """Where a door is from the party: "north-east, 6 tiles"."""
        px, py = self.session.game.state.pos
        dx, dy = way.door[0] - px, way.door[1] - py
        n = max(abs(dx), abs(dy))
        return f"{render.compass(dx, dy)}, {n} tile{'' if n == 1 else 's'}"

    def handlers(self) -> dict[str, Callable[[str], Transition | None]]:
        return {
            "cursor": self.move,
            "choose": lambda _k: self.choose(self.cursor),
            "run": lambda _k: self.choose_door(self.default(self.open_doors())),
            "close": lambda _k: Pop(),
        }

    def move(self, key: str) -> Transition | None:
        n = len(self.open_doors())
        if n:
            self.cursor = (self.cursor + keymap.list_step(key)) % n
        return None

    def choose(self, n: int) -> Transition | None:
        doors = self.open_doors()
        return self.choose_door(doors[min(n, len(doors) - 1)])

    def choose_door(self, i: int) -> Transition | None:
        return Pop(then=self.on_choose(i))

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        doors = self.open_doors()
        if not doors:
            return Pop() if isinstance(event, (tcod.event.KeyDown, tcod.event.MouseButtonDown)) else None
        self.cursor = min(self.cursor, len(doors) - 1)
        if isinstance(event, tcod.event.MouseMotion):
            what = self.buttons.at(int(event.position[0]), int(event.position[1]))
            if isinstance(what, int) and what in doors:
                self.cursor = doors.index(what)
            return None
        if isinstance(event, tcod.event.MouseButtonDown):
            what = self.buttons.at(int(event.position[0]), int(event.position[1]))
            if event.button == tcod.event.MouseButton.LEFT and isinstance(what, int) and what in doors:
                return self.choose_door(what)
            return None
        if not isinstance(event, tcod.event.KeyDown):
            return None
        hit = keymap.lookup(self.keymode, event)
        return self.handlers()[hit[0]](hit[1]) if hit is not None else None

    def default(self, doors: list[int]) -> int:
        """The door ``r`` runs through: the way the party came in when it is open, else the first open one."""
        ways = self.ways()
        return next((i for i in doors if ways[i].came_in), doors[0]) if doors else 0

    def on_draw(self, console: tcod.console.Console) -> None:
        game = self.session.game
        ways = self.ways()
        doors = self.open_doors()
        self.cursor = min(self.cursor, max(0, len(doors) - 1))
        self.buttons.clear()
        out = render.cells(console)
        view = self.session.camera.last
        # The doors on the map: each open one marked (the chosen one brighter), the blocked ones struck out.
        for i, way in enumerate(ways):
            x, y = view.to_screen(way.door)
            if not (view.shows(way.door) and 0 <= y < console.height and 0 <= x < console.width):
                continue
            if way.blocked:
                out["ch"][y, x], out["fg"][y, x], out["bg"][y, x] = ord("x"), render.WHITE, DOOR_BLOCKED_BG
            else:
                chosen = doors.index(i) == self.cursor
                out["ch"][y, x], out["fg"][y, x] = ord("+"), render.BLACK
                out["bg"][y, x] = DOOR_CURSOR_BG if chosen else DOOR_OPEN_BG
                self.buttons.add(x, y, 1, i)
        # The list, in place of the side panel.
        st = game.state
        r = Layout.of(console.width, console.height).panel(panel_on_right(st.pos[0], st.level.map.width))
        w, px = r.w, r.x
        render.panel(console, r.x, r.y, r.w, r.h, "Run: which door?")
        y = r.y + 2
        for i in self.order():
            way = ways[i]
            label = self.describe(way) + (" (came in)" if way.came_in else "")
            if way.blocked:
                render.put_text(console, px + 2, y, f"x {label}: blocked", FAINT, width=w - 4)
            else:
                chosen = doors.index(i) == self.cursor
                if chosen:
                    console.draw_rect(px + 1, y, w - 2, 1, ord(" "), bg=render.SELECT_BG)
                render.put_text(
                    console,
                    px + 2,
                    y,
                    (">" if chosen else "+") + " " + label,
                    render.KEY if chosen else TEXT,
                    render.SELECT_BG if chosen else None,
                    width=w - 4,
                )
                self.buttons.add(px + 1, y, w - 2, i)
            y += 1
        y += 1
        if doors:
            back = ways[self.default(doors)].came_in
            hints = [
                "Up/Down: choose   Enter: run",
                f"r: {'the way in' if back else 'the first'}     Esc: stay",
                "Or click a door.",
            ]
            y += render.put_lines(console, px + 2, y, w - 4, [(h, DIM) for h in hints]) + 1
        if any(way.blocked for way in ways):
            render.put_lines(console, px + 2, y, w - 4, [("x: blocked, the monsters stand in front of it.", DIM)])


# --- the end -----------------------------------------------------------------------------------------------------


class EndScene(GameScene):
    """Death (or victory): cause, turn, depth and seed; the morgue file is written once, for a recorded game."""

    def __init__(self, session: Session, *, write_morgue: bool | None = None) -> None:
        super().__init__(session)
        self.mode = session.mode
        self.morgue_error = ""
        if write_morgue is None:
            write_morgue = session.keep_morgue
        if write_morgue and session.morgue is None:
            try:
                session.write_morgue()
            except OSError as exc:
                self.morgue_error = f"The morgue file could not be written: {exc.strerror or exc}"
        self.on_title: Callable[[], Transition | None] = lambda: Reset(_title(self.session))

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if not isinstance(event, tcod.event.KeyDown):
            return None
        c = keys.char(event)
        if c == "L":
            return Push(LogScene(self.session))
        if keys.is_confirm(event) or keys.is_cancel(event) or c == " ":
            return self.on_title()
        return None

    def panel_rect(self, layout: Layout) -> Rect | None:
        return layout.panel(self.panel_right())  # beside the party and what killed it, never over them

    def on_draw(self, console: tcod.console.Console) -> None:
        game = self.session.game
        dead = game.state.mode == Mode.DEAD
        _, r = self.draw_world(console)
        assert r is not None
        x, w = r.x, r.w
        render.panel(console, r.x, r.y, r.w, r.h, "Death" if dead else "Victory")
        lines = end_lines(game)
        y = r.y + 2
        y += render.put_lines(console, x + 2, y, w - 4, [(lines[0], render.BAD if dead else render.GOLD)]) + 1
        y += render.put_lines(console, x + 2, y, w - 4, [(line, TEXT) for line in lines[1:]]) + 1
        if self.session.morgue is not None:
            render.put_text(console, x + 2, y, "Morgue file:", DIM)
            for part in render.wrap_path(render.home_short(str(self.session.morgue)), w - 4):
                y += 1
                render.put_text(console, x + 2, y, part, DIM)
            y += 2
        elif self.morgue_error:
            y += render.put_lines(console, x + 2, y, w - 4, [(self.morgue_error, render.BAD)]) + 1
        render.put_lines(console, x + 2, max(y, r.y + r.h - 3), w - 4, [("Enter: title   L: the whole log", KEY)])
