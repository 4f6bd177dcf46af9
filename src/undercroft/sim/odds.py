"""The odds of the fight in front of the party, for the encounter and combat screens and the autoplay bot.

:func:`fight_odds` reads a game's state (never its random streams) and returns the chances of the fight with the
group met, from the current hit points on: win, death and the expected hit points lost, if the party attacks
until one side is down, always striking the weakest living creature (ties: the first; see
:func:`attack_target`). The numbers follow the rules of :mod:`undercroft.sim.spec`:

* one creature: exact, by dynamic programming (:func:`undercroft.sim.exact`, or the same computation started from
  a fight in progress: a wounded creature, the monsters' ``acts_every`` phase, a free round pending);
* a group: simulated, :data:`FIGHTS` fights (:func:`undercroft.sim.simulate` for a fresh group; the same rules
  from a fight in progress otherwise), with dice seeded from the state itself, so the same state always gives
  the same numbers and the game's own dice are never touched;
* a party of several living characters: the whole party, simulated (:func:`simulate_party`, :data:`FIGHTS`
  fights) as the engine fights (:mod:`undercroft.rules.combat`): every living character strikes the target each
  party turn (the first living creature once it falls), each creature strikes the character the data's
  ``combat.monster_targeting`` picks, with the per-face outcomes of :mod:`undercroft.rules.formulas` (through
  each character's :class:`FightSpec`); ``hp_lost_mean`` is then the whole party's.

Results are cached by the state they depend on (the fight's every number, the creatures' hit points, whose turn
is next): a repeated call costs a few microseconds, a new state about a millisecond (exact) or a few (groups).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from undercroft.content import Content
from undercroft.rules import formulas
from undercroft.rules.game import Game
from undercroft.rules.state import Group, Member
from undercroft.rules.types import Behaviour, FreeRound, Mode
from undercroft.sim.exact import delver_turn, exact, monster_attack, outcome_probabilities, regenerate
from undercroft.sim.spec import FightSpec, fight_spec
from undercroft.sim.vector import DieRoller, face_tables, pcg64_raw, simulate

FIGHTS = 4000  # fights simulated for a group
TOLERANCE = 1e-12  # live probability mass at which the exact computation stops
CACHE_SIZE = 4096
MODES = frozenset({Mode.ENCOUNTER, Mode.COMBAT, Mode.PURSUIT})
PARTY = "party"  # Odds.character of the whole party's odds


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
    member = Member(rs.party[0], ch.name, ch.hp if hp is None else hp, ch.hp, ch.might, ch.agility, ch.defense,
                    content.items[ch.weapon].damage, ch.negotiation, ch.speed)
    return _spec(content, member, monster_id, count,
                 formulas.exhausted_counts(exhausted, rs.procedures.fatigue), ch.agility)


def _spec(content: Content, m: Member, monster_id: str, count: int, exhausted: bool,
          agility: int) -> FightSpec:
    return fight_spec(
        content, monster_id, hp=m.hp, max_hp=m.max_hp, might=m.might, weapon=m.weapon, defense=m.defense,
        agility=agility, exhausted=exhausted, count=count, character=m.template,
    )


# --- the game's state ----------------------------------------------------------------------------------------


def attack_target(group: Group) -> int:
    """The creature the odds assume the party strikes: the weakest living one (ties: the first). -1: none."""
    best = -1
    for i, h in enumerate(group.hp):
        if h > 0 and (best < 0 or h < group.hp[best]):
            best = i
    return best


def starts(content: Content, game: Game) -> list[Start]:
    """The fight in progress (or about to start) as one :class:`Start` per living party member fighting alone
    (the creatures' living hit points sorted, weakest first)."""
    return _starts(content, game)[0]


def party_start(content: Content, game: Game) -> PartyStart | None:
    """The fight in progress (or about to start) of the whole living party (None: no fight)."""
    return _starts(content, game)[1]


def _starts(content: Content, game: Game, group: Group | None = None) -> tuple[list[Start], PartyStart | None]:
    """The fight in front of the party; with ``group``, a fight with that group begun now (while exploring: no
    surprise, no free round, the sides in the order of their AGILITY)."""
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
    if st.mode == Mode.COMBAT and c is not None:
        delver_next = c.party_turn
        turn = g.turns
        # the party's turn: a free round of its own is pending; the monsters' turn: one holding its ground
        # waits unless the party swung this round
        skip = (c.free_round == FreeRound.PARTY and c.round == 1) if delver_next else (holds and not c.party_attacked)
    else:  # the fight would start now (_start_combat): a pending surprise gives someone a free round
        enc = st.encounter if group is None else None
        free = (FreeRound.NONE if enc is None
                else formulas.free_round(enc.first_round, enc.party_surprised, enc.monster_surprised))
        turn = 0
        if free != FreeRound.NONE:
            delver_next = free == FreeRound.PARTY
            skip = free == FreeRound.PARTY or holds  # a monster holding its ground does not open the fight
        else:
            delver_next = formulas.party_acts_first(agility, mon.agility, holds)
            skip = False
    out = []
    specs = []
    for m in living:
        spec = _spec(content, m, g.monster, len(hps), exhausted, agility)
        specs.append(spec)
        out.append(Start(spec, hps, delver_next, turn % mon.acts_every, skip))
    party = PartyStart(tuple(specs), tuple(max(0, h) for h in g.hp), delver_next, turn % mon.acts_every, skip,
                       content.rules.combat.monster_targeting)
    return out, party


def fight_odds(content: Content, game: Game, group: Group | None = None) -> Odds | None:
    """The odds of the current fight (modes encounter, combat, pursuit; None in any other mode or without a
    group in front of the party); with ``group``, of a fight with it begun now (look, while exploring: the whole
    living party). Pure: reads the state, never the game's dice; cached by state."""
    options, party = _starts(content, game, group)
    if not options or party is None:
        return None
    if len(options) == 1:
        odds = start_odds(options[0])
        if len(game.state.party) == 1:
            return odds
        name = next(m.name for m in game.state.party if m.template == odds.character)
        return replace(odds, method=f"{odds.method}; {name} alone: the only one of the party still standing")
    return party_odds(party)


# --- computing ------------------------------------------------------------------------------------------------


def stream_seed(start: Start | PartyStart) -> int:
    """The dice seed of a simulated :class:`Start`: a stable hash of the state (never the game's streams)."""
    return int.from_bytes(hashlib.blake2b(repr(start).encode(), digest_size=8).digest(), "little")


@lru_cache(maxsize=CACHE_SIZE)
def start_odds(start: Start) -> Odds:
    """The odds of ``start`` (cached)."""
    spec = start.spec
    n = len(start.hps)
    if n == 1:
        if start.fresh:
            e = exact(spec)
            return Odds(e.win, e.death, e.hp_lost_mean, e.rounds_mean, "exact", spec.character, True)
        win, death, lost, rounds = exact_from(start)
        return Odds(win, death, lost, rounds, "exact", spec.character, True)
    seed = stream_seed(start)
    if start.fresh:
        r = simulate(spec, FIGHTS, seed)
        win, death, lost, rounds = r.win, r.death, r.hp_lost_mean, r.rounds_mean
    else:
        win, death, lost, rounds = simulate_from(start, FIGHTS, seed)
    return Odds(win, death, lost, rounds, f"simulated, {FIGHTS} fights", spec.character, False)


def clear_cache() -> None:
    """Forget every cached result."""
    start_odds.cache_clear()
    party_odds.cache_clear()


@lru_cache(maxsize=CACHE_SIZE)
def party_odds(start: PartyStart) -> Odds:
    """The odds of the whole party's fight ``start`` (cached): :func:`simulate_party`, dice seeded from the state."""
    win, death, lost, rounds = simulate_party(start, FIGHTS, stream_seed(start))
    return Odds(win, death, lost, rounds, f"simulated, {FIGHTS} fights; the whole party of {len(start.specs)}",
                PARTY, False)


def _monster_acts(start: Start, r: int) -> bool:
    """Whether the monsters' r-th turn from now (0-based) is one in which they strike."""
    if r == 0 and start.skip_next:
        return False
    return formulas.monster_acts(start.phase + r, start.spec.acts_every)


def exact_from(start: Start, tolerance: float = TOLERANCE) -> tuple[float, float, float, float]:
    """(win, death, expected hp lost, expected rounds) of a one-creature :class:`Start`, exactly (the forward
    pass of :mod:`undercroft.sim.exact` from any state)."""
    spec = start.spec
    if len(start.hps) != 1:
        raise ValueError("exact_from computes one creature")
    d_full, m_full = spec.delver_hp, spec.monster_hp
    d_out, m_out = outcome_probabilities(spec)
    lost_if_alive = (d_full - np.arange(1, d_full + 1)).astype(np.float64)
    p = np.zeros((1, d_full, m_full))
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
                    p, dead, _ = monster_attack(p, m_out)
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
            if side == "delver":
                rows = np.arange(dhp.size)
                hp[rows, tgt] -= dtab[dice.indices(dhp.size)]
                tgt += hp[rows, tgt] <= 0
                done = tgt >= k
                if done.any():
                    wins += int(done.sum())
                    lost += int((spec.delver_hp - dhp[done]).sum())
                    rounds += int(done.sum()) * (r + 1)
            else:
                done = np.zeros(dhp.size, dtype=bool)
                if _monster_acts(start, r):
                    for j in range(k):
                        dmg = mtab[dice.indices(dhp.size)] * ((tgt <= j) & (dhp > 0))
                        dhp -= dmg
                    done = dhp <= 0
                    if done.any():
                        deaths += int(done.sum())
                        lost += spec.delver_hp * int(done.sum())
                        rounds += int(done.sum()) * (r + 1)
                if spec.regenerate:
                    hp = np.where(hp > 0, np.minimum(hp + spec.regenerate, full), hp)
            if done.any():
                keep = ~done
                hp, dhp, tgt = hp[keep], dhp[keep], tgt[keep]
                if dhp.size == 0:
                    return wins / fights, deaths / fights, lost / fights, rounds / fights
    lost += int((spec.delver_hp - dhp).sum())
    rounds += int(dhp.size) * spec.max_rounds
    return wins / fights, deaths / fights, lost / fights, rounds / fights


def simulate_party(start: PartyStart, fights: int, seed: int) -> tuple[float, float, float, float]:
    """(win, death, mean hit points the party loses, mean rounds) of ``fights`` simulated fights of the whole
    living party from :class:`PartyStart`, as :mod:`undercroft.rules.combat` fights them with the party always
    attacking the weakest living creature (:func:`attack_target`): in the party's turn every living character in
    party order strikes the target, or the first living creature once it has fallen; in the monsters' turn (when
    they act: :func:`formulas.monster_acts`, a lost free round) each living creature in index order strikes the
    character ``start.targeting`` picks (``lowest_hp``: ties the first; ``first``; ``random``), and the fight is
    lost when no one stands; regeneration ends every monsters' turn. Each face's damage is the character's
    :meth:`FightSpec.delver_outcomes` and :meth:`FightSpec.monster_outcomes` (:mod:`undercroft.rules.formulas`).
    Dice: a numpy stream of ``seed`` of its own, never the game's."""
    specs = start.specs
    s0 = specs[0]
    n_members, k = len(specs), len(start.hps)
    full = s0.monster_hp
    rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence(seed)))
    die = s0.attack_die
    dtab = np.stack([face_tables(s)[0] for s in specs])  # [member, face-1]: damage to a creature
    mtab = np.stack([face_tables(s)[1] for s in specs])  # [member, face-1]: damage a creature deals the member
    hp = np.tile(np.array(start.hps, dtype=np.int32), (fights, 1))
    php = np.tile(np.array([s.delver_hp for s in specs], dtype=np.int32), (fights, 1))
    start_total = int(sum(s.delver_hp for s in specs))
    big = np.int32(np.iinfo(np.int32).max)
    wins = deaths = 0
    lost = rounds = 0
    order = ("party", "monsters") if start.delver_next else ("monsters", "party")
    for r in range(s0.max_rounds):
        for side in order:
            n = hp.shape[0]
            rows = np.arange(n)
            if side == "party":
                tgt = np.argmin(np.where(hp > 0, hp, big), axis=1)  # attack_target: the weakest, ties the first
                faces = rng.integers(0, die, size=(n, n_members))
                for j in range(n_members):
                    up = hp > 0
                    standing = up.any(axis=1) & (php[:, j] > 0)
                    tgt = np.where(up[rows, tgt], tgt, np.argmax(up, axis=1))  # the first living one
                    hp[rows, tgt] -= dtab[j, faces[:, j]] * standing
                np.maximum(hp, 0, out=hp)
                done = ~(hp > 0).any(axis=1)
                if done.any():
                    wins += int(done.sum())
                    lost += start_total * int(done.sum()) - int(php[done].sum())
                    rounds += int(done.sum()) * (r + 1)
            else:
                done = np.zeros(n, dtype=bool)
                if _monster_acts_party(start, r):
                    faces = rng.integers(0, die, size=(n, k))
                    pick = rng.random((n, k)) if start.targeting == "random" else None
                    for i in range(k):
                        up = php > 0
                        acting = (hp[:, i] > 0) & up.any(axis=1)
                        if start.targeting == "lowest_hp":
                            who = np.argmin(np.where(up, php, big), axis=1)
                        elif start.targeting == "first":
                            who = np.argmax(up, axis=1)
                        else:
                            assert pick is not None
                            living = up.sum(axis=1)
                            nth = np.minimum((pick[:, i] * living).astype(np.int64), np.maximum(living - 1, 0))
                            who = np.argmax(np.cumsum(up, axis=1) > nth[:, None], axis=1)
                        php[rows, who] -= mtab[who, faces[:, i]] * acting
                    np.maximum(php, 0, out=php)
                    done = ~(php > 0).any(axis=1)
                    if done.any():
                        deaths += int(done.sum())
                        lost += start_total * int(done.sum())
                        rounds += int(done.sum()) * (r + 1)
                if s0.regenerate:
                    hp = np.where(hp > 0, np.minimum(hp + s0.regenerate, full), hp)
            if done.any():
                keep = ~done
                hp, php = hp[keep], php[keep]
                if hp.shape[0] == 0:
                    return wins / fights, deaths / fights, lost / fights, rounds / fights
    lost += start_total * int(hp.shape[0]) - int(php.sum())
    rounds += int(hp.shape[0]) * s0.max_rounds
    return wins / fights, deaths / fights, lost / fights, rounds / fights


def _monster_acts_party(start: PartyStart, r: int) -> bool:
    """Whether the monsters' r-th turn from now (0-based) is one in which they strike."""
    if r == 0 and start.skip_next:
        return False
    return formulas.monster_acts(start.phase + r, start.specs[0].acts_every)
