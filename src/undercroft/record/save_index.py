"""What each recording says, checked: the saves folder's index (``saves/.index.json``). Every recording is
replayed once (:func:`examine`) and what the replay showed (:class:`Facts`) is kept by the file's digest and size,
under a keyed MAC; the listing of :mod:`undercroft.record.saves` reads it, and ranks only what a replay bore out.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import stat
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from undercroft import record
from undercroft.content import Content
from undercroft.content.loader import open_checked, read_data_file
from undercroft.rules.names import the

# --- what each recording says, checked: the index -------------------------------------------------------------
#
# Listing the saves reads no recording twice. ``saves/.index.json`` remembers, per recording, the digest of its
# bytes (blake2b) and what its bytes say (:class:`Facts`: its header and end line, keyed ``DIGEST:SIZE``) and what
# replaying them showed (keyed ``DIGEST:SIZE:DATA:REVISION``: a replay holds only for the rules data and the rules
# revision it was made with; under other data or another revision the file is replayed again). To find a file's digest
# without reading it, the index also keeps its size, mtime, ctime and inode; a write changes the ctime, which no
# program can set back. The index is a cache: it is written atomically (as it goes, every few seconds, so a listing cut
# short keeps its work), with a keyed MAC over the folder's own path and inode and the index. The key is kept outside
# the saves folder, in the user's state directory (``index.key``; one with more than one link, a link or of the wrong
# size is made anew), so nothing put beside the index can sign it: an index edited, from another installation or
# copied or moved in from another folder is ignored whole and rebuilt. It only ever says what a replay of these very
# bytes said.

INDEX = ".index.json"
KEY = "index.key"  # in the user's state directory (:func:`key_path`)
_INDEX_V = 2
MAX_INDEX = 256 * 1024 * 1024
SAVE_EVERY_S = 2.0  # a long listing writes the index at least this often (what it did survives an interruption)


@dataclass
class Facts:
    """What one recording's bytes say and, once it is replayed, what replaying them showed (the same for every copy
    of the file)."""

    status: str  # "open", "finished", "crashed"; "bad": not a recording of ours (``why`` says what is wrong)
    ruleset: str = ""
    seed: int = 0
    daily: str = ""
    turns: int = 0
    end: str = ""  # "dead" or "won" (its end line), "" for none
    score: int | None = None
    verified: bool = False  # replayed to its recorded end and score, and a daily game's seed is its date's word
    why: str = ""  # why it is not verified (or, for "bad", why it is not a recording)
    level: int | None = None  # from the replay (1-based)
    hp: str = ""
    over: str = ""  # the replayed game is over ("dead", "won") though its end line is missing
    cause: str = ""  # who killed the party ("the Ogre"), "won", from the replay
    data: str = ""  # the rules data's digest the replay used ("": not replayed)
    played_with: str = ""  # the rules data's digest its header names (the data the game was played with)
    revision: int = 0  # the rules revision its header names (0: not recorded)
    started: str = ""  # when its game began, from its header ("": not recorded)

    def as_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, obj: Any) -> Facts | None:
        try:
            facts = cls(**obj)
        except TypeError:
            return None
        types = {k: type(v) for k, v in asdict(cls("open")).items()}
        ok = all(
            isinstance(v, types[k]) or (k in ("score", "level") and (v is None or type(v) is int))
            for k, v in asdict(facts).items()
        )
        return facts if ok and type(facts.seed) is int and type(facts.turns) is int else None


def key_path() -> Path:
    """Where the index's key is: the user's state directory, never a saves folder."""
    from undercroft.paths import user_state_dir

    return user_state_dir() / KEY


def _key(*, make: bool = False) -> bytes:
    """The index's MAC key: 32 random bytes in :func:`key_path` (``make``: made when there is none, or a bad one;
    b"" when there is none or it cannot be kept). A key file with more than one name (a hard link) or that is a link
    is never believed: whoever holds the other name could sign with it."""
    path = key_path()
    with contextlib.suppress(OSError):
        fd = open_checked(path, 4096, follow=False)
        try:
            key, links = os.read(fd, 64), os.fstat(fd).st_nlink
        finally:
            os.close(fd)
        if len(key) == 32 and links == 1:
            return key
    if not make:
        return b""
    with contextlib.suppress(OSError):  # a bad key (a link, a hard link, a FIFO, cut short and not being written now)
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_nlink > 1 or time.time() - st.st_mtime > 10:
            os.unlink(path)
    key = os.urandom(32)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:  # made once: a listing in another process that made it first wins (and this one's index waits for it)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, flags, 0o600)
    except OSError:
        return b""
    try:
        if os.write(fd, key) != len(key):
            key = b""
    except OSError:
        key = b""
    finally:
        os.close(fd)
    return key


def _folder_id(directory: Path) -> bytes:
    """The saves folder itself, as the MAC binds it: its real path, device and inode (an index moved or copied in
    from another folder is not believed here)."""
    try:
        st = os.stat(directory)
        return f"{os.path.realpath(directory)}\0{st.st_dev}\0{st.st_ino}\0".encode("utf-8", "surrogateescape")
    except OSError:
        return b""


def _mac(key: bytes, folder: bytes, body: bytes) -> str:
    return hmac.new(key, folder + body, hashlib.blake2b).hexdigest()


class Index:
    """The index of one saves folder (see above): ``files`` (name → [size, mtime_ns, ctime_ns, inode, digest])
    and ``facts`` (``DIGEST:SIZE`` → what the bytes say; ``DIGEST:SIZE:DATA:REVISION`` → what a replay showed)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.key = _key()
        self.folder = _folder_id(directory)
        self.files: dict[str, list[Any]] = {}
        self.facts: dict[str, Facts] = {}
        self.seen: set[str] = set()
        self.scanned: set[str] = set()  # the folders listed ("" or "abandoned/"): their unseen files are gone
        self.changed = False
        self.saved_at = time.monotonic()
        with contextlib.suppress(OSError, ValueError, RecursionError, TypeError, AttributeError):
            self._load(read_data_file(directory / INDEX, MAX_INDEX, follow=False))

    def _load(self, raw: bytes) -> None:
        head, _, body = raw.partition(b"\n")
        if (
            not self.key
            or not self.folder
            or not hmac.compare_digest(head.decode("ascii"), _mac(self.key, self.folder, body))
        ):
            return  # edited, corrupt, from another key or another folder: ignored whole
        obj = json.loads(body)
        if obj.get("v") != _INDEX_V:
            return
        files = {
            k: v
            for k, v in obj["files"].items()
            if isinstance(v, list) and len(v) == 5 and all(type(x) is int for x in v[:4]) and isinstance(v[4], str)
        }
        facts = {k: f for k, v in obj["facts"].items() if (f := Facts.from_json(v)) is not None}
        self.files, self.facts = files, facts

    def facts_of(
        self,
        name: str,
        path: Path,
        st: os.stat_result,
        content: Content | None,
        replay: Callable[[Facts], bool] | None = None,
    ) -> Facts:
        """The facts of recording ``name`` (its path and stat): from the index, else examined (and kept). ``replay``
        says whether to replay it now, given what its first and last lines say (:func:`glance`); by default it is.
        Else what they say is given (or what a replay already made under this data showed)."""
        self.seen.add(name)
        stamp = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
        known = self.files.get(name)
        digest = known[4] if known is not None and known[:4] == stamp else ""
        base = f"{digest}:{st.st_size}"
        facts = self.facts.get(f"{base}:{content.digest}:{record.RULES_REVISION}" if content else "")
        facts = facts or self.facts.get(base)
        if not digest or facts is None:  # a new or changed file: read once, for its digest and what it says
            try:
                digest, head, last = _read(path)
            except OSError as exc:
                return Facts("bad", why=f"unreadable: {exc.strerror or exc}")
            except record.RecordingError as exc:  # too large, or not a regular file after all
                return Facts("bad", why=f"unreadable: {exc.message}")
            self.files[name] = [*stamp, digest]
            base = f"{digest}:{st.st_size}"
            facts = self.facts.get(f"{base}:{content.digest}:{record.RULES_REVISION}" if content else "")
            facts = facts or self.facts.get(base) or glance(path, head, last)
            self.facts.setdefault(base, facts)
            self.changed = True
        if facts.status == "bad" or facts.data or content is None or (replay is not None and not replay(facts)):
            return facts
        return self._examined(path, content, digest, base)

    def _examined(self, path: Path, content: Content | None, digest: str, base: str) -> Facts:
        """:func:`examine`, kept when it read the bytes digested (else the file changed while it was read); the
        index written when the last write was a while ago."""
        facts, seen = examine(path, content)
        if seen == digest:
            self.facts[f"{base}:{facts.data}:{record.RULES_REVISION}" if facts.data else base] = facts
            self.changed = True
        if time.monotonic() - self.saved_at > SAVE_EVERY_S:
            self.save(final=False)
        return facts

    def save(self, *, final: bool = True) -> None:
        """Write the index if anything changed. ``final``: one listing of the folder is over, and only the files
        it saw are kept; else (a listing still under way) every file is."""
        self.saved_at = time.monotonic()
        files = {
            k: v
            for k, v in self.files.items()
            if not final or k in self.seen or k[: k.rfind("/") + 1] not in self.scanned
        }
        keep = {f"{v[4]}:{v[0]}" for v in files.values()}
        facts = {k: f.as_json() for k, f in self.facts.items() if ":".join(k.split(":", 2)[:2]) in keep}
        if not self.changed and len(files) == len(self.files):
            return
        body = json.dumps({"v": _INDEX_V, "files": files, "facts": facts}, sort_keys=True).encode()
        self.key = self.key or _key(make=True)
        if not self.key or not self.folder:
            return
        with contextlib.suppress(OSError):
            record.write_side_file(self.directory / INDEX, _mac(self.key, self.folder, body).encode() + b"\n" + body)
        self.changed = False


def _hasher(data: bytes = b"") -> Any:
    return hashlib.blake2b(data, digest_size=16)


_TAIL = record.MAX_LINE + 1


def _read(path: Path) -> tuple[str, bytes, bytes]:
    """One reading of ``path``: the digest of its bytes, its first line and its last (at most a line's length)."""
    with record.open_regular(path) as fh:
        data = fh.read()  # (at most record.MAX_FILE: open_regular refuses a larger file)
    nl = data.find(b"\n", 0, _TAIL)
    head = data[: nl if nl >= 0 else _TAIL]
    end = len(data)
    while end and data[end - 1] == 10:  # (the newlines after the last line)
        end -= 1
    start = data.rfind(b"\n", max(0, end - _TAIL), end) + 1
    return str(_hasher(data).hexdigest()), head, data[start:end]


def glance(path: Path, head: bytes, last: bytes) -> Facts:
    """What recording ``path`` says of itself, from its first and last lines only (no replay, nothing verified):
    its header, how many turns, and its end line's result and score. ``bad`` when its header is not one of ours."""
    from undercroft.record.reader import _header, _parse

    try:
        obj = _parse(path, 1, head)
        obj.pop("hash", None)  # (the chain is checked by the replay)
        h = _header(path, obj)
    except record.RecordingError as exc:
        foreign = exc.message.startswith("not an Undercroft recording")
        return Facts("bad", why="not an Undercroft recording" if foreign else exc.message)
    f = Facts("open", h.ruleset, h.seed, h.daily, why="not replayed yet")
    f.played_with, f.revision, f.started = h.data_digest, h.rules_revision, h.started
    if last == head:
        return f
    if not last.startswith(b"{"):  # an action line of format 3: TURN TYPE ...
        word = last.split(b" ", 1)[0]
        f.turns = int(word) if word.isdigit() and len(word) < 10 else 0
        return f
    try:
        obj = json.loads(last)
    except (ValueError, RecursionError):
        return f
    if not isinstance(obj, dict):
        return f
    turn = obj.get("turn")
    f.turns = turn if type(turn) is int and 0 <= turn < 1 << 31 else 0
    if obj.get("end") in ("dead", "won"):
        f.status, f.end = "finished", obj["end"]
        score = obj.get("score")
        f.score = score if type(score) is int else None
    elif "crash" in obj:
        f.status = "crashed"
    return f


def examine(path: Path, content: Content | None) -> tuple[Facts, str]:
    """Read recording ``path`` and replay it as it is read (verifying every state, its end and its score; memory
    flat; ``content`` None: only read, its header and end line): its :class:`Facts`, and the digest of the bytes
    both readings saw ("" when they differ: the file changed while it was read, and what was found is not kept)."""
    seen = _hasher()
    try:
        rec, last, _ = record.stream_recording(path, _none, _none, lenient_tail=True, hasher=seen)
    except record.RecordingError as exc:
        foreign = exc.message.startswith("not an Undercroft recording")
        return Facts("bad", why="not an Undercroft recording" if foreign else exc.message), seen.hexdigest()
    h = rec.header
    status = "finished" if rec.end else "crashed" if rec.crash is not None else "open"
    f = Facts(status, h.ruleset, h.seed, h.daily, last[0] if last else 0, rec.end or "", rec.score)
    f.played_with, f.revision, f.started = h.data_digest, h.rules_revision, h.started
    if content is None:
        f.why = "not replayed yet"
        return f, seen.hexdigest()
    f.data = content.digest  # (what it showed holds for this data: other data, it is examined again)
    if h.ruleset not in content.rulesets:
        f.why = "its ruleset is not in the rules data"
        return f, seen.hexdigest()
    again = _hasher()
    try:
        game = record.replay_file(content, path, verify=True, lenient_tail=True, hasher=again)[1]
    except record.Desync as exc:
        f.why = f"it does not replay: at turn {exc.turn}, {'; '.join(exc.parts)}"[:200]
        return f, seen.hexdigest()
    except Exception as exc:  # a crash that reproduces (a crashed game), or a bug: not a result either way
        f.why = f"it does not replay: {type(exc).__name__}"
        return f, seen.hexdigest()
    if again.hexdigest() != seen.hexdigest():
        return f, ""
    _fill_from_replay(f, game, status)
    return f, seen.hexdigest()


def _none(*_: object) -> None:
    pass


def _fill_from_replay(f: Facts, game: Any, status: str) -> None:
    st = game.state
    f.level = st.depth + 1
    alive = [m for m in st.party if m.hp > 0]
    f.hp = f"{sum(m.hp for m in st.party)}/{sum(m.max_hp for m in st.party)}" + (
        f" ({len(alive)} of {len(st.party)} up)" if len(alive) < len(st.party) else ""
    )
    f.over = str(st.mode) if game.over else ""
    if st.death is not None:
        f.cause = the(str(st.death["cause"]))
    elif f.over == "won":
        f.cause = "won"
    f.verified = status == "finished" or bool(f.over)
    f.why = "" if f.verified else "not over"
