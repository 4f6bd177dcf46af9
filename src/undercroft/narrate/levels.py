"""Who each line of the narration is for, and its colour kind: the levels of the log (``player``, ``detail``,
``internal``) by event type and by roll purpose."""

from __future__ import annotations

from typing import Final, Literal, NamedTuple

LogLine = tuple[str, str]  # (text, kind): kind picks the colour (see ui.render.KIND_COLOURS)

# --- levels: who a line is for (a quiet log) -------------------------------------------------------------------------
#
# ``player``: what a player needs (meetings, hits, damage, deaths, finds, refusals, the party's own rolls in a fight,
# talk and bribes); the message log and the panels show only these. ``detail``: the rolls a player may want
# (surprise, reaction, the distance on the map, a monster's attack roll, the percentile checks, a monster check that
# found something). ``internal``: how the rules got there (a monster check that found nothing, the table's row and
# column, the distance rolled). The full log (``L``) can show every level; ``replay --events`` keeps everything.

Level = Literal["player", "detail", "internal"]
LEVELS: Final[tuple[Level, ...]] = ("player", "detail", "internal")  # from the most to the least needed


class Entry(NamedTuple):
    """One log line with its colour kind and its level."""

    text: str
    kind: str
    level: Level


# The level of each event type's line (an attack's roll line is decided in :meth:`Narrator.entries`: the party's
# roll is the player's, 001; a monster's is a detail). Every event type the engine emits is here (a test checks).
EVENT_LEVELS: Final[dict[str, Level]] = {
    # bookkeeping, never worded
    "move": "internal",
    "enter": "internal",
    # the rules' working: which table cell it came from
    "placed": "detail",  # the distance on the map (the roll's own line is internal: the room may be shorter)
    "table": "internal",
    # rolls: by purpose (ROLL_LEVELS)
    "roll": "detail",
    # what happens
    "refused": "player",
    "encounter": "player",
    "in_sight": "player",
    "approach": "player",
    "close": "player",
    "hidden": "player",
    "reveal": "player",
    "walked_past": "player",
    "pass": "player",
    "peaceful": "player",
    "attacks": "player",
    "leaves": "player",
    "surprise": "player",
    "round_lost": "player",
    "standoff": "player",
    "guards": "player",
    "break_peace": "player",
    "negotiate": "player",
    "bribe": "player",
    "pickup": "player",
    "wield": "player",
    "drop": "player",
    "drink": "player",
    "rest": "player",
    "descend": "player",
    "initiative": "player",
    "combat": "player",
    "attack": "player",
    "kill": "player",
    "oil": "player",
    "wait": "player",
    "surprised_skip": "player",
    "idle": "player",
    "holds": "player",
    "slow": "player",
    "rises": "player",
    "regenerate": "player",
    "victory": "player",
    "won": "player",
    "death": "player",
    "exhausted": "player",
    "leave": "player",
    "run": "player",
    "evade": "player",
    "pursuit": "player",
    "caught": "player",
    "escape": "player",
    "chase": "player",
    "distracted": "player",
    "ignored": "player",
    "slowed": "player",
    "pursue": "player",
    "let_go": "player",
    "got_away": "player",
    # ours: things, growth, the merchant, talk that pays
    "wear": "player",
    "quaff": "player",
    "effect_ended": "player",
    "level_up": "player",
    "shop": "player",
    "trade": "player",
    "bought": "player",
    "shop_left": "player",
    "directions": "player",
    "charted": "player",
    "hired": "player",
    "hireling_attack": "player",
    "hireling_left": "player",
}

# The level of a ``roll`` event's line, by its purpose (rolls with no line of their own are internal).
ROLL_LEVELS: Final[dict[str, Level]] = {
    "monster_check": "detail",  # one that finds nothing is internal (Narrator.level)
    "out_of_depth": "detail",  # (ours; the group may stand out of sight) one that brings nothing is internal
    "distance": "internal",  # told by the placed line: the distance on the map, the panel's
    "surprise_party": "detail",
    "surprise_monster": "detail",
    "reaction": "detail",
    "monster_attacks": "detail",
    "standoff_attacks": "detail",
    "pursuit": "detail",
    "food_distracts": "detail",
    "treasure_distracts": "detail",
    "oil_stops": "detail",
    # told by another event's line (the table, the heal, the oil's damage, the treasure dropped)
    "table_row": "internal",
    "table_column": "internal",
    "number_appearing": "internal",
    "treasure": "internal",
    "treasure_dropped": "internal",
    "heal": "internal",
    "oil_damage": "internal",
}

GOOD = {
    "victory",
    "won",
    "pickup",
    "peaceful",
    "leaves",
    "evade",
    "escape",
    "distracted",
    "descend",
    "drink",
    "level_up",
    "directions",
    "charted",
    "hired",
}
BAD = {"death", "attacks", "caught", "reveal", "exhausted", "walked_past", "rises", "got_away"}
ALERT = {
    "encounter",
    "combat",
    "pursuit",
    "surprise",
    "chase",
    "approach",
    "initiative",
    "kill",
    "pursue",
    "close",
    "standoff",
    "guards",
    "in_sight",
}
QUIET = {"placed"}  # roll-ish details: on the quiet side of the log (kind "detail")

Unseen = set[int]  # the ids of the groups come upon out of sight and not seen yet: not a word about them
