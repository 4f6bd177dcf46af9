"""Every save and past game: where a new game's recording goes, the unfinished recordings to continue or abandon,
and the index of finished ones.

A saved game is its recording (``saves/*.jsonl``, see docs/REPLAY.md). Beside it this module keeps a small
sidecar, ``NAME.meta.json``: the seed as the player typed it (the header holds only the number it hashes to; a
label that does not hash to it is not shown). What a game's result, level, HP and cause are comes from replaying its
recording, once: the folder's index (:class:`Index`, ``saves/.index.json``) remembers it by the file's digest and
size, and only a result the replay bore out is ranked. Abandoning a game moves its files into
``saves/abandoned/``: nothing is ever deleted. A corrupt or foreign file is skipped with a one-line note.

**One save, one game**: while a game is open its recording is locked (:mod:`undercroft.record.lock`).

**Side files are never trusted.** The sidecar and the lock are opened refusing a symbolic link and anything but a
regular file, never blocking (a FIFO there is not waited on), and they are written to a temporary file renamed
over them: a link or a FIFO in their place is replaced, never written through. A side file that is wrong is ignored
or rebuilt; the save itself is never touched.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import re
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from undercroft import record
from undercroft.content import Content
from undercroft.content.loader import file_kind, read_data_file
from undercroft.record.lock import SaveLock as SaveLock
from undercroft.record.lock import SaveLocked as SaveLocked
from undercroft.record.lock import holder as holder
from undercroft.record.lock import lock_path as lock_path
from undercroft.record.lock import open_elsewhere as open_elsewhere
from undercroft.record.replay import DAILY_PREFIX as DAILY_PREFIX  # (the daily word: checked by every replay)
from undercroft.record.replay import daily_word as daily_word
from undercroft.record.save_index import Facts, Index
from undercroft.rules.rng import parse_seed

ABANDONED = "abandoned"
META = ".meta.json"
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


def fresh_name(folder: Path, name: str) -> Path:
    """``folder/name``, or when that is taken ``folder/STEM-2.jsonl``, ``-3``, ...: a name nothing has."""
    path = folder / name
    stem, suffix = path.stem, path.suffix
    k = 2
    while path.exists() or path.is_symlink():
        path = folder / f"{stem}-{k}{suffix}"
        k += 1
    return path


def emergency_copies(directory: Path | None = None, folder: Path | None = None) -> list[Path]:
    """The copies of saves in ``directory`` that a game written when its disk was full left in ``folder`` (default:
    the temporary folder; see ``Session.save_elsewhere``): ``NAME.jsonl``, ``NAME-2.jsonl``, ... that begin like
    the save ``NAME.jsonl`` and hold more than it does. Oldest first."""
    import tempfile

    d = saves_dir() if directory is None else Path(directory)
    where = Path(tempfile.gettempdir()) if folder is None else Path(folder)
    try:
        with os.scandir(d) as it:
            stems = {e.name[: -len(SUFFIX)] for e in it if e.name.endswith(SUFFIX)}
        with os.scandir(where) as it:
            names = [e.name for e in it if e.name.endswith(SUFFIX)]
    except OSError:
        return []
    found = []
    for name in names:
        base = name[: -len(SUFFIX)]
        stem = base if base in stems else re.sub(r"-[0-9]{1,6}$", "", base)
        if stem in stems and (mtime := _holds_more(d / f"{stem}{SUFFIX}", where / name)) is not None:
            k = 0 if base == stem else int(base[len(stem) + 1 :])  # (NAME-2 after NAME: the clock's tick is coarse)
            found.append((mtime, k, name, where / name))
    return [p for *_, p in sorted(found)]


def _holds_more(save: Path, copy: Path) -> float | None:
    """The copy's mtime when ``copy`` begins like ``save`` and is longer (it has actions the save lacks)."""
    try:
        with record.open_regular(save) as a, record.open_regular(copy) as b:
            size = os.fstat(a.fileno()).st_size
            st = os.fstat(b.fileno())
            if st.st_size <= size or a.read(4096) != b.read(min(4096, size)):
                return None
            return st.st_mtime
    except (OSError, record.RecordingError):
        return None


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
    date: str  # "YYYY-MM-DD HH:MM", local time: an unfinished game's last write, a past game's start (its header's)
    level: int | None = None  # 1-based
    hp: str = ""  # the whole party's HP, "40/42" (unfinished games)
    cause: str = ""
    mtime: float = field(default=0.0, repr=False)
    open_pid: int | None = None  # open in another process (unfinished games): its pid, 0 when not known
    score: int | None = None  # a finished game's score, from its end line (None: not over, or before scores)
    daily: str = ""  # a daily game's UTC date (its header's "daily"), "" for any other
    verified: bool = False  # its recording replayed to its end and score (see :class:`Index`)
    why: str = ""  # why it is not verified ("" when it is)
    checked: bool = False  # replayed under this data (False: listed from its header and end line only, so far)
    played_with: str = ""  # the rules data's digest its header names
    data: str = ""  # the rules data's digest it was replayed with ("": not replayed)
    revision: int = 0  # the rules revision its header names (0: not recorded)
    digest: str = ""  # DIGEST:SIZE of its bytes (copies of one file have the same)

    def as_json(self) -> dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "mtime"}
        d["path"] = str(self.path)
        return d

    @property
    def result_label(self) -> str:
        """The result for a table: "won", or "won (unverified)" for a result its recording does not bear out (yet),
        then "rules revision 1" for a game made under other rules."""
        label = self.result
        if self.result in ("dead", "won") and not self.verified:
            label += " (unverified)" if self.checked else " (not checked yet)"
        return label + self.other_rules

    @property
    def other_rules(self) -> str:
        """ ", rules revision 1" for a game its header says was made under another revision of the rules, else ""."""
        return f", rules revision {self.revision}" if self.revision and self.revision != record.RULES_REVISION else ""

    @property
    def ranked(self) -> bool:
        """Whether its score may be ranked: a verified result, replayed with the very data it was played with."""
        return (
            self.score is not None
            and self.result in ("dead", "won")
            and self.verified
            and self.data == self.played_with
        )


def header_of(path: Path) -> record.Header | None:
    """The header of recording ``path`` (None when it cannot be read)."""
    try:
        return record.load_recording(path, lenient_tail=True).header
    except record.RecordingError:
        return None


def meta_path(path: Path) -> Path:
    return path.with_name(path.stem + META)


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


def today_utc() -> str:
    """Today's date in UTC, ``YYYY-MM-DD``: the day of ``play --daily``."""
    return datetime.datetime.now(datetime.UTC).date().isoformat()


def _date(mtime: float) -> str:
    return datetime.datetime.fromtimestamp(mtime).strftime("%Y-%m-%d %H:%M")


def _began(started: str, mtime: float) -> float:
    """When a game began: its header's ``started`` (UTC), else its file's mtime (a bot's or an earlier recording)."""
    if not started:
        return mtime
    try:
        return datetime.datetime.fromisoformat(started).timestamp()  # (its "Z": UTC)
    except ValueError:
        return mtime


def _sweep_temporaries(directory: Path, names: list[str]) -> None:
    """Remove the temporary files (``.NAME.PID.tmp``) of side files whose writer is gone (killed mid-write)."""
    for name in names:
        m = _TMP.match(name)
        if m is None or int(m.group(1)) == os.getpid():
            continue
        try:
            os.kill(int(m.group(1)), 0)
            continue  # still writing
        except ProcessLookupError:
            pass
        except (OSError, OverflowError):
            continue
        with contextlib.suppress(OSError):
            os.unlink(directory / name)


_TMP = re.compile(r"^\..+\.(\d{1,10})\.tmp$")


@dataclass
class Pass:
    """One listing's work: ``deadline`` (time.monotonic) after which no more recording is replayed (None: every one
    is), ``every`` off: only the unfinished ones are; ``tell(done, total)`` after each recording (progress)."""

    deadline: float | None = None
    every: bool = True
    tell: Callable[[int, int], None] | None = None
    done: int = 0
    total: int = 0
    waiting: int = 0  # recordings left to replay for want of time

    def replay(self, f: Facts) -> bool:
        """Whether a recording is replayed now, given what its first and last lines say (``f``)."""
        if f.status == "bad" or f.data or not (self.every or f.status == "open"):
            return False
        if self.deadline is not None and time.monotonic() > self.deadline:
            self.waiting += 1
            return False
        return True


def _folder(
    directory: Path, index: Index, content: Content | None, notes: list[str], prefix: str = "", work: Pass | None = None
) -> list[tuple[Path, os.stat_result, Facts, set[str]]]:
    """Every recording in ``directory`` with its stat and facts (and the names beside it), by name."""
    work = work if work is not None else Pass()
    try:
        with os.scandir(directory) as it:
            entries = sorted(it, key=lambda e: e.name)
    except OSError:
        return []
    names = [e.name for e in entries]
    index.scanned.add(prefix)
    _sweep_temporaries(directory, names)
    present = set(names)
    out = []
    work.total += sum(name.endswith(SUFFIX) for name in names)
    for entry in entries:
        name = entry.name
        if not name.endswith(SUFFIX):
            continue
        if work.tell is not None:
            work.tell(work.done, work.total)
        work.done += 1
        path = directory / name
        try:
            st = entry.stat()  # (a link is followed, as reading it would)
        except OSError as exc:
            notes.append(f"skipped {name}: unreadable: {exc.strerror or exc}")
            continue
        if not stat.S_ISREG(st.st_mode):
            notes.append(f"skipped {name}: unreadable: {file_kind(st.st_mode)}, not a recording")
            continue
        try:
            facts = index.facts_of(prefix + name, path, st, content, work.replay)
        except Exception as exc:  # whatever one file holds, the others are listed and the title opens
            notes.append(f"skipped {name}: unreadable: {type(exc).__name__}: {exc}"[:300])
            continue
        if facts.status == "bad":
            notes.append(f"skipped {name}: {facts.why}")
            continue
        out.append((path, st, facts, present))
    return out


def _game(
    path: Path, st: os.stat_result, f: Facts, present: set[str], digest: str, *, abandoned: bool = False
) -> GameInfo:
    result = "abandoned" if abandoned else f.end or ("crashed" if f.status == "crashed" else f.over or "playing")
    word = daily_word(f.daily) if f.daily else ""
    label = word if word and parse_seed(word) == f.seed else ""
    if path.stem + META in present:
        text = _read_meta(path).get("seed_text")
        with contextlib.suppress(ValueError):  # a label that is not this game's seed is not shown
            label = text if isinstance(text, str) and text and parse_seed(text) == f.seed else label
    when = st.st_mtime if result == "playing" else _began(f.started, st.st_mtime)  # (the last played, the begun)
    info = GameInfo(
        path,
        f.ruleset,
        f.seed,
        label or str(f.seed),
        result,
        f.turns,
        _date(when),
        level=f.level,
        hp=f.hp if result == "playing" else "",
        cause=f.cause,
        mtime=when,
        score=f.score,
        daily=f.daily,
        verified=f.verified,
        why=f.why,
        checked=bool(f.data),
        played_with=f.played_with,
        data=f.data,
        revision=f.revision,
        digest=digest,
    )
    if result == "crashed":
        info.cause = "crash (see the .crash.txt report)"
    elif abandoned and not f.cause:
        info.cause = ""
    return info


def unfinished(
    directory: Path | None = None,
    content: Content | None = None,
    notes: list[str] | None = None,
    work: Pass | None = None,
) -> list[GameInfo]:
    """The games that can be continued, newest first (a game whose last action ended it, its end line missing, is
    over: listed by :func:`past_games` instead)."""
    return listing(directory, content, notes, past=False, work=work)[1]


def listing(
    directory: Path | None = None,
    content: Content | None = None,
    notes: list[str] | None = None,
    *,
    past: bool = True,
    sort: str = "date",
    work: Pass | None = None,
) -> tuple[list[GameInfo], list[GameInfo]]:
    """(:func:`past_games`, :func:`unfinished`) from one reading of the saves folder (``past``: off, the past games
    are left out, and ``saves/abandoned/`` is not read, and only the unfinished games are replayed). ``work``: when
    to stop replaying (a recording not replayed yet is listed from its bytes, ``checked`` False) and whom to tell
    how far it is; by default every recording is replayed."""
    d = saves_dir() if directory is None else Path(directory)
    notes = notes if notes is not None else []
    work = work if work is not None else Pass()
    work.every = work.every and past
    index = Index(d)
    over: list[GameInfo] = []
    todo: list[GameInfo] = []
    folders = ((False, d, ""), (True, d / ABANDONED, ABANDONED + "/"))
    try:
        for abandoned, folder, prefix in folders if past else folders[:1]:
            for path, st, f, present in _folder(folder, index, content, notes, prefix, work):
                known = index.files.get(prefix + path.name)
                digest = f"{known[4]}:{known[0]}" if known else ""
                if f.status == "open" and not f.over and not abandoned:
                    info = _game(path, st, f, present, digest)
                    info.open_pid = holder(path)
                    todo.append(info)
                elif past:
                    over.append(_game(path, st, f, present, digest, abandoned=abandoned))
    except BaseException:  # (interrupted, Ctrl-C: what was done is kept for the next listing)
        index.save(final=False)
        raise
    index.save()
    todo.sort(key=lambda i: (i.mtime, i.path.name), reverse=True)
    return sort_games(over, sort), todo


def sort_games(games: list[GameInfo], sort: str = "date") -> list[GameInfo]:
    """``games`` newest first (``date``), or deepest first, then most turns (``depth``)."""
    if sort == "depth":
        return sorted(
            games, key=lambda i: (i.result == "won" and i.verified, i.level or 0, i.turns, i.mtime), reverse=True
        )
    return sorted(games, key=lambda i: (i.mtime, i.path.name), reverse=True)


class Checker:
    """Replays, one at a time, the games a listing left unchecked (:class:`Pass`'s deadline), keeping what it finds
    in the folder's index: the title goes on with its list between frames this way."""

    def __init__(self, directory: Path | None, content: Content) -> None:
        self.directory = saves_dir() if directory is None else Path(directory)
        self.content = content
        self.index = Index(self.directory)

    def check(self, g: GameInfo) -> GameInfo | None:
        """``g`` replayed (a fresh :class:`GameInfo`: an unfinished game may turn out over), or None when it is not
        a recording after all, or gone."""
        aside = g.path.parent.name == ABANDONED and g.path.parent.parent == self.directory
        name = f"{ABANDONED}/{g.path.name}" if aside else g.path.name
        try:
            st = os.stat(g.path)
            f = self.index.facts_of(name, g.path, st, self.content)
        except Exception:  # (gone, or unreadable now: the next listing says why)
            return None
        if f.status == "bad":
            return None
        known = self.index.files.get(name)
        digest = f"{known[4]}:{known[0]}" if known else ""
        info = _game(g.path, st, f, {g.path.stem + META}, digest, abandoned=aside)
        info.open_pid = g.open_pid
        return info

    def slice(self, games: list[GameInfo], seconds: float) -> list[GameInfo]:
        """``games`` with those not checked yet checked for ``seconds`` (at least one), the first first; one that is
        not a recording after all is left out."""
        deadline = time.monotonic() + seconds
        out: list[GameInfo] = []
        first = True
        for g in games:
            now: GameInfo | None = g
            if not g.checked and (first or time.monotonic() < deadline):
                now, first = self.check(g), False
            if now is not None:
                out.append(now)
        return out

    def close(self) -> None:
        self.index.save(final=False)


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


def past_games(
    directory: Path | None = None,
    morgue_dir: Path | None = None,
    content: Content | None = None,
    notes: list[str] | None = None,
    sort: str = "date",
    work: Pass | None = None,
) -> list[GameInfo]:
    """Every game that is over (dead, won, crashed) or abandoned, with the level and cause its replay reached
    (``morgue_dir`` is no longer read: a morgue file is a side file and says nothing the replay does not).

    ``sort``: ``date`` (newest first) or ``depth`` (deepest first, then most turns: a high-score table). ``work``:
    see :func:`listing`."""
    del morgue_dir
    return listing(directory, content, notes, sort=sort, work=work)[0]


def high_scores(games: list[GameInfo], content: Content | None = None) -> dict[str, list[GameInfo]]:
    """Per ruleset (the data's order, then any other by name), its finished games with a verified score, best first
    (then the earlier game first: a score matched later does not push one down). An unverified game is not
    ranked (:func:`unverified`), nor one played with other rules data than it was replayed with (it is ranked in
    that data's tables: ``games --scores --data DIR``), and each file's bytes are ranked once, however many copies
    or links of it the folder holds (the earliest)."""
    order = list(content.rulesets) if content is not None else []
    by: dict[str, list[GameInfo]] = {}
    for g in games:
        if g.ranked:
            by.setdefault(g.ruleset, []).append(g)
    for rs, lst in by.items():
        lst.sort(key=lambda g: (-(g.score or 0), g.mtime, g.path.name))
        once = {g.digest or str(g.path): g for g in reversed(lst)}  # a copy of a file is the same game: ranked once
        by[rs] = [g for g in lst if once[g.digest or str(g.path)] is g]
    return dict(
        sorted(by.items(), key=lambda kv: (kv[0] not in order, order.index(kv[0]) if kv[0] in order else 0, kv[0]))
    )


def unverified(games: list[GameInfo]) -> list[GameInfo]:
    """The finished games whose recording did not replay (yet) to the end and score it says (never ranked)."""
    return [g for g in games if g.result in ("dead", "won") and g.score is not None and not g.verified]


def unverified_note(games: list[GameInfo]) -> str:
    """The line under the high-score tables that says how many results were not ranked ("" for none)."""
    n = len(unverified(games))
    if not n:
        return ""
    what = "1 result is" if n == 1 else f"{n} results are"
    return f"{what} unverified (not ranked): undercroft replay FILE --verify says why"


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


def data_label(g: GameInfo, content: Content | None) -> str:
    """ " (data 1a2b3c4d)" for a game played with other rules data than ``content`` (a mod), else ""."""
    other = content is not None and g.played_with and g.played_with != content.digest
    return f" (data {g.played_with[:8]})" if other else ""


def table_rows(games: list[GameInfo], content: Content | None = None) -> list[tuple[str, ...]]:
    return [
        (
            g.date,
            ruleset_title(content, g.ruleset) + data_label(g, content),
            g.seed_text,
            g.result_label,
            str(g.level) if g.level is not None else "?",
            str(g.turns),
            g.cause,
        )
        for g in games
    ]


def format_table(games: list[GameInfo], content: Content | None = None, *, max_width: int = 0) -> list[str]:
    """The past-games table as aligned text lines (a header line first)."""
    return _aligned([tuple(c.capitalize() for c in COLUMNS), *table_rows(games, content)], max_width)
