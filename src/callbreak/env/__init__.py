"""Reinforcement-learning faces of the engine (``pip install 'callbreak[rl]'``).

* ``env(preset, players=n)`` / ``CallBreakEnv``: a PettingZoo AEC env per preset
  (``ENV_PRESETS``: every preset), at any seat count its game allows;
* ``SingleSeat``: a Gymnasium env for one learner against registered bots;
* ``BatchCallBreak``: many Call Break tables stepped at once on the compiled kernel;
* ``Encoder``: the observation vector and the action table they share (its module
  docstring documents every field);
* ``callbreak.env.spiel`` (imported on its own: it needs OpenSpiel): every preset as an
  OpenSpiel game.

Every face reads a seat's ``Observation`` and nothing else (DESIGN.md's first wall).
"""

from callbreak.env.aec import ENV_PRESETS, CallBreakEnv, env
from callbreak.env.batch import BatchCallBreak
from callbreak.env.encoding import Encoder
from callbreak.env.single import SingleSeat

__all__ = ["ENV_PRESETS", "BatchCallBreak", "CallBreakEnv", "Encoder", "SingleSeat", "env"]
