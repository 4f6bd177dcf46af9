"""Shared fixtures: a private copy of the shipped rules data that a test may break; the fast loop's CPU guard."""

from __future__ import annotations

import gc
import os
import pickle
import resource
import shutil
import sys
import time
from collections.abc import Callable, Generator
from pathlib import Path
from stat import S_ISREG

import engine_helpers
import pytest

from undercroft.content import Content, load_content
from undercroft.content.loader import FILES
from undercroft.paths import data_dir

pytest_plugins = ["pytester"]  # tests/test_cpu_guard.py runs the guard below on tiny test files

# The fast loop's guard: a test not marked slow fails when its setup and call take more CPU than this (ini option
# ``fast_test_cpu_limit``, seconds). CPU rather than wall time, so that a busy machine does not fail a test: the
# CPU of this process and of the processes it started and waited for (a command run with subprocess counts).
# Not charged to the test they fall in: a fixture wider than one test (session, package, module, class), a shared
# set-up whose one-off cost the terminal summary shows instead; and the garbage collector's full passes, which walk
# everything alive in the session, whichever test happens to trigger them.
CPU_LIMIT = "fast_test_cpu_limit"


def _cpu() -> float:
    me, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + children.ru_utime + children.ru_stime


class CpuGuard:
    """The guard's hooks, a plugin of the whole session (a conftest's own hooks would miss the session's fixtures,
    which are made outside this folder's nodes)."""

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self.shared: dict[str, float] = {}  # a shared set-up's name -> its CPU seconds in this session
        self.excused = 0.0  # CPU seconds of the shared set-ups and the full collections so far
        self.gc = 0.0  # of which the full collections
        self.depth = 0  # shared set-ups being made now (one made inside another is excused once)
        self.gc_start = 0.0
        self.start: dict[str, tuple[float, float]] = {}  # test -> (CPU, excused) as its setup began

    def collecting(self, phase: str, info: dict[str, int]) -> None:
        """gc.callbacks: time the full collections (outside a shared set-up, whose own time holds them)."""
        if info["generation"] == 2 and self.depth == 0:
            if phase == "start":
                self.gc_start = _cpu()
            else:
                spent = _cpu() - self.gc_start
                self.gc += spent
                self.excused += spent

    @pytest.hookimpl(wrapper=True)
    def pytest_fixture_setup(self, fixturedef: pytest.FixtureDef[object]) -> Generator[None, object, object]:
        if fixturedef.scope == "function":
            return (yield)
        start = _cpu()
        self.depth += 1
        try:
            return (yield)
        finally:
            self.depth -= 1
            spent = _cpu() - start
            name = f"{fixturedef.baseid}::{fixturedef.argname}".lstrip(":")
            self.shared[name] = self.shared.get(name, 0.0) + spent
            if self.depth == 0:
                self.excused += spent

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        self.start[item.nodeid] = (_cpu(), self.excused)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Generator[None, None, None]:
        """A test not marked slow that passed but went over the limit fails, with its name and its time."""
        yield
        cpu0, excused0 = self.start.pop(item.nodeid)
        spent = (_cpu() - cpu0) - (self.excused - excused0)
        if spent > self.limit and not item.get_closest_marker("slow"):
            pytest.fail(
                f"{item.nodeid} took {spent:.2f} s of CPU (setup and call, not the shared set-ups nor the full "
                f"garbage collections), over the fast loop's limit of {self.limit:g} s: mark it @pytest.mark.slow "
                "or make it cheaper. (CPU time of the test's process and of the processes it waited for, not wall "
                "time: a busy machine does not make a test fail here.)",
                pytrace=False,
            )

    def pytest_terminal_summary(self, terminalreporter: pytest.TerminalReporter) -> None:
        """One line: what the shared set-ups and the full collections cost, the largest set-ups first (none from
        pytest-xdist's controller, which runs no test: each worker counts its own)."""
        if terminalreporter.config.pluginmanager.hasplugin("dsession"):
            return
        largest = sorted(self.shared.items(), key=lambda kv: -kv[1])[:4]
        names = ", ".join(f"{name} {spent:.1f} s" for name, spent in largest if spent >= 0.05)
        terminalreporter.write_line(
            f"not charged to any test: {self.excused - self.gc:.1f} s of CPU in shared set-ups"
            + (f" (the largest: {names})" if names else "")
            + f", {self.gc:.1f} s in the garbage collector's full passes"
        )


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addini(CPU_LIMIT, "CPU seconds a test not marked slow may take (setup and call)", default="1.0")


def pytest_configure(config: pytest.Config) -> None:
    guard = CpuGuard(float(config.getini(CPU_LIMIT)))
    config.pluginmanager.register(guard, "undercroft-cpu-guard")
    gc.callbacks.append(guard.collecting)
    # The cyclic garbage collector's full passes walk every live object: the test session's (modules, items,
    # fixtures), the shared set-ups' (the bot games and their events) and the test's. They took a fifth of the fast
    # loop's CPU; a tenth as many of them, over what collection made frozen out of their reach (below), take little.
    # The young generation is collected every 10,000 new objects rather than 700 (what the tests build is mostly
    # freed as it goes, without the collector): a tenth less CPU, and no more memory, on the loop's heaviest files.
    gc.set_threshold(10_000, 10, 100)
    keep_bytecode(config.rootpath / ".pytest_cache" / "bytecode")


def keep_bytecode(where: Path) -> None:
    """Where the environment says not to write bytecode (``PYTHONDONTWRITEBYTECODE``, set on some hosts to keep
    source folders clean), the session's processes keep it in ``where`` instead (git-ignored, nothing beside the
    sources): otherwise each worker, and each ``python -m undercroft`` a test starts, compiles every module it
    imports and rewrites every test module's asserts again, every run (about a tenth of the fast loop's CPU). Set
    before pytest-xdist starts its workers, which inherit it."""
    if not sys.dont_write_bytecode:
        return
    sys.dont_write_bytecode = False
    sys.pycache_prefix = str(where)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(where)


def pytest_unconfigure(config: pytest.Config) -> None:
    guard = config.pluginmanager.get_plugin("undercroft-cpu-guard")
    if isinstance(guard, CpuGuard):
        gc.callbacks.remove(guard.collecting)


def pytest_collection_finish(session: pytest.Session) -> None:
    gc.collect()
    gc.freeze()


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


@pytest.fixture(scope="session", autouse=True)
def private_user_dirs(tmp_path_factory: pytest.TempPathFactory) -> Generator[None, None, None]:
    """The user's state and config directories (where the saves' index keeps its key) are the session's own, in a
    tmp folder, for every test and the processes it starts: no test reads or writes the real ones."""
    d = tmp_path_factory.mktemp("user-dirs")
    names = ("XDG_STATE_HOME", "XDG_CONFIG_HOME")
    old = {k: os.environ.get(k) for k in names}
    for k in names:
        os.environ[k] = str(d / k.lower())
    yield
    for k, v in old.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


@pytest.fixture(scope="session")
def shipped_data() -> Path:
    """The data directory the game ships (read only: never write to it)."""
    d = data_dir()
    assert (d / "monsters.yaml").is_file(), f"shipped data not found at {d}"
    return d


@pytest.fixture(scope="session")
def content() -> Content:
    """The shipped rules data, loaded once for the whole session (read only): ``engine_helpers.content()``."""
    return engine_helpers.content()


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


@pytest.fixture(scope="session")
def autoplayed(tmp_path_factory: pytest.TempPathFactory) -> None:
    """The bot's games of every ruleset that ``test_rules_properties.played`` keeps (read by the property tests
    there, in ``test_encounter_map`` and in ``test_log_levels``), played once per session: a shared set-up. Under
    pytest-xdist the workers share them: each set of games is played by the first worker to claim it (the workers
    walk the list from opposite ends) and read by the others from the session's folder, not played again."""
    import test_rules_properties as props

    keys = [(ruleset, patient) for ruleset in props.RULESETS for patient in (False, True)]
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker is None:
        for ruleset, patient in keys:
            props.played(ruleset, patient)
        return
    folder = tmp_path_factory.getbasetemp().parent / "autoplayed"  # the session's, one for all its workers
    folder.mkdir(exist_ok=True)
    if int(worker.removeprefix("gw") or 0) % 2:
        keys.reverse()
    others = []
    for ruleset, patient in keys:
        done = folder / f"{ruleset}-{patient}.pickle"
        try:
            os.close(os.open(done.with_suffix(".claim"), os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            others.append((ruleset, patient, done))
            continue
        part = done.with_suffix(f".{worker}")
        part.write_bytes(pickle.dumps(props.played(ruleset, patient), protocol=pickle.HIGHEST_PROTOCOL))
        part.replace(done)
    for ruleset, patient, done in others:
        deadline = time.monotonic() + 600
        while not done.exists():
            if time.monotonic() > deadline:  # the worker that claimed them died: play them here
                props.played(ruleset, patient)
                break
            time.sleep(0.05)
        else:
            props.SHARED[ruleset, patient] = pickle.loads(done.read_bytes())


#: ``run(*argv)``: the command line run in this process, ``(exit code, stdout, stderr)``
Run = Callable[..., tuple[int, str, str]]


#: What :func:`_load_content_once` has loaded, the last used last: (directory, display root, every data file's
#: bytes) -> the content.
_LOADED: dict[tuple[str, str, tuple[bytes, ...]], Content] = {}


def _load_content_once(directory: str | Path, *, display_root: str | Path | None = None) -> Content:
    """``load_content`` for what the tests run in this process (the command line's ``main``, the ``run`` fixture):
    the same bytes in the same files at the same place load to the same content, so a session loads them once
    (about 40 ms a time: a sixth of the fast loop's CPU went to loading the shipped data again for one command after
    another). A folder with a file that is missing, not a regular file or large is loaded as usual, and so is one
    that does not load: its errors are the command's to report. The last few are kept."""
    d = Path(directory)
    names = sorted(FILES)
    try:
        regular = all(S_ISREG(st.st_mode) and st.st_size < 1 << 20 for st in (os.lstat(d / n) for n in names))
        key = (str(d), str(display_root), tuple((d / n).read_bytes() for n in names)) if regular else None
    except OSError:
        key = None
    if key is None:
        return load_content(directory, display_root=display_root)
    loaded = _LOADED.pop(key, None)
    if loaded is None:
        loaded = load_content(directory, display_root=display_root)
    _LOADED[key] = loaded
    while len(_LOADED) > 4:
        del _LOADED[next(iter(_LOADED))]
    return loaded


@pytest.fixture(scope="session", autouse=True)
def data_loaded_once() -> Generator[None, None, None]:
    """The code the tests run looks ``load_content`` up when it loads (the command line's ``load_data``, the
    bench's): it gets :func:`_load_content_once`. (The test modules, imported before, keep the plain one.)"""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr("undercroft.content.load_content", _load_content_once)
        yield


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    """The command line (``undercroft.cli.main.main``) run in this process: its exit code and what it printed."""
    from undercroft.cli.main import main

    def go(*argv: str) -> tuple[int, str, str]:
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return go
