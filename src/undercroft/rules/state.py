"""Game state: plain mutable records owned by :class:`undercroft.rules.game.Game`. Its canonical form, from which
replays compare a checksum action by action: :mod:`undercroft.rules.canonical`."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, TypeVar

import numpy as np

from undercroft.rules.dungeon import LevelMap
from undercroft.rules.floods import padded_bits
from undercroft.rules.sight import fold_fov
from undercroft.rules.types import FreeRound, Mode, NegotiationResult, Origin, ReactionResult, Side, Surprise


@dataclass
class Member:
    """One character of the party."""

    template: str
    name: str
    hp: int
    max_hp: int
    might: int
    agility: int
    defense: int
    weapon: int  # weapon damage bonus
    negotiation: int
    speed: int  # feet per round, walking: the armour's penalty and a potion's fleetness included
    to_hit: int = 0  # the weapon's bonus on the attack die, a potion's heroism included
    wielded: str = ""  # the weapon's item id ("": the template's)
    armour: str = ""  # the armour worn (its item id; ""; none): its defense is in ``defense``, its weight in ``speed``
    level: int = 1  # ours: the character's level (rules.yaml `growth:`)
    renown: int = 0  # ours: its share of the worth of kills and of treasure carried down the stairs

    #: How many times an attribute was set (the state's digest looks at the members again only when it changed).
    #: Not part of the state.
    rev: ClassVar[int] = 0

    def __setattr__(self, name: str, value: Any) -> None:
        d = self.__dict__
        d[name] = value
        d["rev"] = d.get("rev", 0) + 1

    @property
    def alive(self) -> bool:
        return self.hp > 0


@dataclass
class Group:
    """Monsters of one kind met together: each creature its own pool of hit points."""

    id: int
    monster: str
    #: each creature's hit points, kept as a tuple (a list given is made one): the engine changes one only by
    #: :meth:`set_hp`, which the state's digest counts; ``g.hp[i] = x`` fails at once instead of going unseen
    hp: Sequence[int]
    max_hp: int
    level: int
    segment: int
    pos: tuple[int, int]
    origin: Origin
    treasure: int  # gold it holds (its own)
    bribes: int = 0  # gold it was offered (it keeps it; recovered by killing it)
    met: bool = False  # surprise, distance and reaction are settled once, when first met
    hidden: bool = False  # submerged, not yet revealed
    hired: bool = False  # ours: a hireling following the party and fighting beside it (for the rest of the floor)
    peaceful: bool = False  # an agreement holds (or it never initiates)
    negotiation: NegotiationResult | Literal[""] = ""  # the negotiation's result; "" when none was tried
    bribe_tried: bool = False  # the one bribe is spent
    reaction: int = 0  # the 2d6 total (0: no reaction procedure)
    reaction_result: ReactionResult | Literal[""] = ""  # the reaction band's result; "" before
    risen: bool = True  # kneelers: standing and fighting
    turns: int = 0  # monster turns taken in the current fight (acts_every)
    # Met out of the party's sight (003: "only when the monster and party actually meet will the party know"):
    unseen: bool = False  # rolled for, but not yet seen: nothing about it reaches the player
    surprise: Surprise = Surprise.NONE  # the surprise rolled, held until the sides meet
    since: int = 0  # the clock's round when it was rolled for
    walked: int = 0  # rounds it has walked toward the party since
    # 003's chance of pursuit, rolled once, the first time the party runs from it (its reaction decides it once)
    pursuit_rolled: bool = False
    pursues: bool = False  # what that roll said

    #: The level whose ``groups`` hold this group (:meth:`LevelState.add_group`), None before. Not part of the
    #: state: every change to the group is counted in its level's ``rev`` through it.
    owner: LevelState | None = field(default=None, repr=False, compare=False)

    #: How many times the group changed (the state's digest hashes a group again only then). Not part of the
    #: state.
    rev: ClassVar[int] = 0

    def __setattr__(self, name: str, value: Any) -> None:
        d = self.__dict__
        d[name] = tuple(value) if name == "hp" else value
        d["rev"] = d.get("rev", 0) + 1
        owner = d.get("owner")
        if owner is not None:
            owner.rev += 1

    def set_hp(self, i: int, hp: int) -> None:
        """Creature ``i`` has ``hp`` hit points now (the one way the engine changes a hit point)."""
        old = self.hp
        self.hp = (*old[:i], hp, *old[i + 1 :])

    def touch(self) -> None:
        """Say that the group changed in place (a list of it), as setting an attribute says it."""
        d = self.__dict__
        d["rev"] = d.get("rev", 0) + 1
        owner = d.get("owner")
        if owner is not None:
            owner.rev += 1

    @property
    def known(self) -> bool:
        """Whether the party can know of it: neither lying submerged nor met out of sight and not seen yet."""
        return not self.hidden and not self.unseen

    @property
    def negotiated(self) -> bool:
        """Whether a negotiation was tried (whatever its result)."""
        return self.negotiation != ""

    @property
    def alive(self) -> list[int]:
        return [i for i, h in enumerate(self.hp) if h > 0]

    @property
    def defeated(self) -> bool:
        return max(self.hp, default=0) <= 0  # (every creature down)

    @property
    def count_told(self) -> int:
        """How many creatures an event about the whole group speaks of (its ``count``, for the narration's "the
        Bandits do"): those still standing, or all it had once none is."""
        return len(self.alive) or len(self.hp)


@dataclass
class Encounter:
    group: int
    distance: int = 0  # feet
    party_surprised: bool = False
    monster_surprised: bool = False
    first_round: bool = True  # surprise only counts in the first round
    entry: tuple[int, int] = (0, 0)  # the tile the party came from: its way out
    rounds: int = 0  # rounds the meeting has lasted (a standoff ends at ``encounter.standoff_rounds``)
    stays: bool = False  # a final guardian made up its mind at the standoff's end: it stays, keeping the way out


@dataclass
class Combat:
    group: int
    round: int = 1
    party_turn: bool = True
    party_attacked: bool = False  # this round: the party swung (holds_ground answers only that)
    free_round: FreeRound = FreeRound.NONE  # the side with a free first round: the other does not act in round 1


@dataclass
class Pursuit:
    """A chase on the map (:mod:`undercroft.rules.chase.moves`)."""

    group: int
    distance: int  # the walking distance between the sides, in feet
    rounds: int = 0
    fights: bool = True  # a friendly pursuer (reaction 12) follows but does not fight
    chaser: Side = Side.MONSTERS  # who runs after whom: the group after the party, or the party after the group
    to: tuple[int, int] | None = None  # where the runner runs first (the tile beyond its door) while not there yet
    trail: list[tuple[int, int]] = field(default_factory=list)  # the runner's path the chaser still has to follow
    lures: list[tuple[int, int]] = field(default_factory=list)  # tiles where the party dropped food or treasure
    fire: list[tuple[int, int]] = field(default_factory=list)  # tiles the party's burning oil sets alight
    fire_out: int = 0  # the chase's round when the fire has burnt out
    balked: bool = False  # the pursuer balked at the fire (it waits until it dies)


@dataclass
class LevelState:
    """One level of the dungeon as the game left it.

    The explored map (:attr:`explored`) is a view the rules never read: the union of what the party saw from
    each tile it looked round from (:meth:`look`). A look is only noted; its field of view is computed when the
    map is first read after it (by a screen or the bot), so a headless replay computes none."""

    index: int
    map: LevelMap
    visited: np.ndarray  # bool per segment
    #: bool (h, w + 1): the explored tiles of the looks folded in so far (read :attr:`explored`, its first w
    #: columns); the last column stays False, so the map's bits are read without a copy (:meth:`explored_bits`).
    memory: np.ndarray
    items: dict[tuple[int, int], list[tuple[str, int]]]  # floor: tile -> [(item id, amount)]
    groups: list[Group] = field(default_factory=list)
    fov_radius: int = 0  # how far the party sees on this level (the map profile's)
    #: looks not folded into ``memory`` yet: (tile, how far the party saw from it: a lantern sees farther)
    looks: list[tuple[tuple[int, int], int]] = field(default_factory=list)
    looked: set[tuple[tuple[int, int], int]] = field(default_factory=set)  # every look so far
    #: Counts the level's changes: :meth:`touch` (``visited`` or ``items``), a group added or removed, any change
    #: to one of its groups (the state's digest hashes the level again only when it moved). Not part of the state.
    rev: int = 0

    touched: int = 0  # the :meth:`touch` calls alone (its floor's items changed)
    visits: int = 0  # the :meth:`visit` calls that marked a segment

    def touch(self) -> None:
        """Say that ``items`` changed."""
        self.rev += 1
        self.touched += 1

    def visit(self, seg: int) -> None:
        """Segment ``seg`` is visited (its entry procedure ran, or the party arrived in it)."""
        if not self.visited[seg]:
            self.visited[seg] = True
            self.rev += 1
            self.visits += 1

    def add_group(self, g: Group) -> None:
        """Place ``g`` on this level (last in ``groups``)."""
        g.owner = self
        self.groups.append(g)
        self.rev += 1

    def remove_group(self, g: Group) -> None:
        """Take ``g`` off this level (it is defeated)."""
        self.groups.remove(g)
        g.owner = None
        self.rev += 1

    def look(self, pos: tuple[int, int], radius: int | None = None) -> None:
        """The party looks round from ``pos`` as far as ``radius`` (default the level's): what it sees from there is
        explored (computed when next read)."""
        key = (pos, self.fov_radius if radius is None else radius)
        if key not in self.looked:
            self.looked.add(key)
            self.looks.append(key)

    @property
    def explored(self) -> np.ndarray:
        """bool (h, w): every tile the party has seen on this level (the looks not folded in yet are folded in
        first, all at once: :func:`undercroft.rules.sight.fold_fov`)."""
        if self.looks:
            for radius in sorted({r for _, r in self.looks}):
                fold_fov(self.map, [p for p, r in self.looks if r == radius], radius, self.memory)
            self.looks.clear()
        return self.memory[:, : self.map.width]

    def explored_bits(self) -> int:
        """:attr:`explored` as one integer, bit ``y * (w + 1) + x`` (each row one unexplored tile longer): the
        layout of :func:`undercroft.rules.floods.flood_bits` and the bot's floods."""
        self.explored  # noqa: B018 (fold the looks in)
        return padded_bits(self.memory)


@dataclass
class GameState:
    seed: int
    ruleset: str
    depth: int
    levels: dict[int, LevelState]
    pos: tuple[int, int]
    prev_pos: tuple[int, int]
    segment: int
    segment_entry: tuple[int, int]  # the tile the party entered its current segment from
    party: list[Member]
    gold: int
    items: dict[str, int]
    rounds: int = 0  # the clock, in rounds of 10 s
    running_rounds: int = 0
    exhausted: bool = False
    rest_rounds: int = 0  # rounds rested since exhaustion
    mode: Mode = Mode.EXPLORE
    encounter: Encounter | None = None
    combat: Combat | None = None
    pursuit: Pursuit | None = None
    next_group: int = 1
    turn: int = 0  # actions taken
    death: dict[str, Any] | None = None
    kills: int = 0
    #: The creatures killed, by monster id (what the score and the morgue count). A tally of the past that play
    #: never reads: it is not part of the canonical state (``kills`` is), so a replay rebuilds it as it goes.
    slain: dict[str, int] = field(default_factory=dict)
    entered: bool = True  # the entry procedure of the party's segment is done (not yet, after a run into it)
    # segments the party stood in or ran through before their entry procedure, and has left: each still gets it,
    # in order, once the fight or the chase is over (:func:`undercroft.rules.explore.settle`)
    owed: list[int] = field(default_factory=list)
    fled: int = 0  # a group that has just gone its way from the party (it may be pursued now), else 0
    lost: int = 0  # a group that has just lost the party in a chase: the run's entries do not meet it again
    effects: dict[str, int] = field(default_factory=dict)  # a potion's effect -> the clock's round it ends at
    haul: int = 0  # ours: the value of the treasure taken up on this floor (renown once carried down the stairs)
    wares: dict[str, int] = field(default_factory=dict)  # ours: in a shop, what the merchant has left of each ware

    @property
    def level(self) -> LevelState:
        return self.levels[self.depth]

    def group(self, gid: int) -> Group:
        for lv in self.levels.values():
            for g in lv.groups:
                if g.id == gid:
                    return g
        raise KeyError(f"no monster group {gid}")

    def front_group(self) -> Group | None:
        """The group in front of the party: the one it fights, else the one chasing it, else the one it has met;
        None when there is none (exploring, or the group is gone)."""
        for holder in (self.combat, self.pursuit, self.encounter):
            if holder is not None:
                try:
                    return self.group(holder.group)
                except KeyError:
                    return None
        return None


_T = TypeVar("_T")


def _record(obj: _T) -> _T:
    """A copy of a state record whose fields are all immutable (ints, strings, tuples, enums): its attributes
    copied as they are, its change counter (``rev``) with them, as ``copy.deepcopy`` copies them."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


def fork_state(st: GameState) -> GameState:
    """What ``copy.deepcopy`` of ``st`` gives ``Game.fork``, built field by field (a rollout forks the game, and
    deepcopy's walk of every record was most of a rollout's cost): the party's level copied (its groups owned by
    the copy), every other level shared, the maps shared. A field added to the state's records that holds a mutable
    value must be copied here too (``tests/test_fork.py`` compares this with a deepcopy field by field)."""
    lv = st.level
    new_lv = _record(lv)
    nd = new_lv.__dict__
    nd["visited"] = lv.visited.copy()
    nd["memory"] = lv.memory.copy()
    nd["items"] = {tile: list(stack) for tile, stack in lv.items.items()}
    nd["looks"] = list(lv.looks)
    nd["looked"] = set(lv.looked)
    groups = []
    for g in lv.groups:
        ng = _record(g)
        ng.__dict__["owner"] = new_lv
        groups.append(ng)
    nd["groups"] = groups
    new = _record(st)
    d = new.__dict__
    d["levels"] = {k: new_lv if v is lv else v for k, v in st.levels.items()}
    d["party"] = [_record(m) for m in st.party]
    for name in ("items", "slain", "effects", "wares"):
        d[name] = dict(d[name])
    d["owed"] = list(st.owed)
    d["death"] = copy.deepcopy(st.death)
    if st.encounter is not None:
        d["encounter"] = _record(st.encounter)
    if st.combat is not None:
        d["combat"] = _record(st.combat)
    if st.pursuit is not None:
        p = d["pursuit"] = _record(st.pursuit)
        p.trail, p.lures, p.fire = list(p.trail), list(p.lures), list(p.fire)
    return new
