"""Whole games of the reference player (:mod:`undercroft.bot`), one at a time (:func:`play_game`); many at once, in
this process, in N local processes or on a Dask cluster: :mod:`undercroft.tools.batch`.

:func:`play_game` is the game driver: it asks the bot for an action, has the engine take it (recording it when
asked), tells the bot of a refusal, and ends the game at its end, at :data:`MAX_ACTIONS`, or when the bot is stuck
(:data:`MAX_REFUSALS`, :data:`MAX_STUCK`: a timeout); a crash in the engine is its outcome ``crash``. Each game is a
pure function of (data, ruleset, seed, action cap).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from undercroft.bot import POLICIES
from undercroft.bot.meeting import cornered, fight_win
from undercroft.content import Content
from undercroft.record import Recorder, play_step
from undercroft.rules import events as ev
from undercroft.rules import formulas
from undercroft.rules.actions import Action, Bribe, Drink, DropFood, DropTreasure, Rest, Run, Talk, Use, Wait
from undercroft.rules.events import Event
from undercroft.rules.game import Game
from undercroft.rules.rng import parse_seed
from undercroft.rules.state import Group
from undercroft.rules.types import Behaviour, Mode, Origin

# --- one game --------------------------------------------------------------------------------------------------

MAX_ACTIONS = 5000  # a game still running after this many accepted actions is a timeout
MAX_REFUSALS = 20  # refusals in a row at one turn: the bot is stuck (a timeout)
MAX_STUCK = 30  # choices in a row with nothing useful to do: a timeout
RECORD_BATCH = 64  # action lines a recorded bot game gathers before one write (see Recorder.create)


NOT_ANSWERS = (Drink, Use, Wait)  # what the party may do before it answers a group in front of it
FLAT = 0.95  # a meeting whose fight reads at least this on the panel at its first decision is "flat": nothing to weigh


@dataclass(frozen=True)
class Meeting:
    """A group the party faced, at its first decision: the floor (1-based), its monster, the fight's win as the
    panel shows it (:func:`undercroft.bot.meeting.fight_win`), whether the party met it while resting, and whether
    it is a final guardian."""

    floor: int
    monster: str
    win: float
    resting: bool = False
    guardian: bool = False


@dataclass(frozen=True)
class Floor:
    """One floor the party reached: its number (1-based), the gold carried on arrival (before the merchant at the
    stairs), the potions carried as it set out (after the merchant), the gold spent at merchants on it, its fights
    and the hit points the party lost in them as a share of its maximum, added up over the fights."""

    floor: int
    gold: int
    potions: int = 0
    spent: int = 0
    fights: int = 0
    hp_lost: float = 0.0
    level: int = 1  # the first character's level on arrival


@dataclass(frozen=True)
class GameResult:
    seed: int
    ruleset: str
    outcome: str  # "won", "dead", "timeout" or "crash"
    turns: int
    deepest: int  # 1-based level reached
    cause: str | None = None  # what killed the party, or the crash
    recording: str | None = None
    # For a death: whether the party had a way out of the meeting that killed it (see :func:`had_a_way_out`) at
    # any of its decisions; None for a game that did not end in death.
    choice: bool | None = None
    # The monsters (by name) of the floor-1 meetings that left the party nothing but a fight it loses more often
    # than not at every decision of the meeting (:func:`undercroft.bot.meeting.cornered`), in the order met.
    cornered: tuple[str, ...] = ()
    meetings: tuple[Meeting, ...] = ()  # every group faced, at its first decision (:class:`Ledger`)
    floors: tuple[Floor, ...] = ()  # every floor reached, in order
    kit: tuple[str, ...] = ()  # the things in use as the party set out on the last floor (:func:`kit_of`)
    build: str = ""  # a won game's: the first character's weapon and armour (:func:`build_of`)
    # For a death: whether the party's first answer to the group that killed it was to run (:class:`Ledger`).
    ran_first: bool | None = None


@dataclass
class Timing:
    """Where a bot's games spend their time (``play_game(timing=...)``, for ``undercroft bench``): ``bot``, the
    bot's side of each action (:func:`had_a_way_out` and :meth:`Bot.choose`: everything it asks
    the engine on the way, its fields of view folded into the explored map among them); ``step``, the engine's
    ``Game.step`` (with its recording, for a recorded game); ``actions``, the actions taken (refused ones too)."""

    bot: float = 0.0
    step: float = 0.0
    actions: int = 0


def game_seed(seed: int | str, index: int) -> int:
    """The seed of game ``index`` of an autoplay batch started with ``seed``."""
    return (parse_seed(seed) + index) % (1 << 64)


_WAYS_OUT: tuple[Action, ...] = (Run(), Talk(), Bribe(0))


def had_a_way_out(game: Game) -> bool:
    """Whether the party, facing a group, may now do something other than fight it: run (from a meeting or a fight,
    or on in a pursuit), talk, bribe, drop food or treasure that may distract it, or walk on past a group that is
    at peace. A death after a meeting where this never held is a death "without a choice" (docs/BALANCE.md), unless
    the party walked in after the game's warning of a final guardian (:func:`note_warning`)."""
    legal = game.legal
    st = game.state
    g = st.front_group()
    if g is None:
        return True
    if st.mode == Mode.ENCOUNTER and g.peaceful:
        return True
    if any(legal(a) for a in _WAYS_OUT):
        return True
    mon = game.monster_of(g)
    submerged = Behaviour.SUBMERGED in mon.behaviours
    food = legal(DropFood()) and formulas.distracted_by("food", mon.intelligent, submerged)
    return food or (legal(DropTreasure()) and formulas.distracted_by("treasure", mon.intelligent, submerged))


def note_warning(game: Game, action: Action, ways: dict[int, bool]) -> None:
    """A step through the door of a final guardian (:meth:`Game.finale_ahead`) comes after the game's warning (what
    waits there, what will not work against it) and its question: a death in the fight behind it was chosen, whatever
    its meeting offers, so the guardian counts in ``ways`` (group id -> a way out at one of its decisions) as a
    meeting with a choice. The warning is no action: the bot takes the same step a player who goes in takes."""
    terms = game.finale_ahead(action)
    if terms is not None:
        ways[terms.group] = True


def play_game(
    content: Content,
    ruleset: str,
    seed: int,
    *,
    record: str | None = None,
    max_actions: int = MAX_ACTIONS,
    timing: Timing | None = None,
    policy: str = "careful",
) -> GameResult:
    """Play one game with the bot of ``policy`` (:data:`undercroft.bot.POLICIES`); with ``record`` (a file path)
    write its recording (:data:`RECORD_BATCH` action lines a write: a bot's game is never continued, and only a
    process killed outright loses its last lines).

    An exception inside the engine is caught here (after the recorder wrote the crash line and report) and
    reported as the outcome ``crash``. With ``timing``, the bot's and the engine's seconds are added to it. What the
    reports count floor by floor is kept as the game goes (:class:`Ledger`) and returned with the result.
    """
    game = Game(content, ruleset, seed)
    bot = POLICIES[policy](game, seed)
    recorder = Recorder.create(Path(record), game, content, overwrite=True, batch=RECORD_BATCH) if record else None
    refusals = 0
    ways: dict[int, bool] = {}  # group id -> the party had a way out of meeting it at one of its decisions
    facing: int | None = None  # the group in front of the party at its last decision
    trapped: dict[int, bool] = {}  # floor-1 group id -> cornered at every decision of meeting it so far
    named: dict[int, str] = {}  # floor-1 group id -> its monster's name
    action: Action | None = None
    killer: int | None = None  # the group whose blow killed the party
    ledger = Ledger(game)
    try:
        while not game.over and game.state.turn < max_actions:
            t0 = time.perf_counter() if timing is not None else 0.0
            front = game.state.front_group()
            facing = None if front is None else front.id
            if front is not None and not ways.get(front.id, False):
                ways[front.id] = had_a_way_out(game)
            if front is not None and game.state.depth == 0 and trapped.get(front.id, True):
                _watch_floor_1(game, front, trapped, named)
            ledger.decide(front, action)
            action = bot.choose()
            ledger.chose(front, action)
            note_warning(game, action, ways)
            t1 = time.perf_counter() if timing is not None else 0.0
            try:
                events = play_step(game, recorder, action) if recorder else game.step(action)
            except Exception as exc:
                return GameResult(
                    seed,
                    ruleset,
                    "crash",
                    game.state.turn,
                    game.state.depth + 1,
                    f"{type(exc).__name__}: {exc}",
                    record,
                )
            ledger.after(events)
            if game.state.mode == Mode.DEAD:
                killer = next((e.group for e in reversed(events) if isinstance(e, ev.MonsterAttack) and e.hit), None)
            if timing is not None:
                timing.bot += t1 - t0
                timing.step += time.perf_counter() - t1
                timing.actions += 1
            if len(events) == 1 and events[0].type == "refused":
                bot.refused(action)
                refusals += 1
                if refusals >= MAX_REFUSALS:
                    break
            else:
                refusals = 0
            if bot.stuck >= MAX_STUCK:
                break
    finally:
        if recorder is not None:
            recorder.close()
    st = game.state
    names = tuple(named[gid] for gid, yes in trapped.items() if yes)
    log = ledger.result()
    if st.mode == Mode.WON:
        return GameResult(seed, ruleset, "won", st.turn, st.depth + 1, None, record, None, names, *log, build_of(game))
    if st.mode == Mode.DEAD:
        cause = str(st.death["cause"]) if st.death else "unknown"
        choice = True if facing is None else ways.get(facing, False)  # (struck walking past: it chose to pass)
        struck = facing if killer is None else killer  # (a group met as the party fell was never answered)
        ran = struck is not None and ledger.answers.get(struck) is Run
        return GameResult(
            seed, ruleset, "dead", st.turn, st.depth + 1, cause, record, choice, names, *log, ran_first=ran
        )
    return GameResult(seed, ruleset, "timeout", st.turn, st.depth + 1, None, record, None, names, *log)


class Ledger:
    """What the reports count of one game, floor by floor, as it goes (docs/BALANCE.md, "Floor by floor"): each
    group faced, at the first decision it is in front of the party, with the fight's win as the panel shows it
    (:class:`Meeting`); each floor reached (:class:`Floor`): the gold on arrival, the potions as the party sets
    out (the merchant at the stairs left), the gold spent there, the fights and the hit points lost in them; and
    the kit the party sets out on the last floor with."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.meetings: list[Meeting] = []
        self.faced: set[int] = set()
        self.floors: list[Floor] = []
        self.kit: tuple[str, ...] = ()
        self.set_out = False
        self.fight: tuple[int, int] | None = (
            None  # a fight in progress: the party's hit points and maximum at its start
        )
        self.damage = 0  # the hit points the party has lost in it
        self.answers: dict[int, type[Action]] = {}  # group id -> the kind of the party's first answer to it
        self._arrive()

    def _arrive(self) -> None:
        st = self.game.state
        self.floors.append(Floor(st.depth + 1, st.gold, level=st.party[0].level))
        self.set_out = False

    def decide(self, front: Group | None, last: Action | None) -> None:
        """Before a decision of the bot's (``last``: the action chosen before, None at the first)."""
        game, st = self.game, self.game.state
        if not self.set_out and st.mode != Mode.SHOP:
            self.set_out = True
            potions = sum(n for i, n in st.items.items() if game.content.items[i].kind == "potion")
            self.floors[-1] = replace(self.floors[-1], potions=potions)
            if st.depth == len(game.content.rulesets[st.ruleset].levels) - 1:
                self.kit = kit_of(game)
        if front is None or front.id in self.faced:
            return
        self.faced.add(front.id)
        guardian = front.origin == Origin.GUARDIAN
        self.meetings.append(Meeting(st.depth + 1, front.monster, fight_win(game), isinstance(last, Rest), guardian))

    def chose(self, front: Group | None, action: Action) -> None:
        """The bot chose ``action`` with ``front`` in front of the party: the party's first answer to the group is
        the first action that is not a drink, a use or a wait (kept to tell the deaths to a group run from at first
        sight)."""
        if front is not None and front.id not in self.answers and not isinstance(action, NOT_ANSWERS):
            self.answers[front.id] = type(action)

    def after(self, events: Sequence[Event]) -> None:
        """After a step, its ``events``."""
        st = self.game.state
        here = self.floors[-1]
        for e in events:
            if isinstance(e, ev.Combat):
                living = [m for m in st.party if m.hp > 0]
                self.fight, self.damage = (sum(m.hp for m in living), sum(m.max_hp for m in living)), 0
                here = replace(here, fights=here.fights + 1)
            elif isinstance(e, ev.MonsterAttack):
                self.damage += e.damage
            elif isinstance(e, ev.Bought):
                here = replace(here, spent=here.spent + e.price)
        if self.fight is not None and st.mode != Mode.COMBAT:
            hp, most = self.fight
            here = replace(here, hp_lost=here.hp_lost + min(self.damage, hp) / max(1, most))
            self.fight = None
        self.floors[-1] = here
        if st.depth + 1 != here.floor:
            self._arrive()

    def result(self) -> tuple[tuple[Meeting, ...], tuple[Floor, ...], tuple[str, ...]]:
        """The meetings, the floors and the last floor's kit, as :class:`GameResult` holds them."""
        return tuple(self.meetings), tuple(self.floors), self.kit


def kit_of(game: Game) -> tuple[str, ...]:
    """The things the party keeps in use, by id, sorted: each character's weapon and armour, and the tools carried
    (spare weapons and armour in the pack are no part of it)."""
    st, items = game.state, game.content.items
    held = {i for i, n in st.items.items() if n > 0 and items[i].kind == "tool"}
    held |= {m.wielded or game.content.party[m.template].weapon for m in st.party}
    held |= {m.armour for m in st.party if m.armour}
    return tuple(sorted(held))


def build_of(game: Game) -> str:
    """A build: what the first character fights with, its weapon and its armour (``none``), by name."""
    m, items = game.state.party[0], game.content.items
    weapon = items[m.wielded or game.content.party[m.template].weapon].name
    return f"{weapon}, {items[m.armour].name if m.armour else 'no armour'}"


def _watch_floor_1(game: Game, front: Group, trapped: dict[int, bool], named: dict[int, str]) -> None:
    """At a decision in a meeting or a fight on floor 1: whether ``front`` still corners the party (cornered at every
    such decision so far: :func:`undercroft.bot.meeting.cornered`)."""
    if game.state.mode in (Mode.ENCOUNTER, Mode.COMBAT):
        trapped[front.id] = cornered(game, front, fight_win(game))
        named[front.id] = game.monster_of(front).name


def _tally(names: Iterable[str]) -> dict[str, int]:
    """How often each name occurs, most first, then by name."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def summarize(results: list[GameResult]) -> dict[str, object]:
    """The autoplay summary: games, wins, deaths by cause and by floor, deaths without a choice, the floor-1
    meetings that cornered the party (:func:`undercroft.bot.meeting.cornered`), deepest level, mean turns,
    timeouts (and crashes)."""
    deaths = _tally(r.cause or "unknown" for r in results if r.outcome == "dead")
    levels = max((r.deepest for r in results), default=0)
    by_level = [sum(r.outcome == "dead" and r.deepest == k for r in results) for k in range(1, levels + 1)]
    return {
        "games": len(results),
        "wins": sum(r.outcome == "won" for r in results),
        "deaths": deaths,
        "deaths_by_level": by_level,
        "deaths_without_choice": sum(r.outcome == "dead" and r.choice is False for r in results),
        "deaths_after_running": sum(r.outcome == "dead" and r.ran_first is True for r in results),
        "cornered_on_floor_1": sum(len(r.cornered) for r in results),
        "cornered_by_monster": _tally(name for r in results for name in r.cornered),
        "deepest": levels,
        "mean_turns": round(sum(r.turns for r in results) / len(results), 1) if results else 0.0,
        "timeouts": sum(r.outcome == "timeout" for r in results),
        "crashes": sum(r.outcome == "crash" for r in results),
        **depth_report(results),
    }


def _median(xs: Sequence[float]) -> float:
    s = sorted(xs)
    n = len(s)
    return 0.0 if not n else s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def _mean_interval(xs: Sequence[int]) -> list[float]:
    """The 95 % interval of the mean of ``xs`` (the normal approximation)."""
    n = len(xs)
    if n < 2:
        return [float(sum(xs)), float(sum(xs))]
    mean = sum(xs) / n
    half = 1.96 * (sum((x - mean) ** 2 for x in xs) / (n - 1) / n) ** 0.5
    return [round(mean - half, 2), round(mean + half, 2)]


def _median_interval(xs: Sequence[float]) -> list[float]:
    """The 95 % interval of the median of ``xs``: the order statistics n/2 -+ 1.96 sqrt(n)/2 (distribution-free)."""
    s = sorted(xs)
    n = len(s)
    half = 1.96 * n**0.5 / 2
    low, high = max(0, int(n / 2 - half)), min(n - 1, int(n / 2 + half + 0.999))
    return [round(s[low], 4), round(s[high], 4)]


def depth_report(results: Sequence[GameResult]) -> dict[str, Any]:
    """The measures floor by floor (docs/BALANCE.md, "Floor by floor"): for each floor, the games that arrived,
    the deaths, the meetings and the share of them that were flat (the fight read :data:`FLAT` or more at the first
    decision), the hit points lost per fight as a share of the maximum, the gold and potions on arrival (means)
    and the gold spent there (its share of the gold carried in), the median level on arrival; then the final
    guardians' first-decision odds, each kept thing's share of the kits that set out on the last floor, and the
    builds of the wins."""
    last = max((f.floor for r in results for f in r.floors), default=0)
    floors = []
    for k in range(1, last + 1):
        here = [f for r in results for f in r.floors if f.floor == k]
        met = [m for r in results for m in r.meetings if m.floor == k]
        gold, fights = sum(f.gold for f in here), sum(f.fights for f in here)
        floors.append(
            {
                "floor": k,
                "arrivals": len(here),
                "deaths": sum(r.outcome == "dead" and r.deepest == k for r in results),
                "meetings": len(met),
                "flat": round(sum(m.win >= FLAT for m in met) / len(met), 4) if met else 0.0,
                "hp_lost_per_fight": round(sum(f.hp_lost for f in here) / fights, 4) if fights else 0.0,
                "gold_on_arrival": round(gold / len(here), 1) if here else 0.0,
                "potions_on_arrival": round(sum(f.potions for f in here) / len(here), 2) if here else 0.0,
                "potions_ci95": _mean_interval([f.potions for f in here]),
                "level_on_arrival": _median([f.level for f in here]),
                "gold_carried": gold,
                "gold_spent": sum(f.spent for f in here),
                "spent_share": round(sum(f.spent for f in here) / gold, 4) if gold else 0.0,
            }
        )
    finale: dict[str, list[float]] = {}
    for r in results:
        for m in r.meetings:
            if m.guardian:
                finale.setdefault(m.monster, []).append(m.win)
    kits = [r.kit for r in results if r.kit]
    return {
        "floors": floors,
        "finale": {
            name: {"meetings": len(w), "median": round(_median(w), 4), "median_ci95": _median_interval(w)}
            for name, w in sorted(finale.items())
        },
        "kits": len(kits),
        "kit_shares": {
            item: round(n / len(kits), 4) for item, n in _tally(item for kit in kits for item in kit).items()
        },
        "builds": _tally(r.build for r in results if r.outcome == "won" and r.build),
    }


__all__ = [
    "MAX_ACTIONS",
    "Floor",
    "GameResult",
    "Ledger",
    "Meeting",
    "Timing",
    "depth_report",
    "game_seed",
    "had_a_way_out",
    "note_warning",
    "play_game",
    "summarize",
]
