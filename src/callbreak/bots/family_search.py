"""The search for the games the Call Break expert does not model: every decision chosen by
the points it brings over sampled worlds.

Each world is a whole ``Deal`` at the seat's position (``search.family``).  Every
legal action is tried in every world, and the deal is finished by the heuristic's
own policy for every seat (``Game.policy``: Batak's, Call Partner's, the five-card
games'), so the same worlds weigh all actions alike and only the action differs.
In a match an action is worth the seat's share of the match from the totals the
deal leaves (``search.odds``: a rival at one point from zero in Donut matters
more than a trick); on a deal alone, its points for the deal, less ``rivalry``
times its rivals' mean (``deal_value``: the other sides' seats in Spades), with the sign
turned in the countdown games, where fewer points are better (``Game.lowest_wins``).
This one rule serves every decision: a bid or a pass, trump, the nest's discards, the
partner card, Snarples' bid, in or out and take or give, Donut's drop, Horsethief's in or
out and each card of its exchange, and the cards.

The budget is per decision: the search stops once the next world would not end
inside 85% of it (timed from the slowest world so far), and answers the
heuristic's action when not one world was played out (``fell_back`` says so).
``deterministic=1`` plays a fixed number of worlds instead, so that a seed gives
the same answers on any machine.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from callbreak.bots.base import RIVALRY, check_number
from callbreak.bots.heuristic import HeuristicBot, shortlist
from callbreak.bots.search.family import FamilyWorlds
from callbreak.bots.search.odds import MatchValue, match_value
from callbreak.engine import Action, Deal, Observation

_SAFETY = 0.85
"""Share of the budget spent searching; the rest covers the answer."""


def finish(deal: Deal, players: list[HeuristicBot]) -> list[float]:
    """Play ``deal`` to its end with each seat's heuristic; its points by seat.

    A seat with one legal action (a last card, a single card of the suit led: about a
    third of a five-card playout's turns) plays it unasked: the heuristic's answer could be
    nothing else, and its observation, the costliest step of a turn, is not built.  A bot
    that blunders is asked all the same, as it draws its chance of a blunder at every card.
    """
    while deal.to_act is not None:
        seat = deal.to_act
        player = players[seat]
        if not player.blunder and _forced(deal):
            deal.act(deal.legal()[0])
            continue
        deal.act(player.act(deal.observation(seat)))
    points = deal.points
    assert points is not None
    return [float(p) for p in points]


def deal_value(deal: Deal, points: list[float], seat: int, rivalry: float = 1.0) -> float:
    """A finished deal's worth to ``seat``: its points less ``rivalry`` times its rivals' mean,
    signed so that more is better (``Game.lowest_wins``).  The rivals are the other sides'
    seats where the game has sides (a partner's points are the seat's own, in Spades)."""
    sides = deal.rules.shape.partnerships
    mine = next((side for side in sides if seat in side), (seat,))
    rivals = [points[s] for s in range(len(points)) if s not in mine] or [0.0]
    sign = -1.0 if deal.rules.shape.lowest_wins else 1.0
    return sign * (points[seat] - rivalry * sum(rivals) / len(rivals))


def _forced(deal: Deal) -> bool:
    """Whether the seat to act has one legal action (in the play, read from the mask of the
    legal cards, which the observation then names without making it again)."""
    mask = deal.legal_mask()  # 0 outside the play
    if mask:
        return not mask & (mask - 1)
    return len(deal.legal()) == 1


_OVERSAMPLE = 4
"""Candidate worlds replayed per world played out, where the others' decisions weigh them."""

_BIDS = 5
"""Bids weighed at one decision of an auction: those nearest the heuristic's own."""

_SHORTLIST = 4
"""Actions weighed where the policy ranks many (``heuristic.shortlist``): Call Partner's
18 cards to lay away and 52 to call cost 4 ms a playout each, so that weighing them all
left the heuristic's choice standing for want of even one world."""


def _candidates(legal: list[Any], guess: Action) -> list[Any]:
    """The actions worth searching: all of them, except that of the bids (whole numbers)
    only the ``_BIDS`` nearest the heuristic's choice are kept (a playout of each of
    Call Partner's 11 bids would leave no time for a second world)."""
    bids = [a for a in legal if isinstance(a, int) and not isinstance(a, bool)]
    if len(bids) <= _BIDS:
        return legal
    centre = bids.index(guess) if guess in bids else 0
    low = max(0, min(centre - _BIDS // 2, len(bids) - _BIDS))
    kept = set(bids[low : low + _BIDS])
    return [a for a in legal if a in kept or a not in bids]


class FamilySearchBot:
    """Not registered by a name of its own: the ``expert`` seats it in these games."""

    name = "expert"

    def __init__(
        self,
        seed: int | None = None,
        budget_ms: int = 1000,
        worlds: int = 24,
        rivalry: float = 1.0,
        deterministic: int = 0,
        surprise: float = 1.0,
        margin: float = 1.0,
        trust: float | None = None,
        match_odds: int = 1,
        shortlist: int = 0,
    ) -> None:
        """``worlds``: the worlds played out with ``deterministic=1`` (the clock decides
        otherwise); ``rivalry``: weight of the others' mean points; ``surprise`` and
        ``trust``: how the others' decisions weigh the worlds (``FamilyWorlds``);
        ``margin``: standard errors by which the worlds must prefer an action to the
        heuristic's before it is played (``_significant``; 0: the best); ``match_odds`` 1: in
        a match, a world is worth the seat's share of the match from the totals it leaves
        (``search.odds``), 0: its points for the deal whatever the match; ``shortlist`` 1: where
        the heuristic ranks many actions, only its ``_SHORTLIST`` best are weighed."""
        # The expert's config checks its own options; a bot made here directly is checked here.
        check_number("budget_ms", budget_ms, "must be positive: milliseconds", above=0)
        check_number("worlds", worlds, "must be at least 1", least=1)
        check_number("rivalry", rivalry, RIVALRY, least=0)
        check_number(
            "margin",
            margin,
            "is the standard errors by which the worlds must prefer an action to the "
            "heuristic's: 0 (the best action) or more",
            least=0,
        )
        self.budget = budget_ms / 1000
        self.worlds = worlds
        self.rivalry = rivalry
        if not 0 < surprise <= 1:
            raise ValueError("surprise is a likelihood factor: more than 0, at most 1")
        self.surprise = surprise
        if trust is not None and not 0 <= trust <= 1:
            raise ValueError("trust is a probability: 0 to 1 (0: surprise per decision alike)")
        self.trust = trust or None
        self.margin = margin
        self.match_odds = bool(match_odds)
        self.shortlist = bool(shortlist)
        self._rows: list[list[float]] = []
        self._weights: list[float] = []
        self.deterministic = bool(deterministic)
        self._rng = random.Random(seed)
        self._heuristic = HeuristicBot(seed=seed)
        self.fell_back: str | None = None
        """Why the last decision was the heuristic's (None: the search chose it)."""
        self.searched = 0
        """Worlds played out for the last decision."""
        self.values: dict[Any, float] = {}
        """The last decision's mean value of each action tried (for the hint and review)."""

    def act(self, observation: Observation) -> Action:
        # The match's odds are made once per table: before the clock starts.
        match = match_value(observation) if self.match_odds else None
        deadline = time.perf_counter() + self.budget * _SAFETY
        self.fell_back = None
        self.searched = 0
        self.values = {}
        legal = list(observation.legal)
        fallback = self._heuristic.act(observation)
        if len(legal) <= 1:
            return fallback
        short = shortlist(observation, _SHORTLIST) if self.shortlist else None
        actions = short or _candidates(legal, fallback)
        actions.sort(key=lambda a: a != fallback)  # the heuristic's first: see ``evaluate``
        values = self.evaluate(observation, deadline, actions, match)
        if values is None:
            self.fell_back = "no world played out in time"
            return fallback
        self.values = values
        best: Action = max(values, key=lambda a: (values[a], a == fallback))
        if best != fallback and not self._significant(actions.index(best)):
            return fallback  # the worlds do not show the heuristic's action to be worse
        return best

    def _significant(self, column: int) -> bool:
        """Whether the worlds show the action in ``column`` better than the heuristic's (in
        column 0) by more than ``margin`` standard errors of their paired difference.

        With a handful of worlds (the 13-card games at a small budget) the best of many
        actions is mostly the luckiest; the heuristic's own choice is kept unless the
        same worlds clearly prefer another.
        """
        diffs = [row[column] - row[0] for row in self._rows]
        weights = self._weights
        total = sum(weights)
        if len(diffs) < 2 or total <= 0:
            return False
        # Worlds weighed by the others' decisions count as fewer worlds: Kish's effective
        # size; with equal weights this is the plain standard error.
        n = total**2 / sum(w * w for w in weights)
        if n < 2:
            return False  # less than two worlds' worth of weight shows nothing
        mean = sum(w * d for w, d in zip(weights, diffs, strict=True)) / total
        spread = sum(w * (d - mean) ** 2 for w, d in zip(weights, diffs, strict=True)) / total
        spread *= n / (n - 1)
        return bool(mean > self.margin * math.sqrt(spread / n))

    def _draw(self, worlds: FamilyWorlds) -> tuple[Deal | None, float]:
        """A world to play out and its weight.  Where the others' decisions weigh the worlds,
        ``_OVERSAMPLE`` candidates are drawn and one is kept in proportion to its weight,
        which then counts as 1: a replay costs far less than playing every action out, and
        weighing the played-out worlds instead would leave few that count."""
        if worlds.surprise >= 1.0:
            return worlds.draw(self._rng), 1.0
        found: list[tuple[Deal, float]] = []
        for _ in range(_OVERSAMPLE):
            world = worlds.draw(self._rng)
            if world is not None:
                found.append((world, worlds.weight))
        if not found:
            return None, 0.0
        ((world, _),) = self._rng.choices(found, weights=[w for _, w in found])
        return world, 1.0

    def evaluate(
        self,
        observation: Observation,
        deadline: float,
        actions: list[Any] | None = None,
        match: MatchValue | None = None,
    ) -> dict[Any, float] | None:
        """The mean value of each of ``actions`` (default: every legal one) over the worlds
        played before ``deadline`` (or ``worlds`` of them when deterministic); None if not
        one world was.  A world is worth ``match`` of its finished deal where given, else the
        seat's ``deal_value``.  Each world's values are kept in ``_rows`` (in ``actions``'
        order) for ``_significant``."""
        legal = list(observation.legal) if actions is None else actions
        self._rows = []
        self._weights = []
        seat = observation.seat
        worlds = FamilyWorlds(observation, self.surprise, self.trust)
        players = [HeuristicBot(seed=s) for s in range(observation.players)]
        totals = dict.fromkeys(legal, 0.0)
        weights = 0.0
        done = 0
        slowest = slowest_action = 0.0
        failures = 0
        while True:
            if self.deterministic:
                if done >= self.worlds or failures >= self.worlds:
                    break
            elif done >= self.worlds * 8 or time.perf_counter() + slowest > deadline:
                break  # enough worlds for any decision, or the next would end too late
            started = time.perf_counter()
            world, weight = self._draw(worlds)
            if world is None:
                failures += 1
                if not self.deterministic and failures > 4 * (done + 1):
                    break
                continue
            values = []
            for action in legal:
                if not self.deterministic and time.perf_counter() + slowest_action > deadline:
                    break  # this world would not end in time: it is left out
                began = time.perf_counter()
                trial = world.copy()
                trial.act(action)
                points = finish(trial, players)
                if match is not None:
                    values.append(match(trial))
                else:
                    values.append(deal_value(trial, points, seat, self.rivalry))
                slowest_action = max(slowest_action, time.perf_counter() - began)
            if len(values) < len(legal):
                break
            self._rows.append(values)
            self._weights.append(weight)
            for action, value in zip(legal, values, strict=True):
                totals[action] += weight * value
            weights += weight
            done += 1
            self.searched = done
            slowest = max(slowest, time.perf_counter() - started)
        if not done:
            return None
        return {a: v / weights for a, v in totals.items()}
