"""The project's own tileset (assets/tileset_10x16.png, CP437, 16x16 tiles), never the system fallback."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import tcod.tileset

from undercroft.paths import assets_dir

TILESET_FILE = "tileset_10x16.png"
TILE_W, TILE_H = 10, 16


class TilesetMissing(Exception):
    """The shipped tileset is absent or unreadable (a broken install)."""


def tileset_path() -> Path:
    return assets_dir() / TILESET_FILE


@lru_cache(maxsize=1)
def load_tileset() -> tcod.tileset.Tileset:
    path = tileset_path()
    if not path.is_file():
        raise TilesetMissing(f"the tileset {path} is missing (a broken install?)")
    try:
        return tcod.tileset.load_tilesheet(path, 16, 16, tcod.tileset.CHARMAP_CP437)
    except (RuntimeError, OSError) as exc:
        raise TilesetMissing(f"the tileset {path} cannot be loaded: {exc}") from None
