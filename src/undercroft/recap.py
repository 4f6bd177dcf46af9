"""What a finished game's end screen and morgue file tell of the run, read back from its recording.

:func:`read_run` replays a recording once and gathers the **notes** of the run (the floors reached, the uniques
met, the level-ups, the death or the win, each with its turn) and the **turning point**: the start of the last
meeting, the one with what killed the party. :func:`turning_lines` then says what the party chose there and what
the other ways out were worth, in the odds the screens and the bot use, computed from the state as it stood
(``sim.odds.fight_odds`` for a fight; ``bot.meeting``'s escape, talk and bribe chances, which are
``rules/formulas.py``'s): "You chose to fight the Gaoler at 48%; running was 70%, a bribe of 300 gold 67%."
"""

from __future__ import annotations

from dataclasses import dataclass, field

from undercroft import record
from undercroft.bot import meeting
from undercroft.content import Content
from undercroft.narrate import finale
from undercroft.rules.actions import Action, Attack, Bribe, DropFood, DropTreasure, Fight, Run, Talk, ThrowOil
from undercroft.rules.events import Event
from undercroft.rules.game import Game, Snapshot
from undercroft.rules.names import the
from undercroft.rules.types import Mode, Origin
from undercroft.sim.odds import fight_odds

# What each choice in a meeting is called in the recap ("You chose to fight the Gaoler").
CHOSE: dict[type[Action], str] = {
    Fight: "fight",
    Attack: "fight",
    ThrowOil: "fight",
    Run: "run from",
    Talk: "talk to",
    Bribe: "bribe",
    DropFood: "throw food to",
    DropTreasure: "throw treasure to",
}


@dataclass(frozen=True)
class Note:
    """One line of the run's notes: what happened on which turn, on which floor (1-based)."""

    turn: int
    floor: int
    text: str


@dataclass
class Turning:
    """The start of the fatal meeting: the state just before the party's first choice in it, and the choice."""

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


def read_run(content: Content, rec: record.Recording) -> Story:
    """Replay ``rec`` once: its notes, and the start of the last meeting in which the party made a choice."""
    h = rec.header
    game = Game(content, h.ruleset, h.seed)
    out = Story(ruleset=h.ruleset, seed=h.seed)
    front: int | None = None  # the group in front of the party before the last action
    for turn, action, _ in rec.actions:
        g = game.state.front_group()
        gid = g.id if g is not None and game.state.mode in (Mode.ENCOUNTER, Mode.COMBAT, Mode.PURSUIT) else None
        if gid is not None and gid != front and type(action) in CHOSE:
            out.turning = Turning(turn, action, gid, game.snapshot())
        if gid is not None and type(action) in CHOSE:
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
    return f"{round(100 * p)}%"


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
        out["run from"] = ("running", meeting.escape_chance(game, g))
    if game.legal(Talk()) and (chance := meeting.talk_odds(game, g)) > 0:
        out["talk to"] = ("talking", chance)
    offer = t.action.gold if isinstance(t.action, Bribe) else meeting.bribe_offer(game, g)
    if offer is not None and g.origin != Origin.GUARDIAN and (cell := game.bribe_cell(g, offer)) is not None:
        out["bribe"] = (f"a bribe of {offer} gold", meeting.bribe_chance(game.content.tables.bribery.die, cell[2]))
    return out


def turning_lines(content: Content, run: Story) -> list[str]:
    """Where the run turned, in a sentence or two; [] for a game not lost, or lost with no choice to tell of."""
    t = run.turning
    if not run.cause or t is None:
        return []
    game = Game(content, run.ruleset, run.seed)
    game.restore(t.snapshot)
    g = game.state.front_group()
    if g is None or game.monster_of(g).name != run.cause:  # the last choice was not about what killed it
        return []
    chosen = CHOSE[type(t.action)]
    chances = _chances(game, t)
    mine = chances.pop(chosen, None)
    what = f"{chosen} {the(game.monster_of(g).name)}" + (f" at {_percent(mine[1])}" if mine else "")
    others = [f"{label}{' was' if k == 0 else ''} {_percent(p)}" for k, (label, p) in enumerate(chances.values())]
    first = f"On turn {t.turn}, floor {game.state.depth + 1}, you chose to {what}"
    lines = [first + (f"; {', '.join(others)}." if others else ".")]
    best = max(chances.values(), key=lambda lp: lp[1], default=None)
    if best is not None and mine is not None and best[1] >= mine[1] + BETTER:
        lines.append(f"{best[0].capitalize()} was the better chance.")
    return lines
