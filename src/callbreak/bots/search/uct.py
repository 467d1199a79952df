"""Determinized UCT with random playouts: the search of many public tournament bots.

The expert (``bots.expert``) samples worlds and plays each card out with the
heuristic's policy for all four seats, so its whole judgement rests on one
model of how people play.  A pool that only holds that model and variants of
it cannot tell whether the expert wins because it plays well or because its
opponents play the way it assumes.  This module is the other common design,
the one of the 2022 Bhoos tournament bot that first beat the expert: for each
world dealt from the hard facts alone, grow a UCT tree over the perfect-
information game (every seat choosing the card that is best for itself, by
the upper confidence bound on its mean reward), evaluate each new node by one
playout of uniformly random legal cards, and play the card whose root visits,
summed over the worlds, are most.  No heuristic is consulted anywhere.

The tree lives in flat arrays handed in by the caller (``Tree``): a node per
iteration at most, children as a linked list (``first``, ``sibling``), the
cards not yet tried at a node as a mask (``untried``).  States are not stored:
each iteration replays the moves from the root into one small int64 array
(``S_*`` slots), which costs a few card plays and keeps the tree tiny.  A
seat's reward is its points under the rules in force (``scores[call, won]``)
less ``rivalry`` times the others' mean, as the expert values a playout.

Written in the subset of Python that numba compiles (``compiled()``); without
numba ``interpreted()`` runs the same functions slowly, for the tests.  Random
draws come from numpy's generator, seeded per call, so a seed fixes a search.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, NamedTuple

import numpy

from callbreak.bots.search.world import World
from callbreak.cards import RANK_COUNT
from callbreak.engine import tricks

PLAYERS = 4

# Slots of the state array: hands by seat 0-3, tricks won by seat 4-7, then these.
S_LEADER, S_COUNT, S_LED, S_WIN, S_WIN_SEAT, S_TRUMP_PLAYED, S_FIRST = range(8, 15)
STATE = 15


@dataclass(frozen=True)
class Uct:
    """The entry point, compiled or not: ``search(...)``, see ``_build``."""

    search: Callable[..., Any]
    compiled: bool


def root_state(world: World) -> Any:
    """The state array of ``world`` (its hands, the trick in progress, tricks won)."""
    state = numpy.zeros(STATE, numpy.int64)
    state[:PLAYERS] = world.hands
    state[PLAYERS : 2 * PLAYERS] = world.tricks
    state[S_LEADER] = world.leader
    state[S_COUNT] = len(world.trick)
    state[S_LED] = world.led
    state[S_WIN], state[S_WIN_SEAT] = world.winning
    state[S_TRUMP_PLAYED] = int(world.trump_played)
    state[S_FIRST] = int(world.first_trick)
    return state


class _Moves(NamedTuple):
    """The state kernels the search is written with, jitted as it was given."""

    to_move: Callable[[Any], int]
    legal: Callable[[Any, Any], int]
    play: Callable[[Any, Any, int], None]
    reset: Callable[[Any, Any, Any, int], None]
    random_card: Callable[[int], int]


def _move_kernels(jit: Callable[[Any], Any]) -> _Moves:
    """Whose turn, the legal cards, a card played, a world set up, a random card."""
    legal_mask = jit(tricks.legal_mask)
    beats = jit(tricks.beats)
    popcount = jit(tricks.popcount)
    nth_card = jit(tricks.nth_card)

    def to_move(state: Any) -> int:
        return int((state[S_LEADER] + state[S_COUNT]) % PLAYERS)

    to_move = jit(to_move)

    def legal(rules: Any, state: Any) -> int:
        return int(
            legal_mask(
                rules,
                state[to_move(state)],
                state[S_LED],
                state[S_WIN],
                state[S_FIRST] == 1,
                state[S_TRUMP_PLAYED] == 1,
            )
        )

    legal = jit(legal)

    def play(rules: Any, state: Any, card: int) -> None:
        """The seat to move plays ``card``; a fourth card closes the trick."""
        seat = to_move(state)
        state[seat] ^= 1 << card
        suit = card // RANK_COUNT
        if suit == rules.trump:
            state[S_TRUMP_PLAYED] = 1
        if state[S_COUNT] == 0:
            state[S_LED] = suit
            state[S_WIN] = card
            state[S_WIN_SEAT] = seat
        elif beats(card, state[S_WIN], rules.trump):
            state[S_WIN] = card
            state[S_WIN_SEAT] = seat
        state[S_COUNT] += 1
        if state[S_COUNT] == PLAYERS:
            winner = state[S_WIN_SEAT]
            state[PLAYERS + winner] += 1
            state[S_LEADER] = winner
            state[S_COUNT] = 0
            state[S_LED] = -1
            state[S_WIN] = -1
            state[S_FIRST] = 0

    play = jit(play)

    def reset(state: Any, root: Any, worlds: Any, i: int) -> None:
        """``state`` back to ``root`` with the hands of ``worlds[i]``."""
        for k in range(STATE):
            state[k] = root[k]
        for p in range(PLAYERS):
            state[p] = worlds[i, p]

    reset = jit(reset)

    def random_card(mask: int) -> int:
        return int(nth_card(mask, int(numpy.random.random() * popcount(mask))))

    random_card = jit(random_card)
    return _Moves(to_move, legal, play, reset, random_card)


def _build(jit: Callable[[Any], Any]) -> Uct:
    moves = _move_kernels(jit)
    to_move, legal, play, reset = moves.to_move, moves.legal, moves.play, moves.reset
    random_card = moves.random_card

    def search(
        rules: Any,
        worlds: Any,
        root: Any,
        calls: Any,
        scores: Any,
        rivalry: float,
        iterations: int,
        explore: float,
        seed: int,
        state: Any,
        move: Any,
        mover: Any,
        parent: Any,
        first: Any,
        sibling: Any,
        untried: Any,
        visits: Any,
        value: Any,
        reward: Any,
        visits_out: Any,
    ) -> int:
        """Grow a tree of ``iterations`` playouts in each world (``worlds[i]``: hands by
        seat, the rest of the state from ``root``) and add the root's visits per card to
        ``visits_out``; the node arrays hold ``iterations + 1`` entries.  Returns the
        playouts run."""
        numpy.random.seed(seed)
        runs = 0
        for i in range(worlds.shape[0]):
            reset(state, root, worlds, i)
            first[0] = -1
            parent[0] = -1
            visits[0] = 0
            untried[0] = legal(rules, state)
            nodes = 1
            for _ in range(iterations):
                reset(state, root, worlds, i)
                node = 0
                # Select: down through fully tried nodes by each mover's upper bound.
                while untried[node] == 0 and first[node] >= 0:
                    log_n = math.log(visits[node])
                    best = -1
                    best_bound = -1e300
                    child = first[node]
                    while child >= 0:
                        bound = value[child] / visits[child] + explore * math.sqrt(
                            log_n / visits[child]
                        )
                        if bound > best_bound:
                            best_bound = bound
                            best = child
                        child = sibling[child]
                    node = best
                    play(rules, state, move[node])
                # Expand: one untried card, chosen at random.
                if untried[node] != 0:
                    card = random_card(untried[node])
                    untried[node] ^= 1 << card
                    new = nodes
                    nodes += 1
                    move[new] = card
                    mover[new] = to_move(state)
                    parent[new] = node
                    sibling[new] = first[node]
                    first[node] = new
                    first[new] = -1
                    visits[new] = 0
                    value[new] = 0.0
                    play(rules, state, card)
                    if state[0] | state[1] | state[2] | state[3]:
                        untried[new] = legal(rules, state)
                    else:
                        untried[new] = 0
                    node = new
                # Playout: random legal cards to the end of the deal.
                while state[0] | state[1] | state[2] | state[3]:
                    play(rules, state, random_card(legal(rules, state)))
                runs += 1
                total = 0.0
                for p in range(PLAYERS):
                    reward[p] = scores[calls[p], state[PLAYERS + p]]
                    total += reward[p]
                for p in range(PLAYERS):
                    reward[p] -= rivalry * (total - reward[p]) / (PLAYERS - 1)
                # Back up: each node keeps the reward of the seat whose card led to it.
                while node >= 0:
                    visits[node] += 1
                    if node > 0:
                        value[node] += reward[mover[node]]
                    node = parent[node]
            child = first[0]
            while child >= 0:
                visits_out[move[child]] += visits[child]
                child = sibling[child]
        return runs

    return Uct(jit(search), compiled=jit is not _identity)


@dataclass
class Tree:
    """The arrays a search grows its trees in (``iterations + 1`` nodes), kept between
    decisions so a decision allocates nothing."""

    state: Any
    move: Any
    mover: Any
    parent: Any
    first: Any
    sibling: Any
    untried: Any
    visits: Any
    value: Any
    reward: Any

    @classmethod
    def of(cls, iterations: int) -> Tree:
        n = iterations + 1

        def ints() -> Any:
            return numpy.zeros(n, numpy.int64)

        return cls(
            state=numpy.zeros(STATE, numpy.int64),
            move=ints(),
            mover=ints(),
            parent=ints(),
            first=ints(),
            sibling=ints(),
            untried=ints(),
            visits=ints(),
            value=numpy.zeros(n),
            reward=numpy.zeros(PLAYERS),
        )

    def arrays(self) -> tuple[Any, ...]:
        """The arrays in the order ``search`` takes them (the fields' order)."""
        return tuple(getattr(self, f.name) for f in fields(self))


def _identity(function: Any) -> Any:
    return function


@functools.cache
def interpreted() -> Uct:
    """The search as plain Python (slow: for the tests and machines without numba)."""
    return _build(_identity)


@functools.cache
def compiled() -> Uct:
    """The search compiled by numba (once per process, kept on disk); ImportError without it."""
    import sys

    from callbreak import cards
    from callbreak.bots.search import jitcache

    sources = (tricks, cards, sys.modules[__name__])
    return _build(jitcache.njit(sources, _nrt=False, nogil=True))
