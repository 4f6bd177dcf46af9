"""Replaying a recording: :func:`replay` rebuilds the game and re-applies its actions (verifying the state after
each, if asked), :func:`compatibility` names what differs between the recording's installation and this one, and
:func:`state_summary` describes a game's state in a few lines for a human."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from undercroft.content import Content
from undercroft.printable import printable
from undercroft.record.format import (
    _PART_BYTES,
    RULES_REVISION,
    Desync,
    Header,
    Recording,
    _part_names,
    describe_action,
    installed_versions,
    state_digests,
)
from undercroft.record.reader import stream_recording
from undercroft.rules.actions import Action
from undercroft.rules.digest import PARTS, differing
from undercroft.rules.events import Event, Refused
from undercroft.rules.game import Game
from undercroft.rules.names import the
from undercroft.rules.rng import parse_seed
from undercroft.rules.scoring import score_card
from undercroft.rules.types import Mode


def compatibility(header: Header, data_digest: str) -> list[str]:
    """One line for a human per difference between the recording of ``header`` and this installation, [] when
    they all match: the rules revision (where the header has one), the rules data (``data_digest``:
    ``Content.digest`` of the data in use), then the game, Python,
    numpy and tcod versions. For example::

        rules data: recorded with 84a4..., this data is 833f...
        game version 0.3.0 → 0.4.0
        Python 3.11.7 → 3.12.1

    A version the header does not record (tcod, before format 2) is not a difference. Only other rules data is
    known to change a replay; the versions are listed so that a desync can be told apart from a bug. Every line is
    :func:`printable`."""
    v = installed_versions()
    out = []
    if header.rules_revision and header.rules_revision != RULES_REVISION:
        out.append(f"rules revision: recorded with revision {header.rules_revision}, this game is {RULES_REVISION}")
    if header.data_digest != data_digest:
        out.append(f"rules data: recorded with {header.data_digest}, this data is {data_digest}")
    for label, recorded, now in (
        ("game version", header.game_version, v["game"]),
        ("Python", header.python, v["python"]),
        ("numpy", header.numpy, v["numpy"]),
        ("tcod", header.tcod, v["tcod"]),
    ):
        if recorded and recorded != now:
            out.append(f"{label} {recorded} → {now}")
    return [printable(line) for line in out]


DAILY_PREFIX = "daily-"


def daily_word(date: str) -> str:
    """The seed of the day ``date`` (``YYYY-MM-DD``, UTC), the same for everyone: ``daily-2026-12-02``. Each
    ruleset plays it as its own game (a game is its ruleset and its seed). A recording marked daily verifies only
    when its seed is its date's word."""
    return f"{DAILY_PREFIX}{date}"


def _which_parts(game: Game, header: Header, theirs: str) -> list[str]:
    """The parts of the state that differ from the recording's ``parts`` digests ``theirs`` (formats 1-2)."""
    names = _part_names(game)
    if names != header.parts:
        return [f"the state's layout (recorded parts {', '.join(header.parts)}; now {', '.join(names)})"]
    _, mine = state_digests(game)
    w = 2 * _PART_BYTES
    out = [name for i, name in enumerate(names) if mine[i * w : (i + 1) * w] != theirs[i * w : (i + 1) * w]]
    return out or ["the checksum only (the parts agree: a digest collision, or the 'checksum' field was rewritten)"]


OnEvents = Callable[[int, Action, list[Event]], None]


class _Replay:
    """One replay under way: the game rebuilt from the header, each action applied by :meth:`act` (and checked, with
    ``verify``), then :meth:`finish` (the recorded crash reproduced; the recorded end and score checked)."""

    def __init__(
        self, content: Content, h: Header, path: object, verify: bool, until: int | None, on_events: OnEvents | None
    ) -> None:
        self.content, self.header, self.path = content, h, path
        self.verify, self.until, self.on_events = verify, until, on_events
        self.game = game = Game(content, h.ruleset, h.seed)
        self.digests = h.format >= 3
        self.state_check = game.digest if self.digests else game.checksum
        self.line = 1
        self.done = False  # ``until`` reached: the rest is not applied
        if verify and self.digests and h.parts != PARTS:
            raise Desync(
                0, None, [f"the state's layout (recorded parts {', '.join(h.parts)}; now {', '.join(PARTS)})"], line=1
            )
        if verify and h.daily and h.seed != parse_seed(daily_word(h.daily)):
            raise Desync(0, None, [f"the seed: a daily game of {h.daily} plays the seed {daily_word(h.daily)}"], line=1)
        if verify and h.start and self.state_check() != h.start:
            raise Desync(0, None, ["the starting state (level generation or setup)"], line=1)

    def act(self, turn: int, action: Action, chk: str, parts: str) -> None:
        self.line += 1
        if self.done or (self.until is not None and turn > self.until):
            self.done = True
            return
        try:
            events = self.game.step(action)
        except Exception as exc:
            exc.add_note(f"replaying {self.path}: at turn {turn} (line {self.line}), action {describe_action(action)}")
            raise
        if len(events) == 1 and isinstance(events[0], Refused):
            raise Desync(turn, action, [f"refused: {events[0].why.code}"], line=self.line)
        if self.on_events is not None:
            self.on_events(turn, action, events)
        if self.verify:
            now = self.state_check()
            if now != chk:
                why = differing(now, chk) if self.digests else _which_parts(self.game, self.header, parts)
                raise Desync(turn, action, why, line=self.line)

    def finish(self, rec: Recording, last: tuple[int, Action, str] | None, count: int) -> Game:
        crash = rec.crash
        if crash is not None and not self.done and (self.until is None or crash["turn"] <= self.until):
            try:
                events = self.game.step(crash["action"])
            except Exception as exc:
                exc.add_note(
                    f"replaying {rec.path}: the recorded crash reproduced at turn {crash['turn']} "
                    f"(line {crash['line']}), action {describe_action(crash['action'])}"
                )
                raise
            if self.on_events is not None and not (len(events) == 1 and events[0].type == "refused"):
                self.on_events(crash["turn"], crash["action"], events)
        if self.verify and self.until is None and last is not None:
            _check_end(self.content, rec, self.game, last, count)
        return self.game


def _check_end(content: Content, rec: Recording, game: Game, last: tuple[int, Action, str], count: int) -> None:
    """The recorded end (death or victory, and its score) happened in the replayed game too, else :class:`Desync`."""
    if rec.finished and game.state.mode != rec.end:
        why = f"end: recorded '{rec.end}', replayed mode '{game.state.mode}'"
        raise Desync(last[0], last[1], [why], line=count + 2)
    if rec.score is not None:
        score = score_card(content, game.state).total
        if score != rec.score:
            raise Desync(last[0], last[1], [f"end: recorded score {rec.score}, replayed {score}"], line=count + 2)


def replay(
    content: Content,
    rec: Recording,
    *,
    verify: bool = False,
    until: int | None = None,
    on_events: OnEvents | None = None,
) -> Game:
    """Rebuild the game from ``(content, ruleset, seed)`` and re-apply the recorded actions (up to turn ``until``).

    A recorded action that the engine refuses raises :class:`Desync` in any mode; with ``verify`` the state after
    every action is compared with the recording's (format 3: ``Game.digest()``; formats 1-2: ``Game.checksum()``)
    and the first mismatch raises :class:`Desync`, naming the parts that differ; so does a daily game whose seed is
    not its date's word. A recording that ends in a crash replays the crashing action last, so the same exception
    is raised again at the same turn (with a note naming the turn). :func:`replay_file` does the same as the file
    is read, keeping none of it.
    """
    run = _Replay(content, rec.header, rec.path, verify, until, on_events)
    parts = rec.part_digests
    for i, (turn, action, chk) in enumerate(rec.actions):
        run.act(turn, action, chk, parts[i] if i < len(parts) else "")
        if run.done:
            return run.game
    return run.finish(rec, rec.actions[-1] if rec.actions else None, len(rec.actions))


def replay_file(
    content: Content,
    path: Path | str,
    *,
    verify: bool = False,
    until: int | None = None,
    lenient_tail: bool = False,
    on_events: OnEvents | None = None,
    on_header: Callable[[Header], None] | None = None,
    hasher: Any = None,
) -> tuple[Recording, Game]:
    """:func:`replay` of the recording at ``path`` while it is read (:func:`stream_recording`): memory stays flat
    however many actions it holds. Returns the recording (without its actions) and the game. Raises what
    :func:`load_recording` and :func:`replay` raise, and what ``on_header`` (given the header before anything is
    replayed) raises. ``hasher``: see :func:`stream_recording`."""
    runs: list[_Replay] = []

    def start(h: Header) -> None:
        if on_header is not None:
            on_header(h)
        runs.append(_Replay(content, h, path, verify, until, on_events))

    def act(turn: int, action: Action, chk: str, parts: str) -> None:
        runs[0].act(turn, action, chk, parts)

    rec, last, count = stream_recording(path, start, act, lenient_tail=lenient_tail, hasher=hasher)
    return rec, runs[0].finish(rec, last, count)


def state_summary(game: Game) -> str:
    """A few lines for a human: turn, level, segment, mode, party HP, gold, items, monsters present."""
    st = game.state
    spec = game.rs.levels[st.depth]
    seg = st.level.map.segments[st.segment] if 0 <= st.segment < len(st.level.map.segments) else None
    where = f"segment {st.segment}" + (f" ({seg.kind})" if seg else "")
    rounds = f"{st.rounds} round" + ("" if st.rounds == 1 else "s")
    lines = [
        f"Turn {st.turn} ({rounds}). Level {st.depth + 1} of {len(game.rs.levels)}: {spec.name}. "
        f"{where.capitalize()}, at {st.pos[0]},{st.pos[1]}. Mode: {st.mode}.",
        "Party: "
        + ", ".join(f"{m.name} HP {m.hp}/{m.max_hp}" for m in st.party)
        + (" (exhausted)" if st.exhausted else "")
        + ".",
        f"Gold: {st.gold}. Items: "
        + (", ".join(f"{game.content.items[i].name} x{n}" for i, n in sorted(st.items.items())) or "none")
        + ".",
    ]
    engaged = None
    for holder in (st.combat, st.pursuit, st.encounter):
        if holder is not None:
            engaged = holder.group
            break
    groups = [g for g in st.level.groups if not g.defeated and (g.segment == st.segment or g.id == engaged)]
    if groups:
        descr = []
        for g in groups:
            mon = game.monster_of(g)
            alive = [h for h in g.hp if h > 0]
            flags = [
                f
                for f, on in (
                    ("hidden", g.hidden),
                    ("unseen", g.unseen),
                    ("peaceful", g.peaceful),
                    ("engaged", g.id == engaged),
                )
                if on
            ]
            descr.append(
                f"{len(alive)} x {mon.name} (HP {', '.join(map(str, alive))}"
                + (f"; {', '.join(flags)}" if flags else "")
                + ")"
            )
        lines.append("Monsters present: " + "; ".join(descr) + ".")
    else:
        lines.append("Monsters present: none.")
    if st.death:
        lines.append(f"Dead: killed by {the(str(st.death['cause']))} on turn {st.death['turn']}.")
    elif st.mode == Mode.WON:
        lines.append("Won.")
    return "\n".join(lines)
