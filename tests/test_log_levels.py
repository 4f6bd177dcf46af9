"""A quiet log: every line has a level (``player``, ``detail``, ``internal``); the message log
and the panels show the player's lines only, the full log (``L``, then ``a``) every level; no line names a table
(or anything else) by its id, at any level."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import tcod.console
from engine_helpers import NOTHING, content, encounter_faces, make_game, script, walk_into
from event_helpers import emitted_types, sample
from tcod.event import KeySym
from test_narrate import SAMPLES, fill
from test_rules_properties import RULESETS, played

from undercroft.narrate import EVENT_LEVELS, LEVELS, ROLL_LEVELS, Narrator
from undercroft.rules.dice import Dice, ScriptedDice
from undercroft.rules.game import Game
from undercroft.ui.keys import key
from undercroft.ui.scenes.log import LOG_LEVELS, LogScene
from undercroft.ui.session import MessageLog, Session

RULES = Path(__file__).resolve().parent.parent / "src" / "undercroft" / "rules"
ID = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")  # a snake_case id: undercroft_1_resident, giant_rat
NOTHING_FOUND = re.compile(r"^Monster check .*: nothing\.")


def rules_source() -> str:
    return "".join(p.read_text(encoding="utf-8") for p in sorted(RULES.rglob("*.py")))


def test_every_event_type_and_every_roll_has_a_level() -> None:
    emitted = emitted_types()
    assert emitted, "no event found in the rules' source"
    assert emitted <= set(EVENT_LEVELS), f"event types without a level: {sorted(emitted - set(EVENT_LEVELS))}"
    assert set(EVENT_LEVELS) <= emitted, f"levels of events never emitted: {sorted(set(EVENT_LEVELS) - emitted)}"
    purposes = set(re.findall(r'\.(?:roll|percent)\(\s*events,\s*"([a-z_]+)"', rules_source()))
    assert purposes, "no roll found in the rules' source"
    assert purposes <= set(ROLL_LEVELS), f"rolls without a level: {sorted(purposes - set(ROLL_LEVELS))}"
    assert set(EVENT_LEVELS.values()) | set(ROLL_LEVELS.values()) <= set(LEVELS)


def test_every_sample_line_has_a_level_and_no_id() -> None:
    nar = Narrator(content(), "undercroft")
    tables = set(content().encounters)
    for kind, data in SAMPLES:
        for table in tables if kind == "table" else {"-"}:
            event = sample(
                {"type": kind, **fill({**data, "table": table} if kind == "table" else data, "giant_rat", "Giant Rat")}
            )
            for text, _, level in nar.entries(event):
                assert level in LEVELS
                assert not ID.search(text), f"{kind}: {text!r}"


def test_the_party_roll_is_the_player_s_and_a_monster_s_a_detail() -> None:
    nar = Narrator(content(), "undercroft")
    mine = sample(
        {
            "type": "attack",
            "attacker": "delver",
            "attacker_side": "party",
            "member": 0,
            "target": "ghoul",
            "target_index": 0,
            "count": 1,
            "natural": 15,
            "modifier": 3,
            "total": 18,
            "defense": 12,
            "hit": True,
            "critical": False,
            "damage": 6,
            "target_hp_after": 2,
        }
    )
    assert [(x.text, x.level) for x in nar.entries(mine)] == [
        ("You roll 15 + 3 = 18 vs defense 12.", "player"),
        ("You hit. 6 damage. Ghoul at 2.", "player"),
    ]
    theirs = sample(
        {
            "type": "attack",
            "attacker": "ghoul",
            "attacker_side": "monsters",
            "attacker_index": 0,
            "count": 1,
            "target": "delver",
            "member": 0,
            "natural": 15,
            "modifier": 2,
            "total": 17,
            "defense": 12,
            "hit": True,
            "critical": False,
            "damage": 3,
            "target_hp_after": 9,
            "target_max_hp": 12,
        }
    )
    assert [x.level for x in nar.entries(theirs)] == ["player", "detail"]


def test_a_table_is_named_for_the_player() -> None:
    nar = Narrator(content(), "undercroft")
    lv = content().ruleset("undercroft").levels[1]
    line = nar.text(
        sample({"type": "table", "table": lv.resident, "row": 5, "column": 4, "monster": "bandit", "number": 1})
    )
    assert line == "The resident table of level 2: row 5, column 4: 1 x Bandit."


# --- a scripted game: the default log against the full one ----------------------------------------------------


def scripted_meeting() -> tuple[Game, MessageLog]:
    """A game that walks through a few segments finding nothing, then meets a resident of the level's table."""
    game = make_game("undercroft", dice=ScriptedDice())
    log = MessageLog()
    nar = Narrator(game.content, game.ruleset_id)
    for kind in ("corridor", "room", "corridor"):
        log.add_events(walk_into(game, kind, faces=(NOTHING,)), nar)
    table = game.rs.levels[0].resident
    cell = game.content.encounters[table][0][2]  # row 1, column 3
    mon = game.content.monsters[cell.monster]
    number = cell.number or Dice.parse(mon.number)
    faces = (1, 1, 3, *[1] * number.count, *[1] * Dice.parse(mon.treasure).count, *encounter_faces())
    events = walk_into(game, "room", visited=False, faces=faces)
    assert script(game).remaining == 0
    assert any(e.type == "table" for e in events) and any(e.type == "encounter" for e in events), events
    log.add_events(events, nar)
    return game, log


def test_the_default_log_is_quiet_and_the_full_log_tells_everything() -> None:
    game, log = scripted_meeting()
    tables = set(game.content.encounters)
    shown = [text for text, _ in log.lines]
    assert shown, "the meeting has lines for the player"
    assert not any(NOTHING_FOUND.match(t) for t in shown), shown
    assert not any(t.startswith("The resident table") for t in shown), shown
    assert not any(t.startswith(("Distance:", "Surprise", "Reaction:")) for t in shown), shown
    assert log.batch and all(text in shown for text, _ in log.batch)  # the panels' "what happened": the same
    assert [x.text for x in log.view("player")] == shown
    detail = [x.text for x in log.view("detail")]
    assert any(t.startswith("Distance:") for t in detail) and any(t.startswith("Surprise") for t in detail)
    assert not any(NOTHING_FOUND.match(t) for t in detail)
    everything = [x.text for x in log.view("internal")]
    assert sum(bool(NOTHING_FOUND.match(t)) for t in everything) == 3, everything
    assert any(t.startswith("The resident table of level 1: row 1, column 3") for t in everything), everything
    for t in everything:
        assert not any(tid in t for tid in tables) and not ID.search(t), t


def test_the_full_log_overlay_toggles_the_levels(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    game, log = scripted_meeting()
    session = Session.watch(game.content, game)
    session.log = log
    scene = LogScene(session)
    console = tcod.console.Console(80, 50, order="F")

    def drawn() -> str:
        console.clear()
        scene.on_draw(console)
        return "\n".join("".join(chr(c) for c in row) for row in console.ch.T)

    text = drawn()
    assert "Monster check" not in text and "resident table" not in text and "Distance:" not in text
    assert log.lines == [("A Giant Rat!", "alert")] and "1 message." in text  # one message, and its plural
    seen = [text]
    for _ in range(len(LOG_LEVELS) - 1):
        scene.on_event(key(KeySym.A))
        seen.append(drawn())
    assert "Distance:" in seen[1] and "Monster check (corridor)" not in seen[1]
    assert "Monster check (corridor)" in seen[2] and "The resident table of level 1" in seen[2]
    scene.on_event(key(KeySym.TAB))
    assert drawn() == text


def test_repeats_collapse_at_every_level() -> None:
    log = MessageLog()
    for _ in range(3):
        log.add("A wall is in the way.", "refused")
    assert log.lines[-1] == ("A wall is in the way. (x3)", "refused")
    assert log.view("internal")[-1].text == "A wall is in the way. (x3)"


# --- autoplayed games of every ruleset --------------------------------------------------------------------------


@pytest.mark.usefixtures("autoplayed")
@pytest.mark.parametrize("ruleset", RULESETS)
def test_no_id_reaches_a_line_and_the_default_log_is_quiet(ruleset: str) -> None:
    tables = set(content().encounters)
    nar = Narrator(content(), ruleset)
    quieted = 0
    for p in played(ruleset):
        log = MessageLog()
        for events in p.steps:
            log.add_events(events, nar)
        for x in log.full:
            assert not any(t in x.text for t in tables), f"{ruleset} seed {p.seed}: {x.text!r}"
            assert not ID.search(x.text), f"{ruleset} seed {p.seed}: {x.text!r}"
        assert not any(NOTHING_FOUND.match(t) for t, _ in log.lines)
        quieted += len(log.full) - len(log.lines)
    assert quieted > 0, "the games had no quiet line: the levels were not tried"
