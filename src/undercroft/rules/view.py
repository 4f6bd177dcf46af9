"""One player's view of the level: what a player at the screen knows of it, and all the bots may know.

The screens draw the explored map (:attr:`~undercroft.rules.state.LevelState.explored`) and what is in sight now,
the stairs and the items once seen on it, and the creatures of the groups the party knows of (``Group.known``: not
lying submerged, not met out of sight and not seen yet); the panels, the group in front of the party and its odds
(:mod:`undercroft.sim.odds`, the same functions for the panels and the bots). A player remembers what it saw:
:class:`View` is that memory of the party's level, read from the state when asked (nothing copied, nothing kept,
nothing changed). It is the one object both sides read: the map (:func:`undercroft.ui.render.draw_map`), the look
cursor and the overview draw from it, and the bots (:mod:`undercroft.bot`) and auto-explore
(:mod:`undercroft.travel`) plan with it, so they know what the screens have shown and no more: not the floor beyond
the explored map, not a guardian waiting in a room never seen, not a monster lying submerged.

Tiles as bit sets are laid out as :func:`undercroft.rules.floods.bits_of` lays them (bit ``y * (w + 1) + x``).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np

from undercroft.rules.floods import spread
from undercroft.rules.levelmap import Point
from undercroft.rules.state import Group, LevelState
from undercroft.rules.types import Mode

if TYPE_CHECKING:
    from undercroft.rules.game import Game


@functools.lru_cache(maxsize=8)
def _board(w: int, h: int) -> int:
    """Every tile of a ``w`` x ``h`` map as bits (the padding column left out)."""
    row = (1 << w) - 1
    out = 0
    for y in range(h):
        out |= row << (y * (w + 1))
    return out


class View:
    """What the player knows of the party's level (see the module docstring)."""

    __slots__ = ("game",)

    def __init__(self, game: Game) -> None:
        self.game = game

    @property
    def level(self) -> LevelState:
        return self.game.state.level

    def explored(self) -> np.ndarray:
        """bool (h, w): the tiles seen on this level."""
        return self.level.explored

    def visible(self) -> np.ndarray:
        """bool (h, w): the tiles in the party's sight now."""
        return self.game.visible()

    def seen(self, visible: np.ndarray | None = None) -> np.ndarray:
        """bool (h, w): the tiles the map shows, seen before or in sight now (``visible``, default
        :meth:`visible`)."""
        out: np.ndarray = self.level.explored | (self.visible() if visible is None else visible)
        return out

    def floor_bits(self, explored: int | None = None) -> int:
        """The floor seen (every tile one can stand on that has been seen), as bits (``explored``: the level's
        :meth:`~undercroft.rules.state.LevelState.explored_bits`, where the caller has them)."""
        lv = self.level
        m = lv.map
        return m.walk_bits(0, 0, m.width, m.height) & (lv.explored_bits() if explored is None else explored)

    def frontier_bits(self, explored: int | None = None) -> int:
        """The floor seen beside a tile not yet seen (in eight directions, inside the map): where walking on
        shows more of the level (``explored`` as for :meth:`floor_bits`)."""
        lv = self.level
        m = lv.map
        stride = m.width + 1
        if explored is None:
            explored = lv.explored_bits()
        unseen = _board(m.width, m.height) & ~explored
        return self.floor_bits(explored) & spread(unseen, stride)

    def looked_bits(self) -> int:
        """The tiles the party has looked round from on this level, as bits: what it has not seen from there it will
        not see by going back."""
        lv = self.level
        stride = lv.map.width + 1
        out = 0
        for (x, y), _radius in lv.looked:
            out |= 1 << (y * stride + x)
        return out

    def beside_unseen(self, p: Point) -> bool:
        """Whether a tile not yet seen lies beside ``p`` (in eight directions, inside the map)."""
        x, y = p
        return not bool(self.level.explored[max(0, y - 1) : y + 2, max(0, x - 1) : x + 2].all())

    def stairs(self) -> Point | None:
        """The stairs, once seen."""
        lv = self.level
        s = lv.map.stairs
        return None if s is None or not lv.explored[s[1], s[0]] else s

    def items(self) -> list[Point]:
        """The tiles where the party has seen something lying."""
        return list(self.piles())

    def piles(self, visible: np.ndarray | None = None) -> dict[Point, list[tuple[str, int]]]:
        """What lies on the tiles the map shows (:meth:`seen`): tile -> [(item id, amount)], the top one last."""
        seen = self.level.explored if visible is None else self.seen(visible)
        return {(x, y): pile for (x, y), pile in self.level.items.items() if pile and seen[y, x]}

    def knows(self, g: Group) -> bool:
        """Whether the player knows of ``g`` (standing, not defeated): one it met that has not gone out of its
        knowledge (``Group.known``), or one standing where the party has seen (a guardian in a room looked into)."""
        return not g.defeated and g.known and (g.met or bool(self.level.explored[g.pos[1], g.pos[0]]))

    def groups(self) -> list[Group]:
        """The groups on this level the player knows of (:meth:`knows`), in the level's order."""
        lv = self.level
        out = [g for g in lv.groups if not g.defeated and g.known]
        if all(g.met for g in out):
            return out
        explored = lv.explored
        return [g for g in out if g.met or explored[g.pos[1], g.pos[0]]]

    def creatures(self, visible: np.ndarray | None = None) -> dict[Point, tuple[Group, list[int]]]:
        """The living creatures the map shows, by tile: (their group, their indices, the first the one named). Each
        creature of a group the player knows of (``Group.known``) on a tile in sight (``visible``, default
        :meth:`visible`), and every creature of the group met now (an encounter or a fight), wherever it stands:
        what its panel lists, the map shows. A tile several groups would share shows the first group's."""
        game = self.game
        st = game.state
        if visible is None:
            visible = self.visible()
        front = st.front_group() if st.mode in (Mode.ENCOUNTER, Mode.COMBAT) else None
        out: dict[Point, tuple[Group, list[int]]] = {}
        for g in st.level.groups:
            if g.defeated or not g.known:
                continue
            spots = game.creature_tiles(g)
            for i in g.alive:
                x, y = spots[i]
                if g is front or visible[y, x]:
                    shown = out.setdefault((x, y), (g, []))
                    if shown[0] is g:
                        shown[1].append(i)
        return out

    def in_sight(self, visible: np.ndarray | None = None) -> list[Group]:
        """The groups the map shows (:meth:`creatures`), each once, in the order the map finds them."""
        out: list[Group] = []
        for g, _ in self.creatures(visible).values():
            if g not in out:
                out.append(g)
        return out


__all__ = ["View"]
