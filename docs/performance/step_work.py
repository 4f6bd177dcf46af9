"""Where the engine's step goes, per kind of action, and how much game an action carries.

    python docs/performance/step_work.py [--games 40] [--seed 1600] [--ruleset undercroft]

Plays the bot's games (as ``undercroft bench``'s step rows do) with ``Game.step`` timed (CPU time) per action
type, and counts what the actions set off: monster checks, groups met, fights, levels made. The steps of the forks
on which the bot plays a chase out to weigh a run (``Game.chase_only``) are the bot's work, not the game's, and are
left out (they were nine in ten of the runs timed). Only public names of the engine are used, so the same script
measures an older tree too:

    git archive REV | tar -x -C /tmp/rev && PYTHONPATH=/tmp/rev/src python docs/performance/step_work.py

(docs/PERFORMANCE.md, "The step since ad3780e", compares two trees this way.)
"""

from __future__ import annotations

import argparse
import collections
import time
from typing import Any

from undercroft.content import load_content
from undercroft.paths import data_dir
from undercroft.rules.game import Game
from undercroft.tools.autoplay import play_game

KINDS = ("move", "rest", "attack", "fight", "descend", "talk", "run")
COUNTED = {
    "monster checks": ("roll", "monster_check"),
    "groups met": ("placed", None),
    "levels made": ("descend", None),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1600)
    ap.add_argument("--ruleset", default="undercroft")
    args = ap.parse_args()
    content = load_content(data_dir())
    seconds: collections.Counter[str] = collections.Counter()
    actions: collections.Counter[str] = collections.Counter()
    counted: collections.Counter[str] = collections.Counter()
    plain = Game.step

    def step(self: Game, action: Any) -> Any:
        if getattr(self, "chase_only", False):
            return plain(self, action)  # a fork the bot plays a chase out on to weigh a run: its cost, not the game's
        t = time.process_time()
        events = plain(self, action)
        seconds[action.type] += time.process_time() - t
        actions[action.type] += 1
        for e in events:
            for name, (kind, purpose) in COUNTED.items():
                # (an older tree's events are dicts, ``e.data``; today's are typed: the field itself)
                said = e.data.get("purpose") if hasattr(e, "data") else getattr(e, "purpose", None)
                if e.type == kind and (purpose is None or said == purpose):
                    counted[name] += 1
        return events

    Game.step = step  # type: ignore[method-assign]
    for seed in range(args.seed, args.seed + args.games):
        play_game(content, args.ruleset, seed)
    n = sum(actions.values())
    print(f"{n} actions, Game.step {1e6 * sum(seconds.values()) / n:.1f} us an action (CPU)")
    print("per kind of action: how many in 1000, and the step's microseconds for one")
    for kind in KINDS:
        if actions[kind]:
            print(f"  {kind:8s} {1000 * actions[kind] / n:6.1f}   {1e6 * seconds[kind] / actions[kind]:8.1f} us")
    print("what 1000 actions set off")
    for name in COUNTED:
        print(f"  {name:15s} {1000 * counted[name] / n:6.1f}")


if __name__ == "__main__":
    main()
