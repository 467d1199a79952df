"""The engine's pieces that the games compose: how cards are dealt, how a deal is scored.

A game's record (``callbreak.games``) names its dealing and its scorer from
here and its phases from ``phases.py``; a new game reuses these or adds its
own beside them, never a copy of ``Deal``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from callbreak.decks import ROOK_NUMBERS, ROOK_SLOT, ROOK_STRIDE
from callbreak.points import Points

if TYPE_CHECKING:
    from callbreak.engine.deal import Deal


@dataclass(frozen=True)
class Layout:
    """Where the cards of one deal lie once dealt."""

    hands: list[int]
    nest: int = 0
    upcard: int | None = None
    stock: tuple[int, ...] = ()
    """Undealt cards in order, top first (Horsethief draws from it; others leave it out)."""


def deal_round(order: Sequence[int], seats: Sequence[int], hand_size: int) -> Layout:
    """One card at a time to ``seats`` (listed from the seat after the dealer) until each
    holds ``hand_size``; the rest of ``order`` is the stock."""
    hands = [0] * (max(seats) + 1 if seats else 0)
    dealt = len(seats) * hand_size
    for at, card in enumerate(order[:dealt]):
        hands[seats[at % len(seats)]] |= 1 << card
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


Scorer = Callable[["Deal"], list[Points]]


def call_scores(deal: Deal) -> list[Points]:
    """Call Break, Call Bridge, Batak Koz Maça: each seat by its own call and tricks."""
    score = deal.rules.score
    return [score(call or 0, won) for call, won in zip(deal.calls, deal.tricks, strict=True)]


def batak_scores(deal: Deal) -> list[Points]:
    """docs/rules/batak-ihale.md: the declarer ±bid; the others +1 a trick, or −bid for no
    trick at all."""
    bid, declarer = deal.contract, deal.declarer
    assert bid is not None and declarer is not None
    factor = deal.rules.score_multiplier
    made = deal.tricks[declarer] >= bid
    return [
        Points.whole(factor * ((bid if made else -bid) if seat == declarer else won or -bid))
        for seat, won in enumerate(deal.tricks)
    ]


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


def points_taken(deal: Deal) -> list[int]:
    """Card points each seat has taken in tricks so far (public: every trick is seen);
    the last trick's bonus and the discarded nest go to its winner once the deal ends."""
    taken = [0] * deal.players
    for _, cards, winner in deal.history:
        taken[winner] += card_points(sum(1 << c for c in cards))
    if deal.history and len(deal.history) == deal.rules.hand_size:
        last_winner = deal.history[-1][2]
        taken[last_winner] += deal.rules.last_trick_points + card_points(deal.discards)
    return taken


def rook_scores(deal: Deal) -> list[Points]:
    """docs/rules/rook-call-partner.md: the bidding side books its points if it made the bid,
    else −bid each; the other side always books its own points."""
    bid, declarer = deal.contract, deal.declarer
    assert bid is not None and declarer is not None
    taken = points_taken(deal)
    side = {declarer, deal.partner if deal.partner is not None else declarer}
    ours = sum(taken[s] for s in side)
    theirs = sum(taken) - ours
    made = ours >= bid
    return [
        Points.whole((ours if made else -bid) if seat in side else theirs)
        for seat in range(deal.players)
    ]


def snarples_scores(deal: Deal) -> list[Points]:
    """docs/rules/snarples.md (countdown: lower is better).  The bidder made its bid: down by
    the tricks it won; failed: +5.  Every other seat in the deal: −1 a trick, or +5 for none.
    Sitting out with a score of 3 or less costs +1.  All sat out: the bidder took −5 or gave
    +5."""
    declarer, bid = deal.declarer, deal.contract
    assert declarer is not None and bid is not None
    out = [0] * deal.players
    for seat in deal.dropped:
        if deal.score_before(seat) <= 3:
            out[seat] = 1
    if deal.settled == "take":
        out[declarer] = -5
    elif deal.settled == "give":
        for seat in deal.dealt_in:
            if seat != declarer:
                out[seat] += 5
    else:
        for seat in deal.active:
            won = deal.tricks[seat]
            if seat == declarer:
                out[seat] = -won if won >= bid else 5
            else:
                out[seat] = -won if won else 5
    return [Points.whole(v) for v in out]


def donut_scores(deal: Deal) -> list[Points]:
    """docs/rules/donut.md (countdown): −1 a trick; a seat that played and won none +3 (a donut);
    the dealer −3 when everyone else dropped."""
    out = [0] * deal.players
    if deal.unplayed:
        out[deal.dealer] = -3
    else:
        for seat in deal.active:
            won = deal.tricks[seat]
            out[seat] = -won if won else 3
    return [Points.whole(v) for v in out]


def horsethief_scores(deal: Deal) -> list[Points]:
    """docs/rules/horsethief.md: +1 a trick; a seat that stayed in and won none −5; the last seat in
    when all the others dropped +5 unplayed."""
    out = [0] * deal.players
    if deal.unplayed:
        (last,) = (s for s in deal.active if s not in deal.dropped)
        out[last] = 5
    else:
        for seat in deal.active:
            won = deal.tricks[seat]
            out[seat] = won if won else -5
    return [Points.whole(v) for v in out]


@dataclass(frozen=True)
class Context:
    """What a deal is told of its match: the scores, who is out of the game, and how many
    deals in a row each seat has sat out (Snarples' limit, Donut's chooser of trump)."""

    totals: tuple[Points, ...]
    out: frozenset[int] = frozenset()
    """Seats out of the game (Snarples at 33 or more): they are not dealt in."""
    sat_out: tuple[int, ...] = ()
    """Deals in a row each seat has sat out just before this one (empty: none)."""


def spade_out(deal: Deal) -> int | None:
    """Snarples (docs/rules/snarples.md): a seat that wins every trick with spades trump wins
    the game at once (any seat in the deal: a choice where the rule book names no one)."""
    if deal.trump != "S" or deal.unplayed:
        return None
    return next((s for s in deal.active if deal.tricks[s] == deal.rules.hand_size), None)
