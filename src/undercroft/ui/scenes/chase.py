"""The chase: a monster after the running party, or the party after a group that went its way."""

from __future__ import annotations

import tcod.console
import tcod.event

from undercroft.narrate import plural
from undercroft.rules.actions import Action, Descend, Drink, DropFood, DropTreasure, Fight, Run, ThrowOil, Wait
from undercroft.rules.names import The, group_name, the
from undercroft.rules.refusals import Code
from undercroft.rules.types import Mode, Side
from undercroft.ui import render, threat
from undercroft.ui.layout import Layout, Rect
from undercroft.ui.render import TEXT
from undercroft.ui.scenes.game import GameScene, Handler, shows

PURSUIT_CHOICES: list[tuple[str, str, Action]] = [  # (keymap command, label, action)
    ("run", "Keep running", Run()),
    ("food", "Drop food", DropFood()),
    ("treasure", "Drop treasure", DropTreasure()),
    ("oil", "Throw burning oil", ThrowOil()),
    ("fight", "Turn and fight", Fight()),
    ("drink", "Drink", Drink()),
]
NONE_LEFT = frozenset({Code.NO_FOOD, Code.NO_TREASURE, Code.NO_OIL})  # nothing of it carried
CHASE_CHOICES: list[tuple[str, str, Action]] = [  # the party is the one giving chase
    ("run", "Run on after {it}", Run()),
    ("wait", "Let {it} go", Wait()),
    ("drink", "Drink", Drink()),
]


@shows(Mode.CHASE)
class ChaseScene(GameScene):
    """A chase: a monster after the running party, or the party after a group that went its way."""

    mode = Mode.CHASE

    def panel_rect(self, layout: Layout) -> Rect | None:
        return layout.panel(self.panel_right())

    def key_mode(self) -> str:
        return "chase" if self.chasing() else "pursued"

    def chasing(self) -> bool:
        """Whether the party is the one giving chase."""
        p = self.session.game.state.pursuit
        return p is not None and p.chaser == Side.PARTY

    def chased(self) -> str:
        """What the party gives chase to, as the choices say it: "it", or "them" for several."""
        front = self.session.game.state.front_group()
        return "them" if front is not None and front.count_told > 1 else "it"

    def choices(self) -> list[tuple[str, str, Action]]:
        if not self.chasing():
            return PURSUIT_CHOICES
        it = self.chased()
        return [(command, label.format(it=it), action) for command, label, action in CHASE_CHOICES]

    def handlers(self) -> dict[str, Handler]:
        out: dict[str, Handler] = {**super().handlers()}
        for command, _, action in self.choices():
            out[command] = self.taker(action)
        out["drink"] = lambda _k: self.drink()
        out["walk"] = self.no_walking(
            f"you are chasing {self.chased()}: r runs on." if self.chasing() else "you are running: r keeps running."
        )
        # (refused: the engine says why on the refusal row; giving chase, the walking keys' words)
        out["stairs"] = out["walk"] if self.chasing() else self.taker(Descend())
        return out

    def on_draw(self, console: tcod.console.Console) -> None:
        game = self.session.game
        st = game.state
        p = st.pursuit
        front = st.front_group()
        _, r = self.draw_world(console, highlight=front.id if front is not None else None)
        assert r is not None
        x, w, bottom = r.x, r.w, r.y + r.h - 1
        chasing = self.chasing()
        render.panel(console, r.x, r.y, r.w, r.h, "Giving chase" if chasing else "Running")
        self.draw_hover_line(console, r)
        y = r.y + 2
        if p is not None and front is not None:
            mon = game.monster_of(front)
            name, many = group_name(mon.name, mon.plural, front.count_told)
            where = (
                f"You are chasing {the(name)}, {p.distance} ft ahead."
                if chasing
                else f"{The(name)} {'are' if many else 'is'} {p.distance} ft behind you."
            )
            y += render.put_lines(console, x + 2, y, w - 4, [(where, render.hex_rgb(mon.colour))])
            wants = "They only want" if many else "It only wants"
            friends = f" {wants} to be friends." if not p.fights and not chasing else ""
            when = f"Round {p.rounds} of the chase." if p.rounds else "The chase begins."
            y += render.put_lines(console, x + 2, y, w - 4, [(f"{when}{friends}", TEXT)])
            if game.proc.fatigue:
                render.put_text(
                    console,
                    x + 2,
                    y,
                    "Exhausted!" if st.exhausted else f"Running for {plural(st.running_rounds, 'round')}.",
                    TEXT,
                    width=w - 4,
                )
                y += 1
        y += 1
        chances = threat.way_chances(game, front) if front is not None and not chasing else {}
        for command, label, action in self.choices():
            if command == "drink":
                label = self.drink_label()
            if command == "treasure":  # what goes: a gem while one is carried (the least worth), else gold
                gem = any(n > 0 and game.content.items[i].kind == "treasure" for i, n in st.items.items())
                label = "Drop a gem" if gem else "Drop gold"
            why = game.refusal(action)
            if why is not None and why.code in NONE_LEFT:
                label = f"{label} (none)"  # (no oil, food or treasure to drop: greyed, and why)
            elif command in chances:
                label = f"{label} ({chances[command]})"
            # (a 0% drop cannot stop this pursuer: greyed, its chance the why)
            self.choice(console, x + 2, y, command, label, why is None and chances.get(command) != "0%", w - 4)
            y += 1
        y += 1
        y += self.draw_refusal(console, x + 2, y, w - 4)
        self.draw_panel_events(console, x + 2, y, w - 4, bottom - y)
