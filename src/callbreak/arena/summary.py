"""Per-bot statistics of an arena run, aggregated by bot spec.

The same spec may sit in several seats of the lineup (``heuristic`` against
three ``random``); its figures pool all the games of all its entries.

In a game with partnerships (Spades) the unit is a *side*, not a seat: its
partners share one score, so a side's game is one result, its edge is against
the other sides on the same cards, its matches are won as a side, and it is
rated as one openskill team.  A side is named by its entries' specs in lineup
order (``heuristic + random``, or ``heuristic ×2``); sides of the same specs pool their games as
one spec's entries do in a free-for-all.

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
  the matches its entries played (25% is par at a four-seat table, 50% for
  two sides).  A last
  group shorter than ``match_deals`` is not counted.  With ``whole_matches``
  every game is a match played to its end under the rules, and its winners
  are the engine's; points, edge, made and calibration then count every scored
  deal of those matches.
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
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from callbreak.arena.play import ArenaConfig, GameResult
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

    @property
    def by_side(self) -> bool:
        """Whether each row is a side of partners (a partnership game) rather than a bot."""
        return self.run.config.by_side

    @property
    def deals_per_match(self) -> float | None:
        """Mean scored deals of a whole match; None when every game is one deal."""
        if not self.run.config.whole_matches:
            return None
        games = [game for result in self.run.sets for game in result.games]
        return sum(game.deals for game in games) / len(games)

    @property
    def match_unit(self) -> str:
        """What a match of "matches won" is, in words, for the tables and the report."""
        config = self.run.config
        if not config.whole_matches:
            return f"{config.rules.match_deals} consecutive deals, one rotation"
        rules = config.game_rules
        if rules.shape.ends_at_zero:
            end = f"counted down from {rules.shape.start} to zero"
        elif rules.match_end.startswith("target:"):
            end = f"to {rules.match_end.split(':')[1]} points"
        else:
            end = f"of {rules.match_deals} deals"
        return f"whole matches {end}, {self.deals_per_match:.1f} deals on average"

    @property
    def par(self) -> float:
        """The share of matches a row wins by chance: one over the teams at the table."""
        return 1 / len(self.run.config.teams)

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
            "whole_matches": config.whole_matches,
            "deals_per_match": self.deals_per_match,
            "workers": self.run.workers,
            "backend": self.run.backend,
            "wall_s": self.run.wall_s,
            "redeals": self.redeals,
            "redraws": self.redraws,
            "confidence": (
                "95% Student-t interval; standard error from the per-deal-set means "
                "(points) and per-deal-set paired differences (edge)"
            ),
            "by": "side" if self.by_side else "bot",
            "sides": [list(team) for team in config.teams] if self.by_side else None,
            "bots": [bot.json() for bot in self.bots],
            "illegal_examples": list(self.run.illegal_examples),
        }


Team = tuple[int, ...]
"""Lineup entries that score as one: a side of partners, or one entry alone."""


def _units(config: ArenaConfig) -> dict[str, tuple[Team, ...]]:
    """The rows of the report in lineup order, each with its teams: one per spec in a
    free-for-all, one per side's specs (``heuristic + random``) in a partnership game."""
    out: dict[str, list[Team]] = {}
    for team in config.teams:
        out.setdefault(side_name([config.seats[e] for e in team]), []).append(team)
    return {name: tuple(teams) for name, teams in out.items()}


def side_name(specs: Sequence[str]) -> str:
    """A team's row name: its spec alone, ``heuristic ×2`` for copies of one bot, else the
    specs joined in lineup order (``heuristic + random``)."""
    if len(specs) > 1 and len(set(specs)) == 1:
        return f"{specs[0]} ×{len(specs)}"
    return " + ".join(specs)


def _team_tenths(game: GameResult, team: Team) -> list[int]:
    """A team's points in each scored deal of one game, in tenths: its first entry's, which
    its partners share (one deal, but in whole matches)."""
    return [play.points_tenths for play in game.plays if play.entry == team[0]]


def _ratings(
    run: ArenaRun, units: dict[str, tuple[Team, ...]]
) -> tuple[dict[str, tuple[float, float]], list[tuple[int, dict[str, float]]]]:
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    players = run.config.players
    teams = run.config.teams
    sign = better(run)
    ratings = [model.rating(name=str(entry)) for entry in range(players)]

    def mus() -> dict[str, float]:
        return {u: mean([ratings[e].mu for t in ts for e in t]) for u, ts in units.items()}

    history = [(0, mus())]
    for played, result in enumerate(run.sets, start=1):
        for game in result.games:
            rated = model.rate(
                [[ratings[e] for e in team] for team in teams],
                scores=[sign * sum(_team_tenths(game, team)) for team in teams],
            )
            for team, new in zip(teams, rated, strict=True):
                for entry, rating in zip(team, new, strict=True):
                    ratings[entry] = rating
        history.append((played, mus()))
    entries = {u: [e for t in ts for e in t] for u, ts in units.items()}
    final = {
        unit: (mean([ratings[e].mu for e in es]), mean([ratings[e].sigma for e in es]))
        for unit, es in entries.items()
    }
    return final, history


def better(run: ArenaRun) -> int:
    """+1 where more points are better, -1 in the countdown games (Snarples, Donut), whose
    edges, ratings and wins are read the other way round."""
    return -1 if run.config.rules.shape.lowest_wins else 1


def match_credits(run: ArenaRun) -> tuple[dict[Team, float], int]:
    """Wins by team (ties split) and matches per team, over every rotation: groups of
    ``match_deals`` single deals, or the engine's winners of whole matches."""
    config = run.config
    teams = config.teams
    if config.whole_matches:
        return _whole_match_credits(run)
    size = config.rules.match_deals
    groups = len(run.sets) // size
    credits = dict.fromkeys(teams, 0.0)
    for group in range(groups):
        sets = run.sets[group * size : (group + 1) * size]
        for rotation in range(config.players):
            totals = {
                team: sum(sum(_team_tenths(s.games[rotation], team)) for s in sets)
                for team in teams
            }
            best = max(totals.values()) if better(run) > 0 else min(totals.values())
            winners = [team for team in teams if totals[team] == best]
            for team in winners:
                credits[team] += 1.0 / len(winners)
    return credits, groups * config.players


def _whole_match_credits(run: ArenaRun) -> tuple[dict[Team, float], int]:
    """Wins by team from the engine's winners of each whole match (a shared win split)."""
    teams = run.config.teams
    credits = dict.fromkeys(teams, 0.0)
    for result in run.sets:
        for game in result.games:
            winners = [team for team in teams if set(team) & set(game.winners)]
            for team in winners:
                credits[team] += 1.0 / len(winners)
    return credits, len(run.sets) * run.config.players


def summarize(run: ArenaRun) -> ArenaSummary:
    """Turn the games of a run into the per-spec figures described in this module's docstring."""
    config = run.config
    units = _units(config)
    final, history = _ratings(run, units)
    credits, matches_each = match_credits(run)
    bots = []
    for spec, teams in units.items():
        entries = tuple(e for team in teams for e in team)
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
                for team in config.teams:
                    tenths = _team_tenths(game, team)
                    (own if team in teams else others).extend(t / 10 for t in tenths)
                for play in game.plays:
                    if play.entry in mine and play.call is not None:
                        kept = bool(play.made)
                        calls[play.call].append((play.tricks, kept))
                        made += kept
                        over += play.call - play.tricks
                        committed += 1
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
        matches = matches_each * len(teams)
        bots.append(
            BotStats(
                spec=spec,
                entries=entries,
                games=len(points),
                points=mean_ci(set_means),
                edge=mean_ci(edges) if edges else None,
                matches=matches,
                match_share=(sum(credits[t] for t in teams) / matches) if matches else None,
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
