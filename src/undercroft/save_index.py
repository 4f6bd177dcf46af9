"""What each recording says, checked: the saves folder's index (``saves/.index.json``). Every recording is
replayed once (:func:`examine`) and what the replay showed (:class:`Facts`) is kept by the file's digest and size,
under a keyed MAC; the listing of :mod:`undercroft.saves` reads it, and ranks only what a replay bore out.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import os
import stat
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from undercroft import record
from undercroft.content import Content
from undercroft.content.loader import read_data_file
from undercroft.rules.names import the

# --- what each recording says, checked: the index -------------------------------------------------------------
#
# Listing the saves reads no recording twice. ``saves/.index.json`` remembers, per recording, the digest of its
# bytes (blake2b) and what replaying it showed (:class:`Facts`), keyed by that digest and the file's size: a file
# whose digest or size changes is examined again. To find a file's digest without reading it, the index also keeps
# its size, mtime, ctime and inode; a write changes the ctime, which no program can set back. The index is a cache:
# it is written atomically, with a keyed MAC (the key: ``.index.key`` beside it, with that file's device and inode),
# and one that is missing, corrupt, from another installation or folder (copied in with its key) or edited is
# ignored whole and rebuilt. It only ever says what a replay of these very bytes said.

INDEX = ".index.json"
INDEX_KEY = ".index.key"
_INDEX_V = 1
MAX_INDEX = 256 * 1024 * 1024


@dataclass
class Facts:
    """What one recording's bytes say and what replaying them showed (the same for every copy of the file)."""

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
    data: str = ""  # the rules data's digest the replay used ("": never replayed)

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


def _key(directory: Path, *, make: bool = False) -> bytes:
    """The index's MAC key (``make``: made when there is none; b"" when there is none, or it cannot be kept): the
    key file's 32 random bytes and its device and inode, so that an index signed elsewhere is not believed here even
    with its key beside it (a saves folder copied or unpacked from someone else's is examined anew)."""
    path = directory / INDEX_KEY
    with contextlib.suppress(OSError):
        key = read_data_file(path, 4096, follow=False)
        if len(key) == 32:
            return _here(key, os.lstat(path))
    if not make:
        return b""
    with contextlib.suppress(OSError):  # a bad key (a link, a FIFO, cut short and not being written now): made anew
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode) or time.time() - st.st_mtime > 10:
            os.unlink(path)
    key = os.urandom(32)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:  # made once: a listing in another process that made it first wins (and this one's index waits for it)
        fd = os.open(path, flags, 0o600)
    except OSError:
        return b""
    try:
        os.write(fd, key)
        key = _here(key, os.fstat(fd))
    except OSError:
        key = b""
    finally:
        os.close(fd)
    return key


def _here(key: bytes, st: os.stat_result) -> bytes:
    return key + f":{st.st_dev}:{st.st_ino}".encode()


def _mac(key: bytes, body: bytes) -> str:
    return hmac.new(key, body, hashlib.blake2b).hexdigest()


class Index:
    """The index of one saves folder (see above): ``files`` (name → [size, mtime_ns, ctime_ns, inode, digest])
    and ``facts`` (``DIGEST:SIZE`` → :class:`Facts`)."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.key = _key(directory)
        self.files: dict[str, list[Any]] = {}
        self.facts: dict[str, Facts] = {}
        self.seen: set[str] = set()
        self.scanned: set[str] = set()  # the folders listed ("" or "abandoned/"): their unseen files are gone
        self.changed = False
        with contextlib.suppress(OSError, ValueError, RecursionError, TypeError, AttributeError):
            self._load(read_data_file(directory / INDEX, MAX_INDEX, follow=False))

    def _load(self, raw: bytes) -> None:
        head, _, body = raw.partition(b"\n")
        if not self.key or not hmac.compare_digest(head.decode("ascii"), _mac(self.key, body)):
            return  # edited, corrupt or from another key: ignored whole
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

    def facts_of(self, name: str, path: Path, st: os.stat_result, content: Content | None) -> Facts:
        """The facts of recording ``name`` (its path and stat): from the index, else examined (and kept)."""
        self.seen.add(name)
        stamp = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
        known = self.files.get(name)
        if known is not None and known[:4] == stamp:
            digest = known[4]
        else:
            try:
                digest = _digest(path)
            except OSError as exc:
                return Facts("bad", why=f"unreadable: {exc.strerror or exc}")
            except record.RecordingError as exc:  # too large, or not a regular file after all
                return Facts("bad", why=f"unreadable: {exc.message}")
            self.files[name] = [*stamp, digest]
            self.changed = True
        key = f"{digest}:{st.st_size}"
        facts = self.facts.get(key)
        data = content.digest if content is not None else ""
        if facts is not None and (facts.verified or facts.status == "bad" or (facts.data and facts.data == data)):
            return facts
        facts, seen = examine(path, content)
        if seen == digest and (facts.status == "bad" or facts.data):  # (the very bytes digested, replayed: kept;
            self.facts[key] = facts  # not replayed for want of its rules: asked again next time)
            self.changed = True
        return facts

    def save(self) -> None:
        """Write the index if anything changed, keeping only the files seen (one listing of the folder)."""
        files = {k: v for k, v in self.files.items() if k in self.seen or k[: k.rfind("/") + 1] not in self.scanned}
        keep = {f"{v[4]}:{v[0]}" for v in files.values()}
        facts = {k: f.as_json() for k, f in self.facts.items() if k in keep}
        if not self.changed and len(files) == len(self.files):
            return
        body = json.dumps({"v": _INDEX_V, "files": files, "facts": facts}, sort_keys=True).encode()
        self.key = self.key or _key(self.directory, make=True)
        if not self.key:
            return
        with contextlib.suppress(OSError):
            record.write_side_file(self.directory / INDEX, _mac(self.key, body).encode() + b"\n" + body)
        self.changed = False


def _hasher() -> Any:
    return hashlib.blake2b(digest_size=16)


def _digest(path: Path) -> str:
    h = _hasher()
    with record.open_regular(path) as fh:
        while chunk := fh.read(1 << 20):
            h.update(chunk)
    return str(h.hexdigest())


def examine(path: Path, content: Content | None) -> tuple[Facts, str]:
    """Read recording ``path`` and replay it as it is read (verifying every state, its end and its score; memory
    flat): its :class:`Facts`, and the digest of the bytes both readings saw ("" when they differ: the file changed
    while it was read, and what was found is not kept)."""
    seen = _hasher()
    try:
        rec, last, _ = record.stream_recording(path, _none, _none, lenient_tail=True, hasher=seen)
    except record.RecordingError as exc:
        foreign = exc.message.startswith("not an Undercroft recording")
        return Facts("bad", why="not an Undercroft recording" if foreign else exc.message), seen.hexdigest()
    h = rec.header
    status = "finished" if rec.end else "crashed" if rec.crash is not None else "open"
    f = Facts(status, h.ruleset, h.seed, h.daily, last[0] if last else 0, rec.end or "", rec.score)
    if content is None:
        f.why = "no rules data to replay it with"
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
