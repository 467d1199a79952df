"""Compiled belief: thousands of sampled deals a millisecond, weighed by the others' play.

The expert plays far better the better it knows where the unseen cards are
(with every hand shown it beats the heuristic by three times its usual
margin), and the public record says much more than the hard facts the
sampler's masks hold: a seat that plays the way a sound player would with the
hand it holds in one world, and not in another, makes the first likelier.
Using that takes many candidate deals per decision, most of which explain the
play badly, so the two costly steps are compiled here, built like
``engine/kernel.py`` (one source for numba and for plain Python):

* ``deal``: uniform deals of the unseen cards under the sampler's masks and
  counts, drawn from the counting tables of ``sampler._Dealer`` flattened into
  arrays (``DealPlan``), with its own small random generator so that compiled
  and plain runs draw the very same deals for a seed;
* ``call_log_likelihood``: each other seat's call against
  ``trickplay.estimate_tricks`` of the hand it was dealt in the world, the
  sampler's Gaussian, as a log weight.

The replay of the play itself is ``rollout``'s ``surprises`` (the policy and
its replay share one source).  ``sampler.WorldSampler`` puts them together.
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from callbreak.bots import trickplay
from callbreak.bots.search import _core

OTHERS = 3
"""Seats dealt by the compiled path: the other three of a four-seat table."""
MASK32 = 0xFFFFFFFF


@dataclass(frozen=True)
class DealPlan:
    """A ``sampler._Dealer`` as flat arrays: drawn from the last group back to the first.

    The deal is in state ``final`` (cards each seat still needs) before group
    ``g = len(starts) - 2``; options ``begin[s]:end[s]`` of a state say how the
    group's cards split between the seats (``split[o]``), with which state the
    groups before it are left (``prev[o]``) and, cumulated, how likely that is
    (``cum[o]``: the number of deals through it, over all deals of ``s``).
    """

    cards: Any
    starts: Any
    begin: Any
    end: Any
    prev: Any
    split: Any
    cum: Any
    final: int
    needs_seat: Any
    needs_mask: Any
    nneeds: int
    """How many "holds at least one of" facts (the arrays hold a dummy when there are none)."""

    def deal(self, kernels: Kernels, tries: int, seed: int, out: Any) -> int:
        """Fill the rows of ``out`` (the others' hands) by ``kernels.deal``; how many it filled."""
        return int(
            kernels.deal(
                self.cards,
                self.starts,
                self.begin,
                self.end,
                self.prev,
                self.split,
                self.cum,
                self.final,
                self.needs_seat,
                self.needs_mask,
                self.nneeds,
                tries,
                seed,
                out,
            )
        )


def plan(
    groups: list[tuple[int, list[int]]],
    ways: list[dict[tuple[int, ...], int]],
    splits: list[list[tuple[tuple[int, ...], int]]],
    counts: tuple[int, ...],
    needs: list[tuple[int, int]],
) -> DealPlan:
    """Flatten a dealer's groups, counting tables and splits (and the "holds at least one
    of" facts, as seat index and mask) into a ``DealPlan`` of numpy arrays."""
    import numpy

    ids: dict[tuple[int, tuple[int, ...]], int] = {}
    order: list[tuple[int, tuple[int, ...]]] = []

    def state_id(level: int, state: tuple[int, ...]) -> int:
        key = (level, state)
        if key not in ids:
            ids[key] = len(order)
            order.append(key)
        return ids[key]

    final = state_id(len(groups), tuple(counts))
    options: dict[int, list[tuple[int, tuple[int, ...], float]]] = {}
    at = 0
    while at < len(order):
        level, state = order[at]
        sid = at
        at += 1
        if level == 0:
            continue
        g = level - 1
        rows = []
        for split, mult in splits[g]:
            prev = tuple(state[i] - split[i] for i in range(len(state)))
            weight = ways[g].get(prev, 0) * mult
            if weight:
                rows.append((state_id(g, prev), split, float(weight)))
        options[sid] = rows
    begin = numpy.zeros(len(order), numpy.int64)
    end = numpy.zeros(len(order), numpy.int64)
    prev_ids: list[int] = []
    split_rows: list[tuple[int, ...]] = []
    cum: list[float] = []
    for sid in range(len(order)):
        rows = options.get(sid, [])
        begin[sid] = len(prev_ids)
        total = float(sum(w for _, _, w in rows))
        run = 0.0
        for back, split, share in rows:
            run += share
            prev_ids.append(back)
            split_rows.append(split)
            cum.append(run / total)
        end[sid] = len(prev_ids)
        if rows:
            cum[-1] = 1.0
    flat = [card for _, cards in groups for card in cards]
    starts = [0]
    for _, cards in groups:
        starts.append(starts[-1] + len(cards))
    return DealPlan(
        cards=numpy.array(flat or [0], numpy.int64),
        starts=numpy.array(starts, numpy.int64),
        begin=begin,
        end=end,
        prev=numpy.array(prev_ids or [0], numpy.int64),
        split=numpy.array(split_rows or [(0,) * OTHERS], numpy.int64).reshape(-1, OTHERS),
        cum=numpy.array(cum or [1.0], numpy.float64),
        final=final,
        needs_seat=numpy.array([s for s, _ in needs] or [0], numpy.int64),
        needs_mask=numpy.array([m for _, m in needs] or [0], numpy.int64),
        nneeds=len(needs),
    )


@dataclass(frozen=True)
class Kernels:
    """The entry points, compiled or not (see each function's docstring)."""

    deal: Callable[..., Any]
    call_log_likelihood: Callable[..., Any]
    compiled: bool


def _build(jit: Callable[[Any], Any]) -> Kernels:
    namespace = dict(vars(trickplay))
    namespace["popcount"] = jit(_core.popcount)
    estimate = jit(
        types.FunctionType(trickplay.estimate_tricks.__code__, namespace, "estimate_tricks")
    )

    def next_random(state: Any) -> int:
        """xorshift32: a 32-bit number; the same in compiled and plain runs."""
        x = state[0]
        x ^= (x << 13) & MASK32
        x ^= x >> 17
        x ^= (x << 5) & MASK32
        state[0] = x
        return int(x)

    next_random = jit(next_random)

    def deal(
        cards: Any,
        starts: Any,
        begin: Any,
        end: Any,
        prev: Any,
        split: Any,
        cum: Any,
        final: int,
        needs_seat: Any,
        needs_mask: Any,
        nneeds: int,
        tries: int,
        seed: int,
        out: Any,
    ) -> int:
        """Fill ``out[i, j]`` (the other seats' hands) with uniform deals that meet every
        "holds one of" fact, each tried up to ``tries`` times; returns how many rows it
        filled (the caller deals the rest its slower way)."""
        state = starts[:1].copy()
        state[0] = (seed & MASK32) | 1
        pool = cards.copy()
        ngroups = starts.shape[0] - 1
        filled = 0
        for _ in range(out.shape[0]):
            ok = False
            for _ in range(tries):
                h0 = 0
                h1 = 0
                h2 = 0
                s = final
                for g in range(ngroups - 1, -1, -1):
                    r = next_random(state) / 4294967296.0
                    o = begin[s]
                    while o < end[s] - 1 and cum[o] <= r:
                        o += 1
                    a = starts[g]
                    b = starts[g + 1]
                    for i in range(a, b):
                        pool[i] = cards[i]
                    # Fisher-Yates over the group, then the split in seat order
                    for i in range(b - 1, a, -1):
                        j = a + next_random(state) % (i - a + 1)
                        t = pool[i]
                        pool[i] = pool[j]
                        pool[j] = t
                    i = a
                    for _k in range(split[o, 0]):
                        h0 |= 1 << pool[i]
                        i += 1
                    for _k in range(split[o, 1]):
                        h1 |= 1 << pool[i]
                        i += 1
                    for _k in range(split[o, 2]):
                        h2 |= 1 << pool[i]
                        i += 1
                    s = prev[o]
                ok = True
                for n in range(nneeds):
                    seat = needs_seat[n]
                    hand = h0 if seat == 0 else (h1 if seat == 1 else h2)
                    if not hand & needs_mask[n]:
                        ok = False
                        break
                if ok:
                    out[filled, 0] = h0
                    out[filled, 1] = h1
                    out[filled, 2] = h2
                    filled += 1
                    break
        return filled

    def call_log_likelihood(
        worlds: Any,
        played_by: Any,
        calls: Any,
        seat: int,
        trump: int,
        min_call: int,
        max_call: int,
        sigma: float,
        out: Any,
    ) -> None:
        """``out[i]``: the log-likelihood of the other seats' calls (``calls[p] < 0``: not
        made yet) in ``worlds[i]`` (hands now; ``played_by[p]`` completes the deal)."""
        for i in range(worlds.shape[0]):
            total = 0.0
            for p in range(worlds.shape[1]):
                if p == seat or calls[p] < 0:
                    continue
                est = estimate(worlds[i, p] | played_by[p], trump)
                if est < min_call:
                    est = min_call
                if est > max_call:
                    est = max_call
                d = calls[p] - est
                total -= d * d / (2 * sigma * sigma)
            out[i] = total

    return Kernels(jit(deal), jit(call_log_likelihood), compiled=jit is not _identity)


def _identity(function: Any) -> Any:
    return function


@functools.cache
def interpreted() -> Kernels:
    """The kernels as plain Python (numpy arrays in, the same results as compiled)."""
    return _build(_identity)


@functools.cache
def compiled() -> Kernels:
    """The kernels compiled by numba, once per process and kept on disk (``jitcache``);
    ImportError without numba."""
    import sys

    from callbreak import cards
    from callbreak.bots.search import jitcache

    return _build(jitcache.njit((trickplay, _core, cards, sys.modules[__name__])))
