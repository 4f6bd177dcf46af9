"""Regenerate the screenshots of docs/screenshots/ (no window needed).

    python docs/screenshots/make_screenshots.py [--seed N] [--out docs/screenshots]

A real game is played through the one loop (``undercroft.ui.loop``) on the null front end: the script is its
input, the same keys a player presses, and a frame the loop presents is written in the project's tileset with
``undercroft.ui.replay_view.console_png``. Saves go to a temporary directory, never to your own.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from tcod.event import KeySym, Modifier

HERE = Path(__file__).resolve().parent
ARROWS = {(0, -1): KeySym.UP, (0, 1): KeySym.DOWN, (-1, 0): KeySym.LEFT, (1, 0): KeySym.RIGHT}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--out", default=str(HERE))
    args = p.parse_args()
    out = Path(args.out)
    tmp = tempfile.mkdtemp(prefix="undercroft-shots-")
    os.environ["XDG_DATA_HOME"] = tmp

    import tcod.event

    from undercroft.content import load_content
    from undercroft.paths import data_dir
    from undercroft.rules import dungeon
    from undercroft.rules.actions import Fight, Run
    from undercroft.ui import loop
    from undercroft.ui.frontend import NullFrontEnd
    from undercroft.ui.keys import key
    from undercroft.ui.replay_view import console_png
    from undercroft.ui.scenes import SceneStack, TitleScene, game_stack
    from undercroft.ui.session import Session

    content = load_content(data_dir())

    def shot(frontend: NullFrontEnd, name: str) -> None:
        """The frame the loop has just presented."""
        assert frontend.console is not None
        print("wrote", console_png(frontend.console, out / f"{name}.png"))

    title = TitleScene(content, seed=args.seed)
    title.seed_typed = False
    fe = NullFrontEnd()
    loop.run(fe.open, lambda: SceneStack([title]), max_frames=1)
    shot(fe, "title")

    def step_key(session: Session) -> KeySym:
        st = session.game.state
        me = st.party[0]
        if st.mode in ("explore", "combat") and me.hp * 2 < me.max_hp and st.items.get("healing_potion"):
            return KeySym.Q
        if st.mode == "encounter" and not session.game.legal(Fight()):
            return KeySym.W  # out of sight: wait for it to come
        if st.mode in ("encounter", "pursuit"):
            return KeySym.F if session.game.legal(Fight()) else KeySym.R  # giving chase: run on
        if st.mode == "combat":
            return KeySym.A
        m = st.level.map
        best = None
        for s in m.rooms:
            if st.level.visited[s.id]:
                continue
            path = dungeon.path_between(m, st.pos, ((s.x1 + s.x2) // 2, (s.y1 + s.y2) // 2))
            if len(path) > 1 and (best is None or len(path) < len(best)):
                best = path
        if best is None:
            return KeySym.Z
        return ARROWS[(best[1][0] - st.pos[0], best[1][1] - st.pos[1])]

    taken: set[str] = set()

    def play(seed: int) -> None:
        """One game of ``seed`` through the loop, photographing each scene the first time it looks its part."""
        stack = loop.play_stack(content, loop.PlayOptions(seed=seed))
        frontend = NullFrontEnd()
        presses = [0]

        def script(timeout: float | None) -> list[tcod.event.Event] | None:
            """Called as the loop waits for input: the frame on the front end is the game as it is now."""
            top = type(stack.top).__name__
            session = stack.top.session  # type: ignore[attr-defined]
            st = session.game.state
            if top == "ExploreScene" and "explore" not in taken and st.turn >= 30 and st.level.explored.sum() > 500 \
                    and st.party[0].hp * 3 >= st.party[0].max_hp * 2:
                shot(frontend, "explore")
                taken.add("explore")
            if top == "EncounterScene" and "encounter" not in taken and st.encounter is not None \
                    and not st.encounter.out_of_sight and len(session.game.state.level.groups) \
                    and st.turn > 10:
                shot(frontend, "encounter")
                taken.add("encounter")
            if top == "EncounterScene" and "unseen" not in taken and st.encounter is not None \
                    and st.encounter.out_of_sight:
                shot(frontend, "unseen")
                taken.add("unseen")
            swung = any(e.type == "attack" and e.get("attacker_side") == "party" for e in session.last_events)
            if top == "CombatScene" and "combat" not in taken and st.combat is not None and st.combat.round >= 2 \
                    and swung:
                shot(frontend, "combat")
                taken.add("combat")
            if top == "DoorScene" and "run" not in taken:  # the choice of doors, over the fight
                shot(frontend, "run")
                taken.add("run")
                return [key(KeySym.ESCAPE)]
            game = session.game
            front = st.front_group()
            if top == "CombatScene" and "combat" in taken and "run" not in taken and game.legal(Run()) \
                    and front is not None and len(front.alive) >= 2 \
                    and sum(not w.blocked for w in game.exits()) >= 2:
                return [key(KeySym.R)]
            if top == "EndScene":
                if "death" not in taken and st.mode == "dead":
                    shot(frontend, "death")
                    taken.add("death")
                return None  # close
            presses[0] += 1
            if presses[0] > 600:
                return None
            return [key(step_key(session))]

        frontend.source = script
        loop.run(frontend.open, lambda: stack)

    for seed in range(args.seed, args.seed + 200):
        play(seed)
        if {"explore", "encounter", "unseen", "combat", "run", "death"} <= taken:
            break
    # the help overlay over a game
    fe = NullFrontEnd([[key(KeySym.SLASH, Modifier.LSHIFT)]])
    loop.run(fe.open, lambda: SceneStack(game_stack(Session.new(content, "undercroft", args.seed))), max_frames=2)
    shot(fe, "help")
    print("missing:", {"explore", "encounter", "unseen", "combat", "run", "death"} - taken or "none")


if __name__ == "__main__":
    main()
