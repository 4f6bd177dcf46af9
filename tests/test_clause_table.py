"""The clause table of docs/RULES.md names only functions, data keys and clauses that exist, and tests every row.

Every row of the table under ``## Clause table`` is one clause of the three source texts: its id, what it says, its
status (as written / adapted / not built) and the main code that carries it out; the notes under the table
(``- **id**: ...``) say why a clause is adapted or not built and name further code (after "Also implemented by").
Tests declare the clauses they check with ``@pytest.mark.clause("001-fight-3")``. This test reads the table, its
notes and the markers (test modules are parsed, never imported) and fails, naming the row, when a function or data
key it names does not exist, a marker names no row, an adapted or not built row has no note, or a row as written or
adapted has no marked test (unless its note says "No test checks it yet"), or a row is longer than a line. It also
counts the rows of each status, per text and in all, and fails when the counts printed under the heading differ from
the table (so the numbers cannot go stale).
"""

from __future__ import annotations

import ast
import importlib
import re
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
RULES_MD = ROOT / "docs" / "RULES.md"
HEADING = "## Clause table"
STATUSES = ("as written", "adapted", "not built")
COLUMNS = ["id", "text says", "status", "implemented by"]
ROW_MAX = 160  # characters: a row reads as one line
UNTESTED = "No test checks it yet."
NONE = "—"
MIN_ROWS = 90

_CODE = re.compile(r"`([^`]+)`")
_DATA = re.compile(r"^(data/[\w./-]+\.ya?ml)(?::\s*([\w.]+))?$")
_NAME = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$")
_NOTE = re.compile(r"^- \*\*([\w.-]+)\*\*: (.+)$")
_ALSO = re.compile(r"Also implemented by (.+?)\.(?: |$)")
_ID = re.compile(r"^00[013]-[\w.-]+$")
TEXTS = ("000", "001", "003")
ALL = "all three"
_COUNT = re.compile(
    r"^- \*\*(000|001|003|all three)\*\*: (\d+) as written, (\d+) adapted, (\d+) not built \((\d+) clauses\)$"
)


@dataclass(frozen=True)
class Row:
    id: str
    says: str
    status: str
    implemented_by: list[str]
    length: int


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _names(cell: str) -> list[str]:
    """The backticked names of a cell; a cell of ``—`` names nothing."""
    return [] if cell.strip() == NONE else _CODE.findall(cell)


def parse_table(text: str) -> list[Row]:
    """The rows of the table under ``## Clause table`` in ``text`` (up to the next heading)."""
    return _parse(text)[0]


def parse_notes(text: str) -> dict[str, str]:
    """The notes under the table (``- **id**: note``, up to the next heading), by row id."""
    return _parse(text)[1]


def _parse(text: str) -> tuple[list[Row], dict[str, str]]:
    lines = text.splitlines()
    try:
        start = lines.index(HEADING)
    except ValueError:
        raise AssertionError(f"no {HEADING!r} heading") from None
    rows: list[Row] = []
    notes: dict[str, str] = {}
    header_seen = False
    for line in lines[start + 1 :]:
        if line.startswith("#"):
            break
        note = _NOTE.match(line)
        if note is not None and header_seen:
            assert note.group(1) not in notes, f"two notes for {note.group(1)}"
            notes[note.group(1)] = note.group(2)
        if not line.startswith("|"):
            continue
        cells = _cells(line)
        if not header_seen:
            assert cells == COLUMNS, f"the clause table's columns are {cells}, not {COLUMNS}"
            header_seen = True
            continue
        if set("".join(cells)) <= set("-: "):
            continue  # the separator line
        assert len(cells) == len(COLUMNS), f"row {cells[0]!r} has {len(cells)} cells, not {len(COLUMNS)}"
        rows.append(Row(cells[0], cells[1], cells[2], _names(cells[3]), len(line)))
    assert header_seen, "the clause table has no header row"
    return rows, notes


Counts = dict[str, tuple[int, int, int]]  # text (or ALL) -> (as written, adapted, not built)


def status_kind(status: str) -> str | None:
    """Which of :data:`STATUSES` a status cell is, or None."""
    return next((s for s in STATUSES if status.startswith(s)), None)


def count(rows: list[Row]) -> Counts:
    """How many rows of each status, per text and in all."""
    out: Counts = {}
    for text in (*TEXTS, ALL):
        kinds = [status_kind(r.status) for r in rows if text == ALL or r.id.startswith(f"{text}-")]
        out[text] = (kinds.count(STATUSES[0]), kinds.count(STATUSES[1]), kinds.count(STATUSES[2]))
    return out


def printed_counts(text: str) -> Counts:
    """The counts printed under ``## Clause table`` (before the table), as
    ``- **000**: 30 as written, 8 adapted, 1 not built (39 clauses)``; each line's total must add up."""
    lines = text.splitlines()
    start = lines.index(HEADING)
    out: Counts = {}
    for line in lines[start + 1 :]:
        if line.startswith(("|", "#")):
            break
        m = _COUNT.match(line)
        if m is None:
            continue
        written, adapted, not_built, total = (int(x) for x in m.group(2, 3, 4, 5))
        assert written + adapted + not_built == total, f"the printed counts of {m.group(1)} do not add up: {line}"
        assert m.group(1) not in out, f"the counts of {m.group(1)} are printed twice"
        out[m.group(1)] = (written, adapted, not_built)
    return out


def _module_of(dotted: str) -> tuple[ModuleType, list[str]] | None:
    """The longest importable module prefix of ``dotted`` and the attribute path after it."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            return importlib.import_module(".".join(parts[:cut])), parts[cut:]
        except ImportError:
            continue
    return None


def check_code(name: str, root: Path = ROOT) -> str | None:
    """Why ``name`` does not exist, or None.

    ``name`` is ``module.attr`` (under ``undercroft.rules``), a full ``undercroft.`` path or ``data/file.yaml: key``.
    """
    data = _DATA.match(name)
    if data is not None:
        path = root / data.group(1)
        if not path.is_file():
            return f"no file {data.group(1)}"
        if data.group(2) is None:
            return None
        node: Any = yaml.safe_load(path.read_text(encoding="utf-8"))
        for key in data.group(2).split("."):
            if not isinstance(node, dict) or key not in node:
                return f"no key {data.group(2)!r} in {data.group(1)}"
            node = node[key]
        return None
    if not _NAME.match(name):
        return f"{name!r} is neither module.function nor data/file.yaml: key"
    dotted = name if name.startswith("undercroft.") else f"undercroft.rules.{name}"
    found = _module_of(dotted)
    if found is None:
        return f"no module for {dotted}"
    obj: object = found[0]
    for attr in found[1]:
        if not hasattr(obj, attr):
            return f"no {dotted}"
        obj = getattr(obj, attr)
    return None


def _clause_ids(decorator: ast.expr) -> list[str] | None:
    """The ids of a ``pytest.mark.clause(...)`` decorator, or None for any other decorator."""
    if not isinstance(decorator, ast.Call):
        return None
    name = ast.unparse(decorator.func)
    if name not in ("pytest.mark.clause", "mark.clause"):
        return None
    return [
        a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else ast.unparse(a) for a in decorator.args
    ]


def clause_markers(root: Path = ROOT) -> dict[str, list[str]]:
    """Row id -> the tests (``tests/test_x.py::test_name``) marked ``@pytest.mark.clause`` with it."""
    out: dict[str, list[str]] = {}
    for path in sorted((root / "tests").rglob("test_*.py")):
        text = path.read_text(encoding="utf-8")
        if "mark.clause" not in text:
            continue
        for node in ast.walk(ast.parse(text, filename=str(path))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for decorator in node.decorator_list:
                for clause in _clause_ids(decorator) or []:
                    out.setdefault(clause, []).append(f"{path.relative_to(root).as_posix()}::{node.name}")
    return out


def problems(rows: list[Row], notes: dict[str, str], markers: dict[str, list[str]], root: Path = ROOT) -> list[str]:
    """Every problem of the table, its notes and the tests' clause markers, each naming its row."""
    out: list[str] = []
    seen: set[str] = set()
    for row in rows:
        if not _ID.match(row.id):
            out.append(f"{row.id}: the id does not start with its text (000-, 001-, 003-)")
        if row.id in seen:
            out.append(f"{row.id}: the id is used twice")
        seen.add(row.id)
        if not row.says:
            out.append(f"{row.id}: says nothing")
        if row.length > ROW_MAX:
            out.append(f"{row.id}: the row has {row.length} characters, more than {ROW_MAX}")
        note = notes.get(row.id, "")
        if row.status not in STATUSES:
            out.append(f"{row.id}: status {row.status!r} is none of {STATUSES}")
        elif row.status != "as written" and not note:
            out.append(f"{row.id}: {row.status} but no note under the table says why")
        if row.status != "not built" and row.id not in markers and UNTESTED not in note:
            out.append(f"{row.id}: {row.status} but no test is marked @pytest.mark.clause({row.id!r})")
        also = _ALSO.search(note)
        for name in row.implemented_by + (_CODE.findall(also.group(1)) if also else []):
            why = check_code(name, root)
            if why is not None:
                out.append(f"{row.id}: implemented by {name}: {why}")
    ids = {row.id for row in rows}
    out += [f"{i}: a note names no row of the table" for i in notes if i not in ids]
    out += [f"{i}: marked on {', '.join(ts)} but no row of the table" for i, ts in markers.items() if i not in ids]
    return out


@pytest.fixture(scope="module")
def rows() -> list[Row]:
    return parse_table(RULES_MD.read_text(encoding="utf-8"))


def test_the_table_covers_the_three_texts(rows: list[Row]) -> None:
    assert len(rows) >= MIN_ROWS, f"the clause table has {len(rows)} rows, fewer than {MIN_ROWS}"
    for text in ("000", "001", "003"):
        assert any(r.id.startswith(f"{text}-") for r in rows), f"no clause of text {text}"


def test_every_status_is_one_of_the_three_kinds(rows: list[Row]) -> None:
    bad = [f"{r.id}: {r.status!r}" for r in rows if r.status not in STATUSES]
    assert not bad, "statuses that are none of as written / adapted / not built:\n" + "\n".join(bad)


@pytest.mark.slow
def test_every_function_data_key_and_test_named_exists(rows: list[Row]) -> None:
    found = problems(rows, parse_notes(RULES_MD.read_text(encoding="utf-8")), clause_markers())
    assert not found, "the clause table names what does not exist:\n" + "\n".join(found)


def test_the_printed_counts_are_the_tables(rows: list[Row]) -> None:
    printed = printed_counts(RULES_MD.read_text(encoding="utf-8"))
    assert set(printed) == {*TEXTS, ALL}, f"RULES.md prints counts for {sorted(printed)}, not for 000, 001, 003 and all"
    table = count(rows)
    wrong = [f"{t}: printed {printed[t]}, the table has {table[t]}" for t in table if printed[t] != table[t]]
    assert not wrong, "the counts under '## Clause table' (as written, adapted, not built) are stale:\n" + "\n".join(
        wrong
    )


def test_a_built_clause_names_its_code(rows: list[Row]) -> None:
    bare = [r.id for r in rows if not r.status.startswith("not built") and not r.implemented_by]
    assert not bare, f"clauses built but naming no code: {bare}"


_SYNTHETIC = f"""# Rules

Some prose | with a pipe.

{HEADING}

- **000**: 1 as written, 0 adapted, 0 not built (1 clauses)
- **001**: 1 as written, 0 adapted, 0 not built (1 clauses)
- **003**: 0 as written, 1 adapted, 1 not built (2 clauses)
- **all three**: 3 as written, 1 adapted, 1 not built (5 clauses)

| id | text says | status | implemented by |
| --- | --- | --- | --- |
| 001-roll-3 | d20 | as written | `formulas.attack` |
| 001-roll-9 | a made-up clause | as written | `combat.no_such_function` |
| 003-time-2 | 10 s | adapted | `data/rules.yaml: time.round_seconds` |
| 003-x-1 | spells | not built | — |
| 000-8.1 | a bad status | perhaps | `game.Game.no_such_method`, `undercroft.narrate.Narrator.text` |
| 000-8.2 | {"a row too long to read as one line " * 4} | as written | `formulas.attack` |

- **003-time-2**: rounds of 10 s. Also implemented by `data/rules.yaml: time.no_key`.
- **000-8.1**: No test checks it yet.
- **000-9.9**: a note for no row.

## Next section

| not | the | clause | table | row |
"""


def test_the_checks_catch_what_is_missing() -> None:
    rows = parse_table(_SYNTHETIC)
    assert [r.id for r in rows] == ["001-roll-3", "001-roll-9", "003-time-2", "003-x-1", "000-8.1", "000-8.2"]
    assert rows[3].implemented_by == []
    notes = parse_notes(_SYNTHETIC)
    assert list(notes) == ["003-time-2", "000-8.1", "000-9.9"]  # the counts above the table are no notes
    markers = {"001-roll-3": ["tests/t.py::test_a"], "003-time-2": ["tests/t.py::test_b"], "002-x": ["tests/t.py::a"]}
    found = problems(rows, notes, markers)
    assert not [p for p in found if p.startswith("001-roll-3:")]
    expected = [
        "001-roll-9: implemented by combat.no_such_function",
        "001-roll-9: as written but no test is marked",
        "003-time-2: implemented by data/rules.yaml: time.no_key",
        "003-x-1: not built but no note",
        "000-8.1: status 'perhaps'",
        "000-8.1: implemented by game.Game.no_such_method",
        "000-8.2: the row has",
        "000-8.2: as written but no test is marked",
        "000-9.9: a note names no row",
        "002-x: marked on tests/t.py::a but no row",
    ]
    for start in expected:
        assert any(p.startswith(start) for p in found), (start, found)
    assert len(found) == len(expected), found
    assert check_code("undercroft.narrate.Narrator.text") is None
    assert check_code("data/no_such_file.yaml: x") == "no file data/no_such_file.yaml"
    assert check_code("not a name") is not None


def test_the_markers_are_read_from_the_test_modules(tmp_path: Path) -> None:
    (tmp_path / "tests" / "sub").mkdir(parents=True)
    (tmp_path / "tests" / "sub" / "test_x.py").write_text(
        "import pytest\n\n"
        "@pytest.mark.clause('001-a', '003-b')\n@pytest.mark.slow\ndef test_one() -> None: ...\n\n"
        "class TestC:\n    @pytest.mark.clause('001-a')\n    def test_two(self) -> None: ...\n\n"
        "@pytest.mark.parametrize('x', [1])\ndef test_three(x: int) -> None: ...\n",
        encoding="utf-8",
    )
    assert clause_markers(tmp_path) == {
        "001-a": ["tests/sub/test_x.py::test_one", "tests/sub/test_x.py::test_two"],
        "003-b": ["tests/sub/test_x.py::test_one"],
    }


def test_the_counts_follow_the_statuses() -> None:
    rows = parse_table(_SYNTHETIC)
    table = count(rows)  # "perhaps" (000-8.1) is none of the three: counted nowhere
    assert table == {"000": (1, 0, 0), "001": (2, 0, 0), "003": (0, 1, 1), ALL: (3, 1, 1)}
    printed = printed_counts(_SYNTHETIC)
    assert printed["003"] == (0, 1, 1) and printed[ALL] == (3, 1, 1)
    assert [t for t in table if printed[t] != table[t]] == ["001"]  # the table's 001 has two as written, not one
    with pytest.raises(AssertionError, match="do not add up"):
        printed_counts(_SYNTHETIC.replace("(5 clauses)", "(6 clauses)"))


def test_a_table_that_is_missing_is_an_error() -> None:
    with pytest.raises(AssertionError, match="no '## Clause table' heading"):
        parse_table("# Rules\n\nNo table here.\n")
