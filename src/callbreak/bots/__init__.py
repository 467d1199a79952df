"""Bots: one small interface and a registry by name, used by every face."""

from callbreak.bots.base import Bot, available_bots, make_bot, refusal, register_bot, warm_up
from callbreak.bots.expert import ExpertBot
from callbreak.bots.family_search import FamilySearchBot
from callbreak.bots.heuristic import HeuristicBot
from callbreak.bots.ladder import ExpertV1Bot
from callbreak.bots.mcts import MctsBot
from callbreak.bots.random_bot import RandomBot
from callbreak.bots.styles import AggressiveBot, CautiousBot, DuckerBot, TrumperBot


@register_bot("rl", "a policy trained by examples/train_callbreak.py: rl:path=FILE (needs numpy)")
def _rl_bot(path: str = "", seed: int | None = None, sample: int = 0) -> Bot:
    # Imported when asked for: the policy needs numpy, which the other bots do not.
    from callbreak.bots.policy import PolicyBot

    return PolicyBot(path, seed=seed, sample=sample)


__all__ = [
    "AggressiveBot",
    "Bot",
    "CautiousBot",
    "DuckerBot",
    "ExpertBot",
    "ExpertV1Bot",
    "FamilySearchBot",
    "HeuristicBot",
    "MctsBot",
    "RandomBot",
    "TrumperBot",
    "available_bots",
    "make_bot",
    "refusal",
    "register_bot",
    "warm_up",
]
