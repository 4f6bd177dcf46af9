"""Exploring: walking, resting, the stairs, and the walks of many steps (a click on the map, ``>`` to the
stairs, ``x`` auto-explore, a place chosen with the look cursor), one ordinary ``Move`` a tick, and resting until
healed (``Z``), one ordinary ``Rest`` a tick: each stopped by anything that happens, and a walk also when it stops
getting closer (it never comes back to a tile it has left on its way to the same place).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Final

import tcod.console
import tcod.event

from undercroft import travel
from undercroft.narrate import plural
from undercroft.rules import explore
from undercroft.rules.actions import Action, Descend, Fight, Move, Pursue, Rest
from undercroft.rules.events import Event, Peaceful, Roll, about_group
from undercroft.rules.game import Game
from undercroft.rules.levelmap import Point
from undercroft.rules.names import The, a_name, group_name, owns_article, the
from undercroft.rules.state import Group
from undercroft.rules.types import Mode
from undercroft.ui import render, threat
from undercroft.ui.keymap import WALK
from undercroft.ui.render import TEXT, TITLE
from undercroft.ui.scenes.base import Push, Transition
from undercroft.ui.scenes.choice import ChoiceScene
from undercroft.ui.scenes.game import GameScene, Handler, shows
from undercroft.ui.scenes.look import LookScene
from undercroft.ui.scenes.menu import MenuScene
from undercroft.ui.scenes.prompt import NoticeScene
from undercroft.ui.session import Session

# Travel: the events of a step that let a trip go on (any other one stops it: a pickup, a meeting, a refusal...).
QUIET_EVENTS: Final = frozenset({"move", "enter", "roll", "rest"})
STALLS: Final = 2  # steps in a row that bring a walk no nearer to its place: it stops
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
    least: int = travel.BOLD  # RECKLESS: past a group run from too (the player asked to go anyway)
    rest: bool = False  # resting until healed (no goal): one Rest a tick
    turns: int = 0  # the turns of rest taken so far


@dataclass
class Track:
    """How the walks to one place are going: the fewest steps left to it so far (``best``) and the steps since
    that brought it no nearer (``stalls``). A walk that stops getting closer (a monster steps aside and back into
    the way) stops at :data:`STALLS` of them and says why; a stop is never told again without a step: ``x`` again
    aims at another place (:attr:`ExploreScene.stalled`), a travel again tries the way afresh. Kept across walks to
    the same place, forgotten on any other action: one of this scene's own, or any turn played elsewhere (``turn``,
    the game's turn after the walk's last step: a fight in the encounter's scene that drew the party toward the
    monster, away from the place, once left the old ``best`` standing, and the next walk there stopped with "the
    way there keeps turning you back" while it came nearer at every step). (A step on a shortest known path always
    brings the place one step nearer: tiles newly seen only shorten the way.)"""

    goal: Point
    best: int
    turn: int
    stalls: int = 0


@shows(Mode.EXPLORE)
class ExploreScene(GameScene):
    mode = Mode.EXPLORE
    keymode = "explore"

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.trip: Trip | None = None
        # auto-explore stopped short of the monsters left behind (BOLD) or of a group run from (RECKLESS): the
        # caution of the next x, which goes past them (None: as careful as ever)
        self.insist: int | None = None
        self.past: Point | None = None  # a walk there was told it passes a group run from: again goes anyway
        self.track: Track | None = None
        self.stalled: frozenset[Point] = frozenset()  # places auto-explore stopped short of: x aims elsewhere
        self.low_ok = False  # a walk refused for low HP: the next one goes anyway (until the next action)
        # The chance of a wanderer the last z told, and the share of them from deeper (z rests on while they hold)
        self.rest_told: tuple[Fraction, Fraction] | None = None
        self.heard: set[int] = set()  # groups out of sight whose moving stopped a walk once: not again

    def handlers(self) -> dict[str, Handler]:
        return {
            **super().handlers(),
            "walk": lambda k: self.act(Move(*WALK[k])),
            "stairs": lambda _k: self.to_stairs(),
            "explore": lambda _k: self.start(None, explore=True),
            "rest": lambda _k: self.rest_once(),
            "rest_long": lambda _k: self.rest_until_healed(),
            "look": lambda _k: Push(LookScene(self.session, self.odds_lines, travel=self.travel_to)),
            "drink": lambda _k: self.drink(),
            "fight": lambda _k: self.attack(),  # a monster met and left alone, or one under terms
            "pursue": lambda _k: self.act(Pursue()),  # a group that has just gone its way
            # (the sum typed after it would walk: a notice holds it)
            "bribe": lambda _k: Push(NoticeScene("Bribe", "A bribe is offered in a meeting: nobody faces you now.")),
        }

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if self.trip is not None and isinstance(event, (tcod.event.KeyDown, tcod.event.MouseButtonDown)):
            self.trip = None  # any key (or click) stops a walk, and does nothing else
            return None
        if isinstance(event, tcod.event.MouseButtonDown):
            self.insist = None
        return super().on_event(event)

    def act(self, action: Action) -> Transition | None:
        self.track, self.stalled = None, frozenset()  # an action of the player's own: the walks start afresh
        self.low_ok, self.past = False, None
        return super().act(action)

    def run(self, command: str, key: str) -> Transition | None:
        if command != "explore":
            self.insist = None  # x again (and only x) goes past the monsters left behind
        if command not in ("stairs", "look"):
            self.past = None  # > again (or the same place chosen again) goes past a group run from
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
        seen = self.session.view.explored()
        if p is None:
            return None  # (the status bar, the log: nothing to walk to)
        if not (0 <= p[1] < lv.map.height and 0 <= p[0] < lv.map.width) or not seen[p[1], p[0]]:
            self.session.log.add("You do not know that place: a click walks only to a tile you have seen.", "refused")
            return None
        if p == self.session.game.state.pos:
            self.session.log.add("You are there already.", "refused")
            return None
        return self.start(p)

    def to_stairs(self) -> Transition | None:
        """``>``: down the stairs when the party stands on them, else travel to them once they are known."""
        game = self.session.game
        stairs = travel.stairs(game)
        final = game.rs.levels[game.state.depth].final  # (on the last level the stairs are the way out)
        if stairs is None and not game.legal(Descend()):  # (not "you are not on the stairs": none are known)
            where = "the way out of this level" if final else "the stairs down on this floor"
            self.session.log.add(f"You have not found {where} yet.", "refused")
            return None
        if game.legal(Descend()) or stairs is None or stairs == game.state.pos:
            return self.act(Descend())  # taken, or the engine says why not
        return self.start(stairs, where=f"to the {'way out' if final else 'stairs'}")

    def travel_to(self, goal: Point) -> Transition | None:
        """A walk to a known tile chosen with the look cursor (Enter)."""
        if not self.session.view.explored()[goal[1], goal[0]]:
            self.session.log.add("You do not know that place: look where you have been.", "refused")
            return None
        return self.start(goal)

    def start(self, goal: Point | None, *, explore: bool = False, where: str = "") -> Transition | None:
        """Begin a walk; its first step is taken at once, the others one a tick. Not with a character's hit points
        under the share the player set (:attr:`Session.stop_hp`, in the pause menu): it says so, and the next
        walk goes anyway. A walk ``where`` (``>``: "to the stairs"; "" a place) whose only known way passes a group
        the party ran from says so, and goes past it when asked again."""
        game = self.session.game
        low = self.low_hp()
        if low and not self.low_ok:
            self.low_ok = True
            self.session.log.add(f"You stop: {low} (again: go anyway).", "refused")
            return None
        caution = self.insist if explore and self.insist is not None else travel.WARY
        least = travel.RECKLESS if caution == travel.RECKLESS else travel.BOLD
        self.insist = None
        if not explore and goal is not None and not travel.path(game, goal):
            ran = travel.ran_from_text(game)
            if not (ran and travel.path(game, goal, least=travel.RECKLESS)):
                self.session.log.add(f"You know of no way {where or 'there'} from here.", "refused")
                return None
            if self.past != goal:
                self.past = goal
                again = "> again" if where else "again"
                self.session.log.add(f"The way {where or 'there'} passes {ran} ({again}: go anyway).", "refused")
                return None
            least = travel.RECKLESS
        self.trip = Trip(
            goal, explore, tuple(m.hp for m in game.state.party), travel.visible_groups(game), caution, least
        )
        return self.travel_step()

    def travel_step(self) -> Transition | None:
        """One step of the walk (or one turn of the rest), through the session like any key press; it ends when
        anything happens, and a walk when it stops getting closer."""
        trip = self.trip
        game = self.session.game
        if trip is None or self.session.mode != Mode.EXPLORE:
            self.trip = None
            return None
        if trip.rest:
            return self.rest_step(trip)
        if trip.explore:
            trip.goal = travel.explore_target(game, trip.goal, trip.caution, self.stalled)
            if trip.goal is None and self.stalled:  # only places stopped short of are left: try them afresh
                self.stalled = frozenset()
                trip.goal = travel.explore_target(game, None, trip.caution)
            if trip.goal is None:
                self.trip = None
                self.session.log.add(self.explored_text())
                return None
        assert trip.goal is not None
        move = travel.step_toward(game, trip.goal, trip.caution, trip.least)
        if move is None:
            self.trip = None
            return None
        warning = self.warning(move)
        if warning is not None:  # the door of a final guardian: the walk stops, and the player is asked
            self.trip = None
            return warning
        track = self.track
        if track is None or track.goal != trip.goal or track.stalls >= STALLS or track.turn != game.state.turn:
            track = self.track = Track(trip.goal, self.steps_left(trip), game.state.turn)  # (stopped short: again)
        events = self.session.act(move)
        track.turn = game.state.turn
        left = self.steps_left(trip)
        if left < track.best:
            track.best, track.stalls = left, 0
        else:
            track.stalls += 1
        cause = self.stop_cause(trip, events)
        if cause is not None or (not trip.explore and game.state.pos == trip.goal):
            self.trip = None
            if cause:
                self.session.log.add(cause, "refused")
        elif track.stalls >= STALLS:
            self.trip = None
            self.session.log.add(travel.blocked_text(game, trip.goal), "refused")
            if trip.explore:
                self.stalled |= {trip.goal}
        return self.follow()

    def low_hp(self) -> str:
        """ "HP 4/12 is under the 50% you set": a living character under the threshold of the walks ("": none)."""
        share = self.session.stop_hp
        party = self.session.game.state.party
        low = [m for m in party if m.alive and m.hp * 100 < share * m.max_hp]
        if not low:
            return ""
        m = min(low, key=lambda o: o.hp * 100 // o.max_hp)
        who = "" if len(party) == 1 else f"{m.name}'s "
        return f"{who}HP {m.hp}/{m.max_hp} is under the {share}% you set (Esc to change it)"

    def steps_left(self, trip: Trip) -> int:
        """The steps of the known way from the party to the trip's place (0 there)."""
        assert trip.goal is not None
        return len(travel.path(self.session.game, trip.goal, trip.caution, trip.least))

    def rest_once(self) -> Transition | None:
        """``z``: one turn of rest. Where a wanderer may come, the first ``z`` only tells how likely one is each
        turn (:func:`wanderer_text`, the ``Z`` dialog's own words) and the next rests; later ones rest at once
        while that chance holds, and tell it again when it changes (another level, another floor's danger)."""
        p = explore.rest_wanderer_chance(self.session.game)
        deeper = explore.rest_deeper_share(self.session.game)
        if p and (p, deeper) != self.rest_told:
            self.rest_told = (p, deeper)
            self.session.log.add(f"Resting here, {wanderer_text(p, deeper)} (z again: rest).", "refused")
            return None
        return self.act(Rest())

    def rest_until_healed(self) -> Transition | None:
        """``Z``: rest turn by turn until every living character's hit points are full and any exhaustion is
        gone, or anything happens (as a walk stops). Where a wanderer may come, it first says how likely one is
        before the rest is done (:func:`rest_odds`) and asks."""
        if self.rested():
            self.session.log.add("You are rested already: nothing to heal.", "refused")
            return None
        game = self.session.game
        if explore.rest_wanderer_chance(game) == 0:
            return self.begin_rest()
        options = [("r", "Rest"), ("s", "Stay on your feet")]
        lines = [rest_odds(game)]
        return Push(ChoiceScene("Rest until healed?", lines, options, lambda i: self.begin_rest() if i == 0 else None))

    def begin_rest(self) -> Transition | None:
        game = self.session.game
        hp = tuple(m.hp for m in game.state.party)
        self.trip = Trip(None, False, hp, travel.visible_groups(game), rest=True)
        return self.travel_step()

    def rested(self) -> bool:
        st = self.session.game.state
        return not st.exhausted and all(m.hp >= m.max_hp for m in st.party if m.alive)

    def rest_step(self, trip: Trip) -> Transition | None:
        """One turn of a rest until healed."""
        game = self.session.game
        before = tuple(m.hp for m in game.state.party)
        events = self.session.act(Rest())
        trip.turns += 1
        hurt = any(m.hp < b for m, b in zip(game.state.party, before, strict=True))
        trip.hp = tuple(m.hp for m in game.state.party)  # healing goes on: only a loss stops the rest
        cause = self.stop_cause(trip, events)
        if hurt or cause is not None:  # the rest is broken: the log says after how long, and why
            self.trip = None
            why = cause.removeprefix("You stop: ").rstrip(".") if cause else ""
            if not why and self.session.mode != Mode.EXPLORE:
                why = "something comes"  # (a wanderer: the lines above say who, when it is seen)
            if not why and any(e.type == "hidden" for e in events):  # a wanderer that lies under the water here
                why = "the water is still, and something may lie under it"
            if why:
                self.session.log.add(f"Your rest is broken after {plural(trip.turns, 'turn')}: {why}.", "refused")
        elif self.rested():
            self.trip = None
            self.session.log.add("You are rested.")
        return self.follow()

    def stop_cause(self, trip: Trip, events: list[Event]) -> str | None:
        """Whether a step's outcome stops the walk (or the rest), and why: None, it goes on; "", it stops and the
        log tells why (a meeting, a pickup, a refusal, a blow); else the line that says it. It stops on another
        mode, anything but walking on, a monster check that finds something, HP changed, a group come into
        sight that is not at peace with the party (one that has agreed to let it be is walked past); what the log
        cannot tell (a group out of sight: not a word of it) is said as "something unseen"."""
        game = self.session.game
        hp = tuple(m.hp for m in game.state.party)
        seen = travel.visible_groups(game)
        new = seen - trip.seen
        trip.seen = seen
        found = any(isinstance(e, Roll) and e.result not in ("none", "") for e in events)
        if self.session.mode != Mode.EXPLORE:
            return ""
        unseen = self.session.log.unseen
        moving = {i for e in events if (i := about_group(e)) is not None and i in unseen}
        if moving - self.heard or (moving and trip.rest):  # a walk is stopped once a group out of sight, a rest always
            self.heard |= moving
            return travel.UNSEEN_STOP
        events = [e for e in events if about_group(e) not in unseen]  # told: its further steps let the walk go on
        if any(not quiet(e) for e in events) or found or hp != trip.hp:
            return "" if self.session.log.batch or not found else travel.UNSEEN_STOP
        come = [o for o in game.state.level.groups if o.id in new and not o.peaceful]  # (at peace: walked past)
        if come:
            g = min(come, key=game.distance_to)
            mon = game.monster_of(g)
            name, many = group_name(mon.name, mon.plural, g.count_told)
            if many:
                who = f"{g.count_told} {name}"
            elif owns_article(name):
                who = the(name)  # "the Leech-Mother"
            else:
                who = a_name(name)[0].lower() + a_name(name)[1:]  # "a Kobold"
            return f"You stop: {who} in sight, {render.distance_text(game, g)} away."
        return None

    def attack(self) -> Transition | None:
        """``f``: attack a group of this room or corridor. With more than one in sight there, the player chooses
        which (never the nearest in silence); a group at peace (an agreement, tribute) is attacked only once the
        player says so. With none, the engine says why not."""
        game = self.session.game
        here = game.here()
        if not here:
            out = self.act(Fight())
            seen = [g for g in game.state.level.groups if g.id in travel.visible_groups(game) and not g.peaceful]
            if seen:  # in sight but beyond this room or corridor: a fight begins where the two meet
                g = min(seen, key=lambda o: (game.distance_to(o), o.id))
                mon = game.monster_of(g)
                name = group_name(mon.name, mon.plural, g.count_told)[0]
                where = f"{the(name)} {'are' if g.count_told > 1 else 'is'} {render.distance_text(game, g)} away"
                them = "them" if g.count_told > 1 else "it"
                self.session.log.add(
                    f"{where[0].upper()}{where[1:]}, beyond this room or corridor: walk up to meet {them}.", "refused"
                )
            return out
        if len(here) == 1:
            return self.attack_group(here[0])
        here.sort(key=lambda g: (game.distance_to(g), g.id))
        options = [("", self.group_label(g)) for g in here]
        return Push(MenuScene("Attack which?", options, lambda i: self.attack_group(here[i])))

    def group_label(self, g: Group) -> str:
        """ "2 Bandits, 30 ft (at peace)": a group as the attack menu names it."""
        game = self.session.game
        mon = game.monster_of(g)
        name, many = group_name(mon.name, mon.plural, g.count_told)
        peace = " (at peace)" if g.peaceful else ""
        return f"{f'{g.count_told} {name}' if many else a_name(name)}, {render.distance_text(game, g)}{peace}"

    def attack_group(self, g: Group) -> Transition | None:
        """Attack ``g`` (the engine's ``Fight`` of that group); one at peace only after asking."""
        game = self.session.game
        nearest = game.nearest_here()
        action = Fight() if nearest is not None and nearest.id == g.id else Fight(g.id)
        if not g.peaceful:
            return self.act(action)
        mon = game.monster_of(g)
        name, many = group_name(mon.name, mon.plural, g.count_told)
        lines = [
            f"{The(name)} {'are' if many else 'is'} at peace with you. Attacking {'them' if many else 'it'} breaks "
            "the agreement, and the fight begins."
        ]
        options = [("a", f"Attack {the(name)}"), ("s", "Leave them be" if many else "Leave it be")]
        ask = ChoiceScene("Break the peace?", lines, options, lambda i: self.act(action) if i == 0 else None)
        ask.cursor = 1  # Enter (or a held key) leaves the peace be: only "a" attacks
        return Push(ask)

    def explored_text(self) -> str:
        """What auto-explore says when nothing reachable is left: where the stairs are."""
        game = self.session.game
        stairs = travel.stairs(game)
        bold = travel.explore_target(game, caution=travel.BOLD)
        if bold is not None:
            self.insist = travel.BOLD
            return f"Nothing more to explore without going past {gone_past(game, bold)} (x again: go anyway)."
        ran = travel.ran_from_text(game)
        if ran and travel.explore_target(game, caution=travel.RECKLESS) is not None:
            self.insist = travel.RECKLESS
            return f"Nothing more to explore without going past {ran} (x again: go anyway)."
        if stairs is None:
            return "Explored. No stairs are known on this level."
        px, py = game.state.pos
        dx, dy = stairs[0] - px, stairs[1] - py
        if dx == dy == 0:
            return "Explored. You stand on the stairs."
        return f"Explored. The stairs are {render.compass(dx, dy)} (> to go)."

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


def gone_past(game: Game, goal: Point) -> str:
    """The monsters a bold walk to ``goal`` (``x`` again: go anyway) goes past, named: those met and left alone in
    a room or corridor it crosses, and those in sight on its way or beside it, the nearest first ("the Gaoler",
    "the Gaoler and 5 Leeches"); "a monster" when none is known by name."""
    way = travel.path(game, goal, travel.BOLD)
    m = game.state.level.map
    crossed = {int(m.segment_of[y, x]) for x, y in way} - {game.state.segment}
    haunted = travel.haunted(game)
    seen = travel.visible_groups(game)
    near: list[tuple[int, int, str]] = []
    for g in game.state.level.groups:
        if not g.alive or g.peaceful or g.defeated:
            continue
        tiles = game.creature_tiles(g)
        beside = g.id in seen and any(max(abs(x - tx), abs(y - ty)) <= 1 for x, y in way for tx, ty in tiles)
        if beside or (g.segment in crossed and g.segment in haunted and g.met):
            mon = game.monster_of(g)
            name, many = group_name(mon.name, mon.plural, g.count_told)
            near.append((game.distance_to(g), g.id, f"{g.count_told} {name}" if many else the(name)))
    names = [name for _, _, name in sorted(near)]
    if not names:
        return "a monster"
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def rest_odds(game: Game) -> str:
    """What a rest until healed risks, before it begins: its turns and the chance a wanderer comes before its end
    (and each turn), from the rules' own check (:func:`undercroft.rules.explore.rest_wanderer_chance`)."""
    p = explore.rest_wanderer_chance(game)
    turns = explore.turns_to_rest(game)
    each = wanderer_text(p, explore.rest_deeper_share(game))
    if turns is None:
        return f"Resting heals nobody here, and {each}."
    by_then = 1 - (1 - p) ** turns
    return (
        f"About {plural(turns, 'turn')} of rest to be healed. Here {each}: {threat.pct(float(by_then))} that one comes "
        "before you are healed."
    )


#: a share said in words ("half of them from deeper down"); any other as "3 in 8"
SHARES: Final = {
    Fraction(1): "all",
    Fraction(1, 2): "half",
    Fraction(1, 3): "a third",
    Fraction(2, 3): "two thirds",
    Fraction(1, 4): "a quarter",
    Fraction(3, 4): "three quarters",
}


def wanderer_text(p: Fraction, deeper: Fraction = Fraction(0)) -> str:
    """ "a wandering monster comes 1 time in 20 a turn": the chance a turn of rest calls one, as both rests tell
    it; and, where some come from deeper down (``deeper``, their share), how many: ", half of them from deeper
    down"."""
    text = f"a wandering monster comes {p.numerator} time{'s' if p.numerator > 1 else ''} in {p.denominator} a turn"
    if deeper:
        text += f", {SHARES.get(deeper, f'{deeper.numerator} in {deeper.denominator}')} of them from deeper down"
    return text


def quiet(e: Event) -> bool:
    """Whether ``e`` lets a walk go on: a step, a room entered, a roll that found nothing, a turn of rest; and a
    group already at peace letting the party be again (logged: the player knows it, and it will not move)."""
    return e.type in QUIET_EVENTS or (isinstance(e, Peaceful) and e.already)
