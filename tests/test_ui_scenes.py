"""The scenes through the one loop on the null front end: keys a player presses in, the frames presented out."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import tcod.console
from engine_helpers import content, encounter_faces, go_down, make_game, place_group
from tcod.event import KeySym, Modifier
from ui_helpers import (
    Driver,
    TestDice,
    click_text,
    isolate_user_data,
    names,
    panel_text,
    press,
    row_of,
    rows,
    screen,
    type_text,
)

from undercroft.rules import dungeon
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.game import Game
from undercroft.rules.types import Mode
from undercroft.ui import palette, render
from undercroft.ui.scenes import (
    CombatScene,
    EncounterScene,
    EndScene,
    ExploreScene,
    SceneStack,
    TitleScene,
    game_stack,
)
from undercroft.ui.session import Session


@pytest.fixture
def user(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    return isolate_user_data(monkeypatch, tmp_path)


def forced(ruleset: str = "undercroft", seed: int = 1) -> tuple[Session, TestDice]:
    """An unrecorded game whose every gameplay roll the test decides."""
    dice = TestDice()
    game = Game(content(), ruleset, seed, dice=dice)
    return Session(content(), game), dice


def meet(session: Session, dice: TestDice, monster: str, count: int = 1) -> Driver:
    """Meet ``count`` x ``monster`` next to the party: 60 ft, nobody surprised, reaction 8 (uncertain); the game
    on the null front end, through the one loop."""
    if session.game.proc.distance:
        dice.push(*encounter_faces())
    _, events = place_group(session.game, monster, count)
    session.log.add_events(events, session.narrator)  # as if the step into the room had met them
    session.last_events = events
    return Driver(SceneStack(game_stack(session)))


# --- title -------------------------------------------------------------------------------------------------------


def test_title_shows_the_menu_and_starts_a_typed_seed(user: Path) -> None:
    stack = Driver(SceneStack([TitleScene(content(), seed=None)]))
    text = screen(stack)
    for item in (
        "[n] New game",
        "(random)",
        "[s] New game with a seed you type",
        "[c] Continue",
        "(no unfinished game)",
        "[r] Ruleset",
        "Undercroft",
        "[?] Help",
        "[q] Quit",
    ):
        assert item in text
    press(stack, KeySym.R)
    assert "Citadel (citadel)" in screen(stack)
    press(stack, KeySym.N3)  # a walking key moves the choice: two down, the third ruleset
    press(stack, KeySym.DOWN)
    assert names(stack)[-1] == "MenuScene"
    click_text(stack, "The Warden (warden)")  # a click takes it
    assert names(stack) == ["TitleScene"]
    assert "The Warden" in screen(stack)
    press(stack, KeySym.S)
    type_text(stack, "4")
    type_text(stack, "2")
    assert "> 42_" in screen(stack)
    press(stack, KeySym.RETURN)
    assert names(stack)[0] == "ExploreScene"
    session = stack.scenes[0].session  # type: ignore[attr-defined]
    assert session.game.state.seed == 42 and session.game.ruleset_id == "warden"
    assert session.path is not None and session.path.parent == user / "saves"
    press(stack, KeySym.ESCAPE, KeySym.T)  # back to the title: the game is kept
    text = screen(stack)
    assert names(stack) == ["TitleScene"] and "The Warden, seed 42, turn 0" in text


def test_title_quit_and_help() -> None:
    stack = Driver(SceneStack([TitleScene(content(), seed=7)]))
    assert "seed 7 (typed)" in screen(stack)
    press(stack, KeySym.SLASH, mod=Modifier.LSHIFT)
    assert "Help" in screen(stack) and "Alt+Enter" not in screen(stack)  # at the end: it scrolls
    press(stack, KeySym.PAGEDOWN, KeySym.PAGEDOWN, KeySym.PAGEDOWN)
    assert "Alt+Enter" in screen(stack) and names(stack)[-1] == "HelpScene"
    press(stack, KeySym.SPACE)
    press(stack, KeySym.Q)
    assert stack.exit_code == 0


# --- explore -----------------------------------------------------------------------------------------------------


@pytest.mark.clause("001-report-3")
def test_explore_status_bar_map_and_keys() -> None:
    session, _ = forced()
    game = session.game
    stack = Driver(SceneStack(game_stack(session)))
    text = screen(stack)
    st = game.state
    status = rows(text)[render.STATUS_Y]
    assert f"HP 12/12 Lv1 of 15  Gold {st.gold}  Level 1  Turn 0  Seed {st.seed}" in status
    assert "Level 1: The Drowned Cellars" in text
    x, y = session.camera.last.to_screen(st.pos)
    assert rows(text)[y][x] == "@"
    # walk: arrows, vi-keys and the numpad all step
    m = st.level.map
    for sym, (dx, dy) in ((KeySym.RIGHT, (1, 0)), (KeySym.H, (-1, 0)), (KeySym.KP_2, (0, 1)), (KeySym.K, (0, -1))):
        x, y = st.pos
        before = st.turn
        press(stack, sym)
        if m.tiles[y + dy, x + dx] != dungeon.WALL:
            assert st.pos == (x + dx, y + dy) and st.turn == before + 1
    assert f"Turn {st.turn}" in screen(stack)
    press(stack, KeySym.PERIOD, mod=Modifier.LSHIFT)  # '>' with no stairs known yet: said so, no step taken
    assert "You have not found the stairs down on this floor yet." in screen(stack) and f"Turn {st.turn}" in screen(
        stack
    )
    press(stack, KeySym.I)
    text = screen(stack)
    assert "Inventory" in text and "Healing Potion x2" in text
    press(stack, KeySym.ESCAPE)
    press(stack, KeySym.L, mod=Modifier.LSHIFT)  # Shift+L: plain l is the vi-key east
    assert "Message log" in screen(stack)
    press(stack, KeySym.ESCAPE)
    press(stack, KeySym.SLASH, mod=Modifier.LSHIFT)
    assert "Exploring" in screen(stack)
    press(stack, KeySym.SPACE)
    game.state.party[0].hp = 5
    press(stack, KeySym.Q)  # drink
    assert "healed" in screen(stack) and game.state.items["healing_potion"] == 1
    assert names(stack) == ["ExploreScene"]


def test_the_one_left_standing_drinks_without_being_asked_who() -> None:
    """Played in the window: with three of the citadel's four down, q asked "Who drinks?" of a list where only
    one could."""
    session, _ = forced("citadel")
    party = session.game.state.party
    for m in party[1:]:
        m.hp = 0
    party[0].hp = 3
    stack = Driver(SceneStack(game_stack(session)))
    press(stack, KeySym.Q)
    assert "Who drinks?" not in screen(stack) and party[0].hp > 3 and names(stack) == ["ExploreScene"]


def test_map_is_drawn_lit_dim_and_dark() -> None:
    session, _ = forced()
    game = session.game
    console = tcod.console.Console(80, 50, order="F")
    lv = game.state.level
    lv.explored[:, :] = False
    lv.explored[:, :10] = True  # remembered strip on the left
    vis = render.draw_map(console, session.view)
    cells = render.cells(console)
    m = lv.map
    seen = vis & (m.tiles == dungeon.FLOOR)
    remembered = lv.explored & ~vis & (m.tiles == dungeon.FLOOR)
    dark = ~(lv.explored | vis)
    assert seen.any() and remembered.any() and dark.any()
    assert (cells["bg"][:43][seen] == palette.LIT_BG[dungeon.FLOOR]).all()
    assert (cells["fg"][:43][remembered] == palette.DIM_FG[dungeon.FLOOR]).all()
    assert (cells["ch"][:43][dark] == ord(" ")).all()
    assert np.array_equal(cells["bg"][:43][dark], np.zeros((int(dark.sum()), 3), dtype=np.uint8))


# --- a whole encounter and a fight -----------------------------------------------------------------------------


@pytest.mark.clause("003-seq-7", "003-actions-2")
def test_a_whole_encounter_then_a_fight(user: Path) -> None:
    session, dice = forced()
    stack = meet(session, dice, "goblin")
    assert names(stack) == ["ExploreScene", "EncounterScene"]
    text = screen(stack)
    for shown in (
        "Encounter",
        "A Goblin (resident)",
        "HP 5/5",
        "Distance: 40 ft",
        "Surprise: no one now",
        "Reaction: 8, uncertain",
        "[f] Fight",
        "[t] Talk",
        "[$] Bribe...",
        "[r] Run",
        "[w] Wait",
        "[q] Drink",
    ):
        assert shown in text, shown
    for never in ("Drop food", "Drop treasure", "Burning oil"):  # no help in a meeting: left off (keys say why)
        assert never not in text, never
    assert "Reaction: rolled 8: uncertain." not in text  # the roll is a detail: the full log's (the panel says it)
    status = rows(text)[render.STATUS_Y]
    assert "HP 12/12" in status and "Turn 0" in status

    press(stack, KeySym.W)  # wait: an uncertain goblin does nothing
    assert "You wait." in screen(stack)
    dice.push(1, 1)  # talk: 2 - 2 reluctance = 0: failure
    press(stack, KeySym.T)
    text = screen(stack)
    assert "Negotiation: 2 - 2 reluctance + 0 negotiation = 0. Failure." in text
    assert "Already: talked" in text
    press(stack, KeySym.T)  # once only: the engine says why not
    text = screen(stack)
    assert "Not now: You have already tried to talk to the Goblin." in panel_text(text, session)
    log = [r.strip() for r in rows(text)[render.LOG_Y :] if r.strip()]
    assert "You have already tried to talk to the Goblin." in log[-1]  # and in the log, its newest line

    offered = re.search(r"Bribe\.\.\. \d+% at (\d+)", panel_text(screen(stack), session))
    assert offered is not None
    press(stack, KeySym.N4, mod=Modifier.LSHIFT)  # $: bribe (b is a vi-key: it walks)
    assert names(stack)[-1] == "PromptScene"
    assert f"> {offered[1]}_" in screen(stack)  # the panel's sum typed in already: Enter offers it
    press(stack, *[KeySym.BACKSPACE] * len(offered[1]))
    type_text(stack, "1x0")  # only digits are taken
    text = screen(stack)
    assert "> 10_" in text and "Accepted once in 6 (17%); if not, it keeps" in text.replace("│", " ")
    assert "1d6" not in text and "<=" not in text  # the rule in words, never its notation
    dice.push(6, 2)  # the bribe is refused; the goblin strikes first (and misses)
    press(stack, KeySym.RETURN)
    assert names(stack) == ["ExploreScene", "CombatScene"]
    text = screen(stack)
    assert "Bribe of 10 gold: rolled 6 vs 1: refused. The Goblin keeps the gold and attacks!" in panel_text(
        text, session
    )
    assert "Goblin misses." in text
    for shown in (
        "Fight, round",
        "Your turn.",
        "Delver",
        "HP 12/12",
        "1. Goblin",
        "HP 5/5",
        "[a] Attack Goblin",
        "[o] Throw oil at it",
        "[q] Drink",
        "[w] Hold back",
        "[r] Run through",
    ):
        assert shown in text, shown

    dice.push(15)  # 15 + 3 = 18 hits: 6 damage kills the 5-HP goblin
    press(stack, KeySym.A)
    assert names(stack) == ["ExploreScene"]
    text = screen(stack)
    assert "You hit. 6 damage. Goblin at 0." in text
    assert "The Goblin is defeated. You take" in text
    assert row_of(text, "You roll 15 + 3 = 18 vs defense 10.", render.LOG_Y) < row_of(
        text, "You hit. 6 damage.", render.LOG_Y
    )
    assert session.game.state.gold == 180  # the start gold (3d6x10, all sixes): the bribe came back with the kill


def test_a_lone_delver_sees_the_odds_after_oil_and_after_a_potion() -> None:
    """Played: a flask of oil or a potion first was the right choice more than once, and the panel gave odds only
    for fighting on; each now says what fighting on after it comes to (sim.first.oil_win, drink_win)."""
    session, dice = forced()
    stack = meet(session, dice, "troll")
    press(stack, KeySym.F)
    c = session.game.state.combat
    assert c is not None
    c.party_turn = True  # (the delver's turn)
    session.game.state.party[0].hp = 4
    text = panel_text(screen(stack), session)
    on = re.search(r"If you fight on: win (\d+)%", text)
    oil = re.search(r"\[o\] Throw oil at it: win (\d+)%", text)
    drink = re.search(r"\[q\] Drink \(2 left\): win (\d+)%", text)
    assert on and oil and drink, text
    assert int(drink[1]) > int(on[1])  # at 4 of 12 hit points, a potion first is worth it


def test_a_name_with_its_own_article_reads_the_mid_label() -> None:
    """Seen in the regenerated screenshots: "[a] Attack The Leech-Mother"; a terse label keeps "Attack Goblin"."""
    session, dice = forced()
    stack = meet(session, dice, "leech_mother")
    press(stack, KeySym.F)
    text = screen(stack)
    assert "[a] Attack the Leech-Mother" in text and "Attack The" not in text


@pytest.mark.clause("001-roll-2")
def test_fight_three_targets_player_roll_before_monster_outcome() -> None:
    session, dice = forced()
    stack = meet(session, dice, "goblin", 3)
    press(stack, KeySym.F)  # fight: AGILITY 3 vs 3, the party acts first
    assert names(stack) == ["ExploreScene", "CombatScene"]
    text = screen(stack)
    assert "AGILITY 3 vs 3: you act first." in text
    for i in (1, 2, 3):
        assert f"{i}. Goblin #{i}" in text
    press(stack, KeySym.TAB)  # choose the second
    assert "[a] Attack Goblin #2" in screen(stack)
    press(stack, KeySym.DOWN)  # a walking key: no walking in a fight, no turn, the target stays
    text = screen(stack)
    assert "[a] Attack Goblin #2" in text and "Not now: no walking away from a fight" in panel_text(text, session)
    dice.push(15, 20, 2)  # you kill #2; #1 rolls a natural 20 (4 damage); #3 misses
    press(stack, KeySym.RETURN)
    text = screen(stack)
    assert "Goblin #2 is dead." in text
    log = render.LOG_Y
    you = row_of(text, "You roll 15 + 3 = 18 vs defense 10.", log)
    hit = row_of(text, "You hit. 6 damage. Goblin #2 at 0.", log)
    their = row_of(text, "Goblin #1 hits. 4 damage. HP 8/12.", log)
    assert you < hit < their  # in the log
    panel = panel_text(text, session)
    assert "This round: You roll 15 + 3 = 18 vs defense 10. You hit. 6 damage. Goblin #2 at 0." in panel
    assert panel.index("You hit. 6 damage.") < panel.index("Goblin #1 hits. 4 damage. HP 8/12.")
    assert "Goblin #3 misses." in text
    assert "HP 8/12" in rows(text)[render.STATUS_Y]
    assert "2. Goblin #2" in text and "dead" in text
    press(stack, KeySym.TAB, mod=Modifier.LSHIFT)  # back to the first
    assert "[a] Attack Goblin #1" in screen(stack)
    click_text(stack, "3. Goblin #3")  # a click on its row targets it
    assert "[a] Attack Goblin #3" in screen(stack)
    dice.push(1, 2)  # a natural 1 misses; #1 misses
    press(stack, KeySym.A)
    assert "You miss." in screen(stack)
    dice.push(15, 2)
    press(stack, KeySym.A)
    assert "Goblin #3 is dead." in screen(stack)
    dice.push(15)
    press(stack, KeySym.A)
    assert names(stack) == ["ExploreScene"] and session.game.state.kills == 3


def test_run_through_the_door_and_the_death_screen(user: Path, tmp_path: Path) -> None:
    session, dice = forced("warden")
    session.keep_morgue = True
    session.morgue_dir = tmp_path / "morgue"
    stack = meet(session, dice, "gaoler")  # the warden: a monster in the room means a fight
    assert names(stack) == ["ExploreScene", "CombatScene"]
    hp = session.game.state.party[0].hp
    while session.mode == "combat":
        dice.push(1, 19)  # you miss; it hits
        press(stack, KeySym.A)
    assert session.game.state.party[0].hp < hp
    assert names(stack) == ["EndScene"] or names(stack) == ["ExploreScene", "EndScene"]
    text = screen(stack)
    st = session.game.state
    assert "You are dead." in text
    assert f"Killed by the Gaoler on turn {st.turn}." in text
    assert "Depth: level 1 (The First Floor)." in text
    assert f"Seed {st.seed}, ruleset The Warden." in text
    assert "Score: 100 (floor 1: 100)." in text
    assert session.morgue is not None and session.morgue.is_file()
    morgue = session.morgue.read_text()
    assert "You are dead." in morgue and "Gaoler" in morgue and "Last messages" in morgue
    press(stack, KeySym.RETURN)
    assert names(stack) == ["TitleScene"]


def test_running_leaves_the_fight() -> None:
    session, dice = forced("warden")
    stack = meet(session, dice, "gaoler")
    ways = session.game.exits()
    press(stack, KeySym.R)
    if sum(not w.blocked for w in ways) > 1:  # a choice of doors: the first
        assert names(stack)[-1] == "DoorScene"
        press(stack, KeySym.RETURN)
    assert names(stack) == ["ExploreScene"]
    text = screen(stack)
    assert "You run through the door." in text and "The Gaoler stays where it is." in text


@pytest.mark.parametrize("ruleset", ["undercroft", "citadel", "warden", "crawler"])
def test_every_ruleset_draws_every_scene(ruleset: str) -> None:
    session, dice = forced(ruleset)
    stack = meet(session, dice, "goblin" if ruleset != "warden" else "gaoler", 2)
    text = screen(stack)
    assert "HP " in rows(text)[render.STATUS_Y]
    assert isinstance(stack.top, (EncounterScene, CombatScene))
    if isinstance(stack.top, EncounterScene):
        press(stack, KeySym.F)
        assert isinstance(stack.top, CombatScene)
        assert "Fight, round 1" in screen(stack)
    for m in session.game.state.party:
        m.hp = 0
    session.game.state.mode = Mode.DEAD
    session.game.state.death = {"cause": "test", "turn": 1, "depth": 0, "seed": session.game.state.seed}
    end = Driver(SceneStack([ExploreScene(session), EndScene(session, write_morgue=False)]))
    assert "You are dead." in screen(end)


def test_a_refused_bribe_key_holds_the_digits_typed_after_it() -> None:
    session, dice = forced()
    stack = meet(session, dice, "goblin")
    session.game.state.gold = 0  # nothing to offer: the engine refuses the $
    turn, pos = session.game.state.turn, session.game.state.pos
    press(stack, KeySym.N4, mod=Modifier.LSHIFT)  # $
    assert names(stack)[-1] == "NoticeScene"
    press(stack, KeySym.N1, KeySym.N0, KeySym.N0, KeySym.N5)  # "$100", and a 5: digits walk and rest in a meeting
    assert session.game.state.turn == turn and session.game.state.pos == pos
    press(stack, KeySym.RETURN)
    assert names(stack)[-1] == "EncounterScene"


def test_the_end_screen_shows_a_word_seed_as_typed() -> None:
    session = Session(content(), Game(content(), "undercroft", "ghost"))
    session.seed_text = "ghost"  # as the title's seed prompt (or play --seed ghost) keeps it
    st = session.game.state
    st.mode, st.death = Mode.DEAD, {"cause": "test", "turn": 1, "depth": 0, "seed": st.seed}
    text = screen(Driver(SceneStack([ExploreScene(session), EndScene(session, write_morgue=False)])))
    assert "Seed ghost, ruleset Undercroft." in text.replace("│", " ").replace("  ", " ")
    assert str(st.seed) not in text  # never the 19-digit number behind the word


def test_terms_made_then_broken_with_f_while_exploring() -> None:
    session, dice = forced()
    stack = meet(session, dice, "goblin")
    dice.push(6, 6)  # 12 - 2 reluctance = 10: agreement
    press(stack, KeySym.T)
    assert names(stack) == ["ExploreScene"]
    assert "Agreement: the Goblin" in screen(stack)
    press(stack, KeySym.F)  # break the peace: asked first
    assert names(stack) == ["ExploreScene", "ChoiceScene"] and "Break the peace?" in screen(stack)
    press(stack, KeySym.A)
    assert names(stack) == ["ExploreScene", "CombatScene"]
    assert "You break the peace with the Goblin." in screen(stack)


def test_the_odds_of_the_fight_are_on_the_encounter_and_fight_screens() -> None:
    from undercroft.sim.odds import fight_odds

    session, dice = forced()
    stack = meet(session, dice, "gaoler")
    odds = fight_odds(session.content, session.game)
    assert odds is not None and odds.exact
    text = panel_text(screen(stack), session)
    lost = "" if round(100 * odds.death) == 100 else f", HP lost {odds.hp_lost_mean:.1f}"  # all of them: not told
    assert f"If you fight on: win {odds.win:.0%}, death {odds.death:.0%}{lost}" in text
    dice.push(10, 10)  # the gaoler (faster) strikes first: 10 + 2 >= 12, 5 damage
    press(stack, KeySym.F)
    assert names(stack) == ["ExploreScene", "CombatScene"]
    after = fight_odds(session.content, session.game)
    assert after is not None and after.win < odds.win  # recomputed as HP changes
    assert f"If you fight on: win {after.win:.0%}" in panel_text(screen(stack), session)


def test_inventory_shows_the_damage_of_the_weapon_in_hand() -> None:
    session, _ = forced()
    stack = Driver(SceneStack(game_stack(session)))
    press(stack, KeySym.I)
    assert "Short Sword: +3 to hit, damage 6; no armour" in screen(stack)
    session.game.state.party[0].weapon = 4  # as after taking up a long sword
    assert "Short Sword: +3 to hit, damage 7" in screen(stack)


def test_an_items_description_keeps_its_indent_on_every_row_at_80x24() -> None:
    """The rows of a description wrapped under its item's name once began at the panel's edge, like a new item."""
    session, _ = forced()
    stack = Driver(SceneStack(game_stack(session)), size=(80, 24))
    press(stack, KeySym.I)
    inside = [row[row.index("│") + 1 :] for row in rows(screen(stack)) if "│" in row]
    at = next(i for i, row in enumerate(inside) if "Healing Potion x" in row)
    below = [row for row in inside[at + 1 :] if row.strip()][:2]
    assert [row[:4] for row in below] == ["    ", "    "] and below[0].strip().startswith("Drinking"), below


def test_a_critical_hit_is_named_in_the_log() -> None:
    session, dice = forced()
    stack = meet(session, dice, "goblin")
    dice.push(1, 1)  # talk fails first: a bribe comes only after a failed negotiation
    press(stack, KeySym.T)
    press(stack, KeySym.N4, mod=Modifier.LSHIFT)  # $
    press(stack, *[KeySym.BACKSPACE] * 7)  # (the sum typed in already)
    type_text(stack, "10")
    dice.push(6, 20)  # the bribe is refused; the goblin strikes first with a natural 20
    press(stack, KeySym.RETURN)
    damage = 2 * content().monsters["goblin"].damage  # double damage on a 20 (combat.critical_multiplier)
    assert f"A critical hit! Goblin hits. {damage} damage." in screen(stack)


def test_on_the_last_level_the_stairs_key_speaks_of_the_way_out() -> None:
    """Found in play: on the last level ``>`` said "You have not found the stairs down on this floor yet"; there it
    is the way out that is looked for."""
    game = make_game("crawler", 1, ScriptedDice())
    while not game.rs.levels[game.state.depth].final:
        go_down(game)
    session = Session(content(), game)
    stack = Driver(SceneStack(game_stack(session)))
    x, y = game.state.level.map.stairs
    assert not session.view.explored()[y, x]  # (the way out is not in sight from the start)
    turn = game.state.turn
    press(stack, KeySym.PERIOD, mod=Modifier.LSHIFT)
    text = " ".join(screen(stack).split())
    assert "You have not found the way out of this level yet." in text and game.state.turn == turn


def test_the_stairs_key_in_a_fight_says_why_not() -> None:
    """The play test's ``>`` in a fight beside the stairs did nothing and said nothing: the refusal row says why."""
    session, dice = forced()
    stack = meet(session, dice, "goblin")
    press(stack, KeySym.F)
    assert names(stack) == ["ExploreScene", "CombatScene"]
    turn = session.game.state.turn
    press(stack, KeySym.PERIOD, mod=Modifier.LSHIFT)
    text = " ".join(panel_text(screen(stack), session).split())
    assert "Not now: You cannot go down in a fight." in text
    assert session.game.state.turn == turn and names(stack) == ["ExploreScene", "CombatScene"]


def test_the_logs_distance_is_the_panels_where_the_room_is_shorter_than_the_roll() -> None:
    """The play test's panel read "Distance: 70 ft" and the log "Distance: 110 ft." for one meeting: the roll put
    the group as far as the room allows, and the meeting goes by the map's distance. The log's line (at the detail
    level, ``L`` then ``a``) says the map's, with the roll beside it."""
    session, dice = forced()
    dice.push(*encounter_faces(distance=(6, 6)))  # 120 ft: more than the first room holds
    _, events = place_group(session.game, "goblin", 3)
    session.log.add_events(events, session.narrator)
    stack = Driver(SceneStack(game_stack(session)))
    enc = session.game.state.encounter
    assert enc is not None and enc.distance < 120
    assert f"Distance: {enc.distance} ft" in panel_text(screen(stack), session)
    press(stack, KeySym.L, mod=Modifier.LSHIFT)
    press(stack, KeySym.A)  # the rolls a player may want
    full = " ".join(screen(stack).split())
    assert f"Distance: {enc.distance} ft (rolled 120 ft)." in full and "Distance: 120 ft" not in full


def test_a_talk_that_cannot_succeed_names_the_bribe_it_opens_at_80x24() -> None:
    """The play test's three Ghasts: "[t] Talk 0%" and "[$] Bribe..." hid the best way out (a talk fails, then a
    bribe is taken 67% of the time at 400). The talk's choice says so, whole, on the smallest screen."""
    session, dice = forced()
    session.game.state.gold = 800
    dice.push(*encounter_faces())
    place_group(session.game, "ghast", 3)
    stack = Driver(SceneStack(game_stack(session)), size=(80, 24))
    text = screen(stack)
    assert "[t] Talk 0%, then bribe 67% at 400" in text
    assert "[w] Wait: 6 rounds, then 50% they" in text and "[r] Run..." in text  # (nothing pushed off)
