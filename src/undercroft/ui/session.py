"""A game being played in the window: the Game, its recorder and the message log.

Every player action goes through :meth:`Session.act`, which uses :func:`undercroft.record.play_step` (step, record,
finish, crash capture) whenever there is a recorder. A session without a recorder is a replay being watched or a
screenshot being taken.

A recorded session holds the lock of its save (:class:`undercroft.record.saves.SaveLock`) from :meth:`Session.new` or
:meth:`Session.resume` until :meth:`Session.close`: one save, one game. It also tells the player when the
recording cannot be written (a full disk): :meth:`Session.save_problem`, a "bad" line in the log when that starts
and "Saved again." when it is over; what is still unsaved when the game is closed is kept in
:attr:`Session.unsaved` for the title (which closes the game the player has just left).

Unsaved actions are never dropped without the player's word: leaving a game with some asks first (the game
scenes' ``leave``), offering another place for the whole game (:meth:`Session.save_elsewhere`); a game closed
without asking (the window closed) writes it to the temporary folder by itself.
"""

from __future__ import annotations

import tempfile
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import tcod.console

from undercroft import recap, record
from undercroft.content import Content
from undercroft.narrate import LEVELS, Entry, Level, LogLine, Narrator, Unseen, finale, plural
from undercroft.record import saves as saves_mod
from undercroft.rules.actions import Action
from undercroft.rules.events import Event
from undercroft.rules.game import Game
from undercroft.rules.levels import guardian_fates
from undercroft.rules.names import group_name, the
from undercroft.rules.scoring import score_card, slain_worth
from undercroft.rules.types import Mode, Origin
from undercroft.rules.view import View
from undercroft.ui import render, settings
from undercroft.ui.layout import Camera

MAX_LOG = 5000  # the player's lines kept
MAX_FULL = 4 * MAX_LOG  # the lines of every level kept (the full log)


def unseen_groups(game: Game) -> Unseen:
    """The groups the party has come upon out of sight and not seen yet (the narrator tells nothing of them): for a
    log that starts in the middle of a game."""
    return {g.id for lv in game.state.levels.values() for g in lv.groups if g.unseen}


def collapse(entries: Iterable[Entry]) -> list[Entry]:
    """Runs of one line told again and again as one: "A wall is in the way. (x3)"."""
    out: list[Entry] = []
    last, repeat = "", 1
    for x in entries:
        if out and x.text == last:
            repeat += 1
            out[-1] = x._replace(text=f"{x.text} (x{repeat})")
        else:
            last, repeat = x.text, 1
            out.append(x)
    return out


@dataclass
class MessageLog:
    """The message log of a game: every line with its level (``full``), and the player's log (``lines``: the
    ``player`` lines only, what the bottom of the screen and the morgue file show), repeats collapsed."""

    lines: list[LogLine] = field(default_factory=list)  # the player's lines, repeats collapsed
    fresh: int = 0  # lines added by the last action (drawn bright)

    repeat: int = 1  # how many times the last line came in a row ("A wall is in the way. (x3)")
    last: str = ""
    unseen: Unseen = field(default_factory=set)  # the groups come upon but not yet seen: not a word about them
    batch: list[LogLine] = field(default_factory=list)  # the last action's player lines (the panels' "what happened")
    full: list[Entry] = field(default_factory=list)  # every line of every level, as told (repeats not collapsed)

    def _append(self, text: str, kind: str) -> None:
        if self.lines and text == self.last:
            self.repeat += 1
            self.lines[-1] = (f"{text} (x{self.repeat})", kind)
        else:
            self.repeat = 1
            self.last = text
            self.lines.append((text, kind))
        self.fresh += 1

    def add(self, text: str, kind: str = "normal") -> None:
        """A line of the front end's own (a banner, "Jumped to turn 40."): for the player."""
        self.full.append(Entry(text, kind, "player"))
        self._append(text, kind)
        self._trim()

    def add_events(self, events: list[Event], narrator: Narrator) -> None:
        """Append an action's events as ``narrator`` words them: every line to ``full``, the player's to
        ``lines`` and ``batch`` (the detail and internal lines only the full log shows)."""
        self.fresh = 0
        entries = narrator.log_entries(events, self.unseen)
        self.full.extend(entries)
        self.batch = [(x.text, x.kind) for x in entries if x.level == "player"]
        for text, kind in self.batch:
            self._append(text, kind)
        self._trim()

    def view(self, level: Level = "player") -> list[Entry]:
        """The log down to ``level`` (``player``: what a player needs, as ``lines``; ``internal``: everything),
        repeats collapsed."""
        upto = LEVELS[: LEVELS.index(level) + 1]
        return collapse(x for x in self.full if x.level in upto)

    def _trim(self) -> None:
        if len(self.lines) > MAX_LOG:
            del self.lines[: len(self.lines) - MAX_LOG]
        if len(self.full) > MAX_FULL:
            del self.full[: len(self.full) - MAX_FULL]


def save_differences(content: Content, header: record.Header) -> list[str]:
    """What differs between the setup that recorded ``header`` and this one (rules data, game, Python, numpy,
    tcod), one line each; [] when nothing does."""
    return record.compatibility(header, content.digest)


class Session:
    """One game in the window."""

    _open: ClassVar[weakref.WeakSet[Session]] = weakref.WeakSet()  # recorded sessions not closed yet

    def __init__(
        self,
        content: Content,
        game: Game,
        recorder: record.Recorder | None = None,
        path: Path | None = None,
        lock: saves_mod.SaveLock | None = None,
    ) -> None:
        self.content = content
        self.game = game
        self.recorder = recorder
        self.path = path if path is not None else (recorder.path if recorder is not None else None)
        self.log = MessageLog()
        self.narrator = Narrator(content, game.ruleset_id)
        self.last_events: list[Event] = []
        self.morgue: Path | None = None
        self._story: recap.Story | None = None
        self.camera = Camera()  # which part of the level the map shows (front-end state, never the game's)
        self.warned: set[int] = set()  # the final guardians the player was warned of (front-end state too)
        self.pointer: tuple[int, int] | None = None  # the screen cell under the mouse pointer (every scene's)
        # remembered preferences (a real game's: the settings file beside the saves; a game only watched: none)
        self.settings_file = settings.settings_path() if recorder is not None else None
        self.stop_hp = settings.load(self.settings_file).stop_hp if self.settings_file else settings.STOP_HP
        # (walks, travel and auto-explore, do not start with a character's HP under this %)
        self.seed_text = ""  # the seed as the player typed it ("": read from the save's sidecar, or the number)
        self.keep_morgue = recorder is not None  # write a morgue file when the game ends (real games only)
        self.morgue_dir: Path | None = None  # default: the user data directory's morgue/
        self.lock = lock
        self.save_error: str | None = None  # the recorder's write error as last told in the log
        self.unsaved = ""  # after close: what could not be saved ("" when everything was)
        self.elsewhere: Path | None = None  # where the whole game was written when its save's disk was full
        self.let_go = False  # the player chose to leave the unsaved actions behind
        self.closed = False
        if recorder is not None and lock is None and self.path is not None:  # a branch made elsewhere
            try:
                self.lock = saves_mod.SaveLock.acquire(self.path)
            except (saves_mod.SaveLocked, OSError):
                self.lock = None  # a new file nobody else can have open; a lock is a courtesy here
        if recorder is not None:
            Session._open.add(self)

    # --- starting ------------------------------------------------------------------------------------------

    @classmethod
    def new(cls, content: Content, ruleset: str, seed: int | str, *, daily: str = "", seed_text: str = "") -> Session:
        """A new recorded game in the saves directory (``daily``: the date of the day's game, marked in its
        header; ``seed_text``: the seed as the player typed it, its words)."""
        game = Game(content, ruleset, seed)
        path = saves_mod.new_save_path(game.state.seed, ruleset)
        recorder = record.Recorder.create(path, game, content, daily=daily, started=record.now_utc())  # (new)
        try:
            lock = saves_mod.SaveLock.acquire(path)
        except BaseException:
            recorder.close()
            raise
        s = cls(content, game, recorder, lock=lock)
        s.seed_text = saves_mod.daily_word(daily) if daily else seed_text
        s.log.add(f"{game.rs.title}, seed {s.seed_text or game.state.seed}. {game.rs.levels[0].name}.", "alert")
        if greeting := s.narrator.greeting(0):
            s.log.add(greeting, "alert")
        s.log.add("Press ? for help.", "detail")
        return s

    @classmethod
    def resume(cls, content: Content, path: Path) -> Session:
        """Continue an unfinished recording exactly where it stopped (the log is rebuilt from the replay).

        Raises :class:`undercroft.record.saves.SaveLocked` when the game is open in another process, and
        :class:`undercroft.record.Desync` when the recording does not replay (a state differs from the one it
        records): then nothing is written to it."""
        path = Path(path)
        for other in list(Session._open):  # this process's own, left open (back at the title): closed first
            if other.path is not None and other.path.resolve() == path.resolve():
                other.close()
        lock = saves_mod.SaveLock.acquire(path)
        try:
            rec = record.load_recording(path, lenient_tail=True)
            game, log = _replayed(content, rec, verify=True)  # (one that does not replay is never written to)
            recorder = record.Recorder.append_to(path, recording=rec, content=content)
            if not lock.holds(path):  # an earlier format, written anew: the lock goes to the new file
                lock.release()
                lock = saves_mod.SaveLock.acquire(path)
        except BaseException:
            lock.release()
            raise
        s = cls(content, game, recorder, path, lock=lock)
        s.log = log
        s.log.add(f"Continued: {game.rs.title}, seed {s.seed_label}, turn {game.state.turn}.", "alert")
        return s

    @classmethod
    def load(cls, content: Content, path: Path) -> Session:
        """A recording as it stands, to look at: replayed, its log rebuilt; nothing is written and no lock is taken
        (the game may be open elsewhere)."""
        rec = record.load_recording(Path(path), lenient_tail=True)
        game, log = _replayed(content, rec)
        s = cls(content, game, path=Path(path))
        s.log = log
        return s

    @classmethod
    def branch(cls, content: Content, path: Path, until: int | None = None) -> Session:
        """A new recorded game (a new file) that repeats every action of recording ``path`` with this data (up to
        turn ``until``: the last that replays, for a save that does not) and goes on from there; ``path`` is left
        as it is. Stops repeating at an action this data refuses."""
        path = Path(path)
        rec = record.load_recording(path, lenient_tail=True)
        h = rec.header
        s = cls.new(content, h.ruleset, h.seed)
        stopped = ""
        for turn, action, _ in rec.actions:
            if s.game.over or (until is not None and turn > until):
                break
            s.act(action)
            if s.refused:
                stopped = f" Stopped at its turn {turn}: this game refuses it now ({s.refused})."
                break
        s.last_events = []
        label = saves_mod.seed_label(path, h.seed)
        if s.path is not None and label != str(h.seed):
            saves_mod.remember_seed(s.path, label)
            s.seed_text = label
        new = s.path.name if s.path is not None else "?"
        s.log.add(
            f"A new branch of {path.name} at turn {s.game.state.turn}, played with this game and data, recorded to "
            f"{new} (the old save is kept as it was).{stopped}",
            "alert",
        )
        return s

    @classmethod
    def watch(cls, content: Content, game: Game) -> Session:
        """An unrecorded session (replays, screenshots)."""
        return cls(content, game, None)

    # --- playing -------------------------------------------------------------------------------------------

    @property
    def view(self) -> View:
        """What the player knows of the party's level: what every screen draws from (and the bots plan with)."""
        return View(self.game)

    @property
    def mode(self) -> Mode:
        return self.game.state.mode

    def legal(self, action: Action) -> bool:
        return self.game.legal(action)

    def act(self, action: Action) -> list[Event]:
        """Take one player action: step, record (and finish when the game ends), log."""
        if self.recorder is not None:
            events = record.play_step(self.game, self.recorder, action)
        else:
            events = self.game.step(action)
        self.last_events = events
        if self.game.over:  # the death line names the seed as the player knows it (its words, not its number)
            self.narrator.seed = self.seed_label
        self.log.add_events(events, self.narrator)
        self._tell_save_problem()
        return events

    def save_problem(self) -> str:
        """Why the game is not fully saved ("" when it is), for the screen: "Not saved: No space left on device
        (2 actions waiting; they are saved as soon as the disk allows)"."""
        r = self.recorder
        if r is None or not r.error:
            return ""
        if not r.pending:
            return f"Not saved: {r.error}"
        waiting = plural(r.pending, "action")
        return f"Not saved: {r.error} ({waiting} waiting; they are saved as soon as the disk allows)"

    def unsaved_actions(self) -> int:
        """How many actions are not in the save (after one more try at writing them)."""
        r = self.recorder
        if r is None or not r.pending:
            return 0
        r.flush_pending()
        self._tell_save_problem()
        return r.pending

    def save_elsewhere(self, where: Path | None = None) -> Path:
        """Write the whole game, its unsaved actions included, to ``where`` (a folder, or a file path; default:
        the temporary folder, under the save's own name or, when that is taken, ``NAME-2.jsonl``, ...); returns
        the file written. OSError when it cannot be."""
        r = self.recorder
        if r is None:
            raise ValueError("an unrecorded game has nothing to save")
        if where is None:  # (a name of its own: a copy written before, by this game or another, is kept)
            dest = saves_mod.fresh_name(Path(tempfile.gettempdir()), r.path.name)
        else:
            where = Path(where).expanduser()
            dest = where / r.path.name if where.is_dir() else where
        if dest.exists() or dest.is_symlink():
            raise FileExistsError(17, f"{dest} exists already")
        r.save_copy(dest)
        self.elsewhere = dest
        return dest

    def _tell_save_problem(self) -> None:
        """A log line when the recording starts failing (once per kind of error), and one when it works again."""
        error = self.recorder.error if self.recorder is not None else None
        if error == self.save_error:
            return
        if error is not None:
            self.log.add(
                f"Your game could not be saved: {error}. It goes on: what you do is kept and saved as soon "
                "as the disk allows.",
                "bad",
            )
        else:
            self.log.add("Saved again.", "good")
        self.save_error = error

    @property
    def refused(self) -> str:
        """Why the last action was refused ('' when it was accepted)."""
        ev = self.last_events
        return self.narrator.text(ev[0]) if len(ev) == 1 and ev[0].type == "refused" else ""

    @property
    def seed_label(self) -> str:
        """The seed as the player typed it (a word seed stays the word), else its number."""
        if not self.seed_text:
            seed = self.game.state.seed
            if self.path is not None:
                from undercroft.record.saves import seed_label

                self.seed_text = seed_label(self.path, seed)
            else:
                self.seed_text = str(seed)
        return self.seed_text

    def close(self) -> None:
        """Close the recording (trying once more to write what is waiting) and let go of the save's lock. What
        could not be saved is kept in :attr:`unsaved` (printed nowhere: the title shows it)."""
        Session._open.discard(self)
        if self.closed:
            return
        self.closed = True
        r = self.recorder
        if r is not None:
            if r.pending:
                r.flush_pending()  # (never raises: a write error stays in r.error)
            if r.pending:
                self.unsaved = self._unsaved_note(r)
            r.close()
        if self.lock is not None:
            self.lock.release()

    def _unsaved_note(self, r: record.Recorder) -> str:
        """What became of the actions the save could not take (written elsewhere, at the player's word or by
        itself into the temporary folder, or let go), for the title."""
        what = (
            f"{plural(r.pending, 'action')} of your last game could not be saved ({r.error or 'the disk refused it'})"
        )
        if self.let_go:
            return f"{what}: left behind, as you chose"
        if self.elsewhere is None:
            try:
                self.save_elsewhere()
            except OSError as exc:
                return f"{what}, nor written to the temporary folder ({exc.strerror or exc}): they are lost"
        return f"{what}: the whole game is in {self.elsewhere} (copy it over its save to continue it)"

    # --- the end -------------------------------------------------------------------------------------------

    @property
    def story(self) -> recap.Story | None:
        """The run read back from its recording once the game is over (its notes, where it turned), replayed once
        and kept; None for a game not over or with no recording (a replay watched, a screenshot)."""
        if self._story is None and self.game.over and self.path is not None:
            try:
                rec = record.load_recording(self.path, lenient_tail=True)
                self._story = recap.read_run(self.content, rec, render.home_short(str(self.path)))
            except (record.RecordingError, record.Desync):
                return None
        return self._story

    def turning_lines(self) -> list[str]:
        """Where the run turned (a lost game's last choice and the odds of the others), [] when there is nothing
        to tell."""
        story = self.story
        return [] if story is None else recap.turning_lines(self.content, story)

    def turning_command(self) -> str:
        """The command that plays on from just before where the run turned; "" when there is none."""
        story = self.story
        return "" if story is None else recap.replay_command(self.content, story)

    def write_morgue(self, directory: Path | None = None) -> Path:
        """The morgue file of a game that is over (:func:`morgue_text`)."""
        from undercroft.paths import user_data_dir

        st = self.game.state
        d = directory or self.morgue_dir or user_data_dir() / "morgue"
        d.mkdir(parents=True, exist_ok=True)
        name = f"morgue-{st.ruleset}-{st.seed}-turn{st.turn}.txt"
        if self.path is not None:
            name = f"morgue-{self.path.stem}.txt"
        out = d / name
        record.write_side_file(out, ("\n".join(morgue_text(self)) + "\n").encode("utf-8"))  # (never through a link)
        self.morgue = out
        return out


MORGUE_MESSAGES = 40  # the last messages a morgue file keeps


def _section(title: str, lines: list[str]) -> list[str]:
    return ["", title, "-" * len(title), *lines]


def party_lines(game: Game) -> list[str]:
    """Each character (its level where the ruleset has growth, its numbers) and the kit the party carried."""
    st = game.state
    out = [
        f"{m.name}{f' (Lv {m.level}, renown {m.renown})' if game.rs.growth else ''}: HP {m.hp}/{m.max_hp}, "
        f"MIGHT {m.might}, AGILITY {m.agility}, defense {m.defense}, weapon +{m.weapon}, speed {m.speed}"
        for m in st.party
    ]
    items = ", ".join(f"{game.content.items[i].name} x{n}" for i, n in sorted(st.items.items()) if n > 0)
    out.append(f"Kit: {st.gold} gold" + (f"; {items}." if items else "."))
    return out


def kill_lines(game: Game) -> list[str]:
    """The kills by kind, the most worth first, and their sum."""
    content = game.content
    slain = game.state.slain
    if not slain:
        return ["Nothing."]
    rows = sorted(slain.items(), key=lambda mn: (-content.monsters[mn[0]].worth * mn[1], mn[0]))
    out = []
    for mid, n in rows:
        mon = content.monsters[mid]
        name, _ = group_name(mon.name, mon.plural, n)
        out.append(f"{n:4}  {name} (worth {mon.worth} each: {mon.worth * n})")
    total = sum(slain.values())
    out.append(f"In all {plural(total, 'creature')}, worth {slain_worth(content, slain)}.")
    return out


def map_lines(game: Game) -> list[str]:
    """The level the party was on, as it was explored (the map the screen draws, in text), blank rows dropped."""
    m = game.state.level.map
    console = tcod.console.Console(m.width, m.height, order="F")
    render.draw_map(console, View(game))
    rows = ["".join(chr(c) for c in row).rstrip() for row in render.cells(console)["ch"]]
    while rows and not rows[-1]:
        rows.pop()
    while rows and not rows[0]:
        rows.pop(0)
    return rows


def morgue_text(session: Session) -> list[str]:
    """The morgue file, like DCSS's: how it ended and the score, where the run turned, the party and its kit, the
    kills by kind, the notes of the run with their turns, the last floor's map, the last messages and the replay
    command."""
    g = session.game
    lines = ["Undercroft morgue file", "", *end_lines(g, session.seed_label)]
    turning = session.turning_lines()
    if turning:
        lines += _section("Where it turned", [*turning, f"Play on from just before it: {session.turning_command()}"])
    lines += _section("The party", party_lines(g))
    lines += _section("Kills by kind", kill_lines(g))
    story = session.story
    if story is not None:
        lines += _section("Notes", [f"{n.turn:6}  floor {n.floor}  {n.text}" for n in story.notes] or ["None."])
    lines += _section(f"The last floor: {g.rs.levels[g.state.depth].name}", map_lines(g))
    lines += _section("Last messages", [text for text, _ in session.log.lines[-MORGUE_MESSAGES:]])
    replay = ["(not recorded)"]
    if session.path is not None:
        replay = [f"Recording: {session.path}", f"Watch it: undercroft replay {session.path} --watch"]
    lines += _section("The replay", [record.state_summary(g), *replay])
    return lines


def score_line(game: Game) -> str:
    """The score and what made it: "Score: 340 (floor 3: 300, kills worth 40: 40)."."""
    card = score_card(game.content, game.state)
    parts = ", ".join(f"{what}: {n}" for what, n in card.parts(game.content))
    return f"Score: {card.total}" + (f" ({parts})." if parts else ".")


def end_lines(game: Game, seed: str = "") -> list[str]:
    """What the death (or victory) screen says: cause, turn, depth and seed (``seed``: as typed; default its
    number), kills and gold, the score."""
    st = game.state
    seed = seed or str(st.seed)
    level = game.rs.levels[st.depth].name
    if st.mode == Mode.DEAD and st.death is not None:
        d = st.death
        return [
            "You are dead.",
            f"Killed by {the(str(d['cause']))} on turn {d['turn']}.",
            f"Depth: level {int(d['depth']) + 1} ({level}).",
            f"Seed {seed}, ruleset {game.rs.title}.",
            f"Kills: {st.kills}. Gold: {st.gold}.",
            score_line(game),
        ]
    slew = not any(g.origin == Origin.GUARDIAN for g in st.level.groups)
    how = (
        f"The last of the things at the end fell on turn {st.turn}."
        if slew
        else f"You went out through the seal on turn {st.turn}."
    )
    past = finale(game.content, guardian_fates(game.content, game.ruleset_id, st.level))
    return [
        "You have won.",
        how,
        *([past] if past else []),
        f"Depth: level {st.depth + 1} ({level}).",
        f"Seed {seed}, ruleset {game.rs.title}.",
        f"Kills: {st.kills}. Gold: {st.gold}.",
        score_line(game),
    ]


def _replayed(content: Content, rec: record.Recording, *, verify: bool = False) -> tuple[Game, MessageLog]:
    """A recording replayed, with the log its events tell (``verify``: every state checked, else Desync)."""
    log = MessageLog()
    narrator = Narrator(content, rec.header.ruleset)

    def collect(turn: int, action: Action, events: list[Event]) -> None:
        log.add_events(events, narrator)

    return record.replay(content, rec, verify=verify, on_events=collect), log
