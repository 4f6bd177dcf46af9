"""Shared fixtures: a private copy of the shipped rules data that a test may break."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Generator
from pathlib import Path

import pytest

from undercroft.paths import data_dir


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, None, None]:
    """With ``UNDERCROFT_EXTRAS=1`` (CI's second environment, the optional extras installed) a test marked
    ``extras`` that skips fails instead: the extras are there, so nothing may quietly go unchecked."""
    outcome = yield
    report: pytest.TestReport = outcome.get_result()  # type: ignore[attr-defined]
    if report.skipped and os.environ.get("UNDERCROFT_EXTRAS") == "1" and item.get_closest_marker("extras"):
        report.outcome = "failed"
        report.longrepr = f"{item.nodeid}: skipped although the optional extras are installed: {report.longrepr}"


# Edit one data file: (directory, file name, old text, new text) -> the whole new text of that file.
Mutate = Callable[[Path, str, str, str], str]


@pytest.fixture(scope="session")
def shipped_data() -> Path:
    """The data directory the game ships (read only: never write to it)."""
    d = data_dir()
    assert (d / "monsters.yaml").is_file(), f"shipped data not found at {d}"
    return d


@pytest.fixture
def data_copy(tmp_path: Path, shipped_data: Path) -> Path:
    """A fresh copy of the shipped data directory in ``tmp_path``, free to mutate."""
    d = tmp_path / "data"
    shutil.copytree(shipped_data, d)
    return d


def _mutate(directory: Path, fname: str, old: str, new: str) -> str:
    path = directory / fname
    text = path.read_text(encoding="utf-8")
    assert old in text, f"test setup: {old!r} is not in {fname} any more; update the test"
    text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
    return text


@pytest.fixture
def mutate() -> Mutate:
    """Replace the first occurrence of ``old`` by ``new`` in one data file; fails loudly if ``old`` is absent."""
    return _mutate
