"""Many fights at once, as numpy arrays.

The fights of a chunk advance together, one round per Python loop step; the fights that end are tallied and
dropped from the live arrays. Per-fight state is (delver hp, target index, target hp, monster hits): the delver
always strikes the first living monster, so the ones after it are untouched and need no array (see
:mod:`undercroft.sim.spec`).

One monster (``count == 1``, the common case and the bench's) runs a packed loop, :func:`_run_duel`: two int
arrays per fight (monster hp; damage taken and hits in one number), preallocated buffers and ``out=`` everywhere,
table look-ups with ``take``, and fights dropped with ``flatnonzero`` + ``take`` rather than boolean masks
(numpy's boolean indexing is several times slower on a fight's unpredictable masks). It draws the same words in
the same order as the general loop, :func:`_run_chunk`, so both give the same results to the last bit (tested).

Randomness: raw 64-bit words from ``numpy.random.PCG64(numpy.random.SeedSequence(stream_seed))`` via
``random_raw``, mapped to a face exactly as :meth:`undercroft.rules.rng.Stream.die` does: a word ``x`` below
``limit = 2**64 - 2**64 % sides`` gives ``x % sides + 1``; a word at or above it is rejected and its place
refilled with fresh words (in order) until every face is accepted. ``limit`` is a multiple of ``sides``, so
every face has exactly ``limit / sides`` words: no modulo bias. (Computed as ``x - (x // sides) * sides``, the
same number: numpy divides a uint64 array by a scalar several times faster than it takes the remainder; a
power-of-two die masks.) numpy's ``Generator`` methods are never used.
A fight's dice come from the chunk's shared stream, so a result depends on (seed, fights, chunk), and on
nothing else.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from undercroft.sim.spec import FightSpec, by_swing

_SPAN = 1 << 64
Z95 = 1.959963984540054  # two-sided 95% normal quantile
Raw = Callable[[int], NDArray[np.uint64]]
IntArray = NDArray[np.int32]


class DieRoller:
    """Faces of one die size from a source of raw 64-bit words (see the module docstring for the mapping).

    The roller owns (and overwrites in place) the arrays its source returns."""

    def __init__(self, raw: Raw, sides: int) -> None:
        if sides < 1:
            raise ValueError(f"a die needs at least one side, not {sides}")
        self._raw = raw
        self.sides = sides
        self._sides = np.uint64(sides)
        rest = _SPAN % sides
        self._limit = None if rest == 0 else np.uint64(_SPAN - rest)
        self._mask = np.uint64(sides - 1) if rest == 0 else None  # a power of two: x % sides == x & (sides - 1)
        self.words = 0  # raw words consumed

    def _draw(self, n: int) -> NDArray[np.uint64]:
        self.words += n
        return np.asarray(self._raw(n), dtype=np.uint64)

    def indices(self, n: int, scratch: NDArray[np.uint64] | None = None) -> NDArray[np.int64]:
        """``n`` faces minus one (0..sides-1), ready to index a per-face table (``take(..., mode="clip")`` is
        safe: every index is in range). ``scratch``, of at least ``n`` words, saves an allocation."""
        words = self._draw(n)
        limit = self._limit
        if limit is not None and n and words.max() >= limit:  # one cheap pass: rejections are rare (d20: 2**-60)
            bad = np.flatnonzero(words >= limit)
            while bad.size:
                words[bad] = self._draw(bad.size)
                bad = bad[words[bad] >= limit]
        if self._mask is not None:
            np.bitwise_and(words, self._mask, out=words)
        else:  # x % sides as x - (x // sides) * sides: numpy divides by a scalar far faster than it takes remainders
            q = np.floor_divide(words, self._sides, out=None if scratch is None else scratch[:n])
            np.multiply(q, self._sides, out=q)
            np.subtract(words, q, out=words)
        return words.view(np.int64)  # every value is below sides: the same numbers as int64

    def faces(self, n: int) -> NDArray[np.int64]:
        """``n`` faces 1..sides."""
        return self.indices(n) + 1


def pcg64_raw(seed: int) -> Raw:
    """The raw-word source of a stream seed: ``PCG64(SeedSequence(seed)).random_raw``."""
    bg = np.random.PCG64(np.random.SeedSequence(seed))

    def draw(n: int) -> NDArray[np.uint64]:
        return bg.random_raw(n)

    return draw


# --- results -------------------------------------------------------------------------------------------------


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return (lo, hi)


def mean_ci(total: int, squares: int, n: int, z: float = Z95) -> tuple[float, tuple[float, float]]:
    """The mean and its normal-approximation interval from the sum and the sum of squares (exact integers)."""
    mean = total / n
    var = (squares - total * total / n) / (n - 1) if n > 1 else 0.0
    half = z * math.sqrt(max(var, 0.0) / n)
    return mean, (mean - half, mean + half)


def quantile_ci(hist: NDArray[np.int64], q: float, z: float = Z95) -> tuple[int, tuple[int, int]]:
    """The ``q`` quantile (smallest value whose empirical CDF reaches q) of a histogram of whole numbers, and a
    distribution-free interval from order statistics: ranks ``n q -/+ z sqrt(n q (1 - q))`` (binomial)."""
    n = int(hist.sum())
    cum = np.cumsum(hist)

    def at_rank(rank: int) -> int:  # the rank-th smallest value, 1-based
        rank = min(max(rank, 1), n)
        return int(np.searchsorted(cum, rank, side="left"))

    spread = z * math.sqrt(n * q * (1 - q))
    value = at_rank(math.ceil(n * q - 1e-9))
    return value, (at_rank(math.floor(n * q - spread)), at_rank(math.ceil(n * q + spread)))


@dataclass(frozen=True)
class SimResult:
    """Fractions and means over ``fights`` simulated fights, each with its 95% interval."""

    fights: int
    win: float
    win_ci: tuple[float, float]
    death: float
    death_ci: tuple[float, float]
    stalemate: float
    stalemate_ci: tuple[float, float]
    rounds_mean: float
    rounds_mean_ci: tuple[float, float]
    rounds_p90: int
    rounds_p90_ci: tuple[int, int]
    hp_lost_mean: float
    hp_lost_mean_ci: tuple[float, float]
    monster_hits_mean: float
    monster_hits_mean_ci: tuple[float, float]
    delver_swings_mean: float
    delver_swings_mean_ci: tuple[float, float]

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name in self.__dataclass_fields__:
            value = getattr(self, name)
            out[name] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass
class _Tally:
    max_rounds: int
    start_hp: int
    wins: int = 0
    deaths: int = 0
    stalemates: int = 0
    hp_lost: int = 0
    hp_lost_sq: int = 0
    hits: int = 0
    hits_sq: int = 0
    swings: int = 0
    swings_sq: int = 0
    rounds_hist: NDArray[np.int64] = field(init=False)

    def __post_init__(self) -> None:
        self.rounds_hist = np.zeros(self.max_rounds + 1, dtype=np.int64)

    def record(self, kind: str, rounds: int, swings: int, dhp: IntArray, hits: IntArray) -> None:
        self.count(kind, rounds, swings, int(dhp.size))
        lost = self.start_hp - np.maximum(dhp, 0).astype(np.int64)
        self.hp_lost += int(lost.sum())
        self.hp_lost_sq += int((lost * lost).sum())
        h = hits.astype(np.int64)
        self.hits += int(h.sum())
        self.hits_sq += int((h * h).sum())

    def count(self, kind: str, rounds: int, swings: int, n: int) -> None:
        """``n`` fights ended as ``kind`` after ``rounds`` rounds and ``swings`` delver swings (their hp and hits
        go in with :meth:`losses`)."""
        if kind == "win":
            self.wins += n
        elif kind == "death":
            self.deaths += n
        else:
            self.stalemates += n
        self.swings += swings * n
        self.swings_sq += swings * swings * n
        self.rounds_hist[rounds] += n

    def losses(self, taken: NDArray[np.int32] | NDArray[np.int64], shift: int) -> None:
        """The hp lost and monster hits of ended fights, packed as :class:`_Duel` packs them. The values are
        usually few (damage up to the delver's hp, hits up to the round cap): counted by value (``bincount``) and
        summed over the distinct values; otherwise summed directly."""
        if taken.size == 0:
            return
        if int(taken.max()) <= max(4 * taken.size, 1 << 16):
            counts = np.bincount(taken).astype(np.int64)
            value = np.arange(counts.size, dtype=np.int64)
        else:
            counts = np.ones(taken.size, dtype=np.int64)
            value = taken.astype(np.int64)
        lost = np.minimum(value >> shift, self.start_hp)  # the delver's hp never counts below 0
        hits = value & ((1 << shift) - 1)
        self.hp_lost += int(counts @ lost)
        self.hp_lost_sq += int(counts @ (lost * lost))
        self.hits += int(counts @ hits)
        self.hits_sq += int(counts @ (hits * hits))

    def result(self) -> SimResult:
        n = self.wins + self.deaths + self.stalemates
        r = np.arange(self.rounds_hist.size, dtype=np.int64)
        r_sum = int((r * self.rounds_hist).sum())
        r_sq = int((r * r * self.rounds_hist).sum())
        rounds_mean, rounds_ci = mean_ci(r_sum, r_sq, n)
        p90, p90_ci = quantile_ci(self.rounds_hist, 0.9)
        hp_mean, hp_ci = mean_ci(self.hp_lost, self.hp_lost_sq, n)
        hits_mean, hits_ci = mean_ci(self.hits, self.hits_sq, n)
        sw_mean, sw_ci = mean_ci(self.swings, self.swings_sq, n)
        return SimResult(
            fights=n,
            win=self.wins / n,
            win_ci=wilson(self.wins, n),
            death=self.deaths / n,
            death_ci=wilson(self.deaths, n),
            stalemate=self.stalemates / n,
            stalemate_ci=wilson(self.stalemates, n),
            rounds_mean=rounds_mean,
            rounds_mean_ci=rounds_ci,
            rounds_p90=p90,
            rounds_p90_ci=p90_ci,
            hp_lost_mean=hp_mean,
            hp_lost_mean_ci=hp_ci,
            monster_hits_mean=hits_mean,
            monster_hits_mean_ci=hits_ci,
            delver_swings_mean=sw_mean,
            delver_swings_mean_ci=sw_ci,
        )


# --- the fight -----------------------------------------------------------------------------------------------


_tables_known: dict[tuple[int | bool, ...], tuple[IntArray, IntArray, IntArray]] = {}  # (face_tables: by_swing)


def face_tables(spec: FightSpec) -> tuple[IntArray, IntArray, IntArray]:
    """Per face index (face - 1): delver damage to the monster, monster damage to the delver, monster hit (0/1).

    The numbers are :meth:`FightSpec.delver_outcomes` and :meth:`FightSpec.monster_outcomes`, that is
    :func:`undercroft.rules.formulas.attack` and :func:`~undercroft.rules.formulas.damage` face by face; the
    simulator only looks them up (tests/test_formulas.py checks the tables over the data's whole domain).
    Remembered by the numbers a swing depends on (:attr:`FightSpec.swing_key`, not the hit points: every chunk of
    a run, and every state of a fight the odds ask about, uses the same tables), so the arrays are read-only."""
    return by_swing(_tables_known, spec, _face_tables)


def _face_tables(spec: FightSpec) -> tuple[IntArray, IntArray, IntArray]:
    d = np.array([o.damage for o in spec.delver_outcomes()], dtype=np.int32)
    mo = spec.monster_outcomes()
    m = np.array([o.damage for o in mo], dtype=np.int32)
    h = np.array([int(o.hit) for o in mo], dtype=np.int32)
    for a in (d, m, h):
        a.flags.writeable = False
    return d, m, h


class _Duel:
    """The 1 v 1 fight (``count == 1``) in a form that needs few numpy calls per turn (see :func:`_run_duel`).

    Per fight only two int arrays live: the monster's hp and ``taken``, the delver's damage taken and the
    monsters' hits packed in one number, ``(damage << shift) + hits``: a monster's attack adds
    ``packed[face]`` (one table look-up, one add), and the delver is down iff ``taken >= delver_hp << shift``
    (hits never reach ``1 << shift``, so they cannot carry into the damage). The per-face numbers are the same
    :func:`face_tables`, packed."""

    @staticmethod
    def fits(spec: FightSpec) -> bool:
        """Whether the packing holds: one monster, and no face heals the delver (damage is never negative)."""
        return spec.count == 1 and int(face_tables(spec)[1].min()) >= 0

    def __init__(self, spec: FightSpec, chunk: int) -> None:
        dtab, mtab, htab = face_tables(spec)
        self.shift = spec.max_rounds.bit_length()  # hits <= max_rounds (one monster, one attack a round)
        top = ((spec.delver_hp + int(mtab.max())) << self.shift) + spec.max_rounds  # taken never goes past this
        small = top < 2**31 and spec.monster_hp + spec.regenerate < 2**31  # mhp stays within full + regenerate
        self.dtype = np.dtype(np.int32 if small else np.int64)
        self.dtab = dtab.astype(self.dtype)
        self.packed = ((mtab.astype(np.int64) << self.shift) + htab).astype(self.dtype)
        self.down = self.dtype.type(spec.delver_hp << self.shift)
        # preallocated buffers (fresh large arrays cost page faults): two of each live array, swapped when the
        # fights that ended are dropped; the words' scratch; one turn's looked-up numbers; the ended fights' taken
        self.hp = (np.empty(chunk, self.dtype), np.empty(chunk, self.dtype))
        self.taken = (np.empty(chunk, self.dtype), np.empty(chunk, self.dtype))
        self.scratch = np.empty(chunk, np.uint64)
        self.looked = np.empty(chunk, self.dtype)
        self.alive = np.empty(chunk, np.bool_)
        self.ended = np.empty(chunk, self.dtype)


def _run_duel(spec: FightSpec, n: int, dice: DieRoller, tally: _Tally, duel: _Duel) -> None:
    """One chunk of 1 v 1 fights: the same rules, dice and results as :func:`_run_chunk`, in fewer passes.

    A turn is: draw one word per live fight (in live order, as :func:`_run_chunk`), map them to face indices,
    look the effect up (``take``), apply it in place, compare. Fights that end are dropped with one
    ``flatnonzero`` and a ``take`` per array (numpy's boolean-mask indexing is several times slower on the
    unpredictable masks a fight makes); their ``taken`` goes to ``duel.ended``, and the hp and hit sums are
    taken once per chunk from there."""
    full = spec.monster_hp
    regen = spec.regenerate
    first = spec.delver_first
    side = 0  # which buffer of each pair holds the live arrays
    mhp = duel.hp[0][:n]
    mhp.fill(full)
    taken = duel.taken[0][:n]
    taken.fill(0)
    ended = 0
    order = (True, False) if first else (False, True)  # True: the delver's turn
    for r in range(spec.max_rounds):
        for delver in order:
            m = mhp.size
            if delver:
                f = dice.indices(m, duel.scratch)
                np.subtract(mhp, duel.dtab.take(f, out=duel.looked[:m], mode="clip"), out=mhp)
                alive = np.greater(mhp, 0, out=duel.alive[:m])
                kind, swings = "win", r + 1
            else:
                acts = spec.monster_acts(r)
                if acts:
                    f = dice.indices(m, duel.scratch)
                    np.add(taken, duel.packed.take(f, out=duel.looked[:m], mode="clip"), out=taken)
                if regen:  # the end of the monsters' turn, whether or not they acted
                    np.add(mhp, regen, out=mhp)
                    np.minimum(mhp, full, out=mhp)
                if not acts:
                    continue
                alive = np.less(taken, duel.down, out=duel.alive[:m])
                kind, swings = "death", (r + 1 if first else r)
            if alive.all():
                continue
            keep = np.flatnonzero(alive)
            gone = m - keep.size
            dead = np.flatnonzero(np.logical_not(alive, out=alive))
            taken.take(dead, out=duel.ended[ended : ended + gone], mode="clip")
            ended += gone
            tally.count(kind, r + 1, swings, gone)
            if keep.size == 0:
                tally.losses(duel.ended[:ended], duel.shift)
                return
            side ^= 1
            mhp = mhp.take(keep, out=duel.hp[side][: keep.size], mode="clip")
            taken = taken.take(keep, out=duel.taken[side][: keep.size], mode="clip")
    tally.count("stalemate", spec.max_rounds, spec.max_rounds, taken.size)
    duel.ended[ended : ended + taken.size] = taken
    tally.losses(duel.ended[: ended + taken.size], duel.shift)


def _run_chunk(spec: FightSpec, n: int, dice: DieRoller, tally: _Tally) -> None:
    k = spec.count
    full = spec.monster_hp
    dtab, mtab, htab = face_tables(spec)
    regen = spec.regenerate
    dhp: IntArray = np.full(n, spec.delver_hp, dtype=np.int32)
    mhp: IntArray = np.full(n, full, dtype=np.int32)  # hp of the target (the first living monster)
    tgt: IntArray = np.zeros(n, dtype=np.int32)  # index of the target; k when all are dead
    hits: IntArray = np.zeros(n, dtype=np.int32)
    first = spec.delver_first
    order = ("delver", "monsters") if first else ("monsters", "delver")

    for r in range(spec.max_rounds):
        for side in order:
            if side == "delver":
                mhp -= dtab.take(dice.indices(dhp.size), mode="clip")
                if k == 1:
                    done = mhp <= 0
                else:
                    killed = mhp <= 0
                    tgt += killed
                    mhp[killed] = full  # the next one, untouched so far
                    done = tgt >= k
                kind, swings = "win", r + 1
            else:
                acts = spec.monster_acts(r)
                if acts:
                    for j in range(k):
                        f = dice.indices(dhp.size)
                        dmg = mtab.take(f, mode="clip")
                        hit = htab.take(f, mode="clip")
                        if k > 1:  # monster j lives iff tgt <= j; the turn stops once the delver is down
                            active = (tgt <= j) & (dhp > 0) if j else tgt == 0
                            dmg = dmg * active
                            hit = hit * active
                        dhp -= dmg
                        hits += hit
                if regen:  # the end of the monsters' turn, whether or not they acted
                    np.minimum(mhp + regen, full, out=mhp)
                if not acts:
                    continue
                done = dhp <= 0
                kind, swings = "death", (r + 1 if first else r)
            if done.any():
                tally.record(kind, r + 1, swings, dhp[done], hits[done])
                keep = np.flatnonzero(~done)  # then take: far faster than a boolean mask on a fight's masks
                dhp, mhp, hits = dhp.take(keep), mhp.take(keep), hits.take(keep)
                if k > 1:
                    tgt = tgt.take(keep)
                if dhp.size == 0:
                    return
    tally.record("stalemate", spec.max_rounds, spec.max_rounds, dhp, hits)


def simulate(
    spec: FightSpec,
    fights: int,
    stream_seed: int,
    chunk: int = 100_000,
    progress: Callable[[int, int], None] | None = None,
) -> SimResult:
    """Simulate ``fights`` independent fights of ``spec`` with the dice of ``stream_seed`` (see the module
    docstring); ``progress(done, total)`` is called after each chunk."""
    if fights < 1:
        raise ValueError(f"fights must be at least 1, not {fights}")
    if chunk < 1:
        raise ValueError(f"chunk must be at least 1, not {chunk}")
    dice = DieRoller(pcg64_raw(stream_seed), spec.attack_die)
    tally = _Tally(spec.max_rounds, spec.delver_hp)
    duel = _Duel(spec, min(chunk, fights)) if _Duel.fits(spec) else None
    done = 0
    while done < fights:
        n = min(chunk, fights - done)
        if duel is not None:
            _run_duel(spec, n, dice, tally, duel)
        else:
            _run_chunk(spec, n, dice, tally)
        done += n
        if progress is not None:
            progress(done, fights)
    return tally.result()
