"""The rules engine: one game, advanced only by :meth:`Game.step`.

``step(action) -> events``: an action the current mode allows changes the state and returns what happened; any
other action is refused with a ``refused`` event saying why, and the state is untouched. :class:`Game` is a thin
facade: the state and the dice (:class:`~undercroft.rules.context.Ctx`), the table of which actions each mode
allows (:data:`HANDLERS`), the checks that refuse an action the state forbids, and dispatch. The procedures live
in the modules named after the rules (docs/ARCHITECTURE.md has the map): :mod:`~undercroft.rules.explore`,
:mod:`~undercroft.rules.monster_check`, :mod:`~undercroft.rules.encounter`, :mod:`~undercroft.rules.parley`,
:mod:`~undercroft.rules.combat`, :mod:`~undercroft.rules.chase.running`, :mod:`~undercroft.rules.chase.fatigue`;
every formula is in :mod:`~undercroft.rules.formulas`. Events carry data only; :mod:`undercroft.narrate` words them.

For the simulators and tests there is a public interface besides ``step``: :meth:`Game.new_member`,
:meth:`Game.add_group`, :meth:`Game.start_encounter`, :meth:`Game.forced_dice` (inject dice), and
:meth:`Game.snapshot` / :meth:`Game.restore`.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from undercroft.content import Content
from undercroft.rules import (
    agreements,
    approach,
    combat,
    encounter,
    explore,
    finale,
    items,
    parley,
    reaction,
    shop,
    ways_out,
)
from undercroft.rules import events as ev
from undercroft.rules.actions import Action, Move, Run
from undercroft.rules.canonical import canonical, checksum
from undercroft.rules.chase import distractions, running
from undercroft.rules.context import SETUP, Ctx, init_behaviour
from undercroft.rules.dice import DiceSource, roll
from undercroft.rules.digest import Tracker
from undercroft.rules.events import Event
from undercroft.rules.levels import make_level
from undercroft.rules.refusals import Code, Reason, Refused
from undercroft.rules.rng import Streams
from undercroft.rules.state import Encounter, GameState, Group, fork_state
from undercroft.rules.types import OVER, Mode, Origin, Side

Handler = Callable[[Ctx, Any, list[Event]], None]

#: Which actions each mode allows, and the procedure that carries each out.
HANDLERS: dict[tuple[Mode, str], Handler] = {
    (Mode.EXPLORE, "move"): lambda c, a, ev: explore.move(c, a.dx, a.dy, ev),
    (Mode.EXPLORE, "descend"): lambda c, a, ev: explore.descend(c, ev),
    (Mode.EXPLORE, "rest"): lambda c, a, ev: explore.rest(c, ev),
    (Mode.EXPLORE, "drink"): lambda c, a, ev: items.drink_action(c, a.member, ev),
    (Mode.EXPLORE, "use"): lambda c, a, ev: items.use(c, a.item, a.member, ev),
    (Mode.EXPLORE, "fight"): lambda c, a, ev: encounter.break_peace(c, ev, a.group),
    (Mode.EXPLORE, "pursue"): lambda c, a, ev: running.pursue(c, ev),
    (Mode.ENCOUNTER, "move"): lambda c, a, ev: explore.move(c, a.dx, a.dy, ev),
    (Mode.ENCOUNTER, "descend"): lambda c, a, ev: explore.descend(c, ev),
    (Mode.ENCOUNTER, "fight"): lambda c, a, ev: encounter.fight(c, ev),
    (Mode.ENCOUNTER, "talk"): lambda c, a, ev: parley.talk(c, ev),
    (Mode.ENCOUNTER, "bribe"): lambda c, a, ev: parley.bribe(c, a.gold, ev),
    (Mode.ENCOUNTER, "wait"): lambda c, a, ev: encounter.wait(c, ev),
    (Mode.ENCOUNTER, "run"): lambda c, a, ev: running.run(c, a.door, ev),
    (Mode.ENCOUNTER, "drink"): lambda c, a, ev: items.drink_action(c, a.member, ev),
    (Mode.ENCOUNTER, "use"): lambda c, a, ev: items.use(c, a.item, a.member, ev),
    (Mode.COMBAT, "attack"): lambda c, a, ev: combat.attack(c, a.target, ev),
    (Mode.COMBAT, "drink"): lambda c, a, ev: items.drink_action(c, a.member, ev),
    (Mode.COMBAT, "use"): lambda c, a, ev: items.use(c, a.item, a.member, ev),
    (Mode.COMBAT, "oil"): lambda c, a, ev: combat.oil(c, a.target, ev),
    (Mode.COMBAT, "wait"): lambda c, a, ev: combat.wait(c, ev),
    (Mode.COMBAT, "run"): lambda c, a, ev: running.run(c, a.door, ev),
    (Mode.CHASE, "run"): lambda c, a, ev: running.keep_running(c, ev),
    (Mode.CHASE, "drop_food"): lambda c, a, ev: distractions.drop_food(c, ev),
    (Mode.CHASE, "drop_treasure"): lambda c, a, ev: distractions.drop_treasure(c, ev),
    (Mode.CHASE, "oil"): lambda c, a, ev: distractions.oil(c, ev),
    (Mode.CHASE, "fight"): lambda c, a, ev: running.turn_and_fight(c, ev),
    (Mode.CHASE, "drink"): lambda c, a, ev: items.drink_action(c, a.member, ev),
    (Mode.CHASE, "use"): lambda c, a, ev: items.use(c, a.item, a.member, ev),
    (Mode.CHASE, "wait"): lambda c, a, ev: running.let_go(c, ev),
    (Mode.SHOP, "buy"): lambda c, a, ev: shop.buy(c, a.item, ev),
    (Mode.SHOP, "use"): lambda c, a, ev: items.use(c, a.item, a.member, ev),
    (Mode.SHOP, "leave_shop"): lambda c, a, ev: shop.leave(c, ev),
}

_ON_ITS_TURN = ("attack", "oil", "wait", "drink", "use", "run")
_DROPS = ("drop_food", "drop_treasure")


# --- the state's reasons to refuse an action of each kind (Game._precheck; kinds not named have none) -------------


def _giving_chase(g: Game) -> Reason | None:
    """The party is the one giving chase: it runs on or lets the group go, nothing else."""
    p = g.state.pursuit
    return Reason(Code.GIVING_CHASE) if p is not None and p.chaser == Side.PARTY else None


def _drink(g: Game) -> Reason | None:
    if items.healing_potion(g) is None:
        return Reason(Code.NO_POTION)
    return None if any(m.alive and m.hp < m.max_hp for m in g.state.party) else Reason(Code.UNHURT)


def _drop_food(g: Game) -> Reason | None:
    return _giving_chase(g) or (None if g.item_of("food") is not None else Reason(Code.NO_FOOD))


def _drop_treasure(g: Game) -> Reason | None:
    has = g.state.gold > 0 or g.item_of("treasure") is not None
    return _giving_chase(g) or (None if has else Reason(Code.NO_TREASURE))


def _oil(g: Game) -> Reason | None:
    return _giving_chase(g) or (None if g.item_of("oil") is not None else Reason(Code.NO_OIL))


def _wait(g: Game) -> Reason | None:
    chased = g.state.mode == Mode.CHASE and _giving_chase(g) is None
    return Reason(Code.CHASED) if chased else None


def _run(g: Game) -> Reason | None:
    st = g.state
    if not g.proc.running:
        return Reason(Code.NO_RUNNING)
    if g.tired():
        return Reason(Code.EXHAUSTED_CHASED if st.mode == Mode.CHASE else Code.EXHAUSTED)
    return running.check_run(g) if st.mode != Mode.CHASE else None


def _fight(g: Game) -> Reason | None:
    why = _giving_chase(g)
    if why is None and g.state.mode == Mode.EXPLORE and g.nearest_here() is None:
        why = Reason(Code.NOTHING_TO_FIGHT)
    return why


def _talk(g: Game) -> Reason | None:
    return parley.check_talk(g, g.current_group())


def _bribe(g: Game) -> Reason | None:
    return parley.check_bribe(g, g.current_group())


_PRECHECKS: dict[str, Callable[[Game], Reason | None]] = {
    "drink": _drink,
    "use": items.check_use,
    "drop_food": _drop_food,
    "drop_treasure": _drop_treasure,
    "oil": _oil,
    "wait": _wait,
    "pursue": running.check_pursue,
    "run": _run,
    "move": explore.check_walk,
    "descend": explore.check_descend,
    "fight": _fight,
    "talk": _talk,
    "bribe": _bribe,
}


@dataclass(frozen=True)
class Snapshot:
    """A game's whole state and its dice streams at one moment (:meth:`Game.snapshot`)."""

    state: GameState
    streams: dict[tuple[str, int], tuple[int, int, int]]


class Game(Ctx):
    """One seeded game of one ruleset."""

    #: A fork that plays a chase out and no further (:mod:`undercroft.sim.chase`): a step that ends the chase (or
    #: never starts one) stops at its events, before the entries, the watch and the clock of the step's end, which
    #: nothing reads from it.
    chase_only = False

    def __init__(
        self, content: Content, ruleset: str = "undercroft", seed: int | str = 0, *, dice: DiceSource | None = None
    ) -> None:
        super().__init__(content, ruleset, seed, dice)
        members = [self.new_member(cid) for cid in self.rs.party]
        gold = max(0, roll(self.dice(SETUP), self.rs.start_gold).total)
        lv0 = make_level(content, ruleset, self.streams, 0)
        start = lv0.map.start
        seg = int(lv0.map.segment_of[start[1], start[0]])
        self.state = GameState(
            seed=self.streams.seed,
            ruleset=ruleset,
            depth=0,
            levels={0: lv0},
            pos=start,
            prev_pos=start,
            segment=seg,
            segment_entry=start,
            party=members,
            gold=gold,
            items={k: v for k, v in sorted(self.rs.start_items.items()) if v > 0},
        )
        lv0.visit(seg)
        self.see()
        self._tracker = Tracker()

    # --- the state ----------------------------------------------------------------------------------------

    def checksum(self) -> str:
        return checksum(self.canonical())

    def digest(self) -> str:
        """The state's digest as recordings of format 3 store it (:mod:`undercroft.rules.digest`): one short hash
        per part of the state, in the order of :data:`~undercroft.rules.digest.PARTS`."""
        return self._tracker.digest(self.state, self.streams)

    def canonical(self) -> dict[str, Any]:
        return canonical(self.state, self.streams.snapshot())

    @property
    def over(self) -> bool:
        return self.state.mode in OVER

    @property
    def mode(self) -> Mode:
        return self.state.mode

    # --- stepping -----------------------------------------------------------------------------------------

    def step(self, action: Action) -> list[Event]:
        """Apply one action; return its events. A refused action changes nothing."""
        st = self.state
        handler = None if st.mode in OVER else HANDLERS.get((st.mode, action.type))
        why = self.refusal(action) if handler is None else self._precheck(action.type)
        if why is not None:
            return [ev.Refused(why=why, action=action.type)]
        assert handler is not None
        events: list[Event] = []
        fled = st.fled
        try:
            handler(self, action, events)
        except Refused as exc:
            return [ev.Refused(why=exc.reason, action=action.type)]
        if fled and st.fled == fled:  # the party did not pursue the group that went its way: it is gone
            running.let_go(self, events)
        if self.chase_only and st.mode != Mode.CHASE:
            return events  # (a rollout's chase is over: its events have told what it came to)
        explore.settle(self, events)
        items.expire(self, events)
        agreements.follow(self)
        st.turn += 1
        return events

    def legal(self, action: Action) -> bool:
        """Whether an action of this kind is possible now (without taking it): the mode allows it and nothing in
        the state forbids it (no potion, a monster that cannot be talked to, the one bribe spent, ...). Its
        arguments (a target, a sum of gold, a step into a wall) are checked when it is taken."""
        return self.refusal(action) is None

    def refusal(self, action: Action) -> Reason | None:
        """Why an action of this kind would be refused now, or None (see :meth:`legal`)."""
        st = self.state
        mode, kind = st.mode, action.type
        if mode in OVER:
            return Reason(Code.GAME_OVER)
        if (mode, kind) not in HANDLERS:
            if kind in _DROPS and mode in (Mode.ENCOUNTER, Mode.COMBAT):
                return Reason(Code.NOT_FLEEING)  # 003: a drop stops a pursuer; in a meeting, paying is a bribe (000)
            return Reason(Code.NOT_NOW, {"mode": str(mode)})
        return self._precheck(kind)

    def _precheck(self, kind: str) -> Reason | None:
        """The state's reasons to refuse an action the mode allows (read-only: it changes nothing)."""
        st = self.state
        if st.combat is not None and not st.combat.party_turn and kind in _ON_ITS_TURN:
            return Reason(Code.NOT_YOUR_TURN)
        check = _PRECHECKS.get(kind)
        return None if check is None else check(self)

    # --- questions the screens, the bot and the simulators ask ------------------------------------------------

    def exits(self) -> list[ways_out.Exit]:
        """The ways out of the party's segment, in the order ``Run(door=i)`` names them: each door, the tile beyond
        it, and whether the group faced stands in front of it (blocked)."""
        return ways_out.exits(self, self.state.front_group())

    def creature_tiles(self, g: Group) -> list[tuple[int, int]]:
        """Where each creature of ``g`` stands on the map (in creature order)."""
        return approach.creature_tiles(self, g)

    def distance_to(self, g: Group) -> int:
        """The walking distance between the party and ``g`` in feet (the map's scale)."""
        return approach.distance(self, g)

    def bribe_cell(self, g: Group, gold: int) -> tuple[int, int, int] | None:
        """(column, row, digit) of the bribery table for ``gold`` offered to ``g``; None below its rows."""
        return parley.bribe_cell(self, g, gold)

    def finale_ahead(self, action: Action) -> finale.Terms | None:
        """When ``action`` takes the party through the door of a final guardian still to be dealt with (a step, or a
        run from a meeting or a fight through that door): who waits there and what the rules allow against it
        (:mod:`undercroft.rules.finale`); None otherwise. Only actions the engine allows now count."""
        if not isinstance(action, (Move, Run)) or not self.legal(action):
            return None
        if isinstance(action, Move):
            tile = (self.state.pos[0] + action.dx, self.state.pos[1] + action.dy)
        elif self.state.mode == Mode.CHASE:
            return None  # (running on in a chase: no door is chosen)
        else:
            try:
                tile = running.exit_for(self, action.door).landing  # the door the run would take
            except Refused:
                return None
        g = finale.ahead(self, tile)
        return None if g is None else finale.terms(self, g)

    def finale_terms(self, g: Group) -> finale.Terms | None:
        """What the rules allow against ``g`` when it is a final guardian (:func:`finale.terms`), else None."""
        return finale.terms(self, g) if reaction.is_final_guardian(self, g) else None

    def wait_outcome(self, g: Group) -> reaction.WaitOutcome | None:
        """What a Wait brings now from ``g``, the group the party faces in a meeting (:func:`reaction.wait_outcome`:
        its chance to attack, what it does otherwise, the rounds before it makes up its mind); None outside one."""
        enc = self.state.encounter
        if self.state.mode != Mode.ENCOUNTER or enc is None or enc.group != g.id:
            return None
        return reaction.wait_outcome(self, g)

    # --- the public interface for simulators and tests ------------------------------------------------------

    def add_group(
        self,
        monster: str,
        count: int = 1,
        *,
        hp: Sequence[int] | None = None,
        pos: tuple[int, int] | None = None,
        origin: Origin = Origin.RESIDENT,
        treasure: int = 0,
    ) -> Group:
        """Place ``count`` ``monster`` (at ``hp``, default full) in the party's segment, at ``pos`` (default the
        party's tile), not yet met."""
        st = self.state
        mon = self.content.monster(monster)
        hps = list(hp) if hp is not None else [mon.hp] * count
        g = Group(
            st.next_group,
            monster,
            hps,
            mon.hp,
            st.depth,
            st.segment,
            pos if pos is not None else st.pos,
            origin,
            treasure,
        )
        st.next_group += 1
        init_behaviour(g, mon)
        st.level.add_group(g)
        return g

    def start_encounter(self, g: Group, *, meeting: bool = True) -> list[Event]:
        """Meet ``g``. ``meeting``: the whole meeting procedure (distance, surprise, reaction where the ruleset has
        them, then what the monster does), as walking in would; otherwise the party simply faces a group it has
        met before (no surprise, no free round, nothing rolled)."""
        events: list[Event] = []
        if meeting:
            encounter.begin(self, g, events)
        else:
            g.met = True
            self.state.mode = Mode.ENCOUNTER
            self.state.encounter = Encounter(
                g.id, entry=self.state.pos, first_round=False, distance=approach.distance(self, g)
            )
        return events

    @contextmanager
    def forced_dice(self, dice: DiceSource | None) -> Iterator[None]:
        """Within the block, every die comes from ``dice`` (None: the game's own streams)."""
        before = self.dice_override
        self.dice_override = dice
        try:
            yield
        finally:
            self.dice_override = before

    def fork(self, dice: DiceSource) -> Game:
        """A copy of this game to try actions on that stay on its level (the simulators' rollouts: a chase): its own
        state, every die from ``dice`` (never this game's streams, which it leaves as they are). The maps, the data
        and the other levels are shared (nothing done on this level changes them)."""
        other = copy.copy(self)
        other.state = fork_state(self.state)
        other.streams = Streams(self.streams.seed)  # (never drawn: the dice come from ``dice``)
        other.dice_override = dice
        other._tracker = Tracker()
        other._sight_memo = None
        other.exits_memo = None
        return other

    def snapshot(self) -> Snapshot:
        """The whole state and the streams, to :meth:`restore` later (the maps are shared: they never change)."""
        memo: dict[int, Any] = {id(lv.map): lv.map for lv in self.state.levels.values()}
        return Snapshot(copy.deepcopy(self.state, memo), self.streams.snapshot())

    def restore(self, snap: Snapshot) -> None:
        """Put the game back as it was at ``snap`` (which stays usable for further restores)."""
        memo: dict[int, Any] = {id(lv.map): lv.map for lv in snap.state.levels.values()}
        self.state = copy.deepcopy(snap.state, memo)
        self.streams.restore(snap.streams)
        self._tracker = Tracker()
        self.exits_memo = None
