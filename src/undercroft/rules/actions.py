"""Actions: what the player chose, as small serializable records (never keys).

Every action is a frozen dataclass with a ``type`` name; :func:`action_to_dict` and :func:`action_from_dict`
convert to and from plain JSON-able dicts (what recordings of formats 1 and 2 store), :func:`action_to_text` and
:func:`action_from_text` to and from one short line of text, ``move 1 0`` (what recordings of format 3 store).
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
    """Attack the monsters met (encounter), starting combat. Exploring, attack group ``group`` of the party's room
    or corridor (a group met and left alone, or one at peace); -1: the nearest one in sight there."""

    type: ClassVar[str] = "fight"
    group: int = -1


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


@dataclass(frozen=True, slots=True)
class Use(Action):
    """Character ``member`` uses item number ``item`` (its place in the sorted catalogue of item ids,
    ``rules.items.catalogue``): drinks a potion, wields a weapon or puts on armour. In combat it is that
    character's action."""

    type: ClassVar[str] = "use"
    item: int
    member: int = 0


@dataclass(frozen=True, slots=True)
class Buy(Action):
    """In the shop: buy one of item number ``item`` (as :class:`Use` numbers it)."""

    type: ClassVar[str] = "buy"
    item: int


@dataclass(frozen=True, slots=True)
class LeaveShop(Action):
    """Leave the shop and explore on."""

    type: ClassVar[str] = "leave_shop"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.type: cls
    for cls in (
        Move,
        Descend,
        Rest,
        Fight,
        Attack,
        Talk,
        Bribe,
        Wait,
        Run,
        Pursue,
        DropFood,
        DropTreasure,
        ThrowOil,
        Drink,
        Use,
        Buy,
        LeaveShop,
    )
}


class ActionError(ValueError):
    """A record that is not a valid action."""


def action_to_dict(action: Action) -> dict[str, Any]:
    fields_ = asdict(action)
    if action.type in _OPTIONAL and all(v == -1 for v in fields_.values()):
        fields_ = {}  # as written before the field was added
    return {"type": action.type, **fields_}


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
            if name in ("dx", "dy", "gold", "item"):
                raise ActionError(f"action '{kind}' needs '{name}'")
            continue
        value = data[name]
        if not isinstance(value, int) or isinstance(value, bool) or abs(value) > 1_000_000_000:
            raise ActionError(f"action '{kind}': '{name}' must be a whole number")
        kwargs[name] = value
    return cls(**kwargs)


_FIELDS: dict[str, tuple[str, ...]] = {kind: tuple(f.name for f in fields(cls)) for kind, cls in ACTION_TYPES.items()}
# The actions whose fields may all be left out of their text when they are all -1 (their default): a field added
# after recordings of the action were written ("fight", then "fight 7" for a group chosen).
_OPTIONAL: frozenset[str] = frozenset({"fight"})
_MAX_INT = 1_000_000_000  # the largest magnitude of an action's field, as action_from_dict allows
_MAX_TEXT = 200  # characters; a longer text is no action


def action_to_text(action: Action) -> str:
    """The action as one line of text: its type, then its fields in declared order as whole numbers, separated by
    single spaces (``move 1 0``, ``rest``, ``run -1``): what recordings of format 3 store."""
    names = _FIELDS[action.type]
    if not names or (action.type in _OPTIONAL and all(getattr(action, n) == -1 for n in names)):
        return action.type
    return " ".join([action.type, *[str(getattr(action, n)) for n in names]])


def _whole(kind: str, name: str, token: str) -> int:
    """A field of an action's text: a whole number written as ``str(int)`` writes it (``-1``, ``0``, ``42``; not
    ``+1``, ``01``, ``-0``, ``1.0``, ``1_0``, ``true`` or other digits), of at most :data:`_MAX_INT`."""
    try:
        value = int(token) if 0 < len(token) <= 11 else None
    except ValueError:
        value = None
    if value is None or str(value) != token or abs(value) > _MAX_INT:
        raise ActionError(f"action '{kind}': '{name}' must be a whole number, not {token[:20]!r}")
    return value


def action_from_text(text: str) -> Action:
    """The action of :func:`action_to_text`'s text, checked as strictly as :func:`action_from_dict` checks a dict:
    a known type, each of its fields (all of them, in declared order), whole numbers in range, single spaces and
    nothing else. Anything else raises :class:`ActionError`."""
    if not isinstance(text, str) or len(text) > _MAX_TEXT:
        raise ActionError("an action is a short line of text")
    kind, *tokens = text.split(" ")
    cls = ACTION_TYPES.get(kind)
    if cls is None:
        raise ActionError(f"unknown action type {kind[:40]!r}")
    names = _FIELDS[kind]
    if not tokens and kind in _OPTIONAL:
        return cls()
    if len(tokens) != len(names):
        want = f"{len(names)} field{'s' if len(names) != 1 else ''}" + (f" ({' '.join(names)})" if names else "")
        raise ActionError(f"action '{kind}' takes {want}, not {len(tokens)}")
    return cls(**{name: _whole(kind, name, tok) for name, tok in zip(names, tokens, strict=True)})
