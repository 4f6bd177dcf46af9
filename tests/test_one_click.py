"""One click, one action: a press and a release of the left button on a choice of the encounter's or
the fight's panel, delivered together through the one loop as the window's queue delivers them, take that choice
once: one action sent to the game, or none for a choice that opens a dialog or is not open now."""

from __future__ import annotations

import pytest
import tcod.event
from engine_helpers import content, encounter_faces, place_group
from ui_helpers import Driver, TestDice

from undercroft.rules.actions import Action, Fight
from undercroft.rules.events import Event
from undercroft.rules.game import Game
from undercroft.rules.types import Mode
from undercroft.ui.scenes import SceneStack, game_stack
from undercroft.ui.scenes.game import GameScene
from undercroft.ui.session import Session


def press_and_release(x: int, y: int) -> list[tcod.event.Event]:
    at = tcod.event.Point(float(x), float(y))
    left = tcod.event.MouseButton.LEFT
    return [
        tcod.event.MouseButtonDown(position=at, tile=tcod.event.Point(x, y), button=left),
        tcod.event.MouseButtonUp(position=at, tile=tcod.event.Point(x, y), button=left),
    ]


class Counting(Session):
    """A session that counts the actions sent to the game."""

    sent: list[Action]

    def act(self, action: Action) -> list[Event]:
        self.sent.append(action)
        return super().act(action)


def met(fight: bool) -> tuple[Counting, Driver]:
    dice = TestDice()
    game = Game(content(), "undercroft", 1, dice=dice)
    session = Counting(content(), game)
    session.sent = []

    dice.push(*encounter_faces())
    place_group(game, "kobold", 3)
    if fight:
        session.act(Fight())
        assert session.mode == Mode.COMBAT
        session.sent.clear()
    return session, Driver(SceneStack(game_stack(session)))


def choices(fight: bool) -> list[tuple[int, int, str]]:
    _, driver = met(fight)
    scene = driver.top
    assert isinstance(scene, GameScene)
    return [(x, y, what) for x, y, _w, what in scene.buttons.rows if isinstance(what, str)]


@pytest.mark.parametrize("fight", [False, True], ids=["encounter", "fight"])
def test_one_click_on_any_choice_sends_at_most_one_action(fight: bool) -> None:
    buttons = choices(fight)
    assert len(buttons) >= 5
    for x, y, what in buttons:
        session, driver = met(fight)
        driver.send(*press_and_release(x, y))
        driver.idle(1.0)  # and nothing more comes of it while nobody touches anything
        assert len(session.sent) <= 1, (what, session.sent)
        if what in ("wait", "fight", "talk", "oil", "drink"):
            assert len(session.sent) == 1, what
