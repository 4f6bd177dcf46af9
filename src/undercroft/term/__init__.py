"""The game inside a terminal: the window's scenes drawn with ANSI escape codes (``undercroft play --terminal``).

:mod:`~undercroft.term.ansi` turns console frames into escape codes (only the cells that changed),
:mod:`~undercroft.term.keys` turns blessed keystrokes into tcod key events, :mod:`~undercroft.term.app` is the
terminal front end the one loop (:mod:`undercroft.ui.loop`) runs the scenes on.
"""

import os

# blessed asks the terminal about itself when it starts (XTGETTCAP, XTVERSION, each fenced by a cursor position
# report) and waits up to this long for the fence: a terminal that answers nothing would otherwise stall the start
# for 10 seconds. A reply that comes later is recognised and dropped by blessed. Read when blessed is imported.
os.environ.setdefault("BLESSED_QUERY_TIMEOUT_SECONDS", "1.0")
