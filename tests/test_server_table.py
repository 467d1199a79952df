"""A live table's match, apart from the server around it."""

from __future__ import annotations

import time

import pytest

from callbreak.engine import IllegalAction
from callbreak.rules import Rules
from callbreak.server.store import SeatRow, TableRow
from callbreak.server.table import LiveTable


def _table(preset: str = "callbreak") -> LiveTable:
    rules = Rules.preset(preset)
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


def test_a_card_number_the_rook_deck_skips_is_refused_not_a_crash() -> None:
    # The Rook deck numbers its cards with gaps (9 is no card); a client sending such a number
    # must get the engine's refusal, and one sending a real card's number its name in the log.
    table = _table("rook-call-partner")
    deal = table.match.deal
    while deal.phase != "play":
        seat = table.match.to_act
        assert seat is not None
        table.apply(seat, deal.legal()[-1 if deal.phase == "auction" else 0], "human")
    seat = table.match.to_act
    assert seat is not None
    numbers = set(deal.deck.names)
    gap = next(n for n in range(max(numbers)) if n not in numbers)
    with pytest.raises(IllegalAction):
        table.apply(seat, gap, "human")
    card = deal.legal()[0]
    number = next(n for n, name in deal.deck.names.items() if name == card)
    assert table.apply(seat, number, "human") == card


def test_a_tie_break_deal_names_the_seats_whose_points_counted() -> None:
    """The result card explains a winner whose total is below another's: only the tied seats
    played the tie-break for the win (docs/rules/callbreak.md rule 8)."""
    import random

    from callbreak import Match
    from callbreak.server.table import scoreboard

    rules = Rules.preset("callbridge").replace(match_end="deals:1")
    match, rng = Match(rules, seed=2), random.Random(2)
    while not match.over:
        legal = match.legal()
        high = legal[len(legal) // 2 :] if match.deal.phase == "call" else legal
        match.act(rng.choice(high))
    rows = [row for row in scoreboard(match) if not row["void"]]
    assert rows[0]["counting_seats"] == [0, 1, 2, 3] and not rows[0]["tie_break"]
    last = rows[-1]
    assert last["tie_break"] and len(last["counting_seats"]) >= 2
    assert set(match.winners) <= set(last["counting_seats"])
