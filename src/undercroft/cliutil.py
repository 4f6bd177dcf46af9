"""What the command line's subcommands share: exit codes, the one-line user error, loading ``--data``.

It sits below :mod:`undercroft.cli` (which registers the ``commands_*`` and ``bench*`` modules by name), so those
modules import this and never the command line itself: the imports run one way.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from undercroft.content import Content, load_content
from undercroft.paths import data_dir

EXIT_OK = 0
EXIT_FAIL = 1
EXIT_USAGE = 2


class UserError(Exception):
    """A problem the user can fix; printed as one line, exit status 2 unless ``code`` says otherwise."""

    def __init__(self, message: str, code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.code = code


def load_data(args: argparse.Namespace) -> Content:
    """The validated data of ``--data`` (or the shipped data); raises DataError."""
    directory = Path(args.data) if getattr(args, "data", None) else data_dir()
    return load_content(directory)
