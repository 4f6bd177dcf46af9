"""The fast loop's CPU guard (``tests/conftest.py``) on a few tiny tests: a test not marked slow that spends more
CPU than the limit fails with its name and its time; a slow one, a sleeping one and a shared set-up do not."""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = """
import time

import pytest


def spin(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_spins():
    spin(0.15)


@pytest.mark.slow
def test_spins_but_is_marked_slow():
    spin(0.15)


def test_sleeps():
    time.sleep(0.15)  # wall time, not CPU: a busy machine makes no test fail


@pytest.fixture(scope="session")
def shared():
    spin(0.15)


def test_needs_a_shared_set_up(shared):
    pass
"""


def test_a_fast_test_over_the_limit_fails_with_its_name(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")  # (the installed plugins cost CPU and are not needed)
    pytester.makeconftest(Path(__file__).with_name("conftest.py").read_text(encoding="utf-8"))
    pytester.makeini("[pytest]\nmarkers =\n    slow: heavy\n")
    pytester.makepyfile(test_tiny=TESTS)
    result = pytester.runpytest_inprocess("-o", "fast_test_cpu_limit=0.1", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=3, failed=1)
    result.stdout.fnmatch_lines(
        [
            "*test_tiny.py::test_spins took 0.1* s of CPU (setup and call, not the shared set-ups nor the full garbage "
            "collections), over the fast loop's limit of 0.1 s: mark it @pytest.mark.slow or make it cheaper*",
            "FAILED test_tiny.py::test_spins - *",
        ]
    )
    assert (
        "test_sleeps took" not in result.stdout.str() and "test_needs_a_shared_set_up took" not in result.stdout.str()
    )
