"""The expert: search under hidden information, inside a time budget.

Cards by perfect-information Monte Carlo: worlds consistent with the seat's
observation are sampled (``search.sampler``) and weighed by the calls and by
how soundly the others' play so far fits each world, read seat by seat
(``surprise``, ``trust``), because sharper beliefs are worth more than a
deeper search; each legal card is then played out in every world by the
compiled heuristic policy (``search.rollout``), the others straying to a
random card now and then (``model_noise``) so that a plan never counts on
three exactly predictable defenders.  A card is worth the seat's points under
the rules in force less ``rivalry`` times the rivals' mean.  Calls are chosen
by simulation too, over the distribution of tricks each candidate call wins in
the playouts, shifted by ``call_bias`` and widened by ``call_spread`` since
real tables stray from the playouts more than the playouts do.  The exact
solver (``solve_from``) stays one option away: against players who are not
the heuristic it did not pay.

Every default was chosen by arena runs on the opponent pool; the method, the
measurements and the variants that were not kept are in
docs/expert-experiments.md.  The budget is per decision and the search stops
at 85% of it, so the answer is always in time; the one-off numba compile
happens in the background (the heuristic answers meanwhile) or in
``warm_up``.  ``deterministic=1`` replaces the clock by fixed world counts,
for reproducible experiments.
"""

from __future__ import annotations

import gc
import random
import threading
import time
from collections.abc import Callable
from typing import Any

from callbreak.bots.base import CALLS, register_bot
from callbreak.bots.expert_config import MODELS, ExpertConfig
from callbreak.bots.family_search import FamilySearchBot
from callbreak.bots.heuristic import HeuristicBot, estimate_tricks
from callbreak.bots.knowledge import read
from callbreak.cards import CARD_NAMES, parse_card
from callbreak.engine import Action, Observation
from callbreak.engine.kernel import points_table
from callbreak.rules import Rules

_SAFETY = 0.85
"""Share of the budget spent searching; the rest covers the last solve and the answer."""

_TIE_DIGITS = 9
"""Decimals a card's or a call's value is compared at.  Cards of equal worth (the QH, JH
and TH of one suit with the AH gone) come out of the weighted sums a last bit apart,
and which bit depends on the CPU's vector exp, so without rounding the same seed
played differently from machine to machine."""

_BATCH = 16
"""Worlds sampled and played out together (one call into the compiled playouts)."""
_CALL_SPREAD = 3
"""Calls tried on either side of the heuristic's call."""

"""The play models a playout can give another seat (``rollout``'s ``choose_as``)."""


class _Shared:
    """A numba build the whole process shares, made once on a background thread on the
    first ask, so that no decision waits for numba unless it asks to (``get(wait=True)``)."""

    def __init__(self, build: Callable[[], Any], name: str) -> None:
        self._build = build
        self._name = name
        self._value: Any = None
        self._ready = threading.Event()
        self._lock = threading.Lock()
        self._started = False

    def _run(self) -> None:
        try:
            self._value = self._build()
            # numba leaves tens of thousands of objects behind; a full collection that
            # walks them takes about 100 ms, longer than a small budget.  Collect them
            # once here, then move the survivors out of the collector's sight for good.
            gc.collect()
            gc.freeze()
        finally:
            # A build that failed leaves None: the bot falls back instead of waiting forever.
            self._ready.set()

    def get(self, wait: bool) -> Any:
        """The build once it is done, else None (it starts on the first ask)."""
        with self._lock:
            if not self._started:
                self._started = True
                threading.Thread(target=self._run, name=self._name, daemon=True).start()
        if wait:
            self._ready.wait()
        return self._value if self._ready.is_set() else None


def _build_solver() -> Any:
    """The exact solver, run once so numba compiles its search (about 15 s, every process:
    the recursive search is never loaded from the disk cache)."""
    from callbreak.bots.search.solver import Solver
    from callbreak.bots.search.world import World
    from callbreak.engine.deal import play_rules

    solver = Solver()
    rules = play_rules(Rules.preset("callbreak"))
    hands = (0b1, 0b10, 0b100, 0b1000)  # 2S, 3S, 4S, 5S: one trick left
    solver.move_values(World(rules, hands, 0, tricks=(3, 3, 3, 3)), 0)
    return solver


def _build_playouts() -> Any:
    """The compiled playouts and the sampler's kernels, each run once (loaded from numba's
    disk cache after the first process, else compiled: 30 s and more)."""
    import numpy

    from callbreak.bots.search import rollout, sampler
    from callbreak.engine import Match
    from callbreak.engine.deal import play_rules

    playouts = rollout.compiled()
    rules = play_rules(Rules.preset("callbreak"))
    worlds = numpy.array([(0b1, 0b10, 0b100, 0b1000)], numpy.int64)
    calls = numpy.ones((1, 4), numpy.int64)
    none = numpy.zeros(4, numpy.int64)
    models = numpy.ones(len(MODELS))
    playouts.mixed_call_tricks(
        rules, worlds, 0, calls, none, 0, 1, numpy.zeros((1, 1, 4), numpy.int64), models, 0.1, 1
    )
    playouts.mixed_card_tricks(
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
        models,
        0.1,
        1,
    )
    # The sampler's compiled deals and weights: a short deal played to its second trick.
    match = Match(Rules.preset("callbreak").replace(misdeal="off"), seed=0)
    while match.phase != "play" or match.deal.trick_number < 1:
        match.act(3 if match.phase == "call" else match.legal()[0])
    observation = match.observation(match.to_act or 0)
    sampler.WorldSampler(observation, sigma=1.0, surprise=0.5, trust=0.2).draw(2, random.Random(0))
    return playouts


_SOLVER = _Shared(_build_solver, "solver-warm-up")
_PLAYOUTS = _Shared(_build_playouts, "playouts-warm-up")


def _playouts(wait: bool) -> Any:
    """The compiled playouts once numba has built them, the plain Python ones where numba
    is not installed, else None: the caller falls back."""
    from callbreak.bots.search import rollout
    from callbreak.bots.search.solver import numba_available

    if not numba_available():
        return rollout.interpreted()
    return _PLAYOUTS.get(wait)


def warm_up_search(wait: bool) -> None:
    """Start the expert's numba build now (its first decision would), and with ``wait``
    wait for it: a face that seats the expert later lets it build meanwhile."""
    _playouts(wait)


def shared_solver(wait: bool) -> Any:
    """The process's solver once it is compiled (plain Python without numba), else None:
    compiling starts in the background on the first ask."""
    return _SOLVER.get(wait)


def compiled_search_plays(rules: Rules) -> bool:
    """Whether the compiled search models ``rules``' deal: a call game (``Game.policy``)
    with every seat for itself and the whole deck dealt (not Spades' sides, not Oh Hell's
    changing hands); the expert searches the others over engine deals."""
    game = rules.shape
    return game.policy == CALLS and not game.partnerships and game.schedule is None


@register_bot(
    "expert",
    "search: sampled worlds played out, calls by simulation (budget_ms); every game",
)
class ExpertBot:
    name = "expert"

    option_type = ExpertConfig
    """``make_bot`` checks a spec's numbers against these fields (``expert:worlds=x`` fails)."""
    preset = "expert"
    """The ``PRESETS`` entry a bot of this class starts from."""

    def __init__(
        self,
        seed: int | None = None,
        config: ExpertConfig | None = None,
        preset: str | None = None,
        **options: Any,
    ) -> None:
        """``config`` (or the named ``preset``, default the class's) with ``options``
        replaced: ``ExpertBot(worlds=64)``, ``ExpertBot(PRESETS["fixed"], trust=0.1)``."""
        if config is not None and preset is not None:
            raise ValueError("give the expert a config or a preset, not both")
        if config is not None and not isinstance(config, ExpertConfig):
            # A spec cannot make one: ``expert:config=fixed`` would fail on its first field.
            raise ValueError(
                f"config is an ExpertConfig made in Python, not {config!r}: a spec names a "
                "preset instead, such as expert:preset=fixed"
            )
        if config is None:
            config = ExpertConfig.from_options(preset or self.preset, **options)
        elif options:
            config = config.replace(**options)
        self.config = config
        # The search reads these on every decision; copied once from the frozen config.
        self.budget = config.budget_ms / 1000
        self.worlds = config.worlds
        self.call_worlds = config.call_worlds
        self.solve_from = config.solve_from
        self.call_bias = config.call_bias
        self.call_spread = config.call_spread
        self.call_sigma = config.call_sigma
        self.rivalry = config.rivalry
        self.surprise = config.surprise
        self.oversample = config.oversample
        self.models = config.weights
        self.model_noise = float(config.model_noise)
        self.models_in_calls = bool(config.models_in_calls)
        self.trust = config.trust
        self.deterministic = bool(config.deterministic)
        self.call_model = config.call_model
        self.fell_back: str | None = None
        """Why the last decision was the heuristic's instead of the search's (None: it was not);
        ``serve-bot`` reports it, since every such answer is a weaker move."""
        self._rng = random.Random(seed)
        self._heuristic = HeuristicBot(seed=seed)
        self._solver: Any = None
        self._family = FamilySearchBot(
            seed=seed,
            budget_ms=config.budget_ms,
            rivalry=config.rivalry,
            deterministic=config.deterministic,
            surprise=config.surprise if config.read_play else 1.0,
            trust=config.trust,
            match_odds=config.match_odds,
            shortlist=config.shortlist,
        )
        """The search of the games past the call games (``Game.policy`` other than theirs)."""

    @staticmethod
    def refuses(rules: Rules) -> str | None:
        """Every game is searched, by the compiled search or over engine deals
        (``bots.refusal`` asks this instead of a whole decision)."""
        return None

    def warm_up(self) -> None:
        """Wait for the search's one-off numba build (a second from numba's disk cache, a
        minute without it; the solver's 15 s only with ``solve_from``), so no decision does."""
        warm_up_search(wait=True)
        if self.solve_from > 0:
            shared_solver(wait=True)

    # ------------------------------------------------------------------ entry
    def act(self, observation: Observation) -> Action:
        if not compiled_search_plays(observation.rules):
            # The compiled search models the call games' deal; every other game of the
            # family is searched over whole engine deals, with the same budget.
            action = self._family.act(observation)
            self.fell_back = self._family.fell_back
            return action
        started = time.perf_counter()
        deadline = started + self.budget * _SAFETY
        self.fell_back = None
        if observation.phase == "call":
            return self._call(observation, deadline)
        if observation.phase == "play":
            return CARD_NAMES[self._play(observation, deadline)]
        return self._heuristic.act(observation)

    @staticmethod
    def _batch(playouts: Any) -> int:
        """Worlds per round of playouts: one at a time in plain Python, where each is slow."""
        return _BATCH if playouts.compiled else 1

    def _model_seed(self, models: Any) -> int:
        """A seed for the playouts' draws of the others' models; 0, drawing nothing from
        the bot's generator, where every other seat plays the heuristic."""
        return self._rng.randrange(1 << 31) if models[1:].any() else 0

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
        solver = None
        if tricks_left <= self.solve_from:
            solver = shared_solver(wait=self.deterministic)
        if solver is not None:
            points, tricks = self._solved(observation, legal, deadline, solver)
        else:
            points, tricks = self._rolled_out(observation, legal, deadline)
        if points is None or tricks is None:
            ready = solver is not None or _playouts(wait=False) is not None
            self.fell_back = "no world searched in time" if ready else "search not compiled yet"
            return fallback
        return max(
            legal,
            key=lambda c: (
                round(points[c], _TIE_DIGITS),
                round(tricks[c], _TIE_DIGITS),
                c == fallback,
            ),
        )

    def _solved(
        self, observation: Observation, legal: list[int], deadline: float, solver: Any
    ) -> tuple[dict[int, float] | None, dict[int, float] | None]:
        """Weighted points and tricks per card, each sampled world solved exactly."""

        self._solver = solver
        seat = observation.seat
        evaluate = self._evaluator(observation.rules, seat, observation.calls[seat] or 0)
        points = dict.fromkeys(legal, 0.0)
        tricks = dict.fromkeys(legal, 0.0)
        solved = 0
        slowest = 0.0
        sampler = self._sampler(observation)
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
        then the deal finished by the compiled heuristic policy for all four seats (the
        others' as drawn from ``models``)."""
        import numpy

        rules = observation.rules
        seat = observation.seat
        table = points_table(rules)
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
        models = numpy.array(self.models)
        done = 0
        slowest = 0.0
        sampler = self._sampler(observation)
        while not self._out_of_time(deadline, done, self.worlds * 4):
            if not self.deterministic and time.perf_counter() + slowest > deadline:
                break  # the next batch would not finish in time
            started = time.perf_counter()
            hands, weights = sampler.draw_arrays(self._batch(playouts), self._rng)
            if not len(hands):
                break
            world = sampler.template
            out = numpy.zeros((len(hands), len(legal), 4), numpy.int64)
            playouts.mixed_card_tricks(
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
                models,
                self.model_noise,
                self._model_seed(models),
            )
            points += weights @ self._objective(table, calls, out, seat)
            tricks += weights @ out[:, :, seat]
            done += len(hands)
            slowest = max(slowest, time.perf_counter() - started)
        if not done:
            return None, None
        return (
            dict(zip(legal, points.tolist(), strict=True)),
            dict(zip(legal, tricks.tolist(), strict=True)),
        )

    def _sampler(self, observation: Observation) -> Any:
        """The worlds of a card decision, weighed by the calls and by the play."""
        from callbreak.bots.search.sampler import WorldSampler

        return WorldSampler(
            observation,
            sigma=self.call_sigma,
            surprise=self.surprise,
            oversample=self.oversample,
            trust=self.trust,
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

        outcomes = self._call_outcomes(observation, deadline)
        if outcomes is None:
            self.fell_back = "no call simulated in time"
            return self._heuristic.call(observation)
        lo, hist, rivals = outcomes
        rules = observation.rules
        learned = self._learned_share(rules)
        if learned > 0:
            from callbreak.bots.learned.callmodel import blended

            hist = blended(observation, hist, learned, self.config.call_weights)
        own_table = self._call_table(rules, lo, lo + len(rivals) - 1, learned)
        expected = (self._widened(hist, rules, learned) * own_table).sum(axis=1) + rivals
        return lo + int(numpy.argmax(numpy.round(expected, _TIE_DIGITS)))

    def _learned_share(self, rules: Rules) -> float:
        """The weight of the learned forecast in this game's calls: ``call_model`` in the deal
        it learned (``callmodel.serves``), else none."""
        if self.call_model <= 0:
            return 0.0
        from callbreak.bots.learned.callmodel import serves

        return self.call_model if serves(rules) else 0.0

    def _widened(self, hist: Any, rules: Rules, learned: float = 0.0) -> Any:
        """``hist[k, t]`` with ``call_spread`` of each count's weight moved one trick down
        and as much one trick up (kept at 0 and at the hand size): the playouts model the
        others as the heuristic, and how many tricks the seat really wins varies more.  The
        default widens only the playouts' share (``1 - learned``): the learned forecast
        already has the spread of the expert's own deals."""
        q = self.call_spread
        if q is None:
            q = 0.2 * (1 - learned) if rules.success_window == "at_least" else 0.0
        if q <= 0:
            return hist
        out = (1 - 2 * q) * hist
        out[:, :-1] += q * hist[:, 1:]
        out[:, 0] += q * hist[:, 0]
        out[:, 1:] += q * hist[:, :-1]
        out[:, -1] += q * hist[:, -1]
        return out

    def _call_outcomes(
        self, observation: Observation, deadline: float
    ) -> tuple[int, Any, Any] | None:
        """``(lo, hist, rivals)`` for the calls ``lo``.. tried: ``hist[k, t]`` the weight of
        the playouts in which calling ``lo + k`` the seat won ``t`` tricks, ``rivals[k]``
        the weighted rival term (``_objective``); weights sum to 1.  None: no playouts."""
        import numpy

        from callbreak.bots.search.sampler import WorldSampler

        rules = observation.rules
        seat = observation.seat
        guess = self._heuristic.call(observation)
        lo = max(rules.min_call, guess - _CALL_SPREAD)
        hi = min(rules.max_call, guess + _CALL_SPREAD)
        playouts = _playouts(self.deterministic)
        if playouts is None:
            return None
        scores = points_table(rules)
        hist = numpy.zeros((hi - lo + 1, rules.hand_size + 1))
        rivals = numpy.zeros(hi - lo + 1)
        rows = numpy.arange(hi - lo + 1)
        voids = numpy.array(read(observation).voids, numpy.int64)
        models = numpy.array(self.models if self.models_in_calls else (1.0,))
        done = 0
        slowest = 0.0
        sampler = WorldSampler(observation, sigma=self.call_sigma)
        while not self._out_of_time(deadline, done, self.call_worlds * 4):
            if not self.deterministic and time.perf_counter() + slowest > deadline:
                break
            started = time.perf_counter()
            hands, weights = sampler.draw_arrays(self._batch(playouts), self._rng)
            if not len(hands):
                break
            calls = numpy.array(
                [self._calls_in(observation, row) for row in hands.tolist()], numpy.int64
            )
            out = numpy.zeros((len(hands), hi - lo + 1, 4), numpy.int64)
            world = sampler.template
            playouts.mixed_call_tricks(
                world.rules,
                hands,
                world.leader,
                calls,
                voids,
                seat,
                lo,
                out,
                models,
                self.model_noise,
                self._model_seed(models),
            )
            rivals += weights @ self._objective(scores, calls[:, None, :], out, seat, own=False)
            for i, weight in enumerate(weights):
                hist[rows, out[i, :, seat]] += weight
            done += len(hands)
            slowest = max(slowest, time.perf_counter() - started)
        total = hist[0].sum()
        if not done or total <= 0:
            return None
        return lo, hist / total, rivals / total

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

    def _call_table(self, rules: Rules, lo: int, hi: int, learned: float = 0.0) -> Any:
        """``table[k, t]``: the points of calling ``lo + k`` when the playouts give ``t``
        tricks, with ``call_bias`` tricks added (interpolated between whole tricks).  The
        default shifts only the playouts' share (``1 - learned``): the learned forecast is
        of the tricks the expert itself takes, not the heuristic of the playouts."""
        import numpy

        rows = points_table(rules)[lo : hi + 1]
        bias = self.call_bias
        if bias is None:
            bias = 0.25 * (1 - learned) if rules.success_window == "at_least" else 0.0
        whole = int(bias // 1)
        part = bias - whole
        won = numpy.arange(rules.hand_size + 1) + whole
        below = rows[:, numpy.clip(won, 0, rules.hand_size)]
        above = rows[:, numpy.clip(won + 1, 0, rules.hand_size)]
        return (1 - part) * below + part * above

    def _calls_in(self, observation: Observation, hands: list[int]) -> list[int]:
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
