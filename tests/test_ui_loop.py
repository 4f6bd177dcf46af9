"""The one loop (undercroft.ui.loop) on the null front end: what a player notices, whatever the front end."""

from __future__ import annotations

from pathlib import Path

import pytest
import tcod.console
import tcod.event
from engine_helpers import content
from tcod.event import KeySym, Modifier
from ui_helpers import isolate_user_data, seek_fight_key

from undercroft import record
from undercroft.record.saves import latest_unfinished
from undercroft.rules.actions import Move
from undercroft.rules.types import Mode
from undercroft.ui import loop
from undercroft.ui.frontend import NullFrontEnd
from undercroft.ui.keys import key
from undercroft.ui.scenes import CombatScene, SceneStack, TitleScene
from undercroft.ui.scenes.base import Exit, Scene, Transition
from undercroft.ui.session import Session


@pytest.fixture
def user(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    return isolate_user_data(monkeypatch, tmp_path)


def saves(user: Path) -> list[Path]:
    return sorted((user / "saves").glob("*.jsonl"))


def test_scripted_keys_move_the_delver_and_are_recorded(user: Path) -> None:
    """``undercroft play --seed 1`` on the null front end: arrow keys walk, each step is in the save."""
    arrows = [KeySym.RIGHT, KeySym.DOWN, KeySym.LEFT, KeySym.UP] * 2
    frontend = NullFrontEnd([[key(k)] for k in arrows])
    assert loop.play(frontend.open, content(), loop.PlayOptions(seed=1)) == 0  # the script ends: closed
    [path] = saves(user)
    rec = record.load_recording(path)
    assert rec.turns >= 1 and not rec.finished  # kept, to be continued
    moves = [a for _, a, _ in rec.actions if isinstance(a, Move)]
    assert len(moves) == len(rec.actions)
    steps = {KeySym.RIGHT: (1, 0), KeySym.DOWN: (0, 1), KeySym.LEFT: (-1, 0), KeySym.UP: (0, -1)}
    want = [Move(*steps[k]) for k in arrows]
    it = iter(want)
    assert all(m in it for m in moves)  # the recorded moves are those keys, in order (walls refused)
    assert frontend.frames == len(arrows) + 1  # the game (a seed skips the title), then one frame after each key
    assert "HP " in frontend.screen() and "Turn " in frontend.screen()


def test_the_exit_status_is_the_scenes_and_a_closed_front_end_is_0() -> None:
    class Leave(Scene):
        def on_event(self, event: tcod.event.Event) -> Transition | None:
            return Exit(3) if isinstance(event, tcod.event.KeyDown) else None

    assert (
        loop.run(NullFrontEnd([[tcod.event.TextInput(text="x")], [key(KeySym.A)]]).open, lambda: SceneStack([Leave()]))
        == 3
    )
    assert loop.run(NullFrontEnd([[tcod.event.TextInput(text="x")]]).open, lambda: SceneStack([Leave()])) == 0
    closing = tcod.event.WindowEvent(type="WindowClose", window_id=1, data=(0, 0))
    assert loop.run(NullFrontEnd([[closing, key(KeySym.A)]]).open, lambda: SceneStack([Leave()])) == 0


def test_a_bounded_run_never_waits() -> None:
    frontend = NullFrontEnd([[], [], []])
    assert loop.run(frontend.open, lambda: SceneStack([TitleScene(content(), seed=3)]), max_frames=3) == 0
    assert frontend.frames == 3 and frontend.timeouts == [0.0, 0.0]


def test_text_input_is_on_while_a_prompt_wants_it(user: Path) -> None:
    """'s' on the title opens the seed prompt: typed text reaches it; Enter starts the game and text is off."""
    frontend = NullFrontEnd()
    stack = SceneStack([TitleScene(content())])
    lp = loop.Loop(frontend, stack)
    lp.draw()
    frontend.push(key(KeySym.S), tcod.event.TextInput(text="4"), tcod.event.TextInput(text="2"))  # one batch
    lp.wait()
    assert frontend.text
    lp.draw()
    assert "> 42_" in frontend.screen()
    frontend.push(key(KeySym.RETURN))
    lp.wait()
    assert not frontend.text
    session = stack.scenes[0].session
    assert session.game.state.seed == 42


def test_a_front_end_too_small_hides_the_game(user: Path) -> None:
    """Nothing drawn, keys dropped and time stopped while the game does not fit; back as it was when it does."""
    frontend = NullFrontEnd(size=(60, 20))
    stack = loop.play_stack(content(), loop.PlayOptions(seed=1))
    session = stack.scenes[0].session  # type: ignore[attr-defined]
    lp = loop.Loop(frontend, stack)
    lp.draw()
    assert not lp.fits and frontend.screen().strip("<> \n") == ""  # nothing was drawn
    frontend.push(key(KeySym.RIGHT), key(KeySym.DOWN), key(KeySym.LEFT), key(KeySym.UP))
    lp.wait()
    assert session.game.state.turn == 0
    frontend.columns, frontend.rows = 80, 50
    lp.draw()
    assert lp.fits and "HP " in frontend.screen()
    frontend.push(key(KeySym.RIGHT), key(KeySym.DOWN), key(KeySym.LEFT), key(KeySym.UP))
    lp.wait()
    assert session.game.state.turn >= 1


def play_until_fight(seed: int) -> dict[str, object]:
    """Play a new recorded game of ``seed`` through the loop, heading for a fight; close the front end in round 2."""
    holder: dict[str, SceneStack] = {}
    seen: dict[str, object] = {}

    def make() -> SceneStack:
        holder["stack"] = loop.play_stack(content(), loop.PlayOptions(seed=seed))
        return holder["stack"]

    def source(timeout: float | None) -> list[tcod.event.Event] | None:
        session = holder["stack"].scenes[0].session  # type: ignore[attr-defined]
        game = session.game
        seen["session"] = session
        if game.state.mode == Mode.COMBAT and game.state.combat is not None and game.state.combat.round >= 2:
            seen["checksum"] = game.checksum()
            seen["turn"] = game.state.turn
            seen["path"] = session.path
            return None  # the front end is closed mid-fight
        if game.over or game.state.turn > 400:
            return None
        return [key(seek_fight_key(session))]

    assert loop.run(NullFrontEnd(source=source).open, make) == 0
    return seen


def test_close_the_front_end_mid_fight_then_continue(user: Path) -> None:
    found = None
    for seed in range(1, 30):
        seen = play_until_fight(seed)
        if "checksum" in seen:
            found = seen
            break
    assert found is not None, "no seed led to a fight"
    path = found["path"]
    assert isinstance(path, Path) and path.is_file()
    session = found["session"]
    assert isinstance(session, Session) and session.recorder is not None
    assert session.recorder._fd is None  # the loop closed the recording as it ended
    assert latest_unfinished() == path

    # a new start: the title offers to continue, and 'c' resumes exactly there, in the fight, which goes on
    frontend = NullFrontEnd([[key(KeySym.C)], [key(KeySym.A)]])
    resumed: list[tuple[list[str], int, str]] = []
    holder: dict[str, SceneStack] = {}

    def on_present(console: tcod.console.Console) -> None:
        stack = holder["stack"]
        if isinstance(stack.top, CombatScene) and not resumed:
            game = stack.top.session.game
            resumed.append(([type(s).__name__ for s in stack.scenes], game.state.turn, game.checksum()))

    frontend.on_present = on_present

    def make() -> SceneStack:
        holder["stack"] = SceneStack([TitleScene(content())])
        return holder["stack"]

    assert loop.run(frontend.open, make) == 0
    assert resumed == [(["ExploreScene", "CombatScene"], found["turn"], found["checksum"])]
    rec = record.load_recording(path)
    # the attack after continuing, recorded in the same file
    assert isinstance(found["turn"], int) and rec.turns == found["turn"] + 1
    record.replay(content(), rec, verify=True)


def test_a_crash_keeps_the_game(user: Path) -> None:
    """Whatever ends the loop (here the front end failing), the steps taken are in the save, which is closed."""
    calls = [0]

    def source(timeout: float | None) -> list[tcod.event.Event]:
        calls[0] += 1
        if calls[0] > 4:
            raise RuntimeError("the front end broke")
        return [key(KeySym.RIGHT if calls[0] % 2 else KeySym.LEFT)]

    holder: dict[str, SceneStack] = {}

    def make() -> SceneStack:
        holder["stack"] = loop.play_stack(content(), loop.PlayOptions(seed=2))
        return holder["stack"]

    with pytest.raises(RuntimeError, match="broke"):
        loop.run(NullFrontEnd(source=source).open, make)
    session = holder["stack"].scenes[0].session  # type: ignore[attr-defined]
    assert session.recorder._fd is None
    [path] = saves(user)
    assert record.load_recording(path).turns == session.game.state.turn
    # and the title continues it
    stack = SceneStack([TitleScene(content())])
    assert loop.run(NullFrontEnd([[key(KeySym.C)]]).open, lambda: stack) == 0
    assert stack.scenes[0].session.game.checksum() == session.game.checksum()  # type: ignore[attr-defined]


def test_shift_and_text_keys_reach_the_scenes_unchanged(user: Path) -> None:
    """The help overlay ('?', Shift+/) through the loop, then any key closes it."""
    frontend = NullFrontEnd([[key(KeySym.SLASH, Modifier.LSHIFT)]])
    shown: list[str] = []
    frontend.on_present = lambda console: shown.append(str(console))
    assert loop.play(frontend.open, content(), loop.PlayOptions(seed=5)) == 0
    assert "Exploring" not in shown[0] and "Exploring" in shown[-1]
