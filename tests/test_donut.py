"""Donut (docs/rules/donut.md): table tests for every rule, from given decks.

The dealer's fifth card, the last card of the hands, lies face up and its rank decides the
deal; ``deck_for`` builds a deck whose dealer's fifth card is the rank under test.  Every
refused action must raise ``IllegalAction`` naming a rule and change nothing.  The end of the
match and the draw among seats tied lowest are checked on seeded random matches, chosen so
that ties do happen (a seed that stops reaching one fails the test).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from callbreak import Deal, IllegalAction, Match, Points, Rules
from callbreak.engine.games import Context
from helpers import act_all, refuse

DONUT = Rules.preset("donut")
DECK = [r + s for s in "SHDC" for r in "AKQJT98765432"]


def deck_for(hands: dict[int, list[str]], dealer: int, players: int) -> list[str]:
    """The deck, top first, that deals ``hands`` one card at a time from the seat after the
    dealer; the dealer's fifth card (``hands[dealer][4]``) is the last card of the hands."""
    seats = [(dealer + 1 + i) % players for i in range(players)]
    dealt = [hands[seats[i % players]][i // players] for i in range(5 * players)]
    return dealt + [c for c in DECK if c not in dealt]


def hands_with(upcard: str) -> dict[int, list[str]]:
    """Four hands, dealer 0: seat 1 all high spades, 2 hearts, 3 diamonds; the dealer a low
    card of each of those suits and two clubs, its fifth (face-up) card being ``upcard``."""
    filler = "KC" if upcard == "AC" else "AC"
    return {
        1: ["AS", "KS", "QS", "JS", "TS"],
        2: ["AH", "KH", "QH", "JH", "TH"],
        3: ["AD", "KD", "QD", "JD", "TD"],
        0: ["2S", "2H", "2D", filler, upcard],
    }


def deal_with(upcard: str, context: Context | None = None) -> Deal:
    return Deal(DONUT, deck=deck_for(hands_with(upcard), 0, 4), dealer=0, context=context)


def scores(*values: int) -> tuple[Points, ...]:
    return tuple(Points.whole(v) for v in values)


def names(deal: Deal, cards: Sequence[int]) -> list[str]:
    return [deal.deck.names[c] for c in cards]


# ------------------------------------------------------------------ dealing
@pytest.mark.parametrize(("players", "dealer"), [(4, 0), (5, 3), (6, 5)])
def test_five_each_the_dealers_fifth_card_face_up_the_rest_out_of_play(
    players: int, dealer: int
) -> None:
    deal = Deal(DONUT.replace(players=players), deck=DECK, dealer=dealer)
    for k in range(players):
        seat = (dealer + 1 + k) % players
        assert sorted(deal.hand(seat)) == sorted(DECK[k : 5 * players : players])
    up = DECK[5 * players - 1]
    assert deal.deck.names[deal.upcard or 0] == up and up in deal.hand(dealer)
    assert names(deal, deal.stock) == DECK[5 * players :]
    for seat in range(players):
        obs = deal.observation(seat)
        assert obs.upcard == up and list(obs.hand) == deal.hand(seat)  # public, face up


def test_the_face_up_card_stays_in_the_dealers_hand_and_is_played() -> None:
    deal = deal_with("7C")
    act_all(deal, ["in", "in", "in"])
    act_all(deal, ["AS", "AH", "AD", "2S", "KS", "KH", "KD"])
    assert "7C" in deal.legal()
    deal.act("7C")  # out of spades, the dealer trumps with its face-up card
    assert deal.history[1][2] == 0


# ------------------------------------------------------------- the upcard's rank
@pytest.mark.parametrize("rank", list("4578JQKA"))
def test_other_ranks_their_suit_is_trump_and_players_may_drop(rank: str) -> None:
    deal = deal_with(rank + "C")
    assert deal.trump == "C" and not deal.reversed_ranks and deal.may_drop
    assert deal.phase == "drop" and deal.to_act == 1 and deal.legal() == ["in", "out"]
    asked = []
    while deal.phase == "drop":
        asked.append(deal.to_act)
        deal.act("in")
    assert asked == [1, 2, 3] and deal.phase == "play"  # the dealer always plays


def test_a_two_the_dealer_chooses_trump_no_one_drops() -> None:
    deal = deal_with("2C")
    assert deal.phase == "trump" and deal.to_act == 0 and deal.chooser == 0
    assert deal.legal() == ["S", "H", "D", "C"] and not deal.may_drop
    for bad in ("X", "in", 2, True):
        refuse(deal, bad, "trump")
    deal.act("H")
    assert deal.trump == "H" and deal.phase == "play" and deal.to_act == 1
    refuse(deal, "out")


def test_a_three_the_highest_score_chooses_trump_no_one_drops() -> None:
    deal = deal_with("3C", Context(scores(10, 9, 14, 12)))
    assert deal.phase == "trump" and deal.to_act == 2 and deal.chooser == 2
    refuse(deal, "Z", "trump")
    deal.act("D")
    assert deal.trump == "D" and deal.phase == "play" and deal.to_act == 1
    assert deal.log == [("trump", 2, "D")]


@pytest.mark.parametrize(
    "context", [Context(scores(10, 14, 14, 12)), Context(scores(15, 15, 15, 15)), None]
)
def test_a_three_with_the_highest_score_tied_its_suit_is_trump_and_players_may_drop(
    context: Context | None,
) -> None:
    deal = deal_with("3C", context)
    assert deal.trump == "C" and deal.may_drop and deal.phase == "drop" and deal.to_act == 1


def test_a_six_no_trump_and_ranks_reversed() -> None:
    deal = deal_with("6C")
    assert deal.trump is None and deal.reversed_ranks and not deal.may_drop
    assert deal.phase == "play" and deal.to_act == 1
    # the dealer must follow spades with its 2S, which now beats the ace
    act_all(deal, ["AS", "AH", "AD"])
    assert deal.legal() == ["2S"]
    deal.act("2S")
    assert deal.history[0] == (1, deal.history[0][1], 0)
    assert names(deal, deal.history[0][1]) == ["AS", "AH", "AD", "2S"]
    # the dealer leads its 2H: seat 2's hearts are all lower now, from the ten (high) down
    deal.act("2H")
    act_all(deal, ["KS", "KH", "KD"])
    assert deal.history[1][2] == 0
    deal.act("2D")
    act_all(deal, ["QS", "QH", "QD"])  # seat 3 must follow with its queen: the 2D wins
    assert deal.history[2][2] == 0
    assert deal.observation(0).reversed_ranks


def test_reversed_ranks_rank_two_high_and_ace_low_within_a_suit() -> None:
    hands = {
        1: ["AS", "5H", "QD", "JD", "TD"],
        2: ["KS", "4H", "9D", "8D", "7D"],
        3: ["3S", "AH", "KH", "QH", "JH"],
        0: ["2D", "3D", "4D", "5D", "6C"],
    }
    deal = Deal(DONUT, deck=deck_for(hands, 0, 4), dealer=0)
    assert deal.reversed_ranks and deal.phase == "play"
    act_all(deal, ["AS", "KS", "3S", "2D"])  # 3S is the highest spade: seat 3
    assert deal.history[-1][2] == 3
    act_all(deal, ["AH", "3D", "5H", "4H"])  # 4H beats 5H and AH
    assert deal.history[-1][2] == 2
    normal = Deal(DONUT, deck=deck_for({**hands, 0: ["2D", "3D", "4D", "5D", "9C"]}, 0, 4))
    act_all(normal, ["AS", "KS", "3S", "2D"])
    assert not normal.reversed_ranks and normal.history[-1][2] == 1


def test_a_nine_no_trump_normal_ranks_no_one_drops() -> None:
    deal = deal_with("9C")
    assert deal.trump is None and not deal.reversed_ranks and not deal.may_drop
    assert deal.phase == "play" and deal.to_act == 1
    act_all(deal, ["AS", "AH", "AD", "2S"])
    assert deal.history[0][2] == 1


def test_a_ten_its_suit_is_trump_no_one_drops() -> None:
    deal = deal_with("TC")
    assert deal.trump == "C" and not deal.may_drop and deal.phase == "play"
    act_all(deal, ["AS", "AH", "AD"])
    assert deal.legal() == ["2S"]  # follow suit: the dealer may not trump while it holds one


# ------------------------------------------------------------------ drops
def test_everyone_else_drops_the_dealer_scores_minus_three() -> None:
    deal = deal_with("7C")
    for bad in ("pass", True, "take"):
        refuse(deal, bad, "drop")
    act_all(deal, ["out", "out", "out"])
    assert deal.phase == "over" and deal.unplayed and deal.history == []
    assert deal.points == [Points.whole(p) for p in (-3, 0, 0, 0)]


def test_the_seat_after_the_dealer_leads_skipping_dropped_seats() -> None:
    deal = deal_with("7C")
    act_all(deal, ["out", "in", "out"])
    assert deal.phase == "play" and deal.active == (0, 2) and deal.to_act == 2
    assert deal.dropped == frozenset({1, 3})


def test_dropped_seats_play_no_card_and_score_nothing() -> None:
    deal = deal_with("7C")
    act_all(deal, ["in", "out", "out"])
    assert deal.to_act == 1
    play = ["AS", "2S", "KS", "AC", "2H", "QS", "2D", "JS", "7C", "TS"]
    for card in play:
        assert deal.to_act in (0, 1)
        deal.act(card)
    assert deal.tricks == [4, 1, 0, 0] and all(len(c) == 2 for _, c, _ in deal.history)
    assert deal.points == [Points.whole(p) for p in (-4, -1, 0, 0)]


def test_minus_one_a_trick_and_a_donut_plus_three() -> None:
    deal = deal_with("9C")  # no trump: seat 1's spades take every trick
    while deal.phase == "play":
        deal.act(deal.legal()[0])
    assert deal.tricks == [0, 5, 0, 0]
    assert deal.points == [Points.whole(p) for p in (3, -5, 3, 3)]


def test_follow_suit_else_any_card() -> None:
    deal = deal_with("7C")
    act_all(deal, ["in", "in", "in", "KS"])
    assert deal.legal() == deal.hand(2)  # seat 2 holds no spade: any card
    act_all(deal, ["AH", "AD"])
    assert deal.legal() == ["2S"]
    refuse(deal, "AC")
    refuse(deal, "AS")  # not its card


# ------------------------------------------------------------------ the match
def random_match(players: int, seed: int) -> Match:
    match = Match(DONUT.replace(players=players), seed=seed)
    rng = random.Random(seed)
    while not match.over:
        match.act(rng.choice(match.legal()))
    return match


@pytest.mark.parametrize(("players", "seed"), [(4, 35), (5, 117), (6, 144), (4, 1), (5, 2)])
def test_the_end_after_a_deal_at_zero_lowest_wins_a_tie_is_a_draw(players: int, seed: int) -> None:
    match = random_match(players, seed)
    scored = match.scored_deals
    for number, entry in enumerate(scored, 1):
        ended = any(t <= Points(0) for t in entry.totals)
        assert ended == (number == len(scored))
    low = min(match.totals)
    assert match.winners == [s for s in range(players) if match.totals[s] == low]
    start = Points.whole(15)
    for seat in range(players):
        points = [e.deal.points[seat] for e in scored if e.deal.points is not None]
        assert start + sum(points, Points(0)) == match.totals[seat]


def test_the_seeds_above_reach_a_draw() -> None:
    assert all(len(random_match(p, s).winners) == 2 for p, s in [(4, 35), (5, 117), (6, 144)])


def test_the_match_tells_each_deal_the_scores_for_a_three() -> None:
    match = random_match(4, 35)
    totals = [Points.whole(15)] * 4
    for entry in match.entries:
        assert entry.deal.context.totals == tuple(totals)
        totals = list(entry.totals)
    threes = [e.deal for e in match.entries if e.deal.deck.names[e.deal.upcard or 0][0] == "3"]
    for deal in threes:
        top = max(deal.context.totals)
        highest = [s for s in range(4) if deal.context.totals[s] == top]
        if len(highest) == 1:
            assert deal.chooser == highest[0] and not deal.dropped
        else:
            assert deal.trump == deal.deck.names[deal.upcard or 0][1]


def test_a_refused_action_on_a_finished_deal() -> None:
    deal = deal_with("7C")
    act_all(deal, ["out", "out", "out"])
    with pytest.raises(IllegalAction):
        deal.act("in")
