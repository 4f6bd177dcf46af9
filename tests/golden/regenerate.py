"""Regenerate the golden recordings, ON PURPOSE: ``python tests/golden/regenerate.py``.

The golden recordings are short bot games (at most 300 actions) of three rulesets. ``tests/test_record.py``
replays each with ``verify``: every state checksum must still match. A change to the rules, the data or the bot
that breaks them must update them in the same commit, and the commit message must say why the old games no
longer replay (which rule or number changed). ``--check`` only reports which ones would change.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
GOLDEN: list[tuple[str, int]] = [("undercroft", 1), ("citadel", 1), ("warden", 33)]
MAX_ACTIONS = 300


def path_for(ruleset: str, seed: int, directory: Path = HERE) -> Path:
    return directory / f"{ruleset}-{seed}.jsonl"


def regenerate(directory: Path = HERE) -> list[Path]:
    from undercroft.bot import play_game
    from undercroft.content import load_content
    from undercroft.paths import data_dir

    content = load_content(data_dir())
    out = []
    for ruleset, seed in GOLDEN:
        path = path_for(ruleset, seed, directory)
        play_game(content, ruleset, seed, record=str(path), max_actions=MAX_ACTIONS)
        out.append(path)
    return out


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
    before = {p.name: final(p) for p in HERE.glob("*.jsonl")}
    for p in regenerate(target):
        now, was = final(p), before.get(p.name, "(new)")
        print(f"{p.name}: {'unchanged' if now == was else f'{was} -> {now}'}")
    if not check:
        print("Commit the new files with a message that says why the old recordings no longer replay.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
