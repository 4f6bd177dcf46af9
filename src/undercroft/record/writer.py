"""Writing a recording: :class:`Recorder` (one whole line per write, a failed write kept and retried),
:func:`play_step` (step, record, finish) and the crash report beside a recording whose game raised."""

from __future__ import annotations

import contextlib
import datetime
import errno
import hashlib
import os
import platform
import stat
import traceback
from pathlib import Path
from typing import Any

import numpy as np

from undercroft import __version__
from undercroft.content import Content
from undercroft.content.loader import open_checked
from undercroft.printable import printable
from undercroft.record.format import (
    _MAX_MESSAGE,
    _TEXT_HASH_BYTES,
    FORMAT_VERSION,
    MAGIC,
    MAX_FILE,
    RULES_REVISION,
    Header,
    Recording,
    RecordingError,
    SaveError,
    _line,
    _text_of,
    describe_action,
    installed_versions,
    is_daily_date,
)
from undercroft.record.reader import load_recording
from undercroft.rules.actions import Action, action_to_dict
from undercroft.rules.digest import PARTS
from undercroft.rules.events import Event
from undercroft.rules.game import Game
from undercroft.rules.scoring import score_card


def now_utc() -> str:
    """This moment in UTC as a recording's header keeps it: ``YYYY-MM-DDTHH:MM:SSZ``."""
    return datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def crash_report_path(path: Path) -> Path:
    """Where the crash report of recording ``path`` goes: beside it, ``NAME.crash.txt``."""
    return path.with_suffix(".crash.txt")


def write_side_file(path: Path, data: bytes) -> None:
    """Write ``data`` as the whole of file ``path`` (a save's side file: its sidecar, crash report, morgue file),
    never through what is there: a temporary file beside it, made anew (never a link followed), then renamed over
    ``path``. A symbolic link or a FIFO at ``path`` is replaced, never written through or waited on; a directory
    there is an ``OSError``. Nothing is left behind when it fails."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(tmp, flags | getattr(os, "O_BINARY", 0), 0o644)
    try:
        try:
            view = memoryview(data)
            while view:
                n = _os_write(fd, view)
                if n <= 0:
                    raise OSError(errno.EIO, "the disk took nothing")
                view = view[n:]
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


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
        batch: int = 1,
        daily: str = "",
        started: str = "",
    ) -> Recorder:
        """Start the recording of ``game`` (which must not have taken any action yet) at ``path``, in the current
        format (:data:`FORMAT_VERSION`: the only one written; formats 1 and 2 are read).

        ``daily``: the UTC date of a daily game (``play --daily``), kept in the header. ``started``: when a game
        someone plays began (UTC, ``YYYY-MM-DDTHH:MM:SSZ``: :func:`now_utc`), kept in the header for the listing's
        date; a bot's game has none, so that a batch of them is the same bytes every time.

        ``batch``: the action lines (format 3) gathered in memory and written together, with one write. A game
        someone plays writes every action at once (1, the default): a killed process loses nothing. The bot's
        games (:func:`~undercroft.tools.autoplay.play_game`) gather a few dozen: the file still holds whole lines only,
        an exception in the engine, the end of the game or :meth:`close` writes what was gathered first, and only a
        process killed outright loses the last lines gathered.

        Raises :class:`SaveError` (an ``OSError``) when the directory, the file or its header cannot be written;
        then no file is left (not even an empty one)."""
        if game.state.turn != 0:
            raise ValueError("a recording starts before the first action")
        if daily and not is_daily_date(daily):
            raise ValueError(f"a daily game's date is YYYY-MM-DD: not {daily!r}")
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | (os.O_TRUNC if overwrite else os.O_EXCL)
            fd = os.open(path, flags | getattr(os, "O_BINARY", 0), 0o644)
        except OSError as exc:
            raise SaveError(path, exc) from exc
        v = installed_versions()
        header = Header(
            format=FORMAT_VERSION,
            game_version=v["game"],
            ruleset=game.ruleset_id,
            data_digest=content.digest,
            seed=game.state.seed,
            python=v["python"],
            numpy=v["numpy"],
            start=game.digest(),
            parts=PARTS,
            tcod=v["tcod"],
            daily=daily,
            rules_revision=RULES_REVISION,
            started=started,
        )
        obj: dict[str, Any] = {
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
            "rules_revision": header.rules_revision,
        }
        if daily:
            obj["daily"] = daily
        if started:
            obj["started"] = started
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
    def append_to(
        cls, path: Path, *, fsync: bool = False, recording: Recording | None = None, content: Content | None = None
    ) -> Recorder:
        """Continue writing an existing, unfinished recording (a torn last line, if any, is cut off first).

        A recording of format 1 or 2 is first written again in the current format (:meth:`upgrade`, which needs
        ``content``), so a file never mixes formats and only the current one is ever written."""
        path = Path(path)
        rec = recording if recording is not None else load_recording(path, lenient_tail=True)
        if rec.finished:
            raise RecordingError(path, 0, "this game is over: it cannot be continued")
        if rec.crash is not None:
            raise RecordingError(path, rec.crash["line"], "this recording ends in a crash: it cannot be continued")
        if rec.header.format < FORMAT_VERSION:
            if content is None:
                raise ValueError(f"{path}: a recording of format {rec.header.format} is continued with its content")
            rec = cls.upgrade(path, rec, content)
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

    @classmethod
    def upgrade(cls, path: Path, rec: Recording, content: Content) -> Recording:
        """Write the unfinished recording ``rec`` of ``path`` (format 1 or 2) again in the current format: its
        actions replayed into a new file beside it, which then replaces it whole (the header names this
        installation's versions and data). Raises :class:`RecordingError` when an action is refused on the way (the
        recording does not replay here) and :class:`SaveError` when the new file cannot be written; then ``path``
        is left as it was."""
        game = Game(content, rec.header.ruleset, rec.header.seed)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.upgrade")
        try:
            with cls.create(tmp, game, content, overwrite=True) as out:
                for turn, action, _ in rec.actions:
                    play_step(game, out, action)
                    if out.next_turn != turn + 1:
                        raise RecordingError(path, turn + 1, "this action is refused here: it cannot be continued")
                if not out.flush_pending():
                    raise SaveError(path, out._failure or OSError(errno.EIO, out.error or "not written"))
            os.replace(tmp, path)
        finally:
            with contextlib.suppress(OSError):
                tmp.unlink()
        return load_recording(path)

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

    def save_copy(self, dest: Path) -> None:
        """Write the whole recording, the lines kept in memory included, as a new file ``dest`` (another place,
        when this one's disk is full): what the file holds up to its last whole line, then every line kept. The
        copy is whole or not made (:func:`write_side_file`); an ``OSError`` says why not."""
        fd = open_checked(self.path, MAX_FILE, follow=True)
        try:
            head = os.pread(fd, self._offset, 0)
        finally:
            os.close(fd)
        if len(head) != self._offset:
            raise OSError(errno.EIO, f"{self.path.name} is shorter than what was written to it")
        write_side_file(dest, head + b"".join(self._pending) + b"".join(self._batched))

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
        self._write_text(f"{turn} {_text_of(action)} {game.digest()}")
        self.next_turn += 1

    def finish(self, game: Game) -> None:
        """The game is over (death or victory): write the end line, with the game's score. The recording cannot be
        continued after it."""
        if self.finished:
            return
        if not game.over:
            raise ValueError("finish() is for a game that is over")
        score = score_card(game.content, game.state).total
        self._write({"end": game.state.mode, "turn": game.state.turn, "digest": game.digest(), "score": score})
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
    write_side_file(report, "\n".join(lines).encode("utf-8"))
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
