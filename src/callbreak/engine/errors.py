"""Errors the engine raises at its public edge."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules do not allow; ``rule`` names the rule, the message explains it.

    Raising it never changes the game: the state is checked before anything moves.
    """

    def __init__(self, message: str, rule: str) -> None:
        super().__init__(message)
        self.rule = rule
