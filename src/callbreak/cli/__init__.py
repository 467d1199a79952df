"""The command line: ``callbreak play | selfplay | replay | rules``."""
