"""The game in a window: tcod scenes over the rules engine.

Only this package knows tcod events and consoles. Scenes translate keys into :mod:`undercroft.rules.actions`
and draw the :class:`~undercroft.rules.game.Game` state; every rule stays in the engine.
"""
