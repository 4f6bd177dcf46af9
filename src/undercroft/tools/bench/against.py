"""``undercroft bench --against REV``: the same rows measured on this tree and on another commit, in turn.

Absolute figures on a shared machine move by a third from one minute to the next; two trees measured in the same
minutes, in alternating new processes (this tree, then REV; then REV, then this tree; ...), move together. Each
side's figure is the median of its rounds, and the ratio ``here / REV`` is what a change is judged by.

REV is unpacked with ``git archive`` into a temporary folder and run with this interpreter (the same installed
dependencies) as ``python -m undercroft bench --json --only ROWS`` with that folder's ``src`` first on the path,
so it measures its own code on its own data. A row the older tree does not have is left out of its side.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from undercroft.tools.bench.core import BenchError

#: what `--against` measures unless `--only` says otherwise: the engine's step and what recording and replaying add
DEFAULT_ROWS = ("step_us_per_action", "record_overhead_us", "replay_actions_per_s", "autoplay_actions_per_s")
_REPO = Path(__file__).resolve().parents[4]  # (a source checkout: src/undercroft/tools/bench/against.py)


@dataclass(frozen=True)
class Compared:
    """One row on both trees: each round's figure, here and on REV (empty: REV has no such row)."""

    name: str
    here: tuple[float, ...]
    there: tuple[float, ...]

    @property
    def ratio(self) -> float | None:
        """here / REV of the medians (None where REV lacks the row or measured 0)."""
        if not self.there or statistics.median(self.there) == 0:
            return None
        return statistics.median(self.here) / statistics.median(self.there)


def unpack(rev: str, into: Path, repo: Path = _REPO) -> str:
    """The tree of commit ``rev`` of the checkout ``repo``, written under ``into``; its short hash."""
    try:
        short = subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "--short", "--verify", f"{rev}^{{commit}}"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        archive = subprocess.run(
            ["git", "-C", str(repo), "archive", "--format=tar", short], capture_output=True, check=True
        )
    except FileNotFoundError:
        raise BenchError("--against needs git on PATH") from None
    except subprocess.CalledProcessError as exc:
        err = exc.stderr if isinstance(exc.stderr, str) else (exc.stderr or b"").decode("utf-8", "replace")
        why = err.strip().splitlines()
        raise BenchError(f"--against {rev}: not a commit of {repo} ({why[-1] if why else 'git failed'})") from None
    tar = into / "tree.tar"
    tar.write_bytes(archive.stdout)
    with tarfile.open(tar) as t:
        t.extractall(into / "tree", filter="data")
    tar.unlink()
    return short


def _rows(src: Path | None, names: list[str], data: str | None) -> dict[str, float]:
    """One new process measuring ``names`` (``src``: the tree whose code runs, None: this installation)."""
    env = dict(os.environ)
    cwd = None
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(src), *filter(None, [env.get("PYTHONPATH")])])
        cwd = src.parent
    cmd = [sys.executable, "-m", "undercroft", "bench", "--json", "--only", ",".join(names)]
    if data:
        cmd += ["--data", data]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise BenchError(f"bench {'of ' + str(src.parent) if src else 'here'} failed: {last}")
    out: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def known_rows(src: Path) -> set[str]:
    """The rows the tree at ``src`` can measure: its bench, asked for a row no tree has, refuses it and lists the
    ones it knows ("...; known: a, b, c"). Empty when it does not say."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    cmd = [sys.executable, "-m", "undercroft", "bench", "--only", "no-such-row"]
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=src.parent)
    _, sep, known = done.stderr.strip().rpartition("known: ")
    return {n.strip() for n in known.split(",") if n.strip()} if sep else set()


def compare(rev: str, names: list[str], rounds: int, data: str | None = None) -> tuple[str, list[Compared]]:
    """Measure ``names`` ``rounds`` times on this tree and on ``rev``, alternating which goes first."""
    if rounds < 1:
        raise BenchError("--rounds must be at least 1")
    tmp = Path(tempfile.mkdtemp(prefix="undercroft-against-"))
    try:
        short = unpack(rev, tmp)
        src = tmp / "tree" / "src"
        theirs = [n for n in names if n in known_rows(src)] or names  # (an old tree that cannot list: ask all)
        here: dict[str, list[float]] = {n: [] for n in names}
        there: dict[str, list[float]] = {n: [] for n in names}
        for r in range(rounds):
            sides = [(None, names, here), (src, theirs, there)]
            for tree, asked, into in sides if r % 2 == 0 else sides[::-1]:
                for name, value in _rows(tree, asked, data).items():
                    if name in into:
                        into[name].append(float(value))
        return short, [Compared(n, tuple(here[n]), tuple(there[n])) for n in names]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def table(rev: str, rows: list[Compared], units: dict[str, str]) -> str:
    """The comparison as text: a row each, both medians, the ratio and each side's range."""
    lines = [f"{'row':28s} {'here':>12s} {rev:>12s} {'here/' + rev:>14s}   range here | {rev}"]
    for c in rows:
        h = statistics.median(c.here)
        t = f"{statistics.median(c.there):12.6g}" if c.there else f"{'(no row)':>12s}"
        ratio = f"{c.ratio:14.2f}" if c.ratio is not None else f"{'':14s}"
        spread = f"{min(c.here):.4g}-{max(c.here):.4g}"
        if c.there:
            spread += f" | {min(c.there):.4g}-{max(c.there):.4g}"
        lines.append(f"{c.name:28s} {h:12.6g} {t} {ratio}   {spread} {units.get(c.name, '')}")
    return "\n".join(lines)
