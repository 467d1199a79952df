"""Whole random deals in one compiled loop, from the same rule source as ``Deal``.

The kernel is written in the subset of Python that numba compiles.  With numba
installed (a default dependency) ``compiled()`` jit-compiles this
module's functions *and* the ``tricks`` helpers (``legal_mask``, ``beats``, ``nth_card``), so
the compiled path cannot drift from the rules; without numba, ``interpreted()``
runs the very same functions as plain Python (slowly, but identically).

Randomness comes in as an array of draws in [0, 1) so that both modes, given
the same draws, play the same cards: that is what the tests compare.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from callbreak.cards import DECK_SIZE, RANK_COUNT
from callbreak.engine import tricks
from callbreak.rules import Rules

PLAYERS = 4
HAND_SIZE = DECK_SIZE // PLAYERS


@dataclass(frozen=True)
class Kernel:
    """The kernel's entry points, compiled or not."""

    playout: Callable[..., Any]
    """``playout(rules, hands, leader, draws, tricks_out)``: plays the hands (int64[4]) to the
    end from an empty trick, one draw per card, and writes tricks won by seat to tricks_out."""
    random_deals: Callable[..., Any]
    """``random_deals(rules, count, seed, min_call, max_call, scores, totals_out)``: deals, calls
    and plays ``count`` random deals and adds each seat's points (tenths, looked up in
    ``scores[call, won]``, see ``score_table``) to totals_out; returns cards played."""
    compiled: bool


def _build(jit: Callable[[Any], Any], np: Any) -> Kernel:
    legal_mask = jit(tricks.legal_mask)
    beats = jit(tricks.beats)

    nth_card = jit(tricks.nth_card)
    popcount = jit(tricks.popcount)

    def playout(rules: Any, hands: Any, leader: int, draws: Any, tricks_out: Any) -> int:
        trump = rules.trump
        trump_played = False
        for seat in range(PLAYERS):
            tricks_out[seat] = 0
        used = 0
        for trick_no in range(HAND_SIZE):
            led = -1
            win = -1
            win_seat = -1
            seat = leader
            for _ in range(PLAYERS):
                mask = legal_mask(rules, hands[seat], led, win, trick_no == 0, trump_played)
                card = nth_card(mask, int(draws[used] * popcount(mask)))
                used += 1
                hands[seat] ^= 1 << card
                if card // RANK_COUNT == trump:
                    trump_played = True
                if win < 0:
                    led = card // RANK_COUNT
                    win = card
                    win_seat = seat
                elif beats(card, win, trump):
                    win = card
                    win_seat = seat
                seat = seat + 1 if seat + 1 < PLAYERS else 0
            tricks_out[win_seat] += 1
            leader = win_seat
        return used

    playout = jit(playout)

    def random_deals(
        rules: Any,
        count: int,
        seed: int,
        min_call: int,
        max_call: int,
        scores: Any,
        totals_out: Any,
    ) -> int:
        np.random.seed(seed)
        deck = np.arange(DECK_SIZE)
        hands = np.zeros(PLAYERS, np.int64)
        won = np.zeros(PLAYERS, np.int64)
        calls = np.zeros(PLAYERS, np.int64)
        played = 0
        for done in range(count):
            np.random.shuffle(deck)
            dealer = done % PLAYERS
            for seat in range(PLAYERS):
                hands[seat] = 0
            for i in range(DECK_SIZE):
                hands[(dealer + 1 + i) % PLAYERS] |= np.int64(1) << deck[i]
            for seat in range(PLAYERS):
                calls[seat] = np.random.randint(min_call, max_call + 1)
            draws = np.random.random(DECK_SIZE)
            played += playout(rules, hands, (dealer + 1) % PLAYERS, draws, won)
            for seat in range(PLAYERS):
                totals_out[seat] += scores[calls[seat], won[seat]]
        return played

    return Kernel(playout, jit(random_deals), compiled=jit is not _identity)


def score_table(rules: Rules) -> Any:
    """``table[call, won]`` = points in tenths under ``rules``, for the kernel to look up."""
    import numpy

    table = numpy.zeros((HAND_SIZE + 1, HAND_SIZE + 1), numpy.int64)
    for call in range(rules.min_call, rules.max_call + 1):
        for won in range(HAND_SIZE + 1):
            table[call, won] = rules.score(call, won).tenths
    return table


@functools.lru_cache(maxsize=16)
def points_table(rules: Rules) -> Any:
    """``score_table`` in points (floats), built once per rules: the searches score every
    playout with it.  Shared between callers: read it, never write to it."""
    return score_table(rules) / 10


def _identity(function: Any) -> Any:
    return function


_COMPILED: Kernel | None = None


def interpreted() -> Kernel:
    """The kernel as plain Python (needs numpy for its arrays)."""
    import numpy

    return _build(_identity, numpy)


def compiled() -> Kernel:
    """The kernel compiled by numba (compiled once per process); ImportError without numba."""
    global _COMPILED
    if _COMPILED is None:
        import numba
        import numpy

        _COMPILED = _build(numba.njit(cache=False), numpy)
    return _COMPILED
