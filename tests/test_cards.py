"""Card notation and hand masks (docs/rules/common.md: ``AS TD 7H 2C``; input ``10S`` and
Bhoos ``1S``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import callbreak
from callbreak.cards import (
    CARD_NAMES,
    DECK_SIZE,
    FULL_DECK,
    bhoos_name,
    card_name,
    cards_of,
    format_hand,
    hand_names,
    mask_of,
    parse_card,
    parse_hand,
    rank_of,
    suit_of,
)

RANKS_HIGH_FIRST = "AKQJT98765432"
SUITS = "SHDC"
CANONICAL_DECK = [r + s for s in SUITS for r in RANKS_HIGH_FIRST]


def test_the_deck_has_52_distinct_canonical_names() -> None:
    assert len(CARD_NAMES) == DECK_SIZE == 52
    assert sorted(CARD_NAMES) == sorted(CANONICAL_DECK)
    assert FULL_DECK.bit_count() == 52


@pytest.mark.parametrize("name", CANONICAL_DECK)
def test_canonical_names_round_trip(name: str) -> None:
    card = parse_card(name)
    assert 0 <= card < 52
    assert card_name(card) == name


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("AS", "AS"),
        ("TD", "TD"),
        ("7H", "7H"),
        ("2C", "2C"),
        # the ten written 10
        ("10S", "TS"),
        ("10H", "TH"),
        ("10d", "TD"),
        ("10c", "TC"),
        # Bhoos tournament form: 1 is the ace
        ("1S", "AS"),
        ("1H", "AH"),
        ("1d", "AD"),
        ("1c", "AC"),
        # lower case, in every position
        ("as", "AS"),
        ("aS", "AS"),
        ("As", "AS"),
        ("td", "TD"),
        ("tD", "TD"),
        ("Td", "TD"),
        ("qh", "QH"),
        ("kc", "KC"),
        ("jd", "JD"),
        # suit symbols
        ("A♠", "AS"),
        ("10♥", "TH"),
        ("T♦", "TD"),
        ("2♣", "2C"),
        ("1♠", "AS"),
        ("q♥", "QH"),
        # surrounding blanks are ignored
        (" KS ", "KS"),
    ],
)
def test_accepted_input_forms_give_the_canonical_card(text: str, canonical: str) -> None:
    assert card_name(parse_card(text)) == canonical
    assert parse_card(text) == parse_card(canonical)


def test_output_is_always_canonical() -> None:
    assert hand_names(parse_hand("10S 1H q♦ 2c")) == ["TS", "AH", "QD", "2C"]
    assert format_hand(parse_hand(["1S", "10♥", "td"])) == "AS TH TD"


def test_bhoos_name_writes_the_ace_as_1() -> None:
    assert bhoos_name(parse_card("AS")) == "1S"
    assert bhoos_name(parse_card("AC")) == "1C"
    assert bhoos_name(parse_card("TD")) == "TD"
    for card in range(52):
        assert parse_card(bhoos_name(card)) == card


@pytest.mark.parametrize(
    "text",
    ["XS", "AX", "", "   ", "A", "S", "11S", "0S", "10", "1", "AS KS", "AS,", "ASS", "1 0S", "♠A"],
)
def test_bad_card_text_is_a_value_error_that_explains_the_notation(text: str) -> None:
    with pytest.raises(ValueError) as error:
        parse_card(text)
    message = str(error.value)
    assert repr(text) in message
    assert "is not a card" in message
    assert "rank then suit" in message
    assert "AS" in message and "10H" in message


@pytest.mark.parametrize("number", [-1, 52, 100])
def test_card_numbers_out_of_range_are_refused(number: int) -> None:
    with pytest.raises(ValueError, match=r"out of range 0\.\.51"):
        parse_card(number)


@pytest.mark.parametrize("thing", [True, False, None, 1.5, b"AS", ["AS"]])
def test_non_cards_are_refused(thing: object) -> None:
    with pytest.raises(ValueError, match="is not a card"):
        parse_card(thing)  # type: ignore[arg-type]


def test_card_ints_pass_through() -> None:
    for card in range(52):
        assert parse_card(card) == card


def test_card_int_layout_orders_ranks_within_a_suit() -> None:
    for suit in SUITS:
        cards = [parse_card(r + suit) for r in reversed(RANKS_HIGH_FIRST)]  # two up to ace
        assert cards == sorted(cards)
        assert len({suit_of(c) for c in cards}) == 1
        assert [rank_of(c) for c in cards] == list(range(13))
    assert suit_of(parse_card("AS")) == 0  # spades, the trump, are suit 0


def test_hand_names_group_by_suit_high_card_first() -> None:
    hand = parse_hand("2C 7H AS TD 3S KD 9C")
    assert hand_names(hand) == ["AS", "3S", "7H", "KD", "TD", "9C", "2C"]


def test_duplicates_in_a_hand_are_refused() -> None:
    with pytest.raises(ValueError, match="AS is listed twice"):
        parse_hand("AS KS 1S")
    with pytest.raises(ValueError, match="TH is listed twice"):
        parse_hand(["10H", "TH"])
    with pytest.raises(ValueError, match="QD is listed twice"):
        parse_hand(["QD", "qd"])


def test_a_bad_card_in_a_hand_is_refused() -> None:
    with pytest.raises(ValueError, match="is not a card"):
        parse_hand("AS KS ZZ")


def test_deal_refuses_duplicates_across_seats_and_short_hands() -> None:
    rules = callbreak.Rules.preset("callbreak")
    hands = [CANONICAL_DECK[i::4] for i in range(4)]
    callbreak.Deal(rules, hands=hands, dealer=0)  # a proper deal is fine
    clash = [list(h) for h in hands]
    clash[1][0] = clash[0][0]
    with pytest.raises(ValueError, match="already dealt"):
        callbreak.Deal(rules, hands=clash, dealer=0)
    short = [list(h) for h in hands]
    short[2] = short[2][:12]
    with pytest.raises(ValueError, match="seat 2 holds 12 cards"):
        callbreak.Deal(rules, hands=short, dealer=0)
    twice = [list(h) for h in hands]
    twice[3][0] = twice[3][1]
    with pytest.raises(ValueError, match="listed twice"):
        callbreak.Deal(rules, hands=twice, dealer=0)
    with pytest.raises(ValueError, match="give 4 hands"):
        callbreak.Deal(rules, hands=hands[:3], dealer=0)


def test_deal_accepts_any_notation_for_hands() -> None:
    rules = callbreak.Rules.preset("callbreak")
    hands = [CANONICAL_DECK[i::4] for i in range(4)]
    loose = [[n.replace("A", "1").lower() if n[0] == "A" else n.lower() for n in h] for h in hands]
    deal = callbreak.Deal(rules, hands=loose, dealer=0)
    for seat in range(4):
        assert sorted(deal.hand(seat)) == sorted(hands[seat])


@given(st.integers(min_value=0, max_value=FULL_DECK))
def test_masks_round_trip_through_names(mask: int) -> None:
    names = hand_names(mask)
    assert len(names) == mask.bit_count()
    assert parse_hand(names) == mask
    assert parse_hand(format_hand(mask)) == mask
    assert mask_of(cards_of(mask)) == mask
    assert cards_of(mask) == sorted(cards_of(mask))


@given(st.lists(st.integers(min_value=0, max_value=51), unique=True))
def test_card_lists_round_trip_through_masks(cards: list[int]) -> None:
    mask = mask_of(cards)
    assert sorted(cards) == cards_of(mask)
    assert parse_hand(cards) == mask
    assert parse_hand([bhoos_name(c) for c in cards]) == mask
