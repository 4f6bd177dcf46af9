"""The project's own tilesets (assets/tileset_WxH.png, CP437, 16x16 tiles), never the system fallback.

Three sizes of the same drawing (``assets/make_tileset.py``): ``small`` (10x16 px tiles, the one screenshots use),
``medium`` (14x22) and ``large`` (20x32, for high-resolution screens). The window picks one (:mod:`undercroft.ui.app`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import tcod.tileset

from undercroft.paths import assets_dir


@dataclass(frozen=True)
class TilesetInfo:
    file: str
    tile_w: int
    tile_h: int


# name -> file and tile size, smallest first
TILESETS: dict[str, TilesetInfo] = {
    "small": TilesetInfo("tileset_10x16.png", 10, 16),
    "medium": TilesetInfo("tileset_14x22.png", 14, 22),
    "large": TilesetInfo("tileset_20x32.png", 20, 32),
}
DEFAULT_TILESET = "small"

TILE_W, TILE_H = TILESETS[DEFAULT_TILESET].tile_w, TILESETS[DEFAULT_TILESET].tile_h


class TilesetMissing(Exception):
    """The shipped tileset is absent or unreadable (a broken install)."""


def tileset_path(name: str = DEFAULT_TILESET) -> Path:
    return assets_dir() / TILESETS[name].file


def load_tileset(name: str = DEFAULT_TILESET) -> tcod.tileset.Tileset:
    """The tileset ``name`` (a key of :data:`TILESETS`), loaded once."""
    return _load(name)


@lru_cache(maxsize=len(TILESETS))
def _load(name: str) -> tcod.tileset.Tileset:
    path = tileset_path(name)
    if not path.is_file():
        raise TilesetMissing(f"the tileset {path} is missing (a broken install?)")
    try:
        return tcod.tileset.load_tilesheet(path, 16, 16, tcod.tileset.CHARMAP_CP437)
    except (RuntimeError, OSError) as exc:
        raise TilesetMissing(f"the tileset {path} cannot be loaded: {exc}") from None
