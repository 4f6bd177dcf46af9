"""Regenerate the golden recordings, ON PURPOSE: ``python tests/golden/regenerate.py``.

The golden recordings are short bot games (at most 300 actions) of three rulesets, each kept in two formats:
``tests/golden/NAME.jsonl`` in format 2 (JSON lines: what older saves hold) and ``tests/golden/v3/NAME.jsonl`` in
format 3 (the current one: text action lines). ``tests/test_record.py`` replays each with ``verify``: every state
checksum (format 2) and digest (format 3) must still match. A change to the rules, the data or the bot that breaks
them must update them in the same commit, and the commit message must say why the old games no longer replay
(which rule or number changed). ``--check`` only reports which ones would change (it writes to a temporary
directory).

The format 3 file is the bot's game as ``play_game`` records it; the format 2 file is the same actions written
again in format 2 by ``tests/format2.py`` (the game itself writes only format 3).
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
GOLDEN: list[tuple[str, int]] = [("undercroft", 1), ("citadel", 9), ("warden", 33)]
MAX_ACTIONS = 300
V3 = "v3"  # the folder of the format 3 recordings, inside the golden folder
FORMATS = (2, 3)


def path_for(ruleset: str, seed: int, directory: Path = HERE, fmt: int = 2) -> Path:
    """Where the golden recording of ``(ruleset, seed)`` in format ``fmt`` is, under ``directory``."""
    return (directory / V3 if fmt >= 3 else directory) / f"{ruleset}-{seed}.jsonl"


def regenerate(directory: Path = HERE, formats: tuple[int, ...] = FORMATS) -> list[Path]:
    """Play the golden games and write them under ``directory`` in each of ``formats``; returns the files."""
    if str(HERE.parent) not in sys.path:  # (tests/, for format2: run as a script, only this folder is on the path)
        sys.path.insert(0, str(HERE.parent))
    from format2 import as_format_2

    from undercroft.content import load_content
    from undercroft.paths import data_dir
    from undercroft.tools.autoplay import play_game

    content = load_content(data_dir())
    out = []
    for ruleset, seed in GOLDEN:
        v3 = path_for(ruleset, seed, directory, 3)
        v3.parent.mkdir(parents=True, exist_ok=True)
        play_game(content, ruleset, seed, record=str(v3), max_actions=MAX_ACTIONS)
        if 2 in formats:
            out.append(as_format_2(content, v3, path_for(ruleset, seed, directory, 2)))
        if 3 in formats:
            out.append(v3)
        else:
            v3.unlink()
    return out


def golden_files(directory: Path = HERE) -> list[Path]:
    """The golden recordings under ``directory``, both formats."""
    return sorted(directory.glob("*.jsonl")) + sorted((directory / V3).glob("*.jsonl"))


def main(argv: list[str]) -> int:
    import tempfile

    from undercroft.record import RecordingError, load_recording

    def final(p: Path) -> str:
        try:
            rec = load_recording(p)
        except RecordingError as exc:
            return f"unreadable ({exc.message})"
        return f"{len(rec.actions)} actions, final {rec.actions[-1][2] if rec.actions else rec.header.start}"

    check = "--check" in argv
    target = Path(tempfile.mkdtemp()) if check else HERE
    before = {p.relative_to(HERE).as_posix(): final(p) for p in golden_files(HERE)}
    for p in regenerate(target):
        name = p.relative_to(target).as_posix()
        now, was = final(p), before.get(name, "(new)")
        print(f"{name}: {'unchanged' if now == was else f'{was} -> {now}'}")
    if not check:
        print("Commit the new files with a message that says why the old recordings no longer replay.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
