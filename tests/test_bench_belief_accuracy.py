"""``bench/belief_accuracy.py``: it scores the sampler's worlds against the deal as it lay,
so the true deal must score perfectly, and reading the play must know more about the cards of
seats that play exactly as the sampler's model of them (the heuristic) than the hard facts."""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from bench_support import load_bench
from callbreak.bots import make_bot
from callbreak.engine import Match
from callbreak.record import match_record
from callbreak.rules import Rules


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_bench("belief_accuracy")


def heuristic_game(seed: int) -> dict[str, Any]:
    """A one-deal Call Break match of four heuristics, as an arena report keeps it."""
    match = Match(Rules.preset("callbreak").replace(match_deals=1), seed=seed)
    bots = [make_bot("heuristic", seed=seat) for seat in range(4)]
    while not match.over:
        seat = match.to_act
        assert seat is not None
        match.act(bots[seat].act(match.observation(seat)))
    seats = [{"name": f"#{s} heuristic", "player": "bot:heuristic"} for s in range(4)]
    return match_record(match, seats=seats)


def holders(record: dict[str, Any]) -> dict[int, int]:
    from callbreak.cards import parse_card

    hands = record["deals"][-1]["hands"]
    return {parse_card(card): seat for seat, hand in enumerate(hands) for card in hand}


def test_the_true_deal_scores_zero_and_every_decision_is_visited(bench: ModuleType) -> None:
    record = heuristic_game(3)
    seen = list(bench.decisions(record, None))
    assert [o.phase for o in seen] == ["call"] + ["play"] * 13
    truth = holders(record)
    for observation in seen[:3]:
        hands = np.array([[0, 0, 0, 0]], np.int64)
        for card, seat in truth.items():
            if not observation.played_mask >> card & 1:
                hands[0, seat] |= 1 << card
        assert bench.score(observation, hands, np.ones(1), truth) == 0.0


def test_reading_the_play_of_heuristics_knows_more_than_the_hard_facts(
    bench: ModuleType,
) -> None:
    rng = random.Random(5)
    plain: list[float] = []
    read: list[float] = []
    for seed in (1, 2):
        record = heuristic_game(seed)
        truth = holders(record)
        for observation in list(bench.decisions(record, None))[4:12]:
            for setting, out in (
                ("hard facts alone", plain),
                ("calls and play (the expert's cards)", read),
            ):
                hands, weights = bench.worlds(observation, bench.SETTINGS[setting], 32, rng)
                assert np.isclose(weights.sum(), 1.0)
                out.append(bench.score(observation, hands, weights, truth))
    assert np.mean(read) > np.mean(plain) + 0.05
    assert all(-np.log(64) <= value <= 0 for value in plain + read)
