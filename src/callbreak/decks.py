"""The decks of the family as tables: card ints, suit masks, names and input spellings.

Every deck keeps the one property the trick machinery needs: a card is
``suit * stride + rank`` with a larger rank beating a smaller one, so
``legal_mask`` and ``beats`` stay mask arithmetic whatever the deck.  The
standard deck is the 52 cards of ``callbreak.cards`` (stride 13).  The Rook
deck (docs/rules/rook-call-partner.md) has four colours of fourteen numbers and the Rook bird, so
each colour gets sixteen slots, lowest first::

    2 3 4 5 6 7 8 9 10 (Rook) 11 12 13 14 1

The Rook belongs to no colour until trump is named (card ``ROOK_FREE``); then
``Deck.with_rook_in(trump)`` places it in its slot of the trump colour, between
the 11 and the 10, and ``ROOK`` names and reads as that card from then on.

>>> ROOK_DECK.parse("1R"), ROOK_DECK.parse("14B"), ROOK_DECK.parse("rook") == ROOK_FREE
(14, 61, True)
>>> placed = ROOK_DECK.with_rook_in(2)
>>> placed.card_name(placed.parse("ROOK")), placed.hand_names(placed.parse_hand("ROOK 10G 11G 1G"))
('ROOK', ['1G', '11G', 'ROOK', '10G'])
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, field

from callbreak import cards as standard


@dataclass(frozen=True, eq=False)
class Deck:
    """One deck: which ints are cards, how they group into suits, and how they are spelt."""

    name: str
    stride: int
    """Card ints per suit: card // stride is the suit."""
    suits: str
    """Suit letters by suit index (standard ``SHDC``; Rook colours ``RYGB``)."""
    suit_names: tuple[str, ...]
    cards: tuple[int, ...]
    """Every card of the deck, in the order a new pack lies before shuffling."""
    names: dict[int, str] = field(repr=False)
    inputs: dict[str, int] = field(repr=False)
    suit_masks: tuple[int, ...] = field(repr=False)
    has_rook: bool = field(init=False, repr=False)
    """Whether the deck holds the Rook, the card that joins the trump colour once it is
    named (so the deck in force changes with the trump)."""
    full: int = field(init=False, repr=False)
    """Mask of the whole deck."""
    _suit_names: dict[int, tuple[str, ...]] = field(init=False, repr=False)
    """``hand_names`` of each one-suit mask met so far (``_CHUNKS_KEPT`` at most)."""

    def __post_init__(self) -> None:
        # Worked out once, when the deck is made (deals ask for them again and again), and
        # set here rather than cached on first use, so that every deck keeps one layout of
        # attributes and the card play reads them at full speed.
        mask = 0
        for card in self.cards:
            mask |= 1 << card
        object.__setattr__(self, "has_rook", self.name == "rook")
        object.__setattr__(self, "full", mask)
        object.__setattr__(self, "_suit_names", {})

    @property
    def size(self) -> int:
        return len(self.cards)

    def card_name(self, card: int) -> str:
        return self.names[card]

    def parse(self, text: str | int) -> int:
        """One card in any accepted spelling; a card int of this deck passes through."""
        if isinstance(text, int) and not isinstance(text, bool):
            if text in self.names:
                return text
            raise ValueError(f"card number {text} is not a card of the {self.name} deck")
        if isinstance(text, str):
            card = self.inputs.get(text.strip())
            if card is None:
                card = self.inputs.get(text.strip().upper())
            if card is not None:
                return card
        raise ValueError(f"{text!r} is not a card: {self._spelling}")

    @property
    def _spelling(self) -> str:
        if self.name == "rook":
            return "write number then colour, e.g. 1R, 14Y, 10G, 5B (colours R Y G B), or ROOK"
        return (
            "write rank then suit, e.g. AS, TD, 10H, 7C "
            "(ranks 2-9 T J Q K A, also 10 and 1 for the ace; suits S H D C)"
        )

    def parse_hand(self, items: str | Iterable[str | int]) -> int:
        """A mask from a space-separated string or a list of cards; a repeat is an error."""
        listed = items.split() if isinstance(items, str) else list(items)
        mask = 0
        for item in listed:
            card = self.parse(item)
            if mask >> card & 1:
                raise ValueError(f"{self.names[card]} is listed twice")
            mask |= 1 << card
        return mask

    def hand_names(self, mask: int) -> list[str]:
        """Names of a mask by suit in suit order, high card first (the Rook where it ranks).

        Each suit's names are remembered by its cards (as ``cards.hand_names`` does for the
        standard deck): every observation of a Call Partner playout names a hand and the
        legal cards."""
        if self is STANDARD:
            return standard.hand_names(mask)
        out: list[str] = []
        memo = self._suit_names
        for suit_mask in self.suit_masks:  # one a suit, in suit order
            chunk = mask & suit_mask
            if chunk:
                names = memo.get(chunk)
                if names is None:
                    names = self._names_high_first(chunk)
                    if len(memo) < _CHUNKS_KEPT:
                        memo[chunk] = names
                out += names
        if mask >> ROOK_FREE & 1:
            out.append("ROOK")
        return out

    def _names_high_first(self, chunk: int) -> tuple[str, ...]:
        """Names of the cards of a one-suit mask, high card first."""
        names: list[str] = []
        while chunk:
            top = chunk.bit_length() - 1
            names.append(self.names[top])
            chunk ^= 1 << top
        return tuple(names)

    def suit_of(self, card: int) -> int:
        return card // self.stride

    def with_rook_in(self, trump: int) -> Deck:
        """The Rook deck once ``trump`` is named: ``ROOK`` reads as its slot in that colour."""
        return _placed_rook_deck(trump)


_CHUNKS_KEPT = 1 << 16
"""One-suit masks whose names a deck remembers (a few megabytes at most)."""

STANDARD = Deck(
    "standard",
    standard.RANK_COUNT,
    standard.SUITS,
    standard.SUIT_NAMES,
    tuple(range(standard.DECK_SIZE)),
    dict(enumerate(standard.CARD_NAMES)),
    dict(standard._CARD_INPUT),
    standard.SUIT_MASKS,
)


def _reversed_standard() -> Deck:
    names = {
        suit * standard.RANK_COUNT + rank: standard.CARD_NAMES[
            suit * standard.RANK_COUNT + standard.RANK_COUNT - 1 - rank
        ]
        for suit in range(4)
        for rank in range(standard.RANK_COUNT)
    }
    flip = {
        card: suit * 13 + 12 - card % 13
        for suit in range(4)
        for card in range(suit * 13, suit * 13 + 13)
    }
    inputs = {text: flip[card] for text, card in standard._CARD_INPUT.items()}
    return Deck(
        "standard-reversed",
        standard.RANK_COUNT,
        standard.SUITS,
        standard.SUIT_NAMES,
        tuple(range(standard.DECK_SIZE)),
        names,
        inputs,
        standard.SUIT_MASKS,
    )


REVERSED = _reversed_standard()
"""The 52 cards with ranks reversed (2 high … A low; Donut's 6 deal): card int
``suit * 13 + r`` is the card of rank ``12 - r``, so "higher int wins" still holds and the
trick machinery needs nothing new.  ``reverse_ranks`` moves a mask between the two decks."""


def reverse_ranks(mask: int) -> int:
    """The same cards under the other rank order (``STANDARD`` ↔ ``REVERSED``)."""
    out = 0
    while mask:
        low = mask & -mask
        card = low.bit_length() - 1
        out |= 1 << (card - card % 13 + 12 - card % 13)
        mask ^= low
    return out


ROOK_STRIDE = 16
ROOK_NUMBERS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 11, 12, 13, 14, 1)
"""The number in each slot of a colour, lowest first; 0 is the Rook's slot."""
ROOK_SLOT = ROOK_NUMBERS.index(0)
ROOK_FREE = 4 * ROOK_STRIDE
"""The Rook's card int before trump is named: in no colour."""
ROOK_COLOURS = "RYGB"


def _rook_deck(trump: int | None) -> Deck:
    names: dict[int, str] = {}
    for colour, letter in enumerate(ROOK_COLOURS):
        for slot, number in enumerate(ROOK_NUMBERS):
            if number:
                names[colour * ROOK_STRIDE + slot] = f"{number}{letter}"
    numbered = tuple(sorted(names))
    names[ROOK_FREE] = "ROOK"
    inputs = {text: card for card, text in names.items()}
    inputs |= {text.lower(): card for text, card in inputs.items()}
    rook = ROOK_FREE
    if trump is not None:
        rook = trump * ROOK_STRIDE + ROOK_SLOT
        names[rook] = "ROOK"
        inputs["ROOK"] = inputs["rook"] = rook
    masks = tuple(((1 << ROOK_STRIDE) - 1) << (ROOK_STRIDE * c) for c in range(4))
    colours = ("reds", "yellows", "greens", "blacks")
    pack = (*numbered, rook)
    return Deck("rook", ROOK_STRIDE, ROOK_COLOURS, colours, pack, names, inputs, masks)


ROOK_DECK = _rook_deck(None)


@functools.cache
def _placed_rook_deck(trump: int) -> Deck:
    """Built on first use: most programs never name a Rook trump."""
    return _rook_deck(trump)


DECKS = {"standard": STANDARD, "rook": ROOK_DECK}
"""Decks by the name a game's shape gives."""
