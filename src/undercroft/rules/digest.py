"""The state's digest: one short hash per part of the state, as recordings of format 3 store it after every action.

The state has five parts (:data:`PARTS`, the names the recordings' headers list): ``clock``, ``levels``, ``mode``,
``party`` and ``rng``. Each part's digest is :data:`PART_BYTES` bytes of a CRC-32 over a fixed encoding of the
part's values as 64-bit integers (a text such as a monster's id is the integer :func:`sid` of it), so that a
replay compares all of them after every action and a desync names the part that differs. (A CRC, not a
cryptographic hash: it only has to tell a replay that went another way from the recorded one; the lines of a
recording are chained with blake2b against tampering.) A level's digest is that of its own values' digest (its
index, a byte per segment for visited, its floor items' digest) and its groups' digests, the ``levels`` part that
of the levels' digests, and the ``party`` part that of its belongings' digest and where it stands: so that each
can be kept.

:func:`full_digest` computes the digest from scratch. :class:`Tracker` (what :meth:`Game.digest
<undercroft.rules.game.Game.digest>` uses) gives the same value for the cost of what changed:

* the clock, the mode, where the party stands: their few values are compared with the last ones, and hashed
  again only when they differ;
* the party's belongings: hashed again when its gold or items or a member changed (a member counts its own
  changes: every attribute set);
* the levels: a level counts its changes (``LevelState.rev``: :meth:`~undercroft.rules.state.LevelState.visit`
  and :meth:`~undercroft.rules.state.LevelState.touch` where the engine marks a segment visited or changes the
  floor items, a group added or removed, and every change to a group, which tells its level); only a level that
  changed is hashed again, and in it only what did (its visited segments, its items, each group);
* the dice: :class:`~undercroft.rules.rng.Streams` counts every word drawn from any stream.

``tests/test_digest.py`` checks that the two agree after every action of the golden recordings and of 200
autoplayed games.

What each part holds (the canonical form of :func:`undercroft.rules.canonical.canonical`, less two things):

* not the turn: a recording numbers its actions itself;
* not the explored map: it is a view, the union of what the party saw from each tile it stood on, so a function
  of the party's path, which the ``party`` part checks after every action (and the rules never read it);
* a dice stream as its draws: the state of a stream is a function of the game seed, its name, its level and how
  many words it gave (:mod:`undercroft.rules.rng`).
"""

from __future__ import annotations

import functools
import hashlib
import struct
import zlib
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from undercroft.rules.rng import Stream, Streams
    from undercroft.rules.state import GameState, Group, LevelState

PARTS: tuple[str, ...] = ("clock", "levels", "mode", "party", "rng")
PART_BYTES = 3
PART_HEX = 2 * PART_BYTES
DIGEST_HEX = PART_HEX * len(PARTS)
_MASK = (1 << (8 * PART_BYTES)) - 1
NONE = -(1 << 63)  # the encoding of "nothing" (no encounter, ...)


@functools.cache
def sid(text: str) -> int:
    """A text as a 56-bit integer (blake2b of its UTF-8): how a monster's, an item's or a stream's name enters a
    digest. A cache of a pure function."""
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=7).digest(), "little")


@functools.cache
def _packer(n: int) -> struct.Struct:
    return struct.Struct(f"<{n}q")


_CLOCK = _packer(4)  # the clock's values
_WHERE = _packer(8)  # the party part's values
_LEVEL = _packer(2)  # a level's index and number of segments


def _hash(values: list[int]) -> str:
    """The digest (hex) of a list of integers (truth values count as 0 and 1)."""
    return f"{_crc(values):06x}"


def _crc(values: list[int]) -> int:
    """:func:`_hash` as an integer."""
    return zlib.crc32(_packer(len(values)).pack(*values)) & _MASK


_PARTS_TEXT = "%06x" * len(PARTS)  # the digest: each part's in the order of PARTS


def _combine(digests: list[str]) -> str:
    """The digest (hex) of a list of digests."""
    return "%06x" % (zlib.crc32("".join(digests).encode("ascii")) & _MASK)


# --- the parts' values as integers ---------------------------------------------------------------------------


def encode_clock(st: GameState) -> list[int]:
    return [st.rounds, st.running_rounds, st.exhausted, st.rest_rounds]


def encode_mode(st: GameState) -> list[int]:
    out = [
        sid(st.mode),
        st.depth,
        st.entered,
        st.fled,
        st.lost,
        st.next_group,
        st.kills,
        st.haul,
        len(st.owed),
        *st.owed,
    ]
    enc, com, pur = st.encounter, st.combat, st.pursuit
    if enc is None:
        out.append(NONE)
    else:
        out += (
            enc.group,
            enc.distance,
            enc.party_surprised,
            enc.monster_surprised,
            enc.first_round,
            *enc.entry,
            enc.rounds,
            enc.stays,
        )
    if com is None:
        out.append(NONE)
    else:
        out += (com.group, com.round, com.party_turn, com.party_attacked, sid(com.free_round))
    if pur is None:
        out.append(NONE)
    else:
        out += (pur.group, pur.distance, pur.rounds, pur.fights, sid(pur.chaser), *(pur.to or (NONE, NONE)))
        for tiles in (pur.trail, pur.lures, pur.fire):
            out.append(len(tiles))
            out += (c for t in tiles for c in t)
        out += (pur.fire_out, pur.balked)
    return out


def encode_belongings(st: GameState) -> list[int]:
    """The party's members, gold and items (the party part but where it stands)."""
    out = [len(st.party)]
    for m in st.party:
        out += (sid(m.template), m.hp, m.max_hp, m.weapon, m.might, m.agility, m.defense, m.speed, m.to_hit)
        out += (sid(m.wielded), sid(m.armour), m.level, m.renown)
    out += (len(st.effects), *[v for e, r in sorted(st.effects.items()) for v in (sid(e), r)])
    out += (st.gold, len(st.items))
    for item, n in sorted(st.items.items()):
        out += (sid(item), n)
    out.append(len(st.wares))
    for item, n in sorted(st.wares.items()):
        out += (sid(item), n)
    return out


def encode_party(st: GameState, belongings: str) -> list[int]:
    """The party part: the digest of its belongings (:func:`encode_belongings`) and where it stands."""
    return [int(belongings, 16), *st.pos, *st.prev_pos, st.segment, *st.segment_entry]


def encode_rng(streams: Streams) -> list[int]:
    return _encode_rng(_stream_order(streams))


def _stream_order(streams: Streams) -> list[tuple[int, int, Stream]]:
    """(sid of its name, level, stream) of every stream, in the order of (name, level)."""
    return [(sid(name), level, s) for (name, level), s in sorted(streams.items())]


def _encode_rng(order: list[tuple[int, int, Stream]]) -> list[int]:
    out = [len(order)]
    for name, level, s in order:
        out += (name, level, s.draws)
    return out


def encode_group(g: Group) -> list[int]:
    return [
        g.id,
        sid(g.monster),
        len(g.hp),
        *g.hp,
        g.max_hp,
        g.level,
        g.segment,
        *g.pos,
        sid(g.origin),
        g.treasure,
        g.bribes,
        g.met,
        g.hidden,
        g.peaceful,
        sid(g.negotiation),
        g.bribe_tried,
        g.reaction,
        sid(g.reaction_result),
        g.risen,
        g.turns,
        g.unseen,
        sid(g.surprise),
        g.since,
        g.walked,
        g.hired,
        g.pursuit_rolled,
        g.pursues,
    ]


def encode_items(lv: LevelState) -> list[int]:
    """The items on a level's floor: (x, y, item, amount), sorted."""
    items = sorted((x, y, i, a) for (x, y), lst in lv.items.items() for i, a in lst)
    out = [len(items)]
    for x, y, i, a in items:
        out += (x, y, sid(i), a)
    return out


def level_body(lv: LevelState, items: str) -> str:
    """A level's own values (its groups apart): its index and segment count, the segments visited (one byte each,
    0 or 1) and the digest of its floor's items (:func:`encode_items`)."""
    data = _LEVEL.pack(lv.index, len(lv.visited)) + lv.visited.astype(np.uint8).tobytes() + items.encode("ascii")
    return "%06x" % (zlib.crc32(data) & _MASK)


# --- from scratch --------------------------------------------------------------------------------------------


def full_parts(st: GameState, streams: Streams) -> dict[str, str]:
    """Every part's digest (hex), computed from scratch. A level's digest is that of its body's digest and its
    groups' (in the level's order); the levels' part, that of the levels' digests in the order of depth."""
    levels = [
        _combine([level_body(lv, _hash(encode_items(lv))), *(_hash(encode_group(g)) for g in lv.groups)])
        for _, lv in sorted(st.levels.items())
    ]
    return {
        "clock": _hash(encode_clock(st)),
        "levels": _combine(levels),
        "mode": _hash(encode_mode(st)),
        "party": _hash(encode_party(st, _hash(encode_belongings(st)))),
        "rng": _hash(encode_rng(streams)),
    }


def full_digest(st: GameState, streams: Streams) -> str:
    """The state's digest (:data:`DIGEST_HEX` hex digits: the parts' digests in the order of :data:`PARTS`),
    computed from scratch."""
    parts = full_parts(st, streams)
    return "".join(parts[p] for p in PARTS)


def split(digest: str) -> dict[str, str]:
    """A digest's parts by name."""
    return {p: digest[i * PART_HEX : (i + 1) * PART_HEX] for i, p in enumerate(PARTS)}


def differing(a: str, b: str) -> list[str]:
    """The names of the parts in which two digests differ."""
    pa, pb = split(a), split(b)
    return [p for p in PARTS if pa[p] != pb[p]]


# --- kept up to date -----------------------------------------------------------------------------------------


class Tracker:
    """The digest of one game's state, hashing again only what changed since the last call (the module
    docstring says how each part notices a change). Its value always equals :func:`full_digest`; a new tracker
    is needed when the state object is replaced (:meth:`Game.restore <undercroft.rules.game.Game.restore>`)."""

    __slots__ = (
        "_belongings",
        "_belongings_effects",
        "_belongings_gold",
        "_belongings_items",
        "_belongings_revs",
        "_belongings_wares",
        "_body",
        "_clock",
        "_clock_key",
        "_draws",
        "_group",
        "_items",
        "_level",
        "_levels",
        "_levels_key",
        "_mode",
        "_mode_key",
        "_party",
        "_rng",
        "_streams",
        "_text",
        "_where_key",
    )

    def __init__(self) -> None:
        self._clock_key: tuple[object, ...] = ()
        self._clock = 0
        self._mode_key: object = ()
        self._mode = 0
        self._belongings_revs = -1
        self._belongings_gold = -1
        self._belongings_items: dict[str, int] = {}
        self._belongings_effects: dict[str, int] = {}
        self._belongings_wares: dict[str, int] = {}
        self._belongings = 0
        self._where_key: tuple[object, ...] = ()
        self._party = 0
        self._draws = -1
        self._rng = 0
        self._streams: tuple[int, list[tuple[int, int, Stream]]] = (-1, [])  # (number of streams, their order)
        self._levels_key = -1  # the number of levels plus the sum of their revisions (which only ever grow)
        self._levels = 0
        self._level: dict[int, tuple[tuple[int, int], str]] = {}  # depth -> ((rev, number of groups), digest)
        self._body: dict[int, tuple[int, int, str]] = {}  # depth -> (visits, items' touches, body's digest)
        self._items: dict[int, tuple[int, str]] = {}  # depth -> (items' touches, their digest)
        self._group: dict[int, tuple[int, str]] = {}  # group id -> (the group's rev, its digest)
        self._text = ""  # the digest of the parts as they were last (formatted once, when one changed)

    def digest(self, st: GameState, streams: Streams) -> str:
        changed = False
        clock = (st.rounds, st.running_rounds, st.exhausted, st.rest_rounds)
        if clock != self._clock_key:  # _hash(encode_clock(st))
            self._clock_key = clock
            self._clock = zlib.crc32(_CLOCK.pack(*clock)) & _MASK
            changed = True
        if st.encounter is None and st.combat is None and st.pursuit is None:  # nothing changed in place
            mode: object = (st.mode, st.depth, st.entered, st.fled, st.lost, st.next_group, st.kills, st.haul, *st.owed)
            if mode != self._mode_key:
                self._mode_key = mode
                self._mode = _crc(encode_mode(st))
                changed = True
        else:
            values = encode_mode(st)
            if values != self._mode_key:
                self._mode_key = values
                self._mode = _crc(values)
                changed = True
        revs = 0  # a member's rev only grows: their sum moves when any member changed
        for m in st.party:
            revs += m.rev
        if (
            revs != self._belongings_revs
            or st.gold != self._belongings_gold
            or st.items != self._belongings_items
            or st.effects != self._belongings_effects
            or st.wares != self._belongings_wares
        ):
            self._belongings_revs = revs
            self._belongings_gold = st.gold
            self._belongings_items = dict(st.items)
            self._belongings_effects = dict(st.effects)
            self._belongings_wares = dict(st.wares)
            self._belongings = _crc(encode_belongings(st))
            self._where_key = ()  # the party part again
        where = (st.pos, st.prev_pos, st.segment, st.segment_entry)
        if where != self._where_key:  # _hash(encode_party(st, belongings)), its 8 values packed at once
            self._where_key = where
            (x, y), (px, py), seg, (ex, ey) = where
            self._party = zlib.crc32(_WHERE.pack(self._belongings, x, y, px, py, seg, ex, ey)) & _MASK
            changed = True
        if streams.draws != self._draws:
            self._draws = streams.draws
            n = len(streams.items())
            if n != self._streams[0]:
                self._streams = (n, _stream_order(streams))
            self._rng = _crc(_encode_rng(self._streams[1]))
            changed = True
        levels = st.levels
        total = len(levels)
        for lv in levels.values():
            total += lv.rev  # (a group added or removed moves it too)
        if total != self._levels_key:
            self._levels_key = total
            self._levels = int(_combine([self._level_digest(levels[d]) for d in sorted(levels)]), 16)
            changed = True
        if changed:
            self._text = _PARTS_TEXT % (self._clock, self._levels, self._mode, self._party, self._rng)
        return self._text

    def _level_digest(self, lv: LevelState) -> str:
        cached = self._level.get(lv.index)
        if cached is not None and cached[0] == (lv.rev, len(lv.groups)):
            return cached[1]
        items = self._items.get(lv.index)
        if items is None or items[0] != lv.touched:
            items = (lv.touched, _hash(encode_items(lv)))
            self._items[lv.index] = items
        body = self._body.get(lv.index)
        if body is None or body[0] != lv.visits or body[1] != lv.touched:
            body = (lv.visits, lv.touched, level_body(lv, items[1]))
            self._body[lv.index] = body
        parts = [body[2]]
        for g in lv.groups:
            got = self._group.get(g.id)
            if got is None or got[0] != g.rev:
                got = (g.rev, _hash(encode_group(g)))
                self._group[g.id] = got
            parts.append(got[1])
        digest = _combine(parts)
        self._level[lv.index] = ((lv.rev, len(lv.groups)), digest)
        return digest
