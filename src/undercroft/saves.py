"""Every save and past game: the unfinished recordings to continue or abandon, and the index of finished ones.

A saved game is its recording (``saves/*.jsonl``, see docs/REPLAY.md). Beside it this module keeps a small
sidecar, ``NAME.meta.json``: the seed as the player typed it (the header holds only the number it hashes to) and a
cache of the level and HP reached (so the title need not replay every save each time it is shown). Abandoning a
game moves its files into ``saves/abandoned/``: nothing is ever deleted. A corrupt or foreign file is skipped
with a one-line note.
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from undercroft import record
from undercroft.content import Content

ABANDONED = "abandoned"
META = ".meta.json"


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

    def as_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["path"] = str(self.path)
        d.pop("mtime")
        return d


def meta_path(path: Path) -> Path:
    return path.with_name(path.stem + META)


def _read_meta(path: Path) -> dict[str, Any]:
    try:
        obj = json.loads(meta_path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return {}
    return obj if isinstance(obj, dict) else {}


def _write_meta(path: Path, **fields: Any) -> None:
    meta = _read_meta(path)
    meta.update(fields)
    with contextlib.suppress(OSError):  # only a cache and a label: the game itself is the recording
        meta_path(path).write_text(json.dumps(meta, sort_keys=True) + "\n", encoding="utf-8")


def remember_seed(path: Path, text: str) -> None:
    """Keep the seed as typed beside the recording ``path``."""
    _write_meta(path, seed_text=text.strip()[:40])


def seed_label(path: Path, seed: int) -> str:
    text = _read_meta(path).get("seed_text")
    return text if isinstance(text, str) and text else str(seed)


def _date(mtime: float) -> str:
    return datetime.datetime.fromtimestamp(mtime).strftime("%Y-%m-%d %H:%M")


def _recordings(directory: Path) -> list[Path]:
    try:
        return sorted(p for p in directory.glob(f"*{record.SUFFIX}") if p.is_file())
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
    return GameInfo(path, h.ruleset, h.seed, seed_label(path, h.seed), result, rec.turns, _date(mtime),
                    mtime=mtime)


def _fill_progress(info: GameInfo, content: Content | None) -> None:
    """Level and HP of an unfinished game: from the cache, or by replaying it (then cached)."""
    meta = _read_meta(info.path)
    try:
        size = info.path.stat().st_size
    except OSError:
        return
    cached = meta.get("progress")
    if isinstance(cached, dict) and cached.get("size") == size and cached.get("v") == 2:
        level, hp = cached.get("level"), cached.get("hp")
        info.level = level if isinstance(level, int) else None
        info.hp = hp if isinstance(hp, str) else ""
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
        f" ({len(alive)} of {len(st.party)} up)" if len(alive) < len(st.party) else "")
    _write_meta(info.path, progress={"v": 2, "size": size, "level": info.level, "hp": info.hp})


def unfinished(directory: Path | None = None, content: Content | None = None,
               notes: list[str] | None = None) -> list[GameInfo]:
    """The games that can be continued, newest first."""
    d = record.saves_dir() if directory is None else Path(directory)
    notes = notes if notes is not None else []
    out = []
    for p in _recordings(d):
        if record._status(p) != "open":
            if record._status(p) is None:
                notes.append(f"skipped {p.name}: not an Undercroft recording")
            continue
        info = _info(p, notes)
        if info is None or info.result != "playing":
            continue
        _fill_progress(info, content)
        out.append(info)
    out.sort(key=lambda i: (i.mtime, i.path.name), reverse=True)
    return out


def abandon(path: Path) -> Path:
    """Move an unfinished game (and its sidecar files) into ``saves/abandoned/``; returns its new path."""
    dest_dir = path.parent / ABANDONED
    dest_dir.mkdir(parents=True, exist_ok=True)
    dest = dest_dir / path.name
    k = 2
    while dest.exists():
        dest = dest_dir / f"{path.stem}-{k}{path.suffix}"
        k += 1
    for extra in (meta_path(path), record.crash_report_path(path)):
        if extra.exists():
            os.replace(extra, dest_dir / (dest.stem + extra.name[len(path.stem):]))
    os.replace(path, dest)
    return dest


_KILLED = re.compile(r"^Killed by (.+) on turn \d+\.$")
_DEPTH = re.compile(r"^Depth: level (\d+) ")


def _morgue_facts(morgue: Path) -> tuple[int | None, str]:
    level, cause = None, ""
    try:
        with open(morgue, encoding="utf-8", errors="replace") as fh:
            for _, line in zip(range(12), fh, strict=False):
                line = line.strip()
                if m := _KILLED.match(line):
                    cause = m.group(1)
                elif m := _DEPTH.match(line):
                    level = int(m.group(1))
                elif line.startswith(("You have won", "The last of", "You went out")) and not cause:
                    cause = "won" if line.startswith("You have won") else cause
    except OSError:
        pass
    return level, cause


def past_games(directory: Path | None = None, morgue_dir: Path | None = None, content: Content | None = None,
               notes: list[str] | None = None, sort: str = "date") -> list[GameInfo]:
    """Every game that is over (dead, won, crashed) or abandoned, with level and cause from its morgue file.

    ``sort``: ``date`` (newest first) or ``depth`` (deepest first, then most turns: a high-score table)."""
    from undercroft.paths import user_data_dir

    d = record.saves_dir() if directory is None else Path(directory)
    morgues = user_data_dir() / "morgue" if morgue_dir is None else Path(morgue_dir)
    notes = notes if notes is not None else []
    out: list[GameInfo] = []
    for abandoned, folder in ((False, d), (True, d / ABANDONED)):
        for p in _recordings(folder):
            status = record._status(p)
            if status is None:
                notes.append(f"skipped {p.name}: not an Undercroft recording")
                continue
            if status == "open" and not abandoned:
                continue
            info = _info(p, notes, abandoned=abandoned)
            if info is None:
                continue
            level, cause = _morgue_facts(morgues / f"morgue-{p.stem}.txt")
            info.level, info.cause = level, cause
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


def ruleset_title(content: Content | None, ruleset: str) -> str:
    if content is not None and ruleset in content.rulesets:
        return content.rulesets[ruleset].title
    return ruleset


COLUMNS = ("date", "ruleset", "seed", "result", "level", "turns", "cause")


def table_rows(games: list[GameInfo], content: Content | None = None) -> list[tuple[str, ...]]:
    return [(g.date, ruleset_title(content, g.ruleset), g.seed_text, g.result,
             str(g.level) if g.level is not None else "?", str(g.turns), g.cause) for g in games]


def format_table(games: list[GameInfo], content: Content | None = None, *, max_width: int = 0) -> list[str]:
    """The past-games table as aligned text lines (a header line first)."""
    rows = [tuple(c.capitalize() for c in COLUMNS), *table_rows(games, content)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(COLUMNS) - 1)]
    lines = []
    for r in rows:
        line = "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=False)) + "  " + r[-1]
        lines.append(line.rstrip()[:max_width] if max_width else line.rstrip())
    return lines
