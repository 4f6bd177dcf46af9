"""Where two recordings of one seed part ways (``replay A --diff B``, docs/REPLAY.md): both are replayed in
lockstep, their states' digests compared after every action (:mod:`undercroft.rules.digest`: one per part), and the
first difference is named down to the value that differs (a member's HP, a group's place, a dice stream's draws)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from undercroft.content import Content
from undercroft.record.format import Recording, _text_of
from undercroft.rules.actions import Action
from undercroft.rules.digest import PARTS, differing
from undercroft.rules.events import Refused
from undercroft.rules.game import Game
from undercroft.rules.state import Group, Member

MAX_DETAILS = 8  # the values named per part that differs


@dataclass
class Divergence:
    """What :func:`diverge` found. Turns count actions (turn T: after the T-th action; 0: the starting state)."""

    common: int  # the actions both recordings have (the shorter one's, its crash action included)
    action_turn: int | None = None  # the first turn whose actions differ (None: none of the common ones)
    actions: tuple[Action | None, Action | None] = (None, None)  # A's and B's action of that turn
    state_turn: int | None = None  # the first turn after which the states differ (None: they never do)
    parts: list[str] = field(default_factory=list)  # the parts that differ then (rules.digest.PARTS)
    details: list[str] = field(default_factory=list)  # "part: what: A's value | B's value", at most MAX_DETAILS a part
    stopped: str = ""  # why the lockstep stopped early: the engine refused or raised at one side's action
    recorded_turn: int | None = None  # format 3 both: the first turn after which the digests the files carry differ
    recorded_parts: list[str] = field(default_factory=list)  # (while this engine's replays of both agree)


def _actions(rec: Recording) -> list[Action]:
    """A recording's actions, its crash action last (the engine raised on it when it was recorded)."""
    out = [a for _, a, _ in rec.actions]
    if rec.crash is not None:
        out.append(rec.crash["action"])
    return out


def diverge(content: Content, a: Recording, b: Recording) -> Divergence:
    """Replay ``a`` and ``b`` (same ruleset and seed: the caller checks) side by side up to the first turn after
    which their states differ, or to the end of the shorter one. Two recordings of format 3 are compared by the
    digests they carry too: the same actions recorded by another engine (or with other data) replay the same here,
    but their recorded states differ (``recorded_turn``)."""
    ga = Game(content, a.header.ruleset, a.header.seed)
    gb = Game(content, b.header.ruleset, b.header.seed)
    acts = _actions(a), _actions(b)
    common = min(len(acts[0]), len(acts[1]))
    out = Divergence(common)
    recorded = _recorded(a), _recorded(b)
    if recorded[0] and recorded[1] and a.header.start != b.header.start:
        out.recorded_turn, out.recorded_parts = 0, differing(a.header.start, b.header.start)
    for i in range(common):
        xa, xb = acts[0][i], acts[1][i]
        if out.action_turn is None and _text_of(xa) != _text_of(xb):
            out.action_turn, out.actions = i + 1, (xa, xb)
        for name, game, action in ((a.path, ga, xa), (b.path, gb, xb)):
            why = _step(game, action)
            if why:
                out.stopped = f"{name}: the action of turn {i + 1} ({_text_of(action)}) {why}"
                return out
        da, db = ga.digest(), gb.digest()
        if da != db:
            out.state_turn, out.parts = i + 1, differing(da, db)
            out.details = explain(ga, gb, out.parts)
            return out
        if out.recorded_turn is None and i < len(recorded[0]) and i < len(recorded[1]):
            ra, rb = recorded[0][i], recorded[1][i]
            if ra != rb:
                out.recorded_turn, out.recorded_parts = i + 1, differing(ra, rb)
    return out


def _recorded(rec: Recording) -> list[str]:
    """The digest a format-3 recording carries after each action (what the engine that recorded it computed);
    [] for formats 1 and 2, whose lines carry another kind of checksum."""
    return [chk for _, _, chk in rec.actions] if rec.header.format >= 3 else []


def _step(game: Game, action: Action) -> str:
    """Take ``action``: "" when the engine took it, else what the engine did instead (refused it, raised)."""
    try:
        events = game.step(action)
    except Exception as exc:
        return f"made the engine raise {type(exc).__name__}: {exc}"
    if len(events) == 1 and isinstance(events[0], Refused):
        return f"is refused by the engine ({events[0].why.code})"
    return ""


def _fields(obj: Member | Group) -> dict[str, object]:
    return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj) if f.name != "owner"}


def facets(game: Game) -> dict[str, dict[str, object]]:
    """The values behind each part's digest, by part and by a name for a human (``party`` -> ``gold``, ``level 2:
    group 7 (Ghoul): hp``, ...)."""
    st = game.state
    out: dict[str, dict[str, object]] = {p: {} for p in PARTS}
    for name in ("rounds", "running_rounds", "exhausted", "rest_rounds"):
        out["clock"][name] = getattr(st, name)
    for name in ("mode", "depth", "entered", "fled", "next_group", "kills", "haul", "encounter", "combat", "pursuit"):
        out["mode"][name] = getattr(st, name)
    party = out["party"]
    for name in ("pos", "prev_pos", "segment", "segment_entry", "gold", "items", "effects", "wares"):
        party[name] = getattr(st, name)
    for i, m in enumerate(st.party):
        party[f"member {i + 1} ({m.name})"] = _fields(m)
    levels = out["levels"]
    for depth, lv in sorted(st.levels.items()):
        where = f"level {depth + 1}"
        levels[f"{where}: segments visited"] = [int(s) for s in lv.visited.nonzero()[0]]
        levels[f"{where}: floor items"] = sorted(lv.items.items())
        for g in lv.groups:
            levels[f"{where}: group {g.id} ({g.monster})"] = _fields(g)
    for (name, level), stream in sorted(game.streams.items()):
        out["rng"][f"dice stream '{name}' of level {level + 1}: draws"] = stream.draws
    return out


def explain(a: Game, b: Game, parts: list[str]) -> list[str]:
    """``part: what: A's value | B's value`` for the values that differ in ``parts`` (at most
    :data:`MAX_DETAILS` a part; a value one side lacks is ``-``)."""
    fa, fb = facets(a), facets(b)
    lines = []
    for part in parts:
        va, vb = fa[part], fb[part]
        diff = [line for k in list(va) + [k for k in vb if k not in va] for line in _differ(k, va.get(k), vb.get(k))]
        lines += [f"{part}: {line}" for line in diff[:MAX_DETAILS]]
        if len(diff) > MAX_DETAILS:
            lines.append(f"{part}: ... and {len(diff) - MAX_DETAILS} more")
        if not diff:  # (a value the digest holds that is not named here)
            lines.append(f"{part}: its digest differs")
    return lines


def _differ(name: str, a: object, b: object) -> list[str]:
    """``name: A's value | B's value`` if they differ (a member or a group on both sides: per field that differs;
    on one side only: its HP and place, the other side ``-``)."""
    if a == b:
        return []
    if isinstance(a, dict) and isinstance(b, dict):
        return [f"{name}: {k}: {_show(a[k])} | {_show(b[k])}" for k in a if a[k] != b[k]]
    return [f"{name}: {_show(a)} | {_show(b)}"]


def _show(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, dict) and "hp" in value:  # a member or group on one side only
        return f"HP {value['hp']}" + (f" at {value['pos']}" if "pos" in value else "")
    return str(value) if isinstance(value, str) else repr(value)


__all__ = ["Divergence", "diverge", "explain", "facets"]
