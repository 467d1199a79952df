"""Snarples (docs/rules/snarples.md): table tests for every rule, from given decks.

Each position is dealt from a whole deck in dealing order (``Deal(rules, deck=...)``), built
by ``deck_for`` from the hands wanted, so the dealing itself is checked on every test.  Every
refused action must raise ``IllegalAction`` naming a rule and leave the deal, observations
included, exactly as it was.  The match rules (out at 33, the end at 0, spade out) are checked
on scripted matches where a script can reach them and on seeded random matches otherwise.
"""

from __future__ import annotations

import random

import pytest

from callbreak import Deal, IllegalAction, Match, Points, Rules
from callbreak.engine.games import Context
from helpers import act_all, refuse

SNARPLES = Rules.preset("snarples")
DECK = [r + s for s in "SHDC" for r in "AKQJT98765432"]


def deck_for(hands: dict[int, list[str]], dealer: int, players: int) -> list[str]:
    """The deck, top first, that deals ``hands`` (seat → 5 cards): one card at a time from the
    seat after the dealer, round the seats dealt in; the rest of the pack after them."""
    seats = [(dealer + 1 + i) % players for i in range(players)]
    seats = [s for s in seats if s in hands]
    dealt = [hands[seats[i % len(seats)]][i // len(seats)] for i in range(5 * len(seats))]
    return dealt + [c for c in DECK if c not in dealt]


def scores(*values: int) -> tuple[Points, ...]:
    return tuple(Points.whole(v) for v in values)


# Three players, dealer 0: seat 1 speaks first and, as the bidder, leads.
HANDS = {
    1: ["AH", "KH", "QH", "2C", "3C"],
    2: ["AC", "KC", "2D", "3D", "4D"],
    0: ["4C", "5C", "6C", "2S", "3S"],
}
THREE = SNARPLES.replace(players=3)


def three(context: Context | None = None) -> Deal:
    return Deal(THREE, deck=deck_for(HANDS, 0, 3), dealer=0, context=context)


# The play with hearts trump and everyone in: seat 1 takes three hearts tricks, seat 2 the
# last two (AC, then the 2D nobody can follow), seat 0 none.
PLAY = ["AH", "4D", "4C", "KH", "3D", "5C", "QH", "KC", "6C", "2C", "AC", "2S", "2D", "3S", "3C"]


# ------------------------------------------------------------------ dealing
def test_five_cards_each_from_the_seat_after_the_dealer_the_rest_out_of_play() -> None:
    rules = SNARPLES.replace(players=5)
    deal = Deal(rules, deck=DECK, dealer=2)
    for k in range(5):
        seat = (3 + k) % 5
        assert sorted(deal.hand(seat)) == sorted(DECK[k:25:5])
    assert deal.dealt_in == deal.active == (0, 1, 2, 3, 4)
    assert [deal.deck.names[c] for c in deal.stock] == DECK[25:]
    assert deal.phase == "auction" and deal.to_act == 3
    assert deal.upcard is None
    for seat in range(5):
        obs = deal.observation(seat)
        assert list(obs.hand) == deal.hand(seat) and obs.stock_size == 27


def test_the_given_hands_are_dealt_exactly() -> None:
    deal = three()
    for seat, hand in HANDS.items():
        assert sorted(deal.hand(seat)) == sorted(hand)


def test_seats_out_of_the_game_are_not_dealt_in_and_never_act() -> None:
    rules = SNARPLES.replace(players=4)
    context = Context(scores(10, 33, 12, 14), frozenset({1}), (0, 0, 0, 0))
    deal = Deal(rules, deck=DECK, dealer=0, context=context)
    assert deal.dealt_in == deal.active == (0, 2, 3)
    assert deal.hands[1] == 0 and deal.dealt[1] == 0
    # the first card goes to seat 2, the first still in after the dealer; seat 1 is skipped
    assert "AS" in deal.hand(2) and deal.to_act == 2
    seen = []
    while deal.phase == "auction":
        seen.append(deal.to_act)
        deal.act("pass")
    assert seen == [2, 3, 0] and deal.phase == "void"
    with pytest.raises(ValueError, match="out of the game"):
        Deal(rules, deck=DECK, dealer=1, context=context)


# ------------------------------------------------------------------ the bids
def test_one_round_of_bids_each_higher_than_any_before() -> None:
    rules = SNARPLES.replace(players=4)
    deal = Deal(rules, deck=DECK, dealer=3)
    assert deal.to_act == 0 and deal.legal() == [1, 2, 3, 4, 5, "pass"]
    for bad in (0, 6, -1, "X", True, None, 2.5, "AS"):
        refuse(deal, bad, "auction")
    deal.act(2)
    assert deal.to_act == 1 and deal.legal() == [3, 4, 5, "pass"]
    refuse(deal, 2, "auction")
    refuse(deal, 1, "auction")
    deal.act("3")  # digits are read as a bid
    deal.act("pass")
    assert deal.to_act == 3 and deal.legal() == [4, 5, "pass"]
    deal.act("pass")
    # each seat spoke once: no second round for seat 0, outbid; the highest bidder names trump
    assert deal.phase == "trump" and deal.to_act == 1
    assert deal.declarer == 1 and deal.contract == 3 and deal.chooser == 1
    assert deal.bids == [(0, 2), (1, 3), (2, "pass"), (3, "pass")]


def test_after_a_bid_of_five_only_pass_is_left() -> None:
    deal = Deal(SNARPLES, deck=DECK, dealer=0)
    deal.act(5)
    assert deal.legal() == ["pass"]
    refuse(deal, 5, "auction")
    act_all(deal, ["pass", "pass", "pass"])
    assert deal.declarer == 1 and deal.contract == 5


def test_all_pass_voids_the_deal_and_the_same_dealer_deals_again() -> None:
    deal = Deal(SNARPLES, deck=DECK, dealer=2)
    act_all(deal, ["pass"] * 4)
    assert deal.phase == "void" and deal.void_reason and deal.legal() == []
    assert deal.points == [Points(0)] * 4
    refuse(deal, "pass", "phase")
    other = list(reversed(DECK))
    match = Match(SNARPLES, seed=1, dealer=2, decks=[DECK, other])
    for _ in range(4):
        match.act("pass")
    assert match.deal.dealer == 2 and match.deal_number == 1 and len(match.entries) == 1
    assert match.totals == [Points.whole(16)] * 4
    assert sorted(match.deal.hand(3)) == sorted(other[0:20:4])


def test_the_bidder_names_any_trump() -> None:
    deal = three()
    act_all(deal, [3, "pass", "pass"])
    assert deal.phase == "trump" and deal.to_act == 1 and deal.legal() == ["S", "H", "D", "C"]
    for bad in ("X", "", 1, True, "in", "AS"):
        refuse(deal, bad, "trump")
    deal.act("h")
    assert deal.trump == "H" and deal.log[-1] == ("trump", 1, "H")


# ------------------------------------------------------------------ in or out
def test_the_others_say_in_or_out_in_turn_the_bidder_is_not_asked() -> None:
    deal = three()
    act_all(deal, [3, "pass", "pass", "H"])
    assert deal.phase == "drop" and deal.to_act == 2 and deal.legal() == ["in", "out"]
    for bad in (True, "pass", "take", "S"):
        refuse(deal, bad, "drop")
    deal.act("in")
    assert deal.to_act == 0
    deal.act("out")
    assert deal.phase == "play" and deal.dropped == frozenset({0}) and deal.active == (1, 2)


@pytest.mark.parametrize(("bid", "trump"), [(1, "H"), (1, "S"), (3, "S")])
def test_nobody_may_sit_out_after_a_bid_of_one_or_with_spades_trump(bid: int, trump: str) -> None:
    deal = three()
    act_all(deal, [bid, "pass", "pass", trump])
    assert deal.phase == "play" and deal.to_act == 1 and deal.active == (0, 1, 2)
    refuse(deal, "out")


@pytest.mark.parametrize(
    ("runs", "asked"), [((2, 0, 0), [2]), ((1, 0, 2), [0]), ((1, 1, 1), [2, 0])]
)
def test_no_seat_sits_out_more_than_two_deals_in_a_row(
    runs: tuple[int, ...], asked: list[int]
) -> None:
    deal = three(Context(scores(16, 16, 16), frozenset(), runs))
    act_all(deal, [3, "pass", "pass", "H"])
    seen = []
    while deal.phase == "drop":
        seen.append(deal.to_act)
        deal.act("out" if len(seen) < len(asked) else "in")
    assert seen == asked and deal.phase == "play"


def test_sitting_out_costs_one_at_a_score_of_three_or_less() -> None:
    # seat 0 sits out at 3 (+1), seat 2 plays
    deal = three(Context(scores(3, 10, 4), frozenset(), (0, 0, 0)))
    act_all(deal, [3, "pass", "pass", "H", "in", "out"])
    act_all(deal, [c for c in PLAY if c not in HANDS[0]])
    assert deal.points is not None and deal.points[0] == Points.whole(1)
    deal = three(Context(scores(4, 10, 3), frozenset(), (0, 0, 0)))
    act_all(deal, [3, "pass", "pass", "H", "in", "out"])
    act_all(deal, [c for c in PLAY if c not in HANDS[0]])
    assert deal.points is not None and deal.points[0] == Points(0)


@pytest.mark.parametrize(
    ("choice", "score_0", "points"),
    [("take", 16, [0, -5, 0]), ("give", 16, [5, 0, 5]), ("take", 2, [1, -5, 0]),
     ("give", 2, [6, 0, 5])],
)  # fmt: skip
def test_everyone_else_sits_out_the_bidder_takes_or_gives(
    choice: str, score_0: int, points: list[int]
) -> None:
    deal = three(Context(scores(score_0, 16, 16), frozenset(), (0, 0, 0)))
    act_all(deal, [2, "pass", "pass", "D", "out", "out"])
    assert deal.phase == "settle" and deal.to_act == 1 and deal.legal() == ["take", "give"]
    for bad in ("in", "out", True, "AH", 5):
        refuse(deal, bad, "settle")
    deal.act(choice)
    assert deal.phase == "over" and deal.settled == choice and deal.unplayed
    assert deal.history == [] and deal.points == [Points.whole(p) for p in points]


def test_a_give_passes_over_seats_out_of_the_game() -> None:
    rules = SNARPLES.replace(players=4)
    context = Context(scores(10, 10, 40, 10), frozenset({2}), (0, 0, 0, 0))
    deal = Deal(rules, deck=DECK, dealer=0, context=context)
    act_all(deal, [2, "pass", "pass", "C", "out", "out"])  # bidder seat 1; seats 3, 0 out
    deal.act("give")
    assert deal.points == [Points.whole(p) for p in (5, 0, 0, 5)]


# ------------------------------------------------------------------ the play
def test_the_bidder_leads_and_follow_suit_else_any_card() -> None:
    deal = three()
    act_all(deal, [2, 3, "pass", "H", "in"])  # seat 2 bids 3 over seat 1's 2; seat 0 asked
    assert deal.declarer == 2 and deal.dropped == frozenset()
    deal.act("in")
    assert deal.phase == "play" and deal.to_act == 2 and deal.leader == 2
    deal.act("4D")
    # seat 0 holds no diamond: any card, a spade or a club (no obligation to trump)
    assert set(deal.legal()) == set(HANDS[0])
    deal.act("4C")
    assert set(deal.legal()) == set(HANDS[1])
    deal.act("2C")
    leader, cards, winner = deal.history[-1]
    assert (leader, [deal.deck.names[c] for c in cards], winner) == (2, ["4D", "4C", "2C"], 2)
    deal.act("KC")  # seat 2, the winner, leads clubs
    assert set(deal.legal()) == {"5C", "6C"}
    error = refuse(deal, "2S")
    assert "2S is not allowed" in str(error)
    refuse(deal, "AH")  # not its card


def test_made_bid_goes_down_by_its_tricks_others_minus_one_each_or_plus_five() -> None:
    deal = three()
    act_all(deal, [3, "pass", "pass", "H", "in", "in"])
    steps = iter(PLAY)
    refused = False
    for card in steps:
        if card == "AC" and not refused:
            # seat 2 holds AC and 2D with 2C led: it must follow clubs
            refuse(deal, "2D")
            refused = True
        deal.act(card)
    assert deal.phase == "over" and deal.tricks == [0, 3, 2]
    assert deal.points == [Points.whole(p) for p in (5, -3, -2)]


def test_a_failed_bid_is_punted_plus_five() -> None:
    deal = three()
    act_all(deal, [4, "pass", "pass", "H", "in", "in", *PLAY])
    assert deal.tricks == [0, 3, 2] and deal.points == [Points.whole(p) for p in (5, 5, -2)]


def test_a_seat_that_sat_out_plays_no_card_and_scores_nothing_above_three() -> None:
    deal = three()
    act_all(deal, [3, "pass", "pass", "H", "in", "out"])
    play = [c for c in PLAY if c not in HANDS[0]]
    for card in play:
        assert deal.to_act != 0
        deal.act(card)
    assert all(len(cards) == 2 for _, cards, _ in deal.history)
    assert deal.hands[0] == deal.dealt[0] and deal.tricks == [0, 3, 2]
    assert deal.points == [Points(0), Points.whole(-3), Points.whole(-2)]


# ------------------------------------------------------------------ the match
def spade_out_deck() -> list[str]:
    hands = {1: ["AS", "KS", "QS", "JS", "TS"], 2: ["AH", "KH", "QH", "JH", "TH"],
             0: ["AD", "KD", "QD", "JD", "TD"]}  # fmt: skip
    return deck_for(hands, 0, 3)


def test_spade_out_wins_the_game_at_once() -> None:
    match = Match(THREE, seed=3, dealer=0, decks=[spade_out_deck()])
    for action in (5, "pass", "pass", "S"):
        match.act(action)
    assert match.phase == "play"  # spades: nobody may sit out
    while not match.over:
        match.act(match.legal()[0])
    assert match.winners == [1] and len(match.scored_deals) == 1
    assert match.totals == [Points.whole(t) for t in (21, 11, 21)]
    with pytest.raises(IllegalAction):
        match.act("pass")


def test_winning_every_trick_with_another_trump_is_no_spade_out() -> None:
    hands = {1: ["AH", "KH", "QH", "JH", "TH"], 2: ["AS", "KS", "QS", "JS", "TS"],
             0: ["AD", "KD", "QD", "JD", "TD"]}  # fmt: skip
    match = Match(THREE, seed=3, dealer=0, decks=[deck_for(hands, 0, 3)])
    for action in (5, "pass", "pass", "H", "in", "in"):
        match.act(action)
    while match.deal_number == 1:
        match.act(match.legal()[0])
    assert not match.over and match.totals == [Points.whole(t) for t in (21, 11, 21)]


def random_match(players: int, seed: int) -> Match:
    match = Match(SNARPLES.replace(players=players), seed=seed)
    rng = random.Random(seed)
    while not match.over:
        match.act(rng.choice(match.legal()))
    return match


@pytest.mark.parametrize(("players", "seed"), [(3, 1), (5, 2), (7, 0), (8, 4)])
def test_out_at_33_the_end_at_zero_and_the_lowest_wins(players: int, seed: int) -> None:
    match = random_match(players, seed)
    out: set[int] = set()
    scored = match.scored_deals
    for number, entry in enumerate(scored, 1):
        deal = entry.deal
        assert set(deal.dealt_in) == set(range(players)) - out
        assert deal.dealer not in out
        assert all(deal.dealt[s] == 0 for s in out)
        assert deal.context.out == frozenset(out)
        out |= {s for s in range(players) if entry.totals[s] >= Points.whole(33)}
        in_game = [s for s in range(players) if s not in out]
        ended = (
            any(entry.totals[s] <= Points(0) for s in in_game)
            or len(in_game) <= 1
            or (deal.trump == "S" and 5 in [deal.tricks[s] for s in deal.active])
        )
        assert ended == (number == len(scored)), number
    assert match.out == out
    last = scored[-1].deal
    spade_out = last.trump == "S" and 5 in [last.tricks[s] for s in last.active]
    if not spade_out:
        low = min(match.totals)
        assert match.winners == [s for s in range(players) if match.totals[s] == low]


def test_some_random_match_puts_a_seat_out_and_one_ends_at_zero() -> None:
    """The seeds above do reach the rules they check (a seed that stops doing so fails)."""
    matches = [random_match(p, s) for p, s in [(3, 1), (5, 2), (7, 0), (8, 4)]]
    assert any(m.out for m in matches)
    assert any(min(m.totals) <= Points(0) for m in matches)


def test_a_match_tells_each_deal_its_scores_and_sit_out_runs() -> None:
    match = random_match(4, 11)
    runs = [0] * 4
    totals = [Points.whole(16)] * 4
    for entry in match.entries:
        deal = entry.deal
        assert deal.context.totals == tuple(totals) and deal.context.sat_out == tuple(runs)
        if deal.phase == "over":
            totals = list(entry.totals)
            for seat in deal.dealt_in:
                runs[seat] = runs[seat] + 1 if seat in deal.dropped else 0
        assert max(runs) <= 2
