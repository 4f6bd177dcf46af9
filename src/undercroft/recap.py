"""What a finished game's end screen and morgue file tell of the run, read back from its recording.

:func:`read_run` replays a recording once and gathers the **notes** of the run (the floors reached, the uniques
met, the level-ups, the death or the win, each with its turn) and the **turning point**: the last decision of the
last meeting, the one with what killed the party (the last choice made there while another way was open: to run,
talk, bribe or drink). :func:`turning_lines` then says what the party chose there, at what hit points and with how
many potions, and what the other ways out were worth, in the odds the panels showed, computed from the state as it
stood (``sim.odds.fight_odds`` for a fight; ``sim.chances``' escape, talk and bribe chances, from
``rules/formulas.py``): "On turn 41, floor 1, at HP 6/12 with 3 potions, you attacked the Ghoul: win 90%, death
10%; running was 50%."; :func:`replay_command`, the command that plays on from just before it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from undercroft import paths, record
from undercroft.content import Content
from undercroft.narrate import finale
from undercroft.rules import events as ev
from undercroft.rules import explore, items
from undercroft.rules.actions import (
    Action,
    Attack,
    Bribe,
    Drink,
    DropFood,
    DropTreasure,
    Fight,
    Rest,
    Run,
    Talk,
    ThrowOil,
    Wait,
)
from undercroft.rules.events import Event
from undercroft.rules.game import Game, Snapshot
from undercroft.rules.names import the
from undercroft.rules.types import Mode
from undercroft.sim import chances
from undercroft.sim.first import drink_win
from undercroft.sim.odds import fight_odds

# Each choice in a meeting: the way out it takes (a key of :func:`_chances`) and how the recap says it was
# taken ("you attacked the Ghoul"; "{}" is the creature).
CHOSE: dict[type[Action], tuple[str, str]] = {
    Fight: ("fight", "chose to fight {}"),
    Attack: ("fight", "attacked {}"),
    ThrowOil: ("fight", "threw oil at {}"),
    Wait: ("fight", "held back from {}"),
    Run: ("run from", "ran from {}"),
    Talk: ("talk to", "talked to {}"),
    Bribe: ("bribe", "bribed {}"),
    DropFood: ("food", "threw food to {}"),
    DropTreasure: ("treasure", "threw treasure to {}"),
    Drink: ("drink", "drank a potion facing {}"),
}


@dataclass(frozen=True)
class Note:
    """One line of the run's notes: what happened on which turn, on which floor (1-based)."""

    turn: int
    floor: int
    text: str


@dataclass
class Turning:
    """The last decision of the fatal meeting: the state just before it, and the choice."""

    turn: int  # the turn of the choice
    action: Action
    group: int
    snapshot: Snapshot = field(repr=False)


@dataclass(frozen=True)
class Began:
    """A rest that brought a meeting on: its turn, the group that came, the party as it stood (``_standing``) and
    the chance a turn of that rest called a wanderer (``rules.explore.rest_wanderer_chance``)."""

    turn: int
    group: int
    standing: str
    chance: float


@dataclass
class Story:
    """What :func:`read_run` gathered."""

    notes: list[Note] = field(default_factory=list)
    turning: Turning | None = None  # the decision judged the turning point (:func:`judge`)
    # every decision of the last meeting of a lost run, in order ([] for a run not lost: no state is copied)
    decisions: list[Turning] = field(default_factory=list)
    began: Began | None = None  # the rest that brought the last meeting on, if one did
    walked: Began | None = None  # the last action, where it was taken exploring: its turn, the party then
    cause: str = ""  # what killed the party (its name), "" when it did not die
    ruleset: str = ""
    seed: int = 0
    path: str = ""  # the recording's file, for the command that replays from the turning point


def _note_events(content: Content, game: Game, turn: int, events: list[Event], notes: list[Note]) -> None:
    st = game.state
    floor = st.depth + 1
    for e in events:
        if isinstance(e, ev.Descend):
            notes.append(Note(turn, e.depth + 1, f"Reached floor {e.depth + 1}: {e.name}."))
        elif isinstance(e, ev.Encounter) and e.first:
            mon = content.monsters.get(e.monster)
            if mon is not None and mon.unique:
                notes.append(Note(turn, floor, f"Met {the(mon.name)}."))
        elif isinstance(e, ev.LevelUp):  # a delver who grows
            notes.append(
                Note(
                    turn,
                    floor,
                    f"{e.name} reached level {e.level}: HP {e.max_hp}, MIGHT {e.might}, AGILITY {e.agility}.",
                )
            )
        elif isinstance(e, ev.Victory) and content.monsters[e.monster].unique:
            notes.append(Note(turn, floor, f"Killed {the(content.monsters[e.monster].name)}."))
        elif isinstance(e, ev.Death):
            notes.append(Note(turn, floor, f"Killed by {the(e.cause)}."))
        elif isinstance(e, ev.Won):
            won = "Won: " + ("slew the last guardian." if e.how == "slew" else "went out.")
            past = finale(content, e.guardians)
            notes.append(Note(turn, floor, f"{won} {past}".rstrip()))


def _decision(game: Game, action: Action) -> bool:
    """Whether ``action``, a choice in the meeting in front of the party, was a decision: the meeting's first
    choice, or one made while another way out was open (a fight could have been left, a potion drunk)."""
    way = CHOSE[type(action)][0]
    if way != "fight" or game.state.mode == Mode.ENCOUNTER:
        return True
    others = [Run(), *(Drink(i) for i in range(len(game.state.party)))]
    return any(game.legal(other) for other in others)


def read_run(content: Content, rec: record.Recording, path: str = "") -> Story:
    """Replay ``rec`` (the recording of the file ``path``): its notes, and for a lost run the decisions of its last
    meeting, the state before each copied in a second replay up to the last of them (a copy at every decision of
    a long won game held its victory panel back for seconds)."""
    h = rec.header
    game = Game(content, h.ruleset, h.seed)
    out = Story(ruleset=h.ruleset, seed=h.seed, path=path)
    front: int | None = None  # the group in front of the party at its last choice
    picked: dict[int, tuple[int, Action, int]] = {}  # the last meeting's decisions: action index -> turn, group
    for i, (turn, action, _) in enumerate(rec.actions):
        g = game.state.front_group()
        gid = g.id if g is not None and game.state.mode in (Mode.ENCOUNTER, Mode.COMBAT, Mode.CHASE) else None
        if gid is not None and type(action) in CHOSE:
            if gid != front:
                picked = {}
            if gid != front or _decision(game, action):
                picked[i] = (turn, action, gid)
            front = gid
        elif gid is None:
            front = None
        exploring = game.state.mode == Mode.EXPLORE
        resting = isinstance(action, Rest) and exploring
        before = (_standing(game), float(explore.rest_wanderer_chance(game))) if resting else None
        standing = _standing(game) if exploring else ""
        events = game.step(action)
        g = game.state.front_group() if game.state.mode in (Mode.ENCOUNTER, Mode.COMBAT) else None
        if g is not None and g.id != front:  # a meeting begins: by a rest (told), or else (walking on: not told)
            out.began = None if before is None else Began(turn, g.id, *before)
        out.walked = Began(turn, -1, standing, 0.0) if exploring else None
        _note_events(content, game, turn, events, out.notes)
    if game.state.death is not None:
        out.cause = str(game.state.death["cause"])
        again = Game(content, h.ruleset, h.seed)
        for i, (_, action, _) in enumerate(rec.actions[: max(picked, default=-1) + 1]):
            if i in picked:
                out.decisions.append(Turning(*picked[i], again.snapshot()))
            again.step(action)
        out.turning = judge(game, out)
    return out


def judge(game: Game, run: Story) -> Turning | None:
    """The turning point of a lost run, judged by the odds of what could have been done at each decision of its
    last meeting (:func:`_chances`, the panels' own): the decision after which the party's best way out fell the
    most (from the best chance open there to the best open at its next decision; after the last one, to nothing:
    the party fell). Only a decision whose own chance can be told is named (a potion drunk or a blow held back
    only ever raised the odds it is judged against): a drink that was the better choice is never the mistake. A
    choice that was the likeliest way out and failed is named as that, never as a mistake (:func:`turning_lines`
    says which). Ties: the later. ``game`` is any game of the run: the snapshots are restored into it."""
    judged: list[tuple[Turning, float]] = []  # (decision, the best chance open there, its own included)
    for d in run.decisions:
        game.restore(d.snapshot)
        mine, best = _judged(game, d)
        if mine is not None:
            judged.append((d, max(mine, best if best is not None else 0.0)))
    if not judged:
        return run.decisions[-1] if run.decisions else None
    falls = [(top - (judged[i + 1][1] if i + 1 < len(judged) else 0.0), i) for i, (_, top) in enumerate(judged)]
    return judged[max(falls)[1]][0]


def _judged(game: Game, t: Turning) -> tuple[float | None, float | None]:
    """The chance of the way ``t`` took (None: one with no chance to tell, a potion, a hold) and the best of the
    others then open (None: none)."""
    ways = _chances(game, t)
    mine = ways.pop(CHOSE[type(t.action)][0], None)
    best = max((p for _, p in ways.values()), default=None)
    return (None if mine is None else mine[1]), best


BETTER = 0.1  # a way out this much likelier than the one chosen is named as the better chance


def _percent(p: float) -> str:
    """A chance as the panels write it: "60%"; "<1%" for one that is not nil but rounds to it, ">99%" for one
    not certain that rounds to 100%."""
    return "<1%" if 0 < p < 0.005 else ">99%" if 0.995 <= p < 1 else f"{round(100 * p)}%"


def _chances(game: Game, t: Turning) -> dict[str, tuple[str, float]]:
    """Each way out of the meeting in front of ``game``'s party that has a chance to tell: the way's name ->
    (how the recap says it, its chance). ``t``'s own bribe is told at the gold it offered."""
    g = game.state.front_group()
    assert g is not None
    out: dict[str, tuple[str, float]] = {}
    odds = fight_odds(game.content, game)
    if odds is not None:
        out["fight"] = ("fighting", odds.win)
    if game.legal(Run()):
        out["run from"] = ("running", chances.escape_chance(game, g))
    if game.legal(Talk()) and (chance := chances.talk_chance(game, g)) > 0:
        out["talk to"] = ("talking", chance)
    if isinstance(t.action, Bribe):
        if (cell := game.bribe_cell(g, t.action.gold)) is not None:
            taken = chances.bribe_chance(game.content.tables.bribery.die, cell[2])
            out["bribe"] = (f"a bribe of {t.action.gold} gold", taken)
    elif (bribe := chances.best_bribe(game, g)) is not None:
        out["bribe"] = (f"a bribe of {bribe[0]} gold", bribe[1])
    return out


def _standing(game: Game) -> str:
    """The party's hit points and healing potions as they stood: "at HP 6/12 with 3 potions"."""
    st = game.state
    hp = ", ".join(f"{m.hp}/{m.max_hp}" for m in st.party if m.alive) or "0"
    n = items.carried(game.content, st.items, "potion")
    return f"at HP {hp} with " + (f"{n} potion{'s' if n != 1 else ''}" if n else "no potion")


def turning_lines(content: Content, run: Story) -> list[str]:
    """Where the run turned, in a sentence or three: the last decision of the fatal meeting (the hit points and
    potions then, the chances the panels showed, the better one); for a game lost with no choice, the step that met
    its killer (:func:`no_choice`); [] for a game not lost."""
    return _turned(content, run)[0]


def _turned(content: Content, run: Story) -> tuple[list[str], int]:
    """:func:`turning_lines`, and the turn of what they tell of (0: nothing told)."""
    t = run.turning
    if not run.cause or t is None:
        return no_choice(run)
    game = Game(content, run.ruleset, run.seed)
    game.restore(t.snapshot)
    g = game.state.front_group()
    if g is None or game.monster_of(g).name != run.cause:  # the last choice was not about what killed it
        return no_choice(run)
    way, said = CHOSE[type(t.action)]
    ways = _chances(game, t)
    if way != "drink" and (drunk := drink_win(content, game)) is not None:
        ways["drink"] = ("drinking a potion", drunk)  # the fight panel's "Drink: win 86%" (never judged: above)
    mine = ways.pop(way, None)
    what = said.format(the(game.monster_of(g).name))
    odds = fight_odds(content, game) if way == "fight" else None
    if odds is not None:
        what += f": win {_percent(odds.win)}, death {_percent(odds.death)}"
    elif mine is not None:
        what += f" at {_percent(mine[1])}"
    others = [f"{label}{' was' if k == 0 else ''} {_percent(p)}" for k, (label, p) in enumerate(ways.values())]
    first = f"On turn {t.turn}, floor {game.state.depth + 1}, {_standing(game)}, you {what}"
    lines = [*_began(run), first + (f"; {', '.join(others)}." if others else ".")]
    best = max(ways.values(), key=lambda lp: lp[1], default=None)
    if best is not None and mine is not None and best[1] >= mine[1] + BETTER:
        lines.append(f"{best[0].capitalize()} was the better chance.")
    elif mine is not None and way != "fight":
        lines.append("No other way was likelier; it failed.")
    return lines, t.turn


def _began(run: Story) -> list[str]:
    """How the fatal meeting came: a rest that called a wanderer, with the chance it ran each turn ([] for a step
    or anything else: walking on is how the game goes)."""
    b = run.began
    if b is None or not run.decisions or run.decisions[0].group != b.group:
        return []
    each = f" ({_percent(b.chance)} a turn)" if b.chance else ""
    return [f"On turn {b.turn} you rested, {b.standing}, and a wandering monster came{each}."]


def no_choice(run: Story) -> tuple[list[str], int]:
    """Where a run lost with no choice at its end turned (walking on, it met what killed it in that very step: an
    ambush, a monster rising behind): that step, and the party as it stood; ([], 0) otherwise."""
    m = run.walked
    if not run.cause or m is None or not m.standing:
        return [], 0
    return [f"On turn {m.turn} you walked on, {m.standing}, and met {the(run.cause)}: it gave you no choice."], m.turn


def replay_command(content: Content, run: Story) -> str:
    """The command that plays on from just before where the run turned (:func:`turning_lines`: the decision, or
    the step that gave no choice), as a new game; "" when there is none or no file."""
    lines, turn = _turned(content, run) if run.path else ([], 0)
    if not lines:
        return ""
    name = paths.recording_short_name(Path(run.path))  # (a save's: the start of its name, to fit 80 columns)
    return f"undercroft replay {name} --until {turn - 1} --play"
