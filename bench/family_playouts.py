"""Speed of the family search's playouts: ``finish`` over whole deals, heuristic at every seat.

The expert of the family games (``FamilySearchBot``) plays as many sampled worlds as its
budget allows, each world finished by ``family_search.finish``; this times that function
alone, on whole seeded deals from the first decision (so every phase's policy is in the
figure, not only the card play).  Each table is timed in ``--rounds`` rounds of ``--deals``
deals and the best round is kept, in the process's CPU time: on a shared machine that is the
figure least disturbed by other work.  Each round deals other seeds, so that no memo of the
policies (the five-card hand evaluations are remembered) carries one round's work into the
next.  Run it against another checkout's code with ``PYTHONPATH=that/src`` to compare, back
to back on the same machine.

    python bench/family_playouts.py [--deals 300] [--rounds 3] [--tables snarples@3,...]
"""

from __future__ import annotations

import argparse
import time

from callbreak import Deal, Rules
from callbreak.bots.family_search import finish
from callbreak.bots.heuristic import HeuristicBot

TABLES = (
    "snarples@3",
    "snarples@5",
    "snarples@8",
    "donut@4",
    "donut@6",
    "horsethief@3",
    "horsethief@5",
    "batak-ihale",
    "rook-call-partner",
)
"""The games the family search plays, at the seat counts the speed work was judged on."""


def table_rules(table: str) -> Rules:
    """``preset`` or ``preset@players``."""
    preset, _, players = table.partition("@")
    rules = Rules.preset(preset)
    return rules.replace(players=int(players)) if players else rules


def one_round(rules: Rules, deals: int, first: int) -> float:
    """CPU seconds of this process to ``finish`` ``deals`` deals seeded from ``first`` on (each
    deal and its players are made off the clock, one at a time, as the search makes them)."""
    n = rules.players
    clock = time.process_time
    total = 0.0
    for seed in range(first, first + deals):
        deal = Deal(rules, seed=seed, dealer=seed % n)
        players = [HeuristicBot(seed=s) for s in range(n)]
        started = clock()
        finish(deal, players)
        total += clock() - started
    return total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=300, help="deals a round (default 300)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, best kept (default 3)")
    parser.add_argument(
        "--tables", default=",".join(TABLES), help="comma-separated preset[@players] list"
    )
    args = parser.parse_args()
    print(f"{'preset':<20} {'seats':>5} {'ms/deal':>9} {'deals':>6}")
    for table in args.tables.split(","):
        rules = table_rules(table)
        one_round(rules, 2, -2)  # imports and first-use caches off the clock
        best = min(one_round(rules, args.deals, r * args.deals) for r in range(args.rounds))
        preset = table.partition("@")[0]
        print(f"{preset:<20} {rules.players:>5} {best / args.deals * 1000:>9.3f} {args.deals:>6}")


if __name__ == "__main__":
    main()
