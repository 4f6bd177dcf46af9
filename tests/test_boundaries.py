"""The engine's boundary, checked over the source: nothing outside ``undercroft.rules`` reaches for a private name of
it, and no mode is written as a bare string outside its definition (``rules/types.py``)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "undercroft"
MODES = {"explore", "encounter", "combat", "pursuit", "dead", "won"}
MODE_ATTRIBUTE = re.compile(r"\.\s*mode\b")
ENGINE_NAMES = re.compile(r"^(game|g|self\.game|self\.session\.game|session\.game|ctx|engine)$")


def python_files(*roots: Path) -> Iterator[Path]:
    for root in roots:
        yield from sorted(root.rglob("*.py"))


def outside_rules() -> list[Path]:
    return [p for p in python_files(SRC, ROOT / "tests") if not p.is_relative_to(SRC / "rules")]


def private_uses(path: Path) -> list[str]:
    """``game._x`` / ``Game._x`` attribute uses and ``from undercroft.rules... import _x`` in one file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("undercroft.rules"):
            found += [f"{path}:{node.lineno}: imports {a.name}" for a in node.names if a.name.startswith("_")]
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            owner = ast.unparse(node.value)
            if ENGINE_NAMES.match(owner) or owner == "Game":
                found.append(f"{path}:{node.lineno}: {owner}.{node.attr}")
    return found


def bare_modes(path: Path) -> list[str]:
    """Comparisons of a ``.mode`` with a string literal naming a mode (``st.mode == "explore"``)."""
    text = path.read_text(encoding="utf-8")
    if not MODE_ATTRIBUTE.search(text):
        return []  # (no ``.mode`` to compare: three files in four, not parsed)
    tree = ast.parse(text, str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            mode_side = any(isinstance(s, ast.Attribute) and s.attr == "mode" for s in sides)
            literals = [c for s in sides for c in ast.walk(s) if isinstance(c, ast.Constant) and c.value in MODES]
            if mode_side and literals:
                found.append(f"{path}:{node.lineno}: {ast.unparse(node)}")
    return found


@pytest.mark.slow
def test_nothing_outside_the_rules_uses_their_private_names() -> None:
    found = [line for p in outside_rules() for line in private_uses(p)]
    assert not found, (
        "use the engine's public interface (Game.add_group, start_encounter, forced_dice, ...):\n" + "\n".join(found)
    )


def test_no_mode_is_a_bare_string_in_the_source() -> None:
    files = [p for p in python_files(SRC) if p != SRC / "rules" / "types.py"]
    found = [line for p in files for line in bare_modes(p)]
    assert not found, "compare modes with undercroft.rules.types.Mode:\n" + "\n".join(found)


def test_the_checks_catch_what_they_look_for(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        'from undercroft.rules.game import _x\ngame._forced = 1\nif st.mode == "combat": pass\n'
        'if self.session.game.state.mode in ("explore", "won"): pass\n',
        encoding="utf-8",
    )
    assert len(private_uses(bad)) == 2
    assert len(bare_modes(bad)) == 2
