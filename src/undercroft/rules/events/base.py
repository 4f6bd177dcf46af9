"""What every event class is made of: :class:`Event` (the wire name and the wire form), :func:`event` (the class
decorator every event class wears, which also registers it), and :class:`AboutGroup` (the three fields that open
most events about a monster group).

:meth:`Event.as_dict` is the wire form that ``replay --events`` prints: ``{"type": ..., field: value, ...}`` in the
order the fields are declared (a base class's first), the values plain JSON (lists, not tuples). A field that
defaults to ``None`` is *optional*: it is left out of the wire form when it is ``None`` (it is there only in some
cases, e.g. ``enter``'s ``behind``). A field whose Python name ends in ``_`` (``from_``, a keyword) is written
without it.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar, TypeVar, dataclass_transform


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

REGISTERED: list[type[Event]] = []
"""Every event class :func:`event` has made (those with a wire name), as they were made: the package's
``EVENT_TYPES`` sorts them."""


@dataclass_transform(frozen_default=True, kw_only_default=True)
def event(cls: type[_E]) -> type[_E]:
    """An event class: a slotted dataclass whose fields are given by name. Frozen to the type checker (mypy rejects
    an assignment to a field); not at run time, where a frozen dataclass's ``__init__`` (a call to
    ``object.__setattr__`` a field) made ``Game.step`` a quarter slower. A class with a wire name (``type``) is
    registered (:data:`REGISTERED`); a shared base such as :class:`AboutGroup` has none."""
    made = dataclass(slots=True, kw_only=True)(cls)
    if "type" in vars(made):
        REGISTERED.append(made)
    return made


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


@event
class AboutGroup(Event):
    """The fields that open an event about a monster group: the group's id, its monster's id and how many it
    counts (the narrator speaks of several above 1). An event whose wire form has other fields between these
    three declares all its fields itself."""

    group: int
    monster: str
    count: int


def about_group(e: Event) -> int | None:
    """The monster group ``e`` is about (its ``group`` field), if it has one."""
    group = getattr(e, "group", None)
    return group if isinstance(group, int) else None
