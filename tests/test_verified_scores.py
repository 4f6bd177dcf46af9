"""A result is listed (`games`, `games --scores`, Past games) only once its recording has replayed
to that end and score; the saves folder's index remembers what a replay showed, by the file's digest and size, and
an index or a sidecar that lies is never believed. Every file in a tmp folder."""

from __future__ import annotations

import datetime
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import Mutate
from engine_helpers import content
from tcod.event import KeySym
from ui_helpers import Driver, isolate_user_data, press, screen

from undercroft import record
from undercroft.cli.main import main
from undercroft.content import load_content
from undercroft.record import save_index, saves
from undercroft.record.format import _chain_text, _line
from undercroft.rules.actions import Rest
from undercroft.rules.game import Game
from undercroft.tools import autoplay
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
    key = save_index.key_path()
    assert folder not in key.parents and tmp_path in key.parents  # outside the saves folder; the test's own
    key.parent.mkdir(parents=True, exist_ok=True)
    key.symlink_to(victim)
    saves.listing(content=content())
    assert not key.is_symlink() and key.read_bytes() != victim.read_bytes() and len(key.read_bytes()) == 32
    assert victim.read_bytes() == b"k" * 32
    assert list(save_index.Index(folder).files) == ["g.jsonl"]
    key.write_bytes(b"short")
    os.utime(key, (1, 1))  # (not one being written this moment)
    saves.listing(content=content())
    assert len(key.read_bytes()) == 32 and list(save_index.Index(folder).files) == ["g.jsonl"]


def forge_index(folder: Path, key: bytes) -> None:
    """Mark every fact of ``folder``'s index verified and sign it with ``key`` for that folder (a forger's work)."""
    index = folder / save_index.INDEX
    obj = json.loads(index.read_bytes().partition(b"\n")[2])
    for facts in obj["facts"].values():
        facts.update(verified=True, why="")
    body = json.dumps(obj, sort_keys=True).encode()
    index.write_bytes(save_index._mac(key, save_index._folder_id(folder), body).encode() + b"\n" + body)


def ranked(folder: Path) -> int:
    return sum(len(v) for v in saves.high_scores(saves.listing(folder, content())[0]).values())


@pytest.mark.slow
def test_no_forgery_beside_the_index_is_believed(folder: Path, dead_bytes: bytes, tmp_path: Path) -> None:
    """The three forgeries of a signed index: re-signed with a key put in the saves folder, moved in with its key
    from another folder, signed with a key that has another name (a hard link). None ranks the forged score."""
    (folder / "forged.jsonl").write_bytes(forged(dead_bytes, end={"score": 99999999}))
    assert ranked(folder) == 0
    real = save_index.Index(folder).key
    forge_index(folder, real)
    assert ranked(folder) == 1  # the control: signed with this user's key for this folder, it is believed
    forge_index(folder, real)

    # 1. re-signed with a key beside it (where the key used to be kept)
    own = b"f" * 32
    (folder / ".index.key").write_bytes(own)
    forge_index(folder, own)
    assert ranked(folder) == 0

    # 2. moved in from another folder with its key: signed there (with this very user's key), not believed here
    other = tmp_path / "other"
    other.mkdir()
    (other / "forged.jsonl").write_bytes(forged(dead_bytes, end={"score": 99999999}))
    saves.listing(other, content())
    forge_index(other, real)
    assert ranked(other) == 1  # (believed where it was made)
    forge_index(other, real)
    os.replace(other / save_index.INDEX, folder / save_index.INDEX)
    os.replace(other / "forged.jsonl", folder / "forged.jsonl")
    assert ranked(folder) == 0

    # 3. the key with another name (a hard link someone else holds): refused, and made anew
    forge_index(folder, real)
    os.link(save_index.key_path(), tmp_path / "their-name-for-it")
    assert ranked(folder) == 0
    assert save_index.key_path().read_bytes() != real and save_index.key_path().stat().st_nlink == 1


@pytest.mark.slow
def test_a_score_verified_under_other_data_is_ranked_only_under_that_data(
    folder: Path, dead_bytes: bytes, data_copy: Path, mutate: Mutate, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game played with a mod (a floor worth 1,000 times more) is ranked in that data's table alone; under the
    shipped data it does not score what it says, is never ranked there, and is listed with its data named."""
    mutate(data_copy, "rules.yaml", "per_floor: 100 ", "per_floor: 100000 ")
    mod = load_content(data_copy)
    src = folder.parent / "shipped.jsonl"
    src.write_bytes(dead_bytes)
    rec = record.load_recording(src)
    game = Game(mod, rec.header.ruleset, rec.header.seed)
    with record.Recorder.create(folder / "modded.jsonl", game, mod) as out:
        for _, action, _ in rec.actions:
            record.play_step(game, out, action)
    assert main(["games", "--scores", "--json", "--data", str(data_copy)]) == 0
    modded = json.loads(capsys.readouterr().out)
    assert modded["data"] == mod.digest and [r["score"] for r in modded["scores"]["crawler"]] == [out_score(folder)]
    shipped: dict[str, Any] = scores_json(capsys)
    assert shipped["scores"] == {} and [u["path"] for u in shipped["unverified"]] == [str(folder / "modded.jsonl")]
    assert main(["games"]) == 0
    assert f"(data {mod.digest[:8]})" in capsys.readouterr().out
    assert main(["games", "--scores", "--data", str(data_copy)]) == 0  # (the index's fact for the mod still holds)
    assert f"with the data {data_copy}" in capsys.readouterr().out


def out_score(folder: Path) -> int:
    score = record.load_recording(folder / "modded.jsonl").score
    assert score is not None and score > 99999
    return score


def prefixes(dead: bytes, count: int) -> list[bytes]:
    """``count`` unfinished games, distinct: the first 10, 20, ... actions of ``dead``."""
    lines = dead.splitlines(keepends=True)
    return [b"".join(lines[: 1 + 10 * (k + 1)]) for k in range(count)]


def test_an_interrupted_listing_keeps_what_it_did(
    folder: Path, dead_bytes: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    for k, data in enumerate(prefixes(dead_bytes, 4)):
        (folder / f"g{k}.jsonl").write_bytes(data)
    examined: list[str] = []
    real = save_index.examine

    def counting(p: Path, c: object) -> tuple[save_index.Facts, str]:
        examined.append(p.name)
        return real(p, c)  # type: ignore[arg-type]

    def interrupt(done: int, total: int) -> None:
        if done == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(save_index, "examine", counting)
    with pytest.raises(KeyboardInterrupt):
        saves.listing(content=content(), work=saves.Pass(tell=interrupt))
    assert examined == ["g0.jsonl", "g1.jsonl"]
    todo = saves.listing(content=content())[1]
    assert examined == [f"g{k}.jsonl" for k in range(4)]  # (the two done before were kept)
    assert all(g.checked and g.level == 1 for g in todo)


def test_a_first_listing_out_of_time_lists_the_rest_unchecked_and_the_next_goes_on(
    folder: Path, dead_bytes: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    (folder / "dead.jsonl").write_bytes(dead_bytes)
    for k, data in enumerate(prefixes(dead_bytes, 2)):
        (folder / f"g{k}.jsonl").write_bytes(data)
    assert main(["games", "--replay-for", "0"]) == 0
    out, err = capsys.readouterr()
    assert "3 of 3 saves not replayed yet" in err and "dead (not checked yet)" in out
    assert "Unfinished games (2)" in out and "level ?" in out
    assert scores_json(capsys)["scores"] != {}  # (the next listing replays them: now ranked)
    assert main(["games"]) == 0
    out, err = capsys.readouterr()
    assert "not replayed yet" not in err and "not checked" not in out and "level 1" in out


def test_the_title_shows_how_many_saves_it_still_replays(
    folder: Path, dead_bytes: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    from undercroft.ui.scenes import title

    for k, data in enumerate(prefixes(dead_bytes, 3)):
        (folder / f"g{k}.jsonl").write_bytes(data)
    monkeypatch.setattr(title, "SCAN_S", 0.0)
    monkeypatch.setattr(title, "TICK_S", 0.0)  # (one game a frame)
    d = Driver(SceneStack([TitleScene(content(), seed=7)]))
    assert "Reading the saves: 3 still to replay..." in " ".join(screen(d).split())
    scene = d.scenes[0]
    assert scene.tick_interval() is not None
    scene.on_tick()
    assert "Reading the saves: 2 still to replay..." in " ".join(screen(d).split())
    scene.on_tick()
    scene.on_tick()
    assert scene.tick_interval() is None and "Reading the saves" not in screen(d)
    assert all(g.checked and g.level == 1 for g in scene.games)  # type: ignore[attr-defined]


def test_continue_refuses_a_save_that_does_not_replay_and_offers_a_branch_or_watching(
    folder: Path, dead_bytes: bytes
) -> None:
    """A digest zeroed at turn 20 (the chain made whole again): Continue never takes the game up (the file is not
    written to); it offers a branch from turn 19, the last that replays, or watching it."""
    lines = prefixes(dead_bytes, 3)[-1].splitlines(keepends=True)  # 30 actions, unfinished
    turn, rest = lines[20].split(b" ", 1)
    assert turn == b"20"
    body = rest.rsplit(b" ", 2)[0]
    lines[20] = b"20 " + body + b" " + b"0" * 30 + b" x\n"
    path = folder / "zeroed.jsonl"
    path.write_bytes(rechain(lines))
    before = path.read_bytes()
    d = Driver(SceneStack([TitleScene(content(), seed=7)]))
    press(d, KeySym.C)
    text = " ".join(screen(d).split())
    assert "It does not replay" in text and "from turn 20" in text
    assert "new branch from turn 19, the last that replays" in text and "Watch it" in text
    assert path.read_bytes() == before
    press(d, KeySym.G)
    session = d.scenes[0].session  # type: ignore[attr-defined]
    assert session.game.state.turn == 19 and session.path != path
    session.close()
    assert path.read_bytes() == before


def test_a_copy_or_a_link_is_ranked_once_and_dated_by_its_header(
    folder: Path, dead_bytes: bytes, capsys: pytest.CaptureFixture[str]
) -> None:
    """The game, a byte-identical copy backdated by 20 years and a hard link: one row in the table, dated when
    the game began (its header), whatever the files' times say."""
    started = "2020-01-02T03:04:05Z"
    game = folder / "game.jsonl"
    game.write_bytes(forged(dead_bytes, header={"started": started}))
    shutil.copyfile(game, folder / "copy.jsonl")
    os.utime(folder / "copy.jsonl", (946684800, 946684800))  # 2000-01-01: it would outrank the original
    os.link(game, folder / "link.jsonl")
    rows = scores_json(capsys)["scores"]["crawler"]  # type: ignore[index]
    when = datetime.datetime.fromisoformat(started).astimezone().strftime("%Y-%m-%d %H:%M")
    assert len(rows) == 1 and rows[0]["date"] == when
    assert all(g.date == when for g in saves.past_games(content=content()))


def test_past_games_list_at_once_and_replay_between_frames(
    folder: Path, dead_bytes: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    from undercroft.ui.scenes import past_games

    (folder / "dead.jsonl").write_bytes(dead_bytes)
    (folder / "forged.jsonl").write_bytes(forged(dead_bytes, end={"score": 99999999}))
    monkeypatch.setattr(past_games, "SCAN_S", 0.0)
    monkeypatch.setattr(past_games, "TICK_S", 0.0)  # (one game a frame)
    d = Driver(SceneStack([PastGamesScene(content())]))
    text = " ".join(screen(d).split())
    assert "Reading the saves: 2 still to replay" in text and text.count("dead (not checked yet)") == 2
    scene = d.scenes[0]
    while scene.tick_interval() is not None:
        scene.on_tick()
    text = " ".join(screen(d).split())
    assert "Reading the saves" not in text and "dead (unverified)" in text and text.count("dead ") == 2
    press(d, KeySym.S)
    assert "99999999" not in screen(d) and len(scene.tables["crawler"]) == 1  # type: ignore[attr-defined]
