"""Refusals are codes: the engine says why an action is refused as a code and its fields (``rules/refusals.py``),
never as a sentence, and ``undercroft.narrate`` words it; docs/EVENTS.md lists every code, its fields and its words."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from engine_helpers import content
from event_helpers import sample

from undercroft.narrate import REFUSALS, Narrator
from undercroft.rules.refusals import Code

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "src" / "undercroft" / "rules"

# A sentence: a capital letter (or a name put in: "{}") first, a full stop, "!" or "?" last, three words or more.
SENTENCE = re.compile(r"(?:[A-Z]|\{\}).*[.!?]", re.DOTALL)
WORD = re.compile(r"[A-Za-z]+")


def _texts(tree: ast.Module) -> list[tuple[int, str]]:
    """Every string constant of a module with its line, an f-string as one text with ``{}`` for each name put in;
    docstrings and other bare strings (statements of their own, read as comments) left out."""
    bare = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}
    parts = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
    out: list[tuple[int, str]] = []
    for n in ast.walk(tree):
        if id(n) in bare or id(n) in parts:
            continue
        if isinstance(n, ast.JoinedStr):
            out.append((n.lineno, "".join(str(v.value) if isinstance(v, ast.Constant) else "{}" for v in n.values)))
        elif isinstance(n, ast.Constant) and isinstance(n.value, str):
            out.append((n.lineno, n.value))
    return out


def english_in(folder: Path) -> list[str]:
    """``file:line: 'text'`` for every string constant of the modules in ``folder`` that reads as an English
    sentence (outside docstrings)."""
    found: list[tuple[str, int, str]] = []
    for path in sorted(folder.rglob("*.py")):
        for line, text in _texts(ast.parse(path.read_text(encoding="utf-8"))):
            if SENTENCE.fullmatch(text.strip()) and len(WORD.findall(text)) >= 3:
                found.append((path.name, line, text))
    return [f"{name}:{line}: {text!r}" for name, line, text in sorted(found)]


def test_no_english_sentence_in_the_rules() -> None:
    found = english_in(RULES)
    assert not found, "English sentences in rules/ (a refusal is a Code; narrate words it):\n" + "\n".join(found)


def test_the_scan_finds_a_sentence_and_passes_over_docstrings_and_messages(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        '"""A docstring may say anything."""\n'
        "def f(name: str) -> None:\n"
        '    """Nor is this one read."""\n'
        '    "A bare string is a comment."\n'
        '    if name == "no_potion":\n'
        '        raise ValueError(f"seed {name} is outside 0..9")\n'
        '    raise RuntimeError(f"{name} is in the way.")\n'
        'WALL = "A wall is in the way."\n',
        encoding="utf-8",
    )
    assert english_in(tmp_path) == ["m.py:7: '{} is in the way.'", "m.py:8: 'A wall is in the way.'"]


def test_every_code_has_a_narration() -> None:
    assert set(REFUSALS) == set(Code)


def documented() -> tuple[dict[str, set[str]], list[dict[str, object]]]:
    """docs/EVENTS.md's ``refused`` section: each code's fields (its table), and its example lines."""
    doc = (ROOT / "docs" / "EVENTS.md").read_text(encoding="utf-8")
    section = doc[doc.index("### `refused`\n") :]
    section = section[: section.index("\n## ")]
    table = re.findall(r"^\| `(\w+)` \|\s*((?:`\w+`(?:, `\w+`)*)?)\s*\|", section, re.MULTILINE)
    fields = {code: {x.strip("`") for x in f.split(", ")} if f else set() for code, f in table}
    examples = [json.loads(ln) for ln in section.splitlines() if ln.startswith('{"type":"refused"')]
    return fields, examples


def test_events_md_names_every_code_with_its_fields_and_words() -> None:
    fields, examples = documented()
    assert set(fields) == set(Code), "the table of codes in docs/EVENTS.md"
    assert sorted(str(e["reason"]) for e in examples) == sorted(Code), "one example line for every code"
    nar = Narrator(content(), "undercroft")
    for e in examples:
        data = {k: v for k, v in e.items() if k not in ("type", "text")}
        assert set(data) - {"action", "reason"} == fields[str(e["reason"])], e
        assert e["text"] == nar.text(sample({"type": "refused", **data})), e


def test_the_engine_gives_each_code_its_documented_fields() -> None:
    """Every ``Reason(Code.X, {...})`` in rules/ carries the fields docs/EVENTS.md names for X, and every code is
    given somewhere (none left over)."""
    fields, _ = documented()
    given: set[str] = set()
    for path in sorted(RULES.rglob("*.py")):
        for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "Reason"):
                continue
            codes = [
                Code[a.attr].value
                for a in ast.walk(n.args[0])
                if isinstance(a, ast.Attribute) and isinstance(a.value, ast.Name) and a.value.id == "Code"
            ]
            keys: set[str] = set()
            if len(n.args) > 1:
                assert isinstance(n.args[1], ast.Dict), f"{path.name}:{n.lineno}: the fields as a dict display"
                keys = {k.value for k in n.args[1].keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
            for code in codes:
                assert keys == fields[code], f"{path.name}:{n.lineno}: {code} with {sorted(keys)}"
            given.update(codes)
    assert given == set(Code)
