"""How long the review by playouts with the hands shown takes, one deal of each game.

For each game the solver does not play, one match of heuristic bots is played
(seed ``--seed``) and every played-out deal is reviewed for every seat
(``Analyst.deal``, the review of ``callbreak analyze``, of ``r`` at the terminal
and of the browser's Review); the figure is the time to review one deal for all
its seats, mean and slowest over the match's deals, in this process (nothing is
compiled: the playouts are plain Python).

    python bench/playout_review.py [--seed 1]
"""

from __future__ import annotations

import argparse
import time

from callbreak import Match, Rules
from callbreak.analysis import Analyst, played_deals
from callbreak.bots.heuristic import HeuristicBot

GAMES = (
    ("batak-ihale", 4),
    ("rook-call-partner", 4),
    ("snarples", 5),
    ("donut", 6),
    ("horsethief", 3),
    ("oh-hell", 4),
)


def played_match(rules: Rules, seed: int) -> Match:
    """A whole match of heuristic bots."""
    match = Match(rules, seed)
    bots = [HeuristicBot(seed=seed + s) for s in range(rules.players)]
    while not match.over:
        seat = match.to_act
        assert seat is not None
        match.act(bots[seat].act(match.observation(seat)))
    return match


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    seed = parser.parse_args().seed
    analyst = Analyst(expert=None)
    for name, players in GAMES:
        rules = Rules.preset(name)
        if rules.players != players:
            rules = rules.replace(players=players)
        deals = played_deals(played_match(rules, seed))
        spent = []
        for number, deal in deals:
            started = time.perf_counter()
            for seat in range(deal.players):
                review = analyst.deal(deal, seat, number)
            spent.append(time.perf_counter() - started)
        print(
            f"{name:18} {players} seats {len(spent):3} deals ({review.method}): every seat of a "
            f"deal {sum(spent) / len(spent):.2f} s mean, {max(spent):.2f} s slowest"
        )


if __name__ == "__main__":
    main()
