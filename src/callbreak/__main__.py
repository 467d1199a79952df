"""``python -m callbreak``: the ``callbreak`` script, for an install without its scripts on
the PATH; the same entry, so Ctrl-C says the same."""

from callbreak.cli.entry import run

if __name__ == "__main__":
    run()
