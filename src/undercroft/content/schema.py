"""Typed, frozen records for every rules data file under ``data/``.

Each ``*File`` model is the top level of one YAML file. Field constraints here give the per-field errors; the
cross-checks (bands that gap or overlap, 6x6 grids, names of monsters, items and tables) are in
:mod:`undercroft.content.content`, so every problem is reported with its file, line and column.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, StrictInt, StrictStr, model_validator

from undercroft.notation import Dice, DiceError
from undercroft.printable import printable


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


MAX_DICE_CHARS = 40  # a dice expression longer than this is refused before it is parsed


def _check_dice(text: str) -> str:
    if len(text) > MAX_DICE_CHARS:
        raise ValueError(f"dice expression longer than {MAX_DICE_CHARS} characters")
    try:
        Dice.parse(text)
    except DiceError as exc:
        raise ValueError(str(exc)) from None
    return text


def _check_colour(text: str) -> str:
    if not re.fullmatch(r"#[0-9a-fA-F]{6}", text):
        raise ValueError(f"colour '{text}' must be '#rrggbb'")
    return text.lower()


# Characters that print as nothing although Python calls them printable: the Hangul fillers, the blank Braille
# pattern, the null notehead, and the default-ignorable marks (a grapheme joiner, Khmer inherent vowels, Mongolian
# and other variation selectors) that show nothing by themselves.
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800\U0001d159\u034f\u17b4\u17b5\u180b\u180c\u180d\u180f")


def _visible(ch: str) -> bool:
    """Whether ``ch`` shows something by itself (not a space, a mark, a format character or a blank)."""
    return ch.isprintable() and not ch.isspace() and ch not in _BLANK and unicodedata.category(ch)[0] != "M"


def _check_glyph(text: str) -> str:
    from wcwidth import wcwidth

    if len(text) != 1 or not _visible(text) or wcwidth(text) != 1:
        raise ValueError(
            f"glyph {text!r} must be one printable character of one column (not a space, a mark or a blank)"
        )
    return text


def _check_text(text: str) -> str:
    """A name or a text the screens and the logs print: no control character (an escape sequence, a bell, a
    newline that would split a log line), no invisible format or line-separator character, no other character
    that does not print (a space other than ' ', a blank, a private or unassigned one), and something to see."""
    shown = printable(text)
    if shown != text:
        bad = next(ch for ch in text if printable(ch) != ch)
        raise ValueError(f"control character {printable(bad)} is not allowed in a name or a text")
    odd = next((ch for ch in text if ch != " " and (not ch.isprintable() or ch in _BLANK)), None)
    if odd is not None:
        what = unicodedata.name(odd, unicodedata.category(odd))
        raise ValueError(
            f"U+{ord(odd):04X} ({what}) cannot be seen: only visible characters and ' ' in a name or a text"
        )
    if not any(_visible(ch) for ch in text):
        raise ValueError("a name or a text must show something: this one is blank")
    return text


def _check_id(text: str) -> str:
    if not re.fullmatch(r"[a-z][a-z0-9_]*", text):
        raise ValueError(f"id '{text}' must be lower case letters, digits and '_'")
    return text


def dice_range(what: str, lo: int, hi: int) -> AfterValidator:
    """A check that a (valid) dice expression always rolls within ``lo``..``hi``: what the rules can take."""

    def check(text: str) -> str:
        d = Dice.parse(text)
        if d.minimum < lo:
            raise ValueError(f"{what} '{text}' can roll {d.minimum}, less than {lo}")
        if d.maximum > hi:
            raise ValueError(f"{what} '{text}' can roll {d.maximum}, more than {hi}")
        return text

    return AfterValidator(check)


# Bounds of the numbers the rules read (docs/DATA.md, "Bounds"). They keep every roll, loop and total small: a die
# of 2**64 + 1 faces would never roll (the unbiased sampler rejects every draw), a group of millions of monsters
# would not fit in memory, a negative heal would wound.
MAX_HP = 999
MAX_GROUP = 20  # number appearing, before the level's number_bonus (-10..10): a group is at most 30 strong
MAX_GOLD = 100_000  # one roll of gold: treasure, start gold, a pile, dropped treasure
MAX_PILES = 100  # piles of one item on a level
MAX_FEET = 10_000  # the encounter distance
MAX_DIE = 100  # faces of a die named by a number (attack, surprise, monster check, bribery)
MAX_BAND = 1_000_000_000  # a band end: well beyond any total (dice roll at most 100 x 1000 x 1000 + 100000)

DiceText = Annotated[StrictStr, AfterValidator(_check_dice)]
CountDice = Annotated[StrictStr, AfterValidator(_check_dice), dice_range("number appearing", 1, MAX_GROUP)]
GoldDice = Annotated[StrictStr, AfterValidator(_check_dice), dice_range("gold", 0, MAX_GOLD)]
HealDice = Annotated[StrictStr, AfterValidator(_check_dice), dice_range("heal", 0, MAX_HP)]
DamageDice = Annotated[StrictStr, AfterValidator(_check_dice), dice_range("damage", 0, MAX_HP)]
PileDice = Annotated[StrictStr, AfterValidator(_check_dice), dice_range("count", 0, MAX_PILES)]
AmountDice = Annotated[StrictStr, AfterValidator(_check_dice), dice_range("amount", 1, MAX_GOLD)]
FeetDice = Annotated[StrictStr, AfterValidator(_check_dice), dice_range("distance", 0, MAX_FEET)]
Colour = Annotated[StrictStr, AfterValidator(_check_colour)]
Glyph = Annotated[StrictStr, AfterValidator(_check_glyph)]
Id = Annotated[StrictStr, Field(max_length=64), AfterValidator(_check_id)]
Percent = Annotated[StrictInt, Field(ge=0, le=100)]
Text = Annotated[StrictStr, Field(min_length=1, max_length=2000), AfterValidator(_check_text)]
BandEnd = Annotated[StrictInt, Field(ge=-MAX_BAND, le=MAX_BAND)]

# --- monsters.yaml -------------------------------------------------------------------------------------------

Behaviour = Literal[
    "passive",  # never initiates; strikes once at a party that walks past it (leaves by another door)
    "kneels",  # idle until the party is inside its room; goes back to idle when left alone a round
    "submerged",  # hidden until the party has passed; then strikes from behind and never stops
    "holds_ground",  # never closes, never pursues, never leaves; strikes only when struck
]


class Monster(Model):
    name: Text
    plural: Text | None = None  # several of it, where adding "s" (or "es") to the name is wrong
    pronoun: Literal["it", "he", "she"] = "it"  # how the words speak of one ("Where she fell lies ...")
    hp: Annotated[StrictInt, Field(ge=1, le=999)]
    defense: Annotated[StrictInt, Field(ge=0, le=40)]
    attack: Annotated[StrictInt, Field(ge=-10, le=30)]
    damage: Annotated[StrictInt, Field(ge=1, le=99)]
    agility: Annotated[StrictInt, Field(ge=0, le=20)]
    strength: Annotated[StrictInt, Field(ge=0, le=20)]
    reluctance: Annotated[StrictInt, Field(ge=0, le=20)]
    speed: Annotated[StrictInt, Field(ge=0, le=480)]
    intelligent: StrictBool
    self_preservation: StrictBool
    number: CountDice
    treasure: GoldDice
    negotiable: StrictBool
    pursues: StrictBool
    behaviours: tuple[Behaviour, ...] = ()
    acts_every: Annotated[StrictInt, Field(ge=1, le=10)] = 1
    regenerate: Annotated[StrictInt, Field(ge=0, le=99)] = 0
    glyph: Glyph
    colour: Colour
    worth: Annotated[StrictInt, Field(ge=0, le=9999)]  # what killing one counts for (score, growth)
    unique: StrictBool = False  # a named creature: one of it, met once per game
    # ours: items its hoard holds besides gold, left where it falls (a named creature's prize: a reason to fight it)
    spoils: tuple[Id, ...] = Field(default=(), max_length=8)
    # ours: what an agreement (000's negotiation) brings besides peace: the stairs shown, a hireling, a merchant
    agreement: Literal["directions", "hireling", "trade"] | None = None
    description: Text


MonstersFile = dict[Id, Monster]

# --- items.yaml ----------------------------------------------------------------------------------------------

ItemKind = Literal["gold", "potion", "food", "oil", "weapon", "armour", "tool", "treasure", "chart"]
#: What a potion (for a while) or a tool (while carried) does besides healing: ``fleetness`` adds ``bonus`` feet to
#: each character's speed, ``heroism`` ``bonus`` to each character's attack roll, ``sight`` ``bonus`` tiles to how
#: far the party sees.
Effect = Literal["fleetness", "heroism", "sight", "vigour"]


class Item(Model):
    name: Text
    kind: ItemKind
    glyph: Glyph
    colour: Colour
    description: Text
    heal: HealDice | None = None  # potions
    damage: Annotated[StrictInt, Field(ge=0, le=99)] = 0  # weapons: added to MIGHT
    to_hit: Annotated[StrictInt, Field(ge=-10, le=10)] = 0  # weapons: added to the attack roll
    defense: Annotated[StrictInt, Field(ge=0, le=20)] = 0  # armour: added to the wearer's defense...
    speed_penalty: Annotated[StrictInt, Field(ge=0, le=480)] = 0  # ...and taken off its speed (feet per round)
    effect: Effect | None = None  # potions (for ``rounds`` rounds of the clock) and tools (while carried)
    bonus: Annotated[StrictInt, Field(ge=0, le=99)] = 0  # the effect's size
    rounds: Annotated[StrictInt, Field(ge=0, le=1000)] = 0  # a potion's effect lasts this many rounds
    limit: Annotated[StrictInt, Field(ge=0, le=999)] = 0  # vigour: the most maximum HP it adds in all (0: no limit)
    oil_damage: DamageDice | None = None  # oil thrown in a fight
    value: Annotated[StrictInt, Field(ge=0, le=MAX_GOLD)] = 0  # treasure: what it is worth in gold
    price: Annotated[StrictInt, Field(ge=1, le=MAX_GOLD)] | None = None  # gold a merchant asks; None: not sold


ItemsFile = dict[Id, Item]

# --- party.yaml ----------------------------------------------------------------------------------------------


class Character(Model):
    name: Text
    hp: Annotated[StrictInt, Field(ge=1, le=999)]
    might: Annotated[StrictInt, Field(ge=-5, le=30)]
    agility: Annotated[StrictInt, Field(ge=0, le=20)]
    defense: Annotated[StrictInt, Field(ge=0, le=40)]
    weapon: Id
    negotiation: Annotated[StrictInt, Field(ge=-10, le=10)] = 0
    speed: Annotated[StrictInt, Field(ge=0, le=480)]
    glyph: Glyph
    colour: Colour


PartyFile = dict[Id, Character]

# --- tables.yaml ---------------------------------------------------------------------------------------------


class Band(Model):
    """A band of totals: ``min`` and ``max`` inclusive; an open end is left out (negotiation only)."""

    min: BandEnd | None = None
    max: BandEnd | None = None


class ReactionBand(Band):
    result: Literal["attacks", "hostile", "uncertain", "peaceful", "friendly"]
    label: Text
    attacks_chance: Percent  # chance the monster attacks when the party waits or acts hostile
    standoff_attacks: Percent  # chance a monster still facing the party at a standoff's end attacks (else it goes)
    pursuit: Percent  # chance the monster chases a party that runs (seed 003 table)
    pursuit_fights: StrictBool = True  # on 12 the monster pursues but does not fight


class ReactionTable(Model):
    dice: DiceText
    bands: tuple[ReactionBand, ...]


class NegotiationBand(Band):
    result: Literal["failure", "agreement", "intimidation"]


class Fraction(Model):
    numerator: Annotated[StrictInt, Field(ge=0, le=100)]
    denominator: Annotated[StrictInt, Field(ge=1, le=100)]
    rounding: Literal["down", "up", "nearest"]

    @model_validator(mode="after")
    def _a_share(self) -> Fraction:
        if self.numerator > self.denominator:
            raise ValueError(f"{self.numerator}/{self.denominator} is more than the whole treasure")
        return self


class NegotiationTable(Model):
    dice: DiceText
    use_reluctance: StrictBool = True
    use_ability: StrictBool = True
    bands: tuple[NegotiationBand, ...]
    tribute: Fraction


class GoldBand(Model):
    min: Annotated[StrictInt, Field(ge=1, le=MAX_BAND)]
    max: Annotated[StrictInt, Field(ge=1, le=MAX_BAND)] | None = None


class BriberyTable(Model):
    die: Annotated[StrictInt, Field(ge=2, le=MAX_DIE)]
    columns: tuple[Band, ...]  # strength + reluctance of the strongest monster
    rows: tuple[GoldBand, ...]  # gold offered
    cells: tuple[tuple[Annotated[StrictInt, Field(ge=0, le=6)], ...], ...]


class Distractions(Model):
    food: Percent  # an unintelligent pursuer stops to eat
    treasure: Percent  # an intelligent pursuer stops for dropped treasure
    treasure_gold: GoldDice  # how much gold a "drop treasure" throws down (capped by what the party has)
    oil_stops: Percent  # burning oil stops a pursuer with self-preservation...
    oil_slows_rounds: Annotated[StrictInt, Field(ge=0, le=60)]  # ...otherwise the fire holds it this many rounds
    oil_tiles: Annotated[StrictInt, Field(ge=1, le=10)]  # the tiles behind the party that the oil sets burning


class TablesFile(Model):
    reaction: ReactionTable
    negotiation: dict[Id, NegotiationTable]
    bribery: BriberyTable
    distractions: Distractions


# --- rules.yaml ----------------------------------------------------------------------------------------------


class TimeRules(Model):
    round_seconds: Annotated[StrictInt, Field(ge=1, le=3600)]
    rounds_per_turn: Annotated[StrictInt, Field(ge=1, le=1000)]
    move_rounds: Annotated[StrictInt, Field(ge=0, le=60)]  # rounds one step of exploring costs
    rest_rounds: Annotated[StrictInt, Field(ge=1, le=1000)]  # rounds one "rest" action takes
    rest_heal: Annotated[StrictInt, Field(ge=0, le=99)]  # HP each living character regains per rest action


class FatigueRules(Model):
    max_running_rounds: Annotated[StrictInt, Field(ge=1, le=1000)]
    rest_turns: Annotated[StrictInt, Field(ge=1, le=100)]
    to_hit_penalty: Annotated[StrictInt, Field(ge=0, le=20)]
    damage_penalty: Annotated[StrictInt, Field(ge=0, le=20)]
    opponent_bonus: Annotated[StrictInt, Field(ge=0, le=20)]
    minimum_damage: Annotated[StrictInt, Field(ge=0, le=20)]


class CombatRules(Model):
    attack_die: Annotated[StrictInt, Field(ge=2, le=MAX_DIE)]
    always_miss: Annotated[StrictInt, Field(ge=1, le=MAX_DIE)]  # natural face that always misses
    critical: Annotated[StrictInt, Field(ge=1, le=MAX_DIE)]  # natural face that always hits...
    critical_multiplier: Annotated[StrictInt, Field(ge=1, le=10)]  # ...for this many times the damage
    monster_targeting: Literal["lowest_hp", "first", "random"]


class EncounterRules(Model):
    distance: FeetDice  # feet
    feet_per_tile: Annotated[StrictInt, Field(ge=1, le=100)]  # the map's scale
    surprise_die: Annotated[StrictInt, Field(ge=2, le=MAX_DIE)]
    surprised_max: Annotated[StrictInt, Field(ge=0, le=MAX_DIE)]  # faces 1..this are surprised
    running_multiplier: Annotated[StrictInt, Field(ge=1, le=10)]  # running speed = speed x this, per round
    pursuit_max_rounds: Annotated[StrictInt, Field(ge=1, le=1000)]
    approach_rounds: Annotated[StrictInt, Field(ge=0, le=1000)]  # an unseen group that knows of the party seeks it
    standoff_rounds: Annotated[StrictInt, Field(ge=1, le=1000)]  # a meeting that goes nowhere ends after this


class CheckRules(Model):
    die: Annotated[StrictInt, Field(ge=2, le=MAX_DIE)]
    resident_max: Annotated[StrictInt, Field(ge=0, le=MAX_DIE)]  # unvisited room: resident on 1..this
    wandering_max: Annotated[StrictInt, Field(ge=0, le=MAX_DIE)]  # visited room or corridor: wanderer on 1..this


class ScoreRules(Model):
    """Ours (the texts keep no score): what a finished game counts for (rules/formulas.py: score)."""

    per_floor: Annotated[StrictInt, Field(ge=0, le=100_000)]  # per floor reached, the deepest counted
    per_worth: Annotated[StrictInt, Field(ge=0, le=1000)]  # per point of `worth` of the monsters killed
    win: Annotated[StrictInt, Field(ge=0, le=1_000_000)]  # a won game's bonus


class GrowthRules(Model):
    """Ours: a delver who grows. Renown comes from the ``worth`` of monsters killed and from treasure carried down
    the stairs; the first level more costs ``renown_per_level`` renown and each one after it ``renown_step`` more
    than the one before (the curve: :func:`undercroft.rules.formulas.renown_for`), and each level brings
    ``hp_per_level`` more hit points, and +1 MIGHT or AGILITY (or +1 HP healed a turn of rest) at the levels named."""

    renown_per_level: Annotated[StrictInt, Field(ge=1, le=MAX_GOLD)]
    renown_step: Annotated[StrictInt, Field(ge=0, le=MAX_GOLD)] = 0  # each level costs this much more than the last
    gold_per_renown: Annotated[StrictInt, Field(ge=1, le=MAX_GOLD)]  # treasure's value carried down, per renown
    max_level: Annotated[StrictInt, Field(ge=1, le=99)]
    hp_per_level: Annotated[StrictInt, Field(ge=0, le=99)]
    might_at: tuple[Annotated[StrictInt, Field(ge=2, le=99)], ...] = ()
    agility_at: tuple[Annotated[StrictInt, Field(ge=2, le=99)], ...] = ()
    rest_heal_at: tuple[Annotated[StrictInt, Field(ge=2, le=99)], ...] = ()  # +1 HP a turn of rest at each
    # a victory's renown is whole for a character up to this many levels above the floor's number, and halves for
    # each level more (monsters far below a delver teach it little; none: always whole)
    outgrown_after: Annotated[StrictInt, Field(ge=0, le=99)] | None = None


class StockItem(Model):
    item: Id
    from_floor: Annotated[StrictInt, Field(ge=1, le=20)] = 1  # offered on arriving at this floor (1: the first)...
    to_floor: Annotated[StrictInt, Field(ge=1, le=20)] = 20  # ...up to this floor
    count: PileDice = "1"  # how many of it each merchant has (rolled when its shop opens; 0: none this time)
    chance: Percent = 100  # the chance a merchant has it at all (rolled on d100 when its shop opens, after count)

    @model_validator(mode="after")
    def _floors(self) -> StockItem:
        if self.to_floor < self.from_floor:
            raise ValueError(f"to_floor {self.to_floor} is before from_floor {self.from_floor}")
        return self


class ShopRules(Model):
    """Ours: the merchant at the foot of the stairs (a ruleset with ``shop: true``) and the peddler's wares."""

    stock: tuple[StockItem, ...] = Field(min_length=1, max_length=40)


class RulesFile(Model):
    time: TimeRules
    fatigue: FatigueRules
    combat: CombatRules
    encounter: EncounterRules
    check: CheckRules
    score: ScoreRules
    growth: GrowthRules
    shop: ShopRules


# --- encounters.yaml -----------------------------------------------------------------------------------------


def _check_cell(text: str) -> str:
    if not re.fullmatch(r"\S+( \S+)?", text):  # (\S: no blank of any kind, a no-break space included)
        raise ValueError(f"cell {text!r} must be 'monster_id' or 'monster_id NdM', one space between")
    return text


class EncounterTable(Model):
    """A 6x6 grid; each cell is ``monster_id`` or ``monster_id NdM`` (number appearing overrides the monster's)."""

    rows: tuple[tuple[Annotated[StrictStr, AfterValidator(_check_cell)], ...], ...]


EncountersFile = dict[Id, EncounterTable]

# --- dungeon.yaml --------------------------------------------------------------------------------------------


ROOM_GAP = 3  # tiles between two rooms, and between a room and the map's edge (rules/dungeon.py places them)
MIN_ROOM = 3  # the smallest room's side


class Hall(Model):
    """One great room placed before the others (a long gallery, a vault): the level's set piece."""

    width_min: Annotated[StrictInt, Field(ge=3, le=194)]
    width_max: Annotated[StrictInt, Field(ge=3, le=194)]
    height_min: Annotated[StrictInt, Field(ge=3, le=194)]
    height_max: Annotated[StrictInt, Field(ge=3, le=194)]
    centre: StrictBool = False  # in the middle of the map (else anywhere it fits)


class MapGen(Model):
    width: Annotated[StrictInt, Field(ge=20, le=200)]
    height: Annotated[StrictInt, Field(ge=15, le=200)]
    rooms_min: Annotated[StrictInt, Field(ge=2, le=60)]
    rooms_max: Annotated[StrictInt, Field(ge=2, le=60)]
    room_size_min: Annotated[StrictInt, Field(ge=3, le=30)]
    room_size_max: Annotated[StrictInt, Field(ge=3, le=40)]
    fov_radius: Annotated[StrictInt, Field(ge=1, le=100)]
    hall: Hall | None = None  # a great room first, counted among the rooms
    loops: Annotated[StrictInt, Field(ge=0, le=20)] | None = None  # extra joins between near rooms (None: 1..n/4+1)
    water: Percent = 0  # chance that a room (not the start) is flooded inside its rim

    def room_capacity(self) -> int:
        """The most rooms of ``room_size_min`` the map can hold, ``ROOM_GAP`` apart and from the edge: each room
        with the gap beside it is a square of side + gap in a (width - gap) x (height - gap) box, and squares set
        square to a box fit at most as many as in rows and columns."""
        side = max(MIN_ROOM, self.room_size_min) + ROOM_GAP
        return ((self.width - ROOM_GAP) // side) * ((self.height - ROOM_GAP) // side)

    @model_validator(mode="after")
    def _fits(self) -> MapGen:
        if self.rooms_min > (cap := self.room_capacity()):
            raise ValueError(
                f"rooms_min {self.rooms_min} cannot fit: a {self.width}x{self.height} map holds at most {cap} "
                f"rooms of room_size_min {self.room_size_min}"
            )
        return self


class FloorItem(Model):
    item: Id
    count: PileDice  # how many piles of it a level holds
    amount: AmountDice = "1"  # per pile (gold: pieces)


DungeonFile = dict[Id, MapGen]  # map generation profiles

# --- rulesets.yaml -------------------------------------------------------------------------------------------


class Procedures(Model):
    monster_check: StrictBool  # seed 000: resident / wandering checks on entering a segment
    surprise: StrictBool  # seed 003
    distance: StrictBool  # seed 003
    reaction: StrictBool  # seed 003
    negotiation: StrictBool  # seed 000
    bribery: StrictBool  # seed 000
    pursuit: StrictBool  # seed 003: monsters that pursue chase a running party
    fatigue: StrictBool  # seed 003: running rounds, rest, exhaustion
    # The party may run from an encounter or a fight (001 free exit, 003 evasion); seed 000 as written has none:
    # talk, bribe or fight, and a fight ends with the death of one side.
    running: StrictBool


class OutOfDepth(Model):
    """Ours (the out-of-depth monsters of DCSS): a monster found on this level comes, on 1..``max`` of a d``die``,
    from the encounter table ``table`` (a deeper floor's) instead, carrying ``hoard`` times its treasure; a
    wanderer from ``wandering`` where it is given (a deep room's residents that never leave it, a caryatid holding
    up its gallery, do not come walking). A wanderer a turn of rest finds comes from deeper on 1..``resting``
    where it is given (what roams deep down finds a delver who rests)."""

    table: Id
    wandering: Id | None = None
    die: Annotated[StrictInt, Field(ge=2, le=100)]
    max: Annotated[StrictInt, Field(ge=0, le=100)]
    hoard: Annotated[StrictInt, Field(ge=1, le=10)] = 1
    resting: Annotated[StrictInt, Field(ge=0, le=100)] | None = None


class Level(Model):
    name: Text
    mapgen: Id
    resident: Id  # encounter table
    wandering: Id
    number_bonus: Annotated[StrictInt, Field(ge=-10, le=10)] = 0  # level adjustment of number appearing
    items: tuple[FloorItem, ...] = ()
    final: StrictBool = False
    guardians: tuple[Id, ...] = ()  # final level: monsters waiting in the last rooms
    unique: Id | None = None  # a monster with `unique: true`, waiting in the level's set-piece room
    greeting: Text | None = None  # ours: the line that greets the party on arrival (narrate/), a hint of what waits
    out_of_depth: OutOfDepth | None = None  # ours: now and then a monster from deeper down, with a bigger hoard
    # ours: this floor's `growth.outgrown_after` (a victory's renown whole up to this many levels above the floor)
    outgrown_after: Annotated[StrictInt, Field(ge=0, le=99)] | None = None


class Ruleset(Model):
    title: Text
    description: Text
    party: tuple[Id, ...] = Field(min_length=1, max_length=4)
    procedures: Procedures
    negotiation_table: Id
    start_gold: GoldDice
    start_items: dict[Id, Annotated[StrictInt, Field(ge=0, le=99)]]
    check: CheckRules | None = None  # overrides rules.yaml's monster check chances
    # When given, the ruleset decides who can be talked to and bribed: every monster but these (seed 000 as
    # written: The Nameless One and Demons). Otherwise each monster's `negotiable` decides.
    unnegotiable: tuple[Id, ...] | None = None
    levels: tuple[Level, ...] = Field(min_length=1, max_length=20)
    shop: StrictBool = False  # ours: a merchant waits at the foot of every stairs down (rules.yaml `shop:`)
    growth: StrictBool = False  # ours: the characters gain renown and levels (rules.yaml `growth:`)
    # ours: talk that pays: a monster's `agreement` (the way down, a hireling, trade) brings more than peace
    agreements: StrictBool = False
    # ours: the share (percent) of its rolled treasure a monster met by the monster check carries (uniques,
    # guardians and what lies on the floor are whole); a ruleset whose merchants sell power keeps gold scarce
    treasure_percent: Annotated[StrictInt, Field(ge=1, le=100)] = 100


def _some_ruleset(rulesets: dict[str, Ruleset]) -> dict[str, Ruleset]:
    if not rulesets:
        raise ValueError("no ruleset: the game needs at least one to play")
    return rulesets


RulesetsFile = Annotated[dict[Id, Ruleset], AfterValidator(_some_ruleset)]
