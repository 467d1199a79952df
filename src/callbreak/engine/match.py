"""A match: deals in turn, dealer rotation, redeals, totals, the end and the tie-break.

The match owns the one random generator of a game, so a seed reproduces the
first dealer, every shuffle and every redeal.  ``act`` forwards to the current
deal and moves the match on by itself, so a driver loop is just
``while not match.over: match.act(choose(match.observation(match.to_act)))``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from callbreak.decks import DECKS, ROOK_FREE, STANDARD, Deck
from callbreak.engine.actions import Action
from callbreak.engine.deal import OVER, VOID, Deal, check_rules
from callbreak.engine.deal import check_seed as check_seed  # a match's seed, as a deal's
from callbreak.engine.games import Context
from callbreak.engine.observation import Observation, observe, observe_public
from callbreak.points import Points
from callbreak.rules import Rules

Hands = Sequence[str | Sequence[str | int]]

VOID_LIMIT = 100
"""Thrown-in deals in a row after which a match gives up (``Match(void_limit=...)``).

Real tables throw in a deal now and then (a misdeal, calls too few); a hundred in a row
only happens when the actions chosen can never let a deal be played, such as a driver
that always calls the lowest call under ``min_total_calls``.
"""


class EndlessRedeal(RuntimeError):
    """The match stopped because too many deals in a row were thrown in.

    A ``RuntimeError``, not an ``IllegalAction``: every action was legal, but the loop
    driving the match would otherwise redeal forever.
    """


@dataclass(frozen=True)
class DealerDraw:
    """How the first dealer was chosen: the method and, for a draw, each round's cards."""

    method: str
    dealer: int
    rounds: tuple[tuple[tuple[int, str], ...], ...] = ()
    """For a draw: each round's (seat, card) pairs; later rounds only for seats still tied."""


@dataclass
class DealEntry:
    """A finished (or void) deal in the match, with what it did to the totals."""

    deal: Deal
    seed: int | None
    number: int
    """1-based count of scored deals so far; a void deal has the number of the deal it replaces."""
    tie_break: bool
    counting_seats: tuple[int, ...]
    totals: tuple[Points, ...]


def draw_first_dealer(
    method: str, players: int, rng: random.Random, deck: Deck = STANDARD
) -> DealerDraw:
    """Pick the first dealer by ``first_dealer``: at random, or by drawing cards from the
    game's own deck (ties redraw; the Rook, in no colour yet, draws lowest)."""
    if method == "random":
        return DealerDraw(method, rng.randrange(players))
    seats = list(range(players))
    rounds = []
    while True:
        cards = rng.sample(deck.cards, len(seats))
        rounds.append(tuple((s, deck.names[c]) for s, c in zip(seats, cards, strict=True)))
        ranks = [-1 if deck.has_rook and c == ROOK_FREE else c % deck.stride for c in cards]
        target = min(ranks) if method == "draw_low" else max(ranks)
        seats = [s for s, r in zip(seats, ranks, strict=True) if r == target]
        if len(seats) == 1:
            return DealerDraw(method, seats[0], tuple(rounds))


def scheduled_size(rules: Rules, deals_before: int) -> int:
    """The hand size of a match's deal after ``deals_before`` scored deals: the game's
    schedule at that deal (its last size past it, for a tie-break deal), or its one size."""
    schedule = rules.shape.schedule
    if schedule is None:
        return rules.hand_size
    sizes = schedule(rules)
    return sizes[min(deals_before, len(sizes) - 1)]


def opening_deal(rules: Rules, deck: Sequence[int], dealer: int, deals_before: int = 0) -> Deal:
    """The first deal of ``Match(rules, dealer=dealer, decks=[deck], deals_before=...)``,
    as dealt and settled by nothing: a caller can tell a hand void as dealt without
    starting a match on it (the arena redraws those before any bot sees them)."""
    context = opening_context(rules, deals_before)
    size = scheduled_size(rules, deals_before)
    return Deal(rules, deck=deck, dealer=dealer, context=context, hand_size=size)


def opening_context(rules: Rules, deals_before: int = 0) -> Context | None:
    """What the first deal of a match started after ``deals_before`` deals is told of it:
    the starting scores and its number (Judgement's trump); None where deals read nothing."""
    if not rules.shape.needs_context:
        return None
    players = rules.players
    fresh = (Points.whole(rules.shape.start),) * players
    return Context(fresh, frozenset(), (0,) * players, deals_before)


class Match:
    """A whole match under ``rules``; see docs/design.md.

    ``seed`` (a whole number from 0 to ``MAX_SEED``, 2**63 - 1, as records hold it; None
    draws one) reproduces the first dealer and every shuffle.

    ``hands`` (optional) gives the hands of successive deals in order, void
    deals included, instead of shuffling: replays and duplicate arenas use it.
    ``decks`` does the same with whole decks in dealing order (every game; the
    only way for games that deal a nest, a stock or a face-up card).  Once
    either runs out, the match shuffles from its seed.

    ``void_limit`` (default ``VOID_LIMIT``, 100) bounds the thrown-in deals in a
    row: the one that reaches it raises ``EndlessRedeal`` instead of redealing, so a
    driver whose choices void every deal fails loudly rather than spinning forever.
    ``None`` lifts the bound (replaying a record, which is finite, uses it).  It is
    a guard of the loop, not a rule of the game, so records do not carry it.

    ``deals_before`` (default 0) starts the match partway through: that many deals
    count as played, with no points, so its first deal is the one after them, numbered,
    sized and trumped as that deal of a whole match (the schedule of Oh Hell and
    Judgement).  The arena plays its deal set *k* so; the record's deal numbers say it.

    >>> match = Match(Rules.preset("callbreak"), seed=7)
    >>> import random
    >>> rng = random.Random(1)
    >>> while not match.over:
    ...     match.act(rng.choice(match.legal()))
    >>> len(match.scored_deals), match.winners == [match.totals.index(max(match.totals))]
    (5, True)
    """

    def __init__(
        self,
        rules: Rules,
        seed: int | None = None,
        *,
        dealer: int | None = None,
        hands: Iterable[Hands] | None = None,
        decks: Iterable[Sequence[str | int]] | None = None,
        void_limit: int | None = VOID_LIMIT,
        deals_before: int = 0,
    ) -> None:
        check_rules(rules)
        if hands is not None and decks is not None:
            raise ValueError("give the hands or the decks of the deals, not both")
        if void_limit is not None and (
            isinstance(void_limit, bool) or not isinstance(void_limit, int) or void_limit < 1
        ):
            raise ValueError(
                f"void_limit must be a whole number of at least 1 or None, not {void_limit!r}"
            )
        self.void_limit = void_limit
        self._voids_in_row = 0
        self.rules = rules
        self.deals_before = _check_deals_before(rules, deals_before)
        self.players = rules.players
        if seed is None:
            seed = random.SystemRandom().getrandbits(63)
        self.seed = check_seed(seed)
        """The match's seed (drawn at random when none is given, so every record reproduces)."""
        self._rng = random.Random(self.seed)
        if dealer is None:
            self.dealer_draw = draw_first_dealer(
                rules.first_dealer, self.players, self._rng, DECKS[rules.shape.deck]
            )
        else:
            self.dealer_draw = DealerDraw("given", dealer)
        self._hands: Iterator[Hands] | None = None if hands is None else iter(hands)
        self._decks: Iterator[Sequence[str | int]] | None = None if decks is None else iter(decks)
        self.entries: list[DealEntry] = []
        self.totals: list[Points] = [Points.whole(rules.shape.start)] * self.players
        self.winners: list[int] = []
        self.over = False
        self.counting_seats: tuple[int, ...] = tuple(range(self.players))
        self.tie_break = False
        self.out: set[int] = set()
        """Seats out of the game (Snarples at 33 or more): no longer dealt in."""
        self.sat_out = [0] * self.players
        """Deals in a row each seat has sat out (Snarples may not sit out a third)."""
        self._spec = rules.shape
        self.deal: Deal = self._new_deal(self.dealer_draw.dealer)
        if self.deal.over:  # thrown in as dealt (misdeal=auto, misdeal_no_spade)
            self._settle()

    # ------------------------------------------------------------- public API
    @property
    def phase(self) -> str:
        return "over" if self.over else self.deal.phase

    @property
    def to_act(self) -> int | None:
        return None if self.over else self.deal.to_act

    @property
    def dealer(self) -> int:
        return self.deal.dealer

    @property
    def deal_number(self) -> int:
        """1-based number of the current deal (void redeals keep the number)."""
        return self._deals_done() + (0 if self.over else 1)

    @property
    def scored_deals(self) -> list[DealEntry]:
        return [e for e in self.entries if e.deal.phase == OVER]

    def _deals_done(self) -> int:
        """Deals of the match behind it: those it started after and those it has scored."""
        return self.deals_before + len(self.scored_deals)

    def legal(self) -> list[Any]:
        return [] if self.over else self.deal.legal()

    def act(self, action: Action) -> None:
        """Apply the action of ``to_act`` to the current deal, then move the match on."""
        if self.over:
            from callbreak.engine.errors import IllegalAction

            raise IllegalAction("the match is over: no more actions", "phase")
        self.deal.act(action)
        if self.deal.over:
            self._settle()

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know: its observation of the current deal plus the match totals."""
        counting = list(self.counting_seats) if self.tie_break else None
        return observe(self.deal, seat, list(self.totals), self.deal_number, counting)

    def public_observation(self) -> Observation:
        """What a spectator may know: everything public, no hand (``seat`` is -1)."""
        counting = list(self.counting_seats) if self.tie_break else None
        return observe_public(self.deal, list(self.totals), self.deal_number, counting)

    def finish(self) -> None:
        """End an open-ended match before the current deal has started (``match_end = open``).

        A tie at the top then goes to the tie-break: the fresh deal, untouched so far,
        becomes the extra deal.  Once over, ``deal`` is the last deal played again.
        """
        if self.over:
            return
        if self.rules.match_end != "open":
            raise ValueError(
                f"only an open-ended match (match_end = open) is finished by its players; "
                f"this one ends by match_end = {self.rules.match_end}"
            )
        if self.tie_break:
            raise ValueError("a tie-break deal is under way: it decides the match")
        if self.deal.log:
            raise ValueError("finish the match between deals, before anyone has acted in a deal")
        scored = self.scored_deals
        if not scored:
            raise ValueError("no deal has been played yet: there is nothing to decide")
        self._decide(list(range(self.players)))
        if self.over:
            self.deal = scored[-1].deal

    # ------------------------------------------------------------- internals
    def deal_seed(self, index: int) -> int:
        """Shuffle seed of the ``index``-th deal (0-based, void deals counted).

        A pure function of the match seed and the index, so a match rebuilt from
        its record deals the rest exactly as the original would have.
        """
        return random.Random(f"callbreak-deal/{self.seed}/{index}").getrandbits(63)

    def context(self) -> Context | None:
        """What the next deal is told of the match (None for games whose deals need nothing)."""
        if not self._spec.needs_context:
            return None
        return Context(
            tuple(self.totals), frozenset(self.out), tuple(self.sat_out), self._deals_done()
        )

    def hand_size(self) -> int:
        """The hand size of the next deal: the game's schedule at this deal (its last size for
        a tie-break deal past it), or the game's one size."""
        return scheduled_size(self.rules, self._deals_done())

    def _new_deal(self, dealer: int) -> Deal:
        self._deal_seed: int | None = None
        context = self.context()
        size = self.hand_size()
        if self._hands is not None:
            hands = next(self._hands, None)
            if hands is not None:
                return Deal(self.rules, hands, dealer=dealer, context=context, hand_size=size)
        if self._decks is not None:
            deck = next(self._decks, None)
            if deck is not None:
                return Deal(self.rules, deck=deck, dealer=dealer, context=context, hand_size=size)
        self._deal_seed = self.deal_seed(len(self.entries))
        return Deal(
            self.rules, seed=self._deal_seed, dealer=dealer, context=context, hand_size=size
        )

    def _settle(self) -> None:
        while self._settle_one():
            pass  # the next deal was thrown in as dealt (misdeal=auto, misdeal_no_spade)

    def _settle_one(self) -> bool:
        """Book the finished or void deal and start the next; True if that one is void already."""
        deal = self.deal
        next_dealer = deal.dealer
        if deal.phase == VOID:
            number = self._deals_done() + 1
            self._voids_in_row += 1
        else:
            self._voids_in_row = 0
            points = deal.points
            assert points is not None
            for seat in self.counting_seats:
                self.totals[seat] += points[seat]
            number = self._deals_done() + 1
            self._after_deal(deal)
            next_dealer = self._next_dealer(deal.dealer)
        self.entries.append(
            DealEntry(
                deal,
                self._deal_seed,
                number,
                self.tie_break,
                self.counting_seats,
                tuple(self.totals),
            )
        )
        if deal.phase == OVER:
            self._check_end()
        if self.over:
            return False
        if self.void_limit is not None and self._voids_in_row >= self.void_limit:
            raise EndlessRedeal(
                f"{self._voids_in_row} deals in a row were thrown in (the last: "
                f"{deal.void_reason or 'void'}); the match stops instead of redealing "
                f"forever. Actions that can never make a deal count, such as calls "
                f"always adding up to less than min_total_calls, cause this; "
                f"Match(void_limit=N) sets the limit, None lifts it"
            )
        self.deal = self._new_deal(next_dealer)
        return self.deal.over

    def _after_deal(self, deal: Deal) -> None:
        """Sit-out runs and seats out of the game, from a scored deal."""
        for seat in deal.dealt_in:
            self.sat_out[seat] = self.sat_out[seat] + 1 if seat in deal.dropped else 0
        out_at = self.rules.shape.out_at
        if out_at is not None:
            limit = Points.whole(out_at)
            self.out |= {s for s in range(self.players) if self.totals[s] >= limit}

    def _next_dealer(self, dealer: int) -> int:
        """The next seat still in the game after ``dealer``."""
        seat = (dealer + 1) % self.players
        while seat in self.out and len(self.out) < self.players:
            seat = (seat + 1) % self.players
        return seat

    def _check_end(self) -> None:
        rules = self.rules
        shape = rules.shape
        instant = self._spec.wins_at_once
        winner = None if instant is None else instant(self.deal)
        if winner is not None:
            self.winners, self.over = sorted(shape.side(winner)), True
            return
        if shape.ends_at_zero:
            in_game = [s for s in range(self.players) if s not in self.out]
            if any(self.totals[s] <= 0 for s in in_game) or len(in_game) <= 1:
                self._decide(list(range(self.players)))
            return
        if self.tie_break:
            self._decide(list(self.counting_seats))
        elif rules.match_end == "deals":
            if self._deals_done() >= rules.match_deals:
                self._decide(list(range(self.players)))
        elif rules.match_end.startswith("target:"):
            target = Points.whole(int(rules.match_end.split(":")[1]))
            if any(t >= target for t in self.totals):
                self._decide(list(range(self.players)))

    def _decide(self, seats: list[int]) -> None:
        shape = self.rules.shape
        pick = min if shape.lowest_wins else max
        best = pick(self.totals[s] for s in seats)
        top = [s for s in seats if self.totals[s] == best]
        # Partners share one score: a side at the top alone has won, whichever its seats.
        if len({shape.side(s) for s in top}) == 1 or self.rules.tie_break == "shared":
            self.winners, self.over = top, True
            return
        self.tie_break = True
        self.counting_seats = tuple(top)
        # The next deal (started by _settle, or the untouched one after finish()) is the extra.


def _check_deals_before(rules: Rules, deals_before: int) -> int:
    """A whole number of deals that leaves the match at least one to play."""
    if isinstance(deals_before, bool) or not isinstance(deals_before, int) or deals_before < 0:
        raise ValueError(f"deals_before must be a whole number of at least 0, not {deals_before!r}")
    if deals_before and rules.match_end == "deals" and deals_before >= rules.match_deals:
        raise ValueError(
            f"deals_before={deals_before} leaves nothing to play: "
            f"the match is {rules.match_deals} deals"
        )
    return deals_before
