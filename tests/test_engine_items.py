"""Things found on the floor: gold is counted, items are carried, a better weapon is taken up at once."""

from __future__ import annotations

from engine_helpers import act, make_game, meet, of, one, say

from undercroft.rules import dungeon
from undercroft.rules import events as evt
from undercroft.rules.actions import Attack, Move
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.game import Game


def drop_next_to_party(game: Game, item: str, amount: int = 1) -> tuple[int, int]:
    st = game.state
    m = st.level.map
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        x, y = st.pos[0] + dx, st.pos[1] + dy
        if m.tiles[y, x] == dungeon.FLOOR and int(m.segment_of[y, x]) == st.segment:
            st.level.items[(x, y)] = [(item, amount)]
            return (dx, dy)
    raise AssertionError("no floor next to the party")


def test_a_better_weapon_is_taken_up_and_hits_harder() -> None:
    game = make_game("undercroft", dice=ScriptedDice())
    st = game.state
    assert st.party[0].weapon == 3  # the short sword: 3 + MIGHT 3 = the standard 6
    step = drop_next_to_party(game, "long_sword")
    before = game.checksum()
    ev = game.step(Move(*step))
    wield = one(ev, evt.Wield)
    assert wield.item == "long_sword" and wield.damage == 7
    assert say(game, wield) == "You take up the Long Sword: 7 damage a hit."
    assert st.party[0].weapon == 4 and "long_sword" not in st.items
    assert game.checksum() != before  # the weapon in hand is part of the state


def test_a_worse_weapon_is_only_carried() -> None:
    game = make_game("undercroft", dice=ScriptedDice())
    st = game.state
    step = drop_next_to_party(game, "dagger")
    ev = game.step(Move(*step))
    assert not of(ev, evt.Wield) and st.items["dagger"] == 1 and st.party[0].weapon == 3


def test_a_weapon_equal_to_the_one_in_hand_is_only_carried() -> None:
    """Only a better weapon is taken up: one as good as the one in hand (a second short sword) goes in the pack."""
    game = make_game("undercroft", dice=ScriptedDice())
    st = game.state
    assert st.party[0].weapon == game.content.items["short_sword"].damage == 3
    step = drop_next_to_party(game, "short_sword")
    ev = game.step(Move(*step))
    assert one(ev, evt.Pickup).item == "short_sword"
    assert not of(ev, evt.Wield) and st.items["short_sword"] == 1 and st.party[0].weapon == 3


def test_the_new_weapon_counts_in_a_fight() -> None:
    game = make_game("warden", dice=ScriptedDice())
    st = game.state
    st.party[0].weapon = 4  # as if a long sword had been taken up
    g, _ = meet(game, "empty_harness")  # the Warden: a fight at once; AGILITY 3 vs 2, the delver first
    assert st.mode == "combat"
    ev = act(game, Attack(0), 15, 2)  # 15 + 3 hits: 7 damage; the harness misses
    assert one(ev, evt.PartyAttack).damage == 7 and g.hp == (14 - 7,)
