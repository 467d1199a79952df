"""A candidate against a pool of opponents: every mix of the other seats drawn from the pool.

A bot tuned against three copies of one opponent can be strong there and weak
at any other table.  ``callbreak arena --pool NAME... --candidate SPEC`` seats
the candidate in the first lineup entry and fills the other seats with every
*mix* drawn from the pool, each mix played as an ordinary arena run
(``arena.play``: duplicate deal sets, the lineup rotated over every seat).
Every mix plays the same deal sets (the deals derive from the seed alone), so
figures of different mixes are paired deal by deal.

Mixes of the ``players - 1`` other seats (three at Call Break), by ``mode``:

* ``repeat``: combinations with repetition, e.g. (cautious, cautious,
  trumper); ``n`` members give C(n + 2, 3) mixes (4 → 20, 5 → 35, 7 → 84).
  Includes the three-of-a-kind tables.
* ``distinct``: combinations without repetition, C(n, 3) (5 → 10, 7 → 35).
* ``uniform``: one table per member, three copies of it (n mixes).
* ``auto`` (the default): ``repeat`` for a pool of at most ``AUTO_REPEAT_MAX``
  members, ``distinct`` for a larger one.

Per mix (the candidate is lineup entry 0, its figures are its own games):

* **edge** — for each deal set the candidate's mean points over its games
  minus the mean of the mix's seats on the same games; mean ± 95% Student-t
  interval over deal sets (``arena.stats.mean_ci``), as the arena's edge.
* **made** and **call − won** — share of the candidate's calls made (under the
  rules' ``success_window``) and its mean call minus tricks won.
* **won** — share of the matches it won (ties shared), counted as the arena
  counts them (``summary.match_credits``): groups of consecutive deal sets, or
  with ``whole_matches`` each deal set the start of a whole match.

Then the **worst mix** (lowest mean edge), the edge over the **whole pool**
(per deal set, the mean of the edges over all mixes), and the edge over
**each member**: per deal set, the candidate's points minus that member's
points, averaged over every mix it sits in.  In the countdown games every
edge counts the other way round, as the arena's does.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from callbreak.arena.errors import ArenaError
from callbreak.arena.play import ArenaConfig, lineup
from callbreak.arena.runner import ArenaRun, Progress, run_arenas
from callbreak.arena.stats import Interval, mean, mean_ci, percentile
from callbreak.arena.summary import better, match_credits
from callbreak.bots import refusal
from callbreak.bots.ladder import LADDER
from callbreak.rules import Rules

STYLES: tuple[str, ...] = ("cautious", "aggressive", "ducker", "trumper")
"""The style bots of ``bots.styles``."""

POOLS: dict[str, tuple[str, ...]] = {
    "styles": STYLES,
    "default": ("heuristic", *STYLES, "expert-plain", "selfplay", "mcts"),
    "ladder": LADDER,
}
"""Named pools: a name given to ``--pool`` stands for these bot specs."""

MIX_MODES: tuple[str, ...] = ("auto", "repeat", "distinct", "uniform")

AUTO_REPEAT_MAX = 5
"""``auto`` mixes with repetition up to this many members (35 mixes), without beyond."""


def expand_pool(names: Sequence[str]) -> tuple[str, ...]:
    """Pool names (``POOLS``) and bot specs → the pool's bot specs, each once, in order.

    An item may hold several names separated by spaces (``"cautious ducker"``);
    a comma cannot separate them, since it separates a spec's options.

    >>> expand_pool(["styles", "heuristic", "ducker"])
    ('cautious', 'aggressive', 'ducker', 'trumper', 'heuristic')
    """
    specs: list[str] = []
    for item in names:
        for word in item.split():
            specs.extend(POOLS.get(word, (word,)))
    if not specs:
        raise ArenaError("the pool is empty: name a pool (" + ", ".join(POOLS) + ") or bots")
    return tuple(dict.fromkeys(specs))


def playable_pool(names: Sequence[str], rules: Rules) -> tuple[tuple[str, ...], list[str]]:
    """``expand_pool(names)`` less the members of a *named* pool that cannot play ``rules``'
    game, and a line on each one left out: ``default`` holds ``selfplay``, a policy learned
    on Call Break, which a pool in Oh Hell can do without.  A bot named on its own is kept,
    so that the lineup's check says why it cannot play."""
    named = {spec for item in names for word in item.split() for spec in POOLS.get(word, ())}
    given = {word for item in names for word in item.split() if word not in POOLS}
    kept: list[str] = []
    notes: list[str] = []
    for spec in expand_pool(names):
        why = refusal(spec, rules) if spec in named and spec not in given else None
        if why is None:
            kept.append(spec)
        else:
            notes.append(f"left {spec!r} out of the pool: {why}")
    if not kept:
        raise ArenaError("no member of the pool can play " + rules.name)
    return tuple(kept), notes


def mix_mode(pool_size: int, mode: str) -> str:
    """The mode ``mode`` stands for with a pool of ``pool_size`` members (resolves ``auto``)."""
    if mode not in MIX_MODES:
        raise ArenaError(f"unknown mix mode {mode!r}: choose one of {', '.join(MIX_MODES)}")
    if mode == "auto":
        return "repeat" if pool_size <= AUTO_REPEAT_MAX else "distinct"
    return mode


def mixes(pool: Sequence[str], mode: str, seats: int = 3) -> list[tuple[str, ...]]:
    """Every mix of ``seats`` opponents drawn from ``pool`` (see the module's docstring).

    >>> mixes(["a", "b", "c"], "repeat", 2)
    [('a', 'a'), ('a', 'b'), ('a', 'c'), ('b', 'b'), ('b', 'c'), ('c', 'c')]
    >>> mixes(["a", "b", "c"], "distinct", 2), mixes(["a", "b"], "uniform", 2)
    ([('a', 'b'), ('a', 'c'), ('b', 'c')], [('a', 'a'), ('b', 'b')])
    """
    mode = mix_mode(len(pool), mode)
    if mode == "repeat":
        return list(itertools.combinations_with_replacement(pool, seats))
    if mode == "uniform":
        return [(spec,) * seats for spec in pool]
    if len(pool) < seats:
        raise ArenaError(
            f"mixes without repetition need at least {seats} bots in the pool, not {len(pool)}"
        )
    return list(itertools.combinations(pool, seats))


def mix_count(pool_size: int, mode: str, seats: int = 3) -> int:
    """How many mixes ``mixes`` gives, without listing them."""
    mode = mix_mode(pool_size, mode)
    if mode == "repeat":
        return math.comb(pool_size + seats - 1, seats)
    if mode == "uniform":
        return pool_size
    return math.comb(pool_size, seats)


@dataclass(frozen=True)
class PoolConfig:
    """What to play: the candidate against every mix of ``pool`` on ``deals`` deal sets."""

    rules: Rules
    candidate: str
    pool: tuple[str, ...]
    deals: int
    seed: int = 0
    mode: str = "auto"
    whole_matches: bool = False
    """Each deal set the start of a whole match (``ArenaConfig.whole_matches``)."""

    def __post_init__(self) -> None:
        if self.deals < 1:
            raise ArenaError(f"play at least one deal, not {self.deals}")
        if not self.pool:
            raise ArenaError("the pool is empty")
        if self.rules.shape.partnerships:
            # the candidate's partner would be one of the mix, and its edge half the mix's own
            raise ArenaError(
                f"--pool measures one seat against the others, but {self.rules.title} is played "
                "by sides of partners: measure sides with --seat (one per side)"
            )
        mix_mode(len(self.pool), self.mode)  # an unknown mode is an error here

    @property
    def seats(self) -> int:
        """Seats the pool fills: every seat but the candidate's."""
        return self.rules.players - 1

    @cached_property
    def mixes(self) -> list[tuple[str, ...]]:
        return mixes(self.pool, self.mode, self.seats)

    def check(self) -> None:
        """Raise ``ArenaError`` naming the spec if the candidate or a pool member is unknown
        or does not play the game."""
        for spec in (self.candidate, *self.pool):
            lineup([spec], 1, rules=self.rules)

    def arena_configs(self) -> list[ArenaConfig]:
        """One arena run per mix, the candidate first, all on the same seed (the same deals)."""
        return [
            ArenaConfig(
                self.rules,
                (self.candidate, *mix),
                self.deals,
                self.seed,
                whole_matches=self.whole_matches,
            )
            for mix in self.mixes
        ]


@dataclass
class MixResult:
    """The candidate's figures against one mix."""

    mix: tuple[str, ...]
    edge: Interval
    points: Interval
    """The candidate's points per deal."""
    mix_points: float
    """The mix's mean points per deal (all its seats)."""
    made_rate: float | None
    call_minus_won: float | None
    calls: int
    """The candidate's calls (or contracts) in this mix, which ``made_rate`` counts."""
    games: int
    illegal: int
    """Answers the engine refused, by the candidate; the mix's seats' are in ``mix_illegal``."""
    mix_illegal: int
    fallbacks: int = 0
    """The candidate's decisions answered by a stand-in (its ``fell_back``)."""
    matches: int = 0
    won: float = 0.0
    """Matches the candidate played in this mix, and won (a shared win counts its share)."""
    edges: list[float] = field(repr=False, default_factory=list)
    """The per-deal-set edges behind ``edge``, in deal order."""
    member_edges: dict[str, list[float]] = field(repr=False, default_factory=dict)
    """Per deal set, the candidate's mean points minus each member's, by member."""
    times_ms: list[float] = field(repr=False, default_factory=list)

    @property
    def match_share(self) -> float | None:
        return self.won / self.matches if self.matches else None

    @property
    def clear(self) -> bool:
        """Whether the 95% interval of the edge lies above zero."""
        return self.edge.low is not None and self.edge.low > 0

    def json(self) -> dict[str, Any]:
        return {
            "mix": list(self.mix),
            "edge": self.edge.json(),
            "candidate_points_per_deal": self.points.json(),
            "mix_points_per_deal": self.mix_points,
            "made_rate": self.made_rate,
            "mean_call_minus_won": self.call_minus_won,
            "games": self.games,
            "illegal": self.illegal,
            "mix_illegal": self.mix_illegal,
            "fallbacks": self.fallbacks,
            "matches": self.matches,
            "match_share": self.match_share,
            "edges": self.edges,
        }


@dataclass
class PoolResult:
    """Every mix's figures, the worst mix, and the edges over the pool and each member."""

    config: PoolConfig
    mixes: list[MixResult]
    overall: Interval
    """Edge over the whole pool: per deal set, the mean of the mixes' edges."""
    members: dict[str, Interval]
    """Edge over each member, from every mix it sits in."""
    made_rate: float | None
    call_minus_won: float | None
    decision_ms: dict[str, float] | None
    """The candidate's decision times over every mix: p50, p99, max."""
    decisions: int
    fallbacks: int
    """The candidate's decisions over every mix, and those a stand-in answered."""
    workers: int
    backend: str
    wall_s: float

    @property
    def worst(self) -> MixResult:
        """The mix with the lowest mean edge (the first of equals, in mix order)."""
        return min(self.mixes, key=lambda m: m.edge.mean)

    @property
    def matches(self) -> int:
        """The candidate's matches over every mix."""
        return sum(m.matches for m in self.mixes)

    @property
    def match_share(self) -> float | None:
        """Share of all its matches the candidate won, shared wins counted as their share."""
        return sum(m.won for m in self.mixes) / self.matches if self.matches else None

    @property
    def par(self) -> float:
        """The share a bot wins by chance: one over the seats (no partnerships here)."""
        return 1 / self.config.rules.players

    def json(self) -> dict[str, Any]:
        config = self.config
        return {
            "rules": config.rules.name,
            "options": {
                k: (v.json() if hasattr(v, "json") else v)
                for k, v in config.rules.changed().items()
            },
            "candidate": config.candidate,
            "pool": list(config.pool),
            "mode": mix_mode(len(config.pool), config.mode),
            "deals_per_mix": config.deals,
            "whole_matches": config.whole_matches,
            "games": config.deals * config.rules.players * len(self.mixes),
            "seed": config.seed,
            "workers": self.workers,
            "backend": self.backend,
            "wall_s": self.wall_s,
            "confidence": (
                "95% Student-t interval over deal sets of the paired per-deal-set edges"
            ),
            "mixes": [m.json() for m in self.mixes],
            "worst_mix": self.worst.json(),
            "edge_vs_pool": self.overall.json(),
            "edge_vs_member": {spec: edge.json() for spec, edge in self.members.items()},
            "made_rate": self.made_rate,
            "mean_call_minus_won": self.call_minus_won,
            "decision_ms": self.decision_ms,
            "decisions": self.decisions,
            "fallbacks": self.fallbacks,
            "mixes_beaten": sum(m.clear for m in self.mixes),
            "matches": self.matches,
            "match_share": self.match_share,
            "par": self.par,
        }


def summarize_mix(mix: tuple[str, ...], run: ArenaRun) -> MixResult:
    """The candidate's (lineup entry 0's) figures in one mix's run."""
    sign = better(run)
    edges: list[float] = []
    own_means: list[float] = []
    others_all: list[float] = []
    by_member: dict[str, list[float]] = {spec: [] for spec in dict.fromkeys(mix)}
    made = committed = over = 0
    for result in run.sets:
        own: list[float] = []
        others: list[float] = []
        member_points: dict[str, list[float]] = {spec: [] for spec in by_member}
        for game in result.games:
            for play in game.plays:
                value = play.points_tenths / 10
                if play.entry == 0:
                    own.append(value)
                    if play.call is not None:
                        committed += 1
                        made += bool(play.made)
                        over += play.call - play.tricks
                else:
                    others.append(value)
                    member_points[mix[play.entry - 1]].append(value)
        own_means.append(mean(own))
        others_all.extend(others)
        edges.append(sign * (mean(own) - mean(others)))
        for spec, values in member_points.items():
            by_member[spec].append(sign * (mean(own) - mean(values)))
    credits, matches = match_credits(run)
    return MixResult(
        mix=mix,
        edge=mean_ci(edges),
        points=mean_ci(own_means),
        mix_points=mean(others_all),
        made_rate=made / committed if committed else None,
        call_minus_won=over / committed if committed else None,
        calls=committed,
        games=len(run.sets) * len(run.sets[0].games) if run.sets else 0,
        illegal=run.illegal[0] + (run.timeouts[0] if run.timeouts else 0),
        mix_illegal=sum(run.illegal[1:]) + (sum(run.timeouts[1:]) if run.timeouts else 0),
        fallbacks=run.fallbacks[0] if run.fallbacks else 0,
        matches=matches,
        won=credits[(0,)],
        edges=edges,
        member_edges=by_member,
        times_ms=list(run.times_ms[0]),
    )


def summarize_pool(config: PoolConfig, runs: Sequence[ArenaRun]) -> PoolResult:
    """Per-mix figures, then the pooled ones (see the module's docstring)."""
    results = [summarize_mix(mix, run) for mix, run in zip(config.mixes, runs, strict=True)]
    deals = len(results[0].edges)
    overall = mean_ci([mean([r.edges[i] for r in results]) for i in range(deals)])
    members: dict[str, Interval] = {}
    for spec in config.pool:
        sitting = [r.member_edges[spec] for r in results if spec in r.member_edges]
        if sitting:
            members[spec] = mean_ci([mean([edges[i] for edges in sitting]) for i in range(deals)])
    calls = sum(r.calls for r in results)
    made_rate = call_minus_won = None
    if calls:
        made_rate = sum((r.made_rate or 0.0) * r.calls for r in results) / calls
        call_minus_won = sum((r.call_minus_won or 0.0) * r.calls for r in results) / calls
    times = [t for r in results for t in r.times_ms]
    decision_ms = (
        {"p50": percentile(times, 50), "p99": percentile(times, 99), "max": max(times)}
        if times
        else None
    )
    first = runs[0]
    return PoolResult(
        config,
        results,
        overall,
        members,
        made_rate,
        call_minus_won,
        decision_ms,
        len(times),
        sum(r.fallbacks for r in results),
        first.workers,
        first.backend,
        first.wall_s,
    )


def run_pool(
    config: PoolConfig,
    workers: int | None = None,
    *,
    ray_address: str | None = None,
    progress: Progress | None = None,
) -> PoolResult:
    """Play the candidate against every mix (one pool of workers for all) and summarize.

    ``progress`` is called with deal sets finished, ``config.deals`` per mix in all.
    """
    runs = run_arenas(config.arena_configs(), workers, ray_address=ray_address, progress=progress)
    return summarize_pool(config, runs)
