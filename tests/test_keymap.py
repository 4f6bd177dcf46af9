"""One key, one meaning. Every key of every screen is in one table (undercroft.ui.keymap); the
scenes run what the table says, the help screen and PLAYING.md's key tables are made from it, and a key that walks
in one mode of a game never does something else in another."""

from __future__ import annotations

import contextlib
import dataclasses

import pytest
import tcod.console
from engine_helpers import content, make_game, walk_into
from tcod.event import KeySym, Modifier
from ui_helpers import Driver, names, panel_text, press, screen

from undercroft.rules.actions import Action, Move
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.events import Event
from undercroft.rules.state import Combat
from undercroft.rules.types import Mode
from undercroft.ui import keymap, keytable
from undercroft.ui.keys import key
from undercroft.ui.scenes import (
    ChaseScene,
    CombatScene,
    DoorScene,
    EncounterScene,
    ExploreScene,
    HelpScene,
    SceneStack,
    game_stack,
)
from undercroft.ui.session import Session

# A press for every key name the table uses (and a few it does not), to try each one on each screen.
PRESSES: list[tuple[KeySym, Modifier]] = (
    [(KeySym(ord(c)), Modifier.NONE) for c in "abcdefghijklmnopqrstuvwxyz0123456789.,;"]
    + [(KeySym(ord(c)), Modifier.LSHIFT) for c in "abcdefghijklmnopqrstuvwxyz0123456789./"]
    + [
        (k, Modifier.NONE)
        for k in (
            KeySym.UP,
            KeySym.DOWN,
            KeySym.LEFT,
            KeySym.RIGHT,
            KeySym.HOME,
            KeySym.END,
            KeySym.PAGEUP,
            KeySym.PAGEDOWN,
            KeySym.RETURN,
            KeySym.TAB,
            KeySym.SPACE,
            *(getattr(KeySym, f"KP_{n}") for n in range(1, 10)),
        )
    ]
    + [(KeySym.TAB, Modifier.LSHIFT), (KeySym.UP, Modifier.LSHIFT)]
)


def test_the_table_keeps_one_key_one_meaning() -> None:
    assert keymap.conflicts(keymap.MODES) == []


def test_the_check_finds_a_key_that_walks_in_one_mode_and_does_something_else_in_another() -> None:
    """The check can fail: the old keys (b bribed in an encounter, digits picked targets in a fight and doors in
    the door choice) are each caught."""

    def rebound(mode: keymap.KeyMode, key_: str, command: str) -> keymap.KeyMode:
        binds = tuple(dataclasses.replace(b, keys=tuple(k for k in b.keys if k != key_)) for b in mode.binds)
        return dataclasses.replace(mode, binds=(*binds, keymap.Bind(command, (key_,), "old")))

    others = [m for m in keymap.MODES if m.name not in ("encounter", "fight", "door")]
    old_encounter = rebound(keymap.ENCOUNTER, "b", "bribe")
    assert any(
        "'b'" in c and "bribe" in c for c in keymap.conflicts([*others, old_encounter, keymap.FIGHT, keymap.DOOR])
    )
    old_fight = rebound(keymap.FIGHT, "3", "target")
    assert any("'3'" in c for c in keymap.conflicts([*others, keymap.ENCOUNTER, old_fight, keymap.DOOR]))
    old_door = rebound(keymap.DOOR, "1", "choose")
    assert any(
        "'1'" in c and "door" in c for c in keymap.conflicts([*others, keymap.ENCOUNTER, keymap.FIGHT, old_door])
    )
    two = dataclasses.replace(keymap.FIGHT, binds=(*keymap.FIGHT.binds, keymap.Bind("talk", ("t",), "talk?")))
    other_t = dataclasses.replace(keymap.CHASE, binds=(*keymap.CHASE.binds, keymap.Bind("treasure", ("t",), "?")))
    assert any("'t' means" in c for c in keymap.conflicts([two, other_t]))


def test_each_scene_handles_exactly_the_commands_of_its_mode() -> None:
    game = make_game("undercroft", 1, dice=ScriptedDice())
    session = Session(content(), game)
    for scene, mode in (
        (ExploreScene(session), "explore"),
        (EncounterScene(session), "encounter"),
        (CombatScene(session), "fight"),
        (ChaseScene(session), "pursued"),
    ):
        assert scene.key_mode() == mode
        assert set(scene.handlers()) == keymap.BY_NAME[mode].commands(), mode
    chase = ChaseScene(session)
    vars(chase)["chasing"] = lambda: True
    assert chase.key_mode() == "chase" and set(chase.handlers()) == keymap.CHASE.commands()
    assert set(DoorScene(session, lambda i: None).handlers()) == keymap.DOOR.commands()


class Caught(Exception):
    pass


def sent(session: Session, build: type, sym: KeySym, mod: Modifier) -> tuple[list[Action], list[str]]:
    """The actions a key press sends from a fresh stack (caught before the game sees them) and the scenes after."""
    actions: list[Action] = []

    def catch(action: Action) -> list[Event]:
        actions.append(action)
        raise Caught

    vars(session)["act"] = catch
    try:
        stack = SceneStack(game_stack(session))
        with contextlib.suppress(Caught):
            stack.handle(key(sym, mod))
        return actions, [type(s).__name__ for s in stack.scenes]
    finally:
        del vars(session)["act"]


def facing(mode: str) -> Session:
    game = make_game("undercroft", 1, dice=ScriptedDice())
    walk_into(game, "room", visited=False)
    st = game.state
    g = game.add_group("orc", 2, pos=st.pos)
    game.start_encounter(g, meeting=False)
    if mode == "fight":  # the fight begun (as the engine's _start_combat leaves it, the party to act)
        game.state.mode = Mode.COMBAT
        game.state.combat = Combat(group=g.id)
        game.state.encounter = None
    return Session(content(), game)


@pytest.mark.parametrize("mode", ["explore", "encounter", "fight"])
def test_every_walking_key_walks_or_says_why_not_and_sends_nothing_else(mode: str) -> None:
    """On every screen of a game each walking key is a step (exploring, an encounter) or, where there is no
    walking (a fight), a notice with no action and no turn; never a choice, a target or a menu."""
    session = make_session_for(mode)
    for name, (dx, dy) in keymap.WALK.items():
        sym, mod = press_for(name)
        actions, scenes = sent(session, type, sym, mod)
        if mode == "fight":
            assert actions == [] and scenes[-1] == "CombatScene", name
        else:
            assert actions == [Move(dx, dy)], name
            assert len(scenes) == (1 if mode == "explore" else 2), name


def make_session_for(mode: str) -> Session:
    if mode == "explore":
        return Session(content(), make_game("undercroft", 1))
    return facing(mode)


def press_for(name: str) -> tuple[KeySym, Modifier]:
    named = {v: k for k, v in keymap._NAMED.items() if k not in (KeySym.KP_ENTER,)}
    if name in named:
        return named[name], Modifier.NONE
    return KeySym(ord(name)), Modifier.NONE


def test_a_walking_key_in_a_fight_says_why_and_takes_no_turn() -> None:
    session = facing("fight")
    driver = Driver(SceneStack(game_stack(session)))
    turn = session.game.state.turn
    press(driver, KeySym.B)  # the vi-key south-west
    assert session.game.state.turn == turn and names(driver)[-1] == "CombatScene"
    assert "Not now: no walking away from a fight: r runs through a door." in panel_text(screen(driver), session)
    press(driver, KeySym.TAB)
    assert "Not now" not in panel_text(screen(driver), session)  # the notice lasts until the next key


def test_b_walks_in_an_encounter_and_dollar_bribes() -> None:
    session = facing("encounter")
    actions, scenes = sent(session, type, KeySym.B, Modifier.NONE)
    assert actions == [Move(-1, 1)] and scenes[-1] == "EncounterScene"
    g = session.game.state.front_group()
    assert g is not None
    g.negotiation = "failure"  # a bribe comes after a failed talk
    session.game.state.gold = 100
    _, scenes = sent(session, type, KeySym.N4, Modifier.LSHIFT)
    assert scenes[-1] == "PromptScene"


def test_no_key_outside_the_table_does_anything_on_a_game_screen() -> None:
    """Every press the table does not bind on a screen sends nothing and opens nothing there."""
    for mode in ("explore", "encounter", "fight"):
        session = make_session_for(mode)
        table = keymap.BY_NAME[mode].lookup
        for sym, mod in PRESSES:
            name = keymap.key_name(key(sym, mod))
            if name in table:
                continue
            actions, scenes = sent(session, type, sym, mod)
            assert actions == [] and len(scenes) == (1 if mode == "explore" else 2), (mode, name)


def help_text() -> str:
    console = tcod.console.Console(80, 50, order="F")
    scene = HelpScene()
    out = []
    for _ in range(20):
        scene.on_draw(console)
        out.append(str(console))
        scene.on_event(key(KeySym.PAGEDOWN))
        console.clear()
    return " ".join(" ".join(line.strip(" │") for line in s.splitlines()) for s in out)


def test_the_help_screen_is_made_from_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    text = help_text()
    for title, rows in keymap.help_sections():
        assert title in text
        for shown, what in rows:
            assert shown[:20] in text, shown
            assert " ".join(what.split()[:3]) in text, what
    monkeypatch.setattr(keymap, "help_sections", lambda: [("Testing", [("Z", "zap the thing")])])
    assert "zap the thing" in help_text()


def test_playing_md_key_tables_are_the_tables_made_from_the_keymap() -> None:
    text = keytable.PLAYING.read_text(encoding="utf-8")
    assert keytable.update(text) == text, "run: python -m undercroft.ui.keytable --write"
    assert set(keytable.modes_in(text)) >= {
        "explore",
        "common",
        "encounter",
        "fight",
        "pursued",
        "chase",
        "door",
        "look",
        "log",
    }
    assert "| `$` | bribe" in text and "| Tab | the next target |" in text


def test_a_bribe_that_cannot_be_offered_asks_for_no_gold_and_says_why() -> None:
    """In the crawler (no bribery) $ opened the gold prompt, and only after the sum was typed said why not."""
    game = make_game("crawler", 1, dice=ScriptedDice())
    walk_into(game, "room", visited=False)
    g = game.add_group("orc", 1, pos=game.state.pos)
    game.start_encounter(g, meeting=False)
    session = Session(content(), game)
    driver = Driver(SceneStack(game_stack(session)))
    press(driver, KeySym.N4, mod=Modifier.LSHIFT)
    assert names(driver)[-1] == "NoticeScene"  # no gold asked for: a notice says why, and holds what is typed next
    assert "Bribery is not part of these rules." in screen(driver)
    press(driver, KeySym.RETURN)
    assert names(driver)[-1] == "EncounterScene"
    assert "Not now: Bribery is not part of these rules." in panel_text(screen(driver), session)
