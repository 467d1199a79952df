"""Batak İhaleli (docs/rules/batak-ihale.md) and Batak Koz Maça
(docs/rules/batak-koz-maca.md): table tests for every rule.

Positions are built from four hands (``Deal(rules, hands=...)``) or from a whole deck in
dealing order (``Deal(rules, deck=...)``); ``deck_for`` turns hands into that order so both
entry points are checked to deal the same thing.  Every refused action is checked to raise
``IllegalAction`` naming a rule and to leave the whole deal, every observation included,
exactly as it was.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from callbreak import Deal, Match, Points, Rules
from callbreak.games import GAMES as SPECS
from helpers import DECK, RANKS, refuse, split_hands, state

IHALE = Rules.preset("batak-ihale")
KOZ = Rules.preset("batak-koz-maca")
# every seat holds every suit: nobody is void, nobody holds only trumps
ROUND = [DECK[i::4] for i in range(4)]


def deck_for(hands: list[list[str]], dealer: int) -> list[str]:
    """The deck, top first, that deals ``hands``: card i goes to seat (dealer + 1 + i) % 4."""
    return [hands[(dealer + 1 + i) % 4][i // 4] for i in range(52)]


def bid_round(deal: Deal, actions: list[int | str]) -> None:
    """Make the auction's actions in order, each by the seat to act."""
    for action in actions:
        assert deal.phase == "auction", f"auction already over before {action!r}"
        deal.act(action)


# ====================================================================== §3 the auction
@pytest.mark.parametrize("dealer", range(4))
def test_auction_starts_after_the_dealer_with_bids_5_to_13(dealer: int) -> None:
    deal = Deal(IHALE, hands=ROUND, dealer=dealer)
    assert deal.phase == "auction"
    assert deal.to_act == (dealer + 1) % 4
    assert deal.legal() == [*range(5, 14), "pass"]
    assert deal.trump is None and deal.contract is None and deal.declarer is None
    obs = deal.observation((dealer + 1) % 4)
    assert obs.phase == "auction" and obs.trump is None and obs.game == "batak"
    assert list(obs.legal) == deal.legal()


def test_hands_and_deck_deal_the_same() -> None:
    for dealer in range(4):
        by_deck = Deal(IHALE, deck=deck_for(ROUND, dealer), dealer=dealer)
        by_hands = Deal(IHALE, hands=ROUND, dealer=dealer)
        assert by_deck.dealt == by_hands.dealt
        assert [by_deck.hand(s) for s in range(4)] == [by_hands.hand(s) for s in range(4)]


def test_auction_goes_round_each_bid_higher_until_three_pass_after_a_bid() -> None:
    deal = Deal(IHALE, hands=ROUND, dealer=0)
    deal.act(5)  # seat 1
    assert (deal.to_act, deal.contract, deal.declarer) == (2, 5, 1)
    assert deal.legal() == [*range(6, 14), "pass"]
    deal.act(7)  # seat 2 may jump
    assert deal.to_act == 3 and deal.legal() == [*range(8, 14), "pass"]
    deal.act("pass")  # seat 3
    deal.act("pass")  # seat 0
    assert deal.to_act == 1 and deal.phase == "auction"
    deal.act(8)  # seat 1 again: seat 3 and the dealer are skipped from now on
    assert deal.to_act == 2
    deal.act("pass")  # seat 2: three have passed after seat 1's bid
    assert deal.phase == "trump"
    assert (deal.to_act, deal.contract, deal.declarer) == (1, 8, 1)
    assert deal.bids == [(1, 5), (2, 7), (3, "pass"), (0, "pass"), (1, 8), (2, "pass")]
    assert [a for _, _, a in deal.log] == [5, 7, "pass", "pass", 8, "pass"]
    assert all(phase == "auction" for phase, _, _ in deal.log)


def test_a_pass_is_final_and_passed_seats_are_never_asked_again() -> None:
    deal = Deal(IHALE, hands=ROUND, dealer=2)  # seat 3 first
    asked = []
    actions: list[int | str] = ["pass", 5, 6, 7, 8, "pass", 9, "pass"]
    for action in actions:
        asked.append(deal.to_act)
        deal.act(action)
    # 3 passes; 0, 1, 2 bid up; 0 bids 8 after 2's 7; 1 passes; 2 bids 9; 0 passes
    assert asked == [3, 0, 1, 2, 0, 1, 2, 0]
    assert deal.phase == "trump" and deal.declarer == 2 and deal.contract == 9


def test_a_bid_of_13_leaves_only_pass() -> None:
    deal = Deal(IHALE, hands=ROUND, dealer=0)
    deal.act(13)
    assert deal.legal() == ["pass"]
    refuse(deal, 13, "auction")
    refuse(deal, 14, "max_bid")
    bid_round(deal, ["pass", "pass", "pass"])
    assert deal.phase == "trump" and (deal.declarer, deal.contract) == (1, 13)


@pytest.mark.parametrize("dealer", range(4))
def test_dealer_is_forced_at_4_when_the_first_three_pass(dealer: int) -> None:
    deal = Deal(IHALE, hands=ROUND, dealer=dealer)
    bid_round(deal, ["pass", "pass", "pass"])
    # no action was asked of the dealer: it names trump at a contract of 4
    assert deal.phase == "trump"
    assert deal.to_act == dealer
    assert (deal.declarer, deal.contract) == (dealer, 4)
    assert [seat for _, seat, _ in deal.log] == [(dealer + 1 + i) % 4 for i in range(3)]
    for seat in range(4):
        obs = deal.observation(seat)
        assert (obs.declarer, obs.contract) == (dealer, 4)


def test_dealer_that_bids_after_three_passes_plays_its_own_bid() -> None:
    deal = Deal(IHALE, hands=ROUND, dealer=0)
    bid_round(deal, ["pass", "pass", 6])  # seat 3 bids after two passes
    assert deal.phase == "auction" and deal.to_act == 0
    deal.act("pass")
    assert (deal.declarer, deal.contract, deal.phase) == (3, 6, "trump")


@pytest.mark.parametrize(
    ("before", "action", "rule"),
    [
        ([], 4, "min_bid"),
        ([], 14, "max_bid"),
        ([], 0, "min_bid"),
        ([], -5, "min_bid"),
        ([7], 7, "auction"),
        ([7], 6, "auction"),
        ([7, 9], 8, "auction"),
        ([], "AS", None),
        ([], True, None),
        ([], None, None),
        ([], 5.5, None),
        ([], "S", None),
    ],
)
def test_illegal_bids_are_refused_and_change_nothing(
    before: list[int | str], action: Any, rule: str | None
) -> None:
    deal = Deal(IHALE, hands=ROUND, dealer=0)
    bid_round(deal, before)
    assert action not in deal.legal()
    refuse(deal, action, rule)


def test_bid_as_digits_and_pass_spellings() -> None:
    deal = Deal(IHALE, hands=ROUND, dealer=0)
    deal.act("6")
    deal.act(" PASS ")
    assert deal.bids == [(1, 6), (2, "pass")]
    assert deal.log == [("auction", 1, 6), ("auction", 2, "pass")]


# ====================================================================== §3 trump and lead
def to_trump(rules: Rules, hands: list[list[str]], declarer: int, dealer: int = 0) -> Deal:
    """A Batak deal whose auction made ``declarer`` the declarer at 5 (the dealer at 4)."""
    deal = Deal(rules, hands=hands, dealer=dealer)
    while deal.phase == "auction":
        deal.act(5 if deal.to_act == declarer else "pass")
    assert deal.phase == "trump" and deal.declarer == declarer
    return deal


@pytest.mark.parametrize("declarer", range(4))
def test_declarer_names_trump_and_leads(declarer: int) -> None:
    deal = to_trump(IHALE, ROUND, declarer)
    assert deal.to_act == declarer
    assert deal.legal() == ["S", "H", "D", "C"]
    for seat in range(4):
        assert deal.observation(seat).legal == (("S", "H", "D", "C") if seat == declarer else ())
    refuse(deal, "X", "trump")
    refuse(deal, "R", "trump")
    refuse(deal, "SH", "trump")
    refuse(deal, 1, "trump")
    refuse(deal, True, "trump")
    refuse(deal, "pass", "trump")
    deal.act("d")
    assert deal.trump == "D" and deal.trump_suit == 2
    assert deal.phase == "play" and deal.to_act == declarer and deal.leader == declarer
    assert deal.log[-1] == ("trump", declarer, "D")
    for seat in range(4):
        assert deal.observation(seat).trump == "D"


# ====================================================================== §3 the play
def expand(tokens: str) -> set[str]:
    """Card names, or a lone suit letter for the whole suit."""
    out: set[str] = set()
    for token in tokens.split():
        out |= {r + token for r in RANKS} if token in "SHDC" else {token}
    return out


def build(fixed: dict[int, str], plays: tuple[str, ...], avoid: dict[int, str]) -> list[list[str]]:
    """Four hands covering the deck: ``fixed`` seats exactly, the others holding the cards they
    play and none of ``avoid`` (filled from the lowest cards of the rest)."""
    hands = {seat: sorted(expand(cards)) for seat, cards in fixed.items()}
    assert all(len(h) == 13 for h in hands.values())
    need: dict[int, list[str]] = {s: [] for s in range(4) if s not in hands}
    for play in plays:
        seat, card = int(play[0]), play[2:]
        if seat in need:
            need[seat].append(card)
        else:
            assert card in hands[seat], play
    used = {c for h in hands.values() for c in h} | {c for h in need.values() for c in h}
    rest = [c for c in reversed(DECK) if c not in used]
    for seat in sorted(need, key=lambda s: -len(expand(avoid.get(s, "")))):
        banned = expand(avoid.get(seat, ""))
        take = [c for c in rest if c not in banned][: 13 - len(need[seat])]
        rest = [c for c in rest if c not in take]
        hands[seat] = need[seat] + take
        assert len(hands[seat]) == 13, f"cannot fill seat {seat}"
    assert not rest
    return [hands[s] for s in range(4)]


@dataclass(frozen=True)
class Play:
    """One play-rule position: the hand of the seat to act, what was played before, what the
    seat may play, and the rule that refuses some card it holds."""

    id: str
    hand: str
    legal: str
    refused: tuple[tuple[str, str], ...]
    plays: tuple[str, ...] = ()
    avoid: dict[int, str] = field(default_factory=dict)
    seat: int = 1
    trump: str = "H"
    declarer: int = 1
    preset: str = "batak-ihale"


# The declarer is seat 1 (dealer 0), so seat 1 leads the first trick; plays are "seat:card".
MIXED = "AH 9H 3H AS KS 3S AD 4D 5D AC 4C 3C 2C"
VOID_C = "KH 9H 3H AS KS 3S 2S AD KD 4D 5D 3D 2D"
VOID_C_NO_TRUMP = "AS KS QS 3S 2S AD KD QD JD 5D 4D 3D 2D"
PLAYS = [
    Play("lead-no-trump-before-broken", MIXED, "AS KS 3S AD 4D 5D AC 4C 3C 2C",
         (("AH", "spades_broken"), ("3H", "spades_broken"))),
    Play("lead-only-trumps-may-lead-trump", "H", "H", ()),
    Play("lead-trump-once-broken", "2H 9H KH AS KS 3S 2S AD KD QD 5D 4D 3D",
         "9H KH AS KS 3S 2S AD KD QD 5D 4D 3D", (),
         plays=("1:AC", "2:2H", "3:3C", "0:4C"), seat=2),
    Play("lead-trump-not-broken-by-a-side-suit-trick", "AC 9H KH AS KS 3S 2S AD KD QD 5D 4D 3D",
         "AS KS 3S 2S AD KD QD 5D 4D 3D", (("KH", "spades_broken"),),
         plays=("1:2C", "2:4C", "3:5C", "0:AC"), seat=0, avoid={1: "H"}),
    Play("follow-must-beat-the-winning-card", "KC 8C 2C AH 9H AS KS 3S AD 4D 5D 3D 2D",
         "KC", (("8C", "must_overtake"), ("2C", "must_overtake"), ("AH", "follow_suit"),
                ("AS", "follow_suit")),
         plays=("1:5C", "2:9C"), seat=3),
    Play("follow-beat-the-winner-not-the-last-card", "QC TC 3C AH 9H AS KS 3S AD 4D 5D 3D 2D",
         "QC", (("TC", "must_overtake"), ("3C", "must_overtake")),
         plays=("1:5C", "2:JC", "3:9C"), seat=0, avoid={3: "AC KC QC"}),
    Play("follow-any-once-trumped", "KC 8C 2C AH 9H AS KS 3S AD 4D 5D 3D 2D", "KC 8C 2C",
         (("AH", "follow_suit"), ("AD", "follow_suit")),
         plays=("1:5C", "2:2H"), avoid={2: "C"}, seat=3),
    Play("follow-any-when-it-cannot-beat", "KC 8C 2C AH 9H AS KS 3S AD 4D 5D 3D 2D",
         "KC 8C 2C", (("9H", "follow_suit"),), plays=("1:5C", "2:AC"), seat=3),
    Play("follow-trump-led-must-beat", "KH 9H 3H 3C AS KS 3S AD KD QD 5D 4D 3D", "KH",
         (("9H", "must_overtake"), ("3H", "must_overtake"), ("AS", "follow_suit")),
         plays=("1:AC", "2:2H", "3:3C", "0:4C", "2:TH"), seat=3,
         avoid={2: "C"}),
    Play("void-must-trump", VOID_C, "KH 9H 3H",
         (("AS", "must_trump"), ("2D", "must_trump")), plays=("1:5C", "2:9C"), seat=3),
    Play("void-must-overtrump-when-it-can", VOID_C, "KH 9H",
         (("3H", "must_trump"), ("AS", "must_trump")),
         plays=("1:5C", "2:7H"), avoid={2: "C"}, seat=3),
    Play("void-any-trump-when-it-cannot-overtrump", VOID_C, "KH 9H 3H",
         (("AS", "must_trump"), ("AD", "must_trump")),
         plays=("1:5C", "2:AH"), avoid={2: "C"}, seat=3),
    Play("void-no-trump-any-card", VOID_C_NO_TRUMP, VOID_C_NO_TRUMP, (),
         plays=("1:5C", "2:AH"), avoid={2: "C"}, seat=3),
    Play("declarer-other-trump-spades", "AS 9S 3S AH KH 3H AD 4D 5D AC 4C 3C 2C",
         "AH KH 3H AD 4D 5D AC 4C 3C 2C", (("AS", "spades_broken"),), trump="S"),
    Play("koz-maca-lead-no-spade-before-broken", "AS 9S 3S AH KH 3H AD 4D 5D AC 4C 3C 2C",
         "AH KH 3H AD 4D 5D AC 4C 3C 2C", (("9S", "spades_broken"),), trump="S",
         preset="batak-koz-maca"),
    Play("koz-maca-lead-spade-once-broken", "2S 9S KS AH KH 3H 2H AD KD QD 5D 4D 3D",
         "9S KS AH KH 3H 2H AD KD QD 5D 4D 3D", (),
         plays=("1:AC", "2:2S", "3:3C", "0:4C"), seat=2, trump="S", preset="batak-koz-maca"),
    Play("koz-maca-follow-must-beat", "KC 8C 2C AH 9H AS KS 3S AD 4D 5D 3D 2D", "KC",
         (("8C", "must_overtake"), ("AS", "follow_suit")),
         plays=("1:5C", "2:9C"), seat=3, trump="S", preset="batak-koz-maca"),
    Play("koz-maca-void-must-spade", "KS 9S 3S AH KH 3H AD KD 4D 5D 3D 2D 2H", "KS 9S 3S",
         (("AH", "must_trump"),), plays=("1:5C", "2:9C"), seat=3, trump="S",
         preset="batak-koz-maca"),
    Play("koz-maca-void-must-overspade", "KS 9S 3S AH KH 3H AD KD 4D 5D 3D 2D 2H", "KS 9S",
         (("3S", "must_trump"), ("AH", "must_trump")),
         plays=("1:5C", "2:7S"), avoid={2: "C"}, seat=3, trump="S", preset="batak-koz-maca"),
    Play("koz-maca-void-any-spade-under", "KS 9S 3S AH KH 3H AD KD 4D 5D 3D 2D 2H",
         "KS 9S 3S", (("AH", "must_trump"),),
         plays=("1:5C", "2:AS"), avoid={2: "C"}, seat=3, trump="S", preset="batak-koz-maca"),
]  # fmt: skip


def play_position(case: Play) -> Deal:
    rules = Rules.preset(case.preset)
    hands = build({case.seat: case.hand}, case.plays, case.avoid)
    if rules.game == "batak":
        deal = to_trump(rules, hands, case.declarer)
        deal.act(case.trump)
    else:  # Koz Maça: everyone calls 2 from seat 1, which then leads
        deal = Deal(rules, hands=hands, dealer=0)
        while deal.phase == "call":
            deal.act(2)
    assert deal.phase == "play" and deal.to_act == 1
    for play in case.plays:
        assert deal.to_act == int(play[0]), f"seat {deal.to_act} is to play, not {play}"
        deal.act(play[2:])
    assert deal.to_act == case.seat
    return deal


@pytest.mark.parametrize("case", PLAYS, ids=[c.id for c in PLAYS])
def test_play_rules(case: Play) -> None:
    deal = play_position(case)
    assert set(deal.legal()) == expand(case.legal)
    assert set(deal.observation(case.seat).legal) == expand(case.legal)
    for card, rule in case.refused:
        assert card in deal.hand(case.seat)
        refuse(deal, card, rule)
    held = set(deal.hand(case.seat))
    for card in sorted(set(DECK) - held)[:5]:
        refuse(deal, card, "hold_card")
    refuse(deal, "ZZ", "card")
    refuse(deal, 5, None)
    refuse(deal, "pass", None)
    for card in sorted(expand(case.legal)):  # every legal card is accepted
        copy = deal.copy()
        copy.act(card)
        assert card not in copy.hand(case.seat)


def test_trump_broken_by_a_discard_to_an_earlier_trick() -> None:
    # seat 2 is void in clubs and must trump seat 1's club: trumps may be led from then on
    deal = play_position(PLAYS[2])
    assert deal.history[-1][2] == 2  # the trump won the trick
    assert deal.trump_played


# ====================================================================== §3 scoring
@pytest.mark.parametrize(
    ("bid", "tricks", "declarer", "expected"),
    [
        (5, [3, 5, 4, 1], 1, [3, 5, 4, 1]),
        (5, [3, 4, 5, 1], 1, [3, -5, 5, 1]),
        (7, [0, 7, 6, 0], 1, [-7, 7, 6, -7]),
        (7, [0, 6, 7, 0], 1, [-7, -7, 7, -7]),
        (13, [0, 13, 0, 0], 1, [-13, 13, -13, -13]),
        (4, [9, 1, 1, 2], 0, [4, 1, 1, 2]),
        (4, [3, 4, 3, 3], 0, [-4, 4, 3, 3]),
    ],
)
def test_batak_scores_table(
    bid: int, tricks: list[int], declarer: int, expected: list[int]
) -> None:
    deal = Deal(IHALE, hands=ROUND, dealer=0)
    deal.contract, deal.declarer, deal.tricks = bid, declarer, tricks
    assert SPECS["batak"].scorer(deal) == [Points.whole(v) for v in expected]
    tenfold = Deal(IHALE.replace(score_multiplier=10), hands=ROUND, dealer=0)
    tenfold.contract, tenfold.declarer, tenfold.tricks = bid, declarer, tricks
    assert SPECS["batak"].scorer(tenfold) == [Points.whole(10 * v) for v in expected]


def play_random(deal: Deal, rng: random.Random, actions: dict[str, Any] | None = None) -> Deal:
    """Finish ``deal`` with random legal actions (``actions`` fixes some phases' choices)."""
    for _ in range(200):
        if deal.over:
            return deal
        if actions and deal.phase in actions:
            deal.act(actions[deal.phase])
        else:
            deal.act(rng.choice(deal.legal()))
    raise AssertionError("a deal took more than 200 actions")


@pytest.mark.parametrize("k", [0, 3, 5, 6, 13])
def test_batak_whole_deal_scores(k: int) -> None:
    # seat 1 (declarer at 5, spades trump) holds the top k spades and low hearts: it wins
    # exactly k tricks whatever legal cards are chosen; seat 3 the rest; seats 0, 2 none
    hands = split_hands(1, 3, k)
    for seed in range(3):
        deal = to_trump(IHALE, hands, 1)
        deal.act("S")
        play_random(deal, random.Random(seed))
        assert deal.phase == "over" and deal.to_act is None and deal.legal() == []
        assert deal.tricks == [0, k, 0, 13 - k]
        declarer = 5 if k >= 5 else -5
        other = 13 - k if k < 13 else -5
        assert deal.points == [Points.whole(v) for v in (-5, declarer, -5, other)]
        assert len(deal.history) == 13
        refuse(deal, "pass", "phase")
        refuse(deal, "AS", "phase")


def test_forced_dealer_scores_plus_or_minus_4() -> None:
    hands = split_hands(0, 2, 4)  # the dealer, seat 0, wins exactly 4
    deal = Deal(IHALE, hands=hands, dealer=0)
    bid_round(deal, ["pass", "pass", "pass"])
    deal.act("S")
    assert deal.to_act == 0  # the forced dealer leads
    play_random(deal, random.Random(1))
    assert deal.points == [Points.whole(v) for v in (4, -4, 9, -4)]


def test_batak_match_is_10_deals_and_totals_add_up() -> None:
    rng = random.Random(5)
    match = Match(IHALE, seed=11)
    while not match.over:
        match.act(rng.choice(match.legal()))
    assert len(match.scored_deals) == 10
    for seat in range(4):
        assert match.totals[seat] == sum(
            (e.deal.points[seat] for e in match.scored_deals if e.deal.points), Points(0)
        )
    dealers = [e.deal.dealer for e in match.scored_deals]
    assert dealers == [(dealers[0] + i) % 4 for i in range(10)]
    best = max(match.totals)
    assert all(match.totals[s] == best for s in match.winners)


def test_batak_match_from_decks() -> None:
    decks = [deck_for(ROUND, d) for d in (2, 3)]
    match = Match(IHALE, seed=1, dealer=2, decks=decks)
    assert match.deal.dealt == Deal(IHALE, hands=ROUND, dealer=2).dealt
    rng = random.Random(0)
    while match.deal_number == 1:
        match.act(rng.choice(match.legal()))
    assert match.deal.dealer == 3
    assert match.deal.dealt == Deal(IHALE, hands=ROUND, dealer=3).dealt


# ====================================================================== §4 Batak Koz Maça
def test_koz_maca_shape() -> None:
    assert KOZ.game == "callbreak"
    assert KOZ.trump_suit == 0
    assert KOZ.spades_broken and KOZ.must_trump == "always" and KOZ.must_overtake
    assert KOZ.overtrick_points == Points(0)
    assert KOZ.match_deals == 10 and KOZ.match_end == "deals"


@pytest.mark.parametrize("dealer", range(4))
def test_koz_maca_calls_from_the_seat_after_the_dealer_who_leads(dealer: int) -> None:
    deal = Deal(KOZ, hands=ROUND, dealer=dealer)
    assert deal.phase == "call" and deal.trump == "S"
    order = []
    while deal.phase == "call":
        assert deal.legal() == list(range(1, 14))
        order.append(deal.to_act)
        deal.act(1)  # four calls of 1: never too few (no min_total_calls)
    assert order == [(dealer + 1 + i) % 4 for i in range(4)]
    assert deal.phase == "play"
    assert deal.to_act == deal.leader == (dealer + 1) % 4
    assert deal.trump == "S" and deal.contract is None and deal.bids == []


@pytest.mark.parametrize(("action", "rule"), [(0, "min_call"), (14, "max_call"), ("pass", None)])
def test_koz_maca_bad_calls(action: Any, rule: str | None) -> None:
    deal = Deal(KOZ, hands=ROUND, dealer=0)
    refuse(deal, action, rule)


KOZ_SCORES = [
    # (options, call, won, points)
    ({}, 5, 5, 5),
    ({}, 5, 9, 5),
    ({}, 5, 4, -5),
    ({}, 13, 13, 13),
    ({}, 1, 0, -1),
    ({"success_window": "call_to_call_plus:3", "score_multiplier": 10}, 5, 5, 50),
    ({"success_window": "call_to_call_plus:3", "score_multiplier": 10}, 5, 8, 50),
    ({"success_window": "call_to_call_plus:3", "score_multiplier": 10}, 5, 9, -50),
    ({"success_window": "call_to_call_plus:3", "score_multiplier": 10}, 5, 4, -50),
    ({"success_window": "call_to_call_plus:3", "score_multiplier": 10}, 10, 13, 100),
]


@pytest.mark.parametrize(("options", "call", "won", "points"), KOZ_SCORES)
def test_koz_maca_score_table(options: dict[str, Any], call: int, won: int, points: int) -> None:
    assert KOZ.replace(**options).score(call, won) == Points.whole(points)


@pytest.mark.parametrize("k", [2, 5, 9, 13])
@pytest.mark.parametrize("app", [False, True])
def test_koz_maca_whole_deal_scores(k: int, app: bool) -> None:
    rules = KOZ.replace(success_window="call_to_call_plus:3", score_multiplier=10) if app else KOZ
    hands = split_hands(1, 3, k)  # seat 1 wins exactly k tricks, seat 3 the rest
    calls = {1: 5, 2: 1, 3: 4, 0: 1}
    deal = Deal(rules, hands=hands, dealer=0)
    while deal.phase == "call":
        assert deal.to_act is not None
        deal.act(calls[deal.to_act])
    play_random(deal, random.Random(k))
    assert deal.tricks == [0, k, 0, 13 - k]
    assert deal.points == [rules.score(calls[s], deal.tricks[s]) for s in range(4)]
    points = deal.points
    assert points is not None
    assert points[0] == points[2] == Points.whole(-10 if app else -1)
    if app:
        assert points[1] == Points.whole(50 if 5 <= k <= 8 else -50)
    else:
        assert points[1] == Points.whole(5 if k >= 5 else -5)
    assert all(p.tenths % 10 == 0 for p in points)  # no tenths in Koz Maça


def test_koz_maca_match_is_10_deals() -> None:
    rules = KOZ.replace(success_window="call_to_call_plus:3", score_multiplier=10)
    rng = random.Random(2)
    match = Match(rules, seed=3)
    while not match.over:
        match.act(rng.choice(match.legal()))
    assert len(match.scored_deals) == 10
    assert all(p.tenths % 100 == 0 for e in match.scored_deals for p in e.deal.points or [])
    for seat in range(4):
        assert match.totals[seat] == sum(
            (e.deal.points[seat] for e in match.scored_deals if e.deal.points), Points(0)
        )


def test_forced_bid_none_takes_the_dealer_at_min_bid() -> None:
    deal = Deal(IHALE.replace(forced_bid=None, min_bid=6), hands=ROUND, dealer=3)
    assert deal.legal() == [*range(6, 14), "pass"]
    bid_round(deal, ["pass", "pass", "pass"])
    assert (deal.declarer, deal.contract, deal.to_act) == (3, 6, 3)


@pytest.mark.parametrize("phase", ["auction", "trump", "play"])
def test_a_copy_is_independent_in_every_phase(phase: str) -> None:
    deal = Deal(IHALE, hands=ROUND, dealer=0)
    rng = random.Random(0)
    while deal.phase != phase:
        deal.act(rng.choice(deal.legal()))
    before = state(deal)
    copy = deal.copy()
    play_random(copy, random.Random(1))
    assert copy.over
    assert state(deal) == before
