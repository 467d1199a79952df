"""Search for the bots: belief sampling, the perfect-information solver, the worlds they share.

Only engine, cards and rules are imported here (plus the heuristic hand
evaluation the sampler weighs calls with); numba and numpy are optional and
imported lazily by the solver when present.
"""

from callbreak.bots.search.solver import (
    Solver,
    can_reach,
    default_solver,
    min_tricks,
    move_values,
    solve,
)
from callbreak.bots.search.world import World, world_from_observation

__all__ = [
    "Solver",
    "World",
    "can_reach",
    "default_solver",
    "min_tricks",
    "move_values",
    "solve",
    "world_from_observation",
]
