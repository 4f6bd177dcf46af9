"""The ``undercroft`` command line: :mod:`~undercroft.cli.main` builds the parser and dispatches, one module per
subcommand registers its arguments and runs it, :mod:`~undercroft.cli.common` holds what they share and
:mod:`~undercroft.cli.progress` the progress bars."""
