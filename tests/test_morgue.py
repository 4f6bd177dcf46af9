"""The end of a run told back: where it turned (the odds of the last choice and of the other ways out, from the
recorded state), the morgue file's sections, and the end screen that shows both."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from engine_helpers import content, make_game
from test_no_cut import box_text
from ui_helpers import Driver, screen

from undercroft import record
from undercroft.autoplay import play_game
from undercroft.bot import meeting
from undercroft.recap import read_run, turning_lines
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.names import the
from undercroft.sim.odds import fight_odds
from undercroft.ui.scenes import EndScene, SceneStack
from undercroft.ui.session import Session, morgue_text, party_lines

SEED = 5  # the warden bot's game of seed 5 ends in death, fighting after a choice (running was open)


@pytest.fixture(scope="module")
def dead(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("morgue") / "warden-dead.jsonl"
    play_game(content(), "warden", SEED, record=str(path), max_actions=5000)
    assert record.load_recording(path).end == "dead"
    return path


def test_the_turning_point_is_the_last_choice_with_the_odds_as_they_stood(dead: Path) -> None:
    rec = record.load_recording(dead)
    story = read_run(content(), rec)
    t = story.turning
    assert t is not None and story.cause
    before = record.replay(content(), rec, until=t.turn - 1)  # the state the choice was made in
    g = before.state.front_group()
    assert g is not None and before.monster_of(g).name == story.cause
    fight = fight_odds(content(), before)
    assert fight is not None
    run = meeting.escape_chance(before, g)
    lines = turning_lines(content(), story)
    assert lines[0] == (
        f"On turn {t.turn}, floor {before.state.depth + 1}, you chose to fight {the(story.cause)} at "
        f"{round(100 * fight.win)}%; running was {round(100 * run)}%."
    )
    assert (len(lines) == 2) == (run >= fight.win + 0.1)
    if len(lines) == 2:
        assert lines[1] == "Running was the better chance."


def test_a_won_game_has_no_turning_point() -> None:
    from undercroft.recap import Story

    assert turning_lines(content(), Story(ruleset="warden", seed=1)) == []


def test_the_morgue_has_every_section_in_order(dead: Path, tmp_path: Path) -> None:
    session = Session.load(content(), dead)
    text = "\n".join(morgue_text(session))
    heads = ["Where it turned", "The party", "Kills by kind", "Notes", "The last floor", "Last messages", "The replay"]
    at = [text.index(f"\n{h}") for h in heads]
    assert at == sorted(at), "the sections are in DCSS's order"
    st = session.game.state
    assert "You are dead." in text and re.search(r"Score: \d+ \(floor \d", text)
    assert f"Delver: HP 0/{st.party[0].max_hp}, MIGHT {st.party[0].might}" in text
    for mid, n in st.slain.items():
        assert re.search(rf"^ +{n}  .*\(worth {content().monsters[mid].worth} each", text, re.M)
    assert f"In all {st.kills} creature" in text
    notes = text[text.index("\nNotes") : text.index("\nThe last floor")]
    assert f"Killed by {the(str(st.death['cause']))}." in notes if st.death else False
    floor = text[text.index("\nThe last floor") : text.index("\nLast messages")]
    assert "@" in floor and "#" in floor
    last = session.log.lines[-1][0]
    assert last in text[text.index("\nLast messages") :]
    assert f"undercroft replay {dead} --watch" in text
    out = session.write_morgue(tmp_path)
    assert out.read_text().startswith("Undercroft morgue file\n")


def test_the_party_lines_show_each_characters_level_where_it_grows() -> None:
    game = make_game("undercroft", dice=ScriptedDice())
    m = game.state.party[0]
    m.level, m.renown = 3, 95
    assert party_lines(game)[0].startswith(f"Delver (Lv 3, renown 95): HP {m.hp}/{m.max_hp}, MIGHT {m.might},")
    warden = make_game("warden", dice=ScriptedDice())  # 001 as written: no growth, no level to show
    assert party_lines(warden)[0].startswith("Delver: HP ")


def test_the_end_screen_says_where_the_run_turned(dead: Path) -> None:
    session = Session.load(content(), dead)
    d = Driver(SceneStack([EndScene(session, write_morgue=False)]))
    text = screen(d)
    assert "You are dead." in text and "Where it turned:" in text
    flat = box_text(text, "Death")  # the panel's words alone (the map beside it left out), wrapping undone
    assert "you chose to fight" in flat and "running was" in flat
