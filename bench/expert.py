"""The expert against its own budget: decision times, decisions over it, peak memory.

Plays ``--deals`` deal sets (each in all four rotations) of the expert against
three heuristics in this one process, after the expert's one-off warm-up (the
numba compile, which the arena also does before a game's first decision).
Prints the speed of the compiled policy playouts, then the expert's decision
times: p50, p99 and the slowest, how many went over the budget and over the
budget plus 10%, and the process's peak resident memory (the solver's table,
numba and the sampler included).

    python bench/expert.py [--budget-ms 1000] [--deals 3] [--rules callbreak] [--seed 1]
"""

from __future__ import annotations

import argparse
import platform
import random
import resource
import statistics
import sys
import time

from callbreak.arena.play import ArenaConfig, ChunkTask, play_chunk
from callbreak.bots import make_bot, warm_up
from callbreak.rules import Rules


def playout_speed(rules: Rules, deals: int = 2000, seed: int = 1) -> float:
    """Microseconds per whole-deal playout of the compiled heuristic policy."""
    import numpy

    from callbreak.bots.search import rollout
    from callbreak.engine.deal import play_rules, shuffled_hands

    fast = play_rules(rules)
    rng = random.Random(seed)
    worlds = numpy.array([shuffled_hands(4, i % 4, rng) for i in range(deals)], numpy.int64)
    calls = numpy.full((deals, 4), 3, numpy.int64)
    voids = numpy.zeros(4, numpy.int64)
    out = numpy.zeros((deals, 1, 4), numpy.int64)
    playouts = rollout.compiled()
    playouts.call_tricks(fast, worlds[:1], 0, calls[:1], voids, 0, 3, out[:1])  # compiled
    started = time.perf_counter()
    playouts.call_tricks(fast, worlds, 0, calls, voids, 0, 3, out)
    return (time.perf_counter() - started) / deals * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget-ms", type=int, default=1000, help="the expert's budget_ms")
    parser.add_argument("--deals", type=int, default=3, help="deal sets (x4 rotations)")
    parser.add_argument("--rules", default="callbreak", help="a preset: callbreak, callbridge...")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    spec = f"expert:budget_ms={args.budget_ms}"
    rules = Rules.preset(args.rules)
    started = time.perf_counter()
    warm_up(make_bot(spec))
    print(f"warm-up (numba compile): {time.perf_counter() - started:.1f} s", file=sys.stderr)

    print(f"policy playouts: {playout_speed(rules):.1f} µs a deal")
    config = ArenaConfig(
        rules, (spec, "heuristic", "heuristic", "heuristic"), args.deals, args.seed
    )
    times: list[float] = []
    for index in range(args.deals):
        chunk = play_chunk(ChunkTask.of(config, index, index + 1))
        times.extend(chunk.times_ms[0])
        print(f"deal set {index + 1}/{args.deals}", file=sys.stderr, end="\r")
    print(file=sys.stderr)

    budget = float(args.budget_ms)
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    over = sum(1 for t in times if t > budget)
    over_10 = sum(1 for t in times if t > 1.1 * budget)
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{platform.python_implementation()} {platform.python_version()}, rules {args.rules}")
    print(f"expert budget {args.budget_ms} ms, {len(times)} decisions")
    print(
        f"p50 {statistics.median(times):.1f} ms, p99 {p99:.1f} ms, max {ordered[-1]:.1f} ms "
        f"({ordered[-1] / budget:.0%} of the budget)"
    )
    print(f"over the budget: {over}; over the budget + 10%: {over_10}")
    print(f"peak resident memory: {peak_mib:.0f} MiB")


if __name__ == "__main__":
    main()
