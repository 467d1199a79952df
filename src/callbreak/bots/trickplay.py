"""What the heuristic and the family's policies (``batak``, ``rook``, ``fivecard``) share.

The heuristic picks the policy of a family game and hands it itself; the policies
build on its hand evaluation and call back into its trick play.  Both pieces live here, below
all of them, so that the policies need not import the heuristic that imports them: the
evaluation as a function, the bot as the ``TrickPlayer`` interface it satisfies.
"""

from __future__ import annotations

from typing import Protocol

from callbreak.bots.knowledge import Knowledge
from callbreak.bots.search._core import popcount
from callbreak.cards import RANK_COUNT, SUIT_MASKS


class TrickPlayer(Protocol):
    """A bot whose trick play a family policy borrows (``HeuristicBot`` and its styles)."""

    caution: float
    """Subtracted from a hand's estimate before a bid is rounded."""

    def _lead(self, k: Knowledge, legal: list[int], need: int) -> int: ...

    def _follow(self, k: Knowledge, legal: list[int], need: int) -> int: ...


ACE, KING, QUEEN, JACK = 12, 11, 10, 9


def estimate_tricks(hand: int, trump: int) -> float:
    """Tricks a hand should take: top cards, trump length, and ruffs from short side suits.

    Written on bit masks in the subset of Python that numba compiles, so that
    the expert's sampler can weigh thousands of sampled hands by their calls
    with this very function (see ``search.belief``).
    """
    total = 0.0
    spare_trumps = 0
    for suit in range(4):
        held = hand & SUIT_MASKS[suit]
        length = popcount(held)
        base = suit * RANK_COUNT
        ace = (held >> (base + ACE)) & 1
        king = (held >> (base + KING)) & 1
        queen = (held >> (base + QUEEN)) & 1
        jack = (held >> (base + JACK)) & 1
        if suit == trump:
            honours = 0.0
            if ace:
                honours += 1
            if king:
                honours += 1 if length >= 2 else 0.4
            if queen:
                honours += 0.8 if length >= 3 else 0.3
            if jack and length >= 4:
                honours += 0.4
            total += honours + max(0, length - 4) * 0.9
            spare_trumps = length - int(honours)
            continue
        if ace:
            total += 1.0 if length <= 5 else 0.7
        if king:
            if length >= 2:
                total += 0.8 if ace else 0.55
            else:
                total += 0.15
        if queen and length >= 3 and (ace or king):
            total += 0.3
    if trump >= 0:
        for suit in range(4):
            if suit == trump or spare_trumps <= 0:
                continue
            length = popcount(hand & SUIT_MASKS[suit])
            ruffs = 1.6 if length == 0 else (0.9 if length == 1 else (0.35 if length == 2 else 0.0))
            used = min(ruffs, spare_trumps * 0.7)
            total += used
            spare_trumps -= round(used)
    return total
