"""Reading a recording: :func:`open_regular` (the one gate for a recording's file) and :func:`load_recording`,
which reads and checks every line of the three formats (format 3 by :func:`_read_format3`, formats 1 and 2 by
:func:`_read_json_actions`) and names the first bad one."""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from undercroft.content.loader import FileRefused, open_checked
from undercroft.record.format import (
    _MAX_MESSAGE,
    _PART_BYTES,
    _TEXT_HASH_BYTES,
    FORMAT_VERSION,
    KNOWN_PARTS,
    MAGIC,
    MAX_FILE,
    MAX_LINE,
    Header,
    Recording,
    RecordingError,
    _action_of,
    _chain,
    _dumps,
    is_daily_date,
)
from undercroft.rules.actions import Action, ActionError, action_from_dict, action_from_text
from undercroft.rules.digest import PART_HEX
from undercroft.rules.rng import parse_seed

_CHECKSUM_HEX = 16
_TEXT_HASH_HEX = 2 * _TEXT_HASH_BYTES
_HEX = frozenset("0123456789abcdef")
_STARTED = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z")
_TAMPERED = (
    "tampered or corrupt: the line's hash does not match its content (edited, or a line before it was removed or moved)"
)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def open_regular(path: Path | str, max_size: int = MAX_FILE) -> BinaryIO:
    """Open ``path`` for reading only if it is a regular file of at most ``max_size`` bytes, without ever blocking
    (the game's one gate for files, :func:`undercroft.content.loader.open_checked`). A FIFO, a device (``/dev/zero``,
    a symlink to it), a directory or a socket, a file too large, or a missing or unreadable file raise
    :class:`RecordingError` (line 0: the file as a whole)."""
    path = Path(path)
    try:
        fd = open_checked(path, max_size)
    except FileNotFoundError:
        raise RecordingError(path, 0, "no such file") from None
    except IsADirectoryError:
        raise RecordingError(path, 0, "is a directory, not a recording") from None
    except FileRefused as exc:
        if exc.kind:
            raise RecordingError(path, 0, f"is {exc.kind}, not a recording: only regular files are read") from None
        raise RecordingError(
            path,
            0,
            f"{exc.size:,} bytes: larger than the {max_size // (1024 * 1024)} MiB a "
            "recording may be: refused (not a recording?)",
        ) from None
    except OSError as exc:
        raise RecordingError(path, 0, f"cannot read: {exc.strerror or exc}") from None
    return os.fdopen(fd, "rb")


def _iter_lines(path: Path, fh: Any, lenient_tail: bool) -> Iterator[tuple[int, bytes]]:
    n = 0
    total = 0
    while True:
        raw: bytes = fh.readline(MAX_LINE + 1)
        if not raw:
            return
        n += 1
        total += len(raw)
        if total > MAX_FILE:  # the file grew past the limit while it was read
            raise RecordingError(path, n, f"the file is larger than {MAX_FILE // (1024 * 1024)} MiB: refused")
        if not raw.endswith(b"\n"):
            if len(raw) > MAX_LINE:
                raise RecordingError(path, n, f"line longer than {MAX_LINE // 1024} KiB: refused (not a recording?)")
            if lenient_tail:
                return
            raise RecordingError(path, n, "truncated: the file ends in the middle of this line")
        yield n, raw


def _parse(path: Path, n: int, raw: bytes) -> dict[str, Any]:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordingError(path, n, f"not UTF-8 text (byte {exc.start + 1})") from None
    if not text.strip():
        raise RecordingError(path, n, "blank line")
    try:
        obj = json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise RecordingError(path, n, "nested too deeply: refused") from None
    except json.JSONDecodeError as exc:
        raise RecordingError(path, n, f"not JSON: {exc.msg} (column {exc.colno})") from None
    except ValueError as exc:
        raise RecordingError(path, n, f"not a valid line: {exc}") from None
    if not isinstance(obj, dict):
        found = type(obj).__name__ if obj is not None else "null"
        raise RecordingError(path, n, f"expected a JSON object, found {found}")
    return obj


def _check_hash(path: Path, n: int, obj: dict[str, Any], prev: str) -> str:
    h = obj.pop("hash", None)
    if not isinstance(h, str):
        raise RecordingError(path, n, "line has no 'hash' (not written by Undercroft, or edited)")
    try:
        body = _dumps(obj)
    except (ValueError, TypeError, RecursionError):
        raise RecordingError(path, n, "line holds values a recording never has") from None
    if _chain(prev, body) != h:
        raise RecordingError(path, n, _TAMPERED)
    return h


def _want(path: Path, n: int, obj: dict[str, Any], key: str, kind: type, what: str) -> Any:
    v = obj.get(key)
    if not isinstance(v, kind) or (kind is int and isinstance(v, bool)):
        raise RecordingError(path, n, f"'{key}' must be {what}")
    return v


def _is_hex(s: object, length: int) -> bool:
    return isinstance(s, str) and len(s) == length and set(s) <= _HEX


def _parts(path: Path, obj: dict[str, Any]) -> list[str]:
    """The header's ``parts``: the state's part names, each known, once, in sorted order."""
    parts: list[str] = _want(path, 1, obj, "parts", list, "a list of names")
    if not parts or len(parts) > 64 or not all(isinstance(p, str) and 0 < len(p) <= 40 for p in parts):
        raise RecordingError(path, 1, "'parts' must be a list of names")
    unknown = [p for p in parts if p not in KNOWN_PARTS]
    if unknown:
        raise RecordingError(
            path,
            1,
            f"'parts' names no part of the game's state: {', '.join(map(repr, unknown))} "
            f"(the parts are {', '.join(sorted(KNOWN_PARTS))})",
        )
    if parts != sorted(set(parts)):
        raise RecordingError(path, 1, "'parts' must name each part once, in sorted order")
    return parts


def _header(path: Path, obj: dict[str, Any]) -> Header:
    if obj.get("recording") != MAGIC:
        raise RecordingError(path, 1, "not an Undercroft recording (the first line is not a recording header)")
    fmt = _want(path, 1, obj, "format", int, "a whole number")
    if fmt > FORMAT_VERSION or fmt < 1:
        raise RecordingError(
            path,
            1,
            f"recording format {fmt}: this version of Undercroft reads format "
            f"{FORMAT_VERSION} (upgrade the game to replay it)",
        )
    known = {
        "recording",
        "format",
        "game_version",
        "ruleset",
        "data_digest",
        "seed",
        "python",
        "numpy",
        "start",
        "parts",
    }
    if fmt >= 2:
        known.add("tcod")
    if fmt >= 3:
        known |= {"daily", "rules_revision", "started"}
    extra = sorted(set(obj) - known)
    if extra:
        raise RecordingError(path, 1, f"unknown header field(s): {', '.join(extra)}")
    names = ["game_version", "ruleset", "data_digest", "python", "numpy", "start"] + (["tcod"] if fmt >= 2 else [])
    strings = {k: _want(path, 1, obj, k, str, "text") for k in names}
    for k, v in strings.items():
        if len(v) > 200:
            raise RecordingError(path, 1, f"'{k}' is too long")
    seed = _want(path, 1, obj, "seed", int, "a whole number")
    try:
        parse_seed(seed)
    except ValueError as exc:
        raise RecordingError(path, 1, str(exc)) from None
    parts = _parts(path, obj)
    daily = obj.get("daily", "")
    if "daily" in obj and not is_daily_date(daily):
        raise RecordingError(path, 1, "'daily' must be a date, YYYY-MM-DD")
    revision = obj.get("rules_revision", 0)
    if "rules_revision" in obj and (type(revision) is not int or not 0 < revision < 1 << 31):
        raise RecordingError(path, 1, "'rules_revision' must be a whole number from 1")
    started = obj.get("started", "")
    if not isinstance(started, str) or (started and not _STARTED.fullmatch(started)):
        raise RecordingError(path, 1, "'started' must be a time, YYYY-MM-DDTHH:MM:SSZ")
    if fmt >= 3:
        if not _is_hex(strings["start"], PART_HEX * len(parts)):
            raise RecordingError(path, 1, f"'start' must be a {PART_HEX * len(parts)}-digit hex digest")
    elif not _is_hex(strings["start"], _CHECKSUM_HEX):
        raise RecordingError(path, 1, "'start' must be a 16-digit hex checksum")
    return Header(
        fmt,
        strings["game_version"],
        strings["ruleset"],
        strings["data_digest"],
        seed,
        strings["python"],
        strings["numpy"],
        False,
        strings["start"],
        tuple(parts),
        strings.get("tcod", ""),
        daily,
        revision,
        started,
    )


def _action(path: Path, n: int, obj: dict[str, Any]) -> Action:
    try:
        return action_from_dict(obj.get("action"))
    except ActionError as exc:
        raise RecordingError(path, n, f"bad action: {exc}") from None


def load_recording(path: Path | str, *, lenient_tail: bool = False) -> Recording:
    """Read and check a whole recording; raise :class:`RecordingError` naming the first bad line.

    ``lenient_tail``: a last line cut short (no newline) is ignored instead of refused (for continuing a game
    whose writer was killed mid-write; the writer never leaves one, but a disk might).
    """
    path = Path(path)
    fh = open_regular(path)
    with fh:
        try:
            return _load(path, fh, lenient_tail).recording()
        except OSError as exc:
            raise RecordingError(path, 0, f"cannot read: {exc.strerror or exc}") from None


@functools.cache
def _text_line_re(digest_hex: int) -> re.Pattern[bytes]:
    """A well-formed action line of format 3 (its fields are checked further once it matches)."""
    return re.compile(
        rb"(0|[1-9][0-9]{0,8}) ([a-z_]{1,20}(?: -?[0-9]{1,11}){0,8}) ([0-9a-f]{%d}) ([0-9a-f]{%d})\n"
        % (digest_hex, _TEXT_HASH_HEX)
    )


_TEXT_SHAPE = "TURN TYPE [FIELDS...] DIGEST HASH, single spaces"


def _bad_text_line(path: Path, n: int, raw: bytes, digest_hex: int) -> RecordingError:
    """Why ``raw`` is not a well-formed action line of format 3: the first thing wrong, for a human."""
    try:
        text = raw.decode("ascii")
    except UnicodeDecodeError as exc:
        return RecordingError(path, n, f"not an action line: byte {exc.start + 1} is not ASCII")
    text = text[:-1]
    if not text.strip():
        return RecordingError(path, n, "blank line")
    if text.endswith("\r"):
        return RecordingError(path, n, "not an action line: it ends with a carriage return (CRLF)")
    tokens = text.split(" ")
    if "" in tokens:
        return RecordingError(path, n, f"not an action line: extra spaces (expected {_TEXT_SHAPE})")
    if any(not t.isprintable() for t in tokens):
        return RecordingError(path, n, "not an action line: it holds a control character")
    if len(tokens) < 4:
        return RecordingError(
            path,
            n,
            f"not an action line: {len(tokens)} field{'s' if len(tokens) != 1 else ''} (expected {_TEXT_SHAPE})",
        )
    turn, kind, *fields, dig, h = tokens
    if not (turn.isdigit() and len(turn) <= 9 and str(int(turn)) == turn and int(turn) > 0):
        return RecordingError(path, n, f"not an action line: the turn must be a whole number from 1, not {turn[:20]!r}")
    if not _is_hex(h, _TEXT_HASH_HEX):
        return RecordingError(
            path, n, f"not an action line: the line's hash must be {_TEXT_HASH_HEX} hex digits, not {h[:40]!r}"
        )
    if not _is_hex(dig, digest_hex):
        return RecordingError(
            path, n, f"not an action line: the digest must be {digest_hex} hex digits, not {dig[:40]!r}"
        )
    try:
        action_from_text(" ".join([kind, *fields]))
    except ActionError as exc:
        return RecordingError(path, n, f"bad action: {exc}")
    return RecordingError(path, n, f"not an action line (expected {_TEXT_SHAPE})")  # pragma: no cover


@dataclass
class _Reading:
    """What has been read of a recording so far: its header, the chain, the actions, and how it ends."""

    path: Path
    header: Header
    prev: str  # the chain value of the last line read
    size: int  # bytes of the lines read
    actions: list[tuple[int, Action, str]] = field(default_factory=list)
    digests: list[str] = field(default_factory=list)
    crash: dict[str, Any] | None = None
    end: str | None = None
    score: int | None = None
    closed_at: int = 0  # the line of the end or crash line (0: none yet)
    count: int = 0  # actions read
    last: tuple[int, Action, str] | None = None  # the last action read
    on_action: OnAction | None = None  # streaming (:func:`stream_recording`): each action handed over, none kept

    def add(self, turn: int, action: Action, check: str, parts: str) -> None:
        """One more action line read: kept (or, streaming, handed to :attr:`on_action`)."""
        self.count += 1
        self.last = (turn, action, check)
        if self.on_action is None:
            self.actions.append(self.last)
            self.digests.append(parts)
        else:
            self.on_action(turn, action, check, parts)

    def check_open(self, n: int) -> None:
        """Line ``n`` follows an end or crash line: refused."""
        if self.closed_at:
            raise RecordingError(
                self.path, n, f"nothing may follow the {'crash' if self.crash else 'end'} line (line {self.closed_at})"
            )

    def json_line(self, n: int, raw: bytes) -> dict[str, Any] | None:
        """A JSON line after the header: an end or crash line is checked and kept (None); any other line's object
        is returned, its hash checked (an action line of formats 1-2)."""
        obj = _parse(self.path, n, raw)
        self.check_open(n)
        self.prev = _check_hash(self.path, n, obj, self.prev)
        if "end" in obj:
            self._end(n, obj)
        elif "crash" in obj:
            self._crash(n, obj)
        else:
            return obj
        return None

    def _end(self, n: int, obj: dict[str, Any]) -> None:
        path, last = self.path, self.last
        check = "digest" if self.header.format >= 3 else "checksum"
        keys = {"end", "turn", check}
        if set(obj) not in (keys, keys | {"score"}) or ("score" in obj and self.header.format < 3):
            also = " (and 'score')" if self.header.format >= 3 else ""
            raise RecordingError(path, n, f"an end line holds 'end', 'turn' and '{check}'{also}")
        score = obj.get("score")
        if "score" in obj and (type(score) is not int or not 0 <= score < 1 << 53):
            raise RecordingError(path, n, f"'score' must be a whole number from 0, not {score!r}")
        end = obj["end"]
        if end not in ("dead", "won"):
            raise RecordingError(path, n, "'end' must be 'dead' or 'won'")
        if type(obj["turn"]) is not int:
            raise RecordingError(path, n, f"'turn' must be a whole number, not {obj['turn']!r}")
        if obj["turn"] != self.count or last is None or obj[check] != last[2]:
            raise RecordingError(path, n, "the end line does not match the last action")
        self.end = end
        self.score = score
        self.closed_at = n

    def _crash(self, n: int, obj: dict[str, Any]) -> None:
        path = self.path
        if set(obj) != {"turn", "action", "crash"}:
            raise RecordingError(path, n, "a crash line holds 'turn', 'action' and 'crash'")
        info = obj["crash"]
        if not (
            isinstance(info, dict)
            and set(info) == {"type", "message"}
            and isinstance(info["type"], str)
            and isinstance(info["message"], str)
        ):
            raise RecordingError(path, n, "'crash' must hold 'type' and 'message'")
        if type(obj["turn"]) is not int:
            raise RecordingError(path, n, f"'turn' must be a whole number, not {obj['turn']!r}")
        if len(info["type"]) > 200 or len(info["message"]) > 4 * _MAX_MESSAGE:
            raise RecordingError(path, n, "the crash's 'type' or 'message' is too long")
        expect = self.count + 1
        if obj["turn"] != expect:
            raise RecordingError(path, n, f"turn {obj['turn']!r} out of order: expected {expect}")
        action = _action(path, n, obj)
        self.crash = {"turn": expect, "action": action, "type": info["type"], "message": info["message"], "line": n}
        self.closed_at = n

    def recording(self) -> Recording:
        header = self.header if self.end is None else dataclasses.replace(self.header, finished=True)
        return Recording(
            self.path,
            header,
            self.actions,
            self.end is not None,
            self.crash,
            self.end,
            self.score,
            self.digests,
            self.prev,
            self.size,
        )


OnAction = Callable[[int, Action, str, str], None]  # (turn, action, check, parts): one action line, as read


class _Hashing:
    """A file whose every line read is also fed to ``hasher`` (the digest of exactly the bytes that were read)."""

    def __init__(self, fh: BinaryIO, hasher: Any) -> None:
        self.fh, self.hasher = fh, hasher

    def readline(self, limit: int = -1) -> bytes:
        raw = self.fh.readline(limit)
        self.hasher.update(raw)
        return raw


def stream_recording(
    path: Path | str,
    on_header: Callable[[Header], None],
    on_action: OnAction,
    *,
    lenient_tail: bool = False,
    hasher: Any = None,
) -> tuple[Recording, tuple[int, Action, str] | None, int]:
    """Read and check a whole recording as :func:`load_recording` does, keeping none of its actions: the header
    goes to ``on_header`` and each action to ``on_action`` as it is read (what it raises stops the reading). Returns
    the recording without its actions, the last action and how many there were: memory stays flat however long the
    recording is. ``hasher`` (a ``hashlib`` object) is fed every byte read."""
    path = Path(path)
    raw_fh = open_regular(path)
    fh: Any = raw_fh if hasher is None else _Hashing(raw_fh, hasher)
    with raw_fh:
        try:
            reading = _load(path, fh, lenient_tail, on_header, on_action)
        except OSError as exc:
            raise RecordingError(path, 0, f"cannot read: {exc.strerror or exc}") from None
    return reading.recording(), reading.last, reading.count


def _load(
    path: Path,
    fh: Any,
    lenient_tail: bool,
    on_header: Callable[[Header], None] | None = None,
    on_action: OnAction | None = None,
) -> _Reading:
    lines = _iter_lines(path, fh, lenient_tail)
    first = next(lines, None)
    if first is None:
        raise RecordingError(path, 1, "empty file: not a recording")
    n, raw = first
    obj = _parse(path, n, raw)
    if obj.get("recording") != MAGIC:
        raise RecordingError(path, 1, "not an Undercroft recording (the first line is not a recording header)")
    prev = _check_hash(path, n, obj, "")
    reading = _Reading(path, _header(path, obj), prev, len(raw), on_action=on_action)
    if on_header is not None:
        on_header(reading.header)
    if reading.header.format >= 3:
        _read_format3(reading, lines)
    else:
        _read_json_actions(reading, lines)
    return reading


def _read_format3(reading: _Reading, lines: Iterator[tuple[int, bytes]]) -> None:
    """The lines after the header of format 3: an action line is text, an end or crash line a JSON object."""
    path = reading.path
    digest_hex = PART_HEX * len(reading.header.parts)
    match = _text_line_re(digest_hex).fullmatch
    for n, raw in lines:
        if raw.startswith(b"{"):
            obj = reading.json_line(n, raw)
            if obj is not None:
                keys = ", ".join(sorted(set(obj))) or "nothing"
                raise RecordingError(
                    path,
                    n,
                    f"not an end or crash line (it holds {keys}); "
                    f"in format {reading.header.format} an action line is text",
                )
            reading.size += len(raw)
            continue
        reading.check_open(n)
        m = match(raw)
        if m is None:
            raise _bad_text_line(path, n, raw, digest_hex)
        body = raw[: m.end(3)].decode("ascii")
        h = m.group(4).decode("ascii")
        if hashlib.blake2b(f"{reading.prev}\n{body}".encode(), digest_size=_TEXT_HASH_BYTES).hexdigest() != h:
            raise RecordingError(path, n, _TAMPERED)
        reading.prev = h
        turn = int(m.group(1))
        expect = reading.count + 1
        if turn != expect:
            raise RecordingError(path, n, f"turn {turn} out of order: expected {expect}")
        try:
            action = _action_of(m.group(2).decode("ascii"))
        except ActionError as exc:
            raise RecordingError(path, n, f"bad action: {exc}") from None
        dig = m.group(3).decode("ascii")
        reading.add(turn, action, dig, dig)
        reading.size += len(raw)


def _read_json_actions(reading: _Reading, lines: Iterator[tuple[int, bytes]]) -> None:
    """The lines after the header of formats 1 and 2: every line a JSON object, an action line holding the action
    as a dict, the state's checksum and its parts' digests."""
    path = reading.path
    nparts = len(reading.header.parts)
    for n, raw in lines:
        obj = reading.json_line(n, raw)
        if obj is not None:
            if set(obj) != {"turn", "action", "checksum", "parts"}:
                keys = ", ".join(sorted(set(obj))) or "nothing"
                raise RecordingError(path, n, f"not an action line (it holds {keys})")
            turn = obj["turn"]
            if type(turn) is not int:  # not 1.0, not true: a recording's turn is written as a whole number
                raise RecordingError(path, n, f"'turn' must be a whole number, not {turn!r}")
            expect = reading.count + 1
            if turn != expect:
                raise RecordingError(path, n, f"turn {turn!r} out of order: expected {expect}")
            chk, parts = obj["checksum"], obj["parts"]
            if not _is_hex(chk, _CHECKSUM_HEX):
                raise RecordingError(path, n, "'checksum' must be a 16-digit hex checksum")
            if not _is_hex(parts, nparts * 2 * _PART_BYTES):
                raise RecordingError(path, n, f"'parts' must be {nparts} hex digests")
            reading.add(turn, _action(path, n, obj), chk, parts)
        reading.size += len(raw)
