"""docs/ARCHITECTURE.md walks one key press from the keyboard to the screen and the recording ("The life of one key
press"), naming the code at each step. Every code name it cites in backticks must exist, so the walk-through cannot
name a function that is gone: a module path (``ui/loop.py``) is a file, ``path.py: Name.attr`` is found in that
module, and a dotted or bare name (``Loop.run``, ``encounter.begin``, ``pickup``, ``tcod.event.wait``) in some module
of undercroft that defines its first part (or, for a library's, by importing it); ``game``, ``session`` and ``state``
are the objects of those classes. A word in backticks that is not code (an event's type, a log level, a key) must be
one of :data:`NOT_CODE`; an event's type must be in docs/EVENTS.md."""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "undercroft"
DOC = ROOT / "docs" / "ARCHITECTURE.md"
SECTION = "## The life of one key press"

ALIASES = {  # an object the walk-through speaks of by its variable's name
    "game": "undercroft.rules.game.Game",
    "session": "undercroft.ui.session.Session",
    "state": "undercroft.rules.state.GameState",
}
EVENTS = {"encounter", "enter", "move", "refused", "roll", "surprise", "table"}  # events' types (docs/EVENTS.md)
NOT_CODE = EVENTS | {"detail", "l"}  # a log line's level; a key
DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.\w+)*")
TOP_LEVEL = re.compile(r"^(?:(?:async def|def|class) (\w+)|(\w+)\s*(?::[^=\n]*)?=)", re.M)  # a def, a class, NAME = ...


def key_path() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(SECTION)
    return text[start : text.index("\n## ", start + 1)]


def cited(section: str) -> list[str]:
    return sorted(set(re.findall(r"`([^`\n]+)`", section)))


def module_name(path: str) -> str:
    """``ui/loop.py`` -> ``undercroft.ui.loop``; ``ui/scenes/`` -> ``undercroft.ui.scenes``."""
    return "undercroft." + path.removesuffix("/").removesuffix(".py").replace("/", ".")


@cache
def defined_in() -> dict[str, list[str]]:
    """Each name at the top level of a module of undercroft (a module's own short name too) -> those modules."""
    found: dict[str, list[str]] = {}
    for file in sorted(SRC.rglob("*.py")):
        parts = file.relative_to(SRC.parent).with_suffix("").parts
        mod = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found.setdefault(mod.rsplit(".", 1)[-1], []).append(mod)
        for defined, assigned in TOP_LEVEL.findall(file.read_text(encoding="utf-8")):
            found.setdefault(defined or assigned, []).append(mod)
    return found


def attribute(obj: object, name: str) -> object | None:
    """``obj.name``: an attribute, a dataclass field or an attribute a class's methods set on ``self``."""
    if hasattr(obj, name):
        found: object = getattr(obj, name)
        return found
    if inspect.isclass(obj):
        if dataclasses.is_dataclass(obj) and name in {f.name for f in dataclasses.fields(obj)}:
            return obj
        if re.search(rf"\bself\.{name}\b\s*(:[^=\n]*)?=", inspect.getsource(obj)):
            return obj
    return None


def walk(obj: object, rest: list[str]) -> bool:
    for name in rest:
        found = attribute(obj, name)
        if found is None:
            return False
        obj = found
    return True


def starts(first: str) -> Iterator[object]:
    """What the first part of a dotted name may be: an alias, a module of undercroft or a name defined in one (each
    imported only when the ones before it did not do)."""
    if first in ALIASES:
        mod, _, name = ALIASES[first].rpartition(".")
        yield getattr(importlib.import_module(mod), name)
    for mod in defined_in().get(first, []):
        m: ModuleType = importlib.import_module(mod)
        yield m if mod.rsplit(".", 1)[-1] == first else getattr(m, first)


def exists(dotted: str) -> bool:
    first, *rest = dotted.split(".")
    if any(walk(obj, rest) for obj in starts(first)):
        return True
    if first in defined_in() or first in ALIASES:
        return False
    for i in range(len(rest), -1, -1):  # a library's name: os.write, tcod.event.wait, blessed.Terminal.inkey
        try:
            mod = importlib.import_module(".".join([first, *rest[:i]]))
        except ImportError:
            continue
        return walk(mod, rest[i:])
    return False


def problem(code: str) -> str | None:
    """Why ``code`` (the text between two backticks) names nothing, or None."""
    if code in NOT_CODE:
        return None
    path, sep, name = code.partition(": ")
    if sep or path.endswith((".py", "/")):
        if not (SRC / path).exists():
            return f"no file src/undercroft/{path}"
        if not sep:
            return None
        if not walk(importlib.import_module(module_name(path)), name.split(".")):
            return f"{name} is not in {path}"
        return None
    m = DOTTED.match(code)
    if m is None or code[0] == "(":
        return None  # a value (a direction, a pair, a repeat count): not a name
    if not exists(m.group()):
        return f"no {m.group()} in undercroft or its libraries"
    return None


def test_every_name_the_key_path_cites_exists() -> None:
    names = cited(key_path())
    assert len(names) > 50  # the section is found, and it names the code at each step
    found = [f"`{c}`: {why}" for c in names if (why := problem(c)) is not None]
    assert not found, "docs/ARCHITECTURE.md, " + SECTION[3:] + ", cites what is not there:\n" + "\n".join(found)


def test_the_events_it_names_are_events() -> None:
    events = DOC.with_name("EVENTS.md").read_text(encoding="utf-8")
    assert [e for e in sorted(EVENTS) if f"`{e}`" not in events] == []


def test_the_check_finds_a_name_that_is_gone() -> None:
    assert problem("ui/loop.py: Loop.run") is None and problem("Loop.run") is None
    assert problem("ui/loop.py: Loop.sprint") == "Loop.sprint is not in ui/loop.py"
    assert problem("ui/nowhere.py") == "no file src/undercroft/ui/nowhere.py"
    assert problem("Session.act") is None and problem("Session.frobnicate") is not None
    assert problem("session.last_events") is None  # an attribute set in __init__
    assert problem("tcod.event.wait") is None and problem("tcod.event.wait_forever") is not None
    assert problem("encounter.begin") is None and problem("encounter.end_of_days") is not None
