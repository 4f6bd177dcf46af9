"""The exact odds of a small party's fight, from every state at once: a table per fight.

:func:`undercroft.sim.odds.simulate_party` plays 4,000 fights of the whole party for each state asked about: a
millisecond or two, a number good to about a point and a half, and the bot asks about a new state at every blow
of a fight. A party of two (the crawler's delver and sellsword) has few enough states to count them all: every
character's hit points (0: down) times the creature struck's, one layer per count of the living creatures (a group
is struck one creature at a time, the one struck the weakest, every other at full:
:func:`undercroft.sim.wintable.full_behind`). This module works out the fight from every such state at once,
backwards a round at a time as :mod:`undercroft.sim.wintable` does for one character, with the rules of
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
table's rounds run out (it stops once that is below :data:`undercroft.sim.wintable.TOLERANCE` from every state),
the party's hit points expected at the end (0 after a defeat), and the rounds expected. Each round read backwards
is a handful of matrix products over the whole table (a character's blows move the creature's hit points, a
creature's blow the hit points of the character it strikes), a few milliseconds for a whole table, which then
answers every state of the fight.

A party too large to count (:func:`tabled`: the citadel's four, or three, have tens or hundreds of thousands of
states for each creature's hit points) is simulated as before, and so is a group with two creatures wounded."""

from __future__ import annotations

import functools
import math
from contextlib import AbstractContextManager
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from threadpoolctl import ThreadpoolController

from undercroft.rules import formulas
from undercroft.sim.exact import outcome_probabilities
from undercroft.sim.spec import FightSpec
from undercroft.sim.wintable import _backwards, _matrices, full_behind

PARTY_WORK = 2_000_000  # multiply-adds a round of a party's tables may take (see tabled); beyond, the odds simulate
PARTIES_KEPT = 64  # tables remembered (one per kind of fight: each holds every count of the living)
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
    return (tuple((s.swing_key, s.delver_max_hp) for s in specs), s0.monster_hp, s0.regenerate, s0.acts_every,
            s0.max_rounds, targeting)


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
    return (bool(living) and full_behind(specs[0], living) and targeting in TARGETING
            and _work(specs, len(hps)) <= PARTY_WORK)


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


def _build(specs: tuple[FightSpec, ...], count: int, targeting: str, whole: bool) -> PartyTables:
    """The tables of the party ``specs`` (their hit points aside) against up to ``count`` creatures, either side
    taking the next turn; with ``whole``, all four layers, else the first two (the win and the fight still going:
    what the bot asks, for about half the work).

    Laid out ``[c - 1, layer, m - 1, s]`` with ``s`` the party's hit points flattened (every character's 0..max,
    the last character fastest), so that a character's blows are one product along ``m`` and a creature's blow one
    product with the party's whole transition matrix (its targeting folded in); the tables are handed out in the
    order of :class:`PartyTables`."""
    s0 = specs[0]
    n, top_m, every = len(specs), s0.monster_hp, s0.acts_every
    sizes = tuple(s.delver_max_hp + 1 for s in specs)
    cells = math.prod(sizes)
    grid = np.stack([g.ravel() for g in np.meshgrid(*[np.arange(z) for z in sizes], indexing="ij")])  # (n, cells)
    stride = [math.prod(sizes[i + 1 :]) for i in range(n)]
    party_hp = grid.sum(axis=0).astype(np.float64)
    share = _targets(grid, targeting)
    strikes = []  # per character: (its blows on the creature struck, m -> m'; the chance of a kill at each m)
    falls = np.zeros((cells, cells))  # a creature's blow: the party's hit points s -> s'
    at = np.arange(cells)
    for i, s in enumerate(specs):
        _, blows, _, kill = _matrices(s)  # (the character's blows on one creature, as a lone character's tables)
        strikes.append((blows, kill[:, None], grid[i] > 0))
        _, m_out = outcome_probabilities(s)
        for (dmg, _), p in m_out.items():  # (each outcome in turn, as the rows of _matrices are built)
            h = grid[i]
            np.add.at(falls, (at, at - (h - np.maximum(h - max(dmg, 0), 0)) * stride[i]), share[i] * p)
    falls[0] = 0.0  # (the party down: the fight is over, lost)
    powers = [falls.T.copy()]  # c creatures' blows, c = 1..count (transposed, for the products below)
    for _ in range(count - 1):
        powers.append(powers[-1] @ powers[0])
    blows_t = np.stack(powers)
    layers = 4 if whole else 2
    won = np.zeros((1, layers, 1, cells))  # the last creature down: won, over, the party's hit points left, no rounds
    won[0, WIN] = 1.0
    if whole:
        won[0, LEFT] = party_hp
    regen = np.minimum(np.arange(top_m) + s0.regenerate, top_m - 1)

    def strike(v: Table, j: int) -> Table:
        """Backwards through character ``j``'s blow (where it stands)."""
        blows, kill, standing = strikes[j]
        ends = won if v.shape[0] == 1 else np.concatenate([won, v[:-1, :, top_m - 1 :]])  # (the next, at full)
        return np.where(standing, blows @ v + kill * ends, v)

    def monsters(v: Table, acts: bool) -> Table:
        """Backwards through the monsters' turn: the creature struck regenerates after the blows."""
        if s0.regenerate:
            v = v[:, :, regen]
        if acts:  # c creatures living strike c times: layer c - 1 goes back through c blows
            v = (v.reshape(count, -1, cells) @ blows_t).reshape(v.shape)
        return v

    def round_(v: Table, acts: bool) -> Table:
        """Backwards through a round the party opens (the round's last blow first)."""
        v = monsters(v, acts)
        for j in reversed(range(n)):
            v = strike(v, j)
        if whole:
            v[:, ROUNDS] += 1.0
        v[..., 0] = 0.0  # (the party down)
        return v

    def opening(v: Table, acts: bool) -> Table:
        """Backwards through a monsters' turn before the rounds of ``v``: the fight the monsters open. Its rounds
        begin with a monsters' turn, so one ended by the party's blow (won) is in one round fewer than ``v`` counts
        and any other in one more, this turn's included."""
        after = monsters(v, acts)
        v = after.copy() if after is v else after  # (a lost turn without regeneration changes nothing)
        if whole:
            v[:, ROUNDS] += 1.0 - v[:, WIN]
        v[..., 0] = 0.0
        return v

    start = np.zeros((count, layers, top_m, cells))
    start[:, GOING] = 1.0
    if whole:
        start[:, LEFT] = party_hp
    start[..., 0] = 0.0
    # (wintable's loop: rounds until the fight is decided from every state, TOLERANCE, and the lost turns)
    tables, lost, rounds = _backwards(round_, start, every, s0.max_rounds)
    # the monsters' turn first: that turn (at phase q, or lost), then the rounds the party opens from phase q + 1
    theirs = [opening(tables[(q + 1) % every], formulas.monster_acts(q, every)) for q in range(every)]
    theirs_lost = [opening(tables[(q + 1) % every], False) for q in range(every)]
    return PartyTables(((tuple(theirs), tuple(theirs_lost)), (tuple(tables), tuple(lost))), rounds)


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


_tables: dict[tuple[Key, bool], PartyTables] = {}  # (_key, whole) -> the tables, for the largest count asked for


def party_tables(specs: tuple[FightSpec, ...], count: int, targeting: str, whole: bool = True) -> PartyTables:
    """The tables of the party ``specs`` against ``count`` creatures (and fewer), all four layers (``whole``) or
    the win's two (a whole set serves too, where one is known); remembered: one set serves every hit points of the
    party, either side opening, and every count up to the largest asked for."""
    key = _key(specs, targeting)
    for kind in (True,) if whole else (True, False):
        got = _tables.get((key, kind))
        if got is not None and got.tables[0][0][0].shape[0] >= count:
            return got
    if len(_tables) >= PARTIES_KEPT:
        _tables.clear()
    with _one_thread():
        got = _tables[(key, whole)] = _build(specs, count, targeting, whole)
    return got


def _at(specs: tuple[FightSpec, ...], hps: tuple[int, ...]) -> tuple[int, int, int]:
    """The index of a state in a table: the count of the living less one, the one struck's hit points less one,
    the party's hit points as one number."""
    living = [h for h in hps if h > 0]
    party = 0
    for s in specs:
        party = party * (s.delver_max_hp + 1) + s.delver_hp
    return len(living) - 1, min(min(living), specs[0].monster_hp) - 1, party


def party_numbers(specs: tuple[FightSpec, ...], hps: tuple[int, ...], delver_next: bool, phase: int,
                  lost_turn: bool, targeting: str) -> tuple[float, float, float, float]:
    """(win, death, mean hit points the party loses, mean rounds) of the fight of the living characters ``specs``
    (each at its ``delver_hp``) against the creatures ``hps`` (index order, 0: down; :func:`tabled`), the monsters'
    turn counter at ``phase``, their turn of this round lost if ``lost_turn``: the numbers
    :func:`undercroft.sim.odds.simulate_party` estimates, exactly."""
    t = party_tables(specs, len(hps), targeting)  # (the whole group, the fallen too: every count it will come to)
    c, m, s = _at(specs, hps)
    table = t.tables[delver_next][lost_turn][phase % specs[0].acts_every]
    win, going, left, rounds = (float(x) for x in table[c, :, m, s])
    return win, max(0.0, 1.0 - win - going), sum(s.delver_hp for s in specs) - left, rounds


def party_win(specs: tuple[FightSpec, ...], hps: tuple[int, ...], delver_next: bool, phase: int, lost_turn: bool,
              targeting: str) -> float:
    """The win of :func:`party_numbers`, from the win's tables alone (the bot's question: half the work of a
    whole table, which serves as well where one is known)."""
    t = party_tables(specs, len(hps), targeting, whole=False)
    c, m, s = _at(specs, hps)
    return float(t.tables[delver_next][lost_turn][phase % specs[0].acts_every][c, WIN, m, s])


def clear() -> None:
    """Forget every table."""
    _tables.clear()
