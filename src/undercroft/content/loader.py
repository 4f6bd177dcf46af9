"""Load and validate the rules data: every problem, each as ``file:line:col: where: what``.

YAML is composed into nodes (so every value keeps its line and column), duplicate keys are caught on the nodes,
the nodes are constructed with the safe constructor (a ``!!python/object`` tag is an error, never an object), and
the result is validated with pydantic; each pydantic error location is walked back through the nodes to its mark.
Loading goes on after an error so one run reports all of them.
"""

from __future__ import annotations

import errno
import functools
import hashlib
import os
import re
import stat
import sys
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import TypeAdapter, ValidationError

from undercroft.content import schema
from undercroft.printable import printable

try:  # the C loader is much faster; fall back to the pure Python one
    _Loader: type[yaml.SafeLoader] = yaml.CSafeLoader  # type: ignore[assignment]
except AttributeError:  # pragma: no cover - depends on how pyyaml was built
    _Loader = yaml.SafeLoader

FILES: dict[str, Any] = {
    "monsters.yaml": schema.MonstersFile,
    "items.yaml": schema.ItemsFile,
    "party.yaml": schema.PartyFile,
    "tables.yaml": schema.TablesFile,
    "rules.yaml": schema.RulesFile,
    "encounters.yaml": schema.EncountersFile,
    "dungeon.yaml": schema.DungeonFile,
    "rulesets.yaml": schema.RulesetsFile,
}
MAX_FILE_BYTES = 1 << 20  # 1 MiB: the shipped files are about 20 KB each
MAX_DEPTH = 32  # nesting of mappings and lists (the shipped data nests 5 deep)
MAX_NUMBER_CHARS = 32  # a plain integer longer than this is refused before it is turned into a number
MAX_PROBLEMS_PER_FILE = 100  # a file with more problems lists the first ones and says how many were left out

Loc = tuple[str | int, ...]


@dataclass(frozen=True, order=True)
class Problem:
    """One problem in the data, with where it is."""

    path: str
    line: int  # 1-based; 0 when the file itself is the problem
    column: int  # 1-based
    where: str  # dotted path inside the file, e.g. ``ghoul.hp``
    message: str

    def __str__(self) -> str:
        pos = f"{self.path}:{self.line}:{self.column}" if self.line else self.path
        where, message = _cut(self.where), _cut(self.message)
        text = f"{pos}: {where}: {message}" if where else f"{pos}: {message}"
        return printable(text)


def _cut(text: str, limit: int = 300) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


class DataError(Exception):
    """The data did not validate; ``problems`` holds every problem found."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


@dataclass
class ParsedFile:
    path: Path
    display: str
    node: yaml.Node | None
    value: Any


@dataclass
class Collector:
    problems: list[Problem] = field(default_factory=list)
    files: dict[str, ParsedFile] = field(default_factory=dict)
    duplicated: set[tuple[str, Loc]] = field(default_factory=set)  # (file shown, a key given twice): see add

    def add(self, fname: str, loc: Loc, message: str, *, key: bool = False) -> None:
        """A problem at ``loc`` of file ``fname``; none under a key the file gives twice (its later value replaced
        the first: what it lacks is the duplicate's doing, and the duplicate is named already)."""
        pf = self.files.get(fname)
        display = pf.display if pf else fname
        if any((display, loc[:n]) in self.duplicated for n in range(1, len(loc) + 1)):
            return
        line, col = 0, 0
        if pf is not None and pf.node is not None:
            node = locate(pf.node, loc, key=key)
            line, col = node.start_mark.line + 1, node.start_mark.column + 1
        where = ".".join(str(p) for p in loc)
        self.problems.append(Problem(display, line, col, where, message))


def locate(root: yaml.Node, loc: Loc, *, key: bool = False) -> yaml.Node:
    """The deepest node along ``loc``; with ``key`` the mapping key node of the last step."""
    node = root
    for i, part in enumerate(loc):
        last = i == len(loc) - 1
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if isinstance(k, yaml.ScalarNode) and k.value == str(part):
                    node = k if (last and key) else v
                    break
            else:
                continue  # pydantic adds loc parts (union members, validators) that are not in the YAML
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int):
            if 0 <= part < len(node.value):
                node = node.value[part]
            else:
                break
        else:
            continue
    return node


def _duplicate_keys(node: yaml.Node, loc: Loc, out: list[tuple[Loc, yaml.Node, str]]) -> None:
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, yaml.Node] = {}
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode):
                if k.value in seen:
                    first = seen[k.value].start_mark
                    out.append((loc, k, f"duplicate key '{k.value}' (first at line {first.line + 1})"))
                else:
                    seen[k.value] = k
                _duplicate_keys(v, (*loc, k.value), out)
    elif isinstance(node, yaml.SequenceNode):
        for i, v in enumerate(node.value):
            _duplicate_keys(v, (*loc, i), out)


class FileRefused(OSError):
    """A file that is not read: ``kind`` says what it is when it is not a regular file ("a FIFO (named pipe)"),
    else it is ``size`` bytes, more than ``limit``."""

    def __init__(self, kind: str = "", size: int = 0, limit: int = 0) -> None:
        self.kind, self.size, self.limit = kind, size, limit
        super().__init__(
            f"not a regular file ({kind})" if kind else f"file is larger than {limit} bytes ({size} bytes)"
        )

    def __str__(self) -> str:
        return str(self.args[0])  # the words alone, also once ``filename`` is set (OSError's would add it)


def file_kind(mode: int) -> str:
    """What a file that is not a regular one is, in words."""
    for test, name in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return name
    return "not a plain file"


def open_checked(path: Path | str, limit: int, *, follow: bool = True, mode: int = os.O_RDONLY) -> int:
    """A descriptor of ``path`` opened for reading if it is a regular file of at most ``limit`` bytes, checked
    before a byte is read and without ever blocking (a FIFO is opened non-blocking and never waited on); the
    descriptor is left blocking for the reads. :class:`FileRefused` for anything else, :class:`OSError` when it
    cannot be opened. The one gate of every file the game reads: data files, recordings, their sidecars.

    ``follow`` off: a symbolic link is refused too (``O_NOFOLLOW``: an ``OSError``, ``ELOOP``), as for the side files
    of a save, which are never read or written through a link. ``mode``: other open flags (``O_RDWR | O_CREAT``
    for a lock file)."""
    flags = (
        mode
        | (0 if follow else getattr(os, "O_NOFOLLOW", 0))
        | getattr(os, "O_NONBLOCK", 0)
        | getattr(os, "O_NOCTTY", 0)
        | getattr(os, "O_CLOEXEC", 0)
        | getattr(os, "O_BINARY", 0)
    )
    fd = os.open(path, flags, 0o644)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FileRefused(kind=file_kind(st.st_mode))
        if st.st_size > limit:
            raise FileRefused(size=st.st_size, limit=limit)
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return fd
    except BaseException:
        os.close(fd)
        raise


def write_checked(path: Path | str, data: bytes) -> None:
    """Write ``data`` as the whole of ``path``, a regular file (made when missing), checked when opened and never
    waiting: :class:`FileRefused`, its ``filename`` set, for a FIFO, a device or a directory in its place (a FIFO
    would block the write, a device or a directory take it); :class:`OSError` when it cannot be written."""
    try:
        try:
            fd = open_checked(path, sys.maxsize, mode=os.O_WRONLY | os.O_CREAT)
        except IsADirectoryError:
            raise FileRefused(kind="a directory") from None
        except OSError as exc:
            if exc.errno != errno.ENXIO or isinstance(exc, FileRefused):
                raise
            raise FileRefused(kind="a FIFO (named pipe)") from None  # one nobody reads (O_NONBLOCK: not waited on)
    except FileRefused as exc:
        exc.filename = str(path)
        raise
    try:
        os.ftruncate(fd, 0)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def read_data_file(path: Path, limit: int = MAX_FILE_BYTES, *, follow: bool = True) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes (:func:`open_checked`); :class:`OSError` (with a
    message that says why) for anything else, a file that grows past ``limit`` while being read included. A
    symbolic link is followed (what it points at must pass the same checks), unless ``follow`` is off."""
    fd = open_checked(path, limit, follow=follow)
    try:
        chunks: list[bytes] = []
        size = 0
        while True:
            chunk = os.read(fd, min(65536, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise OSError(f"file is larger than {limit} bytes")
        return b"".join(chunks)
    finally:
        os.close(fd)


_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"
_MERGE_TAG = "tag:yaml.org,2002:merge"  # a key of this tag (``<<``, or anything tagged ``!!merge``) merges
# YAML 1.1 reads a plain 010 as octal (8), 0b101 as binary (5) and 1:30 as base 60 (90): numbers that do not play
# as written (YAML 1.2 reads 010 as 10 and the others as text)
_OCTAL = re.compile(r"[-+]?0[0-7_]+")
_BINARY = re.compile(r"[-+]?0b[01_]+")
_SEXAGESIMAL = re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?")
_NUMBER_STARTS = frozenset("+-0123456789")  # the first character of every text the three above match


def _surprising_scalar(loader: yaml.SafeLoader, ev: yaml.ScalarEvent) -> str:
    """Why a plain scalar must not be read as YAML 1.1 reads it ("" when it may): an octal, binary or base-60
    number, a merge key (``<<``: it drops keys silently)."""
    if ev.style or not ev.implicit[0]:
        return ""  # quoted, a block scalar or tagged: text as written
    value = ev.value
    if value == "<<":
        return "merge keys ('<<') are not allowed in data files; write the keys out"
    if value[:1] not in _NUMBER_STARTS:
        return ""  # (what the three patterns below all need: most scalars are words, passed over at once)
    octal, binary, base60 = _OCTAL.fullmatch(value), _BINARY.fullmatch(value), _SEXAGESIMAL.fullmatch(value)
    if not (octal or binary or base60):
        return ""
    tag = loader.resolve(yaml.ScalarNode, value, ev.implicit)  # type: ignore[no-untyped-call]
    if tag not in (_INT_TAG, _FLOAT_TAG):
        return ""
    sign = -1 if value.startswith("-") else 1
    digits = value.lstrip("+-").replace("_", "")
    if octal:
        read_as = sign * int(digits, 8)
        return f"'{value}' is an octal number in YAML 1.1 (read as {read_as}): write it without the leading 0"
    if binary:
        read_as = sign * int(digits[2:] or "0", 2)  # ("0b_" is a number too, to YAML 1.1)
        return f"'{value}' is a binary number in YAML 1.1 (read as {read_as}): write it in decimal"
    read = 0.0
    for part in digits.split(":"):
        read = read * 60 + float(part)
    return f"'{value}' is a base-60 number in YAML 1.1 (read as {sign * read:g}): write the number, or quote it as text"


def _prescan(text: str, display: str, col: Collector) -> bool:
    """Check the YAML event stream before anything is built from it; report and return False when it must not be.

    Refused: anchors and aliases (``&a``, ``*a``: one alias can stand for a whole tree, so a few lines can expand to
    billions of values, and ``x: &a [*a]`` is a loop), mappings and lists nested deeper than ``MAX_DEPTH``,
    integers written with more than ``MAX_NUMBER_CHARS`` characters, anything tagged ``!!merge`` (a merge key
    whatever its text) and what :func:`_surprising_scalar` refuses. Each with its line and column.
    """
    found: list[Problem] = []
    aliases: list[tuple[int, int, str]] = []  # anchors and aliases: the first is reported with their count
    loader = _Loader(text)
    try:
        depth = 0
        while loader.check_event():
            ev = loader.get_event()  # type: ignore[no-untyped-call]
            m = ev.start_mark
            line, column = m.line + 1, m.column + 1
            if isinstance(ev, yaml.AliasEvent):
                aliases.append((line, column, f"alias '*{ev.anchor}'"))
            elif isinstance(ev, yaml.NodeEvent) and ev.anchor is not None:
                aliases.append((line, column, f"anchor '&{ev.anchor}'"))
            if isinstance(ev, (yaml.SequenceStartEvent, yaml.MappingStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    found.append(Problem(display, line, column, "", f"nested more than {MAX_DEPTH} deep"))
                    break
            elif isinstance(ev, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
                depth -= 1
            if isinstance(ev, (yaml.ScalarEvent, yaml.CollectionStartEvent)) and ev.tag == _MERGE_TAG:
                found.append(Problem(display, line, column, "", "merge keys ('!!merge') are not allowed in data files"))
            elif isinstance(ev, yaml.ScalarEvent) and (why := _surprising_scalar(loader, ev)):
                found.append(Problem(display, line, column, "", why))
                if len(found) >= MAX_PROBLEMS_PER_FILE:
                    break
            elif isinstance(ev, yaml.ScalarEvent) and len(ev.value) > MAX_NUMBER_CHARS:
                tag = ev.tag
                if tag is None or tag == "!":
                    tag = loader.resolve(yaml.ScalarNode, ev.value, ev.implicit)  # type: ignore[no-untyped-call]
                if tag == _INT_TAG:
                    found.append(
                        Problem(display, line, column, "", f"number too long (more than {MAX_NUMBER_CHARS} characters)")
                    )
                    if len(found) >= MAX_PROBLEMS_PER_FILE:
                        break
    finally:
        loader.dispose()
    if aliases:
        line, column, what = aliases[0]
        more = f" ({len(aliases) - 1} more in this file)" if len(aliases) > 1 else ""
        found.append(
            Problem(
                display,
                line,
                column,
                "",
                f"{what}: anchors and aliases are not allowed in data files; write the value out{more}",
            )
        )
    col.problems.extend(found)
    return not found


_UNSURE_BREAKS = re.compile("[\x85\u2028\u2029]")


def _one_kind_of_line_break(text: str, display: str, col: Collector) -> bool:
    """Refuse NEL, U+2028 and U+2029 anywhere in a file (report and return False): YAML 1.1 readers (ours) end a
    line there and YAML 1.2 readers (and editors) do not, so after one in a comment a key can be there for one
    reader and hidden in the comment for another. The position is counted in lines ended by a newline."""
    found = _UNSURE_BREAKS.search(text)
    if found is None:
        return True
    at = found.start()
    line, column = text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1
    name = unicodedata.name(found.group(), "NEXT LINE")
    more = len(_UNSURE_BREAKS.findall(text)) - 1
    col.problems.append(
        Problem(
            display,
            line,
            column,
            "",
            f"U+{ord(found.group()):04X} ({name}) is a line break to some YAML readers and not to others: not "
            "allowed in data files; end the line with a newline" + (f" ({more} more in this file)" if more else ""),
        )
    )
    return False


def parse_yaml(path: Path, display: str, col: Collector) -> ParsedFile | None:
    """Read one YAML file into nodes and plain values; report why not if it cannot."""
    try:
        raw = read_data_file(path)
    except FileNotFoundError:
        col.problems.append(Problem(display, 0, 0, "", "file is missing"))
        return None
    except OSError as exc:
        col.problems.append(Problem(display, 0, 0, "", f"cannot read: {exc.strerror or exc}"))
        return None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        col.problems.append(Problem(display, 0, 0, "", f"not UTF-8 text (byte {exc.start})"))
        return None
    if not _one_kind_of_line_break(text, display, col):
        return None
    try:
        if not _prescan(text, display, col):
            return None
        loader = _Loader(text)
        try:
            node = loader.get_single_node()
            if node is None:
                col.problems.append(Problem(display, 1, 1, "", "file is empty"))
                return None
            dups: list[tuple[Loc, yaml.Node, str]] = []
            _duplicate_keys(node, (), dups)
            col.duplicated.update((display, (*loc, k.value)) for loc, k, _ in dups)
            for loc, knode, msg in dups[:MAX_PROBLEMS_PER_FILE]:
                m = knode.start_mark
                col.problems.append(Problem(display, m.line + 1, m.column + 1, ".".join(str(p) for p in loc), msg))
            try:
                value = loader.construct_document(node)
            except (ValueError, OverflowError, RecursionError) as exc:  # a value no data file needs
                m = node.start_mark
                col.problems.append(Problem(display, m.line + 1, m.column + 1, "", f"cannot read a value: {exc}"))
                return None
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        what = exc.problem or "malformed YAML"
        if isinstance(exc, yaml.constructor.ConstructorError) and "tag" in (exc.problem or ""):
            what = f"{what.strip()} (data files may only hold plain values: no tags that build objects)"
        elif exc.context:
            what = f"{exc.context}: {what}"
        col.problems.append(Problem(display, line, column, "", what))
        return None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow: no mark, a position in the text
        at = max(0, min(exc.position, len(text)))
        line, column = text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1
        col.problems.append(Problem(display, line, column, "", f"{exc.reason}: character {exc.character!r}"))
        return None
    except yaml.YAMLError as exc:
        col.problems.append(Problem(display, 0, 0, "", f"malformed YAML: {exc}"))
        return None
    return ParsedFile(path, display, node, value)


def _describe(err: Mapping[str, Any]) -> str:
    msg = str(err.get("msg", "invalid"))
    kind = err.get("type", "")
    if kind == "extra_forbidden":
        return "unknown key"
    if kind == "missing":
        return f"missing key '{err['loc'][-1]}'" if err.get("loc") else "missing key"
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, ") :]
    inp = err.get("input")
    if isinstance(inp, (str, int, float, bool)) and repr(inp) not in msg and f"'{inp}'" not in msg:
        shown = repr(inp)
        msg = f"{msg} (got {shown if len(shown) <= 60 else shown[:57] + '...'})"
    return msg


_LOC_NOISE = ("function-after", "function-before", "function-wrap", "constrained-", "tagged-union")


def _clean_loc(loc: Sequence[Any]) -> Loc:
    out: list[str | int] = []
    for p in loc:
        if isinstance(p, str) and (p.startswith(_LOC_NOISE) or "[" in p):
            continue
        if isinstance(p, str) and p in ("str", "int", "none", "bool") and out:
            continue
        out.append(p)
    return tuple(out)


@functools.cache
def _adapter(model: Any) -> TypeAdapter[Any]:
    """A file's validator, built once a process (building one took a twentieth of a load)."""
    return TypeAdapter(model)


def validate_file(pf: ParsedFile, model: Any, fname: str, col: Collector) -> Any:
    """Validate one parsed file against its model; report every error; return the typed value or None."""
    try:
        return _adapter(model).validate_python(pf.value)
    except ValidationError as exc:
        seen: set[tuple[Loc, str]] = set()
        errors = exc.errors()
        for n, err in enumerate(errors):
            if len(seen) >= MAX_PROBLEMS_PER_FILE:
                col.add(fname, _clean_loc(err["loc"]), f"{len(errors) - n} more problem(s) in this file not shown")
                break
            loc = _clean_loc(err["loc"])
            msg = _describe(err)
            if (loc, msg) in seen:
                continue
            seen.add((loc, msg))
            col.add(fname, loc, msg, key=err["type"] == "extra_forbidden" or "[key]" in err["loc"])
        return None


def data_digest(directory: Path) -> str:
    """A short stable hash of the data files (names and bytes), for recordings."""
    h = hashlib.blake2b(digest_size=12)
    for name in sorted(FILES):
        p = directory / name
        h.update(name.encode())
        h.update(b"\0")
        try:
            h.update(read_data_file(p))
        except OSError:
            h.update(b"<missing>")
        h.update(b"\0")
    return h.hexdigest()
