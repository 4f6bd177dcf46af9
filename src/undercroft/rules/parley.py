"""Negotiation and bribery (000).

* Talking (:func:`talk`, 000 8): the ruleset's negotiation table, rolled once per group, less the monster's
  reluctance and plus the party's best negotiation ability where the table uses them; failure, agreement (it will
  not attack while the party does not) or intimidation (it also hands over a share of its treasure as tribute).
* Bribery (:func:`bribe`, 000 9): only after a failed negotiation, once per group; the column is the monster's
  strength + reluctance, the row the gold offered, and the die must show the cell's digit or less. A refused
  bribe is kept, and the monster attacks first.
* Some monsters cannot be negotiated with at all (the data, or the ruleset's list: 000 8.4).
"""

from __future__ import annotations

from undercroft.rules import agreements, combat, encounter, formulas
from undercroft.rules import events as ev
from undercroft.rules.context import Ctx
from undercroft.rules.dice import Dice, roll
from undercroft.rules.events import Event
from undercroft.rules.refusals import Code, Reason, Refused
from undercroft.rules.rng import ENCOUNTER
from undercroft.rules.state import Group
from undercroft.rules.types import Mode, Side


def ever_talks(ctx: Ctx, g: Group) -> bool:
    """Whether the rules let the party talk to ``g`` at all (the ruleset's negotiation, a creature that hears
    terms), whatever was said before."""
    return ctx.proc.negotiation and ctx.negotiable(g)


def ever_bribed(ctx: Ctx, g: Group) -> bool:
    """Whether the rules let ``g`` take a bribe at all (the ruleset's bribery, a creature that hears terms), whatever
    was offered before."""
    return ctx.proc.bribery and ctx.negotiable(g)


def check_talk(ctx: Ctx, g: Group) -> Reason | None:
    """Why the party cannot talk to ``g`` now, or None."""
    if not ctx.proc.negotiation:
        return Reason(Code.NO_TALKING)
    if not ctx.negotiable(g):
        return Reason(Code.UNNEGOTIABLE, {"monster": g.monster})
    if g.negotiated:
        return Reason(Code.TALKED, {"monster": g.monster})
    return None


def check_bribe(ctx: Ctx, g: Group) -> Reason | None:
    """Why the party cannot offer ``g`` a bribe now, or None."""
    least = ctx.content.tables.bribery.rows[0].min
    if not ctx.proc.bribery:
        return Reason(Code.NO_BRIBERY)
    if not ctx.negotiable(g):
        return Reason(Code.UNBRIBABLE, {"monster": g.monster})
    if not g.negotiated:
        return Reason(Code.TALK_FIRST)
    if g.negotiation != "failure":
        return Reason(Code.TERMS_MADE, {"monster": g.monster})
    if g.bribe_tried:
        return Reason(Code.BRIBED, {"monster": g.monster})
    if ctx.state.gold < least:
        return Reason(Code.TOO_POOR, {"least": least})
    return None


def talk(ctx: Ctx, events: list[Event]) -> None:
    st = ctx.state
    assert st.encounter is not None
    g = st.group(st.encounter.group)
    mon = ctx.monster_of(g)
    table = ctx.content.tables.negotiation[ctx.rs.negotiation_table]
    reluctance, ability = formulas.negotiation_modifiers(table, mon, (m.negotiation for m in ctx.living()))
    r = roll(ctx.dice(ENCOUNTER), table.dice)
    total = formulas.negotiation_total(r.total, reluctance, ability)
    result = formulas.band(table.bands, total).result
    g.negotiation = result
    tribute = 0
    if result in ("agreement", "intimidation"):
        g.peaceful = True
        if result == "intimidation":
            tribute = formulas.fraction(g.treasure, table.tribute)
            g.treasure -= tribute
            st.gold += tribute
    events.append(
        ev.Negotiate(
            group=g.id,
            monster=g.monster,
            count=g.count_told,
            dice=r.dice,
            faces=list(r.faces),
            reluctance=reluctance,
            ability=ability,
            use_reluctance=table.use_reluctance,
            use_ability=table.use_ability,
            modifier=ability - reluctance,
            total=total,
            result=result,
            tribute=tribute,
        )
    )
    if g.peaceful:
        st.mode, st.encounter = Mode.EXPLORE, None
        if ctx.rs.agreements:  # (ours, only where the ruleset turns it on: the texts give terms, nothing more)
            agreements.after_terms(ctx, g, events)
    else:
        encounter.round_passes(ctx, events)


def bribe_cell(ctx: Ctx, g: Group, gold: int) -> tuple[int, int, int] | None:
    """(column, row, digit) of the bribery table for ``gold`` offered to ``g``; None below its rows."""
    return formulas.bribe_cell(ctx.content.tables.bribery, ctx.monster_of(g), gold)


def bribe(ctx: Ctx, gold: int, events: list[Event]) -> None:
    st = ctx.state
    assert st.encounter is not None
    g = st.group(st.encounter.group)
    b = ctx.content.tables.bribery
    if gold < b.rows[0].min:
        raise Refused(Reason(Code.OFFER_MORE, {"least": b.rows[0].min}))
    if gold > st.gold:
        raise Refused(Reason(Code.GOLD_SHORT, {"gold": st.gold}))
    cell = bribe_cell(ctx, g, gold)
    assert cell is not None  # the first row's minimum was checked above
    col, row, digit = cell
    g.bribe_tried = True
    st.gold -= gold
    g.bribes += gold
    r = roll(ctx.dice(ENCOUNTER), Dice(1, b.die))
    accepted = formulas.bribe_accepted(r.total, digit)
    events.append(
        ev.Bribe(
            group=g.id,
            monster=g.monster,
            count=g.count_told,
            gold=gold,
            column=col,
            row=row,
            digit=digit,
            dice=r.dice,
            faces=list(r.faces),
            total=r.total,
            target=digit,
            result="accepted" if accepted else "refused",
        )
    )
    if accepted:
        g.peaceful = True
        st.mode, st.encounter = Mode.EXPLORE, None
    else:
        combat.start(ctx, g, events, first=Side.MONSTERS)
