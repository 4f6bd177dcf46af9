"""What a monster met will do (003's reaction, and ours where the texts are silent), as pure questions the engine's
meeting (:mod:`undercroft.rules.encounter`), the finale, the panels and the bot all ask: whether it starts anything
(:func:`initiates`), lets the party walk (:func:`lets_party_move`), goes its way when quiet (:func:`moves_on`),
keeps the way out (:func:`is_final_guardian`), is caught unaware (:func:`unaware`); its chances to attack on a Wait
and at a standoff's end; and what a Wait brings now (:func:`wait_outcome`). Nothing here rolls or changes state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from undercroft.content.schema import Monster, ReactionBand
from undercroft.rules import formulas
from undercroft.rules.context import Ctx
from undercroft.rules.state import Encounter, Group
from undercroft.rules.types import Behaviour, FreeRound, Origin

_QUIET = (Behaviour.PASSIVE, Behaviour.HOLDS_GROUND)
KIND = ("peaceful", "friendly")

Otherwise = Literal["leaves", "lets_be", "stays"]


@dataclass(frozen=True, slots=True)
class WaitOutcome:
    """What a Wait brings from the monster the party faces (:func:`wait_outcome`)."""

    attacks: float  # this wait's chance that it attacks, striking first (its standoff roll too, on the last round)
    otherwise: Otherwise  # what it does this wait if it does not attack: goes its way, lets the party be, or stays
    rounds: int  # rounds, this one included, until it makes up its mind at the standoff's end (0: no standoff due)
    then: float  # the chance it attacks when it makes up its mind
    then_otherwise: Otherwise  # ... and what it does then if not
    unaware: bool  # caught unaware (003): this round it neither moves nor acts


def reaction_band(ctx: Ctx, g: Group) -> ReactionBand | None:
    """The reaction band of ``g`` (None: no reaction was rolled)."""
    if not g.reaction:
        return None
    return formulas.band(ctx.content.tables.reaction.bands, g.reaction)


def initiates(ctx: Ctx, g: Group, mon: Monster) -> bool:
    """Whether ``g`` starts anything: standing, not at peace, neither passive nor holding its ground."""
    return g.risen and not g.peaceful and not any(b in mon.behaviours for b in _QUIET)


def is_final_guardian(ctx: Ctx, g: Group) -> bool:
    """Whether ``g`` is a guardian of the final level: it keeps the way out (ours), never going its way nor
    letting the party be on a kind reaction or at a standoff's end; only terms, gold, a fight or a run get the
    party past it (or its own nature: one that never closes lets the party walk by)."""
    return g.origin == Origin.GUARDIAN and ctx.rs.levels[g.level].final


def moves_on(g: Group, mon: Monster) -> bool:
    """Ours: whether ``g`` is a quiet wanderer (passive, or holding its ground: it never starts anything) that
    goes its way rather than stand in front of the party for good: on a kind reaction when the party waits (003,
    9-11: it leaves), and at the end of a standoff whatever its reaction (it never attacks first). A peddler whose
    talk failed once stood in a corridor for ever, leaving a fight or a bribe as the only way on."""
    quiet = any(b in mon.behaviours for b in _QUIET)
    return quiet and g.origin == Origin.WANDERING and g.risen and not g.peaceful


def lets_party_move(g: Group, mon: Monster) -> bool:
    """Whether the party may walk on (or down) while ``g`` faces it."""
    return g.peaceful or not g.risen or any(b in mon.behaviours for b in _QUIET)


def unaware(enc: Encounter | None) -> bool:
    """Whether the monster is caught unaware: it was surprised and this is still the first round of the meeting,
    in which it neither moves nor acts (003)."""
    return enc is not None and formulas.free_round(enc.first_round, enc.party_surprised, enc.monster_surprised) == (
        FreeRound.PARTY
    )


def attacks_chance(ctx: Ctx, g: Group) -> int:
    """The chance (%) that ``g``, facing the party, attacks on a Wait: its band's ``attacks_chance``; without a
    reaction, certain."""
    band = reaction_band(ctx, g)
    return band.attacks_chance if band is not None else formulas.PERCENT


def standoff_chance(ctx: Ctx, g: Group) -> int:
    """The chance (%) that ``g``, still facing the party at a standoff's end, attacks (003's "monster confused"
    makes up its mind by a roll): its band's ``standoff_attacks``; without a reaction, certain; one that never
    starts anything (:func:`initiates`), never."""
    if not initiates(ctx, g, ctx.monster_of(g)):
        return 0
    band = reaction_band(ctx, g)
    return band.standoff_attacks if band is not None else formulas.PERCENT


def gives_way(ctx: Ctx, g: Group) -> bool:
    """Whether ``g``, facing the party and not attacking on a Wait, goes its way or lets the party be (a kind
    reaction: 003, 9-12), a final guardian excepted (it keeps the way out)."""
    return g.reaction_result in KIND and not is_final_guardian(ctx, g)


def gone(g: Group) -> Otherwise:
    """What ``g`` does when it gives way: a wanderer goes its way, any other lets the party be."""
    return "leaves" if g.origin == Origin.WANDERING else "lets_be"


def standoff_due(ctx: Ctx, g: Group, enc: Encounter) -> bool:
    """Whether ``g`` makes up its mind when the meeting has lasted its rounds: it faces the party (or is a quiet
    wanderer, :func:`moves_on`), and has not made up its mind already (a final guardian that stayed)."""
    mon = ctx.monster_of(g)
    return not enc.stays and (initiates(ctx, g, mon) or moves_on(g, mon))


def wait_outcome(ctx: Ctx, g: Group) -> WaitOutcome:
    """What a Wait brings now from ``g``, the group the party faces in a meeting, by the rules
    :func:`monster_reacts` and :func:`standoff` play: this wait's chance that it attacks (on the standoff's last
    round, its standoff roll too), what it does otherwise, and the rounds left before it makes up its mind. Every
    chance is exact."""
    enc = ctx.state.encounter
    assert enc is not None
    mon = ctx.monster_of(g)
    unaware_ = unaware(enc)
    if unaware_:  # its lost round: nothing comes of a wait
        now, kind = 0.0, False
    elif initiates(ctx, g, mon):
        now, kind = attacks_chance(ctx, g) / formulas.PERCENT, gives_way(ctx, g)
    else:
        now, kind = 0.0, moves_on(g, mon) and g.reaction_result in KIND
    if kind:
        return WaitOutcome(now, gone(g), 0, 0.0, "stays", unaware_)
    if not standoff_due(ctx, g, enc):
        return WaitOutcome(now, "stays", 0, 0.0, "stays", unaware_)
    then = standoff_chance(ctx, g) / formulas.PERCENT
    after: Otherwise = "stays" if is_final_guardian(ctx, g) else gone(g)
    rounds = max(1, ctx.rules.encounter.standoff_rounds - enc.rounds)
    if rounds == 1:  # this wait's round is the standoff's last: it makes up its mind if it has not attacked
        return WaitOutcome(now + (1 - now) * then, after, 1, then, after, unaware_)
    return WaitOutcome(now, "stays", rounds, then, after, unaware_)
