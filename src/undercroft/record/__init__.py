"""Recordings: every game is written down as it is played, and the saved game IS its recording.

A recording is a text file of lines (see docs/REPLAY.md), format 3 (:data:`FORMAT_VERSION`):

* line 1, the **header** (a JSON object): format version, game version, ruleset, the digest of the data files, the
  seed, the Python, numpy and tcod versions, the digest of the starting state and the names of the state's parts;
* one line per **accepted action**, plain text: ``TURN TYPE FIELDS... DIGEST HASH`` (``17 move 1 0 7bdc...d4
  1a2b3c4d``): its turn, the action (:func:`~undercroft.rules.actions.action_to_text`), the state's digest after it
  (:meth:`Game.digest <undercroft.rules.game.Game.digest>`: one short hash per part of the state, so that a desync
  report can say which part differs) and the chained hash;
* at most one last line (a JSON object): **end** (the game was lost or won: the floor is discarded) or **crash**
  (the action during which the engine raised; replaying the recording raises again at that turn).

Every line carries a hash chained over the previous line's hash and the line's own content (blake2b: ``HASH``, 8
hex digits, ending an action line; ``"hash"``, 12, in a JSON line): a line that was edited, dropped or moved is
caught when the file is loaded, with its line number. It is an integrity check, not a signature.

Formats 1 and 2 (every line a JSON object; an action line holds the action as a dict, ``Game.checksum()`` of the
state after it and 2-byte digests of its parts) are still read, replayed and verified as they always were; only
format 3 is written: a game of format 1 or 2 that is continued (:meth:`Recorder.append_to`) is first written again
in format 3 (:meth:`Recorder.upgrade`), whole, in place.

Lines are written whole with one ``os.write`` on a file opened for appending (and optionally ``fsync``-ed), one
per action, so a crash never leaves a file that cannot be loaded up to its last action (the bot's games gather a
few dozen action lines a write: ``Recorder.create(..., batch=)``). A write that fails (a full
disk) is cut back to the last whole line and kept in memory, to be written first once writing works again
(:attr:`Recorder.error`, :attr:`Recorder.pending`, :meth:`Recorder.flush_pending`). Loading never runs code from
the file: only a regular file of at most :data:`MAX_FILE` bytes is opened (never a FIFO or a device), it is plain
JSON or plain text (no pickle), each line is at most :data:`MAX_LINE` bytes, and every field is checked, types
included. Text read from a file is shown through :func:`printable`. A game is rebuilt from ``(content, ruleset,
seed)`` and its actions are re-applied: replays are bit-exact.

The package: :mod:`~undercroft.record.format` (the constants, :class:`Header`, :class:`Recording`, the errors, the
hash chains), :mod:`~undercroft.record.writer` (:class:`Recorder`, :func:`play_step`, crash reports),
:mod:`~undercroft.record.reader` (:func:`load_recording`, :func:`open_regular`, :func:`stream_recording`) and
:mod:`~undercroft.record.replay` (:func:`replay`, :func:`replay_file`: the same while the file is read, memory flat;
:func:`compatibility`, :func:`state_summary`). Where saved games
go (``saves_dir``, ``new_save_path``, ``latest_unfinished``) and the past games are :mod:`undercroft.record.saves`
(what each recording showed: :mod:`~undercroft.record.save_index`; one writer per game:
:mod:`~undercroft.record.lock`); the tools over recordings, :mod:`~undercroft.record.shrink` (``replay
--shrink``) and :mod:`~undercroft.record.diff` (``replay --diff``).
"""

from __future__ import annotations

from undercroft.printable import printable
from undercroft.record.format import (
    FORMAT_VERSION,
    KNOWN_PARTS,
    MAX_FILE,
    MAX_LINE,
    RULES_REVISION,
    Desync,
    Header,
    Recording,
    RecordingError,
    SaveError,
    installed_versions,
)
from undercroft.record.reader import load_recording, open_regular, stream_recording
from undercroft.record.replay import compatibility, replay, replay_file, state_summary
from undercroft.record.writer import Recorder, crash_report_path, now_utc, play_step, write_side_file

__all__ = [
    "FORMAT_VERSION",
    "KNOWN_PARTS",
    "MAX_FILE",
    "MAX_LINE",
    "RULES_REVISION",
    "Desync",
    "Header",
    "Recorder",
    "Recording",
    "RecordingError",
    "SaveError",
    "compatibility",
    "crash_report_path",
    "installed_versions",
    "load_recording",
    "now_utc",
    "open_regular",
    "play_step",
    "printable",
    "replay",
    "replay_file",
    "state_summary",
    "stream_recording",
    "write_side_file",
]
