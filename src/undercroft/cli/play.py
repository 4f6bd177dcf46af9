"""``undercroft play`` (also plain ``undercroft``): the game in a window, or in this terminal."""

from __future__ import annotations

import argparse

from undercroft.cli.common import EXIT_USAGE, UserError, add_data_arg, load_data


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "play",
        help="play in a window (the default command)",
        description="Open the game window: the title screen, or straight into a new game with --seed.",
    )
    p.add_argument(
        "--ruleset",
        default="undercroft",
        metavar="NAME",
        help="undercroft (default), citadel, warden or crawler (see data/rulesets.yaml)",
    )
    p.add_argument("--seed", metavar="SEED", help="start a new game with this seed (a number, or any text)")
    p.add_argument(
        "--daily",
        action="store_true",
        help="play the day's seed (daily-YYYY-MM-DD, the UTC date): the same game for everyone in a ruleset",
    )
    p.add_argument(
        "--terminal",
        action="store_true",
        help="play inside this terminal instead of a window (chosen by itself when there is no display)",
    )
    add_data_arg(p)
    p.set_defaults(handler=cmd_play)


def cmd_play(args: argparse.Namespace) -> int:
    from undercroft.content.content import unknown_message
    from undercroft.rules.rng import parse_seed

    content = load_data(args)
    if args.ruleset not in content.rulesets:
        raise UserError(unknown_message("ruleset", args.ruleset, content.rulesets))
    seed: int | None = None
    daily = ""
    if args.daily:
        if args.seed is not None:
            raise UserError("--daily plays the day's seed: give --seed or --daily, not both", EXIT_USAGE)
        from undercroft.record.saves import daily_word, today_utc

        daily = today_utc()
        args.seed = daily_word(daily)
    if args.seed is not None:
        try:
            seed = parse_seed(args.seed)
        except ValueError as exc:
            raise UserError(f"--seed: {exc}") from None

    from undercroft.record import saves

    saves.saves_dir()  # (SavesFolderError, one line: before a window opens on a game that could not be saved)
    from undercroft.term.app import TERMINAL_HINT, choose
    from undercroft.ui import loop
    from undercroft.ui.app import NO_DISPLAY, NoDisplay
    from undercroft.ui.frontend import FrontEndOptions
    from undercroft.ui.tiles import TilesetMissing

    try:
        front_end = choose(FrontEndOptions(terminal=args.terminal))
    except ValueError as exc:
        raise UserError(str(exc), EXIT_USAGE) from None
    try:
        options = loop.PlayOptions(ruleset=args.ruleset, seed=seed, seed_text=args.seed or "", daily=daily)
        return loop.play(front_end, content, options)
    except NoDisplay:
        raise UserError(NO_DISPLAY + TERMINAL_HINT, EXIT_USAGE) from None
    except TilesetMissing as exc:
        raise UserError(str(exc), EXIT_USAGE) from None
