"""One deal of any game of the family: its phases in order, then over, or void.

The public ``Deal`` validates every action and explains refusals; it keeps just
enough state (masks and small lists) that random play through it stays fast.
The phases before the play (misdeal, call, declare, auction, discard, trump,
partner, ...) are objects listed by the game's record (``callbreak.games``) and
walked by ``advance``; the card play is inlined in ``act`` because every random
playout goes through it.  State the phases leave (calls, bids, contract, trump,
partner) lives here, where ``observe`` reads what is public.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from callbreak import cards
from callbreak.cards import DECK_SIZE, RANK_COUNT, RANKS, SUIT_MASKS
from callbreak.decks import DECKS, REVERSED, ROOK_FREE, ROOK_SLOT, STANDARD, Deck, reverse_ranks
from callbreak.engine.errors import IllegalAction
from callbreak.engine.games import Context, Layout, deal_round
from callbreak.engine.phases import Phase
from callbreak.engine.tricks import PlayRules, beats, explain_illegal, legal_mask
from callbreak.games import Game
from callbreak.points import Points
from callbreak.rules import Rules

if TYPE_CHECKING:
    from callbreak.engine.observation import Observation, TrickView

Action = int | str | bool
"""A call or bid (int), a card, a suit, "pass" (strings) or a yes/no decision (bool)."""

MISDEAL, CALL, DECLARE, PLAY, OVER, VOID = "misdeal", "call", "declare", "play", "over", "void"
AUCTION, TRUMP, DISCARD, PARTNER = "auction", "trump", "discard", "partner"

_Engine = tuple[PlayRules, Game, Deck, int, tuple[int, ...]]
_ENGINE_CACHE: dict[Rules, _Engine] = {}
_LAST_ENGINE: list[Any] = [None, None]


def _engine(rules: Rules) -> _Engine:
    """What a deal under ``rules`` needs from them, looked up once per Rules.

    Hashing and comparing a Rules walks every option, so the last Rules seen is
    checked by identity first: a match or a playout loop deals under one object.
    """
    last, found = _LAST_ENGINE
    if rules is last:
        engine: _Engine = found
        return engine
    cached = _ENGINE_CACHE.get(rules)
    if cached is None:
        cached = _ENGINE_CACHE[rules] = (
            PlayRules.of(rules),
            rules.shape,
            DECKS[rules.shape.deck],
            rules.hand_size,
            tuple(range(rules.players)),
        )
    _LAST_ENGINE[:] = (rules, cached)
    return cached


def play_rules(rules: Rules) -> PlayRules:
    """The play options of ``rules`` for the trick machinery (trump as the game fixes it)."""
    return _engine(rules)[0]


def shuffled_hands(players: int, dealer: int, rng: random.Random) -> list[int]:
    """Shuffle the deck and deal it one card at a time from the seat after the dealer.

    The shuffle sorts the deck by random keys: uniform, reproducible from the
    seed, and about twice as fast as ``random.shuffle`` on 52 cards.
    """
    draw = rng.random
    keys = [draw() for _ in _DECK_RANGE]
    order = sorted(_DECK_RANGE, key=keys.__getitem__)
    hands = [0] * players
    for i in range(players):
        mask = 0
        for card in order[i::players]:
            mask |= 1 << card
        hands[(dealer + 1 + i) % players] = mask
    return hands


_DECK_RANGE = range(DECK_SIZE)


_FACES_CACHE: dict[str, int] = {}


def _faces_mask(faces: str) -> int:
    mask = _FACES_CACHE.get(faces)
    if mask is None:
        mask = 0
        for rank_letter in faces:
            for suit in range(4):
                mask |= 1 << (suit * RANK_COUNT + RANKS.index(rank_letter))
        _FACES_CACHE[faces] = mask
    return mask


@functools.cache
def _next_table(active: tuple[int, ...], n: int) -> tuple[int, ...]:
    """For every seat of ``n``, the next active seat after it in turn."""
    table = []
    for seat in range(n):
        nxt = (seat + 1) % n
        while nxt not in active:
            nxt = (nxt + 1) % n
        table.append(nxt)
    return tuple(table)


_ROUND = {n: tuple((s + 1) % n for s in range(n)) for n in range(2, 9)}
"""The next seat of every seat when all play."""

_NO_CONTEXT = Context(())
"""A deal outside a match: ``score_before`` falls back to the game's start."""


def shuffled_deck(deck: Deck, rng: random.Random) -> list[int]:
    """The deck's cards in a random order, top first, by the same sort on random keys as
    ``shuffled_hands`` (which, for the 52-card deck, deals exactly this order)."""
    draw = rng.random
    keys = [draw() for _ in deck.cards]
    return [deck.cards[i] for i in sorted(range(len(keys)), key=keys.__getitem__)]


def misdeal_reason(rules: Rules, hand: int) -> str | None:
    """Why a hand qualifies for a misdeal under ``misdeal`` (None if it does not)."""
    if not hand & SUIT_MASKS[rules.trump_suit]:
        return "no spade"
    if not hand & _faces_mask(rules.misdeal_faces):
        return f"no {', '.join(rules.misdeal_faces)}"
    return None


class Deal:
    """One hand from the deal to the points; see docs/design.md for the public surface.

    >>> deal = Deal(Rules.preset("callbreak"), seed=7, dealer=0)
    >>> deal.phase, deal.to_act
    ('call', 1)
    >>> for call in (3, 3, 3, 3):
    ...     deal.act(call)
    >>> deal.phase, deal.to_act, len(deal.legal()) > 0
    ('play', 1, True)

    Other games walk their own phases through the same methods:

    >>> batak = Deal(Rules.preset("batak-ihale"), seed=7, dealer=0)
    >>> batak.phase, batak.to_act, batak.legal()[:3], batak.legal()[-1]
    ('auction', 1, [5, 6, 7], 'pass')
    """

    # Slots, not a __dict__: a deal has some forty facts, and past thirty a per-instance dict
    # loses CPython's fast shared-key layout, which slowed every attribute read of the play
    # loop by a tenth.  Facts most games never set get their neutral value in __init__.
    __slots__ = (
        "_hand_size",
        "_input",
        "_led",
        "_legal",
        "_names",
        "_next",
        "_phase",
        "_phase_at",
        "_play_rules",
        "_points",
        "_trick_size",
        "_views",
        "_win",
        "_win_seat",
        "active",
        "bids",
        "calls",
        "chooser",
        "claims",
        "context",
        "contract",
        "dealer",
        "dealt",
        "dealt_in",
        "dealt_stock",
        "deck",
        "declared",
        "declared_voids",
        "declarer",
        "discards",
        "dropped",
        "exchanges",
        "hands",
        "history",
        "leader",
        "log",
        "may_drop",
        "nest",
        "partner",
        "partner_card",
        "passed",
        "pending",
        "phase",
        "players",
        "reversed_ranks",
        "rules",
        "seed",
        "settled",
        "spec",
        "stock",
        "thrown",
        "to_act",
        "trick",
        "tricks",
        "trump_played",
        "unplayed",
        "upcard",
        "void_reason",
    )

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[str | Sequence[str | int]] | None = None,
        *,
        deck: Sequence[str | int] | None = None,
        seed: int | None = None,
        dealer: int = 0,
        context: Context | None = None,
    ) -> None:
        self.rules = rules
        self.players = n = rules.players
        if not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
        self.dealer = dealer
        self.seed = seed
        self._play_rules, self.spec, self.deck, self._hand_size, everyone = _engine(rules)
        spec = self.spec
        self.context = _NO_CONTEXT if context is None else context
        """The match around the deal: scores, seats out of the game, sit-out runs."""
        if context is not None and context.out:
            everyone = tuple(s for s in everyone if s not in context.out)
            if dealer in context.out:
                raise ValueError(f"seat {dealer} is out of the game: it cannot deal")
        self.active = self.dealt_in = everyone
        """``dealt_in``: seats dealt cards (all but those out of the game); ``active``: seats
        playing the tricks, in seat order (fewer once seats drop or sit out)."""
        self._next = _next_table(everyone, n) if context is not None else _ROUND[n]
        self.nest = 0
        """The nest as dealt (Call Partner): hidden from everyone but the declarer once taken."""
        self.upcard: int | None = None
        """The face-up card (Donut: the dealer's fifth; Horsethief: the turned-up trump)."""
        self.stock: list[int] = []
        """Undealt cards in order, top first (out of play, or drawn from in an exchange)."""
        self.dealt_stock: tuple[int, ...] = ()
        """The stock as dealt (``stock`` shrinks as Horsethief draws): for records."""
        if hands is not None and deck is not None:
            raise ValueError("give the hands or the deck, not both")
        if deck is not None:
            self._lay_out(spec.dealing(self._check_deck(deck), self._deal_order(), rules.hand_size))
        elif hands is not None:
            self.dealt = self._check_hands(hands)
            if spec.dealing is not deal_round:
                raise ValueError(
                    f"{rules.title} deals more than hands (a nest, a stock or a face-up card): "
                    "give the whole deck with deck=[...]"
                )
        elif self.deck is STANDARD and n == 4 and self._hand_size == 13:
            self.dealt = shuffled_hands(n, dealer, random.Random(seed))
        else:
            order = shuffled_deck(self.deck, random.Random(seed))
            self._lay_out(spec.dealing(order, self._deal_order(), rules.hand_size))
        self.hands = list(self.dealt)
        self._input = self.deck.inputs
        self._names = cards.hand_names if self.deck is STANDARD else self.deck.hand_names
        self._trick_size = len(self.active)
        self.calls: list[int | None] = [None] * n
        self.claims: list[tuple[int, bool]] = []
        """Misdeal decisions in the order they were taken: (seat, claimed)."""
        self.declared: list[tuple[int, bool]] = []
        """Void declarations in order: (seat, declared)."""
        self.declared_voids: list[str] = [""] * n
        """Suit letters each seat has publicly declared void (``declare_voids``)."""
        self.bids: list[tuple[int, int | str]] = []
        """The auction in order: (seat, bid or "pass")."""
        self.passed: frozenset[int] = frozenset()
        self.contract: int | None = None
        """The winning bid (or the one being bid up during the auction)."""
        self.declarer: int | None = None
        self.discards = 0
        """Cards laid away: Call Partner's nest discards, Horsethief's exchanged cards (secret)."""
        self.partner_card: int | None = None
        self.partner: int | None = None
        """The partner card's holder (secret until it plays that card: see ``partner_known``)."""
        self.dropped: frozenset[int] = frozenset()
        """Seats that dropped or sat out this deal."""
        self.may_drop = False
        """Donut: whether the upcard lets players drop."""
        self.chooser: int | None = None
        """Who names trump this deal (the declarer, or Donut's dealer or highest score)."""
        self.settled: str | None = None
        """Snarples, everyone else sat out: the bidder's choice, "take" or "give"."""
        self.unplayed: str | None = None
        """Why the deal ended before its play (points are still scored), or None."""
        self.thrown = 0
        """Horsethief: cards the seat exchanging has discarded so far."""
        self.exchanges: list[tuple[int, int]] = []
        """Horsethief: (seat, cards exchanged), public."""
        self.reversed_ranks = False
        """Donut's 6: ranks run 2 high … A low this deal (the deck is ``REVERSED``)."""
        self._views: tuple[tuple[TrickView, ...], int] = ((), 0)
        """The observation builder's cache of the completed tricks (see ``observe``)."""
        self.log: list[tuple[str, int, Action]] = []
        """Every decision before the play, in order: (phase, seat, action as spelt in records)."""
        self.tricks = [0] * n
        self.trick: list[int] = []
        self.leader = self._next[dealer]
        self._led = -1  # suit led to the trick in progress, -1 before its first card
        self._win = -1  # card winning the trick in progress
        self._win_seat = -1
        self.history: list[tuple[int, tuple[int, ...], int]] = []
        """Completed tricks: (leader, cards in play order, winner)."""
        self.trump_played = False
        self.void_reason: str | None = None
        self._points: list[Points] | None = None
        self._legal: int = -1
        self.pending: list[int] = []
        """Seats still to answer a yes/no phase, in turn."""
        self.phase = ""
        self.to_act: int | None = None
        self._phase_at = -1
        self._phase: Phase | None = None
        self.advance()

    # ----------------------------------------------------------------- set-up
    def _deal_order(self) -> list[int]:
        """Active seats from the one after the dealer round to the dealer."""
        seats = []
        seat = self.dealer
        for _ in self.active:
            seat = self._next[seat]
            seats.append(seat)
        return seats

    def _lay_out(self, layout: Layout) -> None:
        hands = layout.hands + [0] * (self.players - len(layout.hands))
        self.dealt = hands
        self.nest = layout.nest
        self.upcard = layout.upcard
        self.stock = list(layout.stock)
        self.dealt_stock = tuple(layout.stock)

    def _check_deck(self, deck: Sequence[str | int]) -> list[int]:
        order = []
        seen = 0
        for at, item in enumerate(deck):
            try:
                card = self.deck.parse(item)
            except ValueError as error:
                raise ValueError(f"deck card {at + 1}: {error}") from None
            if seen >> card & 1:
                raise ValueError(f"deck card {at + 1}: {self.deck.names[card]} is listed twice")
            seen |= 1 << card
            order.append(card)
        if len(order) != self.deck.size:
            missing = self.deck.hand_names(self.deck.full & ~seen)
            raise ValueError(
                f"give the whole {self.deck.size}-card deck in the order it is dealt; got "
                f"{len(order)} cards" + (f", missing {' '.join(missing)}" if missing else "")
            )
        return order

    def _check_hands(self, hands: Sequence[str | Sequence[str | int]]) -> list[int]:
        n, size = self.players, self.rules.hand_size
        if len(hands) != n:
            raise ValueError(f"give {n} hands, one per seat; got {len(hands)}")
        masks = []
        seen = 0
        for seat, hand in enumerate(hands):
            try:
                mask = self.deck.parse_hand(hand)
            except ValueError as error:
                raise ValueError(f"seat {seat}: {error}") from None
            want = size if seat in self.active else 0
            if mask.bit_count() != want:
                raise ValueError(f"seat {seat} holds {mask.bit_count()} cards; it needs {want}")
            if mask & seen:
                dup = " ".join(self.deck.hand_names(mask & seen))
                raise ValueError(f"seat {seat}: {dup} already dealt to another seat")
            seen |= mask
            masks.append(mask)
        return masks

    # ------------------------------------------------------------ phase walk
    def advance(self) -> None:
        """End the phase in progress and begin the next that applies (play ends the deal)."""
        phases = self.spec.phases
        while True:
            self._phase_at += 1
            if self._phase_at >= len(phases):
                raise AssertionError("the play phase ends a deal; nothing comes after it")
            phase = phases[self._phase_at]
            self._phase, self.phase = phase, phase.name
            if phase.begin(self) or self.phase == VOID:
                return

    def void(self, reason: str) -> None:
        """Throw the deal in: nobody acts and it scores nothing (the same dealer deals again)."""
        self.phase, self.to_act, self.void_reason = VOID, None, reason
        self.pending = []

    def begin_play(self, leader: int) -> None:
        self.phase = PLAY
        self.to_act = self.leader = leader
        self._legal = -1

    def score_before(self, seat: int) -> Points:
        """``seat``'s match score before this deal (the game's start without a match)."""
        totals = self.context.totals
        return totals[seat] if totals else Points.whole(self.rules.shape.start)

    def set_active(self, seats: Sequence[int]) -> None:
        """The seats that play the tricks (after drops and sit-outs)."""
        self.active = tuple(seats)
        self._next = _next_table(self.active, self.players)
        self._trick_size = len(self.active)

    def finish_unplayed(self, reason: str) -> None:
        """End the deal before its play; the game's scorer still scores it."""
        self.unplayed = reason
        self._finish()

    def reverse_ranks(self) -> None:
        """Donut's 6: ranks run 2 high … A low for this deal.  Every mask moves to the
        ``REVERSED`` deck, where a higher int is still a higher card."""
        self.deck = REVERSED
        self._input = REVERSED.inputs
        self._names = REVERSED.hand_names
        self.reversed_ranks = True
        self.hands = [reverse_ranks(h) for h in self.hands]
        self.dealt = [reverse_ranks(h) for h in self.dealt]
        if self.upcard is not None:
            self.upcard = reverse_ranks(1 << self.upcard).bit_length() - 1
        self.stock = [reverse_ranks(1 << c).bit_length() - 1 for c in self.stock]
        self.dealt_stock = tuple(reverse_ranks(1 << c).bit_length() - 1 for c in self.dealt_stock)

    def ask_next(self) -> None:
        """The next seat waiting in ``pending`` acts; with none left the phase ends."""
        if self.pending:
            self.to_act = self.pending[0]
        else:
            self.advance()

    def log_action(self, phase: str, seat: int, action: Action) -> None:
        self.log.append((phase, seat, action))

    def set_trump(self, suit: int) -> None:
        """Trump for this deal; in the Rook deck the Rook joins that colour wherever it lies."""
        self._play_rules = self._play_rules._replace(trump=suit)
        if self.deck.has_rook:
            self.deck = self.deck.with_rook_in(suit)
            self._input = self.deck.inputs
            self._names = self.deck.hand_names
            placed = suit * self._play_rules.stride + ROOK_SLOT
            free = 1 << ROOK_FREE

            def place(mask: int) -> int:
                return mask ^ free | 1 << placed if mask & free else mask

            self.hands = [place(h) for h in self.hands]
            self.nest = place(self.nest)
            self.discards = place(self.discards)

    # ------------------------------------------------------------- public API
    def legal(self) -> list[Any]:
        """Legal actions for ``to_act``: ints while calling or bidding, card names while playing,
        suit letters, "pass", ``[True, False]`` for a yes/no decision; ``[]`` once over or void."""
        if self.phase == PLAY:
            legal = self._legal
            if legal < 0:
                # legal_mask() inlined: legal() runs before every card of every playout.
                legal = self._legal = legal_mask(
                    self._play_rules,
                    self.hands[self.to_act or 0],
                    self._led,
                    self._win,
                    not self.history,
                    self.trump_played,
                )
            return self._names(legal)
        if self.to_act is None or self._phase is None:
            return []
        return self._phase.legal(self)

    def legal_mask(self) -> int:
        """Legal cards as a mask (0 outside the play phase)."""
        if self.phase != PLAY:
            return 0
        if self._legal < 0:
            self._legal = legal_mask(
                self._play_rules,
                self.hands[self.to_act or 0],
                self._led,
                self._win,
                not self.history,
                self.trump_played,
            )
        return self._legal

    def act(self, action: Action) -> None:
        """Apply the action of ``to_act``; an illegal one raises IllegalAction, changing nothing."""
        if self.phase != PLAY:
            if self.to_act is None or self._phase is None:
                raise IllegalAction(f"the deal is {self.phase}: no more actions", "phase")
            self._phase.act(self, action)
            return
        try:
            card = self._input[action]  # type: ignore[index]
        except (KeyError, TypeError):
            card = self.card_or_refuse(action)
        seat = self.to_act
        assert seat is not None
        legal = self._legal  # legal() usually came first and left the mask here
        if legal < 0:
            legal = self.legal_mask()
        if not legal >> card & 1:
            self._refuse_card(card)
        # The play itself, inlined: this is the hot path of every random playout.
        self.hands[seat] ^= 1 << card
        trick = self.trick
        trick.append(card)
        self._legal = -1
        rules = self._play_rules
        trump = rules.trump
        suit = card // rules.stride
        if suit == trump:
            self.trump_played = True
        if self._win < 0:
            self._led = suit
            self._win, self._win_seat = card, seat
        elif beats(card, self._win, trump, rules.stride):
            self._win, self._win_seat = card, seat
        if len(trick) < self._trick_size:
            self.to_act = self._next[seat]
            return
        winner = self._win_seat
        self.history.append((self.leader, tuple(trick), winner))
        self.tricks[winner] += 1
        self.trick = []
        self._led = self._win = -1
        self.leader = self.to_act = winner
        if len(self.history) == self._hand_size:
            self._finish()

    @property
    def partner_known(self) -> bool:
        """Whether the partner is public: its card has been played (or the deal is over)."""
        card = self.partner_card
        if card is None:
            return False
        if self.phase in (OVER, VOID) or card in self.trick:
            return True
        return any(card in cards for _, cards, _ in self.history)

    def _finish(self) -> None:
        self.phase, self.to_act = OVER, None
        self._phase = None
        self._points = self.spec.scorer(self)

    @property
    def points(self) -> list[Points] | None:
        """Points of this deal by seat once it is over (all zero for a void deal), else None."""
        if self.phase == VOID:
            return [Points(0)] * self.players
        return None if self._points is None else list(self._points)

    @property
    def over(self) -> bool:
        return self.phase in (OVER, VOID)

    @property
    def trump_suit(self) -> int:
        """Trump of this deal as a suit index; -1 while not named or in a no-trump deal."""
        return self._play_rules.trump

    @property
    def trump(self) -> str | None:
        """Trump of this deal as a suit letter (``S``, or ``R`` in the Rook deck), or None."""
        suit = self._play_rules.trump
        return None if suit < 0 else self.deck.suits[suit]

    @property
    def deck_mask(self) -> int:
        return self.deck.full

    @property
    def trick_number(self) -> int:
        """Index of the trick in progress (0-based; equals hand_size once all are played)."""
        return len(self.history)

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now (docs/rules/what-bots-know.md)."""
        from callbreak.engine.observation import observe

        return observe(self, seat)

    def copy(self) -> Deal:
        """An independent copy, for look-ahead: acting on it leaves this deal alone."""
        other = Deal.__new__(Deal)
        for name in Deal.__slots__:
            setattr(other, name, getattr(self, name))
        for name in (
            "hands",
            "dealt",
            "calls",
            "claims",
            "declared",
            "declared_voids",
            "bids",
            "log",
            "tricks",
            "trick",
            "history",
            "pending",
            "stock",
            "exchanges",
        ):
            setattr(other, name, list(getattr(self, name)))
        return other

    def hand(self, seat: int) -> list[str]:
        """Cards ``seat`` holds now, canonical names (omniscient: not for bots or faces)."""
        return self.names_of(self.hands[seat])

    def names_of(self, mask: int) -> list[str]:
        """Canonical names of a mask of this deal's deck, by suit, high card first."""
        return self._names(mask)

    def __repr__(self) -> str:
        return (
            f"<Deal {self.rules.name} dealer={self.dealer} phase={self.phase} to_act={self.to_act}>"
        )

    # ------------------------------------------------------ helpers for phases
    def turn_order(self) -> list[int]:
        """Active seats from the one after the dealer round to the dealer."""
        return self._deal_order()

    def next_seat(self, seat: int) -> int:
        return self._next[seat]

    def misdeal_reason(self, seat: int) -> str | None:
        return misdeal_reason(self.rules, self.dealt[seat])

    def void_suits(self, seat: int) -> str:
        hand = self.hands[seat]
        masks = self._play_rules.suit_masks
        return "".join(self.deck.suits[s] for s in range(len(masks)) if not hand & masks[s])

    def card_or_refuse(self, action: Action) -> int:
        """The card an action names, or IllegalAction saying how cards are written."""
        if isinstance(action, bool) or not isinstance(action, (int, str)):
            example = "1R or 14G" if self.deck.has_rook else "AS or TD"
            raise IllegalAction(f"{action!r} is not a card: play a card such as {example}", "card")
        try:
            return self.deck.parse(action)
        except ValueError as error:
            raise IllegalAction(str(error), "card") from None

    def _refuse_card(self, card: int) -> None:
        rule, message = explain_illegal(
            self._play_rules,
            self.hands[self.to_act or 0],
            self.trick,
            not self.history,
            self.trump_played,
            card,
            self.deck,
        )
        raise IllegalAction(f"{self.deck.names[card]} is not allowed: {message}", rule)
