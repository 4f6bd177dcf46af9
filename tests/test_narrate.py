"""Narration (undercroft.narrate): every event a player reads has its line, and articles come out right for every
monster name in every sentence form ("the Ghoul", "the Unlit" mid-sentence, "The Unlit" first, never "the The")."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from engine_helpers import content
from event_helpers import emitted_types, sample

from undercroft.content import load_content
from undercroft.narrate import Narrator, plural
from undercroft.narrate.lines import LINES, SILENT
from undercroft.record import state_summary
from undercroft.rules.events import EVENT_TYPES, Event
from undercroft.rules.game import Game
from undercroft.rules.types import Mode
from undercroft.ui.session import end_lines

# Events the player does not read (bookkeeping): no line.
SILENT_TYPES = {"move", "enter"}

# One or more samples of every narrated event, with the monster left as "{m}".
SAMPLES: list[tuple[str, dict[str, Any]]] = [
    ("refused", {"action": "talk", "reason": "not_now", "mode": "explore"}),
    ("refused", {"action": "move", "reason": "facing", "monster": "{m}"}),
    ("refused", {"action": "talk", "reason": "talked", "monster": "{m}"}),
    (
        "roll",
        {
            "purpose": "surprise_monster",
            "dice": "1d6",
            "faces": [2],
            "modifier": 0,
            "multiplier": 1,
            "total": 2,
            "target": 2,
            "result": "surprised",
            "monster": "{m}",
        },
    ),
    (
        "roll",
        {
            "purpose": "monster_attacks",
            "dice": "1d100",
            "faces": [40],
            "modifier": 0,
            "multiplier": 1,
            "total": 40,
            "target": 50,
            "result": "yes",
            "group": 1,
        },
    ),
    ("encounter", {"group": 1, "monster": "{m}", "count": 1, "hp": [5], "origin": "resident", "first": True}),
    ("encounter", {"group": 1, "monster": "{m}", "count": 3, "hp": [5, 5, 5], "origin": "resident", "first": True}),
    (
        "encounter",
        {
            "group": 1,
            "monster": "{m}",
            "count": 2,
            "hp": [5, 5],
            "origin": "wandering",
            "first": True,
            "distance": 30,
            "sighted": True,
        },
    ),
    (
        "encounter",
        {
            "group": 1,
            "monster": "{m}",
            "count": 1,
            "hp": [5],
            "origin": "wandering",
            "first": True,
            "distance": 30,
            "sighted": True,
        },
    ),
    ("placed", {"group": 1, "pos": [30, 12], "distance": 60, "rolled": 70, "out_of_sight": False}),
    ("in_sight", {"group": 1, "monster": "{m}", "count": 2, "distance": 30}),
    ("in_sight", {"group": 1, "monster": "{m}", "count": 1, "distance": 30}),
    ("close", {"group": 1, "monster": "{m}", "distance": 30}),
    ("close", {"group": 1, "monster": "{m}", "distance": 10}),
    ("run", {"group": 1, "door": [40, 9], "to": [40, 8], "segment": 4}),
    ("pursue", {"group": 1, "distance": 40, "monster": "{m}"}),
    ("let_go", {"group": 1, "monster": "{m}"}),
    ("got_away", {"group": 1, "distance": 130, "monster": "{m}", "reason": "out_of_sight"}),
    ("got_away", {"group": 1, "distance": 20, "monster": "{m}", "reason": "gave_up"}),
    ("hidden", {"group": 1}),
    ("reveal", {"group": 1, "monster": "{m}"}),
    ("walked_past", {"group": 1, "monster": "{m}"}),
    ("pass", {"group": 1, "monster": "{m}"}),
    ("peaceful", {"group": 1, "monster": "{m}", "already": True}),
    ("peaceful", {"group": 1, "monster": "{m}", "already": False}),
    ("table", {"table": "t", "row": 1, "column": 2, "monster": "{m}", "number": 2}),
    ("pickup", {"item": "gold", "amount": 5}),
    ("pickup", {"item": "long_sword", "amount": 1}),
    ("wield", {"member": 0, "item": "long_sword", "weapon": 4, "damage": 7}),
    ("initiative", {"party": 3, "monster": 5, "first": "monsters", "group": 1, "monster_id": "{m}"}),
    ("combat", {"group": 1, "first": "party", "free_round": "party", "monster": "{m}"}),
    (
        "attack",
        {
            "attacker": "delver",
            "attacker_side": "party",
            "member": 0,
            "target": "{m}",
            "target_index": 0,
            "group": 1,
            "count": 1,
            "dice": "1d20",
            "natural": 20,
            "modifier": 3,
            "total": 23,
            "defense": 12,
            "hit": True,
            "critical": True,
            "damage": 12,
            "target_hp_after": 0,
        },
    ),
    (
        "attack",
        {
            "attacker": "{m}",
            "attacker_side": "monsters",
            "attacker_index": 1,
            "group": 1,
            "count": 2,
            "target": "delver",
            "member": 0,
            "dice": "1d20",
            "natural": 15,
            "modifier": 2,
            "total": 17,
            "defense": 12,
            "hit": True,
            "critical": False,
            "damage": 3,
            "target_hp_after": 9,
            "target_max_hp": 12,
        },
    ),
    ("kill", {"group": 1, "index": 0, "monster": "{m}", "count": 1}),
    (
        "oil",
        {
            "item": "oil_flask",
            "group": 1,
            "target_index": 0,
            "damage": 4,
            "target_hp_after": 2,
            "monster": "{m}",
            "count": 1,
        },
    ),
    ("oil", {"item": "oil_flask", "group": 1, "monster": "{m}"}),
    ("wait", {"combat": True}),
    ("surprised_skip", {"group": 1, "monster": "{m}", "side": "monsters"}),
    ("surprised_skip", {"group": 1, "monster": "{m}", "side": "party"}),
    ("standoff", {"group": 1, "monster": "{m}", "rounds": 6}),
    ("guards", {"group": 1, "monster": "{m}"}),
    ("idle", {"group": 1, "monster": "{m}"}),
    ("holds", {"group": 1, "monster": "{m}"}),
    ("slow", {"group": 1, "monster": "{m}"}),
    ("rises", {"group": 1, "monster": "{m}"}),
    ("regenerate", {"group": 1, "index": 0, "hp": 5, "monster": "{m}", "count": 1}),
    ("victory", {"group": 1, "monster": "{m}", "gold": 10, "shares": [["delver", 10]]}),
    ("won", {"turn": 9, "depth": 4, "seed": 1, "how": "slew"}),
    ("death", {"cause": "{name}", "turn": 9, "depth": 1, "seed": 1}),
    ("descend", {"depth": 1, "name": "The Cellars"}),
    (
        "rest",
        {"rounds": 60, "exhausted": True, "healed": 1, "recovered": False, "progress": [60, 180], "hp": [[0, 11, 12]]},
    ),
    ("drink", {"member": 0, "item": "healing_potion", "heal": 7, "healed": 7, "hp": 9, "max_hp": 12}),
    ("wear", {"member": 0, "item": "mail_shirt", "defense": 14, "speed": 75}),
    ("quaff", {"member": 0, "item": "heroism_potion", "effect": "heroism", "bonus": 2, "until": 130}),
    ("effect_ended", {"item": "heroism_potion", "effect": "heroism"}),
    ("level_up", {"member": 0, "name": "Delver", "level": 3, "max_hp": 16, "might": 4, "agility": 3}),
    ("shop", {"depth": 1, "stock": ["healing_potion", "rations"]}),
    ("trade", {"group": 1, "monster": "{m}", "count": 1, "depth": 0, "stock": ["healing_potion"]}),
    ("bought", {"item": "healing_potion", "price": 40, "gold": 20}),
    ("shop_left", {"gold": 20}),
    ("directions", {"group": 1, "monster": "{m}", "count": 3, "stairs": [10, 4]}),
    ("charted", {"item": "delvers_chart", "stairs": [10, 4], "out": False}),
    ("hired", {"group": 1, "monster": "{m}", "count": 1}),
    (
        "hireling_attack",
        {
            "group": 2,
            "monster": "{m}",
            "attacker_index": 0,
            "target": "{m}",
            "target_index": 1,
            "count": 2,
            "natural": 14,
            "total": 17,
            "defense": 12,
            "hit": True,
            "critical": False,
            "damage": 4,
            "target_hp_after": 2,
        },
    ),
    ("hireling_left", {"group": 1, "monster": "{m}", "count": 1}),
    ("approach", {"group": 1, "distance": 60, "monster": "{m}", "out_of_sight": False}),
    ("attacks", {"group": 1, "monster": "{m}"}),
    ("leaves", {"group": 1, "monster": "{m}", "distance": 40}),
    ("surprise", {"party": False, "monster": True, "monster_id": "{m}"}),
    ("round_lost", {"group": 1, "monster": "{m}"}),
    ("break_peace", {"group": 1, "monster": "{m}"}),
    (
        "negotiate",
        {
            "group": 1,
            "monster": "{m}",
            "dice": "2d6",
            "faces": [3, 4],
            "reluctance": 2,
            "ability": 0,
            "use_reluctance": True,
            "use_ability": False,
            "modifier": -2,
            "total": 5,
            "result": "agreement",
            "tribute": 0,
        },
    ),
    (
        "negotiate",
        {
            "group": 1,
            "monster": "{m}",
            "dice": "2d6",
            "faces": [6, 6],
            "reluctance": 0,
            "ability": 0,
            "use_reluctance": True,
            "use_ability": False,
            "modifier": 0,
            "total": 12,
            "result": "intimidation",
            "tribute": 5,
        },
    ),
    (
        "bribe",
        {
            "group": 1,
            "monster": "{m}",
            "gold": 50,
            "column": 0,
            "row": 0,
            "digit": 3,
            "dice": "1d6",
            "faces": [5],
            "total": 5,
            "target": 3,
            "result": "refused",
        },
    ),
    ("exhausted", {"rounds": 1}),
    ("leave", {"group": 1, "pursued": False, "monster": "{m}"}),
    ("evade", {"group": 1, "reason": "faster", "monster": "{m}", "party_speed": 120, "monster_speed": 90}),
    ("evade", {"group": 1, "reason": "out_of_sight", "monster": "{m}"}),
    ("evade", {"group": 1, "reason": "no_pursuit", "monster": "{m}"}),
    ("pursuit", {"group": 1, "distance": 30, "monster": "{m}"}),
    ("pursuit", {"group": 1, "distance": 0, "monster": "{m}"}),
    ("caught", {"group": 1, "fights": True, "monster": "{m}"}),
    ("caught", {"group": 1, "fights": False, "monster": "{m}"}),
    ("caught", {"group": 1, "fights": True, "monster": "{m}", "by": "party"}),
    ("escape", {"group": 1, "distance": 130, "monster": "{m}", "reason": "out_of_sight"}),
    ("escape", {"group": 1, "distance": 30, "monster": "{m}", "reason": "gave_up"}),
    ("chase", {"group": 1, "distance": 30, "round": 2, "monster": "{m}"}),
    ("chase", {"group": 1, "distance": 30, "round": 2, "monster": "{m}", "by": "party"}),
    ("distracted", {"group": 1, "by": "food", "monster": "{m}"}),
    ("drop", {"item": "rations", "amount": 1}),
    ("ignored", {"group": 1, "monster": "{m}", "what": "fire"}),
    ("ignored", {"group": 1, "monster": "{m}", "what": "gold"}),
    ("slowed", {"group": 1, "rounds": 3, "monster": "{m}"}),
]

BAD_FORMS = re.compile(r"\b(the|a|an) The\b|\bThe The\b|(?<![\d.])1 (rounds|turns|gold pieces)\b", re.IGNORECASE)


def fill(value: Any, monster: str, name: str) -> Any:
    if isinstance(value, str):
        return value.replace("{m}", monster).replace("{name}", name)
    if isinstance(value, dict):
        return {k: fill(v, monster, name) for k, v in value.items()}
    if isinstance(value, list):
        return [fill(v, monster, name) for v in value]
    return value


def test_every_event_class_has_a_line_or_is_silent_on_purpose() -> None:
    """The narrator's table (``LINES``, one method an event class) and ``SILENT`` share out every event class, and
    each class the rules build with a line has a sample here."""
    assert set(LINES) | set(SILENT) == set(EVENT_TYPES), "an event class with no line, and not silent"
    assert not set(LINES) & set(SILENT)
    assert {c.type for c in SILENT} == SILENT_TYPES
    assert emitted_types() - SILENT_TYPES == {t for t, _ in SAMPLES}, "a sample for every event a player reads"
    nar = Narrator(content(), "undercroft")
    for kind in SILENT_TYPES:
        assert nar.text(sample({"type": kind})) == ""


@pytest.mark.parametrize("ruleset", ["undercroft", "citadel"])
def test_every_monster_name_in_every_sentence_has_the_right_article(ruleset: str) -> None:
    nar = Narrator(content(), ruleset)
    seen = 0
    for mid, mon in content().monsters.items():
        for kind, data in SAMPLES:
            event = sample({"type": kind, **fill(data, mid, mon.name)})
            lines = [nar.text(event), *(text for text, _ in nar.lines(event))]
            for line in lines:
                assert not BAD_FORMS.search(line), f"{kind} for {mid}: {line!r}"
                assert "{" not in line and "None" not in line, f"{kind} for {mid}: {line!r}"
            assert lines[0], f"{kind} has no line"
            seen += 1
    assert seen == len(content().monsters) * len(SAMPLES)


def test_names_that_bring_their_own_article() -> None:
    nar = Narrator(content(), "undercroft")
    unlit = next(mid for mid, m in content().monsters.items() if m.name == "The Unlit")
    assert nar.text(sample({"type": "attacks", "group": 1, "monster": unlit})) == "The Unlit attacks!"
    assert nar.text(sample({"type": "encounter", "monster": unlit, "count": 1})) == "The Unlit!"
    assert nar.text(sample({"type": "walked_past", "monster": unlit})) == "You walk past the Unlit, and it objects."
    assert nar.text(sample({"type": "attacks", "group": 1, "monster": "ghoul"})) == "The Ghoul attacks!"
    assert nar.text(sample({"type": "encounter", "monster": "orc", "count": 1})) == "An Orc!"
    assert nar.text(sample({"type": "death", "cause": "The Unlit", "turn": 7, "depth": 4, "seed": 3})) == (
        "You are dead. Killed by the Unlit on turn 7, level 5. Seed 3."
    )


def test_counts_agree_with_their_nouns() -> None:
    assert plural(1, "round") == "1 round" and plural(3, "round") == "3 rounds"
    nar = Narrator(content(), "undercroft")
    assert nar.text(sample({"type": "exhausted", "rounds": 1})).startswith("You have run 1 round:")


def test_the_fight_lines_of_a_party_name_who_struck_and_who_was_struck() -> None:
    nar = Narrator(content(), "citadel")
    hit = sample(
        {
            "type": "attack",
            "attacker": "ghoul",
            "attacker_side": "monsters",
            "attacker_index": 0,
            "count": 1,
            "target": "rogue",
            "member": 1,
            "natural": 15,
            "modifier": 2,
            "total": 17,
            "defense": 12,
            "hit": True,
            "critical": False,
            "damage": 3,
            "target_hp_after": 5,
            "target_max_hp": 8,
        }
    )
    assert nar.text(hit) == "Ghoul hits Rogue. 3 damage. Rogue HP 5/8."
    mine = sample(
        {
            "type": "attack",
            "attacker": "rogue",
            "attacker_side": "party",
            "member": 1,
            "target": "ghoul",
            "target_index": 1,
            "count": 2,
            "natural": 9,
            "modifier": -1,
            "total": 8,
            "defense": 12,
            "hit": False,
            "critical": False,
            "damage": 0,
            "target_hp_after": 5,
        }
    )
    assert nar.text(mine) == "Rogue misses."
    assert nar.lines(mine)[0] == ("Rogue rolls 9 - 1 = 8 vs defense 12.", "roll")


def test_the_death_screen_the_morgue_and_the_summary_use_the_articles_once() -> None:
    game = Game(content(), "undercroft", 3)
    st = game.state
    st.mode = Mode.DEAD
    st.death = {"cause": "The Unlit", "turn": 40, "depth": 4, "seed": st.seed}
    screen = "\n".join(end_lines(game))
    summary = state_summary(game)
    assert "Killed by the Unlit on turn 40." in screen
    assert "killed by the Unlit on turn 40" in summary
    assert not BAD_FORMS.search(screen) and not BAD_FORMS.search(summary)
    st.death = {"cause": "Ogre", "turn": 12, "depth": 1, "seed": st.seed}
    assert "Killed by the Ogre on turn 12." in "\n".join(end_lines(game))


# --- a group come upon out of sight is not told of at all until the sides meet (003) -----------------------------


def roll(purpose: str, total: int, result: str = "", **extra: Any) -> Event:
    faces = [total] if total <= 6 else [total // 2, total - total // 2]
    return sample(
        {
            "type": "roll",
            "purpose": purpose,
            "dice": f"{len(faces)}d6",
            "faces": faces,
            "modifier": 0,
            "multiplier": 1,
            "total": total,
            "target": None,
            "result": result,
            **extra,
        }
    )


def test_a_group_come_upon_out_of_sight_is_not_told_until_the_sides_meet() -> None:
    nar = Narrator(content(), "undercroft")
    found = [
        sample({"type": "move", "from": [1, 1], "to": [1, 2], "segment": 3}),
        sample({"type": "enter", "segment": 3, "kind": "corridor", "visited": True}),
        roll("monster_check", 1, "wandering", kind="corridor", visited=True, target=1),
        roll("table_row", 3, table="wandering_1"),
        roll("table_column", 4, table="wandering_1"),
        sample({"type": "table", "table": "wandering_1", "row": 3, "column": 4, "monster": "orc", "number": 3}),
        roll("distance", 12, group=7),
        sample({"type": "placed", "group": 7, "pos": [3, 4], "distance": 120, "rolled": 120, "out_of_sight": True}),
        roll("surprise_party", 5, "ready", group=7),
        roll("surprise_monster", 1, "surprised", monster="orc", group=7),
        roll("reaction", 8, "uncertain", group=7),
        sample({"type": "pickup", "item": "gold", "amount": 5}),
    ]
    unseen: set[int] = set()
    assert nar.log_lines(found, unseen) == [("You pick up 5 gold.", "good")]  # not a line about it, at any level
    assert unseen == {7}
    # It walks closer, unseen; then into sight: the sides meet, and from then on it is told.
    closer = [
        sample({"type": "move", "from": [1, 2], "to": [1, 3], "segment": 3}),
        sample({"type": "approach", "group": 7, "distance": 60, "monster": "orc", "count": 3, "out_of_sight": True}),
    ]
    assert nar.log_lines(closer, unseen) == [] and unseen == {7}
    met = [
        sample({"type": "approach", "group": 7, "distance": 30, "monster": "orc", "count": 3, "out_of_sight": False}),
        sample(
            {
                "type": "encounter",
                "group": 7,
                "monster": "orc",
                "count": 3,
                "hp": [8, 8, 8],
                "origin": "wandering",
                "first": True,
                "distance": 30,
                "sighted": True,
            }
        ),
        sample({"type": "surprise", "party": False, "monster": True, "monster_id": "orc", "count": 3}),
    ]
    told = [text for text, _ in nar.log_lines(met, unseen)]
    assert told == ["3 Orcs come into sight, 30 ft away!", "The Orcs are surprised."] and unseen == set()
    assert nar.log_lines([sample({"type": "attacks", "group": 7, "monster": "orc"})], unseen) == [
        ("The Orc attacks!", "bad")
    ]
    # A check in the same action whose group is placed in sight is told as ever.
    seen = [
        roll("monster_check", 1, "wandering", kind="corridor", visited=True, target=1),
        roll("distance", 4, group=8),
        sample({"type": "placed", "group": 8, "pos": [3, 4], "distance": 40, "rolled": 40, "out_of_sight": False}),
    ]
    assert len(nar.log_lines(seen, unseen)) == 3


def test_the_new_lines_of_the_map_and_the_chase() -> None:
    nar = Narrator(content(), "undercroft")
    say = nar.text
    assert say(
        sample({"type": "encounter", "group": 1, "monster": "orc", "count": 1, "distance": 50, "sighted": True})
    ) == ("An Orc comes into sight, 50 ft away!")
    assert nar.lines(
        sample({"type": "placed", "group": 1, "pos": [1, 2], "distance": 40, "rolled": 50, "out_of_sight": False})
    ) == [("Distance: 40 ft (rolled 50 ft).", "detail")]
    assert nar.text(
        sample({"type": "placed", "group": 1, "pos": [1, 2], "distance": 50, "rolled": 50, "out_of_sight": True})
    ) == ("Distance: 50 ft, out of sight.")
    assert say(sample({"type": "close", "group": 1, "monster": "orc", "distance": 30})) == (
        "You close in on the Orc: 30 ft apart."
    )
    assert say(sample({"type": "close", "group": 1, "monster": "orc", "distance": 10})) == "You close with the Orc."
    assert say(sample({"type": "pursue", "group": 1, "distance": 40, "monster": "kobold"})) == (
        "You go after the Kobold! (40 ft ahead)"
    )
    assert say(
        sample({"type": "chase", "group": 1, "distance": 10, "round": 1, "monster": "kobold", "by": "party"})
    ) == ("The Kobold is 10 ft ahead of you.")
    assert say(sample({"type": "caught", "group": 1, "fights": True, "monster": "kobold", "by": "party"})) == (
        "You catch up with the Kobold!"
    )
    assert say(sample({"type": "let_go", "group": 1, "monster": "kobold"})) == "You let the Kobold go."
    assert say(
        sample({"type": "got_away", "group": 1, "distance": 130, "monster": "kobold", "reason": "out_of_sight"})
    ) == ("You lose sight of the Kobold (130 ft off): it gets away.")
    assert say(sample({"type": "got_away", "group": 1, "distance": 20, "monster": "kobold", "reason": "gave_up"})) == (
        "You give up the chase: the Kobold gets away."
    )


# The events about a whole group, and how a group of several reads in each (its verb agrees).
GROUP_KINDS = {
    "walked_past",
    "pass",
    "peaceful",
    "initiative",
    "surprised_skip",
    "standoff",
    "guards",
    "idle",
    "holds",
    "slow",
    "rises",
    "victory",
    "approach",
    "attacks",
    "leaves",
    "surprise",
    "break_peace",
    "negotiate",
    "bribe",
    "leave",
    "close",
    "pursue",
    "let_go",
    "got_away",
    "evade",
    "pursuit",
    "caught",
    "escape",
    "chase",
    "distracted",
    "ignored",
    "slowed",
}
SINGULAR_AFTER = re.compile(
    r"\bBandits (is|does|lets|leaves|acts|kneels|waits|rises|comes|attacks|goes|keeps|"
    r"stays|gets|catches|gives|stops|ignores|balks|hands|makes)\b|\bit (objects|gets)\b|"
    r"\bits (way|sight|mind)\b"
)


def test_a_group_of_several_is_named_in_the_plural_with_its_verbs_agreeing() -> None:
    nar = Narrator(content(), "undercroft")
    checked = 0
    for kind, data in SAMPLES:
        if kind not in GROUP_KINDS or data.get("side") == "party":  # (the party's lost round names no group)
            continue
        several = sample({"type": kind, **fill(data, "bandit", "Bandit"), "count": 3})
        one_of = sample({"type": kind, **fill(data, "bandit", "Bandit"), "count": 1})
        text, single = nar.text(several), nar.text(one_of)
        assert "Bandits" in text, (kind, text)
        assert not SINGULAR_AFTER.search(text), (kind, text)
        assert "Bandits" not in single and "Bandit" in single, (kind, single)
        checked += 1
    assert checked >= 25
    assert (
        nar.text(sample({"type": "evade", "group": 1, "reason": "no_pursuit", "monster": "bandit", "count": 3}))
        == "The Bandits do not follow."
    )
    assert (
        nar.text(sample({"type": "leaves", "group": 1, "monster": "bandit", "count": 2, "distance": 40}))
        == "The Bandits go on their way."
    )
    # A name that already names several, one of a kind, and the "es" after an s
    leeches = next(mid for mid, m in content().monsters.items() if m.name == "Sump Leeches")
    assert (
        nar.text(sample({"type": "attacks", "group": 1, "monster": leeches, "count": 4})) == "The Sump Leeches attack!"
    )
    harness = next(mid for mid, m in content().monsters.items() if m.name == "Empty Harness")
    assert (
        nar.text(sample({"type": "rises", "group": 1, "monster": harness, "count": 2})) == "The Empty Harnesses rise."
    )
    unlit = next(mid for mid, m in content().monsters.items() if m.name == "The Unlit")
    assert nar.text(sample({"type": "holds", "group": 1, "monster": unlit, "count": 2})) == "The Unlit wait."


def test_a_monsters_plural_in_the_data_is_the_one_spoken(data_copy: Path) -> None:
    monsters = data_copy / "monsters.yaml"
    monsters.write_text(
        monsters.read_text(encoding="utf-8").replace(
            "  name: Giant Rat\n", "  name: Giant Rat\n  plural: Giant Rattes\n"
        ),
        encoding="utf-8",
    )
    nar = Narrator(load_content(data_copy), "undercroft")
    assert (
        nar.text(sample({"type": "attacks", "group": 1, "monster": "giant_rat", "count": 2}))
        == "The Giant Rattes attack!"
    )
    assert (
        nar.text(sample({"type": "attacks", "group": 1, "monster": "giant_rat", "count": 1}))
        == "The Giant Rat attacks!"
    )


def test_every_example_in_events_md_reads_as_the_narrator_words_it() -> None:
    """docs/EVENTS.md's JSON lines carry the text a player reads: the narrator's for that event (in one of the
    rulesets: a few words, the table names, are the ruleset's)."""
    import json

    doc = (Path(__file__).resolve().parent.parent / "docs" / "EVENTS.md").read_text(encoding="utf-8")
    narrators = [Narrator(content(), rs) for rs in ("undercroft", "citadel", "warden", "crawler")]
    checked = 0
    for line in doc.splitlines():
        if not line.startswith('{"turn"'):
            continue
        data = json.loads(line)
        kind, text = data.pop("type"), data.pop("text", None)
        if text is None:
            continue
        if kind not in ("death", "won"):  # (the turn is the line's, not the event's, but for those two)
            data.pop("turn")
        said = [nar.text(sample({"type": kind, **data})) for nar in narrators]
        assert text in said, f"{kind}: the example says {text!r}, the narrator {said[0]!r}"
        checked += 1
    assert checked >= 100


def test_an_intimidation_without_tribute_names_no_gold() -> None:
    """Crawler takes no tribute: the line once read 'the Bandits hand over 0 gold as tribute'."""
    nar = Narrator(content(), "crawler")
    talk = {"group": 1, "monster": "bandit", "count": 2, "faces": [6, 6], "total": 12, "result": "intimidation"}
    assert nar.text(sample({"type": "negotiate", **talk, "tribute": 0})) == (
        "Negotiation: 12 = 12. Intimidation: the Bandits will not attack while you do not."
    )
    assert nar.text(sample({"type": "negotiate", **talk, "tribute": 8})).endswith(
        "will not attack while you do not, and hand over 8 gold as tribute."
    )


def test_a_creature_the_words_call_he_or_she_is_not_it() -> None:
    """Found in play: "Where it fell lies the Greater Healing Potion" for the Leech-Mother, whom her description
    calls "she", and "The Peddler opens its pack" for one called "he". The data's ``pronoun`` says which."""
    n = Narrator(content(), "undercroft")
    won = {"group": 1, "count": 1, "gold": 190, "shares": [["delver", 190]], "spoils": ["greater_healing_potion"]}
    assert n.text(sample({"type": "victory", **won, "monster": "leech_mother"})).endswith(
        "Where she fell lies the Greater Healing Potion."
    )
    assert n.text(sample({"type": "victory", **won, "monster": "ogre"})).endswith(
        "Where it fell lies the Greater Healing Potion."
    )
    assert n.text(sample({"type": "victory", **won, "monster": "ghoul", "count": 3})).endswith(
        "Where they fell lies the Greater Healing Potion."
    )
    trade = {"group": 4, "count": 1, "depth": 0, "stock": ["healing_potion"], "wares": {"healing_potion": 1}}
    assert n.text(sample({"type": "trade", **trade, "monster": "peddler"})) == "The Peddler opens his pack: 1 ware."
    assert n.text(sample({"type": "leave", "group": 2, "count": 1, "monster": "drowned_queen"})) == (
        "The Drowned Queen stays where she is."
    )
    assert (
        n.text(sample({"type": "leave", "group": 2, "count": 2, "monster": "ogre"})) == "The Ogres stay where they are."
    )


def test_one_creature_of_a_monster_whose_name_names_several_is_named_as_one() -> None:
    """The play test's "Sump Leeches is dead." and "Sump Leeches #1 misses.": one leech is a Sump Leech."""
    nar = Narrator(content(), "undercroft")
    leeches = next(mid for mid, m in content().monsters.items() if m.name == "Sump Leeches")
    kill = {"type": "kill", "group": 1, "index": 1, "monster": leeches}
    assert nar.text(sample({**kill, "count": 3})) == "Sump Leech #2 is dead."
    assert nar.text(sample({**kill, "index": 0, "count": 1})) == "Sump Leech is dead."
    swing = {"type": "attack", "attacker": leeches, "attacker_index": 0, "count": 4, "hit": False}
    assert nar.text(sample(swing)) == "Sump Leech #1 misses."
    heal = {"type": "regenerate", "group": 1, "monster": leeches, "index": 2, "count": 3, "hp": 3}
    assert nar.text(sample(heal)) == "Sump Leech #3 closes up. Sump Leech #3 at 3."
    won = {"type": "victory", "group": 1, "monster": leeches, "count": 1, "gold": 0}
    assert nar.text(sample(won)).startswith("The Sump Leech is defeated.")
    assert nar.text(sample({**won, "count": 3})).startswith("The Sump Leeches are defeated.")
