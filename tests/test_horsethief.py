"""Horsethief (docs/rules/horsethief.md): table tests for every rule, from given decks.

``deck_for`` lays out the hands, the turned-up card after them and the top of the stock, so
every test checks the dealing too.  Every refused action must raise ``IllegalAction`` naming a
rule and change nothing.  The race to 15 is checked on seeded random matches, one of them a
tie at the top (a seed that stops reaching one fails the test).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

import pytest

from callbreak import Deal, Match, Points, Rules
from helpers import act_all, refuse

HORSETHIEF = Rules.preset("horsethief")
THREE = HORSETHIEF.replace(players=3)
DECK = [r + s for s in "SHDC" for r in "AKQJT98765432"]

HANDS = {
    1: ["AS", "KS", "QS", "JS", "TS"],
    2: ["AH", "KH", "QH", "JH", "TH"],
    0: ["AD", "KD", "QD", "JD", "TD"],
}
STOCK_TOP = ["9S", "9H", "9D", "8S", "8H", "8D", "7S"]


def deck_for(
    hands: dict[int, list[str]], dealer: int, players: int, upcard: str, stock: Sequence[str] = ()
) -> list[str]:
    """The deck, top first: the hands one card at a time from the seat after the dealer, the
    turned-up card, then the stock (``stock`` on top, the rest of the pack under it)."""
    seats = [(dealer + 1 + i) % players for i in range(players)]
    dealt = [hands[seats[i % players]][i // players] for i in range(5 * players)]
    used = {*dealt, upcard, *stock}
    return [*dealt, upcard, *stock, *(c for c in DECK if c not in used)]


def three(upcard: str = "2H", dealer: int = 0) -> Deal:
    return Deal(THREE, deck=deck_for(HANDS, dealer, 3, upcard, STOCK_TOP), dealer=dealer)


def names(deal: Deal, cards: Sequence[int]) -> list[str]:
    return [deal.deck.names[c] for c in cards]


# ------------------------------------------------------------------ dealing
@pytest.mark.parametrize(("players", "dealer"), [(3, 0), (4, 2), (5, 4)])
def test_five_each_then_the_turned_up_trump_then_the_stock(players: int, dealer: int) -> None:
    deal = Deal(HORSETHIEF.replace(players=players), deck=DECK, dealer=dealer)
    for k in range(players):
        seat = (dealer + 1 + k) % players
        assert sorted(deal.hand(seat)) == sorted(DECK[k : 5 * players : players])
    up = DECK[5 * players]
    assert deal.deck.names[deal.upcard or 0] == up and deal.trump == up[1]
    assert names(deal, deal.stock) == DECK[5 * players + 1 :]
    assert all(up not in deal.hand(s) for s in range(players))
    for seat in range(players):
        obs = deal.observation(seat)
        assert obs.upcard == up and obs.trump == up[1] and obs.stock_size == 51 - 5 * players


# ------------------------------------------------------------------ in or out
def test_in_or_out_from_the_seat_after_the_dealer_everyone_asked() -> None:
    deal = three()
    assert deal.phase == "drop" and deal.to_act == 1 and deal.legal() == ["in", "out"]
    for bad in ("pass", True, "AS", "done"):
        refuse(deal, bad, "drop")
    asked = []
    while deal.phase == "drop":
        asked.append(deal.to_act)
        deal.act("in")
    assert asked == [1, 2, 0] and deal.phase == "exchange"


def test_clubs_trump_everyone_stays_in() -> None:
    deal = three("2C")
    assert deal.trump == "C" and deal.phase == "exchange" and deal.to_act == 1
    refuse(deal, "out", "card")
    assert deal.dropped == frozenset()


@pytest.mark.parametrize(("answers", "last"), [(["out", "out"], 0), (["out", "in", "out"], 2)])
def test_all_but_one_drop_the_last_scores_five_unplayed(answers: list[str], last: int) -> None:
    deal = three()
    act_all(deal, answers)
    assert deal.phase == "over" and deal.unplayed and deal.history == []
    assert deal.points == [Points.whole(5 if s == last else 0) for s in range(3)]
    assert names(deal, deal.stock[:7]) == STOCK_TOP  # nobody drew


# ------------------------------------------------------------------ exchange
def test_exchange_one_card_at_a_time_then_draw_as_many_from_the_top() -> None:
    deal = three()
    act_all(deal, ["in", "in", "in"])
    assert deal.phase == "exchange" and deal.to_act == 1
    assert deal.legal() == [*deal.hand(1), "done"]
    refuse(deal, "AH", "hold_card")  # seat 2's card
    refuse(deal, "in")
    deal.act("TS")
    assert "TS" not in deal.hand(1) and deal.to_act == 1 and len(deal.hand(1)) == 4
    deal.act("JS")
    deal.act("done")
    assert sorted(deal.hand(1)) == sorted(["AS", "KS", "QS", "9S", "9H"])
    assert deal.exchanges == [(1, 2)] and deal.to_act == 2
    assert names(deal, deal.stock[:2]) == ["9D", "8S"]
    deal.act("done")  # seat 2 keeps its hand
    assert deal.exchanges == [(1, 2), (2, 0)] and deal.to_act == 0
    act_all(deal, ["AD", "KD", "QD", "JD"])
    assert deal.to_act == 0 and deal.phase == "exchange"
    deal.act("TD")  # the fifth discard: the draw is automatic
    assert sorted(deal.hand(0)) == sorted(["9D", "8S", "8H", "8D", "7S"])
    assert deal.exchanges == [(1, 2), (2, 0), (0, 5)]
    assert sorted(deal.names_of(deal.discards)) == sorted(
        ["TS", "JS", "AD", "KD", "QD", "JD", "TD"]
    )
    assert deal.phase == "play" and deal.to_act == 1
    assert deal.upcard is not None and not any(h >> deal.upcard & 1 for h in deal.hands)
    # the exchanges are public by count, the cards are not
    obs = deal.observation(2).to_dict()
    assert obs["exchanges"] == [[1, 2], [2, 0], [0, 5]] and obs["discards"] is None
    assert "TS" not in json.dumps(obs)


def test_dropped_seats_do_not_exchange_and_the_first_seat_in_after_the_dealer_leads() -> None:
    deal = three(dealer=0)
    act_all(deal, ["out", "in", "in"])  # seat 1 (after the dealer) drops
    assert deal.phase == "exchange" and deal.to_act == 2
    act_all(deal, ["done", "done"])
    assert deal.phase == "play" and deal.active == (0, 2) and deal.to_act == 2


# ------------------------------------------------------------------ the play
def test_follow_suit_else_any_card_and_the_scores() -> None:
    deal = three()  # hearts trump: seat 2 holds every heart
    act_all(deal, ["in", "in", "in", "done", "done", "done"])
    deal.act("AS")
    assert deal.legal() == deal.hand(2)  # no spade: any card
    deal.act("TH")
    assert deal.legal() == deal.hand(0)
    deal.act("AD")
    assert deal.history[0][2] == 2  # the trump wins
    deal.act("AH")
    refuse(deal, "AD")  # played already: not its card any more
    while deal.phase == "play":
        deal.act(deal.legal()[0])
    assert deal.tricks == [0, 0, 5]
    # +1 a trick; a seat in with no trick −5
    assert deal.points == [Points.whole(p) for p in (-5, -5, 5)]


def test_a_dropped_seat_plays_no_card_and_scores_nothing() -> None:
    deal = three()
    act_all(deal, ["in", "in", "out", "done", "done"])
    assert deal.active == (1, 2)
    while deal.phase == "play":
        assert deal.to_act in (1, 2)
        deal.act(deal.legal()[0])
    assert all(len(cards) == 2 for _, cards, _ in deal.history)
    assert deal.hands[0] == deal.dealt[0]
    assert deal.points == [Points(0), Points.whole(-5), Points.whole(5)]


# ------------------------------------------------------------------ the match
def random_match(players: int, seed: int) -> Match:
    match = Match(HORSETHIEF.replace(players=players), seed=seed)
    rng = random.Random(seed)
    while not match.over:
        match.act(rng.choice(match.legal()))
    return match


@pytest.mark.parametrize(("players", "seed"), [(3, 127), (4, 159), (5, 306), (3, 1), (4, 2)])
def test_first_to_fifteen_the_highest_wins_ties_shared(players: int, seed: int) -> None:
    match = random_match(players, seed)
    scored = match.scored_deals
    for number, entry in enumerate(scored, 1):
        assert any(t >= Points.whole(15) for t in entry.totals) == (number == len(scored))
    high = max(match.totals)
    assert match.winners == [s for s in range(players) if match.totals[s] == high]
    for seat in range(players):
        points = [e.deal.points[seat] for e in scored if e.deal.points is not None]
        assert sum(points, Points(0)) == match.totals[seat]


def test_the_seeds_above_reach_a_tie_at_the_top() -> None:
    assert all(len(random_match(p, s).winners) == 2 for p, s in [(3, 127), (4, 159), (5, 306)])


def test_a_finished_deal_refuses_actions() -> None:
    deal = three()
    act_all(deal, ["out", "out"])
    refuse(deal, "in", "phase")
