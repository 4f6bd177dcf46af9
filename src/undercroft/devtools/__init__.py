"""Developer tools: checks and generators that read the source tree, never needed to play.

Nothing here is imported by the game; these modules import nothing from the rest of ``undercroft``.
"""
