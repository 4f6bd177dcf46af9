"""Every action the engine allows is reachable from the screen that is showing. Autoplayed
games of every ruleset are walked; at each state the scenes for it are built, every key is tried (and, where a key
opens a choice or a prompt, the keys of that too), and the actions the keys would send are caught before they reach
the game. Each action type the engine calls legal there must have a key."""

from __future__ import annotations

import pytest
import tcod.event
from engine_helpers import content
from tcod.event import KeySym, Modifier

from undercroft.bot import Bot
from undercroft.rules.actions import (
    Action,
    Attack,
    Bribe,
    Descend,
    Drink,
    DropFood,
    DropTreasure,
    Fight,
    Move,
    Pursue,
    Rest,
    Run,
    Talk,
    ThrowOil,
    Wait,
)
from undercroft.rules.events import Event
from undercroft.rules.game import Game
from undercroft.tools.autoplay import game_seed
from undercroft.ui.keys import key
from undercroft.ui.scenes import SceneStack, game_stack
from undercroft.ui.session import Session

SAMPLES = {  # one action of each type, for asking the engine whether the type is legal now
    "move": Move(1, 0),
    "descend": Descend(),
    "rest": Rest(),
    "fight": Fight(),
    "attack": Attack(0),
    "talk": Talk(),
    "bribe": Bribe(1),
    "wait": Wait(),
    "run": Run(),
    "pursue": Pursue(),
    "drop_food": DropFood(),
    "drop_treasure": DropTreasure(),
    "oil": ThrowOil(0),
    "drink": Drink(0),
}
LETTERS = [KeySym(ord(c)) for c in "abcdefghijklmnopqrstuvwxyz"]
KEYS: list[tuple[KeySym, Modifier]] = (
    [(k, Modifier.NONE) for k in LETTERS]
    + [(k, Modifier.LSHIFT) for k in LETTERS]
    + [(KeySym(ord(c)), Modifier.NONE) for c in "0123456789.,;"]
    + [(KeySym(ord(c)), Modifier.LSHIFT) for c in "0123456789"]
    + [(KeySym.PERIOD, Modifier.LSHIFT), (KeySym.SLASH, Modifier.LSHIFT)]
    + [
        (k, Modifier.NONE)
        for k in (
            KeySym.RIGHT,
            KeySym.LEFT,
            KeySym.UP,
            KeySym.DOWN,
            KeySym.RETURN,
            KeySym.TAB,
            KeySym.SPACE,
            KeySym.KP_5,
        )
    ]
)
REPEATED = {
    (k, Modifier.NONE) for k in (KeySym.Z, KeySym.PERIOD, KeySym.KP_5)
}  # a rest where a wanderer may come: the first press tells the chance
INNER = [
    (KeySym.RETURN, Modifier.NONE),
    (KeySym.N1, Modifier.NONE),
    (KeySym.R, Modifier.NONE),
    (KeySym.Y, Modifier.NONE),
]


class Caught(Exception):
    pass


def reachable(session: Session) -> set[str]:
    """The action types some key (or a key, then a key of what it opens) sends from the screens of this state."""
    found: set[str] = set()

    def catch(action: Action) -> list[Event]:
        found.add(action.type)
        raise Caught

    vars(session)["act"] = catch  # the instance's own act shadows the method until deleted
    try:
        for sym, mod in KEYS:
            stack = SceneStack(game_stack(session))
            depth = len(stack.scenes)
            try:
                stack.handle(key(sym, mod))
                if len(stack.scenes) == depth and (sym, mod) in REPEATED:
                    stack.handle(key(sym, mod))  # (told first, acted on when pressed again)
                if len(stack.scenes) > depth:  # it opened something: a choice, a prompt, a menu
                    for inner_sym, inner_mod in INNER:
                        inner = SceneStack(game_stack(session))
                        inner.handle(key(sym, mod))
                        try:
                            inner.handle(key(inner_sym, inner_mod))
                            inner.handle(tcod.event.TextInput(text="1"))
                            inner.handle(key(KeySym.RETURN))
                        except Caught:
                            pass
            except Caught:
                pass
    finally:
        del vars(session)["act"]
    return found


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", ["undercroft", "crawler", "citadel", "warden"])
def test_every_legal_action_has_a_key_on_the_screen_showing(ruleset: str) -> None:
    checked = 0
    for i in range(2):
        seed = game_seed(2027, i)
        game = Game(content(), ruleset, seed)
        bot = Bot(game, seed)
        session = Session(content(), game)
        for _ in range(250):
            if game.over:
                break
            if game.state.turn % 5 == 0 or game.mode.value != "explore":
                legal = {t for t, a in SAMPLES.items() if game.legal(a)}
                missing = legal - reachable(session)
                assert not missing, f"{ruleset} seed {seed} turn {game.state.turn} ({game.mode}): no key for {missing}"
                checked += 1
            action = bot.choose()
            events = game.step(action)
            if len(events) == 1 and events[0].type == "refused":
                bot.refused(action)
    assert checked > 30
