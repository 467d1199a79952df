"""The heuristic's policy for Call Partner with the Rook deck (docs/rules/rook-call-partner.md).

Points, not tricks, decide a Rook deal: the 1s (15), the 14s and 10s (10), the
5s (5), the Rook (20) and the last trick (20, with the discarded nest).  So the
policy bids what its top cards and trump length should bring in with a partner's
help, lays away cards that are neither trumps nor points, calls the best trump
it lacks so that the partner holds a winner, and in the play wins tricks that
hold points, ducks the rest with its cheapest card, feeds points to a partner
who is winning, and keeps its trumps for the tricks (the last above all) that
are worth them.

Cards are the Rook deck's ints (``callbreak.decks``): colour * 16 + slot, slots
low to high ``2 .. 10, Rook, 11 .. 14, 1``.  Until trump is named the Rook is
``ROOK_FREE``; from then on it sits in slot 9 of the trump colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from callbreak.bots.knowledge import HistoryMemo
from callbreak.bots.trickplay import TrickPlayer
from callbreak.cards import cards_of
from callbreak.decks import ROOK_COLOURS, ROOK_DECK, ROOK_FREE, ROOK_STRIDE, Deck
from callbreak.engine import Action, Observation
from callbreak.engine.games import ROOK_CARD_POINTS
from callbreak.engine.observation import TrickView
from callbreak.engine.tricks import beats

MASKS = ROOK_DECK.suit_masks
ONE, FOURTEEN, THIRTEEN, TWELVE = 14, 13, 12, 11
"""Slots of the top numbers of a colour (the 1 ranks highest)."""
TRICK_POINTS = 9.0
HELP_POINTS = 125.0
"""The bidding side's points ≈ ``TRICK_POINTS`` × the declarer's estimated tricks +
``HELP_POINTS`` (the partner, the nest, the choice of trump): a line fitted on
heuristic self-play, where the side took 160 of the 200 points on average
(``python bench/family_bots.py --calibrate`` refits it)."""
CAUTION_POINTS = 40.0
"""Points per unit of the heuristic's ``caution`` kept below the estimate when bidding."""


def act(bot: TrickPlayer, observation: Observation) -> Action:
    """One Call Partner decision of ``bot`` (its ``caution`` tempers the bids)."""
    phase = observation.phase
    if phase == "auction":
        return bid(observation, bot.caution)
    if phase == "discard":
        return discard(observation)
    if phase == "trump":
        return ROOK_COLOURS[best_trump(_whole_hand(observation))]
    if phase == "partner":
        return partner_call(observation)
    return play(observation)


# ---------------------------------------------------------------- card facts
def slot(card: int) -> int:
    return card % ROOK_STRIDE


def colour(card: int) -> int:
    return card // ROOK_STRIDE


def points(card: int) -> int:
    """Card points of one card (the Rook is 20 wherever it lies)."""
    return 20 if card == ROOK_FREE else ROOK_CARD_POINTS.get(card, 0)


_POINTS = [points(card) for card in range(ROOK_FREE + 1)]
"""``points`` by card int, for the sort keys of the play (read for every card weighed)."""


def _deck(observation: Observation) -> Deck:
    if observation.trump is None:
        return ROOK_DECK
    return ROOK_DECK.with_rook_in(ROOK_COLOURS.index(observation.trump))


def _whole_hand(observation: Observation) -> int:
    """The declarer's hand with its discards back: the 18 cards it chose from."""
    deck = _deck(observation)
    return observation.hand_mask | deck.parse_hand(list(observation.discards or ()))


# ---------------------------------------------------------------- bidding
def colour_strength(hand: int, c: int) -> float:
    """How well colour ``c`` would serve as trump: length first, then its top cards."""
    held = hand & MASKS[c]
    base = c * ROOK_STRIDE
    tops = sum(
        weight * (held >> (base + s) & 1)
        for s, weight in ((ONE, 1.5), (FOURTEEN, 1.0), (THIRTEEN, 0.7), (TWELVE, 0.5))
    )
    return held.bit_count() + tops


def best_trump(hand: int) -> int:
    """The longest, then strongest colour (the Rook joins whichever is named)."""
    return max(range(4), key=lambda c: (colour_strength(hand, c), -c))


@lru_cache(maxsize=4096)
def estimate_tricks(hand: int) -> float:
    """Tricks the hand should win with its best colour as trump: top cards, the Rook,
    trump length beyond four, and the 14s that the 1 of their colour protects.

    Remembered by hand: a seat bids again and again with the same hand in an auction,
    replayed in every playout of a search."""
    trump = best_trump(hand)
    rook = hand >> ROOK_FREE & 1
    tricks = 0.0
    for c in range(4):
        held = hand & MASKS[c]
        length = held.bit_count()
        base = c * ROOK_STRIDE
        one, fourteen, thirteen, twelve = (
            held >> (base + s) & 1 for s in (ONE, FOURTEEN, THIRTEEN, TWELVE)
        )
        if c == trump:
            length += rook
            tricks += one + fourteen * (1.0 if length >= 2 else 0.4)
            tricks += thirteen * (0.8 if length >= 3 else 0.3)
            tricks += twelve * (0.5 if length >= 4 else 0.0)
            tricks += 0.8 * rook + 0.8 * max(0, length - 4)
        else:
            tricks += 0.9 * one + fourteen * (0.6 if one else 0.3 if length >= 2 else 0.0)
    return tricks


def estimate_points(hand: int) -> float:
    """Points the bidding side should take if this hand wins the auction."""
    return TRICK_POINTS * estimate_tricks(hand) + HELP_POINTS


def bid(observation: Observation, caution: float) -> int | str:
    """The lowest bid still open, while it stays under the hand's estimate; else pass.

    A side that makes its bid scores the points it took, not the bid, so there is
    nothing to gain by bidding above the lowest bid that wins the auction.
    """
    bids = [b for b in observation.legal if isinstance(b, int)]
    target = estimate_points(observation.hand_mask) - CAUTION_POINTS * caution
    if bids and bids[0] <= target:
        return bids[0]
    return "pass"


# ---------------------------------------------------------------- nest and calls
def discard(observation: Observation) -> str:
    """Lay away the card worth least to keep: never trump or the Rook; low cards of
    short colours first (a void lets trumps ruff), points only when nothing else is left.

    The trump meant is chosen from the whole 18-card hand, so each of the five calls
    aims at the same trump however many cards are gone already.
    """
    return _discards(observation)[0]


def _discards(observation: Observation) -> list[str]:
    """The cards ``discard`` may lay away, the one it lays away first, then the others
    from the least worth keeping to the most."""
    hand = observation.hand_mask
    trump = best_trump(_whole_hand(observation))
    side = [c for c in cards_of(hand) if c != ROOK_FREE and colour(c) != trump]

    def keep(card: int) -> float:
        held = hand & MASKS[colour(card)]
        value = slot(card) + 3.0 * held.bit_count() + 2.0 * points(card)
        if slot(card) == ONE:
            value += 40
        elif slot(card) == FOURTEEN and held >> (colour(card) * ROOK_STRIDE + ONE) & 1:
            value += 15
        return value

    pool = side or [c for c in cards_of(hand) if c != ROOK_FREE] or cards_of(hand)
    return [ROOK_DECK.names[c] for c in sorted(pool, key=keep)]


def partner_call(observation: Observation) -> str:
    """The best trump it lacks (the 1, else the 14, else the 13), else a side colour's 1
    it lacks, else the best trump anyone else holds: the partner then holds a winner."""
    return _partner_calls(observation)[0]


def _partner_calls(observation: Observation) -> list[str]:
    """The cards ``partner_call`` may call, in its order of preference: the cards it
    wants that it lacks, then any card it lacks, then the rest."""
    deck = _deck(observation)
    hand = observation.hand_mask
    callable_ = set(observation.legal)
    trump = ROOK_COLOURS.index(observation.trump or ROOK_COLOURS[0])
    base = trump * ROOK_STRIDE
    wanted = [base + s for s in (ONE, FOURTEEN, THIRTEEN)]
    wanted += [c * ROOK_STRIDE + ONE for c in range(4) if c != trump]
    wanted += [base + s for s in range(TWELVE, -1, -1)]
    calls: list[str] = []
    for card in wanted:
        name = deck.names.get(card)
        if name is not None and name in callable_ and not hand >> card & 1:
            calls.append(name)
    lacked = [name for name in observation.legal if not hand >> deck.inputs[name] & 1]
    for name in [*lacked, *observation.legal]:
        if name not in calls:
            calls.append(str(name))
    return calls


def shortlist(observation: Observation, size: int) -> list[Action] | None:
    """The ``size`` actions this policy rates best, its own choice first, in the phases
    that offer more than a search can weigh in a table's budget (the nest's discards: 14
    to 18 cards; the partner card: any card but the Rook); None in the others."""
    if observation.phase == "discard":
        return list(_discards(observation)[:size])
    if observation.phase == "partner":
        return list(_partner_calls(observation)[:size])
    return None


# ---------------------------------------------------------------- play
def friends(observation: Observation) -> set[int]:
    """Seats known to be on this seat's side (the partner only once it is known)."""
    me, declarer, partner = observation.seat, observation.declarer, observation.partner
    seats = set(range(observation.players)) - {me}
    if me == declarer:
        return {partner} - {me} if partner is not None else set()
    if partner == me:
        return {declarer} if declarer is not None else set()
    if partner is not None:
        return seats - {declarer, partner}
    return set()


def play(observation: Observation) -> str:
    """A card: win tricks that hold points, feed a winning partner, duck cheaply."""
    deck = _deck(observation)
    legal = [deck.inputs[name] for name in observation.legal]
    if len(legal) == 1:
        return deck.names[legal[0]]
    table = _Table.read(observation, deck)
    card = table.lead(legal) if not table.trick else table.follow(legal)
    return deck.names[card]


def _ints(deck: Deck, names: Sequence[str]) -> list[int]:
    """The cards ``names`` spell in ``deck``: looked up by name, as an observation's names are
    the deck's own spellings (``Deck.parse`` reads any other, or says what is wrong)."""
    inputs = deck.inputs
    try:
        return [inputs[name] for name in names]
    except KeyError:
        return [deck.parse(name) for name in names]


def _shown_voids(tricks: Sequence[TrickView], n: int, deck: Deck) -> list[int]:
    """The colours each seat showed it lacks by not following in ``tricks`` (bit per colour)."""
    inputs = deck.inputs
    voids = [0] * n
    for view in tricks:
        cards = [inputs[name] for name in view.cards]
        for seat, card in zip(view.seats(n)[1:], cards[1:], strict=True):
            if colour(card) != colour(cards[0]):
                voids[seat] |= 1 << colour(cards[0])
    return voids


_SHOWN: HistoryMemo[tuple[int, ...]] = HistoryMemo()
"""The voids shown in the completed tricks of the last history read: a playout reads the
table after every card, and only the tricks added since are read (``HistoryMemo``)."""


def _history_voids(history: tuple[TrickView, ...], n: int, deck: Deck) -> list[int]:
    """``_shown_voids`` of the completed tricks, continuing the last history read when this
    one extends it (the same view objects up to where that one ended)."""

    def extend(voids: tuple[int, ...], tricks: tuple[TrickView, ...]) -> tuple[int, ...]:
        more = _shown_voids(tricks, n, deck)
        return tuple([a | b for a, b in zip(voids, more, strict=True)])

    return list(_SHOWN.read(history, (n, deck), (0,) * n, extend))


class _Table:
    """What this seat knows in the play: unseen cards, shown voids, the trick so far."""

    def __init__(
        self,
        observation: Observation,
        deck: Deck,
        unseen: int,
        voids: list[int],
        trick: list[int],
        seats: tuple[int, ...],
    ) -> None:
        self.seat = observation.seat
        self.players = observation.players
        self.trump = ROOK_COLOURS.index(observation.trump or ROOK_COLOURS[0])
        self.hand = observation.hand_mask
        self.deck = deck
        self.unseen = unseen
        self.voids = voids
        self.trick = trick
        self.seats = seats
        self.friends = friends(observation)
        self.declarer_side = observation.seat == observation.declarer or (
            observation.partner == observation.seat
        )
        self.last = len(observation.history) == observation.rules.hand_size - 1

    @classmethod
    def read(cls, observation: Observation, deck: Deck) -> _Table:
        n = observation.players
        inputs = deck.inputs
        trick = [inputs[name] for name in observation.trick.cards]
        seats = observation.trick.seats(n)
        voids = _history_voids(observation.history, n, deck)  # a new list, added to here
        if trick:  # the colour led, lacked by those who did not follow it (``_shown_voids``)
            led = colour(trick[0])
            for seat, card in zip(seats[1:], trick[1:], strict=True):
                if colour(card) != led:
                    voids[seat] |= 1 << led
        known = observation.hand_mask | observation.played_mask
        if observation.discards:
            for card in _ints(deck, observation.discards):
                known |= 1 << card
        return cls(observation, deck, deck.full & ~known, voids, trick, seats)

    # -------------------------------------------------------------- facts
    def is_trump(self, card: int) -> bool:
        return colour(card) == self.trump

    def higher_unseen(self, card: int) -> int:
        return self.unseen & MASKS[colour(card)] & ~((2 << card) - 1)

    def later(self) -> list[int]:
        """Seats still to play to this trick after this one."""
        left = self.players - len(self.trick) - 1
        return [(self.seat + i) % self.players for i in range(1, left + 1)]

    def holds(self, card: int, later: list[int]) -> bool:
        """Whether ``card`` should still win once ``later`` have played: nobody there can
        hold a higher card of its colour, nor trump it."""
        c = colour(card)
        if self.higher_unseen(card) and not all(self.voids[s] >> c & 1 for s in later):
            return False
        if c == self.trump or not self.unseen & MASKS[self.trump]:
            return True
        return not any(self.voids[s] >> c & 1 for s in later)

    def winning(self) -> tuple[int, int]:
        """The card winning the trick so far and its seat."""
        win, seat = self.trick[0], self.seats[0]
        for s, card in zip(self.seats[1:], self.trick[1:], strict=True):
            if beats(card, win, self.trump, ROOK_STRIDE):
                win, seat = card, s
        return win, seat

    def cheapest(self, cards: list[int]) -> int:
        """The card least missed: no points, not a trump, low."""
        trump = self.trump

        def cost(card: int) -> tuple[bool, bool, int, int]:
            worth = _POINTS[card]
            return worth > 0, card // ROOK_STRIDE == trump, worth, card % ROOK_STRIDE

        return min(cards, key=cost)

    # -------------------------------------------------------------- decisions
    def lead(self, legal: list[int]) -> int:
        foes_void = 0
        for s in range(self.players):
            if s != self.seat and s not in self.friends:
                foes_void |= self.voids[s]
        trumps_out = self.unseen & MASKS[self.trump]
        bosses = [
            c
            for c in legal
            if not self.is_trump(c)
            and not self.higher_unseen(c)
            and (not trumps_out or not foes_void >> colour(c) & 1)
        ]
        if bosses:
            return max(bosses, key=lambda c: (points(c), slot(c)))
        my_trumps = [c for c in legal if self.is_trump(c)]
        if self.declarer_side and trumps_out and my_trumps:
            top = max(my_trumps)
            # Draw trumps with a boss while we hold more of them than the others.
            if not self.higher_unseen(top) and len(my_trumps) > trumps_out.bit_count():
                return top
        side = [c for c in legal if not self.is_trump(c)]
        return self.cheapest(side or legal)

    def follow(self, legal: list[int]) -> int:
        win, win_seat = self.winning()
        later = self.later()
        at_stake = sum(points(c) for c in self.trick)
        friend_wins = win_seat in self.friends and (
            all(s in self.friends for s in later) or self.holds(win, later)
        )
        winners = [c for c in legal if beats(c, win, self.trump, ROOK_STRIDE)]
        if friend_wins:
            return self._feed(legal, winners)
        sure = [c for c in winners if self.holds(c, later)]
        if sure and (at_stake or self.last or not all(map(self.is_trump, sure))):
            # Win with the cheapest card that holds; own points ride along when they win.
            return min(sure, key=lambda c: (self.is_trump(c), -points(c), slot(c)))
        return self.cheapest([c for c in legal if c not in winners] or legal)

    def _feed(self, legal: list[int], winners: list[int]) -> int:
        """A partner takes this trick: give it points that would not win a trick alone
        (a card with nothing higher left in its colour is kept to win one)."""
        losers = [c for c in legal if c not in winners] or legal
        gifts = [c for c in losers if points(c) and not self.is_trump(c) and self.higher_unseen(c)]
        if gifts:
            return max(gifts, key=lambda c: (points(c), -slot(c)))
        return self.cheapest(losers)
