"""Events: what happened, as records the front ends narrate and tests assert on.

An event has a ``type`` (see docs/EVENTS.md) and plain JSON-able ``data``. It carries no English:
:mod:`undercroft.narrate` words it for the player.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Event:
    type: str
    data: dict[str, Any] = field(default_factory=dict)

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    def as_dict(self) -> dict[str, Any]:
        return {"type": self.type, **self.data}
