"""Where things live: the shipped data and assets (relative to the package, never the working directory) and
the user's save directory."""

from __future__ import annotations

from pathlib import Path

_PKG = Path(__file__).resolve().parent


def _shipped(name: str) -> Path:
    # An installed wheel carries them inside the package (`_data`, `_assets`); a source checkout or an editable
    # install finds them at the top of the repository.
    inside = _PKG / f"_{name}"
    if inside.is_dir():
        return inside
    return _PKG.parent.parent / name


def data_dir() -> Path:
    return _shipped("data")


def assets_dir() -> Path:
    return _shipped("assets")


def user_data_dir() -> Path:
    """Saves, morgue files and crash reports (created on demand)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("undercroft", appauthor=False))


def user_state_dir() -> Path:
    """What the game keeps for itself outside the saves folder (the key of the saves' index)."""
    import platformdirs

    return Path(platformdirs.user_state_dir("undercroft", appauthor=False))
