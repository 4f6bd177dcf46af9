"""The incremental digest guarded in the fast loop: fights, chases and purchases stepped one action at a time, the
digest kept up to date (:class:`undercroft.rules.digest.Tracker`) compared with the digest from scratch after every
action. A change to the state that skips what the tracker counts (a hit point written past ``Group.set_hp``, an
item added without ``LevelState.touch``) makes a recording that no replay verifies; here it fails in a second.

The whole-game check (200 autoplayed games) is ``tests/test_digest.py``'s slow test."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from engine_helpers import make_game, place_group

from undercroft.rules import shop
from undercroft.rules.actions import (
    Action,
    Attack,
    Bribe,
    Buy,
    DropFood,
    DropTreasure,
    Fight,
    LeaveShop,
    Run,
    ThrowOil,
    Wait,
)
from undercroft.rules.digest import differing, full_digest
from undercroft.rules.game import Game
from undercroft.rules.items import catalogue
from undercroft.rules.types import Mode

RULESETS = ("undercroft", "crawler", "citadel", "warden")
#: a monster of each ruleset that stands and fights (several of them, so a party's blows leave some standing)
FOES = {"undercroft": ("ghoul", 3), "crawler": ("ghoul", 3), "citadel": ("orc", 4), "warden": ("gaoler", 1)}


def _checked_step(game: Game, action: Action) -> bool:
    """Take ``action``; after it the tracked digest must equal the digest from scratch. Whether it was taken."""
    events = game.step(action)
    if len(events) == 1 and events[0].type == "refused":
        return False
    tracked, scratch = game.digest(), full_digest(game.state, game.streams)
    assert tracked == scratch, f"turn {game.state.turn} {action}: differs in {differing(tracked, scratch)}"
    return True


def _first_taken(game: Game, choices: list[Action]) -> Action | None:
    for action in choices:
        if game.legal(action) and _checked_step(game, action):
            return action
    return None


def _play_meeting(game: Game, choose: Callable[[Game], list[Action]], limit: int = 80) -> list[str]:
    """Play the meeting in front of the party with ``choose``'s first accepted action each time, until it is over
    or ``limit`` actions; the action types taken."""
    taken: list[str] = []
    while game.state.mode in (Mode.ENCOUNTER, Mode.COMBAT, Mode.CHASE) and len(taken) < limit:
        action = _first_taken(game, choose(game))
        if action is None:
            break
        taken.append(action.type)
    return taken


def _fighter(game: Game) -> list[Action]:
    group = game.state.front_group()
    target = group.alive[0] if group is not None and group.alive else 0
    return [Fight(), Attack(target), Wait(), Run()]


def _runner(game: Game) -> list[Action]:
    if game.state.mode == Mode.CHASE:
        return [DropTreasure(), DropFood(), ThrowOil(), Run()]
    return [Run(), Bribe(game.state.gold // 2), Fight(), Attack(0)]


def _meet(ruleset: str, seed: int, foe: tuple[str, int] | None = None) -> Game:
    game = make_game(ruleset, seed, gold=300)
    monster, count = foe or FOES[ruleset]
    if monster not in game.content.monsters:
        pytest.skip(f"{monster} is not in the shipped data")
    place_group(game, monster, count)
    assert game.digest() == full_digest(game.state, game.streams)
    return game


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_digest_follows_every_blow_of_a_fight(ruleset: str) -> None:
    blows = 0
    for seed in range(1, 7):
        taken = _play_meeting(_meet(ruleset, seed), _fighter)
        blows += taken.count("attack")
    assert blows >= 6  # fights fought, not refused


@pytest.mark.parametrize("ruleset", ["undercroft", "crawler"])
def test_the_digest_follows_every_round_of_a_chase(ruleset: str) -> None:
    rounds = 0
    for seed in range(1, 13):
        game = _meet(ruleset, seed, ("giant_spider", 2))  # as fast as the party: it gives chase
        taken = _play_meeting(game, _runner)
        rounds += len(taken) - 1
    assert rounds >= 4  # chases run, not only single steps out of the door


def test_the_digest_follows_every_purchase() -> None:
    game = make_game("undercroft", 4, gold=2_000)
    for depth in (0, 4, 7):
        game.state.depth = depth  # the merchant of floor depth + 1 (its stock), met on the first floor
        shop.open_shop(game, [])
        game.state.depth = 0
        number = {item: i for i, item in enumerate(catalogue(game.content))}
        bought = 0
        for item in shop.for_sale(game.state):
            bought += _checked_step(game, Buy(number[item]))
        assert bought >= 2
        assert _checked_step(game, LeaveShop())


def test_a_hit_point_cannot_be_written_past_the_setter() -> None:
    game = _meet("warden", 1)
    group = game.state.front_group()
    assert group is not None
    with pytest.raises(TypeError):
        group.hp[0] = 1  # type: ignore[index]
    group.set_hp(0, 1)
    assert game.digest() == full_digest(game.state, game.streams) and group.hp[0] == 1
