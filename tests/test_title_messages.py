"""Every message of the title is readable at every size (80x24, 80x40, 120x50), with a full list
of unfinished games: no footer drawn over it, nothing cut."""

from __future__ import annotations

from pathlib import Path

import pytest
from engine_helpers import content
from ui_helpers import Driver, isolate_user_data, screen

from undercroft.rules.actions import Rest
from undercroft.ui.scenes import SceneStack, TitleScene
from undercroft.ui.session import Session

FOOT = "Closing the window keeps your game: Continue resumes it."
LONG = "/tmp/undercroft-scratch/a-rather-long-folder-name/and-another/crawler-1-20261202-071612.jsonl"
MESSAGES = [
    "Cannot create the save file: No space left on device",
    "Cannot create the save file: Read-only file system",
    "Cannot continue crawler-3-20261202-071612.jsonl: crawler-3-20261202-071612.jsonl:1: line ends in CR LF "
    "(a save written on Windows, or edited): write it with LF line ends",
    "crawler-3-20261202-071612.jsonl was saved with a different setup: the rules data differs (a1d14ffe94e8 now, "
    "0123456789ab in the save); game version 0.9.0 in the save, 1.0.0 now; numpy 1.26.4 in the save, 2.1.0 now",
    f"107 actions of your last game could not be saved (No space left on device): the whole game is in {LONG} "
    "(copy it over its save to continue it).",
    "Cannot continue x.jsonl: " + " ".join(["a reason that goes on and on"] * 22),  # longer than the space below
]


@pytest.fixture(scope="module")
def saves(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Ten unfinished games (more than the list shows)."""
    mp = pytest.MonkeyPatch()
    user = isolate_user_data(mp, tmp_path_factory.mktemp("title"))
    for seed in range(1, 11):
        s = Session.new(content(), "crawler", seed)
        s.act(Rest())
        s.close()
    mp.undo()
    return user / "saves"


def squeeze(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize("size", [(80, 24), (80, 40), (120, 50)])
@pytest.mark.parametrize("message", MESSAGES)
def test_every_title_message_is_readable_at_every_size(saves: Path, size: tuple[int, int], message: str) -> None:
    title = TitleScene(content(), seed=7, saves=saves)
    assert len(title.games) == 10
    title.message = message
    text = screen(Driver(SceneStack([title]), size=size))
    assert squeeze(message) in squeeze(text), text  # every character, in order, none drawn over
    if len(message) < 300:  # (a longer one is drawn over the list)
        assert "Unfinished games (10)" in text and "> " in text  # the list keeps a row at least
    if FOOT in text:  # the footer, when there is room for it, whole and on its own row
        assert squeeze(message) not in squeeze(text.split(FOOT)[1])


@pytest.mark.parametrize("size", [(80, 24), (80, 40), (120, 50)])
def test_the_abandon_question_and_a_note_are_readable(saves: Path, size: tuple[int, int]) -> None:
    title = TitleScene(content(), seed=7, saves=saves)
    title.notes = ["skipped junk.jsonl: not an Undercroft recording", "skipped x.jsonl: no such file"]
    text = screen(Driver(SceneStack([title]), size=size))
    assert "skipped junk.jsonl: not an Undercroft recording (+1 more)" in " ".join(text.split())
    title.confirm_abandon = title.games[0].path
    text = screen(Driver(SceneStack([title]), size=size))
    assert squeeze(f"Abandon {title.games[0].path.name}? It moves to saves/abandoned/") in squeeze(text)
    assert squeeze("y: abandon, any other key: keep it.") in squeeze(text)
