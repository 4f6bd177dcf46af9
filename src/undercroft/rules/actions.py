"""Actions: what the player chose, as small serializable records (never keys).

Every action is a frozen dataclass with a ``type`` name; :func:`action_to_dict` and :func:`action_from_dict`
convert to and from plain JSON-able dicts, which is what recordings store.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True, slots=True)
class Action:
    type: ClassVar[str] = ""


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Step one tile (explore). Leaving a segment through a door is how the party walks on or away."""

    type: ClassVar[str] = "move"
    dx: int
    dy: int


@dataclass(frozen=True, slots=True)
class Descend(Action):
    type: ClassVar[str] = "descend"


@dataclass(frozen=True, slots=True)
class Rest(Action):
    """Rest a while (explore): time passes, exhaustion wears off, wanderers may come."""

    type: ClassVar[str] = "rest"


@dataclass(frozen=True, slots=True)
class Fight(Action):
    """Attack the monsters met (encounter), starting combat."""

    type: ClassVar[str] = "fight"


@dataclass(frozen=True, slots=True)
class Attack(Action):
    """In combat: every living character attacks creature ``target`` (or the next living one)."""

    type: ClassVar[str] = "attack"
    target: int = 0


@dataclass(frozen=True, slots=True)
class Talk(Action):
    type: ClassVar[str] = "talk"


@dataclass(frozen=True, slots=True)
class Bribe(Action):
    type: ClassVar[str] = "bribe"
    gold: int


@dataclass(frozen=True, slots=True)
class Wait(Action):
    type: ClassVar[str] = "wait"


@dataclass(frozen=True, slots=True)
class Run(Action):
    """Run (encounter or combat) through door ``door`` of the party's segment (its index in
    ``Game.exits()``; -1: the way the party came in), or keep running (pursuit, where ``door`` is not used)."""

    type: ClassVar[str] = "run"
    door: int = -1


@dataclass(frozen=True, slots=True)
class Pursue(Action):
    """Go after a group that has just gone its way from the party (003: the party may pursue)."""

    type: ClassVar[str] = "pursue"


@dataclass(frozen=True, slots=True)
class DropFood(Action):
    type: ClassVar[str] = "drop_food"


@dataclass(frozen=True, slots=True)
class DropTreasure(Action):
    type: ClassVar[str] = "drop_treasure"


@dataclass(frozen=True, slots=True)
class ThrowOil(Action):
    """Throw burning oil: at a pursuer, or in combat at creature ``target``."""

    type: ClassVar[str] = "oil"
    target: int = 0


@dataclass(frozen=True, slots=True)
class Drink(Action):
    """Character ``member`` drinks a healing potion; in combat it is that character's action."""

    type: ClassVar[str] = "drink"
    member: int = 0


ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (Move, Descend, Rest, Fight, Attack, Talk, Bribe, Wait, Run, Pursue, DropFood, DropTreasure, ThrowOil,
                Drink)
}


class ActionError(ValueError):
    """A record that is not a valid action."""


def action_to_dict(action: Action) -> dict[str, Any]:
    return {"type": action.type, **asdict(action)}


def action_from_dict(data: Any) -> Action:
    if not isinstance(data, dict):
        raise ActionError("an action must be an object")
    kind = data.get("type")
    cls = ACTION_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ActionError(f"unknown action type {kind!r}")
    names = {f.name for f in fields(cls)}
    extra = set(data) - names - {"type"}
    if extra:
        raise ActionError(f"unknown field(s) {', '.join(sorted(extra))} for action '{kind}'")
    kwargs: dict[str, int] = {}
    for name in sorted(names):
        if name not in data:
            if name in ("dx", "dy", "gold"):
                raise ActionError(f"action '{kind}' needs '{name}'")
            continue
        value = data[name]
        if not isinstance(value, int) or isinstance(value, bool) or abs(value) > 1_000_000_000:
            raise ActionError(f"action '{kind}': '{name}' must be a whole number")
        kwargs[name] = value
    return cls(**kwargs)
