"""Snarples (``docs/rules/snarples.md``): five cards, one round of bids, the bidder names
trump and the others may sit out; a countdown from 16 in which 33 puts a seat out."""

from __future__ import annotations

from callbreak.engine.games import deal_round, snarples_scores, spade_out
from callbreak.engine.phases import OneRoundAuction, Play, Settle, SitOut, Trump
from callbreak.games import Face, Game, Hints, Preset, register
from callbreak.rules import Rules


def _swing(rules: Rules) -> float:
    """Sat out at 3 or less (+1), then given +5 by the bidder."""
    return 6.0


GAME = register(
    Game(
        name="snarples",
        title="Snarples",
        deck="standard",
        seats=(3, 8),
        hand_size=5,
        trump=-1,
        options=("players", "first_dealer"),
        phases=(OneRoundAuction(), Trump(), SitOut(), Settle(), Play("declarer")),
        dealing=deal_round,
        scorer=snarples_scores,
        face=Face(
            stats=("bid", "won", "score"),
            summary=("bid", "won", "points", "total"),
            scoring="Countdown from 16, lower is better: −1 a trick (+5 with none, or a failed "
            "bid); 0 or below wins, 33 or more is out of the game.",
        ),
        policy="five-card",
        swing=_swing,
        hints=Hints(
            no_trick="+5",
            none_cost=5,
            failed_bid="+5",
            bid_made="each trick is −1",
            trump_notes={"S": "with spades nobody may sit out"},
            sit_out=(3, 1),
        ),
        start=16,
        lowest_wins=True,
        ends_at_zero=True,
        out_at=33,
        wins_at_once=spade_out,
        needs_context=True,
        presets=(
            Preset(
                "snarples",
                "Snarples",
                "snarples",
                {"min_bid": 1, "max_bid": 5, "tie_break": "shared"},
            ),
        ),
    )
)
