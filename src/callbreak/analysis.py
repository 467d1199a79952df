"""After the deal, the exact solver says where the points went (issue 19).

A finished deal is reviewed for one seat, the way a chess player runs an
engine over a game: at every card that seat played, with *every* hand known
(the record holds them), each legal card is valued against best defence
under the scoring in force, by the exact one-against-three solver
(``bots.search.Solver``).  A card's value is the points the seat secures
after it: the most the seat can force when it plays on perfectly and the
three others, seeing every card, play as one side to hold it down.  A
decision whose card is worth less than the best is flagged with the better
card and the cost.  Before the play, the call: the largest call the seat
could have made from the start against best defence, and what its own call
was worth there.

Values are points, not tricks, because the scorings differ in shape: Call
Break's points rise with every trick (``rules.score`` is non-decreasing in
the tricks won), so a card's value is the score of the most tricks it can
force (``Solver.move_values``); Call Bridge's window (exactly the call or one
more) is not monotone, so the seat's question there is "can I force my count
into the set of counts that score at least v?" for each score level v, which
is a window search (``Solver.window_move_values``).  Both are exact: the
value is the largest level whose set of counts the seat can force.  The
window search is used for every scoring with at most two levels (a made call
scores one flat amount: Call Bridge, Batak Koz Maça), since one window
search per card is cheaper than finding the most tricks.

The solver's defenders see every card, so a loss against them is sometimes a
loss nobody could have avoided from the seat's chair.  The second opinion
tells the two apart: the ``expert`` bot, given only the seat's
``Observation`` (deterministic, a small fixed number of sampled worlds),
picks its card; when its card keeps the value the played card lost, the loss
was a blunder; when it would have lost as much, it was the hidden cards.

The solver analyses the call games whose deal is their hands (Call Break, its
Bhoos preset, Call Bridge, Batak Koz Maça, Spades, Judgement: ``solved``);
``Analyst.deal`` reviews every other game by playouts with the hands shown
(``callbreak.playout_review``), and the review names its method.  Every
solver question is bounded by ``node_limit``; a question that needs more is
reported as unknown rather than waited for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Any

from callbreak.bots.expert import compiled_search_plays
from callbreak.bots.search.solver import NodeLimitExceeded, Solver
from callbreak.bots.search.world import World
from callbreak.cards import CARD_NAMES, RANK_COUNT
from callbreak.engine.deal import Deal, dealing_of, play_rules
from callbreak.engine.games import deal_round
from callbreak.engine.match import Match
from callbreak.points import Points
from callbreak.rules import Rules
from callbreak.verdicts import SOLVER as SOLVER
from callbreak.verdicts import AnalysisError as AnalysisError
from callbreak.verdicts import CallReview as CallReview
from callbreak.verdicts import DealReview as DealReview
from callbreak.verdicts import Decision as Decision
from callbreak.verdicts import signed as signed

DEFAULT_NODE_LIMIT = 30_000_000
"""Nodes per solver question (a few seconds compiled); past it the answer is "unknown"."""

DEFAULT_EXPERT = "expert:deterministic=1,worlds=32,call_worlds=32"
"""The second opinion: the expert with a fixed, small number of worlds (reproducible)."""


def solved(rules: Rules) -> bool:
    """Whether the exact solver values ``rules``' deals (else playouts do:
    ``callbreak.playout_review``): a call game of four seats each for itself, scored by its
    own call (``Rules.score``), whose deal is its whole hands (not Spades' sides, not Oh
    Hell's or Judgement's changing hands and exact bids): the deals the compiled search
    models."""
    return compiled_search_plays(rules) and dealing_of(rules) is deal_round


def check_analysable(rules: Rules) -> None:
    """Raise ``AnalysisError`` unless the solver models ``rules``' deal: the call games'."""
    if not solved(rules):
        raise AnalysisError(
            f"the exact solver plays Call Break, its Bhoos preset, Call Bridge and Batak Koz "
            f"Maça only; `callbreak analyze RECORD` reviews {rules.title} by playouts with the "
            "hands shown"
        )


# ------------------------------------------------------------------ scoring shapes
@dataclass(frozen=True)
class Scoring:
    """What one call scores for every final trick count, and how to search for it.

    ``points[w]`` is ``rules.score(call, w)``.  ``levels`` are the scores above
    the lowest, highest first, each with the interval ``[lo, hi]`` of final
    counts that score at least that much (an interval for every scoring of the
    call games; anything else is refused).
    """

    call: int
    points: tuple[Points, ...]
    levels: tuple[tuple[Points, int, int], ...]
    monotone: bool

    @classmethod
    def of(cls, rules: Rules, call: int) -> Scoring:
        points = tuple(rules.score(call, won) for won in range(rules.hand_size + 1))
        monotone = all(a <= b for a, b in pairwise(points))
        floor = min(points)
        levels = []
        for level in sorted(set(points), reverse=True):
            if level == floor:
                continue
            counts = [won for won, p in enumerate(points) if p >= level]
            lo, hi = counts[0], counts[-1]
            if counts != list(range(lo, hi + 1)):
                raise AnalysisError(
                    f"the scoring of a call of {call} is not analysable: the counts scoring "
                    f"{level} or more are not one interval"
                )
            levels.append((level, lo, hi))
        return cls(call, points, tuple(levels), monotone)

    @property
    def floor(self) -> Points:
        return min(self.points)

    @property
    def by_window(self) -> bool:
        """Search a window per level (cheap with one or two levels, and the only way when
        the score is not monotone), rather than the most tricks per card."""
        return not self.monotone or len(self.levels) <= 1

    def success(self) -> tuple[int, int]:
        """Final counts that make the call (the lowest positive level's interval)."""
        positive = [(lo, hi) for level, lo, hi in self.levels if level.tenths > 0]
        if not positive:
            return (self.call, len(self.points) - 1)
        return positive[-1]

    def position(self, solver: Solver, world: World, seat: int) -> tuple[Points, int | None]:
        """Value of ``world`` for ``seat`` against best defence, and (when searched by the
        most tricks) those tricks."""
        if not self.by_window:
            tricks = solver.solve(world, seat)
            return self.points[tricks], tricks
        for level, lo, hi in self.levels:
            if solver.can_reach(world, seat, lo, hi):
                return level, None
        return self.floor, None

    def cards(
        self, solver: Solver, world: World, seat: int
    ) -> tuple[dict[int, Points], dict[int, int] | None]:
        """Value of each legal card of ``seat`` (to act in ``world``) against best defence,
        and, when searched by the most tricks, the most tricks after each card."""
        if not self.by_window:
            tricks = solver.move_values(world, seat)
            return {card: self.points[t] for card, t in tricks.items()}, tricks
        values: dict[int, Points] = {}
        left: set[int] | None = None
        for level, lo, hi in self.levels:
            reach = solver.window_move_values(world, seat, lo, hi)
            if left is None:
                left = set(reach)
            for card in sorted(left):
                if reach[card]:
                    values[card] = level
            left -= set(values)
            if not left:
                break
        if left is None:  # one score whatever happens: every card is worth it
            left = set(solver.window_move_values(world, seat, 0, len(self.points) - 1))
        for card in left:
            values[card] = self.floor
        return values, None


# ------------------------------------------------------------------ results
# ------------------------------------------------------------------ the analysis
Progress = Callable[[int], None]
"""Called with the number of decisions just finished (for a progress bar)."""


@dataclass
class Analyst:
    """Reviews deals for one seat with one solver and (optionally) one expert spec.

    ``solver`` defaults to a compiled one (when numba is there) with ``node_limit``;
    ``expert`` is a bot spec for the second opinion, or None for none.
    """

    solver: Solver | None = None
    node_limit: int | None = DEFAULT_NODE_LIMIT
    expert: str | None = DEFAULT_EXPERT
    threads: int = 1
    from_trick: int = 1
    """Value the seat's cards from this trick on (the first tricks of a deal are the
    solver's hardest questions; an ending alone is reviewed in a blink)."""
    _warm: bool = field(default=False, init=False)

    def __post_init__(self) -> None:
        if self.solver is None:
            from callbreak.bots.search.solver import numba_available

            threads = self.threads if numba_available() else 1
            # One table for all the questions of a deal: the later positions were mostly
            # proved while the earlier ones were searched (half the nodes, the same answers).
            self.solver = Solver(node_limit=self.node_limit, threads=threads, keep_table=True)

    @staticmethod
    def decisions(deal: Deal) -> int:
        """Work units of a deal for a progress bar: the call and each trick."""
        return 1 + len(deal.history)

    def warm_up(self) -> None:
        """Compile the solver now, then let the expert compile its kernels in the background
        (numba: seconds, once per process) while the solver works on the first deal."""
        if self._warm:
            return
        self._warm = True
        assert self.solver is not None
        rules = play_rules(Rules.preset("callbreak"))
        # Two tricks left, so that the search itself runs (and compiles), not only its bounds.
        hands = (0b11, 0b1100, 0b110000, 0b11000000)
        self.solver.move_values(World(rules, hands, 0, tricks=(3, 3, 3, 2)), 0)
        if self.expert is not None and self.expert.split(":", 1)[0] == "expert":
            from callbreak.bots.expert import warm_up_search

            warm_up_search(wait=False)

    def deal(
        self, deal: Deal, seat: int, number: int = 1, progress: Progress | None = None
    ) -> DealReview:
        """Review ``deal`` (played out) for ``seat``; ``progress(1)`` after each decision."""
        rules = deal.rules
        if deal.phase != "over":
            raise AnalysisError(
                f"deal {number} was not played out ({deal.phase}): nothing to review"
            )
        if not 0 <= seat < deal.players:
            raise AnalysisError(f"seat must be from 0 to {deal.players - 1}, not {seat}")
        if not solved(rules):
            return self._playouts(deal, seat, number, progress, self.from_trick)
        self.warm_up()
        solver = self.solver
        assert solver is not None
        solver.clear()  # a kept table (``Solver.keep_table``) starts each deal empty
        call = deal.calls[seat]
        assert call is not None
        scoring = Scoring.of(rules, call)
        engine_rules = play_rules(rules)
        trump = engine_rules.trump

        # Walk a fresh copy of the deal through its record, stopping at each of the seat's
        # turns: the same engine says what was legal and what the seat could see.
        walk = Deal(rules, hands=[deal.names_of(h) for h in deal.dealt], dealer=deal.dealer)
        bot = self._bot(deal, number, seat)
        expert_call: int | None = None
        for phase, actor, action in deal.log:
            if phase == "call" and actor == seat and bot is not None:
                expert_call = int(bot.act(walk.observation(seat)))
            walk.act(action)
        call_review = self._call(scoring, rules, deal, walk, seat, call, expert_call)
        if progress is not None:
            progress(1)

        decisions = []
        for number_, (leader, cards, _winner) in enumerate(deal.history, 1):
            for position, card in enumerate(cards):
                if (leader + position) % deal.players == seat and number_ >= self.from_trick:
                    decisions.append(
                        self._decision(scoring, walk, seat, number_, position, card, trump, bot)
                    )
                walk.act(CARD_NAMES[card])
            if progress is not None:
                progress(1)
        return DealReview(
            number=number,
            seat=seat,
            dealer=deal.dealer,
            rules=rules.name,
            call=call_review,
            decisions=tuple(decisions),
            won=deal.tricks[seat],
            game=deal.rules.game,
        )

    def match(
        self,
        match: Match,
        seat: int,
        deals: Sequence[int] | None = None,
        progress: Progress | None = None,
    ) -> list[DealReview]:
        """Review every played-out deal of ``match`` (or those numbered in ``deals``)."""
        reviews = []
        for number, deal in played_deals(match):
            if deals is None or number in deals:
                reviews.append(self.deal(deal, seat, number, progress))
        return reviews

    # -------------------------------------------------------------- pieces
    @staticmethod
    def _playouts(
        deal: Deal, seat: int, number: int, progress: Progress | None, from_trick: int
    ) -> DealReview:
        """A game the solver does not model: every decision valued by playouts with the
        hands shown (``callbreak.playout_review``)."""
        from callbreak.playout_review import METHOD, outcome, review_decisions

        decisions = review_decisions(deal, seat, from_trick)
        if progress is not None:
            progress(Analyst.decisions(deal))
        return DealReview(
            number=number,
            seat=seat,
            dealer=deal.dealer,
            rules=deal.rules.name,
            call=outcome(deal, seat),
            decisions=decisions,
            won=deal.tricks[seat],
            method=METHOD,
            game=deal.rules.game,
        )

    def _bot(self, deal: Deal, number: int, seat: int) -> Any:
        """The second opinion's bot for this deal (seeded by deal and seat: reproducible)."""
        if self.expert is None:
            return None
        from callbreak.bots import make_bot

        return make_bot(self.expert, seed=number * 16 + seat)

    def _call(
        self,
        scoring: Scoring,
        rules: Rules,
        deal: Deal,
        walk: Deal,
        seat: int,
        call: int,
        expert: int | None,
    ) -> CallReview:
        solver = self.solver
        assert solver is not None and deal.points is not None
        start = World(play_rules(rules), tuple(deal.dealt), walk.leader)
        scored = deal.points[seat]
        try:
            most = solver.solve(start, seat)
            worth, _ = scoring.position(solver, start, seat)
            makeable: int | None = None
            for candidate in range(min(most, rules.max_call), rules.min_call - 1, -1):
                shape = Scoring.of(rules, candidate)
                lo, hi = shape.success()
                if lo <= most and (hi >= rules.hand_size or solver.can_reach(start, seat, lo, hi)):
                    makeable = candidate
                    break
        except NodeLimitExceeded:
            return CallReview(call, scored, None, None, None, None, unknown=True, expert=expert)
        makeable_worth = None
        if makeable is not None:
            makeable_worth, _ = Scoring.of(rules, makeable).position(solver, start, seat)
        return CallReview(call, scored, worth, most, makeable, makeable_worth, expert=expert)

    def _decision(
        self,
        scoring: Scoring,
        walk: Deal,
        seat: int,
        trick: int,
        position: int,
        card: int,
        trump: int,
        bot: Any,
    ) -> Decision:
        legal = tuple(walk.legal())
        played = CARD_NAMES[card]
        expert = None
        if bot is not None and len(legal) > 1:
            expert = str(bot.act(walk.observation(seat)))
        if len(legal) == 1:
            return Decision(trick, position, played, legal, None)
        world = world_of(walk, trump)
        solver = self.solver
        assert solver is not None
        try:
            values, tricks = scoring.cards(solver, world, seat)
        except NodeLimitExceeded:
            return Decision(trick, position, played, legal, None, None, expert)
        named = {CARD_NAMES[c]: v for c, v in values.items()}
        if set(named) != set(legal):
            raise AssertionError(
                f"trick {trick}: the solver's legal cards {sorted(named)} differ from the "
                f"engine's {sorted(legal)}"
            )
        named_tricks = None if tricks is None else {CARD_NAMES[c]: t for c, t in tricks.items()}
        return Decision(trick, position, played, legal, named, named_tricks, expert)


def world_of(deal: Deal, trump: int) -> World:
    """The solver's ``World`` for a deal in its play phase: every hand, the trick so far."""
    played = 0
    for _, cards, _ in deal.history:
        for c in cards:
            played |= 1 << c
    for c in deal.trick:
        played |= 1 << c
    trump_played = trump >= 0 and bool(played >> (trump * RANK_COUNT) & ((1 << RANK_COUNT) - 1))
    return World(
        play_rules(deal.rules),
        tuple(deal.hands),
        deal.leader,
        tuple(deal.trick),
        tuple(deal.tricks),
        trump_played,
    )


def played_deals(match: Match) -> list[tuple[int, Deal]]:
    """The deals of ``match`` that were played out, with their numbers (void ones left out)."""
    return [(entry.number, entry.deal) for entry in match.entries if entry.deal.phase == "over"]
