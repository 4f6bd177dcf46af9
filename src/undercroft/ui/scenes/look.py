"""Look: a cursor over the map that says what is under it (``;``), and the same line for the mouse pointer.

What a tile shows is asked of the engine and the data, never worked out here: what the player knows of the level
(:class:`~undercroft.rules.view.View`, the object the map is drawn from: the tiles seen, the items lying on them,
the creatures in sight),
the walking distance (``game.distance_to``), the odds of a fight (:mod:`undercroft.sim.odds`). A tile explored but
not in sight now is described as remembered; a group not in sight (or met but not yet seen) is never named. The
look changes nothing: it sends no action.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import numpy as np
import tcod.console
import tcod.event

from undercroft.rules import dungeon
from undercroft.rules.levelmap import Point
from undercroft.rules.names import one_name
from undercroft.rules.state import Group
from undercroft.sim.odds import PARTY, Odds, fight_odds, someone_falls
from undercroft.ui import keymap, render, threat
from undercroft.ui.bar import draw_bar_and_log
from undercroft.ui.layout import Layout, Rect
from undercroft.ui.palette import CURSOR_BG, CURSOR_FG
from undercroft.ui.render import DIM, RGB, TEXT
from undercroft.ui.scenes.base import Pop, Scene, Transition
from undercroft.ui.session import Session

TILE_WORDS: Final[dict[int, str]] = {
    dungeon.WALL: "a wall",
    dungeon.FLOOR: "floor",
    dungeon.DOOR: "a door",
    dungeon.STAIRS: "stairs down",
    dungeon.WATER: "standing water",
}


@dataclass(frozen=True)
class Seen:
    """A creature the map shows: its group, its index in the group, and how many stand on its tile (the map
    shows their number there)."""

    group: Group
    index: int
    count: int = 1


def on_map(session: Session, p: Point) -> bool:
    lv = session.game.state.level
    x, y = p
    return 0 <= y < lv.map.height and 0 <= x < lv.map.width


def creature_at(session: Session, p: Point, visible: np.ndarray | None = None) -> Seen | None:
    """The creature the map shows on ``p`` (on a tile several share, the first, the one named; ``visible``: the
    tiles in sight, default the view's)."""
    shown = session.view.creatures(visible).get(p) if on_map(session, p) else None
    return None if shown is None else Seen(shown[0], shown[1][0], len(shown[1]))


def targets(session: Session) -> list[Point]:
    """What Tab cycles through: the creatures in sight (each tile once), group by group, the nearest group first,
    each in its own order; then the items the party knows of (in sight or remembered), nearest first; then the
    stairs, once seen."""
    game = session.game
    view = session.view
    vis = view.visible()
    px, py = game.state.pos
    out: list[Point] = []
    shown = view.creatures(vis)
    for g in sorted(view.in_sight(vis), key=game.distance_to):
        tiles = game.creature_tiles(g)
        out.extend(tiles[i] for i in g.alive if shown.get(tiles[i], (None, []))[0] is g and tiles[i] not in out)
    items = [p for p in view.piles(vis) if on_map(session, p)]
    items.sort(key=lambda q: (max(abs(q[0] - px), abs(q[1] - py)), q[1], q[0]))
    out += [p for p in items if p not in out]
    stairs = view.stairs()
    if stairs is not None and stairs not in out:
        out.append(stairs)
    return out


def items_text(session: Session, p: Point, visible: np.ndarray) -> str:
    """The items seen lying on ``p`` (``visible``: the tiles in sight), as a pickup names them: "30 gold",
    "Healing Potion", "3 x Flask of Oil"."""
    content = session.game.content
    parts = []
    for item_id, n in session.view.piles(visible).get(p, []):
        item = content.items[item_id]
        parts.append(f"{n} gold" if item.kind == "gold" else item.name if n == 1 else f"{n} x {item.name}")
    return ", ".join(parts)


def describe(session: Session, p: Point) -> str:
    """One line: what is on ``p`` as the party knows it ("" off the map)."""
    return describe_lines(session, p)[0][0] if on_map(session, p) else ""


def describe_lines(
    session: Session, p: Point, odds: Callable[[], list[tuple[str, RGB]]] | None = None
) -> list[tuple[str, RGB]]:
    """What is on ``p``: the first line the summary (the hover line), then the details of a creature in sight.
    ``odds``: the odds lines of the fight in front of the party (the encounter panel's), for its group."""
    game = session.game
    st = game.state
    lv = st.level
    if not on_map(session, p):
        return [("", TEXT)]
    x, y = p
    view = session.view
    vis = view.visible()  # (one field of view for the whole line: it is drawn every frame the pointer rests)
    tile = TILE_WORDS.get(int(lv.map.tiles[y, x]), "floor")
    items = items_text(session, p, vis)
    seen = creature_at(session, p, vis)  # (the group met is shown, and told, wherever it stands)
    if not (vis[y, x] or view.explored()[y, x]) and seen is None:
        return [("Unexplored.", DIM)]
    if not vis[y, x] and seen is None:
        known = "the floor" if tile == "floor" else tile
        return [(f"You remember {known}" + (f", {items} lying there." if items else "."), DIM)]
    where = f"{tile[0].upper()}{tile[1:]}" + (f"; here: {items}." if items else ".")
    if p == st.pos:
        lead = next((m for m in st.party if m.alive), st.party[0])
        who = "You" if len(st.party) == 1 else "Your party"
        return [(f"{who} ({lead.name}, HP {lead.hp}/{lead.max_hp}). {where}", render.WHITE)]
    if seen is None:
        return [(where, TEXT)]
    g, i = seen.group, seen.index
    mon = game.monster_of(g)
    colour = render.hex_rgb(mon.colour)
    of = f", {i + 1} of {len(g.hp)}" if len(g.hp) > 1 else ""
    name = one_name(session.narrator.monster(g.monster))  # ("Sump Leech, 2 of 4")
    head = f"{name}{of}: HP {g.hp[i]}/{g.max_hp}, {render.distance_text(game, g)} away."
    out: list[tuple[str, RGB]] = [(head, colour)]
    if seen.count > 1:
        out.append((f"{seen.count} of them stand on this tile (the map shows their number).", TEXT))
    if len(g.alive) != len(g.hp):
        out.append((f"{len(g.alive)} of the {len(g.hp)} still stand.", TEXT))
    if g.peaceful:
        out.append(("It lets you pass.", TEXT))
    out.extend(threat.creature_lines(game, g))
    front = st.front_group()
    lines = odds() if odds is not None and front is not None and front.id == g.id else []
    out.extend(lines if lines else explore_odds(session, g))
    out.append((mon.description, DIM))
    out.append((where, DIM))
    return out


def explore_odds(session: Session, g: Group) -> list[tuple[str, RGB]]:
    """The odds of a fight with ``g`` begun now, as it stands, for the whole living party (the same odds as the
    encounter panel's: :func:`undercroft.sim.odds.fight_odds`); none once a group is in front of the party (its
    panel tells those)."""
    game = session.game
    if game.state.front_group() is not None:
        return []
    odds = fight_odds(game.content, game, g)
    return [] if odds is None else [odds_line(odds, "If you fight it", someone_falls(game.content, game, g))]


def odds_line(odds: Odds, lead: str, falls: float | None = None) -> tuple[str, RGB]:
    """The odds' line of a panel (``lead``: "If you fight it", "If you fight on"): win, death (a party's: all of
    it, and ``falls``, the chance that someone falls), hit points lost and how they were worked out, coloured by
    whether the fight is more likely won."""
    how = "exact" if odds.exact else "simulated"
    death = f"death {threat.pct(odds.death)}"
    if odds.character == PARTY:
        how = f"the whole party, {how}"
        about = "~" if odds.exact else ""  # (a party's "one falls" is always simulated: said so beside exact odds)
        death = f"all fall {threat.pct(odds.death)}" + (
            "" if falls is None or falls == 0 else f", one falls {about}{threat.pct(falls)}"
        )  # (none fell in any simulated fight: not "one falls ~0%", which reads as a chance)
    colour = render.KIND_COLOURS.get("good" if odds.win >= 0.5 else "bad", TEXT)
    # (the hit points lost, an average over every ending, are all of them where death is certain: not told then;
    # "~" only where the average is a simulation's, as "one falls" says: "~6.2 (exact)" read as a contradiction)
    about = "" if odds.exact else "~"
    lost = "" if threat.pct(odds.death) == "100%" else f", HP lost {about}{odds.hp_lost_mean:.1f}"
    return (f"{lead}: win {threat.pct(odds.win)}, {death}{lost} ({how})", colour)


def draw_hover(console: tcod.console.Console, session: Session, p: Point | None, width: int, x: int = 1) -> None:
    """The tile ``p`` (the level tile under the mouse pointer), in words, on the top row from column ``x``, at
    most ``width`` wide: the words that fit (nothing off the map)."""
    if p is None or not on_map(session, p):
        return
    text = describe(session, p)
    if text:
        line = render.wrap(f" {text} ", max(1, width))[0]
        render.put_text(console, x, 0, f" {line} ", TEXT, render.PANEL_BG, width=width)


class LookScene(Scene):
    """``;``: a cursor over the map, starting on the party; arrows, numpad and vi-keys move it, Tab (Shift+Tab)
    goes to the next (previous) creature in sight, known item or the stairs, Esc or ``;`` closes. What is under it
    is told in a panel on the side away from the cursor, or over the panel of the scene below (a meeting's: the
    map stays in view). Sends no action itself: Enter, while exploring, closes it
    and hands the tile to ``travel`` (the explore scene's walk there)."""

    opaque = False
    keymode = "look"

    def __init__(
        self,
        session: Session,
        odds: Callable[[], list[tuple[str, RGB]]] | None = None,
        travel: Callable[[Point], Transition | None] | None = None,
        panel: Callable[[Layout], Rect | None] | None = None,
    ) -> None:
        self.session = session
        self.odds = odds
        self.travel = travel
        self.panel = panel  # where the scene below has its side panel: look stands over it, never over the map
        self.cursor: Point = session.game.state.pos
        self.page = 0  # the page of the panel's text shown (Space: the next; after the last, the first)
        self.goal: Point | None = None  # chosen with Enter: walked to once the look is closed

    def on_event(self, event: tcod.event.Event) -> Transition | None:
        if isinstance(event, tcod.event.MouseMotion):
            p = self.session.camera.last.to_map((int(event.position[0]), int(event.position[1])))
            if p is not None and on_map(self.session, p):
                self.cursor = p
            return None
        if not isinstance(event, tcod.event.KeyDown):
            return None
        hit = keymap.lookup(self.keymode, event)
        if hit is None:
            return None
        command, name = hit
        if command == "close":
            return Pop()
        if command == "travel":
            return self.go()
        if command == "more":
            self.page += 1  # (on_draw goes back to the first after the last)
            return None
        if command in ("next", "previous"):
            self.cycle(1 if command == "next" else -1)
            return None
        d = keymap.direction(name)
        if d is not None:
            step = 5 if name in keymap.SHIFT_WALK else 1
            nx, ny = self.cursor[0] + d[0] * step, self.cursor[1] + d[1] * step
            lv = self.session.game.state.level
            view = self.session.camera.last  # the part of the level on screen: the cursor stays in it
            nx = max(max(0, view.ox), min(min(lv.map.width, view.ox + view.cols) - 1, nx))
            ny = max(max(0, view.oy), min(min(lv.map.height, view.oy + view.rows) - 1, ny))
            self.cursor = (nx, ny)
        self.page = 0
        return None

    def go(self) -> Transition | None:
        """Enter: close the look and walk to the cursor (exploring only: elsewhere, and on the party's own tile,
        Enter just closes)."""
        if self.travel is None or self.cursor == self.session.game.state.pos:
            return Pop()
        return Pop(then=self.travel(self.cursor))  # the walk's first step is taken now, the rest a tick each

    def cycle(self, step: int) -> None:
        ts = targets(self.session)
        if not ts:
            return
        if self.cursor in ts:
            self.cursor = ts[(ts.index(self.cursor) + step) % len(ts)]
        else:
            self.cursor = ts[0 if step > 0 else -1]
        self.page = 0

    def on_draw(self, console: tcod.console.Console) -> None:
        view = self.session.camera.last
        x, y = view.to_screen(self.cursor)
        out = render.cells(console)
        if 0 <= y < min(console.height, view.h) and 0 <= x < console.width:  # the cursor: the tile in inverse
            fg = tuple(int(v) for v in out["fg"][y, x])
            bg = fg if any(fg) and fg != tuple(int(v) for v in out["bg"][y, x]) else CURSOR_BG
            bx, by = view.cell(self.cursor)  # (its whole block: a tile of a level scaled up is several cells)
            block = (slice(max(by, view.top), min(by + view.sy, view.h)), slice(max(bx, 0), bx + view.sx))
            out["bg"][block], out["fg"][block] = bg, CURSOR_FG
        lines = describe_lines(self.session, self.cursor, self.odds)
        layout = Layout.of(console.width, console.height)
        below = self.panel(layout) if self.panel is not None else None
        r = below if below is not None else layout.panel(right=x < console.width // 2)
        w = r.w
        h = r.h  # the whole side: over a panel of the scene below, it covers it whole, never a part of it
        render.panel(console, r.x, r.y, w, h, "Look")
        if below is None and not layout.tall:  # over the bar and the log: laid out again beside it, as a meeting's
            self.bar_and_log(console, layout, r)
        pages = render.paged(lines, w - 4, max(1, h - 5))
        page = self.page = self.page % len(pages)
        for i, (text, colour) in enumerate(pages[page]):
            render.put_text(console, r.x + 2, r.y + 2 + i, text, colour, width=w - 4)
        hint = "Tab: next  Enter: go  Esc: back" if self.travel is not None else "Tab: next  Esc: back"
        if len(pages) > 1:
            hint = f"Space: more ({page + 1}/{len(pages)})  Esc: back"
        render.put_text(console, r.x + 2, r.y + h - 2, hint, DIM, width=w - 4)

    def bar_and_log(self, console: tcod.console.Console, layout: Layout, r: Rect) -> None:
        """The status bar and the newest messages in the columns beside the look's panel (where the scene below
        drew them across the whole width: a short screen's panel takes the whole side, their rows too)."""
        x0, x1 = layout.text_columns(r)
        bottom = layout.log_y + layout.log_rows
        console.draw_rect(x0, layout.status_y, x1 - x0, bottom - layout.status_y, ord(" "), fg=TEXT, bg=render.BLACK)
        draw_bar_and_log(console, self.session, layout, (x0, x1), whole=True)
