"""The state's canonical form (:func:`canonical`): a JSON-able structure with a fixed key order, from which a stable
checksum is computed (:func:`checksum`): replays of formats 1-2 compare it action by action (format 3 compares the
digest of :mod:`undercroft.rules.digest`)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import numpy as np

from undercroft.rules.state import GameState, Group, Member


def _group_form(g: Group) -> list[Any]:
    return [
        g.id,
        g.monster,
        list(g.hp),
        g.max_hp,
        g.level,
        g.segment,
        list(g.pos),
        g.origin,
        g.treasure,
        g.bribes,
        g.met,
        g.hidden,
        g.peaceful,
        g.negotiation,
        g.bribe_tried,
        g.reaction,
        g.reaction_result,
        g.risen,
        g.turns,
        g.unseen,
        g.surprise,
        g.since,
        g.walked,
        g.hired,
        g.pursuit_rolled,
        g.pursues,
    ]


def _member_form(m: Member) -> list[Any]:
    return [
        m.template,
        m.hp,
        m.max_hp,
        m.weapon,
        m.might,
        m.agility,
        m.defense,
        m.speed,
        m.to_hit,
        m.wielded,
        m.armour,
        m.level,
        m.renown,
    ]


def canonical(state: GameState, streams: dict[tuple[str, int], tuple[int, int, int]]) -> dict[str, Any]:
    """The state as plain values in a fixed order. ``streams`` holds the random streams' states."""
    levels = {}
    for idx in sorted(state.levels):
        lv = state.levels[idx]
        levels[str(idx)] = {
            "visited": np.packbits(lv.visited).tobytes().hex(),
            "explored": hashlib.blake2b(np.packbits(lv.explored).tobytes(), digest_size=8).hexdigest(),
            "items": sorted([[x, y, i, a] for (x, y), lst in lv.items.items() for i, a in lst]),
            "groups": [_group_form(g) for g in lv.groups],
        }
    enc = state.encounter
    com = state.combat
    pur = state.pursuit
    return {
        "party": {
            "members": [_member_form(m) for m in state.party],
            "gold": state.gold,
            "effects": sorted(state.effects.items()),
            "haul": state.haul,
            "items": sorted(state.items.items()),
            "wares": sorted(state.wares.items()),
            "pos": list(state.pos),
            "prev_pos": list(state.prev_pos),
            "segment": state.segment,
            "segment_entry": list(state.segment_entry),
        },
        "clock": {
            "turn": state.turn,
            "rounds": state.rounds,
            "running": state.running_rounds,
            "exhausted": state.exhausted,
            "rest": state.rest_rounds,
        },
        "mode": {
            "mode": state.mode,
            "depth": state.depth,
            "encounter": None
            if enc is None
            else [
                enc.group,
                enc.distance,
                enc.party_surprised,
                enc.monster_surprised,
                enc.first_round,
                list(enc.entry),
                enc.rounds,
                enc.stays,
            ],
            "combat": None
            if com is None
            else [
                com.group,
                com.round,
                com.party_turn,
                com.party_attacked,
                com.free_round,
            ],
            "pursuit": None
            if pur is None
            else [
                pur.group,
                pur.distance,
                pur.rounds,
                pur.fights,
                pur.chaser,
                list(pur.to) if pur.to else None,
                [list(t) for t in pur.trail],
                [list(t) for t in pur.lures],
                [list(t) for t in pur.fire],
                pur.fire_out,
                pur.balked,
            ],
            "entered": state.entered,
            "owed": list(state.owed),
            "fled": state.fled,
            "lost": state.lost,
            "next_group": state.next_group,
            "kills": state.kills,
        },
        "levels": levels,
        "rng": {f"{n}/{lv}": list(v) for (n, lv), v in streams.items()},
    }


def encode(form: dict[str, Any]) -> bytes:
    return json.dumps(form, sort_keys=True, separators=(",", ":")).encode()


def checksum(form: dict[str, Any]) -> str:
    return hashlib.blake2b(encode(form), digest_size=8).hexdigest()
