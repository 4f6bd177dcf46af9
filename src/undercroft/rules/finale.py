"""The finale, told before it is met (ours: docs/RULES.md, *The finale*): the final level's guardians wait in its
farthest rooms (:mod:`undercroft.rules.levels`), and a step (or a run) through the door of such a room is the one
the game warns of. The engine decides nothing new here: :func:`ahead` says whether a step leads into the room of a final
guardian still to be dealt with, and :func:`terms` what the rules allow against it once met, from the same checks
the actions are refused by (:func:`undercroft.rules.parley.ever_talks`, ``ever_bribed``, the ruleset's running,
the meeting's own :func:`undercroft.rules.reaction.lets_party_move` and ``initiates``; a final guardian:
:func:`undercroft.rules.reaction.is_final_guardian`, which never goes its way nor lets the party be). The
screens word it and ask; the step itself is an ordinary ``Move`` or ``Run`` (recordings hold only actions).
"""

from __future__ import annotations

from dataclasses import dataclass

from undercroft.rules import parley, reaction
from undercroft.rules.context import Ctx
from undercroft.rules.levelmap import Point
from undercroft.rules.state import Group


@dataclass(frozen=True, slots=True)
class Terms:
    """What the rules allow against a final guardian once it is met."""

    group: int  # the guardian's group id
    monster: str  # its monster id
    talk: bool  # it may be talked to
    bribe: bool  # it may take gold (after a talk that fails, as any bribe: 000)
    run: bool  # the ruleset lets a party run from a meeting
    walk_past: bool  # the party may walk on while it faces it (it holds its ground, or never starts anything)
    strikes_on_wait: bool  # a Wait only lets it strike first (no reaction is rolled: it attacks)
    stays: bool  # waiting will not move it: a kind reaction or a standoff's end leaves it keeping the way out


def ahead(ctx: Ctx, tile: Point) -> Group | None:
    """The final guardian whose room the party enters by going to ``tile`` (a step, or a run's landing) from outside
    it, while it is still to be dealt with (not slain, not at peace); None for any other tile."""
    st = ctx.state
    m = st.level.map
    x, y = tile
    if not (0 <= x < m.width and 0 <= y < m.height) or not ctx.rs.levels[st.depth].final:
        return None
    seg = m.segment_rows[y][x]
    if seg == st.segment:
        return None
    waiting = (g for g in st.level.groups if g.segment == seg and reaction.is_final_guardian(ctx, g))
    return next((g for g in waiting if not (g.defeated or g.peaceful)), None)


def terms(ctx: Ctx, g: Group) -> Terms:
    """What the rules allow against ``g`` once met (see :class:`Terms`)."""
    mon = ctx.monster_of(g)
    return Terms(
        group=g.id,
        monster=g.monster,
        talk=parley.ever_talks(ctx, g),
        bribe=parley.ever_bribed(ctx, g),
        run=ctx.proc.running,
        walk_past=reaction.lets_party_move(g, mon),
        strikes_on_wait=not ctx.proc.reaction and reaction.initiates(ctx, g, mon),
        stays=ctx.proc.reaction and reaction.initiates(ctx, g, mon),
    )
