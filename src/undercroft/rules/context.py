"""The engine's plumbing, shared by every rules module: the state, the data, the dice, and the small queries
every procedure asks (who is alive, which groups stand in a segment, what the party carries).

:class:`Ctx` holds no rule of its own. :class:`undercroft.rules.game.Game` is a ``Ctx`` plus dispatch; each rules
module (:mod:`~undercroft.rules.explore`, :mod:`~undercroft.rules.encounter`, ...) is a set of functions of a
``Ctx``. Dice come from the named streams of the game seed, per purpose and per level, or from one injected source
(scripted dice in tests, a simulator's own stream).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Unpack

import numpy as np

from undercroft.content import Content
from undercroft.content.schema import Monster
from undercroft.rules import events as ev
from undercroft.rules import formulas, sight
from undercroft.rules.dice import Dice, DiceSource, Roll, roll
from undercroft.rules.events import Event
from undercroft.rules.rng import ENCOUNTER, Streams
from undercroft.rules.state import GameState, Group, Member
from undercroft.rules.types import Behaviour

SETUP = "setup"


def init_behaviour(g: Group, mon: Monster) -> None:
    """A group's standing when first placed (or met again): a kneeler kneels until the party is inside."""
    if Behaviour.KNEELS in mon.behaviours:
        g.risen = False


class Ctx:
    """The state of one game with its data and dice (see the module docstring)."""

    state: GameState

    def __init__(self, content: Content, ruleset: str, seed: int | str, dice: DiceSource | None) -> None:
        self.content = content
        self.ruleset_id = ruleset
        self.rs = content.ruleset(ruleset)
        self.proc = self.rs.procedures
        self.rules = content.rules
        self.streams = Streams(seed)
        self.dice_override: DiceSource | None = dice
        # how far the party sees on each level (read on every step)
        self._fov_radii = tuple(content.dungeon[lv.mapgen].fov_radius for lv in self.rs.levels)
        # effect -> the tools that give it, best first, and the potions that give it (:meth:`effect_bonus`)
        self._tools: dict[str, tuple[tuple[str, int], ...]] = {}
        self._potions: dict[str, dict[str, int]] = {}
        for iid in sorted(content.items):
            it = content.items[iid]
            if it.kind == "tool" and it.effect:
                self._tools[it.effect] = (*self._tools.get(it.effect, ()), (iid, it.bonus))
            if it.effect:
                self._potions.setdefault(it.effect, {})[iid] = it.bonus
        for eff, tools in self._tools.items():
            self._tools[eff] = tuple(sorted(tools, key=lambda t: -t[1]))
        # walking steps between two tiles of a level, (depth, a, b) -> steps: the maps never change, so a pure
        # function's memo (:func:`undercroft.rules.approach.steps_between`); not part of the state
        self.walk_cache: dict[tuple[int, tuple[int, int], tuple[int, int]], int] = {}
        self._sight_memo: tuple[tuple[int, tuple[int, int], int], tuple[int, int, np.ndarray]] | None = None
        # the last ways out asked for and what they depend on (:func:`undercroft.rules.ways_out.exits`)
        self.exits_memo: tuple[tuple[object, ...], tuple[Any, ...]] | None = None

    # --- dice -------------------------------------------------------------------------------------------------

    def dice(self, name: str) -> DiceSource:
        """The dice for one purpose: the injected source if any, else the named stream of the current level."""
        if self.dice_override is not None:
            return self.dice_override
        depth = self.state.depth if hasattr(self, "state") else 0
        return self.streams.get(name, depth)

    def roll(
        self,
        events: list[Event],
        purpose: str,
        dice: Dice | str,
        stream: str,
        *,
        modifier: int = 0,
        target: Any = None,
        result: Callable[[int], str] | None = None,
        **extra: Unpack[ev.RollAbout],
    ) -> tuple[int, str]:
        """Roll ``dice`` on ``stream`` for ``purpose``; record a ``roll`` event; return (total, result)."""
        r: Roll = roll(self.dice(stream), dice)
        total = r.total + modifier
        res = result(total) if result else ""
        events.append(
            ev.Roll(
                purpose=purpose,
                dice=r.dice,
                faces=list(r.faces),
                modifier=r.modifier + modifier,
                multiplier=r.multiplier,
                total=total,
                target=target,
                result=res,
                **extra,
            )
        )
        return total, res

    def percent(
        self, events: list[Event], purpose: str, chance: int, stream: str = ENCOUNTER, **extra: Unpack[ev.RollAbout]
    ) -> bool:
        """A percentile check (:func:`formulas.percent`); a certain outcome rolls no die."""
        if not formulas.percent_needs_die(chance):
            ok = formulas.percent(None, chance)
            events.append(
                ev.Roll(
                    purpose=purpose,
                    dice="",
                    faces=[],
                    modifier=0,
                    multiplier=1,
                    total=None,
                    target=chance,
                    result="yes" if ok else "no",
                    **extra,
                )
            )
            return ok
        _, res = self.roll(
            events,
            purpose,
            "1d100",
            stream,
            target=chance,
            result=lambda t: "yes" if formulas.percent(t, chance) else "no",
            **extra,
        )
        return res == "yes"

    # --- time and sight ---------------------------------------------------------------------------------------

    def tick(self, rounds: int) -> None:
        """Let ``rounds`` rounds of 10 seconds pass."""
        self.state.rounds += rounds

    def fov_radius(self) -> int:
        """How far the party sees on its level: the level's map profile's, and farther by a lantern or a potion of
        sight (:meth:`effect_bonus`)."""
        return self._fov_radii[self.state.depth] + self.effect_bonus("sight")

    def effect_bonus(self, effect: str) -> int:
        """Ours: an ``effect``'s bonus now (:mod:`undercroft.rules.items`): the potions' in force plus the best
        tool carried."""
        st = self.state
        carried = st.items
        # the best tool carried: the first of them, best first, that the party has
        tool = 0
        for iid, bonus in self._tools.get(effect, ()):
            if iid in carried:
                tool = bonus
                break
        if not st.effects:
            return tool
        given = self._potions.get(effect, {})
        return tool + sum(given.get(p, 0) for p in st.effects)

    def see(self) -> None:
        """Mark what the party sees from where it stands as explored."""
        st = self.state
        st.levels[st.depth].look(st.pos, self.fov_radius())

    def sight(self) -> tuple[int, int, np.ndarray]:
        """The party's field of view as :func:`sight.fov_window` gives it ``(y0, x0, seen)``; the last one is
        kept (a pure function of the level and the tile: the maps never change)."""
        st = self.state
        radius = self.fov_radius()
        key = (st.depth, st.pos, radius)
        if self._sight_memo is None or self._sight_memo[0] != key:
            lv = st.levels[st.depth]
            self._sight_memo = (key, sight.fov_window(lv.map, st.pos[0], st.pos[1], radius))
        return self._sight_memo[1]

    def visible(self) -> np.ndarray:
        """The tiles the party sees now (bool, height x width)."""
        st = self.state
        return sight.compute_fov(st.level.map, st.pos[0], st.pos[1], self.fov_radius())

    # --- queries ----------------------------------------------------------------------------------------------

    def new_member(self, template: str) -> Member:
        """A party member fresh from the data (full HP, the starting weapon)."""
        c = self.content.party[template]
        w = self.content.items[c.weapon]
        stats = (c.hp, c.hp, c.might, c.agility, c.defense, w.damage, c.negotiation, c.speed, w.to_hit)
        return Member(template, c.name, *stats, wielded=c.weapon)

    def monster_of(self, g: Group) -> Monster:
        return self.content.monsters[g.monster]

    def living(self) -> list[Member]:
        return [m for m in self.state.party if m.alive]

    def tired(self) -> bool:
        """Whether exhaustion weighs on the party now (only where the ruleset uses fatigue)."""
        return formulas.exhausted_counts(self.state.exhausted, self.proc.fatigue)

    def party_speed(self) -> int:
        return formulas.party_speed(m.speed for m in self.living())

    def groups_in(self, seg: int) -> list[Group]:
        """The groups standing in segment ``seg`` that the party may come upon: not one that has just gone its way
        (it is leaving), nor one come upon out of sight and not seen yet (it is met when seen), nor a hireling."""
        fled = self.state.fled
        return [
            g
            for g in self.state.level.groups
            if g.segment == seg and not g.defeated and g.id != fled and not g.unseen and not g.hired
        ]

    def hirelings(self) -> list[Group]:
        """Ours: the hirelings with the party on its level (:mod:`~undercroft.rules.agreements`)."""
        return [g for g in self.state.level.groups if g.hired and not g.defeated]

    def group_at(self, pos: tuple[int, int]) -> Group | None:
        fled = self.state.fled
        for g in self.state.level.groups:
            if g.pos == pos and not g.defeated and not g.hidden and g.id != fled and not g.hired:
                return g
        return None

    def here(self) -> list[Group]:
        """The groups the party can see in its segment: those it may attack (``Fight``, exploring)."""
        return [g for g in self.groups_in(self.state.segment) if not g.hidden]

    def nearest_here(self) -> Group | None:
        """The nearest monster the party can see in its segment (ties: the lower id)."""
        st = self.state
        here = self.here()
        if not here:
            return None
        return min(here, key=lambda gg: (max(abs(gg.pos[0] - st.pos[0]), abs(gg.pos[1] - st.pos[1])), gg.id))

    def current_group(self) -> Group:
        """The group in front of the party (a handler of a mode that has one)."""
        g = self.state.front_group()
        assert g is not None
        return g

    def item_of(self, kind: str) -> str | None:
        """The first item of ``kind`` the party carries (by id), or None."""
        st = self.state
        return next((i for i in sorted(st.items) if st.items[i] > 0 and self.content.items[i].kind == kind), None)

    def take_item(self, item: str) -> None:
        """Use up one of ``item``."""
        st = self.state
        st.items[item] -= 1
        if st.items[item] == 0:
            del st.items[item]

    def negotiable(self, g: Group) -> bool:
        """Whether the party may talk to (and bribe) ``g``: the ruleset's list where it has one, else the data."""
        if self.rs.unnegotiable is not None:
            return g.monster not in self.rs.unnegotiable
        return self.monster_of(g).negotiable

    def way_out(self) -> tuple[int, int]:
        """The door the party came in by: where it entered this segment from (not merely its last step, which may
        lie inside the room when a wanderer arrives while it rests); its last step where there is no such tile."""
        st = self.state
        came_from = st.segment_entry
        outside = st.level.map.segment_rows[came_from[1]][came_from[0]] != st.segment
        return came_from if outside else st.prev_pos
