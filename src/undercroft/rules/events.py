"""Events: what happened, as records the UI renders and tests assert on.

An event has a ``type`` (see docs/EVENTS.md), plain JSON-able ``data`` and, where a player would read it, a
``text`` line in the plain style of the source ("You hit. 6 damage. Ghoul at 2.").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    type: str
    data: dict[str, Any] = field(default_factory=dict)
    text: str = ""

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, **self.data}
        if self.text:
            out["text"] = self.text
        return out
