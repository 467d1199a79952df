"""What a seat can infer from the public history: cards gone, voids shown, tricks needed.

Only the observation goes in, so every fact here is one a person at the table
could also work out (docs/rules/what-bots-know.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from callbreak.cards import RANK_COUNT, SUIT_MASKS, parse_card
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


_SHOWN: list[Any] = [(), None, ()]
"""The last history read, the key of its rules, and the voids its tricks showed: the next
decision of the same deal (a playout reads one after every card) reads only what is new."""


def _shown_voids(tricks: Sequence[TrickView], n: int, trump: int, must: bool) -> list[int]:
    """The voids each seat showed by not following suit in ``tricks`` (bit per suit)."""
    voids = [0] * n
    for trick in tricks:
        cards = [parse_card(c) for c in trick.cards]
        if not cards:
            continue
        led = cards[0] // RANK_COUNT
        for seat, card in zip(trick.seats(n)[1:], cards[1:], strict=True):
            suit = card // RANK_COUNT
            if suit != led:
                voids[seat] |= 1 << led
                # Void in the led suit and no trump played while a trump was compulsory:
                # under must_trump the seat had no (winning) trump.
                if suit != trump and must and trump >= 0:
                    voids[seat] |= 1 << trump
    return voids


def _history_voids(observation: Observation, n: int, trump: int) -> list[int]:
    """``_shown_voids`` of the completed tricks, extending the last history read when this
    one continues it (the views of completed tricks are shared, never rebuilt)."""
    history = observation.history
    must = observation.rules.must_trump == "always"
    seen, key, voids = _SHOWN
    at = len(seen)
    continues = key == (n, trump, must) and at <= len(history)
    if continues and at and history[at - 1] is not seen[-1]:
        continues = False
    if not continues:
        at, voids = 0, [0] * n
    more = _shown_voids(history[at:], n, trump, must)
    voids = [a | b for a, b in zip(voids, more, strict=True)]
    _SHOWN[:] = (history, (n, trump, must), voids)
    return list(voids)  # the caller adds to its copy


def read(observation: Observation) -> Knowledge:
    n = observation.players
    trump = observation.rules.trump_suit
    voids = _history_voids(observation, n, trump)
    for seat, suits in enumerate(observation.declared_voids):
        for letter in suits:
            voids[seat] |= 1 << "SHDC".index(letter)
    must = observation.rules.must_trump == "always"
    current_voids = _shown_voids((observation.trick,), n, trump, must)
    voids = [a | b for a, b in zip(voids, current_voids, strict=True)]
    current = [parse_card(c) for c in observation.trick.cards]
    led, win, win_seat = -1, -1, -1
    if current:
        led = current[0] // RANK_COUNT
        seats = observation.trick.seats(n)
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
