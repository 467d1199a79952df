"""A live table's match, apart from the server around it."""

from __future__ import annotations

import time

from callbreak.rules import Rules
from callbreak.server.store import SeatRow, TableRow
from callbreak.server.table import LiveTable


def _table() -> LiveTable:
    rules = Rules.preset("callbreak")
    seats = [SeatRow(s, f"p{s}", "human", None) for s in range(4)]
    row = TableRow(
        "ABCDEF", "playing", rules.to_dict(), 7, "medium", 0, 30.0, time.time(), None, None, seats
    )
    return LiveTable.from_row(row, "heuristic")


def test_people_who_keep_calling_too_few_never_lock_their_table() -> None:
    # Match's guard against an endless redeal is for loops that play by themselves; at a
    # table every deal waits on its seats, and its log must always rebuild.
    table = _table()
    calls = 0
    while calls < 101 * 4:  # four calls of 1 are under min_total_calls: thrown in
        seat = table.match.to_act
        assert seat is not None
        if table.match.deal.phase == "misdeal":
            table.apply(seat, False, "human")  # play on
        else:
            table.apply(seat, 1, "human")
            calls += 1
    assert table.match.deal.phase in ("call", "misdeal")
    assert not table.match.over
