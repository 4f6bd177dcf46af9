"""The reference player, a careful bot that plays whole games headless (``undercroft autoplay``, ``balance``,
``soak``; the games themselves are played by :func:`undercroft.autoplay.play_game`).

:mod:`~undercroft.bot.policy` chooses an action mode by mode (:class:`Bot`); :mod:`~undercroft.bot.planning` plans
its walks (:class:`~undercroft.bot.planning.Walker`); :mod:`~undercroft.bot.meeting` values the ways through a
meeting. docs/BALANCE.md describes it as a player would.
"""

from undercroft.bot.policy import Bot

__all__ = ["Bot"]
