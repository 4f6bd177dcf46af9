"""Fuzzing the rules data: hypothesis mutates the shipped YAML and the validator must hold.

Values (integers, huge integers, negatives, text, floats, null), types (a scalar turned into a list or a mapping),
structure (a key deleted or duplicated) and aliases are mutated in a copy of ``data/``. Every case must end in
success or in a ``DataError`` whose problems print as ``file:line:col: ...`` lines, within a time limit; data that
validates must play a short bot game. A few cases run the real command line in a subprocess under a memory limit.
"""

from __future__ import annotations

import re
import resource
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from undercroft.content import DataError, load_content
from undercroft.paths import data_dir
from undercroft.tools.autoplay import play_game

DATA = data_dir()
FILES = sorted(p.name for p in DATA.glob("*.yaml"))
TEXTS = {name: (DATA / name).read_text(encoding="utf-8") for name in FILES}
PROBLEM = re.compile(r"^[^:]+:\d+:\d+: ")
SUMMARY = re.compile(r"^undercroft: \d+ problem\(s\) in the rules data$")
SECONDS = 10  # per case
MEMORY = 1 << 30  # address space of a subprocess case
# A value line: indentation, a key, a plain value (the line's comment left out).
VALUE_LINE = re.compile(r"^(?P<indent>\s*(?:- )?)(?P<key>[a-z_]+): (?P<value>[^#{\[\n]+?)\s*(?:#.*)?$")

VALUES = st.one_of(
    st.integers(min_value=-(10**6), max_value=10**6).map(str),
    st.sampled_from(
        [
            "0",
            "-1",
            "-50",
            "18446744073709551617",
            "9" * 5000,
            "1e308",
            "-1e308",
            ".nan",
            ".inf",
            "null",
            "~",
            "true",
            "''",
            '"-50"',
            '"100d1000x1000"',
            '"0d6"',
            '"1d0"',
            '"d"',
            "[]",
            "{}",
            "[1, 2]",
            "{a: 1}",
            '"' + "1" * 5000 + 'd6"',
            "!!int 5",
            "!!float 1",
            "!!binary aGk=",
            "2001-12-14",
            "0x1F",
            "0o17",
            "1_000",
            "190:20:30",
        ]
    ),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.text(alphabet=st.characters(codec="utf-8"), max_size=12).map(
        lambda t: '"' + t.replace("\\", "\\\\").replace('"', '\\"') + '"'
    ),
)


def mutate(text: str, kind: str, index: int, value: str) -> str:
    lines = text.split("\n")
    spots = [i for i, line in enumerate(lines) if VALUE_LINE.match(line)]
    if not spots:
        return text
    i = spots[index % len(spots)]
    m = VALUE_LINE.match(lines[i])
    assert m is not None
    indent, key = m.group("indent"), m.group("key")
    if kind == "value":
        lines[i] = f"{indent}{key}: {value}"
    elif kind == "list":
        lines[i] = f"{indent}{key}: [{m.group('value')}]"
    elif kind == "map":
        lines[i] = f"{indent}{key}: {{x: {m.group('value')}}}"
    elif kind == "delete":
        lines[i] = ""
    elif kind == "duplicate":
        lines.insert(i + 1, " " * len(indent) + f"{key}: {m.group('value')}")
    elif kind == "alias":
        lines[i] = f"{indent}{key}: &a {m.group('value')}"
        lines.insert(i + 1, " " * len(indent) + "zz_alias: *a")
    elif kind == "laughs":
        lines.append("lol: &l0 [x, x, x, x, x, x, x, x, x]")
        lines.extend(f"lol{k}: &l{k} [" + ", ".join([f"*l{k - 1}"] * 9) + "]" for k in range(1, 9))
    elif kind == "loop":
        lines.append("loop: &o [*o]")
    elif kind == "truncate":
        lines = lines[:i]
    return "\n".join(lines)


KINDS = st.sampled_from(
    ["value", "value", "value", "list", "map", "delete", "duplicate", "alias", "laughs", "loop", "truncate"]
)
MUTATIONS = st.lists(st.tuples(st.sampled_from(FILES), KINDS, st.integers(0, 10_000), VALUES), min_size=1, max_size=3)


class Timeout(Exception):
    pass


@contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    def expire(signum: int, frame: FrameType | None) -> None:
        raise Timeout(f"over {seconds} s")

    old = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def write(directory: Path, mutations: list[tuple[str, str, int, str]]) -> None:
    texts = dict(TEXTS)
    for fname, kind, index, value in mutations:
        texts[fname] = mutate(texts[fname], kind, index, value)
    if directory.exists():
        shutil.rmtree(directory)
    directory.mkdir(parents=True)
    for name, text in texts.items():
        (directory / name).write_text(text, encoding="utf-8")


def check_in_process(directory: Path) -> None:
    with time_limit(SECONDS):
        try:
            content = load_content(directory)
        except DataError as exc:
            assert exc.problems
            for line in str(exc).split("\n"):
                assert PROBLEM.match(line), line
            return
        ruleset = sorted(content.rulesets)[len(str(directory)) % len(content.rulesets)]
        r = play_game(content, ruleset, 1, max_actions=20)
        assert r.outcome != "crash", f"{ruleset}: {r.cause}"


@pytest.mark.slow
@settings(
    max_examples=100,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(mutations=MUTATIONS)
def test_mutated_data_validates_or_reports(tmp_path: Path, mutations: list[tuple[str, str, int, str]]) -> None:
    directory = tmp_path / "data"
    write(directory, mutations)
    check_in_process(directory)


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


@pytest.mark.slow
@pytest.mark.parametrize(
    "mutations",
    [
        [("monsters.yaml", "laughs", 0, "")],
        [("items.yaml", "loop", 0, "")],
        [("rules.yaml", "value", 3, "9" * 5000)],
        [("monsters.yaml", "value", 5, '"100d1000x1000"')],
        [("items.yaml", "value", 7, '"-50"'), ("tables.yaml", "map", 2, "")],
    ],
)
def test_the_command_line_within_time_and_memory(tmp_path: Path, mutations: list[tuple[str, str, int, str]]) -> None:
    directory = tmp_path / "data"
    write(directory, mutations)
    src = Path(__file__).resolve().parents[1] / "src"
    proc = subprocess.run(
        [sys.executable, "-m", "undercroft", "validate", "--data", str(directory)],
        capture_output=True,
        text=True,
        timeout=SECONDS * 3,
        preexec_fn=_limit_memory,
        env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin", "SDL_VIDEODRIVER": "dummy"},
        check=False,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    assert proc.returncode in (0, 2), proc.stderr
    if proc.returncode == 2:
        lines = proc.stderr.rstrip("\n").split("\n")
        assert SUMMARY.match(lines[-1]), lines[-1]
        for line in lines[:-1]:
            assert PROBLEM.match(line), line
