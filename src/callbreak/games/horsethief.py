"""Horsethief (``docs/rules/horsethief.md``): five cards, a turned-up trump, drop or stay
in, exchange up to five cards from the stock; +1 a trick, −5 for staying in and taking
nothing, first to 15."""

from __future__ import annotations

from callbreak.engine.games import deal_upcard_next, horsethief_scores
from callbreak.engine.phases import Exchange, HorsethiefDrop, Play, TurnedTrump
from callbreak.games import TURNED_OUT, Face, Game, Hints, Preset, register
from callbreak.rules import Rules


def _swing(rules: Rules) -> float:
    """Five tricks, or −5 for none."""
    return 5.0


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
            scoring="Race to 15: +1 a trick, −5 for staying in and winning none.",
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
