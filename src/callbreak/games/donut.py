"""Donut (``docs/rules/donut.md``): five cards, the dealer's last card face up, trump named
by the dealer or the highest score, and a donut (+3) for a seat that plays and takes
nothing; a countdown from 15."""

from __future__ import annotations

from typing import TYPE_CHECKING

from callbreak.engine.games import deal_upcard_last
from callbreak.engine.phases import DonutDrop, DonutTrump, Play
from callbreak.games import HELD, Face, Game, Hints, Preset, Scale, register
from callbreak.points import Points

if TYPE_CHECKING:
    from callbreak.engine.deal import Deal


def _swing(rules: Scale) -> float:
    """Five tricks, or +3 for none."""
    return 5.0


def donut_scores(deal: Deal) -> list[Points]:
    """Countdown (``docs/rules/donut.md``): −1 a trick; a seat that played and won none
    +3 (a donut); the dealer −3 when everyone else dropped."""
    out = [0] * deal.players
    if deal.unplayed:
        out[deal.dealer] = -3
    else:
        for seat in deal.active:
            won = deal.tricks[seat]
            out[seat] = -won if won else 3
    return [Points.whole(v) for v in out]


GAME = register(
    Game(
        name="donut",
        title="Donut",
        deck="standard",
        seats=(4, 6),
        hand_size=5,
        trump=-1,
        options=("players", "first_dealer"),
        phases=(DonutTrump(), DonutDrop(), Play()),
        dealing=deal_upcard_last,
        scorer=donut_scores,
        face=Face(
            stats=("won", "score"),
            summary=("won", "points", "total"),
            scoring="Countdown from 15, lower is better: −1 a trick, +3 for a donut (no trick); "
            "0 or below wins.",
        ),
        policy="five-card",
        swing=_swing,
        hints=Hints(no_trick="+3 donut", none_cost=3),
        start=15,
        lowest_wins=True,
        ends_at_zero=True,
        needs_context=True,
        upcard=HELD,
        presets=(Preset("donut", "Donut", "donut", {"tie_break": "shared"}),),
    )
)
