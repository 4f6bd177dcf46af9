"""The fight: every combatant with its HP, the target chosen, and the choices of the party's turn."""

from __future__ import annotations

import tcod.console
import tcod.event

from undercroft.rules.actions import Action, Attack, Descend, Drink, Run, ThrowOil, Wait
from undercroft.rules.names import owns_article, the
from undercroft.rules.refusals import Code
from undercroft.rules.state import Group
from undercroft.rules.types import Mode
from undercroft.sim.first import drink_win, oil_win
from undercroft.ui import render, threat
from undercroft.ui.layout import Layout, Rect
from undercroft.ui.render import DIM, FAINT, TEXT, TITLE
from undercroft.ui.scenes.base import Transition
from undercroft.ui.scenes.game import GameScene, Handler, shows
from undercroft.ui.session import Session


@shows(Mode.COMBAT)
class CombatScene(GameScene):
    """Every combatant with its HP; choose a target; attack, drink, throw oil, hold back, or run out the door."""

    mode = Mode.COMBAT
    keymode = "fight"

    def panel_rect(self, layout: Layout) -> Rect | None:
        return layout.panel(self.panel_right())

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        self.target = 0

    def group(self) -> Group | None:
        return self.session.game.state.front_group()

    def _fix_target(self) -> None:
        g = self.group()
        if g is None or not g.alive:
            return
        if self.target not in g.alive:
            later = [i for i in g.alive if i > self.target]
            self.target = later[0] if later else g.alive[0]

    def _cycle(self, step: int) -> Transition | None:
        g = self.group()
        if g is None or not g.alive:
            return None
        self._fix_target()
        alive = g.alive
        self.target = alive[(alive.index(self.target) + step) % len(alive)]
        return None

    def handlers(self) -> dict[str, Handler]:
        return {
            **super().handlers(),
            "walk": self.no_walking("no walking away from a fight: r runs through a door."),
            "next": lambda _k: self._cycle(1),
            "previous": lambda _k: self._cycle(-1),
            "fight": lambda _k: self.act(Attack(self.target)),
            "oil": lambda _k: self.act(ThrowOil(self.target)),
            "wait": lambda _k: self.act(Wait()),
            "run": lambda _k: self.run_away(),
            "drink": lambda _k: self.drink(),
            "stairs": self.taker(Descend()),  # (refused: the engine says why on the refusal row)
        }

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        self._fix_target()
        return super().on_event(event)

    def on_click(self, event: tcod.event.MouseButtonDown) -> Transition | None:
        """A click on a living creature (its row in the panel, or its tile on the map) targets it."""
        if event.button != tcod.event.MouseButton.LEFT:
            return None
        x, y = int(event.position[0]), int(event.position[1])
        what = self.buttons.at(x, y)
        if isinstance(what, int):
            self.target = what
            return None
        if what is not None:
            return super().on_click(event)
        g = self.group()
        p = self.session.camera.last.to_map((x, y))
        if g is not None and p is not None:
            tiles = self.session.game.creature_tiles(g)
            hit = [i for i in g.alive if tiles[i] == p]
            if hit:
                self.target = hit[0]
                return None
        if p is not None:
            self.notice = "a click targets a creature of the fight, or takes a choice in the panel."
        return None

    def options(self, g: Group | None) -> list[tuple[str, str, Action]]:
        """The fight's choices (keymap command, label, action): a lone delver's with the odds of fighting on after
        it (sim.first); the run's chance, and beyond its one door what waits there; a choice the engine refuses
        says why (greyed)."""
        game = self.session.game
        target_name = (
            self.session.narrator.creature(g.monster, self.target, len(g.hp)) if g is not None and g.alive else "it"
        )
        after_oil = oil_win(game.content, game, self.target)
        after_drink = drink_win(game.content, game)
        oil_label = "Throw oil at it" + ("" if after_oil is None else f": win {threat.pct(after_oil)}")
        no_oil = game.refusal(ThrowOil(self.target))
        if no_oil is not None:  # (none carried: as "Drink (none)" says)
            oil_label = (
                "Throw oil at it (none)" if no_oil.code == Code.NO_OIL else f"Throw oil: {self.why_not(ThrowOil())}"
            )
        run_label = self.run_label("Run through the door", "Run through a door...")
        chance = threat.way_chances(game, g).get("run") if g is not None else None
        run_label += f" ({chance})" if chance else ""
        if known := self.run_beyond():  # (one door: r runs at once, with no list to read: say it here)
            run_label += f": {known}"
        elif not game.legal(Run()):
            run_label = f"Run: {self.why_not(Run())}"
        opts: list[tuple[str, str, Action]] = [
            ("fight", f"Attack {the(target_name) if owns_article(target_name) else target_name}", Attack(self.target)),
            ("oil", oil_label, ThrowOil(self.target)),
            (
                "drink",
                self.drink_label() + ("" if after_drink is None else f": win {threat.pct(after_drink)}"),
                Drink(),
            ),
            ("wait", "Hold back", Wait()),
            ("run", run_label, Run()),
        ]
        if g is not None and game.finale_terms(g) is not None:  # a final guardian: only what the rules allow
            opts = [o for o in opts if game.legal(o[2])]
        return opts

    def on_draw(self, console: tcod.console.Console) -> None:
        self._fix_target()
        g = self.group()
        _, r = self.draw_world(console, highlight=g.id if g is not None else None, target=self.target)
        assert r is not None
        game = self.session.game
        st = game.state
        x, w, bottom = r.x, r.w, r.y + r.h - 1
        c = st.combat
        opts = self.options(g)
        render.panel(console, r.x, r.y, r.w, r.h, f"Fight, round {c.round}" if c is not None else "Fight")
        self.draw_hover_line(console, r)
        y = r.y + 2
        if c is not None:
            turn = "Your turn." if c.party_turn else "Their turn."
            if st.exhausted:
                turn += " You are exhausted."
            render.put_text(console, x + 2, y, turn, TITLE)
            y += 2
        for m in st.party:
            colour = TEXT if m.alive else FAINT
            hp = f"HP {m.hp}/{m.max_hp}" if m.alive else "down"
            render.put_text(console, x + 4, y, f"{m.name:<20} {hp}", colour)
            y += 1
        y += 1
        if g is not None:
            mon = game.monster_of(g)
            mcol = render.hex_rgb(mon.colour)
            n = len(g.hp)
            odds_rows = sum(len(render.wrap(t, w - 4)) for t, _ in self.odds_lines())
            longer = sum(len(render.wrap(label, w - 8)) - 1 for _, label, _ in opts)  # (choices on two rows)
            # what the odds, the choices, the hint and a refusal leave for the list
            room = max(2, bottom - y - 10 - odds_rows - longer - self.refusal_rows(w - 4))
            first, last = 0, n
            if n > room:  # a window of the list around the target, the rest counted
                first = max(0, min(n - (room - 1), self.target - (room - 1) // 2))
                last = first + room - 1
            for i in range(first, last):
                hp_i = g.hp[i]
                name = self.session.narrator.creature(g.monster, i, n)
                sel = i == self.target and hp_i > 0
                label = f"{i + 1}. {name:<17} " + (f"HP {hp_i}/{g.max_hp}" if hp_i > 0 else "dead")
                if sel:
                    console.draw_rect(x + 1, y, w - 2, 1, ord(" "), bg=render.SELECT_BG)
                    render.put_text(console, x + 2, y, ">", render.KEY, render.SELECT_BG)
                render.put_text(
                    console,
                    x + 4,
                    y,
                    label,
                    mcol if hp_i > 0 else FAINT,
                    render.SELECT_BG if sel else None,
                    width=w - 6,
                )
                if hp_i > 0:
                    self.buttons.add(x + 1, y, w - 2, i)  # a click on its row targets it
                y += 1
            if last - first < n:
                render.put_text(console, x + 4, y, f"... {n - (last - first)} more (Tab: the next)", DIM, width=w - 6)
                y += 1
        y += 1
        y += render.put_lines(console, x + 2, y, w - 4, self.odds_lines())
        for command, label, action in opts:
            y += self.choice(console, x + 2, y, command, label, game.legal(action), w - 4, wrap=True)
        render.put_text(console, x + 2, y, "Tab, Shift+Tab or a click: target", DIM, width=w - 4)
        y += 2
        y += self.draw_refusal(console, x + 2, y, w - 4)
        self.draw_panel_events(console, x + 2, y, w - 4, bottom - y, heading="This round:")
