"""``undercroft bench``: the performance measures of docs/PERFORMANCE.md.

:mod:`~undercroft.tools.bench.core` holds the registry of metrics (:data:`~.core.METRICS`, filled by
:func:`~.core.metric`); each other module registers the metrics of one part of the game when
imported: ``dungeon`` (level generation), ``ui`` (the window's frame), ``replay`` (recording and
replaying), ``listing`` (the saves folder's listing), ``sim`` (the combat simulator), ``term`` (the terminal's
frame), ``soak`` (memory over many games), ``autoplay`` (the bot's games and the bot against the step).
"""
