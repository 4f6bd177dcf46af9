"""The package graph of undercroft, read from the source by static analysis (``ast``), never by importing it.

One scanner serves three users:

* ``tests/test_imports.py`` states the import rules of the architecture (the rules core imports no front end, no
  wall clock, no global random; the front ends never import the command line; no two packages import each other)
  and checks them with :func:`forbidden_imports` and :func:`package_cycles`;
* ``tests/test_scene_modules.py`` checks that no two scene modules import each other (:func:`module_cycles`);
* this script writes the generated section of ``docs/ARCHITECTURE.md`` (a Mermaid graph and a plain list of
  which package imports which) and checks that it is up to date::

      python -m undercroft.tools.architecture            # print the section
      python -m undercroft.tools.architecture --check    # exit 1 if docs/ARCHITECTURE.md is out of date
      python -m undercroft.tools.architecture --write    # rewrite the section in docs/ARCHITECTURE.md

Every ``import`` and ``from ... import ...`` statement counts, wherever it stands (top level, inside a function,
under ``if TYPE_CHECKING:``), and so does ``importlib.import_module("literal")`` / ``__import__("literal")``.
Relative imports are resolved against the importing module; ``from package import name`` counts as importing the
submodule ``package.name`` when ``name`` is a module (for undercroft's own modules by the source tree, for
third-party packages by their installed files), else as importing ``package``. An import by a computed name
(``importlib.import_module(variable)``) cannot be seen; see docs/ARCHITECTURE.md for the two places that do it.

A *package* here is a top-level part of undercroft: a subpackage (``rules``, ``content``, ``ui``, ...) or a
top-level module (``cli``, ``bot``, ``notation``, ...). This module imports nothing from the rest of undercroft.
"""

from __future__ import annotations

import argparse
import ast
import functools
import importlib.util
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "BEGIN",
    "END",
    "PACKAGE",
    "REGENERATE",
    "Cycle",
    "Import",
    "Scan",
    "forbidden_imports",
    "main",
    "matches",
    "module_cycles",
    "package_cycles",
    "render_section",
    "replace_section",
    "scan_package",
]

PACKAGE = "undercroft"
BEGIN = "<!-- BEGIN GENERATED: imports -->"
END = "<!-- END GENERATED: imports -->"
REGENERATE = "python -m undercroft.tools.architecture --write"


@dataclass(frozen=True, slots=True, order=True)
class Import:
    """One import statement (or one name of it): who imports what, and where."""

    importer: str  # the dotted module holding the statement
    imported: str  # the dotted module it imports, resolved
    path: str  # the importing file, as shown in messages (relative to the scan's display root, posix)
    line: int
    dynamic: bool = False  # importlib.import_module("literal") or __import__("literal")

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"

    def describe(self) -> str:
        how = "imports (dynamically)" if self.dynamic else "imports"
        return f"{self.where}: {self.importer} {how} {self.imported}"


@dataclass(frozen=True, slots=True)
class Cycle:
    """Packages that import each other (a strongly connected part of the package graph), with every import that
    closes it."""

    packages: tuple[str, ...]
    imports: tuple[Import, ...]

    def describe(self, package: str = PACKAGE) -> str:
        lines = [f"these packages of {package} import each other: {', '.join(self.packages)}"]
        lines += [
            f"  {unit_of(i.importer, package)} -> {unit_of(i.imported, package)}: {i.describe()}" for i in self.imports
        ]
        return "\n".join(lines)


def unit_of(module: str, package: str = PACKAGE) -> str:
    """The top-level part of ``package`` that ``module`` belongs to (``undercroft.rules.game`` -> ``rules``); the
    package itself for its own ``__init__``; the top-level name for a module outside the package."""
    parts = module.split(".")
    if parts[0] != package:
        return parts[0]
    return parts[1] if len(parts) > 1 else package


def matches(module: str, pattern: str) -> bool:
    """Whether ``module`` matches ``pattern``: ``"a.b"`` is ``a.b`` and everything under it; ``"a.b*"`` is every
    name that starts with ``a.b`` (``tcod.sdl*`` is ``tcod.sdl``, ``tcod.sdl.video``, ...); ``"=a"`` is ``a``
    alone (``=tcod`` is the plain ``import tcod``, not ``tcod.map``)."""
    if pattern.startswith("="):
        return module == pattern[1:]
    if pattern.endswith("*"):
        return module.startswith(pattern[:-1])
    return module == pattern or module.startswith(pattern + ".")


@dataclass(frozen=True, slots=True)
class Scan:
    """Every import under one package: what :func:`scan_package` found."""

    package: str
    modules: frozenset[str]  # every module and (namespace) package under ``package``, dotted
    imports: tuple[Import, ...]  # in file order: by path, then line

    def is_internal(self, module: str) -> bool:
        return module == self.package or module.startswith(self.package + ".")

    def units(self) -> list[str]:
        """The top-level packages and modules, sorted; the root package's own ``__init__`` only if it has one."""
        return sorted(
            {unit_of(m, self.package) for m in self.modules if m != self.package}
            | ({self.package} if self.package in self.modules else set())
        )

    def unit_edges(self, ignore: Iterable[tuple[str, str]] = ()) -> dict[tuple[str, str], list[Import]]:
        """Arrows between top-level packages, each with the imports that make it; ``ignore`` lists
        ``(importer, imported)`` module pairs to leave out."""
        skip = set(ignore)
        out: dict[tuple[str, str], list[Import]] = {}
        for imp in self.imports:
            if not self.is_internal(imp.imported) or (imp.importer, imp.imported) in skip:
                continue
            a, b = unit_of(imp.importer, self.package), unit_of(imp.imported, self.package)
            if a != b:
                out.setdefault((a, b), []).append(imp)
        return dict(sorted(out.items()))

    def external(self) -> dict[str, list[str]]:
        """For each top-level package, the third-party distributions it imports (top-level names, sorted);
        the standard library is left out."""
        out: dict[str, set[str]] = {u: set() for u in self.units()}
        for imp in self.imports:
            top = imp.imported.split(".")[0]
            if self.is_internal(imp.imported) or top in sys.stdlib_module_names or top == "__future__":
                continue
            out.setdefault(unit_of(imp.importer, self.package), set()).add(top)
        return {u: sorted(v) for u, v in sorted(out.items())}


# --- scanning ---------------------------------------------------------------------------------------------------


def _module_name(package_dir: Path, file: Path, package: str) -> tuple[str, bool]:
    """The dotted name of ``file`` under ``package_dir`` and whether it is a package's ``__init__``."""
    rel = file.relative_to(package_dir).with_suffix("")
    parts = [package, *rel.parts]
    if parts[-1] == "__init__":
        return ".".join(parts[:-1]), True
    return ".".join(parts), False


@functools.cache
def _external_is_module(name: str) -> bool:
    """Whether the dotted ``name`` is an installed module or package, found by its files: never imports it (for a
    top-level name ``find_spec`` only searches the path)."""
    top, *rest = name.split(".")
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return False
    if spec is None:
        return False
    if not rest:
        return True
    for location in spec.submodule_search_locations or ():
        base = Path(location).joinpath(*rest[:-1])
        leaf = rest[-1]
        if (
            (base / leaf).is_dir()
            or (base / f"{leaf}.py").is_file()
            or any(base.glob(f"{leaf}.*.so"))
            or any(base.glob(f"{leaf}.*.pyd"))
            or (base / f"{leaf}.pyi").is_file()
        ):
            return True
    return False


def _is_module(name: str, modules: frozenset[str], package: str) -> bool:
    if name == package or name.startswith(package + "."):
        return name in modules
    return _external_is_module(name)


def _dynamic_target(node: ast.Call) -> str | None:
    """The literal module name of ``importlib.import_module("x")`` / ``import_module("x")`` / ``__import__("x")``."""
    func = node.func
    named = (isinstance(func, ast.Attribute) and func.attr == "import_module") or (
        isinstance(func, ast.Name) and func.id in ("import_module", "__import__")
    )
    if not named or not node.args:
        return None
    arg = node.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value and not arg.value.startswith("."):
        return arg.value
    return None


def _imports_of(
    tree: ast.AST, module: str, is_package: bool, path: str, modules: frozenset[str], package: str
) -> list[Import]:
    out: list[Import] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [Import(module, alias.name, path, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".") if is_package else module.split(".")[:-1]
                if node.level - 1 >= len(base):
                    raise SyntaxError(f"{path}:{node.lineno}: relative import beyond the top of {package}")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            if target == "__future__":
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                name = sub if alias.name != "*" and _is_module(sub, modules, package) else target
                out.append(Import(module, name, path, node.lineno))
        elif isinstance(node, ast.Call):
            target_name = _dynamic_target(node)
            if target_name is not None:
                out.append(Import(module, target_name, path, node.lineno, dynamic=True))
    return out


def scan_package(src_root: Path, package: str = PACKAGE, *, display_root: Path | None = None) -> Scan:
    """Read every ``*.py`` under ``src_root/package`` and collect its imports, resolved to dotted module names.

    Paths in the result are relative to ``display_root`` (default: the parent of ``src_root``, i.e. the
    repository for a ``src`` layout), so messages read ``src/undercroft/rules/game.py:17``.
    """
    package_dir = src_root / package
    if not package_dir.is_dir():
        raise FileNotFoundError(f"no package {package!r} under {src_root}")
    shown_from = display_root if display_root is not None else src_root.parent
    files = sorted(p for p in package_dir.rglob("*.py") if "__pycache__" not in p.parts)
    named = [(f, *_module_name(package_dir, f, package)) for f in files]
    modules = {name for _, name, _ in named}
    for f in files:  # every directory on the way is a package, namespace packages included
        rel = f.parent.relative_to(package_dir)
        for i in range(len(rel.parts) + 1):
            modules.add(".".join([package, *rel.parts[:i]]))
    known = frozenset(modules)
    imports: list[Import] = []
    for f, name, is_package in named:
        try:
            shown = f.relative_to(shown_from).as_posix()
        except ValueError:
            shown = f.as_posix()
        tree = ast.parse(f.read_text(encoding="utf-8"), filename=shown)
        imports += _imports_of(tree, name, is_package, shown, known, package)
    ordered = sorted(set(imports), key=lambda i: (i.path, i.line, i.imported, i.dynamic))
    return Scan(package, known, tuple(ordered))


# --- checks -----------------------------------------------------------------------------------------------------


def forbidden_imports(
    scan: Scan, importers: str, patterns: Sequence[str], allowed: Iterable[tuple[str, str]] = ()
) -> list[Import]:
    """Imports made by ``importers`` (a module and everything under it, e.g. ``undercroft.rules``) of any module
    matching one of ``patterns`` (see :func:`matches`), except the ``(importer, imported)`` pairs in ``allowed``."""
    skip = set(allowed)
    return [
        i
        for i in scan.imports
        if matches(i.importer, importers)
        and (i.importer, i.imported) not in skip
        and any(matches(i.imported, p) for p in patterns)
    ]


def _strongly_connected(nodes: Sequence[str], edges: Mapping[str, Sequence[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative; components sorted, in sorted order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for start in nodes:
        if start in index:
            continue
        work: list[tuple[str, int]] = [(start, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            succ = edges.get(node, ())
            if i < len(succ):
                work.append((node, i + 1))
                nxt = succ[i]
                if nxt not in index:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            if low[node] == index[node]:
                comp: list[str] = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                out.append(sorted(comp))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return sorted(out)


def _cycles(arrows: Mapping[tuple[str, str], Sequence[Import]]) -> list[Cycle]:
    """The groups of nodes that ``arrows`` (``(a, b)``: the imports by which ``a`` imports ``b``) join in a loop."""
    succ: dict[str, list[str]] = {}
    for a, b in arrows:
        succ.setdefault(a, []).append(b)
    nodes = sorted({n for edge in arrows for n in edge})
    out: list[Cycle] = []
    for comp in _strongly_connected(nodes, succ):
        if len(comp) < 2:
            continue
        members = set(comp)
        sites = tuple(i for (a, b), imps in arrows.items() if a in members and b in members for i in imps)
        out.append(Cycle(tuple(comp), sites))
    return out


def package_cycles(scan: Scan, allowed: Iterable[tuple[str, str]] = ()) -> list[Cycle]:
    """Groups of top-level packages that import each other, directly or round a longer loop, leaving out the
    ``(importer, imported)`` module pairs in ``allowed``."""
    return _cycles(scan.unit_edges(ignore=allowed))


def module_cycles(scan: Scan, within: str) -> list[Cycle]:
    """Groups of modules under the package ``within`` (its ``__init__`` included) that import each other,
    directly or round a longer loop; an import inside a function counts as any other."""
    arrows: dict[tuple[str, str], list[Import]] = {}
    for i in scan.imports:
        if i.importer != i.imported and matches(i.importer, within) and matches(i.imported, within):
            arrows.setdefault((i.importer, i.imported), []).append(i)
    return _cycles(dict(sorted(arrows.items())))


# --- the generated section --------------------------------------------------------------------------------------


def render_section(scan: Scan) -> str:
    """The generated section of docs/ARCHITECTURE.md, markers included; depends only on the source text."""
    units = scan.units()
    arrows = scan.unit_edges()
    targets: dict[str, list[str]] = {u: [] for u in units}
    for a, b in arrows:
        targets.setdefault(a, []).append(b)
    external = scan.external()
    width = max(len(u) for u in units)
    lines = [
        BEGIN,
        f"<!-- Written by `{REGENERATE}` from the import statements under src/{scan.package}; do not edit by hand. -->",
        "",
        f"{len(units)} packages and top-level modules, {len(arrows)} arrows (an arrow `a --> b`: "
        "some module of `a` imports some module of `b`).",
        "",
        "```mermaid",
        "graph LR",
    ]
    lines += [f"    {u}" for u in units]
    lines += [f"    {a} --> {b}" for a, b in arrows]
    lines += ["```", "", "Which packages each one imports:", "", "```text"]
    lines += [f"{u.ljust(width)} -> {', '.join(targets[u]) if targets[u] else '(nothing)'}" for u in units]
    lines += ["```", "", "Third-party packages each one imports (the standard library left out):", "", "```text"]
    lines += [f"{u.ljust(width)} -> {', '.join(external.get(u, [])) or '(none)'}" for u in units]
    lines += ["```", END]
    return "\n".join(lines)


def replace_section(document: str, section: str) -> str:
    """``document`` with the text from :data:`BEGIN` to :data:`END` (markers included) replaced by ``section``."""
    start = document.find(BEGIN)
    stop = document.find(END)
    if start < 0 or stop < start or document.count(BEGIN) != 1 or document.count(END) != 1:
        raise ValueError(f"the document must hold one {BEGIN} followed by one {END}")
    return document[:start] + section + document[stop + len(END) :]


def current_section(document: str) -> str | None:
    """The generated section of ``document`` as written (markers included), or None if it has none."""
    start = document.find(BEGIN)
    stop = document.find(END)
    if start < 0 or stop < start:
        return None
    return document[start : stop + len(END)]


def _default_root() -> Path:
    here = Path(__file__).resolve()
    repo = here.parents[3]  # src/undercroft/tools/architecture.py -> the repository
    if (repo / "src" / PACKAGE).is_dir():
        return repo
    return Path.cwd()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m undercroft.tools.architecture",
        description="Print, check or write the generated package graph in docs/ARCHITECTURE.md.",
    )
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--write", action="store_true", help="rewrite the generated section of docs/ARCHITECTURE.md")
    group.add_argument("--check", action="store_true", help="exit 1 if docs/ARCHITECTURE.md is out of date")
    parser.add_argument(
        "--root",
        type=Path,
        default=None,
        help="the repository (holding src/undercroft and docs/); default: this checkout",
    )
    args = parser.parse_args(argv)
    root: Path = args.root if args.root is not None else _default_root()
    section = render_section(scan_package(root / "src", display_root=root))
    doc_path = root / "docs" / "ARCHITECTURE.md"
    if not args.write and not args.check:
        print(section)
        return 0
    try:
        document = doc_path.read_text(encoding="utf-8")
    except FileNotFoundError:
        print(f"error: {doc_path} does not exist", file=sys.stderr)
        return 2
    if args.check:
        if current_section(document) == section:
            print(f"{doc_path}: the generated import graph is up to date")
            return 0
        print(f"{doc_path}: the generated import graph is out of date; run: {REGENERATE}", file=sys.stderr)
        return 1
    try:
        updated = replace_section(document, section)
    except ValueError as exc:
        print(f"error: {doc_path}: {exc}", file=sys.stderr)
        return 2
    if updated != document:
        doc_path.write_text(updated, encoding="utf-8")
        print(f"{doc_path}: generated import graph rewritten")
    else:
        print(f"{doc_path}: generated import graph already up to date")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
