"""The remembered preferences: which tileset and at what scale the window draws, and the share of hit points
under which walks stop, in ``settings.json`` beside the saves.

``{"tile": "small", "scale": 0, "stop_hp": 50}``: ``scale`` 0 is automatic (the window picks the tileset and scale
that fit the screen, ``tile`` is then ignored); otherwise the window opens at that whole multiple of the ``tile``
tileset (a key of :data:`undercroft.ui.tiles.TILESETS`). ``stop_hp`` (0-100, set in the pause menu of both front
ends): travel and auto-explore do not start with a character's HP under that share. They are only a preference: a
missing, corrupt or unreadable file gives the defaults (a missing or bad ``stop_hp`` alone gives its default), and
a file that cannot be written is not written, without a word.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from undercroft import paths
from undercroft.ui.tiles import DEFAULT_TILESET, TILESETS

FILE_NAME = "settings.json"
MAX_SCALE = 8
STOP_HP = 50  # the share of hit points under which walks stop, until the player sets another (pause menu)


@dataclass(frozen=True)
class Settings:
    tile: str = DEFAULT_TILESET
    scale: int = 0  # 0: automatic
    stop_hp: int = STOP_HP

    @property
    def automatic(self) -> bool:
        return self.scale == 0


def settings_path() -> Path:
    return paths.user_data_dir() / FILE_NAME


def parse(data: object) -> Settings:
    """Settings from decoded JSON: anything missing, unknown or out of range gives the defaults."""
    if not isinstance(data, dict):
        return Settings()
    tile = data.get("tile", DEFAULT_TILESET)
    scale = data.get("scale", 0)
    if not isinstance(tile, str) or tile not in TILESETS:
        return Settings()
    if isinstance(scale, bool) or not isinstance(scale, int) or not 0 <= scale <= MAX_SCALE:
        return Settings()
    stop_hp = data.get("stop_hp", STOP_HP)
    if isinstance(stop_hp, bool) or not isinstance(stop_hp, int) or not 0 <= stop_hp <= 100:
        stop_hp = STOP_HP
    return Settings(tile, scale, stop_hp)


def load(path: Path | None = None) -> Settings:
    path = settings_path() if path is None else path
    try:
        return parse(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, UnicodeError, RecursionError):
        return Settings()


def save(settings: Settings, path: Path | None = None) -> bool:
    """Write ``settings`` atomically (a temporary file renamed over the old one); False when it could not be."""
    path = settings_path() if path is None else path
    text = json.dumps({"tile": settings.tile, "scale": settings.scale, "stop_hp": settings.stop_hp}) + "\n"
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".settings-", suffix=".tmp", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
        return True
    except OSError:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        return False
