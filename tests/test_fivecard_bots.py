"""The random and heuristic bots in Snarples, Donut and Horsethief
(docs/rules/snarples.md, docs/rules/donut.md, docs/rules/horsethief.md).

Every seat count of every game: whole deals with only legal actions, the
heuristic ahead of random on the same seeded deals with the seats rotated,
whole matches that end with winners, and the policy's main decisions on hands
built for them.
"""

from __future__ import annotations

import statistics
from dataclasses import replace

import pytest

from callbreak import Deal, Match, Rules
from callbreak.bots import Bot, make_bot
from callbreak.cards import CARD_NAMES
from callbreak.decks import REVERSED
from callbreak.engine import Action, Observation
from callbreak.games.snarples import spade_out
from callbreak.points import Points

SEAT_COUNTS = {"snarples": range(3, 9), "donut": range(4, 7), "horsethief": range(3, 6)}
TABLES = [(game, n) for game, counts in SEAT_COUNTS.items() for n in counts]
LOWER_IS_BETTER = {"snarples": True, "donut": True, "horsethief": False}


def rules_for(game: str, players: int = 4) -> Rules:
    return Rules.preset(game).replace(players=players)


def play_out(deal: Deal, bots: list[Bot]) -> int:
    """Play ``deal`` to its end with ``bots``, checking every action is legal; decisions made."""
    decisions = 0
    while deal.to_act is not None:
        seat = deal.to_act
        action = bots[seat].act(deal.observation(seat))
        assert action in deal.legal(), (deal.phase, seat, action, deal.legal())
        deal.act(action)
        decisions += 1
    return decisions


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_random_and_heuristic_play_only_legal_actions(game: str, players: int) -> None:
    rules = rules_for(game, players)
    phases: set[str] = set()
    for number in range(32):
        # Heuristic and random seats mixed, the pattern shifted each deal.
        bots = [
            make_bot("heuristic" if (s + number) % 2 else "random", seed=number * 10 + s)
            for s in range(players)
        ]
        deal = Deal(rules, seed=number, dealer=number % players)
        assert play_out(deal, bots) > 0
        assert deal.phase in ("over", "void")
        phases.update(phase for phase, _, _ in deal.log)
    expected = {"snarples": {"auction", "trump", "drop"}, "donut": {"drop"}}
    assert expected.get(game, {"exchange"}) <= phases


def mean_points(game: str, players: int, deals: int) -> tuple[float, float]:
    """Mean points of the heuristic seat and of the random seats, the heuristic rotated
    through every seat over the same seeded deals."""
    rules = rules_for(game, players)
    ours: list[float] = []
    theirs: list[float] = []
    for number in range(deals):
        hero = number % players
        bots = [
            make_bot("heuristic" if s == hero else "random", seed=number * 10 + s)
            for s in range(players)
        ]
        deal = Deal(rules, seed=number // players, dealer=(number // players) % players)
        play_out(deal, bots)
        if deal.points is None:
            continue  # all passed (Snarples): the same dealer deals again, nobody scores
        for seat, points in enumerate(deal.points):
            (ours if seat == hero else theirs).append(float(points.json()))
    return statistics.mean(ours), statistics.mean(theirs)


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_heuristic_beats_random(game: str, players: int) -> None:
    ours, theirs = mean_points(game, players, 30 * players)
    if LOWER_IS_BETTER[game]:
        assert ours < theirs - 0.3, (ours, theirs)
    else:
        assert ours > theirs + 0.3, (ours, theirs)


@pytest.mark.parametrize(("game", "players"), TABLES)
def test_heuristic_matches_end_with_winners(game: str, players: int) -> None:
    rules = rules_for(game, players)
    for seed in range(2):
        match = Match(rules, seed=seed)
        bots = [make_bot("heuristic", seed=seed * 10 + s) for s in range(players)]
        while not match.over:
            assert len(match.entries) < 150, "the match should have ended long before"
            seat = match.to_act
            assert seat is not None
            action = bots[seat].act(match.observation(seat))
            assert action in match.legal()
            match.act(action)
        assert match.winners
        if game == "snarples" and spade_out(match.entries[-1].deal) is not None:
            assert match.winners == [spade_out(match.entries[-1].deal)]  # wins at once
            continue
        pick = min if rules.shape.lowest_wins else max
        best = pick(match.totals[s] for s in range(players))
        assert all(match.totals[s] == best for s in match.winners)


# ------------------------------------------------------------------ built hands
def deck_for(hands: dict[int, str], dealer: int, players: int, after: str = "") -> list[str]:
    """A whole deck in dealing order giving each seat its hand (five card names), then the
    cards of ``after`` (Horsethief's upcard and stock top), then the rest of the pack."""
    seats = [(dealer + 1 + i) % players for i in range(players)]
    rows = {seat: hands[seat].split() for seat in hands}
    used = {c for row in rows.values() for c in row} | set(after.split())
    spare = iter(c for c in CARD_NAMES if c not in used)
    for seat in seats:
        if seat not in rows:
            rows[seat] = [next(spare) for _ in range(5)]
    order = [rows[seats[at % players]][at // players] for at in range(5 * players)]
    return order + after.split() + list(spare)


def heuristic_action(deal: Deal) -> Action:
    seat = deal.to_act
    assert seat is not None
    return make_bot("heuristic", seed=0).act(deal.observation(seat))


def test_snarples_bids_its_tricks_and_names_its_suit() -> None:
    rules = rules_for("snarples")
    strong = {1: "AS KS QS AH KH", 2: "2H 3D 4C 5H 7D"}
    deal = Deal(rules, deck=deck_for(strong, 0, 4), dealer=0)
    bid = heuristic_action(deal)
    assert isinstance(bid, int) and bid >= 3
    deal.act(bid)
    assert heuristic_action(deal) == "pass"  # seat 2's junk
    deal.act("pass")
    deal.act("pass")
    deal.act("pass")
    assert deal.phase == "trump" and heuristic_action(deal) == "S"


def test_snarples_last_bidder_bids_just_enough() -> None:
    rules = rules_for("snarples")
    deal = Deal(rules, deck=deck_for({0: "AS KS QS AH KH"}, 0, 4), dealer=0)
    deal.act(1)
    deal.act("pass")
    deal.act("pass")
    assert deal.to_act == 0
    assert heuristic_action(deal) == 2


def sit_out_deal(second: str = "2D 3D 4C 5C 7D", third: str | None = "AS AD AC KD KC") -> Deal:
    """Seat 1 bids 2 and names hearts; the others are asked whether they play."""
    hands = {1: "AH KH QH JH 2S", 2: second}
    if third is not None:
        hands[3] = third
    deal = Deal(rules_for("snarples"), deck=deck_for(hands, 0, 4), dealer=0)
    for action in (2, "pass", "pass", "pass", "H"):
        deal.act(action)
    assert deal.phase == "drop"
    return deal


def test_snarples_sits_out_a_hand_without_tricks_and_plays_a_strong_one() -> None:
    deal = sit_out_deal()
    assert deal.to_act == 2 and heuristic_action(deal) == "out"
    deal.act("out")
    assert deal.to_act == 3 and heuristic_action(deal) == "in"


@pytest.mark.parametrize(
    ("hand", "at_three"),
    [
        ("6C AC 3S 5D KD", "in"),  # about one trick: worth the risk once sitting out costs +1
        ("AS 4C 5C 6D 8D", "out"),  # under one trick: +5 is likelier than the point saved
    ],
)
def test_snarples_sitting_out_costs_a_point_at_three_or_less(hand: str, at_three: str) -> None:
    observation = sit_out_deal(hand, None).observation(2)
    bot = make_bot("heuristic", seed=0)
    assert bot.act(observation) == "out"  # at 16 (no match: the start)
    assert bot.act(with_totals(observation, [16, 16, 4, 16])) == "out"
    assert bot.act(with_totals(observation, [16, 16, 3, 16])) == at_three


def with_totals(observation: Observation, totals: list[int]) -> Observation:
    return replace(observation, totals=tuple(Points.whole(t) for t in totals))


def test_snarples_settle_takes_to_win_or_lead_and_gives_when_behind() -> None:
    deal = sit_out_deal()
    deal.act("out")
    deal.act("out")
    deal.act("out")
    assert deal.phase == "settle" and deal.to_act == 1
    observation = deal.observation(1)
    bot = make_bot("heuristic", seed=0)
    assert bot.act(with_totals(observation, [9, 4, 8, 12])) == "take"  # reaches 0 or below first
    assert bot.act(with_totals(observation, [12, 6, 14, 10])) == "take"  # leads: hurry the end
    assert bot.act(with_totals(observation, [2, 10, 12, 14])) == "give"  # seat 0 is near 0


def test_donut_drops_a_hand_without_tricks_and_stays_with_trumps() -> None:
    # Dealer 0's fifth card (the upcard) is the KS: spades trump, players may drop.
    hands = {1: "AS QS AH 3C 4D", 2: "2H 3D 4C 5D 7H", 0: "8H 9D TC JC KS"}
    deal = Deal(rules_for("donut"), deck=deck_for(hands, 0, 4), dealer=0)
    assert deal.trump == "S" and deal.phase == "drop"
    assert deal.to_act == 1 and heuristic_action(deal) == "in"
    deal.act("in")
    assert deal.to_act == 2 and heuristic_action(deal) == "out"


def test_donut_dealer_names_its_long_strong_suit() -> None:
    hands = {0: "AH KH QH 9H 2C"}  # the 2C turned up: the dealer chooses trump
    deal = Deal(rules_for("donut"), deck=deck_for(hands, 0, 4), dealer=0)
    assert deal.phase == "trump" and deal.to_act == 0
    assert heuristic_action(deal) == "H"


def test_donut_reversed_ranks_read_the_two_as_high() -> None:
    hands = {1: "AS 2S KH QD JC", 0: "3H 4H 5D 7D 6C"}  # the 6C turned up: ranks reversed
    deal = Deal(rules_for("donut"), deck=deck_for(hands, 0, 4), dealer=0)
    observation = deal.observation(1)
    assert observation.reversed_ranks and observation.trump is None
    assert deal.deck is REVERSED
    assert deal.phase == "play" and deal.to_act == 1
    # The 2S is the one card nobody can beat: it leads it, not the (lowest) ace.
    assert heuristic_action(deal) == "2S"
    deal.act("2S")
    # Seat 2 cannot beat the 2S: it keeps its best cards and plays its lowest spade.
    assert deal.to_act == 2
    spades = [c for c in deal.legal() if c.endswith("S")]
    if len(spades) > 1:
        ranks = "AKQJT98765432"  # low to high in this deal
        assert heuristic_action(deal) == min(spades, key=lambda c: ranks.index(c[0]))


def horsethief_exchange_deal(trump_card: str) -> Deal:
    hands = {1: "AH KH 2S 3D AC", 2: "2H 3H 4H 5S 6D"}
    deal = Deal(rules_for("horsethief"), deck=deck_for(hands, 0, 4, trump_card), dealer=0)
    assert deal.trump == trump_card[-1]
    return deal


def test_horsethief_exchange_throws_low_side_cards_and_keeps_trumps_and_aces() -> None:
    deal = horsethief_exchange_deal("5H")
    while deal.phase == "drop":
        deal.act("in")
    assert deal.phase == "exchange" and deal.to_act == 1
    thrown = []
    while deal.to_act == 1:
        action = heuristic_action(deal)
        assert action in deal.legal()
        deal.act(action)
        if action != "done":
            thrown.append(action)
    assert sorted(thrown) == ["2S", "3D"]
    assert dict(deal.exchanges)[1] == 2


def test_horsethief_drops_a_hand_without_tricks_but_stays_with_a_strong_one() -> None:
    deal = horsethief_exchange_deal("5H")
    assert deal.phase == "drop" and deal.to_act == 1
    assert heuristic_action(deal) == "in"
    deal.act("in")
    junk = {1: "2S 3D 4C 5D 7S"}
    deal = Deal(rules_for("horsethief"), deck=deck_for(junk, 0, 4, "9H"), dealer=0)
    assert deal.to_act == 1 and heuristic_action(deal) == "out"


def test_horsethief_under_clubs_nobody_is_asked_and_the_bot_exchanges() -> None:
    deal = horsethief_exchange_deal("5C")
    assert deal.phase == "exchange"
    bots = [make_bot("heuristic", seed=s) for s in range(4)]
    play_out(deal, bots)
    assert deal.phase == "over" and len(deal.active) == 4


def test_every_decision_is_quick() -> None:
    """A loose bound (the bench measures properly): well under 5 ms a decision on average."""
    import time

    rules = rules_for("snarples", 8)
    bots = [make_bot("heuristic", seed=s) for s in range(8)]
    play_out(Deal(rules, seed=99, dealer=0), bots)  # warm up imports and caches
    started = time.perf_counter()
    decisions = sum(play_out(Deal(rules, seed=s, dealer=s % 8), bots) for s in range(20))
    assert (time.perf_counter() - started) / decisions < 0.005
