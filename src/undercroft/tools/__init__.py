"""The tools around the game, never needed to play: the reference player's games in batches (``autoplay``), the
balance report and its charts (``balance``, ``balance_charts``), the meetings a bot reads (``meeting_odds``), the
performance measures (``bench/``) and the import graph of docs/ARCHITECTURE.md (``architecture``).

The command line imports them, each inside the handler of its subcommand; the game (``cli/play.py``, ``ui/``,
``term/``) never does (``tests/test_tools_apart.py``).
"""
