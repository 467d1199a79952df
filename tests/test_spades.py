"""Spades (docs/rules/spades.md): partnerships, nil and blind nil, bags, the mercy rule."""

from __future__ import annotations

import random

import pytest

from callbreak.engine.deal import Deal
from callbreak.engine.errors import IllegalAction
from callbreak.engine.games import Context
from callbreak.engine.match import Match
from callbreak.games.spades import bags_before
from callbreak.points import Points
from callbreak.record import match_record, replay
from callbreak.rules import Rules

RULES = Rules.preset("spades")
PACK = [rank + suit for suit in "SHDC" for rank in "AKQJT98765432"]


def scores(*values: int) -> Context:
    return Context(tuple(Points.whole(v) for v in values))


def played(bids: tuple[int | str, ...], context: Context | None = None, **options: object) -> Deal:
    deal = Deal(RULES.replace(**options), deck=PACK, dealer=3, context=context)
    for bid in bids:
        deal.act(bid)
    while deal.to_act is not None:
        deal.act(deal.legal()[0])
    return deal


def test_partners_share_the_side_score() -> None:
    deal = played((4, 0, 3, 2))
    assert deal.tricks == [7, 6, 0, 0]
    # 0+2 bid 7, took 7: 70.  Seat 1's nil failed (−100); 3's bid of 2 made with 4 bags.
    assert [str(p) for p in deal.points or []] == ["70", "-76", "70", "-76"]


def test_a_failed_contract_and_a_made_nil() -> None:
    deal = played((8, 0, 0, 2))
    assert deal.tricks == [7, 6, 0, 0]
    # 0+2 bid 8, took 7: −80, and seat 2's nil made: +100.
    assert deal.points is not None and deal.points[0] == deal.points[2] == Points.whole(20)


def test_ten_bags_cost_a_hundred() -> None:
    deal = played((4, 0, 3, 2), scores(0, 157, 0, 157))
    assert deal.points is not None and deal.points[1] == Points.whole(-176)
    assert [bags_before(Points.whole(v)) for v in (157, 0, -23, 500)] == [7, 0, 7, 0]


def test_blind_nil_is_bid_unseen_and_worth_double() -> None:
    deal = Deal(RULES.replace(blind_nil=True), deck=PACK, dealer=3)
    assert deal.legal() == ["blind nil", "look"]
    assert deal.observation(0).hand == () and deal.observation(0).hand_mask == 0
    with pytest.raises(IllegalAction, match="look first"):
        deal.act(3)
    deal.act("look")
    assert deal.observation(0).hand[0] == "AS"
    deal.act(4)
    deal.act("blind nil")
    assert deal.calls[1] == 0 and deal.observation(2).blind_nils == (1,)
    assert deal.log[1:3] == [("call", 0, 4), ("call", 1, "blind nil")]
    for said in ("look", 3, "look", 2):
        deal.act(said)
    while deal.to_act is not None:
        deal.act(deal.legal()[0])
    # Seat 1 took 6 tricks: its blind nil costs 200 (and 3's bid of 2 made with 4 bags).
    assert deal.points is not None and deal.points[1] == Points.whole(-176)


def test_no_seat_sees_a_card_before_it_looks_even_first_thing() -> None:
    """Every seat's very first view of a blind-nil deal (before anything is asked) holds no
    card: the part that withholds the hands exists from the calls' start."""
    for seat in range(4):
        deal = Deal(RULES.replace(blind_nil=True), deck=PACK, dealer=3)
        view = deal.observation(seat)
        assert view.hand == () and view.hand_mask == 0


def test_side_bids_capped_at_thirteen() -> None:
    deal = Deal(RULES.replace(cap_side_bids=True), deck=PACK, dealer=3)
    deal.act(9)
    deal.act(2)
    assert deal.legal() == list(range(5))
    with pytest.raises(IllegalAction) as refused:
        deal.act(5)
    assert refused.value.rule == "cap_side_bids"


def test_spades_may_not_be_led_until_broken() -> None:
    deal = Deal(RULES, deck=PACK, dealer=3)
    for bid in (4, 0, 3, 2):
        deal.act(bid)
    assert deal.legal() == ["JH", "7H", "3H", "QD", "8D", "4D", "KC", "9C", "5C"]


def test_the_mercy_rule_ends_the_match_for_the_side() -> None:
    for seed in range(40):
        match = Match(RULES, seed=seed)
        rng = random.Random(seed)
        while not match.over:
            match.act(rng.choice(match.legal()))
        totals = match.totals
        assert totals[0] == totals[2] and totals[1] == totals[3]
        assert match.winners in ([0, 2], [1, 3])
        win, lose = match.winners[0], 1 - match.winners[0]
        assert totals[win] > totals[lose] or totals[lose] <= Points.whole(-350)
        assert totals[win] >= Points.whole(500) or totals[lose] <= Points.whole(-350)


def test_a_tie_between_sides_is_not_a_win_but_partners_are() -> None:
    rules = RULES.replace(mercy_rule=False, match_end="deals:1")
    match = Match(rules, seed=1)
    rng = random.Random(1)
    while not match.over:
        match.act(rng.choice(match.legal()))
    assert match.winners in ([0, 2], [1, 3])


def test_a_spades_match_round_trips_through_its_record() -> None:
    rules = RULES.replace(blind_nil=True)
    match = Match(rules, seed=9)
    rng = random.Random(9)
    while not match.over:
        match.act(rng.choice(match.legal()))
    record = match_record(match)
    again = replay(record)
    assert again.totals == match.totals and again.winners == match.winners
