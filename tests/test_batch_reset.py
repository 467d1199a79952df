"""``BatchCallBreak.reset(hands=..., dealers=...)`` checks what it is given: the compiled code
trusts its arrays, and would play a seat 9 or a card dealt twice as it found them."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from callbreak import Deal, Rules
from callbreak.env import BatchCallBreak


def given_hands(n: int) -> Any:
    """``n`` tables of real deals, as hand masks."""
    rules = Rules.preset("callbreak")
    return np.array([Deal(rules, seed=s, dealer=0).dealt for s in range(n)], np.int64)


@pytest.fixture(scope="module")
def batch() -> BatchCallBreak:
    return BatchCallBreak(2, seed=0, compiled=False)


@pytest.mark.parametrize(
    ("dealers", "message"),
    [
        ([7, 9], r"dealers: table 0: 7 is not a seat \(0 to 3\)"),
        ([0, -1], r"dealers: table 1: -1 is not a seat"),
        ([0, 1, 2], r"dealers: give one dealer per table, shape \(2,\), not \(3,\)"),
        ([0.0, 1.5], "dealers: seats are whole numbers, not float64"),
    ],
)
def test_dealers_that_are_not_seats_are_refused(
    batch: BatchCallBreak, dealers: list[Any], message: str
) -> None:
    before = batch.dealers.copy()
    with pytest.raises(ValueError, match=message):
        batch.reset(dealers=np.array(dealers))
    assert np.array_equal(batch.dealers, before)


def test_hands_that_are_not_a_deal_are_refused(batch: BatchCallBreak) -> None:
    hands = given_hands(2)
    with pytest.raises(ValueError, match=r"shape \(2, 4\), not \(3, 4\)"):
        batch.reset(hands=given_hands(3))
    with pytest.raises(ValueError, match="table 0, seat 0 holds 1 cards; each needs 13"):
        batch.reset(hands=np.ones((2, 4), np.int64))
    twice = hands.copy()
    twice[1, 2] = twice[1, 1]
    with pytest.raises(ValueError, match=r"table 1, seat 2: .* already dealt to another seat"):
        batch.reset(hands=twice)
    negative = hands.copy()
    negative[0, 3] = -1
    with pytest.raises(ValueError, match="table 0, seat 3: -1 is not a mask of the 52 cards"):
        batch.reset(hands=negative)
    with pytest.raises(ValueError, match="hands are card masks"):
        batch.reset(hands=hands.astype(np.float64))


def test_a_real_deal_is_taken(batch: BatchCallBreak) -> None:
    hands = given_hands(2)
    batch.reset(hands=hands, dealers=np.array([3, 1]))
    assert np.array_equal(batch.hands, hands) and batch.dealers.tolist() == [3, 1]
    assert batch.to_act.tolist() == [0, 2]


def test_a_numpy_integer_seed_deals_as_the_same_int() -> None:
    """np.int64(3) overflowed the stream's seed hash (OverflowError)."""
    one = BatchCallBreak(2, seed=np.int64(3), compiled=False)
    other = BatchCallBreak(2, seed=3, compiled=False)
    one.reset()
    other.reset()
    assert (one.hands == other.hands).all()
