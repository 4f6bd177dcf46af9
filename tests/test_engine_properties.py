"""Properties of the engine over random play: no crash, no negative HP or gold, gold conserved by parley, refused
actions change nothing, the same seed and actions replay the same game; and every roll is reported as an event.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from engine_helpers import attacks, content, encounter_faces, make_game, meet, of, one, say, script, walk_into, why
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from undercroft.rules import dungeon, items
from undercroft.rules import events as evt
from undercroft.rules.actions import (
    Action,
    Attack,
    Bribe,
    Buy,
    Descend,
    Drink,
    DropFood,
    DropTreasure,
    Fight,
    LeaveShop,
    Move,
    Rest,
    Run,
    Talk,
    ThrowOil,
    Use,
    Wait,
)
from undercroft.rules.dice import ScriptedDice
from undercroft.rules.events import Event
from undercroft.rules.game import Game
from undercroft.rules.refusals import Code, Reason

RULESETS = ("undercroft", "citadel", "warden", "crawler")
ITEM_NUMBERS = {item: n for n, item in enumerate(items.catalogue(content()))}
MOVES = [Move(dx, dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy]
OTHERS: list[Action] = [
    Descend(),
    Rest(),
    Fight(),
    Attack(0),
    Attack(1),
    Attack(2),
    Talk(),
    Bribe(1),
    Bribe(30),
    Bribe(120),
    Bribe(1_000_000),
    Wait(),
    Run(),
    DropFood(),
    DropTreasure(),
    ThrowOil(0),
    ThrowOil(1),
    Drink(0),
    Drink(1),
    Drink(3),
    Use(0),
    Use(ITEM_NUMBERS["healing_potion"]),
    Use(ITEM_NUMBERS["dagger"], 1),
    Use(999),
    Buy(ITEM_NUMBERS["healing_potion"]),
    Buy(ITEM_NUMBERS["plate_armour"]),
    Buy(-1),
    LeaveShop(),
]
ONWARD = "onward"  # a step along the way to the stairs (or the farthest room): play that goes somewhere
CANDIDATES: list[Action | str] = [*MOVES, *OTHERS, ONWARD, ONWARD, ONWARD, ONWARD, ONWARD, ONWARD]
ROLL_FIELDS = {"purpose", "dice", "faces", "modifier", "multiplier", "total", "target", "result"}


def onward(game: Game) -> Action:
    st = game.state
    m = st.level.map
    goal = m.stairs
    if goal is None:
        far = m.segments[m.far_rooms[0]]
        goal = ((far.x1 + far.x2) // 2, (far.y1 + far.y2) // 2)
    if st.pos == goal:
        return Descend()
    path = dungeon.path_between(m, st.pos, goal)
    if len(path) < 2:
        return Wait()
    return Move(path[1][0] - st.pos[0], path[1][1] - st.pos[1])


def gone_with(game: Game) -> int:
    """The gold of the group that went its way (003: one the party does not pursue is gone, with its treasure),
    when any action but pursuing now lets it go; else 0."""
    s = game.state
    return sum(g.treasure + g.bribes for g in s.level.groups if s.fled and g.id == s.fled)


def all_gold(game: Game) -> int:
    """Every gold piece in the game: the party's, the monsters' treasure and bribes, and the gold on the floors."""
    s = game.state
    total = s.gold
    for lv in s.levels.values():
        total += sum(g.treasure + g.bribes for g in lv.groups)
        total += sum(a for pile in lv.items.values() for item, a in pile if content().items[item].kind == "gold")
    return total


def check_invariants(game: Game) -> None:
    s = game.state
    assert s.gold >= 0
    for m in s.party:
        assert 0 <= m.hp <= m.max_hp
    for lv in s.levels.values():
        for g in lv.groups:
            assert all(0 <= h <= g.max_hp for h in g.hp)
            assert g.treasure >= 0 and g.bribes >= 0
    assert (s.mode == "encounter") <= (s.encounter is not None)
    assert (s.mode == "combat") <= (s.combat is not None)
    assert (s.mode == "pursuit") <= (s.pursuit is not None)
    assert s.mode in ("explore", "encounter", "combat", "pursuit", "shop", "dead", "won")
    assert (s.mode == "dead") == (s.death is not None) or s.mode == "won"


def resolve(game: Game, c: Action | str) -> Action:
    return onward(game) if isinstance(c, str) else c


def play(game: Game, rnd: random.Random, length: int, *, try_illegal: bool) -> list[list[Event]]:
    """Play ``length`` actions sampled from the candidates: legal ones are stepped (and, if asked, now and then an
    illegal one, which must be refused harmlessly). Checks the invariants after every step."""
    log: list[list[Event]] = []
    for _ in range(length):
        if game.over:
            break
        actions = [resolve(game, c) for c in CANDIDATES]
        legal = [a for a in actions if game.legal(a)]
        action = rnd.choice(actions) if try_illegal and rnd.random() < 0.2 else rnd.choice(legal)
        was_legal = game.legal(action)
        before = game.checksum()
        gold = all_gold(game) - gone_with(game)
        there = {g.id for lv in game.state.levels.values() for g in lv.groups}
        events = game.step(action)
        log.append(events)
        refusals = of(events, evt.Refused)
        if refusals or not was_legal:
            assert [e.type for e in events] == ["refused"], events
            assert why(refusals[0]).code and say(game, refusals[0])
            assert game.checksum() == before, f"refused {action} changed the state"
        elif action.type in ("talk", "bribe"):
            # (a talk that ends the meeting lets the party on, and the segment entries it owes may raise a new
            # group with its own treasure: that gold is the monster check's, not the talk's)
            raised = sum(
                g.treasure + g.bribes for lv in game.state.levels.values() for g in lv.groups if g.id not in there
            )
            assert all_gold(game) - raised == gold, f"{action} created or destroyed gold: {events}"
        check_invariants(game)
    return log


PLAY = {
    "seed": st.integers(0, 2**32),
    "ruleset": st.sampled_from(RULESETS),
    "rnd": st.randoms(use_true_random=False),
    "length": st.integers(1, 300),
}


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**PLAY)
def test_random_legal_play_never_breaks_a_rule(seed: int, ruleset: str, rnd: random.Random, length: int) -> None:
    game = make_game(ruleset, seed)
    check_invariants(game)
    play(game, rnd, length, try_illegal=False)


@pytest.mark.slow
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**PLAY)
def test_refused_actions_change_nothing(seed: int, ruleset: str, rnd: random.Random, length: int) -> None:
    play(make_game(ruleset, seed), rnd, length, try_illegal=True)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@pytest.mark.slow
@given(
    seed=st.integers(0, 2**32),
    ruleset=st.sampled_from(RULESETS),
    policy=st.integers(0, 2**32),
    length=st.integers(1, 200),
)
def test_the_same_seed_and_actions_replay_the_same_game(seed: int, ruleset: str, policy: int, length: int) -> None:
    a, b = make_game(ruleset, seed), make_game(ruleset, seed)
    assert a.checksum() == b.checksum()
    log_a = play(a, random.Random(policy), length, try_illegal=True)
    log_b = play(b, random.Random(policy), length, try_illegal=True)
    assert [[e.as_dict() for e in evs] for evs in log_a] == [[e.as_dict() for e in evs] for evs in log_b]
    assert a.checksum() == b.checksum()


@pytest.mark.clause("000-8.7g")
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**16),
    monster=st.sampled_from(["orc", "goblin", "kobold", "ogre", "troll", "wight", "bandit", "hobgoblin"]),
    count=st.integers(1, 4),
    treasure=st.integers(0, 500),
    gold=st.integers(0, 500),
    talk=st.tuples(st.integers(1, 6), st.integers(1, 6)),
    offer=st.integers(-5, 600),
    bribe_face=st.integers(1, 6),
)
def test_parley_conserves_gold(
    seed: int,
    monster: str,
    count: int,
    treasure: int,
    gold: int,
    talk: tuple[int, int],
    offer: int,
    bribe_face: int,
) -> None:
    """Talk then bribe with forced dice: gold only moves between the party and the group, never appears."""
    game = make_game("citadel", seed % 50, ScriptedDice(), gold=gold)
    group, _ = meet(game, monster, count, treasure=treasure)
    gold = game.state.gold  # the walk into the room may have picked some up
    start = all_gold(game)
    script(game).push(*talk)
    neg = one(game.step(Talk()), evt.Negotiate)
    assert all_gold(game) == start
    if neg.result == "intimidation":
        assert neg.tribute == treasure // 4 and game.state.gold == gold + treasure // 4
    if neg.result != "failure":
        return
    script(game).push(bribe_face, *([1] * count))  # if refused, every creature swings once (and misses)
    before = game.checksum()
    events = game.step(Bribe(offer))
    if of(events, evt.Refused):
        assert not 1 <= offer <= gold and game.checksum() == before
    else:
        assert one(events, evt.Bribe).gold == offer
        assert game.state.gold == gold - offer and group.bribes == offer
    assert all_gold(game) == start


# --- every roll is an event -------------------------------------------------------------------------------


def faces_reported(events: list[Event]) -> list[int]:
    """The faces of every die the events report, in order."""
    out: list[int] = []
    for e in events:
        if isinstance(e, evt.Roll | evt.Negotiate | evt.Bribe):
            out.extend(e.faces)
        elif isinstance(e, evt.PartyAttack | evt.MonsterAttack):
            out.append(e.natural)
    return out


@pytest.mark.clause("001-roll-1", "001-die-4")
def test_every_die_rolled_is_reported_in_an_event() -> None:
    d = ScriptedDice()
    g = make_game("undercroft", 1, d)
    log: list[Event] = []
    # a new room: a resident (row 2, column 5: kobolds 1d6+1, 1d6x5 gold), 60 ft, the party surprised,
    # reaction 4 (hostile), the d100 says no attack
    log += walk_into(g, "room", visited=False, faces=[3, 2, 5, 1, 2, 3, 3, 1, 4, 2, 2, 80])
    d.push(3, 3)
    log += g.step(Talk())  # 6 - 1 reluctance + 0: failure
    d.push(1)
    log += g.step(Bribe(10))  # accepted
    assert g.state.mode == "explore"
    scripted = [3, 2, 5, 1, 2, 3, 3, 1, 4, 2, 2, 80, 3, 3, 1]
    assert d.remaining == 0
    # every face the script gave after the walk (its empty monster checks) is in an event, in order
    assert faces_reported(log) == scripted == [f for _, f in d.used][-len(scripted) :]
    for e in of(log, evt.Roll):
        assert set(e.as_dict()) >= ROLL_FIELDS, e
    for x in [*of(log, evt.Negotiate), *of(log, evt.Bribe)]:
        assert {"group", "result", "dice", "faces", "total"} <= set(x.as_dict())


def test_combat_rolls_are_attack_events_with_their_numbers() -> None:
    g = make_game("undercroft", 1, ScriptedDice())
    _group, _ = meet(g, "orc", faces=encounter_faces())  # 8 HP: the delver's 6 damage leaves it standing
    script(g).push(12, 1)
    g.step(Fight())
    events = g.step(Attack(0))
    for e in attacks(events):
        data: dict[str, Any] = e.as_dict()
        assert {
            "attacker",
            "target",
            "natural",
            "modifier",
            "total",
            "defense",
            "hit",
            "damage",
            "target_hp_after",
        } <= set(data)
        assert data["total"] == data["natural"] + data["modifier"]
        assert data["hit"] == (data["natural"] != 1 and (data["natural"] == 20 or data["total"] >= data["defense"]))
    assert [e.natural for e in attacks(events)] == [12, 1]
    assert script(g).remaining == 0


def test_event_records_are_plain_json() -> None:
    import json

    g = make_game("undercroft", 3, ScriptedDice())
    _group, events = meet(g, "orc", faces=encounter_faces(reaction=(1, 1)))
    for e in events:
        line = json.dumps(e.as_dict())
        assert json.loads(line)["type"] == e.type


@pytest.mark.clause("001-end-2")
def test_refused_actions_say_why_in_every_mode() -> None:
    g = make_game("citadel", 1, ScriptedDice(), gold=10)
    checks: list[tuple[Action, Reason, str]] = [
        (Attack(0), Reason(Code.NOT_NOW, {"mode": "explore"}), "You cannot attack while exploring."),
        (Talk(), Reason(Code.NOT_NOW, {"mode": "explore"}), "You cannot talk while exploring."),
        (Move(0, 0), Reason(Code.BAD_STEP), "A step is one tile in one of eight directions."),
        (Move(2, 0), Reason(Code.BAD_STEP), "A step is one tile in one of eight directions."),
        (Drink(0), Reason(Code.UNHURT), "Not hurt: a healing potion would heal nothing."),
    ]
    assert not g.legal(Drink())  # (nobody hurt: not offered)
    for action, reason, line in checks:
        before = g.checksum()
        (e,) = g.step(action)
        assert why(e) == reason and isinstance(e, evt.Refused) and e.action == action.type and say(g, e) == line
        assert g.checksum() == before
    g.state.party[1].hp -= 1  # someone hurt: a drinker not there, or the one who is whole, is still refused
    assert g.legal(Drink())
    for action, reason in ((Drink(9), Reason(Code.NO_DRINKER)), (Drink(0), Reason(Code.UNHURT))):
        (e,) = g.step(action)
        assert why(e) == reason
    _group, _ = meet(g, "orc")
    for action, reason in [
        (Attack(0), Reason(Code.NOT_NOW, {"mode": "encounter"})),
        (Descend(), Reason(Code.NO_STAIRS)),
    ]:
        before = g.checksum()
        (e,) = g.step(action)
        assert why(e) == reason and g.checksum() == before
    g.step(Fight())  # the party is quicker: initiative rolls no die
    assert g.state.mode == "combat" and g.state.combat is not None and g.state.combat.party_turn
    for action, reason in [
        (Attack(5), Reason(Code.NO_TARGET)),
        (Talk(), Reason(Code.NOT_NOW, {"mode": "combat"})),
        (Rest(), Reason(Code.NOT_NOW, {"mode": "combat"})),
    ]:
        before = g.checksum()
        (e,) = g.step(action)
        assert why(e) == reason and g.checksum() == before
    g.state.party[0].hp = 0  # a dead party member cannot drink
    before = g.checksum()
    assert why(g.step(Drink(0))[0]) == Reason(Code.NO_DRINKER)
    assert g.checksum() == before


# --- docs/EVENTS.md stays in step with the engine ----------------------------------------------------------


def test_every_event_type_is_documented_with_a_json_example() -> None:
    import json
    import re
    from pathlib import Path

    from event_helpers import emitted_types

    root = Path(__file__).resolve().parent.parent
    emitted = emitted_types()
    doc = (root / "docs" / "EVENTS.md").read_text(encoding="utf-8")
    sections = re.split(r"^### `([a-z_]+)`\n", doc, flags=re.MULTILINE)
    documented = dict(zip(sections[1::2], sections[2::2], strict=True))
    assert emitted - set(documented) == set(), "event types missing from docs/EVENTS.md"
    assert set(documented) - emitted == set(), "docs/EVENTS.md documents event types the engine does not emit"
    for kind, body in documented.items():
        lines = [ln for ln in body.splitlines() if ln.startswith("{")]
        assert lines, f"no example line for {kind}"
        for ln in lines:
            assert json.loads(ln)["type"] == kind


def _documented_events() -> dict[str, str]:
    import re
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "EVENTS.md").read_text(encoding="utf-8")
    sections = re.split(r"^### `([a-z_]+)`\n", doc, flags=re.MULTILINE)
    return dict(zip(sections[1::2], sections[2::2], strict=True))


def _field_table(body: str) -> list[str]:
    """The field names the first column of a section's field table names (`from`, `to` is two)."""
    import re

    lines = body.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("| field |"))
    names: list[str] = []
    for ln in lines[start + 2 :]:
        if not ln.startswith("|"):
            break
        names += re.findall(r"`([a-z_]+)`", ln.split("|")[1])
    return names


def test_events_md_names_exactly_the_fields_of_each_event_class() -> None:
    """Each section's field table in docs/EVENTS.md names exactly its class's fields (``attack``: both classes');
    a field renamed, added or dropped in rules/events/ without the docs fails here. (``refused`` names its own
    two; the fields of each refusal code are held to the docs by tests/test_refusals.py.)"""
    from undercroft.rules.events import EVENT_TYPES, event_fields

    want: dict[str, set[str]] = {}
    for cls in EVENT_TYPES:
        want.setdefault(cls.type, set()).update(event_fields(cls))
    want["refused"] = {"action", "reason"}
    for kind, body in _documented_events().items():
        names = _field_table(body)
        got = set(names) if kind != "refused" else set(names) & want["refused"]
        assert got == want[kind], f"{kind}: docs name {sorted(got)}, the class has {sorted(want[kind])}"


def test_every_events_md_example_is_its_class_on_the_wire() -> None:
    """Every example line of docs/EVENTS.md reads back into its event class (``from_wire``: no field missing or
    unknown) and writes out again as it is, key for key and in the same order (``as_dict``)."""
    import json

    from undercroft.rules.events import from_wire

    seen = 0
    for kind, body in _documented_events().items():
        for ln in (ln for ln in body.splitlines() if ln.startswith("{")):
            d = json.loads(ln)
            d.pop("text", None)
            own = kind in ("won", "death")  # (their turn is their own: it takes the line's place)
            e = from_wire({k: v for k, v in d.items() if k != "turn" or own})
            line = {"turn": d["turn"], **e.as_dict()} if "turn" in d else e.as_dict()  # as replay --events
            assert e.type == kind and list(line.items()) == list(d.items()), ln
            seen += 1
    assert seen > 100


def test_an_event_is_read_only_to_the_type_checker() -> None:
    """mypy --strict (which warns of an unused ignore) fails on this file if an event's field becomes assignable in
    the types: the ignore below would have nothing to ignore. At run time the field can be set: a frozen dataclass's
    ``__init__`` made the step a quarter slower (rules/events/base.py: ``event``). A field a shared base declares
    (``AboutGroup``'s ``count``) is read-only too."""
    e = evt.Wait(combat=False)
    e.combat = True  # type: ignore[misc]
    assert e.combat and e.as_dict() == {"type": "wait", "combat": True}
    a = evt.Attacks(group=1, monster="ghoul", count=1)
    a.count = 2  # type: ignore[misc]
    assert a.as_dict() == {"type": "attacks", "group": 1, "monster": "ghoul", "count": 2}
