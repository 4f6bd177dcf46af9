"""``undercroft replay FILE --shrink`` and ``undercroft replay A --diff B`` (docs/REPLAY.md): the replay's two
debugging tools, called by :mod:`undercroft.cli.replay` once the recordings are loaded.

Exit status: 0 a shrunk recording written (or two recordings that replay the same), 1 two recordings that
differ (or a recorded crash or event that does not happen: nothing to shrink), 2 a file or argument that cannot be
used (one line, never a traceback).
"""

from __future__ import annotations

import argparse
import difflib
import os
from pathlib import Path
from typing import TYPE_CHECKING

from undercroft.cli.common import EXIT_FAIL, EXIT_OK, UserError
from undercroft.printable import printable

if TYPE_CHECKING:
    from undercroft.content import Content
    from undercroft.record import Desync, Recording
    from undercroft.record.diff import Divergence
    from undercroft.record.shrink import Goal, Shrunk

# The options that print or show a replay: none goes with --shrink or --diff.
_VIEWS = ("verify", "events", "until", "watch", "play", "screenshot", "cast", "terminal", "log_level")


def check_options(args: argparse.Namespace) -> None:
    """--shrink and --diff alone (with --until-event and -o for --shrink), --until-event and -o only with
    --shrink: else a UserError."""
    given = [f"--{f.replace('_', '-')}" for f in _VIEWS if getattr(args, f, None) not in (None, False)]
    if args.shrink and args.diff is not None:
        raise UserError("choose one of --shrink, --diff")
    tool = "--shrink" if args.shrink else "--diff" if args.diff is not None else ""
    if tool and given:
        raise UserError(f"{tool} replays on its own: {given[0]} does not go with it")
    if not args.shrink:
        for flag, value in (("--until-event", args.until_event), ("-o", args.output)):
            if value is not None:
                raise UserError(f"{flag} goes with --shrink")


# --- --shrink ------------------------------------------------------------------------------------------------


def cmd_shrink(args: argparse.Namespace, path: Path, rec: Recording, content: Content) -> int:
    """Shrink ``rec`` to the fewest actions that still reach ``--until-event``'s event, or raise its recorded
    crash (or an exception its replay raises now), or (neither) desync; write it to ``-o`` (default beside FILE as
    NAME.shrunk.EXT)."""
    from undercroft.record import Desync
    from undercroft.record.shrink import MAX_REPLAYS, Goal

    goal = _goal(args, rec)
    if goal is None:
        found = _verify(path, rec, content)
        if isinstance(found, Desync):
            return _cut_at_desync(path, found, _output(args, path, None))
        goal = Goal("crash", type(found).__name__)
    out = _output(args, path, goal)
    result = _run_shrink(rec, content, goal)
    if result is None:
        what = (
            f"the recorded crash ({goal.name}) does not happen again"
            if goal.kind == "crash"
            else f"no '{goal.name}' event in its replay"
        )
        raise UserError(printable(f"{path}: {what}: nothing to shrink"), EXIT_FAIL)
    _write(out, content, rec, result)
    how = (
        "no single one can be left out"
        if result.minimal
        else f"stopped at the cap of {MAX_REPLAYS}: perhaps not minimal"
    )
    print(
        printable(
            f"{out}: {len(result.actions)} of {result.original} actions, and it still {goal} "
            f"({how}; {result.replays} replays of {path})"
        )
    )
    return EXIT_OK


def _verify(path: Path, rec: Recording, content: Content) -> Exception:
    """What ``replay --verify`` finds in a recording without a crash line: its first :class:`Desync`, or the
    exception the engine raises now; a UserError when it replays and verifies."""
    from undercroft.record import replay

    try:
        replay(content, rec, verify=True)
    except Exception as exc:  # a Desync, or the engine raising (a bug since it was recorded): either is shrunk
        return exc
    raise UserError(
        printable(
            f"{path}: it replays and verifies: no crash or desync to shrink "
            "(--until-event TYPE shrinks it to the first event of TYPE)"
        )
    )


def _goal(args: argparse.Namespace, rec: Recording) -> Goal | None:
    """--until-event's event, else the recorded crash, else None (a desync or a new crash, to be found)."""
    from undercroft.narrate.levels import EVENT_LEVELS
    from undercroft.record.shrink import Goal

    kind: str | None = args.until_event
    if kind is not None:
        if kind == "refused":
            raise UserError("--until-event refused: a refused action is never recorded (choose another event type)")
        if kind not in EVENT_LEVELS:
            near = difflib.get_close_matches(kind, list(EVENT_LEVELS), n=3, cutoff=0.7)
            hint = (
                f"did you mean {', '.join(near)}?"
                if near
                else f"one of {', '.join(sorted(set(EVENT_LEVELS) - {'refused'}))}"
            )
            raise UserError(printable(f"--until-event: no event type '{kind}' ({hint}; docs/EVENTS.md)"))
        return Goal("event", kind)
    if rec.crash is not None:
        return Goal("crash", rec.crash["type"])
    return None


def _output(args: argparse.Namespace, path: Path, goal: Goal | None) -> Path:
    """-o OUT, refused if something is there; by default NAME.shrunk.EXT beside FILE (NAME.shrunk-2.EXT, ... when
    that is taken): never a file overwritten (for a crash, nor the crash report beside OUT)."""
    from undercroft.record import crash_report_path

    def taken(out: Path) -> bool:
        return os.path.lexists(out) or (goal is not None and goal.kind == "crash" and crash_report_path(out).exists())

    if args.output is not None:
        out = Path(args.output)
        if taken(out):
            raise UserError(
                printable(f"{out}: it (or its crash report) already exists: not overwritten (choose another -o OUT)")
            )
        return out
    for i in range(1, 1000):
        out = path.with_name(f"{path.stem}.shrunk{'' if i == 1 else f'-{i}'}{path.suffix}")
        if not taken(out):
            return out
    raise UserError(printable(f"{path}: every name NAME.shrunk-N beside it is taken (choose -o OUT)"))


def _run_shrink(rec: Recording, content: Content, goal: Goal) -> Shrunk | None:
    from undercroft.cli.progress import Bar, wanted
    from undercroft.record.shrink import shrink

    actions = [a for _, a, _ in rec.actions]
    if goal.kind == "crash" and rec.crash is not None:
        actions.append(rec.crash["action"])
    shown = [len(actions)]
    with Bar(len(actions), "shrinking", unit="action", enabled=wanted()) as bar:

        def progress(length: int, replays: int) -> None:
            bar.update(shown[0] - length, note=f"{length} actions, {replays} replays")
            shown[0] = length

        return shrink(content, rec.header.ruleset, rec.header.seed, actions, goal, progress=progress)


def _write(out: Path, content: Content, rec: Recording, result: Shrunk) -> None:
    """The shrunk actions as a new recording at ``out``, as the game records one (a crash: its crash line and its
    crash report beside it)."""
    from undercroft.record import Recorder, SaveError, play_step
    from undercroft.rules.game import Game

    game = Game(content, rec.header.ruleset, rec.header.seed)
    try:
        recorder = Recorder.create(out, game, content)
    except SaveError as exc:
        raise UserError(str(exc)) from None
    with recorder:
        for action in result.actions:
            try:
                play_step(game, recorder, action)
            except Exception:  # the crash being kept: the recorder wrote it down
                break
    if recorder.error is not None:
        out.unlink(missing_ok=True)
        raise UserError(printable(f"{out}: cannot save: {recorder.error}"))


def _cut_at_desync(path: Path, desync: Desync, out: Path) -> int:
    """Cut FILE after the line where it first desyncs (a desync cannot be shrunk further: with an action left out,
    the recording holds no digest to compare the state with)."""
    from undercroft.record import RecordingError, open_regular

    line = desync.line
    try:
        with open_regular(path) as fh:
            lines = fh.read().splitlines(keepends=True)
    except (RecordingError, OSError) as exc:
        raise UserError(printable(str(exc))) from None
    if line >= len(lines):
        raise UserError(printable(f"{path}:{line}: the desync is in its last line: nothing shorter"), EXIT_FAIL)
    try:
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
    except OSError as exc:
        raise UserError(printable(f"{out}: cannot save: {exc.strerror or exc}")) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(b"".join(lines[:line]))
    except OSError as exc:
        out.unlink(missing_ok=True)
        raise UserError(printable(f"{out}: cannot save: {exc.strerror or exc}")) from None
    print(
        printable(
            f"{out}: the first {line} of {len(lines)} lines of {path}, to its first desync (line {line}, "
            f"turn {desync.turn}: {', '.join(desync.parts)}); a desync is cut, not shrunk"
        )
    )
    return EXIT_OK


# --- --diff --------------------------------------------------------------------------------------------------


def cmd_diff(path: Path, rec: Recording, other: Path, rec_b: Recording, content: Content) -> int:
    """Replay FILE and B side by side; print the first actions and the first state that differ."""
    from undercroft.record.diff import diverge

    ha, hb = rec.header, rec_b.header
    if (ha.seed, ha.ruleset) != (hb.seed, hb.ruleset):
        raise UserError(
            printable(
                f"{path} and {other} are not the same game (seed {ha.seed}, ruleset {ha.ruleset} | seed {hb.seed}, "
                f"ruleset {hb.ruleset}): nothing to compare"
            )
        )
    d = diverge(content, rec, rec_b)
    marks = _marks(rec, rec_b)
    for line in _report(path, rec, other, rec_b, d) + marks:
        print(printable(line))
    same = (
        d.action_turn is None
        and d.state_turn is None
        and d.recorded_turn is None
        and not d.stopped
        and _length(rec) == _length(rec_b)
        and not marks
    )
    return EXIT_OK if same else EXIT_FAIL


def _marks(a: Recording, b: Recording) -> list[str]:
    """What the two files say of their games beyond the actions, where it differs: the end line, its score, the
    daily mark (``A | B``; ``-`` for none)."""
    out = []
    for what, va, vb in (
        ("end line", a.end or ("crash" if a.crash is not None else None), b.end or ("crash" if b.crash else None)),
        ("score", a.score, b.score),
        ("daily mark", a.header.daily or None, b.header.daily or None),
    ):
        if va != vb:
            out.append(f"the {what} differs (A | B): {'-' if va is None else va} | {'-' if vb is None else vb}")
    return out


def _length(rec: Recording) -> int:
    return len(rec.actions) + (rec.crash is not None)


def _report(path: Path, rec: Recording, other: Path, rec_b: Recording, d: Divergence) -> list[str]:
    from undercroft.rules.actions import action_to_text

    out = []
    if d.action_turn is not None:
        a, b = d.actions
        line = d.action_turn + 1
        out += [
            f"the actions first differ at turn {d.action_turn}:",
            f"  {path}:{line}: {action_to_text(a) if a else '-'}",
            f"  {other}:{line}: {action_to_text(b) if b else '-'}",
        ]
    if d.state_turn is not None:
        out.append(f"the states first differ after turn {d.state_turn}, in {', '.join(d.parts)} (values: A | B):")
        out += [f"  {x}" for x in d.details]
    elif d.stopped:
        out.append(f"the replay stopped: {d.stopped}")
    else:
        out.append(f"the states are the same after each of the {d.common} turns both have")
    if d.recorded_turn is not None and d.state_turn is None:
        out.append(
            f"but the digests the files carry first differ after turn {d.recorded_turn}, in "
            f"{', '.join(d.recorded_parts)}: they were recorded with other data or another version of the rules"
        )
    na, nb = _length(rec), _length(rec_b)
    if na != nb and d.state_turn is None and not d.stopped:
        longer, n = (path, na) if na > nb else (other, nb)
        out.append(f"{longer} goes on to turn {n}; the other ends at turn {d.common}")
    return out


__all__ = ["check_options", "cmd_diff", "cmd_shrink"]
