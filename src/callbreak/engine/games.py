"""The engine's pieces that the games compose: how cards are dealt, how a deal is scored.

A game's record (``callbreak.games``) names its dealing and its scorer from
here and its phases from ``phases.py``; a new game reuses these or adds its
own beside them, never a copy of ``Deal``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from callbreak.decks import ROOK_NUMBERS, ROOK_SLOT, ROOK_STRIDE
from callbreak.points import Points


class Layout(NamedTuple):
    """Where the cards of one deal lie once dealt (a named tuple: every deal makes one, and a
    frozen dataclass took a tenth of a five-card deal's set-up to build)."""

    hands: list[int]
    nest: int = 0
    upcard: int | None = None
    stock: tuple[int, ...] = ()
    """Undealt cards in order, top first (Horsethief draws from it; others leave it out)."""


def deal_round(order: Sequence[int], seats: Sequence[int], hand_size: int) -> Layout:
    """One card at a time to ``seats`` (listed from the seat after the dealer) until each
    holds ``hand_size``; the rest of ``order`` is the stock."""
    hands = [0] * (max(seats) + 1 if seats else 0)
    count = len(seats)
    dealt = count * hand_size
    for first, seat in enumerate(seats):  # a seat's cards are every count-th from its first
        mask = 0
        for card in order[first:dealt:count]:
            mask |= 1 << card
        hands[seat] |= mask
    return Layout(hands, stock=tuple(order[dealt:]))


def deal_upcard_last(order: Sequence[int], seats: Sequence[int], hand_size: int) -> Layout:
    """Donut (docs/rules/donut.md): as ``deal_round``; the dealer's own fifth card, the last card of
    the hands, lies face up (it stays in the dealer's hand)."""
    layout = deal_round(order, seats, hand_size)
    return Layout(layout.hands, upcard=order[len(seats) * hand_size - 1], stock=layout.stock)


def deal_upcard_next(order: Sequence[int], seats: Sequence[int], hand_size: int) -> Layout:
    """Horsethief (docs/rules/horsethief.md): as ``deal_round``, then the next card is turned
    up (trump; never drawn) and the rest, in order, is the stock the exchange draws from."""
    layout = deal_round(order, seats, hand_size)
    return Layout(layout.hands, upcard=layout.stock[0], stock=layout.stock[1:])


def deal_with_nest(order: Sequence[int], seats: Sequence[int], hand_size: int) -> Layout:
    """Call Partner (docs/rules/rook-call-partner.md): after each of the first five rounds a
    card goes to the nest."""
    hands = [0] * (max(seats) + 1)
    nest = 0
    at = 0
    for round_ in range(hand_size):
        for seat in seats:
            hands[seat] |= 1 << order[at]
            at += 1
        if round_ < 5:
            nest |= 1 << order[at]
            at += 1
    return Layout(hands, nest=nest, stock=tuple(order[at:]))


ROOK_POINTS = {1: 15, 14: 10, 10: 10, 5: 5}
"""Card points by number in the Rook deck; the Rook itself is worth 20."""


def _rook_card_points() -> dict[int, int]:
    table = {}
    for colour in range(4):
        for slot, number in enumerate(ROOK_NUMBERS):
            if number in ROOK_POINTS:
                table[colour * ROOK_STRIDE + slot] = ROOK_POINTS[number]
        table[colour * ROOK_STRIDE + ROOK_SLOT] = 20
    return table


ROOK_CARD_POINTS = _rook_card_points()


def card_points(mask: int) -> int:
    """Rook card points in a mask of placed cards."""
    total = 0
    while mask:
        low = mask & -mask
        total += ROOK_CARD_POINTS.get(low.bit_length() - 1, 0)
        mask ^= low
    return total


@dataclass(frozen=True)
class Context:
    """What a deal is told of its match: the scores, who is out of the game, and how many
    deals in a row each seat has sat out (Snarples' limit, Donut's chooser of trump)."""

    totals: tuple[Points, ...]
    out: frozenset[int] = frozenset()
    """Seats out of the game (Snarples at 33 or more): they are not dealt in."""
    sat_out: tuple[int, ...] = ()
    """Deals in a row each seat has sat out just before this one (empty: none)."""
    number: int = 0
    """Deals of the match scored before this one (Judgement's trump rotates by it)."""
