"""callbreak: Call Break and its family, with exact rules and every house option.

>>> import callbreak
>>> deal = callbreak.Deal(callbreak.Rules.preset("callbreak"), seed=7, dealer=0)
>>> deal.phase
'call'
"""

from callbreak.cards import card_name, parse_card, parse_hand
from callbreak.engine import (
    Action,
    Deal,
    EndlessRedeal,
    IllegalAction,
    Match,
    Observation,
    TrickView,
    observe,
)
from callbreak.games import Game, find_game
from callbreak.games import family as _family  # noqa: F401  (importing it registers every game)
from callbreak.points import Points
from callbreak.rules import OPTIONS, Option, Rules

__version__ = "0.1.0"

__all__ = [
    "OPTIONS",
    "Action",
    "Deal",
    "EndlessRedeal",
    "Game",
    "IllegalAction",
    "Match",
    "Observation",
    "Option",
    "Points",
    "Rules",
    "TrickView",
    "__version__",
    "card_name",
    "find_game",
    "observe",
    "parse_card",
    "parse_hand",
]
