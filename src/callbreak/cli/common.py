"""Pieces every command shares: rules from flags, seat names, card colours, tables that fit."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

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
                why = f"--option {item!r}: write name=value, e.g. --option max_call=8"
                if item.lower().endswith((".json", ".jsonl")):  # -o is --out in import-bhoos
                    why += " (-o is --option in this command, not a file to write: see --help)"
                raise ValueError(why)
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


def short_names(names: Sequence[str], width: int) -> list[str]:
    """``names`` each cut to ``width`` characters from the middle ("…" in place of what is cut),
    at the one place that keeps names that differ apart.

    Cut at the end, as rich cuts a cell, two remote seats differ only in what is lost:
    ``http://127.0.0.1:8001`` and ``http://127.0.0.1:8002`` both read ``http://127.0.0.1:…``.
    A cut in the middle keeps both ends, where names usually differ (a bot's name, its
    options, a port); where that cut still joins two names, the cut moves towards the start,
    then the end, until none are joined.  Names that differ only in their middle lose the
    start they share instead.  A name that fits is left whole.

    >>> short_names(["http://127.0.0.1:8001", "http://127.0.0.1:8002", "random"], 12)
    ['http:…1:8001', 'http:…1:8002', 'random']
    >>> short_names(["expert:budget_ms=50,seed=1", "expert:budget_ms=90,seed=1"], 12)
    ['ex…50,seed=1', 'ex…90,seed=1']
    >>> short_names(["http://10.0.0.1:8000/bot", "http://10.0.0.2:8000/bot"], 8)
    ['…1:8000/', '…2:8000/']
    """
    width = max(width, 2)
    balanced = (width - 1) // 2
    heads = sorted(range(width), key=lambda head: (abs(head - balanced), head > balanced))
    for head in heads:
        cut = [_cut(name, width, head) for name in names]
        if len(set(cut)) == len(set(names)):
            return cut
    cut_down = [name for name in names if len(name) > width]
    columns = enumerate(zip(*cut_down, strict=False))  # to the shortest; none differ: no start lost
    shared = next((at for at, chars in columns if len(set(chars)) > 1), 0)
    return [name if len(name) <= width else "…" + name[shared:][: width - 1] for name in names]


def _cut(name: str, width: int, head: int) -> str:
    """``name`` in ``width`` characters: its first ``head``, "…", and as much of its end."""
    if len(name) <= width:
        return name
    return name[:head] + "…" + name[len(name) - (width - 1 - head) :]


NAME_WIDTH = 6
"""The fewest characters ``fit_table`` cuts a bot's name to; past that rich cuts the rest."""


def fit_table(
    console: Console,
    build: Callable[[int, Sequence[str]], Table],
    layouts: int,
    names: Sequence[str],
) -> Table:
    """The first layout of a table, widest first, that fits the console without squeezing a
    column (rich would cut a value with "…"), else the narrowest with its bots' ``names``
    (rows or columns: ``build(layout, names)`` shows them) cut just enough to fit, by
    ``short_names``: rich would cut them all at their end, where two remote seats differ.
    A table that fits as it always was prints as it always did."""
    natural = console.options.update_width(10_000)

    def width(table: Table) -> int:
        return Measurement.get(console, natural, table).maximum

    for layout in range(layouts):
        table = build(layout, names)
        if width(table) <= console.width:
            return table
    narrowest = (width(table), table)
    for size in range(max(map(len, names), default=0) - 1, NAME_WIDTH - 1, -1):
        table = build(layouts - 1, short_names(names, size))
        measured = width(table)
        if measured <= console.width:
            return table
        if measured < narrowest[0]:  # the longest names at the narrowest the table gets
            narrowest = (measured, table)
    return narrowest[1]


def add_name_columns(
    table: Table, names: str, figures: Sequence[str], whole_headings: bool = False
) -> None:
    """A column of bot names, then one per figure, right-justified (``whole_headings``: each
    at least as wide as its heading, so that the names give way first).  ``fit_table`` has
    cut the names already; past its cut rich folds a name onto a second line, never cuts it
    where two names differ."""
    table.add_column(names, overflow="fold")
    for heading in figures:
        table.add_column(
            heading, justify="right", min_width=len(heading) if whole_headings else None
        )
