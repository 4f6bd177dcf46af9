"""The chance to win a fight against one creature, or a group, from every state at once: a table per fight, for the
bot.

:func:`undercroft.sim.odds.exact_from` pushes the probability of one state forward, a round at a time, until the
fight is over: a millisecond or so for each state asked about, and a bot asks about a new state (its hit points,
the creature's) at almost every decision of a fight. This module goes the other way: the chance to win from every
state (delver hit points 1..max, the creature's 1..max) with ``n`` rounds left, worked out from the same chance
with ``n - 1`` rounds left, the same rules of :mod:`undercroft.sim.spec` read backwards. A round is two products
of small matrices (the creature's blows move the delver's hit points, the delver's blows and the creature's
regeneration move the creature's), so a whole table costs about what one forward pass does, and the fights of a
game need a few tables (one per set of the fight's numbers other than the delver's hit points, per side to open
and per ``acts_every`` phase) where they needed a forward pass per state.

A group (:func:`group_win`) is the same chain a layer deeper: the count of creatures living, the one struck and
every other at full (a group is struck one at a time: :func:`full_behind`). ``c`` creatures strike in turn, so
their blows are the one creature's matrix to the power ``c``; a kill leaves ``c - 1``, the next at full. One stack
of tables (every count, every hit points of the delver) serves a whole fight with the group, where the odds
simulated 4,000 fights for each new state.

The numbers are those of :func:`exact_from` (and of :func:`undercroft.sim.exact.exact` for a fresh fight) to
within about 1e-12: both are sums of the same probabilities in another order, and each stops once what is left
to decide weighs less than a tolerance (here: once the chance that the fight is still going after ``n`` rounds
is below :data:`TOLERANCE` from every state, the chance to win with ``max_rounds`` left differs by less than
that). tests/test_wintable.py compares the two over every state of the shipped fights."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from undercroft.rules import formulas
from undercroft.sim.exact import outcome_probabilities
from undercroft.sim.spec import FightSpec

TOLERANCE = 1e-13  # the chance that a fight is still undecided at which the table stops adding rounds
TABLES_KEPT = 512  # tables remembered (each a few kilobytes)
GROUP_WORK = 2_000_000  # multiply-adds a round of a group's tables may take (see tabled); beyond, the odds simulate
GROUPS_KEPT = 64  # group tables remembered (one per kind of fight: each holds every count of the living)

Table = NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class WinTables:
    """``wins[q][d - 1, m - 1]``: the chance to win with the delver at ``d`` hit points and the creature at ``m``,
    the monsters' turn counter at ``q`` (modulo ``acts_every``) for the round about to start; ``lost_turn[q]``: the
    same when the monsters' turn of that round is lost (a free round for the party, a creature that waits for the
    first blow). ``rounds``: the rounds the tables look ahead."""

    wins: tuple[Table, ...]
    lost_turn: tuple[Table, ...]
    rounds: int


def blow_matrices(spec: FightSpec) -> tuple[Table, Table, Table, NDArray[np.float64]]:
    """``(blows_d, blows_m, regen, kill)``: ``blows_d[d, d']`` the chance that a creature's turn takes the delver
    from ``d + 1`` to ``d' + 1`` hit points (alive; the rest of the row is its death); ``blows_m`` the same for the
    delver's turn and the creature; ``regen[m, m']`` 1 where regeneration takes ``m + 1`` to ``m' + 1``; ``kill[m]``
    the chance that the delver's turn kills a creature at ``m + 1``."""
    d_out, m_out = outcome_probabilities(spec)
    top_d, top_m = spec.delver_max_hp, spec.monster_hp
    blows_d = np.zeros((top_d, top_d))
    for (dmg, _), p in m_out.items():  # (each outcome added to its cells in turn, as one cell at a time would)
        lose = max(dmg, 0)
        d = np.arange(lose, top_d)
        blows_d[d, d - lose] += p
    blows_m = np.zeros((top_m, top_m))
    kill = np.zeros(top_m)
    for dmg, p in d_out.items():
        lose = max(dmg, 0)
        m = np.arange(lose, top_m)
        blows_m[m, m - lose] += p
        kill[: min(lose, top_m)] += p
    regen = np.zeros((top_m, top_m))
    m = np.arange(top_m)
    regen[m, np.minimum(m + spec.regenerate, top_m - 1)] = 1.0
    return blows_d, blows_m, regen, kill


def _build(spec: FightSpec, delver_first: bool) -> WinTables:
    """The tables of ``spec`` (its ``delver_hp`` aside), the delver or the monsters opening every round.

    Backwards, a round is ``values -> L @ values @ R + C``: ``L`` the creature's blows (the identity in a round it
    does not act), ``R`` the delver's blows and the regeneration in the order the round has them, ``C`` what is won
    outright in the round (a kill), carried through what follows it in the round. Each table has two layers: the
    chance to win, and the chance that the fight is still going when the rounds run out (which decides when to
    stop)."""
    blows_d, blows_m, regen, kill = blow_matrices(spec)
    top_d, top_m = spec.delver_max_hp, spec.monster_hp
    every = spec.acts_every
    stay = np.eye(top_d)
    won = np.zeros((2, top_d, top_m))
    won[0] = kill[None, :]
    if delver_first:  # the delver strikes (a kill ends the round), then the creature, then regeneration
        right = regen.T @ blows_m.T
        carried = {True: won, False: won}
    else:  # the creature, regeneration, then the delver: a kill is won only if the delver lived through the rest
        right = blows_m.T @ regen.T
        after = won @ regen.T
        carried = {True: blows_d @ after, False: after}

    def round_(values: Table, acts: bool) -> Table:
        return (blows_d if acts else stay) @ values @ right + carried[acts]

    tables, lost, rounds = backwards(round_, _undecided((2, top_d, top_m)), every, spec.max_rounds)
    return WinTables(tuple(t[0] for t in tables), tuple(t[0] for t in lost), rounds)


def _undecided(shape: tuple[int, ...]) -> Table:
    """A table with no rounds left (layers in its axis -3): nothing won, the fight still going."""
    t = np.zeros(shape)
    t[..., 1, :, :] = 1.0
    return t


def backwards(
    round_: Callable[[Table, bool], Table], start: Table, every: int, max_rounds: int
) -> tuple[list[Table], list[Table], int]:
    """The rounds of a table read backwards, from ``start`` (no rounds left) until the fight is decided from every
    state (or ``max_rounds``): one table per ``acts_every`` phase, each with the chance to win and the chance the
    fight is still going in its axis -3 (layers 0 and 1; more after them are carried along); and the same with the
    round's monsters' turn lost. ``round_`` makes new tables (it never writes into the one it is given)."""
    before, tables, rounds = [start] * every, [start] * every, 0
    for step in backwards_by_round(round_, start, every, max_rounds):
        before, tables, rounds, _ = step
    return tables, lost_turns(round_, before, every), rounds


def backwards_by_round(
    round_: Callable[[Table, bool], Table], start: Table, every: int, max_rounds: int
) -> Iterator[tuple[list[Table], list[Table], int, bool]]:
    """:func:`backwards` a round at a time: after each, ``(before, tables, rounds, done)``, the tables of the
    rounds before it and of all ``rounds`` so far (each phase's), ``done`` once the fight is decided from every
    state or ``max_rounds`` are read. The chance to win within the rounds so far and that chance plus the chance the
    fight is still going bound the chance to win of the whole table (layers 0 and 1)."""
    tables = [start] * every
    rounds = 0
    while rounds < max_rounds:
        before = tables
        tables = [round_(before[(q + 1) % every], formulas.monster_acts(q, every)) for q in range(every)]
        rounds += 1
        done = rounds >= max_rounds or max(float(t[..., 1, :, :].max()) for t in tables) < TOLERANCE
        yield before, tables, rounds, done
        if done:
            return


def lost_turns(round_: Callable[[Table, bool], Table], before: list[Table], every: int) -> list[Table]:
    """The tables of the last round read (from the tables ``before`` it), its monsters' turn lost."""
    return [round_(before[(q + 1) % every], False) for q in range(every)]


Key = tuple[object, ...]


def _key(spec: FightSpec, delver_first: bool) -> Key:
    """Every number the tables of ``spec`` depend on: not the delver's hit points (a table holds them all), nor the
    count of creatures (a group's tables hold every count up to theirs)."""
    return (
        spec.swing_key,
        spec.delver_max_hp,
        spec.monster_hp,
        spec.regenerate,
        spec.acts_every,
        spec.max_rounds,
        delver_first,
    )


_by_numbers: dict[Key, WinTables] = {}  # (_key) -> the tables against one creature


def win_tables(spec: FightSpec, delver_first: bool) -> WinTables:
    """The tables of ``spec`` against its one creature (``spec.count`` aside), the delver or the monsters opening
    each round; remembered (one set serves every hit points of the delver)."""
    key = _key(spec, delver_first)
    got = _by_numbers.get(key)
    if got is None:
        if len(_by_numbers) >= TABLES_KEPT:
            _by_numbers.clear()
        got = _by_numbers[key] = _build(replace(spec, delver_hp=spec.delver_max_hp, count=1), delver_first)
    return got


def table_win(spec: FightSpec, creature_hp: int, delver_next: bool, phase: int, lost_turn: bool) -> float:
    """The chance that the delver of ``spec`` (at ``spec.delver_hp``) wins against one creature at ``creature_hp``
    (at most its maximum), the side named by ``delver_next`` to act first each round, the monsters' turn counter
    at ``phase``, the monsters' turn of this round lost if ``lost_turn``: :func:`undercroft.sim.odds.exact_from`'s
    win, from a table."""
    t = win_tables(spec, delver_next)
    table = (t.lost_turn if lost_turn else t.wins)[phase % spec.acts_every]
    return float(table[spec.delver_hp - 1, min(creature_hp, spec.monster_hp) - 1])


@dataclass(frozen=True, slots=True)
class GroupTables:
    """``wins[c - 1][q][d - 1, m - 1]``: the chance to win against ``c`` living creatures, the one struck (the
    first living one) at ``m`` hit points and every other at full, the delver at ``d``, the monsters' turn counter
    at ``q`` for the round about to start; ``lost_turn``: the same when the monsters' turn of that round is lost.
    ``rounds``: the rounds the tables look ahead."""

    wins: tuple[tuple[Table, ...], ...]
    lost_turn: tuple[tuple[Table, ...], ...]
    rounds: int


def _build_group(spec: FightSpec, delver_first: bool) -> GroupTables:
    """The tables of ``spec`` against ``spec.count`` creatures (its ``delver_hp`` aside): :func:`_build`'s round,
    read backwards, for ``c`` creatures at once (a stack, one layer per count of the living), where ``c``
    creatures strike the delver in turn (``blows_d`` to the power ``c``: each blow is one more step of the
    same chain, and the turn stops with the delver down) and a kill leaves ``c - 1`` with the next at full."""
    blows_d, blows_m, regen, kill = blow_matrices(spec)
    k, top_d, top_m = spec.count, spec.delver_max_hp, spec.monster_hp
    every = spec.acts_every
    powers = [np.eye(top_d)]
    for _ in range(k):
        powers.append(powers[-1] @ blows_d)
    strike = np.stack(powers[1:])[:, None]  # (c, 1, D, D): the blows of c creatures
    stay = np.broadcast_to(np.eye(top_d), strike.shape)
    won = np.zeros((2, top_d, top_m))
    won[0] = kill[None, :]  # a kill of the last one: won (layer 0), the fight over (layer 1: 0)
    kill_m = kill[None, None, None, :]
    # (delver first: the delver strikes, the living strike, the struck one regenerates; else the living strike, the
    # struck one regenerates, then the delver strikes)
    right = regen.T @ blows_m.T if delver_first else blows_m.T @ regen.T

    def round_(values: NDArray[np.float64], acts: bool) -> NDArray[np.float64]:
        blows = strike if acts else stay
        out = np.empty_like(values)
        if delver_first:
            hit = blows @ values  # (c, 2, D, M): the living's blows, then what follows
            out[...] = hit @ right
            out[0] += won
            # a kill of one of c > 1: the c - 1 left strike (the next one at full), then the round after
            out[1:] += kill_m * hit[:-1, :, :, top_m - 1 : top_m]  # (hit[c - 2]: the blows of c - 1, then on)
        else:
            after = values @ blows_m.T
            after[0] += won
            after[1:] += kill_m * values[:-1, :, :, top_m - 1 : top_m]
            out[...] = blows @ (after @ regen.T)
        return out

    tables, lost, rounds = backwards(round_, _undecided((k, 2, top_d, top_m)), every, spec.max_rounds)
    return GroupTables(
        tuple(tuple(t[c, 0] for t in tables) for c in range(k)),
        tuple(tuple(t[c, 0] for t in lost) for c in range(k)),
        rounds,
    )


_groups: dict[Key, GroupTables] = {}  # (_key) -> the tables against a group, the largest count asked for so far


def group_tables(spec: FightSpec, delver_first: bool) -> GroupTables:
    """The tables of ``spec`` against ``spec.count`` creatures, the delver or the monsters opening each round;
    remembered: one set serves every hit points of the delver and every count up to the largest asked for (a
    fight asks first with the most creatures living)."""
    key = _key(spec, delver_first)
    got = _groups.get(key)
    if got is None or len(got.wins) < spec.count:
        if len(_groups) >= GROUPS_KEPT:
            _groups.clear()
        got = _groups[key] = _build_group(replace(spec, delver_hp=spec.delver_max_hp), delver_first)
    return got


def group_win(spec: FightSpec, hps: tuple[int, ...], delver_next: bool, phase: int, lost_turn: bool) -> float:
    """The chance that the delver of ``spec`` (at ``spec.delver_hp``) wins against the living creatures ``hps``
    (in the order struck; every one but the first at full: :func:`full_behind`), as :func:`table_win` reads one:
    the forward computation's win (:func:`undercroft.sim.odds.exact_from`), from a table."""
    t = group_tables(spec, delver_next)
    table = (t.lost_turn if lost_turn else t.wins)[len(hps) - 1][phase % spec.acts_every]
    return float(table[spec.delver_hp - 1, min(hps[0], spec.monster_hp) - 1])


def tabled(spec: FightSpec, count: int) -> bool:
    """Whether a group of ``count`` is small enough for the tables: the multiply-adds of a round of its tables (every
    ``acts_every`` phase: ``count`` layers of two products, ``D x D`` by ``D x M`` and ``D x M`` by ``M x M``) stay
    within :data:`GROUP_WORK`. The shipped data's groups take a few thousand; a crowd of a thousand hit points each
    would take hundreds of millions, and is simulated."""
    d, m = spec.delver_max_hp, spec.monster_hp
    return spec.acts_every * count * d * m * (d + m) <= GROUP_WORK


def full_behind(spec: FightSpec, hps: tuple[int, ...]) -> bool:
    """Whether the creatures ``hps`` (in the order struck) are a state the tables hold: every one but the first at
    full (a group is struck one at a time, so a fight keeps it so, unless something wounds another first)."""
    full = spec.monster_hp
    return all(h >= full for h in hps[1:])


def clear() -> None:
    """Forget every table."""
    _by_numbers.clear()
    _groups.clear()
