"""The clause table of docs/RULES.md names only functions, data keys and tests that exist.

Every row of the table under ``## Clause table`` is one clause of the three source texts: its id, what it says, its
status (as written / adapted / not built), the code that carries it out and the tests that check it. This test reads
the table and fails, naming the row, when a function, a data key or a test it names does not exist. Test modules are
parsed, never imported. It also counts the rows of each status, per text and in all, and fails when the counts
printed under the heading differ from the table (so the numbers cannot go stale).
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
COLUMNS = ["id", "text says", "status", "implemented by", "checked by"]
NONE = "—"
MIN_ROWS = 90

_CODE = re.compile(r"`([^`]+)`")
_DATA = re.compile(r"^(data/[\w./-]+\.ya?ml)(?::\s*([\w.]+))?$")
_NAME = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+$")
_TEST = re.compile(r"^(tests/[\w/]+\.py)::([A-Za-z_]\w*)$")
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
    checked_by: list[str]


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _names(cell: str) -> list[str]:
    """The backticked names of a cell; a cell of ``—`` names nothing."""
    return [] if cell.strip() == NONE else _CODE.findall(cell)


def parse_table(text: str) -> list[Row]:
    """The rows of the table under ``## Clause table`` in ``text`` (up to the next heading)."""
    lines = text.splitlines()
    try:
        start = lines.index(HEADING)
    except ValueError:
        raise AssertionError(f"no {HEADING!r} heading") from None
    rows: list[Row] = []
    header_seen = False
    for line in lines[start + 1 :]:
        if line.startswith("#"):
            break
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
        rows.append(Row(cells[0], cells[1], cells[2], _names(cells[3]), _names(cells[4])))
    assert header_seen, "the clause table has no header row"
    return rows


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


def _test_functions(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            names.add(node.name)
    return names


def check_test(name: str, root: Path = ROOT) -> str | None:
    """Why ``name`` (``tests/test_x.py::test_name``) does not exist, or None."""
    m = _TEST.match(name)
    if m is None:
        return f"{name!r} is not tests/file.py::test_name"
    path = root / m.group(1)
    if not path.is_file():
        return f"no file {m.group(1)}"
    if m.group(2) not in _test_functions(path):
        return f"no test {m.group(2)} in {m.group(1)}"
    return None


def problems(rows: list[Row], root: Path = ROOT) -> list[str]:
    """Every problem of the table, each naming its row."""
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
        kind = status_kind(row.status)
        if kind is None:
            out.append(f"{row.id}: status {row.status!r} is none of {STATUSES}")
        elif kind != "as written" and len(row.status) <= len(kind) + 2:
            out.append(f"{row.id}: status {kind!r} gives no reason")
        for name in row.implemented_by:
            why = check_code(name, root)
            if why is not None:
                out.append(f"{row.id}: implemented by {name}: {why}")
        for name in row.checked_by:
            why = check_test(name, root)
            if why is not None:
                out.append(f"{row.id}: checked by {name}: {why}")
    return out


@pytest.fixture(scope="module")
def rows() -> list[Row]:
    return parse_table(RULES_MD.read_text(encoding="utf-8"))


def test_the_table_covers_the_three_texts(rows: list[Row]) -> None:
    assert len(rows) >= MIN_ROWS, f"the clause table has {len(rows)} rows, fewer than {MIN_ROWS}"
    for text in ("000", "001", "003"):
        assert any(r.id.startswith(f"{text}-") for r in rows), f"no clause of text {text}"


def test_every_status_is_one_of_the_three_kinds(rows: list[Row]) -> None:
    bad = [f"{r.id}: {r.status!r}" for r in rows if not r.status.startswith(STATUSES)]
    assert not bad, "statuses that are none of as written / adapted / not built:\n" + "\n".join(bad)


@pytest.mark.slow
def test_every_function_data_key_and_test_named_exists(rows: list[Row]) -> None:
    found = problems(rows)
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

- **000**: 0 as written, 0 adapted, 0 not built (0 clauses)
- **001**: 1 as written, 0 adapted, 0 not built (1 clauses)
- **003**: 0 as written, 1 adapted, 1 not built (2 clauses)
- **all three**: 2 as written, 1 adapted, 1 not built (4 clauses)

| id | text says | status | implemented by | checked by |
| --- | --- | --- | --- | --- |
| 001-roll-3 | d20 | as written | `formulas.attack` | `tests/test_combat.py::test_roll_text_form` |
| 001-roll-9 | a made-up clause | as written | `combat.no_such_function` | `tests/test_combat.py::test_no_such_test` |
| 003-time-2 | 10 s | adapted: why | `data/rules.yaml: time.round_seconds`, `data/rules.yaml: time.no_key` | — |
| 003-x-1 | spells | not built: none | — | `tests/test_nowhere.py::test_x` |
| 000-8.1 | a bad status | perhaps | `game.Game.no_such_method`, `undercroft.narrate.Narrator.text` | — |

## Next section

| not | the | clause | table | row |
"""


def test_the_checks_catch_what_is_missing() -> None:
    rows = parse_table(_SYNTHETIC)
    assert [r.id for r in rows] == ["001-roll-3", "001-roll-9", "003-time-2", "003-x-1", "000-8.1"]
    assert rows[2].checked_by == [] and rows[3].implemented_by == []
    found = problems(rows)
    assert not [p for p in found if p.startswith("001-roll-3:")]
    expected = [
        "001-roll-9: implemented by combat.no_such_function",
        "001-roll-9: checked by tests/test_combat.py::test_no_such_test",
        "003-time-2: implemented by data/rules.yaml: time.no_key",
        "003-x-1: checked by tests/test_nowhere.py::test_x: no file",
        "000-8.1: status 'perhaps'",
        "000-8.1: implemented by game.Game.no_such_method",
    ]
    for start in expected:
        assert any(p.startswith(start) for p in found), (start, found)
    assert len(found) == len(expected), found
    assert check_code("undercroft.narrate.Narrator.text") is None
    assert check_code("data/no_such_file.yaml: x") == "no file data/no_such_file.yaml"
    assert check_code("not a name") is not None


def test_the_counts_follow_the_statuses() -> None:
    rows = parse_table(_SYNTHETIC)
    table = count(rows)  # "perhaps" (000-8.1) is none of the three: counted nowhere
    assert table == {"000": (0, 0, 0), "001": (2, 0, 0), "003": (0, 1, 1), ALL: (2, 1, 1)}
    printed = printed_counts(_SYNTHETIC)
    assert printed["003"] == (0, 1, 1) and printed[ALL] == (2, 1, 1)
    assert [t for t in table if printed[t] != table[t]] == ["001"]  # the table's 001 has two as written, not one
    with pytest.raises(AssertionError, match="do not add up"):
        printed_counts(_SYNTHETIC.replace("(4 clauses)", "(5 clauses)"))


def test_a_table_that_is_missing_is_an_error() -> None:
    with pytest.raises(AssertionError, match="no '## Clause table' heading"):
        parse_table("# Rules\n\nNo table here.\n")
