"""The state's digest: one short hash per part of the state, as recordings of format 3 store it after every action.

The state has five parts (:data:`PARTS`, the names the recordings' headers list): ``clock``, ``levels``, ``mode``,
``party`` and ``rng``. Each part's digest is a blake2b of :data:`PART_BYTES` bytes over a fixed encoding of the
part's values as 64-bit integers (a text such as a monster's id is the integer :func:`sid` of it), so that a
replay compares all of them after every action and a desync names the part that differs.

:func:`full_digest` computes the digest from scratch. :class:`Tracker` (what :meth:`Game.digest
<undercroft.rules.game.Game.digest>` uses) gives the same value for the cost of what changed: the small parts
are compared as tuples and hashed again only when they differ; the levels are hashed level by level and group by
group, each again only when the engine marked it changed (:meth:`~undercroft.rules.state.LevelState.touch` and
the groups' own setters); the dice streams by their draw counts. ``tests/test_digest.py`` checks the two agree
after every action of the golden recordings and of 200 autoplayed games.

What each part holds (the canonical form of :func:`undercroft.rules.state.canonical`, less two things):

* not the turn: a recording numbers its actions itself;
* not the explored map: it is a view, the union of what the party saw from each tile it stood on, so a function
  of the party's path, which the ``party`` part checks after every action (and the rules never read it);
* a dice stream as its draws: the state of a stream is a function of the game seed, its name, its level and how
  many words it gave (:mod:`undercroft.rules.rng`).
"""

from __future__ import annotations

import functools
import hashlib
from array import array
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from undercroft.rules.rng import Streams
    from undercroft.rules.state import GameState, Group, LevelState

PARTS: tuple[str, ...] = ("clock", "levels", "mode", "party", "rng")
PART_BYTES = 3
PART_HEX = 2 * PART_BYTES
DIGEST_HEX = PART_HEX * len(PARTS)
NONE = -(1 << 63)  # the encoding of "nothing" (no encounter, ...)

Key = tuple[object, ...]


@functools.cache
def sid(text: str) -> int:
    """A text as a 56-bit integer (blake2b of its UTF-8): how a monster's, an item's or a stream's name enters a
    digest. A cache of a pure function."""
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=7).digest(), "little")


def _hash(values: Iterable[int]) -> bytes:
    return hashlib.blake2b(array("q", values).tobytes(), digest_size=PART_BYTES).digest()


# --- the parts' values -------------------------------------------------------------------------------------


def clock_key(st: GameState) -> Key:
    return (st.rounds, st.running_rounds, st.exhausted, st.rest_rounds)


def mode_key(st: GameState) -> Key:
    enc, com, pur = st.encounter, st.combat, st.pursuit
    return (
        st.mode, st.depth,
        None if enc is None else (enc.group, enc.distance, enc.party_surprised, enc.monster_surprised,
                                  enc.first_round, enc.entry[0], enc.entry[1], enc.out_of_sight),
        None if com is None else (com.group, com.round, com.party_turn, com.party_attacked, sid(com.free_round)),
        None if pur is None else (pur.group, pur.distance, pur.rounds, pur.fights, sid(pur.chaser)),
        st.entered, st.fled, st.next_group, st.kills,
    )


def party_key(st: GameState) -> Key:
    members = tuple((m.template, m.hp, m.max_hp, m.weapon) for m in st.party)
    return (members, st.gold, tuple(sorted(st.items.items())), st.pos, st.prev_pos, st.segment, st.segment_entry)


def rng_key(streams: Streams) -> Key:
    return tuple((name, level, s.draws) for (name, level), s in streams.items())


def group_key(g: Group) -> Key:
    return (g.id, g.monster, tuple(g.hp), g.max_hp, g.level, g.segment, g.pos, g.origin, g.treasure, g.bribes,
            g.met, g.hidden, g.peaceful, g.negotiation, g.bribe_tried, g.reaction, g.reaction_result, g.risen,
            g.turns)


# --- encodings -----------------------------------------------------------------------------------------------


def _int(v: object) -> int:
    """A value of a key as an integer: a number or a truth value as itself, a text as its :func:`sid`."""
    if isinstance(v, str):
        return sid(v)
    assert isinstance(v, int)
    return v


def _opt(values: Key | None) -> list[int]:
    return [NONE] if values is None else [1, *map(_int, values)]


def encode_clock(st: GameState) -> list[int]:
    return [_int(v) for v in clock_key(st)]


def encode_mode(st: GameState) -> list[int]:
    mode, depth, enc, com, pur, *rest = mode_key(st)
    assert enc is None or isinstance(enc, tuple)
    assert com is None or isinstance(com, tuple)
    assert pur is None or isinstance(pur, tuple)
    return [_int(mode), _int(depth), *_opt(enc), *_opt(com), *_opt(pur), *map(_int, rest)]


def encode_party(st: GameState) -> list[int]:
    out = [len(st.party)]
    for m in st.party:
        out += (sid(m.template), m.hp, m.max_hp, m.weapon)
    out += (st.gold, len(st.items))
    for item, n in sorted(st.items.items()):
        out += (sid(item), n)
    out += (*st.pos, *st.prev_pos, st.segment, *st.segment_entry)
    return out


def encode_rng(streams: Streams) -> list[int]:
    out = [len(streams.items())]
    for (name, level), s in sorted(streams.items()):
        out += (sid(name), level, s.draws)
    return out


def encode_group(g: Group) -> list[int]:
    gid, monster, hp, max_hp, level, seg, pos, origin, *flags = group_key(g)
    assert isinstance(hp, tuple) and isinstance(pos, tuple)
    return [_int(gid), _int(monster), len(hp), *map(_int, hp), _int(max_hp), _int(level), _int(seg),
            *map(_int, pos), _int(origin), *map(_int, flags)]


def level_body(lv: LevelState) -> list[int]:
    """A level's values but its groups: its index, the segments visited, the items on its floor."""
    visited = np.flatnonzero(lv.visited).tolist()
    items = sorted((x, y, i, a) for (x, y), lst in lv.items.items() for i, a in lst)
    out = [lv.index, len(lv.visited), len(visited), *visited, len(items)]
    for x, y, i, a in items:
        out += (x, y, sid(i), a)
    return out


def group_digest(g: Group) -> bytes:
    return _hash(encode_group(g))


def level_digest(body: bytes, groups: list[bytes]) -> bytes:
    """A level's digest: of its body's digest and its groups' digests, in the level's order."""
    return hashlib.blake2b(body + b"".join(groups), digest_size=PART_BYTES).digest()


def levels_digest(levels: list[bytes]) -> bytes:
    return hashlib.blake2b(b"".join(levels), digest_size=PART_BYTES).digest()


# --- from scratch --------------------------------------------------------------------------------------------


def full_parts(st: GameState, streams: Streams) -> dict[str, str]:
    """Every part's digest (hex), computed from scratch."""
    levels = [level_digest(_hash(level_body(lv)), [group_digest(g) for g in lv.groups])
              for _, lv in sorted(st.levels.items())]
    return {
        "clock": _hash(encode_clock(st)).hex(),
        "levels": levels_digest(levels).hex(),
        "mode": _hash(encode_mode(st)).hex(),
        "party": _hash(encode_party(st)).hex(),
        "rng": _hash(encode_rng(streams)).hex(),
    }


def full_digest(st: GameState, streams: Streams) -> str:
    """The state's digest (:data:`DIGEST_HEX` hex digits: the parts' digests in the order of :data:`PARTS`),
    computed from scratch."""
    parts = full_parts(st, streams)
    return "".join(parts[p] for p in PARTS)


def split(digest: str) -> dict[str, str]:
    """A digest's parts by name."""
    return {p: digest[i * PART_HEX:(i + 1) * PART_HEX] for i, p in enumerate(PARTS)}


def differing(a: str, b: str) -> list[str]:
    """The names of the parts in which two digests differ."""
    pa, pb = split(a), split(b)
    return [p for p in PARTS if pa[p] != pb[p]]
