"""Steps per second of the RL envs, beside OpenSpiel's ``spades`` driven from Python.

Run: ``.venv/bin/python bench/env.py [--seconds S] [--tables N]``.  A step is one
decision (a call or a card) at one table, with the observation vector and action mask
of the seat to act next; dealing is included in the time.  Every loop picks uniformly
random legal actions:

* AEC env: ``last()`` (observation and mask), a random choice from the mask in Python,
  ``step``.  Its deals play on the compiled kernel (``fast``, the default with numba);
  one deal before the clock starts compiles it.  Also with ``fast=False``: every step
  builds the engine's ``Observation`` and encodes it in Python, as the other games do;
  and with ``reward="match"`` (one episode is a match, booked by the engine's ``Match``).
* batch env: per call, ``random_actions`` (one compiled draw per table) then ``step``,
  which writes every table's next observation and mask into the env's arrays; steps =
  calls × tables.  Also with the tables on numba's threads (``parallel=True``), and with
  the actions drawn in numpy from the returned mask instead (``argmax`` of mask × noise,
  as a learner's own sampling might), to show what choosing outside the kernel costs.
* OpenSpiel spades: ``observation_tensor`` of the seat to act, a random legal action
  (and once more without the tensor).

OpenSpiel is skipped with a message when ``pyspiel`` is missing (``callbreak[bench]``).
"""

from __future__ import annotations

import argparse
import platform
import random
import time

import numpy as np

from callbreak.env import BatchCallBreak, env
from callbreak.env.batch import kernels
from callbreak.rules import Rules


def aec_steps(seconds: float, *, fast: bool = True, reward: str = "deal") -> float:
    """The PettingZoo AEC env: ``last()`` (observation and mask), then ``step``."""
    e = env("callbreak", fast=fast, reward=reward)
    rng = random.Random(0)
    e.reset(seed=0)
    for _ in e.agent_iter():  # one episode untimed: it compiles the kernel (numba)
        obs, _, term, _, _ = e.last()
        e.step(None if term else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        e.reset()
        for _ in e.agent_iter():
            obs, _, term, _, _ = e.last()
            if term:
                e.step(None)
                continue
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1
    return steps / (time.perf_counter() - start)


def batch_steps(
    seconds: float, tables: int, *, parallel: bool = False, numpy: bool = False
) -> float:
    """The batch env: one compiled call draws every table's action, one steps them all."""
    b = BatchCallBreak(tables, Rules.preset("callbreak"), seed=0, parallel=parallel)
    _, mask = b.reset()
    rng = np.random.default_rng(0)
    actions = np.empty(tables, np.int64)
    _, mask, _, _ = b.step(b.random_actions(rng, actions))  # compile before timing
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if numpy:
            # +1 keeps a legal action above the illegal ones even when its draw is exactly 0.
            actions = np.argmax(mask * (rng.random(mask.shape, np.float32) + 1), axis=1)
        else:
            b.random_actions(rng, actions)
        _, mask, _, _ = b.step(actions)
        steps += tables
    return steps / (time.perf_counter() - start)


def spades_steps(seconds: float) -> tuple[float, float] | None:
    """OpenSpiel's spades from Python: decisions/s with and without the observation tensor."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("spades")
    out = []
    for with_obs in (True, False):
        rng = random.Random(0)
        steps = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                    continue
                if with_obs:
                    state.observation_tensor(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        out.append(steps / (time.perf_counter() - start))
    return out[0], out[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    parser.add_argument("--tables", type=int, default=4096, help="tables in the batch env")
    args = parser.parse_args()
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    aec = aec_steps(args.seconds)
    show("AEC env (PettingZoo, callbreak)", aec)
    show("AEC env, fast=False (every step on the engine)", aec_steps(args.seconds, fast=False))
    show("AEC env, reward='match' (5-deal matches)", aec_steps(args.seconds, reward="match"))
    n = args.tables
    batch = batch_steps(args.seconds, n)
    threads = None
    if not kernels().compiled:
        show(f"batch env, {n} tables, plain Python: pip install numba", batch)
    else:
        import numba

        show(f"batch env, {n} tables, numba", batch)
        threads = batch_steps(args.seconds, n, parallel=True)
        show(f"batch env, {n} tables, numba, {numba.get_num_threads()} threads", threads)
        show(
            f"batch env, {n} tables, numba, actions by numpy",
            batch_steps(args.seconds, n, numpy=True),
        )
    spades = spades_steps(args.seconds)
    if spades is None:
        print("OpenSpiel spades: skipped, pyspiel is not installed (pip install callbreak[bench])")
        return
    show("OpenSpiel spades, observation tensor", spades[0])
    show("OpenSpiel spades, actions only", spades[1])
    print(f"{'AEC / spades (with observations)':<52}{aec / spades[0]:>10.2f}x")
    print(f"{'batch / spades (with observations)':<52}{batch / spades[0]:>10.1f}x")
    if threads is not None:
        print(f"{'batch on threads / spades':<52}{threads / spades[0]:>10.1f}x")


def show(label: str, steps: float) -> None:
    print(f"{label:<52}{steps:>12,.0f} steps/s")


if __name__ == "__main__":
    main()
