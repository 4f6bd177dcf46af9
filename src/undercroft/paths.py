"""Where things live: the shipped data and assets (relative to the package, never the working directory) and
the user's save directory."""

from __future__ import annotations

import os
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


SAVES = "saves"  # the folder of saved games under :func:`user_data_dir`


def recording_short_name(path: Path) -> str:
    """How a command names ``path`` in few characters: for a recording in the saves folder (or a folder under it),
        the shortest start of its file name from its date on that no other recording there shares
    (``citadel-1405-20261207``: what
        :func:`find_recording` reads back); any other file, its path as given."""
    saves = user_data_dir() / SAVES
    try:
        full = path.expanduser().resolve()
        full.relative_to(saves.resolve())
        others = [p.name for p in saves.rglob("*.jsonl") if p.resolve() != full]
    except (OSError, ValueError):
        return str(path)
    name = full.name
    least = len("-".join(full.stem.split("-")[:3]))  # RULESET-SEED-DATE at least: it stays unique for a while
    for n in range(least, len(name) + 1):
        if not any(o.startswith(name[:n]) for o in others):
            return name[:n]
    return str(path)


def find_recording(name: str) -> Path | None:
    """The recording that ``name`` names when it is no file: the one in the saves folder (or a folder under it)
    whose file name starts with it, when exactly one does; None otherwise."""
    if not name or os.sep in name or "/" in name:
        return None
    try:
        found = [p for p in (user_data_dir() / SAVES).rglob("*.jsonl") if p.name.startswith(name)]
    except OSError:
        return None
    return found[0] if len(found) == 1 else None
