"""Cards as small ints, hands as bitmasks, and the text notation at the edges.

A card is ``suit * 13 + rank`` with rank 0 for the two up to 12 for the ace, so
within a suit a larger int is always a higher card; a hand is an int with bit
``card`` set.  Everything hot (legal moves, trick winners, voids) is mask
arithmetic on these ints, and strings exist only for people and files.

>>> parse_card("10S") == parse_card("TS") == parse_card("ts")
True
>>> card_name(parse_card("1S"))
'AS'
>>> hand_names(parse_hand("2C 7H AS TD"))
['AS', '7H', 'TD', '2C']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

SUITS = "SHDC"
"""Suit letters by suit index: spades are suit 0, the trump of Call Break."""
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = "♠♥♦♣"
RANKS = "23456789TJQKA"
"""Rank letters by rank index, lowest first (``T`` is the ten)."""

SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
RANK_COUNT = 13
DECK_SIZE = 52
FULL_DECK = (1 << DECK_SIZE) - 1
SUIT_MASKS = tuple(((1 << RANK_COUNT) - 1) << (RANK_COUNT * s) for s in range(4))
"""``SUIT_MASKS[s]`` has the 13 bits of suit ``s`` set."""

CARD_NAMES = tuple(RANKS[c % RANK_COUNT] + SUITS[c // RANK_COUNT] for c in range(DECK_SIZE))
"""Canonical name of every card, indexed by card int."""

_RANK_INPUT = {r: i for i, r in enumerate(RANKS)} | {"10": 8, "1": 12}
_SUIT_INPUT = {s: i for i, s in enumerate(SUITS)} | {s: i for i, s in enumerate(SUIT_SYMBOLS)}


def _build_input_table() -> dict[str, int]:
    table: dict[str, int] = {}
    for rank_text, rank in _RANK_INPUT.items():
        for suit_text, suit in _SUIT_INPUT.items():
            card = suit * RANK_COUNT + rank
            for text in {rank_text + suit_text, (rank_text + suit_text).lower()}:
                table[text] = card
            table[rank_text.lower() + suit_text] = card
            table[rank_text + suit_text.lower()] = card
    return table


_CARD_INPUT = _build_input_table()


def suit_of(card: int) -> int:
    """Suit index of a card (0 = spades)."""
    return card // RANK_COUNT


def rank_of(card: int) -> int:
    """Rank index of a card (0 = two, 12 = ace)."""
    return card % RANK_COUNT


def make_card(rank: int, suit: int) -> int:
    return suit * RANK_COUNT + rank


def parse_card(text: str | int) -> int:
    """Read one card in any accepted notation; a card int passes through.

    Accepted: canonical ``AS``/``TD``, ``10S`` for the ten, the Bhoos ``1S`` for
    the ace, lower case, and the suit symbols ``♠♥♦♣``.

    >>> parse_card("QH")
    23
    >>> parse_card("XS")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: 'XS' is not a card: write rank then suit, e.g. AS, TD, 10H, 7C (...)
    """
    if isinstance(text, int) and not isinstance(text, bool):
        if 0 <= text < DECK_SIZE:
            return text
        raise ValueError(f"card number {text} is out of range 0..{DECK_SIZE - 1}")
    if isinstance(text, str):
        card = _CARD_INPUT.get(text.strip())
        if card is not None:
            return card
    raise ValueError(
        f"{text!r} is not a card: write rank then suit, e.g. AS, TD, 10H, 7C "
        "(ranks 2-9 T J Q K A, also 10 and 1 for the ace; suits S H D C)"
    )


def card_name(card: int) -> str:
    return CARD_NAMES[card]


def bhoos_name(card: int) -> str:
    """The Bhoos tournament spelling: ``1`` for the ace, otherwise canonical."""
    name = CARD_NAMES[card]
    return "1" + name[1] if name[0] == "A" else name


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def parse_hand(cards: str | Iterable[str | int]) -> int:
    """A hand mask from a space-separated string or a list of cards; a repeat is an error."""
    items = cards.split() if isinstance(cards, str) else list(cards)
    mask = 0
    for item in items:
        card = parse_card(item)
        if mask >> card & 1:
            raise ValueError(f"{card_name(card)} is listed twice")
        mask |= 1 << card
    return mask


def iter_cards(mask: int) -> Iterator[int]:
    """Cards of a mask in ascending card order (spades first, low to high)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: int) -> list[int]:
    return list(iter_cards(mask))


_CHUNK_NAMES: tuple[dict[int, tuple[str, ...]], ...] = ({}, {}, {}, {})
"""Per suit, the names of each 13-bit chunk seen so far, high card first (filled lazily)."""


def _chunk_names(suit: int, chunk: int) -> tuple[str, ...]:
    names = tuple(
        CARD_NAMES[suit * RANK_COUNT + r] for r in range(RANK_COUNT - 1, -1, -1) if chunk >> r & 1
    )
    _CHUNK_NAMES[suit][chunk] = names
    return names


def hand_names(mask: int) -> list[str]:
    """Canonical names of a mask, grouped by suit (S H D C) and high card first.

    A memo per 13-bit suit chunk turns a mask into names without a per-card loop,
    which matters for ``Deal.legal()`` on the public API's hot path.
    """
    spades, hearts, diamonds, clubs = _CHUNK_NAMES
    names: list[str] = []
    chunk = mask & 0x1FFF
    if chunk:
        names += spades.get(chunk) or _chunk_names(0, chunk)
    chunk = mask >> 13 & 0x1FFF
    if chunk:
        names += hearts.get(chunk) or _chunk_names(1, chunk)
    chunk = mask >> 26 & 0x1FFF
    if chunk:
        names += diamonds.get(chunk) or _chunk_names(2, chunk)
    chunk = mask >> 39
    if chunk:
        names += clubs.get(chunk) or _chunk_names(3, chunk)
    return names


def format_hand(mask: int) -> str:
    return " ".join(hand_names(mask))


def highest(mask: int) -> int:
    """The highest card int in a non-empty mask (the highest rank when the mask is one suit)."""
    return mask.bit_length() - 1


def above(card: int) -> int:
    """Mask of the cards of ``card``'s suit that rank above it."""
    return SUIT_MASKS[card // RANK_COUNT] & ~((2 << card) - 1)


def below(card: int) -> int:
    """Mask of the cards of ``card``'s suit that rank below it."""
    return SUIT_MASKS[card // RANK_COUNT] & ((1 << card) - 1)
