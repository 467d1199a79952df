"""Pieces every command shares: rules from flags, seat names, card colours."""

from __future__ import annotations

from typing import Any

import typer

from callbreak.cards import SUIT_SYMBOLS, SUITS
from callbreak.points import Points
from callbreak.rules import Rules

SEAT_NAMES = ("South", "East", "North", "West")
"""Seats in turn order (play goes counter-clockwise in the South-Asian games)."""

_SUIT_STYLE = {"S": "bold", "H": "bold red", "D": "bold red", "C": "bold"}


def rules_from_flags(preset: str, options: list[str] | None) -> Rules:
    """``--rules PRESET --option name=value ...`` → Rules, or a clear usage error."""
    try:
        rules = Rules.preset(preset)
        changes: dict[str, Any] = {}
        for item in options or []:
            name, eq, value = item.partition("=")
            if not eq:
                raise ValueError(f"--option {item!r}: write name=value, e.g. --option max_call=8")
            changes[name.strip().replace("-", "_")] = value.strip()
        return rules.replace(**changes)
    except ValueError as error:
        raise typer.BadParameter(str(error)) from None


def styled_card(name: str) -> str:
    """A card name with rich markup: its suit symbol, red for hearts and diamonds."""
    suit = name[-1]
    return f"[{_SUIT_STYLE[suit]}]{name[:-1]}{SUIT_SYMBOLS[SUITS.index(suit)]}[/]"


def styled_cards(names: list[str] | tuple[str, ...]) -> str:
    return " ".join(styled_card(n) for n in names) if names else "-"


def fmt_points(values: list[Points] | tuple[Points, ...]) -> list[str]:
    return [str(v) for v in values]
