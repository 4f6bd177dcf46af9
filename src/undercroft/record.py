"""Recordings: every game is written down as it is played, and the saved game IS its recording.

A recording is a text file of lines (see docs/REPLAY.md), format 3 (:data:`FORMAT_VERSION`):

* line 1, the **header** (a JSON object): format version, game version, ruleset, the digest of the data files, the
  seed, the Python, numpy and tcod versions, the digest of the starting state and the names of the state's parts;
* one line per **accepted action**, plain text: ``TURN TYPE FIELDS... DIGEST HASH`` (``17 move 1 0 7bdc...d4
  1a2b3c4d``): its turn, the action (:func:`~undercroft.rules.actions.action_to_text`), the state's digest after it
  (:meth:`Game.digest <undercroft.rules.game.Game.digest>`: one short hash per part of the state, so that a desync
  report can say which part differs) and the chained hash;
* at most one last line (a JSON object): **end** (the game was lost or won: the floor is discarded) or **crash**
  (the action during which the engine raised; replaying the recording raises again at that turn).

Every line carries a hash chained over the previous line's hash and the line's own content (blake2b: ``HASH``, 8
hex digits, ending an action line; ``"hash"``, 12, in a JSON line): a line that was edited, dropped or moved is
caught when the file is loaded, with its line number. It is an integrity check, not a signature.

Formats 1 and 2 (every line a JSON object; an action line holds the action as a dict, ``Game.checksum()`` of the
state after it and 2-byte digests of its parts) are still read, replayed and verified as they always were, and a
game of format 1 or 2 that is continued (:meth:`Recorder.append_to`) goes on in its own format.

Lines are written whole with one ``os.write`` on a file opened for appending (and optionally ``fsync``-ed), one
per action, so a crash never leaves a file that cannot be loaded up to its last action (the bot's games gather a
few dozen action lines a write: ``Recorder.create(..., batch=)``). A write that fails (a full
disk) is cut back to the last whole line and kept in memory, to be written first once writing works again
(:attr:`Recorder.error`, :attr:`Recorder.pending`, :meth:`Recorder.flush_pending`). Loading never runs code from
the file: only a regular file of at most :data:`MAX_FILE` bytes is opened (never a FIFO or a device), it is plain
JSON or plain text (no pickle), each line is at most :data:`MAX_LINE` bytes, and every field is checked, types
included. Text read from a file is shown through :func:`printable`. A game is rebuilt from ``(content, ruleset,
seed)`` and its actions are re-applied: replays are bit-exact.
"""

from __future__ import annotations

import contextlib
import datetime
import errno
import functools
import hashlib
import json
import os
import platform
import re
import stat
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

from undercroft import __version__
from undercroft.content import Content
from undercroft.content.loader import FileRefused, open_checked, printable
from undercroft.rules.actions import (
    Action,
    ActionError,
    action_from_dict,
    action_from_text,
    action_to_dict,
    action_to_text,
)
from undercroft.rules.digest import PART_HEX, PARTS, differing
from undercroft.rules.events import Event
from undercroft.rules.game import Game
from undercroft.rules.names import the
from undercroft.rules.rng import parse_seed
from undercroft.rules.types import Mode

__all__ = [
    "FORMAT_VERSION",
    "KNOWN_PARTS",
    "MAX_FILE",
    "MAX_LINE",
    "WRITES",
    "Desync",
    "Header",
    "Recorder",
    "Recording",
    "RecordingError",
    "SaveError",
    "compatibility",
    "crash_report_path",
    "installed_versions",
    "load_recording",
    "open_regular",
    "play_step",
    "printable",
    "replay",
    "state_summary",
]

# 3: action lines are plain text with the state's digest (Game.digest); 2: the header also records the tcod
# version; 1: the first. Formats 1 and 2 are still read, replayed and verified.
FORMAT_VERSION = 3
WRITES = (2, 3)  # the formats a Recorder writes (2: to continue a game saved in format 1 or 2 in its own format)
MAGIC = "undercroft"  # the header's "recording" field
MAX_LINE = 64 * 1024  # bytes; a longer line is refused without being parsed
MAX_FILE = 64 * 1024 * 1024  # bytes (about 450,000 actions); a larger file is refused before it is read
# The names a header's "parts" may hold: the canonical state's top-level parts (rules/state.py: canonical). A state
# part added to the game must be added here too (tests/test_record_hostile.py checks it).
KNOWN_PARTS = frozenset({"clock", "levels", "mode", "party", "rng"})
_HASH_BYTES = 6  # a JSON line's "hash"
_TEXT_HASH_BYTES = 4  # an action line's HASH (format 3)
_TEXT_HASH_HEX = 2 * _TEXT_HASH_BYTES
_PART_BYTES = 2
_CHECKSUM_HEX = 16
_MAX_MESSAGE = 2000  # a crash line keeps this much of the exception's message
_HEX = frozenset("0123456789abcdef")


class RecordingError(Exception):
    """A recording that cannot be read (or written): ``str()`` is ``FILE:LINE: message``.

    ``line`` is 1-based; 0 means the file as a whole (missing, unreadable), and then ``str()`` is ``FILE: message``.
    ``str()`` is :func:`printable`: a file name or a field quoted in the message cannot reach the terminal raw.
    """

    def __init__(self, path: Path | str, line: int, message: str) -> None:
        self.path = Path(path)
        self.line = line
        self.message = message
        super().__init__(printable(f"{path}:{line}: {message}" if line else f"{path}: {message}"))


class SaveError(OSError):
    """A new recording that could not be started (its directory, its file or its header could not be written):
    no file is left behind. An ``OSError`` with the cause's ``errno`` and ``strerror``, ``filename`` the path;
    ``str()`` is ``FILE: cannot save: reason`` (one line)."""

    def __init__(self, path: Path | str, cause: OSError) -> None:
        reason = cause.strerror or str(cause) or type(cause).__name__
        super().__init__(cause.errno or 0, reason, str(path))
        self.path = Path(path)
        self.reason = reason

    def __str__(self) -> str:
        return printable(f"{self.path}: cannot save: {self.reason}")


class Desync(Exception):
    """The replayed game differs from the recording at ``turn`` (after ``action``; None: the starting state).

    ``parts`` names what differs: state parts (``party``, ``rng``, ...), or ``refused: why`` when the replayed engine
    refused a recorded action, or ``end: ...`` when the recorded end of the game did not happen.
    """

    def __init__(self, turn: int, action: Action | None, parts: list[str], line: int = 0) -> None:
        self.turn = turn
        self.action = action
        self.parts = parts
        self.line = line
        what = "the starting state" if action is None else f"action {describe_action(action)}"
        super().__init__(f"desync at turn {turn} ({what}): differs in {', '.join(parts) or 'the checksum'}")


@dataclass(frozen=True)
class Header:
    format: int
    game_version: str
    ruleset: str
    data_digest: str
    seed: int
    python: str
    numpy: str
    finished: bool = False  # set when the file ends with an end line
    start: str = ""  # checksum (formats 1-2) or digest (format 3) of the starting state
    parts: tuple[str, ...] = ()  # the state's parts, in the order of each line's "parts" (format 3: its digest)
    tcod: str = ""  # the tcod version ("": not recorded, a format 1 recording)


@dataclass(frozen=True)
class Recording:
    path: Path
    header: Header
    actions: list[tuple[int, Action, str]]  # (turn, action, check): the state's checksum (formats 1-2) or digest
    finished: bool = False
    crash: dict[str, Any] | None = None  # {"turn", "action" (Action), "type", "message", "line"}
    end: str | None = None  # "dead" or "won" when finished
    part_digests: list[str] = field(default_factory=list, repr=False)  # per action, the "parts" field (format 3:
    # the digest, which is the parts' digests)
    last_hash: str = field(default="", repr=False)  # chain value of the last line (for appending)
    size: int = field(default=0, repr=False)  # bytes of whole lines read (a torn tail is not counted)

    @property
    def turns(self) -> int:
        """The turn of the last recorded action (0: none)."""
        return self.actions[-1][0] if self.actions else 0

    @staticmethod
    def line_of(index: int) -> int:
        """The file line of action number ``index`` (0-based)."""
        return index + 2


# --- encoding ------------------------------------------------------------------------------------------------


_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
_dumps = _ENCODER.encode  # the canonical form of a line, and of the state (as undercroft.rules.state.encode)


def _chain(prev: str, body: str) -> str:
    return hashlib.blake2b(f"{prev}\n{body}".encode(), digest_size=_HASH_BYTES).hexdigest()


def _chain_text(prev: str, body: str) -> str:
    """An action line's HASH (format 3): blake2b of the previous line's hash and this line's body."""
    return hashlib.blake2b(f"{prev}\n{body}".encode(), digest_size=_TEXT_HASH_BYTES).hexdigest()


@functools.lru_cache(maxsize=1024)
def _text_of(action: Action) -> str:
    return action_to_text(action)


@functools.lru_cache(maxsize=1024)
def _action_of(text: str) -> Action:
    return action_from_text(text)


def _line(prev: str, obj: dict[str, Any]) -> tuple[str, bytes]:
    """(new chain value, the whole line): the sorted JSON body with ``hash`` appended last."""
    body = _dumps(obj)
    h = _chain(prev, body)
    return h, (body[:-1] + f',"hash":"{h}"}}\n').encode("ascii")


def state_digests(game: Game) -> tuple[str, str]:
    """(checksum, part digests) of the game's canonical state. The checksum equals ``game.checksum()``; it is built
    from the parts' encodings, so the parts cost no second encoding of the whole state."""
    form = game.canonical()
    keys = sorted(form)
    enc = [_dumps(form[k]) for k in keys]
    whole = "{" + ",".join([f'"{k}":{e}' for k, e in zip(keys, enc, strict=True)]) + "}"  # keys are plain names
    total = hashlib.blake2b(whole.encode(), digest_size=8).hexdigest()
    parts = "".join(hashlib.blake2b(e.encode(), digest_size=_PART_BYTES).hexdigest() for e in enc)
    return total, parts


def _part_names(game: Game) -> tuple[str, ...]:
    return tuple(sorted(game.canonical()))


def describe_action(action: Action) -> str:
    d = action_to_dict(action)
    args = " ".join(f"{k}={v}" for k, v in d.items() if k != "type")
    return f"{d['type']}{' ' + args if args else ''}"


# --- writing -------------------------------------------------------------------------------------------------


def crash_report_path(path: Path) -> Path:
    """Where the crash report of recording ``path`` goes: beside it, ``NAME.crash.txt``."""
    return path.with_suffix(".crash.txt")


@functools.cache
def installed_versions() -> dict[str, str]:
    """The versions a recording's header records, of this installation: ``game``, ``python``, ``numpy``, ``tcod``."""
    try:
        import tcod

        tcod_version = str(tcod.__version__)
    except ImportError:  # pragma: no cover - tcod is a dependency
        tcod_version = ""
    return {"game": __version__, "python": platform.python_version(), "numpy": np.__version__, "tcod": tcod_version}


def _os_write(fd: int, data: memoryview) -> int:
    """``os.write``: the one place a recording's bytes are written (tests replace it to simulate a full disk)."""
    return os.write(fd, data)


class Recorder:
    """Appends a game's lines to its recording: one whole line per ``os.write``, per action.

    A write that fails (a full disk, an I/O error) never raises: the part of the line that was written is cut off
    again (the file ends with its last whole line), the line is kept in memory, :attr:`error` says why in one line
    and :attr:`pending` counts the lines not yet written. Each later line (or :meth:`flush_pending`) first tries the
    lines kept; once they are written, ``error`` is None and ``pending`` 0 again.
    """

    def __init__(
        self,
        path: Path,
        fd: int,
        last_hash: str,
        next_turn: int,
        *,
        fsync: bool = False,
        header: Header | None = None,
        offset: int | None = None,
        batch: int = 1,
    ) -> None:
        self.path = path
        self.batch = max(1, batch)  # action lines gathered before one write (see create)
        self._batched: list[bytes] = []  # action lines gathered, not yet written
        self.format = header.format if header is not None else FORMAT_VERSION  # the format of the lines written
        self._text = self.format >= 3
        self._fd: int | None = fd
        self._hash = last_hash
        self.next_turn = next_turn
        self.fsync = fsync
        self.finished = False
        self.crashed = False
        self.header = header
        self.error: str | None = None  # why the last write failed (one line), None while everything is written
        self._pending: list[bytes] = []  # whole lines not written yet, in order (their hashes already chained)
        self._offset = os.fstat(fd).st_size if offset is None else offset  # the end of the last whole line
        self._torn = False  # a failed write left bytes past _offset that could not be cut off yet
        self._failure: OSError | None = None  # the last failed write's exception

    @property
    def pending(self) -> int:
        """How many lines (actions, or the end or crash line) are kept in memory, not yet written to the file."""
        return len(self._pending) + len(self._batched)

    # creation

    @classmethod
    def create(
        cls,
        path: Path,
        game: Game,
        content: Content,
        *,
        fsync: bool = False,
        overwrite: bool = False,
        format: int = FORMAT_VERSION,
        batch: int = 1,
    ) -> Recorder:
        """Start the recording of ``game`` (which must not have taken any action yet) at ``path``, in ``format``
        (one of :data:`WRITES`; the current one unless asked: format 2 is for tests and the golden files).

        ``batch``: the action lines (format 3) gathered in memory and written together, with one write. A game
        someone plays writes every action at once (1, the default): a killed process loses nothing. The bot's
        games (:func:`undercroft.bot.play_game`) gather a few dozen: the file still holds whole lines only, an
        exception in the engine, the end of the game or :meth:`close` writes what was gathered first, and only a
        process killed outright loses the last lines gathered.

        Raises :class:`SaveError` (an ``OSError``) when the directory, the file or its header cannot be written;
        then no file is left (not even an empty one)."""
        if game.state.turn != 0:
            raise ValueError("a recording starts before the first action")
        if format not in WRITES:
            raise ValueError(f"a recording is written in format {' or '.join(map(str, WRITES))}, not {format!r}")
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | (os.O_TRUNC if overwrite else os.O_EXCL)
            fd = os.open(path, flags | getattr(os, "O_BINARY", 0), 0o644)
        except OSError as exc:
            raise SaveError(path, exc) from exc
        start = game.digest() if format >= 3 else state_digests(game)[0]
        v = installed_versions()
        header = Header(
            format=format,
            game_version=v["game"],
            ruleset=game.ruleset_id,
            data_digest=content.digest,
            seed=game.state.seed,
            python=v["python"],
            numpy=v["numpy"],
            start=start,
            parts=PARTS if format >= 3 else _part_names(game),
            tcod=v["tcod"],
        )
        obj = {
            "recording": MAGIC,
            "format": header.format,
            "game_version": header.game_version,
            "ruleset": header.ruleset,
            "data_digest": header.data_digest,
            "seed": header.seed,
            "python": header.python,
            "numpy": header.numpy,
            "tcod": header.tcod,
            "start": header.start,
            "parts": list(header.parts),
        }
        rec = cls(path, fd, "", 1, fsync=fsync, header=header, offset=0, batch=batch)
        rec._write(obj)
        if rec._pending:
            cause = rec._failure or OSError(errno.EIO, rec.error or "the header could not be written")
            rec._pending.clear()
            rec.close()
            with contextlib.suppress(OSError):
                path.unlink()
            raise SaveError(path, cause)
        return rec

    @classmethod
    def append_to(cls, path: Path, *, fsync: bool = False, recording: Recording | None = None) -> Recorder:
        """Continue writing an existing, unfinished recording (a torn last line, if any, is cut off first)."""
        path = Path(path)
        rec = recording if recording is not None else load_recording(path, lenient_tail=True)
        if rec.finished:
            raise RecordingError(path, 0, "this game is over: it cannot be continued")
        if rec.crash is not None:
            raise RecordingError(path, rec.crash["line"], "this recording ends in a crash: it cannot be continued")
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_BINARY", 0))
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise RecordingError(path, 0, "not a regular file: it cannot be continued")
            if os.fstat(fd).st_size > rec.size:
                os.ftruncate(fd, rec.size)
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd, rec.last_hash, rec.turns + 1, fsync=fsync, header=rec.header, offset=rec.size)

    # writing

    def _write(self, obj: dict[str, Any]) -> None:
        """Chain and keep the line, then write every kept line (never raises on a failed write: see the class)."""
        if self._fd is None:
            raise ValueError(f"{self.path}: the recorder is closed")
        self._hash, data = _line(self._hash, obj)
        self._pending.extend(self._batched)  # (the action lines gathered before it go first)
        self._batched.clear()
        self._pending.append(data)
        self.flush_pending()

    def _write_text(self, body: str) -> None:
        """Chain and write an action line of format 3: ``BODY HASH``."""
        if self._fd is None:
            raise ValueError(f"{self.path}: the recorder is closed")
        h = hashlib.blake2b(f"{self._hash}\n{body}".encode(), digest_size=_TEXT_HASH_BYTES).hexdigest()
        self._hash = h
        lines = self._batched
        lines.append(f"{body} {h}\n".encode())
        if len(lines) < self.batch:
            return  # (gathered: see create's batch)
        self._batched = []
        if not self._pending and not self._torn and not self.fsync:  # the usual case: one write of the whole lines
            data = lines[0] if len(lines) == 1 else b"".join(lines)
            try:
                n = _os_write(self._fd, memoryview(data))
            except OSError:
                n = 0  # nothing went out: kept and retried below, as any failed write
            if n == len(data):
                self._offset += n
                self.error = None
                return
            if n > 0:  # part of it went out: cut it off, then each line goes the careful way
                self._torn = True
                try:
                    os.ftruncate(self._fd, self._offset)
                    self._torn = False
                except OSError:
                    pass  # flush_pending cuts it before anything else
        self._pending.extend(lines)
        self.flush_pending()

    def flush_pending(self) -> bool:
        """Write the lines kept in memory, oldest first. True when none is left (``error`` is then None); False when
        a write failed again (``error`` says why; the file still ends with its last whole line)."""
        fd = self._fd
        if fd is None:
            return not self._pending and not self._batched
        if self._batched:
            self._pending.extend(self._batched)
            self._batched.clear()
        try:
            if self._torn:  # a cut that failed before: the file must end with a whole line before anything follows
                os.ftruncate(fd, self._offset)
                self._torn = False
            while self._pending:
                data = self._pending[0]
                view = memoryview(data)
                try:
                    while view:
                        n = _os_write(fd, view)
                        if n <= 0:
                            raise OSError(errno.EIO, "the disk took nothing")
                        view = view[n:]
                except OSError:
                    if len(view) < len(data):  # part of the line went out: cut it off again
                        self._torn = True
                        os.ftruncate(fd, self._offset)
                        self._torn = False
                    raise
                self._offset += len(data)
                self._pending.pop(0)
                if self.fsync:
                    os.fsync(fd)
        except OSError as exc:
            self.error = _one_line_reason(exc)
            self._failure = exc
            return False
        self.error = None
        return True

    def record(self, action: Action, game: Game) -> None:
        """Write ``action``, which ``game.step`` has just ACCEPTED (a refused action is never recorded)."""
        if self.finished or self.crashed:
            raise ValueError(f"{self.path}: the recording is closed (game over or crashed)")
        turn = game.state.turn
        if turn != self.next_turn:
            raise ValueError(
                f"{self.path}: expected the action of turn {self.next_turn}, the game is at turn {turn} "
                "(was the action refused, or one left unrecorded?)"
            )
        if self._text:
            self._write_text(f"{turn} {_text_of(action)} {game.digest()}")
        else:
            total, parts = state_digests(game)
            self._write({"turn": turn, "action": action_to_dict(action), "checksum": total, "parts": parts})
        self.next_turn += 1

    def finish(self, game: Game) -> None:
        """The game is over (death or victory): write the end line. The recording cannot be continued after it."""
        if self.finished:
            return
        if not game.over:
            raise ValueError("finish() is for a game that is over")
        if self._text:
            self._write({"end": game.state.mode, "turn": game.state.turn, "digest": game.digest()})
        else:
            self._write({"end": game.state.mode, "turn": game.state.turn, "checksum": game.checksum()})
        self.finished = True

    def crash(self, game: Game, exc: BaseException, action: Action | None = None) -> Path:
        """Record a crash: the crashing ``action`` (if it came from ``game.step``) as the last line, and a crash
        report beside the recording. Returns the report's path."""
        turn = self.next_turn
        if action is not None and not self.finished and not self.crashed and self._fd is not None:
            message = str(exc)[:_MAX_MESSAGE]
            self._write(
                {
                    "turn": turn,
                    "action": action_to_dict(action),
                    "crash": {"type": type(exc).__name__, "message": message},
                }
            )
            self.crashed = True
        return write_crash_report(self.path, game, exc, turn, action, self.header)

    def close(self) -> None:
        """Close the file, after one last try at the lines kept in memory (``pending`` then says what was lost)."""
        if self._fd is not None:
            if self._pending or self._batched:
                self.flush_pending()
            with contextlib.suppress(OSError):
                os.close(self._fd)
            self._fd = None

    def __enter__(self) -> Recorder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()


def _one_line_reason(exc: OSError) -> str:
    """'No space left on device', 'Input/output error', ...: why a write failed, as one short line."""
    return printable(exc.strerror or str(exc) or type(exc).__name__)


def write_crash_report(
    path: Path, game: Game, exc: BaseException, turn: int, action: Action | None, header: Header | None = None
) -> Path:
    """Write ``NAME.crash.txt`` beside recording ``path``: what, where, how to reproduce, and the traceback."""
    report = crash_report_path(path)
    tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    lines = [
        "Undercroft crash report",
        f"recording: {path}",
        f"game version: {__version__}",
        f"ruleset: {game.ruleset_id}",
        f"seed: {game.state.seed}",
        f"turn: {turn}",
        f"action: {describe_action(action) if action is not None else '(none: not inside a game step)'}",
        f"data digest: {header.data_digest if header else game.content.digest}",
        f"python: {platform.python_version()} ({platform.platform()}), numpy: {np.__version__}",
        f"time: {datetime.datetime.now(datetime.UTC).isoformat(timespec='seconds')}",
        "",
        f"Reproduce it: undercroft replay {path}",
        "",
        tb,
    ]
    report.write_text("\n".join(lines), encoding="utf-8")
    return report


def play_step(game: Game, recorder: Recorder, action: Action) -> list[Event]:
    """``game.step(action)``, recorded when accepted, finished when the game ends. If the engine raises, the
    recording keeps the crashing action (marked as a crash) and a crash report is written beside it; then the
    exception goes on up."""
    try:
        events = game.step(action)
    except Exception as exc:
        try:
            recorder.crash(game, exc, action)
        except Exception as inner:  # never hide the engine's exception behind the recorder's
            exc.add_note(f"(writing the crash report failed too: {inner!r})")
        raise
    if not (len(events) == 1 and events[0].type == "refused"):
        recorder.record(action, game)
        if game.over:
            recorder.finish(game)
    return events


# --- reading -------------------------------------------------------------------------------------------------


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
        raise RecordingError(
            path,
            n,
            "tampered or corrupt: the line's hash does not match its content "
            "(edited, or a line before it was removed or moved)",
        )
    return h


def _want(path: Path, n: int, obj: dict[str, Any], key: str, kind: type, what: str) -> Any:
    v = obj.get(key)
    if not isinstance(v, kind) or (kind is int and isinstance(v, bool)):
        raise RecordingError(path, n, f"'{key}' must be {what}")
    return v


def _is_hex(s: object, length: int) -> bool:
    return isinstance(s, str) and len(s) == length and set(s) <= _HEX


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
    parts = _want(path, 1, obj, "parts", list, "a list of names")
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
            return _load(path, fh, lenient_tail)
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


def _load(path: Path, fh: Any, lenient_tail: bool) -> Recording:
    header: Header | None = None
    prev = ""
    actions: list[tuple[int, Action, str]] = []
    digests: list[str] = []
    crash: dict[str, Any] | None = None
    end: str | None = None
    closed_at = 0
    size = 0
    nparts = 0
    text_lines = False  # format 3: an action line is text, any other line after the header a JSON object
    match: Callable[[bytes], re.Match[bytes] | None] = _text_line_re(0).fullmatch
    digest_hex = 0
    for n, raw in _iter_lines(path, fh, lenient_tail):
        if text_lines and not raw.startswith(b"{"):
            if closed_at:
                raise RecordingError(
                    path, n, f"nothing may follow the {'crash' if crash else 'end'} line (line {closed_at})"
                )
            m = match(raw)
            if m is None:
                raise _bad_text_line(path, n, raw, digest_hex)
            body = raw[: m.end(3)].decode("ascii")
            h = m.group(4).decode("ascii")
            if hashlib.blake2b(f"{prev}\n{body}".encode(), digest_size=_TEXT_HASH_BYTES).hexdigest() != h:
                raise RecordingError(
                    path,
                    n,
                    "tampered or corrupt: the line's hash does not match its content "
                    "(edited, or a line before it was removed or moved)",
                )
            prev = h
            turn = int(m.group(1))
            expect = len(actions) + 1
            if turn != expect:
                raise RecordingError(path, n, f"turn {turn} out of order: expected {expect}")
            try:
                action = _action_of(m.group(2).decode("ascii"))
            except ActionError as exc:
                raise RecordingError(path, n, f"bad action: {exc}") from None
            dig = m.group(3).decode("ascii")
            actions.append((turn, action, dig))
            digests.append(dig)
            size += len(raw)
            continue
        obj = _parse(path, n, raw)
        if n == 1:
            if obj.get("recording") != MAGIC:
                raise RecordingError(path, 1, "not an Undercroft recording (the first line is not a recording header)")
            prev = _check_hash(path, n, obj, prev)
            header = _header(path, obj)
            nparts = len(header.parts)
            if header.format >= 3:
                text_lines = True
                digest_hex = PART_HEX * nparts
                match = _text_line_re(digest_hex).fullmatch
            size += len(raw)
            continue
        if closed_at:
            raise RecordingError(
                path, n, f"nothing may follow the {'crash' if crash else 'end'} line (line {closed_at})"
            )
        prev = _check_hash(path, n, obj, prev)
        expect = len(actions) + 1
        check = "digest" if text_lines else "checksum"
        if "end" in obj:
            if set(obj) != {"end", "turn", check}:
                raise RecordingError(path, n, f"an end line holds 'end', 'turn' and '{check}'")
            end = obj["end"]
            if end not in ("dead", "won"):
                raise RecordingError(path, n, "'end' must be 'dead' or 'won'")
            if type(obj["turn"]) is not int:
                raise RecordingError(path, n, f"'turn' must be a whole number, not {obj['turn']!r}")
            if obj["turn"] != expect - 1 or not actions or obj[check] != actions[-1][2]:
                raise RecordingError(path, n, "the end line does not match the last action")
            closed_at = n
        elif "crash" in obj:
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
            if obj["turn"] != expect:
                raise RecordingError(path, n, f"turn {obj['turn']!r} out of order: expected {expect}")
            crash = {
                "turn": expect,
                "action": _action(path, n, obj),
                "type": info["type"],
                "message": info["message"],
                "line": n,
            }
            closed_at = n
        elif text_lines:
            keys = ", ".join(sorted(set(obj))) or "nothing"
            raise RecordingError(
                path,
                n,
                f"not an end or crash line (it holds {keys}); in format "
                f"{header.format if header else FORMAT_VERSION} an action line is text",
            )
        else:
            if set(obj) != {"turn", "action", "checksum", "parts"}:
                keys = ", ".join(sorted(set(obj))) or "nothing"
                raise RecordingError(path, n, f"not an action line (it holds {keys})")
            turn = obj["turn"]
            if type(turn) is not int:  # not 1.0, not true: a recording's turn is written as a whole number
                raise RecordingError(path, n, f"'turn' must be a whole number, not {turn!r}")
            if turn != expect:
                raise RecordingError(path, n, f"turn {turn!r} out of order: expected {expect}")
            chk, parts = obj["checksum"], obj["parts"]
            if not _is_hex(chk, _CHECKSUM_HEX):
                raise RecordingError(path, n, "'checksum' must be a 16-digit hex checksum")
            if not _is_hex(parts, nparts * 2 * _PART_BYTES):
                raise RecordingError(path, n, f"'parts' must be {nparts} hex digests")
            actions.append((turn, _action(path, n, obj), chk))
            digests.append(parts)
        size += len(raw)
    if header is None:
        raise RecordingError(path, 1, "empty file: not a recording")
    if end is not None:
        header = Header(
            header.format,
            header.game_version,
            header.ruleset,
            header.data_digest,
            header.seed,
            header.python,
            header.numpy,
            True,
            header.start,
            header.parts,
            header.tcod,
        )
    return Recording(path, header, actions, end is not None, crash, end, digests, prev, size)


# --- checking and replaying ----------------------------------------------------------------------------------


def compatibility(header: Header, data_digest: str) -> list[str]:
    """One line for a human per difference between the recording of ``header`` and this installation, [] when
    they all match: the rules data (``data_digest``: ``Content.digest`` of the data in use), then the game, Python,
    numpy and tcod versions. For example::

        rules data: recorded with 84a4..., this data is 833f...
        game version 0.3.0 → 0.4.0
        Python 3.11.7 → 3.12.1

    A version the header does not record (tcod, before format 2) is not a difference. Only other rules data is
    known to change a replay; the versions are listed so that a desync can be told apart from a bug. Every line is
    :func:`printable`."""
    v = installed_versions()
    out = []
    if header.data_digest != data_digest:
        out.append(f"rules data: recorded with {header.data_digest}, this data is {data_digest}")
    for label, recorded, now in (
        ("game version", header.game_version, v["game"]),
        ("Python", header.python, v["python"]),
        ("numpy", header.numpy, v["numpy"]),
        ("tcod", header.tcod, v["tcod"]),
    ):
        if recorded and recorded != now:
            out.append(f"{label} {recorded} → {now}")
    return [printable(line) for line in out]


def _which_parts(game: Game, rec: Recording, index: int) -> list[str]:
    """The parts of the state that differ from the recording after action number ``index`` (formats 1-2)."""
    names = _part_names(game)
    if names != rec.header.parts:
        return [f"the state's layout (recorded parts {', '.join(rec.header.parts)}; now {', '.join(names)})"]
    _, mine = state_digests(game)
    theirs = rec.part_digests[index] if index < len(rec.part_digests) else ""
    w = 2 * _PART_BYTES
    out = [name for i, name in enumerate(names) if mine[i * w : (i + 1) * w] != theirs[i * w : (i + 1) * w]]
    return out or ["the checksum only (the parts agree: a digest collision, or the 'checksum' field was rewritten)"]


def replay(
    content: Content,
    rec: Recording,
    *,
    verify: bool = False,
    until: int | None = None,
    on_events: Callable[[int, Action, list[Event]], None] | None = None,
) -> Game:
    """Rebuild the game from ``(content, ruleset, seed)`` and re-apply the recorded actions (up to turn ``until``).

    A recorded action that the engine refuses raises :class:`Desync` in any mode; with ``verify`` the state after
    every action is compared with the recording's (format 3: ``Game.digest()``; formats 1-2: ``Game.checksum()``)
    and the first mismatch raises :class:`Desync`, naming the parts that differ. A recording that ends in a crash
    replays the crashing action last, so the same exception is raised again at the same turn (with a note naming
    the turn).
    """
    h = rec.header
    game = Game(content, h.ruleset, h.seed)
    digests = h.format >= 3
    state_check = game.digest if digests else game.checksum
    if verify and digests and h.parts != PARTS:
        raise Desync(
            0, None, [f"the state's layout (recorded parts {', '.join(h.parts)}; now {', '.join(PARTS)})"], line=1
        )
    if verify and h.start and state_check() != h.start:
        raise Desync(0, None, ["the starting state (level generation or setup)"], line=1)
    step = game.step
    for i, (turn, action, chk) in enumerate(rec.actions):
        if until is not None and turn > until:
            return game
        try:
            events = step(action)
        except Exception as exc:
            exc.add_note(f"replaying {rec.path}: at turn {turn} (line {i + 2}), action {describe_action(action)}")
            raise
        if len(events) == 1 and events[0].type == "refused":
            raise Desync(turn, action, [f"refused: {events[0].get('reason', '')}"], line=i + 2)
        if on_events is not None:
            on_events(turn, action, events)
        if verify:
            now = state_check()
            if now != chk:
                raise Desync(turn, action, differing(now, chk) if digests else _which_parts(game, rec, i), line=i + 2)
    crash = rec.crash
    if crash is not None and (until is None or crash["turn"] <= until):
        try:
            events = step(crash["action"])
        except Exception as exc:
            exc.add_note(
                f"replaying {rec.path}: the recorded crash reproduced at turn {crash['turn']} "
                f"(line {crash['line']}), action {describe_action(crash['action'])}"
            )
            raise
        if on_events is not None and not (len(events) == 1 and events[0].type == "refused"):
            on_events(crash["turn"], crash["action"], events)
    if verify and rec.finished and until is None and game.state.mode != rec.end:
        last = rec.actions[-1]
        raise Desync(
            last[0],
            last[1],
            [f"end: recorded '{rec.end}', replayed mode '{game.state.mode}'"],
            line=len(rec.actions) + 2,
        )
    return game


# --- summaries -----------------------------------------------------------------------------------------------


def state_summary(game: Game) -> str:
    """A few lines for a human: turn, level, segment, mode, party HP, gold, items, monsters present."""
    st = game.state
    spec = game.rs.levels[st.depth]
    seg = st.level.map.segments[st.segment] if 0 <= st.segment < len(st.level.map.segments) else None
    where = f"segment {st.segment}" + (f" ({seg.kind})" if seg else "")
    rounds = f"{st.rounds} round" + ("" if st.rounds == 1 else "s")
    lines = [
        f"Turn {st.turn} ({rounds}). Level {st.depth + 1} of {len(game.rs.levels)}: {spec.name}. "
        f"{where.capitalize()}, at {st.pos[0]},{st.pos[1]}. Mode: {st.mode}.",
        "Party: "
        + ", ".join(f"{m.name} HP {m.hp}/{m.max_hp}" for m in st.party)
        + (" (exhausted)" if st.exhausted else "")
        + ".",
        f"Gold: {st.gold}. Items: "
        + (", ".join(f"{game.content.items[i].name} x{n}" for i, n in sorted(st.items.items())) or "none")
        + ".",
    ]
    engaged = None
    for holder in (st.combat, st.pursuit, st.encounter):
        if holder is not None:
            engaged = holder.group
            break
    groups = [g for g in st.level.groups if not g.defeated and (g.segment == st.segment or g.id == engaged)]
    if groups:
        descr = []
        for g in groups:
            mon = game.monster_of(g)
            alive = [h for h in g.hp if h > 0]
            flags = [
                f for f, on in (("hidden", g.hidden), ("peaceful", g.peaceful), ("engaged", g.id == engaged)) if on
            ]
            descr.append(
                f"{len(alive)} x {mon.name} (HP {', '.join(map(str, alive))}"
                + (f"; {', '.join(flags)}" if flags else "")
                + ")"
            )
        lines.append("Monsters present: " + "; ".join(descr) + ".")
    else:
        lines.append("Monsters present: none.")
    if st.death:
        lines.append(f"Dead: killed by {the(str(st.death['cause']))} on turn {st.death['turn']}.")
    elif st.mode == Mode.WON:
        lines.append("Won.")
    return "\n".join(lines)
