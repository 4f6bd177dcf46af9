"""The score of a game, read from its state: the parts :func:`undercroft.rules.formulas.score` counts, gathered
once for the end screen, the recording's end line, the morgue and the high-score tables."""

from __future__ import annotations

from dataclasses import dataclass

from undercroft.content import Content
from undercroft.rules import formulas
from undercroft.rules.state import GameState
from undercroft.rules.types import Mode


@dataclass(frozen=True, slots=True)
class ScoreCard:
    """A game's score and what it is made of."""

    deepest: int  # the deepest floor reached, 1-based
    gold: int  # the party's gold now (carried out only when the game is won)
    gems: int  # the value of the gems (items of kind `treasure`) the party carries now (likewise)
    worth: int  # the sum of `worth` of the monsters killed
    won: bool
    total: int

    def parts(self, content: Content) -> list[tuple[str, int]]:
        """(what, points) of each part that counts for something: ("floor 3", 300), ("kills worth 40", 40)..."""
        r = content.rules.score
        out = [
            (f"floor {self.deepest}", self.deepest * r.per_floor),
            ("gold carried out", self.gold if self.won else 0),
            ("gems carried out", self.gems if self.won else 0),
            (f"kills worth {self.worth}", self.worth * r.per_worth),
            ("won", r.win if self.won else 0),
        ]
        return [(what, n) for what, n in out if n]


def slain_worth(content: Content, slain: dict[str, int]) -> int:
    """The sum of `worth` of the creatures killed (``slain``: how many of each monster id)."""
    return sum(content.monsters[m].worth * n for m, n in sorted(slain.items()) if m in content.monsters)


def gems_value(content: Content, items: dict[str, int]) -> int:
    """The value of the gems among ``items`` (how many of each item id): what they count for when carried out."""
    return sum(
        (content.items[i].value or 0) * n for i, n in sorted(items.items()) if content.items[i].kind == "treasure"
    )


def score_card(content: Content, state: GameState) -> ScoreCard:
    """The score of the game in ``state`` as it stands (a game not over scores as a death would)."""
    deepest = max(state.levels, default=state.depth) + 1
    worth = slain_worth(content, state.slain)
    won = state.mode == Mode.WON
    gems = gems_value(content, state.items)
    total = formulas.score(deepest, state.gold + gems, worth, won, content.rules.score)
    return ScoreCard(deepest, state.gold, gems, worth, won, total)
