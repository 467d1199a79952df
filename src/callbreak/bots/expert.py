"""The expert: search under hidden information, inside a time budget.

Cards: perfect-information Monte Carlo (PIMC).  Worlds consistent with the
seat's observation are sampled (``search.sampler``), each is solved exactly one
seat against three (``search.solver``), and every legal card is scored by the
points it leads to *under the rules in force*: for ``at_least`` calls points
grow with tricks, so the most tricks the card can force is what counts; for
windowed success (Call Bridge) the solver is asked instead whether the card
still forces a final count inside the window.  Scores are averaged with the
sampler's weights; ties go to the card the heuristic would play.

Calls: by simulation.  Sampled worlds are played out by the heuristic policy
(the solver's one-against-three values are far too pessimistic for a call),
and the call with the best expected points under the rules is chosen.

The budget is per decision; sampling and solving stop at 85% of it so the
answer is always in time.  ``deterministic=1`` replaces the clock by fixed
world counts, for reproducible experiments.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from typing import Any

from callbreak.bots.base import register_bot
from callbreak.bots.heuristic import HeuristicBot
from callbreak.cards import CARD_NAMES, format_hand, parse_card
from callbreak.engine import Action, Deal, Observation
from callbreak.rules import Rules

_SAFETY = 0.85
"""Share of the budget spent searching; the rest covers the last solve and the answer."""

_solver: Any = None
_solver_ready = threading.Event()
_solver_lock = threading.Lock()


def _warm_solver() -> None:
    """Build the solver and solve one small ending, so numba compiles off the clock."""
    global _solver
    from callbreak.bots.search.solver import Solver
    from callbreak.bots.search.world import World
    from callbreak.engine.deal import play_rules

    solver = Solver()
    hands = (0b1, 0b10, 0b100, 0b1000)  # 2S, 3S, 4S, 5S: one trick left
    solver.move_values(
        World(play_rules(Rules.preset("callbreak")), hands, 0, tricks=(3, 3, 3, 3)), 0
    )
    _solver = solver
    _solver_ready.set()


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
        solve_from: int = 6,
        deterministic: int = 0,
    ) -> None:
        if budget_ms <= 0:
            raise ValueError("budget_ms must be positive")
        self.budget = budget_ms / 1000
        self.worlds = worlds
        self.call_worlds = call_worlds
        self.solve_from = solve_from
        """Tricks left from which on each sampled world is solved exactly; before, rollouts."""
        self.deterministic = bool(deterministic)
        self._rng = random.Random(seed)
        self._heuristic = HeuristicBot(seed=seed)
        self._solver: Any = None

    # ------------------------------------------------------------------ entry
    def act(self, observation: Observation) -> Action:
        started = time.perf_counter()
        deadline = started + self.budget * _SAFETY
        if observation.phase == "call":
            return self._call(observation, deadline)
        if observation.phase == "play":
            return CARD_NAMES[self._play(observation, deadline)]
        return self._heuristic.act(observation)

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
        from callbreak.bots.search.sampler import sample_worlds

        self._solver = solver
        seat = observation.seat
        evaluate = self._evaluator(observation.rules, seat, observation.calls[seat] or 0)
        points = dict.fromkeys(legal, 0.0)
        tricks = dict.fromkeys(legal, 0.0)
        solved = 0
        while not self._out_of_time(deadline, solved, self.worlds):
            batch = sample_worlds(observation, 4, self._rng)
            if not batch:
                break
            for world in batch:
                values = self._solver.move_values(world, seat)
                scored = evaluate(world, values)
                for card in legal:
                    points[card] += world.weight * scored[card]
                    tricks[card] += world.weight * values[card]
                solved += 1
                if self._out_of_time(deadline, solved, self.worlds):
                    break
        return (points, tricks) if solved else (None, None)

    def _rolled_out(
        self, observation: Observation, legal: list[int], deadline: float
    ) -> tuple[dict[int, float] | None, dict[int, float] | None]:
        """Weighted points and tricks per card: each card played in each sampled world,
        then the deal finished by the heuristic policy for all four seats."""
        from callbreak.bots.search.sampler import sample_worlds

        rules = observation.rules
        seat = observation.seat
        call = observation.calls[seat] or 0
        points = dict.fromkeys(legal, 0.0)
        tricks = dict.fromkeys(legal, 0.0)
        done = 0
        slowest = 0.0
        while not self._out_of_time(deadline, done, self.worlds):
            if not self.deterministic and time.perf_counter() + slowest > deadline:
                break  # the next world would not finish in time
            started = time.perf_counter()
            batch = sample_worlds(observation, 1, self._rng)
            if not batch:
                break
            world = batch[0]
            base = self._replayed(observation, world.hands)
            for card in legal:
                deal = base.copy()
                deal.act(CARD_NAMES[card])
                self._finish_by_policy(deal)
                won = deal.tricks[seat]
                points[card] += world.weight * float(rules.score(call, won))
                tricks[card] += world.weight * won
            done += 1
            slowest = max(slowest, time.perf_counter() - started)
        return (points, tricks) if done else (None, None)

    def _replayed(self, observation: Observation, hands: tuple[int, ...]) -> Deal:
        """A deal with these hands brought to the observed point: same calls, same cards played.

        Phases that cannot matter any more (misdeals, the calls' minimum, void
        declarations) are switched off in the copy's rules.
        """
        rules = observation.rules.replace(
            misdeal="off", misdeal_no_spade=False, min_total_calls=None, declare_voids=False
        )
        dealt = list(hands)
        tricks = [*observation.history, observation.trick]
        for trick in tricks:
            for seat, name in zip(trick.seats(observation.players), trick.cards, strict=True):
                dealt[seat] |= 1 << parse_card(name)
        deal = Deal(rules, [format_hand(h) for h in dealt], dealer=observation.dealer)
        while deal.phase == "call":
            actor = deal.to_act
            assert actor is not None
            known = observation.calls[actor]
            deal.act(known if known is not None else self._heuristic.call(deal.observation(actor)))
        for trick in tricks:
            for name in trick.cards:
                deal.act(name)
        return deal

    def _finish_by_policy(self, deal: Deal) -> None:
        policy = self._heuristic
        while deal.to_act is not None:
            deal.act(CARD_NAMES[policy.play(deal.observation(deal.to_act))])

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
        from callbreak.bots.search.sampler import sample_worlds

        rules = observation.rules
        outcomes: list[tuple[float, int]] = []
        while not self._out_of_time(deadline, len(outcomes), self.call_worlds):
            batch = sample_worlds(observation, 4, self._rng)
            if not batch:
                break
            for world in batch:
                outcomes.append((world.weight, self._playout(observation, world.hands)))
                if self._out_of_time(deadline, len(outcomes), self.call_worlds):
                    break
        if not outcomes:
            return self._heuristic.call(observation)
        total_weight = sum(w for w, _ in outcomes) or 1.0

        def expected(call: int) -> float:
            return sum(w * float(rules.score(call, won)) for w, won in outcomes) / total_weight

        return max(range(rules.min_call, rules.max_call + 1), key=expected)

    def _playout(self, observation: Observation, hands: tuple[int, ...]) -> int:
        """Tricks this seat takes when all four play the heuristic policy on ``hands``."""
        deal = self._replayed(observation, hands)
        self._finish_by_policy(deal)
        return deal.tricks[observation.seat]
