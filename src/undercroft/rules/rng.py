"""Named random streams derived from one game seed.

Each stream is a numpy ``PCG64`` bit generator seeded by ``SeedSequence(seed, spawn_key=(stream_id, level))``, so a
stream depends only on the seed, its name and its level: never on how many draws another stream made. Faces come
from ``random_raw()`` (64 raw bits, stable across numpy versions) through our own unbiased rejection mapping;
numpy's ``Generator`` methods are never used, because their output may change between releases.
"""

from __future__ import annotations

import hashlib

import numpy as np

SEED_BITS = 64
_SEED_MASK = (1 << SEED_BITS) - 1
_RAW_SPAN = 1 << 64
#: a die's sides -> the raw draws below which a face is taken (:meth:`Stream.die`), the ones asked for so far
_LIMITS: dict[int, int] = {}

# Stream names used by the game. A name's id is a stable hash of the name, so adding a stream never renumbers
# the others.
LEVEL = "level"  # dungeon generation, one per maze level
ENCOUNTER = "encounter"  # monster checks, encounter sequence, parley
COMBAT = "combat"  # attack rolls
SHOP = "shop"  # ours: what a merchant has of each ware, one per maze level
COSMETIC = "cosmetic"  # UI only: never read by the rules


def level_stream(ruleset: str) -> str:
    """The name of the dungeon-generation stream of a ruleset: the ruleset's id is mixed in, so one seed gives
    different maps in different rulesets. The default ruleset keeps the plain name its maps always had."""
    return LEVEL if ruleset == "undercroft" else f"{LEVEL}/{ruleset}"


def stream_id(name: str) -> int:
    """A stable 32-bit id for a stream name (blake2b, never Python's salted ``hash``)."""
    return int.from_bytes(hashlib.blake2b(name.encode("utf-8"), digest_size=4).digest(), "little")


_SEED_DIGITS = len(str(_SEED_MASK))  # 20: a number with more digits (leading zeros aside) is hashed as text


def parse_seed(text: str | int) -> int:
    """A game seed from user input: a whole number 0..2**64-1 as is, any other text hashed stably.

    Text is the seed as typed, blanks around it left out: ASCII digits naming a number 0..2**64-1 (leading zeros
    allowed) are that number; anything else (words, a larger number, a number of any length) is hashed (blake2b,
    8 bytes, little-endian) of its UTF-8 bytes, so every text is a seed and the same text always gives the same one.
    An ``int`` (a seed read back from a recording) must be 0..2**64-1.
    """
    if isinstance(text, bool):
        raise ValueError("a seed is a whole number or text, not a truth value")
    if isinstance(text, int):
        if not 0 <= text <= _SEED_MASK:
            raise ValueError(
                f"seed {text} is outside 0..{_SEED_MASK}"
                if text.bit_length() <= 256
                else f"seed of {text.bit_length()} bits is outside 0..{_SEED_MASK}"
            )
        return text
    stripped = text.strip()
    if stripped.isascii() and stripped.isdigit():  # ASCII only: not '²', which isdigit() but int() refuses
        digits = stripped.lstrip("0") or "0"
        # Counted before int(): a number of thousands of digits is hashed like any text, never handed to int()
        # (which refuses more than sys.get_int_max_str_digits() digits).
        if len(digits) <= _SEED_DIGITS and int(digits) <= _SEED_MASK:
            return int(digits)
    return int.from_bytes(hashlib.blake2b(stripped.encode("utf-8"), digest_size=8).digest(), "little")


class Stream:
    """One named stream: a DiceSource over PCG64 raw output."""

    __slots__ = ("_bg", "_raw", "draws", "level", "name", "owner")

    def __init__(self, seed: int, name: str, level: int = 0) -> None:
        self.name = name
        self.level = level
        ss = np.random.SeedSequence(seed, spawn_key=(stream_id(name), level))
        self._bg = np.random.PCG64(ss)
        self._raw = self._bg.random_raw
        self.draws = 0
        self.owner: Streams | None = None  # the game's streams, which count every draw of theirs (Streams.draws)

    def raw(self) -> int:
        """The next 64 raw bits."""
        self.draws += 1
        if self.owner is not None:
            self.owner.draws += 1
        return int(self._raw())

    def die(self, sides: int) -> int:
        """A uniform face 1..sides by rejection sampling (no modulo bias)."""
        limit = _LIMITS.get(sides)
        if limit is None:
            if not 1 <= sides <= _RAW_SPAN:  # more faces than the raw draws span: the rejection loop would never end
                raise ValueError(f"a die needs at least one side and at most 2**64, not {sides}")
            limit = _RAW_SPAN - (_RAW_SPAN % sides)
            if len(_LIMITS) < 4096:
                _LIMITS[sides] = limit
        while True:
            x = self.raw()
            if x < limit:
                return x % sides + 1

    def below(self, n: int) -> int:
        """A uniform integer 0..n-1."""
        return self.die(n) - 1

    def get_state(self) -> tuple[int, int, int]:
        st = self._bg.state["state"]
        return (int(st["state"]), int(st["inc"]), self.draws)

    def set_state(self, state: tuple[int, int, int]) -> None:
        s, inc, draws = state
        self._bg.state = {
            "bit_generator": "PCG64",
            "state": {"state": s, "inc": inc},
            "has_uint32": 0,
            "uinteger": 0,
        }
        self.draws = draws
        if self.owner is not None:
            self.owner.draws += 1


class Streams:
    """All the streams of one game, created on first use from the seed (a number, or text hashed stably)."""

    def __init__(self, seed: int | str) -> None:
        self.seed: int = parse_seed(seed)
        self._streams: dict[tuple[str, int], Stream] = {}
        self.draws = 0  # words drawn from all the streams (the state's digest looks at them again when it moves)

    def get(self, name: str, level: int = 0) -> Stream:
        key = (name, level)
        s = self._streams.get(key)
        if s is None:
            s = self._streams[key] = Stream(self.seed, name, level)
            s.owner = self
            self.draws += 1  # a new stream is a change too
        return s

    def items(self) -> list[tuple[tuple[str, int], Stream]]:
        """The streams used so far, by (name, level), in the order they were first used."""
        return list(self._streams.items())

    def snapshot(self) -> dict[tuple[str, int], tuple[int, int, int]]:
        """The state of every stream used so far (sorted, so its byte form is canonical)."""
        return {k: self._streams[k].get_state() for k in sorted(self._streams)}

    def restore(self, snap: dict[tuple[str, int], tuple[int, int, int]]) -> None:
        self._streams = {}
        for (name, level), st in snap.items():
            s = self.get(name, level)
            s.set_state(st)
