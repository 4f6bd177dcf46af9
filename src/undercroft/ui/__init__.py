"""The game in a window: tcod scenes over the rules engine.

Only this package knows tcod events and consoles. Scenes translate keys into :mod:`undercroft.rules.actions`
and draw the :class:`~undercroft.rules.game.Game` state; every rule stays in the engine.

What both front ends (this window and :mod:`undercroft.term`) share: :mod:`~undercroft.ui.frontend` (the
``FrontEnd`` protocol, and the null front end of the tests), :mod:`~undercroft.ui.loop` (the one main loop),
:mod:`~undercroft.ui.scenes` (one scene a module), :mod:`~undercroft.ui.session` (a game being played),
:mod:`~undercroft.ui.layout` (where things go on a console of any size), :mod:`~undercroft.ui.render` (drawing),
:mod:`~undercroft.ui.palette` (colours and their contrast), :mod:`~undercroft.ui.keymap` (every key of every
screen), :mod:`~undercroft.ui.threat` (the threat and the chances told), :mod:`~undercroft.ui.replay_view`
(watching recordings). The window itself is :mod:`~undercroft.ui.app`.
"""
