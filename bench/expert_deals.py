"""Call Break deals played by four experts: the examples of the call model's second stage.

The first stage of the learned call model (``bench/train_call_model.py``) learns from deals
the compiled heuristic plays at every seat: a forecast of the *heuristic's* tricks, which
the expert used to shift by hand (``call_bias``, ``call_spread``).  This script plays whole
deals with the expert at all four seats instead (``expert:preset=fixed``: fixed world counts,
so the same answers on every machine), each seat calling and playing as the expert does,
and keeps every seat's hand, its place after the first leader, its call and the tricks it
won: what the expert really takes with a hand against players as strong as itself.

Each ``--seeds`` value is one stream of ``--deals`` deals (its own shuffles, its own bots),
run in a process of its own, so the streams play side by side on several cores and their
rows come out in the order of the seeds whatever the cores do.  Thrown-in deals are skipped.

    PYTHONPATH=src python bench/expert_deals.py --deals 2500 --seeds 11 12 13 14 --out deals.npz

About 0.4 s a deal on one core of the project's 2-core machine: the defaults (four
streams of 2,500 deals, 9,474 played) took 32 minutes on its two cores.  The shipped model
(``callmodel-2026-11-29.npz``) was tuned on exactly these defaults.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np

from callbreak.bots import make_bot, warm_up
from callbreak.engine import Deal
from callbreak.rules import Rules

Array = Any
SPEC = "expert:preset=fixed"
"""The expert at the fixed world counts of the experiments (docs/expert-experiments.md)."""


def stream(spec: str, seed: int, deals: int) -> Array:
    """``rows[i] = (hand mask, place after the first leader, call, tricks won)``, four rows
    a deal played, for ``deals`` deals shuffled from ``seed`` (dealer turning each deal)."""
    rules = Rules.preset("callbreak")
    bots = [make_bot(spec, seed=seed * 10 + seat) for seat in range(4)]
    for bot in bots:
        warm_up(bot)
    shuffles = random.Random(seed)
    rows: list[tuple[int, int, int, int]] = []
    started = time.perf_counter()
    for number in range(deals):
        deal = Deal(rules, dealer=number % 4, seed=shuffles.getrandbits(62))
        hands = list(deal.hands)
        while not deal.over:
            seat = deal.to_act
            assert seat is not None
            deal.act(bots[seat].act(deal.observation(seat)))
        calls = deal.calls
        if any(call is None for call in calls):  # thrown in: nothing was played
            continue
        leader = (deal.dealer + 1) % 4
        for seat in range(4):
            call = calls[seat]
            assert call is not None
            rows.append((hands[seat], (seat - leader) % 4, call, deal.tricks[seat]))
        if (number + 1) % 250 == 0:
            spent = time.perf_counter() - started
            print(f"  seed {seed}: {number + 1} deals in {spent:.0f} s", file=sys.stderr)
    return np.array(rows, np.int64).reshape(-1, 4)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=2500, help="deals in each stream")
    parser.add_argument(
        "--seeds", type=int, nargs="+", default=[11, 12, 13, 14], help="one per stream"
    )
    parser.add_argument("--bot", default=SPEC, help="the bot at every seat")
    parser.add_argument("--out", type=Path, required=True, help="the .npz file to write")
    args = parser.parse_args()
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=len(args.seeds)) as pool:
        streams = len(args.seeds)
        parts = list(pool.map(stream, [args.bot] * streams, args.seeds, [args.deals] * streams))
    rows = np.concatenate(parts)
    np.savez_compressed(args.out, rows=rows, seeds=np.array(args.seeds), deals=args.deals)
    spent = time.perf_counter() - started
    print(f"{len(rows)} examples ({len(rows) // 4} deals played) in {spent:.0f} s: {args.out}")


if __name__ == "__main__":
    main()
