"""Seed 000 as written in the citadel ruleset, and bribery only after a failed negotiation.

* The citadel has three responses to a monster: negotiation, bribery after a failed negotiation, and combat, whose
  "only possible outcome is the death of one side or the other": no running from an encounter or a fight there
  (``procedures.running: false``); the other rulesets keep running.
* 000 8.7: "If negotiation fails, the party may attempt to buy its freedom": after an agreement or an
  intimidation there is nothing to bribe the monster for, even once the peace is broken and the party comes back.

Every roll is scripted.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import tcod.console
from engine_helpers import (
    NOTHING,
    act,
    content,
    encounter_faces,
    kinds,
    make_game,
    meet,
    one,
    say,
    script,
    walk_to,
    why,
)
from tcod.event import KeySym
from test_validation import Mutate, check, only_problem, pos
from ui_helpers import Driver, TestDice, names, panel_text, press, rows, screen

from undercroft.bot import Bot
from undercroft.rules import events as evt
from undercroft.rules.actions import Action, Attack, Bribe, Fight, Run, Talk
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.game import Game
from undercroft.rules.refusals import Code, Reason
from undercroft.rules.state import Group
from undercroft.rules.types import Mode
from undercroft.ui import render
from undercroft.ui.scenes import SceneStack, game_stack
from undercroft.ui.session import Session

NO_RUNNING = "There is no running away in these rules: talk, bribe or fight."  # the player's line


def refused(g: Game, action: Action) -> Reason:
    """Take ``action``, which must be refused without changing anything (no die rolled); return the reason."""
    before = g.checksum()
    used = len(script(g).used)
    events = g.step(action)
    assert kinds(events) == ["refused"], events
    assert g.checksum() == before and len(script(g).used) == used
    assert say(g, events[0])
    return why(events[0])


def mode(g: Game) -> Mode:
    """The game's mode now (a call, so that the type checker does not keep an earlier comparison)."""
    return g.state.mode


def citadel(monster: str = "orc", *, gold: int = 200) -> tuple[Game, Group]:
    g = make_game("citadel", 1, ScriptedDice(), gold=gold)
    group, events = meet(g, monster, treasure=40)  # the citadel rolls nothing when a monster is met
    assert kinds(events) == ["encounter"] and g.state.mode == Mode.ENCOUNTER
    return g, group


# --- 6. no running in the citadel ----------------------------------------------------------------------------


@pytest.mark.clause("000-gen-4")
def test_the_citadel_refuses_run_in_an_encounter() -> None:
    g, orc = citadel()
    # what greys out Run on the encounter panel
    assert not g.legal(Run()) and g.refusal(Run()) == Reason(Code.NO_RUNNING)
    assert refused(g, Run()) == Reason(Code.NO_RUNNING)
    assert g.state.mode == Mode.ENCOUNTER and orc in g.state.level.groups
    assert g.legal(Talk()) and g.legal(Fight())  # the three responses of 000 8.0 remain


def test_the_citadel_refuses_run_in_a_fight() -> None:
    g, _orc = citadel()
    act(g, Fight())  # initiative by agility: no die
    assert g.state.mode == Mode.COMBAT and g.state.combat is not None and g.state.combat.party_turn
    assert not g.legal(Run())  # greyed on the fight panel
    assert refused(g, Run()) == Reason(Code.NO_RUNNING)
    assert g.state.mode == Mode.COMBAT and g.legal(Attack(0))


def _colour_of(stack: SceneStack, label: str) -> tuple[int, int, int]:
    """The colour of ``label`` (a choice such as "[r] Run") on the screen the stack draws."""
    console = tcod.console.Console(render.WIDTH, render.HEIGHT, order="F")
    stack.draw(console)
    for y, row in enumerate(rows(str(console))):
        x = row.find(label)
        if x >= 0:
            fg = console.fg[x, y]
            return int(fg[0]), int(fg[1]), int(fg[2])
    raise AssertionError(f"{label!r} is not on the screen")


def test_the_citadel_screens_grey_out_run_and_say_why() -> None:
    dice = TestDice()
    game = Game(content(), "citadel", 1, dice=dice)
    session = Session(content(), game)
    g = game.add_group("orc")
    session.log.add_events(game.start_encounter(g), session.narrator)
    stack = SceneStack(game_stack(session))
    driver = Driver(stack)
    assert names(driver) == ["ExploreScene", "EncounterScene"]
    assert _colour_of(stack, "[r] Run") == render.FAINT and _colour_of(stack, "[f] Fight") != render.FAINT
    press(driver, KeySym.R)
    assert names(driver) == ["ExploreScene", "EncounterScene"]
    assert f"Not now: {NO_RUNNING}" in panel_text(screen(driver), session)
    press(driver, KeySym.F)  # initiative by agility: the party first
    assert names(driver) == ["ExploreScene", "CombatScene"]
    assert _colour_of(stack, "[r] Run: there is no running") == render.FAINT  # (and says why)
    press(driver, KeySym.R)
    assert names(driver) == ["ExploreScene", "CombatScene"]
    assert f"Not now: {NO_RUNNING}" in panel_text(screen(driver), session)


@pytest.mark.parametrize(
    ("ruleset", "monster", "talks"),
    [("citadel", "the_nameless_one", False), ("citadel", "orc", True), ("warden", "wick_trimmer", False)],
)
def test_a_monster_that_never_talks_has_no_talk_or_bribe_on_the_panel(ruleset: str, monster: str, talks: bool) -> None:
    """Played: the panel listed Talk and Bribe, greyed, for a thing that will never take either (its lines say
    "Will not talk or take a bribe."), and in warden beside "No talking or bribes here."; now they are left off,
    and the keys still say why."""
    game = Game(content(), ruleset, 1, dice=TestDice())
    session = Session(content(), game)
    session.log.add_events(game.start_encounter(game.add_group(monster)), session.narrator)
    driver = Driver(SceneStack(game_stack(session)))
    text = screen(driver)
    assert ("[t] Talk" in text) is talks and ("Bribe..." in text) is talks and "[f] Fight" in text
    assert "[r] Run" in text  # (the ruleset's rule, not the monster's: greyed, and R says why)
    if not talks:
        line = "No talking or bribes here." if ruleset == "warden" else "Will not talk or take a bribe."
        assert line in panel_text(text, session)
        press(driver, KeySym.T)
        assert "Not now:" in panel_text(screen(driver), session)


@pytest.mark.clause("000-gen-4")
def test_the_citadel_refuses_run_after_a_failed_talk_and_a_refused_bribe() -> None:
    """Talk fails, the bribe is refused and the monster attacks first: only combat remains (000 8.0)."""
    g, orc = citadel()
    act(g, Talk(), 1, 1)  # 2 - 3 + 2: failure
    act(g, Bribe(60), 6, 1)  # refused; the orc swings and misses
    assert g.state.mode == Mode.COMBAT and orc.bribe_tried
    assert refused(g, Run()) == Reason(Code.NO_RUNNING)


@pytest.mark.parametrize("ruleset", ["undercroft", "warden", "crawler"])
def test_the_other_rulesets_keep_running(ruleset: str) -> None:
    assert content().ruleset(ruleset).procedures.running is True
    assert content().ruleset("citadel").procedures.running is False
    g = make_game(ruleset, 1, ScriptedDice())
    faces = () if ruleset == "warden" else encounter_faces()
    _ghoul, _ = meet(g, "empty_harness" if ruleset == "warden" else "ghoul", faces=faces)
    assert g.legal(Run())
    if ruleset != "warden":
        script(g).push(100)  # the Ghoul's pursuit roll: it does not follow
    script(g).push(NOTHING)  # the run over, the segment run into gets its monster check
    events = g.step(Run())
    assert "refused" not in kinds(events) and script(g).remaining == 0
    assert one(events, evt.Run) and one(events, evt.Enter)
    assert g.state.mode == Mode.EXPLORE


def test_a_ruleset_without_running_is_a_data_error(data_copy: Path, mutate: Mutate) -> None:
    text = mutate(data_copy, "rulesets.yaml", "    running: false", "")
    p = only_problem(data_copy)
    # the procedures mapping of the citadel starts at its first key
    check(
        p,
        "rulesets.yaml",
        pos(text, "monster_check", after="citadel:"),
        "citadel.procedures.running",
        "missing key 'running'",
    )


def test_the_bot_never_runs_in_the_citadel() -> None:
    """It talks, bribes or fights; it never proposes the Run the engine would refuse."""
    for seed in (1, 2, 3):
        game = Game(content(), "citadel", seed)
        bot = Bot(game, seed)
        while not game.over and game.state.turn < 600:
            action = bot.choose()
            assert not isinstance(action, Run), (seed, game.state.turn, game.state.mode)
            events = game.step(action)
            if kinds(events) == ["refused"]:
                bot.refused(action)


def test_the_bot_talks_first_in_the_citadel_where_it_cannot_run() -> None:
    g, _troll = citadel("troll", gold=0)
    del g.state.items["rations"]  # (the citadel's mace and dagger make the fight near certain: food would tie talk)
    bot = Bot(g, 1)
    assert isinstance(bot.choose(), (Talk, Fight))
    act(g, Talk(), 1, 1)  # failure; the troll does nothing (no reaction procedure, no free round)
    assert isinstance(bot.choose(), Fight)  # no gold for a bribe, no running: the fight to the death


# --- 7. a bribe only after a failed negotiation -----------------------------------------------------------------


@pytest.mark.clause("000-8.7")
@pytest.mark.parametrize(
    ("monster", "faces", "result"), [("orc", (5, 5), "agreement"), ("bandit", (6, 6), "intimidation")]
)
def test_no_bribe_after_terms_even_when_the_peace_was_broken(monster: str, faces: tuple[int, int], result: str) -> None:
    """Undercroft: terms, then the party attacks (breaking the peace), runs, and comes back to bribe."""
    g = make_game("undercroft", 1, ScriptedDice(), gold=200)
    group, _ = meet(g, monster, faces=encounter_faces(), treasure=40)
    inside = g.state.pos
    assert one(act(g, Talk(), *faces), evt.Negotiate).result == result
    assert group.negotiation == result and mode(g) == Mode.EXPLORE
    assert one(act(g, Fight()), evt.BreakPeace).group == group.id
    assert mode(g) == Mode.COMBAT and not group.peaceful
    act(g, Run(), 100, NOTHING)  # its pursuit roll (as fast as the delver): it does not follow; then the check
    assert mode(g) == Mode.EXPLORE
    events = walk_to(g, inside)
    assert one(events, evt.Encounter).first is False and mode(g) == Mode.ENCOUNTER
    name = content().monsters[monster].name
    reason = Reason(Code.TERMS_MADE, {"monster": monster})
    assert g.refusal(Bribe(50)) == reason and not g.legal(Bribe(50))
    assert refused(g, Bribe(50)) == reason
    line = f"You made terms with the {name}: there is nothing to bribe it for."
    assert say(g, g.step(Bribe(50))[0]) == line
    assert g.state.gold == 200 + (10 if result == "intimidation" else 0) and group.bribes == 0


@pytest.mark.clause("000-gen-3", "000-8.6a")
def test_a_bribe_after_a_failed_talk_is_allowed() -> None:
    g, orc = citadel()
    act(g, Talk(), 1, 1)
    assert orc.negotiation == "failure"
    assert g.canonical()["levels"]["0"]["groups"][-1][13] == "failure"  # in the canonical form
    assert g.legal(Bribe(60))
    b = one(act(g, Bribe(60), 1), evt.Bribe)
    assert b.result == "accepted" and orc.peaceful and g.state.gold == 140
