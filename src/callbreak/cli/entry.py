"""The ``callbreak`` script's entry point (and ``python -m callbreak``).

The command line proper (``callbreak.cli.main``) takes a few tenths of a second to import
typer, rich and the engine, and until it has, no command can catch Ctrl-C: an interrupt
then printed a KeyboardInterrupt traceback.  This module imports nothing heavy at its top,
so that the import itself stands inside the ``try``; commands that do not catch Ctrl-C
themselves end with the same line (``callbreak.cli.main``), those that do keep their own.
Only the package's facade (``callbreak/__init__``, a tenth of a second of engine imports)
is loaded before this module can be, and stays uncovered.
"""

from __future__ import annotations

import sys

from callbreak.cli.interrupt import EXIT_INTERRUPTED, INTERRUPTED


def run() -> None:
    """Run the command line; Ctrl-C from here on ends it with one line and status 130."""
    try:
        from callbreak.cli.main import app

        app()
    except KeyboardInterrupt:
        print(INTERRUPTED, file=sys.stderr)
        raise SystemExit(EXIT_INTERRUPTED) from None


if __name__ == "__main__":
    run()
