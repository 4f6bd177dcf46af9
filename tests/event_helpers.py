"""Events for the narration tests: the wire types the rules build, and events from samples that give only the
fields a line reads."""

from __future__ import annotations

import re
import typing
from dataclasses import MISSING, fields
from pathlib import Path
from typing import Any

from undercroft.rules import events as ev
from undercroft.rules.events import EVENT_TYPES, Event, from_wire

RULES = Path(__file__).resolve().parent.parent / "src" / "undercroft" / "rules"
_ZERO = {"int": 0, "str": "", "bool": False}


def emitted_types() -> set[str]:
    """The wire types of the event classes the rules' source builds (``ev.Move(...)``)."""
    text = "".join(p.read_text(encoding="utf-8") for p in sorted(RULES.rglob("*.py")))
    built = set(re.findall(r"\bev\.([A-Z]\w*)\(", text))
    return {c.type for c in EVENT_TYPES if c.__name__ in built}


def sample(d: dict[str, Any]) -> Event:
    """The event of the wire form ``d`` (:func:`~undercroft.rules.events.from_wire`), any required field ``d``
    leaves out set to a zero of its type (a ``count`` to 1; 0, "", False, [], {}; None where it may be None): a
    narration sample names only the fields its line reads."""
    kind = d["type"]
    if kind != "refused":
        cls = ev.PartyAttack if kind == "attack" and d.get("attacker_side") == "party" else ev.from_wire_class(kind)
        hints = typing.get_type_hints(cls)
        d = dict(d)
        for f in fields(cls):  # type: ignore[arg-type]
            wire = f.name.rstrip("_")
            if wire not in d and f.default is MISSING:
                d[wire] = 1 if wire == "count" else _zero(str(hints[f.name]))  # (a group of one unless told)
    return from_wire(d)


def _zero(hint: str) -> Any:
    if "None" in hint:
        return None
    if hint.startswith("list"):
        return []
    if hint.startswith("dict"):
        return {}
    return _ZERO.get(hint.split("'")[1] if "'" in hint else hint, 0)
