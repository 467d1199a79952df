"""Steps per second of the RL envs, beside OpenSpiel's ``spades`` driven from Python.

Run: ``.venv/bin/python bench/env.py [--seconds S] [--tables N]``.  Every loop picks
uniformly random legal actions and reads each decision's observation vector, as a
learner would; a step is one decision (a call or a card), dealing is included in the
time.  OpenSpiel is skipped with a message when ``pyspiel`` is missing (``callbreak[bench]``).
"""

from __future__ import annotations

import argparse
import platform
import random
import time

import numpy as np

from callbreak.env import BatchCallBreak, env
from callbreak.rules import Rules


def aec_steps(seconds: float) -> float:
    """The PettingZoo AEC env: ``last()`` (observation and mask), then ``step``."""
    e = env("callbreak")
    rng = random.Random(0)
    e.reset(seed=0)
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


def batch_steps(seconds: float, tables: int) -> tuple[float, bool]:
    """The batch env: one compiled call steps every table (random legal actions by numpy)."""
    b = BatchCallBreak(tables, Rules.preset("callbreak"), seed=0)
    _, mask = b.reset()
    _, mask, _, _ = b.step(np.argmax(mask, axis=1))  # compile before timing
    rng = np.random.default_rng(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        # +1 keeps a legal action above the illegal ones even when its draw is exactly 0.
        actions = np.argmax(mask * (rng.random(mask.shape, np.float32) + 1), axis=1)
        _, mask, _, _ = b.step(actions)
        steps += tables
    return steps / (time.perf_counter() - start), b.compiled


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
    print(f"AEC env (PettingZoo, callbreak)      {aec:>12,.0f} steps/s")
    batch, compiled = batch_steps(args.seconds, args.tables)
    how = "numba" if compiled else "plain Python: pip install callbreak[fast]"
    print(f"batch env ({args.tables} tables, {how}) {batch:>12,.0f} steps/s")
    spades = spades_steps(args.seconds)
    if spades is None:
        print("OpenSpiel spades: skipped, pyspiel is not installed (pip install callbreak[bench])")
        return
    print(f"OpenSpiel spades, observation tensor {spades[0]:>12,.0f} steps/s")
    print(f"OpenSpiel spades, actions only       {spades[1]:>12,.0f} steps/s")
    print(f"AEC / spades (with observations)      {aec / spades[0]:>11.2f}x")
    print(f"batch / spades (with observations)    {batch / spades[0]:>11.1f}x")


if __name__ == "__main__":
    main()
