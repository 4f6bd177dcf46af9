"""The reference player's valuation of a meeting: each way through it valued as the chance to come through.

Fight: the fight odds' win as the encounter and fight panels show it (:func:`fight_win`, from
:func:`undercroft.sim.odds.fight_odds`); run: the chance to get away (:func:`undercroft.sim.chances.escape_chance`),
else a fight a little worse (:data:`CAUGHT`); getting away is worth what the encounter panel says it leaves behind
(:func:`undercroft.sim.chances.left_behind`: where the group waits between the party and the stairs, the rested
fight with it; the stairs not found yet, that but at least even; off the way, all of it); bribe: the chance
the least sum it would offer is taken (:func:`bribe_offer`: at least :data:`BRIBE_ODDS`, the bot's own threshold),
else a fight it opens (:data:`STRUCK_FIRST`); talk (:func:`undercroft.sim.chances.talk_chance`): its chance, else the
best of the others a round later. :func:`best` takes the greatest (to 6 places; ties by :data:`PREFER`). Every
chance comes from :mod:`undercroft.sim.chances`, the chances the screens show, from the rules the engine plays by;
what is the bot's own here is what it makes of them. :class:`Met` is what the player remembers of each group it met."""

from __future__ import annotations

from dataclasses import dataclass, field

from undercroft.rules import formulas
from undercroft.rules.actions import Run
from undercroft.rules.game import Game
from undercroft.rules.state import Group
from undercroft.rules.types import Behaviour, Origin
from undercroft.sim import chances
from undercroft.sim.odds import fight_odds

Point = tuple[int, int]

PAYS = ("hireling", "directions", "trade")  # agreements worth a talk of their own: talk that pays
HALF = 0.5  # a fight lost more often than not, a run that works half the time (cornered)
BRIBE_ODDS = 0.5  # bribe with a sum whose digit gives at least this chance
GIVE_UP = 0.2  # a fight whose odds are below this is hopeless: talk even in a corridor, or run
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
    hp: int = -1  # its hit points, all its creatures' together, when the party last ran from it
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


def leaves(escape: float, odds: float, again: float = 1.0, margin: float = LEAVE_MARGIN) -> bool:
    """Leave the fight: running (the chance to get away, worth ``again``, what the panel says it leaves behind,
    :meth:`undercroft.sim.chances.LeftBehind.again`; else the fight a little worse) beats staying by ``margin``
    (:data:`LEAVE_MARGIN`; none where a run costs nothing, :func:`free_run`)."""
    return escape * again + (1 - escape) * odds * CAUGHT > odds + margin


def free_run(game: Game, g: Group) -> bool:
    """Whether running from ``g`` costs nothing (001: "at no cost"; the monster "does not follow"): it does not
    follow a running party and running does not tire."""
    return not game.proc.fatigue and not formulas.follows(game.proc.pursuit, game.monster_of(g).pursues)


def bribe_offer(game: Game, g: Group, *, after_talk: bool = False) -> int | None:
    """The smallest sum the party can pay whose bribe is taken with at least :data:`BRIBE_ODDS`, or None
    (``after_talk``: the bribe a failed talk opens, :func:`undercroft.sim.chances.bribe_sums`)."""
    return next((gold for gold, p in chances.bribe_sums(game, g, after_talk=after_talk) if p >= BRIBE_ODDS), None)


def _bribe_value(game: Game, g: Group, offer: int, win: float) -> float:
    """A bribe of ``offer``: taken, else the fight with it striking first."""
    cell = game.bribe_cell(g, offer)
    taken = 0.0 if cell is None else chances.bribe_chance(game.content.tables.bribery.die, cell[2])
    return taken + (1 - taken) * win * STRUCK_FIRST


def _run_value(escape: float, win: float, again: float) -> float:
    """A run's value: the chance to get away, worth ``again`` (what the panel says it leaves behind), else the
    fight a little worse."""
    return escape * again + (1 - escape) * win * CAUGHT


def values(game: Game, g: Group, win: float) -> dict[str, float]:
    """The chance to come through the meeting with ``g`` by each way the party may take now, the fight's win being
    ``win`` (see the module docstring)."""
    st = game.state
    out = {"fight": win}
    later = {"fight": win}  # the same a round later, in sight
    # (a run at its best, one that surely gets away, worth less than the fight: it is never taken, and no better a
    # round later, so the chase is not played out)
    offer = bribe_offer(game, g) if g.origin != Origin.GUARDIAN else None
    if offer is not None:
        out["bribe"] = later["bribe"] = _bribe_value(game, g, offer, win)
    # A run at its best, one that surely gets away, is worth ``again`` (what the panel says it leaves behind): worth
    # no more than the fight or the bribe, it is never taken, and no better a round later, so its chase is not
    # played out (an equal value loses the tie). The run a round later is played out only for a talk's value.
    again = chances.left_behind(game, g).again() if game.legal(Run()) else 0.0
    run = bool(again) and again + 1e-9 >= max(out.values())
    if run:
        out["run"] = _run_value(chances.escape_chance(game, g), win, again)

    def then(p: float) -> float:  # p, else the best of the others a round later
        if run:
            later["run"] = _run_value(chances.escape_chance(game, g, later=True), win, again)
        return p + (1 - p) * max(later.values())

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
        chance = chances.talk_chance(game, g)
        # A failed talk opens the bribe (000): a talk that cannot succeed is still the way to it.
        opened = bribe_offer(game, g, after_talk=True) if offer is None else None
        if opened is not None:
            later["bribe"] = _bribe_value(game, g, opened, win)
        if chance > 0 or opened is not None:
            out["talk"] = then(chance)
    return out


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
    return chances.talk_chance(game, g) > 0


def cornered(game: Game, g: Group, win: float) -> bool:
    """Whether meeting ``g`` (fight odds ``win``) leaves the party nothing but a fight it loses more often than not
    (a death without a choice, which the balance targets keep rare): no way round (the group is not at peace, does
    not hold its ground, is not passive), no talk with a chance, no bribe it can afford with a chance, and no run
    that works half the time (:mod:`undercroft.sim.chances`)."""
    if win >= HALF or g.peaceful:
        return False
    behaviours = game.monster_of(g).behaviours
    if Behaviour.HOLDS_GROUND in behaviours or Behaviour.PASSIVE in behaviours:
        return False
    if chances.talk_chance(game, g) > 0 or chances.bribe_affordable(game, g):
        return False
    return not (game.legal(Run()) and chances.escape_chance(game, g) >= HALF)
