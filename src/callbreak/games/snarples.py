"""Snarples (``docs/rules/snarples.md``): five cards, one round of bids, the bidder names
trump and the others may sit out; a countdown from 16 in which 33 puts a seat out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from callbreak.engine.games import deal_round
from callbreak.engine.phases import OneRoundAuction, Play, Settle, SitOut, Trump
from callbreak.games import Face, Game, Hints, Preset, Scale, register
from callbreak.points import Points

if TYPE_CHECKING:
    from callbreak.engine.deal import Deal


def _swing(rules: Scale) -> float:
    """Sat out at 3 or less (+1), then given +5 by the bidder."""
    return 6.0


def snarples_scores(deal: Deal) -> list[Points]:
    """Countdown, lower is better (``docs/rules/snarples.md``).  The bidder made its bid:
    down by the tricks it won; failed: +5.  Every other seat in the deal: −1 a trick, or
    +5 for none.  Sitting out with a score of 3 or less costs +1.  All sat out: the bidder
    took −5 or gave +5."""
    declarer, bid = deal.declarer, deal.contract
    assert declarer is not None and bid is not None
    out = [0] * deal.players
    for seat in deal.dropped:
        if deal.score_before(seat) <= 3:
            out[seat] = 1
    settled = deal.settled
    if settled == "take":
        out[declarer] = -5
    elif settled == "give":
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


def spade_out(deal: Deal) -> int | None:
    """A seat that wins every trick with spades trump wins the game at once (any seat in
    the deal: a choice where the rule book names no one; ``docs/rules/snarples.md``)."""
    if deal.trump != "S" or deal.unplayed:
        return None
    return next((s for s in deal.active if deal.tricks[s] == deal.rules.hand_size), None)


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
