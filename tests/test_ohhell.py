"""Oh Hell and Judgement (docs/rules/oh-hell.md): exact bids, the dealer's hook, trump turned
up or rotating, and hand sizes that change deal by deal over a match."""

from __future__ import annotations

import random

import pytest

from callbreak.engine.deal import Deal
from callbreak.engine.errors import IllegalAction
from callbreak.engine.games import Context
from callbreak.engine.match import Match, opening_deal
from callbreak.points import Points
from callbreak.record import RecordError, match_record, replay
from callbreak.rules import Rules

DECK = [rank + suit for suit in "SHDC" for rank in "AKQJT98765432"]


def test_deal_gives_hand_size_cards_from_the_seat_after_the_dealer_and_turns_up_trump() -> None:
    deal = Deal(Rules.preset("oh-hell").replace(players=3), deck=DECK, dealer=2, hand_size=2)
    assert [deal.hand(s) for s in range(3)] == [["AS", "JS"], ["KS", "TS"], ["QS", "9S"]]
    assert deal.upcard is not None and deal.names_of(1 << deal.upcard) == ["8S"]
    assert deal.trump == "S"
    assert (deal.phase, deal.to_act, deal.legal()) == ("call", 0, [0, 1, 2])


def test_hand_size_defaults_to_the_first_deal_and_the_deck_caps_it() -> None:
    rules = Rules.preset("oh-hell").replace(players=5)
    assert Deal(rules, seed=1).hand_size == 10
    with pytest.raises(ValueError, match="from 1 to 10"):
        Deal(rules, seed=1, hand_size=11)
    with pytest.raises(ValueError, match="deals 13 cards"):
        Deal(Rules.preset("callbreak"), seed=1, hand_size=5)


def test_the_dealer_may_not_make_the_bids_add_up() -> None:
    deal = Deal(Rules.preset("oh-hell").replace(players=4), seed=3, dealer=0, hand_size=3)
    for bid in (1, 0, 1):
        deal.act(bid)
    assert deal.to_act == 0
    assert deal.legal() == [0, 2, 3]
    with pytest.raises(IllegalAction, match="hook") as refused:
        deal.act(1)
    assert refused.value.rule == "hook"
    deal.act(3)
    assert deal.phase == "play" and deal.to_act == 1


def test_without_the_hook_the_dealer_may_bid_anything() -> None:
    rules = Rules.preset("oh-hell").replace(players=3, hook=False)
    deal = Deal(rules, seed=3, dealer=0, hand_size=2)
    deal.act(1)
    deal.act(1)
    assert deal.legal() == [0, 1, 2]


def _play_out(deal: Deal, bids: list[int], seed: int = 0) -> None:
    for bid in bids:
        deal.act(bid)
    rng = random.Random(seed)
    while not deal.over:
        deal.act(rng.choice(deal.legal()))


@pytest.mark.parametrize(
    ("preset", "changes", "exact", "missed"),
    [
        # Oh Hell: 1 a trick, +10 when exact; a miss keeps its tricks.
        ("oh-hell", {}, lambda won: won + 10, lambda bid, won: won),
        # Judgement: 10 + the bid when exact, nothing otherwise.
        ("judgement", {}, lambda won: 10 + won, lambda bid, won: 0),
        # OpenSpiel's off_bid_penalty: a miss costs a point a trick off the bid.
        ("oh-hell", {"miss_points": "off_bid"}, lambda won: won + 10, lambda b, w: -abs(w - b)),
    ],
)
def test_scores(preset: str, changes: dict[str, str], exact: object, missed: object) -> None:
    rules = Rules.preset(preset).replace(players=4, **changes)
    for seed in range(30):
        deal = Deal(rules, seed=seed, dealer=3, hand_size=5)
        bids = [1, 2, 0, 1]
        _play_out(deal, bids, seed)
        assert deal.points is not None
        for seat, bid in enumerate(bids):
            won = deal.tricks[seat]
            want = exact(won) if won == bid else missed(bid, won)  # type: ignore[operator]
            assert deal.points[seat] == Points.whole(want)


@pytest.mark.parametrize(
    ("preset", "players", "sizes"),
    [
        ("oh-hell", 5, list(range(10, 0, -1))),
        ("oh-hell", 7, list(range(7, 0, -1))),
        ("judgement", 4, [7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7]),
        ("judgement", 7, [7, 6, 5, 4, 3, 2, 1, 2, 3, 4, 5, 6, 7]),
    ],
)
def test_hand_sizes_over_a_match(preset: str, players: int, sizes: list[int]) -> None:
    rules = Rules.preset(preset).replace(players=players)
    assert rules.match_deals == len(sizes)
    match = Match(rules, seed=5)
    rng = random.Random(5)
    seen, trumps = [], []
    while not match.over:
        if not match.deal.log and match.deal.phase == "call":
            seen.append(match.deal.hand_size)
            trumps.append(match.deal.trump)
        match.act(rng.choice(match.legal()))
    assert seen == sizes
    if preset == "judgement":
        assert "".join(t or "-" for t in trumps) == ("SDCH" * 4)[: len(sizes)]
    top = max(match.totals)
    assert match.winners == [s for s in range(players) if match.totals[s] == top]


def test_judgement_trump_rotates_with_the_deals_scored() -> None:
    rules = Rules.preset("judgement")
    trumps = [
        Deal(rules, seed=1, hand_size=3, context=Context((Points(0),) * 4, number=k)).trump
        for k in range(5)
    ]
    assert trumps == ["S", "D", "C", "H", "S"]


def test_sequence_up_down_and_a_start_above_the_deck() -> None:
    rules = Rules.preset("oh-hell").replace(players=6, sequence="up_down", start=20)
    assert rules.match_deals == 8 + 7
    with pytest.raises(ValueError, match="players=8"):
        Rules.preset("oh-hell").replace(players=8)


def test_a_match_started_partway_deals_that_deal_of_the_schedule() -> None:
    """``deals_before`` (the arena's deal set k): the match's first deal is numbered, sized and
    trumped as deal k + 1 of a whole match, and the match still ends with the schedule."""
    rules = Rules.preset("judgement")
    match = Match(rules, seed=2, deals_before=4)
    assert (match.deal_number, match.deal.hand_size, match.deal.trump) == (5, 3, "S")
    assert match.observation(0).deal_number == 5  # bots rebuild the trump from it
    rng = random.Random(2)
    sizes = []
    while not match.over:
        if not match.deal.log and match.deal.phase == "call":
            sizes.append(match.deal.hand_size)
        match.act(rng.choice(match.legal()))
    assert sizes == [3, 2, 1, 2, 3, 4, 5, 6, 7]
    assert [entry.number for entry in match.scored_deals] == list(range(5, 14))


def test_the_opening_deal_is_the_one_a_match_started_there_deals() -> None:
    rules = Rules.preset("judgement")
    deck = list(range(52))
    random.Random(4).shuffle(deck)
    for before in (0, 5, 12):
        alone = opening_deal(rules, deck, 1, before)
        match = Match(rules, seed=1, dealer=1, decks=[deck], deals_before=before)
        assert (alone.dealt, alone.trump, alone.hand_size) == (
            match.deal.dealt,
            match.deal.trump,
            match.deal.hand_size,
        )


@pytest.mark.parametrize("before", [-1, 13, True])
def test_deals_before_must_leave_a_deal_to_play(before: int) -> None:
    with pytest.raises(ValueError, match="deals_before"):
        Match(Rules.preset("judgement"), seed=1, deals_before=before)


def test_a_record_of_a_match_started_partway_replays() -> None:
    rules = Rules.preset("oh-hell")
    match = Match(rules, seed=3, deals_before=10)
    rng = random.Random(3)
    while not match.over:
        match.act(rng.choice(match.legal()))
    record = match_record(match)
    assert [deal["number"] for deal in record["deals"]] == [11, 12]
    assert [len(deal["hands"][0]) for deal in record["deals"]] == [2, 1]
    report = replay(record)
    assert report.complete and report.totals == match.totals
    record["deals"][0]["number"] = 1  # the first deal would have 12 cards
    with pytest.raises(RecordError):
        replay(record)
    record["deals"][0]["number"] = 0
    with pytest.raises(RecordError, match="numbered from 1, not 0"):
        replay(record)
