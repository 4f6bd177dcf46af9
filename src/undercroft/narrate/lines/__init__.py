"""The line of each event class, one module a part of the rules, named as the module of ``rules/events/`` that
holds the events (:data:`LINES`; :data:`SILENT`: the classes with none). Importing this package imports every
module, so the table is whole whichever of them is imported first."""

from undercroft.narrate.lines import chase, common, end, fight, floor, meeting, talk, things
from undercroft.narrate.lines.base import LINES, SILENT

__all__ = ["LINES", "SILENT", "chase", "common", "end", "fight", "floor", "meeting", "talk", "things"]
