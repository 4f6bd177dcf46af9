"""The threat told: what a creature does to the party and what each way out of a meeting with it is worth, in words.

Every number here is asked of the function that carries its rule, never worked out again: a blow's damage and the
faces that hit from each character's :class:`~undercroft.sim.spec.FightSpec` (:meth:`monster_outcomes`, the
per-face outcomes of :func:`undercroft.rules.formulas.attack` and :func:`~undercroft.rules.formulas.damage`), the
speeds and what follows a running party from :mod:`undercroft.rules.formulas` (``follows``, ``escapes_by_speed``,
``distracted_by``), the chances of running, talking, bribing and of a chase's drops from
:mod:`undercroft.sim.chances` (the rules' own, which the bots read too), the fight's from :mod:`undercroft.sim.odds`.
The look panel (``;``) shows all of it; the encounter and chase panels show the ways out on their choices
(:func:`chance_labels`) and as much of the rest as they have room for.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final, Literal

from undercroft.rules import formulas, parley, reaction
from undercroft.rules.actions import Drink, Run, Talk, Wait
from undercroft.rules.finale import Terms
from undercroft.rules.game import Game
from undercroft.rules.names import The
from undercroft.rules.reaction import Otherwise, WaitOutcome
from undercroft.rules.state import Group
from undercroft.rules.types import Behaviour, Mode, Side
from undercroft.sim import chances
from undercroft.sim.odds import starts
from undercroft.sim.spec import FightSpec, Outcome
from undercroft.ui.render import DIM, RGB, TEXT

Line = tuple[str, RGB]
DROPS: Final[tuple[tuple[str, Literal["food", "treasure"], str], ...]] = (  # (command, what, as a line says it)
    ("food", "food", "food"),
    ("treasure", "treasure", "gold"),
)


EXACT = 1e-9  # (a float sum of many exact chances is off by some 1e-14)


def pct(p: float) -> str:
    """A chance as the panels write it: "60%"; "<1%" for a chance that is not nil but rounds to it, ">99%" for
    one that is not certain but rounds to 100% (never "win 100%, death <1%" side by side). A chance within
    :data:`EXACT` of 0 or 1 is that, the sum of exact odds that missed it by a rounding of the floats ("win >99%,
    death 0%" for a fight that cannot be lost)."""
    p = 0.0 if p < EXACT else 1.0 if p > 1 - EXACT else p
    return "<1%" if 0 < p < 0.005 else ">99%" if 0.995 <= p < 1 else f"{p:.0%}"


def specs(game: Game, g: Group) -> list[FightSpec]:
    """One :class:`FightSpec` per living character against ``g`` (the fight in front of the party, or one begun
    now with ``g``)."""
    front = game.state.front_group()
    mine = front is not None and front.id == g.id and game.state.mode in (Mode.ENCOUNTER, Mode.COMBAT, Mode.CHASE)
    return [s.spec for s in starts(game.content, game, None if mine else g)]


@lru_cache(maxsize=256)
def outcomes(spec: FightSpec) -> tuple[Outcome, ...]:
    """:meth:`FightSpec.monster_outcomes` of ``spec`` (cached: the panels ask for them every frame)."""
    return spec.monster_outcomes()


def _hit_from(outcomes: Sequence[Outcome], critical: int) -> int | None:
    """The least face that hits besides the critical one (None: only the critical face hits)."""
    return min((o.face for o in outcomes if o.hit and o.face != critical), default=None)


def blow_line(spec: FightSpec) -> str:
    """ "Hits for 4, 8 on a 20." (and how often it strikes, when not every round)."""
    outs = outcomes(spec)
    normal = max((o.damage for o in outs if o.hit and not o.critical), default=None)
    crit = next((o.damage for o in outs if o.critical), None)
    parts = []
    if normal is not None:
        parts.append(f"Hits for {normal}")
    if crit is not None:
        parts.append(f"{crit} on a {spec.critical}" if parts else f"Hits for {crit}, only on a {spec.critical}")
    text = ", ".join(parts) if parts else "Never hits"
    if spec.acts_every > 1:
        text += f"; strikes every {_nth(spec.acts_every)} turn"
    if spec.regenerate:
        text += f"; heals {spec.regenerate} a round"
    return text + "."


def _nth(n: int) -> str:
    return {2: "second", 3: "third"}.get(n, f"{n}th")


def to_hit_line(game: Game, specs_: Sequence[FightSpec]) -> str:
    """ "Hits you on 9+ (60%)." against each living character's defence (a party: each by name)."""
    names = {m.template: m.name for m in game.state.party}
    parts = []
    for s in specs_:
        outs = outcomes(s)
        chance = sum(o.hit for o in outs) / len(outs)
        least = _hit_from(outs, s.critical)
        on = f"only on a {s.critical}" if least is None else f"on {least}+"
        who = "you" if len(specs_) == 1 else names.get(s.character, s.character)
        parts.append(f"{who} {on} ({pct(chance)})")
    return "Hits " + ", ".join(parts) + "."


def running_lines(game: Game, g: Group) -> list[str]:
    """Whether it follows a running party, its speed against the party's, and whether the party outruns it (003's
    evasion by speed, where the ruleset has pursuit)."""
    mon = game.monster_of(g)
    proc = game.proc
    if not proc.running:
        ways = [w for w, ok in (("talk", parley.ever_talks(game, g)), ("bribe", parley.ever_bribed(game, g))) if ok]
        return ["No running here: " + (f"{', '.join(ways)} or fight." if ways else "only a fight.")]
    mine = game.party_speed()
    speeds = f"speed {mon.speed}, yours {mine}"
    if not formulas.follows(proc.pursuit, mon.pursues):
        return [f"If you run, it stays ({speeds})."]
    if Behaviour.SUBMERGED in mon.behaviours:
        return [f"If you run, it chases and never gives up ({speeds})."]
    if formulas.escapes_by_speed(mine, mon.speed):
        return [f"If you run, you outrun it ({speeds})."]
    enc = game.state.encounter
    if game.mode == Mode.ENCOUNTER and enc is not None and enc.group == g.id and reaction.unaware(enc):
        return [f"If you run now, it never sees where you went: it is caught unaware ({speeds})."]
    faster = "faster" if mon.speed > mine else "as fast" if mon.speed == mine else "slower"
    return [f"If you run, it chases, {faster} ({speeds})."]


def behind_line(game: Game, g: Group) -> str:
    """What an escape leaves on the floor (:func:`undercroft.sim.chances.left_behind`): the group stays, and where
    it waits, with the fight met again rested where the party must come past it."""
    lb = chances.left_behind(game, g)
    again = f" (met again rested: win {pct(lb.rested)})"
    if lb.on_the_way is None:  # (the stairs not found yet)
        return f"Got away, it stays{again}."
    if lb.on_the_way:
        return f"Got away, it waits between you and the stairs{again}."
    return "Got away, it stays off your way to the stairs."


def distraction_lines(game: Game, g: Group) -> list[str]:
    """What stops it in a chase (003): food, gold, burning oil; only where it follows a running party."""
    mon = game.monster_of(g)
    if not (game.proc.running and formulas.follows(game.proc.pursuit, mon.pursues)):
        return []
    d = game.content.tables.distractions
    takes = drops_that_stop(game, g)
    out = ["Chased: " + (" and ".join(takes) if takes else "no drop stops it") + "."]
    if mon.self_preservation:
        stops = pct(chances.oil_chance(game, g))
        waits = d.oil_slows_rounds
        out.append(f"Fears fire: burning oil stops it ({stops}), else it waits {waits} rounds for it to die.")
    else:
        out.append("No fear of fire.")
    return out


def drops_that_stop(game: Game, g: Group) -> list[str]:
    """What dropped in a chase may stop ``g`` (003): "gold may stop it (50%)"; [] for none."""
    mon = game.monster_of(g)
    submerged = Behaviour.SUBMERGED in mon.behaviours
    return [
        f"{word} may stop it ({pct(chances.distraction_chance(game, g, what))})"
        for _, what, word in DROPS
        if formulas.distracted_by(what, mon.intelligent, submerged)
    ]


def parley_line(game: Game, g: Group) -> str:
    """Whether it can be talked to and bribed (000, and its exceptions: the ruleset's list, or the data's)."""
    proc = game.proc
    if not (proc.negotiation or proc.bribery):
        return "No talking or bribes here."
    if not game.negotiable(g):
        return "Will not talk" + (" or take a bribe." if proc.bribery else ".")
    if proc.negotiation and proc.bribery:
        return "Will talk; bribable if it fails."
    return "Will talk." if proc.negotiation else "May take a bribe."


def creature_lines(game: Game, g: Group) -> list[Line]:
    """Everything the threat of ``g``'s creatures is, for the look panel: its blow, its to-hit against each
    character, running from it, what stops it in a chase, talk and bribes."""
    ss = specs(game, g)
    out: list[Line] = []
    if ss:
        out.append((blow_line(ss[0]), TEXT))
        out.append((to_hit_line(game, ss), TEXT))
    out.extend((t, TEXT) for t in running_lines(game, g))
    if game.proc.running:
        out.append((behind_line(game, g), TEXT))
    out.extend((t, DIM) for t in distraction_lines(game, g))
    out.append((parley_line(game, g), DIM))
    return out


def short_line(game: Game, g: Group) -> Line | None:
    """The blow and the to-hit on one line, for a panel short of room: "Hits for 4 (8 on a 20); you on 9+ (60%)."."""
    ss = specs(game, g)
    if not ss:
        return None
    return (f"{blow_line(ss[0])[:-1]}. {to_hit_line(game, ss)}", TEXT)


def way_chances(game: Game, g: Group) -> dict[str, str]:
    """The chance of each way out of the meeting in front of the party, as a choice's label ends: command ->
    "100%": run (from a meeting, a fight or a chase: the chase played out on the map), talk (one that cannot
    succeed but opens a bribe when it fails says so: "0%, then bribe 67% at 400"), bribe (the best
    chance the party's gold can buy, at the least sum that buys it: "50% at 100"; none when no sum it can pay has
    a chance: the prompt says the chance of the sum typed), food, treasure, oil (in a chase); in a meeting, what
    a wait brings (:func:`wait_words`) and, where a drink can be had and the monster may attack on it, the
    drink's risk (:func:`risk_words`: the monster answers a drink as it answers a wait). In a meeting the run's
    chance has beside it what getting away leaves behind (:func:`run_chance`; the look panel says it always)."""
    out: dict[str, str] = {}
    st = game.state
    if st.mode in (Mode.ENCOUNTER, Mode.COMBAT):
        if game.legal(Run()):  # (the meeting's panel has the room to say what running leaves behind)
            out["run"] = run_chance(game, g) if st.mode == Mode.ENCOUNTER else pct(chances.escape_chance(game, g))
        bribe = chances.best_bribe(game, g)
        if game.legal(Talk()):
            talk = chances.talk_chance(game, g)
            out["talk"] = pct(talk)
            opens = chances.best_bribe(game, g, after_talk=True) if bribe is None and talk == 0 else None
            if opens is not None:  # a talk that cannot succeed still opens the bribe a failed one allows
                out["talk"] += f", then bribe {pct(opens[1])} at {opens[0]}"
        if bribe is not None:
            out["bribe"] = f"{pct(bribe[1])} at {bribe[0]}"
        o = game.wait_outcome(g)
        if o is not None and game.legal(Wait()):
            out["wait"] = wait_words(o, many=g.count_told > 1)
        if o is not None and o.attacks > 0 and any(game.legal(Drink(i)) for i in range(len(st.party))):
            out["drink"] = risk_words(o, many=g.count_told > 1)  # a drink is answered as a wait is
    elif st.mode == Mode.CHASE and st.pursuit is not None:
        if st.pursuit.chaser == Side.MONSTERS and game.legal(Run()):
            out["run"] = pct(chances.escape_chance(game, g))  # the chase played out: it catches you, or not
        for command, what, _ in DROPS:
            out[command] = pct(chances.distraction_chance(game, g, what))
        out["oil"] = pct(chances.oil_chance(game, g))
    return out


def run_chance(game: Game, g: Group) -> str:
    """The escape chance and, beside it, where the group waits once the party got away: "100%, waits on your way"
    (between the party and the stairs), "100%, stays off your way", "100%, stays" (the stairs not found yet); "0%"
    alone where it always catches the party."""
    away = chances.escape_chance(game, g)
    return f"{pct(away)}, {chances.left_behind(game, g).words()}" if away > 0 else pct(away)


_GIVES: Final[dict[Otherwise, tuple[str, str]]] = {  # (one, many)
    "leaves": ("it goes its way", "they go their way"),
    "lets_be": ("it lets you be", "they let you be"),
    "stays": ("it stays", "they stay"),
}


def wait_words(o: WaitOutcome, many: bool = False) -> str:
    """What a Wait brings (:func:`undercroft.rules.reaction.wait_outcome`), as the wait choice's label ends:
    "50% it attacks", "it goes its way", "3 rounds, then 50% it attacks, else it goes its way", "it stays"; of a
    group of several (``many``), "they attack", "they go their way"."""
    attack, unaware = ("they attack", "they are unaware") if many else ("it attacks", "it is unaware")

    def gives(x: Otherwise) -> str:
        return _GIVES[x][many]

    def otherwise(x: Otherwise) -> str:
        return "" if x == "stays" else f", else {gives(x)}"

    if o.unaware and o.attacks == 0:
        return f"nothing, {unaware}"
    if o.attacks > 0:  # ("it attacks" when certain: nothing else can come of it)
        return risk_words(o, many) + ("" if o.attacks >= 1 - EXACT else otherwise(o.otherwise))
    if o.otherwise != "stays":
        return gives(o.otherwise)
    if o.rounds > 1 and (o.then > 0 or o.then_otherwise != "stays"):  # nothing now; it makes up its mind later
        then = f"{pct(o.then)} {attack}{otherwise(o.then_otherwise)}" if o.then > 0 else gives(o.then_otherwise)
        return f"{o.rounds} rounds, then {then}"
    return gives("stays")


def risk_words(o: WaitOutcome, many: bool = False) -> str:
    """What a round spent on something else (a drink) risks, the chance that the monster attacks on it
    (:func:`undercroft.rules.reaction.wait_outcome`): "50% it attacks", "they attack"."""
    attack = "they attack" if many else "it attacks"
    return attack if o.attacks >= 1 - EXACT else f"{pct(o.attacks)} {attack}"


def finale_short(t: Terms) -> str:
    """The encounter panel's line on a final guardian: what will not work against it ("" when everything may)."""
    wont = ", ".join(w for w, ok in (("no words", t.talk), ("no bribes", t.bribe), ("no running", t.run)) if not ok)
    wait = "waiting lets it strike first" if t.strikes_on_wait else "waiting will not move it" if t.stays else ""
    told = "; ".join(x for x in (wont, wait) if x)
    return f"A final guardian: {told}." if told else ""


def finale_lines(game: Game, t: Terms) -> list[str]:
    """The warning before the door of a final guardian (:meth:`undercroft.rules.game.Game.finale_ahead`): what
    waits, what will not work against it and what will, in the rules' terms (:class:`Terms`)."""
    mon = game.content.monsters[t.monster]
    out = [f"{The(mon.name)} waits beyond this door, one of the guardians of the way out.", mon.description]
    wont = []
    if not t.talk:
        wont.append("it will not talk")
    if not t.bribe:
        wont.append("it takes no bribe")
    if not t.run:
        wont.append("there is no running from it")
    if t.stays:
        wont.append("waiting will not move it: it keeps the way out")
    if wont:
        out.append(("What will not work: " + "; ".join(wont)) + ".")
    will = []
    if t.talk:
        will.append("talk" + (" (and, if that fails, a bribe)" if t.bribe else ""))
    if t.run:
        will.append("running")
        chase = distraction_lines(game, game.state.group(t.group))  # (only where it would follow a run)
        if chase and (drops := drops_that_stop(game, game.state.group(t.group))):
            will.append("in a chase, dropped " + " and ".join(drops))
    if t.walk_past:
        will.append("walking past it: it never closes")
    if will:
        out.append("What may: " + "; ".join(will) + ".")
    if not (t.talk or t.run or t.walk_past):
        out.append("Once you are in, only a fight gets you past it.")
    if t.strikes_on_wait:
        out.append("Waiting only lets it strike first.")
    return out
