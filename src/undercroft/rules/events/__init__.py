"""Events: what happened, as records the front ends narrate and tests assert on.

Every event type is a slotted dataclass, read-only to the type checker (:func:`~.base.event`; its wire name,
``type``, is a class constant; docs/EVENTS.md tells each field, and a test checks that it names exactly these). An
event is built and read by field name, so mypy sees a misspelt or missing field, or an assignment to one. It
carries no English: :mod:`undercroft.narrate` words it for the player (its line in the module of
``narrate/lines/`` of the same name). The wire form: :mod:`~.base`.

The classes live by the part of the rules that makes them, and this package gathers them all (``ev.Move``):

- :mod:`~.common`: ``refused``, ``roll``, ``wait``;
- :mod:`~.floor`: exploring a floor, the monster check's table, the way down;
- :mod:`~.meeting`: a monster group met, from its finding to a fight or a parting;
- :mod:`~.talk`: negotiation, bribes, and what talk buys (directions, a hireling);
- :mod:`~.chase`: running, evasion and pursuit;
- :mod:`~.fight`: the fight;
- :mod:`~.things`: things, growth and trade;
- :mod:`~.end`: won, or dead.

A new event type is one class, with ``@event``, in the module of its part (a new module: one line below).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from undercroft.rules.events.base import *  # noqa: F403
from undercroft.rules.events.base import REGISTERED, Event
from undercroft.rules.events.chase import *  # noqa: F403
from undercroft.rules.events.common import *  # noqa: F403
from undercroft.rules.events.common import Refused
from undercroft.rules.events.end import *  # noqa: F403
from undercroft.rules.events.fight import *  # noqa: F403
from undercroft.rules.events.fight import PartyAttack
from undercroft.rules.events.floor import *  # noqa: F403
from undercroft.rules.events.meeting import *  # noqa: F403
from undercroft.rules.events.talk import *  # noqa: F403
from undercroft.rules.events.things import *  # noqa: F403

EVENT_TYPES: tuple[type[Event], ...] = tuple(sorted(REGISTERED, key=lambda c: (c.type, c.__name__)))
"""Every event class, by wire name (two, :class:`MonsterAttack` and :class:`PartyAttack`, share the wire name
``attack``): whichever module is imported first, the same classes in the same order."""

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
