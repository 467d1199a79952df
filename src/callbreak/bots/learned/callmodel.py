"""A learned forecast of a Call Break hand's tricks: a small network over the hand.

The expert chooses its call from the tricks its hand wins in a few dozen playouts of
sampled worlds; so few give a ragged histogram, and a hand's worth is the same question
asked deal after deal.  ``CallModel`` answers it from many thousand deals at once: a
one-hidden-layer network maps the hand, the seat's place after the first leader and the
calls made before its own to a probability for each count of tricks, 0 to 13 (the calls
are what the table has said of the other hands: a rival's call of six leaves fewer
tricks to take).  It learns in two stages (``bench/train_call_model.py``): first from
300,000 deals the compiled heuristic played at all four seats, then from 9,474 deals the
expert played at all four (``bench/expert_deals.py``), so that it forecasts the tricks the
expert itself takes against players as strong as itself, which the playouts of the
heuristic cannot tell.  Inference is plain numpy (a few microseconds), so it fits any
decision budget and needs no numba.

It was trained under Call Break's own deal (13 cards, spades trump, four seats):
``serves`` says whether a game's rules are that deal, and the expert asks the model
nowhere else.  The weights ship beside this module, one file per version
(``callmodel-2026-11-29.npz``, see ``callbreak.bots.learned``); ``load`` reads each once
per process.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from callbreak.bots.learned import CALL_WEIGHTS, call_weight_versions, call_weights_path
from callbreak.cards import RANK_COUNT, SPADES
from callbreak.engine import Observation
from callbreak.rules import Rules

Array = npt.NDArray[Any]

HAND_SIZE = 13
"""Cards a hand holds in the deal the model learned."""
TRICKS = HAND_SIZE + 1
"""Outputs: one probability per count of tricks, 0 to 13."""
LONGEST = 8
"""Suit lengths of 8 and more share one feature (too rare to tell apart)."""
HIGHEST_CALL = 8
"""Calls of 8 and more share one feature, as the suit lengths do."""
EARLIER = 3
"""Seats that may have called before a seat: those at places 0 to 2 after the leader."""
FEATURES = 52 + 4 * (LONGEST + 1) + 4 + EARLIER * (HIGHEST_CALL + 1)
"""The card bits, each suit's length one-hot, the place after the leader one-hot, and the
call of each seat at places 0 to 2 one-hot (all zero where it has not called yet)."""
NOT_CALLED = -1
"""In ``features``' ``earlier``: the seat at that place has not called (yet)."""


def features(hands: Array, places: Array, earlier: Array | None = None) -> Array:
    """Inputs of the network for hands (52-bit masks, bit ``suit * 13 + rank``) held by
    seats ``places`` after the first trick's leader (0: the leader), one row per hand;
    ``earlier[i, q]`` is the call of the seat at place ``q`` (0 to 2), made before hand
    ``i``'s own, or ``NOT_CALLED`` (the default: no calls known).  A seat calls in its
    place's turn, so only places before its own can hold a call."""
    hands = np.asarray(hands, np.int64).reshape(-1)
    places = np.asarray(places, np.int64).reshape(-1)
    if hands.shape != places.shape:
        raise ValueError("one place per hand")
    if places.size and (places.min() < 0 or places.max() > 3):
        raise ValueError("a place after the leader is 0 to 3")
    n = hands.size
    if earlier is None:
        earlier = np.full((n, EARLIER), NOT_CALLED, np.int64)
    earlier = np.asarray(earlier, np.int64).reshape(n, EARLIER)
    called = earlier != NOT_CALLED
    if (called & (np.arange(EARLIER)[None, :] >= places[:, None])).any():
        raise ValueError("only the seats at places before a seat's own have called before it")
    if (earlier[called] < 0).any():
        raise ValueError(f"a call is 0 or more ({NOT_CALLED}: not called)")
    bits = ((hands[:, None] >> np.arange(52)) & 1).astype(np.float32)
    lengths = np.minimum(bits.reshape(n, 4, RANK_COUNT).sum(axis=2).astype(np.int64), LONGEST)
    out = np.zeros((n, FEATURES), np.float32)
    out[:, :52] = bits
    suit_rows = np.arange(4) * (LONGEST + 1)
    out[np.arange(n)[:, None], 52 + suit_rows[None, :] + lengths] = 1.0
    out[np.arange(n), 52 + 4 * (LONGEST + 1) + places] = 1.0
    first = 52 + 4 * (LONGEST + 1) + 4
    rows, seats = np.nonzero(called)
    bins = np.minimum(earlier[rows, seats], HIGHEST_CALL)
    out[rows, first + seats * (HIGHEST_CALL + 1) + bins] = 1.0
    return out


def earlier_calls(observation: Observation) -> Array:
    """The calls made before the observing seat's own, by place after the first leader
    (``features``' ``earlier`` for one hand)."""
    players = observation.rules.players
    leader = observation.trick.leader
    out = np.full(EARLIER, NOT_CALLED, np.int64)
    for seat, call in enumerate(observation.calls):
        place = (seat - leader) % players
        if call is not None and seat != observation.seat and place < EARLIER:
            out[place] = call
    return out


class CallModel:
    """The network: ``hidden = relu(x @ w1 + b1)``, ``p = softmax(hidden @ w2 + b2)``."""

    def __init__(self, w1: Array, b1: Array, w2: Array, b2: Array) -> None:
        if w1.shape[0] != FEATURES or w2.shape[1] != TRICKS:
            raise ValueError(
                f"a call model maps {FEATURES} features to {TRICKS} counts, "
                f"not {w1.shape[0]} to {w2.shape[1]}"
            )
        if b1.shape != (w1.shape[1],) or w2.shape[0] != w1.shape[1] or b2.shape != (TRICKS,):
            raise ValueError("the call model's layers do not fit together")
        self.w1, self.b1, self.w2, self.b2 = (np.asarray(a, np.float32) for a in (w1, b1, w2, b2))

    @classmethod
    def read(cls, path: Path) -> CallModel:
        with np.load(path) as data:
            return cls(data["w1"], data["b1"], data["w2"], data["b2"])

    def save(self, path: Path) -> None:
        np.savez_compressed(path, w1=self.w1, b1=self.b1, w2=self.w2, b2=self.b2)

    def logits(self, x: Array) -> Array:
        hidden = np.maximum(x @ self.w1 + self.b1, 0.0)
        return np.asarray(hidden @ self.w2 + self.b2)

    def predict(self, hands: Array, places: Array, earlier: Array | None = None) -> Array:
        """``p[i, t]``: the probability that hand ``i`` wins ``t`` tricks (``features``
        reads the arguments)."""
        z = self.logits(features(hands, places, earlier)).astype(np.float64)
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        return np.asarray(p / p.sum(axis=1, keepdims=True))


def serves(rules: Rules) -> bool:
    """Whether ``rules`` deal what the model learned: 13 cards to four seats, spades trump,
    a call that is made at its count or more."""
    return (
        rules.hand_size == HAND_SIZE
        and rules.players == 4
        and rules.trump_suit == SPADES
        and rules.success_window == "at_least"
    )


@cache
def load(version: str = CALL_WEIGHTS) -> CallModel:
    """The shipped model of ``version`` (the newest unless named), read once per process."""
    path = call_weights_path(version)
    if not path.exists():
        shipped = ", ".join(call_weight_versions())
        raise ValueError(f"no call model weights {version!r}: these ship: {shipped}")
    return CallModel.read(path)


def blended(
    observation: Observation, hist: Array, weight: float, version: str = CALL_WEIGHTS
) -> Array:
    """The playouts' ``hist[k, t]`` (calling the k-th candidate, ``t`` tricks won) with
    ``weight`` of each row moved onto the model's forecast for the seat's hand; unchanged
    where the game is not the deal the model learned.  The forecast does not depend on
    the call: the playouts keep what the call changes in the seat's own play.  ``version``
    names the weights (``load``)."""
    if weight <= 0 or not serves(observation.rules):
        return hist
    place = (observation.seat - observation.trick.leader) % observation.rules.players
    hand, at = np.array([observation.hand_mask]), np.array([place])
    forecast = load(version).predict(hand, at, earlier_calls(observation)[None, :])[0]
    return np.asarray((1 - weight) * hist + weight * forecast[None, :])
