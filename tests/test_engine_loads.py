"""The engine loads no window code: importing the rules, the recorder and the bot, and playing a recorded turn,
leaves tcod's Python package unloaded (its ``__init__`` imports the window, the console and SDL's events); only its
compiled library is loaded, through :mod:`undercroft.rules.libtcod`. Run in a new interpreter, so what other tests
imported does not count."""

from __future__ import annotations

import json
import subprocess
import sys

PROBE = """
import json, sys, tempfile
from pathlib import Path
import undercroft.tools.autoplay, undercroft.sim.odds
from undercroft.content import load_content
from undercroft.paths import data_dir
from undercroft.record import Recorder, play_step
from undercroft.rules.actions import Rest
from undercroft.rules.game import Game
content = load_content(data_dir())
game = Game(content, "undercroft", 7)
with tempfile.TemporaryDirectory() as tmp, Recorder.create(Path(tmp) / "g.jsonl", game, content) as rec:
    play_step(game, rec, Rest())  # a recorded turn: the field of view computed, the header's versions read
print(json.dumps(sorted(m for m in sys.modules if m == "tcod" or m.startswith("tcod."))))
"""


def test_the_engine_recorder_and_bot_import_no_tcod_module() -> None:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == ["tcod._libtcod", "tcod._libtcod.lib"]


def test_tcod_imported_later_shares_the_library() -> None:
    probe = (
        "import sys, undercroft.rules.sight, tcod.cffi;"
        "print(tcod.cffi.lib is sys.modules['tcod._libtcod'].lib and tcod.cffi.lib is undercroft.rules.sight.lib)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "True"
