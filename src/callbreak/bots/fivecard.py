"""The heuristic's policy for the five-card games: Snarples, Donut, Horsethief.

Their rules: docs/rules/snarples.md, docs/rules/donut.md, docs/rules/horsethief.md.

The three games share their trick play — follow suit if you can, else any card,
with a trump or none — and in all three every trick a seat wins is good for it
(−1 in the countdowns, +1 in Horsethief) while no trick at all is worst (+5, +3,
−5).  So one trick player serves all three: it takes every trick it can, and
one hand evaluation drives the decisions before the play (bid, trump, in or
out, exchange).

With five cards a seat and most of the pack out of play, "is this card the
highest left?" is too strict a question: a missing ace is more often undealt
than held.  Both the evaluation and the play therefore ask how likely it is
that a card wins, from the hypergeometric chance that the seats still to play
hold none of the cards that beat it (a seat known void in a suit holds none).
Card ints are read in the deck in force, so the reversed ranks of Donut's 6
deal (``decks.REVERSED``: a higher int still wins) need nothing special here
beyond parsing the card names with that deck.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import comb

from callbreak.bots.knowledge import HistoryMemo
from callbreak.bots.trickplay import TrickPlayer
from callbreak.cards import cards_of
from callbreak.decks import REVERSED, STANDARD, Deck
from callbreak.engine import Action, Observation
from callbreak.engine.observation import TrickView
from callbreak.engine.tricks import beats
from callbreak.games import HELD

POLICY = "five-card"
"""The policy name (``Game.policy``) of the games this module plays."""

STRIDE = 13
SUIT_LETTERS = "SHDC"
SUIT_MASKS = tuple(((1 << STRIDE) - 1) << (s * STRIDE) for s in range(4))
FULL = (1 << (4 * STRIDE)) - 1

KEEP = 0.3
"""Horsethief: a side card less likely than this to win a trick is thrown in the exchange."""
DRAW_CHANCE = 0.12
"""What a card drawn blind from the Horsethief stock is worth, as a chance to win a trick."""
RUFF_VOID = 0.35
"""A low trump's chance to win by ruffing a side suit the hand lacks."""
RUFF_SINGLETON = 0.15
"""... or a side suit of one card, once it has been played."""
WIN_WORTH = 0.3
"""The least chance of taking the trick for which a card is spent trying to."""


@lru_cache(maxsize=4096)
def none_held(unseen: int, higher: int, cards: int) -> float:
    """Chance that a seat holding ``cards`` of the ``unseen`` cards has none of ``higher``
    particular ones (drawn without replacement: the hypergeometric zero term)."""
    if higher <= 0 or cards <= 0:
        return 1.0
    if unseen - higher < cards:
        return 0.0
    return comb(unseen - higher, cards) / comb(unseen, cards)


def above(card: int) -> int:
    """The cards of ``card``'s suit that beat it."""
    return SUIT_MASKS[card // STRIDE] & ~((2 << card) - 1)


@dataclass(frozen=True)
class Table:
    """What one seat knows of where the cards are, at any moment of the deal."""

    seat: int
    trump: int
    hand: int
    unseen: int
    """Cards that may be in another seat's hand: not mine, not played, not known elsewhere."""
    counts: dict[int, int]
    """Unknown cards each other seat in the play still holds."""
    known: dict[int, int]
    """Cards known to be in another seat's hand (Donut's dealer holds the upcard)."""
    voids: dict[int, int]
    """Suits (bits) each seat has shown it lacks by not following."""

    @classmethod
    def quick(
        cls,
        seat: int,
        trump: int,
        hand: int,
        unseen: int,
        counts: dict[int, int],
        known: dict[int, int],
        voids: dict[int, int],
    ) -> Table:
        """``Table(seat, trump, hand, unseen, counts, known, voids)``, equal to it, made without
        the frozen dataclass's ``__init__`` (an ``object.__setattr__`` a field, most of the
        cost of making one): the play makes a table at every card of every playout."""
        table = object.__new__(cls)
        fields: dict[str, object] = {
            "seat": seat,
            "trump": trump,
            "hand": hand,
            "unseen": unseen,
            "counts": counts,
            "known": known,
            "voids": voids,
        }
        object.__setattr__(table, "__dict__", fields)
        return table

    def void_chance(self, seat: int, suit: int) -> float:
        if self.voids.get(seat, 0) >> suit & 1:
            return 1.0
        if self.known.get(seat, 0) & SUIT_MASKS[suit]:
            return 0.0
        u = self.unseen.bit_count()
        return none_held(u, (self.unseen & SUIT_MASKS[suit]).bit_count(), self.counts[seat])

    def holds_any(self, seat: int, cards: int) -> float:
        """Chance that ``seat`` holds at least one of ``cards``."""
        if self.known.get(seat, 0) & cards:
            return 1.0
        if not self.unseen & cards:
            return 0.0
        suit = (cards.bit_length() - 1) // STRIDE  # ``cards`` are always of one suit here
        if self.voids.get(seat, 0) >> suit & 1:
            return 0.0
        u = self.unseen.bit_count()
        return 1.0 - none_held(u, (self.unseen & cards).bit_count(), self.counts[seat])

    def win_chance(self, card: int, led: int, later: list[int]) -> float:
        """Chance that ``card`` still wins the trick once the seats in ``later`` have played
        (``led`` the suit led, -1 when ``card`` leads); they are assumed to take it if they
        can, since in these games every seat wants tricks.

        It is the product over ``later`` of one minus ``holds_any`` of the higher cards of
        the suit, then, for a side card, of one minus ``void_chance`` times ``holds_any`` of
        the trumps (for a trump on a side lead, of the higher trumps).  It runs for every
        card weighed at every decision of every playout, so those two are worked out inline,
        with each seat's factor of exactly 1 skipped and a factor of exactly 0 ending the
        product: the same floating-point products, bit for bit, in fewer steps.
        """
        suit = card // STRIDE
        if led < 0:
            led = suit
        trump = self.trump
        if suit == led:
            chance = self._none_above(above(card), suit, later)
            if chance and suit != trump and trump >= 0:
                chance = self._none_over(chance, suit, SUIT_MASKS[trump], trump, later)
            return chance
        if suit != trump:
            return 0.0  # a discard never wins
        return self._none_over(1.0, led, above(card), trump, later)

    def _none_above(self, higher: int, suit: int, later: list[int]) -> float:
        """The product over ``later`` of ``1 - holds_any(seat, higher)`` (``higher``: cards
        of ``suit``).  Seats holding the same number of unknown cards have the same factor,
        worked out once."""
        known = self.known
        if known:
            for seat in later:
                if known.get(seat, 0) & higher:
                    return 0.0  # it holds one for sure: a factor of 0
        out = (self.unseen & higher).bit_count()
        if not out:
            return 1.0  # nobody can hold one: every factor is 1
        voids, counts = self.voids, self.counts
        u = self.unseen.bit_count()
        chance = factor = 1.0
        held = -1
        for seat in later:
            if voids and voids.get(seat, 0) >> suit & 1:
                continue  # void in the suit: a factor of 1
            cards = counts[seat]
            if cards != held:
                held, factor = cards, 1.0 - (1.0 - none_held(u, out, cards))
            chance *= factor
        return chance

    def _none_over(
        self, chance: float, lacking: int, cards: int, suit: int, later: list[int]
    ) -> float:
        """``chance`` times, over ``later``, ``1 - void_chance(seat, lacking) *
        holds_any(seat, cards)`` (``cards``: cards of ``suit``): the seat neither lacks the
        suit led nor holds one of the cards that would take the trick over it.  A seat of
        which nothing is known (no card, no void) has a factor set by its number of unknown
        cards alone, worked out once for each number."""
        unseen, known, voids, counts = self.unseen, self.known, self.voids, self.counts
        u = unseen.bit_count()
        out = (unseen & cards).bit_count()
        lacking_mask = SUIT_MASKS[lacking]
        lacking_out = (unseen & lacking_mask).bit_count()
        factor = 1.0
        held = -1
        for seat in later:
            mine = known.get(seat, 0) if known else 0
            shown = voids.get(seat, 0) if voids else 0
            if not (mine or shown):
                if not out:
                    continue  # it holds none of them: a factor of 1
                count = counts[seat]
                if count != held:
                    void = none_held(u, lacking_out, count)
                    held, factor = count, 1.0 - void * (1.0 - none_held(u, out, count))
                chance *= factor
                continue
            if mine & cards:
                holds = 1.0
            elif not out or shown >> suit & 1:
                continue  # it holds none of them: a factor of 1
            else:
                holds = 1.0 - none_held(u, out, counts[seat])
            if shown >> lacking & 1:
                void = 1.0
            elif mine & lacking_mask:
                continue  # it follows suit: a factor of 1
            else:
                void = none_held(u, lacking_out, counts[seat])
            chance *= 1.0 - void * holds
        return chance


def deck_of(observation: Observation) -> Deck:
    """The deck whose names and ints the observation uses (reversed on Donut's 6 deal)."""
    return REVERSED if observation.reversed_ranks else STANDARD


def trump_of(observation: Observation) -> int:
    return SUIT_LETTERS.index(observation.trump) if observation.trump else -1


def score_of(observation: Observation, seat: int) -> float:
    """A seat's match total before this deal (the game's start outside a match)."""
    if observation.totals is None:
        return float(observation.rules.shape.start)
    return float(observation.totals[seat].json())


def table_before_play(observation: Observation, trump: int, opponents: int) -> Table:
    """The table as dealt, for a decision before any card is played: ``opponents`` seats,
    five unknown cards each (Donut's dealer holds its upcard; Horsethief's is out of play)."""
    seat = observation.seat
    hand = observation.hand_mask
    size = observation.rules.hand_size
    gone = hand
    known: dict[int, int] = {}
    upcard = _upcard(observation)
    if upcard is not None:
        gone |= 1 << upcard
        if observation.rules.shape.upcard == HELD and seat != observation.dealer:
            known[observation.dealer] = 1 << upcard
    counts = {-1 - i: size for i in range(opponents)}
    if known:
        # One of the opponents is the dealer, and one of its five cards is known.
        counts = {observation.dealer: size - 1, **{-1 - i: size for i in range(opponents - 1)}}
    return Table.quick(seat, trump, hand, FULL & ~gone, counts, known, {})


def _upcard(observation: Observation) -> int | None:
    name = observation.upcard
    if name is None:
        return None
    deck = deck_of(observation)
    card = deck.inputs.get(name)
    return deck.parse(name) if card is None else card


def card_chances(table: Table) -> list[tuple[int, float]]:
    """Each card of the hand with its chance to take a trick, as dealt.

    A side card counts if nobody holds a higher one of its suit and nobody ruffs
    it; a trump if nobody holds a higher trump, or, for a low trump, by ruffing
    a suit the hand lacks.
    """
    return list(_chances_of(table, {}))


_CHANCES: dict[tuple[object, ...], tuple[tuple[int, float], ...]] = {}
"""``card_chances`` of the tables weighed lately, by everything in a table they read.  A
search replays the same seats' bids and drops in world after world, and a seat that weighed
its hand for the auction often weighs the same table again to stay in or drop."""
_CHANCES_KEPT = 4096
"""Tables remembered before the memo starts afresh (a few hundred kilobytes)."""


def _chances_of(table: Table, tops: dict[int, float]) -> tuple[tuple[int, float], ...]:
    """``card_chances`` of ``table``, remembered (``_CHANCES``).  ``tops``: the lead chances
    before ruffs (``Table._none_above``) of tables that differ from this one in trump alone,
    by card, shared by the caller that weighs the four trumps of one hand."""
    key = (
        table.hand,
        table.trump,
        table.unseen,
        tuple(table.counts.items()),  # in order: the seats are multiplied in this order
        tuple(table.known.items()),
        tuple(table.voids.items()),
    )
    found = _CHANCES.get(key)
    if found is None:
        found = tuple(_card_chances(table, tops).items())
        if len(_CHANCES) >= _CHANCES_KEPT:
            _CHANCES.clear()
        _CHANCES[key] = found
    return found


def _card_chances(table: Table, tops: dict[int, float]) -> dict[int, float]:
    """``card_chances`` worked out: each card's ``win_chance`` as a lead (its lead chance
    before ruffs taken from ``tops`` when there, and added to it), then the ruffs."""
    chances = _lead_chances(table, tops) if table.voids else _open_lead_chances(table, tops)
    trump, hand = table.trump, table.hand
    if trump < 0:
        return chances
    # Each short side suit gives one trump a ruff: the best trump not already a winner
    # (the ruffs best first: a void's, then a singleton's).
    voids = singletons = 0
    for suit in range(4):
        if suit != trump:
            length = (hand & SUIT_MASKS[suit]).bit_count()
            voids += length == 0
            singletons += length == 1
    if voids or singletons:
        ruffs = [RUFF_VOID] * voids + [RUFF_SINGLETON] * singletons
        spare = sorted(
            (c for c in chances if c // STRIDE == trump and chances[c] < RUFF_VOID),
            reverse=True,
        )
        for card, ruff in zip(spare, ruffs, strict=False):
            chances[card] = max(chances[card], ruff)
    return chances


def _lead_chances(table: Table, tops: dict[int, float]) -> dict[int, float]:
    """``win_chance`` of each card of the hand as a lead, by ``Table``'s own steps."""
    trump = table.trump
    trumps = SUIT_MASKS[trump]
    others = list(table.counts)
    chances: dict[int, float] = {}
    for card in cards_of(table.hand):
        suit = card // STRIDE
        chance = tops.get(card)
        if chance is None:
            chance = tops[card] = table._none_above(above(card), suit, others)
        if chance and suit != trump and trump >= 0:
            chance = table._none_over(chance, suit, trumps, trump, others)
        chances[card] = chance
    return chances


def _open_lead_chances(table: Table, tops: dict[int, float]) -> dict[int, float]:
    """``_lead_chances`` of a table where no seat has shown a void (the table as dealt), with
    ``_none_above`` and ``_none_over`` written out for it: the factor of a seat none of whose
    cards is known (all but Donut's dealer) depends on its number of unknown cards alone."""
    trump, unseen, known = table.trump, table.unseen, table.known
    u = unseen.bit_count()
    seats = list(table.counts.items())  # in the seats' order, as the factors are multiplied
    trumps = SUIT_MASKS[trump]
    trumps_out = (unseen & trumps).bit_count() if trump >= 0 else 0
    chances: dict[int, float] = {}
    rest = table.hand
    while rest:  # the cards low to high, as ``cards_of`` lists them
        low = rest & -rest
        rest ^= low
        card = low.bit_length() - 1
        suit = card // STRIDE
        chance = tops.get(card)
        if chance is None:
            higher = SUIT_MASKS[suit] & ~((low << 1) - 1)  # ``above(card)``
            chance = tops[card] = _open_none_above(unseen, u, higher, seats, known)
        if chance and suit != trump and trump >= 0:
            lacking = SUIT_MASKS[suit]
            lacking_out = (unseen & lacking).bit_count()
            count, factor = -1, 1.0
            for seat, cards in seats:
                mine = known.get(seat, 0) if known else 0
                if mine:  # ``_none_over``'s own steps
                    if mine & trumps:
                        holds = 1.0
                    elif not trumps_out:
                        continue
                    else:
                        holds = 1.0 - none_held(u, trumps_out, cards)
                    if not mine & lacking:
                        chance *= 1.0 - none_held(u, lacking_out, cards) * holds
                    continue
                if not trumps_out:
                    continue  # it holds no trump: a factor of 1
                if cards != count:
                    void = none_held(u, lacking_out, cards)
                    count, factor = cards, 1.0 - void * (1.0 - none_held(u, trumps_out, cards))
                chance *= factor
        chances[card] = chance
    return chances


def _open_none_above(
    unseen: int, u: int, higher: int, seats: list[tuple[int, int]], known: dict[int, int]
) -> float:
    """``Table._none_above`` of a table with no void shown (``seats``: each seat in ``later``
    with its number of unknown cards)."""
    if known:
        for seat, _ in seats:
            if known.get(seat, 0) & higher:
                return 0.0  # it holds one for sure: a factor of 0
    out = (unseen & higher).bit_count()
    if not out:
        return 1.0
    chance = factor = 1.0
    count = -1
    for _, cards in seats:
        if cards != count:
            count, factor = cards, 1.0 - (1.0 - none_held(u, out, cards))
        chance *= factor
    return chance


def evaluate(table: Table) -> tuple[float, float]:
    """Expected tricks and the chance of none (the cards taken as independent)."""
    return _sum_up(_chances_of(table, {}))


def _sum_up(chances: tuple[tuple[int, float], ...]) -> tuple[float, float]:
    tricks, none = 0.0, 1.0
    for _, chance in chances:
        tricks += chance
        none *= 1.0 - chance
    return tricks, none


def best_trump(observation: Observation, opponents: int) -> tuple[int, float, float]:
    """The suit that makes the hand take the most tricks, with its expected tricks and the
    chance of none; ties go to spades first (in Snarples spades keep everyone in)."""
    best = (-1, -1.0, 1.0)
    tops: dict[int, float] = {}  # the four tables differ in trump alone
    for suit in range(4):
        tricks, none = _sum_up(_chances_of(table_before_play(observation, suit, opponents), tops))
        if tricks > best[1] + 1e-9:
            best = (suit, tricks, none)
    return best


# ------------------------------------------------------------------ decisions
def act(bot: TrickPlayer, observation: Observation) -> Action:
    """One decision of ``bot`` in Snarples, Donut or Horsethief."""
    phase = observation.phase
    legal = observation.legal
    if len(legal) == 1:
        only: Action = legal[0]
        return only
    if phase == "play":
        return play(observation)
    game = observation.game
    if phase == "auction":
        return snarples_bid(observation, bot.caution)
    if phase == "trump":
        opponents = len(observation.active) - 1
        return SUIT_LETTERS[best_trump(observation, opponents)[0]]
    if phase == "drop":
        return "in" if stays_in(observation) else "out"
    if phase == "settle":
        return snarples_settle(observation)
    if phase == "exchange":
        return exchange(observation)
    raise ValueError(f"the heuristic has no policy for {game} phase {phase!r}")


def snarples_bid(observation: Observation, caution: float) -> Action:
    """Bid the tricks the hand takes with its best trump, or pass when that is not enough.

    A made bid scores the tricks won, not the bid, so a higher bid only adds risk;
    but the auction goes round once, so a seat that others still follow bids all it
    can to keep the trump choice, and the last to speak bids just enough.
    """
    opponents = len(observation.active) - 1
    _, tricks, _ = best_trump(observation, opponents)
    target = min(5, int(tricks - caution + 0.5))
    bids = [b for b in observation.legal if isinstance(b, int)]
    if not bids or target < bids[0]:
        return "pass"
    last = len(observation.bids) == len(observation.active) - 1
    return bids[0] if last else target


def stays_in(observation: Observation) -> bool:
    """Whether playing the deal is worth more than dropping (or sitting) out.

    Playing is worth the expected tricks less the penalty for none times its
    chance (the record's ``hints.none_cost``: +5 in Snarples and Horsethief, +3
    in Donut).  Sitting out is free, except where the record says it costs at a
    low score (Snarples: +1 at 3 or less).  Where an exchange follows
    (Horsethief) the hand is judged as it will be after it: weak side cards
    redrawn blind.
    """
    game = observation.rules.shape
    penalty = game.hints.none_cost
    players = len(observation.active) - len(observation.dropped)
    table = table_before_play(observation, trump_of(observation), max(1, players - 1))
    if "exchange" in game.phase_names:
        tricks, none = 0.0, 1.0
        for card, chance in card_chances(table):
            if card // STRIDE != table.trump and chance < KEEP:
                chance = max(chance, DRAW_CHANCE)
            tricks += chance
            none *= 1.0 - chance
        return tricks - penalty * none > 0
    tricks, none = evaluate(table)
    cost = 0.0
    if game.hints.sit_out is not None:
        at_most, fee = game.hints.sit_out
        cost = float(fee) if score_of(observation, observation.seat) <= at_most else 0.0
    return tricks - penalty * none > -cost


def snarples_settle(observation: Observation) -> Action:
    """Everyone else sat out: −5 for itself, or +5 to every other seat.

    Both move the bidder 5 closer relative to the others; what differs is how
    near the match's end is.  Take when that wins now, or when it leads (the
    sooner the end the better); when behind, give, which keeps the leader away
    from 0 and may push a seat to 33 and out of the game.
    """
    seat = observation.seat
    mine = score_of(observation, seat)
    others = [score_of(observation, s) for s in observation.dealt_in if s != seat]
    best_other = min(others, default=mine + 1)
    if mine - 5 <= 0 and mine - 5 < best_other:
        return "take"
    return "give" if best_other < mine else "take"


def exchange(observation: Observation) -> Action:
    """Throw the weakest side card while it is unlikely to take a trick; keep trumps and
    winners.  One card a decision: the engine asks again until ``done``."""
    thrown = observation.rules.hand_size - observation.hand_mask.bit_count()
    if thrown >= observation.stock_size:
        return "done"
    opponents = max(1, len(observation.active) - 1)
    table = table_before_play(observation, trump_of(observation), opponents)
    weak = [
        (chance, card % STRIDE, card)
        for card, chance in card_chances(table)
        if card // STRIDE != table.trump and chance < KEEP
    ]
    if not weak:
        return "done"
    card = min(weak)[2]
    return deck_of(observation).names[card]


# ------------------------------------------------------------------ play
def table_in_play(observation: Observation) -> Table:
    """The table now: cards played, voids shown, and how many cards each seat still holds."""
    deck = deck_of(observation)
    trick = observation.trick
    cards = _ints(deck, trick.cards)
    return _table_in_play(observation, deck, cards, trick.seats(observation.players))


def _table_in_play(
    observation: Observation, deck: Deck, trick: list[int], seats: tuple[int, ...]
) -> Table:
    """``table_in_play``, given the cards of the trick in progress and their seats."""
    seat = observation.seat
    n = observation.players
    history = observation.history
    voids = dict(_history_voids(history, n, deck))  # a copy: the trick in progress adds to it
    _add_voids(voids, trick, seats)
    played = observation.played_mask
    gone = observation.hand_mask | played
    known: dict[int, int] = {}
    upcard = _upcard(observation)
    if upcard is not None and not played >> upcard & 1:
        gone |= 1 << upcard
        if observation.rules.shape.upcard == HELD and seat != observation.dealer:
            known[observation.dealer] = 1 << upcard
    left = observation.rules.hand_size - len(history)
    counts = {
        s: left - (s in seats) - known.get(s, 0).bit_count()
        for s in observation.active or range(n)
        if s != seat
    }
    return Table.quick(
        seat, trump_of(observation), observation.hand_mask, FULL & ~gone, counts, known, voids
    )


def _ints(deck: Deck, names: Sequence[str]) -> list[int]:
    """The cards ``names`` spell in ``deck``: looked up by name, as the observation's names
    are the deck's own spellings (``Deck.parse`` reads any other, or says what is wrong)."""
    inputs = deck.inputs
    try:
        return [inputs[name] for name in names]
    except KeyError:
        return [deck.parse(name) for name in names]


def _add_voids(voids: dict[int, int], cards: list[int], seats: tuple[int, ...]) -> None:
    """Add to ``voids`` the suit led of a trick (``cards`` played by ``seats``) to each seat
    that did not follow it."""
    if not cards:
        return
    led = cards[0] // STRIDE
    for who, card in zip(seats[1:], cards[1:], strict=True):
        if card // STRIDE != led:
            voids[who] = voids.get(who, 0) | 1 << led


_SHOWN: HistoryMemo[dict[int, int]] = HistoryMemo()
"""The voids shown in the completed tricks of the last history read: a playout reads the
table at every card, and only the tricks added since are read (``HistoryMemo``)."""


def _history_voids(history: tuple[TrickView, ...], n: int, deck: Deck) -> dict[int, int]:
    """The voids shown in the completed tricks (``_add_voids``).  The dict returned is the
    memo's own: the caller copies it before adding to it."""

    def extend(voids: dict[int, int], tricks: tuple[TrickView, ...]) -> dict[int, int]:
        more = dict(voids)
        for view in tricks:
            _add_voids(more, _ints(deck, view.cards), view.seats(n))
        return more

    return _SHOWN.read(history, (n, deck), {}, extend)


def play(observation: Observation) -> str:
    """Take the trick when a card is likely enough to; otherwise keep the good cards."""
    deck = deck_of(observation)
    names: dict[int, str] = dict(
        zip(_ints(deck, observation.legal), observation.legal, strict=True)
    )
    legal = sorted(names)
    n = observation.players
    trick = observation.trick
    cards = _ints(deck, trick.cards)
    table = _table_in_play(observation, deck, cards, trick.seats(n) if cards else ())
    trump = table.trump
    active = list(observation.active or range(n))
    if not cards:
        later = [s for s in active if s != table.seat]
        chances = [(table.win_chance(c, -1, later), c // STRIDE == trump, c) for c in legal]
        chance, _, card = max(chances)
        if chance >= WIN_WORTH:
            return names[card]
        return names[_cheapest(table, legal)]
    led = cards[0] // STRIDE
    win = cards[0]
    for card in cards[1:]:
        if beats(card, win, trump):
            win = card
    at = active.index(trick.leader)
    order = active[at:] + active[:at]
    later = order[len(cards) + 1 :]  # the seats after this one (one card a seat so far)
    winners = [c for c in legal if beats(c, win, trump)]
    if winners:
        rated = [(table.win_chance(c, led, later), c) for c in winners]
        best = max(chance for chance, _ in rated)
        if best >= WIN_WORTH or not later:
            # The cheapest card that does nearly as well as the best one.
            good = [c for chance, c in rated if chance >= best - 0.05]
            return names[min(good, key=lambda c: (c // STRIDE == trump, c % STRIDE))]
    return names[_cheapest(table, [c for c in legal if c not in winners] or legal)]


def _cheapest(table: Table, cards: list[int]) -> int:
    """The card least worth keeping: a side card before a trump, low before high, and from
    the shortest suit (a void to ruff into later)."""
    hand = table.hand

    def cost(card: int) -> tuple[bool, int, int]:
        suit = card // STRIDE
        return suit == table.trump, card % STRIDE, (hand & SUIT_MASKS[suit]).bit_count()

    return min(cards, key=cost)
