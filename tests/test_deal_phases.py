"""The phases of a deal (docs/rules/callbreak.md rules 2–4,
docs/rules/callbridge.md): misdeal, calls, too few calls, declared voids,
and that nothing can be done once a deal is over or void."""

from __future__ import annotations

import random
from typing import Any

import pytest

from callbreak import Deal, IllegalAction, Points, Rules
from helpers import DECK, RANKS, snapshot

RANK_MAJOR = [r + s for r in RANKS for s in "SHDC"]
# every seat holds spades and honours: no misdeal anywhere
NORMAL = [DECK[i::4] for i in range(4)]

NO_SPADE = "AH KH QH JH TH 9H 8H AD KD QD AC KC QC"
NO_HONOUR = "9S 8S 7S 6S 5S 4S 3S 2S TH 9H TD 9D TC"  # no A, K, Q or J
ACE_NO_KQJ = "AS 9S 8S 7S 6S AH TH 9H AD TD 9D AC TC"  # an ace but no J, Q or K
VOID_IN_CLUBS = "AS KS 2S AH KH QH JH TH AD KD QD JD TD"
NO_SPADE_LOW = "8H 7H 6H 5H 4H 3H 2H 8D 7D 6D JC 3C 2C"  # disjoint from the three above


def complete(fixed: dict[int, str]) -> list[list[str]]:
    """Hands for every seat: ``fixed`` ones as given, the rest dealt round from the top ranks
    down, so that each of the others gets spades and honours."""
    used = {c for cards in fixed.values() for c in cards.split()}
    others = [s for s in range(4) if s not in fixed]
    remaining = [c for c in RANK_MAJOR if c not in used]
    hands: list[list[str]] = [[] for _ in range(4)]
    for seat, cards in fixed.items():
        hands[seat] = cards.split()
    for i, card in enumerate(remaining):
        hands[others[i % len(others)]].append(card)
    assert all(len(h) == 13 for h in hands)
    assert sorted(c for h in hands for c in h) == sorted(DECK)
    return hands


def assert_refused(deal: Deal, action: Any, rule: str | None = None) -> IllegalAction:
    before = snapshot(deal)
    with pytest.raises(IllegalAction) as error:
        deal.act(action)
    if rule is not None:
        assert error.value.rule == rule, str(error.value)
    assert snapshot(deal) == before
    return error.value


def call_all(deal: Deal, calls: list[int]) -> None:
    """Calls given in the order they are made."""
    for call in calls:
        assert deal.phase == "call"
        deal.act(call)


def assert_void(deal: Deal) -> None:
    assert deal.phase == "void"
    assert deal.to_act is None
    assert deal.legal() == []
    assert deal.points == [Points(0)] * 4
    assert deal.void_reason
    assert deal.over
    for seat in range(4):
        obs = deal.observation(seat)
        assert obs.phase == "void"
        assert obs.void_reason == deal.void_reason
        assert obs.legal == ()
    for action in (1, 5, True, False, "AS", NORMAL[0][0]):
        assert_refused(deal, action, "phase")


# ------------------------------------------------------------------ the call phase
@pytest.mark.parametrize("preset", ["callbreak", "callbreak-bhoos", "callbridge"])
@pytest.mark.parametrize("dealer", range(4))
def test_calls_start_after_the_dealer_and_go_round(preset: str, dealer: int) -> None:
    rules = Rules.preset(preset)
    deal = Deal(rules, hands=NORMAL, dealer=dealer)
    assert deal.phase == "call"
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    for seat in order:
        assert deal.to_act == seat
        assert deal.legal() == list(range(rules.min_call, rules.max_call + 1))
        assert deal.observation(seat).legal == tuple(deal.legal())
        deal.act(4)
        assert deal.calls[seat] == 4
        for other in range(4):
            assert deal.observation(other).calls[seat] == 4  # calls are public
    assert deal.phase == "play"
    assert deal.to_act == order[0]  # the seat after the dealer leads


CALL_TOTALS: list[tuple[str, dict[str, Any], list[int], str]] = [
    ("callbreak", {}, [1, 1, 1, 1], "void"),
    ("callbreak", {}, [2, 2, 2, 1], "void"),
    ("callbreak", {}, [2, 2, 2, 2], "play"),
    ("callbreak", {}, [5, 1, 1, 1], "play"),
    ("callbreak-bhoos", {}, [1, 2, 1, 3], "void"),
    ("callbreak-bhoos", {}, [8, 1, 1, 1], "play"),
    ("callbreak", {"min_total_calls": 10}, [3, 3, 2, 1], "void"),
    ("callbreak", {"min_total_calls": 10}, [3, 3, 2, 2], "play"),
    ("callbreak", {"min_total_calls": 10}, [2, 2, 2, 2], "void"),
    ("callbreak", {"min_total_calls": None}, [1, 1, 1, 1], "play"),
    ("callbreak", {"min_total_calls": 0}, [1, 1, 1, 1], "play"),
    ("callbridge", {}, [2, 2, 2, 2], "play"),
    ("callbridge", {"min_total_calls": 10}, [2, 2, 2, 3], "void"),
    ("callbridge", {"min_total_calls": 10}, [2, 3, 2, 3], "play"),
]


@pytest.mark.parametrize(("preset", "options", "calls", "phase"), CALL_TOTALS)
def test_too_few_calls_void_the_deal(
    preset: str, options: dict[str, Any], calls: list[int], phase: str
) -> None:
    deal = Deal(Rules.preset(preset).replace(**options), hands=NORMAL, dealer=2)
    call_all(deal, calls)
    assert deal.phase == phase
    if phase == "void":
        assert_void(deal)
        assert deal.void_reason is not None and "min_total_calls" in deal.void_reason
        assert deal.calls == [calls[(i - 3) % 4] for i in range(4)]  # seat 3 called first


BAD_CALLS: list[tuple[str, Any, str | None]] = [
    ("callbreak", 0, "min_call"),
    ("callbreak", -1, "min_call"),
    ("callbreak", 14, "max_call"),
    ("callbreak-bhoos", 9, "max_call"),
    ("callbreak-bhoos", 13, "max_call"),
    ("callbridge", 1, "min_call"),
    ("callbridge", 13, "max_call"),
    ("callbreak", "x", None),
    ("callbreak", "", None),
    ("callbreak", True, None),
    ("callbreak", False, None),
    ("callbreak", 3.0, None),
    ("callbreak", None, None),
    ("callbreak", "AS", None),
]


@pytest.mark.parametrize(("preset", "call", "rule"), BAD_CALLS)
def test_calls_outside_the_range_are_refused(preset: str, call: Any, rule: str | None) -> None:
    rules = Rules.preset(preset)
    deal = Deal(rules, hands=NORMAL, dealer=0)
    deal.act(rules.min_call)  # refused in the middle of the calls too
    error = assert_refused(deal, call, rule)
    message = str(error)
    assert str(rules.min_call) in message and str(rules.max_call) in message


@pytest.mark.parametrize(
    ("options", "low", "high"),
    [({"min_call": 2}, 2, 13), ({"max_call": 8}, 1, 8), ({"min_call": 3, "max_call": 5}, 3, 5)],
)
def test_call_range_follows_the_options(options: dict[str, int], low: int, high: int) -> None:
    deal = Deal(Rules.preset("callbreak").replace(**options), hands=NORMAL, dealer=0)
    assert deal.legal() == list(range(low, high + 1))
    assert_refused(deal, low - 1, "min_call")
    assert_refused(deal, high + 1, "max_call")
    deal.act(low)
    deal.act(high)


def test_a_call_may_be_given_as_digits() -> None:
    deal = Deal(Rules.preset("callbreak"), hands=NORMAL, dealer=0)
    deal.act("5")
    assert deal.calls[1] == 5


# ------------------------------------------------------------------ misdeal
@pytest.mark.parametrize("misdeal", ["auto", "claim", "off"])
@pytest.mark.parametrize("hand", [NO_SPADE, NO_HONOUR], ids=["no-spade", "no-honour"])
def test_misdeal_modes(misdeal: str, hand: str) -> None:
    rules = Rules.preset("callbreak").replace(misdeal=misdeal)
    deal = Deal(rules, hands=complete({1: hand}), dealer=3)
    if misdeal == "auto":
        assert_void(deal)
        assert deal.void_reason is not None and "seat 1" in deal.void_reason
    elif misdeal == "claim":
        assert deal.phase == "misdeal"
        assert deal.to_act == 1
        assert deal.legal() == [True, False]
        assert deal.observation(1).legal == (True, False)
        for other in (0, 2, 3):
            assert deal.observation(other).legal == ()
        assert_refused(deal, 3, "misdeal")
        assert_refused(deal, "AS", "misdeal")
    else:
        assert deal.phase == "call"
        assert deal.to_act == 0


def test_a_claimed_misdeal_voids_the_deal() -> None:
    deal = Deal(Rules.preset("callbreak"), hands=complete({1: NO_SPADE}), dealer=3)
    deal.act(True)
    assert_void(deal)
    assert deal.void_reason is not None and "seat 1" in deal.void_reason
    for seat in range(4):
        assert deal.observation(seat).misdeal_claims == ((1, True),)


def test_a_refused_misdeal_goes_on_to_the_calls() -> None:
    deal = Deal(Rules.preset("callbreak"), hands=complete({1: NO_HONOUR}), dealer=3)
    deal.act(False)
    assert deal.phase == "call"
    assert deal.to_act == 0
    assert deal.observation(2).misdeal_claims == ((1, False),)
    call_all(deal, [3, 3, 3, 3])
    assert deal.phase == "play"


@pytest.mark.parametrize(("dealer", "order"), [(3, [1, 2]), (1, [2, 1]), (2, [1, 2]), (0, [1, 2])])
def test_each_qualifying_seat_is_asked_in_turn(dealer: int, order: list[int]) -> None:
    deal = Deal(
        Rules.preset("callbreak"), hands=complete({1: NO_SPADE_LOW, 2: NO_HONOUR}), dealer=dealer
    )
    for seat in order:
        assert deal.phase == "misdeal"
        assert deal.to_act == seat
        deal.act(False)
    assert deal.phase == "call"
    assert deal.to_act == (dealer + 1) % 4
    # and the second may still claim after the first refused
    deal = Deal(
        Rules.preset("callbreak"), hands=complete({1: NO_SPADE_LOW, 2: NO_HONOUR}), dealer=dealer
    )
    deal.act(False)
    deal.act(True)
    assert_void(deal)
    assert deal.claims == [(order[0], False), (order[1], True)]


def test_a_hand_with_spades_and_honours_never_qualifies() -> None:
    for misdeal in ("claim", "auto"):
        deal = Deal(Rules.preset("callbreak").replace(misdeal=misdeal), hands=NORMAL, dealer=0)
        assert deal.phase == "call"


def test_bhoos_honours_are_k_q_j() -> None:
    hands = complete({2: ACE_NO_KQJ})
    # callbreak-bhoos: an ace does not save a hand without J, Q or K; it is redealt
    assert_void(Deal(Rules.preset("callbreak-bhoos"), hands=hands, dealer=0))
    # Call Break (A, K, Q, J): the ace saves it
    assert Deal(Rules.preset("callbreak"), hands=hands, dealer=0).phase == "call"
    assert (
        Deal(Rules.preset("callbreak").replace(misdeal="auto"), hands=hands, dealer=0).phase
        == "call"
    )
    # the honours are an option of their own
    deal = Deal(Rules.preset("callbreak").replace(misdeal_faces="KQJ"), hands=hands, dealer=0)
    assert deal.phase == "misdeal" and deal.to_act == 2
    # callbreak-bhoos still redeals a hand with no spade
    assert_void(Deal(Rules.preset("callbreak-bhoos"), hands=complete({1: NO_SPADE}), dealer=0))


def test_misdeal_no_spade() -> None:
    hands = complete({2: NO_SPADE})
    plain = Deal(Rules.preset("callbridge"), hands=hands, dealer=0)
    assert plain.phase == "call"  # Call Bridge has no misdeal by default
    deal = Deal(Rules.preset("callbridge").replace(misdeal_no_spade=True), hands=hands, dealer=0)
    assert_void(deal)
    assert deal.void_reason is not None and "misdeal_no_spade" in deal.void_reason
    # a hand with spades but no honour is not a no-spade misdeal
    hands = complete({2: NO_HONOUR})
    deal = Deal(Rules.preset("callbridge").replace(misdeal_no_spade=True), hands=hands, dealer=0)
    assert deal.phase == "call"


# ------------------------------------------------------------------ declare_voids
def test_declare_voids() -> None:
    rules = Rules.preset("callbreak").replace(declare_voids=True)
    hands = [  # a hand may be given as one string
        "QS TS 8S 6S 4S 9H 9D 5D AC QC 9C 7C 5C",  # no void
        VOID_IN_CLUBS,
        NO_SPADE_LOW,  # void in spades
        "JS 9S 7S 5S 3S 4D 3D 2D KC TC 8C 6C 4C",  # void in hearts
    ]
    deal = Deal(rules, hands=hands, dealer=3)
    deal.act(False)  # seat 2 refuses its misdeal
    call_all(deal, [3, 3, 3, 3])
    assert deal.phase == "declare"
    assert deal.to_act == 1  # seats with a void, from the seat after the dealer
    assert deal.legal() == [True, False]
    for other in (0, 2, 3):
        assert deal.observation(other).legal == ()
    assert_refused(deal, 3, "declare_voids")
    assert_refused(deal, "AS", "declare_voids")
    deal.act(True)
    assert deal.phase == "declare"
    assert deal.to_act == 2
    deal.act(False)
    assert deal.to_act == 3
    deal.act(True)
    assert deal.phase == "play"
    assert deal.to_act == 0
    for seat in range(4):
        obs = deal.observation(seat)
        assert obs.declared_voids == ("", "C", "", "H")
        assert obs.to_dict()["declared_voids"] == ["", "C", "", "H"]
    assert deal.declared == [(1, True), (2, False), (3, True)]


def test_declared_voids_list_every_void_suit() -> None:
    rules = Rules.preset("callbreak").replace(declare_voids=True, misdeal="off")
    deal = Deal(rules, hands=complete({2: NO_SPADE}), dealer=0)
    call_all(deal, [3, 3, 3, 3])
    assert deal.phase == "declare" and deal.to_act == 2
    deal.act(True)
    assert deal.observation(0).declared_voids[2] == "S"


def test_without_declare_voids_play_follows_the_calls() -> None:
    deal = Deal(Rules.preset("callbreak"), hands=complete({1: VOID_IN_CLUBS}), dealer=3)
    call_all(deal, [3, 3, 3, 3])
    assert deal.phase == "play"


def test_declare_voids_with_no_void_goes_straight_to_play() -> None:
    deal = Deal(Rules.preset("callbreak").replace(declare_voids=True), hands=NORMAL, dealer=3)
    call_all(deal, [3, 3, 3, 3])
    assert deal.phase == "play"


# ------------------------------------------------------------------ the end
@pytest.mark.parametrize("preset", ["callbreak", "callbreak-bhoos", "callbridge"])
def test_nothing_can_be_done_after_the_deal_is_over(preset: str) -> None:
    rules = Rules.preset(preset)
    deal = Deal(rules, hands=NORMAL, dealer=1)
    rng = random.Random(4)
    while deal.phase != "over":
        assert deal.to_act is not None
        deal.act(rng.choice(deal.legal()))
    assert deal.to_act is None
    assert deal.legal() == []
    assert sum(deal.tricks) == 13
    assert deal.trick_number == 13
    for action in (3, True, False, "AS", "2C", NORMAL[0][0]):
        assert_refused(deal, action, "phase")


def test_deal_from_a_seed_is_reproducible() -> None:
    rules = Rules.preset("callbreak")
    for seed in range(5):
        one = Deal(rules, seed=seed, dealer=2)
        two = Deal(rules, seed=seed, dealer=2)
        assert [one.hand(s) for s in range(4)] == [two.hand(s) for s in range(4)]
        assert sorted(c for s in range(4) for c in one.hand(s)) == sorted(DECK)
        assert all(len(one.hand(s)) == 13 for s in range(4))
    assert Deal(rules, seed=1).hand(0) != Deal(rules, seed=2).hand(0)


def test_bad_dealer_is_refused() -> None:
    for dealer in (-1, 4):
        with pytest.raises(ValueError, match="dealer"):
            Deal(Rules.preset("callbreak"), hands=NORMAL, dealer=dealer)


def test_copy_is_independent() -> None:
    deal = Deal(Rules.preset("callbreak"), seed=5, dealer=0)
    rng = random.Random(5)
    while deal.phase != "play":
        deal.act(rng.choice(deal.legal()))
    for _ in range(6):
        deal.act(rng.choice(deal.legal()))
    before = snapshot(deal)
    twin = deal.copy()
    assert snapshot(twin) == before
    while twin.to_act is not None:
        twin.act(rng.choice(twin.legal()))
    assert twin.phase == "over" and snapshot(deal) == before
    deal.act(deal.legal()[0])  # the original still plays on


def test_an_observation_as_json_tells_a_blind_nil_from_a_nil() -> None:
    # Blind nil scores twice a nil: a remote client reading the JSON must see which it was.
    deal = Deal(Rules.preset("spades").replace(blind_nil=True), seed=3, dealer=3)
    deal.act("blind nil")
    deal.act("look")
    deal.act(0)
    document = deal.observation(2).to_dict()
    assert document["calls"][:2] == [0, 0] and document["blind_nils"] == [0]
    assert document["hand_size"] == 13
