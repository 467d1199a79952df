"""Decision time of the fast bots in every game of the family, and the Rook bid fit.

Each bot plays whole deals of each preset against copies of itself through the
public ``Deal``; every ``act`` call is timed (the observation is built outside
the clock) and the mean, 99th percentile and maximum per game per bot are
printed, with the mean points per seat (countdown games: lower is better).  The
five-card games are played at every seat count (``snarples@7`` names one).  The
first decision of each bot is made before timing starts, so a one-off import is
not counted as thinking.

    python bench/family_bots.py [--deals 200] [--presets batak-ihale,snarples@7,...]
        [--bots random,...]
    python bench/family_bots.py --calibrate [--deals 400]

``--calibrate`` plays heuristic Call Partner deals and fits the bidding side's
points against the declarer's estimated tricks (as dealt): the slope and
intercept are what ``callbreak.bots.rook`` uses as ``TRICK_POINTS`` and
``HELP_POINTS``.
"""

from __future__ import annotations

import argparse
import statistics
import time

from callbreak import Deal, Rules
from callbreak.bots import Bot, make_bot
from callbreak.bots import rook as rook_policy
from callbreak.games.rook import points_taken

FIVE_CARD = tuple(
    f"{game}@{n}"
    for game, seats in (
        ("snarples", range(3, 9)),
        ("donut", range(4, 7)),
        ("horsethief", range(3, 6)),
    )
    for n in seats
)
"""The five-card games at every seat count they allow (``preset@players``)."""
FAMILY = ("callbreak", "batak-ihale", "batak-koz-maca", "rook-call-partner", *FIVE_CARD)


def table_rules(table: str) -> Rules:
    """``preset`` or ``preset@players`` (the seat count of a game that has it as an option)."""
    preset, _, players = table.partition("@")
    rules = Rules.preset(preset)
    return rules.replace(players=int(players)) if players else rules


def timed_deals(preset: str, spec: str, deals: int) -> tuple[list[float], list[float]]:
    """Seconds per decision and points per seat over ``deals`` deals of ``spec`` at every seat
    (``preset`` may name its seat count: ``snarples@7``)."""
    rules = table_rules(preset)
    n = rules.players
    times: list[float] = []
    points: list[float] = []
    clock = time.perf_counter
    for number in range(-1, deals):
        bots: list[Bot] = [make_bot(spec, seed=number * n + s) for s in range(n)]
        deal = Deal(rules, seed=number, dealer=number % n)
        while deal.to_act is not None:
            seat = deal.to_act
            observation = deal.observation(seat)
            started = clock()
            action = bots[seat].act(observation)
            elapsed = clock() - started
            if number >= 0:  # deal -1 warms every code path up off the record
                times.append(elapsed)
            deal.act(action)
        if number >= 0 and deal.points is not None:
            points.extend(float(p.json()) for p in deal.points)
    return times, points


def report(presets: list[str], specs: list[str], deals: int) -> None:
    print(f"{'game':<20} {'bot':<10} {'decisions':>9} {'mean ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for preset in presets:
        for spec in specs:
            times, points = timed_deals(preset, spec, deals)
            ms = sorted(t * 1000 for t in times)
            p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
            print(
                f"{preset:<20} {spec:<10} {len(ms):>9} {statistics.mean(ms):>8.3f} "
                f"{p99:>8.3f} {ms[-1]:>8.3f}   mean points {statistics.mean(points):.2f}"
            )


def calibrate(deals: int) -> None:
    """Fit side points = slope x estimated tricks + intercept on heuristic self-play."""
    rules = Rules.preset("rook-call-partner")
    xs: list[float] = []
    ys: list[float] = []
    made = 0
    for number in range(deals):
        bots = [make_bot("heuristic", seed=number * 4 + s) for s in range(4)]
        deal = Deal(rules, seed=number, dealer=number % 4)
        while deal.to_act is not None:
            seat = deal.to_act
            deal.act(bots[seat].act(deal.observation(seat)))
        declarer, contract = deal.declarer, deal.contract
        assert declarer is not None and contract is not None
        taken = points_taken(deal)
        ours = sum(
            taken[s] for s in {declarer, deal.partner if deal.partner is not None else declarer}
        )
        xs.append(rook_policy.estimate_tricks(deal.dealt[declarer]))
        ys.append(ours)
        made += ours >= contract
    fit = statistics.linear_regression(xs, ys)
    residuals = [y - (fit.slope * x + fit.intercept) for x, y in zip(xs, ys, strict=True)]
    print(f"deals {deals}: side points = {fit.slope:.1f} x tricks + {fit.intercept:.1f}")
    print(f"residual sd {statistics.pstdev(residuals):.1f}; contracts made {made / deals:.0%}")
    print(f"in use: TRICK_POINTS={rook_policy.TRICK_POINTS} HELP_POINTS={rook_policy.HELP_POINTS}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--presets", default=",".join(FAMILY))
    parser.add_argument("--bots", default="random,heuristic")
    parser.add_argument("--calibrate", action="store_true")
    args = parser.parse_args()
    if args.calibrate:
        calibrate(args.deals)
        return
    report(args.presets.split(","), args.bots.split(","), args.deals)


if __name__ == "__main__":
    main()
