"""``bench/expert_deals.py``: the second stage of the call model learns from its rows, so each
row must be a real seat of a real deal (its hand, place, call and tricks), reproducible from
the seed as the shipped weights' retrain says."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

from bench_support import load_bench
from callbreak.cards import RANK_COUNT

FAST = "expert:deterministic=1,worlds=4,call_worlds=8"


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_bench("expert_deals")


def test_each_deal_gives_four_seats_that_make_up_the_deck_and_its_tricks(
    bench: ModuleType,
) -> None:
    rows = bench.stream(FAST, 11, 3)
    assert rows.shape[1] == 4 and len(rows) % 4 == 0 and len(rows) >= 8
    for deal in rows.reshape(-1, 4, 4):
        hands, places, calls, won = deal.T
        assert int(np.bitwise_or.reduce(hands)) == (1 << 4 * RANK_COUNT) - 1
        assert all(bin(int(h)).count("1") == 13 for h in hands)
        assert sorted(places.tolist()) == [0, 1, 2, 3]
        assert won.sum() == 13 and all(1 <= c <= 13 for c in calls)
    assert (bench.stream(FAST, 11, 3) == rows).all()  # the seed decides every row
