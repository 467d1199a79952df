"""Horsethief (``docs/rules/horsethief.md``): five cards, a turned-up trump, drop or stay
in, exchange up to five cards from the stock; +1 a trick, −5 for staying in and taking
nothing, first to 15."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from callbreak.engine.games import deal_upcard_next
from callbreak.engine.phases import Exchange, HorsethiefDrop, Play, TurnedTrump
from callbreak.games import (
    TURNED_OUT,
    Face,
    Game,
    Hints,
    Preset,
    Scale,
    match_end_text,
    register,
)
from callbreak.points import Points

if TYPE_CHECKING:
    from callbreak.engine.deal import Deal


def _swing(rules: Scale) -> float:
    """Five tricks, or −5 for none."""
    return 5.0


def horsethief_scores(deal: Deal) -> list[Points]:
    """+1 a trick; a seat that stayed in and won none −5; the last seat in when all the
    others dropped +5 unplayed (``docs/rules/horsethief.md``)."""
    out = [0] * deal.players
    if deal.unplayed:
        dropped = deal.dropped
        (last,) = (s for s in deal.active if s not in dropped)
        out[last] = 5
    else:
        for seat in deal.active:
            won = deal.tricks[seat]
            out[seat] = won if won else -5
    return [Points.whole(v) for v in out]


def scoring(rules: Any) -> str:
    """The scoresheet's line under the rules in force (the match's end is an option)."""
    return "+1 a trick, −5 for staying in and winning none. " + match_end_text(rules)


GAME = register(
    Game(
        name="horsethief",
        title="Horsethief",
        deck="standard",
        seats=(3, 5),
        hand_size=5,
        trump=-1,
        options=("players", "match_end", "tie_break", "first_dealer"),
        phases=(TurnedTrump(), HorsethiefDrop(), Exchange(), Play()),
        dealing=deal_upcard_next,
        scorer=horsethief_scores,
        face=Face(
            stats=("won", "score"),
            summary=("won", "points", "total"),
            scoring=scoring,
            stock=True,
        ),
        policy="five-card",
        swing=_swing,
        hints=Hints(trick="each trick is +1", no_trick="−5", none_cost=5),
        upcard=TURNED_OUT,
        presets=(
            Preset(
                "horsethief",
                "Horsethief",
                "horsethief",
                {"match_end": "target:15", "tie_break": "shared"},
            ),
        ),
    )
)
