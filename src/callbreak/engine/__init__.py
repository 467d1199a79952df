"""The rules engine: one deal, one match, and what each seat may see."""

from callbreak.engine.actions import Action
from callbreak.engine.deal import Deal
from callbreak.engine.errors import IllegalAction
from callbreak.engine.match import EndlessRedeal, Match
from callbreak.engine.observation import Observation, TrickView, observe, observe_public

__all__ = [
    "Action",
    "Deal",
    "EndlessRedeal",
    "IllegalAction",
    "Match",
    "Observation",
    "TrickView",
    "observe",
    "observe_public",
]
