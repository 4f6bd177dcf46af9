"""A result is listed (`games`, `games --scores`, Past games) only once its recording has replayed
to that end and score; the saves folder's index remembers what a replay showed, by the file's digest and size, and
an index or a sidecar that lies is never believed. Every file in a tmp folder."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from engine_helpers import content
from tcod.event import KeySym
from ui_helpers import Driver, isolate_user_data, press, screen

from undercroft import autoplay, save_index, saves
from undercroft.cli.main import main
from undercroft.record.format import _chain_text, _line
from undercroft.rules.actions import Rest
from undercroft.ui.scenes import PastGamesScene, SceneStack, TitleScene
from undercroft.ui.session import Session


@pytest.fixture(scope="module")
def dead_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """A whole bot game of the crawler ruleset that ends in death (played once for the module)."""
    path = tmp_path_factory.mktemp("dead") / "g.jsonl"
    for seed in range(1, 40):
        if autoplay.play_game(content(), "crawler", seed, record=str(path), max_actions=3000).outcome == "dead":
            return path.read_bytes()
    raise AssertionError("no crawler bot game from seeds 1..39 died")


@pytest.fixture
def folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    d = isolate_user_data(monkeypatch, tmp_path) / "saves"
    d.mkdir(parents=True)
    return d


def rechain(lines: list[bytes]) -> bytes:
    """Lines hashed again in order: a file whose chain holds whatever the lines say (what a forger does)."""
    prev, out = "", []
    for raw in lines:
        if raw.startswith(b"{"):
            obj = json.loads(raw)
            obj.pop("hash", None)
            prev, data = _line(prev, obj)
            out.append(data)
        else:
            body = raw.decode().rsplit(" ", 1)[0]
            prev = _chain_text(prev, body)
            out.append(f"{body} {prev}\n".encode())
    return b"".join(out)


def forged(dead: bytes, *, end: dict[str, object] | None = None, header: dict[str, object] | None = None) -> bytes:
    lines = dead.splitlines()
    first, last = json.loads(lines[0]), json.loads(lines[-1])
    first.update(header or {})
    last.update(end or {})
    return rechain([json.dumps(first).encode(), *lines[1:-1], json.dumps(last).encode()])


def scores_json(capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main(["games", "--scores", "--json"]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def test_a_forged_win_is_listed_unverified_and_never_ranked(
    folder: Path, dead_bytes: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    (folder / "honest.jsonl").write_bytes(dead_bytes)
    (folder / "forged.jsonl").write_bytes(forged(dead_bytes, end={"end": "won", "score": 99999999}))
    (folder / "daily.jsonl").write_bytes(forged(dead_bytes, header={"daily": "2026-12-25"}))  # not that day's seed
    data = scores_json(capsys)
    table = data["scores"]["crawler"]  # type: ignore[index]
    assert [(g["rank"], Path(g["path"]).name) for g in table] == [(1, "honest.jsonl")]
    assert sorted(Path(g["path"]).name for g in data["unverified"]) == ["daily.jsonl", "forged.jsonl"]  # type: ignore[attr-defined]
    assert main(["games", "--scores"]) == 0
    out = capsys.readouterr().out
    assert "99999999" not in out and "2 results are unverified (not ranked)" in out
    assert main(["games"]) == 0
    past = [line for line in capsys.readouterr().out.splitlines() if "unverified" in line]
    assert len(past) == 2 and any("won (unverified)" in line for line in past)
    assert main(["games", "--json"]) == 0
    games = {Path(g["path"]).name: g for g in json.loads(capsys.readouterr().out)["past"]}
    assert games["honest.jsonl"]["verified"] and not games["forged.jsonl"]["verified"]
    assert "recorded 'won'" in games["forged.jsonl"]["why"]
    assert "a daily game of 2026-12-25 plays the seed daily-2026-12-25" in games["daily.jsonl"]["why"]
    assert main(["replay", str(folder / "daily.jsonl"), "--verify"]) != 0  # and `replay --verify` says so too
    assert "daily" in capsys.readouterr().err
    d = Driver(SceneStack([PastGamesScene(content())]))
    assert "won (unverified)" in screen(d)
    press(d, KeySym.S)
    text = screen(d)
    assert "99999999" not in text and "2 results are unverified" in text


@pytest.mark.slow
def test_the_index_remembers_a_replay_by_digest_and_never_believes_an_edit(
    folder: Path, dead_bytes: bytes, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = folder / "forged.jsonl"
    path.write_bytes(forged(dead_bytes, end={"score": 99999999}))
    examined: list[str] = []
    real = save_index.examine

    def counting(p: Path, c: object) -> tuple[save_index.Facts, str]:
        examined.append(p.name)
        return real(p, c)  # type: ignore[arg-type]

    monkeypatch.setattr(save_index, "examine", counting)
    assert scores_json(capsys)["scores"] == {}
    assert examined == ["forged.jsonl"]
    scores_json(capsys)
    os.utime(path, (1, 1))  # touched, the same bytes: its digest is read again, it is not replayed again
    scores_json(capsys)
    assert examined == ["forged.jsonl"]

    index = folder / save_index.INDEX
    mac, _, body = index.read_bytes().partition(b"\n")
    obj = json.loads(body)
    for facts in obj["facts"].values():
        facts.update(verified=True, why="")
    index.write_bytes(mac + b"\n" + json.dumps(obj, sort_keys=True).encode())  # believed, it would rank the forgery
    assert scores_json(capsys)["scores"] == {}
    assert examined == ["forged.jsonl"] * 2  # ignored whole and rebuilt
    index.write_bytes(b"\x00garbage")
    assert scores_json(capsys)["scores"] == {} and len(examined) == 3
    path.write_bytes(dead_bytes)  # the file itself changes: replayed again, and now it ranks
    assert len(scores_json(capsys)["scores"]["crawler"]) == 1  # type: ignore[index]
    assert len(examined) == 4


def test_an_edited_sidecar_neither_ends_a_game_nor_names_its_seed(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    s = Session.new(content(), "crawler", 9)
    s.act(Rest())
    s.close()
    assert s.path is not None
    size = s.path.stat().st_size
    lie = {"seed_text": "lucky", "progress": {"v": 3, "size": size, "level": 99, "hp": "1/1", "over": "won"}}
    saves.meta_path(s.path).write_text(json.dumps(lie), encoding="utf-8")
    assert main(["games", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["past"] == []
    (game,) = data["unfinished"]
    assert (game["result"], game["level"], game["seed_text"]) == ("playing", 1, "9")
    assert "seed 9, turn 1" in screen(Driver(SceneStack([TitleScene(content())])))


def test_a_listing_sweeps_the_temporary_files_of_writers_that_are_gone(folder: Path, dead_bytes: bytes) -> None:
    (folder / "g.jsonl").write_bytes(dead_bytes)
    dead_pid = subprocess.Popen(["true"])  # (a process that has ended: its pid names nobody now)
    dead_pid.wait()
    stale = folder / f".g.meta.json.{dead_pid.pid}.tmp"
    live = folder / f".{save_index.INDEX}.{os.getppid()}.tmp"  # (a writer still at work)
    stale.write_bytes(b"{")
    live.write_bytes(b"{")
    saves.listing(content=content())
    assert not stale.exists() and live.exists()


@pytest.mark.slow
def test_concurrent_listings_leave_no_temporary_file_and_one_good_index(folder: Path, dead_bytes: bytes) -> None:
    for k in range(5):
        (folder / f"g{k}.jsonl").write_bytes(dead_bytes)
    env = dict(os.environ, XDG_DATA_HOME=str(folder.parent.parent / "xdg"))
    (folder.parent.parent / "xdg" / "undercroft").mkdir(parents=True)
    (folder.parent.parent / "xdg" / "undercroft" / "saves").symlink_to(folder)
    cmd = [sys.executable, "-m", "undercroft", "games", "--json"]
    procs = [subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(12)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err for _, err in outs]
    assert all(len(json.loads(out)["past"]) == 5 for out, _ in outs)
    assert [p.name for p in folder.iterdir() if p.name.endswith(".tmp")] == []
    assert sorted(save_index.Index(folder).files) == [f"g{k}.jsonl" for k in range(5)]


def test_a_key_that_is_a_link_or_cut_short_is_made_anew(folder: Path, dead_bytes: bytes, tmp_path: Path) -> None:
    (folder / "g.jsonl").write_bytes(dead_bytes)
    victim = tmp_path / "victim.txt"
    victim.write_bytes(b"k" * 32)  # (were it followed, its 32 bytes would be the key)
    key = folder / save_index.INDEX_KEY
    key.symlink_to(victim)
    saves.listing(content=content())
    assert not key.is_symlink() and key.read_bytes() != victim.read_bytes() and len(key.read_bytes()) == 32
    assert victim.read_bytes() == b"k" * 32
    assert list(save_index.Index(folder).files) == ["g.jsonl"]
    key.write_bytes(b"short")
    os.utime(key, (1, 1))  # (not one being written this moment)
    saves.listing(content=content())
    assert len(key.read_bytes()) == 32 and list(save_index.Index(folder).files) == ["g.jsonl"]


def test_an_index_signed_in_another_folder_is_not_believed_with_its_key(
    folder: Path, dead_bytes: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (folder / "forged.jsonl").write_bytes(forged(dead_bytes, end={"score": 99999999}))
    assert scores_json(capsys)["scores"] == {}
    index, key = folder / save_index.INDEX, save_index.Index(folder).key  # what a forger has where it made the folder
    obj = json.loads(index.read_bytes().partition(b"\n")[2])
    for facts in obj["facts"].values():
        facts.update(verified=True, why="")
    body = json.dumps(obj, sort_keys=True).encode()
    index.write_bytes(save_index._mac(key, body).encode() + b"\n" + body)
    # the control: signed with this folder's key, it is believed (the forgery is well made)
    assert len(saves.high_scores(saves.listing(folder, content())[0])["crawler"]) == 1
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(folder, elsewhere)  # the folder, its index and its key, as shared or unpacked
    for name in os.listdir(folder):
        os.unlink(folder / name)
    os.rmdir(folder)
    os.rename(elsewhere, folder)
    assert scores_json(capsys)["scores"] == {}  # (its key is another file here: examined anew, unranked)
    assert "99999999" not in json.dumps(scores_json(capsys)["scores"])
