"""libtcod's C library (``ffi``, ``lib``) for the field of view, without tcod's Python package.

``import tcod.map`` runs ``tcod/__init__``, which imports every module of tcod: the window, the console, SDL's
events, the tilesets (about 450 modules and most of a second of CPU). The rules need one C function of it, the
symmetric shadowcaster (:mod:`undercroft.rules.sight`). This module loads the compiled module under it,
``tcod._libtcod``, from tcod's folder as Python would, and nothing else: the engine, the simulators and the bot
never load window code. When a front end imports tcod later, tcod finds ``tcod._libtcod`` already loaded and uses
the same one (an extension module is loaded once per process).

On Windows tcod first puts its SDL library's folder on ``PATH`` (``tcod/cffi.py``); there the whole package is
imported instead.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

NAME = "tcod._libtcod"


def _load() -> ModuleType:
    loaded = sys.modules.get(NAME)
    if loaded is not None:
        return loaded
    package = importlib.util.find_spec("tcod")  # (a top-level name: found, not run)
    folders = [] if package is None else list(package.submodule_search_locations or [])
    if sys.platform == "win32" or not folders:
        importlib.import_module("tcod.cffi")  # (loads tcod._libtcod the package's way: the whole package)
        return sys.modules[NAME]
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        path = Path(folders[0]) / f"_libtcod{suffix}"
        if path.is_file():
            loader = importlib.machinery.ExtensionFileLoader(NAME, str(path))
            spec = importlib.util.spec_from_file_location(NAME, path, loader=loader)
            assert spec is not None
            module = importlib.util.module_from_spec(spec)
            loader.exec_module(module)
            sys.modules[NAME] = module
            return module
    raise ImportError(f"tcod's compiled library (_libtcod) is not in {folders[0]}")


_module = _load()
ffi: Any = _module.ffi
lib: Any = _module.lib
#: libtcod's symmetric shadowcasting, the field of view's algorithm (tcod.constants.FOV_SYMMETRIC_SHADOWCAST)
FOV_SYMMETRIC_SHADOWCAST: int = lib.FOV_SYMMETRIC_SHADOWCAST
