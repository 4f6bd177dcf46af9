"""Undercroft: a seeded, recorded, data-driven roguelike dungeon crawler."""

__version__ = "0.1.0"
