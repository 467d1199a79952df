"""The observation vector and the action table: ``callbreak.bots.encoding``, named here too.

The encoder moved to the bots, below the envs, so that the ``rl`` bot (``bots.policy``) reads it
without importing the envs that seat it; its module docstring lists every field.
"""

from callbreak.bots.encoding import SCORE_CLIP, Encoder, Mask, Vector

__all__ = ["SCORE_CLIP", "Encoder", "Mask", "Vector"]
