"""The scenes of the window (see :mod:`undercroft.ui.scenes.base` for the stack)."""

from undercroft.ui.scenes.base import Exit, Pop, Push, Replace, Reset, Scene, SceneStack, Transition
from undercroft.ui.scenes.look import LookScene
from undercroft.ui.scenes.overlays import HelpScene, InventoryScene, LogScene, MenuScene, PromptScene
from undercroft.ui.scenes.play import (
    CombatScene,
    DoorScene,
    EncounterScene,
    EndScene,
    ExploreScene,
    PursuitScene,
    game_stack,
    scene_for_mode,
)
from undercroft.ui.scenes.title import TitleScene

__all__ = [
    "CombatScene",
    "DoorScene",
    "EncounterScene",
    "EndScene",
    "Exit",
    "ExploreScene",
    "HelpScene",
    "InventoryScene",
    "LogScene",
    "LookScene",
    "MenuScene",
    "Pop",
    "PromptScene",
    "PursuitScene",
    "Push",
    "Replace",
    "Reset",
    "Scene",
    "SceneStack",
    "TitleScene",
    "Transition",
    "game_stack",
    "scene_for_mode",
]
