"""Levels for people, mapped onto bots and budgets; every face offers these names."""

from __future__ import annotations

LEVELS: dict[str, str] = {
    "easy": "heuristic:blunder=0.35",
    "medium": "heuristic",
    "hard": "expert:budget_ms=300",
    "expert": "expert:budget_ms=1000",
}
"""Level name → bot spec. A level is only listed once its bot exists."""


def level_spec(level: str) -> str:
    """The bot spec behind a level; an unknown level names the known ones."""
    try:
        return LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}") from None
