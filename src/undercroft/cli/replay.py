"""``undercroft replay FILE``: seeded replays for debugging (docs/REPLAY.md).

Exit status: 0 fine, 1 a desync (or a crash reproduced), 2 a file or argument that cannot be used (one
``FILE:LINE: message`` line, never a traceback).
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from undercroft import paths
from undercroft.cli.common import EXIT_FAIL, EXIT_OK, UserError, add_data_arg, load_data, say, whole
from undercroft.printable import printable

if TYPE_CHECKING:
    from undercroft.content import Content
    from undercroft.narrate import Level, Narrator
    from undercroft.record import Desync, Header, Recording
    from undercroft.rules.actions import Action
    from undercroft.rules.events import Event
    from undercroft.rules.game import Game

# ``--log-level``'s choices: :data:`undercroft.narrate.LEVELS`, spelled out here so that building the parser does
# not load the narration (tests/test_cli_startup.py checks that the two agree).
LOG_LEVELS: tuple[Level, ...] = ("player", "detail", "internal")


def _turn(text: str) -> int:
    return whole(text, 0, 10**12)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "replay",
        help="re-run a recording headless: print its log, verify it, or dump its events",
        description="Re-run a recorded game headless. Default: print the plain game log.",
    )
    p.add_argument("file", metavar="FILE", help="a recording (.jsonl): a saved game or an autoplay recording")
    p.add_argument(
        "--verify",
        action="store_true",
        help="check the state after every action (its digest; formats 1-2: its checksum); exit 1 at the "
        "first mismatch, naming turn, action and part",
    )
    p.add_argument("--events", action="store_true", help="print the engine's events as JSON lines")
    p.add_argument("--until", type=_turn, metavar="TURN", help="stop after turn TURN and print the state summary")
    p.add_argument(
        "--force",
        action="store_true",
        help="replay even a recording made with other rules data (other versions are only a warning)",
    )
    p.add_argument(
        "--watch",
        action="store_true",
        help="play it back in the window: pause, step, faster/slower, jump to a turn (from --until)",
    )
    p.add_argument(
        "--play",
        action="store_true",
        help="with --until: go on playing from that turn as a new recorded game (in the window, or --terminal)",
    )
    p.add_argument(
        "--screenshot",
        metavar="OUT.png",
        help="write a PNG of the screen at --until TURN (default: the end); opens no window",
    )
    p.add_argument(
        "--cast",
        metavar="OUT.cast",
        help="write the game as an asciinema v2 recording (the terminal's frames, ending on the end screen): "
        "asciinema play OUT.cast",
    )
    p.add_argument(
        "--speed",
        type=_positive,
        default=8.0,
        metavar="N",
        help="with --cast: recorded actions a second (default 8)",
    )
    p.add_argument(
        "--idle",
        type=_positive,
        default=2.0,
        metavar="S",
        help="with --cast: the longest a frame is held, in seconds (default 2; asciinema's idle_time_limit)",
    )
    p.add_argument(
        "--terminal",
        action="store_true",
        help="with --watch or --play: in this terminal instead of a window (chosen by itself with no display)",
    )
    p.add_argument(
        "--log-level",
        choices=LOG_LEVELS,
        default=None,
        metavar="{" + ",".join(LOG_LEVELS) + "}",
        help="how much of the plain log to print: player (what a player reads), detail (and the rolls "
        "behind it), internal (and the rules' own working; the default). Above player, a detail "
        "line is marked with an indented '.', an internal one with an indented ':'",
    )
    p.add_argument(
        "--shrink",
        action="store_true",
        help="write the shortest recording that still raises its recorded crash, reaches --until-event's event, "
        "or (neither) desyncs: delta debugging over its actions (docs/REPLAY.md)",
    )
    p.add_argument(
        "--until-event",
        metavar="TYPE",
        help="with --shrink: keep what reaches the first event of TYPE (docs/EVENTS.md: death, kill, combat, ...)",
    )
    p.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help="with --shrink: the recording to write (default: FILE's NAME.shrunk.EXT beside it); never overwritten",
    )
    p.add_argument(
        "--diff",
        metavar="B",
        help="replay FILE and recording B (the same seed) side by side: the first actions and the first state "
        "(turn, part, values) that differ",
    )
    add_data_arg(p)
    p.set_defaults(handler=cmd_replay)


def cmd_replay(args: argparse.Namespace) -> int:
    from undercroft.cli import replay_tools

    path = Path(args.file)
    if not path.exists():  # a save named by the start of its file name (as the recap's play-on command does)
        path = paths.find_recording(args.file) or path
    replay_tools.check_options(args)
    level = _log_level(args)
    if not (
        args.shrink or args.diff is not None or args.watch or args.play or args.screenshot or args.terminal or args.cast
    ):
        return _replay_as_read(args, path, level)
    rec, content = _load(args, path)
    if args.shrink:
        return replay_tools.cmd_shrink(args, path, rec, content)
    if args.diff is not None:
        other = Path(args.diff)
        return replay_tools.cmd_diff(path, rec, other, _load(args, other, content)[0], content)
    return _show(args, content, path)


def _replay_as_read(args: argparse.Namespace, path: Path, level: Level) -> int:
    """The plain log, ``--events``, ``--verify`` and ``--until``: the recording read twice, kept neither time, so
    memory stays flat however long it is: first checked whole (every line, the hash chain, the header against the
    data: a bad file prints nothing but its one line), then replayed as it is read
    (:func:`undercroft.record.replay_file`)."""
    from undercroft.narrate import Narrator
    from undercroft.record import Desync, RecordingError, replay_file, stream_recording

    content = load_data(args)
    try:
        rec, _, _ = stream_recording(
            path, lambda h: _check_header(args, path, h, content), lambda turn, action, chk, parts: None
        )
    except RecordingError as exc:
        raise UserError(str(exc)) from None
    out = sys.stdout
    printer = _printer(
        out,
        Narrator(content, rec.header.ruleset),
        events=args.events,
        log=not args.events and not args.verify,
        level=level,
    )
    seen = [0, 0]  # the last turn replayed, and how many actions

    def on_events(turn: int, action: Action, evs: list[Event]) -> None:
        seen[0], seen[1] = turn, seen[1] + 1
        if printer is not None:
            printer(turn, action, evs)

    try:
        rec, game = replay_file(content, path, verify=args.verify, until=args.until, on_events=on_events)
    except RecordingError as exc:  # (it changed under us between the two readings)
        raise UserError(str(exc)) from None
    except Desync as exc:
        _say_desync(path, exc)
        return EXIT_FAIL
    except Exception as exc:
        # The engine raised: show it as it did (this is the bug being debugged), then say where.
        out.flush()
        for chunk in traceback.format_exception(exc):
            for text in chunk.rstrip("\n").split("\n"):
                say(text)
        _say_where_it_raised(path, rec, exc, seen[0] + 1)
        return EXIT_FAIL
    _say_the_end(args, path, rec, game, out, actions=seen[1], last_turn=seen[0])
    return EXIT_OK


def _log_level(args: argparse.Namespace) -> Level:
    """``--log-level`` (default internal), refused with the options that print no plain log."""
    if args.log_level is not None:
        other = [
            f"--{f}" for f in ("events", "verify", "watch", "play", "screenshot", "terminal") if getattr(args, f, None)
        ]
        if other:
            raise UserError(f"--log-level chooses the lines of the plain log, which {other[0]} does not print")
    level: Level = args.log_level or "internal"
    return level


def _load(args: argparse.Namespace, path: Path, content: Content | None = None) -> tuple[Recording, Content]:
    """The recording and the data to replay it with (``content``, or loaded), or a UserError: a recording that
    cannot be read, a ruleset the data lacks, other rules data without ``--force``. Every other difference is a
    warning, named before replaying: other rules data is refused (its replay may diverge), other versions (game,
    Python, numpy, tcod) are not."""
    from undercroft.record import RecordingError, load_recording

    try:
        rec = load_recording(path)
    except RecordingError as exc:
        raise UserError(str(exc)) from None
    if content is None:
        content = load_data(args)
    _check_header(args, path, rec.header, content)
    return rec, content


def _check_header(args: argparse.Namespace, path: Path, header: Header, content: Content) -> None:
    """A UserError for a ruleset the data lacks, or other rules data without ``--force``; every other difference is
    a warning, named before replaying."""
    from undercroft.record import compatibility

    if header.ruleset not in content.rulesets:
        raise UserError(
            printable(f"{path}:1: ruleset '{header.ruleset}' is not in this data ({', '.join(content.rulesets)})")
        )
    for difference in compatibility(header, content.digest):
        say(f"undercroft: warning: {path}: recorded elsewhere: {difference}")
    if header.data_digest != content.digest and not args.force:
        raise UserError(
            printable(
                f"{path}:1: refusing to replay a recording made with other rules data: its "
                "replay may diverge (--force to replay it anyway, --data DIR for its data)"
            )
        )


def _say_desync(path: Path, exc: Desync) -> None:
    from undercroft.rules.actions import action_to_dict

    line = f"{path}:{exc.line}" if exc.line else str(path)
    action = json.dumps(action_to_dict(exc.action), sort_keys=True) if exc.action is not None else "(none)"
    say(f"undercroft: {line}: desync at turn {exc.turn}: action {action}: the state differs in: {', '.join(exc.parts)}")


def _say_where_it_raised(path: Path, rec: Recording, exc: Exception, turn: int) -> None:
    """The engine raised at ``turn``: the recorded crash reproduced (or another exception there), or a new one."""
    crash = rec.crash
    what = f"{type(exc).__name__}: {exc}"
    if crash is not None and crash["turn"] == turn:
        same = type(exc).__name__ == crash["type"]
        say(
            f"undercroft: {path}:{crash['line']}: the recorded crash "
            + (
                f"reproduced at turn {turn}: {what}"
                if same
                else f"at turn {turn} raised {what} (recorded: {crash['type']}: {crash['message']})"
            )
        )
    else:
        say(
            f"undercroft: {path}:{turn + 1}: the engine raised at turn {turn}, where the recording has no crash: {what}"
        )


def _say_the_end(
    args: argparse.Namespace,
    path: Path,
    rec: Recording,
    game: Game,
    out: TextIO,
    *,
    actions: int | None = None,
    last_turn: int | None = None,
) -> None:
    """After a replay that ran: a recorded crash that did not come again, then ``--until``'s state summary or
    ``--verify``'s verdict. ``actions``, ``last_turn``: how many actions a replay as read applied and the last
    one's turn (its recording keeps none)."""
    from undercroft.record import state_summary

    count = len(rec.actions) if actions is None else actions
    turns = rec.turns if last_turn is None else last_turn
    if rec.crash is not None and (args.until is None or rec.crash["turn"] <= args.until):
        say(
            f"undercroft: {path}:{rec.crash['line']}: the recorded crash ({rec.crash['type']}: "
            f"{rec.crash['message']}) did not happen again at turn {rec.crash['turn']}"
        )
    if args.until is not None:
        if args.until > turns and not (rec.crash and args.until >= rec.crash["turn"]):
            say(f"undercroft: note: {path}: the recording ends at turn {turns}")
        print(state_summary(game), file=out)
    elif args.verify:
        status = f"finished: {rec.end}" if rec.finished else "unfinished"
        final = f"final digest {game.digest()}" if rec.header.format >= 3 else f"final checksum {game.checksum()}"
        print(f"{printable(str(path))}: ok: {count} actions verified ({status}); {final}", file=out)


def _show(args: argparse.Namespace, content: Content, path: Path) -> int:
    """``--watch`` (in the window, or in this terminal: ``--terminal``, or by itself with no display but a
    terminal), ``--play`` (the same choice of front end) or ``--screenshot`` (no window), from ``--until TURN``:
    errors become one ``undercroft: ...`` line (a UserError), never a traceback."""
    from undercroft import record
    from undercroft.cli.common import check_output
    from undercroft.term.app import TERMINAL_HINT, choose
    from undercroft.ui import loop
    from undercroft.ui.app import NO_DISPLAY, NoDisplay
    from undercroft.ui.frontend import FrontEndOptions
    from undercroft.ui.replay_view import screenshot
    from undercroft.ui.tiles import TilesetMissing

    if args.terminal and not (args.watch or args.play):
        raise UserError("--terminal goes with --watch or --play")
    chosen = [f for f in ("watch", "play", "screenshot", "cast") if getattr(args, f, None)]
    if len(chosen) > 1:
        raise UserError(f"choose one of --{', --'.join(chosen)}")
    until: int | None = args.until
    try:
        if args.watch:
            try:
                front_end = choose(FrontEndOptions(terminal=args.terminal))
            except ValueError as exc:
                raise UserError(str(exc)) from None
            return loop.watch(front_end, content, path, loop.WatchOptions(start=until or 0))
        if args.play:
            if until is None:
                raise UserError("--play needs --until TURN: the turn to branch from")
            try:
                front_end = choose(FrontEndOptions(terminal=args.terminal))
            except ValueError as exc:
                raise UserError(str(exc)) from None
            return loop.branch_play(front_end, content, path, until)
        if args.cast:
            return _cast(args, content, path)
        check_output(Path(args.screenshot))  # before the replay: a bad path costs nothing
        out = screenshot(content, path, until, args.screenshot)
        print(printable(f"{out}: the screen at turn {until if until is not None else 'end'} of {path}"))
        return EXIT_OK
    except NoDisplay:
        raise UserError(NO_DISPLAY + TERMINAL_HINT) from None
    except TilesetMissing as exc:
        raise UserError(printable(str(exc))) from None
    except record.RecordingError as exc:
        raise UserError(str(exc)) from None
    except record.Desync as exc:
        raise UserError(printable(f"{path}: {exc}"), EXIT_FAIL) from None
    except OSError as exc:
        raise UserError(printable(f"{exc.filename or path}: {exc.strerror or exc}")) from None


def _cast(args: argparse.Namespace, content: Content, path: Path) -> int:
    """``--cast OUT.cast``: the game as an asciinema v2 recording (:mod:`undercroft.term.cast`)."""
    from undercroft.cli.common import check_output
    from undercroft.term.cast import CastOptions, write_cast

    if args.until is not None:
        raise UserError("--cast records the whole game: --until does not go with it")
    out = Path(args.cast)
    check_output(out)
    frames = write_cast(content, path, out, CastOptions(speed=args.speed, idle=args.idle))
    print(printable(f"{out}: {frames} frames of {path} (asciinema play {out})"))
    return EXIT_OK


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value <= 10_000:
        raise argparse.ArgumentTypeError(f"not a positive number: {text!r}")
    return value


# The plain log's mark of a line's level, at its start, when more than the player's lines are printed: a player
# line as it is, a detail line indented under it with a dot, an internal line with a colon (docs/REPLAY.md).
LEVEL_MARKS: dict[Level, str] = {"player": "", "detail": "  . ", "internal": "  : "}


def _printer(
    out: TextIO, narrator: Narrator, *, events: bool, log: bool, level: Level = "internal"
) -> Callable[[int, Action, list[Event]], None] | None:
    if events:

        def dump(turn: int, action: Action, evs: list[Event]) -> None:
            for ev in evs:
                text = narrator.text(ev)
                line = {"turn": turn, **ev.as_dict(), **({"text": text} if text else {})}
                out.write(json.dumps(line, separators=(",", ":")) + "\n")

        return dump
    if log:
        shown = LOG_LEVELS[: LOG_LEVELS.index(level) + 1]
        marks = LEVEL_MARKS if level != "player" else dict.fromkeys(LOG_LEVELS, "")

        from undercroft.narrate import untold

        unseen: set[int] = set()  # the groups come upon out of sight: the log tells nothing of them until met

        def write(turn: int, action: Action, evs: list[Event]) -> None:
            hidden = untold(evs, unseen)
            for i, ev in enumerate(evs):
                text = "" if i in hidden else narrator.text(ev)
                if not text:
                    continue
                lv = narrator.level(ev)
                if lv in shown:
                    out.write(marks[lv] + text + "\n")

        return write
    return None


__all__ = ["LOG_LEVELS", "cmd_replay", "register"]
