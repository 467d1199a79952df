"""Call Partner with the Rook deck (docs/rules/rook-call-partner.md): table tests for every rule.

Positions are dealt from a whole deck (``Deal(rules, deck=...)``, the only way to give a
nest); ``rook_deck`` builds that order from four hands and a nest, and one test checks it
against the rule itself.  The main layout (``LAYOUT``) makes seat 0 the declarer at the
minimum bid (dealer 1, the first three pass), lets it take the nest, bury it again, name
red trump and call the 1R, held by seat 1, which then leads.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from typing import Any

import pytest

from callbreak import Deal, Match, Points, Rules
from callbreak.decks import ROOK_DECK, ROOK_FREE
from callbreak.engine.observation import observe_public
from callbreak.engine.tricks import beats
from callbreak.games import rook as games
from helpers import refuse, state

ROOK = Rules.preset("rook-call-partner")
NUMBERS = ["1", "14", "13", "12", "11", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
ALL_CARDS = [n + c for c in "RYGB" for n in NUMBERS] + ["ROOK"]
CARD_TOKEN = re.compile(r"\b(?:1[0-4]|[1-9])[RYGB]\b|\bROOK\b")
VALUE = {"1": 15, "14": 10, "10": 10, "5": 5}


def value(name: str) -> int:
    """Card points of one card by its name (docs/rules/rook-call-partner.md)."""
    return 20 if name == "ROOK" else VALUE.get(name[:-1], 0)


def rook_deck(hands: list[str], nest: str, dealer: int) -> list[str]:
    """The deck, top first, that deals ``hands`` and ``nest``: a card to each seat from the one
    after the dealer, round after round, and a nest card after each of the first five rounds."""
    split = [h.split() for h in hands]
    nest_cards = nest.split()
    assert all(len(h) == 13 for h in split) and len(nest_cards) == 5
    order = []
    for round_ in range(13):
        order += [split[(dealer + 1 + i) % 4][round_] for i in range(4)]
        if round_ < 5:
            order.append(nest_cards[round_])
    assert sorted(order) == sorted(ALL_CARDS)
    return order


# ---------------------------------------------------------------- the main layout
DEALER = 1
HANDS = [
    "1B 14B 13B 12B 11B 10B 9B 8B 7B 6B 5B 4B 3B",
    "ROOK 1R 14R 13R 12R 1Y 14Y 13Y 12Y 11Y 9Y 3Y 2Y",
    "10R 9R 8R 7R 6R 10Y 8Y 7Y 6Y 5Y 4Y 1G 14G",
    "5R 13G 12G 11G 10G 9G 8G 7G 6G 5G 4G 3G 2G",
]
NEST = "2B 2R 3R 4R 11R"
LAYOUT = rook_deck(HANDS, NEST, DEALER)


def names(text: str) -> set[str]:
    return set(text.split())


def to_discard(deck: list[str] = LAYOUT, dealer: int = DEALER) -> Deal:
    """The first three pass: the fourth seat is the declarer at min_bid, holding the nest."""
    deal = Deal(ROOK, deck=deck, dealer=dealer)
    for _ in range(3):
        deal.act("pass")
    assert deal.phase == "discard"
    return deal


def to_play(
    partner: str = "1R", discards: str = NEST, trump: str = "R", deck: list[str] = LAYOUT
) -> Deal:
    deal = to_discard(deck)
    for card in discards.split():
        deal.act(card)
    assert deal.phase == "trump"
    deal.act(trump)
    assert deal.phase == "partner"
    deal.act(partner)
    assert deal.phase == "play"
    return deal


def play(deal: Deal, plays: str) -> None:
    for item in plays.split():
        seat, card = item.split(":")
        assert deal.to_act == int(seat), f"seat {deal.to_act} is to play, not {item}"
        deal.act(card)


# ====================================================================== the deck
def test_deck_has_57_cards_and_its_notation() -> None:
    assert ROOK_DECK.size == 57
    assert sorted(ROOK_DECK.hand_names(ROOK_DECK.full)) == sorted(ALL_CARDS)
    assert ROOK_DECK.hand_names(ROOK_DECK.full)[:14] == [n + "R" for n in NUMBERS]
    assert ROOK_DECK.parse("ROOK") == ROOK_FREE and ROOK_DECK.parse("rook") == ROOK_FREE
    for name in ALL_CARDS:
        card = ROOK_DECK.parse(name)
        assert ROOK_DECK.names[card] == name
        assert ROOK_DECK.parse(name.lower()) == card
    for bad in ("0R", "15R", "1S", "AS", "TD", "R1", "", "ROOKS"):
        with pytest.raises(ValueError):
            ROOK_DECK.parse(bad)
    with pytest.raises(ValueError):
        ROOK_DECK.parse_hand("1R 1R")


def test_ranks_in_a_colour_1_high_then_14_down_to_2() -> None:
    for colour in "RYGB":
        cards = [ROOK_DECK.parse(n + colour) for n in NUMBERS]
        assert cards == sorted(cards, reverse=True)
        assert all(beats(high, low, -1, 16) for high, low in itertools.pairwise(cards))
        assert not any(beats(low, high, -1, 16) for high, low in itertools.pairwise(cards))


@pytest.mark.parametrize("trump", range(4))
def test_rook_joins_the_trump_colour_between_11_and_10(trump: int) -> None:
    placed = ROOK_DECK.with_rook_in(trump)
    colour = "RYGB"[trump]
    rook = placed.parse("ROOK")
    assert rook != ROOK_FREE and placed.suit_of(rook) == trump
    assert placed.parse("11" + colour) > rook > placed.parse("10" + colour)
    assert beats(placed.parse("11" + colour), rook, trump, 16)
    assert beats(rook, placed.parse("10" + colour), trump, 16)
    other = "RYGB"[(trump + 1) % 4]
    assert beats(rook, placed.parse("1" + other), trump, 16)  # a trump beats a side colour
    assert placed.hand_names(placed.full)[14 * trump : 14 * trump + 15][4:6] == [
        "11" + colour,
        "ROOK",
    ]
    assert sorted(placed.hand_names(placed.full)) == sorted(ALL_CARDS)


# ====================================================================== the deal
@pytest.mark.parametrize("dealer", range(4))
def test_deal_gives_13_each_and_a_nest_after_each_of_the_first_five_rounds(dealer: int) -> None:
    order = ALL_CARDS[:]
    random.Random(dealer).shuffle(order)
    deal = Deal(ROOK, deck=order, dealer=dealer)
    # by the rule itself: rounds of four from the seat after the dealer, then a nest card
    expect: list[list[str]] = [[] for _ in range(4)]
    nest = []
    at = 0
    for round_ in range(13):
        for i in range(4):
            expect[(dealer + 1 + i) % 4].append(order[at])
            at += 1
        if round_ < 5:
            nest.append(order[at])
            at += 1
    assert nest == [order[4], order[9], order[14], order[19], order[24]]
    for seat in range(4):
        assert sorted(deal.hand(seat)) == sorted(expect[seat])
        assert len(deal.hand(seat)) == 13
    assert sorted(deal.names_of(deal.nest)) == sorted(nest)
    assert deal.stock == []
    assert deal.phase == "auction" and deal.to_act == dealer


def test_layout_helper_deals_the_layout() -> None:
    deal = Deal(ROOK, deck=LAYOUT, dealer=DEALER)
    for seat in range(4):
        assert set(deal.hand(seat)) == names(HANDS[seat])
    assert set(deal.names_of(deal.nest)) == names(NEST)


def test_random_deal_covers_the_deck() -> None:
    for seed in range(5):
        deal = Deal(ROOK, seed=seed, dealer=seed % 4)
        cards = [c for s in range(4) for c in deal.hand(s)] + deal.names_of(deal.nest)
        assert sorted(cards) == sorted(ALL_CARDS)
        assert deal.nest.bit_count() == 5


def test_hands_alone_are_refused_and_bad_decks_too() -> None:
    with pytest.raises(ValueError):
        Deal(ROOK, hands=[h.split() for h in HANDS])
    with pytest.raises(ValueError):
        Deal(ROOK, deck=LAYOUT[:-1])
    with pytest.raises(ValueError):
        Deal(ROOK, deck=[*LAYOUT[:-1], LAYOUT[0]])
    with pytest.raises(ValueError):
        Deal(ROOK, deck=[*LAYOUT[:-1], "AS"])


# ====================================================================== the auction
BIDS = list(range(70, 201, 5))


@pytest.mark.parametrize("dealer", range(4))
def test_auction_starts_with_the_dealer_in_steps_of_5_from_70_to_200(dealer: int) -> None:
    deal = Deal(ROOK, deck=LAYOUT, dealer=dealer)
    assert deal.rules.min_bid == 70 and deal.rules.max_bid == 200 and deal.rules.bid_step == 5
    assert deal.phase == "auction" and deal.to_act == dealer
    assert deal.legal() == [*BIDS, "pass"]
    deal.act(100)
    assert deal.to_act == (dealer + 1) % 4
    assert deal.legal() == [*range(105, 201, 5), "pass"]


@pytest.mark.parametrize(
    ("before", "action", "rule"),
    [
        ([], 65, "min_bid"),
        ([], 205, "max_bid"),
        ([], 72, "bid_step"),
        ([], 199, "bid_step"),
        ([100], 100, "auction"),
        ([100], 95, "auction"),
        ([100, 150], 120, "auction"),
        ([], "1R", None),
        ([], True, None),
        ([], None, None),
        ([], "R", None),
    ],
)
def test_illegal_bids(before: list[int], action: Any, rule: str | None) -> None:
    deal = Deal(ROOK, deck=LAYOUT, dealer=0)
    for bid in before:
        deal.act(bid)
    refuse(deal, action, rule)


def test_auction_ends_as_soon_as_three_have_passed_at_the_last_bid() -> None:
    deal = Deal(ROOK, deck=LAYOUT, dealer=0)
    asked = []
    actions: list[int | str] = [70, "pass", 75, "pass", 90, "pass"]
    for action in actions:
        asked.append(deal.to_act)
        deal.act(action)
    # 0 bids, 1 passes, 2 bids, 3 passes, 0 bids again, 2 passes: three passed
    assert asked == [0, 1, 2, 3, 0, 2]
    assert deal.phase == "discard" and (deal.declarer, deal.contract) == (0, 90)
    assert deal.to_act == 0


def test_fourth_that_never_bid_is_declarer_at_min_bid_unasked() -> None:
    deal = Deal(ROOK, deck=LAYOUT, dealer=1)
    for _ in range(3):
        deal.act("pass")
    assert deal.phase == "discard"
    assert (deal.declarer, deal.contract, deal.to_act) == (0, 70, 0)
    assert [(p, s, a) for p, s, a in deal.log] == [("auction", s, "pass") for s in (1, 2, 3)]


def test_a_bid_of_200_ends_the_bidding_up() -> None:
    deal = Deal(ROOK, deck=LAYOUT, dealer=2)
    deal.act(200)
    assert deal.legal() == ["pass"]
    refuse(deal, 205, "max_bid")
    for _ in range(3):
        deal.act("pass")
    assert (deal.declarer, deal.contract) == (2, 200)


def test_auction_options_min_bid_and_step() -> None:
    rules = ROOK.replace(min_bid=100, bid_step=10)
    deal = Deal(rules, deck=LAYOUT, dealer=1)
    assert deal.legal() == [*range(100, 201, 10), "pass"]
    for _ in range(3):
        deal.act("pass")
    assert deal.contract == 100
    with pytest.raises(ValueError):
        ROOK.replace(must_trump="always")


# ====================================================================== nest, discard, trump
def test_declarer_takes_the_nest_and_discards_five() -> None:
    deal = to_discard()
    assert set(deal.hand(0)) == names(HANDS[0]) | names(NEST)
    assert set(deal.legal()) == names(HANDS[0]) | names(NEST)
    refuse(deal, "1R", "hold_card")
    refuse(deal, "ROOK", "hold_card")
    refuse(deal, "ZZ", "card")
    refuse(deal, 70, None)
    refuse(deal, "pass", None)
    refuse(deal, "R", None)
    for at, card in enumerate(["1B", "2B", "11R", "5B", "3R"]):
        assert deal.phase == "discard" and deal.to_act == 0
        deal.act(card)
        assert len(deal.hand(0)) == 17 - at
        if at < 4:
            refuse(deal, card, "hold_card")  # a discarded card is gone
    assert deal.phase == "trump" and deal.to_act == 0
    assert set(deal.names_of(deal.discards)) == {"1B", "2B", "11R", "5B", "3R"}
    assert len(deal.hand(0)) == 13
    assert [a for p, _, a in deal.log if p == "discard"] == ["1B", "2B", "11R", "5B", "3R"]


def test_trump_naming_places_the_rook_wherever_it_lies() -> None:
    deal = to_discard()
    for card in NEST.split():
        deal.act(card)
    assert deal.legal() == ["R", "Y", "G", "B"]
    assert deal.hands[1] >> ROOK_FREE & 1
    for bad in ("S", "H", "X", "RY", 1, True, "pass", "1R"):
        refuse(deal, bad, "trump")
    deal.act("g")
    assert deal.trump == "G" and deal.trump_suit == 2
    rook = 2 * 16 + 9
    assert deal.hands[1] >> rook & 1 and not deal.hands[1] >> ROOK_FREE & 1
    assert "ROOK" in deal.hand(1)
    assert deal.deck.parse("ROOK") == rook
    assert deal.log[-1] == ("trump", 0, "G")


def test_rook_in_the_nest_and_discarded_moves_too() -> None:
    hands = [
        "1B 14B 13B 12B 11B 10B 9B 8B 7B 6B 5B 4B 3B",
        "10R 1R 14R 13R 12R 1Y 14Y 13Y 12Y 11Y 9Y 3Y 2Y",
        "2R 9R 8R 7R 6R 10Y 8Y 7Y 6Y 5Y 4Y 1G 14G",
        "5R 13G 12G 11G 10G 9G 8G 7G 6G 5G 4G 3G 2G",
    ]
    deal = to_discard(rook_deck(hands, "2B ROOK 3R 4R 11R", DEALER))
    assert "ROOK" in deal.hand(0)
    for card in ["2B", "ROOK", "3R", "4R", "11R"]:
        deal.act(card)
    deal.act("Y")
    assert deal.discards >> (16 + 9) & 1 and not deal.discards >> ROOK_FREE & 1
    assert deal.nest >> (16 + 9) & 1
    assert "ROOK" in deal.names_of(deal.discards)
    refuse(deal, "ROOK", "partner")  # among its own discards


# ====================================================================== the partner card
def test_partner_card_may_be_any_card_but_own_discards() -> None:
    deal = to_discard()
    for card in NEST.split():
        deal.act(card)
    deal.act("R")
    assert deal.phase == "partner" and deal.to_act == 0
    callable_ = set(ALL_CARDS) - names(NEST)
    assert set(deal.legal()) == callable_
    for card in NEST.split():
        refuse(deal, card, "partner")
    refuse(deal, "ZZ", "card")
    refuse(deal, True, "card")
    refuse(deal, "R", "card")


@pytest.mark.parametrize(("card", "partner"), [("1R", 1), ("10Y", 2), ("5R", 3), ("ROOK", 1)])
def test_partner_is_the_holder_of_the_called_card(card: str, partner: int) -> None:
    deal = to_play(partner=card)
    assert deal.partner == partner
    assert deal.partner_card is not None and deal.deck.names[deal.partner_card] == card
    assert deal.log[-1] == ("partner", 0, card)
    assert deal.to_act == 1 == deal.leader  # the seat after the declarer leads


def test_partner_revealed_only_when_its_card_is_played() -> None:
    deal = to_play(partner="1R")
    assert deal.partner == 1 and not deal.partner_known

    def seen() -> list[int | None]:
        return [deal.observation(s).partner for s in range(4)]

    for seat in range(4):
        assert deal.observation(seat).partner_card == "1R"  # the call itself is public
    assert seen() == [None, 1, None, None]  # only the partner itself knows
    play(deal, "1:9Y 2:4Y 3:2G 0:3B")  # seat 1 wins with the 9Y and leads again
    assert deal.history[-1][2] == 1
    assert seen() == [None, 1, None, None]
    play(deal, "1:1R")
    assert deal.partner_known
    assert seen() == [1, 1, 1, 1]
    play(deal, "2:6R 3:5R 0:4B")
    assert seen() == [1, 1, 1, 1]


def test_calling_an_own_card_plays_alone() -> None:
    deal = to_play(partner="1B")
    assert deal.partner == 0
    assert [deal.observation(s).partner for s in range(4)] == [0, None, None, None]
    play(deal, "1:9Y 2:4Y 3:2G 0:1B")
    assert [deal.observation(s).partner for s in range(4)] == [0, 0, 0, 0]


# ====================================================================== the play
def test_leader_may_lead_anything() -> None:
    deal = to_play()
    assert set(deal.legal()) == names(HANDS[1])


def test_follow_the_colour_led_with_no_obligation_to_beat() -> None:
    deal = to_play()
    play(deal, "1:9Y")
    assert set(deal.legal()) == names("10Y 8Y 7Y 6Y 5Y 4Y")
    for card in ("10R", "1G", "6R"):
        refuse(deal, card, "follow_suit")
    refuse(deal, "1Y", "hold_card")


def test_void_in_the_colour_led_any_card_no_obligation_to_trump() -> None:
    deal = to_play()
    play(deal, "1:9Y 2:4Y")
    assert set(deal.legal()) == names(HANDS[3])  # the 5R trump or any green
    play(deal, "3:2G")
    assert set(deal.legal()) == names(HANDS[0]) == set(deal.hand(0))


def test_rook_led_is_a_trump_lead_and_must_be_followed_in_the_trump_colour() -> None:
    deal = to_play()
    play(deal, "1:ROOK")
    assert set(deal.legal()) == names("10R 9R 8R 7R 6R")
    refuse(deal, "10Y", "follow_suit")
    play(deal, "2:10R")
    assert deal.legal() == ["5R"]
    play(deal, "3:5R 0:3B")
    assert deal.history[-1][2] == 1  # the Rook beats the 10
    assert deal.observation(2).card_points == (0, 35, 0, 0)


def test_red_led_the_rook_follows_as_red() -> None:
    deal = to_play()
    play(deal, "1:9Y 2:10Y 3:2G 0:3B")  # seat 2 wins with the 10Y
    assert deal.to_act == 2
    play(deal, "2:6R")
    assert deal.legal() == ["5R"]
    play(deal, "3:5R 0:4B")
    assert set(deal.legal()) == names("ROOK 1R 14R 13R 12R")
    refuse(deal, "1Y", "follow_suit")
    play(deal, "1:ROOK")
    assert deal.history[-1][2] == 1


def test_a_trump_wins_a_side_colour_trick() -> None:
    deal = to_play()
    play(deal, "1:9Y 2:4Y 3:5R 0:3B")
    assert deal.history[-1][2] == 3


# ====================================================================== points and scores
def expected_taken(deal: Deal) -> list[int]:
    """Card points by seat recomputed from the names in the tricks
    (docs/rules/rook-call-partner.md)."""
    taken = [0] * 4
    for _, cards, winner in deal.history:
        taken[winner] += sum(value(deal.deck.names[c]) for c in cards)
    if len(deal.history) == 13:
        winner = deal.history[-1][2]
        taken[winner] += 20 + sum(value(n) for n in deal.names_of(deal.discards))
    return taken


def finish(deal: Deal, rng: random.Random) -> Deal:
    for _ in range(120):
        if deal.over:
            return deal
        deal.act(rng.choice(deal.legal()))
    raise AssertionError("a deal took more than 120 actions")


def test_card_values_sum_to_180_plus_the_last_trick() -> None:
    assert sum(value(n) for n in ALL_CARDS) == 180
    assert games.card_points(ROOK_DECK.with_rook_in(0).full) == 180
    assert ROOK.last_trick_points == 20


@pytest.mark.parametrize("seed", range(12))
def test_points_are_200_a_deal_and_scores_follow_the_rule(seed: int) -> None:
    rng = random.Random(seed)
    deal = finish(Deal(ROOK, seed=seed, dealer=seed % 4), rng)
    assert deal.phase == "over" and len(deal.history) == 13
    taken = expected_taken(deal)
    assert sum(taken) == 200
    assert games.points_taken(deal) == taken
    assert deal.observation(0).card_points == tuple(taken)
    declarer, bid, partner = deal.declarer, deal.contract, deal.partner
    assert declarer is not None and bid is not None and partner is not None
    side = {declarer, partner}
    ours = sum(taken[s] for s in side)
    expect = [(ours if ours >= bid else -bid) if s in side else 200 - ours for s in range(4)]
    assert deal.points == [Points.whole(v) for v in expect]


def test_last_trick_and_the_buried_nest_go_to_the_last_trick_winner() -> None:
    hands = [
        "1B 14B 13B 12B 11B 10B 9B 8B 7B 6B 5B 4B 3B",
        "ROOK 1R 14R 13R 12R 1Y 14Y 13Y 12Y 11Y 9Y 3Y 2Y",
        "10R 9R 8R 7R 6R 10Y 8Y 7Y 6Y 5Y 4Y 1G 14G",
        "11R 13G 12G 11G 10G 9G 8G 7G 6G 5G 4G 3G 2G",
    ]
    deck = rook_deck(hands, "2B 2R 3R 4R 5R", DEALER)
    deal = to_play(partner="1Y", discards="1B 5R 4R 3R 2R", deck=deck)
    finish(deal, random.Random(0))
    last = deal.history[-1][2]
    in_tricks = [0] * 4
    for _, cards, winner in deal.history:
        in_tricks[winner] += games.card_points(sum(1 << c for c in cards))
    bonus = [0] * 4
    bonus[last] = 20 + 15 + 5  # the last trick, and the buried 1B and 5R
    assert games.points_taken(deal) == [a + b for a, b in zip(in_tricks, bonus, strict=True)]
    assert sum(games.points_taken(deal)) == 200


# Seat 0 holds every trump but the two it buries, and names red: it takes every trick.
ALL_TRUMPS = rook_deck(
    [
        "1R 14R 13R 12R 11R 10R 9R 8R 7R 6R 5R 4R 3R",
        "1Y 14Y 13Y 12Y 11Y 10Y 9Y 8Y 7Y 6Y 5Y 4Y 3Y",
        "1G 14G 13G 12G 11G 10G 9G 8G 7G 6G 5G 4G 3G",
        "1B 14B 13B 12B 11B 10B 9B 8B 7B 6B 5B 4B 3B",
    ],
    "2R ROOK 2Y 2G 2B",
    DEALER,
)
# Seat 0 holds the lowest reds, yellows and greens and no black, and names black: no trick.
NO_TRICK = rook_deck(
    [
        "2R 3R 4R 5R 6R 2Y 3Y 4Y 5Y 6Y 2G 3G 4G",
        "1R 14R 13R 12R 11R 10R 9R 8R 7R 1Y 14Y 13Y 12Y",
        "11Y 10Y 9Y 8Y 7Y 1G 14G 13G 12G 11G 10G 9G 8G",
        "7G 6G 5G 1B 14B 13B 12B 11B 10B 9B 8B 7B 6B",
    ],
    "5B 4B 3B 2B ROOK",
    DEALER,
)


@pytest.mark.parametrize(
    ("deck", "discards", "trump", "partner", "points"),
    [
        # made with a partner: both book the side's points, the others theirs (0)
        (ALL_TRUMPS, "2Y 2G 2B 2R 3R", "R", "1Y", [200, 200, 0, 0]),
        (ALL_TRUMPS, "2Y 2G 2B 2R 3R", "R", "1B", [200, 0, 0, 200]),
        # made alone (its own card)
        (ALL_TRUMPS, "2Y 2G 2B 2R 3R", "R", "1R", [200, 0, 0, 0]),
        # failed alone: −bid; each of the three books the 200 its side took
        (NO_TRICK, "5B 4B 3B 2B ROOK", "B", "2R", [-70, 200, 200, 200]),
    ],
)
def test_whole_deal_scores(
    deck: list[str], discards: str, trump: str, partner: str, points: list[int]
) -> None:
    for seed in range(3):
        deal = finish(to_play(partner, discards, trump, deck), random.Random(seed))
        assert deal.points == [Points.whole(v) for v in points]
        if points[0] == 200:
            assert deal.tricks == [13, 0, 0, 0]
        else:
            assert deal.tricks[0] == 0


@pytest.mark.parametrize(
    ("bid", "declarer", "partner", "taken", "points"),
    [
        (120, 0, 2, [60, 30, 70, 40], [130, 70, 130, 70]),
        (130, 0, 2, [60, 30, 70, 40], [130, 70, 130, 70]),
        (135, 0, 2, [60, 30, 70, 40], [-135, 70, -135, 70]),
        (100, 1, 1, [50, 100, 30, 20], [100, 100, 100, 100]),
        (105, 1, 1, [50, 100, 30, 20], [100, -105, 100, 100]),
        (70, 3, 0, [0, 200, 0, 0], [-70, 200, 200, -70]),
        (200, 3, 0, [0, 0, 0, 200], [200, 0, 0, 200]),
    ],
)
def test_score_table(
    monkeypatch: pytest.MonkeyPatch,
    bid: int,
    declarer: int,
    partner: int,
    taken: list[int],
    points: list[int],
) -> None:
    deal = Deal(ROOK, deck=LAYOUT, dealer=0)
    deal.contract, deal.declarer, deal.partner = bid, declarer, partner
    monkeypatch.setattr(games, "points_taken", lambda _deal: taken)
    assert games.rook_scores(deal) == [Points.whole(v) for v in points]


# ====================================================================== the match
def test_match_to_500() -> None:
    assert ROOK.match_end == "target:500"
    for seed in range(2):
        rng = random.Random(seed)
        match = Match(ROOK, seed=seed)
        while not match.over:
            match.act(rng.choice(match.legal()))
        entries = match.scored_deals
        target = Points.whole(500)
        first = next(i for i, e in enumerate(entries) if max(e.totals) >= target)
        # the match ends with the first deal that takes someone to 500, unless the top is
        # tied (tie_break=extra_deal): then only extra deals among the tied seats follow
        assert all(e.tie_break for e in entries[first + 1 :])
        assert not any(e.tie_break for e in entries[: first + 1])
        for seat in range(4):
            assert match.totals[seat] == sum(
                (
                    e.deal.points[seat]
                    for e in entries
                    if e.deal.points and seat in e.counting_seats
                ),
                Points(0),
            )
        seats = entries[-1].counting_seats
        best = max(match.totals[s] for s in seats)
        assert match.winners == [s for s in seats if match.totals[s] == best]
        dealers = [e.deal.dealer for e in entries]
        assert dealers == [(dealers[0] + i) % 4 for i in range(len(dealers))]


def test_match_from_decks() -> None:
    match = Match(ROOK, seed=0, dealer=DEALER, decks=[LAYOUT])
    assert match.deal.dealt == Deal(ROOK, deck=LAYOUT, dealer=DEALER).dealt
    assert match.to_act == DEALER


# ====================================================================== what each seat sees
def check_secrecy(deal: Deal) -> None:
    """No observation holds another seat's hand; only the declarer, once it has taken the
    nest, sees the nest and its discards."""
    nest = set(deal.names_of(deal.nest))
    played = {deal.deck.names[c] for _, cards, _ in deal.history for c in cards}
    played |= {deal.deck.names[c] for c in deal.trick}
    called = {deal.deck.names[deal.partner_card]} if deal.partner_card is not None else set()
    taken = deal.phase != "auction"
    for seat in range(4):
        obs = deal.observation(seat)
        own = set(deal.hand(seat))
        assert set(obs.hand) == own
        view = obs.to_dict()
        legal = set(view.pop("legal"))
        shown = set(CARD_TOKEN.findall(json.dumps(view)))
        if deal.phase == "partner" and seat == deal.to_act:
            # calling a partner: every card but its own discards (knowing the deck is public)
            assert legal == set(ALL_CARDS) - set(deal.names_of(deal.discards))
        elif deal.phase in ("discard", "play") and seat == deal.to_act:
            assert legal <= own
        else:
            assert not legal & set(ALL_CARDS)
        allowed = own | played | called
        if seat == deal.declarer and taken:
            assert obs.nest is not None and set(obs.nest) == nest
            assert obs.discards is not None
            assert set(obs.discards) == set(deal.names_of(deal.discards))
            allowed |= nest | set(obs.discards)
        else:
            assert obs.nest is None and obs.discards is None
        assert shown <= allowed, (seat, deal.phase, shown - allowed)
        for other in range(4):
            if other != seat:
                hidden = set(deal.hand(other)) - played - called
                assert not hidden & shown


def test_observations_during_a_layout_deal() -> None:
    deal = Deal(ROOK, deck=LAYOUT, dealer=DEALER)
    check_secrecy(deal)
    for action in ["pass", "pass", "pass", *NEST.split(), "R", "1R"]:
        deal.act(action)
        check_secrecy(deal)
    assert deal.observation(0).nest is not None
    rng = random.Random(3)
    while not deal.over:
        deal.act(rng.choice(deal.legal()))
        check_secrecy(deal)
    for seat in (1, 2, 3):  # the buried cards were never played: nobody else ever saw them
        text = json.dumps(deal.observation(seat).to_dict())
        assert not set(CARD_TOKEN.findall(text)) & names(NEST)


@pytest.mark.parametrize("seed", range(6))
def test_observations_during_random_deals(seed: int) -> None:
    rng = random.Random(seed)
    deal = Deal(ROOK, seed=seed, dealer=seed % 4)
    while not deal.over:
        check_secrecy(deal)
        deal.act(rng.choice(deal.legal()))
    check_secrecy(deal)


def test_after_the_end_nothing_is_legal() -> None:
    deal = finish(to_play(), random.Random(1))
    assert deal.legal() == [] and deal.to_act is None
    for action in ("pass", 70, "R", "1R", True):
        refuse(deal, action, "phase")


def test_spectator_sees_no_hand_and_no_nest() -> None:
    deal = Deal(ROOK, deck=LAYOUT, dealer=DEALER)
    rng = random.Random(4)
    while not deal.over:
        view = observe_public(deal)
        assert view.seat == -1 and view.hand == () and view.legal == ()
        assert view.nest is None and view.discards is None
        played = {deal.deck.names[c] for _, cards, _ in deal.history for c in cards}
        played |= {deal.deck.names[c] for c in deal.trick}
        called = {deal.deck.names[deal.partner_card]} if deal.partner_card is not None else set()
        shown = set(CARD_TOKEN.findall(json.dumps(view.to_dict())))
        assert shown <= played | called
        assert view.partner == (deal.partner if deal.partner_known else None)
        deal.act(rng.choice(deal.legal()))


@pytest.mark.parametrize("phase", ["auction", "discard", "trump", "partner", "play"])
def test_a_copy_is_independent_in_every_phase(phase: str) -> None:
    deal = Deal(ROOK, deck=LAYOUT, dealer=DEALER)
    rng = random.Random(0)
    while deal.phase != phase:
        deal.act(rng.choice(deal.legal()))
    if phase == "play":
        deal.act(rng.choice(deal.legal()))  # a trick in progress too
    before = state(deal)
    copy = deal.copy()
    assert state(copy) == before
    finish(copy, random.Random(1))
    assert copy.over
    assert state(deal) == before
