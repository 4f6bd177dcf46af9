"""The validated rules data as one frozen object, plus the cross-file checks."""

from __future__ import annotations

import contextlib
import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, cast

from pydantic import TypeAdapter, ValidationError

from undercroft.content import schema
from undercroft.content.loader import FILES, Collector, DataError, Loc, data_digest, parse_yaml, validate_file
from undercroft.notation import Dice, DiceError

GRID = 6


@dataclass(frozen=True, slots=True)
class EncounterCell:
    monster: str
    number: Dice | None  # None: use the monster's own number appearing


@dataclass(frozen=True)
class Content:
    """Everything in ``data/``, validated. Read-only."""

    monsters: Mapping[str, schema.Monster]
    items: Mapping[str, schema.Item]
    party: Mapping[str, schema.Character]
    tables: schema.TablesFile
    rules: schema.RulesFile
    encounters: Mapping[str, tuple[tuple[EncounterCell, ...], ...]]
    dungeon: Mapping[str, schema.MapGen]
    rulesets: Mapping[str, schema.Ruleset]
    digest: str
    directory: str

    def ruleset(self, name: str) -> schema.Ruleset:
        try:
            return self.rulesets[name]
        except KeyError:
            raise KeyError(unknown_message("ruleset", name, self.rulesets)) from None

    def monster(self, monster_id: str) -> schema.Monster:
        try:
            return self.monsters[monster_id]
        except KeyError:
            raise KeyError(unknown_message("monster", monster_id, self.monsters)) from None

    def check_rules(self, ruleset: schema.Ruleset) -> schema.CheckRules:
        return ruleset.check or self.rules.check


def nearest(name: str, choices: Sequence[str] | Mapping[str, Any]) -> str | None:
    got = difflib.get_close_matches(name, list(choices), n=1, cutoff=0.5)
    return got[0] if got else None


def unknown_message(kind: str, name: str, choices: Sequence[str] | Mapping[str, Any]) -> str:
    near = nearest(name, choices)
    hint = f"; did you mean '{near}'?" if near else ""
    return f"unknown {kind} '{name}'{hint}"


# --- cross checks --------------------------------------------------------------------------------------------


def _check_bands(
    col: Collector,
    fname: str,
    loc: Loc,
    bands: Sequence[schema.Band],
    lo: int | None,
    hi: int | None,
    what: str,
) -> None:
    """Bands must run in order with no gap and no overlap, covering lo..hi (None: open-ended)."""
    if not bands:
        col.add(fname, loc, f"{what} has no bands")
        return
    expect = lo
    for i, b in enumerate(bands):
        here = (*loc, i)
        if b.min is not None and b.max is not None and b.min > b.max:
            col.add(fname, here, f"band min {b.min} is greater than max {b.max}")
            return
        if i == 0:
            if lo is None and b.min is not None:
                col.add(fname, here, f"first band must leave out 'min' (open-ended below), has min {b.min}")
            elif lo is not None and b.min != lo:
                col.add(fname, here, f"{what} must start at {lo}, starts at {b.min}")
        else:
            if b.min is None:
                col.add(fname, here, "band is missing 'min'")
                return
            assert expect is not None
            if b.min > expect:
                col.add(fname, here, f"gap: {expect}..{b.min - 1} is in no band")
            elif b.min < expect:
                col.add(fname, here, f"overlap: {b.min}..{expect - 1} is already in an earlier band")
        if b.max is None:
            if i != len(bands) - 1:
                col.add(fname, here, "only the last band may leave out 'max'")
                return
            if hi is not None:
                col.add(fname, here, f"last band must end at {hi}")
            return
        expect = b.max + 1
    if hi is None:
        col.add(fname, (*loc, len(bands) - 1), "last band must leave out 'max' (open-ended above)")
    elif expect is not None and expect - 1 != hi:
        col.add(fname, (*loc, len(bands) - 1), f"{what} must end at {hi}, ends at {expect - 1}")


def _dice_range(text: str) -> tuple[int, int]:
    d = Dice.parse(text)
    return d.minimum, d.maximum


def _parse_cell(text: str) -> tuple[str, Dice | None]:
    parts = text.split()
    if len(parts) == 1:
        return parts[0], None
    if len(parts) == 2:
        if len(parts[1]) > schema.MAX_DICE_CHARS:
            raise DiceError(f"cell '{text[:20]}...': dice expression longer than {schema.MAX_DICE_CHARS} characters")
        d = Dice.parse(parts[1])
        if d.maximum > schema.MAX_GROUP:
            raise DiceError(f"number appearing '{parts[1]}' can roll {d.maximum}, more than {schema.MAX_GROUP}")
        if d.minimum < 1:
            raise DiceError(f"number appearing '{parts[1]}' can roll {d.minimum}, less than 1")
        return parts[0], d
    raise DiceError(f"cell '{text}' must be 'monster_id' or 'monster_id NdM'")


def _check_tables(
    col: Collector,
    reaction: schema.ReactionTable | None,
    negotiation: Mapping[str, schema.NegotiationTable],
    bribery: schema.BriberyTable | None,
) -> None:
    """Band and grid checks of tables.yaml; a part that failed field validation is None (or left out)."""
    f = "tables.yaml"
    if reaction is not None:
        lo, hi = _dice_range(reaction.dice)
        _check_bands(col, f, ("reaction", "bands"), reaction.bands, lo, hi, "the reaction table")
    for tid, neg in negotiation.items():
        _check_bands(col, f, ("negotiation", tid, "bands"), neg.bands, None, None, "the negotiation table")
    if bribery is None:
        return
    b = bribery
    _check_bands(col, f, ("bribery", "columns"), b.columns, 0, None, "the bribery columns")
    rows = cast(Sequence[schema.Band], b.rows)
    _check_bands(col, f, ("bribery", "rows"), rows, rows[0].min if rows else 1, None, "the bribery rows")
    if len(b.cells) != len(b.rows):
        col.add(f, ("bribery", "cells"), f"has {len(b.cells)} rows of cells, the table has {len(b.rows)} rows")
    for i, row in enumerate(b.cells):
        if len(row) != len(b.columns):
            col.add(f, ("bribery", "cells", i), f"has {len(row)} cells, the table has {len(b.columns)} columns")


def _check_rules(col: Collector, rules: schema.RulesFile, rulesets: Mapping[str, schema.Ruleset] | None) -> None:
    """Numbers in rules.yaml that must agree with each other."""
    f = "rules.yaml"
    c = rules.combat
    for key in ("always_miss", "critical"):
        if getattr(c, key) > c.attack_die:
            col.add(f, ("combat", key), f"face {getattr(c, key)} is not on a d{c.attack_die}")
    if c.always_miss == c.critical:
        col.add(f, ("combat", "critical"), "the critical face cannot also be the always-miss face")
    e = rules.encounter
    if e.surprised_max >= e.surprise_die:
        col.add(f, ("encounter", "surprised_max"), f"{e.surprised_max} on a d{e.surprise_die} would always surprise")
    checks: list[tuple[str, Loc, schema.CheckRules]] = [(f, ("check",), rules.check)]
    for rid, rs in (rulesets or {}).items():
        if rs.check is not None:
            checks.append(("rulesets.yaml", (rid, "check"), rs.check))
    for fname, loc, chk in checks:
        for key in ("resident_max", "wandering_max"):
            if getattr(chk, key) > chk.die:
                col.add(fname, (*loc, key), f"{getattr(chk, key)} is more than a d{chk.die} can roll")


def _check_grids(
    col: Collector, raw: Mapping[str, schema.EncounterTable], monsters: Mapping[str, Any]
) -> dict[str, tuple[tuple[EncounterCell, ...], ...]]:
    f = "encounters.yaml"
    out: dict[str, tuple[tuple[EncounterCell, ...], ...]] = {}
    for tid, table in raw.items():
        ok = True
        if len(table.rows) != GRID:
            col.add(f, (tid, "rows"), f"a table needs {GRID} rows (first 1d6), has {len(table.rows)}")
            ok = False
        grid: list[tuple[EncounterCell, ...]] = []
        for r, row in enumerate(table.rows):
            if len(row) != GRID:
                col.add(f, (tid, "rows", r), f"row {r + 1} needs {GRID} cells (second 1d6), has {len(row)}")
                ok = False
            cells: list[EncounterCell] = []
            for c, text in enumerate(row):
                try:
                    mid, dice = _parse_cell(text)
                except DiceError as exc:
                    col.add(f, (tid, "rows", r, c), str(exc))
                    ok = False
                    continue
                if mid not in monsters:
                    col.add(f, (tid, "rows", r, c), unknown_message("monster", mid, monsters))
                    ok = False
                    continue
                if _is_unique(monsters[mid]):
                    col.add(f, (tid, "rows", r, c), f"'{mid}' is unique: a level's `unique` places it, no table")
                cells.append(EncounterCell(mid, dice))
            grid.append(tuple(cells))
        if ok:
            out[tid] = tuple(grid)
    return out


def _check_refs(
    col: Collector,
    known: Mapping[str, Mapping[str, Any] | None],
    items: Mapping[str, schema.Item],
    party: Mapping[str, schema.Character],
    dungeon: Mapping[str, schema.MapGen],
    rulesets: Mapping[str, schema.Ruleset],
) -> None:
    """Names that point into other files. ``known`` holds the ids each file declares (None: the file could not be
    read, so names into it are not checked); the other arguments hold the entries that passed field validation."""
    item_ids = known["items"]
    for cid, ch in party.items():
        if item_ids is not None and ch.weapon not in item_ids:
            col.add("party.yaml", (cid, "weapon"), unknown_message("item", ch.weapon, item_ids))
        elif ch.weapon in items and items[ch.weapon].kind != "weapon":
            col.add("party.yaml", (cid, "weapon"), f"item '{ch.weapon}' is not a weapon")
    for iid, it in items.items():
        _check_item(col, iid, it)
    for gid, g in dungeon.items():
        if g.rooms_min > g.rooms_max:
            col.add("dungeon.yaml", (gid, "rooms_min"), "rooms_min is greater than rooms_max")
        if g.room_size_min > g.room_size_max:
            col.add("dungeon.yaml", (gid, "room_size_min"), "room_size_min is greater than room_size_max")
    for rid, rs in rulesets.items():
        _check_ruleset_refs(col, known, rid, rs)
        for iid in rs.start_items:
            if iid in items and items[iid].kind == "gold":
                col.add(
                    "rulesets.yaml", (rid, "start_items", iid), "gold is not carried: give it as start_gold", key=True
                )


#: What each kind of item needs to do anything (a field that must be set, and the sentence when it is not).
_ITEM_NEEDS: dict[str, tuple[tuple[str, str], ...]] = {
    "oil": (("oil_damage", "oil needs 'oil_damage'"),),
    "armour": (("defense", "armour needs 'defense'"),),
    "treasure": (("value", "treasure needs 'value'"),),
    "tool": (("effect", "a tool needs 'effect'"), ("bonus", "a tool needs 'bonus'")),
}


def _check_item(col: Collector, iid: str, it: schema.Item) -> None:
    """An item has what its kind needs: a potion heals or has an effect that lasts, oil burns, armour defends..."""
    if it.kind == "potion" and it.heal is None and it.effect is None:
        col.add("items.yaml", (iid,), "a potion needs 'heal' or 'effect'")
    if it.kind == "potion" and it.effect == "vigour":
        if it.bonus == 0 or it.rounds != 0:
            col.add("items.yaml", (iid,), "a 'vigour' potion needs 'bonus' and no 'rounds' (it is for good)")
    elif it.kind == "potion" and it.effect is not None and (it.rounds == 0 or it.bonus == 0):
        col.add("items.yaml", (iid,), "a potion's 'effect' needs 'bonus' and 'rounds'")
    if it.kind == "tool" and it.effect == "vigour":
        col.add("items.yaml", (iid, "effect"), "'vigour' is a potion's effect, not a tool's")
    for name, message in _ITEM_NEEDS.get(it.kind, ()):
        if not getattr(it, name):
            col.add("items.yaml", (iid,), message)


def _check_stock(
    col: Collector, shop: schema.ShopRules, item_ids: Mapping[str, Any], items: Mapping[str, schema.Item]
) -> None:
    """The merchant's stock names items that have a price, each on a floor at most once."""
    for si, st in enumerate(shop.stock):
        twice = next(
            (
                j
                for j, o in enumerate(shop.stock[:si])
                if o.item == st.item and o.from_floor <= st.to_floor and st.from_floor <= o.to_floor
            ),
            None,
        )
        if twice is not None:
            col.add(
                "rules.yaml",
                ("shop", "stock", si, "item"),
                f"'{st.item}' is stocked twice on a floor (see entry {twice})",
            )
        if st.item not in item_ids:
            col.add("rules.yaml", ("shop", "stock", si, "item"), unknown_message("item", st.item, item_ids))
        elif st.item in items and items[st.item].price is None:
            col.add("rules.yaml", ("shop", "stock", si, "item"), f"item '{st.item}' has no 'price'")


def _check_spoils(col: Collector, monsters: Mapping[str, schema.Monster], item_ids: Mapping[str, Any]) -> None:
    """A named creature's prize names items, and not gold (gold is its ``treasure``)."""
    for mid, mon in monsters.items():
        for si, item in enumerate(mon.spoils):
            if item not in item_ids or item == "gold":
                why = "gold is its treasure, not spoils" if item == "gold" else unknown_message("item", item, item_ids)
                col.add("monsters.yaml", (mid, "spoils", si), why)


def _check_ruleset_refs(
    col: Collector, known: Mapping[str, Mapping[str, Any] | None], rid: str, rs: schema.Ruleset
) -> None:
    """The names one ruleset points at: its party, table, starting items, the unnegotiable and every level's."""
    f = "rulesets.yaml"
    item_ids, party_ids, tables = known["items"], known["party"], known["negotiation"]
    monsters = known["monsters"]
    if party_ids is not None:
        for i, cid in enumerate(rs.party):
            if cid not in party_ids:
                col.add(f, (rid, "party", i), unknown_message("character", cid, party_ids))
    if tables is not None and rs.negotiation_table not in tables:
        col.add(f, (rid, "negotiation_table"), unknown_message("table", rs.negotiation_table, tables))
    if item_ids is not None:
        for iid in rs.start_items:
            if iid not in item_ids:
                col.add(f, (rid, "start_items", iid), unknown_message("item", iid, item_ids), key=True)
    if monsters is not None and rs.unnegotiable is not None:
        for ui, mid in enumerate(rs.unnegotiable):
            if mid not in monsters:
                col.add(f, (rid, "unnegotiable", ui), unknown_message("monster", mid, monsters))
    for li, lv in enumerate(rs.levels):
        _check_level_refs(col, known, (rid, "levels", li), lv)
        if lv.unique is not None and any(o.unique == lv.unique for o in rs.levels[:li]):
            col.add(f, (rid, "levels", li, "unique"), f"'{lv.unique}' is already the unique of an earlier level")
    if not rs.levels[-1].final:
        col.add(f, (rid, "levels", len(rs.levels) - 1), "the last level must be the final level (final: true)")


def _check_level_refs(
    col: Collector, known: Mapping[str, Mapping[str, Any] | None], at: tuple[str, str, int], lv: schema.Level
) -> None:
    """The names one level of a ruleset points at: its map profile, tables, items and guardians."""
    f = "rulesets.yaml"
    item_ids, maps, encounters, monsters = known["items"], known["dungeon"], known["encounters"], known["monsters"]
    if maps is not None and lv.mapgen not in maps:
        col.add(f, (*at, "mapgen"), unknown_message("map profile", lv.mapgen, maps))
    if encounters is not None:
        for key in ("resident", "wandering"):
            tid = getattr(lv, key)
            if tid not in encounters:
                col.add(f, (*at, key), unknown_message("encounter table", tid, encounters))
    if lv.out_of_depth is not None:
        _check_out_of_depth(col, encounters, at, lv.out_of_depth)
    if item_ids is not None:
        for ii, fi in enumerate(lv.items):
            if fi.item not in item_ids:
                col.add(f, (*at, "items", ii, "item"), unknown_message("item", fi.item, item_ids))
    if monsters is not None:
        for gi, mid in enumerate(lv.guardians):
            if mid not in monsters:
                col.add(f, (*at, "guardians", gi), unknown_message("monster", mid, monsters))
        if lv.unique is not None and lv.unique not in monsters:
            col.add(f, (*at, "unique"), unknown_message("monster", lv.unique, monsters))
        elif lv.unique is not None and not _is_unique(monsters[lv.unique]):
            col.add(f, (*at, "unique"), f"monster '{lv.unique}' is not unique (it needs `unique: true`)")
    if lv.final and not lv.guardians:
        col.add(f, at, "a final level needs 'guardians'")


def _check_out_of_depth(
    col: Collector, encounters: Mapping[str, Any] | None, at: tuple[str, str, int], ood: schema.OutOfDepth
) -> None:
    """A level's ``out_of_depth``: tables that exist, and faces its die has."""
    f = "rulesets.yaml"
    for key in ("table", "wandering"):
        tid = getattr(ood, key)
        if encounters is not None and tid is not None and tid not in encounters:
            col.add(f, (*at, "out_of_depth", key), unknown_message("encounter table", tid, encounters))
    for key in ("max", "resting"):
        most = getattr(ood, key)
        if most is not None and most > ood.die:
            col.add(f, (*at, "out_of_depth", key), f"{most} is more than the {ood.die} faces of its die")


def _good_entries(model: Any, value: Any) -> dict[str, Any]:
    """The entries of a ``dict[Id, X]`` value that pass field validation on their own.

    When a file has a field error, its cross-checks still run on its other entries, so one run reports a bad
    field beside a band gap or a misspelt name elsewhere in the same file.
    """
    out: dict[str, Any] = {}
    if isinstance(value, dict):
        adapter: TypeAdapter[Any] = TypeAdapter(model)
        for k, v in value.items():
            with contextlib.suppress(ValidationError):
                out.update(adapter.validate_python({k: v}))
    return out


def _good(model: Any, value: Any) -> Any:
    try:
        return TypeAdapter(model).validate_python(value)
    except ValidationError:
        return None


def load_content(directory: str | Path, *, display_root: str | Path | None = None) -> Content:
    """Load and validate ``directory``; raise :class:`DataError` listing every problem."""
    d = Path(directory)
    col = Collector()
    shown = Path(display_root) if display_root is not None else d
    if not d.is_dir():
        raise DataError([_file_problem(str(d), "data directory not found")])
    typed: dict[str, Any] = {}
    for fname, model in FILES.items():
        pf = parse_yaml(d / fname, str(shown / fname), col)
        if pf is None:
            typed[fname] = None
            continue
        col.files[fname] = pf
        typed[fname] = validate_file(pf, model, fname, col)
    monsters = typed["monsters.yaml"]
    tables = typed["tables.yaml"]
    # Cross-checks run on every entry that passed field validation, even when other entries of its file did not.
    good: dict[str, Any] = {}
    for fname in ("encounters.yaml", "items.yaml", "party.yaml", "dungeon.yaml", "rulesets.yaml"):
        if typed[fname] is not None:
            good[fname] = typed[fname]
        else:
            pf = col.files.get(fname)
            good[fname] = _good_entries(FILES[fname], pf.value) if pf is not None else {}
    if tables is not None:
        _check_tables(col, tables.reaction, tables.negotiation, tables.bribery)
    elif "tables.yaml" in col.files:
        raw = col.files["tables.yaml"].value
        raw = raw if isinstance(raw, dict) else {}
        _check_tables(
            col,
            _good(schema.ReactionTable, raw.get("reaction")),
            _good_entries(dict[schema.Id, schema.NegotiationTable], raw.get("negotiation")),
            _good(schema.BriberyTable, raw.get("bribery")),
        )
    if typed["rules.yaml"] is not None:
        _check_rules(col, typed["rules.yaml"], typed["rulesets.yaml"])
    grids: dict[str, tuple[tuple[EncounterCell, ...], ...]] = {}
    # Names are checked against the ids a file declares even when that file has other problems, so one run
    # reports a misspelt monster in a table beside a bad field in monsters.yaml.
    known: dict[str, Mapping[str, Any] | None] = {
        f.removesuffix(".yaml"): _declared_ids(col, f)
        for f in ("monsters.yaml", "items.yaml", "party.yaml", "dungeon.yaml", "encounters.yaml")
    }
    known["negotiation"] = _declared_negotiation(col)
    if known["monsters"] is not None:
        grids = _check_grids(col, good["encounters.yaml"], known["monsters"])
    _check_refs(col, known, good["items.yaml"], good["party.yaml"], good["dungeon.yaml"], good["rulesets.yaml"])
    if monsters is not None:
        _check_glyphs(col, monsters, grids, good["rulesets.yaml"])
    if typed["rules.yaml"] is not None and known["items"] is not None:
        _check_stock(col, typed["rules.yaml"].shop, known["items"], good["items.yaml"])
    if monsters is not None and known["items"] is not None:
        _check_spoils(col, monsters, known["items"])
    if col.problems:
        raise DataError(col.problems)
    return Content(
        monsters=MappingProxyType(dict(monsters)),
        items=MappingProxyType(dict(typed["items.yaml"])),
        party=MappingProxyType(dict(typed["party.yaml"])),
        tables=tables,
        rules=typed["rules.yaml"],
        encounters=MappingProxyType(grids),
        dungeon=MappingProxyType(dict(typed["dungeon.yaml"])),
        rulesets=MappingProxyType(dict(typed["rulesets.yaml"])),
        digest=data_digest(d),
        directory=str(d),
    )


def ruleset_monsters(rs: schema.Ruleset, grids: Mapping[str, tuple[tuple[EncounterCell, ...], ...]]) -> set[str]:
    """Every monster a ruleset can put in front of the party: its levels' encounter tables, guardians and
    uniques."""
    out: set[str] = set()
    for lv in rs.levels:
        ood = lv.out_of_depth
        deeper = () if ood is None else tuple(t for t in (ood.table, ood.wandering) if t is not None)
        for table in (lv.resident, lv.wandering, *deeper):
            out.update(cell.monster for row in grids.get(table, ()) for cell in row)
        out.update(lv.guardians)
        if lv.unique is not None:
            out.add(lv.unique)
    return out


def _check_glyphs(
    col: Collector,
    monsters: Mapping[str, schema.Monster],
    grids: Mapping[str, tuple[tuple[EncounterCell, ...], ...]],
    rulesets: Mapping[str, schema.Ruleset],
) -> None:
    """No two monsters of one ruleset share a glyph: a letter on the map names one kind of creature."""
    said: set[tuple[str, str]] = set()
    for rid, rs in rulesets.items():
        first: dict[str, str] = {}
        for mid in sorted(ruleset_monsters(rs, grids)):
            if mid not in monsters:
                continue
            glyph = monsters[mid].glyph
            other = first.setdefault(glyph, mid)
            if other != mid and (other, mid) not in said:
                said.add((other, mid))
                col.add(
                    "monsters.yaml",
                    (mid, "glyph"),
                    f"glyph '{glyph}' is also the glyph of '{other}', and ruleset '{rid}' has both: "
                    "each creature of a ruleset needs a letter of its own",
                )


def _is_unique(raw: Any) -> bool:
    """Whether a monster's entry, as declared, says ``unique: true``."""
    return isinstance(raw, dict) and raw.get("unique") is True


def _declared_ids(col: Collector, fname: str) -> dict[str, Any] | None:
    pf = col.files.get(fname)
    if pf is None or not isinstance(pf.value, dict):
        return None
    return {str(k): v for k, v in pf.value.items()}


def _declared_negotiation(col: Collector) -> dict[str, Any] | None:
    tables = _declared_ids(col, "tables.yaml")
    neg = tables.get("negotiation") if tables is not None else None
    return {str(k): v for k, v in neg.items()} if isinstance(neg, dict) else None


def _file_problem(path: str, message: str) -> Any:
    from undercroft.content.loader import Problem

    return Problem(path, 0, 0, "", message)
