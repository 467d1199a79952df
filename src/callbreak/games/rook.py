"""Call Partner with the Rook deck (``docs/rules/rook-call-partner.md``): an auction in
card points, the bidder takes the nest, names trump and calls a partner card."""

from __future__ import annotations

from callbreak.engine.games import deal_with_nest, points_taken, rook_scores
from callbreak.engine.phases import Auction, Discard, Partner, Play, Trump
from callbreak.games import Face, Game, Hints, Preset, register
from callbreak.rules import MATCH_OPTIONS, Rules


def _swing(rules: Rules) -> float:
    """Every card point of the deal, and the last trick's."""
    return 200.0


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
            scoring="Card points (1 = 15, 14 and 10 = 10, 5 = 5, Rook and last trick = 20): "
            "the bidder's side scores them if they reach the bid, else −bid each.",
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
