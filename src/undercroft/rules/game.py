"""The rules engine: one game, advanced only by :meth:`Game.step`.

``step(action) -> events``: an action the current mode allows changes the state and returns what happened; any
other action is refused with a ``refused`` event saying why, and the state is untouched. All dice come from the
named streams of the game seed (or, in tests, from one scripted dice source). The procedures follow the three
source texts (see docs/RULES.md): the monster check and parley of seed 000, the d20 fight of seed 001 and the
encounter sequence, pursuit and fatigue of seed 003. Every number comes from the data.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from undercroft.content import Content
from undercroft.content.schema import Monster, ReactionBand
from undercroft.rules import dungeon
from undercroft.rules.actions import (
    Action,
    Attack,
    Bribe,
    Descend,
    Drink,
    DropFood,
    DropTreasure,
    Fight,
    Move,
    Rest,
    Run,
    Talk,
    ThrowOil,
    Wait,
)
from undercroft.rules.dice import Dice, DiceSource, Roll, roll
from undercroft.rules.events import Event
from undercroft.rules.rng import COMBAT, ENCOUNTER, LEVEL, Streams
from undercroft.rules.state import (
    Combat,
    Encounter,
    GameState,
    Group,
    LevelState,
    Member,
    Pursuit,
    canonical,
    checksum,
)

SETUP = "setup"
PERCENT = 100


class Refused(Exception):
    """Raised inside a handler before any change: the action is not allowed now."""


def the(name: str) -> str:
    """'the Ghoul', but 'The Unlit' (a name that brings its own article)."""
    return name if name.startswith("The ") else f"the {name}"


def The(name: str) -> str:  # the capitalised twin of the()
    return name if name.startswith("The ") else f"The {name}"


def a_name(name: str) -> str:
    """'A Ghoul', 'An Orc', 'The Unlit'."""
    if name.startswith("The "):
        return name
    return f"{'An' if name[0].lower() in 'aeiou' else 'A'} {name}"


def _band(bands: Any, total: int) -> Any:
    for b in bands:
        if (b.min is None or total >= b.min) and (b.max is None or total <= b.max):
            return b
    raise ValueError(f"no band holds {total}")  # validation guarantees full coverage


class Game:
    """One seeded game of one ruleset."""

    def __init__(
        self,
        content: Content,
        ruleset: str = "undercroft",
        seed: int | str = 0,
        *,
        dice: DiceSource | None = None,
    ) -> None:
        self.content = content
        self.ruleset_id = ruleset
        self.rs = content.ruleset(ruleset)
        self.proc = self.rs.procedures
        self.rules = content.rules
        self.streams = Streams(seed)
        self._forced = dice
        members = [self._member(cid) for cid in self.rs.party]
        setup = self._dice(SETUP)
        gold = max(0, roll(setup, self.rs.start_gold).total)
        lv0 = self._make_level(0)
        start = lv0.map.start
        seg = int(lv0.map.segment_of[start[1], start[0]])
        self.state = GameState(
            seed=self.streams.seed,
            ruleset=ruleset,
            depth=0,
            levels={0: lv0},
            pos=start,
            prev_pos=start,
            segment=seg,
            segment_entry=start,
            party=members,
            gold=gold,
            items={k: v for k, v in sorted(self.rs.start_items.items()) if v > 0},
        )
        lv0.visited[seg] = True
        self._see()

    # --- plumbing --------------------------------------------------------------------------------------------

    def _dice(self, name: str) -> DiceSource:
        if self._forced is not None:
            return self._forced
        depth = self.state.depth if hasattr(self, "state") else 0
        return self.streams.get(name, depth)

    def _member(self, cid: str) -> Member:
        c = self.content.party[cid]
        weapon = self.content.items[c.weapon].damage
        return Member(cid, c.name, c.hp, c.hp, c.might, c.agility, c.defense, weapon, c.negotiation, c.speed)

    def checksum(self) -> str:
        return checksum(self.canonical())

    def canonical(self) -> dict[str, Any]:
        return canonical(self.state, self.streams.snapshot())

    @property
    def over(self) -> bool:
        return self.state.mode in ("dead", "won")

    def monster_of(self, g: Group) -> Monster:
        return self.content.monsters[g.monster]

    def step(self, action: Action) -> list[Event]:
        """Apply one action; return its events. A refused action changes nothing."""
        st = self.state
        if self.over:
            return [Event("refused", {"action": action.type, "reason": "the game is over"}, "The game is over.")]
        handler = self._handlers().get((st.mode, action.type))
        if handler is None:
            reason = f"you cannot {action.type.replace('_', ' ')} now ({st.mode})"
            return [Event("refused", {"action": action.type, "reason": reason}, reason[0].upper() + reason[1:] + ".")]
        why = self._precheck(action)
        if why is not None:
            return [Event("refused", {"action": action.type, "reason": why}, why)]
        events: list[Event] = []
        try:
            handler(action, events)
        except Refused as exc:
            reason = str(exc)
            return [Event("refused", {"action": action.type, "reason": reason}, reason)]
        st.turn += 1
        return events

    def legal(self, action: Action) -> bool:
        """Whether an action of this kind is possible now (without taking it): the mode allows it and nothing in
        the state forbids it (no potion, a monster that cannot be talked to, the one bribe spent, ...). Its
        arguments (a target, a sum of gold, a step into a wall) are checked when it is taken."""
        if self.over or (self.state.mode, action.type) not in self._handlers():
            return False
        return self._precheck(action) is None

    def refusal(self, action: Action) -> str | None:
        """Why an action of this kind would be refused now, or None (see :meth:`legal`)."""
        st = self.state
        if self.over:
            return "The game is over."
        if (st.mode, action.type) not in self._handlers():
            return f"You cannot {action.type.replace('_', ' ')} now ({st.mode})."
        return self._precheck(action)

    def _precheck(self, action: Action) -> str | None:
        """The state's reasons to refuse an action the mode allows (read-only: it changes nothing)."""
        st = self.state
        kind = action.type
        if st.combat is not None and not st.combat.party_turn and kind in ("attack", "oil", "wait", "drink", "run"):
            return "It is not your turn."
        if kind == "drink":
            return None if self._potion() is not None else "You have no potion."
        if kind == "drop_food":
            return None if self._item_of("food") is not None else "You have no food to drop."
        if kind == "drop_treasure":
            return None if st.gold > 0 else "You have no treasure to drop."
        if kind == "oil":
            return None if self._item_of("oil") is not None else "You have no oil."
        if kind == "run" and st.exhausted and self.proc.fatigue:
            return ("You are too exhausted to run: turn and fight." if st.mode == "pursuit"
                    else "You are too exhausted to run: rest first, or fight.")
        if kind == "descend":
            return self._check_descend()
        if kind == "fight" and st.mode == "explore" and self._nearest_here() is None:
            return "There is nothing here to fight."
        if kind in ("talk", "bribe"):
            assert st.encounter is not None
            g = st.group(st.encounter.group)
            return self._check_talk(g) if kind == "talk" else self._check_bribe(g)
        return None

    def _item_of(self, kind: str) -> str | None:
        st = self.state
        return next((i for i in sorted(st.items) if st.items[i] > 0 and self.content.items[i].kind == kind), None)

    def _potion(self) -> str | None:
        return self._item_of("potion")

    def _handlers(self) -> dict[tuple[str, str], Callable[[Any, list[Event]], None]]:
        h = getattr(self, "_handler_table", None)
        if h is None:
            h = {
                ("explore", "move"): self._move,
                ("explore", "descend"): self._descend,
                ("explore", "rest"): self._rest,
                ("explore", "drink"): self._drink,
                ("explore", "fight"): self._attack_peaceful,
                ("encounter", "move"): self._move,
                ("encounter", "descend"): self._descend,
                ("encounter", "fight"): self._fight,
                ("encounter", "talk"): self._talk,
                ("encounter", "bribe"): self._bribe,
                ("encounter", "wait"): self._wait,
                ("encounter", "run"): self._run,
                ("encounter", "drop_food"): self._drop_food,
                ("encounter", "drop_treasure"): self._drop_treasure,
                ("encounter", "drink"): self._drink,
                ("combat", "attack"): self._attack,
                ("combat", "drink"): self._drink,
                ("combat", "oil"): self._oil_combat,
                ("combat", "wait"): self._combat_wait,
                ("combat", "run"): self._run,
                ("pursuit", "run"): self._pursuit_run,
                ("pursuit", "drop_food"): self._drop_food,
                ("pursuit", "drop_treasure"): self._drop_treasure,
                ("pursuit", "oil"): self._oil_pursuit,
                ("pursuit", "fight"): self._pursuit_fight,
                ("pursuit", "drink"): self._drink,
            }
            self._handler_table = h
        return h

    def _roll(
        self,
        events: list[Event],
        purpose: str,
        dice: Dice | str,
        stream: str,
        *,
        modifier: int = 0,
        target: Any = None,
        result: Callable[[int], str] | None = None,
        text: Callable[[Roll, int, str], str] | None = None,
        **extra: Any,
    ) -> tuple[int, str]:
        r = roll(self._dice(stream), dice)
        total = r.total + modifier
        res = result(total) if result else ""
        data: dict[str, Any] = {
            "purpose": purpose,
            "dice": r.dice,
            "faces": list(r.faces),
            "modifier": r.modifier + modifier,
            "multiplier": r.multiplier,
            "total": total,
            "target": target,
            "result": res,
            **extra,
        }
        events.append(Event("roll", data, text(r, total, res) if text else ""))
        return total, res

    def _percent(self, events: list[Event], purpose: str, chance: int, stream: str = ENCOUNTER, **extra: Any) -> bool:
        """A percentile check (d100 <= chance); certain outcomes roll no die."""
        if chance >= PERCENT or chance <= 0:
            ok = chance >= PERCENT
            events.append(
                Event("roll", {"purpose": purpose, "dice": "", "faces": [], "modifier": 0, "multiplier": 1,
                               "total": None, "target": chance, "result": "yes" if ok else "no", **extra})
            )
            return ok
        _, res = self._roll(
            events, purpose, "1d100", stream, target=chance,
            result=lambda t: "yes" if t <= chance else "no",
            text=lambda r, t, res_: f"{purpose.replace('_', ' ').capitalize()}: rolled {t} vs {chance}%: {res_}.",
            **extra,
        )
        return res == "yes"

    def _tick(self, rounds: int) -> None:
        st = self.state
        st.rounds += rounds

    def _see(self) -> None:
        st = self.state
        lv = st.level
        radius = self.content.dungeon[self.rs.levels[st.depth].mapgen].fov_radius
        y0, x0, seen = dungeon.fov_window(lv.map, st.pos[0], st.pos[1], radius)
        lv.explored[y0 : y0 + seen.shape[0], x0 : x0 + seen.shape[1]] |= seen

    def visible(self) -> np.ndarray:
        st = self.state
        radius = self.content.dungeon[self.rs.levels[st.depth].mapgen].fov_radius
        return dungeon.compute_fov(st.level.map, st.pos[0], st.pos[1], radius)

    def party_name(self, m: Member) -> str:
        return "You" if len(self.state.party) == 1 else m.name

    def living(self) -> list[Member]:
        return [m for m in self.state.party if m.alive]

    def creature_name(self, g: Group, i: int) -> str:
        name = self.monster_of(g).name
        return name if len(g.hp) == 1 else f"{name} #{i + 1}"

    # --- levels ---------------------------------------------------------------------------------------------

    def _make_level(self, idx: int) -> LevelState:
        spec = self.rs.levels[idx]
        stream = self.streams.get(LEVEL, idx)
        # Every level has its stairs: on the final level they are the way out, in the farthest room, where the
        # first guardian waits.
        m = dungeon.generate_level(self.content.dungeon[spec.mapgen], stream)
        lv = LevelState(
            index=idx,
            map=m,
            visited=np.zeros(len(m.segments), dtype=bool),
            explored=np.zeros((m.height, m.width), dtype=bool),
            items={},
        )
        start_seg = int(m.segment_of[m.start[1], m.start[0]])
        candidates = [
            (x, y)
            for s in m.segments
            if s.kind == "room" and s.id != start_seg
            for y in range(s.y1, s.y2 + 1)
            for x in range(s.x1, s.x2 + 1)
            if m.tiles[y, x] == dungeon.FLOOR
        ]
        for fi in spec.items:
            n = max(0, roll(stream, fi.count).total)
            for _ in range(n):
                if not candidates:
                    break
                amount = max(1, roll(stream, fi.amount).total)
                tile = candidates[stream.below(len(candidates))]
                lv.items.setdefault(tile, []).append((fi.item, amount))
        gid_base = 10_000 * (idx + 1)
        for i, mid in enumerate(spec.guardians):
            rooms = [r for r in m.far_rooms if r != start_seg]
            seg = m.segments[rooms[i % len(rooms)]]
            mon = self.content.monsters[mid]
            treasure = max(0, roll(stream, mon.treasure).total)
            pos = self._guard_post(m, seg)
            g = Group(gid_base + i, mid, [mon.hp], mon.hp, idx, seg.id, pos, "guardian", treasure)
            self._init_behaviour(g, mon)
            lv.groups.append(g)
        return lv

    @staticmethod
    def _guard_post(m: dungeon.LevelMap, seg: dungeon.Segment) -> tuple[int, int]:
        """Where a guardian stands: the room floor tile nearest its centre that is not the stairs (top-left first)."""
        cx, cy = (seg.x1 + seg.x2) // 2, (seg.y1 + seg.y2) // 2
        tiles = [(abs(x - cx) + abs(y - cy), y, x) for y in range(seg.y1, seg.y2 + 1) for x in range(seg.x1, seg.x2 + 1)
                 if m.tiles[y, x] == dungeon.FLOOR]
        _, y, x = min(tiles)
        return (x, y)

    @staticmethod
    def _init_behaviour(g: Group, mon: Monster) -> None:
        if "kneels" in mon.behaviours:
            g.risen = False

    def _groups_in(self, seg: int) -> list[Group]:
        return [g for g in self.state.level.groups if g.segment == seg and not g.defeated]

    def _group_at(self, pos: tuple[int, int]) -> Group | None:
        for g in self.state.level.groups:
            if g.pos == pos and not g.defeated and not g.hidden:
                return g
        return None

    # --- exploring ------------------------------------------------------------------------------------------

    def _move(self, a: Move, events: list[Event]) -> None:
        st = self.state
        m = st.level.map
        if not (-1 <= a.dx <= 1 and -1 <= a.dy <= 1) or (a.dx == 0 and a.dy == 0):
            raise Refused("A step is one tile in one of eight directions.")
        x, y = st.pos[0] + a.dx, st.pos[1] + a.dy
        if not (0 <= x < m.width and 0 <= y < m.height) or m.tiles[y, x] == dungeon.WALL:
            raise Refused("A wall is in the way.")
        blocker = self._group_at((x, y))
        if blocker is not None and not blocker.peaceful:
            if st.mode == "explore":
                # Walking into a monster the party had left alone confronts it again.
                self._begin_encounter(blocker, events)
                return
            raise Refused(f"{The(self.monster_of(blocker).name)} is in the way.")
        new_seg = int(m.segment_of[y, x])
        far = False
        if st.mode == "encounter":
            assert st.encounter is not None
            g = st.group(st.encounter.group)
            mon = self.monster_of(g)
            far = st.encounter.out_of_sight
            if not (far or self._lets_party_move(g, mon)):
                raise Refused(f"{The(mon.name)} is facing you: fight, talk, wait or run.")
        st.prev_pos = st.pos
        st.pos = (x, y)
        if blocker is not None:  # a peaceful monster steps aside: it takes the party's place
            blocker.pos = st.prev_pos
            events.append(Event("pass", {"group": blocker.id},
                                f"{The(self.monster_of(blocker).name)} lets you pass."))
        if not far:
            self._tick(self.rules.time.move_rounds)
        events.append(Event("move", {"from": list(st.prev_pos), "to": [x, y], "segment": new_seg}))
        self._see()
        if st.mode == "encounter":
            assert st.encounter is not None
            g = st.group(st.encounter.group)
            if far and new_seg == st.segment:
                self._round_passes(events)  # it keeps coming while the party moves
            elif new_seg == st.segment and not g.risen:
                # kneelers rise once the party is inside the room
                g.risen = True
                events.append(Event("rises", {"group": g.id}, f"{The(self.monster_of(g).name)} rises."))
                self._start_combat(g, events)
                return
            if new_seg != st.segment:
                st.mode, st.encounter = "explore", None
        self._pickup(events)
        if new_seg != st.segment and new_seg >= 0:
            old = st.segment
            self._leave_segment(old, events)
            if st.mode in ("dead", "combat"):
                st.segment = new_seg
                return
            self._enter_segment(new_seg, events)

    def _lets_party_move(self, g: Group, mon: Monster) -> bool:
        return (
            g.peaceful
            or not g.risen
            or any(b in mon.behaviours for b in ("passive", "holds_ground"))
        )

    def _pickup(self, events: list[Event]) -> None:
        st = self.state
        pile = st.level.items.pop(st.pos, None)
        if not pile:
            return
        for item, amount in pile:
            name = self.content.items[item].name
            if self.content.items[item].kind == "gold":
                st.gold += amount
                events.append(Event("pickup", {"item": item, "amount": amount}, f"You pick up {amount} gold."))
            else:
                st.items[item] = st.items.get(item, 0) + amount
                what = name if amount == 1 else f"{amount} x {name}"
                events.append(Event("pickup", {"item": item, "amount": amount}, f"You pick up {what}."))
                if self.content.items[item].kind == "weapon":
                    self._wield(item, events)

    def _wield(self, item: str, events: list[Event]) -> None:
        """A better weapon found is taken up at once, by the living character with the weakest one."""
        st = self.state
        bonus = self.content.items[item].damage
        members = [i for i, m in enumerate(st.party) if m.alive and m.weapon < bonus]
        if not members:
            return
        i = min(members, key=lambda j: (st.party[j].weapon, j))
        m = st.party[i]
        m.weapon = bonus
        st.items[item] -= 1
        if st.items[item] == 0:
            del st.items[item]
        name = self.content.items[item].name
        who = self.party_name(m)
        events.append(Event("wield", {"member": i, "item": item, "weapon": bonus, "damage": m.might + bonus},
                            f"{who} take{'s' if who != 'You' else ''} up the {name}: {m.might + bonus} damage a hit."))

    def _leave_segment(self, old: int, events: list[Event]) -> None:
        """Walking out of a segment: what lies in wait there reacts (passive strikes, the submerged rise)."""
        st = self.state
        for g in self._groups_in(old):
            mon = self.monster_of(g)
            if g.hidden:
                g.hidden = False
                g.segment = int(st.level.map.segment_of[st.pos[1], st.pos[0]])
                g.pos = st.prev_pos
                g.met = True
                events.append(Event("reveal", {"group": g.id, "monster": g.monster},
                                    f"Something rises from the water behind you: {mon.name}!"))
                # It rose behind the party (on the tile it just left): the way out is onward, not back past it.
                st.encounter = Encounter(g.id, entry=st.pos)
                self._start_combat(g, events, free_round="monsters")
                return
            if "passive" in mon.behaviours and not g.peaceful and st.pos != st.segment_entry:
                # It "only objects to being walked past" (001): one strike, from the first of them. It is
                # dangerous in numbers only if the party stands in it and fights.
                events.append(Event("walked_past", {"group": g.id},
                                    f"You walk past {the(mon.name)}, and it objects."))
                self._monster_attack(g, g.alive[0], events)
                if not self.living():
                    self._die(mon.name, events)
                    return

    def _enter_segment(self, seg: int, events: list[Event]) -> None:
        st = self.state
        lv = st.level
        s = lv.map.segments[seg]
        visited = bool(lv.visited[seg])
        st.segment = seg
        st.segment_entry = st.prev_pos
        events.append(Event("enter", {"segment": seg, "kind": s.kind, "visited": visited}))
        present = [g for g in self._groups_in(seg) if not g.hidden]
        lv.visited[seg] = True
        if present:
            g = present[0]
            mon = self.monster_of(g)
            if g.peaceful:
                events.append(Event("peaceful", {"group": g.id}, f"{The(mon.name)} lets you be."))
                return
            self._init_behaviour(g, mon)
            self._begin_encounter(g, events)
            return
        if any(g.hidden for g in self._groups_in(seg)):
            return
        if self.proc.monster_check:
            self._monster_check(seg, s.kind, visited, events)

    def _monster_check(self, seg: int, kind: str, visited: bool, events: list[Event]) -> None:
        chk = self.content.check_rules(self.rs)
        st = self.state
        if kind == "room" and not visited:
            limit, origin = chk.resident_max, "resident"
        else:
            limit, origin = chk.wandering_max, "wandering"
        where = "new room" if kind == "room" and not visited else ("corridor" if kind == "corridor" else "visited room")

        def say(r: Roll, t: int, res_: str) -> str:
            found = f"a {origin} monster" if res_ != "none" else "nothing"
            return f"Monster check ({where}): rolled {t}, 1-{limit} means a {origin} monster: {found}."

        _, res = self._roll(
            events, "monster_check", Dice(1, chk.die), ENCOUNTER, target=limit,
            result=lambda t: origin if t <= limit else "none", text=say,
            segment=seg, kind=kind, visited=visited,
        )
        if res == "none":
            return
        spec = self.rs.levels[st.depth]
        table_id = spec.resident if origin == "resident" else spec.wandering
        grid = self.content.encounters[table_id]
        d6 = Dice(1, 6)
        row, _ = self._roll(events, "table_row", d6, ENCOUNTER, table=table_id)
        col, _ = self._roll(events, "table_column", d6, ENCOUNTER, table=table_id)
        cell = grid[row - 1][col - 1]
        mon = self.content.monsters[cell.monster]
        number_dice = cell.number or Dice.parse(mon.number)
        n, _ = self._roll(events, "number_appearing", number_dice, ENCOUNTER, modifier=spec.number_bonus,
                          monster=cell.monster)
        n = max(1, n)
        treasure, _ = self._roll(events, "treasure", mon.treasure, ENCOUNTER, monster=cell.monster)
        events.append(Event("table", {"table": table_id, "row": row, "column": col, "monster": cell.monster,
                                      "number": n},
                            f"Table {table_id}: row {row}, column {col}: {n} x {mon.name}."))
        g = Group(st.next_group, cell.monster, [mon.hp] * n, mon.hp, st.depth, seg, self._far_tile(seg),
                  origin, max(0, treasure))
        st.next_group += 1
        self._init_behaviour(g, mon)
        st.level.groups.append(g)
        self._begin_encounter(g, events)

    def _far_tile(self, seg: int) -> tuple[int, int]:
        """Where a new group stands: the segment tile farthest from the party (ties: top, then left)."""
        st = self.state
        m = st.level.map
        ys, xs = np.nonzero((m.segment_of == seg) & (m.tiles == dungeon.FLOOR))  # not a door, not the stairs
        if len(xs) == 0:
            return st.pos
        occupied = {g.pos for g in st.level.groups if not g.defeated}
        dist = np.maximum(np.abs(xs - st.pos[0]), np.abs(ys - st.pos[1]))
        order = np.lexsort((xs, ys, -dist))
        for i in order:
            p = (int(xs[i]), int(ys[i]))
            if p not in occupied and p != st.pos:
                return p
        return (int(xs[order[0]]), int(ys[order[0]]))

    def _check_descend(self) -> str | None:
        st = self.state
        if st.level.map.stairs != st.pos:
            return "There are no stairs down here."
        if st.mode == "encounter":
            assert st.encounter is not None
            g = st.group(st.encounter.group)
            if not self._lets_party_move(g, self.monster_of(g)):
                return f"{The(self.monster_of(g).name)} is facing you: fight, talk, wait or run."
        return None

    def _descend(self, a: Descend, events: list[Event]) -> None:
        st = self.state
        if st.mode == "encounter":
            st.mode, st.encounter = "explore", None  # it lets the party go
        if self.rs.levels[st.depth].final:
            self._tick(self.rules.time.move_rounds)
            st.mode = "won"
            events.append(Event("won", {"turn": st.turn + 1, "depth": st.depth, "seed": st.seed, "how": "escaped"},
                                "You pass the things at the end and climb out through the seal. You have won."))
            return
        st.depth += 1
        if st.depth not in st.levels:
            st.levels[st.depth] = self._make_level(st.depth)
        lv = st.level
        st.pos = st.prev_pos = lv.map.start
        st.segment = int(lv.map.segment_of[st.pos[1], st.pos[0]])
        st.segment_entry = st.pos
        lv.visited[st.segment] = True
        spec = self.rs.levels[st.depth]
        self._tick(self.rules.time.move_rounds)
        self._see()
        events.append(Event("descend", {"depth": st.depth, "name": spec.name},
                            f"You go down to level {st.depth + 1}: {spec.name}."))

    def _rest(self, a: Rest, events: list[Event]) -> None:
        st = self.state
        t = self.rules.time
        self._tick(t.rest_rounds)
        text = "You rest for a turn."
        if st.exhausted:
            st.rest_rounds += t.rest_rounds
            need = self.rules.fatigue.rest_turns * t.rounds_per_turn
            if st.rest_rounds >= need:
                st.exhausted, st.running_rounds, st.rest_rounds = False, 0, 0
                text = "You rest for a turn. You are no longer exhausted."
            else:
                text = f"You rest for a turn ({st.rest_rounds}/{need} rounds of rest)."
        else:
            st.running_rounds = 0
        healed = 0
        for m in self.living():
            gain = min(t.rest_heal, m.max_hp - m.hp)
            m.hp += gain
            healed += gain
        if healed:
            text += " " + " ".join(f"{self.party_name(m)}: HP {m.hp}/{m.max_hp}." if len(st.party) > 1
                                   else f"HP {m.hp}/{m.max_hp}." for m in self.living())
        events.append(Event("rest", {"rounds": t.rest_rounds, "exhausted": st.exhausted, "healed": healed}, text))
        if self.proc.monster_check:
            s = st.level.map.segments[st.segment]
            if not self._groups_in(st.segment):
                self._monster_check(st.segment, s.kind, True, events)

    def _drink(self, a: Drink, events: list[Event]) -> None:
        st = self.state
        if not 0 <= a.member < len(st.party) or not st.party[a.member].alive:
            raise Refused("Nobody there to drink.")
        potion = self._potion()
        assert potion is not None  # _precheck
        m = st.party[a.member]
        st.items[potion] -= 1
        if st.items[potion] == 0:
            del st.items[potion]
        heal_dice = self.content.items[potion].heal
        assert heal_dice is not None
        heal, _ = self._roll(events, "heal", heal_dice, ENCOUNTER if st.mode != "combat" else COMBAT)
        before = m.hp
        m.hp = min(m.max_hp, m.hp + heal)
        who = self.party_name(m)
        events.append(Event("drink", {"member": a.member, "item": potion, "heal": heal, "hp": m.hp,
                                      "max_hp": m.max_hp},
                            f"{who} drink{'s' if who != 'You' else ''}. {m.hp - before} healed. "
                            f"HP {m.hp}/{m.max_hp}."))
        if st.mode == "combat":
            assert st.combat is not None
            g = st.group(st.combat.group)
            others = [i for i, mm in enumerate(st.party) if mm.alive and i != a.member]
            attacked = False
            for i in others:
                if g.defeated:
                    break
                self._member_attack(i, g, g.alive[0], events)
                attacked = True
            self._after_party_turn(g, events, attacked=attacked)
        elif st.mode in ("encounter", "pursuit"):
            self._round_passes(events)

    # --- the encounter (seed 003) ---------------------------------------------------------------------------

    def _reaction_band(self, g: Group) -> ReactionBand | None:
        if not g.reaction:
            return None
        return _band(self.content.tables.reaction.bands, g.reaction)  # type: ignore[no-any-return]

    def negotiable(self, g: Group) -> bool:
        """Whether the party may talk to (and bribe) ``g``: the ruleset's list where it has one, else the data."""
        if self.rs.unnegotiable is not None:
            return g.monster not in self.rs.unnegotiable
        return self.monster_of(g).negotiable

    def _way_out(self) -> tuple[int, int]:
        """The door the party came in by: where it entered this segment from (not merely its last step, which may
        lie inside the room when a wanderer arrives while it rests); its last step where there is no such tile."""
        st = self.state
        came_from = st.segment_entry
        outside = int(st.level.map.segment_of[came_from[1], came_from[0]]) != st.segment
        return came_from if outside else st.prev_pos

    def _begin_encounter(self, g: Group, events: list[Event]) -> None:
        st = self.state
        mon = self.monster_of(g)
        enc = Encounter(g.id, entry=self._way_out())
        first = not g.met
        if first and "submerged" in mon.behaviours:
            g.hidden = True
            g.met = True
            events.append(Event("hidden", {"group": g.id}, "The water is still. You see nothing."))
            return
        st.mode, st.encounter = "encounter", enc
        count = len(g.alive)
        events.append(Event("encounter", {"group": g.id, "monster": g.monster, "count": count,
                                          "hp": list(g.hp), "origin": g.origin, "first": first},
                            f"{count} x {mon.name}!" if count > 1 else f"{a_name(mon.name)}!"))
        if first:
            g.met = True
            if self._first_meeting(g, mon, enc, events):
                return
        elif self.proc.reaction and not g.reaction:
            self._roll_reaction(g, events)  # met before without a reaction (both sides surprised, far apart)
        if enc.out_of_sight:
            events.append(Event("out_of_sight", {"group": g.id, "distance": enc.distance},
                                f"It is out of sight, {enc.distance} ft away, and coming closer."))
            return
        if not self._initiates(g, mon):
            return
        if g.reaction_result == "attacks" and not enc.monster_surprised:
            events.append(Event("attacks", {"group": g.id}, f"{The(mon.name)} attacks!"))
            self._start_combat(g, events)
            return
        if not self.proc.reaction and not self.proc.negotiation:
            # The Warden: a monster in the room means a fight.
            self._start_combat(g, events)
            return
        if enc.party_surprised:
            self._monster_reacts(g, events)

    def _first_meeting(self, g: Group, mon: Monster, enc: Encounter, events: list[Event]) -> bool:
        """Distance, surprise and reaction, settled once when first met. True if the meeting comes to nothing."""
        st = self.state
        enc_rules = self.rules.encounter
        if self.proc.distance:
            dist, _ = self._roll(events, "distance", enc_rules.distance, ENCOUNTER,
                                 text=lambda r, t, res_: f"Distance: {t} ft.")
            enc.distance = dist
            enc.out_of_sight = dist > enc_rules.sight_feet
        if self.proc.surprise:
            sm = enc_rules.surprised_max
            sd = Dice(1, enc_rules.surprise_die)
            _, pr = self._roll(events, "surprise_party", sd, ENCOUNTER, target=sm,
                               result=lambda t: "surprised" if t <= sm else "ready",
                               text=lambda r, t, res_: f"Surprise (party): rolled {t}: {res_}.")
            _, mr = self._roll(events, "surprise_monster", sd, ENCOUNTER, target=sm,
                               result=lambda t: "surprised" if t <= sm else "ready",
                               text=lambda r, t, res_: f"Surprise ({mon.name}): rolled {t}: {res_}.")
            ps, ms = pr == "surprised", mr == "surprised"
            if ps and ms:
                events.append(Event("surprise", {"party": True, "monster": True},
                                    "Both sides are surprised: the surprise cancels out."))
                enc.first_round = False
            else:
                enc.party_surprised, enc.monster_surprised = ps, ms
                if ps or ms:
                    who = "You are" if ps else f"{The(mon.name)} is"
                    events.append(Event("surprise", {"party": ps, "monster": ms}, f"{who} surprised."))
            if ps and ms and enc.out_of_sight:
                events.append(Event("bypass", {"group": g.id},
                                    "Neither side notices the other at this distance."))
                st.mode, st.encounter = "explore", None
                return True
        if self.proc.reaction:
            self._roll_reaction(g, events)
        return False

    def _roll_reaction(self, g: Group, events: list[Event]) -> None:
        band_text: dict[str, str] = {str(b.result): b.label for b in self.content.tables.reaction.bands}
        total, res = self._roll(
            events, "reaction", self.content.tables.reaction.dice, ENCOUNTER,
            result=lambda t: str(_band(self.content.tables.reaction.bands, t).result),
            text=lambda r, t, res_: f"Reaction: rolled {t}: {band_text[res_]}.",
        )
        g.reaction, g.reaction_result = total, res

    def _initiates(self, g: Group, mon: Monster) -> bool:
        return g.risen and not g.peaceful and not any(b in mon.behaviours for b in ("passive", "holds_ground"))

    def _attack_chance(self, g: Group) -> int:
        band = self._reaction_band(g)
        return band.attacks_chance if band is not None else PERCENT

    def _monster_reacts(self, g: Group, events: list[Event]) -> None:
        """The monster acts on its reaction (the party waited, or was surprised)."""
        st = self.state
        mon = self.monster_of(g)
        if not self._initiates(g, mon):
            return
        if self._percent(events, "monster_attacks", self._attack_chance(g), group=g.id):
            events.append(Event("attacks", {"group": g.id}, f"{The(mon.name)} attacks!"))
            self._start_combat(g, events, first="monsters")
            return
        if g.reaction_result in ("peaceful", "friendly"):
            if g.origin == "wandering":
                st.level.groups.remove(g)
                events.append(Event("leaves", {"group": g.id}, f"{The(mon.name)} goes on its way."))
            else:
                g.peaceful = True
                events.append(Event("peaceful", {"group": g.id}, f"{The(mon.name)} leaves you be."))
            st.mode, st.encounter = "explore", None

    def _round_passes(self, events: list[Event]) -> None:
        st = self.state
        self._tick(1)
        enc = st.encounter
        if enc is not None:
            enc.first_round = False
            if enc.out_of_sight:
                g = st.group(enc.group)
                mon = self.monster_of(g)
                enc.distance = max(0, enc.distance - mon.speed)
                enc.out_of_sight = enc.distance > self.rules.encounter.sight_feet
                events.append(Event("approach", {"group": g.id, "distance": enc.distance},
                                    f"{The(mon.name)} comes closer: {enc.distance} ft."
                                    if not enc.out_of_sight else f"Something comes closer: {enc.distance} ft."))

    def _wait(self, a: Wait, events: list[Event]) -> None:
        st = self.state
        assert st.encounter is not None
        g = st.group(st.encounter.group)
        events.append(Event("wait", {}, "You wait."))
        self._round_passes(events)
        if not st.encounter.out_of_sight:
            self._monster_reacts(g, events)

    def _nearest_here(self) -> Group | None:
        """The nearest monster the party can see in its segment."""
        st = self.state
        here = [g for g in self._groups_in(st.segment) if not g.hidden]
        if not here:
            return None
        return min(here, key=lambda gg: (max(abs(gg.pos[0] - st.pos[0]), abs(gg.pos[1] - st.pos[1])), gg.id))

    def _attack_peaceful(self, a: Fight, events: list[Event]) -> None:
        """Break an agreement: attack the nearest monster the party can see in its segment (000 8.6)."""
        st = self.state
        g = self._nearest_here()
        assert g is not None  # _precheck
        st.encounter = Encounter(g.id, entry=self._way_out(), first_round=False)
        st.mode = "encounter"
        if g.peaceful:
            name = self.monster_of(g).name
            events.append(Event("break_peace", {"group": g.id}, f"You break the peace with {the(name)}."))
        self._fight(a, events)

    def _fight(self, a: Fight, events: list[Event]) -> None:
        st = self.state
        assert st.encounter is not None
        g = st.group(st.encounter.group)
        g.peaceful = False
        g.risen = True
        self._start_combat(g, events)

    # --- negotiation and bribery (seed 000) -----------------------------------------------------------------

    def _check_talk(self, g: Group) -> str | None:
        mon = self.monster_of(g)
        if not self.proc.negotiation:
            return "There is no negotiating with anything down here."
        if not self.negotiable(g):
            return f"{The(mon.name)} cannot be negotiated with."
        if g.negotiated:
            return f"You have already tried to talk to {the(mon.name)}."
        return None

    def _check_bribe(self, g: Group) -> str | None:
        mon = self.monster_of(g)
        if not self.proc.bribery:
            return "Bribery is not part of these rules."
        if not self.negotiable(g):
            return f"{The(mon.name)} cannot be bribed."
        if not g.negotiated:
            return "Try talking first: a bribe comes only after a failed negotiation."
        if g.bribe_tried:
            return f"{The(mon.name)} has already been offered a bribe."
        if self.state.gold < self.content.tables.bribery.rows[0].min:
            return f"You have too little gold to offer (at least {self.content.tables.bribery.rows[0].min})."
        return None

    def _talk(self, a: Talk, events: list[Event]) -> None:
        st = self.state
        assert st.encounter is not None
        g = st.group(st.encounter.group)
        mon = self.monster_of(g)
        table = self.content.tables.negotiation[self.rs.negotiation_table]
        reluctance = mon.reluctance if table.use_reluctance else 0
        ability = max((m.negotiation for m in self.living()), default=0) if table.use_ability else 0
        r = roll(self._dice(ENCOUNTER), table.dice)
        total = r.total - reluctance + ability
        result = str(_band(table.bands, total).result)
        g.negotiated = True
        tribute = 0
        if result in ("agreement", "intimidation"):
            g.peaceful = True
            if result == "intimidation":
                tribute = self._fraction(g.treasure, table.tribute)
                g.treasure -= tribute
                st.gold += tribute
        parts = f"{sum(r.faces)}"
        if table.use_reluctance:
            parts += f" - {reluctance} reluctance"
        if table.use_ability:
            parts += f" + {ability} negotiation"
        outcome = {
            "failure": "Failure.",
            "agreement": f"Agreement: {the(mon.name)} will not attack while you do not.",
            "intimidation": f"Intimidation: {the(mon.name)} hands over {tribute} gold as tribute.",
        }[result]
        events.append(Event("negotiate", {
            "group": g.id, "dice": r.dice, "faces": list(r.faces), "reluctance": reluctance, "ability": ability,
            "modifier": ability - reluctance, "total": total, "result": result, "tribute": tribute,
        }, f"Negotiation: {parts} = {total}. {outcome}"))
        if g.peaceful:
            st.mode, st.encounter = "explore", None
        else:
            self._round_passes(events)

    @staticmethod
    def _fraction(amount: int, frac: Any) -> int:
        num = amount * frac.numerator
        if frac.rounding == "down":
            return int(num // frac.denominator)
        if frac.rounding == "up":
            return int(-(-num // frac.denominator))
        return int((2 * num + frac.denominator) // (2 * frac.denominator))

    def bribe_cell(self, g: Group, gold: int) -> tuple[int, int, int] | None:
        """(column, row, digit) of the bribery table for ``gold`` offered to group ``g``; None below its rows."""
        b = self.content.tables.bribery
        mon = self.monster_of(g)
        score = mon.strength + mon.reluctance  # the group is one species: its strongest is any of them
        col = next(i for i, c in enumerate(b.columns)
                   if (c.min is None or score >= c.min) and (c.max is None or score <= c.max))
        row = next((i for i, r in enumerate(b.rows) if gold >= r.min and (r.max is None or gold <= r.max)), None)
        return None if row is None else (col, row, b.cells[row][col])

    def _bribe(self, a: Bribe, events: list[Event]) -> None:
        st = self.state
        assert st.encounter is not None
        g = st.group(st.encounter.group)
        mon = self.monster_of(g)
        b = self.content.tables.bribery
        if a.gold < b.rows[0].min:
            raise Refused(f"Offer at least {b.rows[0].min} gold.")
        if a.gold > st.gold:
            raise Refused(f"You have only {st.gold} gold.")
        cell = self.bribe_cell(g, a.gold)
        assert cell is not None  # the first row's minimum was checked above
        col, row, digit = cell
        g.bribe_tried = True
        st.gold -= a.gold
        g.bribes += a.gold
        r = roll(self._dice(ENCOUNTER), Dice(1, b.die))
        accepted = r.total <= digit
        events.append(Event("bribe", {
            "group": g.id, "gold": a.gold, "column": col, "row": row, "digit": digit, "dice": r.dice,
            "faces": list(r.faces), "total": r.total, "target": digit, "result": "accepted" if accepted else "refused",
        }, f"Bribe of {a.gold} gold: rolled {r.total} vs {digit}: "
           + ("accepted." if accepted else f"refused. {The(mon.name)} keeps the gold and attacks!")))
        if accepted:
            g.peaceful = True
            st.mode, st.encounter = "explore", None
        else:
            self._start_combat(g, events, first="monsters")

    # --- running, evasion and pursuit (seeds 001 and 003) --------------------------------------------------

    def _party_speed(self) -> int:
        return min((m.speed for m in self.living()), default=0)

    def _run_round(self, events: list[Event]) -> bool:
        """Count a round of running; False when the party is too exhausted to run."""
        st = self.state
        if not self.proc.fatigue:
            return True
        fat = self.rules.fatigue
        if st.exhausted:
            return False
        st.running_rounds += 1
        if st.running_rounds >= fat.max_running_rounds:
            st.exhausted = True
            st.rest_rounds = 0
            events.append(Event("exhausted", {"rounds": st.running_rounds},
                                f"You have run {st.running_rounds} rounds: exhausted until you rest "
                                f"{fat.rest_turns} turns (-{fat.to_hit_penalty} to hit, -{fat.damage_penalty} "
                                f"damage, foes +{fat.opponent_bonus})."))
        return True

    def _run(self, a: Run, events: list[Event]) -> None:
        st = self.state
        enc = st.encounter
        gid = st.combat.group if st.combat is not None else (enc.group if enc is not None else -1)
        g = st.group(gid)
        mon = self.monster_of(g)
        entry = enc.entry if enc is not None else st.prev_pos
        self._run_round(events)
        self._tick(1)
        st.combat = None
        pursues = (self.proc.pursuit and mon.pursues) or "submerged" in mon.behaviours
        # Leave through the door the party came in by.
        st.prev_pos, st.pos = st.pos, entry
        st.segment = int(st.level.map.segment_of[entry[1], entry[0]])
        self._see()
        if "kneels" in mon.behaviours:
            g.risen = False
        if not pursues:
            events.append(Event("leave", {"group": g.id, "pursued": False},
                                f"You leave through the door. {The(mon.name)} stays where it is."))
            st.mode, st.encounter = "explore", None
            return
        band = self._reaction_band(g)
        submerged = "submerged" in mon.behaviours
        party_speed, monster_speed = self._party_speed(), mon.speed
        if not submerged and party_speed > monster_speed:
            events.append(Event("evade", {"group": g.id, "reason": "faster"},
                                f"You are faster than {the(mon.name)} ({party_speed} vs {monster_speed} ft): "
                                "you get away."))
            st.mode, st.encounter = "explore", None
            return
        if not submerged and enc is not None and enc.out_of_sight:
            events.append(Event("evade", {"group": g.id, "reason": "out_of_sight"},
                                f"{The(mon.name)} never saw where you went."))
            st.mode, st.encounter = "explore", None
            return
        chance = PERCENT if (band is None or submerged) else band.pursuit
        if not self._percent(events, "pursuit", chance, group=g.id):
            events.append(Event("evade", {"group": g.id, "reason": "no_pursuit"},
                                f"{The(mon.name)} does not follow."))
            st.mode, st.encounter = "explore", None
            return
        distance = enc.distance if (enc is not None and self.proc.distance) else 0
        fights = band.pursuit_fights if band is not None else True
        st.pursuit = Pursuit(g.id, distance, 0, fights)
        st.mode = "pursuit"
        events.append(Event("pursuit", {"group": g.id, "distance": distance},
                            f"{The(mon.name)} comes after you! ({distance} ft behind)"))
        self._pursuit_round(events)

    def _pursuit_round(self, events: list[Event]) -> None:
        st = self.state
        p = st.pursuit
        assert p is not None
        g = st.group(p.group)
        mon = self.monster_of(g)
        enc_rules = self.rules.encounter
        p.rounds += 1
        gain = (mon.speed - self._party_speed()) * enc_rules.running_multiplier
        p.distance -= gain
        if p.distance <= 0:
            if not p.fights:
                events.append(Event("caught", {"group": g.id, "fights": False},
                                    f"{The(mon.name)} catches up, and only wants to be friends."))
                g.peaceful = True
                st.mode, st.pursuit, st.encounter = "explore", None, None
                return
            events.append(Event("caught", {"group": g.id, "fights": True}, f"{The(mon.name)} catches you!"))
            st.pursuit = None
            self._start_combat(g, events)
            return
        if p.distance > enc_rules.sight_feet:
            events.append(Event("escape", {"group": g.id, "distance": p.distance},
                                f"You are out of its sight ({p.distance} ft): {the(mon.name)} gives up."))
            st.mode, st.pursuit, st.encounter = "explore", None, None
            return
        if p.rounds >= enc_rules.pursuit_max_rounds and "submerged" not in mon.behaviours:
            events.append(Event("escape", {"group": g.id, "distance": p.distance},
                                f"{The(mon.name)} gives up the chase."))
            st.mode, st.pursuit, st.encounter = "explore", None, None
            return
        events.append(Event("chase", {"group": g.id, "distance": p.distance, "round": p.rounds},
                            f"{The(mon.name)} is {p.distance} ft behind you."))

    def _pursuit_run(self, a: Run, events: list[Event]) -> None:
        self._run_round(events)  # _precheck (and _after_drop) never run an exhausted party
        self._tick(1)
        self._pursuit_round(events)
        st = self.state
        if st.mode == "pursuit" and st.exhausted:
            p = st.pursuit
            assert p is not None
            g = st.group(p.group)
            events.append(Event("caught", {"group": g.id, "fights": True},
                                "Too exhausted to run on, you turn to fight."))
            st.pursuit = None
            self._start_combat(g, events)

    def _pursuit_fight(self, a: Fight, events: list[Event]) -> None:
        st = self.state
        assert st.pursuit is not None
        g = st.group(st.pursuit.group)
        st.pursuit = None
        self._start_combat(g, events)

    def _current_group(self) -> Group:
        st = self.state
        if st.pursuit is not None:
            return st.group(st.pursuit.group)
        if st.combat is not None:
            return st.group(st.combat.group)
        assert st.encounter is not None
        return st.group(st.encounter.group)

    def _stops(self, g: Group, why: str, events: list[Event]) -> None:
        st = self.state
        mon = self.monster_of(g)
        events.append(Event("distracted", {"group": g.id, "by": why}, f"{The(mon.name)} stops for the {why}."))
        if st.mode == "encounter":
            g.peaceful = True  # busy with it: it lets the party be
        st.mode, st.pursuit, st.encounter = "explore", None, None

    def _drop_food(self, a: DropFood, events: list[Event]) -> None:
        st = self.state
        food = self._item_of("food")
        assert food is not None  # _precheck
        g = self._current_group()
        mon = self.monster_of(g)
        st.items[food] -= 1
        if st.items[food] == 0:
            del st.items[food]
        events.append(Event("drop", {"item": food, "amount": 1}, "You drop food."))
        works = not mon.intelligent and "submerged" not in mon.behaviours
        if works and self._percent(events, "food_distracts", self.content.tables.distractions.food, group=g.id):
            self._stops(g, "food", events)
            return
        if not works:
            events.append(Event("ignored", {"group": g.id}, f"{The(mon.name)} ignores the food."))
        self._after_drop(events)

    def _drop_treasure(self, a: DropTreasure, events: list[Event]) -> None:
        st = self.state
        g = self._current_group()
        mon = self.monster_of(g)
        want, _ = self._roll(events, "treasure_dropped", self.content.tables.distractions.treasure_gold, ENCOUNTER)
        gold = max(1, min(st.gold, want))
        st.gold -= gold
        events.append(Event("drop", {"item": "gold", "amount": gold}, f"You drop {gold} gold."))
        works = mon.intelligent and "submerged" not in mon.behaviours
        if works and self._percent(events, "treasure_distracts", self.content.tables.distractions.treasure,
                                   group=g.id):
            g.treasure += gold
            self._stops(g, "treasure", events)
            return
        st.level.items.setdefault(st.pos, []).append(("gold", gold))
        if not works:
            events.append(Event("ignored", {"group": g.id}, f"{The(mon.name)} ignores the gold."))
        self._after_drop(events)

    def _after_drop(self, events: list[Event]) -> None:
        st = self.state
        if st.mode == "pursuit":
            self._pursuit_run(Run(), events) if not (st.exhausted and self.proc.fatigue) else self._pursuit_round(
                events)
        elif st.mode == "encounter":
            self._round_passes(events)

    def _oil_pursuit(self, a: ThrowOil, events: list[Event]) -> None:
        st = self.state
        oil = self._take_oil()
        p = st.pursuit
        assert p is not None
        g = st.group(p.group)
        mon = self.monster_of(g)
        d = self.content.tables.distractions
        events.append(Event("oil", {"item": oil, "group": g.id}, "You throw burning oil behind you."))
        if not mon.self_preservation:
            events.append(Event("ignored", {"group": g.id}, f"{The(mon.name)} comes on through the flames."))
        elif self._percent(events, "oil_stops", d.oil_stops, group=g.id):
            self._stops(g, "fire", events)
            return
        else:
            slowed = d.oil_slows_rounds * mon.speed * self.rules.encounter.running_multiplier
            p.distance += slowed
            events.append(Event("slowed", {"group": g.id, "feet": slowed},
                                f"{The(mon.name)} balks at the fire and falls {slowed} ft behind."))
        self._after_drop(events)

    def _take_oil(self) -> str:
        st = self.state
        oil = self._item_of("oil")
        assert oil is not None  # _precheck
        st.items[oil] -= 1
        if st.items[oil] == 0:
            del st.items[oil]
        return oil

    # --- combat (seed 001, with the fatigue of seed 003) ---------------------------------------------------

    def _start_combat(self, g: Group, events: list[Event], first: str = "", free_round: str = "") -> None:
        st = self.state
        mon = self.monster_of(g)
        enc = st.encounter
        g.peaceful = False
        g.risen = True
        g.turns = 0
        if enc is not None and enc.first_round and not free_round:
            if enc.party_surprised and not enc.monster_surprised:
                free_round = "monsters"
            elif enc.monster_surprised and not enc.party_surprised:
                free_round = "party"
        if enc is not None:
            enc.first_round = False
        holds = "holds_ground" in mon.behaviours
        if free_round:
            first = free_round
        if not first:
            party_agility = max((m.agility for m in self.living()), default=0)
            first = "party" if (party_agility >= mon.agility or holds) else "monsters"
            events.append(Event("initiative", {"party": party_agility, "monster": mon.agility, "first": first},
                                f"AGILITY {party_agility} vs {mon.agility}: "
                                + ("you act first." if first == "party" else f"{the(mon.name)} acts first.")))
        st.mode = "combat"
        st.pursuit = None
        st.combat = Combat(g.id, 1, first == "party", False, free_round)
        if st.encounter is None:
            st.encounter = Encounter(g.id, entry=st.prev_pos, first_round=False)
        free = {"party": " Free round: yours.", "monsters": " Free round: theirs.", "": ""}[free_round]
        events.append(Event("combat", {"group": g.id, "first": first, "free_round": free_round}, f"Fight!{free}"))
        if first == "monsters":
            self._monsters_turn(g, events)

    def _attack(self, a: Attack, events: list[Event]) -> None:
        st = self.state
        c = st.combat
        assert c is not None
        g = st.group(c.group)
        if not 0 <= a.target < len(g.hp) or g.hp[a.target] <= 0:
            raise Refused("Choose a living target.")
        for i, m in enumerate(st.party):
            if not m.alive or g.defeated:
                continue
            target = a.target if g.hp[a.target] > 0 else g.alive[0]
            self._member_attack(i, g, target, events)
        self._after_party_turn(g, events, attacked=True)

    def _member_attack(self, i: int, g: Group, target: int, events: list[Event]) -> None:
        st = self.state
        m = st.party[i]
        mon = self.monster_of(g)
        cr, fat = self.rules.combat, self.rules.fatigue
        tired = st.exhausted and self.proc.fatigue
        mod = m.might - (fat.to_hit_penalty if tired else 0)
        n = roll(self._dice(COMBAT), Dice(1, cr.attack_die)).total
        total = n + mod
        crit = n == cr.critical
        hit = n != cr.always_miss and (crit or total >= mon.defense)
        damage = 0
        if hit:
            damage = m.might + m.weapon - (fat.damage_penalty if tired else 0)
            if crit:
                damage *= cr.critical_multiplier
            damage = max(fat.minimum_damage, damage)
            g.hp[target] = max(0, g.hp[target] - damage)
        who = self.party_name(m)
        name = self.creature_name(g, target)
        if hit:
            text = f"{who} hit{'s' if who != 'You' else ''}. {damage} damage. {name} at {g.hp[target]}."
            if crit:
                text = f"{who} hit{'s' if who != 'You' else ''} hard (natural {n}). {damage} damage. " \
                       f"{name} at {g.hp[target]}."
        else:
            text = f"{who} miss{'es' if who != 'You' else ''}."
        roll_text = f"{who} roll{'s' if who != 'You' else ''} {n} {'+' if mod >= 0 else '-'} {abs(mod)} = {total} " \
                    f"vs defense {mon.defense}."
        events.append(Event("attack", {
            "attacker": m.template, "attacker_side": "party", "member": i, "target": g.monster,
            "target_index": target, "group": g.id, "dice": f"1d{cr.attack_die}", "natural": n, "modifier": mod,
            "total": total, "defense": mon.defense, "hit": hit, "critical": hit and crit, "damage": damage,
            "target_hp_after": g.hp[target], "roll_text": roll_text,
        }, text))
        if g.hp[target] <= 0 and hit:
            events.append(Event("kill", {"group": g.id, "index": target, "monster": g.monster},
                                f"{name} is dead."))

    def _oil_combat(self, a: ThrowOil, events: list[Event]) -> None:
        st = self.state
        c = st.combat
        assert c is not None
        g = st.group(c.group)
        if not 0 <= a.target < len(g.hp) or g.hp[a.target] <= 0:
            raise Refused("Choose a living target.")
        oil = self._take_oil()
        dmg_dice = self.content.items[oil].oil_damage
        assert dmg_dice is not None
        dmg, _ = self._roll(events, "oil_damage", dmg_dice, COMBAT)
        dmg = max(self.rules.fatigue.minimum_damage, dmg)
        g.hp[a.target] = max(0, g.hp[a.target] - dmg)
        name = self.creature_name(g, a.target)
        events.append(Event("oil", {"item": oil, "group": g.id, "target_index": a.target, "damage": dmg,
                                    "target_hp_after": g.hp[a.target]},
                            f"Burning oil. {dmg} damage. {name} at {g.hp[a.target]}."))
        if g.hp[a.target] <= 0:
            events.append(Event("kill", {"group": g.id, "index": a.target, "monster": g.monster}, f"{name} is dead."))
        self._after_party_turn(g, events, attacked=True)

    def _combat_wait(self, a: Wait, events: list[Event]) -> None:
        st = self.state
        c = st.combat
        assert c is not None
        events.append(Event("wait", {}, "You hold back."))
        self._after_party_turn(st.group(c.group), events, attacked=False)

    def _after_party_turn(self, g: Group, events: list[Event], *, attacked: bool) -> None:
        st = self.state
        c = st.combat
        assert c is not None
        c.party_attacked = attacked
        if g.defeated:
            self._victory(g, events)
            return
        c.party_turn = False
        if c.free_round == "party" and c.round == 1:
            events.append(Event("surprised_skip", {"group": g.id},
                                f"{The(self.monster_of(g).name)} is surprised and does not act."))
            self._end_round(g, events)
            return
        self._monsters_turn(g, events)

    def _monsters_turn(self, g: Group, events: list[Event]) -> None:
        st = self.state
        c = st.combat
        assert c is not None
        mon = self.monster_of(g)
        kneel_back = "kneels" in mon.behaviours and c.round > 1 and not c.party_attacked
        first_turn_of_fight = g.turns == 0 and c.round == 1
        if kneel_back and not first_turn_of_fight:
            g.risen = False
            events.append(Event("idle", {"group": g.id},
                                f"Left alone, {the(mon.name)} kneels again."))
            st.combat = None
            st.mode = "encounter"
            return
        acts = g.turns % mon.acts_every == 0
        if "holds_ground" in mon.behaviours and not c.party_attacked:
            acts = False
            events.append(Event("holds", {"group": g.id}, f"{The(mon.name)} waits."))
        elif not acts:
            events.append(Event("slow", {"group": g.id}, f"{The(mon.name)} is slow to move."))
        if acts:
            for i in g.alive:
                self._monster_attack(g, i, events)
                if not self.living():
                    self._die(mon.name, events)
                    return
        self._end_round(g, events)

    def _end_round(self, g: Group, events: list[Event]) -> None:
        st = self.state
        c = st.combat
        assert c is not None
        mon = self.monster_of(g)
        g.turns += 1
        if mon.regenerate:
            healed = []
            for i in g.alive:
                before = g.hp[i]
                g.hp[i] = min(g.max_hp, g.hp[i] + mon.regenerate)
                if g.hp[i] > before:
                    healed.append(i)
            for i in healed:
                events.append(Event("regenerate", {"group": g.id, "index": i, "hp": g.hp[i]},
                                    f"{self.creature_name(g, i)} closes up. {self.creature_name(g, i)} at {g.hp[i]}."))
        self._tick(1)
        c.round += 1
        c.party_turn = True
        c.party_attacked = False

    def _monster_attack(self, g: Group, i: int, events: list[Event]) -> None:
        st = self.state
        mon = self.monster_of(g)
        cr, fat = self.rules.combat, self.rules.fatigue
        targets = [j for j, m in enumerate(st.party) if m.alive]
        if cr.monster_targeting == "lowest_hp":
            tj = min(targets, key=lambda j: (st.party[j].hp, j))
        elif cr.monster_targeting == "first":
            tj = targets[0]
        else:
            tj = targets[self._dice(COMBAT).die(len(targets)) - 1]
        m = st.party[tj]
        mod = mon.attack + (fat.opponent_bonus if st.exhausted and self.proc.fatigue else 0)
        n = roll(self._dice(COMBAT), Dice(1, cr.attack_die)).total
        total = n + mod
        crit = n == cr.critical
        hit = n != cr.always_miss and (crit or total >= m.defense)
        damage = 0
        if hit:
            damage = mon.damage * (cr.critical_multiplier if crit else 1)
            damage = max(fat.minimum_damage, damage)
            m.hp = max(0, m.hp - damage)
        name = self.creature_name(g, i)
        solo = len(st.party) == 1
        if hit:
            hp = f"HP {m.hp}/{m.max_hp}." if solo else f"{m.name} HP {m.hp}/{m.max_hp}."
            text = f"{name} hits{'' if solo else ' ' + m.name}. {damage} damage. {hp}"
        else:
            text = f"{name} misses."
        events.append(Event("attack", {
            "attacker": g.monster, "attacker_side": "monsters", "attacker_index": i, "group": g.id,
            "target": m.template, "member": tj, "dice": f"1d{cr.attack_die}", "natural": n, "modifier": mod,
            "total": total, "defense": m.defense, "hit": hit, "critical": hit and crit, "damage": damage,
            "target_hp_after": m.hp,
            "roll_text": f"{name} rolls {n} {'+' if mod >= 0 else '-'} {abs(mod)} = {total} vs defense {m.defense}.",
        }, text))

    def _victory(self, g: Group, events: list[Event]) -> None:
        st = self.state
        mon = self.monster_of(g)
        gold = g.treasure + g.bribes
        living = [i for i, m in enumerate(st.party) if m.alive]
        share, rest = divmod(gold, len(living))
        shares = {st.party[i].template: share + (1 if k < rest else 0) for k, i in enumerate(living)}
        st.gold += gold
        g.treasure = g.bribes = 0
        st.kills += len(g.hp)
        st.level.groups.remove(g)
        st.mode, st.combat, st.encounter, st.pursuit = "explore", None, None, None
        text = f"{The(mon.name)} is defeated." + (f" You take {gold} gold." if gold else "")
        if len(living) > 1 and gold:
            text += " Shares: " + ", ".join(f"{st.party[i].name} {shares[st.party[i].template]}" for i in living) + "."
        events.append(Event("victory", {"group": g.id, "monster": g.monster, "gold": gold, "shares": shares}, text))
        if self.rs.levels[st.depth].final and not any(gg.origin == "guardian" for gg in st.level.groups):
            st.mode = "won"
            events.append(Event("won", {"turn": st.turn + 1, "depth": st.depth, "seed": st.seed, "how": "slew"},
                                "The last of the things at the end is down. You have won."))

    def _die(self, cause: str, events: list[Event]) -> None:
        st = self.state
        st.mode = "dead"
        st.combat = st.encounter = st.pursuit = None
        st.death = {"cause": cause, "turn": st.turn + 1, "depth": st.depth, "seed": st.seed}
        events.append(Event("death", dict(st.death),
                            f"You are dead. Killed by {the(cause)} on turn {st.turn + 1}, level {st.depth + 1}. "
                            f"Seed {st.seed}."))
