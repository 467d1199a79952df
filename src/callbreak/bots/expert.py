"""The expert: search under hidden information, inside a time budget.

Cards: perfect-information Monte Carlo (PIMC).  Worlds consistent with the
seat's observation are sampled (``search.sampler``), each card is played in
each world and the deal finished by the compiled heuristic policy
(``search.rollout``) for all four seats; a playout is worth the seat's points
*under the rules in force* less ``rivalry`` times the others' mean points,
since a rival's failed call counts as much as one's own made one.  Scores
are averaged with the sampler's weights; ties go to the card the heuristic
would play.  In the last ``solve_from`` tricks (0 by default: never) each
world is instead solved exactly one seat against three (``search.solver``):
for ``at_least`` calls the most tricks a card can force, for windowed
success (Call Bridge) whether it still forces a final count inside the
window.

Beliefs decide most of the strength: with every hand shown, the same search
beats three heuristic players by about three times its margin.  So the
worlds are weighed by the calls (``call_sigma``) and by the play: each card
another seat played that the heuristic policy would not have played with the
hand it holds in a world multiplies that world's weight by ``surprise``, and
each batch of worlds is picked from ``oversample`` times as many candidates
(the compiled sampler deals them by the hundred thousand a second).  At
trick 9 this doubles the probability the worlds give the true holder of an
unseen card over a uniform draw.  With beliefs that sharp, playouts that
model how the others really play are worth more than exact solves that
assume three defenders who see every card and play as one: measured over
300 deal sets, ``solve_from=6`` gave +0.64 points a deal over the heuristic
and ``solve_from=0`` +0.75.  The solver stays one option away.

Calls: by simulation.  Sampled worlds (the earlier calls weigh them) are
played out by the same policy once per candidate call, the seats still to
call calling as the heuristic would with the hand they hold there; the call
with the best expected value, as above, is chosen, each playout counted
``call_bias`` tricks richer: the expert plays better than the policy that
plays its hand out in the simulation (0.5 took the edge over three heuristic
players from +0.66 to +0.76 over 2,000 Call Break deal sets at 20 ms a
decision; in Call Bridge,
where an overtrick fails the call, it took it from +1.66 to +1.54, so there
the default is 0).  (The solver's
one-against-three values are far too pessimistic for a call.)

The budget is per decision; sampling, playouts and solving stop at 85% of it
so the answer is always in time.  The one-off numba compile happens in the
background (the heuristic answers meanwhile) or in ``warm_up``, which the
arena calls before a game.  ``deterministic=1`` replaces the clock by fixed
world counts, for reproducible experiments.
"""

from __future__ import annotations

import functools
import gc
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from callbreak.bots.base import register_bot
from callbreak.bots.heuristic import HeuristicBot, estimate_tricks
from callbreak.bots.knowledge import read
from callbreak.cards import CARD_NAMES, parse_card
from callbreak.engine import Action, Observation
from callbreak.rules import Rules

_SAFETY = 0.85
"""Share of the budget spent searching; the rest covers the last solve and the answer."""

_BATCH = 16
"""Worlds sampled and played out together (one call into the compiled playouts)."""
_CALL_SPREAD = 3
"""Calls tried on either side of the heuristic's call."""

_solver: Any = None
_playouts_ready: Any = None
_solver_ready = threading.Event()
_solver_lock = threading.Lock()


def _warm_solver() -> None:
    """Build the solver and the playouts and run each once, so numba compiles off the clock."""
    global _solver, _playouts_ready
    import numpy

    from callbreak.bots.search import rollout, sampler
    from callbreak.bots.search.solver import Solver
    from callbreak.bots.search.world import World
    from callbreak.engine.deal import play_rules

    solver = Solver()
    rules = play_rules(Rules.preset("callbreak"))
    hands = (0b1, 0b10, 0b100, 0b1000)  # 2S, 3S, 4S, 5S: one trick left
    solver.move_values(World(rules, hands, 0, tricks=(3, 3, 3, 3)), 0)
    if not solver.compiled:
        _solver = solver
        _solver_ready.set()
        return
    playouts = rollout.compiled()
    worlds = numpy.array([hands], numpy.int64)
    calls = numpy.ones((1, 4), numpy.int64)
    none = numpy.zeros(4, numpy.int64)
    playouts.call_tricks(rules, worlds, 0, calls, none, 0, 1, numpy.zeros((1, 1, 4), numpy.int64))
    playouts.card_tricks(
        rules,
        worlds,
        0,
        numpy.zeros(4, numpy.int64),
        0,
        numpy.zeros(4, numpy.int64),
        calls[0],
        False,
        False,
        none,
        0,
        numpy.array([0], numpy.int64),
        numpy.zeros((1, 1, 4), numpy.int64),
    )
    # The sampler's compiled deals and weights: a short deal played to its second trick.
    from callbreak import Match

    match = Match(Rules.preset("callbreak").replace(misdeal="off"), seed=0)
    while match.phase != "play" or match.deal.trick_number < 1:
        match.act(3 if match.phase == "call" else match.legal()[0])
    observation = match.observation(match.to_act or 0)
    sampler.WorldSampler(observation, sigma=1.0, surprise=0.5).draw(2, random.Random(0))
    _solver = solver
    _playouts_ready = playouts
    # numba leaves tens of thousands of objects behind; a full collection that walks them
    # takes about 100 ms, longer than a small budget.  Collect them once here, then move
    # the survivors out of the collector's sight for good.
    gc.collect()
    gc.freeze()
    _solver_ready.set()


@functools.lru_cache(maxsize=16)
def _score_table(rules: Rules) -> Any:
    """``table[call, won]``: points as a float, for every call allowed (other rows 0)."""
    from callbreak.engine.kernel import score_table

    return score_table(rules) / 10


def _playouts(wait: bool) -> Any:
    """The compiled playouts once numba has built them (see ``shared_solver``), the plain
    Python ones where numba is not installed, else None: the caller falls back."""
    from callbreak.bots.search import rollout
    from callbreak.bots.search.solver import numba_available

    if not numba_available():
        return rollout.interpreted()
    return _playouts_ready if shared_solver(wait) is not None else None


def shared_solver(wait: bool) -> Any:
    """The process's solver once it is compiled, else None (compiling starts in the
    background on the first ask, so a decision never waits for numba unless ``wait``)."""
    with _solver_lock:
        if not _solver_ready.is_set() and not getattr(shared_solver, "started", False):
            shared_solver.started = True  # type: ignore[attr-defined]
            threading.Thread(target=_warm_solver, name="solver-warm-up", daemon=True).start()
    if wait:
        _solver_ready.wait()
    return _solver if _solver_ready.is_set() else None


@register_bot("expert", "search: sampled worlds solved exactly, calls by simulation (budget_ms)")
class ExpertBot:
    name = "expert"

    def __init__(
        self,
        seed: int | None = None,
        budget_ms: int = 1000,
        worlds: int = 48,
        call_worlds: int = 64,
        solve_from: int = 0,
        call_bias: float | None = None,
        rivalry: float = 1.0,
        call_sigma: float = 0.6,
        surprise: float = 0.02,
        oversample: int = 16,
        deterministic: int = 0,
    ) -> None:
        if budget_ms <= 0:
            raise ValueError("budget_ms must be positive")
        self.budget = budget_ms / 1000
        self.worlds = worlds
        self.call_worlds = call_worlds
        self.solve_from = solve_from
        """Tricks left from which on each sampled world is solved exactly; before, rollouts."""
        self.call_bias = call_bias
        """Tricks added to each playout before a call is scored: the expert plays better
        than the policy that plays the playouts, so they undercount its tricks.  None:
        0.5 where overtricks are allowed (``at_least``), 0 where a window punishes them."""
        self.call_sigma = call_sigma
        """How far from the hand's estimate the sampler expects another seat's call to be."""
        self.rivalry = rivalry
        """Weight of the others' mean points against the seat's own, in the playouts."""
        if not 0 < surprise <= 1:
            raise ValueError("surprise is a likelihood factor: more than 0, at most 1")
        self.surprise = surprise
        """Weight factor of a sampled world per card of the others' play that the heuristic
        would not have played there (1: the play so far says nothing about the hands)."""
        if oversample < 1:
            raise ValueError("oversample is a whole number of candidates per world, at least 1")
        self.oversample = oversample
        """Candidate worlds dealt per world kept, when the play is weighed (``surprise``)."""
        self.deterministic = bool(deterministic)
        self._rng = random.Random(seed)
        self._heuristic = HeuristicBot(seed=seed)
        self._solver: Any = None

    def warm_up(self) -> None:
        """Wait for the search's one-off numba compile (seconds), so no decision does."""
        shared_solver(wait=True)

    # ------------------------------------------------------------------ entry
    def act(self, observation: Observation) -> Action:
        if observation.game != "callbreak":
            # Its search models one game's deal: refuse the others plainly, not by crashing.
            raise ValueError(
                f"the expert bot plays Call Break, Call Bridge and Batak Koz Maça only yet, "
                f"not {observation.rules.title}: use the heuristic bot there"
            )
        started = time.perf_counter()
        deadline = started + self.budget * _SAFETY
        if observation.phase == "call":
            return self._call(observation, deadline)
        if observation.phase == "play":
            return CARD_NAMES[self._play(observation, deadline)]
        return self._heuristic.act(observation)

    @staticmethod
    def _batch(playouts: Any) -> int:
        """Worlds per round of playouts: one at a time in plain Python, where each is slow."""
        return _BATCH if playouts.compiled else 1

    def _out_of_time(self, deadline: float, done: int, wanted: int) -> bool:
        if self.deterministic:
            return done >= wanted
        return done >= wanted * 8 or time.perf_counter() >= deadline

    # ------------------------------------------------------------------ play
    def _play(self, observation: Observation, deadline: float) -> int:
        legal = [parse_card(c) for c in observation.legal]
        fallback = self._heuristic.play(observation)
        if len(legal) == 1:
            return legal[0]
        tricks_left = observation.rules.hand_size - observation.trick_number
        solver = shared_solver(wait=self.deterministic)
        if tricks_left <= self.solve_from and solver is not None:
            points, tricks = self._solved(observation, legal, deadline, solver)
        else:
            points, tricks = self._rolled_out(observation, legal, deadline)
        if points is None or tricks is None:
            return fallback
        return max(legal, key=lambda c: (points[c], tricks[c], c == fallback))

    def _solved(
        self, observation: Observation, legal: list[int], deadline: float, solver: Any
    ) -> tuple[dict[int, float] | None, dict[int, float] | None]:
        """Weighted points and tricks per card, each sampled world solved exactly."""
        from callbreak.bots.search.sampler import WorldSampler

        self._solver = solver
        seat = observation.seat
        evaluate = self._evaluator(observation.rules, seat, observation.calls[seat] or 0)
        points = dict.fromkeys(legal, 0.0)
        tricks = dict.fromkeys(legal, 0.0)
        solved = 0
        slowest = 0.0
        sampler = WorldSampler(
            observation, sigma=self.call_sigma, surprise=self.surprise, oversample=self.oversample
        )
        while not self._out_of_time(deadline, solved, self.worlds):
            batch = sampler.draw(4, self._rng)
            if not batch:
                break
            for world in batch:
                started = time.perf_counter()
                if not self.deterministic and started + slowest > deadline:
                    return (points, tricks) if solved else (None, None)
                values = self._solver.move_values(world, seat)
                scored = evaluate(world, values)
                for card in legal:
                    points[card] += world.weight * scored[card]
                    tricks[card] += world.weight * values[card]
                solved += 1
                slowest = max(slowest, time.perf_counter() - started)
                if self._out_of_time(deadline, solved, self.worlds):
                    break
        return (points, tricks) if solved else (None, None)

    def _rolled_out(
        self, observation: Observation, legal: list[int], deadline: float
    ) -> tuple[dict[int, float] | None, dict[int, float] | None]:
        """Weighted points and tricks per card: each card played in each sampled world,
        then the deal finished by the compiled heuristic policy for all four seats."""
        import numpy

        from callbreak.bots.search.sampler import WorldSampler

        rules = observation.rules
        seat = observation.seat
        table = _score_table(rules)
        playouts = _playouts(self.deterministic)
        if playouts is None:
            return None, None
        cards = numpy.array(legal, numpy.int64)
        trick = numpy.zeros(4, numpy.int64)
        played = [parse_card(c) for c in observation.trick.cards]
        trick[: len(played)] = played
        won = numpy.array(observation.tricks_won, numpy.int64)
        calls = numpy.array([c or 0 for c in observation.calls], numpy.int64)
        voids = numpy.array(read(observation).voids, numpy.int64)
        points = numpy.zeros(len(legal))
        tricks = numpy.zeros(len(legal))
        done = 0
        slowest = 0.0
        sampler = WorldSampler(
            observation, sigma=self.call_sigma, surprise=self.surprise, oversample=self.oversample
        )
        while not self._out_of_time(deadline, done, self.worlds * 4):
            if not self.deterministic and time.perf_counter() + slowest > deadline:
                break  # the next batch would not finish in time
            started = time.perf_counter()
            batch = sampler.draw(self._batch(playouts), self._rng)
            if not batch:
                break
            world = batch[0]
            hands = numpy.array([w.hands for w in batch], numpy.int64)
            out = numpy.zeros((len(batch), len(legal), 4), numpy.int64)
            playouts.card_tricks(
                world.rules,
                hands,
                world.leader,
                trick,
                len(played),
                won,
                calls,
                world.trump_played,
                world.first_trick,
                voids,
                seat,
                cards,
                out,
            )
            weights = numpy.array([w.weight for w in batch])
            points += weights @ self._objective(table, calls, out, seat)
            tricks += weights @ out[:, :, seat]
            done += len(batch)
            slowest = max(slowest, time.perf_counter() - started)
        if not done:
            return None, None
        return (
            dict(zip(legal, points.tolist(), strict=True)),
            dict(zip(legal, tricks.tolist(), strict=True)),
        )

    def _evaluator(
        self, rules: Rules, seat: int, call: int
    ) -> Callable[[Any, dict[int, int]], dict[int, float]]:
        """How a world's per-card trick values turn into points under ``rules``."""
        if rules.success_window == "at_least":

            def by_tricks(world: Any, values: dict[int, int]) -> dict[int, float]:
                return {c: float(rules.score(call, v)) for c, v in values.items()}

            return by_tricks
        lo, hi = call, call + (1 if rules.success_window == "call_or_one_over" else 0)
        if rules.success_window.startswith("call_to_call_plus:"):
            hi = call + int(rules.success_window.rsplit(":", 1)[1])
        made = float(rules.score(call, call))
        failed = float(rules.score(call, max(0, call - 1)))

        def by_window(world: Any, values: dict[int, int]) -> dict[int, float]:
            inside = self._solver.window_move_values(world, seat, lo, hi)
            return {c: made if inside[c] else failed for c in values}

        return by_window

    # ------------------------------------------------------------------ calls
    def _call(self, observation: Observation, deadline: float) -> int:
        """The call with the best expected points over sampled worlds, each played out by
        the compiled heuristic policy once per candidate call."""
        import numpy

        from callbreak.bots.search.sampler import WorldSampler

        rules = observation.rules
        seat = observation.seat
        guess = self._heuristic.call(observation)
        lo = max(rules.min_call, guess - _CALL_SPREAD)
        hi = min(rules.max_call, guess + _CALL_SPREAD)
        playouts = _playouts(self.deterministic)
        if playouts is None:
            return guess
        own_table = self._call_table(rules, lo, hi)
        scores = _score_table(rules)
        expected = numpy.zeros(hi - lo + 1)
        voids = numpy.array(read(observation).voids, numpy.int64)
        done = 0
        slowest = 0.0
        sampler = WorldSampler(observation, sigma=self.call_sigma)
        while not self._out_of_time(deadline, done, self.call_worlds * 4):
            if not self.deterministic and time.perf_counter() + slowest > deadline:
                break
            started = time.perf_counter()
            batch = sampler.draw(self._batch(playouts), self._rng)
            if not batch:
                break
            hands = numpy.array([w.hands for w in batch], numpy.int64)
            calls = numpy.array([self._calls_in(observation, w.hands) for w in batch], numpy.int64)
            out = numpy.zeros((len(batch), hi - lo + 1, 4), numpy.int64)
            playouts.call_tricks(
                batch[0].rules, hands, batch[0].leader, calls, voids, seat, lo, out
            )
            weights = numpy.array([w.weight for w in batch])
            rivals = self._objective(scores, calls[:, None, :], out, seat, own=False)
            mine = own_table[numpy.arange(hi - lo + 1), out[:, :, seat]]
            expected += weights @ (mine + rivals)
            done += len(batch)
            slowest = max(slowest, time.perf_counter() - started)
        if not done:
            return guess
        return lo + int(numpy.argmax(expected))

    def _objective(self, table: Any, calls: Any, out: Any, seat: int, own: bool = True) -> Any:
        """What a playout is worth to the seat: its points, less ``rivalry`` times the
        others' mean points (``out[..., p]`` tricks by seat; ``calls[..., p]`` calls).

        The arena's edge, and a match, are won against the others' points as much as
        by one's own: setting a rival's call is worth as much as making one's own.
        """
        points = table[calls, out]
        others = (points.sum(axis=-1) - points[..., seat]) / (out.shape[-1] - 1)
        value = -self.rivalry * others
        return value + points[..., seat] if own else value

    def _call_table(self, rules: Rules, lo: int, hi: int) -> Any:
        """``table[k, t]``: the points of calling ``lo + k`` when the playouts give ``t``
        tricks, with ``call_bias`` tricks added (interpolated between whole tricks)."""
        import numpy

        rows = _score_table(rules)[lo : hi + 1]
        bias = self.call_bias
        if bias is None:
            bias = 0.5 if rules.success_window == "at_least" else 0.0
        whole = int(bias // 1)
        part = bias - whole
        won = numpy.arange(rules.hand_size + 1) + whole
        below = rows[:, numpy.clip(won, 0, rules.hand_size)]
        above = rows[:, numpy.clip(won + 1, 0, rules.hand_size)]
        return (1 - part) * below + part * above

    def _calls_in(self, observation: Observation, hands: tuple[int, ...]) -> list[int]:
        """The calls made, and for seats still to call the heuristic's call for the hand
        they hold in this world (the model of the other seats that the sampler uses too)."""
        rules = observation.rules
        out = []
        for s, call in enumerate(observation.calls):
            if call is None:
                estimate = estimate_tricks(hands[s], rules.trump_suit)
                call = max(rules.min_call, min(rules.max_call, int(estimate - 0.25 + 0.5)))
            out.append(call)
        return out
