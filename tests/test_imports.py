"""Import rules of the architecture, checked by reading the source (ast), never by importing it.

1. the rules core (``undercroft.rules``) imports no front end, no recorder, simulator, bot, command line or
   narration, none of tcod's window/console/event modules, and neither the wall clock nor the global random;
2. the front ends (``undercroft.ui``, ``undercroft.term``) never import the command line (``undercroft.cli``);
3. the subcommand modules (``undercroft.cli.*``) and the tools (``undercroft.tools``) never import the command
   line's entry point (``undercroft.cli.main``, which imports every subcommand module);
4. no two packages of undercroft import each other, directly or round a loop;
5. the screens and what they tell (``undercroft.ui``, ``undercroft.term``, ``undercroft.recap``,
   ``undercroft.narrate``) never import the bot (``undercroft.bot``): the chances they show are the rules'
   (``undercroft.sim``), never the reference player's valuations;
6. the data layer (``undercroft.content``) needs only the dice notation and the escaping of text
   (``undercroft.printable``), not the rules; the notation, the escaping and the import scanner
   (``undercroft.tools.architecture``) are leaves;
7. only the command line imports the tools (``undercroft.tools``: the bots' batches, the balance report, the
   benchmarks), so the game never loads them (what ``play`` loads: ``tests/test_tools_apart.py``);
8. no two modules of one package import each other (the benchmarks' rows import their registry, never back).

Each failure names the ``file:line`` of the offending import. The second half of this file proves every check
can fail, on a tiny synthetic package written to ``tmp_path``. The scanner is shared with the generator of
docs/ARCHITECTURE.md: :mod:`undercroft.tools.architecture`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

from undercroft.tools.architecture import (
    PACKAGE,
    Import,
    Scan,
    forbidden_imports,
    matches,
    module_cycles,
    package_cycles,
    scan_package,
)

SRC = Path(__file__).resolve().parents[1] / "src"

# What the rules core must never import (patterns as in ``matches``: "a.b" is a.b and everything under it,
# "a.b*" every name starting so, "=a" the name alone).
RULES_MUST_NOT_IMPORT: tuple[str, ...] = (
    # everything that sits above the rules: front ends, recording, simulation, bot, command line, narration
    f"{PACKAGE}.ui",
    f"{PACKAGE}.term",
    f"{PACKAGE}.record",
    f"{PACKAGE}.sim",
    f"{PACKAGE}.bot",
    f"{PACKAGE}.cli",
    f"{PACKAGE}.narrate",
    f"{PACKAGE}.tools",
    # tcod: any module of it runs tcod/__init__, which imports all of tcod (the window, the console, SDL's
    # events); the field of view's C library comes through undercroft.rules.libtcod, which imports no tcod module
    "tcod",
    # the wall clock and global randomness: the rules are a pure function of the seed and the actions
    "time",
    "random",
    "datetime",
    "secrets",
)

FRONT_ENDS: tuple[str, ...] = (f"{PACKAGE}.ui", f"{PACKAGE}.term")
FRONT_ENDS_MUST_NOT_IMPORT: tuple[str, ...] = (f"{PACKAGE}.cli",)

TELLERS: tuple[str, ...] = (*FRONT_ENDS, f"{PACKAGE}.recap", f"{PACKAGE}.narrate")
TELLERS_MUST_NOT_IMPORT: tuple[str, ...] = (f"{PACKAGE}.bot",)

ENTRY_POINT = f"{PACKAGE}.cli.main"
BELOW_THE_ENTRY_POINT: tuple[str, ...] = (f"{PACKAGE}.cli", f"{PACKAGE}.tools")  # cli.main itself excepted

# Known violations, allowed for now: (importer, imported) module pairs -> why, and who removes them.
# This must become EMPTY; an entry that no longer matches any import fails test_known_violations_are_still_real,
# so whoever fixes one also deletes it here. The checks themselves are not weakened: only these exact pairs pass.
KNOWN_VIOLATIONS: dict[tuple[str, str], str] = {}


def _lines(found: Iterable[Import]) -> str:
    return "\n".join(i.describe() for i in found)


# --- the checks, shared by the real tree and the synthetic one --------------------------------------------------


def rules_violations(scan: Scan, allowed: Iterable[tuple[str, str]] = ()) -> list[Import]:
    return forbidden_imports(scan, f"{scan.package}.rules", RULES_MUST_NOT_IMPORT, allowed)


# The one door from the rules to tcod: the field of view's adapter loads tcod's compiled library alone, except on
# Windows, where tcod must first put its SDL library's folder on PATH (tcod/cffi.py), so the adapter imports
# tcod.cffi there (a dynamic import, on that platform only). tests/test_engine_loads.py checks the result.
LIBTCOD_ADAPTER: tuple[str, str] = (f"{PACKAGE}.rules.libtcod", "tcod.cffi")


def front_end_violations(scan: Scan, allowed: Iterable[tuple[str, str]] = ()) -> list[Import]:
    return [i for fe in FRONT_ENDS for i in forbidden_imports(scan, fe, FRONT_ENDS_MUST_NOT_IMPORT, allowed)]


TOOLS = f"{PACKAGE}.tools"
TOOLS_USERS: tuple[str, ...] = (f"{PACKAGE}.cli", TOOLS)


def tools_violations(scan: Scan, allowed: Iterable[tuple[str, str]] = ()) -> list[Import]:
    skip = set(allowed)
    return [
        i
        for i in scan.imports
        if matches(i.imported, TOOLS)
        and not any(matches(i.importer, m) for m in TOOLS_USERS)
        and (i.importer, i.imported) not in skip
    ]


def teller_violations(scan: Scan, allowed: Iterable[tuple[str, str]] = ()) -> list[Import]:
    return [i for t in TELLERS for i in forbidden_imports(scan, t, TELLERS_MUST_NOT_IMPORT, allowed)]


def entry_point_violations(scan: Scan, allowed: Iterable[tuple[str, str]] = ()) -> list[Import]:
    return [
        i
        for importers in BELOW_THE_ENTRY_POINT
        for i in forbidden_imports(scan, importers, (ENTRY_POINT,), allowed)
        if not matches(i.importer, ENTRY_POINT)
    ]


def leaf_violations(scan: Scan, module: str, may_import: Iterable[str] = ()) -> list[Import]:
    """Imports of undercroft by ``module`` (and below it) that leave ``module`` and ``may_import``."""
    ok = (module, *may_import)
    return [
        i
        for i in scan.imports
        if matches(i.importer, module) and scan.is_internal(i.imported) and not any(matches(i.imported, m) for m in ok)
    ]


def cycle_report(scan: Scan, allowed: Iterable[tuple[str, str]] = ()) -> str:
    return "\n".join(c.describe(scan.package) for c in package_cycles(scan, allowed))


def stale_allowances(scan: Scan, allowed: Mapping[tuple[str, str], str]) -> list[str]:
    present = {(i.importer, i.imported) for i in scan.imports}
    return [f"{a} -> {b}" for a, b in allowed if (a, b) not in present]


# --- the real tree ----------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def scan() -> Scan:
    return scan_package(SRC)


@pytest.mark.slow
def test_the_scanner_sees_the_tree(scan: Scan) -> None:
    """Guards the checks below against passing because they saw nothing."""
    assert {"rules", "content", "ui", "term", "cli", "notation", "tools"} <= set(scan.units())
    pairs = {(i.importer, i.imported) for i in scan.imports}
    assert (f"{PACKAGE}.rules.dice", f"{PACKAGE}.notation") in pairs
    assert (f"{PACKAGE}.rules.sight", f"{PACKAGE}.rules.libtcod") in pairs  # the field of view's C library
    assert any(
        i.importer.startswith(f"{PACKAGE}.rules.") and i.imported.startswith(f"{PACKAGE}.content") for i in scan.imports
    )


def test_rules_import_no_front_end_no_clock_no_global_random(scan: Scan) -> None:
    found = rules_violations(scan, {**KNOWN_VIOLATIONS, LIBTCOD_ADAPTER: "the field of view's C library"})
    assert not found, "the rules core must stay pure and deterministic; it imports:\n" + _lines(found)
    assert LIBTCOD_ADAPTER in {(i.importer, i.imported) for i in scan.imports}, "the adapter's allowance is stale"


def test_front_ends_never_import_the_command_line(scan: Scan) -> None:
    found = front_end_violations(scan, KNOWN_VIOLATIONS)
    assert not found, "ui/ and term/ must not import undercroft.cli:\n" + _lines(found)


def test_screens_recap_and_narration_never_import_the_bot(scan: Scan) -> None:
    found = teller_violations(scan, KNOWN_VIOLATIONS)
    assert not found, "ui/, term/, recap and narrate/ show the rules' chances (undercroft.sim):\n" + _lines(found)


def test_only_the_command_line_imports_the_tools(scan: Scan) -> None:
    found = tools_violations(scan, KNOWN_VIOLATIONS)
    assert not found, "the game must not load undercroft.tools (only cli/ does, in its handlers):\n" + _lines(found)


def test_subcommands_and_benchmarks_never_import_the_entry_point(scan: Scan) -> None:
    found = entry_point_violations(scan, KNOWN_VIOLATIONS)
    assert not found, "undercroft.cli.main imports the subcommands; they and bench import cli.common:\n" + _lines(found)


def test_no_two_packages_import_each_other(scan: Scan) -> None:
    report = cycle_report(scan, KNOWN_VIOLATIONS)
    assert not report, report


def test_content_needs_only_the_notation_and_leaves_stay_leaves(scan: Scan) -> None:
    found = leaf_violations(scan, f"{PACKAGE}.content", [f"{PACKAGE}.notation", f"{PACKAGE}.printable"])
    for leaf in ("notation", "printable", "tools.architecture"):
        found += leaf_violations(scan, f"{PACKAGE}.{leaf}")
    assert not found, (
        "content may import only undercroft.notation and undercroft.printable; those and the scanner nothing:\n"
        + _lines(found)
    )


def test_no_two_modules_of_a_package_import_each_other(scan: Scan) -> None:
    """Inside every package too (the data layer, the rules, the benchmarks, ...), imports run one way."""
    cycles = [c for unit in scan.units() if unit != PACKAGE for c in module_cycles(scan, f"{PACKAGE}.{unit}")]
    assert not cycles, "modules of one package import each other:\n" + "\n".join(
        i.describe() for c in cycles for i in c.imports
    )


def test_known_violations_are_still_real(scan: Scan) -> None:
    stale = stale_allowances(scan, KNOWN_VIOLATIONS)
    assert not stale, "fixed, so remove from KNOWN_VIOLATIONS in tests/test_imports.py: " + "; ".join(stale)


# --- every check can fail: a tiny synthetic package -------------------------------------------------------------


def _write(root: Path, files: Mapping[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


TINY: dict[str, str] = {
    # rules is a namespace package (no __init__), as the real one is
    "src/undercroft/rules/core.py": (
        "from __future__ import annotations\n"
        "import tcod.map\n"  # line 2: fine
        "from ..ui import screen\n"  # line 3: relative, resolves to undercroft.ui.screen
        "def now() -> float:\n"
        "    import time\n"  # line 5: inside a function still counts
        "    return time.time()\n"
        "from tcod import console\n"  # line 7: a tcod submodule by `from`
        "import tcod\n"  # line 8: plain tcod
    ),
    "src/undercroft/rules/pure.py": "from . import core\nfrom undercroft.notation import Dice\n",
    "src/undercroft/ui/__init__.py": "",
    "src/undercroft/ui/screen.py": "import undercroft.cli\n",  # line 1: front end imports cli
    "src/undercroft/term/__init__.py": "import importlib\nimportlib.import_module('undercroft.cli')\n",
    "src/undercroft/cli/__init__.py": "from undercroft import rules\nfrom undercroft.rules import pure\n",
    "src/undercroft/cli/main.py": "from undercroft.cli import play\n",  # fine: the entry point imports its commands
    "src/undercroft/cli/play.py": "from undercroft.cli.main import main\n",  # line 1: a subcommand imports it back
    "src/undercroft/tools/bench/core.py": (
        "import importlib\n"
        "def load() -> None:\n"
        "    importlib.import_module('undercroft.cli.main')\n"  # line 3: a benchmark imports it
    ),
    "src/undercroft/content/__init__.py": "from undercroft.rules.core import now\n",
    "src/undercroft/notation.py": "import re\n",
    "src/undercroft/recap.py": "from undercroft.bot import meeting\n",  # line 1: the recap imports the bot
    "src/undercroft/narrate/__init__.py": "def told() -> None:\n    import undercroft.bot.policy\n",  # line 2
    "src/undercroft/sim/__init__.py": "def odds() -> None:\n    from undercroft.tools import autoplay\n",  # line 2
    "src/undercroft/__init__.py": "",
}


@pytest.fixture
def tiny(tmp_path: Path) -> Scan:
    _write(tmp_path, TINY)
    return scan_package(tmp_path / "src", display_root=tmp_path)


def test_checker_resolves_relative_and_from_imports(tiny: Scan) -> None:
    pairs = {(i.importer, i.imported, i.line) for i in tiny.imports}
    assert ("undercroft.rules.core", "undercroft.ui.screen", 3) in pairs
    assert ("undercroft.rules.pure", "undercroft.rules.core", 1) in pairs
    assert ("undercroft.rules.core", "tcod.console", 7) in pairs
    assert ("undercroft.cli", "undercroft.rules", 1) in pairs  # a namespace package is a module too
    assert ("undercroft.cli", "undercroft.rules.pure", 2) in pairs
    assert ("undercroft.cli.main", "undercroft.cli.play", 1) in pairs  # play is a module, not a name
    assert ("undercroft.rules.pure", "undercroft.notation", 2) in pairs  # Dice is a name, not a module
    dynamic = [i for i in tiny.imports if i.dynamic]
    assert [(i.importer, i.imported) for i in dynamic] == [
        ("undercroft.term", "undercroft.cli"),
        ("undercroft.tools.bench.core", "undercroft.cli.main"),
    ]


def test_checker_catches_forbidden_rules_imports_with_file_and_line(tiny: Scan) -> None:
    found = rules_violations(tiny)
    assert [(i.where, i.imported) for i in found] == [
        ("src/undercroft/rules/core.py:2", "tcod.map"),
        ("src/undercroft/rules/core.py:3", "undercroft.ui.screen"),
        ("src/undercroft/rules/core.py:5", "time"),
        ("src/undercroft/rules/core.py:7", "tcod.console"),
        ("src/undercroft/rules/core.py:8", "tcod"),
    ]
    assert "src/undercroft/rules/core.py:5: undercroft.rules.core imports time" in _lines(found)
    # an allowance lets exactly its pair through
    rest = rules_violations(tiny, {("undercroft.rules.core", "time")})
    assert [i.imported for i in rest] == ["tcod.map", "undercroft.ui.screen", "tcod.console", "tcod"]


def test_checker_catches_a_front_end_importing_the_command_line(tiny: Scan) -> None:
    found = front_end_violations(tiny)
    assert [i.describe() for i in found] == [
        "src/undercroft/ui/screen.py:1: undercroft.ui.screen imports undercroft.cli",
        "src/undercroft/term/__init__.py:2: undercroft.term imports (dynamically) undercroft.cli",
    ]


def test_checker_catches_a_screen_the_recap_or_narration_importing_the_bot(tiny: Scan) -> None:
    found = teller_violations(tiny)
    assert [i.describe() for i in found] == [
        "src/undercroft/recap.py:1: undercroft.recap imports undercroft.bot",
        "src/undercroft/narrate/__init__.py:2: undercroft.narrate imports undercroft.bot.policy",
    ]


def test_checker_catches_the_game_importing_the_tools(tiny: Scan) -> None:
    found = tools_violations(tiny)
    assert [i.describe() for i in found] == [
        "src/undercroft/sim/__init__.py:2: undercroft.sim imports undercroft.tools"
    ]


def test_checker_catches_a_subcommand_or_a_benchmark_importing_the_entry_point(tiny: Scan) -> None:
    found = entry_point_violations(tiny)
    assert [i.describe() for i in found] == [
        "src/undercroft/cli/play.py:1: undercroft.cli.play imports undercroft.cli.main",
        "src/undercroft/tools/bench/core.py:3: undercroft.tools.bench.core imports (dynamically) undercroft.cli.main",
    ]
    assert entry_point_violations(tiny, {("undercroft.cli.play", "undercroft.cli.main")}) == found[1:]


def test_checker_catches_a_cycle_and_names_each_import_in_it(tiny: Scan) -> None:
    cycles = package_cycles(tiny)
    assert [c.packages for c in cycles] == [("cli", "rules", "ui")]  # content and term lead in, not back out
    report = cycle_report(tiny)
    assert "rules -> ui: src/undercroft/rules/core.py:3" in report
    assert "ui -> cli: src/undercroft/ui/screen.py:1" in report
    assert "cli -> rules: src/undercroft/cli/__init__.py:1" in report
    # break the loop at ui -> cli: what is left is term -> cli -> rules -> ui, no way back
    assert cycle_report(tiny, {("undercroft.ui.screen", "undercroft.cli")}) == ""


def test_checker_catches_a_two_package_cycle(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "src/undercroft/a.py": "import undercroft.b\n",
            "src/undercroft/b/__init__.py": "\n\nfrom undercroft import a\n",
        },
    )
    scan = scan_package(tmp_path / "src", display_root=tmp_path)
    assert cycle_report(scan) == (
        "these packages of undercroft import each other: a, b\n"
        "  a -> b: src/undercroft/a.py:1: undercroft.a imports undercroft.b\n"
        "  b -> a: src/undercroft/b/__init__.py:3: undercroft.b imports undercroft.a"
    )


def test_checker_catches_a_leaf_that_is_not_one(tiny: Scan) -> None:
    found = leaf_violations(tiny, "undercroft.content", ["undercroft.notation"])
    assert [i.where for i in found] == ["src/undercroft/content/__init__.py:1"]
    assert leaf_violations(tiny, "undercroft.notation") == []


def test_checker_reports_stale_allowances(tiny: Scan) -> None:
    allowed = {("undercroft.ui.screen", "undercroft.cli"): "real", ("undercroft.term.app", "undercroft.cli"): "gone"}
    assert stale_allowances(tiny, allowed) == ["undercroft.term.app -> undercroft.cli"]


@pytest.mark.parametrize(
    ("module", "pattern", "hit"),
    [
        ("tcod", "=tcod", True),
        ("tcod.map", "=tcod", False),
        ("tcod.sdl.video", "tcod.sdl*", True),
        ("tcod.sdl", "tcod.sdl*", True),
        ("tcod.console", "tcod.console", True),
        ("tcod.consoles", "tcod.console", False),
        ("time", "time", True),
        ("timeit", "time", False),
        ("undercroft.ui.scenes.play", "undercroft.ui", True),
        ("undercroft.uikit", "undercroft.ui", False),
        ("undercroft.cli.play", "undercroft.cli", True),
    ],
)
def test_patterns(module: str, pattern: str, hit: bool) -> None:
    assert matches(module, pattern) is hit
