"""The exact odds of a small party's fight, from every state at once: a table per fight.

:func:`undercroft.sim.odds.simulate_party` plays 4,000 fights of the whole party for each state asked about: a
millisecond or two, a number good to about a point and a half. A party of two (the crawler's delver and sellsword)
has few enough states to count them all: every character's hit points (0: down) times the creature struck's, one
layer per count of the living creatures (a group is struck one creature at a time, the one struck the weakest, every
other at full: :func:`full_behind`). This module works out the fight from every such state at once, backwards a
round at a time (the chance to win with ``n`` rounds left from the same with ``n - 1`` left), with the rules of
:func:`~undercroft.sim.odds.simulate_party` (which are the engine's, :mod:`undercroft.rules.combat`):

* the party's turn: each living character in party order strikes the creature struck (the first living one, at
  full, once it falls), with the per-face outcomes of its :class:`~undercroft.sim.spec.FightSpec`; the last
  creature down is the fight won;
* the monsters' turn (when they act, :func:`~undercroft.rules.formulas.monster_acts`; none in a lost turn): each
  living creature in turn strikes the character the data's ``combat.monster_targeting`` picks
  (:func:`~undercroft.rules.formulas.monster_target`: ``lowest_hp`` the fewest hit points above 0, ties the first;
  ``first`` the first standing; ``random`` any standing one, alike),
  and the fight is lost when no one stands; then the creature struck regenerates.

A table holds four numbers for each state: the chance to win, the chance that the fight is still going when the
table's rounds run out (it stops once that is below :data:`TOLERANCE` from every state), the party's hit points
expected at the end (0 after a defeat), and the rounds expected. Each round read backwards is a handful of matrix
products over the whole table (a character's blows move the creature's hit points, a creature's blow the hit points
of the character it strikes), a few milliseconds for a whole table, which then answers every state of the fight. A
party of more than :data:`GATHER_CELLS` states (three characters) takes a creature's blow as a sum over its few
outcomes, each read from the state it leads to, rather than as a product with a matrix of every state by every state
that is almost all zeros (the same sums, added in another order: within a unit in the last place).

A party too large to count (:func:`tabled`: the citadel's four, or three, have tens or hundreds of thousands of
states for each creature's hit points) is simulated, and so is a group with two creatures wounded."""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from threadpoolctl import ThreadpoolController

from undercroft.rules import formulas
from undercroft.sim.exact import outcome_probabilities
from undercroft.sim.spec import FightSpec

TOLERANCE = 1e-13  # the chance that a fight is still undecided at which a table stops adding rounds
PARTY_WORK = 2_000_000  # multiply-adds a round of a party's tables may take (see tabled); beyond, the odds simulate
#: The tables remembered, in bytes, the most recently asked for kept (one set per kind of fight, each holding every
#: count: tens of kilobytes for one character, a few megabytes for two)
KEPT_BYTES = 64 * 2**20
#: The party's states (every character's hit points) beyond which a creature's blow is gathered outcome by outcome
#: rather than multiplied by the matrix of every state by every state (a party of three has over a thousand)
GATHER_CELLS = 1000
WIN, GOING, LEFT, ROUNDS = range(4)  # a table's layers: see the module docstring
TARGETING = ("lowest_hp", "first", "random")

Table = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class PartyTables:
    """``tables[party_next][lost][q]``: the fight from every state when the party (``party_next``) or the monsters
    take the next turn, the monsters' turn counter is at ``q`` (modulo ``acts_every``) for their next turn, and that
    turn is lost if ``lost``; an array indexed ``[c - 1,
    layer, m - 1, s]`` for ``c`` creatures living, the one struck at ``m`` and the rest at full, and the party at
    ``s``: every character's hit points (0..max) as one index, the last character's fastest. ``rounds``: the rounds
    the tables look ahead."""

    tables: tuple[tuple[tuple[Table, ...], tuple[Table, ...]], tuple[tuple[Table, ...], tuple[Table, ...]]]
    rounds: int


Key = tuple[object, ...]


def _key(specs: tuple[FightSpec, ...], targeting: str) -> Key:
    """Every number the tables depend on: each character's swing and maximum hit points, the creatures' numbers,
    the targeting; not anyone's hit points, nor the count (a table holds every count up to its own), nor who opens
    (it holds both)."""
    s0 = specs[0]
    return (
        tuple((s.swing_key, s.delver_max_hp) for s in specs),
        s0.monster_hp,
        s0.regenerate,
        s0.acts_every,
        s0.max_rounds,
        targeting,
    )


def _work(specs: tuple[FightSpec, ...], count: int) -> int:
    """The size of a round of the tables (every phase), counted as if each creature's blow were taken along each
    character's hit points in turn (what the blows would cost kept sparse; :func:`_build` takes them as products
    with the whole party's matrix): the cells, times the characters' blows along the creature's hit points and the
    creatures'. Its bound, :data:`PARTY_WORK`, holds every shipped crawler fight but a few groups of five (simulated)
    and keeps out the citadel's parties of three and four."""
    m = specs[0].monster_hp
    layer = 4 * m * math.prod(s.delver_max_hp + 1 for s in specs)  # (the cells of one count of the living)
    strikes = count * len(specs) * m
    blows = count * (count + 1) // 2 * sum(s.delver_max_hp + 1 for s in specs)  # (c blows for c living)
    return specs[0].acts_every * layer * (strikes + blows)


def tabled(specs: tuple[FightSpec, ...], hps: tuple[int, ...], targeting: str) -> bool:
    """Whether the fight of ``specs`` (the living characters) against the creatures ``hps`` (index order, 0: down)
    is one the tables hold: a group with at most one creature wounded, a known targeting rule, and few enough states
    that a round of the tables stays within :data:`PARTY_WORK` multiply-adds (a party of two, not the citadel's
    four)."""
    living = tuple(sorted(h for h in hps if h > 0))
    return (
        bool(living)
        and full_behind(specs[0], living)
        and targeting in TARGETING
        and _work(specs, len(hps)) <= PARTY_WORK
    )


def full_behind(spec: FightSpec, hps: tuple[int, ...]) -> bool:
    """Whether the creatures ``hps`` (in the order struck) are a state the tables hold: every one but the first at
    full (a group is struck one at a time, so a fight keeps it so, unless something wounds another first)."""
    full = spec.monster_hp
    return all(h >= full for h in hps[1:])


def _blows(spec: FightSpec) -> tuple[Table, Table]:
    """``(blows, kill)``: ``blows[m, m']`` the chance that a character's blow takes the creature from ``m + 1`` to
    ``m' + 1`` hit points (alive); ``kill[m]`` the chance that it kills a creature at ``m + 1``."""
    d_out, _ = outcome_probabilities(spec)
    top_m = spec.monster_hp
    blows = np.zeros((top_m, top_m))
    kill = np.zeros(top_m)
    for dmg, p in d_out.items():  # (each outcome added to its cells in turn, as one cell at a time would)
        lose = max(dmg, 0)
        m = np.arange(lose, top_m)
        blows[m, m - lose] += p
        kill[: min(lose, top_m)] += p
    return blows, kill


def _targets(grid: NDArray[np.int64], targeting: str) -> Table:
    """``share[t, s]``: the chance that a creature's blow falls on character ``t`` when the party stands at ``s``
    (``grid[t, s]``: character ``t``'s hit points there)."""
    n = len(grid)
    up = grid > 0
    if targeting == "random":
        share: Table = up / np.maximum(up.sum(axis=0), 1)
        return share
    if targeting == "lowest_hp":
        key = np.where(up, grid, np.iinfo(np.int64).max // (2 * n)) * n + np.arange(n)[:, None]
        who = key.argmin(axis=0)  # (the fewest above 0, ties the first; no one standing: row 0)
    else:
        who = np.argmax(up, axis=0)  # (the first standing; no one: row 0)
    share = (who[None, :] == np.arange(n)[:, None]).astype(np.float64)
    return share


class _Fight:
    """A party's fight read backwards (:func:`_build`): its matrices, and the steps of a round.

    Laid out ``[c - 1, layer, m - 1, s]`` with ``s`` the party's hit points flattened (every character's 0..max,
    the last character fastest), so that a character's blows are one product along ``m`` and a creature's blow one
    product with the party's whole transition matrix (its targeting folded in)."""

    def __init__(self, specs: tuple[FightSpec, ...], count: int, targeting: str) -> None:
        s0 = specs[0]
        self.n, self.count = len(specs), count
        self.top_m, self.every, self.max_rounds, self.regenerate = (
            s0.monster_hp,
            s0.acts_every,
            s0.max_rounds,
            s0.regenerate,
        )
        sizes = tuple(s.delver_max_hp + 1 for s in specs)
        cells = self.cells = math.prod(sizes)
        grid = np.stack([g.ravel() for g in np.meshgrid(*[np.arange(z) for z in sizes], indexing="ij")])  # (n, cells)
        stride = [math.prod(sizes[i + 1 :]) for i in range(self.n)]
        self.party_hp = grid.sum(axis=0).astype(np.float64)
        share = _targets(grid, targeting)
        # the last creature down: won, over, the party's hit points left, no rounds
        self.won = np.zeros((1, 4, 1, cells))
        self.won[0, WIN] = 1.0
        self.won[0, LEFT] = self.party_hp
        # per character: (its blows on the creature struck, m -> m'; the chance of a kill at each m; where it is down;
        # the kill of the last creature: the fight won)
        self.strikes: list[tuple[Table, Table, NDArray[np.int64], Table]] = []
        # a creature's blow, outcome by outcome: the state each state leads to, and its chance (0 from the party down:
        # the fight is over, lost)
        at = np.arange(cells)
        leads: list[NDArray[np.int64]] = []
        chances: list[Table] = []
        for i, s in enumerate(specs):
            blows, kill = _blows(s)
            # (a lone character down is the party down, which round_ clears after the blows: nothing to keep)
            down = np.flatnonzero(grid[i] == 0) if self.n > 1 else np.zeros(0, dtype=np.int64)
            self.strikes.append((blows, kill[:, None], down, kill[:, None] * self.won[0]))
            _, m_out = outcome_probabilities(s)
            for (dmg, _), p in m_out.items():  # (each outcome in turn)
                h = grid[i]
                leads.append(at - (h - np.maximum(h - max(dmg, 0), 0)) * stride[i])
                chances.append(share[i] * p)
        self.leads, self.chances = np.array(leads), np.array(chances)
        self.chances[:, 0] = 0.0
        # c creatures' blows, c = 1..count, transposed for the products below ([c - 1, s', s]: the party's hit points
        # s -> s'), each made in its place; none for a party gathered outcome by outcome
        self.blows_t: Table | None = None
        if cells <= GATHER_CELLS:
            self.blows_t = np.zeros((count, cells, cells))
            for lead, chance in zip(leads, chances, strict=True):  # (each outcome in turn)
                np.add.at(self.blows_t[0], (lead, at), chance)
            self.blows_t[0][:, 0] = 0.0
            for c in range(1, count):
                np.matmul(self.blows_t[c - 1], self.blows_t[0], out=self.blows_t[c])
        self.regen = np.minimum(np.arange(self.top_m) + s0.regenerate, self.top_m - 1)

    def start(self) -> Table:
        """The tables with no rounds left: nothing won, every fight still going."""
        start = np.zeros((self.count, 4, self.top_m, self.cells))
        start[:, GOING] = 1.0
        start[:, LEFT] = self.party_hp
        start[..., 0] = 0.0
        return start

    def strike(self, v: Table, j: int) -> Table:
        """Backwards through character ``j``'s blow (where it stands)."""
        blows, kill, down, kill_won = self.strikes[j]
        out = blows @ v
        out[:1] += kill_won  # (a kill: the next creature, at full; the last one's: the fight won)
        if v.shape[0] > 1:
            out[1:] += kill * v[:-1, :, self.top_m - 1 :]
        if len(down):
            out[..., down] = v[..., down]  # (where it is down, no blow)
        return out

    def monsters(self, v: Table, acts: bool) -> Table:
        """Backwards through the monsters' turn: the creature struck regenerates after the blows."""
        if self.regenerate:
            v = v[:, :, self.regen]
        # (c creatures living strike c times: layer c - 1 goes back through c blows)
        if acts and self.blows_t is not None:
            v = (v.reshape(self.count, -1, self.cells) @ self.blows_t).reshape(v.shape)
        elif acts:
            v = self._gathered(v)
            for c in range(1, self.count):
                v[c:] = self._gathered(v[c:])
        return v

    def _gathered(self, v: Table) -> Table:
        """Backwards through one creature's blow, outcome by outcome (a new table)."""
        out: Table = v[..., self.leads[0]] * self.chances[0]
        for lead, chance in zip(self.leads[1:], self.chances[1:], strict=True):
            out += v[..., lead] * chance
        return out

    def round_(self, v: Table, acts: bool) -> Table:
        """Backwards through a round the party opens (the round's last blow first)."""
        v = self.monsters(v, acts)
        for j in reversed(range(self.n)):
            v = self.strike(v, j)
        v[:, ROUNDS] += 1.0
        v[..., 0] = 0.0  # (the party down)
        return v

    def opening(self, v: Table, acts: bool) -> Table:
        """Backwards through a monsters' turn before the rounds of ``v``: the fight the monsters open. Its rounds
        begin with a monsters' turn, so one ended by the party's blow (won) is in one round fewer than ``v`` counts
        and any other in one more, this turn's included."""
        after = self.monsters(v, acts)
        v = after.copy() if after is v else after  # (a lost turn without regeneration changes nothing)
        v[:, ROUNDS] += 1.0 - v[:, WIN]
        v[..., 0] = 0.0
        return v

    def tables(self, tables: list[Table], lost: list[Table], rounds: int) -> PartyTables:
        """The tables of the rounds read backwards (:func:`_backwards`), in the order of :class:`PartyTables`: the
        monsters' turn first is that turn (at phase q, or lost), then the rounds the party opens from phase q + 1."""
        every = self.every
        theirs = [self.opening(tables[(q + 1) % every], formulas.monster_acts(q, every)) for q in range(every)]
        theirs_lost = [self.opening(tables[(q + 1) % every], False) for q in range(every)]
        return PartyTables(((tuple(theirs), tuple(theirs_lost)), (tuple(tables), tuple(lost))), rounds)


def _backwards(
    round_: Callable[[Table, bool], Table], start: Table, every: int, max_rounds: int
) -> tuple[list[Table], list[Table], int]:
    """The rounds of a table read backwards, from ``start`` (no rounds left) until the fight is decided from every
    state (the chance it is still going, layer :data:`GOING`, below :data:`TOLERANCE`) or ``max_rounds``: one table
    per ``acts_every`` phase; the same with the last round's monsters' turn lost; and the rounds read. ``round_``
    makes new tables (it never writes into the one it is given)."""
    before, tables, rounds = [start] * every, [start] * every, 0
    while rounds < max_rounds:
        before = tables
        tables = [round_(before[(q + 1) % every], formulas.monster_acts(q, every)) for q in range(every)]
        rounds += 1
        if max(float(t[:, GOING].max()) for t in tables) < TOLERANCE:
            break
    return tables, [round_(before[(q + 1) % every], False) for q in range(every)], rounds


def _build(specs: tuple[FightSpec, ...], count: int, targeting: str) -> PartyTables:
    """The tables of the party ``specs`` (their hit points aside) against up to ``count`` creatures, either side
    taking the next turn."""
    f = _Fight(specs, count, targeting)
    return f.tables(*_backwards(f.round_, f.start(), f.every, f.max_rounds))


@functools.cache
def _blas() -> ThreadpoolController:
    """The process's BLAS libraries (found once)."""
    return ThreadpoolController()


def _one_thread() -> AbstractContextManager[object]:
    """numpy's matrix products on this thread alone while a table is built: OpenBLAS would spread each over every
    core, for no gain at these sizes and at twice the time when another process keeps a core busy (``autoplay
    --jobs``, ``balance``, a test run beside it)."""
    limit: AbstractContextManager[object] = _blas().limit(limits=1, user_api="blas")
    return limit


_tables: dict[Key, PartyTables] = {}  # _key -> the tables, for the largest count asked for
_kept = 0  # their bytes


def party_tables(specs: tuple[FightSpec, ...], count: int, targeting: str) -> PartyTables:
    """The tables of the party ``specs`` against ``count`` creatures (and fewer); remembered: one set serves every
    hit points of the party, either side opening, and every count up to the largest asked for."""
    global _kept
    key = _key(specs, targeting)
    got = _tables.pop(key, None)  # (put back last: the dict runs from the least recently asked to the most)
    if got is None or got.tables[0][0][0].shape[0] < count:
        if got is not None:
            _kept -= _size(got)
        with _one_thread():
            got = _build(specs, count, targeting)
        _kept += _size(got)
        while _kept > KEPT_BYTES and _tables:  # the ones asked for longest ago go first
            _kept -= _size(_tables.pop(next(iter(_tables))))
    _tables[key] = got
    return got


def _size(t: PartyTables) -> int:
    return sum(a.nbytes for side in t.tables for lost in side for a in lost)


def _at(specs: tuple[FightSpec, ...], hps: tuple[int, ...]) -> tuple[int, int, int]:
    """The index of a state in a table: the count of the living less one, the one struck's hit points less one,
    the party's hit points as one number."""
    living = [h for h in hps if h > 0]
    party = 0
    for s in specs:
        party = party * (s.delver_max_hp + 1) + s.delver_hp
    return len(living) - 1, min(min(living), specs[0].monster_hp) - 1, party


def party_numbers(
    specs: tuple[FightSpec, ...], hps: tuple[int, ...], delver_next: bool, phase: int, lost_turn: bool, targeting: str
) -> tuple[float, float, float, float]:
    """(win, death, mean hit points the party loses, mean rounds) of the fight of the living characters ``specs``
    (each at its ``delver_hp``) against the creatures ``hps`` (index order, 0: down; :func:`tabled`), the monsters'
    turn counter at ``phase``, their turn of this round lost if ``lost_turn``: the numbers
    :func:`undercroft.sim.odds.simulate_party` estimates, exactly."""
    t = party_tables(specs, len(hps), targeting)  # (the whole group, the fallen too: every count it will come to)
    c, m, s = _at(specs, hps)
    table = t.tables[delver_next][lost_turn][phase % specs[0].acts_every]
    win, going, left, rounds = (float(x) for x in table[c, :, m, s])
    return win, max(0.0, 1.0 - win - going), sum(s.delver_hp for s in specs) - left, rounds


def clear() -> None:
    """Forget every table."""
    global _kept
    _tables.clear()
    _kept = 0
