"""One deal of any game of the family: its phases in order, then over, or void.

The public ``Deal`` validates every action and explains refusals; it keeps just
enough state (masks and small lists) that random play through it stays fast.
The phases before the play (misdeal, call, declare, auction, discard, trump,
partner, ...) are objects listed by the game's record (``callbreak.games``) and
walked by ``advance``; the card play is inlined in ``act`` because every random
playout goes through it.

A deal holds what every game shares (seats, hands, the cards laid out, the
tricks, the log, trump) and, in ``parts``, the state its own phases add (calls,
bids, the nest, the seats that dropped, ...): each part belongs to the phase
that makes it (``engine/phases.py``) and says which of its facts each seat may
see.  The facts outside code reads (``calls``, ``bids``, ``contract``,
``declarer``, ``partner``, ``dropped``, ...) are properties here that ask the part
and give a neutral value in a game without it.
"""

from __future__ import annotations

import functools
import operator
import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from callbreak import cards
from callbreak.cards import DECK_SIZE, RANK_COUNT, RANKS, SUIT_MASKS
from callbreak.decks import DECKS, REVERSED, ROOK_FREE, ROOK_SLOT, STANDARD, Deck, reverse_ranks
from callbreak.engine.actions import Action, Entry
from callbreak.engine.errors import IllegalAction
from callbreak.engine.games import Context, Layout, deal_round
from callbreak.engine.observation import Observation, observe
from callbreak.engine.parts import P, Part, Parts
from callbreak.engine.phases import (
    Bidding,
    Calls,
    Claims,
    Declarations,
    Drops,
    Exchanges,
    LaidAway,
    Nest,
    PartnerCall,
    Phase,
    Settlement,
    TrumpChoice,
    UpcardRank,
    whole_number,
)
from callbreak.engine.tricks import PlayRules, beats, explain_illegal, legal_mask
from callbreak.games import Dealing, Game
from callbreak.points import Points
from callbreak.rules import Rules

if TYPE_CHECKING:
    from callbreak.engine.observation import TrickView

PLAY, OVER, VOID = "play", "over", "void"
"""The phases every deal knows itself: the play, and its two ends.  The others' names are
their phases' own (``Phase.name``)."""

MAX_SEED = 2**63 - 1
"""The largest seed a match or a deal takes: records hold seeds as 63-bit integers
(docs/record-format.md), so that every reader, one with signed 64-bit integers too, reads
them back exactly."""


def check_rules(rules: object) -> None:
    """Refuse anything but a ``Rules`` as a deal's or a match's rules, saying how to make one:
    a preset's name passed as is would fail on its first rule read, an ``AttributeError``
    about ``str`` that names neither the argument nor the fix."""
    if not isinstance(rules, Rules):
        raise TypeError(
            f"rules must be a callbreak.Rules, not {rules!r}: "
            "Rules.preset('callbreak'), or .replace(...) on one for other options"
        )


def check_seed(seed: object, what: str = "seed", show: Callable[[Any], str] = repr) -> int:
    """``seed`` as a match or shuffle seed: a whole number from 0 to ``MAX_SEED``.

    ``random.Random`` takes anything hashable, so without this check -1, 2**70, 1.5 or True
    would deal a match whose record no other reader can take (or ``True`` would read as 1).
    A numpy integer is a whole number too, and comes back as a plain one.  ``show`` spells
    a refused seed as its giver wrote it: Python's ``True`` for a caller in Python, a
    record's ``true`` for the replay.
    """
    value = whole_number(seed)
    if value is not None and 0 <= value <= MAX_SEED:
        return value
    raise ValueError(f"{what} must be a whole number from 0 to 2**63 - 1, not {show(seed)}")


_Engine = tuple[PlayRules, Game, Deck, int, tuple[int, ...], tuple[type[Part], ...], Dealing]
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
        game = rules.shape
        cached = _ENGINE_CACHE[rules] = (
            PlayRules.of(rules),
            game,
            DECKS[rules.shape.deck],
            rules.hand_size,
            tuple(range(rules.players)),
            _takers(game.phases),
            dealing_of(rules),
        )
    _LAST_ENGINE[:] = (rules, cached)
    return cached


def dealing_of(rules: Rules) -> Dealing:
    """How a deal under ``rules`` lays out its cards: the game's dealing, or the one its
    options choose (``Game.dealing_by_rules``)."""
    game = rules.shape
    return game.dealing if game.dealing_by_rules is None else game.dealing_by_rules(rules)


def _takers(phases: Sequence[Phase]) -> tuple[type[Part], ...]:
    """The parts the phases name that take something from the dealing (the nest)."""
    kinds: list[type[Part]] = []
    for phase in phases:
        kinds.extend(
            kind for kind in phase.parts if kind.dealt is not Part.dealt and kind not in kinds
        )
    return tuple(kinds)


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
    """For every seat of ``n``, the next active seat after it in turn (worked out once per
    set of seats: every deal of a game with drops asks again after its drop phase)."""
    key = (active, n)
    found = _NEXT_TABLES.get(key)
    if found is None:
        found = _NEXT_TABLES[key] = _work_out_next(active, n)
    return found


def _work_out_next(active: tuple[int, ...], n: int) -> tuple[int, ...]:
    table = []
    for seat in range(n):
        nxt = (seat + 1) % n
        while nxt not in active:
            nxt = (nxt + 1) % n
        table.append(nxt)
    return tuple(table)


_TRUMPED: dict[tuple[PlayRules, int], PlayRules] = {}
"""``_with_trump``'s answers: a named tuple's ``_replace`` cost a five-card deal a tenth of
its set-up, and there are few play rules and fewer suits."""


def _with_trump(play: PlayRules, suit: int) -> PlayRules:
    """``play`` with ``suit`` as trump."""
    key = (play, suit)
    found = _TRUMPED.get(key)
    if found is None:
        found = _TRUMPED[key] = play._replace(trump=suit)
    return found


_NEXT_TABLES: dict[tuple[tuple[int, ...], int], tuple[int, ...]] = {}
"""``_next_table``'s answers by (active seats, seat count): at most 2**8 sets of 7 sizes."""

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

    # What every game shares; the phases' own state is in ``parts``.  Declared here once: the
    # slots are made from these names, and ``copy`` copies the facts declared as lists.
    rules: Rules
    spec: Game
    """The game's record: its phases, dealing and scorer."""
    players: int
    dealer: int
    seed: int | None
    """The shuffle seed, checked as a match's is (``check_seed``): a record names it, so a
    seed no record can hold (-1, 2**70, 1.5) is refused here, not at the record's replay."""
    context: Context
    """The match around the deal: scores, seats out of the game, sit-out runs."""
    dealt_in: tuple[int, ...]
    """Seats dealt cards (all but those out of the game)."""
    active: tuple[int, ...]
    """Seats playing the tricks, in seat order (fewer once seats drop or sit out)."""
    deck: Deck
    dealt: list[int]
    """Each seat's hand as dealt, a mask."""
    hands: list[int]
    """Each seat's hand now."""
    upcard: int | None
    """The face-up card (Donut: the dealer's fifth; Horsethief: the turned-up trump)."""
    stock: list[int]
    """Undealt cards in order, top first (out of play, or drawn from in an exchange)."""
    dealt_stock: tuple[int, ...]
    """The stock as dealt (``stock`` shrinks as Horsethief draws): for records."""
    parts: Parts
    """The state this game's phases add, one part of each kind (see ``part``)."""
    log: list[Entry]
    """Every decision before the play, in order, typed by kind (``engine/actions.py``):
    (phase, seat, action as spelt in records)."""
    pending: list[int]
    """Seats still to answer a yes/no phase (or to exchange), in turn."""
    phase: str
    to_act: int | None
    tricks: list[int]
    trick: list[int]
    leader: int
    history: list[tuple[int, tuple[int, ...], int]]
    """Completed tricks: (leader, cards in play order, winner)."""
    trump_played: bool
    void_reason: str | None
    unplayed: str | None
    """Why the deal ended before its play (points are still scored), or None."""
    hand_size: int
    """Cards dealt to each seat this deal (the game's, or the match's schedule's)."""
    _play_rules: PlayRules
    _trick_size: int
    _next: tuple[int, ...]
    _input: dict[str, int]
    _names: Callable[[int], list[str]]
    _led: int
    """Suit led to the trick in progress, -1 before its first card."""
    _win: int
    """Card winning the trick in progress, -1 before its first card."""
    _win_seat: int
    _legal: int
    """The legal cards' mask while it is known, else -1."""
    _points: list[Points] | None
    """Set once when the deal ends, never changed: shared by copies."""
    _views: tuple[tuple[TrickView, ...], int]
    """The observation builder's cache of the completed tricks (see ``observe``)."""
    _phase: Phase | None
    _phase_at: int

    # Slots, not a __dict__: a per-instance dict past some thirty facts loses CPython's fast
    # shared-key layout, which slowed every attribute read of the play loop by a tenth.
    __slots__ = tuple(__annotations__)

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[str | Sequence[str | int]] | None = None,
        *,
        deck: Sequence[str | int] | None = None,
        seed: int | None = None,
        dealer: int = 0,
        context: Context | None = None,
        hand_size: int | None = None,
    ) -> None:
        check_rules(rules)
        self.rules = rules
        self.players = n = rules.players
        seat = whole_number(dealer)  # not "0", whose comparison with 0 is a TypeError
        if seat is None or not 0 <= seat < n:
            raise ValueError(f"dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
        self.dealer = dealer = seat
        self.seed = None if seed is None else check_seed(seed)
        seed = self.seed  # a plain int from here on (a numpy one cannot seed Random)
        engine = _engine(rules)
        self._play_rules, self.spec, self.deck, size, everyone, takers, dealing = engine
        self.hand_size = size if hand_size is None else self._check_size(hand_size)
        self.context = _NO_CONTEXT if context is None else context
        if context is not None and context.out:
            everyone = tuple(s for s in everyone if s not in context.out)
            if dealer in context.out:
                raise ValueError(f"seat {dealer} is out of the game: it cannot deal")
        self.active = self.dealt_in = everyone
        self._next = _next_table(everyone, n) if context is not None else _ROUND[n]
        self.parts = Parts()
        self.parts.players = n
        self.upcard = None
        self.stock = []
        self.dealt_stock = ()
        if hands is not None and deck is not None:
            raise ValueError("give the hands or the deck, not both")
        if seed is not None and (hands is not None or deck is not None):
            # Kept, the seed would claim a shuffle that deals other cards: a review that deals
            # the deal again from it would find the record's cards illegal.
            given = "hands" if hands is not None else "deck"
            raise ValueError(
                f"give the {given} or a seed to shuffle, not both: seed {seed!r} deals cards "
                f"of its own, not the {given} given"
            )
        if deck is not None:
            layout = dealing(self._check_deck(deck), self._deal_order(), self.hand_size)
            self._lay_out(layout, takers)
        elif hands is not None:
            self.dealt = self._check_hands(hands)
            if dealing is not deal_round:
                raise ValueError(
                    f"{rules.title} deals more than hands (a nest, a stock or a face-up card): "
                    "give the whole deck with deck=[...]"
                )
        elif self.deck is STANDARD and n == 4 and self.hand_size == 13:
            self.dealt = shuffled_hands(n, dealer, random.Random(seed))
        else:
            order = shuffled_deck(self.deck, random.Random(seed))
            self._lay_out(dealing(order, self._deal_order(), self.hand_size), takers)
        self.hands = list(self.dealt)
        self._input = self.deck.inputs
        self._names = cards.hand_names if self.deck is STANDARD else self.deck.hand_names
        self._trick_size = len(self.active)
        self.unplayed = None
        self._views = ((), 0)
        self.log = []
        self.tricks = [0] * n
        self.trick = []
        self.leader = self._next[dealer]
        self._led = self._win = self._win_seat = -1
        self.history = []
        self.trump_played = False
        self.void_reason = None
        self._points = None
        self._legal = -1
        self.pending = []
        self.phase = ""
        self.to_act = None
        self._phase_at = -1
        self._phase = None
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

    def _lay_out(self, layout: Layout, takers: tuple[type[Part], ...]) -> None:
        hands = layout.hands + [0] * (self.players - len(layout.hands))
        self.dealt = hands
        for kind in takers:
            self.parts[kind].dealt(layout)
        self.upcard = layout.upcard
        self.stock = list(layout.stock)
        self.dealt_stock = tuple(layout.stock)

    def _check_size(self, size: object) -> int:
        """A hand size the game allows (``Game.largest_hand``); a game of fixed hands takes
        only its own."""
        largest = self.spec.largest_hand
        most = self.rules.hand_size if largest is None else largest(self.rules)
        low = most if largest is None else 1
        if isinstance(size, bool) or not isinstance(size, int) or not low <= size <= most:
            allowed = str(most) if low == most else f"from {low} to {most}"
            raise ValueError(
                f"hand_size={size!r} is not allowed: {self.rules.title} deals {allowed} cards "
                f"a seat at {self.players} players"
            )
        return size

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
        n, size = self.players, self.hand_size
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
        for part in self.parts.values():
            if part.holds_cards:
                part.move_cards(reverse_ranks)
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

    def set_trump(self, suit: int) -> None:
        """Trump for this deal; in the Rook deck the Rook joins that colour wherever it lies."""
        self._play_rules = _with_trump(self._play_rules, suit)
        if self.deck.has_rook:
            self.deck = self.deck.with_rook_in(suit)
            self._input = self.deck.inputs
            self._names = self.deck.hand_names
            placed = suit * self._play_rules.stride + ROOK_SLOT
            free = 1 << ROOK_FREE

            def place(mask: int) -> int:
                return mask ^ free | 1 << placed if mask & free else mask

            self.hands = [place(h) for h in self.hands]
            for part in self.parts.values():
                if part.holds_cards:
                    part.move_cards(place)

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
        if len(self.history) == self.hand_size:
            self._finish()

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

    # ------------------------------------------------------- the phases' parts
    def part(self, kind: type[P]) -> P:
        """This deal's part of ``kind`` (made now if no phase has made it yet)."""
        return self.parts[kind]

    @property
    def calls(self) -> list[int | None]:
        """Each seat's call, None until made (and in a game without calls)."""
        part = self.parts.get(Calls)
        return [None] * self.players if part is None else part.calls

    @property
    def claims(self) -> list[tuple[int, bool]]:
        """Misdeal decisions in the order they were taken: (seat, claimed)."""
        part = self.parts.get(Claims)
        return [] if part is None else part.claims

    @property
    def declared(self) -> list[tuple[int, bool]]:
        """Void declarations in order: (seat, declared)."""
        part = self.parts.get(Declarations)
        return [] if part is None else part.declared

    @property
    def declared_voids(self) -> list[str]:
        """Suit letters each seat has publicly declared void (``declare_voids``)."""
        part = self.parts.get(Declarations)
        return [""] * self.players if part is None else part.declared_voids

    @property
    def bids(self) -> list[tuple[int, int | str]]:
        """The auction in order: (seat, bid or "pass")."""
        part = self.parts.get(Bidding)
        return [] if part is None else part.bids

    @property
    def passed(self) -> frozenset[int]:
        part = self.parts.get(Bidding)
        return frozenset() if part is None else part.passed

    @property
    def contract(self) -> int | None:
        """The winning bid (or the one being bid up during the auction)."""
        part = self.parts.get(Bidding)
        return None if part is None else part.contract

    @contract.setter
    def contract(self, bid: int | None) -> None:
        self.part(Bidding).contract = bid

    @property
    def declarer(self) -> int | None:
        part = self.parts.get(Bidding)
        return None if part is None else part.declarer

    @declarer.setter
    def declarer(self, seat: int | None) -> None:
        self.part(Bidding).declarer = seat

    @property
    def nest(self) -> int:
        """The nest as dealt (Call Partner), a mask; 0 in a game without one."""
        part = self.parts.get(Nest)
        return 0 if part is None else part.nest

    @property
    def discards(self) -> int:
        """Cards laid away (Call Partner's nest discards, Horsethief's exchanged cards)."""
        part = self.parts.get(LaidAway)
        return 0 if part is None else part.discards

    @property
    def partner_card(self) -> int | None:
        part = self.parts.get(PartnerCall)
        return None if part is None else part.partner_card

    @property
    def partner(self) -> int | None:
        """The partner card's holder (secret until it plays that card: see ``partner_known``)."""
        part = self.parts.get(PartnerCall)
        return None if part is None else part.partner

    @partner.setter
    def partner(self, seat: int | None) -> None:
        self.part(PartnerCall).partner = seat

    @property
    def partner_known(self) -> bool:
        """Whether the partner is public: its card has been played (or the deal is over)."""
        part = self.parts.get(PartnerCall)
        return part is not None and part.known(self)

    @property
    def chooser(self) -> int | None:
        """Who names trump this deal (the declarer, or Donut's dealer or highest score)."""
        part = self.parts.get(TrumpChoice)
        return None if part is None else part.chooser

    @property
    def may_drop(self) -> bool:
        """Donut: whether the upcard lets players drop."""
        part = self.parts.get(UpcardRank)
        return part is not None and part.may_drop

    @property
    def reversed_ranks(self) -> bool:
        """Donut's 6: ranks run 2 high … A low this deal (the deck is ``REVERSED``)."""
        part = self.parts.get(UpcardRank)
        return part is not None and part.reversed_ranks

    @property
    def dropped(self) -> frozenset[int]:
        """Seats that dropped or sat out this deal."""
        part = self.parts.get(Drops)
        return frozenset() if part is None else part.dropped

    @property
    def settled(self) -> str | None:
        """Snarples, everyone else sat out: the bidder's choice, "take" or "give"."""
        part = self.parts.get(Settlement)
        return None if part is None else part.settled

    @property
    def exchanges(self) -> list[tuple[int, int]]:
        """Horsethief: (seat, cards exchanged), public."""
        part = self.parts.get(Exchanges)
        return [] if part is None else part.exchanges

    @property
    def thrown(self) -> int:
        """Horsethief: cards the seat exchanging has discarded so far."""
        part = self.parts.get(Exchanges)
        return 0 if part is None else part.thrown

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now (docs/rules/what-bots-know.md)."""
        return observe(self, seat)

    def copy(self) -> Deal:
        """An independent copy, for look-ahead: acting on it leaves this deal alone.

        Generic: every fact declared as a list is copied (its items are immutable), the parts
        copy themselves, and the rest (ints, tuples, frozen values, lookup tables) is shared.
        """
        other = Deal.__new__(Deal)
        for name, value in zip(Deal.__slots__, _ALL_SLOTS(self), strict=True):
            setattr(other, name, value)
        for name in _COPIED:
            setattr(other, name, getattr(self, name).copy())
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
    turn_order = _deal_order
    """Active seats from the one after the dealer round to the dealer."""

    def next_seat(self, seat: int) -> int:
        return self._next[seat]

    def misdeal_reason(self, seat: int) -> str | None:
        return misdeal_reason(self.rules, self.dealt[seat])

    def void_suits(self, seat: int) -> str:
        hand = self.hands[seat]
        masks = self._play_rules.suit_masks
        return "".join(self.deck.suits[s] for s in range(len(masks)) if not hand & masks[s])

    def card_or_refuse(self, action: Action) -> int:
        """The card an action names, or IllegalAction saying how cards are written.

        Only a name: the card's int is the engine's inner code, so a number where a card is
        asked (a bot still answering a call) would otherwise play a card nobody chose.
        """
        if isinstance(action, int) and not isinstance(action, bool):
            example = "1R" if self.deck.has_rook else "AS"
            raise IllegalAction(f"{action} is not a card: name it like {example!r}", "card")
        if not isinstance(action, str):
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


_ALL_SLOTS = operator.attrgetter(*Deal.__slots__)
"""Every slot's value of a deal at once (``Deal.copy``)."""

_COPIED = tuple(
    name
    for name, hint in Deal.__annotations__.items()
    if hint == "Parts" or (hint.startswith("list[") and hint.endswith("]"))
)
"""The facts ``Deal.copy`` copies: those declared as lists (each holds immutable items),
and the parts."""
