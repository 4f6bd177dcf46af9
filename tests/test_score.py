"""The score of a finished game (ours: the texts keep none): the formula, the kills it counts, the end line."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from engine_helpers import act, content, kinds, make_game, place_group, script

from undercroft.content.schema import ScoreRules
from undercroft.record import Desync, Recorder, load_recording, play_step, replay
from undercroft.rules import formulas
from undercroft.rules.actions import Attack
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.game import Game
from undercroft.rules.scoring import score_card
from undercroft.rules.types import Mode

RULES = ScoreRules(per_floor=100, per_worth=1, win=1000)


def test_the_formula_counts_floors_kills_and_a_win_with_the_gold_carried_out() -> None:
    assert formulas.score(3, 250, 40, False, RULES) == 300 + 40  # a dead party carries no gold out
    assert formulas.score(3, 250, 40, True, RULES) == 300 + 250 + 40 + 1000
    assert formulas.score(1, 0, 0, False, ScoreRules(per_floor=7, per_worth=3, win=5)) == 7
    assert formulas.score(2, 10, 4, True, ScoreRules(per_floor=7, per_worth=3, win=5)) == 14 + 10 + 12 + 5


def test_the_shipped_numbers_are_the_designs() -> None:
    assert content().rules.score == RULES


def test_a_kill_counts_its_worth_by_kind() -> None:
    game = make_game("warden", dice=ScriptedDice())
    place_group(game, "ghoul", 2, hp=[2, 2])
    assert game.state.mode == Mode.COMBAT
    act(game, Attack(0), 15, 1)  # one down; the other misses (a natural 1)
    ev = act(game, Attack(1), 15)
    assert kinds(ev)[-1] == "victory"
    assert game.state.slain == {"ghoul": 2}
    worth = content().monsters["ghoul"].worth
    card = score_card(content(), game.state)
    assert (card.deepest, card.worth, card.won) == (1, 2 * worth, False)
    assert card.total == 100 + 2 * worth
    assert card.parts(content()) == [("floor 1", 100), (f"kills worth {2 * worth}", 2 * worth)]


def test_a_won_game_adds_its_gold_and_the_bonus() -> None:
    game = make_game("warden", dice=ScriptedDice(), gold=37)
    game.state.mode = Mode.WON
    card = score_card(content(), game.state)
    assert card.total == 100 + 37 + 1000
    assert card.parts(content()) == [("floor 1", 100), ("gold carried out", 37), ("won", 1000)]


def test_gems_carried_out_count_their_value_and_a_dead_partys_none() -> None:
    game = make_game("undercroft", dice=ScriptedDice(), gold=37)
    game.state.items.update({"garnet": 2, "silver_idol": 1, "healing_potion": 2})
    card = score_card(content(), game.state)
    assert card.gems == 2 * 25 + 120 and card.total == 100  # dead (or not over): nothing carried out
    game.state.mode = Mode.WON
    card = score_card(content(), game.state)
    assert card.total == 100 + 37 + 170 + 1000
    assert card.parts(content()) == [
        ("floor 1", 100),
        ("gold carried out", 37),
        ("gems carried out", 170),
        ("won", 1000),
    ]


def dead_game(path: Path) -> Game:
    """The first bot game from seed 5 on that ends in death, recorded at ``path``."""
    from undercroft.tools.autoplay import play_game

    for seed in range(5, 60):
        play_game(content(), "warden", seed, record=str(path), max_actions=5000)
        rec = load_recording(path)
        if rec.end == "dead":
            return replay(content(), rec)
        path.unlink()
    raise AssertionError("no bot game from seeds 5..59 died")


@pytest.mark.slow
def test_the_end_line_holds_the_score_and_a_replay_checks_it(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    game = dead_game(path)
    st = game.state
    end = json.loads(path.read_text().splitlines()[-1])
    c = content()
    worth = sum(c.monsters[m].worth * n for m, n in st.slain.items())
    assert sum(st.slain.values()) == st.kills
    assert end["score"] == c.rules.score.per_floor * (max(st.levels) + 1) + worth  # dead: no gold carried out
    rec = load_recording(path)
    assert rec.score == end["score"]
    replay(c, rec, verify=True)
    with pytest.raises(Desync, match="score"):
        replay(c, dataclasses.replace(rec, score=end["score"] + 1), verify=True)


def test_a_forced_game_scores_on_its_end_line(tmp_path: Path) -> None:
    game = make_game("warden", dice=ScriptedDice())
    place_group(game, "ghoul", hp=[2])  # (not an action: the recording still starts at turn 0)
    path = tmp_path / "forced.jsonl"
    with Recorder.create(path, game, content()) as rec:
        script(game).push(15)
        assert kinds(play_step(game, rec, Attack(0)))[-1] == "victory"
        game.state.party[0].hp = 1
        place_group(game, "ghoul")
        script(game).push(2, 19)  # the delver misses; the ghoul hits
        play_step(game, rec, Attack(0))
    assert game.state.mode == Mode.DEAD
    end = json.loads(path.read_text().splitlines()[-1])
    assert end["end"] == "dead" and end["score"] == 100 + content().monsters["ghoul"].worth
    assert load_recording(path).score == end["score"]
