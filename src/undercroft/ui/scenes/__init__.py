"""The scenes of the window, one a module (see :mod:`undercroft.ui.scenes.base` for the stack).

Importing this package imports every scene module, and so registers each game scene for the engine modes it shows
(:func:`undercroft.ui.scenes.game.shows`): :func:`scene_for_mode` can make any of them, and no scene module
imports another that imports it back (``tests/test_scene_modules.py``).
"""

from undercroft.ui.scenes.base import Exit, Home, Pop, Push, Replace, Reset, Scene, SceneStack, Transition
from undercroft.ui.scenes.chase import ChaseScene
from undercroft.ui.scenes.choice import ChoiceScene
from undercroft.ui.scenes.combat import CombatScene
from undercroft.ui.scenes.door import DoorScene
from undercroft.ui.scenes.encounter import EncounterScene
from undercroft.ui.scenes.end import EndScene
from undercroft.ui.scenes.explore import ExploreScene
from undercroft.ui.scenes.game import GameScene, game_stack, scene_for_mode
from undercroft.ui.scenes.help import HelpScene
from undercroft.ui.scenes.inventory import InventoryScene
from undercroft.ui.scenes.log import LogScene
from undercroft.ui.scenes.look import LookScene
from undercroft.ui.scenes.menu import MenuScene
from undercroft.ui.scenes.past_games import PastGamesScene
from undercroft.ui.scenes.prompt import PromptScene
from undercroft.ui.scenes.shop import ShopScene
from undercroft.ui.scenes.title import TitleScene
from undercroft.ui.scenes.watch import WatchScene

__all__ = [
    "ChaseScene",
    "ChoiceScene",
    "CombatScene",
    "DoorScene",
    "EncounterScene",
    "EndScene",
    "Exit",
    "ExploreScene",
    "GameScene",
    "HelpScene",
    "Home",
    "InventoryScene",
    "LogScene",
    "LookScene",
    "MenuScene",
    "PastGamesScene",
    "Pop",
    "PromptScene",
    "Push",
    "Replace",
    "Reset",
    "Scene",
    "SceneStack",
    "ShopScene",
    "TitleScene",
    "Transition",
    "WatchScene",
    "game_stack",
    "scene_for_mode",
]
