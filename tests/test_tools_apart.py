"""The game never loads the tools: a new interpreter that imports everything ``undercroft play`` runs (the command
line's parser and its play handler, the window and the terminal, every scene, the recap and the watched replay) has
no module of ``undercroft.tools`` (the bots' batches, the balance report, the benchmarks, the import scanner) in
``sys.modules``. The static rule, lazy imports included, is ``tests/test_imports.py``'s (in the fast loop); this is
what Python actually loads."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

PLAY_PATH = (
    "undercroft.cli.main",
    "undercroft.cli.play",
    "undercroft.ui.loop",
    "undercroft.ui.app",
    "undercroft.ui.scenes",
    "undercroft.ui.replay_view",
    "undercroft.term.app",
    "undercroft.recap",
)

_PROBE = """
import importlib, json, sys
def tools():
    return sorted(m for m in sys.modules if m == "undercroft.tools" or m.startswith("undercroft.tools."))
for name in sys.argv[1:]:
    importlib.import_module(name)
played = tools()
import undercroft.tools.architecture  # the probe sees a tools module once one is loaded
print(json.dumps({"play": played, "after": tools(), "loaded": len(sys.modules)}))
"""


@pytest.mark.slow  # a new interpreter importing the ui, numpy, tcod and pydantic: 0.8-1 s of CPU
def test_the_play_path_loads_no_tool() -> None:
    done = subprocess.run([sys.executable, "-c", _PROBE, *PLAY_PATH], capture_output=True, text=True, check=True)
    seen = json.loads(done.stdout)
    assert seen["play"] == [], f"playing loads the tools: {seen['play']}"
    assert "undercroft.tools.architecture" in seen["after"] and seen["loaded"] > 100
