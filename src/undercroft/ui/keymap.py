"""Every key of every screen, in one table: what each key means in each mode.

The scenes do not test keys themselves: they ask :func:`lookup` which command a key press is in their mode and
run their handler for that command (a scene handles exactly the commands of its mode: a test checks it). The help
screen (``?``) and the key tables of docs/PLAYING.md are made from the same table
(``python -m undercroft.ui.keytable --write``; a test fails when PLAYING.md is out of date).

**One key, one meaning.** In the modes of a game (exploring, an encounter, a fight, being pursued, giving chase)
a key means one command wherever it is bound: ``f`` is "fight" everywhere, ``q`` "drink", ``r`` "run"; the keys
that walk (arrows, the numpad, the digit row laid out as a numpad, the vi-keys ``hjkl yubn``) walk in every one of
them (in a fight or a chase, walking away is running: the screen says so, and takes no turn). On the screens a
game opens over the map (the door choice, look, the log, a menu) those keys move the cursor or scroll, and nothing
else. :func:`conflicts` finds what breaks this; the test runs it over this table (and over a broken one, to show
it can fail). The title screen and the past games list are outside a game: their letters are their menu's.

Key names: a character as typed (``f``, ``L`` is Shift+L, ``>``, ``;``, ``$``, the digits ``1``-``9``), or
``Up Down Left Right Home End PgUp PgDn`` (with ``Shift+`` in front when Shift is held), ``KP1``-``KP9`` (the
numpad in keypad mode), ``Enter``, ``Esc``, ``Tab``, ``Shift+Tab``, ``Backspace``, ``Space``. Mouse rows are
documentation only: their handlers are the scenes' mouse code.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

import tcod.event
from tcod.event import KeySym, Modifier

from undercroft.ui import keys

K = KeySym

_NAMED: Final[dict[KeySym, str]] = {
    K.UP: "Up",
    K.DOWN: "Down",
    K.LEFT: "Left",
    K.RIGHT: "Right",
    K.HOME: "Home",
    K.END: "End",
    K.PAGEUP: "PgUp",
    K.PAGEDOWN: "PgDn",
    K.RETURN: "Enter",
    K.KP_ENTER: "Enter",
    K.ESCAPE: "Esc",
    K.TAB: "Tab",
    K.BACKSPACE: "Backspace",
    K.SPACE: "Space",
    **{getattr(K, f"KP_{n}"): f"KP{n}" for n in range(1, 10)},
}
_SHIFTABLE: Final = frozenset(
    {"Up", "Down", "Left", "Right", "Home", "End", "PgUp", "PgDn", "Tab", *(f"KP{n}" for n in (1, 2, 3, 4, 6, 7, 8, 9))}
)


def key_name(event: tcod.event.KeyDown) -> str | None:
    """The table's name of a key press ("f", "L", ">", "Up", "Shift+Up", "KP8", "Enter", "Alt+Enter"), or None
    for a key the game has no name for (a modifier alone, a function key)."""
    mod = event.mod
    named = _NAMED.get(event.sym)
    if named is not None:
        if mod & Modifier.ALT and named == "Enter":
            return "Alt+Enter"
        if mod & (Modifier.CTRL | Modifier.ALT | Modifier.GUI):
            return None
        if mod & Modifier.SHIFT and named in _SHIFTABLE:
            return "Shift+" + named
        return named
    if mod & (Modifier.CTRL | Modifier.ALT | Modifier.GUI):
        return None
    return keys.char(event)


# --- the keys that walk ------------------------------------------------------------------------------------------

_DIRS: Final = {
    "n": (0, -1),
    "s": (0, 1),
    "w": (-1, 0),
    "e": (1, 0),
    "nw": (-1, -1),
    "ne": (1, -1),
    "sw": (-1, 1),
    "se": (1, 1),
}
_WALK_BY_DIR: Final[dict[str, tuple[str, ...]]] = {
    "n": ("Up", "KP8", "8", "k"),
    "s": ("Down", "KP2", "2", "j"),
    "w": ("Left", "KP4", "4", "h"),
    "e": ("Right", "KP6", "6", "l"),
    "nw": ("Home", "KP7", "7", "y"),
    "ne": ("PgUp", "KP9", "9", "u"),
    "sw": ("End", "KP1", "1", "b"),
    "se": ("PgDn", "KP3", "3", "n"),
}
#: Every key that walks, and its step (dx, dy).
WALK: Final[dict[str, tuple[int, int]]] = {k: _DIRS[d] for d, ks in _WALK_BY_DIR.items() for k in ks}
WALK_KEYS: Final = tuple(WALK)
SHIFT_WALK: Final[dict[str, tuple[int, int]]] = {
    **{f"Shift+{k}": d for k, d in WALK.items() if f"Shift+{k}" != k and k in _SHIFTABLE},
    **{k.upper(): d for k, d in WALK.items() if k.isalpha()},  # the vi-keys with Shift: "K" as typed
}
REST_KEYS: Final = ("z", ".", "KP5", "5")

WALK_SHOWN: Final = "arrows, numpad, 1-9, vi"
WALK_MD: Final = "arrows, numpad, digits `1`-`9` (laid out as the numpad), `h j k l y u b n`"


def direction(name: str) -> tuple[int, int] | None:
    """The step of a walking key (with Shift, the same direction), or None."""
    return WALK.get(name) or SHIFT_WALK.get(name)


#: The letters the things a party may carry are named by, in the inventory and the use list: every letter that
#: does not walk (a list's letter takes its line; a walking key moves the cursor), lower case first.
ITEM_LETTERS: Final = "".join(c for c in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" if c not in WALK)


def item_letter(catalogue: tuple[str, ...], item: str) -> str:
    """The one letter of ``item`` for the whole game (every game of the same data), as DCSS and NetHack keep an
    item's letter: by its place in the catalogue of every item (``rules.items.catalogue``), never by what else is
    carried now, so a list that grows or shrinks never moves a letter. "" past the last letter."""
    i = catalogue.index(item)
    return ITEM_LETTERS[i] if i < len(ITEM_LETTERS) else ""


def list_step(name: str) -> int:
    """Where a walking key moves the choice in a list: up or left the one before (-1), down or right the next."""
    dx, dy = WALK[name]
    return -1 if dy < 0 or (dy == 0 and dx < 0) else 1


# --- the table ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bind:
    """``keys`` mean ``command`` in a mode. ``help`` is the help screen's line; ``shown`` how the keys are
    written there (default: the key names); ``doc`` and ``md`` the same for PLAYING.md (default: help, and the
    names in backquotes)."""

    command: str
    keys: tuple[str, ...]
    help: str
    shown: str = ""
    doc: str = ""
    md: str = ""

    def shown_keys(self) -> str:
        return self.shown or "  ".join(self.keys)

    def md_keys(self) -> str:
        if self.md:
            return self.md
        if self.shown and not self.keys:
            return self.shown
        return ", ".join(f"`{k}`" if len(k) == 1 else k for k in self.keys)

    def doc_text(self) -> str:
        return self.doc or self.help


@dataclass(frozen=True)
class KeyMode:
    """One mode's keys. ``game``: a mode of a game (the map live under a panel); ``overlay``: a screen a game
    opens over the map (its walking keys move a cursor). Neither: outside a game (the title)."""

    name: str
    title: str
    binds: tuple[Bind, ...]
    game: bool = False
    overlay: bool = False
    lookup: dict[str, str] = field(default_factory=dict, compare=False, repr=False)

    def commands(self) -> frozenset[str]:
        """The commands a scene of this mode must handle (the mouse rows are documentation)."""
        return frozenset(b.command for b in self.binds if b.keys)


def _mouse(shown: str, help_: str, doc: str = "") -> Bind:
    return Bind("mouse", (), help_, shown=shown, doc=doc)


def _no_stairs(where: str, also: str = "") -> Bind:
    """``>`` where there are no stairs to take (a fight, a chase): bound so that the engine's refusal says why."""
    return Bind(
        "stairs",
        (">",),
        f"(no stairs {where}: the panel says why)",
        doc=f"no going down {where} (the panel says why, and no turn passes){also}",
    )


def _common(help_title: str = "pause: carry on, or back to the title (kept)") -> tuple[Bind, ...]:
    return (
        Bind(
            "inventory",
            ("i",),
            "inventory; q in it drinks, u uses a thing",
            doc="inventory: gold, each character's level and kit, what you carry; `q` drinks from there, `u` uses "
            "something you carry (wield a weapon, put on armour, drink any potion, read a chart)",
        ),
        Bind(
            "look",
            (";",),
            "look: a cursor says what is there (Tab: next creature)",
            doc="look: a cursor over the map says what is there (see **Look**)",
        ),
        Bind(
            "log",
            ("L",),
            "the whole log (Shift+L); in it, a: the rolls too",
            doc="the whole message log (Shift+L); Up/Down, PgUp/PgDn, Home/End or the mouse wheel scroll it; "
            "`a` (or Tab) shows more: the rolls behind what happened, then the rules' own working too",
        ),
        Bind(
            "overview",
            ("X",),
            "the whole level on one screen",
            doc="the level overview: the whole explored level on one screen, whatever the screen's size (where it "
            "does not fit, each cell stands for a block of tiles and shows its most telling one: you, the stairs, a "
            "monster in sight or an item, a door); any key closes it",
        ),
        Bind("help", ("?",), "help: every key"),
        Bind(
            "title",
            ("Esc",),
            help_title,
            doc="pause: a menu that carries on (`c`, or Esc again), goes back to the title screen (`t`; the game "
            "stays saved: Continue resumes it) or sets the HP share under which walks do not start (`w`). Esc never "
            "leaves a game at once",
        ),
    )


DIRECTIONAL: Final = frozenset({"walk", "cursor", "scroll"})  # what a walking key may mean anywhere in a game

EXPLORE = KeyMode(
    "explore",
    "Exploring",
    game=True,
    binds=(
        Bind(
            "walk",
            WALK_KEYS,
            "walk (eight directions; vi-keys: hjkl yubn)",
            shown=WALK_SHOWN,
            md=WALK_MD,
            doc="walk one tile (eight directions). Walking into a room or corridor is when a monster may be there",
        ),
        Bind(
            "stairs",
            (">",),
            "walk to the known stairs; on them, go down (last level: out, and win)",
            doc="go down the stairs (standing on them); once you have seen them, walk there (see **Travel and "
            "auto-explore**); on the last level they are the way out",
        ),
        Bind(
            "explore",
            ("x",),
            "explore: walk to the nearest place not yet seen",
            doc="auto-explore: walk to the nearest place not yet explored (see **Travel and auto-explore**)",
        ),
        Bind(
            "rest",
            REST_KEYS,
            "rest a turn (wanderers may come)",
            shown="z  .  5",
            md="`z`, `.`, numpad 5, `5`",
            doc=(
                "rest a turn: time passes, exhaustion wears off, a wandering monster may come. Where one may, the"
                " first press only tells the chance of one each turn (the same words as `Z`), and the next rests;"
                " the presses after it rest at once"
            ),
        ),
        Bind(
            "rest_long",
            ("Z",),
            "rest until healed (the wanderer's odds first; stops if anything comes)",
            doc="rest turn by turn until your hit points are full and any exhaustion is gone; first the chance that "
            "a wanderer comes before then (`r` rests); it stops as a walk does, when anything happens (a wandering "
            "monster, a group coming into sight), and says after how long and why",
        ),
        Bind(
            "fight",
            ("f",),
            "attack a monster here (several: which? at peace: asked)",
            doc="attack a monster in this room or corridor: one met and left alone, or one you made terms with (an "
            "agreement holds only while you do not attack). With more than one group in sight here, a menu asks "
            "which (the nearest first, `(at peace)` marked); attacking a group at peace asks first (`a` attacks, "
            "`s` or Esc leaves it be). With none here but one in sight beyond, the log says where it is (`The Ghoul "
            "is 50 ft away, beyond this room or corridor: walk up to meet it.`)",
        ),
        Bind(
            "pursue",
            ("p",),
            "pursue a monster that has just gone its way",
            doc="pursue the monster that has just gone its way: offered at the top of the map (`The Kobold goes its "
            "way: [p] pursue`) right after it leaves; any other action lets it go",
        ),
        Bind("drink", ("q",), "drink a healing potion (in a party: choose who)"),
        Bind(
            "bribe",
            ("$",),
            "bribe: only in a meeting (says so; what you type waits)",
            doc="a bribe is offered in a meeting only: exploring, a notice says so and holds what you type after "
            "the `$` (a sum's digits would walk) until Enter, Esc or Space",
        ),
        *_common(),
        _mouse(
            "click",
            "walk to a known tile (any key or click stops a walk)",
            doc="walk to the known tile clicked (any key or click stops the walk); a click on the `[p]` offer pursues",
        ),
        _mouse("pointer", "the top row says what is under it", doc="the top row of the map says what is under it"),
    ),
)

ENCOUNTER = KeyMode(
    "encounter",
    "An encounter",
    game=True,
    binds=(
        Bind(
            "walk",
            WALK_KEYS,
            "walk on past, or away",
            shown=WALK_SHOWN,
            md=WALK_MD,
            doc="walk on past, or away (where the monster lets you)",
        ),
        Bind("fight", ("f",), "fight (once it is in sight: you close in first)", doc="fight"),
        Bind("talk", ("t",), "talk (negotiate)"),
        Bind(
            "bribe",
            ("$",),
            "bribe: type the gold you offer (odds shown as you type)",
            doc="bribe: type the gold you offer; the dialog says in words how often the bribery table takes that sum "
            "(`Accepted 3 times in 6 (50%); if not, it keeps the gold and attacks.`, or never, or always) before "
            "you confirm; when no bribe can be offered, a notice says why (and holds what you type until Enter)",
        ),
        Bind(
            "run",
            ("r",),
            "run through a door (several open: choose which)",
            doc="run through a door of this room or corridor (see **Running** below); a faster party gets away, else "
            "monsters that pursue may follow (no running in the citadel)",
        ),
        Bind(
            "wait",
            ("w",),
            "wait a round",
            doc="wait a round (a hostile monster may attack; one that neither comes nor goes makes up its mind)",
        ),
        Bind("food", ("d",), "drop food (to stop a pursuer)"),
        Bind("treasure", ("g",), "drop treasure (to stop a pursuer)"),
        Bind("oil", ("o",), "burning oil"),
        Bind("drink", ("q",), "drink"),
        Bind(
            "stairs",
            (">",),
            "on the stairs, if it lets you go: down (last level: out)",
            doc="on the stairs, when the monster lets you go (peaceful, kneeling, holding its ground, or surprised in "
            "the first round): go down; on the last level, leave and win (the panel shows `[>]` only then)",
        ),
        *_common(),
        _mouse("click", "a choice in the panel", doc="a choice in the panel takes it"),
        _mouse("pointer", "the top row says what is under it", doc="the top row of the map says what is under it"),
    ),
)

FIGHT = KeyMode(
    "fight",
    "A fight",
    game=True,
    binds=(
        Bind(
            "walk",
            WALK_KEYS,
            "no walking in a fight: r runs through a door",
            shown=WALK_SHOWN,
            md=WALK_MD,
            doc="no walking away from a fight (the panel says so, and no turn passes): running is `r`",
        ),
        Bind("next", ("Tab",), "next target", doc="the next target"),
        Bind("previous", ("Shift+Tab",), "previous target", doc="the previous target"),
        Bind("fight", ("a", "f", "Enter"), "attack the target", doc="attack the target"),
        Bind("oil", ("o",), "throw oil at the target", doc="throw burning oil at the target"),
        Bind("drink", ("q",), "drink (it takes your action)"),
        Bind("wait", ("w",), "hold back"),
        _no_stairs("in a fight", also=": running is `r`"),
        Bind(
            "run",
            ("r",),
            "run through a door, as in an encounter",
            doc="run through a door (see **Running**): a monster that does not pursue stays behind; one that does "
            "may chase you from right behind, however fast you are (no running in the citadel)",
        ),
        *_common(),
        _mouse(
            "click",
            "a creature (on the map or in the panel): target it; a choice: take it",
            doc="a creature, on the map or in the panel's list: target it; a choice in the panel: take it",
        ),
    ),
)

PURSUED = KeyMode(
    "pursued",
    "Pursued",
    game=True,
    binds=(
        Bind(
            "walk",
            WALK_KEYS,
            "(you are running: r keeps running)",
            shown=WALK_SHOWN,
            md=WALK_MD,
            doc="no walking while pursued (the panel says so, and no turn passes): `r` keeps running",
        ),
        Bind("run", ("r",), "keep running"),
        Bind("food", ("d",), "drop food (stops an unintelligent pursuer on a roll)"),
        Bind("treasure", ("g",), "drop treasure (stops an intelligent one)"),
        Bind("oil", ("o",), "throw burning oil behind you"),
        Bind("fight", ("f",), "turn and fight"),
        Bind("drink", ("q",), "drink"),
        _no_stairs("while chased"),
        *_common(),
        _mouse("click", "a choice in the panel", doc="a choice in the panel takes it"),
    ),
)

CHASE = KeyMode(
    "chase",
    "Giving chase",
    game=True,
    binds=(
        Bind(
            "walk",
            WALK_KEYS,
            "(you are chasing it: r runs on)",
            shown=WALK_SHOWN,
            md=WALK_MD,
            doc="no walking while giving chase (the panel says so, and no turn passes): `r` runs on",
        ),
        Bind("run", ("r",), "run on after it"),
        Bind("wait", ("w",), "let it go"),
        Bind("drink", ("q",), "drink"),
        _no_stairs("while giving chase"),
        *_common(),
        _mouse("click", "a choice in the panel", doc="a choice in the panel takes it"),
    ),
)

DOOR = KeyMode(
    "door",
    "Run: which door",
    overlay=True,
    binds=(
        Bind(
            "cursor",
            WALK_KEYS,
            "choose a door (Up/Left: the one before, Down/Right: the next)",
            shown=WALK_SHOWN,
            md=WALK_MD,
            doc="move to the previous door (up, left) or the next (down, right)",
        ),
        Bind("choose", ("Enter",), "run through the chosen door"),
        Bind(
            "run",
            ("r",),
            "run through the way you came in (or the first open door)",
            doc="run the way you came in (or through the first open door, if that one is blocked)",
        ),
        Bind("close", ("Esc",), "stay"),
        _mouse("click", "a door on the map or in the list: run through it"),
    ),
)

LOOK = KeyMode(
    "look",
    "Look",
    overlay=True,
    binds=(
        Bind(
            "cursor",
            WALK_KEYS + tuple(SHIFT_WALK),
            "move the cursor (with Shift: five tiles)",
            shown=WALK_SHOWN,
            md=WALK_MD + " (with Shift, five tiles at a time)",
        ),
        Bind("next", ("Tab",), "the next creature in sight, known item, or the stairs"),
        Bind("previous", ("Shift+Tab",), "the one before"),
        Bind(
            "travel",
            ("Enter",),
            "exploring: walk to the cursor (elsewhere: close)",
            doc="while exploring, close the look and walk to the tile under the cursor (a known one, by a known "
            "way; any key stops the walk); in an encounter or a fight it only closes the look",
        ),
        Bind("more", ("Space",), "the rest of the panel, when it has more than it shows"),
        Bind("close", ("Esc", ";"), "close"),
        _mouse("pointer", "the cursor follows the pointer"),
    ),
)

LOG = KeyMode(
    "log",
    "The message log",
    overlay=True,
    binds=(
        Bind(
            "scroll",
            WALK_KEYS,
            "scroll (PgUp/PgDn: a page, Home/End: the ends)",
            shown=WALK_SHOWN,
            md=WALK_MD,
            doc="scroll: up and down a line, PgUp/PgDn a page, Home the oldest, End the newest",
        ),
        Bind(
            "more",
            ("a", "Tab"),
            "more: the rolls, then the rules' own working, then back",
            doc="show more: the rolls behind what happened (distance, surprise, reaction, the monsters' attack "
            "rolls), then the rules' own working too (every monster check, the table cell a monster came from, "
            "where it was placed), then back",
        ),
        Bind("close", ("Esc", "L", "Enter"), "close"),
        _mouse("wheel", "scroll"),
    ),
)

SHOP = KeyMode(
    "shop",
    "At the merchant's",
    overlay=True,
    binds=(
        Bind("cursor", WALK_KEYS, "choose a ware", shown=WALK_SHOWN, md=WALK_MD),
        Bind("buy", ("Enter", "B"), "buy one of the chosen ware", doc="buy one of the chosen ware (gold permitting)"),
        Bind(
            "inventory",
            ("i",),
            "inventory; u in it uses a thing (wield, wear, drink)",
            doc="inventory; `u` in it uses something you carry: wield a weapon, put on armour, drink a potion, "
            "read a chart",
        ),
        Bind("log", ("L",), "the whole log"),
        Bind("help", ("?",), "help: every key"),
        Bind("leave", ("Esc", "Space"), "leave the merchant and explore on"),
        _mouse("click", "a ware: buy it", doc="a ware in the list: buy it"),
    ),
)

MENU = KeyMode(
    "menu",
    "A menu (who drinks, the ruleset)",
    overlay=True,
    binds=(
        Bind("cursor", WALK_KEYS, "choose", shown=WALK_SHOWN, md=WALK_MD),
        Bind("choose", ("Enter",), "take the chosen option"),
        Bind("close", ("Esc",), "cancel"),
        _mouse("click", "an option: take it"),
    ),
)

ANYWHERE = KeyMode(
    "anywhere",
    "Anywhere",
    binds=(
        Bind(
            "fullscreen",
            ("Alt+Enter",),
            "fullscreen on/off (the window; F11 too)",
            doc="fullscreen on/off (the window; F11 too): a larger screen shows more of the map and the log",
        ),
        # The window's own keys (ui/app.py handles them; they never reach a scene): documentation rows.
        Bind(
            "window",
            (),
            "the window bigger, smaller, automatic (remembered)",
            shown="Ctrl+=  Ctrl+-  Ctrl+0",
            doc="the window one step bigger or smaller (tileset and whole-number scale), or back to the size that "
            "fits the screen; remembered for next time",
            md="Ctrl+=, Ctrl+-, Ctrl+0",
        ),
        _mouse("closing the window", "keeps the game: every action is already saved"),
    ),
)

MODES: Final[tuple[KeyMode, ...]] = (
    EXPLORE,
    ENCOUNTER,
    FIGHT,
    PURSUED,
    CHASE,
    SHOP,
    DOOR,
    LOOK,
    LOG,
    MENU,
    ANYWHERE,
)
BY_NAME: Final[dict[str, KeyMode]] = {m.name: m for m in MODES}


def _index(mode: KeyMode) -> dict[str, str]:
    out: dict[str, str] = {}
    for b in mode.binds:
        for k in b.keys:
            if k in out and out[k] != b.command:
                raise ValueError(f"keymap {mode.name}: {k!r} is bound to both {out[k]} and {b.command}")
            out[k] = b.command
    return out


for _m in MODES:
    _m.lookup.update(_index(_m))


def lookup(mode: str, event: tcod.event.KeyDown) -> tuple[str, str] | None:
    """The command a key press means in ``mode`` and the key's name, or None (a key with no meaning there)."""
    name = key_name(event)
    if name is None:
        return None
    command = BY_NAME[mode].lookup.get(name)
    return (command, name) if command is not None else None


def key_for(mode: str, command: str) -> str:
    """The first key of ``command`` in ``mode`` (what a panel shows in front of the choice: ``[f] Fight``)."""
    for b in BY_NAME[mode].binds:
        if b.command == command and b.keys:
            return b.keys[0]
    raise KeyError(f"{mode}: no key for {command}")


def conflicts(modes: Iterable[KeyMode]) -> list[str]:
    """What breaks "one key, one meaning" (empty when nothing does): a key meaning two commands in the modes of a
    game, a key that walks in one of them and not in another, or one that walks and, on a screen over a game,
    means something other than moving a cursor."""
    modes = list(modes)
    game = [m for m in modes if m.game]
    out: list[str] = []
    meaning: dict[str, tuple[str, str]] = {}
    walking: set[str] = set()
    for m in game:
        idx = _index(m)
        for k, cmd in idx.items():
            if k in meaning and meaning[k][1] != cmd:
                out.append(f"{k!r} means {meaning[k][1]} in {meaning[k][0]} and {cmd} in {m.name}")
            meaning.setdefault(k, (m.name, cmd))
            if cmd == "walk":
                walking.add(k)
    for m in game:
        idx = _index(m)
        for k in sorted(walking):
            if idx.get(k) != "walk":
                out.append(f"{k!r} walks in one mode of a game but not in {m.name} ({idx.get(k, 'nothing')})")
    for m in modes:
        if not m.overlay:
            continue
        for k, cmd in _index(m).items():
            if k in walking and cmd not in DIRECTIONAL:
                out.append(f"{k!r} walks in a game but means {cmd} in {m.name}")
    return out


# --- help and PLAYING.md -----------------------------------------------------------------------------------------

COMMON: Final = KeyMode("common", "On every screen of a game", binds=_common())
COMMON_COMMANDS: Final = COMMON.commands()
HELP_MODES: Final = (COMMON, EXPLORE, ENCOUNTER, FIGHT, PURSUED, CHASE, SHOP, DOOR, LOOK, LOG, ANYWHERE)


def _own(mode: KeyMode) -> list[Bind]:
    """A mode's rows without the keys every game screen shares (shown once, in their own section)."""
    if mode.name == "common" or not mode.game:
        return list(mode.binds)
    return [b for b in mode.binds if b.command not in COMMON_COMMANDS]


def help_sections() -> list[tuple[str, list[tuple[str, str]]]]:
    """The help screen: each mode's title and its (keys, what) rows, from the table."""
    return [(m.title, [(b.shown_keys(), b.help) for b in _own(m)]) for m in HELP_MODES]


def markdown_table(mode: str) -> str:
    """The key table of one mode, as PLAYING.md shows it (``common``: the keys of every game screen)."""
    rows = ["| key | |", "| --- | --- |"]
    for b in _own(COMMON if mode == "common" else BY_NAME[mode]):
        keys_md = (
            b.md_keys() if b.keys or b.md else f"{b.shown} (mouse)" if b.shown != "closing the window" else b.shown
        )
        rows.append(f"| {keys_md} | {b.doc_text()} |")
    return "\n".join(rows)
