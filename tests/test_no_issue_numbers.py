"""No comment or docstring in the source or the tests, and no page of the docs, cites an issue number: a reader of
a clone cannot open the tracker, so a comment or a page says the rule or the reason itself."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CITATION = re.compile(r"\b[Ii]ssues?\s*#?\d+")


def test_no_comment_cites_an_issue_number() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for folder in ("src", "tests")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if CITATION.search(line)
    ]
    assert not found, "say what the issue asked for instead of its number:\n" + "\n".join(found)


def test_no_page_of_the_docs_cites_an_issue_number() -> None:
    pages = [
        ROOT / "README.md",
        ROOT / "CONTRIBUTING.md",
        ROOT / "CHANGELOG.md",
        *sorted((ROOT / "docs").rglob("*.md")),
    ]
    found = [
        f"{path.relative_to(ROOT)}:{n}: {CITATION.search(line).group(0)}"  # type: ignore[union-attr]
        for path in pages
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if CITATION.search(line)
    ]
    assert not found, "say what the issue asked for instead of its number:\n" + "\n".join(found)
