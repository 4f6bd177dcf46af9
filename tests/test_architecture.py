"""docs/ARCHITECTURE.md's generated import graph is up to date, and its generator works (only in tmp_path)."""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path

import pytest

from undercroft.tools.architecture import (
    BEGIN,
    END,
    REGENERATE,
    Scan,
    current_section,
    main,
    render_section,
    replace_section,
    scan_package,
)

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "ARCHITECTURE.md"


@pytest.fixture(scope="module")
def scan() -> Scan:
    """The source tree, scanned once for the tests below."""
    return scan_package(ROOT / "src", display_root=ROOT)


def test_generated_import_graph_is_up_to_date(scan: Scan) -> None:
    want = render_section(scan)
    have = current_section(DOC.read_text(encoding="utf-8"))
    assert have is not None, f"docs/ARCHITECTURE.md has no {BEGIN} ... {END} section"
    if have != want:
        diff = "\n".join(difflib.unified_diff(have.splitlines(), want.splitlines(), "written", "source", lineterm=""))
        pytest.fail(f"docs/ARCHITECTURE.md's import graph is out of date; regenerate it with: {REGENERATE}\n{diff}")


def test_the_section_names_every_package_and_arrow(scan: Scan) -> None:
    section = render_section(scan)
    assert section.startswith(BEGIN) and section.endswith(END)
    assert "```mermaid\ngraph LR\n" in section
    for unit in scan.units():
        assert f"\n    {unit}\n" in section
    for a, b in scan.unit_edges():
        assert f"\n    {a} --> {b}\n" in section
    assert "\nrules" in section and "-> content, notation\n" in section


@pytest.mark.slow
def test_render_is_deterministic() -> None:
    assert render_section(scan_package(ROOT / "src")) == render_section(scan_package(ROOT / "src"))


TINY = {
    "src/undercroft/__init__.py": "",
    "src/undercroft/notation.py": "import re\n",
    "src/undercroft/content/__init__.py": "import yaml\nfrom undercroft.notation import Dice\n",
    "src/undercroft/rules/game.py": "import numpy as np\nfrom undercroft import content\nfrom . import dice\n",
    "src/undercroft/rules/dice.py": "from undercroft.notation import Dice\n",
    "src/undercroft/cli.py": "from undercroft.rules.game import Game\nimport undercroft.content\n",
}
DOC_TEXT = f"# Title\n\nProse before.\n\n{BEGIN}\nstale\n{END}\n\nProse after.\n"


def _repo(tmp_path: Path, doc: str | None = DOC_TEXT) -> Path:
    for rel, text in TINY.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    if doc is not None:
        (tmp_path / "docs").mkdir()
        (tmp_path / "docs" / "ARCHITECTURE.md").write_text(doc, encoding="utf-8")
    return tmp_path


def test_section_of_a_tiny_package(tmp_path: Path) -> None:
    section = render_section(scan_package(_repo(tmp_path) / "src"))
    assert "\n    cli --> content\n    cli --> rules\n    content --> notation\n" in section
    assert "\n    rules --> content\n    rules --> notation\n" in section
    assert "\ncli        -> content, rules\n" in section
    assert "\nnotation   -> (nothing)\n" in section
    assert "\ncontent    -> yaml\n" in section and "\nrules      -> numpy\n" in section  # re is stdlib: left out
    assert "5 packages and top-level modules, 5 arrows" in section


def test_check_write_and_print(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _repo(tmp_path)
    doc = root / "docs" / "ARCHITECTURE.md"
    assert main(["--check", "--root", str(root)]) == 1
    assert REGENERATE in capsys.readouterr().err
    assert doc.read_text(encoding="utf-8") == DOC_TEXT, "--check never writes"

    assert main(["--root", str(root)]) == 0  # no flag: print only
    assert capsys.readouterr().out.startswith(BEGIN)
    assert doc.read_text(encoding="utf-8") == DOC_TEXT, "printing never writes"

    assert main(["--write", "--root", str(root)]) == 0
    text = doc.read_text(encoding="utf-8")
    assert text.startswith("# Title\n\nProse before.\n\n" + BEGIN) and text.endswith(END + "\n\nProse after.\n")
    assert "stale" not in text
    assert main(["--check", "--root", str(root)]) == 0

    (root / "src" / "undercroft" / "notation.py").write_text("import re\nfrom undercroft import cli\n", "utf-8")
    assert main(["--check", "--root", str(root)]) == 1, "a new import makes the graph stale"


def test_write_refuses_a_document_without_markers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _repo(tmp_path, doc="# No markers\n")
    assert main(["--write", "--root", str(root)]) == 2
    assert "must hold one" in capsys.readouterr().err
    assert (root / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8") == "# No markers\n"
    shutil.rmtree(root / "docs")
    assert main(["--check", "--root", str(root)]) == 2


def test_replace_section_keeps_the_prose() -> None:
    out = replace_section(DOC_TEXT, f"{BEGIN}\nnew\n{END}")
    assert out == f"# Title\n\nProse before.\n\n{BEGIN}\nnew\n{END}\n\nProse after.\n"
    with pytest.raises(ValueError):
        replace_section(DOC_TEXT + BEGIN, "x")
