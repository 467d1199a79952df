"""Random-play whole deals per second: the public API, the fast path, and OpenSpiel.

Each engine deals, calls and plays whole deals with uniformly random legal
actions, driven from Python in the same way.  The engines take turns in short
rounds and the median round is reported, so background load hits all alike.

    python bench/engine.py [--seconds 1.0] [--rounds 5] [--presets all|NAME,...]

After the comparison it prints random-play deals/s through the public API for
every preset of the family (``--presets``), so a new game's cost is visible.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable

from callbreak import Deal, Rules
from callbreak.engine.deal import play_rules, shuffled_hands
from callbreak.engine.fast import PlayState, random_playout

Loop = Callable[[random.Random, float], int]


def public_api(rules: Rules) -> Loop:
    """Deals through ``Deal``: seeded shuffle, ``legal()`` and ``act()`` for calls and cards."""

    players = rules.players

    def loop(rng: random.Random, seconds: float) -> int:
        choice = rng.choice
        done = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            deal = Deal(rules, seed=rng.getrandbits(63), dealer=done % players)
            while deal.to_act is not None:
                deal.act(choice(deal.legal()))
            done += 1
        return done

    return loop


def fast_path(rules: Rules) -> Loop:
    """Deals through the search state: shuffle, random calls, ``PlayState`` playout, scores."""
    fast_rules = play_rules(rules)
    calls = range(rules.min_call, rules.max_call + 1)

    def loop(rng: random.Random, seconds: float) -> int:
        choice = rng.choice
        score = rules.score
        done = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            dealer = done & 3
            hands = shuffled_hands(4, dealer, rng)
            called = [choice(calls) for _ in range(4)]
            won = random_playout(PlayState(fast_rules, hands, (dealer + 1) & 3), rng)
            for seat in range(4):
                score(called[seat], won[seat])
            done += 1
        return done

    return loop


def compiled_kernel(rules: Rules) -> Loop | None:
    """The numba-compiled kernel (same rule source): deals, calls, plays and scores in batches."""
    try:
        import numpy

        from callbreak.engine.kernel import compiled, score_table
    except ImportError:
        return None
    try:
        kernel = compiled()
    except ImportError:
        return None
    fast_rules = play_rules(rules)
    scores = score_table(rules)
    totals = numpy.zeros(4, numpy.int64)
    kernel.random_deals(fast_rules, 1, 0, rules.min_call, rules.max_call, scores, totals)

    def loop(rng: random.Random, seconds: float) -> int:
        done = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            kernel.random_deals(
                fast_rules,
                1000,
                rng.getrandbits(31),
                rules.min_call,
                rules.max_call,
                scores,
                totals,
            )
            done += 1000
        return done

    return loop


def open_spiel_spades() -> Loop | None:
    """OpenSpiel's C++ ``spades`` from Python: chance deals, bids and plays, one deal a game."""
    return open_spiel_loop("spades", {})


TWINS: dict[str, tuple[str, dict[str, int]]] = {
    "spades": ("spades", {}),
    "oh-hell": ("oh_hell", {"players": 4, "num_tricks_fixed": 12}),
    "judgement": ("oh_hell", {"players": 4, "num_tricks_fixed": 7}),
}
"""Presets OpenSpiel also plays, with its game and parameters for the same deal as ours at
four seats (Oh Hell's first deal is 12 cards at four seats, Judgement's 7)."""


def open_spiel_loop(name: str, params: dict[str, int]) -> Loop | None:
    """Random play of one OpenSpiel game from Python, a deal a game; None without OpenSpiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(name, params)

    def loop(rng: random.Random, seconds: float) -> int:
        choice = rng.choice
        done = 0
        end = time.perf_counter() + seconds
        while time.perf_counter() < end:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(choice(state.chance_outcomes())[0])
                else:
                    state.apply_action(choice(state.legal_actions()))
            done += 1
        return done

    return loop


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one round")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per engine (median kept)")
    parser.add_argument("--rules", default="callbreak", help="preset for our engine")
    parser.add_argument(
        "--presets",
        default="all",
        help="presets timed through the public API after the comparison: all, none, or a "
        "comma-separated list",
    )
    args = parser.parse_args()

    rules = Rules.preset(args.rules)
    loops: dict[str, Loop] = {
        "callbreak public API (Deal.legal/act)": public_api(rules),
        "callbreak fast path (PlayState)": fast_path(rules),
    }
    kernel = compiled_kernel(rules)
    if kernel is not None:
        loops["callbreak compiled kernel (numba)"] = kernel
    spiel = open_spiel_spades()
    if spiel is not None:
        loops["OpenSpiel spades (C++, from Python)"] = spiel
    rates: dict[str, list[float]] = {name: [] for name in loops}
    rng = random.Random(1)
    for loop in loops.values():  # warm-up
        loop(rng, 0.2)
    for _ in range(args.rounds):
        for name, loop in loops.items():
            start = time.perf_counter()
            done = loop(rng, args.seconds)
            rates[name].append(done / (time.perf_counter() - start))

    print(
        f"Python {platform.python_version()} on {platform.machine()}, "
        f"{args.rounds} rounds of {args.seconds:g} s, median deals/s, rules {args.rules}"
    )
    medians = {name: statistics.median(values) for name, values in rates.items()}
    base = medians.get("OpenSpiel spades (C++, from Python)")
    for name, value in medians.items():
        ratio = f"  {value / base:5.2f}x OpenSpiel" if base else ""
        print(f"  {name:40s} {value:10,.0f}{ratio}")
    if base is None:
        print("  (install open_spiel to compare: pip install open_spiel)")
    if kernel is None:
        print("  (install numba for the compiled kernel: pip install numba)")
    if args.presets != "none":
        names = Rules.presets() if args.presets == "all" else args.presets.split(",")
        print_presets(names, args.seconds, args.rounds)


def print_presets(names: list[str], seconds: float, rounds: int) -> None:
    """Public-API random play for each preset, interleaved like the comparison above."""
    loops = {name: public_api(Rules.preset(name)) for name in names}
    rates: dict[str, list[float]] = {name: [] for name in loops}
    rng = random.Random(2)
    for loop in loops.values():
        loop(rng, 0.1)
    for _ in range(rounds):
        for name, loop in loops.items():
            start = time.perf_counter()
            done = loop(rng, seconds)
            rates[name].append(done / (time.perf_counter() - start))
    twins = {name: open_spiel_loop(*TWINS[name]) for name in names if name in TWINS}
    theirs: dict[str, list[float]] = {name: [] for name, loop in twins.items() if loop}
    for _ in range(rounds):
        for name in theirs:
            twin = twins[name]
            assert twin is not None
            start = time.perf_counter()
            done = twin(rng, seconds)
            theirs[name].append(done / (time.perf_counter() - start))
    print("Public API (Deal.legal/act), random play, median deals/s by preset:")
    for name, values in rates.items():
        ours = statistics.median(values)
        beside = ""
        if name in theirs:
            spiel = statistics.median(theirs[name])
            beside = f"  OpenSpiel {TWINS[name][0]} {spiel:10,.0f} ({ours / spiel:4.2f}x)"
        print(f"  {name:40s} {ours:10,.0f}{beside}")


if __name__ == "__main__":
    main()
