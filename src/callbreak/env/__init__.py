"""Reinforcement-learning faces of the engine (``pip install 'callbreak[rl]'``).

* ``env(preset, players=n)`` / ``CallBreakEnv``: a PettingZoo AEC env per preset
  (``ENV_PRESETS``: every preset), at any seat count its game allows;
* ``SingleSeat``: a Gymnasium env for one learner against registered bots;
* ``BatchCallBreak``: many Call Break tables stepped at once on the compiled kernel;
* ``Encoder``: the observation vector and the action table they share (its module
  docstring documents every field);
* ``callbreak.env.spiel`` (imported on its own: it needs OpenSpiel): every preset as an
  OpenSpiel game.

What an agent gets is a seat's ``Observation``, encoded, and nothing else (docs/design.md's
first wall).  On the engine path the vector is built from the ``Observation`` itself; the
compiled kernels (the batch env, and the AEC env's ``fast`` path in the four-seat call
games) write the same vector from that seat's own hand and the public play, and the tests
step them beside the engine, vector for vector.
"""

from callbreak.bots.encoding import Encoder
from callbreak.env.aec import ENV_PRESETS, CallBreakEnv, env
from callbreak.env.batch import BatchCallBreak
from callbreak.env.single import SingleSeat

__all__ = ["ENV_PRESETS", "BatchCallBreak", "CallBreakEnv", "Encoder", "SingleSeat", "env"]
