"""Progress bars for the long commands (``autoplay``, ``soak``, ``balance``, ``sim --all``, ``bench``).

A bar with its rate and the time left (tqdm) on stderr when stderr is a terminal and the command was not asked for
``--json``; nothing at all otherwise, so that piped output and JSON stay clean. tqdm is the one well-kept,
dependency-free library for this; the bar is cosmetic and never touches a result.
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Any, TextIO

from tqdm import tqdm


def wanted(json_output: bool = False, stream: TextIO | None = None) -> bool:
    """Whether to draw a bar: not for ``--json``, and only on a terminal."""
    s = sys.stderr if stream is None else stream
    return not json_output and hasattr(s, "isatty") and s.isatty()


class Bar:
    """A progress bar over ``total`` units (``unit``: "game", "fight", "row"), or nothing when not ``enabled``."""

    def __init__(
        self, total: int, desc: str, *, unit: str = "game", enabled: bool = True, stream: TextIO | None = None
    ) -> None:
        self._bar: tqdm[Any] | None = None
        if enabled:
            self._bar = tqdm(
                total=total,
                desc=desc,
                unit=unit,
                file=sys.stderr if stream is None else stream,
                dynamic_ncols=True,
                leave=False,
                smoothing=0.1,
                mininterval=0.2,
            )

    def update(self, n: int = 1, note: str | None = None) -> None:
        if self._bar is not None:
            if note is not None:
                self._bar.set_postfix_str(note, refresh=False)
            self._bar.update(n)

    def set(self, done: int, total: int) -> None:
        """Where it is now: ``done`` of ``total`` (a total learnt on the way)."""
        if self._bar is not None:
            self._bar.total = total
            self._bar.update(done - self._bar.n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> Bar:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()


__all__ = ["Bar", "wanted"]
