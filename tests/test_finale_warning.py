"""A warned finale: before the door of a final guardian the game says what waits there, what will not work against
it and what may, and asks; the guardian's panel lists only what the engine allows. The engine says it
(``Game.finale_ahead``, ``Game.finale_terms``); the screens word it (window and terminal, one loop); the bot takes
the same steps (the warning is no action), and a death behind the warned door is a chosen fight."""

from __future__ import annotations

import pyte
from engine_helpers import content, encounter_faces, script, walk_to
from tcod.event import KeySym
from test_engine_final import door_step, final_level, guardian
from test_no_cut import box_text
from test_term_app import FakeTerm
from test_ui_encounter_map import beside
from ui_helpers import Driver, press, screen

from undercroft.rules.actions import Bribe, Move, Run, Talk
from undercroft.rules.finale import Terms
from undercroft.rules.game import Game
from undercroft.rules.state import Group
from undercroft.rules.types import Mode
from undercroft.term.app import TerminalFrontEnd
from undercroft.tools.autoplay import had_a_way_out, note_warning, play_game
from undercroft.ui import loop
from undercroft.ui.scenes import EncounterScene, ExploreScene, SceneStack, game_stack
from undercroft.ui.scenes.choice import ChoiceScene
from undercroft.ui.session import Session

ARROWS = {(0, -1): KeySym.UP, (0, 1): KeySym.DOWN, (-1, 0): KeySym.LEFT, (1, 0): KeySym.RIGHT}
VI = {(0, -1): "k", (0, 1): "j", (-1, 0): "h", (1, 0): "l"}


def at_the_door(ruleset: str, seed: int = 1) -> tuple[Game, Group, tuple[int, int]]:
    """The final level, the party in the doorway of the room of the way out (its first guardian's); the step in."""
    game = final_level(ruleset, seed)
    g = guardian(game, 0)
    room = game.state.level.map.segments[g.segment]
    walk_to(game, room.doors[0])
    return game, g, door_step(game, room.id)


def test_the_engine_says_the_step_leads_to_a_final_guardian_and_what_the_rules_allow() -> None:
    """Each ruleset's first guardian, as its data and its procedures have it: the Nameless One (citadel: no
    running, unnegotiable, no reaction, so a Wait lets it strike), the Lampless (unnegotiable, running open), the
    Patient One (001: no talk, free running, it holds its ground), the crawler's Troll (negotiable: talk works). The
    Lampless and the Troll face the party with a reaction rolled: waiting will not move them (they keep the way
    out)."""
    want = {
        "citadel": Terms(40000, "the_nameless_one", False, False, False, False, True, False),
        "undercroft": Terms(80000, "the_lampless", False, False, True, False, False, True),
        "warden": Terms(40000, "the_patient_one", False, False, True, True, False, False),
        "crawler": Terms(40000, "troll", True, False, True, False, False, True),
    }
    for ruleset, terms in want.items():
        game, g, step = at_the_door(ruleset, 2 if ruleset == "crawler" else 1)  # (crawler 1: the way is held)
        assert game.finale_ahead(Move(*step)) == terms, ruleset
        assert game.finale_terms(g) == terms, ruleset
        assert game.finale_ahead(Move(-step[0], -step[1])) is None  # away from the door: nothing to warn of
        g.peaceful = True
        assert game.finale_ahead(Move(*step)) is None  # at peace: nothing waits
    game = Game(content(), "citadel", 1)  # floor 1: no guardians there
    assert all(game.finale_ahead(Move(*d)) is None for d in ARROWS)


def test_the_warning_asks_and_only_going_in_takes_the_step() -> None:
    """Citadel: the walking key into the Nameless One's room opens the warning and takes no action; staying back
    leaves everything as it was; going in is the ordinary step, and the meeting's panel lists only Fight, Wait and
    Drink (000: no words, no bribes; no running in the citadel) and says so."""
    game, g, step = at_the_door("citadel")
    game.state.party[0].hp -= 1  # (someone hurt: a healing potion is something to do)
    session = Session(content(), game)
    driver = Driver(SceneStack(game_stack(session)), size=(100, 40))
    turn, pos = game.state.turn, game.state.pos
    press(driver, ARROWS[step])
    text = screen(driver)
    assert isinstance(driver.top, ChoiceScene)
    warning = box_text(text, "The way out")
    for words in (
        "The Nameless One waits beyond this door",
        "What will not work: it will not talk; it takes no bribe; there is no running from it.",
        "Once you are in, only a fight gets you past it.",
        "Waiting only lets it strike first.",
        "If you fight it: win",  # (the look panel's odds: what going in is likely to cost)
        "Go in?",
        "[g] Go in",
        "[s] Stay back",
    ):
        assert words in warning, words
    assert (game.state.turn, game.state.pos) == (turn, pos)  # asked, nothing taken
    press(driver, KeySym.S)
    assert isinstance(driver.top, ExploreScene) and (game.state.turn, game.state.pos) == (turn, pos)
    press(driver, ARROWS[step])
    press(driver, KeySym.G)
    assert game.state.mode == Mode.ENCOUNTER and game.state.front_group() is g
    panel = box_text(screen(driver), "Encounter")
    assert "A final guardian: no words, no bribes, no running; waiting lets it strike first." in panel
    assert "[f] Fight" in panel and "[w] Wait" in panel and "Drink" in panel
    for refused in ("Talk", "Bribe", "Run", "Drop food", "walking keys"):
        assert refused not in panel, refused
    assert not any(game.legal(a) for a in (Talk(), Bribe(0), Run(), Move(*step)))  # what the panel left out
    assert "No running here: only a fight." in panel  # (not "talk, bribe or fight": it will do neither)
    script(game).push(*[2] * 12)  # every blow misses
    press(driver, KeySym.F)  # the fight: its panel too lists only what the rules allow
    c = game.state.combat
    assert c is not None
    fight = box_text(screen(driver), f"Fight, round {c.round}")
    assert "Attack" in fight and "Hold back" in fight and "Run" not in fight and "Throw oil" not in fight


def test_the_warning_is_given_once_and_a_walk_stops_at_the_door() -> None:
    """Undercroft: a walk (travel) toward the Unlit's room stops at the door and asks; once the player has gone in,
    the way back in is not asked again."""
    game, g, step = at_the_door("undercroft")
    session = Session(content(), game)
    stack = SceneStack(game_stack(session))
    explore = stack.top
    assert isinstance(explore, ExploreScene)
    inside = (game.state.pos[0] + 2 * step[0], game.state.pos[1] + 2 * step[1])
    game.state.level.memory[:] = True  # (the whole floor known: the walk may aim inside the room)
    stack.apply(explore.start(inside))
    assert isinstance(stack.top, ChoiceScene) and explore.trip is None
    assert game.state.segment != g.segment
    script(game).push(*encounter_faces())
    press(stack, KeySym.G)
    assert game.state.mode == Mode.ENCOUNTER and g.id in session.warned
    assert explore.warning(Move(*step)) is None  # warned already


def test_a_run_through_the_door_of_a_final_guardian_asks_too() -> None:
    """Warden: met by a Gaoler beside the door of the way out's room, the party may run through any door (001);
    through the Patient One's door the game asks first, through another it does not. Going in is the same Run."""
    game, g, _ = at_the_door("warden")
    st = game.state
    gaoler = game.add_group("gaoler", 1, pos=beside(game))
    game.start_encounter(gaoler, meeting=False)
    into = [i for i, w in enumerate(game.exits()) if w.segment == g.segment]
    other = next(i for i, w in enumerate(game.exits()) if w.segment != g.segment and not w.blocked)
    assert into and game.finale_ahead(Run(door=other)) is None
    assert game.finale_ahead(Run(door=into[0])) == game.finale_terms(g)
    session = Session(content(), game)
    stack = SceneStack(game_stack(session))
    scene = stack.top
    assert isinstance(scene, EncounterScene)
    stack.apply(scene.act(Run(door=into[0])))
    assert isinstance(stack.top, ChoiceScene) and "The Patient One waits beyond this door" in screen(stack)
    assert st.front_group() is gaoler  # asked, nothing taken
    press(stack, KeySym.G)
    assert st.segment == g.segment and st.front_group() is g


def test_the_terminal_front_end_asks_the_same() -> None:
    """The same loop on a fake 80x24 terminal: the step's key brings the warning, g goes in."""
    game, g, step = at_the_door("citadel")
    session = Session(content(), game)
    stack = SceneStack(game_stack(session))
    term = FakeTerm(80, 24)
    with TerminalFrontEnd.open(term=term) as frontend:
        lp = loop.Loop(frontend, stack)
        lp.draw()
        term.ungetch(VI[step])
        lp.wait()
        lp.draw()
        shown = pyte.Screen(80, 24)
        pyte.Stream(shown).feed(term.out.getvalue())
        text = "\n".join(shown.display)
        assert "The Nameless One waits beyond this door" in text and "[g] Go in" in text
        assert game.state.front_group() is None  # asked, nothing taken
        term.ungetch("g")
        lp.wait()
    assert game.state.mode == Mode.ENCOUNTER and game.state.front_group() is g


def test_a_death_behind_the_warned_door_is_a_chosen_fight() -> None:
    """The Nameless One's meeting offers no way out (had_a_way_out: only a fight, a wait or a drink), but the step in
    came after the warning: the bot's death there counts as chosen. Citadel seed 11: the careful bot dies to it."""
    game, g, step = at_the_door("citadel")
    ways: dict[int, bool] = {}
    note_warning(game, Move(-step[0], -step[1]), ways)
    assert ways == {}
    note_warning(game, Move(*step), ways)
    assert ways == {g.id: True}
    game.step(Move(*step))
    assert game.state.front_group() is g and not had_a_way_out(game)
    result = play_game(content(), "citadel", 11)
    assert (result.outcome, result.cause, result.choice) == ("dead", "The Nameless One", True)


def test_the_lampless_warning_and_look_agree_on_dropped_gold() -> None:
    """Play test: the Lampless's warning said "it takes no gold" while look said "Chased: gold may stop it (50%)".
    Both are the rules: it takes no bribe (it will not talk), and gold dropped while it chases may stop it (003)."""
    from undercroft.ui import threat

    game, g, _ = at_the_door("undercroft")
    terms = game.finale_terms(g)
    assert terms is not None
    lines = threat.finale_lines(game, terms)
    assert (
        "What will not work: it will not talk; it takes no bribe; waiting will not move it: it keeps the way out."
        in lines
    )
    assert "What may: running; in a chase, dropped gold may stop it (50%)." in lines
    assert "Chased: gold may stop it (50%)." in threat.distraction_lines(game, g)


def test_a_kind_lampless_panel_says_waiting_will_not_move_it() -> None:
    """A kind reaction once let the party past the last floor's guardian after one Wait. The meeting's panel at
    80x24 now says a wait brings nothing from it, and that waiting will not move it."""
    game, g, step = at_the_door("undercroft")
    script(game).push(*encounter_faces(reaction=(5, 6)))  # reaction 11: no attack
    game.step(Move(*step))
    assert game.state.front_group() is g and g.reaction_result == "peaceful"
    session = Session(content(), game)
    panel = box_text(screen(Driver(SceneStack(game_stack(session)), size=(80, 24))), "Encounter")
    assert "A final guardian: no words, no bribes; waiting will not move it." in panel
    assert "[w] Wait: it stays" in panel
