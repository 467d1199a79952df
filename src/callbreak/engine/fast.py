"""The compact play state for search: masks and lists, apply/undo, no validation.

``Deal`` checks and explains; searches and playouts need millions of moves, so
they use ``PlayState`` instead.  It calls the same ``legal_mask`` and ``beats``
as ``Deal``, and the tests play both side by side to prove they agree.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from callbreak.cards import RANK_COUNT
from callbreak.engine.tricks import PlayRules, beats, legal_mask, trick_winner_offset


class PlayState:
    """The play phase of one deal: who holds what, the trick, tricks won; with undo.

    ``hands`` are masks by seat; ``leader`` leads the current trick, of which
    ``trick`` holds the cards played so far.  ``play`` trusts its caller: only
    cards from ``legal()`` may be played.
    """

    __slots__ = (
        "_undo",
        "hand_size",
        "hands",
        "leader",
        "led",
        "players",
        "rules",
        "to_act",
        "trick",
        "tricks",
        "tricks_left",
        "trump_played",
        "win",
        "win_seat",
    )

    def __init__(
        self,
        rules: PlayRules,
        hands: Sequence[int],
        leader: int,
        *,
        trick: Sequence[int] = (),
        tricks: Sequence[int] | None = None,
        trump_played: bool = False,
        hand_size: int = 13,
    ) -> None:
        self.rules = rules
        self.players = n = len(hands)
        self.hand_size = hand_size
        self.hands = list(hands)
        self.leader = leader
        self.trick = list(trick)
        self.to_act = (leader + len(self.trick)) % n
        self.tricks = list(tricks) if tricks is not None else [0] * n
        self.tricks_left = hand_size - sum(self.tricks)
        self.trump_played = trump_played
        self.led = self.win = self.win_seat = -1
        if self.trick:
            self.led = self.trick[0] // RANK_COUNT
            at = trick_winner_offset(self.trick, rules.trump)
            self.win, self.win_seat = self.trick[at], (leader + at) % n
        self._undo: list[tuple[int, int, bool, int, int, int, list[int], int]] = []

    def legal(self) -> int:
        """Mask of the cards ``to_act`` may play."""
        return legal_mask(
            self.rules,
            self.hands[self.to_act],
            self.led,
            self.win,
            self.tricks_left == self.hand_size,
            self.trump_played,
        )

    @property
    def over(self) -> bool:
        return self.tricks_left == 0

    def play(self, card: int) -> None:
        seat = self.to_act
        self.hands[seat] ^= 1 << card
        trick = self.trick
        trick.append(card)
        self._undo.append(
            (card, seat, self.trump_played, self.led, self.win, self.win_seat, trick, self.leader)
        )
        trump = self.rules.trump
        if card // RANK_COUNT == trump:
            self.trump_played = True
        if self.win < 0:
            self.led = card // RANK_COUNT
            self.win, self.win_seat = card, seat
        elif beats(card, self.win, trump):
            self.win, self.win_seat = card, seat
        n = self.players
        if len(trick) < n:
            self.to_act = seat + 1 if seat + 1 < n else 0
            return
        winner = self.win_seat
        self.tricks[winner] += 1
        self.tricks_left -= 1
        self.trick = []
        self.led = self.win = self.win_seat = -1
        self.leader = self.to_act = winner

    def undo(self) -> None:
        """Take back the last ``play``."""
        card, seat, self.trump_played, self.led, self.win, self.win_seat, trick, leader = (
            self._undo.pop()
        )
        if self.trick is not trick:
            # That card completed a trick: take the trick back from its winner.
            self.tricks[self.leader] -= 1
            self.tricks_left += 1
            self.trick = trick
            self.leader = leader
        trick.pop()
        self.hands[seat] |= 1 << card
        self.to_act = seat

    def copy(self) -> PlayState:
        """An independent copy (without the undo stack)."""
        other = PlayState.__new__(PlayState)
        for name in PlayState.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = list(self.hands)
        other.trick = list(self.trick)
        other.tricks = list(self.tricks)
        other._undo = []
        return other


def random_card(mask: int, draw: float) -> int:
    """The card at a uniform position among the set bits of ``mask``, for ``draw`` in [0, 1)."""
    for _ in range(int(draw * mask.bit_count())):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def random_playout(state: PlayState, rng: random.Random) -> list[int]:
    """Play the state to the end with uniformly random legal cards; tricks won by seat."""
    draw = rng.random
    while state.tricks_left:
        state.play(random_card(state.legal(), draw()))
    return state.tricks
