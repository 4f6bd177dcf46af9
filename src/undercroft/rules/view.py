"""One player's view of the level: what a player at the screen knows of it, and all the bots may know.

The screens draw the explored map (:attr:`~undercroft.rules.state.LevelState.explored`), the stairs and the items
once seen on it, and the creatures of the groups the party knows of (``Group.known``: not lying submerged, not met
out of sight and not seen yet); the panels, the group in front of the party and its odds. A player remembers what
it saw: :class:`View` is that memory of the party's level, read from the state when asked (nothing copied, nothing
kept, nothing changed), so the bots (:mod:`undercroft.bot`) and auto-explore (:mod:`undercroft.travel`) plan with
what the screens have shown and no more: not the floor beyond the explored map, not a guardian waiting in a room
never seen, not a monster lying submerged.

Tiles as bit sets are laid out as :func:`undercroft.rules.floods.bits_of` lays them (bit ``y * (w + 1) + x``).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np

from undercroft.rules.floods import spread
from undercroft.rules.levelmap import Point
from undercroft.rules.state import Group, LevelState

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

    def floor_bits(self) -> int:
        """The floor seen (every tile one can stand on that has been seen), as bits."""
        lv = self.level
        m = lv.map
        return m.walk_bits(0, 0, m.width, m.height) & lv.explored_bits()

    def frontier_bits(self) -> int:
        """The floor seen beside a tile not yet seen (in eight directions, inside the map): where walking on
        shows more of the level."""
        lv = self.level
        m = lv.map
        stride = m.width + 1
        unseen = _board(m.width, m.height) & ~lv.explored_bits()
        return self.floor_bits() & spread(unseen, stride)

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
        lv = self.level
        explored = lv.explored
        return [(x, y) for (x, y), pile in lv.items.items() if pile and explored[y, x]]

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


__all__ = ["View"]
