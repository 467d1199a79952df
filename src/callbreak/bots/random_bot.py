"""The random bot: uniform over the legal actions, reproducible from a seed."""

from __future__ import annotations

import random

from callbreak.bots.base import register_bot
from callbreak.engine import Action, Observation


@register_bot("random", "uniform over the legal actions (a baseline, and a test opponent)")
class RandomBot:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def act(self, observation: Observation) -> Action:
        if not observation.legal:
            raise ValueError(f"seat {observation.seat} has no legal action: it is not its turn")
        action: Action = self._rng.choice(observation.legal)
        return action
