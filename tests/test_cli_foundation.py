"""The command line of the Foundation: validate, bench, --version, --help."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from undercroft import __version__
from undercroft.cli.main import main
from undercroft.content import load_content

Mutate = Callable[[Path, str, str, str], str]
PROBLEM_LINE = re.compile(r"^(?P<path>.+\.yaml):(?P<line>\d+):(?P<col>\d+): (?P<rest>.+)$")


def break_data(d: Path, mutate: Mutate) -> None:
    """Three problems in three files."""
    mutate(d, "monsters.yaml", "  hp: 4\n", '  hp: "four"\n')
    mutate(d, "tables.yaml", "{min: 3, max: 5", "{min: 4, max: 5")
    mutate(d, "encounters.yaml", '"kobold 1d4+1", "kobold 1d4+1"]', '"kobolt 1d4+1", "kobold 1d4+1"]')


def test_validate_shipped_data(capsys: pytest.CaptureFixture[str], shipped_data: Path) -> None:
    assert main(["validate"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert len(lines) == 1
    content = load_content(shipped_data)
    assert "ok" in lines[0]
    assert f"{len(content.monsters)} monsters" in lines[0]
    assert f"{len(content.rulesets)} rulesets" in lines[0]
    assert content.digest in lines[0]


def test_validate_bad_data_lists_every_problem(
    capsys: pytest.CaptureFixture[str], data_copy: Path, mutate: Mutate
) -> None:
    break_data(data_copy, mutate)
    assert main(["validate", str(data_copy)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "Traceback" not in out + err
    *problems, summary = err.splitlines()
    assert summary == "undercroft: 3 problem(s) in the rules data"
    assert len(problems) == 3
    for line in problems:
        m = PROBLEM_LINE.match(line)
        assert m, line
        assert Path(m["path"]).parent == data_copy
        assert int(m["line"]) >= 1 and int(m["col"]) >= 1
    names = [Path(PROBLEM_LINE.match(line)["path"]).name for line in problems]  # type: ignore[index]
    assert names == ["encounters.yaml", "monsters.yaml", "tables.yaml"]
    assert "did you mean 'kobold'?" in problems[0]


def test_validate_missing_directory(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["validate", str(tmp_path / "nowhere")]) == 2
    out, err = capsys.readouterr()
    assert "data directory not found" in err
    assert "Traceback" not in out + err


def test_validate_data_option_equals_positional(
    capsys: pytest.CaptureFixture[str], data_copy: Path, mutate: Mutate
) -> None:
    assert main(["validate", str(data_copy)]) == 0
    positional = capsys.readouterr()
    assert main(["validate", "--data", str(data_copy)]) == 0
    option = capsys.readouterr()
    assert positional == option
    assert str(data_copy) in positional.out

    break_data(data_copy, mutate)
    assert main(["validate", str(data_copy)]) == 2
    positional = capsys.readouterr()
    assert main(["validate", "--data", str(data_copy)]) == 2
    assert capsys.readouterr() == positional


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out.strip() == f"undercroft {__version__}"


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: undercroft")
    for command in ("validate", "bench"):
        assert command in out


def test_unknown_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["no-such-command"])
    assert info.value.code == 2
    out, err = capsys.readouterr()
    assert "invalid choice" in err
    assert "Traceback" not in out + err


def test_bench_json_only_data_load(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--json", "--only", "data_load_s"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert len(lines) == 1
    result = json.loads(lines[0])
    assert list(result) == ["data_load_s"]
    assert isinstance(result["data_load_s"], float)
    assert result["data_load_s"] > 0


def test_the_startup_row_times_the_version_in_new_processes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    runs: list[list[str]] = []
    monkeypatch.setattr(subprocess, "run", lambda cmd, **_: runs.append(cmd))
    assert main(["bench", "--json", "--only", "startup_s"]) == 0
    assert runs == [[sys.executable, "-m", "undercroft", "--version"]] * 8  # a warm-up, then the median of 7
    assert json.loads(capsys.readouterr().out)["startup_s"] >= 0


@pytest.mark.slow
def test_the_bots_rows_of_a_ruleset_read_one_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """bot_step_ratio_warden, bot_us_per_action_warden and step_us_per_action_warden come from one batch of games
    (played once), so the ratio is the two rows' quotient."""
    from undercroft.tools.autoplay import play_game as play
    from undercroft.tools.bench import autoplay as bench_autoplay

    played: list[int] = []

    def counting(*args: Any, **kwargs: Any) -> Any:
        played.append(1)
        return play(*args, **kwargs)

    monkeypatch.setattr(bench_autoplay, "play_game", counting)
    monkeypatch.setattr(bench_autoplay, "_SPLITS", {})
    rows = "bot_step_ratio_warden,bot_us_per_action_warden,step_us_per_action_warden"
    assert main(["bench", "--json", "--only", rows]) == 0
    result = json.loads(capsys.readouterr().out)
    assert list(result) == rows.split(",")
    assert len(played) == 1 + bench_autoplay.GAMES  # (the warm-up game, then the batch: once for the three rows)
    bot, step = result["bot_us_per_action_warden"], result["step_us_per_action_warden"]
    assert bot > 0 and step > 0
    assert result["bot_step_ratio_warden"] == pytest.approx(bot / step, rel=1e-5)


def test_bench_unknown_metric(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--only", "no_such_metric"]) == 2
    out, err = capsys.readouterr()
    assert "unknown metric(s) no_such_metric" in err
    assert "data_load_s" in err  # lists the known ones
    assert "Traceback" not in out + err


@pytest.mark.parametrize("only", [",,,", "", " , "])
def test_bench_only_with_no_name_is_an_error(capsys: pytest.CaptureFixture[str], only: str) -> None:
    assert main(["bench", "--only", only]) == 2
    out, err = capsys.readouterr()
    [line] = err.splitlines()
    assert out == "" and line.startswith("undercroft: --only names no metric; known: ") and "data_load_s" in line


def test_bench_on_bad_data_reports_the_data(
    capsys: pytest.CaptureFixture[str], data_copy: Path, mutate: Mutate
) -> None:
    break_data(data_copy, mutate)
    assert main(["bench", "--json", "--only", "data_load_s", "--data", str(data_copy)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "3 problem(s)" in err
    assert "Traceback" not in err


def test_python_m_validate_on_bad_data(data_copy: Path, mutate: Mutate, tmp_path: Path) -> None:
    break_data(data_copy, mutate)
    proc = subprocess.run(
        [sys.executable, "-m", "undercroft", "validate", str(data_copy)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,  # not the repository: the command must not depend on the working directory
    )
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    assert "Traceback" not in proc.stdout + proc.stderr
    lines = proc.stderr.splitlines()
    assert sum(1 for line in lines if PROBLEM_LINE.match(line)) == 3
    assert lines[-1] == "undercroft: 3 problem(s) in the rules data"


def test_validate_json_prints_the_content_size(capsys: pytest.CaptureFixture[str], shipped_data: Path) -> None:
    assert main(["validate", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    sizes = json.loads(out)
    content = load_content(shipped_data)
    assert sizes["monsters"] == len(content.monsters)
    assert sizes["items"] == len(content.items)
    assert sizes["digest"] == content.digest
    assert set(sizes["rulesets"]) == set(content.rulesets)
    for name, rs in content.rulesets.items():
        assert sizes["rulesets"][name]["levels"] == len(rs.levels)
    assert sizes["rulesets"]["warden"]["levels"] >= 1


def test_validate_in_words_names_the_levels_of_each_ruleset(
    capsys: pytest.CaptureFixture[str], shipped_data: Path
) -> None:
    assert main(["validate"]) == 0
    line = capsys.readouterr().out
    content = load_content(shipped_data)
    for name, rs in content.rulesets.items():
        assert f"{name} {len(rs.levels)}" in line


def test_bench_draws_a_meeting_and_look_over_it(capsys: pytest.CaptureFixture[str]) -> None:
    """The frame rows of the screens that tell the threat (under 1 ms at every size) run and measure."""
    rows = "encounter_frame_ms_80x24,look_frame_ms_80x24"
    assert main(["bench", "--json", "--only", rows]) == 0
    result = json.loads(capsys.readouterr().out)
    assert list(result) == rows.split(",") and all(v > 0 for v in result.values())
