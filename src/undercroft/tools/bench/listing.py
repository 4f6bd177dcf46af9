"""Benchmark of many saves (docs/PERFORMANCE.md).

``games_listing_s_5000``: a temporary user data folder whose saves folder holds :data:`SAVES` recordings (bot games
of the default ruleset, half of them over and half not, each copied under many names; every fourth with a sidecar
holding a typed seed), listed once (every recording
examined, the index written), then ``python -m undercroft games --json`` timed in a new process: the warm listing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from undercroft.record.saves import META
from undercroft.tools.autoplay import play_game
from undercroft.tools.bench.core import load_data, median_time, metric

SAVES = 5000
GAMES = 10  # distinct games, each copied SAVES // GAMES times
RULESET = "undercroft"


def make_saves(args: argparse.Namespace, saves: Path, count: int = SAVES) -> None:
    """``count`` recordings in folder ``saves``: :data:`GAMES` bot games (an odd seed's cut at 400 actions, to go
    on; an even seed's played to its end), each copied under ``count // GAMES`` names, their dates a second apart,
    every fourth with a sidecar (``NAME.meta.json``) naming a typed seed."""
    content = load_data(args)
    saves.mkdir(parents=True, exist_ok=True)
    games = []
    for seed in range(1, GAMES + 1):
        path = saves / f"{RULESET}-{seed}-game.jsonl"
        play_game(content, RULESET, seed, record=str(path), max_actions=400 if seed % 2 else 3000)
        games.append(path)
    stamp = 1_800_000_000
    for k in range(count):
        src = games[k % GAMES]
        dest = src if k < GAMES else saves / f"{RULESET}-{k}-copy.jsonl"
        if dest != src:
            shutil.copyfile(src, dest)
        os.utime(dest, (stamp + k, stamp + k))
        if k % 4 == 0:
            (saves / f"{dest.stem}{META}").write_text('{"seed_text": "a typed seed"}\n', encoding="utf-8")


@metric("games_listing_s_5000", "s")
def games_listing_s(args: argparse.Namespace) -> float:
    """``undercroft games --json`` in a new process over 5,000 saves, warm (each recording examined once before);
    the median of 3 runs. The title's list of unfinished games is a part of the same listing."""
    with tempfile.TemporaryDirectory(prefix="undercroft-bench-saves-") as tmp:
        env = dict(os.environ, XDG_DATA_HOME=tmp, XDG_STATE_HOME=tmp, XDG_CONFIG_HOME=tmp)
        make_saves(args, Path(tmp) / "undercroft" / "saves")
        cmd = [sys.executable, "-m", "undercroft", "games", "--json"]
        if getattr(args, "data", None):
            cmd += ["--data", str(args.data)]

        def once() -> None:
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)

        once()  # (cold: every recording examined, the index written)
        return median_time(once, repeat=3)
