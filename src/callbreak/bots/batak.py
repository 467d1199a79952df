"""The heuristic's policy for Batak İhaleli: bid, name trump, take tricks.

The rules are docs/rules/batak-ihale.md.

Batak rewards tricks for everyone: the declarer scores its bid only if it takes
that many, and every other seat scores +1 a trick (−bid for none at all), so a
trick the declarer takes after making its bid is still one the defenders lose.
The play is therefore the Call Break heuristic's own trick play with tricks
always wanted; what differs is that trump is chosen per deal, so the card
tracking is read with this deal's trump, and the auction is won by a hand
evaluation over the four possible trumps.
"""

from __future__ import annotations

from callbreak.bots.knowledge import Knowledge, card_ints, read
from callbreak.bots.trickplay import TrickPlayer, estimate_tricks
from callbreak.cards import CARD_NAMES, SUIT_MASKS, SUITS
from callbreak.engine import Action, Observation

ALWAYS_WANTED = 13
"""Tricks still wanted by every seat: in Batak no trick is ever worth ducking."""


def act(bot: TrickPlayer, observation: Observation) -> Action:
    """One Batak decision of ``bot`` (its ``caution`` tempers the bids)."""
    phase = observation.phase
    if phase == "auction":
        return bid(observation, bot.caution)
    if phase == "trump":
        return SUITS[best_trump(observation.hand_mask)]
    legal = card_ints(observation.legal)
    if len(legal) == 1:
        return CARD_NAMES[legal[0]]
    k = knowledge(observation)
    if not k.trick:
        return CARD_NAMES[bot._lead(k, legal, ALWAYS_WANTED)]
    return CARD_NAMES[bot._follow(k, legal, ALWAYS_WANTED)]


def best_trump(hand: int) -> int:
    """The suit that makes the hand take the most tricks; ties go to the longer suit."""
    return max(
        range(4),
        key=lambda s: (estimate_tricks(hand, s), (hand & SUIT_MASKS[s]).bit_count(), -s),
    )


def bid(observation: Observation, caution: float) -> int | str:
    """Bid what the hand should take with its best trump, or pass when that is too few.

    The declarer scores its bid, so it bids its whole estimate at once rather than
    creeping up: a higher contract that it makes is worth more.
    """
    hand = observation.hand_mask
    estimate = estimate_tricks(hand, best_trump(hand))
    target = int(estimate - caution + 0.5)
    bids = [b for b in observation.legal if isinstance(b, int)]
    if not bids or target < bids[0]:
        return "pass"
    return min(target, bids[-1])


def knowledge(observation: Observation) -> Knowledge:
    """``read`` with this deal's trump: the rules know none, the deal chose one.

    With it, ``read`` finds who is winning the trick in progress with trumps counted, and
    adds what the chosen trump tells: under ``must_trump=always`` a seat that neither
    followed nor trumped holds no trump.
    """
    trump = SUITS.index(observation.trump) if observation.trump else -1
    return read(observation) if trump < 0 else read(observation, trump)
