"""The linear softmax policy and the ``rl`` bot: ``callbreak.bots.policy``, named here too.

They moved below the envs with the encoder, so that the bots' registry makes an ``rl`` bot
without importing the env layer that imports the bots.
"""

from callbreak.bots.policy import Floats, LinearPolicy, PolicyBot

__all__ = ["Floats", "LinearPolicy", "PolicyBot"]
