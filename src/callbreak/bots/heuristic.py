"""A sound rule-based player: calls from a hand evaluation, plays from card tracking.

It wins tricks while it still needs them, using cards that cannot be beaten
when it has them; once its call is made it ducks and sheds high cards, since
an overtrick is worth 0.1 at best and breaks a Call Bridge call.  Everything it
knows comes from its ``Observation`` (through ``knowledge.read``).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from callbreak.bots import batak, fivecard, rook
from callbreak.bots.base import CALLS, check_number, register_bot
from callbreak.bots.knowledge import Knowledge, read
from callbreak.bots.trickplay import estimate_tricks as estimate_tricks  # named here too
from callbreak.cards import CARD_NAMES, RANK_COUNT, SUIT_MASKS, SUITS, parse_card
from callbreak.engine import Action, Observation
from callbreak.engine.tricks import beats


@register_bot("heuristic", "rule-based: hand evaluation for calls, card tracking in play (fast)")
class HeuristicBot:
    name = "heuristic"

    def __init__(
        self, seed: int | None = None, caution: float = 0.25, blunder: float = 0.0
    ) -> None:
        """``caution`` is subtracted from the estimate before rounding the call; with
        probability ``blunder`` a card is played at random (the beginner level)."""
        if not 0.0 <= blunder <= 1.0:
            raise ValueError(f"blunder is a probability from 0 to 1, not {blunder!r}")
        # nan or inf would pass here and fail at the first call, rounding the estimate.
        check_number("caution", caution, "is tricks kept below the estimate: a finite number")
        self.caution = caution
        self.blunder = blunder
        self._rng = random.Random(seed)

    def act(self, observation: Observation) -> Action:
        phase = observation.phase
        if phase == "play" and self.blunder and self._rng.random() < self.blunder:
            action: Action = self._rng.choice(observation.legal)
            return action
        policy = observation.rules.shape.policy
        if policy != CALLS:
            return _family_policy(policy)(self, observation)
        if phase == "call":
            if LOOK in observation.legal:
                return LOOK  # blind nil is a gamble this bot does not take
            return self.call(observation)
        if phase == "misdeal":
            # A qualifying hand is weak by definition; throw it in unless it still looks useful.
            trump = observation.rules.trump_suit
            return estimate_tricks(observation.hand_mask, trump) < 2.5
        if phase == "declare":
            return False  # a declaration only helps the opponents read the hand
        return CARD_NAMES[self.play(observation)]

    # ------------------------------------------------------------------ calls
    def call(self, observation: Observation) -> int:
        rules = observation.rules
        legal = [a for a in observation.legal if type(a) is int]
        hand, trump = observation.hand_mask, _trump_of(observation)
        if observation.players == 4 and hand.bit_count() == 13:
            estimate = estimate_tricks(hand, trump)
        else:
            estimate = short_hand_tricks(hand, trump, observation.players)
        call = int(estimate - self.caution + 0.5)
        if not legal:  # asked outside its turn: the options' range
            return max(rules.min_call, min(rules.max_call, call))
        if call <= 0 and not can_duck_everything(hand, trump):
            call = 1  # nil (or an exact 0) only with a hand that can duck every trick
        # The legal call nearest the estimate (Oh Hell's hook or a side's cap may rule it out).
        best: int = min(legal, key=lambda value: (abs(value - call), value))
        return best

    # ------------------------------------------------------------------ play
    def play(self, observation: Observation) -> int:
        legal = [parse_card(c) for c in observation.legal]
        if len(legal) == 1:
            return legal[0]
        k = read(observation)
        call = observation.calls[k.seat] or 0
        need = call - observation.tricks_won[k.seat]
        if not k.trick:
            return self._lead(k, legal, need)
        return self._follow(k, legal, need)

    def _safe_from_ruff(self, k: Knowledge, suit: int) -> bool:
        """No opponent is known void in ``suit`` while trumps are still out."""
        if suit == k.trump or k.trump < 0:
            return True
        trumps_out = k.unseen & SUIT_MASKS[k.trump]
        return not trumps_out or not any(k.void(s, suit) for s in range(k.players) if s != k.seat)

    def _lead(self, k: Knowledge, legal: list[int], need: int) -> int:
        side = [c for c in legal if c // RANK_COUNT != k.trump]
        if need > 0:
            bosses = [c for c in side if k.is_boss(c) and self._safe_from_ruff(k, c // RANK_COUNT)]
            if bosses:
                return max(bosses)
            trump_bosses = [c for c in legal if c // RANK_COUNT == k.trump and k.is_boss(c)]
            if trump_bosses:
                return max(trump_bosses)
            if side:
                # Lead low from the longest side suit: set up its winners, keep the trumps.
                return min(
                    side,
                    key=lambda c: (
                        -(k.hand & SUIT_MASKS[c // RANK_COUNT]).bit_count(),
                        c % RANK_COUNT,
                    ),
                )
            return min(legal)
        # Call made: lead the card least likely to win.
        losers = [c for c in side if not k.is_boss(c)] or side or legal
        return min(losers, key=lambda c: c % RANK_COUNT)

    def _follow(self, k: Knowledge, legal: list[int], need: int) -> int:
        winners = [c for c in legal if beats(c, k.win, k.trump)]
        later = k.seats_after_me()
        if need > 0 and winners:
            if not later:
                return min(winners, key=lambda c: (c // RANK_COUNT == k.trump, c))
            safe = [c for c in winners if k.holds(c, later)]
            if safe:
                return min(safe, key=lambda c: (c // RANK_COUNT == k.trump, c))
            trump_winners = [c for c in winners if c // RANK_COUNT == k.trump]
            if trump_winners and len(trump_winners) == len(winners):
                return min(trump_winners)
            return max(c for c in winners if c // RANK_COUNT != k.trump)
        losers = [c for c in legal if c not in winners]
        if need <= 0:
            if losers:
                # Duck with the highest card that still loses: shed danger.
                return max(losers, key=lambda c: (c // RANK_COUNT != k.trump, c % RANK_COUNT))
            return min(winners, key=lambda c: c % RANK_COUNT) if later else max(winners)
        # Cannot win: discard the lowest side card, from the shortest side suit.
        pool = [c for c in losers if c // RANK_COUNT != k.trump] or losers or legal
        return min(
            pool,
            key=lambda c: (c % RANK_COUNT, (k.hand & SUIT_MASKS[c // RANK_COUNT]).bit_count()),
        )


LOOK = "look"
"""Spades' blind nil: a seat looks at its cards before it bids."""


def _trump_of(observation: Observation) -> int:
    """This deal's trump as a suit index (it changes deal by deal in Oh Hell), -1 for none."""
    trump = observation.trump
    return -1 if trump is None else SUITS.index(trump)


def short_hand_tricks(hand: int, trump: int, players: int) -> float:
    """Tricks a hand of any size should take at ``players`` seats: each card by its rank,
    a trump better, side cards worse the more seats there are to ruff or overtake them."""
    tricks = 0.0
    for suit in range(4):
        held = hand & SUIT_MASKS[suit]
        while held:
            low = held & -held
            held ^= low
            rank = (low.bit_length() - 1) % RANK_COUNT  # 0 = the two, 12 = the ace
            if suit == trump:
                tricks += max(0.0, (rank - 6) / 6)
            elif rank >= 10:
                tricks += (rank - 9) / 3 * (0.9 if players <= 4 else 0.7)
    return tricks


def can_duck_everything(hand: int, trump: int) -> bool:
    """Whether a hand looks safe to take no trick: nothing above a ten, and no trump above
    an eight (it can follow low, and never has to win a trick it is forced into)."""
    for suit in range(4):
        held = hand & SUIT_MASKS[suit]
        if not held:
            continue
        top = (held.bit_length() - 1) % RANK_COUNT
        if top > (6 if suit == trump else 8):
            return False
    return True


def shortlist(observation: Observation, size: int) -> list[Action] | None:
    """The ``size`` actions the heuristic rates best, its own choice first, where the
    policy of the game ranks more actions than a search can weigh in a table's budget
    (Call Partner's discards and partner card); None where it has no such ranking."""
    if observation.rules.shape.policy == "point-auction":
        return rook.shortlist(observation, size)
    return None


def _family_policy(policy: str) -> Callable[[HeuristicBot, Observation], Action]:
    """The policy a game's record names (``Game.policy``), for the games that are not
    played by calls; the call games' own policy is the class above.  The family's
    policies build on ``trickplay``, not on this module, so they are imported at the top.
    """
    if policy == "trump-auction":
        return batak.act
    if policy == "point-auction":
        return rook.act
    if policy == fivecard.POLICY:
        return fivecard.act
    raise ValueError(f"the heuristic does not know the policy {policy!r}")
