"""``undercroft autoplay`` and the bot: whole games headless, deterministic, every recording verifiable."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import undercroft.tools.batch
from undercroft.bot import Bot
from undercroft.bot.meeting import bribe_offer
from undercroft.cli.main import main
from undercroft.content import Content
from undercroft.rules import formulas
from undercroft.rules.game import Game
from undercroft.rules.state import Group
from undercroft.rules.types import Origin
from undercroft.sim import chances
from undercroft.tools.autoplay import GameResult, depth_report, game_seed, play_game, summarize


def autoplay(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["autoplay", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow
def test_the_same_seed_gives_the_same_summary(capsys: pytest.CaptureFixture[str]) -> None:
    code, out1, _ = autoplay(capsys, "--games", "4", "--seed", "21", "--json")
    assert code == 0
    code, out2, _ = autoplay(capsys, "--games", "4", "--seed", "21", "--json")
    assert out1 == out2
    summary = json.loads(out1)
    assert {"games", "wins", "deaths", "deepest", "mean_turns", "timeouts"} <= set(summary)
    assert summary["games"] == 4
    assert summary["wins"] + sum(summary["deaths"].values()) + summary["timeouts"] + summary["crashes"] == 4
    assert 1 <= summary["deepest"] <= 8  # the default ruleset's floors
    assert summary["mean_turns"] > 0
    code, out3, _ = autoplay(capsys, "--games", "4", "--seed", "22", "--json")
    assert out3 != out1


@pytest.mark.slow
def test_soak_every_recording_verifies(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """What CI runs: a small batch per ruleset, each recording replayed with --verify."""
    for ruleset in ("undercroft", "citadel", "warden", "crawler"):
        d = tmp_path / ruleset
        code, out, err = autoplay(
            capsys, "--games", "3", "--seed", "100", "--ruleset", ruleset, "--record", str(d), "--json"
        )
        assert code == 0, err
        assert json.loads(out)["crashes"] == 0
        files = sorted(d.glob("*.jsonl"))
        assert len(files) == 3
        for f in files:
            assert main(["replay", "--verify", str(f)]) == 0
            out, err = capsys.readouterr()
            assert "ok" in out, err


def test_text_summary_and_progress(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = autoplay(capsys, "--games", "2", "--seed", "6", "--max-actions", "300")
    assert code == 0
    assert "wins:" in out and "deaths:" in out and "deepest:" in out and "mean turns:" in out
    assert "by level:" in out or "deaths:     0" in out
    # stderr is not a terminal here: no progress bar at all
    assert err == ""


def test_json_keeps_stdout_clean(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = autoplay(capsys, "--games", "2", "--seed", "6", "--json", "--max-actions", "300")
    assert code == 0
    json.loads(out)  # the whole of stdout is one JSON object
    assert err == ""


def test_bad_arguments(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = autoplay(capsys, "--games", "1", "--ruleset", "nethack")
    assert code == 2 and "unknown ruleset 'nethack'" in err
    with pytest.raises(SystemExit):
        autoplay(capsys, "--games", "0")
    blocker = tmp_path / "file"
    blocker.write_text("x")
    code, _, err = autoplay(capsys, "--games", "1", "--record", str(blocker / "sub"))
    assert code == 2 and "Traceback" not in err


def test_a_capped_game_is_a_timeout(content: Content) -> None:
    r = play_game(content, "citadel", 1, max_actions=40)
    assert r.outcome == "timeout" and r.turns == 40
    s = summarize([r])
    assert s["timeouts"] == 1 and s["games"] == 1 and s["wins"] == 0


def test_game_seeds() -> None:
    assert [game_seed(7, i) for i in range(3)] == [7, 8, 9]
    assert game_seed(2**64 - 1, 1) == 0
    assert game_seed("abc", 0) == game_seed("abc", 0)


# --- the bot ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", ["undercroft", "citadel", "warden", "crawler"])
def test_the_bot_never_touches_the_game(content: Content, ruleset: str) -> None:
    """Choosing reads the state only: no dice drawn, nothing changed (its randomness is its own stream)."""
    game = Game(content, ruleset, 77)
    bot = Bot(game, 77)
    for _ in range(300):
        if game.over:
            break
        before = game.checksum()
        a = bot.choose()
        assert game.checksum() == before
        events = game.step(a)
        if len(events) == 1 and events[0].type == "refused":
            bot.refused(a)


def test_the_bot_explores_and_descends(content: Content) -> None:
    results = [play_game(content, "undercroft", s, max_actions=900) for s in (6, 8)]  # (enough to go down)
    assert all(r.deepest >= 2 for r in results)
    assert all(r.outcome in ("dead", "won", "timeout") for r in results)


def group(content: Content, monster: str, n: int = 1) -> Group:
    hp = content.monsters[monster].hp
    return Group(1, monster, [hp] * n, hp, 0, 0, (0, 0), Origin.RESIDENT, 10)


def test_talk_and_bribe_odds(content: Content) -> None:
    game = Game(content, "citadel", 1)
    gob = group(content, "goblin")
    assert 0 < chances.talk_chance(game, gob) < 1
    assert chances.talk_chance(game, group(content, "demon")) == 0  # never negotiated with
    assert bribe_offer(game, gob) is None  # a bribe only after a failed talk
    gob.negotiation = "agreement"
    assert bribe_offer(game, gob) is None  # nor after terms (000 8.7)
    gob.negotiation = "failure"
    offer = bribe_offer(game, gob)
    assert offer is not None and offer <= game.state.gold
    cell = formulas.bribe_cell(content.tables.bribery, content.monsters["goblin"], offer)
    assert cell is not None
    digit = cell[2]
    assert digit / content.tables.bribery.die >= 0.5
    game.state.gold = offer  # exactly the sum: still offered; a coin less, and no sum good enough is within reach
    assert bribe_offer(game, gob) == offer
    game.state.gold = offer - 1
    assert bribe_offer(game, gob) is None
    warden = Game(content, "warden", 1)
    assert chances.talk_chance(warden, group(content, "goblin")) == 0  # no talking below the seal


# --- where the games are played: one process, N processes, a Dask cluster -------------------------------------


def _batch(capsys: pytest.CaptureFixture[str], tmp_path: Path, name: str, *where: str) -> tuple[str, dict[str, bytes]]:
    d = tmp_path / name
    code, out, err = autoplay(
        capsys, "--games", "6", "--seed", "31", "--ruleset", "crawler", "--record", str(d), "--json", *where
    )
    assert code == 0, err
    return out, {p.name: p.read_bytes() for p in sorted(d.iterdir())}


@pytest.mark.slow
def test_jobs_give_the_same_summary_and_recordings_byte_for_byte(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    one, files1 = _batch(capsys, tmp_path, "one", "--jobs", "1")
    three, files3 = _batch(capsys, tmp_path, "three", "--jobs", "3")
    assert one == three
    assert len(files1) == 6 and files1 == files3
    assert json.loads(one)["games"] == 6


@pytest.mark.extras
@pytest.mark.slow  # (a local Dask cluster: about 3.5 s of CPU)
def test_dask_cluster_gives_the_same_results(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")  # the optional extra undercroft[cluster]
    one, files1 = _batch(capsys, tmp_path, "one", "--jobs", "1")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl:
        dask, files_d = _batch(capsys, tmp_path, "dask", "--dask", cl.scheduler_address)
    assert dask == one and files_d == files1


@pytest.mark.extras
def test_an_unreachable_cluster_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("distributed")
    monkeypatch.setattr(undercroft.tools.batch, "CONNECT_TIMEOUT", "1s")
    code, _, err = autoplay(capsys, "--games", "2", "--dask", "tcp://127.0.0.1:9")
    assert code == 2 and "cannot reach the Dask scheduler" in err and "Traceback" not in err
    assert err.count("\n") == 1


def test_jobs_and_dask_exclude_each_other(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        autoplay(capsys, "--games", "2", "--jobs", "2", "--dask", "tcp://127.0.0.1:9")
    with pytest.raises(SystemExit):
        autoplay(capsys, "--games", "2", "--jobs", "0")


# --- deaths without a choice -------------------------------------------------------------------------------------


def test_a_meeting_with_no_way_out_is_one_without_a_choice() -> None:
    from engine_helpers import make_game, meet

    from undercroft.rules.dice import ScriptedDice
    from undercroft.tools.autoplay import had_a_way_out

    game = make_game("citadel", 3, dice=ScriptedDice())
    meet(game, "demon")  # citadel: no running, and a demon cannot be talked to or bribed (8.4)...
    assert game.state.gold > 0 and not had_a_way_out(game)  # ...and dropped treasure buys off nobody (003)
    game = make_game("citadel", 3, dice=ScriptedDice())
    meet(game, "orc")  # ...an orc can be talked to
    assert had_a_way_out(game)


def test_the_summary_counts_deaths_by_level_and_without_a_choice() -> None:
    def r(outcome: str, deepest: int, choice: bool | None) -> GameResult:
        return GameResult(1, "undercroft", outcome, 10, deepest, "Orc" if outcome == "dead" else None, None, choice)

    s = summarize(
        [r("dead", 1, True), r("dead", 3, False), r("dead", 3, True), r("won", 4, None), r("timeout", 2, None)]
    )
    assert s["deaths_by_level"] == [1, 0, 2, 0]
    assert s["deaths_without_choice"] == 1 and s["wins"] == 1 and s["timeouts"] == 1
    assert s["deaths"] == {"Orc": 3}


def test_a_death_to_a_group_first_run_from_is_counted() -> None:
    """The party's first answer to a group is the first action that is not a drink, a use or a wait: a death to a
    group whose first answer was a run counts among the deaths after running (warden's target)."""
    from engine_helpers import make_game, meet

    from undercroft.rules.actions import Drink, Fight, Run, Wait
    from undercroft.rules.dice import ScriptedDice
    from undercroft.tools.autoplay import Ledger

    game = make_game("citadel", 3, dice=ScriptedDice())
    group, _ = meet(game, "orc")
    ledger = Ledger(game)
    for action in (Drink(0), Wait(), Run(), Fight()):
        ledger.chose(group, action)
    assert ledger.answers == {group.id: Run}
    ran = GameResult(1, "warden", "dead", 10, 1, "Gaoler", None, True, ran_first=True)
    fought = GameResult(2, "warden", "dead", 10, 1, "Gaoler", None, True, ran_first=False)
    assert summarize([ran, fought, ran])["deaths_after_running"] == 2


def test_every_death_of_a_batch_says_whether_it_had_a_choice(content: Content) -> None:
    results = [play_game(content, "citadel", s, max_actions=3000) for s in range(1, 5)]
    assert all((r.choice is not None) == (r.outcome == "dead") for r in results)


# --- the novice, the kit, the cornered meetings -------------------------------------------------------------------


def test_the_novice_never_drops_bribes_or_burns_oil(content: Content) -> None:
    """A first-time player: the novice's own games hold no drop, bribe or oil, and it drinks only below a quarter."""
    from undercroft.bot import Novice
    from undercroft.rules.actions import Bribe, Drink, DropFood, DropTreasure, ThrowOil

    for ruleset, seed in (("undercroft", 4), ("warden", 4321)):
        game = Game(content, ruleset, seed)
        bot = Novice(game, seed)
        while not game.over and game.state.turn < 400:
            action = bot.choose()
            assert not isinstance(action, (DropFood, DropTreasure, Bribe, ThrowOil)), action
            if isinstance(action, Drink):
                m = game.state.party[action.member]
                assert m.hp < m.max_hp / 4
            events = game.step(action)
            if len(events) == 1 and events[0].type == "refused":
                bot.refused(action)


def test_autoplay_takes_a_policy(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = autoplay(
        capsys, "--games", "2", "--seed", "4321", "--ruleset", "warden", "--json", "--policy", "novice"
    )
    assert code == 0
    summary = json.loads(out)
    assert summary["policy"] == "novice" and summary["games"] == 2
    assert {"deaths_by_level", "deaths_without_choice", "cornered_on_floor_1", "cornered_by_monster"} <= set(summary)
    with pytest.raises(SystemExit):
        main(["autoplay", "--policy", "reckless"])
    capsys.readouterr()


def test_the_summary_counts_cornered_meetings() -> None:
    from dataclasses import replace

    base = GameResult(seed=1, ruleset="undercroft", outcome="won", turns=10, deepest=8)
    results = [replace(base, cornered=("Orc", "Ogre")), replace(base, cornered=("Orc",)), base]
    summary = summarize(results)
    assert summary["cornered_on_floor_1"] == 3
    assert summary["cornered_by_monster"] == {"Orc": 2, "Ogre": 1}


def test_the_careful_bot_buys_armour_that_beats_its_kit_and_wears_it(content: Content) -> None:
    """Potions first; then the armour for sale with the most defense over what it wears; put on with Use."""
    from undercroft.bot import kit
    from undercroft.rules import items, shop

    game = Game(content, "undercroft", 3)
    st = game.state
    st.gold = 1000
    st.wares = {i: 1 for i in shop.stock(content, 0)}  # at the first floor's merchant, one of each
    for m in st.party:
        m.armour = ""
    best = kit.upgrade(game)
    assert best is not None
    bought = items.catalogue(content)[best]
    assert content.items[bought].kind in ("armour", "weapon")
    st.items["leather_armour"] = 1
    use = kit.better_in_pack(game)
    assert use is not None and items.catalogue(content)[use[0]] == "leather_armour"
    st.party[use[1]].armour = "leather_armour"
    st.items["leather_armour"] = 0
    assert kit.better_in_pack(game) is None


def test_the_careful_bot_buys_a_piece_once_not_again_before_it_puts_it_on(content: Content) -> None:
    """A piece bought at the merchant waits in the pack until the bot puts it on: the next purchase must beat it too
    (the undercroft-1 golden's bot bought three Mail Shirts in a row, 240 gold for one)."""
    from undercroft.bot import kit
    from undercroft.rules import items, shop

    game = Game(content, "undercroft", 3)
    st = game.state
    st.gold = 1000
    st.wares = {i: 1 for i in shop.stock(content, 0)}  # at the first floor's merchant, one of each
    for m in st.party:
        m.armour = ""
    first = kit.upgrade(game)
    assert first is not None
    bought = items.catalogue(content)[first]
    st.items[bought] = 1  # bought, not yet worn
    again = kit.upgrade(game)
    assert again is None or items.catalogue(content)[again] != bought
    if again is not None:  # only something better than the piece in the pack
        other = items.catalogue(content)[again]
        assert kit.gain(game, other, with_pack=True)[0] > 0


@pytest.mark.slow
@pytest.mark.parametrize(("ruleset", "seed"), [("undercroft", 93), ("undercroft", 436), ("crawler", 93)])
def test_the_games_that_stalled_play_to_their_end(content: Content, ruleset: str, seed: int) -> None:
    """Three of the 1,000-game report's timeouts (the second round of the arc): undercroft 93 and 436 ended a chase on a
    tile of a corridor entered before, unmapped round the party, and the careful bot found no floor to walk on;
    crawler 93 saw the stairs beyond floor it had not seen, and would not walk through a room it had fled from to
    see more. Each now plays to its end (won or dead) within the stop rules."""
    assert play_game(content, ruleset, seed).outcome in ("won", "dead")


def test_a_game_is_measured_floor_by_floor(content: Content) -> None:
    """The ledger: each floor reached once, in order, with the gold and potions the party came with (floor 1: the
    ruleset's start), the gold spent at the merchant, and its fights' hit points lost as a share of the maximum."""
    start = Game(content, "undercroft", 97001).state
    r = play_game(content, "undercroft", 97001, max_actions=900)
    assert [f.floor for f in r.floors] == list(range(1, r.deepest + 1)) and r.deepest >= 3
    first = r.floors[0]
    assert first.gold == start.gold and first.potions == 2 and first.spent == 0  # no merchant before the stairs
    assert any(f.spent > 0 for f in r.floors[1:])  # the careful bot shops at the foot of the stairs
    assert all(0 <= f.hp_lost <= f.fights for f in r.floors) and sum(f.fights for f in r.floors) > 0
    assert {m.floor for m in r.meetings} <= set(range(1, r.deepest + 1)) and not r.kit and not r.build
    floors = depth_report([r])["floors"]
    assert floors[0]["arrivals"] == 1 and floors[0]["meetings"] == sum(m.floor == 1 for m in r.meetings)
