"""The chances of the ways out of a meeting other than a fight, as the rules give them: talk, bribe, run, and the
drops of a chase. The screens (:mod:`undercroft.ui.threat`, the encounter panel), the recap and the bots all read
them here; each is a pure function of the state and the rules (:mod:`undercroft.rules.formulas`), never of the
game's dice. The fight's own odds are :func:`undercroft.sim.odds.fight_odds`.

* talk: :func:`talk_chance` (a band other than failure on the negotiation table);
* bribe: :func:`bribe_chance` (the faces of the bribery die that take a digit), :func:`best_bribe` (the best
  chance the party's gold can buy, at the least sum that buys it), :func:`bribe_affordable`;
* run: :func:`escape_chance` (the chance a run through a door gets away), :func:`catches` (the party's own chase),
  both the chase played out on the map (:mod:`undercroft.sim.chase`); :func:`left_behind`, what an escape leaves on
  the floor (the group stays: between the party and the stairs or not, and the fight with it met again rested);
* a chase's drops: :func:`distraction_chance` (food or treasure), :func:`oil_chance`; :func:`percent_chance`, a
  percentile check's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Literal

from undercroft.rules import dungeon, floods, formulas, parley, searches
from undercroft.rules.chase import running
from undercroft.rules.dice import Dice
from undercroft.rules.game import Game
from undercroft.rules.refusals import Code, Refused
from undercroft.rules.state import Group
from undercroft.rules.types import Behaviour
from undercroft.sim import chase, odds
from undercroft.sim.spec import FightSpec


@lru_cache(maxsize=128)
def percent_chance(chance: int) -> float:
    """The chance a percentile check of ``chance`` passes (:func:`undercroft.rules.formulas.percent`; counted over
    the die's faces once per chance: the panels ask every frame)."""
    if not formulas.percent_needs_die(chance):
        return 1.0 if formulas.percent(None, chance) else 0.0
    return sum(formulas.percent(face, chance) for face in range(1, formulas.PERCENT + 1)) / formulas.PERCENT


def distraction_chance(game: Game, g: Group, what: Literal["food", "treasure"]) -> float:
    """The chance that ``what`` dropped in a chase stops ``g`` (003; 0 for one it does not stop)."""
    mon = game.monster_of(g)
    table = game.content.tables.distractions
    submerged = Behaviour.SUBMERGED in mon.behaviours
    return percent_chance(formulas.distraction_percent(what, table, mon.intelligent, submerged))


def oil_chance(game: Game, g: Group) -> float:
    """The chance that burning oil thrown in a chase stops ``g`` (003; 0 for one with no fear of fire)."""
    table = game.content.tables.distractions
    return percent_chance(formulas.oil_stop_percent(table, game.monster_of(g).self_preservation))


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


def talk_chance(game: Game, g: Group) -> float:
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


def bribe_sums(game: Game, g: Group, *, after_talk: bool = False) -> list[tuple[int, float]]:
    """(the least sum of each row of the bribery table the party can pay, the chance ``g`` takes it), from the
    smallest; [] when the engine would refuse any bribe (a failed talk first, ...). ``after_talk``: also the bribe
    a talk not yet tried opens if it fails (000: bribery comes after a failed negotiation)."""
    b = game.content.tables.bribery
    why = parley.check_bribe(game, g)
    if after_talk and why is not None and why.code == Code.TALK_FIRST and parley.check_talk(game, g) is None:
        why = None
    if g.peaceful or why is not None:
        return []
    mon = game.monster_of(g)
    out = []
    for row in b.rows:
        if row.min > game.state.gold:
            break
        cell = formulas.bribe_cell(b, mon, row.min)
        if cell is not None:
            out.append((row.min, bribe_chance(b.die, cell[2])))
    return out


def best_bribe(game: Game, g: Group, *, after_talk: bool = False) -> tuple[int, float] | None:
    """The best chance a bribe the party can pay has with ``g``, and the least sum that has it; None when no sum it
    can pay has any chance (or no bribe can be offered now; ``after_talk`` as for :func:`bribe_sums`)."""
    rows = [r for r in bribe_sums(game, g, after_talk=after_talk) if r[1] > 0]
    if not rows:
        return None
    top = max(p for _, p in rows)
    return next(r for r in rows if r[1] == top)


def bribe_affordable(game: Game, g: Group) -> bool:
    """Whether some sum the party can pay has a chance of being taken by ``g`` (the bribery table does not say
    never to all of them), now or after a talk that fails (even one that cannot succeed: it opens the bribe)."""
    return best_bribe(game, g, after_talk=True) is not None


def escape_chance(game: Game, g: Group, door: int = -1, *, later: bool = False) -> float:
    """The chance that running from ``g`` now (``later``: a round from now, when a monster caught unaware has
    seen the party) through ``door`` (as :class:`~undercroft.rules.actions.Run` numbers the doors; -1 the way in)
    gets away without a fight: the chase played out on the map (:func:`undercroft.sim.chase.run_odds`); 0 where
    running is refused."""
    del g  # (the group in front of the party: the one a Run leaves)
    odds = chase.run_odds(game, door, later=later)
    return 0.0 if odds is None else odds.away


def catches(game: Game) -> bool:
    """Whether the party's chase of the group that went its way (or of the one it chases now) catches it: the
    chase played out on the map (:func:`undercroft.sim.chase.chase_catches`)."""
    return chase.chase_catches(game)


@dataclass(frozen=True)
class LeftBehind:
    """What an escape from a group leaves on the floor: the group stays (001: "the monster stays where it is ...
    the room stays uncleared"; 003: a pursuer that loses the party stays where it stopped), and where it waits.

    ``on_the_way``: it waits between the party and the stairs down (the way out, on the last floor): on the map the
    party has seen, no walk from where the run lands reaches the stairs but through the group's segment; False
    when one does; None while the stairs are not found (nobody can say yet). ``rested``: the chance to win the
    fight with it as it stands (its creatures keep their wounds) met again rested, the party at full health (1
    where it waits off the way: that fight need not be fought). ``stays_put``: it does not follow a running party
    (001: it "stays where it is"), so it waits in the very room the party's way led into."""

    on_the_way: bool | None
    rested: float = 1.0
    stays_put: bool = False

    def again(self) -> float:
        """What an escape is worth against a clean one, the panel's words in a number (the reference player's
        reading of them): 1 when it waits off the way; the rested fight's chance when it waits on the way (the
        party must come past it again). While the stairs are not found: the same for one that stays put where the
        party's way led (warden's mazes have one way on), and at least even for one that gives chase and may stop
        anywhere (a hopeless fight is still worth running from)."""
        if self.on_the_way is None and not self.stays_put:
            return max(self.rested, 0.5)
        return 1.0 if self.on_the_way is False else self.rested

    def words(self) -> str:
        """The panel's words beside the escape chance: "waits on your way", "stays off your way", "stays"."""
        return {True: "waits on your way", False: "stays off your way", None: "stays"}[self.on_the_way]


def left_behind(game: Game, g: Group) -> LeftBehind:
    """What running from ``g`` now (the way the party came in, as ``Run()``) leaves behind (:class:`LeftBehind`)."""
    way = _on_the_way(game, g)
    if way is False:
        return LeftBehind(way)
    stays = not formulas.follows(game.proc.pursuit, game.monster_of(g).pursues)
    return LeftBehind(way, rested_win(game, g), stays)


def _on_the_way(game: Game, g: Group) -> bool | None:
    st = game.state
    lv = st.level
    m = lv.map
    sx, sy = m.stairs
    seen = lv.explored
    if not seen[sy, sx]:
        return None
    if g.segment >= 0 and int(m.segment_of[sy, sx]) == g.segment:
        return True
    try:
        start = running.exit_for(game, -1).landing
    except Refused:
        start = st.pos
    walk = seen & (m.tiles != dungeon.WALL)
    if g.segment >= 0:
        walk &= m.segment_of != g.segment
    walk[start[1], start[0]] = True
    dist = searches.dijkstra_map(walk, start, diagonal=True, goal=(sx, sy))
    return bool(dist[sy, sx] >= floods.MAX_DIST)


def _rested(spec: FightSpec) -> FightSpec:
    return replace(spec, delver_hp=spec.delver_max_hp, exhausted=False)


def rested_win(game: Game, g: Group) -> float:
    """The chance to win a fight with ``g`` begun later (no surprise, the sides in AGILITY order), its creatures as
    they stand now and the living party rested and at full health (:mod:`undercroft.sim.odds`)."""
    singles, party = odds._starts(game.content, game, g, whole=False)
    if party is not None:
        return odds.party_odds(replace(party, specs=tuple(_rested(s) for s in party.specs))).win
    if not singles:
        return 0.0
    return odds.start_odds(replace(singles[0], spec=_rested(singles[0].spec))).win
