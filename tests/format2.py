"""Recordings of format 2 (JSON lines throughout), as older saves hold them: the game writes only format 3 now and
still reads formats 1 and 2, so the tests and the golden files write their own.

Every line is a canonical JSON object with its chain ``hash`` last: the header (``start`` the state's checksum,
``parts`` the canonical state's part names), one line per accepted action (the action as a dict, the state's
checksum and its parts' digests after it) and, when the game is over, the end line (its checksum). docs/REPLAY.md,
*Formats 1 and 2*, describes them.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from undercroft.content import Content
from undercroft.record import load_recording
from undercroft.record.format import MAGIC, _line, installed_versions, state_digests
from undercroft.rules.actions import Action, action_to_dict
from undercroft.rules.game import Game


def write_format_2(content: Content, ruleset: str, seed: int, actions: Iterable[Action], dst: Path) -> Path:
    """The game of ``(ruleset, seed)`` played through ``actions`` (each must be accepted), recorded at ``dst`` in
    format 2."""
    game = Game(content, ruleset, seed)
    v = installed_versions()
    header: dict[str, Any] = {"recording": MAGIC, "format": 2, "game_version": v["game"], "ruleset": ruleset}
    header |= {"data_digest": content.digest, "seed": seed, "python": v["python"], "numpy": v["numpy"]}
    header |= {"tcod": v["tcod"], "start": state_digests(game)[0], "parts": sorted(game.canonical())}
    objs = [header]
    for action in actions:
        events = game.step(action)
        assert not (len(events) == 1 and events[0].type == "refused"), f"refused at turn {game.state.turn}: {action}"
        total, parts = state_digests(game)
        objs.append({"turn": game.state.turn, "action": action_to_dict(action), "checksum": total, "parts": parts})
        if game.over:
            objs.append({"end": game.state.mode, "turn": game.state.turn, "checksum": game.checksum()})
    prev, out = "", []
    for obj in objs:
        prev, data = _line(prev, obj)
        out.append(data)
    dst.write_bytes(b"".join(out))
    return dst


def as_format_2(content: Content, src: Path, dst: Path) -> Path:
    """The game of recording ``src`` recorded again at ``dst`` in format 2, as an older save holds it."""
    rec = load_recording(src)
    return write_format_2(content, rec.header.ruleset, rec.header.seed, (a for _, a, _ in rec.actions), dst)
