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

from undercroft import record
from undercroft.content import Content
from undercroft.narrate import finale
from undercroft.rules import items
from undercroft.rules.actions import (
    Action,
    Attack,
    Bribe,
    Drink,
    DropFood,
    DropTreasure,
    Fight,
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


@dataclass
class Story:
    """What :func:`read_run` gathered."""

    notes: list[Note] = field(default_factory=list)
    turning: Turning | None = None
    cause: str = ""  # what killed the party (its name), "" when it did not die
    ruleset: str = ""
    seed: int = 0
    path: str = ""  # the recording's file, for the command that replays from the turning point


def _note_events(content: Content, game: Game, turn: int, events: list[Event], notes: list[Note]) -> None:
    st = game.state
    floor = st.depth + 1
    for e in events:
        if e.type == "descend":
            notes.append(Note(turn, int(e["depth"]) + 1, f"Reached floor {int(e['depth']) + 1}: {e['name']}."))
        elif e.type == "encounter" and e.get("first"):
            mon = content.monsters.get(str(e["monster"]))
            if mon is not None and mon.unique:
                notes.append(Note(turn, floor, f"Met {the(mon.name)}."))
        elif e.type == "level_up":  # a delver who grows: {"member", "name", "level", "max_hp", ...}
            notes.append(
                Note(
                    turn,
                    floor,
                    f"{e.get('name', 'You')} reached level {e.get('level')}: HP {e.get('max_hp')}, "
                    f"MIGHT {e.get('might')}, AGILITY {e.get('agility')}.",
                )
            )
        elif e.type == "victory" and content.monsters[str(e["monster"])].unique:
            notes.append(Note(turn, floor, f"Killed {the(content.monsters[str(e['monster'])].name)}."))
        elif e.type == "death":
            notes.append(Note(turn, floor, f"Killed by {the(str(e['cause']))}."))
        elif e.type == "won":
            won = "Won: " + ("slew the last guardian." if e["how"] == "slew" else "went out.")
            past = finale(content, e.get("guardians") or [])
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
    """Replay ``rec`` (the recording of the file ``path``) once: its notes, and the last decision of the last
    meeting in which the party made a choice."""
    h = rec.header
    game = Game(content, h.ruleset, h.seed)
    out = Story(ruleset=h.ruleset, seed=h.seed, path=path)
    front: int | None = None  # the group in front of the party at its last choice
    for turn, action, _ in rec.actions:
        g = game.state.front_group()
        gid = g.id if g is not None and game.state.mode in (Mode.ENCOUNTER, Mode.COMBAT, Mode.PURSUIT) else None
        if gid is not None and type(action) in CHOSE:
            if gid != front or _decision(game, action):
                out.turning = Turning(turn, action, gid, game.snapshot())
            front = gid
        elif gid is None:
            front = None
        events = game.step(action)
        _note_events(content, game, turn, events, out.notes)
    if game.state.death is not None:
        out.cause = str(game.state.death["cause"])
    return out


BETTER = 0.1  # a way out this much likelier than the one chosen is named as the better chance


def _percent(p: float) -> str:
    """A chance as the panels write it: "60%"; "<1%" for one that is not nil but rounds to it."""
    return "<1%" if 0 < p < 0.005 else f"{round(100 * p)}%"


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
    potions then, the chances the panels showed, the better one); [] for a game not lost, or lost with no choice
    to tell of."""
    t = run.turning
    if not run.cause or t is None:
        return []
    game = Game(content, run.ruleset, run.seed)
    game.restore(t.snapshot)
    g = game.state.front_group()
    if g is None or game.monster_of(g).name != run.cause:  # the last choice was not about what killed it
        return []
    way, said = CHOSE[type(t.action)]
    ways = _chances(game, t)
    mine = ways.pop(way, None)
    what = said.format(the(game.monster_of(g).name))
    odds = fight_odds(content, game) if way == "fight" else None
    if odds is not None:
        what += f": win {_percent(odds.win)}, death {_percent(odds.death)}"
    elif mine is not None:
        what += f" at {_percent(mine[1])}"
    others = [f"{label}{' was' if k == 0 else ''} {_percent(p)}" for k, (label, p) in enumerate(ways.values())]
    first = f"On turn {t.turn}, floor {game.state.depth + 1}, {_standing(game)}, you {what}"
    lines = [first + (f"; {', '.join(others)}." if others else ".")]
    best = max(ways.values(), key=lambda lp: lp[1], default=None)
    if best is not None and mine is not None and best[1] >= mine[1] + BETTER:
        lines.append(f"{best[0].capitalize()} was the better chance.")
    return lines


def replay_command(content: Content, run: Story) -> str:
    """The command that plays on from just before the turning point :func:`turning_lines` tells of, as a new
    game; "" when there is none to tell or no file."""
    if not run.path or run.turning is None or not turning_lines(content, run):
        return ""
    return f"undercroft replay {run.path} --until {run.turning.turn - 1} --play"
