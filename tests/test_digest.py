"""The state's digest (rules/digest.py): one short hash per part, naming the part a change is in."""

from __future__ import annotations

from engine_helpers import content

from undercroft.rules.actions import Move
from undercroft.rules.digest import DIGEST_HEX, PARTS, differing
from undercroft.rules.game import Game


def test_a_step_changes_the_parts_it_touches_and_only_those() -> None:
    g = Game(content(), "undercroft", 1)
    before = g.digest()
    assert len(before) == DIGEST_HEX and set(before) <= set("0123456789abcdef")
    g.state.gold += 1
    assert differing(before, g.digest()) == ["party"]
    g.state.gold -= 1
    assert g.digest() == before
    grp = g.add_group("gaoler")
    assert differing(before, g.digest()) == ["levels", "mode"]  # a group more, and the next group's id
    mid = g.digest()
    grp.hp[0] -= 1
    assert differing(mid, g.digest()) == ["levels"]
    g.state.level.groups.remove(grp)
    g.state.next_group -= 1
    assert g.digest() == before
    g.state.rounds += 1
    assert differing(before, g.digest()) == ["clock"]


def test_the_same_game_gives_the_same_digests_and_another_seed_others() -> None:
    a, b, c = Game(content(), "undercroft", 5), Game(content(), "undercroft", 5), Game(content(), "undercroft", 6)
    assert a.digest() == b.digest() != c.digest()
    for g in (a, b):
        g.step(Move(1, 0))
    assert a.digest() == b.digest()
    assert set(differing(a.digest(), c.digest())) <= set(PARTS)
