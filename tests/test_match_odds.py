"""The family search's value in a match: the seat's share of the match from the totals a deal
leaves (``bots.search.odds``), exact where the deal ends the match, else over fixed futures."""

from __future__ import annotations

import pytest

from callbreak import Rules
from callbreak.bots import HeuristicBot
from callbreak.bots.family_search import FamilySearchBot
from callbreak.bots.search.odds import MatchOdds, match_value, odds_for
from callbreak.engine import Deal, Match
from callbreak.engine.observation import observe
from callbreak.points import Points


def _odds(preset: str, players: int | None = None) -> MatchOdds:
    rules = Rules.preset(preset)
    odds = odds_for(rules if players is None else rules.replace(players=players))
    assert odds is not None
    return odds


@pytest.mark.parametrize(
    ("preset", "kind"),
    [("donut", "zero"), ("snarples", "zero"), ("horsethief", "target"), ("batak-ihale", "deals")],
)
def test_the_match_end_is_read_from_the_games_facts(preset: str, kind: str) -> None:
    assert _odds(preset).kind == kind


def test_games_without_a_countable_end_have_no_odds() -> None:
    assert odds_for(Rules.preset("spades")) is None  # fixed sides: the call games' search
    assert odds_for(Rules.preset("oh-hell")) is None  # a schedule of hand sizes
    assert odds_for(Rules.preset("batak-ihale").replace(match_end="open")) is None


def test_a_deal_that_ends_the_match_is_valued_exactly() -> None:
    odds = _odds("donut")
    assert odds.shares([-10, 30, 50, 20], 0, 1).tolist() == [1.0, 0.0, 0.0, 0.0]
    assert odds.shares([0, 0, 50, 20], 0, 1).tolist() == [0.5, 0.5, 0.0, 0.0]  # a shared draw
    horsethief = _odds("horsethief")
    assert horsethief.shares([150, 160, 20], 0, 0).tolist() == [0.0, 1.0, 0.0]  # highest wins
    batak = _odds("batak-ihale")
    assert batak.shares([30, 90, 90, 10], 0, 0).tolist() == [0.0, 0.5, 0.5, 0.0]


@pytest.mark.parametrize("preset", ["donut", "rook-call-partner", "snarples", "batak-ihale"])
def test_shares_are_a_split_of_one_match(preset: str) -> None:
    odds = _odds(preset)
    start = Rules.preset(preset).shape.start * 10
    shares = odds.shares([start] * odds.players, 5, 0)
    assert shares.sum() == pytest.approx(1.0)
    assert all(0 < s < 1 for s in shares)


def test_being_nearer_the_end_is_worth_more() -> None:
    """Closer to zero in Donut, closer to the target in Call Partner: a larger share, and the
    same totals always give the same share (the futures are fixed)."""
    donut = _odds("donut")
    near = donut.shares([20, 100, 100, 100], 0, 1)
    far = donut.shares([100, 100, 100, 100], 0, 1)
    assert near[0] > 0.5 > far[0]
    assert donut.shares([20, 100, 100, 100], 0, 1).tolist() == near.tolist()
    partner = _odds("rook-call-partner")
    assert partner.shares([4500, 2000, 2000, 2000], 0, 0)[0] > 0.6
    batak = _odds("batak-ihale")
    assert batak.shares([50, 0, 0, 0], 1, 0)[0] > batak.shares([50, 0, 0, 0], 8, 0)[0]


def _match_at(preset: str, totals: list[int], seed: int = 3) -> Match:
    """A match whose totals have been set to ``totals`` (whole points) before its deal."""
    match = Match(Rules.preset(preset), seed=seed, dealer=0)
    match.totals = [Points.whole(t) for t in totals]
    return match


def test_the_value_is_the_seats_share_after_the_finished_deal() -> None:
    match = _match_at("donut", [2, 1, 15, 15])
    seat = match.deal.to_act
    assert seat is not None
    value = match_value(match.observation(seat))
    assert value is not None
    deal = match.deal.copy()
    bots = [HeuristicBot(seed=s) for s in range(4)]
    while deal.to_act is not None:
        deal.act(bots[deal.to_act].act(deal.observation(deal.to_act)))
    assert deal.points is not None
    after = [t.tenths + p.tenths for t, p in zip(match.totals, deal.points, strict=True)]
    odds = _odds("donut")
    assert value(deal) == pytest.approx(odds.shares(after, 0, 1)[seat])


def test_a_deal_alone_or_a_tie_break_is_valued_by_its_points() -> None:
    deal = Deal(Rules.preset("donut"), seed=3, dealer=0)
    seat = deal.to_act
    assert seat is not None
    assert match_value(deal.observation(seat)) is None
    tied = observe(deal, seat, [Points.whole(0)] * 4, 7, [0, 1])
    assert match_value(tied) is None


def test_the_search_plays_for_the_match_when_it_is_on_the_line() -> None:
    """Donut, a rival one point from zero and the seat at two: dropping keeps the seat's
    points, often the best for the deal with a weak hand, but leaves the rival to end the
    match; valued by the match, the seat stays in with hands it would drop for points."""
    answers = []
    for seed in range(32):
        match = _match_at("donut", [15, 1, 2, 15], seed=seed)
        if match.deal.phase != "drop":
            continue
        match.act("in")  # the rival, seat 1, answers first and stays in
        observation = match.observation(2)
        by_points = FamilySearchBot(seed=1, worlds=24, deterministic=1, match_odds=0)
        by_match = FamilySearchBot(seed=1, worlds=24, deterministic=1)
        answers.append((by_points.act(observation), by_match.act(observation)))
        assert set(by_match.values) == {"in", "out"}
        assert all(0 <= v <= 1 for v in by_match.values.values())
    stays = sum(points == "out" and match == "in" for points, match in answers)
    leaves = sum(points == "in" and match == "out" for points, match in answers)
    assert stays >= 2 and leaves == 0, answers
