"""The scenes, one a module under ``ui/scenes/``: none imports another that imports it back (directly, round a
longer loop, or by an import inside a function); each engine mode has its scene; a game left goes to the stack's
home, which no game scene imports."""

from __future__ import annotations

from pathlib import Path

import engine_helpers
import pytest
from tcod.event import KeySym
from ui_helpers import press

from undercroft.rules.game import Game
from undercroft.rules.types import Mode
from undercroft.tools.architecture import module_cycles, scan_package
from undercroft.ui.scenes import (
    ChaseScene,
    CombatScene,
    EncounterScene,
    EndScene,
    ExploreScene,
    Scene,
    SceneStack,
    ShopScene,
)
from undercroft.ui.scenes.game import SCENE_OF_MODE, game_stack
from undercroft.ui.session import Session

ROOT = Path(__file__).resolve().parents[1]
SCENES = "undercroft.ui.scenes"


@pytest.mark.slow
def test_no_two_scene_modules_import_each_other() -> None:
    cycles = module_cycles(scan_package(ROOT / "src", display_root=ROOT), SCENES)
    assert not cycles, "modules under ui/scenes/ import each other:\n" + "\n".join(
        i.describe() for c in cycles for i in c.imports
    )


def test_the_check_sees_a_lazy_import_and_a_loop_through_the_package(tmp_path: Path) -> None:
    files = {
        "__init__.py": "",
        "ui/__init__.py": "",
        "ui/scenes/__init__.py": "from undercroft.ui.scenes.game import Game\n",
        "ui/scenes/game.py": "def home():\n    from undercroft.ui.scenes.title import Title\n",  # lazy
        "ui/scenes/title.py": "from undercroft.ui.scenes.game import Game\n",
        "ui/scenes/end.py": "from undercroft.ui.scenes import Game\n",  # the package, which imports game
        "ui/scenes/help.py": "from undercroft.ui.scenes.game import Game\n",  # one way only: fine
        "ui/other.py": "from undercroft.ui.scenes.end import End\n",  # outside the package: not its business
    }
    for name, text in files.items():
        path = tmp_path / "src" / "undercroft" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    cycles = module_cycles(scan_package(tmp_path / "src"), SCENES)
    assert [c.packages for c in cycles] == [(f"{SCENES}.game", f"{SCENES}.title")]
    assert [i.where for i in cycles[0].imports] == [
        "src/undercroft/ui/scenes/game.py:2",
        "src/undercroft/ui/scenes/title.py:1",
    ]
    (tmp_path / "src/undercroft/ui/scenes/__init__.py").write_text("from undercroft.ui.scenes.end import End\n")
    cycles = module_cycles(scan_package(tmp_path / "src"), SCENES)
    assert [c.packages for c in cycles] == [(SCENES, f"{SCENES}.end"), (f"{SCENES}.game", f"{SCENES}.title")]


def test_every_engine_mode_has_its_scene() -> None:
    scenes = dict(SCENE_OF_MODE)
    assert set(scenes) == set(Mode), f"a mode without a scene: {sorted(set(Mode) - set(scenes))}"
    assert scenes == {
        Mode.EXPLORE: ExploreScene,
        Mode.ENCOUNTER: EncounterScene,
        Mode.COMBAT: CombatScene,
        Mode.CHASE: ChaseScene,
        Mode.SHOP: ShopScene,
        Mode.DEAD: EndScene,
        Mode.WON: EndScene,
    }


def session() -> Session:
    content = engine_helpers.content()
    return Session(content, Game(content, "undercroft", 1))


def test_leaving_a_game_goes_to_the_stacks_home() -> None:
    s = session()
    home = Scene()
    left: list[Session] = []

    def go_home(game: Session) -> Scene:
        left.append(game)
        return home

    stack = SceneStack(game_stack(s), home=go_home)
    press(stack, KeySym.ESCAPE, KeySym.T)
    assert stack.scenes == [home] and left == [s] and stack.exit_code is None


def test_a_stack_with_no_home_leaves_and_keeps_the_game_for_the_loop_to_close() -> None:
    stack = SceneStack(game_stack(session()))
    press(stack, KeySym.ESCAPE, KeySym.T)
    assert stack.exit_code == 0 and [type(x) for x in stack.scenes] == [ExploreScene]
