"""The front ends never reach back into the command line (``ui`` and ``term`` take plain options from it), and
``ui`` never imports ``term``."""

from __future__ import annotations

import ast
from pathlib import Path

import undercroft

PACKAGE = Path(undercroft.__file__).resolve().parent


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, at the top or inside a function (``from . import x`` resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts[:-1])
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)
    return out


def test_ui_and_term_never_import_the_command_line() -> None:
    files = sorted((PACKAGE / "ui").rglob("*.py")) + sorted((PACKAGE / "term").rglob("*.py"))
    assert len(files) > 10
    offenders = {
        str(f.relative_to(PACKAGE))
        for f in files
        if any(m == "undercroft.cli" or m.startswith("undercroft.cli.") for m in imported_modules(f))
    }
    assert offenders == set()


def test_ui_never_imports_term() -> None:
    """term sits on ui (its scenes, its console): ui importing term back would make the two one tangle."""
    offenders = {
        str(f.relative_to(PACKAGE))
        for f in sorted((PACKAGE / "ui").rglob("*.py"))
        if any(m == "undercroft.term" or m.startswith("undercroft.term.") for m in imported_modules(f))
    }
    assert offenders == set()


def test_the_check_sees_a_lazy_import() -> None:
    f = PACKAGE / "ui" / "loop.py"
    assert "undercroft.ui.frontend" in imported_modules(f)
    assert "undercroft.ui.replay_view" in imported_modules(f)  # imported inside watch()
