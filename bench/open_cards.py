"""How much better the expert's play would be if its beliefs were perfect.

A ceiling for the belief side of the search, measured the way the arena's
pool measures the expert: for each pool member, the candidate in one seat and
the member in all the others, each deal set played in every seat rotation (the
arena's deals and bot seeds for the same ``--seed``).  Every deal set is
played twice: by the expert as it is, and by the same expert whose search is
handed the true deal instead of sampled worlds (every world it plays out is
the real one).  In the call games that is its card search (its calls are
still its own, from sampled worlds); in the other games of the family
(``--rules donut``, ``rook-call-partner``, ...) every decision of its family
search.  The second bot is a measuring device that breaks the
hidden-information wall on purpose and lives only in this script: no face or
registry can seat it.

Printed per member: the expert's edge (points a deal over the others' mean,
signed so that positive is better in the countdown games too), the open-card
expert's, and the gain, paired deal set by deal set, with 95% intervals; with
``--whole-matches``, each deal set is a match played to its end and the share
of matches each one won follows.  If the gain against a member is small, no
belief model can buy much there and the rest of the gap is the play and the
calls.

    python bench/open_cards.py [--rules callbreak-bhoos] [--pool default] [--deals 40]
                               [--seed 16] [--options deterministic=1,worlds=32,call_worlds=48]
                               [--players N] [--whole-matches] [--workers 2]
    python bench/open_cards.py --rules donut --pool heuristic --options budget_ms=100 \
                               --whole-matches --deals 40 --seed 2
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from callbreak.arena.play import (
    ArenaConfig,
    _bots,
    _derived_seed,
    deal_match,
    deal_set,
    lineup,
    seat_of,
)
from callbreak.arena.pool import expand_pool
from callbreak.arena.stats import mean, mean_ci
from callbreak.bots import warm_up
from callbreak.bots.base import parse_spec
from callbreak.bots.expert import ExpertBot
from callbreak.bots.family_search import FamilySearchBot
from callbreak.bots.search.family import FamilyWorlds
from callbreak.bots.search.world import World, world_from_observation
from callbreak.engine import Action, Deal, Observation
from callbreak.rules import Rules

OPTIONS = "deterministic=1,worlds=32,call_worlds=48"
"""Fixed world counts: the runs repeat exactly, whatever else the machine is doing."""


class _TrueWorld:
    """Stands in for the expert's ``WorldSampler``: every world it draws is the real one."""

    def __init__(self, observation: Observation, hands: Sequence[int]) -> None:
        self._hands = list(hands)
        self.template: World = world_from_observation(observation, self._hands)

    def draw_arrays(self, count: int, rng: object) -> tuple[Any, Any]:
        import numpy

        return numpy.array([self._hands] * count, numpy.int64), numpy.ones(count)


class _OpenFamilySearch(FamilySearchBot):
    """The family search whose every world is the true deal (``OpenCardsExpert.reveal``)."""

    deal: Deal | None = None

    def _draw(self, worlds: FamilyWorlds) -> tuple[Deal | None, float]:
        if self.deal is None:
            raise RuntimeError("reveal the deal before each decision")
        return self.deal.copy(), 1.0


class OpenCardsExpert(ExpertBot):
    """The expert whose search plays out the true deal: this script shows it the deal
    before each of its decisions (``reveal``)."""

    name = "expert-open-cards"

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        super().__init__(seed=seed, **options)
        family = _OpenFamilySearch.__new__(_OpenFamilySearch)
        family.__dict__.update(vars(self._family))  # the expert's own search, every setting
        self._family = self._open = family

    def reveal(self, deal: Deal) -> None:
        self._open.deal = deal

    def _sampler(self, observation: Observation) -> Any:
        if self._open.deal is None:
            raise RuntimeError("reveal the deal before each decision")
        return _TrueWorld(observation, self._open.deal.hands)


def _game(
    config: ArenaConfig, index: int, rotation: int, open_cards: bool
) -> tuple[list[float], list[float], float]:
    """One rotation of deal set ``index`` (the arena's game: its deal, match seed and bot
    seeds), with the open-card expert in entry 0 if asked: entry 0's points in each scored
    deal, the other entries', and entry 0's share of the match (0 outside whole matches).
    Points are signed so that more is better, and a seat that does not count in a deal (a
    tie-break deal) scores 0 there, as in the arena's figures."""
    deal = deal_set(config, index)
    players = config.players
    bots = _bots(config, index, rotation)
    if open_cards:
        seed = _derived_seed("callbreak-arena-bot", config.seed, index, rotation, 0) >> 31
        _, options = parse_spec(config.seats[0])
        bots[seat_of(0, rotation, players)] = OpenCardsExpert(seed=seed, **options)
    for bot in bots:
        warm_up(bot)
    match = deal_match(config, deal)
    while not match.over and (config.whole_matches or not match.scored_deals):
        seat = match.to_act
        assert seat is not None
        bot = bots[seat]
        if isinstance(bot, OpenCardsExpert):
            bot.reveal(match.deal)
        action: Action = bot.act(match.observation(seat))
        match.act(action)
    sign = -1.0 if config.rules.shape.lowest_wins else 1.0
    mine = seat_of(0, rotation, players)
    own: list[float] = []
    others: list[float] = []
    for scored in match.scored_deals if config.whole_matches else match.scored_deals[-1:]:
        points = scored.deal.points
        assert points is not None
        for seat in range(players):
            value = sign * points[seat].tenths / 10 if seat in scored.counting_seats else 0.0
            (own if seat == mine else others).append(value)
    winners = match.winners if config.whole_matches else ()
    return own, others, 1 / len(winners) if mine in winners else 0.0


def _edges(task: tuple[ArenaConfig, int]) -> tuple[float, float, float, float]:
    """The candidate's edge on one deal set, as it is and with open cards, then its share
    of the matches won in each way (0 outside whole matches)."""
    config, index = task
    edges, shares = [], []
    for open_cards in (False, True):
        own, others, won = [], [], []
        for rotation in range(config.players):
            mine, theirs, share = _game(config, index, rotation, open_cards)
            own.extend(mine)
            others.extend(theirs)
            won.append(share)
        edges.append(mean(own) - mean(others))
        shares.append(mean(won))
    return edges[0], edges[1], shares[0], shares[1]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="callbreak-bhoos", help="preset (any game)")
    parser.add_argument("--players", type=int, help="seats, where the preset allows several")
    parser.add_argument("--pool", default="default", help="pool name or space-separated specs")
    parser.add_argument("--deals", type=int, default=40, help="deal sets per member")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--options", default=OPTIONS, help="the expert's options, both bots")
    parser.add_argument(
        "--whole-matches", action="store_true", help="each deal set a match played to its end"
    )
    parser.add_argument("--workers", type=int, default=2, help="processes to play in")
    args = parser.parse_args(argv)
    candidate = f"expert:{args.options}" if args.options else "expert"
    try:
        rules = Rules.preset(args.rules)
        if args.players is not None:
            rules = rules.replace(players=args.players)
        members = expand_pool(args.pool.split())
        configs = [
            ArenaConfig(
                rules,
                lineup([candidate, *[member] * (rules.players - 1)], rules.players),
                args.deals,
                args.seed,
                whole_matches=args.whole_matches,
            )
            for member in members
        ]
        _measure(configs, candidate, args.workers)
    except ValueError as error:
        parser.error(str(error))


def _measure(configs: Sequence[ArenaConfig], candidate: str, workers: int) -> None:
    first = configs[0]
    whole = first.whole_matches
    print(
        f"{first.rules.name} at {first.players} seats, {candidate}, {first.deals} deal sets "
        f"per member{', each a whole match' if whole else ''}, seed {first.seed}"
    )
    started = time.perf_counter()
    shares = f" {'won':>6} {'open won':>9}" if whole else ""
    print(f"{'the others':16} {'expert':>14} {'open cards':>14} {'gain':>14}{shares}")
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for config in configs:
            rows = pool.map(_edges, [(config, i) for i in range(config.deals)])
            plain, shown, won, open_won = (list(column) for column in zip(*rows, strict=True))
            gain = [o - p for p, o in zip(plain, shown, strict=True)]
            cells = [
                f"{i.mean:+.2f} ± {i.half_width or 0:.2f}"
                for i in map(mean_ci, (plain, shown, gain))
            ]
            if whole:
                cells += [f"{mean(won):.0%}", f"{mean(open_won):.0%}"]
            widths = (14, 14, 14, 6, 9)[: len(cells)]
            print(
                f"{config.seats[1]:16}", *(f"{c:>{w}}" for c, w in zip(cells, widths, strict=True))
            )
            sys.stdout.flush()
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
