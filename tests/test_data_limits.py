"""Data that validates must play: the shipped data pushed to the limits of the schema, then a short bot game.

Each case rewrites a copy of ``data/`` with every number (and dice expression) of one kind at its bound (the bounds
are in docs/DATA.md, "Bounds"), checks that it validates, and plays a short headless bot game of every ruleset on
it: no exception, no crash outcome, within a time limit. A bound that let a game hang or crash would fail here.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from undercroft.content import load_content
from undercroft.content import schema as s
from undercroft.tools.autoplay import play_game

Data = dict[str, Any]
ACTIONS = 60  # accepted actions per game (15 against crowds: the bot's fight odds are slow against 30 monsters)
SECONDS_PER_CASE = 90.0  # generous: a case takes seconds; a hang would take forever


def load(directory: Path) -> Data:
    return {p.name: yaml.safe_load(p.read_text(encoding="utf-8")) for p in sorted(directory.glob("*.yaml"))}


def save(data: Data, directory: Path) -> None:
    for name, value in data.items():
        (directory / name).write_text(yaml.safe_dump(value, sort_keys=False, allow_unicode=True), encoding="utf-8")


def _high_thing(it: dict[str, Any]) -> None:
    """Ours: the things' numbers at the top of their ranges (prices at the bottom: all for sale)."""
    top = {
        "weapon": {"damage": 99, "to_hit": 10},
        "armour": {"defense": 20, "speed_penalty": 0},
        "treasure": {"value": s.MAX_GOLD},
    }
    it.update(top.get(it["kind"], {}))
    if it.get("effect") == "vigour":  # (for good: no rounds)
        it.update(bonus=99, limit=999)
    elif "effect" in it:
        it.update(bonus=99, rounds=1000 if it["kind"] == "potion" else 0)
    if "price" in it:
        it["price"] = 1


def highs(d: Data) -> None:
    """Every number at the top of its range."""
    for m in d["monsters.yaml"].values():
        m.update(
            hp=999,
            defense=40,
            attack=30,
            damage=99,
            agility=20,
            strength=20,
            reluctance=20,
            speed=480,
            number=str(s.MAX_GROUP),
            treasure="100d1000",
            acts_every=10,
            regenerate=99,
        )
    for it in d["items.yaml"].values():
        if it["kind"] == "potion":
            it["heal"] = str(s.MAX_HP)
        if it["kind"] == "oil":
            it["oil_damage"] = "1d999"
        _high_thing(it)
    for c in d["party.yaml"].values():
        c.update(hp=999, might=30, agility=20, defense=40, negotiation=10, speed=480)
    t = d["tables.yaml"]
    t["reaction"]["dice"] = "2d6"
    t["bribery"]["die"] = s.MAX_DIE
    t["distractions"].update(treasure_gold=str(s.MAX_GOLD), oil_slows_rounds=60)
    for neg in t["negotiation"].values():
        neg["tribute"] = {"numerator": 100, "denominator": 100, "rounding": "up"}
    d["rules.yaml"] = {
        "time": {
            "round_seconds": 3600,
            "rounds_per_turn": 1000,
            "move_rounds": 60,
            "rest_rounds": 1000,
            "rest_heal": 99,
        },
        "fatigue": {
            "max_running_rounds": 1000,
            "rest_turns": 100,
            "to_hit_penalty": 20,
            "damage_penalty": 20,
            "opponent_bonus": 20,
            "minimum_damage": 20,
        },
        "combat": {
            "attack_die": 100,
            "always_miss": 1,
            "critical": 100,
            "critical_multiplier": 10,
            "monster_targeting": "random",
        },
        "encounter": {
            "distance": str(s.MAX_FEET),
            "feet_per_tile": 100,
            "surprise_die": 100,
            "surprised_max": 99,
            "running_multiplier": 10,
            "pursuit_max_rounds": 1000,
            "approach_rounds": 1000,
            "standoff_rounds": 1000,
        },
        "check": {"die": 100, "resident_max": 100, "wandering_max": 100},
        "score": {"per_floor": 100_000, "per_worth": 1000, "win": 1_000_000},
        "growth": {
            "renown_per_level": 1,
            "renown_step": s.MAX_GOLD,
            "gold_per_renown": 1,
            "max_level": 99,
            "hp_per_level": 99,
            "might_at": list(range(2, 100)),
            "agility_at": list(range(2, 100)),
        },
        "shop": {"stock": [{"item": i} for i, it in d["items.yaml"].items() if "price" in it][:40]},
    }
    for g in d["dungeon.yaml"].values():
        # (rooms_min: the most rooms of 30 a 200x200 map holds, 5 by 5; more is refused as not fitting)
        g.update(width=200, height=200, rooms_min=25, rooms_max=60, room_size_min=30, room_size_max=40, fov_radius=100)
    for rs in d["rulesets.yaml"].values():
        rs["start_gold"] = str(s.MAX_GOLD)
        rs["start_items"] = {k: 99 for k in rs["start_items"]}
        rs.pop("check", None)
        for lv in rs["levels"]:
            lv["number_bonus"] = 10
            lv.get("out_of_depth", {}).update(die=100, max=100, hoard=10, resting=100)  # (always from deeper down, x10)
            for fi in lv.get("items", []):
                fi.update(count=str(s.MAX_PILES), amount=str(s.MAX_GOLD))


def lows(d: Data) -> None:
    """Every number at the bottom of its range: nothing moves, nothing heals, the smallest maps."""
    for m in d["monsters.yaml"].values():
        m.update(
            hp=1,
            defense=0,
            attack=-10,
            damage=1,
            agility=0,
            strength=0,
            reluctance=0,
            speed=0,
            number="1",
            treasure="0",
            acts_every=1,
            regenerate=0,
        )
    for it in d["items.yaml"].values():
        if it["kind"] == "potion":
            it["heal"] = "0"
        if it["kind"] == "oil":
            it["oil_damage"] = "0"
        if it["kind"] == "weapon":
            it.update(damage=0, to_hit=-10)
        if it["kind"] == "armour":
            it.update(defense=1, speed_penalty=480)  # (speed 0 at most: the party then never moves)
        if "price" in it:
            it["price"] = s.MAX_GOLD
        if it["kind"] == "treasure":
            it["value"] = 1
    for c in d["party.yaml"].values():
        c.update(hp=1, might=-5, agility=0, defense=0, negotiation=-10, speed=0)
    t = d["tables.yaml"]
    t["bribery"]["die"] = 2
    t["distractions"].update(food=0, treasure=0, treasure_gold="0", oil_stops=0, oil_slows_rounds=0)
    for neg in t["negotiation"].values():
        neg["tribute"] = {"numerator": 0, "denominator": 1, "rounding": "down"}
    d["rules.yaml"] = {
        "time": {"round_seconds": 1, "rounds_per_turn": 1, "move_rounds": 0, "rest_rounds": 1, "rest_heal": 0},
        "fatigue": {
            "max_running_rounds": 1,
            "rest_turns": 1,
            "to_hit_penalty": 0,
            "damage_penalty": 0,
            "opponent_bonus": 0,
            "minimum_damage": 0,
        },
        "combat": {
            "attack_die": 2,
            "always_miss": 1,
            "critical": 2,
            "critical_multiplier": 1,
            "monster_targeting": "first",
        },
        "encounter": {
            "distance": "0",
            "feet_per_tile": 1,
            "surprise_die": 2,
            "surprised_max": 0,
            "running_multiplier": 1,
            "pursuit_max_rounds": 1,
            "approach_rounds": 0,
            "standoff_rounds": 1,
        },
        "check": {"die": 2, "resident_max": 0, "wandering_max": 0},
        "score": {"per_floor": 0, "per_worth": 0, "win": 0},
        "growth": {"renown_per_level": s.MAX_GOLD, "gold_per_renown": s.MAX_GOLD, "max_level": 1, "hp_per_level": 0},
        "shop": {"stock": [{"item": "healing_potion", "from_floor": 20}]},
    }
    for g in d["dungeon.yaml"].values():
        g.update(width=20, height=15, rooms_min=2, rooms_max=2, room_size_min=3, room_size_max=3, fov_radius=1)
    for rs in d["rulesets.yaml"].values():
        rs["start_gold"] = "0"
        rs["start_items"] = {k: 0 for k in rs["start_items"]}
        rs.pop("check", None)
        for lv in rs["levels"]:
            lv["number_bonus"] = -10
            lv.get("out_of_depth", {}).update(die=2, max=0, hoard=1, resting=0)  # (never from deeper down)
            for fi in lv.get("items", []):
                fi.update(count="0", amount="1")


def crowds(d: Data) -> None:
    """Always a monster, always the biggest group, slow and tough, on small maps: the most crowded game."""
    for m in d["monsters.yaml"].values():
        m.update(number=f"1d{s.MAX_GROUP}", hp=20, speed=0, regenerate=5, damage=1)  # 999 HP: the bot is slow
    for row in (r for t in d["encounters.yaml"].values() for r in t["rows"]):
        row[:] = [f"{cell.split()[0]} {s.MAX_GROUP}" for cell in row]
    for c in d["party.yaml"].values():
        c.update(hp=999, speed=480)
    d["rules.yaml"]["check"] = {"die": 2, "resident_max": 2, "wandering_max": 2}
    for g in d["dungeon.yaml"].values():
        # (the smallest map holds 4 rooms of 3 at most: more rooms_min is refused as not fitting)
        g.update(width=20, height=15, rooms_min=4, rooms_max=60, room_size_min=3, room_size_max=40)
    for rs in d["rulesets.yaml"].values():
        rs.pop("check", None)
        for lv in rs["levels"]:
            lv["number_bonus"] = 10


def swift_foes(d: Data) -> None:
    """Monsters at full speed after a party that cannot move; pursuits at their longest; the biggest scale."""
    for m in d["monsters.yaml"].values():
        m.update(speed=480, pursues=True, behaviours=["submerged"])
    for c in d["party.yaml"].values():
        c["speed"] = 0
    enc = d["rules.yaml"]["encounter"]
    enc.update(distance=str(s.MAX_FEET), feet_per_tile=1, running_multiplier=10, pursuit_max_rounds=1000)
    d["tables.yaml"]["reaction"]["dice"] = "100d1000x1000+100000"
    d["tables.yaml"]["reaction"]["bands"] = [
        {
            "min": 100 * 1000 + 100000,
            "max": 100 * 1000 * 1000 + 100000,
            "result": "hostile",
            "label": "hostile",
            "attacks_chance": 100,
            "standoff_attacks": 100,
            "pursuit": 100,
        },
    ]


CASES: dict[str, Callable[[Data], None]] = {"highs": highs, "lows": lows, "crowds": crowds, "swift_foes": swift_foes}


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(CASES))
def test_data_at_the_limits_plays(case: str, tmp_path: Path, shipped_data: Path) -> None:
    directory = tmp_path / "data"
    shutil.copytree(shipped_data, directory)
    data = load(directory)
    CASES[case](data)
    save(data, directory)
    content = load_content(directory)  # data at the limits must validate...
    start = time.monotonic()
    for ruleset in content.rulesets:
        for seed in (1,):
            r = play_game(content, ruleset, seed, max_actions=15 if case == "crowds" else ACTIONS)  # ...and play
            assert r.outcome != "crash", f"{case} {ruleset} seed {seed}: {r.cause}"
    assert time.monotonic() - start < SECONDS_PER_CASE


@pytest.mark.parametrize(
    ("fname", "old", "new", "message"),
    [
        ("rules.yaml", "  die: 6\n", "  die: 18446744073709551617\n", "less than or equal to 100"),
        ("monsters.yaml", "number: 2d4", "number: 100d1000x1000", "more than 20"),
        ("items.yaml", "heal: 2d4+4", 'heal: "-50"', "less than 0"),
        ("monsters.yaml", "treasure: 3d6x10", "treasure: 100d1000x1000", "more than 100000"),
        ("rulesets.yaml", "count: 1d2", "count: 100d6", "more than 100"),
        ("rules.yaml", "distance: 2d6x10", "distance: 100d1000", "more than 10000"),
        ("tables.yaml", "denominator: 4", "denominator: 0", "greater than or equal to 1"),
        ("tables.yaml", "numerator: 1", "numerator: 5", "more than the whole treasure"),
    ],
)
def test_a_number_beyond_its_bound_is_refused(data_copy: Path, fname: str, old: str, new: str, message: str) -> None:
    path = data_copy / fname
    text = path.read_text(encoding="utf-8")
    assert old in text, f"test setup: {old!r} is not in {fname}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(Exception) as info:
        load_content(data_copy)
    problems = getattr(info.value, "problems", None)
    assert problems is not None, repr(info.value)
    assert len(problems) == 1, "\n".join(map(str, problems))
    p = problems[0]
    assert p.path.endswith(fname) and p.line > 0 and message in p.message, str(p)


def test_a_cell_group_beyond_its_bound_is_refused(data_copy: Path) -> None:
    path = data_copy / "encounters.yaml"
    text = path.read_text(encoding="utf-8")
    old = next(line for line in text.splitlines() if '"' in line and "rows" not in line)
    cell = old.split('"')[1]
    path.write_text(text.replace(f'"{cell}"', f'"{cell.split()[0]} 100d1000x1000"', 1), encoding="utf-8")
    with pytest.raises(Exception) as info:
        load_content(data_copy)
    problems = getattr(info.value, "problems", [])
    assert [p for p in problems if "more than 20" in p.message and p.line > 0], "\n".join(map(str, problems))
