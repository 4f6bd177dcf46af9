"""The reference player's valuation of a meeting: each way through it valued as the chance to come through.

Fight: the fight odds' win as the encounter and fight panels show it (:func:`fight_win`, from
:func:`undercroft.sim.odds.fight_odds`); run: the chance to get away (:func:`escape_chance`: it does not follow, the
party evades it, it does not take up the pursuit, or the chase is won), else a fight a little worse
(:data:`CAUGHT`), less :data:`AGAIN` (the group stays on the level); bribe: the chance the digit's sum is taken
(:func:`bribe_offer`), else a fight it opens (:data:`STRUCK_FIRST`); talk (:func:`talk_odds`): its
chance, else the best of the others a round later. :func:`best` takes the greatest (to 6 places; ties by
:data:`PREFER`). Every chance comes from :mod:`undercroft.rules.formulas`, the rules the engine plays by.
:class:`Met` is what the player remembers of each group it met.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from undercroft.rules import approach, encounter, formulas, parley
from undercroft.rules.actions import Run
from undercroft.rules.dice import Dice
from undercroft.rules.floods import MAX_DIST
from undercroft.rules.game import Game
from undercroft.rules.state import Group
from undercroft.rules.types import Behaviour, Origin
from undercroft.sim.odds import fight_odds

Point = tuple[int, int]

PAYS = ("hireling", "directions", "trade")  # agreements worth a talk of their own: talk that pays
HALF = 0.5  # a fight lost more often than not, a run that works half the time (cornered)
BRIBE_ODDS = 0.5  # bribe with a sum whose digit gives at least this chance
GIVE_UP = 0.2  # a fight whose odds are below this is hopeless: talk even in a corridor, or run
AGAIN = 0.05  # what running costs beyond its risk: the group stays on the level, maybe on the way on
LEAVE_MARGIN = 0.1  # leave a fight when running gives at least this much better a chance than staying
CAUGHT = 0.9  # the fight odds after a failed run, against the odds now (tired, and struck as it turns)
STRUCK_FIRST = 0.85  # the fight odds after a refused bribe (it strikes first), against the odds now
PREFER = {
    "talk": 5,
    "fight": 4,
    "bribe": 3,
    "run": 0,
}  # between equal chances: terms, then a fight, ...


@dataclass
class Met:
    """What the player remembers of a group it met."""

    fled: int = 0  # times the party ran from it on this level
    waits: int = 0  # times it waited on its reaction
    committed: bool = False  # it will not run from it any more (on this level)
    win: float | None = None  # the fight odds' win it showed when last met
    long: int = 0  # decisions spent in meetings with it (from 0 again after MAX_MEETING)
    been: set[Point] = field(default_factory=set)  # tiles the party walked on in meetings with it


def fight_win(game: Game) -> float:
    """The chance to win the fight in front of the party as the encounter and fight panels show it
    (:func:`undercroft.sim.odds.fight_odds`); 0 without odds."""
    odds = fight_odds(game.content, game)
    return 0.0 if odds is None else odds.win


def best(values: dict[str, float]) -> str:
    """The way through a meeting of greatest value (rounded to 6 places; ties by :data:`PREFER`)."""
    return max(values, key=lambda k: (round(values[k], 6), PREFER[k]))


def leaves(escape: float, odds: float) -> bool:
    """Leave the fight: running (the chance to get away, else the fight a little worse) beats staying by
    :data:`LEAVE_MARGIN`."""
    return escape + (1 - escape) * odds * CAUGHT > odds + LEAVE_MARGIN


def distribution(d: Dice) -> tuple[tuple[int, float], ...]:
    """The exact distribution of a dice expression's total: (total, chance) pairs."""
    dist = {0: 1.0}
    for _ in range(d.count):
        nxt: dict[int, float] = {}
        for total, p in dist.items():
            for face in range(1, d.sides + 1):
                nxt[total + face] = nxt.get(total + face, 0.0) + p / d.sides
        dist = nxt
    return tuple((t * d.multiplier + d.bonus, p) for t, p in dist.items())


def talk_odds(game: Game, g: Group) -> float:
    """The chance that talking to ``g`` ends in agreement or intimidation (0 when talk is not possible): the chance of
    a band other than failure."""
    mon = game.monster_of(g)
    if parley.check_talk(game, g) is not None:  # the engine's own reasons to refuse a talk
        return 0.0
    table = game.content.tables.negotiation[game.rs.negotiation_table]
    reluctance, ability = formulas.negotiation_modifiers(table, mon, (m.negotiation for m in game.living()))
    good = 0.0
    for total, p in distribution(Dice.parse(table.dice)):
        if formulas.band(table.bands, formulas.negotiation_total(total, reluctance, ability)).result != "failure":
            good += p
    return good


def bribe_chance(die: int, digit: int) -> float:
    """The chance a bribe is taken: the faces of the bribery die that accept it."""
    return sum(formulas.bribe_accepted(face, digit) for face in range(1, die + 1)) / die


def bribe_offer(game: Game, g: Group) -> int | None:
    """The smallest sum the party can pay whose bribery digit gives at least :data:`BRIBE_ODDS`, or None."""
    st = game.state
    b = game.content.tables.bribery
    if g.peaceful or parley.check_bribe(game, g) is not None:  # the engine's reasons (a failed talk first, ...)
        return None
    for row in b.rows:
        gold = row.min
        if gold > st.gold:
            return None
        cell = formulas.bribe_cell(b, game.monster_of(g), gold)
        if cell is not None and bribe_chance(b.die, cell[2]) >= BRIBE_ODDS:
            return gold
    return None


def values(game: Game, g: Group, win: float) -> dict[str, float]:
    """The chance to come through the meeting with ``g`` by each way the party may take now, the fight's win being
    ``win`` (see the module docstring)."""
    st = game.state
    out = {"fight": win}
    later = {"fight": win}  # the same a round later, in sight
    if game.legal(Run()):
        now, seen = escape_chance(game, g), escape_chance(game, g, later=True)
        out["run"] = now + (1 - now) * win * CAUGHT - AGAIN
        later["run"] = seen + (1 - seen) * win * CAUGHT - AGAIN
    offer = bribe_offer(game, g) if g.origin != Origin.GUARDIAN else None
    if offer is not None:
        cell = game.bribe_cell(g, offer)
        taken = 0.0 if cell is None else bribe_chance(game.content.tables.bribery.die, cell[2])
        out["bribe"] = later["bribe"] = taken + (1 - taken) * win * STRUCK_FIRST
    best_later = max(later.values())

    def then(p: float) -> float:  # p, else the best of the others a round later
        return p + (1 - p) * best_later

    # Peace with a group standing in a corridor can block the way for good (a peaceful monster cannot be passed or
    # attacked), so there it talks only when the fight is hopeless.
    in_corridor = st.level.map.segments[g.segment].kind == "corridor"
    if (
        g.origin != Origin.GUARDIAN
        and game.proc.negotiation
        and game.negotiable(g)
        and not g.negotiated
        and (not in_corridor or win < GIVE_UP)
    ):
        chance = talk_odds(game, g)
        if chance > 0:
            out["talk"] = then(chance)
    return out


def escape_chance(game: Game, g: Group, *, later: bool = False) -> float:
    """The chance that running from ``g`` now (``later``: a round from now) gets away: it does not follow, the
    party evades it (faster, or unseen by a monster caught unaware: 003), it does not take up the pursuit (its
    reaction's chance), or the chase is won."""
    st = game.state
    mon = game.monster_of(g)
    if not formulas.follows(game.proc.pursuit, mon.pursues):
        return 1.0
    submerged = Behaviour.SUBMERGED in mon.behaviours
    in_fight = st.combat is not None
    out_of_sight = not later and encounter.unaware(st.encounter)
    if (
        formulas.automatic_evasion(
            in_fight=in_fight,
            submerged=submerged,
            party_speed_=game.party_speed(),
            monster_speed=mon.speed,
            out_of_sight=out_of_sight,
        )
        is not None
    ):
        return 1.0
    band = encounter.reaction_band(game, g)
    chance = formulas.pursuit_chance(band.pursuit if band is not None else None, submerged, g.pursuit_rolled, g.pursues)
    follow = chance / formulas.PERCENT
    start = 0 if in_fight or not game.proc.distance else min(game.distance_to(g), approach.sight_feet(game))
    return 1.0 - follow * (0.0 if _outruns(game, g, start) else 1.0)


def _outruns(game: Game, g: Group, distance: int) -> bool:
    """Whether the party, chased by ``g`` from ``distance`` feet, gets out of sight or outlasts the chase before it
    is caught or exhausted (the chase's rounds as the engine plays them)."""
    rules = game.content.rules
    mon = game.monster_of(g)
    enc = rules.encounter
    gain = formulas.pursuit_gain(mon.speed, game.party_speed(), enc.running_multiplier)
    left = rules.fatigue.max_running_rounds - game.state.running_rounds - 1 if game.proc.fatigue else MAX_DIST
    gives_up = Behaviour.SUBMERGED not in mon.behaviours
    sight = approach.sight_feet(game)
    for r in range(1, enc.pursuit_max_rounds + 1):
        if r >= left:
            return False  # exhausted first: it catches up
        distance, end = formulas.chase_round(distance, gain, r, sight, enc.pursuit_max_rounds, gives_up)
        if end:
            return end != "caught"
    return False  # a submerged one never gives up


def catches(game: Game, g: Group, distance: int, rounds: int) -> bool:
    """Whether the party's chase of ``g``, ``distance`` feet ahead after ``rounds`` rounds, catches it for sure: it
    gains on it every round, and catches it before it is out of sight, before the chase's last round and before
    the party is exhausted."""
    st = game.state
    rules = game.content.rules
    enc = rules.encounter
    gain = formulas.pursuit_gain(game.party_speed(), game.monster_of(g).speed, enc.running_multiplier)
    if distance <= 0:
        return True
    if gain <= 0:
        return False
    for r in range(rounds + 1, enc.pursuit_max_rounds + 1):
        distance, end = formulas.chase_round(distance, gain, r, approach.sight_feet(game), enc.pursuit_max_rounds)
        if end == "caught":  # (in the chase's last round only if the party has breath left)
            need = r - rounds
            return r < enc.pursuit_max_rounds and (
                not game.proc.fatigue or st.running_rounds + need < rules.fatigue.max_running_rounds - 1
            )
        if end:
            return False
    return False


def pays(game: Game, g: Group) -> bool:
    """Whether to talk to ``g`` first for what its agreement brings (:data:`PAYS`: a hireling, the way down while
    the stairs are unseen, the merchant's pack with gold to spend): a talk it may have, with a chance."""
    what = game.monster_of(g).agreement
    if what not in PAYS or g.negotiated or g.hired or not game.proc.negotiation or not game.rs.agreements:
        return False
    st = game.state
    if what == "directions":
        sx, sy = st.level.map.stairs
        if st.level.explored[sy, sx]:
            return False
    if what == "trade" and st.gold <= 0:
        return False
    return talk_odds(game, g) > 0


def bribe_affordable(game: Game, g: Group) -> bool:
    """Whether some sum the party can pay has a chance of being taken by ``g`` (the bribery table does not say
    never to all of them)."""
    st = game.state
    b = game.content.tables.bribery
    if g.peaceful or parley.check_bribe(game, g) is not None:
        return False
    mon = game.monster_of(g)
    for row in b.rows:
        if row.min > st.gold:
            break
        cell = formulas.bribe_cell(b, mon, row.min)
        if cell is not None and bribe_chance(b.die, cell[2]) > 0:
            return True
    return False


def cornered(game: Game, g: Group, win: float) -> bool:
    """Whether meeting ``g`` (fight odds ``win``) leaves the party nothing but a fight it loses more often than not
    (a death without a choice, which the balance targets keep rare): no way round (the group is not at peace, does
    not hold its ground, is not passive), no talk with a chance (:func:`talk_odds`), no bribe it can afford with a
    chance (:func:`bribe_affordable`), and no run that works half the time (:func:`escape_chance`)."""
    if win >= HALF or g.peaceful:
        return False
    behaviours = game.monster_of(g).behaviours
    if Behaviour.HOLDS_GROUND in behaviours or Behaviour.PASSIVE in behaviours:
        return False
    if talk_odds(game, g) > 0 or bribe_affordable(game, g):
        return False
    return not (game.legal(Run()) and escape_chance(game, g) >= HALF)
