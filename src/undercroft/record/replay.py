"""Replaying a recording: :func:`replay` rebuilds the game and re-applies its actions (verifying the state after
each, if asked), :func:`compatibility` names what differs between the recording's installation and this one, and
:func:`state_summary` describes a game's state in a few lines for a human."""

from __future__ import annotations

from collections.abc import Callable

from undercroft.content import Content
from undercroft.content.loader import printable
from undercroft.record.format import (
    _PART_BYTES,
    Desync,
    Header,
    Recording,
    _part_names,
    describe_action,
    installed_versions,
    state_digests,
)
from undercroft.rules.actions import Action
from undercroft.rules.digest import PARTS, differing
from undercroft.rules.events import Event
from undercroft.rules.game import Game
from undercroft.rules.names import the
from undercroft.rules.rng import parse_seed
from undercroft.rules.scoring import score_card
from undercroft.rules.types import Mode


def compatibility(header: Header, data_digest: str) -> list[str]:
    """One line for a human per difference between the recording of ``header`` and this installation, [] when
    they all match: the rules data (``data_digest``: ``Content.digest`` of the data in use), then the game, Python,
    numpy and tcod versions. For example::

        rules data: recorded with 84a4..., this data is 833f...
        game version 0.3.0 → 0.4.0
        Python 3.11.7 → 3.12.1

    A version the header does not record (tcod, before format 2) is not a difference. Only other rules data is
    known to change a replay; the versions are listed so that a desync can be told apart from a bug. Every line is
    :func:`printable`."""
    v = installed_versions()
    out = []
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


def _which_parts(game: Game, rec: Recording, index: int) -> list[str]:
    """The parts of the state that differ from the recording after action number ``index`` (formats 1-2)."""
    names = _part_names(game)
    if names != rec.header.parts:
        return [f"the state's layout (recorded parts {', '.join(rec.header.parts)}; now {', '.join(names)})"]
    _, mine = state_digests(game)
    theirs = rec.part_digests[index] if index < len(rec.part_digests) else ""
    w = 2 * _PART_BYTES
    out = [name for i, name in enumerate(names) if mine[i * w : (i + 1) * w] != theirs[i * w : (i + 1) * w]]
    return out or ["the checksum only (the parts agree: a digest collision, or the 'checksum' field was rewritten)"]


def _check_end(content: Content, rec: Recording, game: Game) -> None:
    """The recorded end (death or victory, and its score) happened in the replayed game too, else :class:`Desync`."""
    if rec.finished and game.state.mode != rec.end:
        last = rec.actions[-1]
        raise Desync(
            last[0],
            last[1],
            [f"end: recorded '{rec.end}', replayed mode '{game.state.mode}'"],
            line=len(rec.actions) + 2,
        )
    if rec.score is not None:
        score = score_card(content, game.state).total
        if score != rec.score:
            last = rec.actions[-1]
            raise Desync(
                last[0], last[1], [f"end: recorded score {rec.score}, replayed {score}"], line=len(rec.actions) + 2
            )


def replay(
    content: Content,
    rec: Recording,
    *,
    verify: bool = False,
    until: int | None = None,
    on_events: Callable[[int, Action, list[Event]], None] | None = None,
) -> Game:
    """Rebuild the game from ``(content, ruleset, seed)`` and re-apply the recorded actions (up to turn ``until``).

    A recorded action that the engine refuses raises :class:`Desync` in any mode; with ``verify`` the state after
    every action is compared with the recording's (format 3: ``Game.digest()``; formats 1-2: ``Game.checksum()``)
    and the first mismatch raises :class:`Desync`, naming the parts that differ. A recording that ends in a crash
    replays the crashing action last, so the same exception is raised again at the same turn (with a note naming
    the turn).
    """
    h = rec.header
    game = Game(content, h.ruleset, h.seed)
    digests = h.format >= 3
    state_check = game.digest if digests else game.checksum
    if verify and digests and h.parts != PARTS:
        raise Desync(
            0, None, [f"the state's layout (recorded parts {', '.join(h.parts)}; now {', '.join(PARTS)})"], line=1
        )
    if verify and h.daily and h.seed != parse_seed(daily_word(h.daily)):
        raise Desync(0, None, [f"the seed: a daily game of {h.daily} plays the seed {daily_word(h.daily)}"], line=1)
    if verify and h.start and state_check() != h.start:
        raise Desync(0, None, ["the starting state (level generation or setup)"], line=1)
    step = game.step
    for i, (turn, action, chk) in enumerate(rec.actions):
        if until is not None and turn > until:
            return game
        try:
            events = step(action)
        except Exception as exc:
            exc.add_note(f"replaying {rec.path}: at turn {turn} (line {i + 2}), action {describe_action(action)}")
            raise
        if len(events) == 1 and events[0].type == "refused":
            raise Desync(turn, action, [f"refused: {events[0].get('reason', '')}"], line=i + 2)
        if on_events is not None:
            on_events(turn, action, events)
        if verify:
            now = state_check()
            if now != chk:
                raise Desync(turn, action, differing(now, chk) if digests else _which_parts(game, rec, i), line=i + 2)
    crash = rec.crash
    if crash is not None and (until is None or crash["turn"] <= until):
        try:
            events = step(crash["action"])
        except Exception as exc:
            exc.add_note(
                f"replaying {rec.path}: the recorded crash reproduced at turn {crash['turn']} "
                f"(line {crash['line']}), action {describe_action(crash['action'])}"
            )
            raise
        if on_events is not None and not (len(events) == 1 and events[0].type == "refused"):
            on_events(crash["turn"], crash["action"], events)
    if verify and until is None:
        _check_end(content, rec, game)
    return game


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
