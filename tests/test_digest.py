"""The state's digest (rules/digest.py): one short hash per part, naming the part a change is in."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from engine_helpers import content

from undercroft.bot import Bot
from undercroft.record import load_recording
from undercroft.rules.actions import Action, Move
from undercroft.rules.digest import DIGEST_HEX, PARTS, differing, full_digest
from undercroft.rules.game import Game
from undercroft.tools.autoplay import MAX_ACTIONS


def test_a_step_changes_the_parts_it_touches_and_only_those() -> None:
    g = Game(content(), "undercroft", 1)
    before = g.digest()
    assert len(before) == DIGEST_HEX and set(before) <= set("0123456789abcdef")
    g.state.gold += 1
    assert differing(before, g.digest()) == ["party"]
    g.state.gold -= 1
    assert g.digest() == before
    grp = g.add_group("gaoler")
    assert differing(before, g.digest()) == ["levels", "mode"]  # a group more, and the next group's id
    mid = g.digest()
    grp.set_hp(0, grp.hp[0] - 1)
    assert differing(mid, g.digest()) == ["levels"]
    g.state.level.remove_group(grp)
    g.state.next_group -= 1
    assert g.digest() == before
    g.state.rounds += 1
    assert differing(before, g.digest()) == ["clock"]


def test_the_same_game_gives_the_same_digests_and_another_seed_others() -> None:
    a, b, c = Game(content(), "undercroft", 5), Game(content(), "undercroft", 5), Game(content(), "undercroft", 6)
    assert a.digest() == b.digest() != c.digest()
    for g in (a, b):
        g.step(Move(1, 0))
    assert a.digest() == b.digest()
    assert set(differing(a.digest(), c.digest())) <= set(PARTS)


# --- the digest kept up to date equals the digest from scratch ----------------------------------------------

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.jsonl"))
RULESETS = ("undercroft", "crawler", "citadel", "warden")
GAMES_PER_RULESET = 50  # 200 autoplayed games in all


def _same_after_every_action(game: Game, actions: Iterable[Action]) -> int:
    """Take ``actions`` (refused ones are skipped); after each, the tracked digest must equal the digest from
    scratch. Returns how many actions were checked."""
    n = 0
    assert game.digest() == full_digest(game.state, game.streams)
    for action in actions:
        events = game.step(action)
        if len(events) == 1 and events[0].type == "refused":
            continue
        n += 1
        tracked, scratch = game.digest(), full_digest(game.state, game.streams)
        assert tracked == scratch, (
            f"turn {game.state.turn} ({action}): tracked {tracked}, from scratch {scratch}: "
            f"differs in {differing(tracked, scratch)}"
        )
    return n


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.name)
def test_the_tracked_digest_equals_the_full_one_over_the_golden_recordings(path: Path) -> None:
    rec = load_recording(path)
    game = Game(content(), rec.header.ruleset, rec.header.seed)
    assert _same_after_every_action(game, (a for _, a, _ in rec.actions)) == len(rec.actions)


class _BotActions:
    """The bot's actions for ``game``, one at a time (told when the engine refused one), until the game ends."""

    def __init__(self, game: Game, seed: int) -> None:
        self.game, self.bot = game, Bot(game, seed)

    def __iter__(self) -> Iterator[Action]:
        refusals = 0
        while not self.game.over and self.game.state.turn < MAX_ACTIONS and refusals < 20:
            turn = self.game.state.turn
            action = self.bot.choose()
            yield action
            if self.game.state.turn == turn:
                self.bot.refused(action)
                refusals += 1
            else:
                refusals = 0


@pytest.mark.slow
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_tracked_digest_equals_the_full_one_over_autoplayed_games(ruleset: str) -> None:
    checked = 0
    for seed in range(1, GAMES_PER_RULESET + 1):
        game = Game(content(), ruleset, seed)
        checked += _same_after_every_action(game, _BotActions(game, seed))
    assert checked > 50 * GAMES_PER_RULESET  # whole games, not a handful of steps


def test_a_restored_game_digests_as_it_did() -> None:
    g = Game(content(), "undercroft", 3)
    for a in [Move(1, 0)] * 3:
        g.step(a)
    snap, before = g.snapshot(), g.digest()
    g.step(Move(-1, 0))
    assert g.digest() != before
    g.restore(snap)
    assert g.digest() == before == full_digest(g.state, g.streams)
