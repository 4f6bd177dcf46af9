"""Rules data: loading, validation and the typed records the engine reads."""

from undercroft.content.content import Content, EncounterCell, load_content
from undercroft.content.loader import DataError, Problem

__all__ = ["Content", "DataError", "EncounterCell", "Problem", "load_content"]
