"""The AEC env's ``reset`` options are checked with clear errors, and ``action_of`` takes the
indices ``step`` takes (numpy integers included: this file is type-checked with the rest)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from callbreak.env import env


@pytest.mark.parametrize("reward", ["deal", "match"])
@pytest.mark.parametrize("dealer", ["1", 4, -1, True, 1.0])
def test_a_dealer_that_is_not_a_seat_is_a_value_error(reward: str, dealer: Any) -> None:
    e = env("callbreak", reward=reward, fast=False)
    with pytest.raises(ValueError, match=rf"dealer={dealer!r}: the dealer is a seat from 0 to 3"):
        e.reset(seed=1, options={"dealer": dealer})


@pytest.mark.parametrize("reward", ["deal", "match"])
def test_a_dealer_given_as_a_numpy_integer_deals(reward: str) -> None:
    e = env("callbreak", reward=reward, fast=False)
    e.reset(seed=1, options={"dealer": np.int64(2)})
    assert e.deal is not None and e.deal.dealer == 2


@pytest.mark.parametrize("deal", [99, 1, "0", True, None])
def test_another_deal_of_a_game_whose_deals_are_alike_is_refused(deal: Any) -> None:
    """Silently ignored, ``deal=99`` would look honoured; OpenSpiel and the match refuse it."""
    e = env("callbreak", fast=False)
    with pytest.raises(ValueError, match=rf"deal={deal!r}: Call Break's deals are all alike"):
        e.reset(seed=1, options={"deal": deal})
    hands = [[f"{r}{s}" for r in "23456789TJQKA"] for s in "SHDC"]
    with pytest.raises(ValueError, match="deals are all alike"):
        e.reset(seed=1, options={"deal": deal, "hands": hands})


def test_deal_zero_is_the_one_deal_there_is() -> None:
    e = env("callbreak", fast=False)
    e.reset(seed=1, options={"deal": 0})
    plain = env("callbreak", fast=False)
    plain.reset(seed=1)
    assert e.deal is not None and plain.deal is not None
    assert e.deal.dealt == plain.deal.dealt


def test_action_of_takes_the_indices_numpy_gives() -> None:
    """``np.flatnonzero`` gives numpy integers (rl.md's example); mypy --strict checks this
    call, which once expected a plain int."""
    e = env("spades", fast=False)
    e.reset(seed=3)
    mask = e.observe(e.agent_selection)["action_mask"]
    actions = [e.action_of(i) for i in np.flatnonzero(mask)]
    assert actions == [e.action_of(int(i)) for i in np.flatnonzero(mask)]
    assert e.action_of(float(np.flatnonzero(mask)[0])) == actions[0]
    with pytest.raises(ValueError, match="not in the action space"):
        e.action_of(2.5)


def test_a_deal_number_may_be_a_numpy_integer() -> None:
    """np.int64(0) was refused: "only deal 0 is one to ask for"."""
    env("callbreak").reset(seed=1, options={"deal": np.int64(0)})
    env("oh-hell").reset(seed=1, options={"deal": np.int64(5)})
