"""``undercroft balance``: the statistics on hand-made games, the generated section of the report, the charts.

The statistics and their targets are checked on hand-made :class:`GameResult` lists; the command itself plays a
few games of two rulesets into ``tmp_path`` (never docs/BALANCE.md).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from undercroft.cli.main import main
from undercroft.tools import balance, balance_charts, balance_report
from undercroft.tools.autoplay import Floor, GameResult, Meeting
from undercroft.tools.balance import RulesetStats, ruleset_stats, verdicts, wilson
from undercroft.tools.balance_report import BEGIN, END, replace_section

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def game(
    outcome: str,
    deepest: int,
    cause: str | None = None,
    choice: bool | None = None,
    turns: int = 100,
    ruleset: str = "undercroft",
) -> GameResult:
    return GameResult(
        seed=0, ruleset=ruleset, outcome=outcome, turns=turns, deepest=deepest, cause=cause, choice=choice
    )


def sample(ruleset: str = "undercroft") -> list[GameResult]:
    """10 games: 3 won, 6 dead (level 1: 1, level 2: 3, level 3: 2), 1 timeout on level 2."""
    return [
        game("won", 4, turns=900, ruleset=ruleset),
        game("won", 4, turns=800, ruleset=ruleset),
        game("won", 4, turns=700, ruleset=ruleset),
        game("dead", 1, "Orc", True, ruleset=ruleset),
        game("dead", 2, "Orc", False, ruleset=ruleset),
        game("dead", 2, "Troll", True, ruleset=ruleset),
        game("dead", 2, "Ghoul", True, ruleset=ruleset),
        game("dead", 3, "Troll", True, ruleset=ruleset),
        game("dead", 3, "Orc", True, ruleset=ruleset),
        game("timeout", 2, turns=5000, ruleset=ruleset),
    ]


# --- statistics -------------------------------------------------------------------------------------------------


def test_wilson_interval_on_known_values() -> None:
    assert wilson(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson(50, 100) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_ruleset_stats_counts_and_shares() -> None:
    s = ruleset_stats("undercroft", sample(), levels=4)
    assert (s.games, s.wins, s.deaths, s.timeouts, s.crashes) == (10, 3, 6, 1, 0)
    assert s.win_rate == pytest.approx(0.3)
    assert s.deaths_by_level == (1, 3, 2, 0)
    assert s.level_shares == pytest.approx((1 / 6, 0.5, 1 / 3, 0.0))
    assert s.worst_level[0] == 2 and s.worst_level[1] == pytest.approx(0.5)
    assert s.deaths_by_monster == (("Orc", 3), ("Troll", 2), ("Ghoul", 1))
    assert s.no_choice == 1
    assert s.no_choice_share == pytest.approx(1 / 6)
    # reached level k: every game reached 1; 9 reached 2 (all but the level-1 death); 5 reached 3; 3 reached 4
    assert s.survival == pytest.approx((1.0, 0.9, 0.5, 0.3))
    assert s.mean_turns == pytest.approx((900 + 800 + 700 + 6 * 100 + 5000) / 10)


def test_ruleset_stats_without_games_or_deaths() -> None:
    empty = ruleset_stats("warden", [], levels=4)
    assert (empty.games, empty.deaths, empty.win_rate, empty.mean_turns) == (0, 0, 0.0, 0.0)
    assert empty.survival == (0.0, 0.0, 0.0, 0.0)
    assert empty.worst_level == (0, 0.0)
    only_wins = ruleset_stats("warden", [game("won", 4)], levels=4)
    assert only_wins.survival == (1.0, 1.0, 1.0, 1.0)
    assert only_wins.no_choice_share == 0.0


def test_a_death_deeper_than_the_levels_widens_the_tables() -> None:
    s = ruleset_stats("crawler", [game("dead", 5, "Demon", True)], levels=4)
    assert s.deaths_by_level == (0, 0, 0, 0, 1)
    assert len(s.survival) == 5


def test_verdicts() -> None:
    s = ruleset_stats("undercroft", sample(), levels=4)
    v = {x.name: x.met for x in verdicts(s)}
    # win 30 % in 30-50 %; floor 1 1/6 <= 20 %; none on floors 6-8 (< 40 %); no choice 1/6 > 5 %; one timeout
    assert v == {
        "win_rate": True,
        "floor_1": True,
        "deep_floors": False,
        "no_choice": False,
        "cornered": True,
        "timeouts": False,
        "crashes": True,
    }
    deep = [game("dead", k, "Orc", True) for k in (1, 5, 6, 7, 8)] + [game("won", 8)] * 5
    v = {x.name: x.met for x in verdicts(ruleset_stats("undercroft", deep, 8))}
    assert v["floor_1"] is True and v["deep_floors"] is True  # floor 1 holds 1 of 5 deaths: 20 %; floors 6-8 60 %
    shallow = [game("dead", 1, "Orc", True)] * 2 + [game("dead", 6, "Orc", True)] * 3 + [game("won", 8)] * 5
    v = {x.name: x.met for x in verdicts(ruleset_stats("undercroft", shallow, 8))}
    assert v["floor_1"] is False and v["deep_floors"] is True  # floor 1 holds 40 %
    warden = {x.name: x.met for x in verdicts(ruleset_stats("warden", sample("warden"), levels=4))}
    assert warden["win_rate"] is False  # 30 % is over warden's 5-25 %
    unknown = verdicts(ruleset_stats("homebrew", sample("homebrew"), levels=4))
    assert "win_rate" not in {x.name for x in unknown}
    no_choice = [game("dead", k, "Orc", False) for k in (1, 2, 3)] + [game("won", 4)] * 7
    assert not {x.name: x.met for x in verdicts(ruleset_stats("crawler", no_choice, 4))}["no_choice"]
    assert balance.all_met([]) is True


def test_the_novice_is_judged_by_its_own_targets() -> None:
    """The novice wins at least 2 % of undercroft's games and reaches floor 3 in at least half of them; the
    careful bot's bands, deaths without a choice and cornered meetings are not its targets."""
    novice = ruleset_stats("undercroft", sample(), levels=4, policy="novice")
    v = {x.name: x.met for x in verdicts(novice)}
    assert v == {"win_rate": True, "reaches": True, "timeouts": False, "crashes": True}  # 5 of 10 reached floor 3
    first = [game("dead", 1, "Orc", True)] * 6 + [game("dead", 2, "Orc", True)] * 4
    v = {x.name: x.met for x in verdicts(ruleset_stats("undercroft", first, 4, policy="novice"))}
    assert v == {"win_rate": False, "reaches": False, "timeouts": True, "crashes": True}  # 0 % won, none on 3
    assert [x.name for x in verdicts(ruleset_stats("warden", first, 4, policy="novice"))] == ["timeouts", "crashes"]


def test_the_greedy_player_wins_at_most_a_share_of_the_careful_bots_rate() -> None:
    greedy = ruleset_stats("undercroft", sample(), levels=4, policy="greedy")  # 30 % won
    assert [x.name for x in verdicts(greedy)] == ["timeouts", "crashes"]  # (no careful games to judge it by)
    judged = {x.name: x for x in verdicts(replace(greedy, careful=(6, 10)))}
    assert judged["greedy_share"].met and judged["greedy_share"].value.startswith("0.50 x")  # 30 % against 60 %
    assert not {x.name: x.met for x in verdicts(replace(greedy, careful=(35, 100)))}["greedy_share"]  # 0.86 x
    assert balance.ratio_interval(30, 100, 60, 100) == pytest.approx((0.3561, 0.7021), abs=1e-4)
    low, high = balance.ratio_interval(0, 100, 60, 100)  # (a half added to each count)
    assert (low, high) == pytest.approx((0.000518, 0.1318), abs=1e-4)
    assert balance.ratio_interval(0, 0, 1, 1) == (0.0, float("inf"))


def deep_game(outcome: str, deepest: int, potions: int, kit: tuple[str, ...], build: str = "") -> GameResult:
    """A game measured floor by floor: 100 gold on each floor, 50 of it spent from floor 6; one meeting a floor,
    flat (99 %) above floor 6 and 80 % from it, and the Unlit at 90 % on floor 8."""
    floors = tuple(Floor(k, 100, potions, 50 if k >= 6 else 0, 1, 0.25) for k in range(1, deepest + 1))
    meetings = tuple(Meeting(k, "orc", 0.99 if k < 6 else 0.8) for k in range(1, deepest + 1))
    if deepest == 8:
        meetings += (Meeting(8, "the_unlit", 0.9, guardian=True),)
    return replace(
        game(outcome, deepest, None if outcome == "won" else "Orc", True),
        floors=floors,
        meetings=meetings,
        kit=kit,
        build=build,
    )


def test_the_second_half_is_judged_floor_by_floor() -> None:
    """Undercroft's last floors: wins on the last floor, each guardian's median odds, flat meetings on floors 6-8,
    potions carried there, the most common kept thing, the builds of the wins and the gold spent deep down."""
    won = [deep_game("won", 8, 5, ("plate_armour", "runed_blade"), f"Blade {i % 3}") for i in range(6)]
    lost = [deep_game("dead", 8, 5, ("mail_shirt", "runed_blade")), deep_game("dead", 6, 5, ())]
    s = ruleset_stats("undercroft", won + lost, 8)
    v = {x.name: x for x in verdicts(s)}
    assert not v["last_floor_wins"].met and v["last_floor_wins"].value.startswith("85.7 %")  # 6 of the 7 on floor 8
    assert not v["finale_the_unlit"].met and v["finale_the_unlit"].value.startswith("90.0 %")
    assert all(v[f"flat_{k}"].met for k in (6, 7, 8))  # 80 % reads under 95 %: none flat
    assert not v["potions"].met and v["potions"].value.startswith("5.00")
    assert not v["kits"].met and "runed_blade" in v["kits"].target  # in all 7 kits
    assert v["builds"].met and v["builds"].value == "3"  # three builds, two wins each
    assert v["spending"].met and v["spending"].value.startswith("50.0 %")
    floors = s.to_dict()["floors"]
    assert [f["arrivals"] for f in floors] == [8, 8, 8, 8, 8, 8, 7, 7] and floors[5]["deaths"] == 1
    assert floors[0]["flat"] == 1.0 and floors[6]["flat"] == 0.0 and floors[7]["hp_lost_per_fight"] == 0.25
    text = balance_report.render_section([s], command="c", seed=1, games=8)
    assert "| 8 | 7 | 1 | 0.0 % of 14 | 25.0 % | 100 | 5.0 | 50.0 % | 1 |" in text  # a guardian too in each
    assert "Builds of the wins (weapon, armour): Blade 0 2, Blade 1 2, Blade 2 2." in text
    assert all(len(line) <= 120 for line in text.splitlines())


def test_cornered_meetings_are_counted_and_judged() -> None:
    cornered = [replace(game("dead", 1, "Orc", True), cornered=("Orc", "Orc")), game("won", 4)]
    cornered.append(replace(game("won", 4), cornered=("Ogre",)))
    s = ruleset_stats("undercroft", cornered, 4)
    assert s.cornered == (("Orc", 2), ("Ogre", 1)) and s.cornered_meetings == 3
    assert not {x.name: x.met for x in verdicts(s)}["cornered"]
    assert s.to_dict()["cornered_by_monster"] == {"Orc": 2, "Ogre": 1}


def test_to_dict_is_json() -> None:
    d = ruleset_stats("undercroft", sample(), levels=4).to_dict()
    assert json.loads(json.dumps(d)) == d
    assert d["win_ci95"] == [pytest.approx(0.1078, abs=1e-4), pytest.approx(0.6032, abs=1e-4)]
    assert d["targets"]["deep_floors"]["met"] is False
    assert d["targets"]["win_rate"]["ci95"] == d["win_ci95"]


# --- markdown ---------------------------------------------------------------------------------------------------


def stats_pair() -> list[RulesetStats]:
    return [ruleset_stats("undercroft", sample(), 4), ruleset_stats("warden", sample("warden"), 4)]


def test_render_section() -> None:
    text = balance_report.render_section(
        stats_pair(),
        command="undercroft balance --games 10 --seed 1",
        seed=1,
        games=10,
        charts={"survival.png": "balance/survival.png"},
    )
    assert text.startswith(BEGIN) and text.endswith(END)
    assert text.count(BEGIN) == 1 and text.count(END) == 1
    assert "undercroft balance --games 10 --seed 1" in text
    row = (
        "| undercroft | careful | 10 | 30.0 [10.8, 60.3] ok | 6 | 16.7 % ok | 0.0 % **no** | 16.7 % **no** | 1 **no** |"
    )
    assert row in text
    assert "- win rate: 30.0 % [10.8, 60.3]; target 30-50 %: ok" in text
    assert "](balance/survival.png)" in text and "win_rate.png" not in text
    assert "### warden, careful" in text and "| Orc | 3 | 50.0 % |" in text
    assert all(len(line) <= 120 for line in text.splitlines())


def test_replace_section_keeps_the_rest() -> None:
    section = f"{BEGIN}\nnew\n{END}"
    doc = f"# T\n\nbefore\n\n{BEGIN}\nold\n{END}\n\nafter\n"
    assert replace_section(doc, section) == f"# T\n\nbefore\n\n{section}\n\nafter\n"
    assert replace_section(replace_section(doc, section), section) == replace_section(doc, section)
    assert replace_section("# T\n", section) == f"# T\n\n{section}\n"
    assert replace_section("# T", section) == f"# T\n\n{section}\n"
    assert replace_section("", section) == f"{section}\n"
    appended = replace_section("# T\n", section)
    assert replace_section(appended, section) == appended
    for bad in (f"{END}\n{BEGIN}\n", f"{BEGIN}\n", f"{BEGIN}{END}{BEGIN}{END}"):
        with pytest.raises(ValueError):
            replace_section(bad, section)


# --- the command ------------------------------------------------------------------------------------------------


def run_balance(tmp_path: Path, *extra: str) -> int:
    return main(
        [
            "balance",
            "--games",
            "1",
            "--seed",
            "5",
            "--rulesets",
            "warden,crawler",
            "--jobs",
            "1",
            "--write",
            str(tmp_path / "BALANCE.md"),
            *extra,
        ]
    )


@pytest.fixture
def no_charts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tables only, matplotlib installed or not (the charts have their own test, under extras: slow)."""
    monkeypatch.setattr(balance_charts, "plotting", lambda: None)


@pytest.mark.slow  # (the bots' games, twice: near a second of CPU, over it on a busy run)
@pytest.mark.usefixtures("no_charts")
def test_the_command_rewrites_only_its_section(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = tmp_path / "BALANCE.md"
    before, after = "# Balance\n\nHand-written prose.\n\n", "\n\n## Later\n\nMore prose.\n"
    doc.write_text(f"{before}{BEGIN}\nstale\n{END}{after}", encoding="utf-8")
    assert run_balance(tmp_path) == 0
    out, err = capsys.readouterr()
    assert "warden careful:" in out and "warden novice:" in out and "crawler greedy:" in out
    assert "Traceback" not in err
    first = doc.read_text(encoding="utf-8")
    assert first.startswith(before + BEGIN) and first.endswith(END + after)
    assert first.count(BEGIN) == 1 and first.count(END) == 1 and "stale" not in first
    assert "undercroft balance --games 1 --seed 5 --rulesets warden,crawler --write" in first
    assert first.index("### warden, careful") < first.index("### warden, novice") < first.index("### warden, greedy")
    assert first.index("### warden, greedy") < first.index("### crawler")
    assert run_balance(tmp_path) == 0
    capsys.readouterr()
    assert doc.read_text(encoding="utf-8") == first  # the same seed: the same games, the same section


@pytest.mark.usefixtures("no_charts")  # (with the plot extra installed, drawing them passed the second)
def test_prose_edited_while_the_games_play_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Found in use: a section of prose written into BALANCE.md during a 17-minute run was lost, the command having
    rewritten the file as it was when it started."""
    import undercroft.tools.batch

    doc = tmp_path / "BALANCE.md"
    doc.write_text(f"# Balance\n\n{BEGIN}\nstale\n{END}\n", encoding="utf-8")
    real = undercroft.tools.batch.run

    def playing(*args: object, **kwargs: object) -> object:
        doc.write_text(doc.read_text(encoding="utf-8") + "\n## Written meanwhile\n", encoding="utf-8")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(undercroft.tools.batch, "run", playing)
    assert run_balance(tmp_path, "--rulesets", "warden", "--policies", "careful") == 0  # (one batch is enough)
    text = doc.read_text(encoding="utf-8")
    assert "## Written meanwhile" in text and "stale" not in text


@pytest.mark.slow  # (the bots' games, twice: near a second of CPU, over it on a busy run)
@pytest.mark.usefixtures("no_charts")
def test_the_command_appends_a_section_and_prints_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = tmp_path / "BALANCE.md"
    doc.write_text("# Balance\n", encoding="utf-8")
    assert run_balance(tmp_path, "--json") == 0
    out, _err = capsys.readouterr()
    lines = out.splitlines()
    assert len(lines) == 1
    result = json.loads(lines[0])
    assert list(result["rulesets"]) == ["warden", "crawler"]
    assert result["seed"] == 5 and result["games"] == 1
    assert result["rulesets"]["warden"]["games"] == 1
    assert list(result["policies"]) == ["careful", "novice", "greedy", "thorough"]
    novice = result["policies"]["novice"]["warden"]
    assert novice["policy"] == "novice" and novice["games"] == 1 and "cornered_on_floor_1" in novice
    text = doc.read_text(encoding="utf-8")
    assert text.startswith(f"# Balance\n\n{BEGIN}") and text.endswith(f"{END}\n")
    assert run_balance(tmp_path, "--json") == 0
    assert doc.read_text(encoding="utf-8").count(BEGIN) == 1


@pytest.mark.extras
@pytest.mark.slow  # (matplotlib and four charts: over a second of CPU)
def test_the_charts_are_pngs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    assert run_balance(tmp_path, "--charts", str(tmp_path / "figs")) == 0
    capsys.readouterr()
    for name in balance.CHART_NAMES:
        data = (tmp_path / "figs" / name).read_bytes()
        assert data.startswith(PNG_MAGIC) and len(data) > 1000
    text = (tmp_path / "BALANCE.md").read_text(encoding="utf-8")
    assert "](figs/survival.png)" in text and "](figs/win_rate.png)" in text


@pytest.mark.usefixtures("no_charts")
def test_without_matplotlib_the_tables_are_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run_balance(tmp_path, "--rulesets", "warden", "--policies", "careful") == 0  # (one batch is enough)
    _out, err = capsys.readouterr()
    assert err.splitlines() == ["undercroft: charts need the optional extra: pip install 'undercroft[plot]'"]
    text = (tmp_path / "BALANCE.md").read_text(encoding="utf-8")
    assert "| ruleset | bot | games |" in text and ".png" not in text
    assert not (tmp_path / "balance").exists()


@pytest.mark.parametrize(
    "argv, words",
    [
        (["--rulesets", "warden,nowhere"], "unknown ruleset 'nowhere'"),
        (["--rulesets", ","], "names no ruleset"),
        (["--rulesets", " warden, ,citadel,nowhere "], "unknown ruleset 'nowhere'"),
        (["--policies", "a"], "unknown policy 'a'; known: careful, novice, greedy"),
        (["--policies", " , "], "--policies names no policy"),
    ],
)
def test_bad_arguments_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    assert main(["balance", "--games", "1", "--write", str(tmp_path / "B.md"), *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and err.startswith("undercroft: ") and words in err
    assert not (tmp_path / "B.md").exists()


def test_a_bad_count_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["balance", "--games", "0", "--write", str(tmp_path / "B.md")])
    assert info.value.code == 2
    out, err = capsys.readouterr()
    assert out == "" and "expected a whole number 1..1,000,000" in err and "Traceback" not in err


def test_an_unwritable_path_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "dir.md").mkdir()
    assert main(["balance", "--games", "1", "--rulesets", "warden", "--write", str(tmp_path / "dir.md")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and "is a directory" in err
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    assert main(["balance", "--games", "1", "--rulesets", "warden", "--write", str(blocker / "B.md")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and "cannot create its directory" in err


# --- until settled ----------------------------------------------------------------------------------------------


def test_a_target_is_decided_when_its_interval_leaves_no_doubt() -> None:
    """The win rate's target 30-50 %: 40 of 100 (interval 31-50 %) is decided, met; 30 of 100 (21-40 %) is not
    decided; 10 of 100 (5-17 %) is decided, missed. A count is always decided."""
    wins = {40: (True, True), 30: (False, None), 10: (True, False)}
    for n, (settled, met) in wins.items():
        results = [game("won", 8)] * n + [game("dead", 6, "Orc", True)] * (100 - n)
        (v,) = [v for v in verdicts(ruleset_stats("undercroft", results, 8)) if v.name == "win_rate"]
        assert v.decided is settled and (met is None or v.met is met)
    timeouts = [v for v in verdicts(ruleset_stats("undercroft", sample(), 4)) if v.name == "timeouts"]
    assert timeouts[0].decided and not timeouts[0].met


def fake_games(share_won: int, calls: list[tuple[int, int]]) -> object:
    """batch.run for the balance without playing: game seed s is won when s % 10 < ``share_won`` (tenths), else a
    death with a choice on floor 6; each call's (first seed, games) noted in ``calls``."""

    def run(content: object, ruleset: str, first: int, n: int, **kw: object) -> list[GameResult]:
        calls.append((first, n))
        out = []
        for seed in range(first, first + n):
            won = seed % 10 < share_won
            r = GameResult(seed, ruleset, "won" if won else "dead", 100, 8 if won else 6, None if won else "Orc")
            out.append(r if won else replace(r, choice=True))
            kw["progress"](out[-1])  # type: ignore[operator]
        return out

    return run


@pytest.mark.usefixtures("no_charts")
@pytest.mark.parametrize(
    ("share_won", "calls_made", "words"), [(4, 2, "decided after 200 games"), (3, 3, "not decided")]
)
def test_until_settled_stops_when_every_target_is_decided_or_at_the_cap(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    share_won: int,
    calls_made: int,
    words: str,
) -> None:
    """40 % won (the band 30-50 %): the win rate is decided after the first batch of 100, but 60 deaths all with a
    choice leave "at most 5 % without one" in doubt (0 of 60: up to 6 %) until the second (0 of 120: up to 3 %);
    30 %: the win rate's interval straddles the band's edge, so the games go on to the cap (250), in batches from
    the next seed on."""
    import undercroft.tools.batch

    calls: list[tuple[int, int]] = []
    monkeypatch.setattr(undercroft.tools.batch, "run", fake_games(share_won, calls))
    doc = tmp_path / "BALANCE.md"
    argv = ["balance", "--until-settled", "--games", "250", "--seed", "7", "--rulesets", "undercroft"]
    assert main([*argv, "--policies", "careful", "--write", str(doc)]) == 0
    out = capsys.readouterr().out
    assert "until settled (batches of 100, at most 250 games)" in out
    assert f"undercroft careful: {100 * calls_made if calls_made < 3 else 250} games, won" in out
    assert calls == [(7, 100), (107, 100), (207, 50)][:calls_made]
    text = doc.read_text(encoding="utf-8")
    assert "undercroft balance --games 250 --seed 7 --until-settled --rulesets undercroft" in text
    assert "Played until settled: batches of 100 games" in text and words in text
    assert f"{100 * calls_made if calls_made < 3 else 250} games:" in text
