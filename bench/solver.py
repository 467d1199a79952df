"""Perfect-information solver and belief sampler speed: milliseconds per solve, worlds per second.

Positions come from random deals played at random to 13, 8 and 4 tricks left
(the same positions every run for a given seed).  Each is solved for the seat
to play, one against three (``Solver.solve``: the most tricks it can force).
A solve that needs more than ``--node-limit`` nodes is stopped and counted,
and its time up to the stop enters the figures, which are then lower bounds.
The compiled (numba) solver is measured after its one-off compilation, which
is reported apart; the plain-Python solver on the small endings.  The
sampler's figure is worlds per second from random mid-deal observations,
calls weighed in, and again with the play weighed too.

With ``--threads 1,2`` (the default) the whole deals are solved again by a
solver with a helper thread (``Solver(threads=2)``), whose node counts are
both threads' together.

    python bench/solver.py [--deals 100] [--node-limit 20000000] [--seed 1] [--threads 1,2]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import time

from callbreak import Match, Rules
from callbreak.bots.search.sampler import WorldSampler
from callbreak.bots.search.solver import NodeLimitExceeded, Solver, numba_available
from callbreak.bots.search.world import World
from callbreak.engine.deal import play_rules, shuffled_hands
from callbreak.engine.fast import PlayState, random_card


def positions(rules: Rules, left: int, count: int, seed: int) -> list[World]:
    """``count`` positions at a trick boundary with ``left`` tricks to play."""
    fast = play_rules(rules)
    rng = random.Random(seed * 1000 + left)
    worlds = []
    for _ in range(count):
        state = PlayState(fast, shuffled_hands(4, rng.randrange(4), rng), rng.randrange(4))
        while state.tricks_left > left:
            state.play(random_card(state.legal(), rng.random()))
        worlds.append(
            World(
                fast,
                tuple(state.hands),
                state.leader,
                tuple(state.trick),
                tuple(state.tricks),
                state.trump_played,
            )
        )
    return worlds


def measure(solver: Solver, worlds: list[World]) -> tuple[list[float], list[int], int]:
    """Milliseconds and nodes per solve, and how many solves hit the node limit."""
    times: list[float] = []
    nodes: list[int] = []
    stopped = 0
    for world in worlds:
        before = solver.nodes
        start = time.perf_counter()
        try:
            solver.solve(world, world.to_act)
        except NodeLimitExceeded:
            stopped += 1
        times.append((time.perf_counter() - start) * 1000)
        nodes.append(solver.nodes - before)
    return times, nodes, stopped


def report(label: str, times: list[float], nodes: list[int], stopped: int) -> None:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    note = f", {stopped} stopped at the node limit" if stopped else ""
    print(
        f"  {label}: mean {statistics.mean(times):9.2f} ms  p95 {p95:9.2f} ms  "
        f"median {statistics.median(times):8.2f} ms  max {ordered[-1]:9.1f} ms  "
        f"nodes mean {statistics.mean(nodes):11.0f}  ({len(times)} positions{note})"
    )


def sampler_rate(
    rules: Rules, seconds: float, seed: int, surprise: float | None = None
) -> tuple[float, int]:
    """Worlds per second over random observations taken 1 to 10 tricks into a deal; with
    ``surprise``, worlds kept (each picked from 16 candidates weighed by the play)."""
    rng = random.Random(seed)
    observations = []
    for _ in range(20):
        match = Match(rules, seed=rng.getrandbits(32))
        stop = rng.randrange(4, 44)
        while not (match.deal.phase == "play" and len(match.deal.history) * 4 >= stop):
            match.act(rng.choice(match.legal()))
        observations.append(match.observation(rng.randrange(4)))
    samplers = [WorldSampler(o, surprise=surprise) for o in observations]
    for sampler in samplers:
        sampler.draw(1, rng)  # compiles the kernels, off the clock
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for sampler in samplers:
            done += len(sampler.draw(10, rng))
    return done / (time.perf_counter() - start), len(observations)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="positions per depth")
    parser.add_argument("--node-limit", type=int, default=20_000_000, help="nodes per solve")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="callbreak", help="preset")
    parser.add_argument("--depths", default="13,8,4", help="tricks left, comma-separated")
    parser.add_argument("--python-deals", type=int, default=20, help="plain-Python endings")
    parser.add_argument(
        "--threads", default="1,2", help="threads for the whole deals, comma-separated"
    )
    args = parser.parse_args()

    rules = Rules.preset(args.rules)
    depths = [int(d) for d in args.depths.split(",")]
    print(
        f"{platform.python_implementation()} {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} cpus; rules {args.rules}; seed {args.seed}"
    )
    if numba_available():
        start = time.perf_counter()
        solver = Solver(compiled=True, node_limit=args.node_limit)
        solver.solve(positions(rules, 2, 1, 0)[0], 0)
        print(f"compiled solver (numba): compiling took {time.perf_counter() - start:.1f} s")
        for left in depths:
            worlds = positions(rules, left, args.deals, args.seed)
            report(f"{left:2d} tricks left", *measure(solver, worlds))
            more = [int(t) for t in args.threads.split(",") if int(t) > 1] if left == 13 else []
            for threads in more:
                team = Solver(compiled=True, node_limit=args.node_limit, threads=threads)
                report(f"13 tricks left, {threads} threads", *measure(team, worlds))
    else:
        print("compiled solver: numba is not installed (pip install numba)")
    if args.python_deals > 0:
        plain = Solver(compiled=False, node_limit=args.node_limit)
        print("plain-Python solver:")
        for left in [d for d in depths if d <= 4] or [4]:
            worlds = positions(rules, left, args.python_deals, args.seed)
            report(f"{left:2d} tricks left", *measure(plain, worlds))
    rate, observed = sampler_rate(rules, 2.0, args.seed)
    print(f"belief sampler: {rate:,.0f} worlds/s (calls weighed; {observed} observations)")
    rate, observed = sampler_rate(rules, 2.0, args.seed, surprise=0.02)
    print(
        f"belief sampler weighing the play: {rate:,.0f} worlds/s kept, {rate * 16:,.0f} "
        f"candidates/s (surprise 0.02, 16 candidates a world; {observed} observations)"
    )


if __name__ == "__main__":
    main()
