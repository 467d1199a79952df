"""Search for the bots: belief sampling, the perfect-information solver, the worlds they share.

``sample_worlds`` deals the hidden cards from an ``Observation`` as the public
record allows; ``WorldSampler`` can also weigh the worlds by how well they
explain the others' play (``surprise``); ``Solver`` answers one-seat-against-
three questions about each such ``World`` exactly.  Only engine, cards and
rules are imported here (the sampler weighs calls with
``trickplay.estimate_tricks`` and the play with ``rollout``'s policy, imported
when used); numba and numpy are optional and imported lazily, by the solver
and by the compiled kernels of ``rollout`` and ``belief``.
"""

from callbreak.bots.search.sampler import WorldSampler, constraints, sample_hands, sample_worlds
from callbreak.bots.search.solver import (
    NodeLimitExceeded,
    Solver,
    can_reach,
    default_solver,
    min_tricks,
    move_values,
    numba_available,
    solve,
)
from callbreak.bots.search.world import World, world_from_observation

__all__ = [
    "NodeLimitExceeded",
    "Solver",
    "World",
    "WorldSampler",
    "can_reach",
    "constraints",
    "default_solver",
    "min_tricks",
    "move_values",
    "numba_available",
    "sample_hands",
    "sample_worlds",
    "solve",
    "world_from_observation",
]
