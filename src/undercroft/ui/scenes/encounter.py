"""The encounter: the monsters met (name, count, distance, surprise, reaction) and the choices with their keys."""

from __future__ import annotations

import tcod.console
import tcod.event

from undercroft.rules import formulas
from undercroft.rules.actions import (
    Action,
    Bribe,
    Descend,
    Drink,
    DropFood,
    DropTreasure,
    Fight,
    Move,
    Run,
    Talk,
    ThrowOil,
    Wait,
)
from undercroft.rules.approach import STEPS8
from undercroft.rules.names import a_name, group_name, the
from undercroft.rules.refusals import Code
from undercroft.rules.state import Group
from undercroft.rules.types import Mode
from undercroft.sim import chances
from undercroft.ui import keymap, render, threat
from undercroft.ui.keymap import WALK
from undercroft.ui.layout import Layout, Rect
from undercroft.ui.render import DIM, FAINT, RGB, TEXT, TITLE
from undercroft.ui.scenes.base import Push, Transition
from undercroft.ui.scenes.game import GameScene, Handler, shows
from undercroft.ui.scenes.prompt import NoticeScene, PromptScene

ENCOUNTER_CHOICES: list[tuple[str, str, Action]] = [  # (keymap command, label, the action it takes)
    ("fight", "Fight", Fight()),
    ("talk", "Talk", Talk()),
    ("bribe", "Bribe...", Bribe(0)),
    ("run", "Run", Run()),
    ("wait", "Wait", Wait()),
    ("food", "Drop food", DropFood()),
    ("treasure", "Drop treasure", DropTreasure()),
    ("oil", "Burning oil", ThrowOil()),
    ("drink", "Drink", Drink()),
]


#: refusals that hold for the whole meeting, the monster's own or the ruleset's (``warden`` has no talk and no
#: bribes: "No talking or bribes here."): its choice is left off rather than greyed, its key still says why
NEVER = frozenset({Code.UNNEGOTIABLE, Code.UNBRIBABLE, Code.NO_TALKING, Code.NO_BRIBERY})
#: refusals of a choice that cannot help in a meeting at all (a drop stops only a pursuer; oil is for a fight or a
#: chase): left off, their keys still say why
NO_HELP = frozenset({Code.NOT_FLEEING, Code.NOT_NOW})


@shows(Mode.ENCOUNTER)
class EncounterScene(GameScene):
    """The monsters met (name, count, distance, surprise, reaction) and the choices with their keys."""

    mode = Mode.ENCOUNTER
    keymode = "encounter"

    def panel_rect(self, layout: Layout) -> Rect | None:
        return layout.panel(self.panel_right())

    def group(self) -> Group | None:
        return self.session.game.state.front_group()

    def handlers(self) -> dict[str, Handler]:
        out: dict[str, Handler] = {**super().handlers()}
        for command, _, action in ENCOUNTER_CHOICES:
            out[command] = self.taker(action)
        out.update(
            {
                "walk": lambda k: self.act(Move(*WALK[k])),
                "stairs": lambda _k: self.act(Descend()),  # the engine says why not, if not
                "bribe": lambda _k: self.bribe_prompt(),
                "drink": lambda _k: self.drink(),
                "run": lambda _k: self.run_away(),
            }
        )
        return out

    def finale(self) -> bool:
        """Whether the group met is a final guardian (the engine's :meth:`Game.finale_terms`)."""
        g = self.group()
        return g is not None and self.session.game.finale_terms(g) is not None

    def walking_line(self, g: Group | None) -> tuple[str, RGB] | None:
        """What the walking keys do here, as the engine allows it: walk on or away; or, where the monster does not
        let the party walk (it faces the party), that it does not (never offered and then refused). None before a
        final guardian that refuses it (only what the rules allow is listed)."""
        game = self.session.game
        refused = [game.refusal(Move(dx, dy)) for dx, dy in STEPS8]
        if any(why is None for why in refused):
            return ("walking keys: walk on, or away", TEXT)
        if g is None or self.finale() or not any(why.code == Code.FACING for why in refused if why is not None):
            return None
        mon = game.monster_of(g)
        told, many = group_name(mon.name, mon.plural, g.count_told)
        who = f"the {g.count_told} {told} face" if many else f"{the(told)} faces"
        return (f"no walking: {who} you", FAINT)

    def choices(self) -> list[tuple[str, str, Action]]:
        """The panel's choices: every one, greyed where the engine refuses it now (a ruleset's missing procedure too:
        the refusal says why), but talk and bribe where they never can be (a monster that never takes either, a
        ruleset without them: the lines above say so); before a final guardian (a warned finale) only those the
        engine allows."""
        game = self.session.game
        if self.finale():
            return [c for c in ENCOUNTER_CHOICES if game.legal(c[2])]
        out = []
        for c in ENCOUNTER_CHOICES:
            why = game.refusal(c[2])
            if why is None or why.code not in NEVER | NO_HELP:
                out.append(c)
        return out

    def bribe_prompt(self) -> Transition | None:
        """Ask how much gold, when a bribe can be offered now, the sum the panel names typed in already (the least
        that has the best chance: Enter offers it, the first digit typed replaces it, Backspace edits it); else a
        notice says why not (the engine's words), and holds the keys typed after the ``$`` (digits would walk and
        rest) until it is closed."""
        if not self.session.game.legal(Bribe(0)):
            self.act(Bribe(0))
            return Push(NoticeScene("Bribe", self.session.refused or "No bribe can be offered now."))
        gold = self.session.game.state.gold
        g = self.group()
        best = None if g is None else chances.best_bribe(self.session.game, g)

        def done(text: str) -> Transition | None:
            return self.act(Bribe(int(text)))

        return Push(
            PromptScene(
                "Bribe",
                f"How much gold do you offer? (you have {gold})",
                done,
                digits_only=True,
                max_len=7,
                initial="" if best is None else str(best[0]),
                hint=self.bribe_hint,
            )
        )

    def bribe_hint(self, text: str) -> str:
        """The bribery table's answer for the sum typed, in words: how often it is taken, and what a refusal
        costs (000: the gold is kept and the monster attacks first)."""
        g = self.group()
        game = self.session.game
        if g is None or not text.isdigit():
            return ""
        gold = int(text)
        if gold > game.state.gold:
            return f"You have only {game.state.gold} gold."
        table = game.content.tables.bribery
        cell = formulas.bribe_cell(table, game.monster_of(g), gold)
        if cell is None:  # below the table's first row: the engine refuses the offer
            return f"Too little: the least offer is {table.rows[0].min} gold."
        taken = round(chances.bribe_chance(table.die, cell[2]) * table.die)  # the faces that take it
        if taken == 0:
            return "Never accepted at this sum: it keeps the gold and attacks."
        if taken == table.die:
            return "Always accepted at this sum."
        times = "once" if taken == 1 else f"{taken} times"
        return f"Accepted {times} in {table.die} ({taken / table.die:.0%}); if not, it keeps the gold and attacks."

    def info_tiers(self) -> list[list[tuple[str, RGB]]]:
        """What the panel tells of the meeting, from the most to the least: the creature's whole threat and its
        description; the threat and a pointer to look for the description; its blow on one line and a pointer to
        look, which tells the rest (a short screen); only the pointer. [] without a meeting."""
        out = self.meeting_lines()
        g = self.group()
        if not out or g is None:
            return []
        game = self.session.game
        mon = game.monster_of(g)
        told = threat.creature_lines(game, g)
        short = threat.short_line(game, g)
        return [
            [*out, *told, (mon.description, DIM)],
            [*out, *told, ("Look (;) at it: what it is.", DIM)],
            [*out, *([short, ("Look (;) at it for the rest.", DIM)] if short else [])],
            [*out, ("Look (;) at it: its threat.", DIM)],
        ]

    def meeting_lines(self) -> list[tuple[str, RGB]]:
        """The meeting: who, their hit points, distance, surprise, reaction, what was tried, the odds."""
        game = self.session.game
        st = game.state
        g = self.group()
        enc = st.encounter
        if g is None or enc is None:
            return []
        proc = game.proc
        mon = game.monster_of(g)
        alive = g.alive
        head = f"{len(alive)} x {mon.name}" if len(alive) > 1 else a_name(mon.name)
        out: list[tuple[str, RGB]] = [(f"{head} ({g.origin})", render.hex_rgb(mon.colour))]
        out.append(
            (
                "HP " + "  ".join(str(g.hp[i]) for i in alive) + f"  (max {g.max_hp})"
                if len(alive) > 1
                else f"HP {g.hp[alive[0]]}/{g.max_hp}"
                if alive
                else "",
                TEXT,
            )
        )
        if proc.distance:
            out.append((f"Distance: {render.distance_text(game, g)}", TEXT))  # (= enc.distance, and the map's)
        if proc.surprise:
            if enc.party_surprised and enc.monster_surprised:
                s = "both sides"
            elif enc.party_surprised:
                s = "you are surprised"
            elif enc.monster_surprised:
                who, many = group_name(mon.name, mon.plural, g.count_told)
                s = f"{the(who)} {'are' if many else 'is'} surprised"
            else:
                s = "no one now"  # (none was, or both were and it cancelled out, or its round is past)
            out.append((f"Surprise: {s}", TEXT))
        if proc.reaction and g.reaction:
            label = next(
                (b.label for b in game.content.tables.reaction.bands if b.result == g.reaction_result),
                g.reaction_result,
            )
            if not (game.negotiable(g) and (proc.negotiation or proc.bribery)):  # no offers heard: not told of
                label = label.split(";")[0]
            if not g.risen:  # a kneeler attacks nothing until the party steps about its room (or fights)
                label = f"{label.split(',')[0]}; kneeling until you step further in"
            out.append((f"Reaction: {g.reaction}, {label}", TEXT))
        talk = []
        if g.negotiated:
            talk.append("talked")
        if g.bribe_tried:
            talk.append("bribe offered")
        if talk:
            out.append(("Already: " + ", ".join(talk), DIM))
        terms = game.finale_terms(g)
        if terms is not None and (line := threat.finale_short(terms)):
            out.append((line, TEXT))
        out.extend(self.odds_lines())
        return out

    def on_draw(self, console: tcod.console.Console) -> None:
        g = self.group()
        _, r = self.draw_world(console, highlight=g.id if g is not None else None)
        assert r is not None
        game = self.session.game
        x, w, bottom = r.x, r.w, r.y + r.h - 1
        render.panel(console, r.x, r.y, r.w, r.h, "Encounter")
        self.draw_hover_line(console, r)
        y = r.y + 2
        stairs = game.legal(Descend())  # on the stairs (the last level's way out) with a monster that lets you go
        # The most of the meeting that fits whole: on a tall panel the choices one a row, else (or when that leaves
        # too little room to tell it all) in two columns, the run choice's label short.
        tiers = self.info_tiers() or [[]]
        sizes = [sum(len(render.wrap(t, w - 4)) for t, _ in tier) for tier in tiers]
        ways = [(True, i) for i in range(len(tiers))]
        ways = ways if r.h < 30 else [(False, 0), *ways]
        refusal = self.refusal_rows(w - 4)
        listed = self.choices()
        shown = threat.way_chances(game, g) if g is not None else {}
        col = (w - 4) // 2
        # what a wait brings ("Wait: 50% it attacks"), whole: on as many rows as it takes
        wait = f"Wait: {shown['wait']}" if "wait" in shown else "Wait"
        wait_rows = len(render.wrap(wait, w - 4 - len(keymap.key_for(self.key_mode(), "wait")) - 3))
        wait_rows = wait_rows if any(c[0] == "wait" for c in listed) else 1
        # a talk that cannot succeed but opens a bribe says so ("Talk 0%, then bribe 67% at 400"), whole, as the wait
        talk = f"Talk {shown['talk']}" if "talk" in shown else "Talk"
        talk_rows = len(render.wrap(talk, w - 4 - len(keymap.key_for(self.key_mode(), "talk")) - 3))
        talk_rows = talk_rows if any(c[0] == "talk" for c in listed) else 1
        extra = {"wait": wait_rows - 1, "talk": talk_rows - 1}
        # compact: two columns; the bribe on a row of its own, and the run and the wait where what they say (what
        # running leaves behind: "100%, stays"; what a wait brings) would not fit its column: the panel never
        # drops either
        across = {"bribe"} | ({"run"} if len(f"Run... {shown.get('run', '')}") > col - 4 else set())
        across |= {"wait"} if len(wait) > col - 4 else set()
        across |= {"talk"} if len(talk) > col - 4 else set()
        # a drink is answered as a wait is: its risk beside the potions carried ("Drink (2): 50% it attacks")
        drink = f"{self.drink_label(0)}: {shown['drink']}" if "drink" in shown else None
        across |= {"drink"} if drink is not None and len(drink) > col - 4 else set()
        paired = [c[0] for c in listed if c[0] not in across]
        half = (len(paired) + 1) // 2
        known = self.run_beyond()  # (one door: r runs at once, so the run choice says what waits there)
        run = with_chance("Run", shown["run"], w - 8) if "run" in shown else "Run"
        beyond_rows = (
            len(render.wrap(f"{run}: {known}", w - 8)) - 1 if known and any(c[0] == "run" for c in listed) else 0
        )
        walking = self.walking_line(g)
        walk_rows = len(render.wrap(walking[0], w - 4)) if walking else 0
        for compact, tier in ways:
            choices = (half + (len(listed) - len(paired)) if compact else len(listed) + beyond_rows) + sum(
                extra.values()
            )
            # "Your choice:", the choices, the stairs, the walking hint, why the last key did nothing
            room = max(3, bottom - y - (2 + choices + int(stairs) + walk_rows + 1 + refusal))
            info = tiers[tier]
            if sizes[tier] <= room:
                break
        y += render.put_lines(console, x + 2, y, w - 4, info, max_rows=room, keep_last=False)
        y += 1
        render.put_text(console, x + 2, y, "Your choice:", TITLE)
        y += 1
        # compact: two columns, and the rows across both below them (the bribe's chance and its sum: "67% at 100")
        below = 0  # rows taken by a choice on more than one (the run's, with what waits beyond its door)
        wides = [c[0] for c in listed if c[0] not in paired]
        below_wide = {c: sum(extra.get(d, 0) for d in wides[: wides.index(c)]) for c in wides}
        for i, (command, label, action) in enumerate(listed):
            wide = not compact or command in across
            if command == "run":
                label = self.run_label(label, "Run..." if compact else "Run... (choose a door)")
            if command == "drink":
                label = drink or self.drink_label((w - 4 if wide else col) - 4)
            elif command == "wait":
                label = wait
            elif command == "talk":
                label = talk
            elif command in shown:
                label = with_chance(label, shown[command], (w - 4 if wide else col) - 4)
            if command == "run" and known:
                told = f"{label}: {known}"
                label = told if not compact or len(told) <= col - 4 else label
            # (open, but it cannot work: "Talk 0%" greyed, its chance the why, unless it opens a bribe; a run at 0%
            # still leads to a chase)
            live = game.legal(action) and not (command in ("talk", "bribe") and shown.get(command, "") == "0%")
            if not compact:
                below += self.choice(console, x + 2, y + i + below, command, label, live, w - 4, wrap=True) - 1
            elif command in across:
                row = y + half + wides.index(command) + below_wide[command]
                self.choice(console, x + 2, row, command, label, live, w - 4, wrap=command in extra)
            else:
                k = paired.index(command)
                self.choice(console, x + 2 + col * (k // half), y + k % half, command, label, live, col)
        y += choices
        if stairs:
            final = game.rs.levels[game.state.depth].final
            self.choice(
                console, x + 2, y, "stairs", "Leave: out, and win" if final else "Go down the stairs", True, w - 4
            )
            y += 1
        if walking:
            y += render.put_lines(console, x + 2, y, w - 4, [walking])
        y += 1
        y += self.draw_refusal(console, x + 2, y, w - 4)
        self.draw_panel_events(console, x + 2, y, w - 4, bottom - y)


def with_chance(label: str, chance: str, room: int) -> str:
    """A choice's label with its chance ("Talk 42%", "Bribe... 67% at 100"), shortened to ``room``: without a
    parenthesis, then without the dots, then the chance without its sum."""
    short, _, rest = label.partition(" (")
    bare = short.rstrip(".")
    alone = chance.split(" at ")[0].split(", ")[0]  # (a bribe's sum, or what a run leaves behind, goes first)
    whole = f"{short} {chance} ({rest}" if rest else f"{label} {chance}"
    for text in (whole, f"{short} {chance}", f"{bare} {chance}", f"{bare} {alone}"):
        if len(text) <= room:
            return text
    return f"{bare} {alone}"
