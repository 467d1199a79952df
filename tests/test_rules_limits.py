"""Options each allowed on their own but not together, a game's fixed facts, and the match's
edges that the exploratory rules check of 2026-11-29 found open."""

from __future__ import annotations

from typing import Any

import pytest

from callbreak import IllegalAction, Match, Rules
from callbreak.engine import Deal


@pytest.mark.parametrize(
    ("preset", "changes", "says"),
    [
        ("callbreak", {"match_end": "deals:100"}, "N from 1 to 99"),
        ("callbreak", {"match_end": "deals:7", "match_deals": 3}, "say different lengths"),
        ("callbreak", {"max_call": 8, "min_total_calls": 40}, "can never be reached"),
        ("batak-ihale", {"min_bid": 14, "max_bid": 200}, "more tricks than a hand of 13"),
        ("batak-ihale", {"forced_bid": 20}, "forced_bid=20 is above max_bid=13"),
        ("callbreak", {"players": "9"}, "Call Break is played by 4"),
    ],
)
def test_options_that_cannot_be_played_together_are_refused(
    preset: str, changes: dict[str, Any], says: str
) -> None:
    with pytest.raises(ValueError, match=says):
        Rules.preset(preset).replace(**changes)


def test_the_edges_of_those_limits_are_allowed() -> None:
    assert Rules.preset("callbreak").replace(match_end="deals:99").match_deals == 99
    assert Rules.preset("callbreak").replace(match_end="deals:7", match_deals=7).match_deals == 7
    assert Rules.preset("callbreak").replace(max_call=8, min_total_calls=32).min_total_calls == 32
    assert Rules.preset("batak-ihale").replace(max_bid=13, forced_bid=13).forced_bid == 13
    # Call Partner's house rules stand alone: no last-trick bonus, bids in twenties
    assert Rules.preset("rook-call-partner").replace(last_trick_points=0).max_bid == 200
    assert Rules.preset("rook-call-partner").replace(bid_step=20).min_bid == 70


@pytest.mark.parametrize(
    ("game", "facts"),
    [
        ("snarples", {"min_bid": 1, "max_bid": 5, "tie_break": "shared"}),
        ("donut", {"tie_break": "shared"}),
        ("spades", {"must_trump": "never", "must_overtake": False}),
    ],
)
def test_a_rules_set_under_its_own_name_keeps_the_games_facts(
    game: str, facts: dict[str, Any]
) -> None:
    """A record's custom preset name used to fall back to Call Break's values for the facts
    that are no option of the game (Snarples bid 5 to 13 and broke ties by an extra deal)."""
    rules = Rules.from_dict({"preset": f"my-{game}", "game": game})
    assert {name: getattr(rules, name) for name in facts} == facts


def test_the_rook_draws_lowest_for_the_first_deal() -> None:
    """The Rook, in no colour yet, tied with the 2s (its card number is the 2's slot)."""
    rules = Rules.preset("rook-call-partner").replace(first_dealer="draw_low")
    draw = Match(rules, seed=608).dealer_draw
    assert draw.rounds[0] == ((0, "10R"), (1, "2B"), (2, "ROOK"), (3, "1R"))
    assert draw.dealer == 2


def test_only_an_open_match_is_finished_by_its_players() -> None:
    match = Match(Rules.preset("callbreak"), seed=3)
    while not match.scored_deals:
        match.act(match.legal()[-1])
    with pytest.raises(ValueError, match="only an open-ended match"):
        match.finish()
    assert not match.over


@pytest.mark.parametrize("preset", ["spades", "oh-hell"])
def test_a_bid_out_of_range_names_the_bid_rule_not_an_option_of_another_game(
    preset: str,
) -> None:
    deal = Deal(Rules.preset(preset), seed=1, dealer=0)
    while deal.phase != "call":
        deal.act(deal.legal()[0])
    with pytest.raises(IllegalAction) as refused:
        deal.act(99)
    assert refused.value.rule == "bid"
    assert refused.value.rule not in deal.rules.options()


@pytest.mark.parametrize(
    ("preset", "changes", "says", "not_said"),
    [
        ("callbridge", {}, "the call or one more, else −call; a made call of 8", "0.1"),
        ("batak-koz-maca", {}, "call, or −call", "0.1"),
        ("judgement", {}, "a miss scores nothing", "Judgement"),
        ("oh-hell", {"hook": False, "exact_bonus": 5}, "1 a trick plus 5", "the dealer"),
        ("rook-call-partner", {"last_trick_points": 10, "max_bid": 190}, "trick = 10", "= 20:"),
        ("spades", {"match_end": "target:300"}, "First to 300 points", "500"),
        ("horsethief", {"match_end": "target:21"}, "First to 21 points", "15"),
    ],
)
def test_the_scoring_line_follows_the_preset_and_its_options(
    preset: str, changes: dict[str, Any], says: str, not_said: str
) -> None:
    """The scoresheet's line was one per game: Call Bridge read Call Break's tenths, and Oh Hell
    named Judgement's scoring."""
    from callbreak.faces import scoring_text

    text = scoring_text(Rules.preset(preset).replace(**changes))
    assert says in text and not_said not in text, text


def test_rules_under_a_name_of_ones_own_read_back_and_replay() -> None:
    """to_dict wrote no game for such a name, so from_dict (and every record's replay)
    refused it: "unknown preset 'house'"."""
    import random

    from callbreak.record import match_record, replay

    rules = Rules(name="house", game="spades").replace(match_end="deals:1")
    assert Rules.from_dict(rules.to_dict()) == rules
    assert "game" not in Rules.preset("spades").to_dict()  # a preset's name says it already
    match, rng = Match(rules, seed=4), random.Random(4)
    while not match.over:
        match.act(rng.choice(match.legal()))
    assert replay(match_record(match)).complete
