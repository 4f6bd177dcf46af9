"""The rules revision (``record.RULES_REVISION``) moves with the games the rules make: each revision names the digest
of the golden recordings' play (every state digest and end line, not the header nor the chain, which name the
installation), so a change that makes a golden recording play otherwise fails here until the revision is bumped."""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest
from ui_helpers import isolate_user_data

from undercroft import record
from undercroft.cli.main import main

GOLDEN_V3 = Path(__file__).resolve().parent / "golden" / "v3"

# RULES_REVISION -> the golden play's digest under it. A golden recording regenerated on purpose (a rule or a number
# changed): bump RULES_REVISION and add its line here; a save of an earlier revision is then told as such.
PLAY_DIGESTS = {
    1: "521c915724a2457bd8889b29fb6dc5ff",
    2: "049f60ce53edb229f84e014c5a5c3c87",  # a drink or a use in a chase takes the party's round
    3: "c87bda605d3477424e37b4f00ce699b8",  # the second half's data: deep packs, new guardians, scarcer potions
    4: "f2ec72293aee9477472e8aac682a6fee",  # a rest deep down draws from deeper; sure fights fought
    5: "f2ec72293aee9477472e8aac682a6fee",  # floors 4-8 (the goldens, 300 actions, stay above them): see CHANGELOG
    6: "f2ec72293aee9477472e8aac682a6fee",  # floors 5-8 and two uniques (below the goldens again): see CHANGELOG
}


def play_digest() -> str:
    """blake2b of each v3 golden recording's play: its action lines without their chain hash, its end line without
    its hash (the header, which names the versions and the data, is left out)."""
    h = hashlib.blake2b(digest_size=16)
    for path in sorted(GOLDEN_V3.glob("*.jsonl")):
        h.update(path.name.encode() + b"\n")
        for raw in path.read_bytes().splitlines()[1:]:
            if raw.startswith(b"{"):
                obj = json.loads(raw)
                obj.pop("hash", None)
                h.update(json.dumps(obj, sort_keys=True).encode() + b"\n")
            else:
                h.update(raw.rsplit(b" ", 1)[0] + b"\n")
    return h.hexdigest()


def test_the_rules_revision_is_bumped_whenever_a_golden_recording_plays_otherwise() -> None:
    digest = play_digest()
    assert PLAY_DIGESTS.get(record.RULES_REVISION) == digest, (
        f"the golden recordings play otherwise ({digest}): bump RULES_REVISION in src/undercroft/record/format.py "
        f"and add {{{record.RULES_REVISION + 1}: {digest!r}}} to PLAY_DIGESTS in {Path(__file__).name}"
    )
    assert list(PLAY_DIGESTS) == list(range(1, record.RULES_REVISION + 1))  # (never a revision skipped or reused)


def test_a_new_recording_names_its_rules_revision_and_an_old_one_reads_as_none() -> None:
    new = record.load_recording(sorted(GOLDEN_V3.glob("*.jsonl"))[0])
    assert new.header.rules_revision == record.RULES_REVISION
    old = record.load_recording(sorted(GOLDEN_V3.parent.glob("*.jsonl"))[0])  # format 2: before revisions were kept
    assert old.header.rules_revision == 0 and old.header.format == 2


def test_a_save_of_another_revision_is_told_at_once(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A save whose header names this revision read by a game a revision later: the listing marks it before any
    replay, and what differs names both revisions (what Continue and ``replay`` say)."""
    now, later = record.RULES_REVISION, record.RULES_REVISION + 1
    folder = isolate_user_data(monkeypatch, tmp_path) / "saves"
    folder.mkdir(parents=True)
    lines = (GOLDEN_V3 / "undercroft-1.jsonl").read_bytes().splitlines(keepends=True)
    (folder / "old.jsonl").write_bytes(b"".join(lines[:40]))  # unfinished: 39 actions
    for name in ("undercroft.record", "undercroft.record.format", "undercroft.record.replay"):
        monkeypatch.setattr(sys.modules[name], "RULES_REVISION", later)  # (this game, a revision later)
    assert main(["games", "--replay-for", "0"]) == 0
    assert f"Undercroft, rules revision {now}, seed 1" in capsys.readouterr().out
    header = record.load_recording(folder / "old.jsonl", lenient_tail=True).header
    assert f"rules revision: recorded with revision {now}, this game is {later}" in record.compatibility(
        header, header.data_digest
    )
