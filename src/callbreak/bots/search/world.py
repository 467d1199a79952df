"""One complete deal state for the perfect-information search: the ``World``.

A world is what the solver needs and nothing more: every seat's cards, the
trick in progress, tricks won so far and whether a trump has been played.  The
belief sampler builds worlds from an ``Observation`` (docs/design.md: only
observations cross the hidden-information line; a world is the bot's own guess
at the hidden cards), and ``world_from_observation`` is the one place where an
observation plus guessed hands becomes a world, so both modules agree on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from callbreak.cards import RANK_COUNT, SUIT_MASKS, format_hand, parse_card
from callbreak.engine.deal import play_rules
from callbreak.engine.observation import Observation
from callbreak.engine.tricks import PlayRules, beats


@dataclass(frozen=True)
class World:
    """A full deal position: hands by seat (masks), the trick in progress, tricks won.

    ``leader`` leads the trick in progress and ``trick`` holds its cards so far
    in play order.  ``tricks`` counts tricks won by seat in this deal, so the
    completed tricks number ``sum(tricks)`` and the first trick is in progress
    while that sum is 0.  ``weight`` is the sampler's relative likelihood of this
    world (1.0 for a world that was not sampled).
    """

    rules: PlayRules
    hands: tuple[int, ...]
    leader: int
    trick: tuple[int, ...] = ()
    tricks: tuple[int, ...] = (0, 0, 0, 0)
    trump_played: bool = False
    weight: float = field(default=1.0, compare=False)

    def __post_init__(self) -> None:
        n = len(self.hands)
        if n != 4:
            raise ValueError(f"the solver plays four seats; got {n} hands")
        if len(self.tricks) != n:
            raise ValueError(f"give tricks won for each of the {n} seats")
        if not 0 <= self.leader < n:
            raise ValueError(f"leader must be a seat from 0 to {n - 1}, not {self.leader}")
        if len(self.trick) >= n:
            raise ValueError("a trick in progress holds at most three cards")
        seen = 0
        for mask in (*self.hands, *(1 << c for c in self.trick)):
            if mask & seen:
                raise ValueError(f"{format_hand(mask & seen)} appears twice in the world")
            seen |= mask
        sizes = {
            self.hands[(self.leader + i) % n].bit_count() + (1 if i < len(self.trick) else 0)
            for i in range(n)
        }
        if len(sizes) != 1:
            raise ValueError("hands do not fit the trick: every seat must hold the same count")

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def to_act(self) -> int:
        return (self.leader + len(self.trick)) % len(self.hands)

    @property
    def tricks_left(self) -> int:
        """Tricks still to be won, the one in progress included."""
        return self.hands[self.leader].bit_count() + (1 if self.trick else 0)

    @property
    def first_trick(self) -> bool:
        return sum(self.tricks) == 0

    @property
    def led(self) -> int:
        """Suit led to the trick in progress, -1 when nobody has played to it yet."""
        return self.trick[0] // RANK_COUNT if self.trick else -1

    @property
    def winning(self) -> tuple[int, int]:
        """``(card, seat)`` winning the trick in progress so far, ``(-1, -1)`` when empty."""
        if not self.trick:
            return -1, -1
        win, win_seat = self.trick[0], self.leader
        for i, card in enumerate(self.trick[1:], 1):
            if beats(card, win, self.rules.trump):
                win, win_seat = card, (self.leader + i) % self.players
        return win, win_seat


def world_from_observation(
    observation: Observation,
    other_hands: Mapping[int, int] | Sequence[int],
    weight: float = 1.0,
) -> World:
    """The world in which the other seats hold ``other_hands`` and everything else is observed.

    ``other_hands`` maps each other seat to its mask (a sequence by seat works
    too; the observing seat's own entry is ignored and its observed hand used).
    Only the observation is read, never a ``Deal``.
    """
    n = observation.players
    seat = observation.seat
    hands = []
    for s in range(n):
        hands.append(observation.hand_mask if s == seat else other_hands[s])
    rules = play_rules(observation.rules)
    trump = rules.trump
    played = observation.played_mask
    return World(
        rules=rules,
        hands=tuple(hands),
        leader=observation.trick.leader,
        trick=tuple(parse_card(c) for c in observation.trick.cards),
        tricks=tuple(observation.tricks_won),
        trump_played=trump >= 0 and bool(played & SUIT_MASKS[trump]),
        weight=weight,
    )
