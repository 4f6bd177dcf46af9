"""Why an action is refused, as data: a :class:`Code` and its fields (a :class:`Reason`), never a sentence.

:meth:`Game.step <undercroft.rules.game.Game.step>` turns a reason into the ``refused`` event's data
(``{"action": ..., "reason": code, **fields}``); :mod:`undercroft.narrate` words it, and docs/EVENTS.md lists every
code with its fields. A handler raises :class:`Refused` before it changes anything; the checks that ask the state
(``Game._precheck``, :func:`~undercroft.rules.parley.check_talk`, ...) return a :class:`Reason` or None.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class Code(StrEnum):
    """Why an action is refused (its fields, if any, in brackets; ``monster`` is a monster id)."""

    GAME_OVER = "game_over"
    NOT_NOW = "not_now"  # (mode): the mode does not allow the action
    NOT_YOUR_TURN = "not_your_turn"
    GIVING_CHASE = "giving_chase"
    CHASED = "chased"
    NO_POTION = "no_potion"
    NO_FOOD = "no_food"
    NO_TREASURE = "no_treasure"
    NO_OIL = "no_oil"
    NOT_FLEEING = "not_fleeing"  # a drop in a meeting or a fight: it only stops a pursuer (003)
    NO_RUNNING = "no_running"
    EXHAUSTED = "exhausted"
    EXHAUSTED_CHASED = "exhausted_chased"
    NOTHING_TO_FIGHT = "nothing_to_fight"
    NO_TARGET = "no_target"
    NO_TALKING = "no_talking"
    UNNEGOTIABLE = "unnegotiable"  # (monster)
    TALKED = "talked"  # (monster)
    NO_BRIBERY = "no_bribery"
    UNBRIBABLE = "unbribable"  # (monster)
    TALK_FIRST = "talk_first"
    TERMS_MADE = "terms_made"  # (monster)
    BRIBED = "bribed"  # (monster)
    TOO_POOR = "too_poor"  # (least): less gold than the smallest bribe
    OFFER_MORE = "offer_more"  # (least): an offer below the smallest bribe
    GOLD_SHORT = "gold_short"  # (gold): an offer above the gold the party has
    BAD_STEP = "bad_step"
    WALL = "wall"
    IN_THE_WAY = "in_the_way"  # (monster)
    FACING = "facing"  # (monster)
    NO_STAIRS = "no_stairs"
    NO_DRINKER = "no_drinker"
    UNHURT = "unhurt"  # ours: a healing potion for a character at full hit points (it would heal nothing)
    NO_SUCH_DOOR = "no_such_door"
    NO_WAY_OUT = "no_way_out"
    DOOR_BLOCKED = "door_blocked"  # (monster; "" when no group faces the party)
    ALL_BLOCKED = "all_blocked"  # (monster; "" when no group faces the party)
    NOTHING_TO_PURSUE = "nothing_to_pursue"
    NO_PURSUIT = "no_pursuit"
    TOO_TIRED_TO_CHASE = "too_tired_to_chase"
    NO_SUCH_ITEM = "no_such_item"  # ours: an item number that names no item
    NOT_CARRIED = "not_carried"  # (item): ours: the party has none of it
    NOT_USABLE = "not_usable"  # (item): ours: it is not used that way (gold, food, oil, treasure, a tool)
    WAY_KNOWN = "way_known"  # (item): ours: a chart read where the stairs are on the map already
    NOTHING_TO_USE = "nothing_to_use"  # ours: the party carries nothing it can use
    NOT_SOLD = "not_sold"  # (item): ours: the merchant does not sell it here
    TOO_DEAR = "too_dear"  # (item): ours: the party has less gold than the price
    SOLD_OUT = "sold_out"  # (item): ours: the merchant has sold every one it had


@dataclass(frozen=True)
class Reason:
    """Why an action is refused: a code and its fields (plain JSON values)."""

    code: Code
    fields: Mapping[str, str | int] = field(default_factory=dict)

    def data(self) -> dict[str, Any]:
        """The ``refused`` event's data for this reason (the action's type aside)."""
        return {"reason": str(self.code), **self.fields}


class Refused(Exception):
    """Raised inside a handler before any change: the action is not allowed now, for ``reason``."""

    def __init__(self, reason: Reason) -> None:
        super().__init__(reason.code)
        self.reason = reason
