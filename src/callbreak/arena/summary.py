"""Per-bot statistics of an arena run, aggregated by bot spec.

The same spec may sit in several seats of the lineup (``heuristic`` against
three ``random``); its figures pool all the games of all its entries.

What the figures mean (docs/arena.md says the same):

* **points / deal** — mean points per game, with a 95% Student-t interval
  whose standard error comes from the *deal-set means*: for each deal set the
  bot's mean over all its games in that set (every rotation, every entry).
  Deal sets are independent draws; the games inside one are not (they share
  the cards), so treating them as independent would make the interval too narrow.
* **edge** — the paired, duplicate comparison: for each deal set, the bot's
  mean minus the mean of the other specs' games on the same cards, then the
  mean and t interval of those differences.  The luck of the cards cancels
  in the difference, so the edge needs far fewer deals than the raw means to
  separate two bots.  (Absent when every seat runs the same spec.)
* **matches won** — consecutive deal sets are grouped into matches of
  ``match_deals`` deals (the rules' value, 5 unless changed); within one
  rotation an entry keeps its seat, so each group is a real match with the
  dealer moving round.  The entry with the highest total wins it; a tie
  splits the win equally.  A spec's share is its entries' wins divided by
  the matches its entries played (25% is par at a four-seat table).  A last
  group shorter than ``match_deals`` is not counted.
* **made** — share of games in which the call was made under the rules'
  ``success_window``; **call − tricks** is its signed mean (positive: the
  bot called more than it took).  The calibration table breaks both down by call.
* **decision ms** — p50, p99 and max of the wall time of every ``bot.act``.
* **illegal** — answers the engine refused (each replaced by a random legal action).
* **timeouts** — answers from remote seats that came too late (replaced the same way).
* **fallbacks** — decisions a bot answered with a stand-in's move and said so
  (its ``fell_back``: the expert when its search had no time, or a remote
  ``serve-bot`` that sent the heuristic's answer, its ``X-Fallback`` header);
  every one is a weaker move, so the share is reported beside the times.
* **rating** — openskill Plackett–Luce, each game a four-player free-for-all
  ranked by points, games rated in deal-set then rotation order (so the
  ratings do not depend on the worker count).  Each entry is rated as its
  own player; a spec shows the mean of its entries' μ and σ.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from callbreak.arena.runner import ArenaRun
from callbreak.arena.stats import Interval, mean, mean_ci, percentile


@dataclass(frozen=True)
class CalibrationRow:
    """How a bot fared with one call value."""

    call: int
    count: int
    made_rate: float
    mean_tricks: float


@dataclass
class BotStats:
    """Every figure the arena reports for one bot spec."""

    spec: str
    entries: tuple[int, ...]
    games: int
    points: Interval
    edge: Interval | None
    matches: int
    match_share: float | None
    made_rate: float | None
    """Share of its calls (or contracts, as declarer) made; None if it had none."""
    mean_call_minus_tricks: float | None
    calibration: list[CalibrationRow]
    decisions: int
    decision_ms: dict[str, float] | None
    illegal: int
    misdeal_claims: int
    rating_mu: float
    rating_sigma: float
    points_per_game: list[float] = field(repr=False, default_factory=list)
    timeouts: int = 0
    """Answers that came too late (remote seats), each replaced by a random legal action."""
    fallbacks: int = 0
    """Decisions answered by a stand-in (the bot's ``fell_back``), a weaker move each."""

    def json(self) -> dict[str, Any]:
        return {
            "spec": self.spec,
            "entries": list(self.entries),
            "games": self.games,
            "points_per_deal": self.points.json(),
            "edge_vs_others": None if self.edge is None else self.edge.json(),
            "matches": self.matches,
            "match_share": self.match_share,
            "made_rate": self.made_rate,
            "mean_call_minus_tricks": self.mean_call_minus_tricks,
            "calibration": [
                {
                    "call": row.call,
                    "count": row.count,
                    "made_rate": row.made_rate,
                    "mean_tricks": row.mean_tricks,
                }
                for row in self.calibration
            ],
            "decisions": self.decisions,
            "decision_ms": self.decision_ms,
            "illegal": self.illegal,
            "timeouts": self.timeouts,
            "fallbacks": self.fallbacks,
            "misdeal_claims": self.misdeal_claims,
            "rating": {"mu": self.rating_mu, "sigma": self.rating_sigma},
        }


@dataclass
class ArenaSummary:
    """The run's settings, one ``BotStats`` per spec, and the rating trajectory."""

    run: ArenaRun
    bots: list[BotStats]
    rating_history: list[tuple[int, dict[str, float]]]
    """(deal sets played, mean μ by spec): the prior, then after each deal set."""
    redeals: int
    redraws: int

    def json(self) -> dict[str, Any]:
        """A JSON-ready summary (what ``callbreak arena --json`` prints)."""
        config = self.run.config
        changed = {
            k: (v.json() if hasattr(v, "json") else v) for k, v in config.rules.changed().items()
        }
        return {
            "rules": config.rules.name,
            "options": changed,
            "seats": list(config.seats),
            "deals": config.deals,
            "games": config.deals * config.players,
            "seed": config.seed,
            "match_deals": config.rules.match_deals,
            "workers": self.run.workers,
            "backend": self.run.backend,
            "wall_s": self.run.wall_s,
            "redeals": self.redeals,
            "redraws": self.redraws,
            "confidence": (
                "95% Student-t interval; standard error from the per-deal-set means "
                "(points) and per-deal-set paired differences (edge)"
            ),
            "bots": [bot.json() for bot in self.bots],
            "illegal_examples": list(self.run.illegal_examples),
        }


def _specs(seats: tuple[str, ...]) -> dict[str, tuple[int, ...]]:
    """Specs in lineup order, each with the entries it occupies."""
    out: dict[str, list[int]] = {}
    for entry, spec in enumerate(seats):
        out.setdefault(spec, []).append(entry)
    return {spec: tuple(entries) for spec, entries in out.items()}


def _ratings(
    run: ArenaRun, specs: dict[str, tuple[int, ...]]
) -> tuple[dict[str, tuple[float, float]], list[tuple[int, dict[str, float]]]]:
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    players = run.config.players
    sign = better(run)
    ratings = [model.rating(name=str(entry)) for entry in range(players)]
    history = [(0, {s: mean([ratings[e].mu for e in es]) for s, es in specs.items()})]
    for played, result in enumerate(run.sets, start=1):
        for game in result.games:
            teams = model.rate(
                [[ratings[e]] for e in range(players)],
                scores=[sign * game.plays[e].points_tenths for e in range(players)],
            )
            ratings = [team[0] for team in teams]
        history.append((played, {s: mean([ratings[e].mu for e in es]) for s, es in specs.items()}))
    final = {
        spec: (mean([ratings[e].mu for e in es]), mean([ratings[e].sigma for e in es]))
        for spec, es in specs.items()
    }
    return final, history


def better(run: ArenaRun) -> int:
    """+1 where more points are better, -1 in the countdown games (Snarples, Donut), whose
    edges, ratings and wins are read the other way round."""
    return -1 if run.config.rules.shape.lowest_wins else 1


def _match_credits(run: ArenaRun) -> tuple[list[float], int]:
    """Wins by entry (ties split) and matches per entry, over every rotation."""
    config = run.config
    players = config.players
    size = config.rules.match_deals
    groups = len(run.sets) // size
    credits = [0.0] * players
    for group in range(groups):
        sets = run.sets[group * size : (group + 1) * size]
        for rotation in range(players):
            totals = [
                sum(s.games[rotation].plays[e].points_tenths for s in sets) for e in range(players)
            ]
            best = max(totals) if better(run) > 0 else min(totals)
            winners = [e for e in range(players) if totals[e] == best]
            for e in winners:
                credits[e] += 1.0 / len(winners)
    return credits, groups * players


def summarize(run: ArenaRun) -> ArenaSummary:
    """Turn the games of a run into the per-spec figures described in this module's docstring."""
    config = run.config
    specs = _specs(config.seats)
    final, history = _ratings(run, specs)
    credits, matches_each = _match_credits(run)
    bots = []
    for spec, entries in specs.items():
        mine = set(entries)
        set_means: list[float] = []
        edges: list[float] = []
        points: list[float] = []
        calls: dict[int, list[tuple[int, bool]]] = defaultdict(list)
        made = 0
        over = 0
        committed = 0
        claims = 0
        for result in run.sets:
            own: list[float] = []
            others: list[float] = []
            for game in result.games:
                for play in game.plays:
                    value = play.points_tenths / 10
                    if play.entry in mine:
                        own.append(value)
                        if play.call is not None:
                            kept = bool(play.made)
                            calls[play.call].append((play.tricks, kept))
                            made += kept
                            over += play.call - play.tricks
                            committed += 1
                    else:
                        others.append(value)
                claims += sum(game.claims[e] for e in entries)
            points.extend(own)
            set_means.append(mean(own))
            if others:
                edges.append(better(run) * (mean(own) - mean(others)))
        times = [t for e in entries for t in run.times_ms[e]]
        decision_ms = (
            {
                "p50": percentile(times, 50),
                "p99": percentile(times, 99),
                "max": max(times),
            }
            if times
            else None
        )
        calibration = [
            CalibrationRow(
                call,
                len(rows),
                sum(m for _, m in rows) / len(rows),
                mean([t for t, _ in rows]),
            )
            for call, rows in sorted(calls.items())
        ]
        matches = matches_each * len(entries)
        bots.append(
            BotStats(
                spec=spec,
                entries=entries,
                games=len(points),
                points=mean_ci(set_means),
                edge=mean_ci(edges) if edges else None,
                matches=matches,
                match_share=(sum(credits[e] for e in entries) / matches) if matches else None,
                made_rate=made / committed if committed else None,
                mean_call_minus_tricks=over / committed if committed else None,
                calibration=calibration,
                decisions=len(times),
                decision_ms=decision_ms,
                illegal=sum(run.illegal[e] for e in entries),
                misdeal_claims=claims,
                rating_mu=final[spec][0],
                rating_sigma=final[spec][1],
                points_per_game=points,
                timeouts=sum(run.timeouts[e] for e in entries) if run.timeouts else 0,
                fallbacks=sum(run.fallbacks[e] for e in entries) if run.fallbacks else 0,
            )
        )
    redeals = sum(game.redeals for result in run.sets for game in result.games)
    redraws = sum(result.deal.redraws for result in run.sets)
    return ArenaSummary(run, bots, history, redeals, redraws)
