"""What a seat can infer from the public history: cards gone, voids shown, tricks needed.

Only the observation goes in, so every fact here is one a person at the table
could also work out (docs/rules/what-bots-know.md).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from callbreak.cards import CARD_NAMES, RANK_COUNT, SUIT_MASKS, parse_card
from callbreak.engine import Observation
from callbreak.engine.observation import TrickView
from callbreak.engine.tricks import beats


@dataclass(frozen=True)
class Knowledge:
    seat: int
    players: int
    trump: int
    hand: int
    played: int
    """Every card already played, the trick in progress included."""
    voids: tuple[int, ...]
    """Per seat, a 4-bit set of suits it has shown it lacks."""
    trick: tuple[int, ...]
    led: int
    win: int
    win_seat: int

    @property
    def unseen(self) -> int:
        """Cards held by the other seats (neither mine nor played)."""
        full = (1 << (RANK_COUNT * 4)) - 1
        return full & ~self.hand & ~self.played

    def is_boss(self, card: int) -> bool:
        """Whether no unseen card of its suit ranks above ``card``."""
        suit_mask = SUIT_MASKS[card // RANK_COUNT]
        return not self.unseen & suit_mask & ~((2 << card) - 1)

    def void(self, seat: int, suit: int) -> bool:
        return bool(self.voids[seat] >> suit & 1)

    def holds(self, card: int, later: list[int]) -> bool:
        """Whether ``card`` will still win once the seats in ``later`` have played to it."""
        suit = card // RANK_COUNT
        higher_out = self.unseen & SUIT_MASKS[suit] & ~((2 << card) - 1)
        if suit == self.trump:
            return not higher_out
        if higher_out and not all(self.void(s, suit) for s in later):
            return False
        trumps_out = self.unseen & SUIT_MASKS[self.trump] if self.trump >= 0 else 0
        return not trumps_out or not any(self.void(s, suit) for s in later)

    def seats_after_me(self) -> list[int]:
        """Seats still to play to the current trick after this one."""
        left = self.players - len(self.trick) - 1
        return [(self.seat + i) % self.players for i in range(1, left + 1)]


T = TypeVar("T")


class HistoryMemo(Generic[T]):
    """A value worked out from the completed tricks of the last history read, continued when
    the next history read extends it.

    A playout reads an observation at every card, and the views of a deal's completed tricks
    are the same objects from one observation to the next (and in the deal's copies), so a
    history that holds, at the length of the last one, that one's last view continues it:
    only the tricks added since are worked out.  The value stored is never changed (``extend``
    makes a new one), and it is kept in one tuple replaced whole, so that a reader in another
    thread sees one consistent entry.
    """

    __slots__ = ("_last",)

    def __init__(self) -> None:
        self._last: tuple[tuple[TrickView, ...], Hashable, Any] = ((), _NO_KEY, None)

    def read(
        self,
        history: tuple[TrickView, ...],
        key: Hashable,
        empty: T,
        extend: Callable[[T, tuple[TrickView, ...]], T],
    ) -> T:
        """The value for ``history``: ``extend(empty, history)``, continuing the last one read
        under the same ``key`` (what else the value depends on: seats, trump, deck)."""
        seen, seen_key, value = self._last
        if seen is history and seen_key == key:
            kept: T = value
            return kept
        at = len(seen)
        if seen_key != key or at > len(history) or (at and history[at - 1] is not seen[-1]):
            at, value = 0, empty
        value = extend(value, history[at:])
        self._last = (history, key, value)
        return value


_NO_KEY = object()


def card_ints(names: Sequence[str]) -> list[int]:
    """The standard deck's cards ``names`` spell: looked up by name, as an observation's names
    are the canonical ones (``parse_card`` reads any other spelling, or says what is wrong)."""
    try:
        return [_BY_NAME[name] for name in names]
    except KeyError:
        return [parse_card(name) for name in names]


_BY_NAME = {name: card for card, name in enumerate(CARD_NAMES)}


def _shown_voids(tricks: Sequence[TrickView], n: int, trump: int, must: bool) -> list[int]:
    """The voids each seat showed by not following suit in ``tricks`` (bit per suit)."""
    voids = [0] * n
    for trick in tricks:
        cards = card_ints(trick.cards)
        if cards:
            _add_shown(voids, cards, trick.seats(n), trump, must)
    return voids


def _add_shown(
    voids: list[int], cards: list[int], seats: tuple[int, ...], trump: int, must: bool
) -> None:
    """Add the voids shown in one trick (``cards`` played by ``seats``, at least one card)."""
    led = cards[0] // RANK_COUNT
    for seat, card in zip(seats[1:], cards[1:], strict=True):
        suit = card // RANK_COUNT
        if suit != led:
            voids[seat] |= 1 << led
            # Void in the led suit and no trump played while a trump was compulsory:
            # under must_trump the seat had no (winning) trump.
            if suit != trump and must and trump >= 0:
                voids[seat] |= 1 << trump


_SHOWN: HistoryMemo[tuple[int, ...]] = HistoryMemo()
"""The voids shown in the completed tricks of the last history read."""


def _history_voids(observation: Observation, n: int, trump: int, must: bool) -> list[int]:
    """``_shown_voids`` of the completed tricks, extending the last history read when this
    one continues it (``HistoryMemo``)."""

    def extend(voids: tuple[int, ...], tricks: tuple[TrickView, ...]) -> tuple[int, ...]:
        more = _shown_voids(tricks, n, trump, must)
        return tuple([a | b for a, b in zip(voids, more, strict=True)])

    voids = _SHOWN.read(observation.history, (n, trump, must), (0,) * n, extend)
    return list(voids)  # the caller adds to its copy


def read(observation: Observation, trump: int | None = None) -> Knowledge:
    """What ``observation`` tells: the cards gone, the voids shown, the trick so far.

    ``trump``: this deal's trump where the rules name none (Batak's declarer names it), so
    that the trick's winner is found with it and, under ``must_trump=always``, a seat that
    neither followed nor trumped is known to hold no trump; the rules' trump by default.
    """
    n = observation.players
    if trump is None:
        trump = observation.rules.trump_suit
    must = observation.rules.must_trump == "always"
    voids = _history_voids(observation, n, trump, must)
    for seat, suits in enumerate(observation.declared_voids):
        for letter in suits:
            voids[seat] |= 1 << "SHDC".index(letter)
    current = card_ints(observation.trick.cards)
    led, win, win_seat = -1, -1, -1
    if current:
        seats = observation.trick.seats(n)
        _add_shown(voids, current, seats, trump, must)
        led = current[0] // RANK_COUNT
        win, win_seat = current[0], seats[0]
        for seat, card in zip(seats[1:], current[1:], strict=True):
            if beats(card, win, trump):
                win, win_seat = card, seat
    return Knowledge(
        seat=observation.seat,
        players=n,
        trump=trump,
        hand=observation.hand_mask,
        played=observation.played_mask,
        voids=tuple(voids),
        trick=tuple(current),
        led=led,
        win=win,
        win_seat=win_seat,
    )
