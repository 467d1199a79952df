"""Which cards may be played to a trick, as mask arithmetic, and why a card may not.

``legal_mask`` is the single source of truth for play legality: the public
``Deal`` and the compact search state both call it, so they cannot disagree.
``explain_illegal`` walks the same steps in the same order to name the rule a
refused card breaks; it runs only on the (rare) illegal path.
"""

from __future__ import annotations

from typing import NamedTuple

from callbreak.cards import RANK_COUNT, SUIT_MASKS
from callbreak.decks import DECKS, STANDARD, Deck
from callbreak.rules import Rules

NEVER, WINNING, ALWAYS = 0, 1, 2
_MUST_TRUMP = {"never": NEVER, "winning": WINNING, "always": ALWAYS}


class PlayRules(NamedTuple):
    """The play options of a Rules, flattened to plain ints and bools for the hot path."""

    trump: int  # suit index, or -1 for no trump
    must_overtake: bool
    must_trump: int  # NEVER | WINNING | ALWAYS
    no_waste_trump: bool
    no_trump_lead_first_trick: bool
    trump_broken_to_lead: bool
    stride: int = RANK_COUNT
    """Card ints per suit in the deck (13 standard, 16 Rook): card // stride is its suit."""
    suit_masks: tuple[int, ...] = SUIT_MASKS

    @classmethod
    def of(cls, rules: Rules) -> PlayRules:
        """The play options of ``rules``; a game that decides trump per deal starts with none
        (``trump`` -1) and the deal puts its trump in with ``_replace(trump=...)``.

        An option the game does not have plays as plain "follow suit, else any card" (Call
        Partner, docs/rules/rook-call-partner.md): the defaults of the other games must not leak
        into it.
        """
        deck = DECKS[rules.shape.deck]
        own = rules.shape.options

        def option(name: str, plain: object) -> object:
            return getattr(rules, name) if name in own else plain

        return cls(
            trump=rules.trump_suit,
            must_overtake=bool(option("must_overtake", False)),
            must_trump=_MUST_TRUMP[str(option("must_trump", "never"))],
            no_waste_trump=bool(option("no_waste_trump", False)),
            no_trump_lead_first_trick=bool(option("no_spade_lead_first_trick", False)),
            trump_broken_to_lead=bool(option("spades_broken", False)),
            stride=deck.stride,
            suit_masks=deck.suit_masks,
        )


def trick_winner_offset(
    trick: list[int] | tuple[int, ...], trump: int, stride: int = RANK_COUNT
) -> int:
    """Index in ``trick`` of the winning card: the highest trump, else the highest led card."""
    best_at = 0
    for at in range(1, len(trick)):
        if beats(trick[at], trick[best_at], trump, stride):
            best_at = at
    return best_at


def beats(card: int, win: int, trump: int, stride: int = RANK_COUNT) -> bool:
    """Whether ``card`` takes the trick from the card now winning it."""
    suit = card // stride
    win_suit = win // stride
    return (suit == win_suit and card > win) or (suit == trump and win_suit != trump)


def popcount(mask: int) -> int:
    """Cards in a mask (a few set bits: one step each)."""
    count = 0
    while mask:
        mask &= mask - 1
        count += 1
    return count


def nth_card(mask: int, index: int) -> int:
    """The card of ``mask`` with ``index`` cards of the mask below it: how the compiled
    playouts turn a uniform draw into a legal card (``nth_card(m, int(u * popcount(m)))``)."""
    for _ in range(index):
        mask &= mask - 1
    card = 0
    for width in (32, 16, 8, 4, 2, 1):
        if not mask & ((1 << width) - 1):
            mask >>= width
            card += width
    return card


def legal_mask(
    rules: PlayRules, hand: int, led: int, win: int, first_trick: bool, trump_played: bool
) -> int:
    """The cards of ``hand`` that may be played now.

    ``led`` is the suit led to the current trick (-1 when leading) and ``win`` the
    card winning it so far; both callers keep them up to date as cards fall, so
    no trick is rescanned here.
    """
    trump = rules.trump
    if led < 0:
        if trump >= 0 and (
            (rules.trump_broken_to_lead and not trump_played)
            or (rules.no_trump_lead_first_trick and first_trick)
        ):
            others = hand & ~rules.suit_masks[trump]
            if others:
                return others
        return hand
    follow = hand & rules.suit_masks[led]
    if follow:
        if rules.must_overtake and win // rules.stride == led:
            higher = follow & ~((2 << win) - 1)
            if higher:
                return higher
        return follow
    win_suit = win // rules.stride
    if trump < 0 or rules.must_trump == NEVER:
        allowed = hand
    else:
        trumps = hand & rules.suit_masks[trump]
        if not trumps:
            allowed = hand
        else:
            winners = trumps & ~((2 << win) - 1) if win_suit == trump else trumps
            if winners:
                allowed = winners
            elif rules.must_trump == ALWAYS:
                allowed = trumps
            else:
                allowed = hand
    if rules.no_waste_trump and win_suit == trump:
        low = allowed & rules.suit_masks[trump] & ((1 << win) - 1)
        if low and allowed & ~low:
            allowed &= ~low
    return allowed


def explain_illegal(
    rules: PlayRules,
    hand: int,
    trick: list[int],
    first_trick: bool,
    trump_played: bool,
    card: int,
    deck: Deck = STANDARD,
) -> tuple[str, str]:
    """Why ``card`` may not be played here: ``(rule, message)``; the rule is an option name
    (``must_overtake``, ``must_trump``, ...) or ``hold_card`` / ``follow_suit``."""
    names, suit_names, masks, stride = deck.names, deck.suit_names, rules.suit_masks, rules.stride

    def _names(mask: int) -> str:
        return ", ".join(deck.hand_names(mask))

    name = names[card]
    led = trick[0] // stride if trick else -1
    winner = trick[trick_winner_offset(trick, rules.trump, rules.stride)] if trick else -1
    allowed = legal_mask(rules, hand, led, winner, first_trick, trump_played)
    if not hand >> card & 1:
        return "hold_card", f"you do not hold the {name}; your cards: {_names(hand)}"
    trump = rules.trump
    trump_name = suit_names[trump] if trump >= 0 else ""
    if not trick:
        if rules.no_trump_lead_first_trick and first_trick:
            return (
                "no_spade_lead_first_trick",
                f"no {trump_name[:-1]} may be led to the first trick while you hold another suit "
                f"(no_spade_lead_first_trick); lead one of {_names(allowed)}",
            )
        return (
            "spades_broken",
            f"{trump_name} are not broken yet: no {trump_name[:-1]} has been played, so lead "
            f"another suit (spades_broken); lead one of {_names(allowed)}",
        )
    led_name = suit_names[led]
    if hand & masks[led]:
        if card // stride != led:
            return "follow_suit", f"you must follow suit with {led_name}: {_names(allowed)}"
        return (
            "must_overtake",
            f"you must beat the {names[winner]} with a higher {led_name[:-1]} "
            f"(must_overtake): {_names(allowed)}",
        )
    trumps = hand & masks[trump] if trump >= 0 else 0
    trumped = winner // stride == trump and led != trump
    if rules.no_waste_trump and trumped and card // stride == trump and card < winner:
        legal_without_waste = allowed & ~(masks[trump] & ((1 << winner) - 1))
        if legal_without_waste == allowed:
            return (
                "no_waste_trump",
                f"you may not play a {trump_name[:-1]} lower than the {names[winner]} while "
                f"you hold other cards (no_waste_trump): {_names(allowed)}",
            )
    if allowed & trumps == allowed:
        what = (
            f"a {trump_name[:-1]} that beats the {names[winner]}"
            if winner // stride == trump and allowed & ~((2 << winner) - 1) == allowed
            else f"a {trump_name[:-1]}"
        )
        mode = "always" if rules.must_trump == ALWAYS else "winning"
        return (
            "must_trump",
            f"you have no {led_name}, so you must play {what} (must_trump={mode}): "
            f"{_names(allowed)}",
        )
    return "no_waste_trump", (
        f"you may not play a {trump_name[:-1]} lower than the {names[winner]} while you hold "
        f"other cards (no_waste_trump): {_names(allowed)}"
    )
