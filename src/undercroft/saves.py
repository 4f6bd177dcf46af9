"""Every save and past game: where a new game's recording goes, the unfinished recordings to continue or abandon,
and the index of finished ones.

A saved game is its recording (``saves/*.jsonl``, see docs/REPLAY.md). Beside it this module keeps a small
sidecar, ``NAME.meta.json``: the seed as the player typed it (the header holds only the number it hashes to) and a
cache of the level and HP reached (so the title need not replay every save each time it is shown). Abandoning a
game moves its files into ``saves/abandoned/``: nothing is ever deleted. A corrupt or foreign file is skipped
with a one-line note.

**One save, one game.** While a game is open its recording is locked: ``NAME.lock`` beside it, held with
``flock(LOCK_EX | LOCK_NB)`` and holding one line of JSON, ``{"pid": ..., "host": ..., "since": ...}``, for the
messages of the other windows ("open in another window (pid 4242)"). The operating system releases the lock when
the process ends, however it ends, so a lock left by a dead process is simply taken over (its stale file is
rewritten). The lock file is removed when the game is closed. On Windows there is no lock (see :class:`SaveLock`).

**Side files are never trusted.** The sidecar and the lock are opened refusing a symbolic link and anything but a
regular file, never blocking (a FIFO there is not waited on), and the sidecar is written to a temporary file renamed
over it: a link or a FIFO in their place is replaced, never written through. A side file that is wrong is ignored
or rebuilt; the save itself is never touched. A lock that is a hard link (another name of some file) is refused.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import re
import socket
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from undercroft import record
from undercroft.content import Content
from undercroft.content.loader import FileRefused, open_checked, read_data_file

ABANDONED = "abandoned"
META = ".meta.json"
LOCK = ".lock"
SUFFIX = ".jsonl"  # a saved game's recording


# --- where the saves are -------------------------------------------------------------------------------------


class SavesFolderError(OSError):
    """The saves folder cannot be made (a file in its place, a parent that is a file, no permission): one line."""


def saves_dir() -> Path:
    """The directory of saved games (recordings) in the user's data directory; created on demand. Raises
    :class:`SavesFolderError` when it cannot be."""
    from undercroft.paths import user_data_dir

    d = user_data_dir() / "saves"
    try:
        d.mkdir(parents=True, exist_ok=True)
        if not d.is_dir():
            raise NotADirectoryError(20, "Not a directory")
    except OSError as exc:
        reason = "a file is in its place" if isinstance(exc, FileExistsError) else exc.strerror or str(exc)
        raise SavesFolderError(f"cannot make the saves folder {record.printable(str(d))}: {reason}") from None
    return d


def new_save_path(seed: int, ruleset: str) -> Path:
    """A fresh file name for a new game's recording in :func:`saves_dir` (``RULESET-SEED-TIME.jsonl``)."""
    d = saves_dir()
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in ruleset)[:40]
    base = f"{safe}-{seed}-{stamp}"
    path = d / f"{base}{SUFFIX}"
    k = 2
    while path.exists():
        path = d / f"{base}-{k}{SUFFIX}"
        k += 1
    return path


def _status(path: Path) -> str | None:
    """'open', 'finished', 'crashed', or None (not a recording), from the first and last lines only."""
    try:
        with record.open_regular(path) as fh:
            first = fh.readline(record.MAX_LINE + 1)
            if b'"recording":"undercroft"' not in first:
                return None
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - record.MAX_LINE))
            tail = fh.read().rstrip(b"\n").rsplit(b"\n", 1)[-1]
    except (OSError, record.RecordingError):
        return None
    if not tail.startswith(b"{"):  # an action line (format 3), or not a line of ours: the game goes on
        return "open"
    try:
        last = json.loads(tail)
    except (ValueError, RecursionError):
        return "open"
    if isinstance(last, dict) and "end" in last:
        return "finished"
    if isinstance(last, dict) and "crash" in last:
        return "crashed"
    return "open"


def latest_unfinished(directory: Path | None = None) -> Path | None:
    """The most recently written recording in ``directory`` (default: :func:`saves_dir`) that can be continued:
    not finished and not ended by a crash. None when there is none."""
    d = saves_dir() if directory is None else Path(directory)
    best: tuple[float, str, Path] | None = None
    try:
        candidates = sorted(d.glob(f"*{SUFFIX}"))
    except OSError:
        return None
    for p in candidates:
        if _status(p) != "open":
            continue
        try:
            key = (p.stat().st_mtime, p.name, p)
        except OSError:
            continue
        if best is None or key[:2] > best[:2]:
            best = key
    return best[2] if best else None


@dataclass
class GameInfo:
    path: Path
    ruleset: str
    seed: int
    seed_text: str  # the seed as typed (a word seed stays a word); the number when nothing was typed
    result: str  # "playing", "dead", "won", "crashed" or "abandoned"
    turns: int
    date: str  # "YYYY-MM-DD HH:MM", local time of the last write
    level: int | None = None  # 1-based
    hp: str = ""  # the whole party's HP, "40/42" (unfinished games)
    cause: str = ""
    mtime: float = field(default=0.0, repr=False)
    header: record.Header | None = field(default=None, repr=False, compare=False)  # for the compatibility check
    open_pid: int | None = None  # open in another process (unfinished games): its pid, 0 when not known
    score: int | None = None  # a finished game's score, from its end line (None: not over, or before scores)
    daily: str = ""  # a daily game's UTC date (its header's "daily"), "" for any other

    def as_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["path"] = str(self.path)
        d.pop("mtime")
        d.pop("header")
        return d


def meta_path(path: Path) -> Path:
    return path.with_name(path.stem + META)


# --- one save, one game: the lock --------------------------------------------------------------------------------


def lock_path(path: Path) -> Path:
    """The lock file of recording ``path``: ``NAME.lock`` beside it."""
    return path.with_name(path.stem + LOCK)


class SaveLocked(Exception):
    """The game is open in another process (another window or terminal)."""

    def __init__(self, path: Path, pid: int) -> None:
        self.path = path
        self.pid = pid  # 0: not known (the other process has not written it yet)
        super().__init__(f"{path.name} is {open_elsewhere(pid)}")


def open_elsewhere(pid: int) -> str:
    return f"open in another window (pid {pid})" if pid else "open in another window"


def _wrong_side_file(path: Path, exc: OSError) -> bool:
    """Whether ``exc``, raised opening side file ``path``, says that something else is in its place (a symbolic
    link, a FIFO, a device, a file too large): then it is replaced, never followed or read."""
    if isinstance(exc, FileRefused):
        return True
    return os.path.islink(path) or isinstance(exc, IsADirectoryError)


def _lock_pid(path: Path) -> int:
    """The pid written in lock file ``path`` (0 when unreadable)."""
    try:
        obj = json.loads(read_data_file(path, 4096, follow=False) or b"{}")
    except (OSError, ValueError, RecursionError):
        return 0
    pid = obj.get("pid") if isinstance(obj, dict) else None
    return pid if isinstance(pid, int) and not isinstance(pid, bool) and 0 < pid < 1 << 32 else 0


_RETRIES = 3  # a title in another window probing the lock holds it for a moment: try again before giving up
_RETRY_S = 0.02


class SaveLock:
    """The lock on one recording while its game is open (see the module's docstring). :meth:`acquire` takes it or
    raises :class:`SaveLocked`; :meth:`release` (also on garbage collection) lets it go and removes the file."""

    def __init__(self, path: Path, fd: int | None) -> None:
        self.path = path  # the recording
        self._fd = fd

    @classmethod
    def acquire(cls, path: Path) -> SaveLock:
        """Lock recording ``path`` for this process. Raises :class:`SaveLocked` when another process has it, and
        OSError when the lock file cannot be made (a read-only folder: then the game could not be saved either)."""
        path = Path(path)
        if sys.platform == "win32":  # no flock: msvcrt.locking is advisory per byte range and not released reliably
            return cls(path, None)  # when a process dies, so Windows goes without (one window per save is on you)
        import errno
        import fcntl

        lp = lock_path(path)
        for attempt in range(_RETRIES * 4):
            try:
                fd = open_checked(lp, MAX_META, follow=False, mode=os.O_RDWR | os.O_CREAT)
            except (FileRefused, OSError) as exc:
                if not _wrong_side_file(lp, exc):
                    raise
                if os.path.isdir(lp) and not os.path.islink(lp):
                    os.rmdir(lp)  # an empty folder in the lock's place (one with files in it is an OSError)
                else:
                    os.unlink(lp)  # a link, a FIFO or a bloated file in the lock's place: made anew (never followed)
                continue
            if os.fstat(fd).st_nlink > 1:  # another name of a user's file: never truncated nor written
                os.close(fd)
                raise OSError(f"{lp.name} is a hard link to another file: left untouched; remove it to open this game")
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                os.close(fd)
                if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise
                if attempt + 1 >= _RETRIES:
                    raise SaveLocked(path, _lock_pid(lp)) from None
                time.sleep(_RETRY_S)
                continue
            try:  # the file may have been removed (and made anew) by its last holder between open and flock
                mine, now = os.fstat(fd), os.stat(lp)
                same = (mine.st_dev, mine.st_ino) == (now.st_dev, now.st_ino)
            except OSError:
                same = False
            if not same:
                os.close(fd)
                continue
            since = datetime.datetime.now().isoformat(timespec="seconds")
            data = json.dumps({"pid": os.getpid(), "host": socket.gethostname()[:64], "since": since}) + "\n"
            with contextlib.suppress(OSError):  # the pid is only for messages
                os.ftruncate(fd, 0)
                os.pwrite(fd, data.encode(), 0)
            return cls(path, fd)
        raise SaveLocked(path, _lock_pid(lp))

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):
            os.unlink(lock_path(self.path))  # while still held: no other process is between its open and flock
        with contextlib.suppress(OSError):
            os.close(fd)  # closing releases the flock

    def __del__(self) -> None:
        self.release()


def holder(path: Path) -> int | None:
    """Who has recording ``path`` open: None when nobody (or only this process, through a lock it holds), else the
    pid of the process that does (0: not known yet). Never waits."""
    if sys.platform == "win32":
        return None
    import fcntl

    lp = lock_path(path)
    try:
        fd = open_checked(lp, MAX_META, follow=False)
    except OSError:
        return None  # no lock file (or a link, a FIFO in its place: not a lock of ours): nobody has it open
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            pid = _lock_pid(lp)
            return None if pid == os.getpid() else pid
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


MAX_META = 64 * 1024  # a sidecar holds a label or two: larger, a FIFO or a device is not read (a title never hangs)


def _read_meta(path: Path) -> dict[str, Any]:
    try:
        obj = json.loads(read_data_file(meta_path(path), limit=MAX_META, follow=False).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    return obj if isinstance(obj, dict) else {}


def _write_meta(path: Path, **fields: Any) -> None:
    meta = _read_meta(path)
    meta.update(fields)
    with contextlib.suppress(OSError):  # only a cache and a label: the game itself is the recording
        record.write_side_file(meta_path(path), (json.dumps(meta, sort_keys=True) + "\n").encode("utf-8"))


def remember_seed(path: Path, text: str) -> None:
    """Keep the seed as typed beside the recording ``path``."""
    _write_meta(path, seed_text=text.strip()[:40])


def seed_label(path: Path, seed: int, daily: str = "") -> str:
    """The seed as typed (kept beside the recording), else a daily game's word, else the number."""
    text = _read_meta(path).get("seed_text")
    if isinstance(text, str) and text:
        return text
    return daily_word(daily) if daily else str(seed)


DAILY_PREFIX = "daily-"


def daily_word(date: str) -> str:
    """The seed of the day ``date`` (``YYYY-MM-DD``, UTC), the same for everyone: ``daily-2026-12-02``. Each
    ruleset plays it as its own game (a game is its ruleset and its seed)."""
    return f"{DAILY_PREFIX}{date}"


def today_utc() -> str:
    """Today's date in UTC, ``YYYY-MM-DD``: the day of ``play --daily``."""
    return datetime.datetime.now(datetime.UTC).date().isoformat()


def _date(mtime: float) -> str:
    return datetime.datetime.fromtimestamp(mtime).strftime("%Y-%m-%d %H:%M")


def _recordings(directory: Path) -> list[Path]:
    try:
        return sorted(p for p in directory.glob(f"*{SUFFIX}") if p.is_file())
    except OSError:
        return []


def _info(path: Path, notes: list[str], *, abandoned: bool = False) -> GameInfo | None:
    try:
        rec = record.load_recording(path, lenient_tail=True)
        mtime = path.stat().st_mtime
    except record.RecordingError as exc:
        notes.append(f"skipped {path.name}: {exc.message}")
        return None
    except OSError as exc:
        notes.append(f"skipped {path.name}: {exc.strerror or exc}")
        return None
    h = rec.header
    result = "abandoned" if abandoned else rec.end or ("crashed" if rec.crash is not None else "playing")
    return GameInfo(
        path,
        h.ruleset,
        h.seed,
        seed_label(path, h.seed, h.daily),
        result,
        rec.turns,
        _date(mtime),
        mtime=mtime,
        header=h,
        score=rec.score,
        daily=h.daily,
    )


def _fill_progress(info: GameInfo, content: Content | None) -> None:
    """Level and HP of an unfinished game: from the cache, or by replaying it (then cached). A game whose last
    action ended it (its end line never written: a full disk, a kill) is over: ``result`` says how."""
    meta = _read_meta(info.path)
    try:
        size = info.path.stat().st_size
    except OSError:
        return
    cached = meta.get("progress")
    if isinstance(cached, dict) and cached.get("size") == size and cached.get("v") == 3:
        level, hp, over = cached.get("level"), cached.get("hp"), cached.get("over")
        info.level = level if isinstance(level, int) else None
        info.hp = hp if isinstance(hp, str) else ""
        if over in ("dead", "won") and info.result == "playing":
            info.result = over
        return
    if content is None or info.ruleset not in content.rulesets:
        return
    try:
        game = record.replay(content, record.load_recording(info.path, lenient_tail=True))
    except Exception:  # a save that no longer replays is listed anyway; continuing will say why
        return
    st = game.state
    info.level = st.depth + 1
    alive = [m for m in st.party if m.hp > 0]
    info.hp = f"{sum(m.hp for m in st.party)}/{sum(m.max_hp for m in st.party)}" + (
        f" ({len(alive)} of {len(st.party)} up)" if len(alive) < len(st.party) else ""
    )
    over = str(st.mode) if game.over else ""
    if over and info.result == "playing":
        info.result = over
    _write_meta(info.path, progress={"v": 3, "size": size, "level": info.level, "hp": info.hp, "over": over})


def unfinished(
    directory: Path | None = None, content: Content | None = None, notes: list[str] | None = None
) -> list[GameInfo]:
    """The games that can be continued, newest first."""
    d = saves_dir() if directory is None else Path(directory)
    notes = notes if notes is not None else []
    out = []
    for p in _recordings(d):
        if _status(p) != "open":
            if _status(p) is None:
                notes.append(f"skipped {p.name}: not an Undercroft recording")
            continue
        info = _info(p, notes)
        if info is None or info.result != "playing":
            continue
        info.open_pid = holder(p)
        _fill_progress(info, content)
        if info.result == "playing":  # (not a game that is over, its end line missing: see past_games)
            out.append(info)
    out.sort(key=lambda i: (i.mtime, i.path.name), reverse=True)
    return out


def abandon(path: Path) -> Path:
    """Move an unfinished game (and its sidecar files) into ``saves/abandoned/``; returns its new path. Raises
    :class:`SaveLocked` when the game is open in another process."""
    lock = SaveLock.acquire(path)
    try:
        return _move_aside(path)
    finally:
        lock.release()


def _move_aside(path: Path) -> Path:
    dest_dir = path.parent / ABANDONED
    dest_dir.mkdir(parents=True, exist_ok=True)
    dest = dest_dir / path.name
    k = 2
    while dest.exists():
        dest = dest_dir / f"{path.stem}-{k}{path.suffix}"
        k += 1
    for extra in (meta_path(path), record.crash_report_path(path)):
        if extra.exists():
            os.replace(extra, dest_dir / (dest.stem + extra.name[len(path.stem) :]))
    os.replace(path, dest)
    return dest


_KILLED = re.compile(r"^Killed by (.+) on turn \d+\.$")
_DEPTH = re.compile(r"^Depth: level (\d+) ")


def _morgue_facts(morgue: Path) -> tuple[int | None, str]:
    level, cause = None, ""
    try:
        fd = open_checked(morgue, 1 << 30, follow=False)
        try:
            head = os.read(fd, 8192).decode("utf-8", errors="replace")
        finally:
            os.close(fd)
    except OSError:
        return level, cause
    for line in head.splitlines()[:12]:
        line = line.strip()
        if m := _KILLED.match(line):
            cause = m.group(1)
        elif m := _DEPTH.match(line):
            level = int(m.group(1))
        elif line.startswith(("You have won", "The last of", "You went out")) and not cause:
            cause = "won" if line.startswith("You have won") else cause
    return level, cause


def past_games(
    directory: Path | None = None,
    morgue_dir: Path | None = None,
    content: Content | None = None,
    notes: list[str] | None = None,
    sort: str = "date",
) -> list[GameInfo]:
    """Every game that is over (dead, won, crashed) or abandoned, with level and cause from its morgue file.

    ``sort``: ``date`` (newest first) or ``depth`` (deepest first, then most turns: a high-score table)."""
    from undercroft.paths import user_data_dir

    d = saves_dir() if directory is None else Path(directory)
    morgues = user_data_dir() / "morgue" if morgue_dir is None else Path(morgue_dir)
    notes = notes if notes is not None else []
    out: list[GameInfo] = []
    for abandoned, folder in ((False, d), (True, d / ABANDONED)):
        for p in _recordings(folder):
            status = _status(p)
            if status is None:
                notes.append(f"skipped {p.name}: not an Undercroft recording")
                continue
            info = _info(p, notes, abandoned=abandoned)
            if info is None:
                continue
            if info.result == "playing":
                _fill_progress(info, content)  # over, its end line missing or torn: listed here, not under Continue
                if info.result == "playing":
                    continue
            level, cause = _morgue_facts(morgues / f"morgue-{p.stem}.txt")
            info.level, info.cause = level if level is not None else info.level, cause
            if info.result == "crashed":
                info.cause = "crash (see the .crash.txt report)"
            elif abandoned:
                _fill_progress(info, content)
            out.append(info)
    if sort == "depth":
        out.sort(key=lambda i: (i.result == "won", i.level or 0, i.turns, i.mtime), reverse=True)
    else:
        out.sort(key=lambda i: (i.mtime, i.path.name), reverse=True)
    return out


def high_scores(games: list[GameInfo], content: Content | None = None) -> dict[str, list[GameInfo]]:
    """Per ruleset (the data's order, then any other by name), its finished games with a score, best first (then
    the earlier game first: a score matched later does not push one down)."""
    order = list(content.rulesets) if content is not None else []
    by: dict[str, list[GameInfo]] = {}
    for g in games:
        if g.score is not None and g.result in ("dead", "won"):
            by.setdefault(g.ruleset, []).append(g)
    for lst in by.values():
        lst.sort(key=lambda g: (-(g.score or 0), g.mtime, g.path.name))
    return dict(
        sorted(by.items(), key=lambda kv: (kv[0] not in order, order.index(kv[0]) if kv[0] in order else 0, kv[0]))
    )


SCORE_COLUMNS = ("rank", "score", "depth", "won", "date", "seed", "daily")


def score_rows(games: list[GameInfo]) -> list[tuple[str, ...]]:
    """The rows of one ruleset's high-score table (``games`` as :func:`high_scores` orders them)."""
    return [
        (
            str(i),
            str(g.score),
            str(g.level) if g.level is not None else "?",
            "won" if g.result == "won" else "",
            g.date,
            g.seed_text,
            "daily" if g.daily else "",
        )
        for i, g in enumerate(games, 1)
    ]


def format_scores(games: list[GameInfo], *, max_width: int = 0) -> list[str]:
    """One ruleset's high-score table as aligned text lines (a header line first)."""
    return _aligned([tuple(c.capitalize() for c in SCORE_COLUMNS), *score_rows(games)], max_width)


def _aligned(rows: list[tuple[str, ...]], max_width: int) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    lines = []
    for r in rows:
        line = "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=False)) + "  " + r[-1]
        lines.append(line.rstrip()[:max_width] if max_width else line.rstrip())
    return lines


def ruleset_title(content: Content | None, ruleset: str) -> str:
    if content is not None and ruleset in content.rulesets:
        return content.rulesets[ruleset].title
    return ruleset


COLUMNS = ("date", "ruleset", "seed", "result", "level", "turns", "cause")


def table_rows(games: list[GameInfo], content: Content | None = None) -> list[tuple[str, ...]]:
    return [
        (
            g.date,
            ruleset_title(content, g.ruleset),
            g.seed_text,
            g.result,
            str(g.level) if g.level is not None else "?",
            str(g.turns),
            g.cause,
        )
        for g in games
    ]


def format_table(games: list[GameInfo], content: Content | None = None, *, max_width: int = 0) -> list[str]:
    """The past-games table as aligned text lines (a header line first)."""
    return _aligned([tuple(c.capitalize() for c in COLUMNS), *table_rows(games, content)], max_width)
