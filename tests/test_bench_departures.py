"""``bench/departures.py``: the heuristic never departs from itself, a bot that plays at
random departs, and every departure's gain is measured against the same decision's best."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from bench_support import load_bench
from callbreak.bots import make_bot
from callbreak.engine import Match
from callbreak.record import match_record
from callbreak.rules import Rules


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_bench("departures")


def donut_match(seat0: str, seed: int) -> dict[str, Any]:
    """A whole Donut match with ``seat0`` in seat 0 and heuristics beside it, its seat 0
    labelled as the expert whatever played it (the script reads the labels)."""
    match = Match(Rules.preset("donut"), seed=seed)
    bots = [make_bot(seat0 if seat == 0 else "heuristic", seed=seat) for seat in range(4)]
    while not match.over:
        seat = match.to_act
        assert seat is not None
        match.act(bots[seat].act(match.observation(seat)))
    seats = [{"name": "S0", "player": "bot:expert:budget_ms=100"}] + [
        {"name": f"S{s}", "player": "bot:heuristic"} for s in range(1, 4)
    ]
    return match_record(match, seats=seats)


def test_seats_are_found_by_the_bots_name_alone(bench: ModuleType) -> None:
    record = {
        "seats": [
            {"player": "bot:expert:budget_ms=100"},
            {"player": "bot:expert-v1"},
            {"player": "bot:expert"},
            {"player": "human"},
        ]
    }
    assert bench.seats_of(record, "expert") == [0, 2]
    assert bench.seats_of(record, "expert-v1") == [1]


def test_the_heuristic_never_departs_from_itself(bench: ModuleType, tmp_path: Any) -> None:
    import json

    path = tmp_path / "records.jsonl"
    path.write_text(json.dumps(donut_match("heuristic", seed=4)) + "\n")
    kinds = bench.tally([path], "expert")
    assert set(kinds) >= {"drop", "play"}, kinds
    for tally in kinds.values():
        assert tally.decisions > 0 and tally.gains == []
        assert all(ceiling >= 0 for ceiling in tally.ceilings)
    assert any(c > 0 for t in kinds.values() for c in t.ceilings)  # the cards shown help


def test_random_play_departs_and_no_departure_beats_the_best(bench: ModuleType) -> None:
    record = donut_match("random", seed=5)
    from callbreak.analysis import played_deals
    from callbreak.record import replay

    items = [
        item for _, deal in played_deals(replay(record).match) for item in bench.departures(deal, 0)
    ]
    departed = [item for item in items if item.departed]
    assert len(departed) > len(items) // 4, (len(departed), len(items))
    assert all(item.gain <= item.ceiling and item.ceiling >= 0 for item in items)
    assert all(item.gain == 0 for item in items if not item.departed)
    assert sum(item.gain for item in departed) < 0  # a random card loses to the heuristic's
