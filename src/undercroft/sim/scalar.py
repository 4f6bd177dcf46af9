"""The same fights through the real rules engine, one :meth:`Game.step` at a time.

:func:`run_scalar` plays ``fights`` fights of a :class:`~undercroft.sim.spec.FightSpec`-like matchup (a party
character of a ruleset, at some hit points, perhaps exhausted, against K of one monster) in one
:class:`~undercroft.rules.game.Game`: it puts a group of K monsters in front of a lone party member and hands over to
:func:`play_out`, which takes the ``fight`` action (the engine's own initiative, surprise, behaviours, fatigue and
regeneration apply) and then ``attack``\\ s the weakest living creature (ties: the first; with fresh creatures that
is the spec's "first living one") until the fight is won or lost, putting the state back before every fight.
:func:`play_out` also plays on from any state of a game (a fight in progress), which is how the in-game odds
(:mod:`undercroft.sim.odds`) are checked.

It is the slow, literal reference that the vectorized simulator (:mod:`undercroft.sim.vector`) and the exact
calculator (:mod:`undercroft.sim.exact`) are checked against (tests/test_three_way.py, tests/test_odds.py) and timed
against (``undercroft bench --only sim_speedup_vs_scalar``). Its dice are a stream of its own
(``Stream(seed, "scalar")``), never the game's. Rounds are counted as the spec counts them (a round is the first
side's turn and then the other side's; ``rounds`` is the number of rounds begun), from the turns taken.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from undercroft.content import Content
from undercroft.rules import events as ev
from undercroft.rules.actions import Action, Attack, Fight
from undercroft.rules.events import Event
from undercroft.rules.game import Game
from undercroft.rules.rng import Stream
from undercroft.rules.types import Mode, Side
from undercroft.sim.odds import attack_target
from undercroft.sim.spec import MAX_ROUNDS
from undercroft.sim.vector import mean_ci


@dataclass(frozen=True)
class ScalarResult:
    """Per-fight outcomes of :func:`run_scalar` and their summaries (95% intervals as in :mod:`vector`)."""

    outcomes: tuple[str, ...]  # "win", "death" or "stalemate", one per fight
    rounds: tuple[int, ...]
    hp_lost: tuple[int, ...]
    monster_hits: tuple[int, ...]
    natural_kills: tuple[tuple[int, ...], ...]  # per fight: the natural faces of the blows that killed a creature

    @property
    def fights(self) -> int:
        return len(self.outcomes)

    def share(self, outcome: str) -> float:
        return self.outcomes.count(outcome) / self.fights

    @property
    def win(self) -> float:
        return self.share("win")

    @property
    def death(self) -> float:
        return self.share("death")

    @staticmethod
    def _mean(values: Sequence[int]) -> tuple[float, tuple[float, float]]:
        a = np.asarray(values, dtype=np.int64)
        return mean_ci(int(a.sum()), int((a * a).sum()), int(a.size))

    @property
    def rounds_mean(self) -> float:
        return self._mean(self.rounds)[0]

    @property
    def rounds_mean_ci(self) -> tuple[float, float]:
        return self._mean(self.rounds)[1]

    @property
    def hp_lost_mean(self) -> float:
        return self._mean(self.hp_lost)[0]

    @property
    def hp_lost_mean_ci(self) -> tuple[float, float]:
        return self._mean(self.hp_lost)[1]

    def standard_error(self, name: str) -> float:
        """The standard error of the mean of ``rounds``, ``hp_lost`` or ``monster_hits``."""
        a: NDArray[np.float64] = np.asarray(getattr(self, name), dtype=np.float64)
        return float(a.std(ddof=1) / math.sqrt(a.size)) if a.size > 1 else math.inf


def run_scalar(
    content: Content,
    monster_id: str,
    fights: int,
    seed: int = 1,
    *,
    count: int = 1,
    hp: int | None = None,
    exhausted: bool = False,
    ruleset: str = "undercroft",
    character: str | None = None,
    monster_hps: Sequence[int] | None = None,
    max_rounds: int = MAX_ROUNDS,
) -> ScalarResult:
    """Play ``fights`` fights of ``character`` (default: the ruleset's first party member) at ``hp`` (default
    full) against ``count`` ``monster_id`` (at ``monster_hps``, default full) through :meth:`Game.step`.
    ``exhausted`` sets the party's exhaustion (it only matters where the ruleset uses fatigue, as in play)."""
    if count < 1:
        raise ValueError(f"count must be at least 1, not {count}")
    content.monster(monster_id)  # an unknown monster is a KeyError with a suggestion
    game = Game(content, ruleset, seed)
    st = game.state
    member = game.new_member(character if character is not None else game.rs.party[0])
    if hp is not None:
        if not 1 <= hp <= member.max_hp:
            raise ValueError(f"hp must be 1..{member.max_hp}, not {hp}")
        member.hp = hp
    st.party = [member]
    st.exhausted = exhausted
    g = game.add_group(monster_id, count, hp=monster_hps)
    game.start_encounter(g, meeting=False)  # met already: no surprise, no free round
    return play_out(game, fights, seed, max_rounds=max_rounds)


def play_out(game: Game, fights: int, seed: int = 1, *, max_rounds: int = MAX_ROUNDS) -> ScalarResult:
    """Play the fight in front of the party ``fights`` times from the game's current state, through
    :meth:`Game.step`: ``fight`` (in an encounter or a pursuit), then ``attack`` the weakest living creature
    (ties: the first; the policy :mod:`undercroft.sim.odds` assumes) until one side is down. The dice come from
    a stream of ``seed`` of this helper's own (``Stream(seed, "scalar")``), never the game's; the game is put
    back as it was (:meth:`Game.snapshot`, :meth:`Game.restore`) before each fight and at the end."""
    if fights < 1:
        raise ValueError(f"fights must be at least 1, not {fights}")
    if game.state.front_group() is None:
        raise ValueError(f"no fight in front of the party (mode {game.state.mode})")
    snap = game.snapshot()
    start_hp = sum(m.hp for m in game.state.party)
    outcomes: list[str] = []
    rounds_out: list[int] = []
    lost_out: list[int] = []
    hits_out: list[int] = []
    kills_out: list[tuple[int, ...]] = []
    try:
        with game.forced_dice(Stream(seed, "scalar")):
            for _ in range(fights):
                game.restore(snap)
                st = game.state
                g = st.front_group()
                assert g is not None
                events: list[Event] = []
                swings = monster_turns = 0
                if st.mode in (Mode.ENCOUNTER, Mode.CHASE):
                    events = _step(game, Fight())
                    first = next(e.first for e in events if isinstance(e, ev.Combat))
                    monster_turns = 0 if first == Side.PARTY else 1
                elif st.combat is not None and not st.combat.party_turn:
                    raise ValueError("play_out starts a fight in combat only on the party's turn")
                while st.mode == Mode.COMBAT and swings < max_rounds:
                    more = _step(game, Attack(attack_target(g)))
                    swings += 1
                    if st.mode in (Mode.COMBAT, Mode.DEAD):
                        monster_turns += 1  # the monsters' turn began (a won fight ends on the swing)
                    events.extend(more)
                hits = 0
                kills: list[int] = []
                for e in events:
                    if isinstance(e, ev.MonsterAttack) and e.hit:
                        hits += 1
                    elif isinstance(e, ev.PartyAttack) and e.hit and e.target_hp_after == 0:
                        kills.append(e.natural)
                outcomes.append("death" if st.mode == Mode.DEAD else "stalemate" if st.mode == Mode.COMBAT else "win")
                rounds_out.append(min(max_rounds, math.ceil((swings + monster_turns) / 2)))
                lost_out.append(start_hp - sum(max(0, m.hp) for m in st.party))
                hits_out.append(hits)
                kills_out.append(tuple(kills))
    finally:
        game.restore(snap)
    return ScalarResult(tuple(outcomes), tuple(rounds_out), tuple(lost_out), tuple(hits_out), tuple(kills_out))


def _step(game: Game, action: Action) -> list[Event]:
    events = game.step(action)
    if events and isinstance(events[0], ev.Refused):
        raise RuntimeError(f"the engine refused {action.type}: {events[0].why.code}")
    return events
