"""The threat told. Look and the encounter panel say what a creature does (its blow, its to-hit
against your defence, running from it, what stops it in a chase, talk and bribes), the choices carry their
chances, and a party's odds say the chance that someone falls. The numbers a player reads are checked against the
data worked out by hand, and against the functions the bot decides by."""

from __future__ import annotations

import re

import tcod.console
from art_maps import on_art
from engine_helpers import content, make_game, script, walk_into
from tcod.event import KeySym
from test_no_cut import box_text, words
from test_running import chase
from test_ui_encounter_map import beside
from ui_helpers import Driver, press, screen

from undercroft.rules.dice import ScriptedDice
from undercroft.rules.game import Game
from undercroft.rules.state import Group
from undercroft.sim import chances
from undercroft.sim.odds import someone_falls
from undercroft.ui import render
from undercroft.ui.scenes import LookScene, SceneStack, game_stack
from undercroft.ui.scenes.game import GameScene
from undercroft.ui.session import Session
from undercroft.ui.threat import way_chances


def meeting_of(ruleset: str, monster: str, count: int) -> tuple[Game, Group, Session, SceneStack]:
    """``count`` x ``monster`` met beside the party in a new room (nobody surprised), on the screen."""
    game = make_game(ruleset, 1, dice=ScriptedDice())
    walk_into(game, "room", visited=False)
    g = game.add_group(monster, count, pos=beside(game))
    game.start_encounter(g, meeting=False)
    session = Session(content(), game)
    return game, g, session, SceneStack(game_stack(session))


def looked_at(session: Session, stack: SceneStack, g: Group, size: tuple[int, int] = (120, 50)) -> str:
    """The look panel's words on the first creature of ``g``."""
    below = stack.scenes[-1]
    assert isinstance(below, GameScene)
    look = LookScene(session, below.odds_lines)  # as the scene's own ; opens it
    look.cursor = session.game.creature_tiles(g)[0]
    stack.scenes.append(look)
    console = tcod.console.Console(*size, order="F")
    stack.draw(console)
    stack.scenes.pop()
    return box_text(str(console), "Look")


def test_look_tells_the_blow_and_the_to_hit_worked_out_from_the_data() -> None:
    """An Ogre against the lone delver: damage, the critical's, and the least face that hits, by hand from the
    data (001: a natural 20 always hits, a 1 always misses, else d20 + attack >= defence)."""
    game, g, session, stack = meeting_of("undercroft", "ogre", 1)
    mon = game.monster_of(g)
    combat = content().rules.combat
    me = game.state.party[0]
    least = max(2, me.defense - mon.attack)
    chance = (combat.attack_die - least + 1) / combat.attack_die
    text = looked_at(session, stack, g)
    crit = mon.damage * combat.critical_multiplier
    assert f"Hits for {mon.damage}, {crit} on a {combat.critical}." in text
    assert f"Hits you on {least}+ ({chance:.0%})." in text
    assert f"speed {mon.speed}, yours {me.speed}" in text
    assert words(mon.description) in text


def test_a_party_is_told_the_to_hit_against_each_and_the_chance_someone_falls() -> None:
    game, g, session, stack = meeting_of("citadel", "orc", 3)
    text = looked_at(session, stack, g)
    mon = game.monster_of(g)
    for m in game.state.party:
        assert re.search(rf"{m.name} on {max(2, m.defense - mon.attack)}\+ \(\d+%\)", text), (m.name, text)
    falls = someone_falls(game.content, game)
    assert falls is not None and f"one falls {falls:.0%}" in text
    assert "No running here: talk, bribe or fight." in text  # the citadel: 000 as written, no running


def test_the_encounter_choices_carry_the_rules_chances() -> None:
    """Talk's chance is chances.talk_chance, run's chances.escape_chance: the functions the bots decide by too."""
    game, g, _, stack = meeting_of("crawler", "hobgoblin", 2)
    console = tcod.console.Console(120, 40, order="F")
    stack.draw(console)
    text = box_text(str(console), "Encounter")
    assert f"Talk {chances.talk_chance(game, g):.0%}" in text
    assert f"Run... {chances.escape_chance(game, g):.0%}" in text
    assert "Will talk." in text  # the crawler: negotiation, no bribery


def test_a_creature_that_will_not_talk_says_so() -> None:
    c = content()
    monster = next(m for m, mon in sorted(c.monsters.items()) if not mon.negotiable and not mon.unique)
    _, g, session, stack = meeting_of("undercroft", monster, 1)
    assert "Will not talk or take a bribe." in looked_at(session, stack, g)


def test_in_a_chase_the_drops_carry_their_chances() -> None:
    """The Gaoler is intelligent: food never stops it, gold may (the data's percent), oil by self-preservation."""
    game, g = chase("gaoler")
    mon = game.monster_of(g)
    d = game.content.tables.distractions
    session = Session(content(), game)
    text = screen(SceneStack(game_stack(session)))
    assert mon.intelligent
    assert "Drop food (0%)" in text and f"Drop gold ({d.treasure}%)" in text
    assert f"Throw burning oil ({d.oil_stops if mon.self_preservation else 0}%)" in text


def test_a_short_screen_keeps_the_blow_and_look_pages_the_rest() -> None:
    """At 80x24 the encounter panel has the blow and the to-hit on one line and points to look; the look panel
    shows everything, a page at a time (Space), and nothing is cut."""
    game, g, _, stack = meeting_of("crawler", "gaoler", 3)  # more than a look panel of 80x24 has rows
    driver = Driver(stack, size=(80, 24))
    with render.watch_cuts() as cuts:
        panel = box_text(screen(driver), "Encounter")
    assert cuts == []
    assert "Hits for" in panel and "Look (;) at it for the rest." in panel
    press(driver, KeySym.SEMICOLON)
    look = driver.top
    assert isinstance(look, LookScene)
    look.cursor = game.creature_tiles(g)[0]
    pages = []
    with render.watch_cuts() as cuts:
        for _ in range(3):
            pages.append(box_text(screen(driver), "Look"))
            press(driver, KeySym.SPACE)
    assert cuts == []
    assert "Space: more (1/2)" in pages[0] and "Space: more (2/2)" in pages[1] and pages[2] == pages[0]
    whole = " ".join(pages)
    for line in ("Hits for", "Hits Delver on", "If you run, it chases", "Fears fire", "Will talk.", "one falls"):
        assert line in whole, line
    assert words(game.monster_of(g).description) in whole


def test_a_monster_caught_unaware_is_why_running_is_sure() -> None:
    """003: a monster surprised in the first round never sees where the party went, however fast it is; the look
    says so beside the 100 % the panel shows, and a round later, when it has seen the party, the chase again."""
    game, g, session, stack = meeting_of("undercroft", "lizardfolk", 1)
    enc = game.state.encounter
    assert enc is not None and game.monster_of(g).speed > game.party_speed()
    enc.monster_surprised = enc.first_round = True
    assert way_chances(game, g)["run"].startswith("100%")
    assert "If you run now, it never sees where you went: it is caught unaware" in words(looked_at(session, stack, g))
    enc.first_round = False
    assert "If you run, it chases, faster" in words(looked_at(session, stack, g))


def test_in_a_fight_running_carries_its_chance() -> None:
    """From a fight no one evades by speed (003): the run's chance is escape_chance from melee."""
    game, g, _, stack = meeting_of("undercroft", "gaoler", 1)
    script(game).push(*[2] * 4)  # every attack misses
    driver = Driver(stack, size=(80, 50))
    press(driver, KeySym.F)
    assert game.state.combat is not None
    found = re.search(r"\[r\] Run through (?:a|the) door(?:\.\.\.)? \((\d+%)\)", screen(driver))
    assert found is not None and found.group(1) == f"{chances.escape_chance(game, g):.0%}"


def test_the_bribe_choice_shows_the_best_chance_the_gold_can_buy_not_the_bots_offer() -> None:
    """A Goblin (strength 2 + reluctance 2: the bribery table's second column, digits 1..6 down its rows) after a
    failed talk: with 150 gold the best the party can buy is the row from 100 (digit 4 on a d6: 67%); the bot
    would offer only 50 (the least sum with even odds, its own threshold), and the panel does not say so."""
    game, g, _, stack = meeting_of("citadel", "goblin", 1)
    g.negotiation = "failure"
    game.state.gold = 150
    table = content().tables.bribery
    assert [row[1] for row in table.cells] == [1, 2, 3, 4, 5, 6] and table.die == 6
    console = tcod.console.Console(120, 40, order="F")
    stack.draw(console)
    text = box_text(str(console), "Encounter")
    assert "Bribe... 67% at 100" in text
    assert chances.best_bribe(game, g) == (100, 4 / 6)
    game.state.gold = 40  # 25..49: digit 2
    assert chances.best_bribe(game, g) == (25, 2 / 6)
    game.state.gold = 10  # 1..24: digit 1
    assert chances.best_bribe(game, g) == (1, 1 / 6)


# A room, a corridor on to the room of the stairs, and a side room off the corridor.
THREE_ROOMS = """
#################
#.....+,,,,,+...#
#.....#####,#.>.#
#.....#####,#...#
###########+#####
#...........#
#...........#
#############
"""


def met_on_art(party: tuple[int, int], came_in: tuple[int, int], group_at: tuple[int, int]) -> tuple[Game, Group]:
    """In warden (nothing follows a running delver: the escape is certain), a Gaoler faced on THREE_ROOMS, the
    whole map seen, the party having come in by ``came_in``."""
    game = make_game("warden", 1, dice=ScriptedDice())
    lv = on_art(game, THREE_ROOMS, party)
    lv.memory[:, : lv.map.width] = True
    game.state.segment_entry = came_in
    g = game.add_group("gaoler", 1, pos=group_at)
    game.start_encounter(g, meeting=False)
    return game, g


def encounter_panel(game: Game) -> str:
    console = tcod.console.Console(120, 40, order="F")
    SceneStack(game_stack(Session(content(), game))).draw(console)
    return box_text(str(console), "Encounter")


def test_the_escape_chance_says_the_group_waits_between_the_delver_and_the_stairs() -> None:
    """Met in the corridor to the stairs, the way back leads only to the first room: the Gaoler stays (001) and
    is in the way. The panel says so beside the escape chance, with the fight met again rested, which is what
    the reference player reads (chances.left_behind, one function for both)."""
    game, g = met_on_art((8, 1), (6, 1), (10, 1))
    lb = chances.left_behind(game, g)
    assert lb.on_the_way is True and lb.again() == lb.rested
    text = encounter_panel(game)
    assert "Run... 100%, waits on your way (choose a door)" in text
    assert f"Got away, it waits between you and the stairs (met again rested: win {lb.rested:.0%})." in text


def test_the_escape_chance_says_the_group_stays_off_the_way_to_the_stairs() -> None:
    """Met in the side room: running out into the corridor, the stairs are reached without passing it."""
    game, g = met_on_art((5, 5), (11, 4), (7, 5))
    lb = chances.left_behind(game, g)
    assert lb.on_the_way is False and lb.again() == 1.0
    text = encounter_panel(game)
    assert "[r] Run 100%, stays off your way" in text  # (one way out: no door to choose)
    assert "Got away, it stays off your way to the stairs." in text


def test_before_the_stairs_are_found_the_panel_says_only_that_it_stays() -> None:
    game, g = met_on_art((8, 1), (6, 1), (10, 1))
    game.state.level.memory[:] = False
    lb = chances.left_behind(game, g)
    assert lb.on_the_way is None and lb.again() == lb.rested  # (the run is worth the number the panel shows)
    text = encounter_panel(game)
    assert "Run... 100%, stays (choose a door)" in text
    assert f"Got away, it stays (met again rested: win {lb.rested:.0%})." in text


def test_at_80x24_the_run_choice_keeps_what_running_leaves_behind() -> None:
    """The meeting panel's two columns at 80x24 had no room for "100%, stays": the run's chance was left alone
    there (the window showed both). A run whose words do not fit its column now takes a row across both."""
    game, g, _, stack = meeting_of("undercroft", "skeleton", 1)
    assert way_chances(game, g)["run"] == "100%, stays"
    rows = screen(Driver(stack, size=(80, 24))).splitlines()
    assert any("[r] Run... 100%, stays " in row for row in rows), rows
    assert any("[f] Fight" in row and "[q] Drink" in row for row in rows)  # the others still two a row


def test_at_80x24_the_wait_choice_says_what_a_wait_brings() -> None:
    """A hand play-test waited out every uncertain monster: nothing on the panel said what a Wait risks. The wait
    choice tells it, whole at 80x24 (on a row across both columns, or two, where it does not fit one): a hostile
    group's chance to attack; an uncertain one's rounds before it makes up its mind, and then its chance; on the
    standoff's last round, that chance and what it does else."""
    game, g, _, stack = meeting_of("undercroft", "skeleton", 1)
    g.reaction, g.reaction_result = 4, "hostile"  # 50 % a wait
    rows = screen(Driver(stack, size=(80, 24))).splitlines()
    assert any("[w] Wait: 50% it attacks " in row for row in rows), rows
    game, g, _, stack = meeting_of("undercroft", "skeleton", 1)
    g.reaction, g.reaction_result = 7, "uncertain"  # never on a wait; 50 % when the standoff ends
    text = box_text(screen(Driver(stack, size=(80, 24))), "Encounter")
    assert "[w] Wait: 6 rounds, then 50% it attacks, else it lets you be" in text, text
    st = game.state
    assert st.encounter is not None
    st.encounter.rounds = content().rules.encounter.standoff_rounds - 1
    text = box_text(screen(Driver(stack, size=(80, 24))), "Encounter")
    assert "[w] Wait: 50% it attacks, else it lets you be" in text, text


def test_the_wait_choice_speaks_of_a_group_as_they() -> None:
    """Three Kobolds waited on read "it attacks, else it lets you be" at 80x24: the wait's words now agree with the
    group met, as the other lines of the panel do ("the 3 Kobolds face you")."""
    _, g, _, stack = meeting_of("undercroft", "kobold", 3)
    g.reaction, g.reaction_result = 7, "uncertain"
    text = box_text(screen(Driver(stack, size=(80, 24))), "Encounter")
    assert "[w] Wait: 6 rounds, then 50% they attack, else they let you be" in text, text


def test_at_80x24_the_drink_choice_says_the_monster_may_attack_on_it() -> None:
    """A hand play-test drank three potions in front of a hostile Vampire: nothing on the panel said a drink gives
    the monster its round. Where it may attack on it (as on a wait), the drink choice says so, whole at 80x24;
    where it is unaware, or never attacks on a wait, the label stays the potions carried."""
    game, g, _, stack = meeting_of("undercroft", "skeleton", 1)
    g.reaction, g.reaction_result = 4, "hostile"  # 50 % a wait, or a drink
    game.state.party[0].hp -= 5
    potions = sum(n for i, n in game.state.items.items() if content().items[i].heal is not None)
    assert potions > 0
    rows = screen(Driver(stack, size=(80, 24))).splitlines()
    assert any(f"[q] Drink ({potions}): 50% it attacks" in row for row in rows), rows
    g.reaction, g.reaction_result = 7, "uncertain"  # never on a wait (six rounds before the standoff)
    text = box_text(screen(Driver(stack, size=(80, 24))), "Encounter")
    plain = re.compile(rf"\[q\] Drink \({potions}( left)?\)(?!:)")
    assert plain.search(text) and f"Drink ({potions}):" not in text, text
    g.reaction, g.reaction_result = 4, "hostile"
    st = game.state
    assert st.encounter is not None
    st.encounter.first_round, st.encounter.monster_surprised = True, True  # caught unaware: its round is lost
    text = box_text(screen(Driver(stack, size=(80, 24))), "Encounter")
    assert plain.search(text) and f"Drink ({potions}):" not in text, text
