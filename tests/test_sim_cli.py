"""``undercroft sim``: output, JSON, validation, the progress bar and the "Every monster" block of BALANCE.md."""

from __future__ import annotations

import io
import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from undercroft.cli import sim as sim_cli
from undercroft.cli.main import main
from undercroft.content import Content
from undercroft.sim import simulate
from undercroft.sim.odds import matchup_spec

BALANCE = Path(__file__).resolve().parent.parent / "docs" / "BALANCE.md"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["sim", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def sim_json(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    code, out, err = run(capsys, *argv, "--json")
    assert code == 0, err
    return json.loads(out)


# --- results -------------------------------------------------------------------------------------------------


def test_json_has_every_key_and_the_exact_stats_used(capsys: pytest.CaptureFixture[str], content: Content) -> None:
    r = sim_json(capsys, "gaoler", "--fights", "5000", "--seed", "3")
    for key in ("win", "death", "rounds_mean", "rounds_p90", "hp_lost_mean", "fights", "delver", "monster"):
        assert key in r
    assert r["fights"] == 5000 and r["win"] + r["death"] + r["stalemate"] == pytest.approx(1.0)
    ch, mon = content.party["delver"], content.monsters["gaoler"]
    d, m = r["delver"], r["monster"]
    assert (d["hp"], d["defense"], d["might"], d["weapon"], d["agility"]) == (
        ch.hp,
        ch.defense,
        ch.might,
        content.items[ch.weapon].damage,
        ch.agility,
    )
    assert (m["hp"], m["defense"], m["attack"], m["damage"], m["agility"], m["count"]) == (
        mon.hp,
        mon.defense,
        mon.attack,
        mon.damage,
        mon.agility,
        1,
    )
    expected = simulate(matchup_spec(content, "gaoler"), 5000, 3)
    assert (r["win"], r["rounds_mean"], r["rounds_p90"], r["hp_lost_mean"]) == (
        expected.win,
        expected.rounds_mean,
        expected.rounds_p90,
        expected.hp_lost_mean,
    )
    lo, hi = r["win_ci"]
    assert lo <= r["win"] <= hi


def test_the_same_seed_gives_the_same_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    a = sim_json(capsys, "sump_leeches", "--count", "3", "--fights", "3000", "--seed", "9")
    b = sim_json(capsys, "sump_leeches", "--count", "3", "--fights", "3000", "--seed", "9")
    c = sim_json(capsys, "sump_leeches", "--count", "3", "--fights", "3000", "--seed", "word")
    assert a == b and a["monster"]["count"] == 3
    assert c["win"] != a["win"] or c["hp_lost_mean"] != a["hp_lost_mean"]


def test_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "empty_harness", "--fights", "2000", "--hp", "7")
    assert code == 0 and err == ""  # no progress bar off a terminal
    assert "Delver (hp 7/12" in out and "1 x Empty Harness" in out and "2,000 fights" in out
    for label in ("win", "death", "rounds", "90th percentile", "HP lost"):
        assert label in out
    assert re.search(r"win\s+\d+\.\d\d%\s+\(\d+\.\d\d-\d+\.\d\d%\)", out)


def test_hp_and_exhaustion_change_the_odds(capsys: pytest.CaptureFixture[str]) -> None:
    fresh = sim_json(capsys, "gaoler", "--fights", "20000")
    hurt = sim_json(capsys, "gaoler", "--fights", "20000", "--hp", "4")
    tired = sim_json(capsys, "gaoler", "--fights", "20000", "--exhausted")
    assert hurt["delver"]["hp"] == 4 and hurt["win"] < fresh["win"]
    assert tired["delver"]["exhausted"] and tired["win"] < fresh["win"]


def test_ruleset_picks_the_delver_and_the_rules(capsys: pytest.CaptureFixture[str], content: Content) -> None:
    r = sim_json(capsys, "ogre", "--ruleset", "citadel", "--fights", "1000")
    first = content.ruleset("citadel").party[0]
    assert r["delver"]["character"] == first and r["delver"]["hp"] == content.party[first].hp
    code, out, err = run(capsys, "gaoler", "--ruleset", "warden", "--exhausted", "--fights", "1000", "--json")
    assert code == 0 and "no fatigue" in err and json.loads(out)["delver"]["exhausted"] is False


# --- errors --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["gaolr"], "unknown monster 'gaolr'; did you mean 'gaoler'?"),
        (["gaoler", "--count", "0"], "--count must be 1..100, not 0"),
        (["gaoler", "--count", "101"], "--count must be 1..100, not 101"),
        (["gaoler", "--hp", "0"], "--hp must be 1..12 (the Delver's hit points), not 0"),
        (["gaoler", "--hp", "13"], "--hp must be 1..12 (the Delver's hit points), not 13"),
        (["gaoler", "--fights", "0"], "--fights must be 1..100,000,000, not 0"),
        (["gaoler", "--fights", str(10**30)], "--fights must be 1..100,000,000, not a number of 31 digits or more"),
        (["gaoler", "--ruleset", "wardn"], "unknown ruleset 'wardn'; did you mean 'warden'?"),
        ([], "name a monster (one of: "),
        (["gaoler", "--all"], "give a MONSTER or --all, not both"),
        (["gaoler", "--markdown"], "--markdown makes the table of every monster: use it with --all"),
        (["--all", "--write", "x.md"], "--write rewrites a markdown block: use it with --all --markdown"),
    ],
)
def test_clear_errors_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith(f"undercroft: {message}"), err
    assert "Traceback" not in err


def test_a_non_number_is_an_argparse_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["sim", "gaoler", "--count", "three"])
    assert exc.value.code == 2
    assert "argument --count: expected a whole number, not 'three'" in capsys.readouterr().err


# --- the progress bar ----------------------------------------------------------------------------------------


class FakeTTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal_and_only_for_long_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = io.StringIO()
    quiet = sim_cli.Progress(1000, plain)
    quiet.update(500)
    quiet.close()
    assert plain.getvalue() == ""
    soon = FakeTTY()
    short = sim_cli.Progress(1000, soon)
    short.update(500)  # well under PROGRESS_AFTER_S
    assert soon.getvalue() == ""
    monkeypatch.setattr(sim_cli, "PROGRESS_AFTER_S", 0.0)
    tty = FakeTTY()
    bar = sim_cli.Progress(1000, tty)
    bar.update(500)
    assert "50.0%" in tty.getvalue() and "500/1,000 fights" in tty.getvalue()
    bar.next_matchup(1000)
    bar.close()
    assert tty.getvalue().endswith("\r")  # the line is cleared


# --- the "Every monster" block -------------------------------------------------------------------------------


def test_all_json_lists_every_monster(capsys: pytest.CaptureFixture[str], content: Content) -> None:
    rows = sim_json(capsys, "--all", "--fights", "200", "--count", "1")
    assert [r["monster"]["id"] for r in rows] == list(content.monsters)


def test_markdown_block_rewrites_only_its_markers(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    doc = tmp_path / "BALANCE.md"
    doc.write_text(
        "# Balance\n\nCalibration text.\n\n<!-- every-monster:begin -->\nold\n<!-- every-monster:end -->\n\nAfter.\n",
        encoding="utf-8",
    )
    argv = ["--all", "--markdown", "--fights", "100", "--seed", "2", "--write", str(doc)]
    code, out, _ = run(capsys, *argv)
    assert code == 0 and "rewrote" in out
    text = doc.read_text(encoding="utf-8")
    assert text.startswith("# Balance\n\nCalibration text.\n\n<!-- every-monster:begin -->\n## Every monster\n")
    assert text.endswith("<!-- every-monster:end -->\n\nAfter.\n") and "\nold\n" not in text
    assert f"undercroft sim --all --markdown --fights 100 --seed 2 --write {doc}" in text
    assert "| Gaoler (`gaoler`) | 1 |" in text
    run(capsys, *argv)
    assert doc.read_text(encoding="utf-8") == text  # the same command, the same file
    code, printed, _ = run(capsys, *argv[:-2])
    block = text[text.index(sim_cli.BEGIN) : text.index(sim_cli.END) + len(sim_cli.END)]
    assert printed.replace(" --write " + str(doc), "") == block.replace(" --write " + str(doc), "") + "\n"


def test_markdown_block_appended_or_file_created(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    doc = tmp_path / "B.md"
    doc.write_text("# Balance\n\nText.\n", encoding="utf-8")
    assert run(capsys, "--all", "--markdown", "--fights", "100", "--count", "1", "--write", str(doc))[0] == 0
    text = doc.read_text(encoding="utf-8")
    assert text.startswith("# Balance\n\nText.\n\n<!-- every-monster:begin -->") and text.endswith("end -->\n")
    new = tmp_path / "new" / "BALANCE.md"
    assert run(capsys, "--all", "--markdown", "--fights", "100", "--count", "1", "--write", str(new))[0] == 0
    assert new.read_text(encoding="utf-8").startswith("# Balance\n\n<!-- every-monster:begin -->")
    broken = tmp_path / "C.md"
    broken.write_text("<!-- every-monster:begin -->\nno end\n", encoding="utf-8")
    code, _, err = run(capsys, "--all", "--markdown", "--fights", "100", "--count", "1", "--write", str(broken))
    assert code == 2 and "has no" in err


@pytest.mark.slow
def test_balance_md_is_what_its_command_prints(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/BALANCE.md's every-monster block is up to date: its own command, run again, prints it unchanged."""
    text = BALANCE.read_text(encoding="utf-8")
    block = text[text.index(sim_cli.BEGIN) : text.index(sim_cli.END) + len(sim_cli.END)] + "\n"
    command = re.search(r"```sh\n(undercroft sim [^\n]+)\n```", block)
    assert command, "the block names its command"
    argv = shlex.split(command.group(1))[2:]
    assert "--write" in argv
    printed = argv[: argv.index("--write")] + argv[argv.index("--write") + 2 :]
    code, out, _ = run(capsys, *printed)
    assert code == 0
    stale = "docs/BALANCE.md is stale: run `" + command.group(1) + "` from the repository root"
    assert out == block.replace(" --write " + argv[argv.index("--write") + 1], ""), stale
