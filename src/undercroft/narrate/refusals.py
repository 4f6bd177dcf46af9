"""The sentence of each refusal code: the engine says why it refuses an action as a code and its fields
(:mod:`undercroft.rules.refusals`); these are the words a player reads."""

from __future__ import annotations

from typing import Final

from undercroft.rules.refusals import Code

# The sentence of each refusal code (docs/EVENTS.md, ``refused``): the code's fields, and ``{The}`` / ``{the}`` for
# its ``monster`` with its article ("It" / "it" when there is none), ``{doing}`` for the action ("drop food"),
# ``{ways}`` for what the party may do instead of walking on ("fight, wait or run").
# ``{doing}``: an action as a sentence says it; ``{when}``: the mode it is refused in.
DOING: Final[dict[str, str]] = {
    "oil": "throw oil",
    "drop_food": "drop food",
    "drop_treasure": "drop treasure",
    "use": "use that",
    "leave_shop": "leave the merchant",
    "descend": "go down",
    "fight": "fight",
    "attack": "attack",
    "bribe": "offer a bribe",
}
WHEN: Final[dict[str, str]] = {
    "explore": "while exploring",
    "encounter": "in an encounter",
    "combat": "in a fight",
    "pursuit": "while chased",
    "shop": "at the merchant's",
    "dead": "now: the game is over",
    "won": "now: the game is over",
}
REFUSALS: Final[dict[Code, str]] = {
    Code.GAME_OVER: "The game is over.",
    Code.NOT_NOW: "You cannot {doing} {when}.",
    Code.NOT_YOUR_TURN: "It is not your turn.",
    Code.GIVING_CHASE: "You are the one giving chase: run on, or wait to let it go.",
    Code.CHASED: "It is after you: run, fight or drop something.",
    Code.NO_POTION: "You have no potion.",
    Code.NO_FOOD: "You have no food to drop.",
    Code.NO_TREASURE: "You have no treasure to drop.",
    Code.NO_OIL: "You have no oil.",
    Code.NOT_FLEEING: "Dropped food or treasure only stops a monster that chases you: it buys off nobody.",
    Code.NO_RUNNING: "There is no running away in these rules: talk, bribe or fight.",
    Code.EXHAUSTED: "You are too exhausted to run: rest first, or fight.",
    Code.EXHAUSTED_CHASED: "You are too exhausted to run: turn and fight.",
    Code.NOTHING_TO_FIGHT: "There is nothing here to fight.",
    Code.NO_TARGET: "Choose a living target.",
    Code.NO_TALKING: "There is no negotiating with anything down here.",
    Code.UNNEGOTIABLE: "{The} cannot be negotiated with.",
    Code.TALKED: "You have already tried to talk to {the}.",
    Code.NO_BRIBERY: "Bribery is not part of these rules.",
    Code.UNBRIBABLE: "{The} cannot be bribed.",
    Code.TALK_FIRST: "Try talking first: a bribe comes only after a failed negotiation.",
    Code.TERMS_MADE: "You made terms with {the}: there is nothing to bribe it for.",
    Code.BRIBED: "{The} has already been offered a bribe.",
    Code.TOO_POOR: "You have too little gold to offer (at least {least}).",
    Code.OFFER_MORE: "Offer at least {least} gold.",
    Code.GOLD_SHORT: "You have only {gold} gold.",
    Code.BAD_STEP: "A step is one tile in one of eight directions.",
    Code.WALL: "A wall is in the way.",
    Code.IN_THE_WAY: "{The} is in the way.",
    Code.FACING: "{The} is facing you: {ways}.",  # (only the ways the rules leave: fight, talk, wait, run)
    Code.NO_STAIRS: "You are not on the stairs down.",
    Code.NO_DRINKER: "Nobody there to drink.",
    Code.UNHURT: "Not hurt: a healing potion would heal nothing.",
    Code.NO_SUCH_ITEM: "There is no such thing.",
    Code.NOT_CARRIED: "You have no {item}.",
    Code.NOT_USABLE: "The {item} is not used that way.",
    Code.WAY_KNOWN: "You know the way down already: keep the {item} for a floor you do not.",
    Code.NOTHING_TO_USE: "You carry nothing you can use.",
    Code.NOT_SOLD: "The merchant has no {item} for sale.",
    Code.TOO_DEAR: "You have too little gold for the {item}.",
    Code.SOLD_OUT: "The merchant has no {item} left.",
    Code.NO_SUCH_DOOR: "There is no such door.",
    Code.NO_WAY_OUT: "There is no way out of here.",
    Code.DOOR_BLOCKED: "{The} stands between you and that door.",
    Code.ALL_BLOCKED: "{The} stands between you and every way out.",
    Code.NOTHING_TO_PURSUE: "Nothing is getting away from you.",
    Code.NO_PURSUIT: "There is no pursuit in these rules.",
    Code.TOO_TIRED_TO_CHASE: "You are too exhausted to give chase.",
}
