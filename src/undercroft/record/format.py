"""The recording format: its constants, :class:`Header` and :class:`Recording`, the errors, the hash chains and the
canonical text of a line and of an action (docs/REPLAY.md describes the three formats)."""

from __future__ import annotations

import datetime
import functools
import hashlib
import importlib.metadata
import json
import platform
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from undercroft import __version__
from undercroft.printable import printable
from undercroft.rules.actions import Action, action_from_text, action_to_dict, action_to_text
from undercroft.rules.game import Game

FORMAT_VERSION = 3
# The revision of the rules: which games a recording's actions make. Bumped whenever a golden recording's digests
# change (tests/test_rules_revision.py fails until it is), so a save made under other rules is told by its header at
# once, not by a desync; kept in the header (``rules_revision``, format 3; 0: a recording from before it was kept)
# and in the saves folder's index (what a replay showed holds for one revision).
RULES_REVISION = 6
MAGIC = "undercroft"  # the header's "recording" field
MAX_LINE = 64 * 1024  # bytes; a longer line is refused without being parsed
MAX_FILE = 64 * 1024 * 1024  # bytes (about 450,000 actions); a larger file is refused before it is read
# The names a header's "parts" may hold: the canonical state's top-level parts (rules/canonical.py: canonical). A state
# part added to the game must be added here too (tests/test_record_hostile.py checks it).
KNOWN_PARTS = frozenset({"clock", "levels", "mode", "party", "rng"})
_HASH_BYTES = 6  # a JSON line's "hash"
_TEXT_HASH_BYTES = 4  # an action line's HASH (format 3)
_PART_BYTES = 2
_MAX_MESSAGE = 2000  # a crash line keeps this much of the exception's message


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
    daily: str = ""  # the UTC date (YYYY-MM-DD) of a daily game (``play --daily``), "" for any other (format 3)
    rules_revision: int = 0  # :data:`RULES_REVISION` of the game that wrote it (0: not recorded, before it was kept)
    started: str = ""  # when the game began, UTC, "YYYY-MM-DDTHH:MM:SSZ" ("": not recorded)


@dataclass(frozen=True)
class Recording:
    path: Path
    header: Header
    actions: list[tuple[int, Action, str]]  # (turn, action, check): the state's checksum (formats 1-2) or digest
    finished: bool = False
    crash: dict[str, Any] | None = None  # {"turn", "action" (Action), "type", "message", "line"}
    end: str | None = None  # "dead" or "won" when finished
    score: int | None = None  # the end line's score (format 3; None: not finished, or written before scores)
    part_digests: list[str] = field(default_factory=list, repr=False)  # per action, the "parts" field (format 3:
    # the digest, which is the parts' digests)
    last_hash: str = field(default="", repr=False)  # chain value of the last line (for appending)
    size: int = field(default=0, repr=False)  # bytes of whole lines read (a torn tail is not counted)

    @property
    def turns(self) -> int:
        """The turn of the last recorded action (0: none)."""
        return self.actions[-1][0] if self.actions else 0


# --- encoding ------------------------------------------------------------------------------------------------


_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
_dumps = _ENCODER.encode  # the canonical form of a line, and of the state (as undercroft.rules.canonical.encode)


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


_DAILY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def is_daily_date(text: object) -> bool:
    """Whether ``text`` is a daily game's date as a header holds it: ``YYYY-MM-DD``, a real day."""
    if not isinstance(text, str) or not _DAILY.fullmatch(text):
        return False
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


@functools.cache
def installed_versions() -> dict[str, str]:
    """The versions a recording's header records, of this installation: ``game``, ``python``, ``numpy``, ``tcod``."""
    # (read from tcod's installed metadata: importing tcod for its version would load all of its window code)
    try:
        tcod_version = importlib.metadata.version("tcod")
    except importlib.metadata.PackageNotFoundError:  # pragma: no cover - tcod is a dependency
        tcod_version = ""
    return {"game": __version__, "python": platform.python_version(), "numpy": np.__version__, "tcod": tcod_version}
