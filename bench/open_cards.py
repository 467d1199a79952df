"""How much better the expert's card play would be if its beliefs were perfect.

A ceiling for the belief side of the search, measured the way the arena's
pool measures the expert: for each pool member, the candidate in one seat and
three of the member in the others, each deal set played in all four seat
rotations (the arena's deals and bot seeds for the same ``--seed``).  Every
deal set is played twice: by the expert as it is, and by the same expert
whose card search is handed the others' true hands instead of sampled worlds
(every world it plays out is the real one; its calls are still its own, from
sampled worlds).  The second bot is a measuring device that breaks the
hidden-information wall on purpose and lives only in this script: no face or
registry can seat it.

Printed per member: the expert's edge (points a deal over the three others'
mean), the open-card expert's, and the gain, paired deal set by deal set,
with 95% intervals.  If the gain against a member is small, no belief model
can buy much there and the rest of the gap is the play and the calls.

    python bench/open_cards.py [--rules callbreak-bhoos] [--pool default] [--deals 40]
                               [--seed 16] [--options deterministic=1,worlds=32,call_worlds=48]
                               [--workers 2]
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
from callbreak.bots.search.world import World, world_from_observation
from callbreak.engine import Action, Observation
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


class OpenCardsExpert(ExpertBot):
    """The expert whose card search plays out the true deal: this script shows it the
    others' hands before each of its decisions (``reveal``)."""

    name = "expert-open-cards"

    def __init__(self, seed: int | None = None, **options: Any) -> None:
        super().__init__(seed=seed, **options)
        self._hands: list[int] | None = None

    def reveal(self, hands: Sequence[int]) -> None:
        self._hands = list(hands)

    def _sampler(self, observation: Observation) -> Any:
        if self._hands is None:
            raise RuntimeError("reveal the hands before each decision")
        return _TrueWorld(observation, self._hands)


def _game(config: ArenaConfig, index: int, rotation: int, open_cards: bool) -> list[float]:
    """Points by lineup entry of one rotation of deal set ``index``: the arena's game (its
    deal, match seed and bot seeds), with the open-card expert in entry 0 if asked."""
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
    while not match.over and not match.scored_deals:
        seat = match.to_act
        assert seat is not None
        bot = bots[seat]
        if isinstance(bot, OpenCardsExpert):
            bot.reveal(match.deal.hands)
        action: Action = bot.act(match.observation(seat))
        match.act(action)
    points = match.scored_deals[-1].deal.points
    assert points is not None
    return [points[seat_of(entry, rotation, players)].tenths / 10 for entry in range(players)]


def _edges(task: tuple[ArenaConfig, int]) -> tuple[float, float]:
    """The candidate's edge on one deal set, as it is and with open cards."""
    config, index = task
    out = []
    for open_cards in (False, True):
        own, others = [], []
        for rotation in range(config.players):
            points = _game(config, index, rotation, open_cards)
            own.append(points[0])
            others.extend(points[1:])
        out.append(mean(own) - mean(others))
    return out[0], out[1]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="callbreak-bhoos", help="preset (Call Break rules)")
    parser.add_argument("--pool", default="default", help="pool name or space-separated specs")
    parser.add_argument("--deals", type=int, default=40, help="deal sets per member")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--options", default=OPTIONS, help="the expert's options, both bots")
    parser.add_argument("--workers", type=int, default=2, help="processes to play in")
    args = parser.parse_args(argv)
    candidate = f"expert:{args.options}" if args.options else "expert"
    try:
        rules = Rules.preset(args.rules)
        if rules.game != "callbreak":
            raise ValueError(f"the expert plays the Call Break rules only, not {rules.title}")
        members = expand_pool(args.pool.split())
        for member in members:
            lineup([candidate, member, member, member], rules.players)
        _measure(rules, candidate, members, args.deals, args.seed, args.workers)
    except ValueError as error:
        parser.error(str(error))


def _measure(
    rules: Rules, candidate: str, members: Sequence[str], deals: int, seed: int, workers: int
) -> None:
    print(f"{rules.name}, {candidate}, {deals} deal sets per member, seed {seed}")
    started = time.perf_counter()
    print(f"{'three of':16} {'expert':>14} {'open cards':>14} {'gain':>14}")
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for member in members:
            config = ArenaConfig(rules, (candidate, member, member, member), deals, seed)
            pairs = list(pool.map(_edges, [(config, i) for i in range(deals)]))
            plain = mean_ci([p for p, _ in pairs])
            shown = mean_ci([o for _, o in pairs])
            gain = mean_ci([o - p for p, o in pairs])
            cells = (f"{i.mean:+.2f} ± {i.half_width or 0:.2f}" for i in (plain, shown, gain))
            print(f"{member:16}", *(f"{c:>14}" for c in cells))
            sys.stdout.flush()
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
