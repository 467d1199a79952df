"""The observation vector and the action table: ``callbreak.bots.encoding``, named here too.

The encoder moved below the bots, so that the ``rl`` bot (``bots.policy``) reads the vector
without importing the envs that seat it; its module docstring lists every field.
"""

from callbreak.bots.encoding import SCORE_CLIP, Encoder, Mask, Vector

__all__ = ["SCORE_CLIP", "Encoder", "Mask", "Vector"]
