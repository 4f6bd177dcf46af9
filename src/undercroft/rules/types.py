"""The engine's modes and tags, typed: mypy catches a misspelt mode, side or origin.

Each is a :class:`enum.StrEnum`, so it compares equal to (and serializes as) its JSON spelling: events,
recordings and the canonical state keep the words they always had ("explore", "party", "guardian", ...).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal


class Mode(StrEnum):
    """What the party is doing; it decides which actions :meth:`Game.step` accepts."""

    EXPLORE = "explore"
    ENCOUNTER = "encounter"
    COMBAT = "combat"
    CHASE = "pursuit"  # the party runs from a group, or gives chase; "pursuit" is the value recordings keep
    SHOP = "shop"  # ours: at the merchant's (the stairs' foot, or a peddler's pack)
    DEAD = "dead"
    WON = "won"


#: The modes in which a game is over.
OVER: frozenset[Mode] = frozenset({Mode.DEAD, Mode.WON})


class Side(StrEnum):
    """Who acts: the party or the monsters."""

    PARTY = "party"
    MONSTERS = "monsters"


class FreeRound(StrEnum):
    """Which side gets the first round of a fight to itself (surprise, 003), if any."""

    NONE = ""
    PARTY = "party"
    MONSTERS = "monsters"


class Surprise(StrEnum):
    """Who was surprised when a group was first rolled for (003), held until the sides meet."""

    NONE = ""
    PARTY = "party"
    MONSTERS = "monsters"
    BOTH = "both"


class Origin(StrEnum):
    """Where a monster group came from."""

    RESIDENT = "resident"
    WANDERING = "wandering"
    GUARDIAN = "guardian"


class Behaviour(StrEnum):
    """The special behaviours a monster's data may name (see docs/DATA.md)."""

    KNEELS = "kneels"
    HOLDS_GROUND = "holds_ground"
    PASSIVE = "passive"
    SUBMERGED = "submerged"


#: The reaction results of the 2d6 table (003), as the data spells them.
ReactionResult = Literal["attacks", "hostile", "uncertain", "peaceful", "friendly"]
#: The negotiation results (000).
NegotiationResult = Literal["failure", "agreement", "intimidation"]
#: Why a pursuer stopped: what it stopped for.
Distraction = Literal["food", "treasure", "fire"]
