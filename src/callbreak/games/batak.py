"""Batak İhaleli (``docs/rules/batak-ihale.md``): an auction for the contract, the
declarer names trump and leads; and the preset Batak Koz Maça
(``docs/rules/batak-koz-maca.md``), which plays Call Break's deal with Batak's
trump rules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from callbreak.engine.games import deal_round
from callbreak.engine.phases import Auction, Play, Trump
from callbreak.games import Face, Game, Hints, Preset, Scale, register
from callbreak.points import Points
from callbreak.rules import BATAK_OPTIONS, MATCH_OPTIONS

if TYPE_CHECKING:
    from callbreak.engine.deal import Deal


def _swing(rules: Scale) -> float:
    """A bid of 13 made or failed, times the multiplier."""
    return 13.0 * rules.score_multiplier


def batak_scores(deal: Deal) -> list[Points]:
    """The declarer ±bid; the others +1 a trick, or −bid for no trick at all
    (``docs/rules/batak-ihale.md``)."""
    bid, declarer = deal.contract, deal.declarer
    assert bid is not None and declarer is not None
    factor = deal.rules.score_multiplier
    made = deal.tricks[declarer] >= bid
    return [
        Points.whole(factor * ((bid if made else -bid) if seat == declarer else won or -bid))
        for seat, won in enumerate(deal.tricks)
    ]


def _limits(rules: Any) -> str | None:
    """A contract is counted in tricks: none may ask for more than a hand holds."""
    if rules.max_bid > rules.hand_size:
        return (
            f"max_bid={rules.max_bid} asks for more tricks than a hand of {rules.hand_size} "
            f"holds: give at most {rules.hand_size}"
        )
    if rules.forced_bid is not None and rules.forced_bid > rules.max_bid:
        return f"forced_bid={rules.forced_bid} is above max_bid={rules.max_bid}"
    return None


GAME = register(
    Game(
        name="batak",
        title="Batak İhaleli",
        deck="standard",
        seats=(4, 4),
        hand_size=13,
        trump=-1,
        options=(*BATAK_OPTIONS, *MATCH_OPTIONS),
        phases=(Auction(), Trump(), Play("declarer")),
        dealing=deal_round,
        scorer=batak_scores,
        face=Face(
            stats=("bid", "won"),
            summary=("bid", "won", "points", "total"),
            scoring="bid/won: the bidder scores +bid if it won at least its bid, else −bid; "
            "the others +1 a trick (−bid with no trick).",
        ),
        policy="trump-auction",
        swing=_swing,
        limits=_limits,
        hints=Hints(
            no_trick="+5",
            defend="as a defender each trick is +1",
            bid_made="each more trick is one the defenders lose",
            defenders_score=True,
        ),
        presets=(
            Preset(
                "batak-ihale",
                "Batak İhaleli",
                "batak",
                {
                    "min_bid": 5,
                    "max_bid": 13,
                    "forced_bid": 4,
                    "must_overtake": True,
                    "must_trump": "always",
                    "spades_broken": True,
                    "match_deals": 10,
                },
            ),
            Preset(
                "batak-koz-maca",
                "Batak Koz Maça",
                "callbreak",
                {
                    "misdeal": "off",
                    "min_total_calls": None,
                    "must_trump": "always",
                    "spades_broken": True,
                    "overtrick_points": 0,
                    "match_deals": 10,
                },
            ),
        ),
    )
)
