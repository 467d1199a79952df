"""Pieces every command shares: rules from flags, seat names, card colours."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import typer

from callbreak.cards import SUIT_SYMBOLS, SUITS
from callbreak.points import Points
from callbreak.rules import Rules

_SUIT_STYLE = {"S": "bold", "H": "bold red", "D": "bold red", "C": "bold"}
_COLOUR_STYLE = {"R": "bold red", "Y": "bold yellow", "G": "bold green", "B": "bold blue"}
"""Rook colours: the number keeps its colour letter, drawn in that colour."""


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


def writable(path: Path, param_hint: str, directory: bool = False) -> Path:
    """``path`` if the command will be able to write there (a file, or with ``directory``
    a folder), else a usage error now, before a long run whose results it would lose.

    Missing folders are made, as the writer would make them anyway.
    """
    folder = path if directory else path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise typer.BadParameter(
            f"cannot write to {path}: {error.strerror or error}", param_hint=param_hint
        ) from None
    if not directory and path.is_dir():
        raise typer.BadParameter(f"cannot write to {path}: it is a folder", param_hint=param_hint)
    if not os.access(folder, os.W_OK):
        raise typer.BadParameter(
            f"cannot write to {path}: {folder} is not writable", param_hint=param_hint
        )
    return path


def located(path: Path, error: Exception) -> str:
    """``path: error``, unless the error already starts by naming the file (a RecordError
    does), so that no message reads "game.json: game.json: ..."."""
    text = str(error)
    return text if text.startswith(str(path)) else f"{path}: {text}"


def styled_card(name: str) -> str:
    """A card name with rich markup: its suit symbol, red for hearts and diamonds."""
    if name == "ROOK":
        return "[bold magenta]ROOK[/]"
    suit = name[-1]
    if suit in _SUIT_STYLE and name[:-1] in _RANK_TEXT:
        return f"[{_SUIT_STYLE[suit]}]{name[:-1]}{SUIT_SYMBOLS[SUITS.index(suit)]}[/]"
    return f"[{_COLOUR_STYLE.get(suit, 'bold')}]{name}[/]"


_RANK_TEXT = frozenset("23456789TJQKA")


def styled_cards(names: list[str] | tuple[str, ...]) -> str:
    return " ".join(styled_card(n) for n in names) if names else "-"


def fmt_points(values: list[Points] | tuple[Points, ...]) -> list[str]:
    return [str(v) for v in values]


def count(number: int, noun: str) -> str:
    """``1 deal``, ``3 deals``, ``2 matches``: a number and its noun."""
    if number == 1:
        return f"1 {noun}"
    return f"{number} {noun}{'es' if noun.endswith(('ch', 'sh', 's', 'x')) else 's'}"
