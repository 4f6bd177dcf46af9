"""The odds of the fight in front of the party, for the encounter and combat screens and the autoplay bot.

:func:`fight_odds` is the one entry point: it reads a game's state (never its random streams) and returns the chances
of the fight with the group met, from the current hit points on: win, death and the expected hit points lost, if the
party attacks until one side is down, always striking the weakest living creature (ties: the first; see
:func:`attack_target`). The screens show its numbers and the bot decides on its win. The numbers follow the rules of
:mod:`undercroft.sim.spec`:

* one character against one creature, or a group whose creatures are all at full but the one struck
  (:func:`exactly`: a fresh group, and a group fought one creature at a time, as the party strikes the weakest; not
  a crowd too big to count, :data:`GROUP_WORK`): exact, from the fight's tables (:mod:`undercroft.sim.partytable`
  for a party of one: every state of the fight at once, so a fight's later rounds and the next meeting with the
  same kit read the table built for its first), else by dynamic programming forward
  (:func:`undercroft.sim.exact.exact`, or :func:`exact_from`, the same computation started from a fight in
  progress: a wounded creature, the dead, the monsters' ``acts_every`` phase, a free round pending); the two agree
  to within their rounding and cut-off (1e-12);
* any other group (two of its creatures wounded, or too big): simulated, :data:`FIGHTS` fights, the same rules from
  the fight in progress, with dice seeded from the state itself, so the same state always gives the same numbers
  and the game's own dice are never touched;
* a party of several living characters: the whole party as the engine fights (:mod:`undercroft.rules.combat`):
  every living character strikes the target each party turn (the first living creature once it falls), each
  creature strikes the character the data's ``combat.monster_targeting`` picks, with the per-face outcomes of
  :mod:`undercroft.rules.formulas` (through each character's :class:`FightSpec`); ``hp_lost_mean`` is then the
  whole party's. Exact for a party of two against a group struck one creature at a time (:func:`party_exactly`:
  the tables of :mod:`undercroft.sim.partytable`, every state of the fight at once); otherwise simulated
  (:func:`simulate_party`, :data:`FIGHTS` fights).

Results are cached by the state they depend on (the fight's every number, the creatures' hit points, whose turn
is next): a repeated call costs some tens of microseconds (reading the state), a new state a millisecond or a few
(the forward pass or a simulation; a party of two's from its tables, once they are built).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np
from numpy.typing import NDArray

from undercroft.content import Content
from undercroft.rules import formulas
from undercroft.rules.game import Game
from undercroft.rules.state import Group, Member
from undercroft.rules.types import Behaviour, FreeRound, Mode
from undercroft.sim import partytable
from undercroft.sim.exact import delver_turn, exact, monster_attack, outcome_probabilities, regenerate
from undercroft.sim.partytable import full_behind
from undercroft.sim.spec import FightSpec, fight_spec
from undercroft.sim.vector import DieRoller, face_tables, pcg64_raw, simulate

FIGHTS = 4000  # fights simulated for a group not computed exactly, and for a party
TOLERANCE = 1e-12  # live probability mass at which the exact computation stops
CACHE_SIZE = 4096
GROUP_WORK = 2_000_000  # multiply-adds a round of a lone character's group may take to count as exact (see exactly)
MODES = frozenset({Mode.ENCOUNTER, Mode.COMBAT, Mode.CHASE})
PARTY = "party"  # Odds.character of the whole party's odds
_ALONE = partytable.TARGETING[0]  # (a lone character's tables: whom the creatures strike is never in question)


@dataclass(frozen=True, slots=True)
class Odds:
    """The odds of one fight, from now to its end."""

    win: float  # probability, 0..1
    death: float
    hp_lost_mean: float  # expected hit points ``character`` loses from now on
    rounds_mean: float  # expected rounds from now on
    method: str  # how the numbers were computed, in words
    character: str  # the party member whose fight this is (:data:`PARTY` for the whole party)
    exact: bool  # True: exact numbers; False: simulated (about +-1.5 points for win at 95%)


@dataclass(frozen=True, slots=True)
class Start:
    """A fight at some moment: the fight's numbers and where it stands.

    ``hps``: the living creatures' hit points in the order the party strikes them (weakest first);
    ``delver_next``: the party takes the next turn; ``phase``: the monsters' turn counter modulo acts_every;
    ``skip_next``: the monsters' next turn is lost (a free round for the party, or a monster that holds its ground
    before anyone has swung).
    """

    spec: FightSpec
    hps: tuple[int, ...]
    delver_next: bool
    phase: int = 0
    skip_next: bool = False

    @property
    def fresh(self) -> bool:
        """The fight as :func:`exact` and :func:`simulate` start it."""
        s = self.spec
        return (
            all(h == s.monster_hp for h in self.hps)
            and len(self.hps) == s.count
            and self.phase == 0
            and not self.skip_next
            and self.delver_next == s.delver_first
        )


@dataclass(frozen=True, slots=True)
class PartyStart:
    """A fight of several living characters at some moment: one :class:`FightSpec` per living character (in party
    order, each at its current hit points), the creatures' hit points in index order (0: dead), whose turn is
    next and the monsters' phase (as in :class:`Start`), and the data's ``combat.monster_targeting``."""

    specs: tuple[FightSpec, ...]
    hps: tuple[int, ...]
    delver_next: bool
    phase: int
    skip_next: bool
    targeting: str


# --- specs ---------------------------------------------------------------------------------------------------


def matchup_spec(
    content: Content,
    monster_id: str,
    *,
    count: int = 1,
    hp: int | None = None,
    exhausted: bool = False,
    ruleset: str = "undercroft",
) -> FightSpec:
    """The fight of ``ruleset``'s delver (its first party member, at ``hp``, default full) against ``count``
    ``monster_id`` under that ruleset (exhaustion counts only where it uses fatigue). Raises KeyError for an
    unknown ruleset or monster (with a suggestion) and ValueError for impossible numbers."""
    rs = content.ruleset(ruleset)
    ch = content.party[rs.party[0]]
    member = Member(
        rs.party[0],
        ch.name,
        ch.hp if hp is None else hp,
        ch.hp,
        ch.might,
        ch.agility,
        ch.defense,
        content.items[ch.weapon].damage,
        ch.negotiation,
        ch.speed,
        to_hit=content.items[ch.weapon].to_hit,
    )
    return _spec(
        content, member, monster_id, count, formulas.exhausted_counts(exhausted, rs.procedures.fatigue), ch.agility
    )


def _spec(content: Content, m: Member, monster_id: str, count: int, exhausted: bool, agility: int) -> FightSpec:
    """:func:`fight_spec` of a member."""
    return fight_spec(
        content,
        monster_id,
        hp=m.hp,
        max_hp=m.max_hp,
        might=m.might,
        weapon=m.weapon,
        to_hit=m.to_hit,
        defense=m.defense,
        agility=agility,
        exhausted=exhausted,
        count=count,
        character=m.template,
    )


# --- the game's state ----------------------------------------------------------------------------------------


def attack_target(group: Group) -> int:
    """The creature the odds assume the party strikes: the weakest living one (ties: the first). -1: none."""
    best = -1
    for i, h in enumerate(group.hp):
        if h > 0 and (best < 0 or h < group.hp[best]):
            best = i
    return best


def starts(content: Content, game: Game, group: Group | None = None) -> list[Start]:
    """The fight in progress (or about to start) as one :class:`Start` per living party member fighting alone
    (the creatures' living hit points sorted, weakest first); with ``group``, a fight with it begun now (as
    :func:`fight_odds`)."""
    return _starts(content, game, group)[0]


def party_start(content: Content, game: Game) -> PartyStart | None:
    """The fight in progress (or about to start) of the whole living party (None: no fight)."""
    return _starts(content, game)[1]


def _starts(
    content: Content, game: Game, group: Group | None = None, whole: bool = True
) -> tuple[list[Start], PartyStart | None]:
    """The fight in front of the party; with ``group``, a fight with that group begun now (while exploring: no
    surprise, no free round, the sides in the order of their AGILITY). Without ``whole``, a party of one living
    character has no :class:`PartyStart` (None): :func:`_deciding` reads its :class:`Start`."""
    st = game.state
    if group is None and st.mode not in MODES:
        return [], None
    g = st.front_group() if group is None else group
    if g is None or g.hidden:
        return [], None
    hps = tuple(sorted(h for h in g.hp if h > 0))
    living = [m for m in st.party if m.hp > 0]
    if not hps or not living:
        return [], None
    mon = content.monsters[g.monster]
    holds = Behaviour.HOLDS_GROUND in mon.behaviours
    exhausted = formulas.exhausted_counts(st.exhausted, game.proc.fatigue)
    agility = formulas.party_agility(m.agility for m in living)
    c = st.combat if group is None else None
    party_first = formulas.party_acts_first(agility, mon.agility, holds)
    if st.mode == Mode.COMBAT and c is not None:
        delver_next = c.party_turn
        turn = g.turns
        # the party's turn: a free round of its own is pending, and it is first in round 2 too (by AGILITY); the
        # monsters' turn: one holding its ground waits unless the party swung this round
        free_pending = c.free_round == FreeRound.PARTY and c.round == 1
        skip = (free_pending and party_first) if delver_next else formulas.holds_back(holds, c.party_attacked)
    else:  # the fight would start now (_start_combat): a pending surprise gives someone a free round
        enc = st.encounter if group is None else None
        free = (
            FreeRound.NONE
            if enc is None
            else formulas.free_round(enc.first_round, enc.party_surprised, enc.monster_surprised)
        )
        turn = 0
        if free != FreeRound.NONE:
            delver_next = free == FreeRound.PARTY
            # a free round of the party's, then round 2 by AGILITY; a monster holding its ground opens nothing
            skip = (free == FreeRound.PARTY and party_first) or holds
        else:
            delver_next = party_first
            skip = False
    out = []
    specs = []
    for m in living:
        spec = _spec(content, m, g.monster, len(hps), exhausted, agility)
        specs.append(spec)
        out.append(Start(spec, hps, delver_next, turn % mon.acts_every, skip))
    if not whole and len(out) == 1:
        return out, None
    party = PartyStart(
        tuple(specs),
        tuple(max(0, h) for h in g.hp),
        delver_next,
        turn % mon.acts_every,
        skip,
        content.rules.combat.monster_targeting,
    )
    return out, party


def fight_odds(content: Content, game: Game, group: Group | None = None) -> Odds | None:
    """The odds of the current fight (modes encounter, combat, pursuit; None in any other mode or without a
    group in front of the party); with ``group``, of a fight with it begun now (look, while exploring: the whole
    living party). Pure: reads the state, never the game's dice; cached by state."""
    start = _deciding(content, game, group)
    if start is None:
        return None
    if isinstance(start, PartyStart):
        return party_odds(start)
    odds = start_odds(start)
    if len(game.state.party) == 1:
        return odds
    name = next(m.name for m in game.state.party if m.template == odds.character)
    return replace(odds, method=f"{odds.method}; {name} alone: the only one of the party still standing")


def _deciding(content: Content, game: Game, group: Group | None = None) -> Start | PartyStart | None:
    """The fight the odds are of (:func:`_starts`): the one living character's alone, else the whole party's;
    None without a fight."""
    options, party = _starts(content, game, group, whole=False)
    if len(options) == 1:
        return options[0]
    return party if options else None


# --- computing ------------------------------------------------------------------------------------------------


def stream_seed(start: Start | PartyStart) -> int:
    """The dice seed of a simulated :class:`Start`: a stable hash of the state (never the game's streams)."""
    return int.from_bytes(hashlib.blake2b(repr(start).encode(), digest_size=8).digest(), "little")


def exactly(start: Start) -> bool:
    """Whether the odds of ``start`` are computed exactly: one creature, or a group whose creatures but the one
    struck are all at full (:func:`undercroft.sim.partytable.full_behind`) and small enough (:func:`_countable`);
    otherwise they are simulated."""
    return len(start.hps) == 1 or (full_behind(start.spec, start.hps) and _countable(start.spec, len(start.hps)))


def _countable(spec: FightSpec, count: int) -> bool:
    """Whether a group of ``count`` is small enough to compute exactly: ``acts_every`` times ``count`` times the
    delver's hit points times the creature's, times their sum, stays within :data:`GROUP_WORK`. The shipped data's
    groups take a few thousand; a crowd of a thousand hit points each would take hundreds of millions, and is
    simulated."""
    d, m = spec.delver_max_hp, spec.monster_hp
    return spec.acts_every * count * d * m * (d + m) <= GROUP_WORK


def party_exactly(start: PartyStart) -> bool:
    """Whether the odds of the whole party's fight ``start`` are computed exactly, from the tables of
    :mod:`undercroft.sim.partytable` (a party of two against a group struck one creature at a time); otherwise
    they are simulated."""
    return partytable.tabled(start.specs, start.hps, start.targeting)


@lru_cache(maxsize=CACHE_SIZE)
def start_odds(start: Start) -> Odds:
    """The odds of one character's fight ``start`` (cached)."""
    spec = start.spec
    if partytable.tabled((spec,), start.hps, _ALONE):  # (one table answers every state of the fight)
        numbers = partytable.party_numbers((spec,), start.hps, start.delver_next, start.phase, start.skip_next, _ALONE)
        return Odds(*numbers, "exact", spec.character, True)
    if start.fresh and exactly(start):
        e = exact(spec, groups=True)
        return Odds(e.win, e.death, e.hp_lost_mean, e.rounds_mean, "exact", spec.character, True)
    if start.fresh:
        r = simulate(spec, FIGHTS, stream_seed(start))
        return Odds(r.win, r.death, r.hp_lost_mean, r.rounds_mean, f"simulated, {FIGHTS} fights", spec.character, False)
    if exactly(start):
        return Odds(*exact_from(start), "exact", spec.character, True)
    numbers = simulate_from(start, FIGHTS, stream_seed(start))
    return Odds(*numbers, f"simulated, {FIGHTS} fights", spec.character, False)


@lru_cache(maxsize=CACHE_SIZE)
def party_odds(start: PartyStart) -> Odds:
    """The odds of the whole party's fight ``start`` (cached): exact from its tables where it has them
    (:func:`party_exactly`), else :func:`simulate_party`, dice seeded from the state."""
    whole = f"the whole party of {len(start.specs)}"
    if party_exactly(start):
        numbers = partytable.party_numbers(
            start.specs, start.hps, start.delver_next, start.phase, start.skip_next, start.targeting
        )
        return Odds(*numbers, f"exact; {whole}", PARTY, True)
    numbers = _party_simulated(start)[:4]
    return Odds(*numbers, f"simulated, {FIGHTS} fights; {whole}", PARTY, False)


def someone_falls(content: Content, game: Game, group: Group | None = None) -> float | None:
    """The chance that at least one of the party falls in the fight :func:`fight_odds` is of (the same fight, the
    same arguments), won or lost: the party's death for a lone character; for a party, from :func:`simulate_party`
    (the same fights as the party's simulated odds, and the same dice: a party whose odds are exact gets this
    number simulated, :data:`FIGHTS` fights). None without a fight."""
    start = _deciding(content, game, group)
    if start is None:
        return None
    if isinstance(start, Start):
        return start_odds(start).death
    return _party_simulated(start)[4]


@lru_cache(maxsize=CACHE_SIZE)
def _party_simulated(start: PartyStart) -> tuple[float, float, float, float, float]:
    """:func:`simulate_party`'s numbers and the chance someone falls for ``start``, :data:`FIGHTS` fights seeded
    from the state (cached)."""
    return _simulate_party(start, FIGHTS, stream_seed(start))


def clear_cache() -> None:
    """Forget every cached result."""
    start_odds.cache_clear()
    party_odds.cache_clear()
    _party_simulated.cache_clear()
    partytable.clear()


def _monster_acts(start: Start, r: int) -> bool:
    """Whether the monsters' r-th turn from now (0-based) is one in which they strike."""
    if r == 0 and start.skip_next:
        return False
    return formulas.monster_acts(start.phase + r, start.spec.acts_every)


def exact_from(start: Start, tolerance: float = TOLERANCE) -> tuple[float, float, float, float]:
    """(win, death, expected hp lost, expected rounds) of a :class:`Start` computed :func:`exactly` (one creature,
    or a group all at full but the one struck), exactly: the forward pass of :mod:`undercroft.sim.exact` from any
    state."""
    spec = start.spec
    if not exactly(start):
        raise ValueError("exact_from computes one creature, or a group all at full but the one struck")
    k = len(start.hps)
    d_full, m_full = spec.delver_hp, spec.monster_hp
    d_out, m_out = outcome_probabilities(spec)
    lost_if_alive = (d_full - np.arange(1, d_full + 1)).astype(np.float64)
    p = np.zeros((k, d_full, m_full))  # (the creature struck, of k: the ones after it at full)
    p[0, d_full - 1, min(start.hps[0], m_full) - 1] = 1.0
    win = death = lost = rounds = 0.0
    order = ("delver", "monsters") if start.delver_next else ("monsters", "delver")
    for r in range(spec.max_rounds):
        for side in order:
            if side == "delver":
                p, won = delver_turn(p, d_out, m_full)
                w = float(won.sum())
                win += w
                lost += float(won @ lost_if_alive)
                rounds += w * (r + 1)
            else:
                if _monster_acts(start, r):
                    for j in range(k):  # creature j strikes while it lives: the one struck is j or before it
                        sub, dead, _ = monster_attack(p[: j + 1], m_out)
                        p[: j + 1] = sub
                        death += dead
                        lost += dead * d_full
                        rounds += dead * (r + 1)
                if spec.regenerate:
                    p = regenerate(p, spec.regenerate)
        if float(p.sum()) < tolerance:
            break
    live = float(p.sum())
    lost += float(p.sum(axis=(0, 2)) @ lost_if_alive)
    rounds += live * spec.max_rounds
    return win, death, lost, rounds


def simulate_from(start: Start, fights: int, seed: int) -> tuple[float, float, float, float]:
    """(win, death, mean hp lost, mean rounds) of ``fights`` simulated fights from any :class:`Start`: one hit point
    array per creature, the creatures struck in order (the rules of :mod:`undercroft.sim.spec`)."""
    spec = start.spec
    k = len(start.hps)
    full = spec.monster_hp
    dice = DieRoller(pcg64_raw(seed), spec.attack_die)
    dtab, mtab, _ = face_tables(spec)
    hp = np.tile(np.array(start.hps, dtype=np.int32), (fights, 1))
    dhp = np.full(fights, spec.delver_hp, dtype=np.int32)
    tgt = np.zeros(fights, dtype=np.intp)
    wins = deaths = 0
    lost = rounds = 0
    order = ("delver", "monsters") if start.delver_next else ("monsters", "delver")
    for r in range(spec.max_rounds):
        for side in order:
            n = dhp.size
            nd = 0
            if side == "delver":
                hf = hp.reshape(-1)
                at = np.arange(0, n * k, k) + tgt
                left = hf.take(at) - dtab.take(dice.indices(n))
                hf[at] = left
                tgt += left <= 0
                done = tgt >= k
                nd = int(np.count_nonzero(done))
                if nd:
                    wins += nd
                    lost += int((spec.delver_hp - dhp[done]).sum())
                    rounds += nd * (r + 1)
            else:
                if _monster_acts(start, r):
                    for j in range(k):
                        dmg = mtab.take(dice.indices(n)) * ((tgt <= j) & (dhp > 0))
                        dhp -= dmg
                    done = dhp <= 0
                    nd = int(np.count_nonzero(done))
                    if nd:
                        deaths += nd
                        lost += spec.delver_hp * nd
                        rounds += nd * (r + 1)
                if spec.regenerate:
                    hp = np.where(hp > 0, np.minimum(hp + spec.regenerate, full), hp)
            if nd:  # drop the finished fights (flatnonzero + take: numpy's boolean indexing is slower)
                keep = np.flatnonzero(~done)
                hp, dhp, tgt = hp.take(keep, axis=0), dhp.take(keep), tgt.take(keep)
                if dhp.size == 0:
                    return wins / fights, deaths / fights, lost / fights, rounds / fights
    lost += int((spec.delver_hp - dhp).sum())
    rounds += int(dhp.size) * spec.max_rounds
    return wins / fights, deaths / fights, lost / fights, rounds / fights


_NONE = np.int32(1 << 26)  # above any hit points (the data's are at most 999), and times a row count an int32


def _first_least(a: NDArray[np.int32], idx: NDArray[np.int32]) -> NDArray[np.int32]:
    """Per column of ``a`` (rows: creatures or characters), the row of its least value above 0, ties the first
    (a column with none: row 0), as np.argmin(np.where(a > 0, a, big)) over the row axis gives it."""
    m = len(idx)
    key = np.where(a > 0, a, _NONE) * m + idx
    return key.min(axis=0) % m  # type: ignore[no-any-return]


@dataclass
class _Party:
    """The fights :func:`simulate_party` plays, laid out a creature (a character) a row and a fight a column:
    the creatures' hit points ``hp``, the characters' ``php``, and what the party's and the monsters' turns read."""

    start: PartyStart
    rng: np.random.Generator
    hp: NDArray[np.int32]
    php: NDArray[np.int32]
    fell: NDArray[np.bool_]  # per fight: someone of the party has fallen (at 0 hit points) in it

    @property
    def specs(self) -> tuple[FightSpec, ...]:
        return self.start.specs

    def party_turn(self, dtab: list[NDArray[np.int32]], kidx: NDArray[np.int32]) -> None:
        """Every living character in party order strikes the target, or the first living creature once it has
        fallen."""
        hp, php = self.hp, self.php
        n, n_members = hp.shape[1], len(self.specs)
        faces = self.rng.integers(0, self.specs[0].attack_die, size=(n, n_members))
        if len(hp) == 1:
            for j in range(n_members):
                hp[0] -= dtab[j].take(faces[:, j]) * (php[j] > 0)
        else:
            hf = hp.reshape(-1)
            rows = np.arange(n)
            tgt = _first_least(hp, kidx)
            for j in range(n_members):
                at = tgt * n + rows
                cur = hf.take(at)
                if j:
                    gone = np.flatnonzero(cur <= 0)
                    if gone.size:  # the target fell: the first living creature (none: row 0)
                        # (argmax of a bool column: its first True, or row 0 when there is none)
                        tgt[gone] = np.argmax(hp.take(gone, axis=1) > 0, axis=0)
                        at = tgt * n + rows
                        cur = hf.take(at)
                # (a blow at a creature already down, in a fight won in this turn, changes nothing: its hit points
                # are 0 again below)
                hf[at] = cur - dtab[j].take(faces[:, j]) * (php[j] > 0)
        np.maximum(hp, 0, out=hp)

    def monsters_turn(self, mflat: NDArray[np.int32], midx: NDArray[np.int32]) -> None:
        """Each living creature in index order strikes the character ``start.targeting`` picks."""
        hp, php = self.hp, self.php
        n, k, n_members = hp.shape[1], len(hp), len(self.specs)
        die, targeting = self.specs[0].attack_die, self.start.targeting
        pf = php.reshape(-1)
        rows = np.arange(n)
        faces = self.rng.integers(0, die, size=(n, k))
        pick = self.rng.random((n, k)) if targeting == "random" else None
        least = targeting == "lowest_hp" and n_members > 1
        if least:  # (_first_least's key, kept up to date blow by blow rather than made again)
            key = np.where(php > 0, php, _NONE) * n_members + midx
            kf = key.reshape(-1)
        for i in range(k):
            # (a blow at a character already down, in a fight lost in this turn, changes nothing: its hit points are
            # 0 again below)
            acting = hp[i] > 0
            if least:
                who = key.min(axis=0) % n_members
            elif pick is not None:
                who = _nth_standing(php, pick[:, i])
            elif targeting == "lowest_hp":
                who = np.zeros(n, dtype=np.int32)
            else:  # first
                who = np.argmax(php > 0, axis=0)
            at = who * n + rows
            left = pf.take(at) - mflat.take(who * die + faces[:, i]) * acting
            pf[at] = left
            if least:
                kf[at] = np.where(left > 0, left, _NONE) * n_members + who
        np.maximum(php, 0, out=php)
        self.fell |= ~php.all(axis=0)

    def keep(self, done: NDArray[np.bool_] | np.bool_) -> None:
        """Drop the finished fights (flatnonzero + take: numpy's boolean indexing is slower)."""
        keep = np.flatnonzero(~done)
        self.hp, self.php = self.hp.take(keep, axis=1), self.php.take(keep, axis=1)
        self.fell = self.fell.take(keep)


def _nth_standing(php: NDArray[np.int32], pick: NDArray[np.float64]) -> NDArray[np.intp]:
    """Per fight, the character a ``random`` creature strikes: the standing one that ``pick`` (0..1) falls on."""
    up = php > 0
    living = up.sum(axis=0)
    nth = np.minimum((pick * living).astype(np.int64), np.maximum(living - 1, 0))
    return np.argmax(np.cumsum(up, axis=0) > nth, axis=0)  # type: ignore[no-any-return]


def simulate_party(start: PartyStart, fights: int, seed: int) -> tuple[float, float, float, float]:
    """(win, death, mean hit points the party loses, mean rounds): :func:`_simulate_party`'s first four numbers."""
    return _simulate_party(start, fights, seed)[:4]


def _simulate_party(start: PartyStart, fights: int, seed: int) -> tuple[float, float, float, float, float]:
    """(win, death, mean hit points the party loses, mean rounds, the chance that someone of the party falls,
    whether the fight is won or lost) of ``fights`` simulated fights of the whole
    living party from :class:`PartyStart`, as :mod:`undercroft.rules.combat` fights them with the party always
    attacking the weakest living creature (:func:`attack_target`): in the party's turn every living character in
    party order strikes the target, or the first living creature once it has fallen; in the monsters' turn (when
    they act: :func:`formulas.monster_acts`, a lost free round) each living creature in index order strikes the
    character ``start.targeting`` picks (``lowest_hp``: ties the first; ``first``; ``random``), and the fight is
    lost when no one stands; regeneration ends every monsters' turn. Each face's damage is the character's
    :meth:`FightSpec.delver_outcomes` and :meth:`FightSpec.monster_outcomes` (:mod:`undercroft.rules.formulas`).
    Dice: a numpy stream of ``seed`` of its own, never the game's.

    Laid out a creature (a character) a row and a fight a column (:class:`_Party`), so that what is asked across
    creatures is a handful of whole-row operations (numpy reduces short rows slowly); finished fights are dropped
    with ``flatnonzero`` + ``take``. It draws the same dice in the same order as the code it replaced and gives the
    same numbers to the last bit (tests/test_odds_fast.py keeps that code and compares)."""
    specs = start.specs
    s0 = specs[0]
    n_members, k = len(specs), len(start.hps)
    tables = [face_tables(s) for s in specs]
    dtab = [np.ascontiguousarray(t[0]) for t in tables]
    mflat = np.concatenate([t[1] for t in tables])  # member * die + face - 1: damage a creature deals the member
    kidx = np.arange(k, dtype=np.int32)[:, None]
    midx = np.arange(n_members, dtype=np.int32)[:, None]
    fight = _Party(
        start,
        np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed))),
        np.repeat(np.array(start.hps, dtype=np.int32)[:, None], fights, axis=1),  # [creature, fight]
        np.repeat(np.array([s.delver_hp for s in specs], dtype=np.int32)[:, None], fights, axis=1),
        np.zeros(fights, dtype=np.bool_),
    )
    start_total = int(sum(s.delver_hp for s in specs))
    wins = deaths = fell = 0
    lost = rounds = 0
    for r in range(s0.max_rounds):
        for party in (True, False) if start.delver_next else (False, True):
            nd = 0
            if party:
                fight.party_turn(dtab, kidx)
                done = ~fight.hp.any(axis=0)
                nd = int(np.count_nonzero(done))
                wins += nd
                lost += start_total * nd - int(fight.php.sum(axis=0)[done].sum()) if nd else 0
            else:
                if _monster_acts_party(start, r):
                    fight.monsters_turn(mflat, midx)
                    done = ~fight.php.any(axis=0)
                    nd = int(np.count_nonzero(done))
                    deaths += nd
                    lost += start_total * nd
                if s0.regenerate:
                    fight.hp = np.where(fight.hp > 0, np.minimum(fight.hp + s0.regenerate, s0.monster_hp), fight.hp)
            if nd:
                rounds += nd * (r + 1)
                fell += int(np.count_nonzero(fight.fell & done))
                fight.keep(done)
                if fight.hp.shape[1] == 0:
                    return wins / fights, deaths / fights, lost / fights, rounds / fights, fell / fights
    lost += start_total * int(fight.hp.shape[1]) - int(fight.php.sum())
    rounds += int(fight.hp.shape[1]) * s0.max_rounds
    fell += int(np.count_nonzero(fight.fell))
    return wins / fights, deaths / fights, lost / fights, rounds / fights, fell / fights


def _monster_acts_party(start: PartyStart, r: int) -> bool:
    """Whether the monsters' r-th turn from now (0-based) is one in which they strike."""
    if r == 0 and start.skip_next:
        return False
    return formulas.monster_acts(start.phase + r, start.specs[0].acts_every)
