"""What a command stopped by Ctrl-C says and the status it ends with, in one place for the
script's entry (``cli.entry``, before the command line is imported) and for the commands
(``cli.main``); a module of its own, since the entry must import nothing heavy."""

INTERRUPTED = "Interrupted."
"""What a command stopped by Ctrl-C says, on stderr, instead of a traceback, where it has
nothing more to say of what it stopped."""

EXIT_INTERRUPTED = 130
"""The status a shell gives a command stopped by SIGINT (128 + 2): scripts test for it."""
