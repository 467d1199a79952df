"""A seat's chance of winning the match from the totals after a deal: the value the family
search plays for when it sits in a match.

Points for the deal are the wrong thing to maximise near a match's end.  In Donut a
seat two points from zero with a rival at one must stay in and take tricks whatever
its hand; in Call Partner a side near 500 needs only a made contract, not a big one.
So a played-out world is valued by the share of the match the seat would win from the
totals it leaves: exactly where the deal ends the match (the game's own end facts:
``ends_at_zero``, a ``target:N`` or a number of deals, ``lowest_wins``), and otherwise
over a fixed set of futures, each a run of later deals whose points are drawn from
deals the heuristic played at every seat of the same rules.

The futures are drawn once and kept (common random numbers), so two totals are always
compared over the same futures and the value is a plain function of the totals: the
difference between two actions in one world is never the noise of two draws.  Every
future is summed ahead of time (``numpy`` cumulative sums), so one value costs a few
array operations, and the search remembers the values of the totals it has seen.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from callbreak.bots.heuristic import HeuristicBot
from callbreak.engine import Deal, Observation
from callbreak.rules import Rules

FUTURES = 256
"""Futures each value is read over: a step of 1/256 is finer than any action's effect."""
POOL = 160
"""Deals played by heuristics at every seat, whose points make up the futures."""
_LONGEST = 160
"""The most deals a future runs (a match still open after them goes to the leader)."""


def _ends(rules: Rules) -> tuple[str, int] | None:
    """How a match of these rules ends, as ``(kind, number)``: ``zero`` (a countdown),
    ``target`` (first to a total) or ``deals`` (a number of them); None where these odds do not
    apply (an open match, fixed sides, a schedule of hand sizes)."""
    game = rules.shape
    if game.partnerships or game.schedule is not None:
        return None
    if game.ends_at_zero:
        return ("zero", 0)
    if rules.match_end == "deals":
        return ("deals", rules.match_deals)
    if rules.match_end.startswith("target:"):
        return ("target", int(rules.match_end.split(":")[1]) * 10)
    return None


def _pool(rules: Rules, deals: int) -> np.ndarray:
    """Points in tenths of ``deals`` deals played by the heuristic at every seat, one row a
    deal, column ``j`` the seat ``j`` places after the dealer."""
    n = rules.players
    rows = np.zeros((deals, n), dtype=np.int64)
    for index in range(deals):
        dealer = index % n
        deal = Deal(rules, seed=10_007 * index + 1, dealer=dealer)
        players = [HeuristicBot(seed=index * n + s) for s in range(n)]
        while deal.to_act is not None:
            seat = deal.to_act
            deal.act(players[seat].act(deal.observation(seat)))
        points = deal.points or ()
        for seat, value in enumerate(points):
            rows[index, (seat - dealer) % n] = value.tenths
    return rows


class MatchOdds:
    """The share of the match each seat would win, for the rules of one table."""

    def __init__(self, rules: Rules, ends: tuple[str, int], seed: int = 0) -> None:
        self.players = rules.players
        self.lowest_wins = rules.shape.lowest_wins
        self.kind, self.number = ends
        self.pool = _pool(rules, POOL)
        longest = self.number if self.kind == "deals" else _LONGEST
        rng = np.random.default_rng(seed)
        self.picks = rng.integers(0, len(self.pool), size=(FUTURES, longest))
        self._sums: dict[int, np.ndarray] = {}
        if self.kind != "deals":  # run no further than the slowest future from the start
            start = np.full(self.players, rules.shape.start * 10, dtype=np.int64)
            self.picks = self.picks[:, : self._needed(start)]
            self._sums = {}

    def _summed(self, dealer: int) -> np.ndarray:
        """Each future's running totals of points, ``[future, deals played, seat]``, for
        futures whose first deal ``dealer`` deals (the dealer moves one seat a deal)."""
        sums = self._sums.get(dealer)
        if sums is None:
            n = self.players
            steps = np.arange(self.picks.shape[1])[:, None]
            place = (np.arange(n)[None, :] - dealer - steps) % n  # [deal, seat]
            points = self.pool[self.picks[:, :, None], place[None, :, :]]
            sums = self._sums[dealer] = np.cumsum(points, axis=1)
        return sums

    def _ended(self, totals: np.ndarray) -> np.ndarray:
        """Whether each row of totals (the last axis: the seats) ends the match."""
        if self.kind == "zero":
            return np.asarray((totals <= 0).any(axis=-1))
        return np.asarray((totals >= self.number).any(axis=-1))

    def _needed(self, totals: np.ndarray) -> int:
        """Deals after which every future from ``totals`` has ended (at most ``_LONGEST``)."""
        ended = self._ended(totals + self._summed(0))
        last = np.where(ended.any(axis=1), ended.argmax(axis=1), ended.shape[1] - 1)
        return int(min(_LONGEST, last.max() + 2))

    def shares(self, totals: Sequence[int], deals_left: int, dealer: int) -> np.ndarray:
        """Each seat's expected share of the match (ties shared) from ``totals`` in tenths
        after a deal, with ``deals_left`` deals to play in a match of a number of them and
        ``dealer`` dealing the next deal."""
        now = np.asarray(totals, dtype=np.int64)
        if self.kind == "deals":
            if deals_left <= 0:
                return np.asarray(self._split(now[None, :])[0])
            final = now + self._summed(dealer)[:, min(deals_left, self.picks.shape[1]) - 1, :]
            return np.asarray(self._split(final).mean(axis=0))
        if self._ended(now):
            return np.asarray(self._split(now[None, :])[0])
        paths = now + self._summed(dealer)
        ended = self._ended(paths)
        at = np.where(ended.any(axis=1), ended.argmax(axis=1), paths.shape[1] - 1)
        final = paths[np.arange(len(paths)), at]
        return np.asarray(self._split(final).mean(axis=0))

    def _split(self, final: np.ndarray) -> np.ndarray:
        """Each seat's share of each row's match: 1 to a sole winner, shared by a tie."""
        best = final.min(axis=1) if self.lowest_wins else final.max(axis=1)
        top = final == best[:, None]
        return np.asarray(top / top.sum(axis=1, keepdims=True))


_CACHE: dict[Rules, MatchOdds | None] = {}


def odds_for(rules: Rules) -> MatchOdds | None:
    """The table's odds, made once per rules in a process (None where they do not apply)."""
    if rules not in _CACHE:
        ends = _ends(rules)
        _CACHE[rules] = None if ends is None else MatchOdds(rules, ends)
    return _CACHE[rules]


def match_value(observation: Observation) -> MatchValue | None:
    """The value of finished worlds for this decision, or None where the deal's points decide
    instead: a deal on its own, a tie-break deal, or rules these odds do not model."""
    if observation.totals is None or observation.counting_seats is not None:
        return None
    odds = odds_for(observation.rules)
    return None if odds is None else MatchValue(observation, odds)


class MatchValue:
    """What a finished world is worth to the seat: its share of the match from the totals
    the deal leaves, remembered per totals within one decision."""

    def __init__(self, observation: Observation, odds: MatchOdds) -> None:
        self.seat = observation.seat
        self.odds = odds
        self.before = [t.tenths for t in observation.totals or ()]
        number = observation.deal_number or 1
        self.deals_left = odds.number - number if odds.kind == "deals" else 0
        self.dealer = (observation.dealer + 1) % observation.players
        self._seen: dict[tuple[int, ...], float] = {}
        self._instant = observation.rules.shape.wins_at_once

    def __call__(self, deal: Deal) -> float:
        """The seat's share of the match after the finished ``deal`` (0 to 1)."""
        if self._instant is not None:
            winner = self._instant(deal)
            if winner is not None:
                return 1.0 if winner == self.seat else 0.0
        points = deal.points or ()
        after = tuple(b + p.tenths for b, p in zip(self.before, points, strict=True))
        value = self._seen.get(after)
        if value is None:
            shares = self.odds.shares(after, self.deals_left, self.dealer)
            value = self._seen[after] = float(shares[self.seat])
        return value
