"""Events: what happened, as records the front ends narrate and tests assert on.

Every event type is a slotted dataclass below, read-only to the type checker (:func:`_event`; its wire name,
``type``, is a class constant; docs/EVENTS.md tells each field, and a test checks that it names exactly these). An
event is built and read by field name, so mypy sees a misspelt or missing field, or an assignment to one. It
carries no English: :mod:`undercroft.narrate` words it for the player.

:meth:`Event.as_dict` is the wire form that ``replay --events`` prints: ``{"type": ..., field: value, ...}`` in the
order the fields are declared, the values plain JSON (lists, not tuples). A field that defaults to ``None`` is
*optional*: it is left out of the wire form when it is ``None`` (it is there only in some cases, e.g. ``enter``'s
``behind``). A field whose Python name ends in ``_`` (``from_``, a keyword) is written without it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar, TypedDict, TypeVar, dataclass_transform

if TYPE_CHECKING:
    from undercroft.rules.refusals import Reason


class Event:
    """The common face of every event: its wire name and its wire form."""

    __slots__ = ()
    type: ClassVar[str]

    def as_dict(self) -> dict[str, Any]:
        """The wire form: ``{"type": ..., **fields}`` (optional fields that are ``None`` left out)."""
        d: dict[str, Any] = {"type": self.type}
        for name, wire, optional in _layout(self.__class__):
            v = getattr(self, name)
            if v is not None or not optional:
                d[wire] = v
        return d


_E = TypeVar("_E", bound=Event)


@dataclass_transform(frozen_default=True, kw_only_default=True)
def _event(cls: type[_E]) -> type[_E]:
    """An event class: a slotted dataclass whose fields are given by name. Frozen to the type checker (mypy rejects
    an assignment to a field); not at run time, where a frozen dataclass's ``__init__`` (a call to
    ``object.__setattr__`` a field) made ``Game.step`` a quarter slower."""
    return dataclass(slots=True, kw_only=True)(cls)


_LAYOUTS: dict[type[Event], tuple[tuple[str, str, bool], ...]] = {}


def _layout(cls: type[Event]) -> tuple[tuple[str, str, bool], ...]:
    """(attribute, wire name, optional) of each field of an event class, in order."""
    layout = _LAYOUTS.get(cls)
    if layout is None:
        fs = fields(cls)  # type: ignore[arg-type]
        layout = _LAYOUTS[cls] = tuple((f.name, f.name.rstrip("_"), f.default is None) for f in fs)
    return layout


def event_fields(cls: type[Event]) -> list[str]:
    """The wire names of an event class's fields, in order (docs/EVENTS.md names each)."""
    return [wire for _, wire, _ in _layout(cls)]


# --- refusal ---------------------------------------------------------------------------------------------------


@_event
class Refused(Event):
    """The action is not allowed now, for ``why`` (its code and fields are flattened into the wire form)."""

    type: ClassVar[str] = "refused"
    why: Reason
    action: str | None = None  # the action's type (None: asked of the rules, no action taken)

    def as_dict(self) -> dict[str, Any]:
        return {"type": self.type, **({"action": self.action} if self.action is not None else {}), **self.why.data()}


# --- dice ------------------------------------------------------------------------------------------------------


class RollAbout(TypedDict, total=False):
    """What a roll is about, beside its purpose (:class:`Roll`'s optional fields; each purpose has its own)."""

    segment: int
    kind: str
    visited: bool
    table: str
    monster: str
    group: int


@_event
class Roll(Event):
    type: ClassVar[str] = "roll"
    purpose: str
    dice: str
    faces: list[int]
    modifier: int
    multiplier: int
    total: int | None
    target: int | None
    result: str
    segment: int | None = None
    kind: str | None = None
    visited: bool | None = None
    table: str | None = None
    monster: str | None = None
    group: int | None = None


# --- exploring -------------------------------------------------------------------------------------------------


@_event
class Move(Event):
    type: ClassVar[str] = "move"
    from_: list[int]
    to: list[int]
    segment: int


@_event
class Enter(Event):
    type: ClassVar[str] = "enter"
    segment: int
    kind: str
    visited: bool
    behind: bool | None = None
    passed: int | None = None


@_event
class Pickup(Event):
    type: ClassVar[str] = "pickup"
    item: str
    amount: int


@_event
class Descend(Event):
    type: ClassVar[str] = "descend"
    depth: int
    name: str


@_event
class Rest(Event):
    type: ClassVar[str] = "rest"
    rounds: int
    exhausted: bool
    healed: int
    recovered: bool
    progress: list[int] | None
    hp: list[list[int]]


@_event
class Drink(Event):
    type: ClassVar[str] = "drink"
    member: int
    item: str
    heal: int
    healed: int
    hp: int
    max_hp: int


# --- the monster check -----------------------------------------------------------------------------------------


@_event
class Table(Event):
    type: ClassVar[str] = "table"
    table: str
    row: int
    column: int
    monster: str
    number: int
    deeper: bool | None = None


# --- the encounter ---------------------------------------------------------------------------------------------


@_event
class Encounter(Event):
    type: ClassVar[str] = "encounter"
    group: int
    monster: str
    count: int
    hp: list[int]
    origin: str
    first: bool
    distance: int
    sighted: bool


@_event
class Placed(Event):
    type: ClassVar[str] = "placed"
    group: int
    pos: list[int]
    distance: int
    rolled: int
    out_of_sight: bool


@_event
class InSight(Event):
    type: ClassVar[str] = "in_sight"
    group: int
    monster: str
    count: int
    distance: int


@_event
class Close(Event):
    type: ClassVar[str] = "close"
    group: int
    monster: str
    count: int
    distance: int


@_event
class Surprise(Event):
    type: ClassVar[str] = "surprise"
    party: bool
    monster: bool
    monster_id: str
    count: int
    group: int


@_event
class RoundLost(Event):
    type: ClassVar[str] = "round_lost"
    group: int
    monster: str
    count: int


@_event
class Approach(Event):
    type: ClassVar[str] = "approach"
    group: int
    distance: int
    monster: str
    count: int
    out_of_sight: bool


@_event
class Standoff(Event):
    type: ClassVar[str] = "standoff"
    group: int
    monster: str
    count: int
    rounds: int


@_event
class Attacks(Event):
    type: ClassVar[str] = "attacks"
    group: int
    monster: str
    count: int


@_event
class Wait(Event):
    type: ClassVar[str] = "wait"
    combat: bool


@_event
class Leaves(Event):
    type: ClassVar[str] = "leaves"
    group: int
    monster: str
    count: int
    distance: int


@_event
class Peaceful(Event):
    type: ClassVar[str] = "peaceful"
    group: int
    monster: str
    count: int
    already: bool


@_event
class Pass(Event):
    type: ClassVar[str] = "pass"
    group: int
    monster: str
    count: int


@_event
class BreakPeace(Event):
    type: ClassVar[str] = "break_peace"
    group: int
    monster: str
    count: int


@_event
class Hidden(Event):
    type: ClassVar[str] = "hidden"
    group: int


@_event
class Reveal(Event):
    type: ClassVar[str] = "reveal"
    group: int
    monster: str
    count: int


@_event
class Rises(Event):
    type: ClassVar[str] = "rises"
    group: int
    monster: str
    count: int


@_event
class Wield(Event):
    type: ClassVar[str] = "wield"
    member: int
    item: str
    weapon: int
    to_hit: int
    damage: int


@_event
class WalkedPast(Event):
    type: ClassVar[str] = "walked_past"
    group: int
    monster: str
    count: int


# --- negotiation and bribery -----------------------------------------------------------------------------------


@_event
class Negotiate(Event):
    type: ClassVar[str] = "negotiate"
    group: int
    monster: str
    count: int
    dice: str
    faces: list[int]
    reluctance: int
    ability: int
    use_reluctance: bool
    use_ability: bool
    modifier: int
    total: int
    result: str
    tribute: int


@_event
class Bribe(Event):
    type: ClassVar[str] = "bribe"
    group: int
    monster: str
    count: int
    gold: int
    column: int
    row: int
    digit: int
    dice: str
    faces: list[int]
    total: int
    target: int
    result: str


# --- running, evasion and pursuit ------------------------------------------------------------------------------


@_event
class Run(Event):
    type: ClassVar[str] = "run"
    group: int
    door: list[int]
    to: list[int]
    segment: int


@_event
class Leave(Event):
    type: ClassVar[str] = "leave"
    group: int
    pursued: bool
    monster: str
    count: int


@_event
class Evade(Event):
    type: ClassVar[str] = "evade"
    group: int
    reason: str
    monster: str
    count: int
    party_speed: int | None = None
    monster_speed: int | None = None


@_event
class Pursuit(Event):
    type: ClassVar[str] = "pursuit"
    group: int
    distance: int
    monster: str
    count: int


@_event
class Chase(Event):
    type: ClassVar[str] = "chase"
    group: int
    distance: int
    round: int
    monster: str
    count: int
    by: str | None = None


@_event
class Caught(Event):
    type: ClassVar[str] = "caught"
    group: int
    fights: bool
    monster: str
    count: int
    by: str | None = None
    exhausted: bool | None = None


@_event
class Escape(Event):
    type: ClassVar[str] = "escape"
    group: int
    distance: int
    monster: str
    count: int
    reason: str


@_event
class Pursue(Event):
    type: ClassVar[str] = "pursue"
    group: int
    distance: int
    monster: str
    count: int


@_event
class LetGo(Event):
    type: ClassVar[str] = "let_go"
    group: int
    monster: str
    count: int


@_event
class GotAway(Event):
    type: ClassVar[str] = "got_away"
    group: int
    distance: int
    monster: str
    count: int
    reason: str


@_event
class Exhausted(Event):
    type: ClassVar[str] = "exhausted"
    rounds: int


@_event
class Drop(Event):
    type: ClassVar[str] = "drop"
    item: str
    amount: int


@_event
class Distracted(Event):
    type: ClassVar[str] = "distracted"
    group: int
    by: str
    monster: str
    count: int


@_event
class Ignored(Event):
    type: ClassVar[str] = "ignored"
    group: int
    monster: str
    count: int
    what: str


@_event
class Oil(Event):
    """Burning oil: thrown at a creature in a fight (``target_index``, ``damage``, ``target_hp_after``) or behind
    the party in a chase (``tiles``)."""

    type: ClassVar[str] = "oil"
    item: str
    group: int
    target_index: int | None = None
    damage: int | None = None
    target_hp_after: int | None = None
    monster: str
    count: int
    tiles: list[list[int]] | None = None


@_event
class Slowed(Event):
    type: ClassVar[str] = "slowed"
    group: int
    rounds: int
    monster: str
    count: int


# --- combat ----------------------------------------------------------------------------------------------------


@_event
class Initiative(Event):
    type: ClassVar[str] = "initiative"
    party: int
    monster: int
    first: str
    group: int
    monster_id: str
    count: int


@_event
class Combat(Event):
    type: ClassVar[str] = "combat"
    group: int
    first: str
    free_round: str
    monster: str
    count: int


@_event
class PartyAttack(Event):
    """A character's swing at a creature of the group (wire name ``attack``, ``attacker_side`` ``party``)."""

    type: ClassVar[str] = "attack"
    attacker: str
    attacker_side: str
    member: int
    target: str
    target_index: int
    group: int
    count: int
    dice: str
    natural: int
    modifier: int
    total: int
    defense: int
    hit: bool
    critical: bool
    damage: int
    target_hp_after: int


@_event
class MonsterAttack(Event):
    """A creature's swing at a character (wire name ``attack``, ``attacker_side`` ``monsters``)."""

    type: ClassVar[str] = "attack"
    attacker: str
    attacker_side: str
    attacker_index: int
    group: int
    count: int
    target: str
    member: int
    dice: str
    natural: int
    modifier: int
    total: int
    defense: int
    hit: bool
    critical: bool
    damage: int
    target_hp_after: int
    target_max_hp: int


Attack = PartyAttack | MonsterAttack


@_event
class Kill(Event):
    type: ClassVar[str] = "kill"
    group: int
    index: int
    monster: str
    count: int


@_event
class SurprisedSkip(Event):
    type: ClassVar[str] = "surprised_skip"
    group: int
    monster: str
    count: int
    side: str


@_event
class Slow(Event):
    type: ClassVar[str] = "slow"
    group: int
    monster: str
    count: int


@_event
class Holds(Event):
    type: ClassVar[str] = "holds"
    group: int
    monster: str
    count: int


@_event
class Idle(Event):
    type: ClassVar[str] = "idle"
    group: int
    monster: str
    count: int


@_event
class Regenerate(Event):
    type: ClassVar[str] = "regenerate"
    group: int
    index: int
    hp: int
    monster: str
    count: int


@_event
class Victory(Event):
    type: ClassVar[str] = "victory"
    group: int
    monster: str
    count: int
    gold: int
    shares: list[list[Any]]
    spoils: list[str] | None = None


# --- the end ---------------------------------------------------------------------------------------------------


@_event
class Won(Event):
    type: ClassVar[str] = "won"
    turn: int
    depth: int
    seed: int
    how: str
    guardians: list[list[str]]


@_event
class Death(Event):
    type: ClassVar[str] = "death"
    cause: str
    turn: int
    depth: int
    seed: int


# --- things, growth, the merchant and talk that pays -----------------------------------------------------------


@_event
class Wear(Event):
    type: ClassVar[str] = "wear"
    member: int
    item: str
    defense: int
    speed: int


@_event
class Quaff(Event):
    type: ClassVar[str] = "quaff"
    member: int
    item: str
    effect: str | None
    bonus: int
    until: int | None
    hp: int | None = None
    max_hp: int | None = None


@_event
class EffectEnded(Event):
    type: ClassVar[str] = "effect_ended"
    item: str
    effect: str | None


@_event
class LevelUp(Event):
    type: ClassVar[str] = "level_up"
    member: int
    name: str
    level: int
    max_hp: int
    might: int
    agility: int
    rest_heal: int


@_event
class Shop(Event):
    type: ClassVar[str] = "shop"
    depth: int
    stock: list[str]
    wares: dict[str, int]


@_event
class Trade(Event):
    type: ClassVar[str] = "trade"
    group: int
    monster: str
    count: int
    depth: int
    stock: list[str]
    wares: dict[str, int]


@_event
class Bought(Event):
    type: ClassVar[str] = "bought"
    item: str
    price: int
    gold: int
    left: int


@_event
class ShopLeft(Event):
    type: ClassVar[str] = "shop_left"
    gold: int


@_event
class Charted(Event):
    type: ClassVar[str] = "charted"
    item: str
    stairs: list[int]
    out: bool


@_event
class Directions(Event):
    type: ClassVar[str] = "directions"
    group: int
    monster: str
    count: int
    stairs: list[int]
    known: bool


@_event
class Hired(Event):
    type: ClassVar[str] = "hired"
    group: int
    monster: str
    count: int


@_event
class HirelingAttack(Event):
    type: ClassVar[str] = "hireling_attack"
    group: int
    monster: str
    attacker_index: int
    target: str
    target_index: int
    count: int
    natural: int
    total: int
    defense: int
    hit: bool
    critical: bool
    damage: int
    target_hp_after: int


@_event
class HirelingLeft(Event):
    type: ClassVar[str] = "hireling_left"
    group: int
    monster: str
    count: int


EVENT_TYPES: tuple[type[Event], ...] = tuple(
    v for v in list(globals().values()) if isinstance(v, type) and issubclass(v, Event) and v is not Event
)
"""Every event class, in the order above (two, :class:`PartyAttack` and :class:`MonsterAttack`, share the wire name
``attack``)."""


def about_group(e: Event) -> int | None:
    """The monster group ``e`` is about (its ``group`` field), if it has one."""
    group = getattr(e, "group", None)
    return group if isinstance(group, int) else None


_BY_TYPE: dict[str, type[Event]] = {c.type: c for c in EVENT_TYPES if c is not PartyAttack}


def from_wire_class(kind: str) -> type[Event]:
    """The event class of a wire type (``attack``: :class:`MonsterAttack`, the other is :class:`PartyAttack`)."""
    return _BY_TYPE[kind]


def from_wire(d: Mapping[str, Any]) -> Event:
    """The event whose wire form (:meth:`Event.as_dict`) is ``d`` (a ``replay --events`` line without its ``turn``
    and ``text``, an example of docs/EVENTS.md): the inverse of ``as_dict``. A missing or unknown field raises
    ``TypeError``; an unknown type ``KeyError``."""
    kind = d["type"]
    data = {k: v for k, v in d.items() if k != "type"}
    if kind == "refused":
        from undercroft.rules import refusals

        action = data.pop("action", None)
        return Refused(why=refusals.Reason(refusals.Code(data.pop("reason")), data), action=action)
    cls = PartyAttack if kind == "attack" and data.get("attacker_side") == "party" else from_wire_class(kind)
    if "from" in data:
        data["from_"] = data.pop("from")
    return cls(**data)
