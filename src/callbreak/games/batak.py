"""Batak İhaleli (``docs/rules/batak-ihale.md``): an auction for the contract, the
declarer names trump and leads; and the preset Batak Koz Maça
(``docs/rules/batak-koz-maca.md``), which plays Call Break's deal with Batak's
trump rules.
"""

from __future__ import annotations

from callbreak.engine.games import batak_scores, deal_round
from callbreak.engine.phases import Auction, Play, Trump
from callbreak.games import Face, Game, Hints, Preset, register
from callbreak.rules import BATAK_OPTIONS, MATCH_OPTIONS, Rules


def _swing(rules: Rules) -> float:
    """A bid of 13 made or failed, times the multiplier."""
    return 13.0 * rules.score_multiplier


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
