"""One save, one game: the lock on a recording while its game is open.

While a game is open its recording is locked: ``flock(LOCK_EX | LOCK_NB)`` on the recording's own file, so nothing done
to the files beside it (removed, a link, a FIFO, a folder in their place) lets a second window write to the same game.
The operating system releases the lock when the process ends, however it ends, so a game left by a dead process is
simply taken up again. Beside the recording, ``NAME.lock`` holds one line of JSON, ``{"pid": ..., "host": ..., "since":
...}``, only for the messages of the other windows ("open in another window (pid 4242)"); it is removed when the game is
closed. On Windows there is no lock (see :class:`SaveLock`).
"""

from __future__ import annotations

import contextlib
import datetime
import json
import os
import socket
import sys
import time
from pathlib import Path

from undercroft import record
from undercroft.content.loader import open_checked, read_data_file

LOCK = ".lock"


def lock_path(path: Path) -> Path:
    """The lock file of recording ``path``: ``NAME.lock`` beside it."""
    return path.with_name(path.stem + LOCK)


class SaveLocked(Exception):
    """The game is open in another process (another window or terminal)."""

    def __init__(self, path: Path, pid: int) -> None:
        self.path = path
        self.pid = pid  # 0: not known (the other process has not written it yet)
        super().__init__(f"{path.name} is {open_elsewhere(pid)}")


def open_elsewhere(pid: int) -> str:
    return f"open in another window (pid {pid})" if pid else "open in another window"


def _lock_pid(path: Path) -> int:
    """The pid written in lock file ``path`` (0 when unreadable)."""
    try:
        obj = json.loads(read_data_file(path, 4096, follow=False) or b"{}")
    except (OSError, ValueError, RecursionError):
        return 0
    pid = obj.get("pid") if isinstance(obj, dict) else None
    return pid if isinstance(pid, int) and not isinstance(pid, bool) and 0 < pid < 1 << 32 else 0


_RETRIES = 3  # a title in another window probing the lock holds it for a moment: try again before giving up
_RETRY_S = 0.02
_HELD: dict[tuple[int, int], int] = {}  # the recordings this process holds the lock of: (device, inode) -> count


class SaveLock:
    """The lock on one recording while its game is open (see the module's docstring): an ``flock`` on the
    recording's own file, which no side file can take away. :meth:`acquire` takes it or raises
    :class:`SaveLocked`; :meth:`release` (also on garbage collection) lets it go."""

    def __init__(self, path: Path, fd: int | None) -> None:
        self.path = path  # the recording
        self._fd = fd
        self._id = (0, 0)
        if fd is not None:
            st = os.fstat(fd)
            self._id = (st.st_dev, st.st_ino)
            _HELD[self._id] = _HELD.get(self._id, 0) + 1

    @classmethod
    def acquire(cls, path: Path) -> SaveLock:
        """Lock recording ``path`` (which must exist) for this process. Raises :class:`SaveLocked` when another
        process has it, and OSError when the recording cannot be opened."""
        path = Path(path)
        if sys.platform == "win32":  # no flock: msvcrt.locking is advisory per byte range and not released reliably
            return cls(path, None)  # when a process dies, so Windows goes without (one window per save is on you)
        import errno
        import fcntl

        fd = open_checked(path, record.MAX_FILE)
        try:
            for attempt in range(_RETRIES):
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except OSError as exc:
                    if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                        raise
                    if attempt + 1 >= _RETRIES:
                        raise SaveLocked(path, _lock_pid(lock_path(path))) from None
                    time.sleep(_RETRY_S)
        except BaseException:
            os.close(fd)
            raise
        lock = cls(path, fd)
        lock._tell()
        return lock

    def _tell(self) -> None:
        """Write ``NAME.lock``, the pid for the other windows' messages (only a message: nothing relies on it)."""
        lp = lock_path(self.path)
        since = datetime.datetime.now().isoformat(timespec="seconds")
        data = json.dumps({"pid": os.getpid(), "host": socket.gethostname()[:64], "since": since}) + "\n"
        with contextlib.suppress(OSError):
            if os.path.isdir(lp) and not os.path.islink(lp):
                os.rmdir(lp)  # an empty folder in its place (one with files in it stays: the pid goes untold)
            record.write_side_file(lp, data.encode())

    def holds(self, path: Path) -> bool:
        """Whether this lock is on the file that is at ``path`` now (a recording written anew is another file)."""
        try:
            st = os.stat(path)
        except OSError:
            return False
        return self._fd is not None and (st.st_dev, st.st_ino) == self._id

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is None:
            return
        if _lock_pid(lock_path(self.path)) == os.getpid():
            with contextlib.suppress(OSError):
                os.unlink(lock_path(self.path))  # (while still held: no other process has written its own yet)
        n = _HELD.get(self._id, 0) - 1
        if n > 0:
            _HELD[self._id] = n
        else:
            _HELD.pop(self._id, None)
        with contextlib.suppress(OSError):
            os.close(fd)  # closing releases the flock

    def __del__(self) -> None:
        self.release()


def holder(path: Path) -> int | None:
    """Who has recording ``path`` open: None when nobody (or only this process, through a lock it holds), else the
    pid of the process that does, from its ``NAME.lock`` (0: not known). Never waits."""
    if sys.platform == "win32":
        return None
    import fcntl

    try:
        fd = open_checked(path, record.MAX_FILE)
    except OSError:
        return None  # no recording there (or not a regular file): nobody can have it open
    try:
        st = os.fstat(fd)
        if (st.st_dev, st.st_ino) in _HELD:
            return None
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except OSError:
            pid = _lock_pid(lock_path(path))
            return None if pid == os.getpid() else pid
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)
