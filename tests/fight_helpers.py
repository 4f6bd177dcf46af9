"""Shared by the odds' tests: a fight's numbers enumerated state by state, written here from the rules (each blow's
every face, the creatures by index, the targeting as the engine picks), the reference the exact computations of
undercroft.sim.odds (one character) and undercroft.sim.partytable (a party) answer to."""

from __future__ import annotations

from collections import defaultdict

from undercroft.rules import formulas
from undercroft.sim.spec import FightSpec
from undercroft.sim.vector import face_tables

Numbers = tuple[float, float, float, float]
Party = tuple[int, ...]  # every character's hit points
Creatures = tuple[int, ...]  # every creature's hit points, in index order
States = dict[tuple[Party, Creatures], float]


def _party_turn(dealt: list[list[int]], party: Party, creatures: Creatures, p: float) -> dict[Creatures, float]:
    """The party's turn from one state of chance ``p``: the weakest living creature struck (ties the first), by each
    living character in turn, the first living creature once it falls; the creatures after it, by chance."""
    living = [i for i, h in enumerate(creatures) if h > 0]
    branches = {(creatures, min(living, key=lambda i: (creatures[i], i))): p}
    for j in (j for j in range(len(party)) if party[j] > 0):
        nxt: dict[tuple[Creatures, int], float] = defaultdict(float)
        for (cs, t), q in branches.items():
            if not any(cs):
                nxt[(cs, t)] += q
                continue
            if cs[t] <= 0:
                t = next(i for i, h in enumerate(cs) if h > 0)
            for damage in dealt[j]:
                hit = list(cs)
                hit[t] = max(0, hit[t] - damage)
                nxt[(tuple(hit), t)] += q / len(dealt[j])
        branches = nxt
    out: dict[Creatures, float] = defaultdict(float)
    for (cs, _), q in branches.items():
        out[cs] += q
    return out


def _whom(party: Party, targeting: str) -> list[tuple[int, float]]:
    """The characters a creature's blow falls on, with their chances."""
    up = [j for j, h in enumerate(party) if h > 0]
    if targeting == "lowest_hp":
        return [(min(up, key=lambda j: (party[j], j)), 1.0)]
    if targeting == "first":
        return [(up[0], 1.0)]
    return [(j, 1 / len(up)) for j in up]


def _monsters_turn(
    taken: list[list[int]], party: Party, creatures: Creatures, p: float, targeting: str
) -> dict[Party, float]:
    """The monsters' turn from one state of chance ``p``: each living creature strikes whom ``targeting`` picks."""
    parties = {party: p}
    for _ in (i for i, h in enumerate(creatures) if h > 0):
        struck: dict[Party, float] = defaultdict(float)
        for ps, q in parties.items():
            if not any(ps):
                struck[ps] += q
                continue
            for j, w in _whom(ps, targeting):
                for damage in taken[j]:
                    hit = list(ps)
                    hit[j] = max(0, hit[j] - damage)
                    struck[tuple(hit)] += q * w / len(taken[j])
        parties = struck
    return parties


def enumerate_fight(
    specs: tuple[FightSpec, ...],
    hps: tuple[int, ...],
    party_next: bool,
    phase: int,
    lost: bool,
    targeting: str,
    rounds: int = 200,
) -> Numbers:
    """(win, death, hit points lost, rounds) of the fight of the characters ``specs`` (each at its ``delver_hp``)
    against the creatures ``hps``, every state carried forward with its chance: the party's turn strikes the weakest
    living creature (ties the first), each living character in turn, the first living creature once it falls; the
    monsters' turn (when they act) has each living creature strike whom ``targeting`` picks; then the living
    regenerate. Stops when less than 1e-15 is left undecided."""
    dealt = [[int(x) for x in face_tables(s)[0]] for s in specs]
    taken = [[int(x) for x in face_tables(s)[1]] for s in specs]
    full, regenerate = specs[0].monster_hp, specs[0].regenerate
    total = sum(s.delver_hp for s in specs)
    states: States = {(tuple(s.delver_hp for s in specs), hps): 1.0}
    win = death = lost_hp = mean_rounds = 0.0
    for r in range(rounds):
        for side in ("party", "monsters") if party_next else ("monsters", "party"):
            after: States = defaultdict(float)
            for (party, creatures), p in states.items():
                if side == "party":
                    for cs, q in _party_turn(dealt, party, creatures, p).items():
                        if any(cs):
                            after[(party, cs)] += q
                        else:
                            win += q
                            lost_hp += q * (total - sum(party))
                            mean_rounds += q * (r + 1)
                    continue
                acts = not (r == 0 and lost) and formulas.monster_acts(phase + r, specs[0].acts_every)
                healed = tuple(min(full, h + regenerate) if h > 0 else h for h in creatures)
                for ps, q in (_monsters_turn(taken, party, creatures, p, targeting) if acts else {party: p}).items():
                    if any(ps):
                        after[(ps, healed)] += q
                    else:
                        death += q
                        lost_hp += q * total
                        mean_rounds += q * (r + 1)
            states = after
        if sum(states.values()) < 1e-15:
            break
    for (party, _), q in states.items():
        lost_hp += q * (total - sum(party))
        mean_rounds += q * rounds
    return win, death, lost_hp, mean_rounds
