"""The research APIs walked as docs/rl.md describes them: what a researcher's first scripts
ran into (seeds, seat counts and seats given as numpy integers, stepping before the start
or after the end), each with the clear error or the behaviour the docs promise."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from callbreak.env import BatchCallBreak, SingleSeat, env


def _hands(preset: str, seed: Any) -> list[list[str]]:
    e = env(preset, fast=False)
    e.reset(seed=seed)
    assert e.deal is not None
    return [e.deal.hand(seat) for seat in range(e.rules.players)]


def test_a_negative_seed_is_refused_rather_than_dealing_its_positive_twin() -> None:
    """``random.Random`` seeds from the absolute value: seed -1 dealt seed 1's deal."""
    with pytest.raises(ValueError, match=r"seed=-1: a seed is a whole number, 0 or more"):
        env("callbreak").reset(seed=-1)


@pytest.mark.parametrize("seed", [2.5, "7", True, [1]])
def test_a_seed_that_is_not_a_whole_number_is_a_value_error(seed: Any) -> None:
    with pytest.raises(ValueError, match="a seed is a whole number"):
        env("callbreak").reset(seed=seed)


def test_a_numpy_seed_deals_as_the_int_does() -> None:
    """np.int64(7) was a TypeError from ``random.Random``."""
    assert _hands("callbreak", np.int64(7)) == _hands("callbreak", 7)
    assert _hands("callbreak", 7) != _hands("callbreak", 8)


def test_a_numpy_seat_count_is_taken() -> None:
    """players=np.int64(5) was refused: "players=np.int64(5) is not allowed: Snarples is
    played by 3 to 8"."""
    assert env("snarples", players=np.int64(5)).possible_agents[-1] == "player_4"
    assert SingleSeat("snarples", players=np.int64(5), opponents="random").aec.rules.players == 5
    with pytest.raises(ValueError, match="the seat count is a whole number"):
        env("snarples", players=5.5)
    with pytest.raises(ValueError, match="the seat count is a whole number"):
        env("snarples", players=True)


def test_a_step_after_the_episode_is_a_clear_error() -> None:
    """Once every agent has stepped out, ``step`` was a KeyError: 'player_0'."""
    e = env("callbreak")
    e.reset(seed=1)
    rng = random.Random(1)
    for _agent in e.agent_iter():
        obs, _, done, truncated, _ = e.last()
        e.step(None if done or truncated else rng.choice(list(np.flatnonzero(obs["action_mask"]))))
    assert not e.agents
    with pytest.raises(RuntimeError, match="the episode is over"):
        e.step(0)
    with pytest.raises(RuntimeError, match="the episode is over"):
        e.step(None)


def test_single_seat_takes_a_numpy_seed_and_seat() -> None:
    """Gymnasium's own seeding refused np.int64 ("Seed must be a python integer")."""
    g = SingleSeat("callbreak", opponents="random", seat=np.int64(2))
    assert g.seat == 2 and g.agent == "player_2"
    first, _ = g.reset(seed=np.int64(5))
    again, _ = g.reset(seed=5)
    assert np.array_equal(first["observation"], again["observation"])


@pytest.mark.parametrize("seat", [True, 1.0, "1", -1, 4])
def test_single_seat_refuses_a_seat_that_is_not_one(seat: Any) -> None:
    """seat=True sat at seat 1, and seat=1.0 was a TypeError deep in a list index."""
    with pytest.raises(ValueError, match="seat must be from 0 to 3"):
        SingleSeat("callbreak", opponents="random", seat=seat)


@pytest.mark.parametrize("seed", [-1, True, 2.5])
def test_single_seat_refuses_a_bad_seed_with_a_value_error(seed: Any) -> None:
    g = SingleSeat("callbreak", opponents="random")
    with pytest.raises(ValueError, match="a seed is a whole number, 0 or more"):
        g.reset(seed=seed)


def test_single_seat_step_before_reset_is_a_clear_error() -> None:
    """It was an AttributeError: 'CallBreakEnv' object has no attribute 'terminations'."""
    with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
        SingleSeat("callbreak", opponents="random").step(0)


def test_the_batch_env_refuses_to_step_before_reset() -> None:
    """Before ``reset`` the tables hold no cards: ``step`` played call 1 on an empty deal and
    ``random_actions`` drew actions from an empty mask, both without a word."""
    batch = BatchCallBreak(2, seed=1, compiled=False)
    with pytest.raises(RuntimeError, match=r"not dealt yet: call reset\(\) first"):
        batch.step(np.zeros(2, np.int64))
    with pytest.raises(RuntimeError, match=r"not dealt yet: call reset\(\) first"):
        batch.random_actions(np.random.default_rng(0))
    batch.reset()
    batch.step(batch.random_actions(np.random.default_rng(0)))


@pytest.mark.parametrize("seed", [2.5, "1", True])
def test_the_batch_env_refuses_a_seed_that_is_not_a_whole_number(seed: Any) -> None:
    """2.5 and "1" were TypeErrors from ``operator.index``; True played as seed 1."""
    with pytest.raises(ValueError, match="a seed is a whole number"):
        BatchCallBreak(2, seed=seed, compiled=False)


def test_the_engine_takes_numpy_integers_as_seeds_and_calls() -> None:
    """A learner's numbers are numpy's: a seed of ``np.int64(7)`` deals what 7 deals (and is
    kept as a plain int, which a record can hold), and a call of ``np.int64(3)`` is 3."""
    import json

    from callbreak import Deal, Match, Rules
    from callbreak.record import match_record

    rules = Rules.preset("callbreak")
    seven: Any = np.int64(7)  # typed as int, given as numpy's
    deal = Deal(rules, seed=seven)
    assert type(deal.seed) is int and deal.hands == Deal(rules, seed=7).hands
    three: Any = np.int64(3)
    deal.act(three)
    assert deal.calls[deal.dealer + 1] == 3 and type(deal.calls[deal.dealer + 1]) is int
    nine: Any = np.uint64(9)
    match = Match(rules, seed=nine)
    assert type(match.seed) is int and match.deal.hands == Match(rules, seed=9).deal.hands
    json.dumps(match_record(match))  # every number in it is a plain int
    with pytest.raises(ValueError, match="whole number"):
        Deal(rules, seed=np.float64(7))  # type: ignore[arg-type]
