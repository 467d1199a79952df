"""Bots: one small interface and a registry by name, used by every face."""

from callbreak.bots.base import Bot, available_bots, make_bot, register_bot, warm_up
from callbreak.bots.expert import ExpertBot
from callbreak.bots.heuristic import HeuristicBot
from callbreak.bots.random_bot import RandomBot

__all__ = [
    "Bot",
    "ExpertBot",
    "HeuristicBot",
    "RandomBot",
    "available_bots",
    "make_bot",
    "register_bot",
    "warm_up",
]
