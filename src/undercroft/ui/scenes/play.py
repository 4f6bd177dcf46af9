"""The scenes of a game: explore, encounter, combat, pursuit, and the end (death or victory).

Each scene belongs to one engine mode. After every action the scene asks the game which mode it is in and moves
to that mode's scene: explore stays at the bottom of the stack and the others are pushed over it (and popped when
the game is back to exploring). The scenes hold no rules: what is open now is ``game.legal(action)``, and why an
action was not taken is the engine's refused text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import tcod.console
import tcod.event
from tcod.event import KeySym

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
from undercroft.rules.names import The, a_name, the
from undercroft.rules.state import Group
from undercroft.rules.types import OVER, Mode, Side
from undercroft.sim.odds import PARTY, fight_odds
from undercroft.ui import keys, render
from undercroft.ui.render import DIM, FAINT, RGB, TEXT, TITLE
from undercroft.ui.scenes.base import Pop, Push, Replace, Reset, Scene, Transition
from undercroft.ui.scenes.look import LookScene, draw_hover
from undercroft.ui.scenes.overlays import HelpScene, InventoryScene, LogScene, MenuScene, PromptScene
from undercroft.ui.session import Session, end_lines

PANEL_W = 38  # at most half the map: a panel on the side away from the party never covers it


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

    return TitleScene(session.content, ruleset=session.game.ruleset_id)


class GameScene(Scene):
    """What every game scene shares: the world drawn below, common keys, following the engine's mode."""

    mode: str = Mode.EXPLORE

    def __init__(self, session: Session) -> None:
        self.session = session

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

    def odds_lines(self) -> list[tuple[str, RGB]]:
        """The odds of fighting on from here, computed from the real rules (cached by state: see sim.odds)."""
        odds = fight_odds(self.session.content, self.session.game)
        if odds is None:
            return []
        how = "exact" if odds.exact else "simulated"
        if odds.character == PARTY:
            how = "the whole party, simulated"
        colour = render.KIND_COLOURS.get("good" if odds.win >= 0.5 else "bad", TEXT)
        out = [(f"If you fight on: win {odds.win:.0%}, death {odds.death:.0%}, HP lost ~{odds.hp_lost_mean:.1f}"
                f" ({how})", colour)]
        if len(self.session.game.state.party) > 1 and odds.character != PARTY:
            out.append((f"(for {odds.character} alone, the only one standing)", DIM))
        return out

    def drink(self) -> Transition | None:
        """Drink a potion: the lone delver at once; in a party, choose who."""
        party = self.session.game.state.party
        if len(party) == 1:
            return self.act(Drink(0))
        options = [(str(i + 1), f"{m.name} (HP {m.hp}/{m.max_hp})") for i, m in enumerate(party)]
        return Push(MenuScene("Who drinks?", options, lambda i: self.act(Drink(i))))

    def common_key(self, event: tcod.event.KeyDown) -> Transition | None:
        c = keys.char(event)
        if c == "?":
            return Push(HelpScene())
        if c == ";":  # look: arrows (and, exploring, vi-keys) move a cursor; it sends no action
            return Push(LookScene(self.session, self.odds_lines, vi=self.mode == Mode.EXPLORE))
        if c == "L":  # the log is Shift+L on every screen: plain 'l' is the vi-key east while exploring
            return Push(LogScene(self.session))
        if c == "i":
            return Push(InventoryScene(self.session, self.drink))
        if keys.is_cancel(event):
            return Reset(_title(self.session))
        return None

    def draw_world(self, console: tcod.console.Console, highlight: int | None = None,
                   target: int | None = None) -> None:
        g = self.session.game
        render.draw_map(console, g, highlight=highlight, target=target)
        render.draw_status(console, g)
        render.draw_log(console, self.session.log.lines, fresh=self.session.log.fresh)

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

    def draw_panel_events(self, console: tcod.console.Console, x: int, y: int, w: int, rows: int,
                          heading: str = "What happened:") -> None:
        """The last action's outcome, each result with the roll behind it (as the log told it: a group not seen
        yet is not named)."""
        lines: list[tuple[str, RGB]] = []
        for text, kind in self.session.log.batch if self.session.last_events else []:
            if kind != "detail":
                lines.append((text, render.KIND_COLOURS.get(kind, TEXT)))
        if not lines or rows <= 1:
            return
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

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.trip: Trip | None = None
        self.insist = False  # auto-explore stopped short of the monsters left behind: x again goes past them
        self.hover: Point | None = None  # the map tile under the mouse pointer (described on the top row)

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if self.trip is not None and isinstance(event, (tcod.event.KeyDown, tcod.event.MouseButtonDown)):
            self.trip = None  # any key (or click) stops a walk, and does nothing else
            return None
        if isinstance(event, tcod.event.MouseMotion):
            self.hover = (int(event.position[0]), int(event.position[1]))
            return None
        if isinstance(event, tcod.event.MouseButtonDown):
            self.insist = False
            return self.click(event)
        if not isinstance(event, tcod.event.KeyDown):
            return None
        c = keys.char(event)
        if c == "x":
            return self.start(None, explore=True)
        self.insist = False
        d = keys.direction(event)
        if d is not None:
            return self.act(Move(*d))
        if c == ">":
            return self.to_stairs()
        if c in ("z", ".") or event.sym in (KeySym.KP_5, KeySym.N5):
            return self.act(Rest())
        if c == "q":
            return self.drink()
        if c == "f":
            return self.act(Fight())  # a monster met and left alone, or one the party has terms with
        if c == "p":
            return self.act(Pursue())  # a group that has just gone its way
        return self.common_key(event)

    # --- travel ------------------------------------------------------------------------------------------------

    def tick_interval(self) -> float | None:
        return TRAVEL_STEP_S if self.trip is not None else None

    def on_tick(self) -> Transition | None:
        return self.travel_step()

    def click(self, event: tcod.event.MouseButtonDown) -> Transition | None:
        """A left click on a known tile of the map: travel there."""
        if event.button != tcod.event.MouseButton.LEFT:
            return None
        x, y = int(event.position[0]), int(event.position[1])
        lv = self.session.game.state.level
        if not (0 <= y < min(lv.map.height, render.MAP_ROWS) and 0 <= x < lv.map.width) or not lv.explored[y, x]:
            return None
        if (x, y) == self.session.game.state.pos:
            return None
        return self.start((x, y))

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
        self.trip = Trip(goal, explore, tuple(m.hp for m in game.state.party), travel.visible_groups(game),
                         travel.BOLD if explore and self.insist else travel.WARY)
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
            offer = f" {The(mon.name)} goes its way: "
            x = 1
            render.put_text(console, x, 0, offer, render.hex_rgb(mon.colour), render.PANEL_BG)
            x += len(offer)
            render.put_text(console, x, 0, "[p]", render.KEY, render.PANEL_BG)
            render.put_text(console, x + 3, 0, " pursue ", TEXT, render.PANEL_BG)
        elif self.trip is None:
            draw_hover(console, self.session, self.hover, console.width - len(name) - 3)


# --- the encounter ---------------------------------------------------------------------------------------------

ENCOUNTER_CHOICES: list[tuple[str, str, Action]] = [
    ("f", "Fight", Fight()),
    ("t", "Talk", Talk()),
    ("b", "Bribe...", Bribe(0)),
    ("r", "Run", Run()),
    ("w", "Wait", Wait()),
    ("d", "Drop food", DropFood()),
    ("g", "Drop treasure", DropTreasure()),
    ("o", "Burning oil", ThrowOil()),
    ("q", "Drink", Drink()),
]


class EncounterScene(GameScene):
    """The monsters met (name, count, distance, surprise, reaction) and the choices with their keys."""

    mode = Mode.ENCOUNTER

    def group(self) -> Group | None:
        return self.session.game.state.front_group()

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if not isinstance(event, tcod.event.KeyDown):
            return None
        d = keys.direction(event, vi=False)  # letters are the choices here: walk with arrows and numpad
        if d is not None:
            return self.act(Move(*d))
        c = keys.char(event)
        if c == ">":  # the stairs (the engine says why not, if not)
            return self.act(Descend())
        if c == "b":
            return self.bribe_prompt()
        if c == "q":
            return self.drink()
        if c == "r":
            return self.run_away()
        for k, _, action in ENCOUNTER_CHOICES:
            if c == k:
                return self.act(action)
        return self.common_key(event)

    def bribe_prompt(self) -> Transition | None:
        gold = self.session.game.state.gold

        def done(text: str) -> Transition | None:
            return self.act(Bribe(int(text)))

        return Push(PromptScene("Bribe", f"How much gold do you offer? (you have {gold})", done,
                                digits_only=True, max_len=7, hint=self.bribe_hint))

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
        out.append(("HP " + "  ".join(str(g.hp[i]) for i in alive) + f"  (max {g.max_hp})"
                    if len(alive) > 1 else f"HP {g.hp[alive[0]]}/{g.max_hp}" if alive else "", TEXT))
        if proc.distance:
            out.append((f"Distance: {enc.distance} ft", TEXT))
        if proc.surprise:
            if enc.party_surprised and enc.monster_surprised:
                s = "both sides"
            elif enc.party_surprised:
                s = "you are surprised"
            elif enc.monster_surprised:
                s = f"{the(mon.name)} is surprised"
            else:
                s = "nobody"
            out.append((f"Surprise: {s}", TEXT))
        if proc.reaction and g.reaction:
            label = next((b.label for b in game.content.tables.reaction.bands if b.result == g.reaction_result),
                         g.reaction_result)
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
        self.draw_world(console, highlight=g.id if g is not None else None)
        game = self.session.game
        w = PANEL_W
        x = render.side_panel_x(game, w)
        h = render.MAP_ROWS - 2
        render.panel(console, x, 1, w, h, "Encounter")
        y = 3
        y += render.put_lines(console, x + 2, y, w - 4, self.info_lines(), max_rows=13, keep_last=False)
        y += 1
        render.put_text(console, x + 2, y, "Your choice:", TITLE)
        y += 1
        for i, (k, label, action) in enumerate(ENCOUNTER_CHOICES):
            if k == "r":
                label = self.run_label(label, "Run... (choose a door)")
            render.choice(console, x + 2, y + i, k, label, game.legal(action), width=w - 4)
        y += len(ENCOUNTER_CHOICES)
        if game.legal(Descend()):  # on the stairs (the last level's way out) with a monster that lets you go
            final = game.rs.levels[game.state.depth].final
            render.choice(console, x + 2, y, ">", "Leave: out, and win" if final else "Go down the stairs", True,
                          width=w - 4)
            y += 1
        render.put_text(console, x + 2, y, "arrows/numpad: walk on, or away",
                        TEXT if game.legal(Move(1, 0)) else FAINT, width=w - 4)
        y += 2
        if self.session.refused:
            y += render.put_lines(console, x + 2, y, w - 4,
                                  [("Not now: " + self.session.refused, render.KIND_COLOURS["refused"])])
            y += 1
        self.draw_panel_events(console, x + 2, y, w - 4, h - (y - 1) - 1)


# --- the fight ---------------------------------------------------------------------------------------------------


class CombatScene(GameScene):
    """Every combatant with its HP; choose a target; attack, drink, throw oil, hold back, or run out the door."""

    mode = Mode.COMBAT

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

    def _cycle(self, step: int) -> None:
        g = self.group()
        if g is None or not g.alive:
            return
        self._fix_target()
        alive = g.alive
        self.target = alive[(alive.index(self.target) + step) % len(alive)]

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if not isinstance(event, tcod.event.KeyDown):
            return None
        self._fix_target()
        if event.sym in (KeySym.UP, KeySym.KP_8, KeySym.LEFT, KeySym.KP_4):
            self._cycle(-1)
            return None
        if event.sym in (KeySym.DOWN, KeySym.KP_2, KeySym.TAB, KeySym.RIGHT, KeySym.KP_6):
            self._cycle(1)
            return None
        n = keys.digit(event)
        g = self.group()
        if n is not None and g is not None:
            if 1 <= n <= len(g.hp) and g.hp[n - 1] > 0:
                self.target = n - 1
            return None
        c = keys.char(event)
        if c in ("a", "f") or keys.is_confirm(event):
            return self.act(Attack(self.target))
        if c == "o":
            return self.act(ThrowOil(self.target))
        if c == "w":
            return self.act(Wait())
        if c == "r":
            return self.run_away()
        if c == "q":
            return self.drink()
        return self.common_key(event)

    def on_draw(self, console: tcod.console.Console) -> None:
        self._fix_target()
        g = self.group()
        self.draw_world(console, highlight=g.id if g is not None else None, target=self.target)
        game = self.session.game
        st = game.state
        w = PANEL_W
        x = render.side_panel_x(game, w)
        h = render.MAP_ROWS - 2
        c = st.combat
        render.panel(console, x, 1, w, h, f"Fight, round {c.round}" if c is not None else "Fight")
        y = 3
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
            for i, hp_i in enumerate(g.hp[:12]):
                name = self.session.narrator.creature(g.monster, i, len(g.hp))
                sel = i == self.target and hp_i > 0
                label = f"{i + 1}. {name:<17} " + (f"HP {hp_i}/{g.max_hp}" if hp_i > 0 else "dead")
                if sel:
                    console.draw_rect(x + 1, y, w - 2, 1, ord(" "), bg=render.SELECT_BG)
                    render.put_text(console, x + 2, y, ">", render.KEY, render.SELECT_BG)
                render.put_text(console, x + 4, y, label, mcol if hp_i > 0 else FAINT,
                                render.SELECT_BG if sel else None, width=w - 6)
                y += 1
            if len(g.hp) > 12:
                render.put_text(console, x + 4, y, f"... and {len(g.hp) - 12} more", DIM)
                y += 1
        y += 1
        y += render.put_lines(console, x + 2, y, w - 4, self.odds_lines())
        target_name = (self.session.narrator.creature(g.monster, self.target, len(g.hp))
                       if g is not None and g.alive else "it")
        opts: list[tuple[str, str, Action]] = [
            ("a", f"Attack {target_name}", Attack(self.target)),
            ("o", "Throw oil at it", ThrowOil(self.target)),
            ("q", "Drink", Drink()),
            ("w", "Hold back", Wait()),
            ("r", self.run_label("Run through the door", "Run through a door..."), Run()),
        ]
        for k, label, action in opts:
            render.choice(console, x + 2, y, k, label, game.legal(action), width=w - 4)
            y += 1
        render.put_text(console, x + 2, y, "Up/Down or 1-9: target", DIM)
        y += 2
        if self.session.refused:
            y += render.put_lines(console, x + 2, y, w - 4,
                                  [("Not now: " + self.session.refused, render.KIND_COLOURS["refused"])])
            y += 1
        self.draw_panel_events(console, x + 2, y, w - 4, h - (y - 1) - 1, heading="This round:")


# --- pursuit ---------------------------------------------------------------------------------------------------

PURSUIT_CHOICES: list[tuple[str, str, Action]] = [
    ("r", "Keep running", Run()),
    ("d", "Drop food", DropFood()),
    ("g", "Drop treasure", DropTreasure()),
    ("o", "Throw burning oil", ThrowOil()),
    ("f", "Turn and fight", Fight()),
    ("q", "Drink", Drink()),
]
CHASE_CHOICES: list[tuple[str, str, Action]] = [  # the party is the one giving chase
    ("r", "Run on after it", Run()),
    ("w", "Let it go", Wait()),
    ("q", "Drink", Drink()),
]


class PursuitScene(GameScene):
    """A chase: a monster after the running party, or the party after a group that went its way."""

    mode = Mode.PURSUIT

    def chasing(self) -> bool:
        """Whether the party is the one giving chase."""
        p = self.session.game.state.pursuit
        return p is not None and p.chaser == Side.PARTY

    def choices(self) -> list[tuple[str, str, Action]]:
        return CHASE_CHOICES if self.chasing() else PURSUIT_CHOICES

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if not isinstance(event, tcod.event.KeyDown):
            return None
        c = keys.char(event)
        if c == "q":
            return self.drink()
        for k, _, action in self.choices():
            if c == k:
                return self.act(action)
        return self.common_key(event)

    def on_draw(self, console: tcod.console.Console) -> None:
        game = self.session.game
        st = game.state
        p = st.pursuit
        front = st.front_group()
        self.draw_world(console, highlight=front.id if front is not None else None)
        w = PANEL_W
        x = render.side_panel_x(game, w)
        h = render.MAP_ROWS - 2
        chasing = self.chasing()
        render.panel(console, x, 1, w, h, "Giving chase" if chasing else "Running")
        y = 3
        if p is not None and front is not None:
            mon = game.monster_of(front)
            where = (f"You are chasing {the(mon.name)}, {p.distance} ft ahead." if chasing
                     else f"{The(mon.name)} is {p.distance} ft behind you.")
            y += render.put_lines(console, x + 2, y, w - 4, [(where, render.hex_rgb(mon.colour))])
            friends = " It only wants to be friends." if not p.fights and not chasing else ""
            y += render.put_lines(console, x + 2, y, w - 4, [(f"Round {p.rounds} of the chase.{friends}", TEXT)])
            if game.proc.fatigue:
                render.put_text(console, x + 2, y, "Exhausted!" if st.exhausted
                                else f"Running for {plural(st.running_rounds, 'round')}.", TEXT, width=w - 4)
                y += 1
        y += 1
        for k, label, action in self.choices():
            render.choice(console, x + 2, y, k, label, game.legal(action), width=w - 4)
            y += 1
        y += 1
        if self.session.refused:
            y += render.put_lines(console, x + 2, y, w - 4,
                                  [("Not now: " + self.session.refused, render.KIND_COLOURS["refused"])])
            y += 1
        self.draw_panel_events(console, x + 2, y, w - 4, h - (y - 1) - 1)


# --- running: which door ---------------------------------------------------------------------------------------

DOOR_KEYS = "123456789"
DOOR_OPEN_BG: Final[RGB] = (40, 120, 50)
DOOR_CURSOR_BG: Final[RGB] = (90, 200, 90)
DOOR_BLOCKED_BG: Final[RGB] = (130, 30, 30)


class DoorScene(Scene):
    """Which door to run through: the ways out of the party's room or corridor, each marked on the map with its
    key and listed with where it is from the party ("north-east, 6 tiles"); a door the monsters stand in front of
    is shown blocked. A key (or Up/Down and Enter) runs through it, ``r`` the way the party came in (or the
    first open door), Esc stays."""

    opaque = False

    def __init__(self, session: Session, on_choose: Callable[[int], Transition | None]) -> None:
        self.session = session
        self.on_choose = on_choose  # called with the door's index in game.exits()
        self.cursor = 0  # among the open doors

    def ways(self) -> list[Exit]:
        return self.session.game.exits()

    def open_doors(self) -> list[int]:
        """The indexes (in ``game.exits()``) of the doors open now, in the order of their keys."""
        return [i for i, w in enumerate(self.ways()) if not w.blocked]

    def describe(self, way: Exit) -> str:
        """Where a door is from the party: "north-east, 6 tiles"."""
        px, py = self.session.game.state.pos
        dx, dy = way.door[0] - px, way.door[1] - py
        n = max(abs(dx), abs(dy))
        return f"{render.compass(dx, dy)}, {n} tile{'' if n == 1 else 's'}"

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if not isinstance(event, tcod.event.KeyDown):
            return None
        doors = self.open_doors()
        if keys.is_cancel(event) or not doors:
            return Pop()
        self.cursor = min(self.cursor, len(doors) - 1)
        if keys.is_confirm(event):
            return Pop(then=self.on_choose(doors[self.cursor]))
        if event.sym in (KeySym.UP, KeySym.KP_8, KeySym.LEFT, KeySym.KP_4):
            self.cursor = (self.cursor - 1) % len(doors)
            return None
        if event.sym in (KeySym.DOWN, KeySym.KP_2, KeySym.TAB, KeySym.RIGHT, KeySym.KP_6):
            self.cursor = (self.cursor + 1) % len(doors)
            return None
        c = keys.char(event)
        if c is not None and c in DOOR_KEYS[:len(doors)]:
            return Pop(then=self.on_choose(doors[DOOR_KEYS.index(c)]))
        if c == "r":  # r again: the way in, or the first open door
            return Pop(then=self.on_choose(self.default(doors)))
        return None

    def default(self, doors: list[int]) -> int:
        """The door ``r`` runs through: the way the party came in when it is open, else the first open one."""
        ways = self.ways()
        return next((i for i in doors if ways[i].came_in), doors[0])

    def on_draw(self, console: tcod.console.Console) -> None:
        game = self.session.game
        ways = self.ways()
        doors = self.open_doors()
        self.cursor = min(self.cursor, max(0, len(doors) - 1))
        out = render.cells(console)
        # The doors on the map: each open one with its key, the blocked ones struck out.
        for i, way in enumerate(ways):
            x, y = way.door
            if not (0 <= y < min(render.MAP_ROWS, console.height) and 0 <= x < console.width):
                continue
            if way.blocked:
                out["ch"][y, x], out["fg"][y, x], out["bg"][y, x] = ord("x"), render.WHITE, DOOR_BLOCKED_BG
            else:
                n = doors.index(i)
                key = DOOR_KEYS[n] if n < len(DOOR_KEYS) else "+"
                bg = DOOR_CURSOR_BG if n == self.cursor else DOOR_OPEN_BG
                out["ch"][y, x], out["fg"][y, x], out["bg"][y, x] = ord(key), render.BLACK, bg
        # The list, in place of the side panel.
        w = PANEL_W
        px = render.side_panel_x(game, w)
        render.panel(console, px, 1, w, render.MAP_ROWS - 2, "Run: which door?")
        y = 3
        for i, way in enumerate(ways):
            label = self.describe(way) + (" (came in)" if way.came_in else "")
            if way.blocked:
                render.put_text(console, px + 2, y, f"[x] {label}: blocked", FAINT, width=w - 4)
            else:
                n = doors.index(i)
                if n == self.cursor:
                    console.draw_rect(px + 1, y, w - 2, 1, ord(" "), bg=render.SELECT_BG)
                render.choice(console, px + 2, y, DOOR_KEYS[n] if n < len(DOOR_KEYS) else "Enter", label,
                              width=w - 4)
            y += 1
        y += 1
        if doors:
            back = ways[self.default(doors)].came_in
            first = DOOR_KEYS[0]
            hint = f"1-{min(len(doors), len(DOOR_KEYS))}: run  r: {'way in' if back else first}  Esc: stay"
            render.put_text(console, px + 2, y, hint, DIM, width=w - 4)
            y += 2
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

    def on_draw(self, console: tcod.console.Console) -> None:
        game = self.session.game
        dead = game.state.mode == Mode.DEAD
        render.draw_map(console, game)
        # darken the map behind the notice
        cells = render.cells(console)[: render.MAP_ROWS]
        cells["fg"] //= 2
        cells["bg"] //= 2
        render.draw_status(console, game)
        render.draw_log(console, self.session.log.lines, fresh=self.session.log.fresh)
        w, h = 60, 16
        x = (console.width - w) // 2
        y = 10
        render.panel(console, x, y, w, h, "Death" if dead else "Victory")
        lines = end_lines(game)
        render.put_text(console, x + 3, y + 2, lines[0], render.BAD if dead else render.GOLD)
        for i, line in enumerate(lines[1:]):
            render.put_text(console, x + 3, y + 4 + i, line, TEXT, width=w - 6)
        yy = y + 4 + len(lines)
        if self.session.morgue is not None:
            yy += render.put_lines(console, x + 3, yy, w - 6, [(f"Morgue file: {self.session.morgue}", DIM)])
        elif self.morgue_error:
            yy += render.put_lines(console, x + 3, yy, w - 6, [(self.morgue_error, render.BAD)])
        render.put_text(console, x + 3, y + h - 2, "Enter: title    L: the whole log", render.KEY)
