"""Call Partner with the Rook deck (``docs/rules/rook-call-partner.md``): an auction in
card points, the bidder takes the nest, names trump and calls a partner card."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from callbreak.decks import ROOK_FREE
from callbreak.engine.games import ROOK_CARD_POINTS, card_points, deal_with_nest
from callbreak.engine.phases import Auction, Discard, Partner, Play, Trump
from callbreak.games import Face, Game, Hints, Preset, Scale, register
from callbreak.points import Points
from callbreak.rules import MATCH_OPTIONS

if TYPE_CHECKING:
    from callbreak.engine.deal import Deal

__all__ = ["GAME", "card_points", "points_taken", "rook_scores"]
"""``card_points`` (the engine's Rook counters of a mask) is listed beside the scorers that
count with it."""


def _swing(rules: Scale) -> float:
    """Every card point of the deal, and the last trick's."""
    return 200.0


_CARD_VALUE = [ROOK_CARD_POINTS.get(card, 0) for card in range(ROOK_FREE + 1)]
"""Card points by card number, every card of the deck up to the unplaced Rook (as the
engine's table counts them; a list, since a playout reads it for every trick at every card)."""


def points_taken(deal: Deal) -> list[int]:
    """Card points each seat has taken in tricks so far (public: every trick is seen);
    the last trick's bonus and the discarded nest go to its winner once the deal ends."""
    taken = _trick_points(deal.history, deal.players)
    if deal.history and len(deal.history) == deal.rules.hand_size:
        last_winner = deal.history[-1][2]
        taken[last_winner] += deal.rules.last_trick_points + card_points(deal.discards)
    return taken


_SUMMED: list[tuple[object, int, int, tuple[int, ...]]] = [(None, 0, 0, ())]
"""The last tricks summed: the last of them (the object itself), how many, the seats, and
each seat's card points.  Every observation of a playout counts the tricks so far; a deal
holding that very trick at that place continues those tricks (a trick is made once, and a
deal's copies share it), so only the tricks added since are summed.  One tuple, replaced
whole, so that a reader in another thread sees one consistent entry."""


def _trick_points(history: list[tuple[int, tuple[int, ...], int]], players: int) -> list[int]:
    """Card points each seat took in the tricks of ``history``."""
    last, length, seats, taken = _SUMMED[0]
    if seats != players or length > len(history) or (length and history[length - 1] is not last):
        length, taken = 0, (0,) * players
    if length == len(history):
        return list(taken)
    more = list(taken)
    for _, cards, winner in history[length:]:  # every observation of a playout counts them
        more[winner] += sum(map(_CARD_VALUE.__getitem__, cards))
    _SUMMED[0] = (history[-1], len(history), players, tuple(more))
    return more


def rook_scores(deal: Deal) -> list[Points]:
    """The bidding side books its points if it made the bid, else −bid each; the other
    side always books its own points (``docs/rules/rook-call-partner.md``)."""
    bid, declarer = deal.contract, deal.declarer
    assert bid is not None and declarer is not None
    taken = points_taken(deal)
    partner = deal.partner
    side = {declarer, declarer if partner is None else partner}
    ours = sum(taken[s] for s in side)
    theirs = sum(taken) - ours
    made = ours >= bid
    return [
        Points.whole((ours if made else -bid) if seat in side else theirs)
        for seat in range(deal.players)
    ]


def scoring(rules: Any) -> str:
    """The scoresheet's line under the rules in force (the last trick's points)."""
    last = rules.last_trick_points
    return (
        f"Card points (1 = 15, 14 and 10 = 10, 5 = 5, Rook = 20, last trick = {last}): the "
        "bidder's side scores them if they reach the bid, else −bid each."
    )


GAME = register(
    Game(
        name="rook",
        title="Call Partner (Rook)",
        deck="rook",
        seats=(4, 4),
        hand_size=13,
        trump=-1,
        options=("players", "min_bid", "max_bid", "bid_step", "last_trick_points", *MATCH_OPTIONS),
        phases=(Auction(dealer_first=True), Discard(), Trump(), Partner(), Play("after_declarer")),
        dealing=deal_with_nest,
        scorer=rook_scores,
        face=Face(
            stats=("bid", "won", "card_points"),
            summary=("bid", "won", "card_points", "points", "total"),
            scoring=scoring,
        ),
        policy="point-auction",
        swing=_swing,
        hints=Hints(
            no_trick="+5",
            defend="defending, your side keeps every point it takes",
            bid_prize="takes the nest",
        ),
        card_points=points_taken,
        presets=(
            Preset(
                "rook-call-partner",
                "Call Partner (Rook)",
                "rook",
                {
                    "min_bid": 70,
                    "max_bid": 200,
                    "bid_step": 5,
                    "last_trick_points": 20,
                    "match_end": "target:500",
                    "tie_break": "shared",
                },
            ),
        ),
    )
)
