"""The odds of a lone character's other choices on its turn in a fight: a healing potion or a flask of oil first,
then fighting on as :func:`undercroft.sim.odds.fight_odds` assumes (the fight panel's "Drink (2 left): win 96%").

Each heal or burn the dice can give counts its share (:func:`undercroft.sim.chances.distribution`); the state after
it, the monsters' turn next, is a :class:`~undercroft.sim.odds.Start` whose odds are the same exact or simulated
fights as the headline's (:func:`~undercroft.sim.odds.start_odds`, cached there). Checked against the engine playing
on in ``tests/test_odds.py``.
"""

from __future__ import annotations

from dataclasses import replace

from undercroft.content import Content
from undercroft.content.schema import Monster
from undercroft.rules import items
from undercroft.rules.dice import Dice
from undercroft.rules.game import Game
from undercroft.rules.types import Behaviour, Mode
from undercroft.sim import chances
from undercroft.sim.odds import Start, start_odds, starts


def drink_win(content: Content, game: Game) -> float | None:
    """The chance of winning the fight on from here after a healing potion drunk now (``Drink``: the weakest
    carried, :func:`undercroft.rules.items.healing_potion`): each heal, never above the maximum, then the monsters'
    turn (a monster that holds its ground holds: nobody swung). None where it is not a lone character's turn in a
    fight, with no potion, at full hit points, or against a monster that kneels again when nobody swings (the
    fight would end, neither won nor lost)."""
    own = _own_turn(content, game)
    potion = items.healing_potion(game)
    if own is None or potion is None:
        return None
    start, mon = own
    heal = content.items[potion].heal
    spec = start.spec
    if heal is None or Behaviour.KNEELS in mon.behaviours or spec.delver_hp >= spec.delver_max_hp:
        return None
    skip = start.skip_next or Behaviour.HOLDS_GROUND in mon.behaviours
    win = 0.0
    for amount, p in chances.distribution(Dice.parse(heal)):
        drunk = replace(spec, delver_hp=min(spec.delver_max_hp, spec.delver_hp + amount))
        win += p * start_odds(replace(start, spec=drunk, delver_next=False, skip_next=skip)).win
    return win


def oil_win(content: Content, game: Game, target: int) -> float | None:
    """The chance of winning the fight on from here after a flask of oil thrown now at creature ``target`` of the
    group (its index, as ``ThrowOil``'s): each burn (at least ``fatigue.minimum_damage``), the creature gone at 0,
    then the monsters' turn. None where it is not a lone character's turn in a fight, with no oil, or no such
    creature standing."""
    own = _own_turn(content, game)
    oil = game.item_of("oil")
    g = game.state.front_group()
    if own is None or oil is None or g is None or not 0 <= target < len(g.hp) or g.hp[target] <= 0:
        return None
    burn = content.items[oil].oil_damage
    if burn is None:
        return None
    start, hp = own[0], g.hp[target]
    rest = list(start.hps)
    rest.remove(hp)
    win = 0.0
    for amount, p in chances.distribution(Dice.parse(burn)):
        left = hp - max(content.rules.fatigue.minimum_damage, amount)
        hps = tuple(sorted([*rest, left] if left > 0 else rest))
        win += p * (start_odds(replace(start, hps=hps, delver_next=False)).win if hps else 1.0)
    return win


def _own_turn(content: Content, game: Game) -> tuple[Start, Monster] | None:
    """The fight of the one character standing, on its own turn in a fight (no hireling beside it: the odds
    leave them out), and its foe's monster; None otherwise."""
    g = game.state.front_group()
    if game.state.mode != Mode.COMBAT or game.hirelings() or g is None:
        return None
    lone = starts(content, game)
    if len(lone) != 1 or not lone[0].delver_next:
        return None
    return lone[0], content.monsters[g.monster]
