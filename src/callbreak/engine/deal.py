"""One deal of Call Break: misdeal → call → (declare) → play → over, or void.

The public ``Deal`` validates every action and explains refusals; it keeps just
enough state (masks and small lists) that random play through it stays fast.
Phases are small method pairs (``_legal_<phase>``/``_act_<phase>``) chosen by
the phase name, so a game with an auction, a trump choice or an exchange adds
its own pair rather than a copy of the engine.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from callbreak.cards import (
    _CARD_INPUT,
    CARD_NAMES,
    DECK_SIZE,
    RANK_COUNT,
    RANKS,
    SUIT_MASKS,
    SUITS,
    format_hand,
    hand_names,
    parse_card,
    parse_hand,
)
from callbreak.engine.errors import IllegalAction
from callbreak.engine.tricks import PlayRules, beats, explain_illegal, legal_mask
from callbreak.points import Points
from callbreak.rules import Rules

if TYPE_CHECKING:
    from callbreak.engine.observation import Observation

Action = int | str | bool
"""A call (int), a card (canonical string) or a yes/no decision (bool)."""

MISDEAL, CALL, DECLARE, PLAY, OVER, VOID = "misdeal", "call", "declare", "play", "over", "void"

_PLAY_RULES_CACHE: dict[Rules, PlayRules] = {}


def play_rules(rules: Rules) -> PlayRules:
    cached = _PLAY_RULES_CACHE.get(rules)
    if cached is None:
        cached = _PLAY_RULES_CACHE[rules] = PlayRules.of(rules)
    return cached


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


def misdeal_reason(rules: Rules, hand: int) -> str | None:
    """Why a hand qualifies for a misdeal under ``misdeal`` (None if it does not)."""
    if not hand & SUIT_MASKS[rules.trump_suit]:
        return "no spade"
    if not hand & _faces_mask(rules.misdeal_faces):
        return f"no {', '.join(rules.misdeal_faces)}"
    return None


class Deal:
    """One hand from the deal to the points; see DESIGN.md for the public surface.

    >>> deal = Deal(Rules.preset("callbreak"), seed=7, dealer=0)
    >>> deal.phase, deal.to_act
    ('call', 1)
    >>> for call in (3, 3, 3, 3):
    ...     deal.act(call)
    >>> deal.phase, deal.to_act, len(deal.legal()) > 0
    ('play', 1, True)
    """

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[str | Sequence[str | int]] | None = None,
        *,
        seed: int | None = None,
        dealer: int = 0,
    ) -> None:
        self.rules = rules
        self.players = n = rules.players
        if not 0 <= dealer < n:
            raise ValueError(f"dealer must be a seat from 0 to {n - 1}, not {dealer!r}")
        self.dealer = dealer
        self.seed = seed
        if hands is None:
            self.dealt = shuffled_hands(n, dealer, random.Random(seed))
        else:
            self.dealt = self._check_hands(hands)
        self.hands = list(self.dealt)
        self._play_rules = play_rules(rules)
        self.calls: list[int | None] = [None] * n
        self.claims: list[tuple[int, bool]] = []
        """Misdeal decisions in the order they were taken: (seat, claimed)."""
        self.declared: list[tuple[int, bool]] = []
        """Void declarations in order: (seat, declared)."""
        self.declared_voids: list[str] = [""] * n
        """Suit letters each seat has publicly declared void (``declare_voids``)."""
        self.tricks = [0] * n
        self.trick: list[int] = []
        self.leader = (dealer + 1) % n
        self._led = -1  # suit led to the trick in progress, -1 before its first card
        self._win = -1  # card winning the trick in progress
        self._win_seat = -1
        self.history: list[tuple[int, tuple[int, ...], int]] = []
        """Completed tricks: (leader, cards in play order, winner)."""
        self.trump_played = False
        self.void_reason: str | None = None
        self._points: list[Points] | None = None
        self._legal: int = -1
        self._pending: list[int] = []
        self.phase = ""
        self.to_act: int | None = None
        self._start()

    # ----------------------------------------------------------------- set-up
    def _check_hands(self, hands: Sequence[str | Sequence[str | int]]) -> list[int]:
        n, size = self.players, self.rules.hand_size
        if len(hands) != n:
            raise ValueError(f"give {n} hands, one per seat; got {len(hands)}")
        masks = []
        seen = 0
        for seat, hand in enumerate(hands):
            try:
                mask = parse_hand(hand)
            except ValueError as error:
                raise ValueError(f"seat {seat}: {error}") from None
            if mask.bit_count() != size:
                raise ValueError(f"seat {seat} holds {mask.bit_count()} cards; each needs {size}")
            if mask & seen:
                dup = format_hand(mask & seen)
                raise ValueError(f"seat {seat}: {dup} already dealt to another seat")
            seen |= mask
            masks.append(mask)
        return masks

    def _start(self) -> None:
        rules = self.rules
        order = self._turn_order()
        if rules.misdeal_no_spade:
            for seat in order:
                if not self.dealt[seat] & SUIT_MASKS[rules.trump_suit]:
                    self._void(f"seat {seat} holds no spade (misdeal_no_spade)")
                    return
        if rules.misdeal != "off":
            qualifying = [s for s in order if misdeal_reason(rules, self.dealt[s])]
            if qualifying and rules.misdeal == "auto":
                seat = qualifying[0]
                reason = misdeal_reason(rules, self.dealt[seat])
                self._void(f"misdeal: seat {seat} holds {reason} (misdeal=auto)")
                return
            if qualifying:
                self._pending = qualifying
                self.phase, self.to_act = MISDEAL, qualifying[0]
                return
        self.phase, self.to_act = CALL, order[0]

    def _void(self, reason: str) -> None:
        self.phase, self.to_act, self.void_reason = VOID, None, reason
        self._pending = []

    # ------------------------------------------------------------- public API
    def legal(self) -> list[Any]:
        """Legal actions for ``to_act``: ints while calling, card names while playing,
        ``[True, False]`` for a yes/no decision, ``[]`` when the deal is over or void."""
        phase = self.phase
        if phase == PLAY:
            return hand_names(self.legal_mask())
        if phase == CALL:
            return list(range(self.rules.min_call, self.rules.max_call + 1))
        if phase in (MISDEAL, DECLARE):
            return [True, False]
        return []

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
            self._act_other(action)
            return
        try:
            card = _CARD_INPUT[action]  # type: ignore[index]
        except (KeyError, TypeError):
            card = self._card_or_refuse(action)
        seat = self.to_act
        assert seat is not None
        if not self.legal_mask() >> card & 1:
            self._refuse_card(card)
        # The play itself, inlined: this is the hot path of every random playout.
        self.hands[seat] ^= 1 << card
        trick = self.trick
        trick.append(card)
        self._legal = -1
        trump = self._play_rules.trump
        suit = card // RANK_COUNT
        if suit == trump:
            self.trump_played = True
        if self._win < 0:
            self._led = suit
            self._win, self._win_seat = card, seat
        elif beats(card, self._win, trump):
            self._win, self._win_seat = card, seat
        n = self.players
        if len(trick) < n:
            self.to_act = seat + 1 if seat + 1 < n else 0
            return
        winner = self._win_seat
        self.history.append((self.leader, tuple(trick), winner))
        self.tricks[winner] += 1
        self.trick = []
        self._led = self._win = -1
        self.leader = self.to_act = winner
        if len(self.history) == self.rules.hand_size:
            self._finish()

    def _act_other(self, action: Action) -> None:
        phase = self.phase
        if phase == CALL:
            self._act_call(action)
        elif phase == MISDEAL:
            self._act_misdeal(action)
        elif phase == DECLARE:
            self._act_declare(action)
        else:
            raise IllegalAction(f"the deal is {phase}: no more actions", "phase")

    def _finish(self) -> None:
        self.phase, self.to_act = OVER, None
        score = self.rules.score
        self._points = [
            score(call or 0, won) for call, won in zip(self.calls, self.tricks, strict=True)
        ]

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
    def trick_number(self) -> int:
        """Index of the trick in progress (0-based; equals hand_size once all are played)."""
        return len(self.history)

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know now (RULES.md §9)."""
        from callbreak.engine.observation import observe

        return observe(self, seat)

    def copy(self) -> Deal:
        """An independent copy, for look-ahead: acting on it leaves this deal alone."""
        other = Deal.__new__(Deal)
        other.__dict__.update(self.__dict__)
        for name in (
            "hands",
            "calls",
            "claims",
            "declared",
            "declared_voids",
            "tricks",
            "trick",
            "history",
            "_pending",
        ):
            setattr(other, name, list(getattr(self, name)))
        return other

    def hand(self, seat: int) -> list[str]:
        """Cards ``seat`` holds now, canonical names (omniscient: not for bots or faces)."""
        return hand_names(self.hands[seat])

    def __repr__(self) -> str:
        return (
            f"<Deal {self.rules.name} dealer={self.dealer} phase={self.phase} to_act={self.to_act}>"
        )

    # ---------------------------------------------------------------- phases
    def _turn_order(self) -> list[int]:
        """Seats from the one after the dealer round to the dealer."""
        return [(self.dealer + 1 + i) % self.players for i in range(self.players)]

    def _yes_no(self, action: Action, question: str, rule: str) -> int:
        """Check a yes/no answer and take the seat that gave it off the pending list."""
        if not isinstance(action, bool):
            raise IllegalAction(
                f"seat {self.to_act} {question}: answer True or False, not {action!r}", rule
            )
        return self._pending.pop(0)

    def _act_misdeal(self, action: Action) -> None:
        seat = self._yes_no(action, "may claim a misdeal (True) or play on (False)", "misdeal")
        self.claims.append((seat, bool(action)))
        if action:
            reason = misdeal_reason(self.rules, self.dealt[seat])
            self._void(f"misdeal claimed by seat {seat} (holds {reason})")
        elif self._pending:
            self.to_act = self._pending[0]
        else:
            self.phase, self.to_act = CALL, (self.dealer + 1) % self.players

    def _act_call(self, action: Action) -> None:
        rules = self.rules
        call = action
        if isinstance(call, str) and call.strip().isdigit():
            call = int(call)
        if (
            not isinstance(call, int)
            or isinstance(call, bool)
            or not rules.min_call <= call <= rules.max_call
        ):
            raise IllegalAction(
                f"{action!r} is not a call: call a whole number from {rules.min_call} "
                f"to {rules.max_call} (min_call, max_call)",
                "max_call" if isinstance(call, int) and call > rules.max_call else "min_call",
            )
        seat = self.to_act
        assert seat is not None
        self.calls[seat] = call
        nxt = (seat + 1) % self.players
        if self.calls[nxt] is None:
            self.to_act = nxt
            return
        total = sum(c for c in self.calls if c is not None)
        if rules.min_total_calls is not None and total < rules.min_total_calls:
            self._void(f"calls total {total}, below min_total_calls={rules.min_total_calls}")
            return
        if rules.declare_voids:
            self._pending = [s for s in self._turn_order() if self._void_suits(s)]
            if self._pending:
                self.phase, self.to_act = DECLARE, self._pending[0]
                return
        self._begin_play()

    def _void_suits(self, seat: int) -> str:
        hand = self.hands[seat]
        return "".join(SUITS[s] for s in range(4) if not hand & SUIT_MASKS[s])

    def _act_declare(self, action: Action) -> None:
        seat = self._yes_no(action, "may declare its void suits", "declare_voids")
        self.declared.append((seat, bool(action)))
        if action:
            self.declared_voids[seat] = self._void_suits(seat)
        if self._pending:
            self.to_act = self._pending[0]
        else:
            self._begin_play()

    def _begin_play(self) -> None:
        self.phase = PLAY
        self.to_act = self.leader = (self.dealer + 1) % self.players
        self._legal = -1

    def _card_or_refuse(self, action: Action) -> int:
        if isinstance(action, bool) or not isinstance(action, (int, str)):
            raise IllegalAction(f"{action!r} is not a card: play a card such as AS or TD", "card")
        try:
            return parse_card(action)
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
        )
        raise IllegalAction(f"{CARD_NAMES[card]} is not allowed: {message}", rule)
