"""The sentences the play-tests found misleading, each now saying what the rules do."""

from __future__ import annotations

from engine_helpers import content
from test_ui_encounter_map import in_a_new_room, meet_at
from ui_helpers import panel_text, screen

from undercroft.narrate import moves_left
from undercroft.rules.names import a_name, plural_name
from undercroft.sim.odds import Odds
from undercroft.ui import threat
from undercroft.ui.scenes.look import odds_line


def test_a_monster_that_will_not_talk_is_not_said_to_consider_offers() -> None:
    game = in_a_new_room()
    g, driver, session = meet_at(game, "leech_mother", 1, (2, 2), reaction=(5, 5))  # 10: no attack
    assert not game.negotiable(g) and g.reaction_result == "peaceful"
    said = panel_text(screen(driver), session)
    assert "Reaction: 10, no attack" in said and "offers" not in said
    kobold = in_a_new_room()
    _, driver, session = meet_at(kobold, "kobold", 1, (2, 2), reaction=(5, 5))  # one that talks: the band whole
    assert "no attack; leaves or considers offers" in panel_text(screen(driver), session)


def test_the_oil_line_says_what_a_failed_throw_does() -> None:
    game = in_a_new_room()
    g, _, _ = meet_at(game, "kobold", 1, (2, 2))
    line = next(t for t in threat.distraction_lines(game, g) if t.startswith("Fears fire"))
    assert line == "Fears fire: burning oil stops it (50%), else it waits 3 rounds for it to die."


def test_a_certain_death_tells_no_hit_points_lost() -> None:
    """ "death 100%, HP lost ~2.0" read as a contradiction: where death is certain the HP lost are all of them."""
    certain = Odds(0.0, 1.0, 2.0, 3.0, "exact", "Delver", True)
    assert odds_line(certain, "If you fight on")[0] == "If you fight on: win 0%, death 100% (exact)"
    even = Odds(0.5, 0.5, 6.25, 3.0, "exact", "Delver", True)
    assert odds_line(even, "If you fight on")[0] == "If you fight on: win 50%, death 50%, HP lost 6.2 (exact)"
    guessed = Odds(0.5, 0.5, 6.25, 3.0, "simulated", "Delver", False)  # (a simulation's average: "~", never "exact")
    assert odds_line(guessed, "If you fight on")[0] == "If you fight on: win 50%, death 50%, HP lost ~6.2 (simulated)"


def test_the_skeletons_description_leaves_talk_to_the_rules() -> None:
    """The citadel's rules let the party talk to a skeleton: its description no longer says "Nothing to talk to"."""
    assert "talk" not in content().monsters["skeleton"].description


def test_one_of_a_monster_named_in_the_plural_is_a_sump_leech() -> None:
    """ "A Sump Leeches" on the panel of a lone leech: a name that names several is made one of them for "a"."""
    game = in_a_new_room()
    _, driver, session = meet_at(game, "sump_leeches", 1, (2, 2))
    said = panel_text(screen(driver), session)
    assert "A Sump Leech " in f"{said} " and "A Sump Leeches" not in said
    assert a_name("Sump Leeches") == "A Sump Leech" and a_name("Empty Harness") == "An Empty Harness"
    assert plural_name("Sump Leeches") == "Sump Leeches" and plural_name("Empty Harness") == "Empty Harnesses"


def test_a_potions_description_counts_its_time_in_the_moves_the_screens_count() -> None:
    """The descriptions said "For 30 rounds" where every screen says moves ("30 more moves, a rest ends it"): they
    say moves now, as many as the potion lasts."""
    c = content()
    timed = [it for it in c.items.values() if it.rounds]
    assert timed
    for it in timed:
        assert it.description.startswith(f"For {moves_left(it.rounds, c.rules.time)} moves "), it.description
        assert "rounds" not in it.description.split(".")[0]
