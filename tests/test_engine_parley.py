"""Negotiation and bribery (seed 000, 8.4-8.9).

Mostly the citadel ruleset (the 000 procedure as written: a party of four whose best negotiator, the priest, has
+2; no distance, surprise or reaction rolls, so a meeting rolls no dice). Every test forces the dice.
"""

from __future__ import annotations

import pytest
from engine_helpers import (
    NOTHING,
    attacks,
    content,
    encounter_faces,
    kinds,
    make_game,
    meet,
    of,
    one,
    place_group,
    say,
    script,
    walk_to,
    why,
)

from undercroft.rules import events as evt
from undercroft.rules.actions import Attack, Bribe, Fight, Run, Talk
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.game import Game
from undercroft.rules.refusals import Code, Reason
from undercroft.rules.state import Group

ORC = content().monsters["orc"]
NEG = content().tables.negotiation["negotiation"]
BRIBERY = content().tables.bribery


def citadel(
    monster: str = "orc", count: int = 1, *, treasure: int = 40, gold: int = 200, seed: int = 1
) -> tuple[Game, Group]:
    g = make_game("citadel", seed, ScriptedDice(), gold=gold)
    group, events = meet(g, monster, count, treasure=treasure)
    assert kinds(events) == ["encounter"] and g.state.mode == "encounter"
    return g, group


def refused(g: Game, action: Talk | Bribe | Fight | Run | Attack) -> Reason:
    """Take ``action``, which must be refused without changing anything; return the reason."""
    before = g.checksum()
    used = len(script(g).used)
    events = g.step(action)
    assert kinds(events) == ["refused"], events
    assert g.checksum() == before
    assert len(script(g).used) == used
    assert one(events, evt.Refused).action == action.type and say(g, events[0])
    return why(events[0])


def fail_talk(g: Game, group: Group) -> None:
    script(g).push(1, 1)  # 2 - reluctance + 2: a failure for anything with reluctance >= 0
    events = g.step(Talk())
    assert one(events, evt.Negotiate, group=group.id).result == "failure"


# --- negotiation -------------------------------------------------------------------------------------------


@pytest.mark.clause("000-8.4b2")
def test_the_citadel_party_negotiates_with_its_best_ability() -> None:
    party = content().ruleset("citadel").party
    assert max(content().party[c].negotiation for c in party) == content().party["priest"].negotiation == 2


@pytest.mark.clause("000-8.4b", "000-8.4c", "003-actions-3", "003-actions-5")
@pytest.mark.parametrize(
    ("faces", "total", "result"),
    [
        ((1, 1), 1, "failure"),
        ((3, 4), 6, "failure"),  # 7 - 3 + 2
        ((4, 4), 7, "agreement"),
        ((5, 5), 9, "agreement"),
        ((4, 6), 9, "agreement"),
        ((5, 6), 10, "agreement"),
        ((6, 6), 11, "intimidation"),
    ],
)
def test_negotiation_results(faces: tuple[int, int], total: int, result: str) -> None:
    g, orc = citadel(treasure=0)
    script(g).push(*faces)
    events = g.step(Talk())
    neg = one(events, evt.Negotiate)
    assert neg.group == orc.id and neg.result == result
    assert neg.dice == "2d6" and neg.faces == list(faces)
    assert neg.reluctance == ORC.reluctance == 3 and neg.ability == 2 and neg.modifier == -1
    assert neg.total == total == sum(faces) - ORC.reluctance + 2
    assert orc.negotiated
    if result == "failure":
        assert g.state.mode == "encounter" and not orc.peaceful
    else:
        assert g.state.mode == "explore" and orc.peaceful and g.state.encounter is None
    assert script(g).remaining == 0


@pytest.mark.clause("000-8.4c")
def test_the_bands_come_from_the_data() -> None:
    assert [(b.min, b.max, b.result) for b in NEG.bands] == [
        (None, 6, "failure"),
        (7, 10, "agreement"),
        (11, None, "intimidation"),
    ]


@pytest.mark.clause("000-8.4b2")
def test_the_best_living_negotiator_counts() -> None:
    """With the priest (+2) dead, the rogue or the mage (+1) speaks: 8 - 3 + 1 = 6 fails where 7 would agree."""
    g, _orc = citadel()
    g.state.party[2].hp = 0
    script(g).push(4, 4)
    neg = one(g.step(Talk()), evt.Negotiate)
    assert neg.ability == 1 and neg.total == 6 and neg.result == "failure"


@pytest.mark.clause("000-8.6c")
def test_intimidation_hands_over_a_quarter_of_the_treasure_rounded_down() -> None:
    g, orc = citadel(treasure=103, gold=50)
    assert (NEG.tribute.numerator, NEG.tribute.denominator, NEG.tribute.rounding) == (1, 4, "down")
    script(g).push(6, 6)
    events = g.step(Talk())
    neg = one(events, evt.Negotiate)
    assert neg.result == "intimidation" and neg.tribute == 25
    assert g.state.gold == 75 and orc.treasure == 78
    assert "25 gold" in say(g, neg)
    assert orc.peaceful and g.state.mode == "explore"


@pytest.mark.clause("000-8.6b")
def test_agreement_hands_over_nothing() -> None:
    g, orc = citadel(treasure=103, gold=50)
    script(g).push(4, 4)
    neg = one(g.step(Talk()), evt.Negotiate)
    assert neg.result == "agreement" and neg.tribute == 0
    assert g.state.gold == 50 and orc.treasure == 103


def test_only_one_negotiation_per_group() -> None:
    g, orc = citadel("orc", 3)
    fail_talk(g, orc)
    assert refused(g, Talk()) == Reason(Code.TALKED, {"monster": "orc"})


def test_a_failed_negotiation_is_remembered_when_the_party_comes_back() -> None:
    """Undercroft (the citadel has no running away): the party runs and the orc does not follow."""
    g = make_game("undercroft", 1, ScriptedDice(), gold=200)
    orc, _ = meet(g, "orc", faces=encounter_faces())
    inside = g.state.pos
    fail_talk(g, orc)
    script(g).push(100, NOTHING)  # its pursuit roll: it does not follow; the segment run into finds nothing
    events = g.step(Run())
    assert one(events, evt.Evade).group == orc.id and g.state.mode == "explore" and script(g).remaining == 0
    events = walk_to(g, inside)
    assert one(events, evt.Encounter).first is False
    assert refused(g, Talk()) == Reason(Code.TALKED, {"monster": "orc"})


@pytest.mark.clause("000-8.4", "000-8.7-2")
@pytest.mark.parametrize("monster", ["the_nameless_one", "demon"])
def test_the_nameless_one_and_demons_hear_no_terms_and_take_no_bribes(monster: str) -> None:
    g, group = citadel(monster)
    assert refused(g, Talk()) == Reason(Code.UNNEGOTIABLE, {"monster": monster})
    assert refused(g, Bribe(100)) == Reason(Code.UNBRIBABLE, {"monster": monster})
    the = {"the_nameless_one": "The Nameless One", "demon": "The Demon"}[monster]  # a name with its own article
    assert say(g, g.step(Talk())[0]) == f"{the} cannot be negotiated with."
    assert say(g, g.step(Bribe(100))[0]) == f"{the} cannot be bribed."
    assert not group.negotiated and not group.bribe_tried and g.state.gold == 200


@pytest.mark.clause("001-intro-2")
def test_the_warden_allows_no_talking() -> None:
    g = make_game("warden", 1, ScriptedDice(), gold=100)
    _trimmer, _events = meet(g, "wick_trimmer")  # it kneels: an encounter, not yet a fight
    assert g.state.mode == "encounter"
    assert refused(g, Talk()) == Reason(Code.NO_TALKING)
    assert refused(g, Bribe(10)) == Reason(Code.NO_BRIBERY)


@pytest.mark.clause("000-8.4a")
def test_undercroft_negotiation_uses_the_delver_ability_and_the_reluctance() -> None:
    g = make_game("undercroft", 1, ScriptedDice())
    _orc, _ = meet(g, "orc", faces=encounter_faces())
    script(g).push(5, 5)
    neg = one(g.step(Talk()), evt.Negotiate)
    assert neg.ability == content().party["delver"].negotiation == 0
    assert neg.total == 10 - ORC.reluctance and neg.result == "agreement"


@pytest.mark.clause("003-seq-5", "003-actions-3")
def test_crawler_talk_is_a_plain_2d6() -> None:
    """The 003 procedure's talk table: no reluctance, no ability, no tribute."""
    g = make_game("crawler", 1, ScriptedDice())
    orc, _ = meet(g, "orc", faces=encounter_faces(), treasure=100)
    script(g).push(6, 6)
    neg = one(g.step(Talk()), evt.Negotiate)
    assert neg.reluctance == 0 and neg.ability == 0 and neg.total == 12
    assert neg.result == "intimidation" and neg.tribute == 0 and orc.treasure == 100


# --- bribery -----------------------------------------------------------------------------------------------


@pytest.mark.clause("000-gen-3", "000-8.6a", "000-8.7")
def test_a_bribe_comes_only_after_a_failed_negotiation() -> None:
    g, _orc = citadel()
    assert refused(g, Bribe(60)) == Reason(Code.TALK_FIRST)


def test_no_bribe_after_an_agreement() -> None:
    g, _orc = citadel()
    script(g).push(4, 4)
    g.step(Talk())
    assert g.state.mode == "explore"
    assert refused(g, Bribe(60)) == Reason(Code.NOT_NOW, {"mode": "explore"})


def _col(score: int) -> int:
    return next(
        i
        for i, c in enumerate(BRIBERY.columns)
        if (c.min is None or score >= c.min) and (c.max is None or score <= c.max)
    )


def _row(gold: int) -> int:
    return next(i for i, r in enumerate(BRIBERY.rows) if gold >= r.min and (r.max is None or gold <= r.max))


@pytest.mark.clause("000-8.7a", "000-8.7c")
@pytest.mark.parametrize(
    ("monster", "gold", "col", "row", "digit"),
    [
        ("kobold", 24, 0, 0, 2),  # 1 + 1 = 2
        ("kobold", 400, 0, 5, 6),
        ("goblin", 25, 1, 1, 2),  # 2 + 2 = 4
        ("orc", 99, 2, 2, 2),  # 4 + 3 = 7
        ("orc", 100, 2, 3, 3),
        ("ogre", 199, 3, 3, 2),  # 8 + 4 = 12
        ("troll", 1, 4, 0, 0),  # 9 + 5 = 14
        ("troll", 10_000, 4, 5, 3),
    ],
)
def test_bribe_column_row_and_digit(monster: str, gold: int, col: int, row: int, digit: int) -> None:
    mon = content().monsters[monster]
    assert _col(mon.strength + mon.reluctance) == col and _row(gold) == row
    assert BRIBERY.cells[row][col] == digit
    g = make_game("citadel", 1, ScriptedDice(), gold=20_000)
    group, _ = meet(g, monster)
    assert g.bribe_cell(group, gold) == (col, row, digit)
    fail_talk(g, group)
    script(g).push(1, 1, 1, 1, 1, 1, 1, 1, 1, 1)  # the bribe's die, then (refused) the monsters' swings miss
    events = g.step(Bribe(gold))
    b = one(events, evt.Bribe)
    assert (b.column, b.row, b.digit, b.target) == (col, row, digit, digit)
    assert b.result == ("accepted" if digit >= 1 else "refused")


@pytest.mark.clause("000-8.7d")
@pytest.mark.parametrize(("face", "result"), [(1, "accepted"), (2, "accepted"), (3, "refused"), (6, "refused")])
def test_a_bribe_is_accepted_on_1d6_at_most_the_digit(face: int, result: str) -> None:
    g, orc = citadel(gold=200, treasure=40)
    assert g.bribe_cell(orc, 60) == (2, 2, 2)
    fail_talk(g, orc)
    script(g).push(face)
    if result == "refused":
        script(g).push(1)  # the orc's swing (a miss)
    events = g.step(Bribe(60))
    b = one(events, evt.Bribe)
    assert b.group == orc.id and b.gold == 60 and b.result == result
    assert b.dice == "1d6" and b.faces == [face] and b.total == face
    # the gold is gone either way; the orc holds it
    assert g.state.gold == 140 and orc.bribes == 60 and orc.treasure == 40 and orc.bribe_tried
    if result == "accepted":
        assert kinds(events) == ["bribe"]
        assert g.state.mode == "explore" and orc.peaceful and g.state.encounter is None
    else:
        assert g.state.mode == "combat" and not orc.peaceful
    assert script(g).remaining == 0


@pytest.mark.clause("000-8.7d")
def test_a_digit_of_0_never_accepts_and_6_always_does() -> None:
    g, troll = citadel("troll", gold=500)
    assert (cell := g.bribe_cell(troll, 1)) is not None and cell[2] == 0
    fail_talk(g, troll)
    script(g).push(1, 1)
    assert one(g.step(Bribe(1)), evt.Bribe).result == "refused"
    g, kobold = citadel("kobold", gold=500)
    assert (cell := g.bribe_cell(kobold, 400)) is not None and cell[2] == 6
    fail_talk(g, kobold)
    script(g).push(6)
    assert one(g.step(Bribe(400)), evt.Bribe).result == "accepted"


@pytest.mark.clause("000-gen-4", "000-8.7f")
def test_a_refused_bribe_means_the_monsters_attack_first() -> None:
    g, orcs = citadel("orc", 3, gold=200)
    fail_talk(g, orcs)
    warrior_hp = g.state.party[0].hp
    # the bribe's die (refused), then each orc swings once (misses), and nothing else happens
    script(g).push(6, 1, 1, 1)
    events = g.step(Bribe(50))
    assert kinds(events) == ["bribe", "combat", "attack", "attack", "attack"]
    assert one(events, evt.Combat).first == "monsters"
    assert not of(events, evt.Initiative)
    assert [e.attacker_side for e in attacks(events)] == ["monsters"] * 3
    assert [e.attacker_index for e in of(events, evt.MonsterAttack)] == [0, 1, 2]
    st = g.state
    # the party's attack phase of that round is skipped: it is round 2 and the party's turn now
    assert st.combat is not None and st.combat.round == 2 and st.combat.party_turn
    assert st.party[0].hp == warrior_hp and script(g).remaining == 0


@pytest.mark.clause("000-8.8")
def test_only_one_bribe_per_group_whatever_its_size() -> None:
    """Undercroft (the citadel has no running away): refused, the party runs and comes back."""
    g = make_game("undercroft", 1, ScriptedDice(), gold=200)
    orcs, _ = meet(g, "orc", 3, faces=encounter_faces())
    inside = g.state.pos
    fail_talk(g, orcs)
    script(g).push(6, 1, 1, 1)
    g.step(Bribe(50))
    assert g.state.mode == "combat"
    script(g).push(100, NOTHING)  # their pursuit roll: they do not follow; the segment run into finds nothing
    events = g.step(Run())
    assert one(events, evt.Evade).group == orcs.id and g.state.mode == "explore" and script(g).remaining == 0
    events = walk_to(g, inside)
    assert one(events, evt.Encounter).first is False and g.state.mode == "encounter"
    assert refused(g, Bribe(30)) == Reason(Code.BRIBED, {"monster": "orc"})
    assert refused(g, Talk()) == Reason(Code.TALKED, {"monster": "orc"})
    assert g.state.gold == 150 and orcs.bribes == 50


@pytest.mark.clause("000-8.7h")
def test_the_bribe_is_recovered_by_killing_the_monster() -> None:
    warrior, rogue = content().party["warrior"], content().party["rogue"]
    w_damage = warrior.might + content().items[warrior.weapon].damage
    r_damage = rogue.might + content().items[rogue.weapon].damage
    assert w_damage < ORC.hp <= w_damage + r_damage
    g, orc = citadel(gold=200, treasure=40)
    fail_talk(g, orc)
    script(g).push(6, 1)  # refused; the orc misses
    g.step(Bribe(60))
    assert g.state.gold == 140
    # the warrior and the rogue hit (19 is no natural 20); the orc is dead before the priest and mage swing
    script(g).push(19, 19)
    events = g.step(Attack(0))
    assert [e.member for e in attacks(events)] == [0, 1]
    victory = one(events, evt.Victory)
    assert victory.gold == 40 + 60 and victory.group == orc.id
    assert victory.shares == [["warrior", 25], ["rogue", 25], ["priest", 25], ["mage", 25]]
    assert g.state.gold == 240 and orc not in g.state.level.groups and g.state.mode == "explore"
    assert script(g).remaining == 0


@pytest.mark.clause("000-8.7b")
def test_no_offer_above_what_the_party_has() -> None:
    g, orc = citadel(gold=50)
    fail_talk(g, orc)
    assert refused(g, Bribe(51)) == Reason(Code.GOLD_SHORT, {"gold": 50})
    assert refused(g, Bribe(0)) == Reason(Code.OFFER_MORE, {"least": BRIBERY.rows[0].min})
    assert refused(g, Bribe(-5)) == Reason(Code.OFFER_MORE, {"least": BRIBERY.rows[0].min})
    script(g).push(1)
    b = one(g.step(Bribe(50)), evt.Bribe)
    assert b.result == "accepted" and g.state.gold == 0


def test_the_least_sum_the_table_takes_is_a_bribe_and_a_coin_less_is_not() -> None:
    least = BRIBERY.rows[0].min
    g, kobold = citadel("kobold", gold=least - 1)
    fail_talk(g, kobold)
    assert refused(g, Bribe(least - 1)) == Reason(Code.TOO_POOR, {"least": least})  # too poor to offer anything
    g, kobold = citadel("kobold", gold=least)
    fail_talk(g, kobold)
    assert refused(g, Bribe(least - 1)) == Reason(Code.OFFER_MORE, {"least": least})
    script(g).push(1)
    b = one(g.step(Bribe(least)), evt.Bribe)  # all the party has, and just enough
    assert (b.gold, b.row, b.result) == (least, 0, "accepted")
    assert g.state.gold == 0 and kobold.bribes == least and kobold.peaceful


def test_each_rows_least_sum_is_in_that_row_and_a_coin_less_in_the_row_below() -> None:
    g, orc = citadel()
    assert g.bribe_cell(orc, BRIBERY.rows[0].min - 1) is None
    for i, row in enumerate(BRIBERY.rows):
        assert (cell := g.bribe_cell(orc, row.min)) is not None and cell[1] == i
        assert (cell := g.bribe_cell(orc, row.min - 1)) is None or cell[1] == i - 1


def test_crawler_has_no_bribery() -> None:
    g = make_game("crawler", 1, ScriptedDice(), gold=100)
    orc, _ = meet(g, "orc", faces=encounter_faces())
    fail_talk(g, orc)
    assert refused(g, Bribe(10)) == Reason(Code.NO_BRIBERY)


@pytest.mark.clause("000-8.7e")
def test_undercroft_bribe_after_a_failed_talk() -> None:
    g = make_game("undercroft", 1, ScriptedDice(), gold=100)
    orc, _ = meet(g, "orc", faces=encounter_faces(), treasure=10)
    fail_talk(g, orc)
    script(g).push(1)
    b = one(g.step(Bribe(50)), evt.Bribe)
    assert b.result == "accepted" and g.state.gold == 50 and orc.bribes == 50 and orc.peaceful


@pytest.mark.clause("000-8.7g")
def test_gold_is_conserved_through_parley() -> None:
    def total(g: Game) -> int:
        return g.state.gold + sum(x.treasure + x.bribes for lv in g.state.levels.values() for x in lv.groups)

    g, _orc = citadel(gold=120, treasure=81)
    start = total(g)
    script(g).push(6, 6)
    g.step(Talk())
    assert total(g) == start and g.state.gold == 140
    g2, orc2 = citadel(gold=120, treasure=81)
    fail_talk(g2, orc2)
    script(g2).push(6, 1)
    g2.step(Bribe(70))
    assert total(g2) == 201 and g2.state.gold == 50


def test_placing_a_group_directly_rolls_the_rulesets_sequence() -> None:
    """The helper itself: in citadel a meeting rolls nothing, in undercroft distance, surprise and reaction."""
    g = make_game("citadel", 2, ScriptedDice())
    _, events = place_group(g, "goblin", 2)
    assert kinds(events) == ["encounter"]
    g = make_game("undercroft", 2, ScriptedDice(encounter_faces()))
    _, events = place_group(g, "goblin", 2)
    assert len(of(events, evt.Roll)) == 4 and script(g).remaining == 0
