"""Time and fatigue (003): rounds and turns, running rounds, exhaustion and the rest that ends it.

* A round is 10 seconds; a turn is ``time.rounds_per_turn`` rounds. Walking a step costs ``time.move_rounds``,
  resting ``time.rest_rounds`` (:func:`rest`).
* 003, fatigue: a party that runs ``fatigue.max_running_rounds`` rounds is exhausted (:func:`run_round`) until it
  rests ``fatigue.rest_turns`` turns; exhausted, it hits worse and softer and is hit more easily (the bonuses are
  in :mod:`undercroft.rules.formulas`), and it cannot run. Resting when not exhausted clears the running count.
* A turn of rest heals ``time.rest_heal`` HP to each living character (our data, where the texts are silent), and
  where the delver grows, 1 more at each of the levels ``growth.rest_heal_at`` (:func:`formulas.rest_heal`).
"""

from __future__ import annotations

from undercroft.rules import events as ev
from undercroft.rules import formulas
from undercroft.rules.context import Ctx
from undercroft.rules.events import Event


def run_round(ctx: Ctx, events: list[Event]) -> bool:
    """Count a round of running; False when the party is too exhausted to run."""
    st = ctx.state
    if not ctx.proc.fatigue:
        return True
    fat = ctx.rules.fatigue
    if st.exhausted:
        return False
    st.running_rounds += 1
    if formulas.exhausted_after(st.running_rounds, fat.max_running_rounds):
        st.exhausted = True
        st.rest_rounds = 0
        events.append(ev.Exhausted(rounds=st.running_rounds))
    return True


def rest(ctx: Ctx, events: list[Event]) -> None:
    """A turn of rest: time passes, exhaustion wears off, the living heal a little."""
    st = ctx.state
    t = ctx.rules.time
    ctx.tick(t.rest_rounds)
    progress: list[int] | None = None
    recovered = False
    if st.exhausted:
        st.rest_rounds += t.rest_rounds
        need = ctx.rules.fatigue.rest_turns * t.rounds_per_turn
        if st.rest_rounds >= need:
            st.exhausted, st.running_rounds, st.rest_rounds = False, 0, 0
            recovered = True
        else:
            progress = [st.rest_rounds, need]
    else:
        st.running_rounds = 0
    healed = 0
    at = ctx.rules.growth.rest_heal_at if ctx.rs.growth else ()
    for m in ctx.living():
        gain = min(formulas.rest_heal(t.rest_heal, m.level, at), m.max_hp - m.hp)
        m.hp += gain
        healed += gain
    hp = [[i, m.hp, m.max_hp] for i, m in enumerate(st.party) if m.alive]
    events.append(
        ev.Rest(
            rounds=t.rest_rounds, exhausted=st.exhausted, healed=healed, recovered=recovered, progress=progress, hp=hp
        )
    )
