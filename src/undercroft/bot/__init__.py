"""The bots that play whole games headless (``undercroft autoplay``, ``balance``, ``soak``; the games themselves are
played by :func:`undercroft.tools.autoplay.play_game`): the careful reference player, the novice, the greedy player and
the thorough player.

:mod:`~undercroft.bot.policy` chooses an action mode by mode (:class:`Bot`, the careful player);
:mod:`~undercroft.bot.novice` is a first-time player (:class:`Novice`, the careful bot with other thresholds);
:mod:`~undercroft.bot.greedy` takes the top number at every meeting, the careful bot in all else (:class:`Greedy`);
:mod:`~undercroft.bot.thorough` explores every floor, fights all it is sure of and rests to full (:class:`Thorough`);
:mod:`~undercroft.bot.planning` plans their walks (:class:`~undercroft.bot.planning.Walker`);
:mod:`~undercroft.bot.meeting` values the ways through a meeting; :mod:`~undercroft.bot.kit` what to buy and put on.
docs/BALANCE.md describes them as a player would.
"""

from undercroft.bot.greedy import Greedy
from undercroft.bot.novice import Novice
from undercroft.bot.policy import Bot
from undercroft.bot.thorough import Thorough

#: The policies by name (``--policy``): the careful one first, the default.
POLICIES: dict[str, type[Bot]] = {Bot.name: Bot, Novice.name: Novice, Greedy.name: Greedy, Thorough.name: Thorough}

__all__ = ["POLICIES", "Bot", "Greedy", "Novice", "Thorough"]
