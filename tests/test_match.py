"""Matches (docs/rules/common.md, docs/rules/callbreak.md rule 8, docs/rules/callbridge.md
rule 6): dealer rotation, redeals, length, targets, open matches, tie-breaks, the first dealer,
and totals.

Deals with a known outcome use *split* hands (see tests/helpers.py): seat ``a`` holds
the top ``k`` spades and the lowest hearts, seat ``b`` the other spades and hearts, the other
seats diamonds and clubs; when ``a`` or ``b`` leads, ``a`` wins exactly ``k`` tricks and ``b``
the rest, whatever legal cards are played.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from callbreak import EndlessRedeal, IllegalAction, Match, Points, Rules
from callbreak.engine.match import VOID_LIMIT
from callbreak.record import dumps, loads, match_record, replay
from helpers import DECK, split_hands

NORMAL = [DECK[i::4] for i in range(4)]  # everyone has spades and honours
NO_SPADE = [r + "H" for r in "AKQJT98"] + [r + s for s in "DC" for r in "AKQ"]


def with_no_spade_seat(seat: int) -> list[list[str]]:
    """A deal in which ``seat`` holds no spade (and everyone else spades and honours)."""
    rest = [c for c in DECK if c not in NO_SPADE]
    hands: list[list[str]] = [[] for _ in range(4)]
    hands[seat] = list(NO_SPADE)
    others = [s for s in range(4) if s != seat]
    for i, card in enumerate(rest):
        hands[others[i % 3]].append(card)
    return hands


def play_deal(match: Match, calls: list[int] | None, rng: random.Random) -> None:
    """Play the current deal to its end: refuse misdeals and declarations, call ``calls`` (by
    seat; if None, random low calls, which are sometimes too few), then random legal cards."""
    deal = match.deal
    while match.deal is deal and not match.over:
        seat = match.to_act
        assert seat is not None
        if match.phase == "call":
            match.act(rng.choice(match.legal()[:4]) if calls is None else calls[seat])
        elif match.phase in ("misdeal", "declare"):
            match.act(False)
        else:
            match.act(rng.choice(match.legal()))


def play_match(match: Match, rng: random.Random, limit: int = 100) -> None:
    for _ in range(limit):
        if match.over:
            return
        play_deal(match, None, rng)
    raise AssertionError("the match did not end")


def totals_from_entries(match: Match) -> list[Points]:
    totals = [Points(0)] * 4
    for entry in match.entries:
        if entry.deal.phase == "over":
            points = entry.deal.points
            assert points is not None
            for seat in entry.counting_seats:
                totals[seat] += points[seat]
    return totals


def check_dealers(match: Match, first: int) -> None:
    assert match.entries[0].deal.dealer == first
    for before, after in zip(match.entries, match.entries[1:], strict=False):
        if before.deal.phase == "void":
            assert after.deal.dealer == before.deal.dealer  # a redeal by the same dealer
        else:
            assert after.deal.dealer == (before.deal.dealer + 1) % 4


# ------------------------------------------------------------------ dealer rotation, redeals
@pytest.mark.parametrize(
    ("preset", "options", "redeals"),
    [
        ("callbreak", {}, True),
        ("callbreak-bhoos", {}, True),
        ("callbridge", {"match_end": "deals:4"}, False),
        (
            "callbridge",
            {"match_end": "deals:4", "misdeal_no_spade": True, "min_total_calls": 10},
            True,
        ),
    ],
)
def test_dealer_rotation_and_redeals(preset: str, options: dict[str, Any], redeals: bool) -> None:
    rules = Rules.preset(preset).replace(**options)
    voids = 0
    for seed in range(12):
        first = seed % 4
        match = Match(rules, seed=seed, dealer=first)
        play_match(match, random.Random(seed))
        check_dealers(match, first)
        voids += sum(1 for e in match.entries if e.deal.phase == "void")
        if match.over and not match.entries[-1].tie_break:
            assert len(match.scored_deals) == rules.match_deals
    # random low calls fall short of min_total_calls now and then
    assert (voids > 0) == redeals


def test_too_few_calls_are_redealt_by_the_same_dealer() -> None:
    match = Match(Rules.preset("callbreak"), seed=5, dealer=2)
    for _ in range(4):
        match.act(1)
    assert len(match.entries) == 1
    assert match.entries[0].deal.phase == "void"
    assert match.entries[0].number == 1
    assert match.dealer == 2
    assert match.phase == "call"
    assert match.to_act == 3
    assert match.deal_number == 1
    assert match.totals == [Points(0)] * 4
    assert match.scored_deals == []


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("callbreak-bhoos", {}),
        ("callbreak", {"misdeal": "auto"}),
        ("callbridge", {"misdeal_no_spade": True}),
    ],
)
def test_a_deal_thrown_in_as_dealt_is_redealt_at_once(preset: str, options: dict[str, Any]) -> None:
    rules = Rules.preset(preset).replace(**options)
    # the very first deal
    match = Match(rules, dealer=1, hands=[with_no_spade_seat(2), NORMAL])
    assert [e.deal.phase for e in match.entries] == ["void"]
    assert match.dealer == 1
    assert match.phase == "call"
    assert match.to_act == 2
    assert match.legal()
    assert match.deal.hand(0) == sorted(NORMAL[0], key=DECK.index)
    # a later deal
    match = Match(
        rules, dealer=1, hands=[NORMAL, with_no_spade_seat(0), with_no_spade_seat(3), NORMAL]
    )
    play_deal(match, [3, 3, 3, 3], random.Random(1))
    assert [e.deal.phase for e in match.entries] == ["over", "void", "void"]
    assert [e.deal.dealer for e in match.entries] == [1, 2, 2]
    assert [e.number for e in match.entries] == [1, 2, 2]
    assert match.dealer == 2
    assert match.phase == "call"
    assert match.to_act == 3
    assert match.deal_number == 2


def test_match_uses_the_hands_given_in_order() -> None:
    hands = [split_hands(0, 1, 7), split_hands(0, 1, 3), NORMAL]
    match = Match(Rules.preset("callbreak").replace(match_deals=3), dealer=3, hands=hands)
    rng = random.Random(2)
    while not match.over:
        play_deal(match, [4, 4, 4, 4], rng)
    for entry, given in zip(match.entries, hands, strict=True):
        for seat in range(4):
            assert sorted(_cards_played_by(entry.deal, seat)) == sorted(given[seat])


def _cards_played_by(deal: Any, seat: int) -> list[str]:
    out: list[str] = []
    for trick in deal.observation(seat).history:
        for player, card in zip(trick.seats(4), trick.cards, strict=True):
            if player == seat:
                out.append(card)
    return out


# ------------------------------------------------------------------ length of a match
@pytest.mark.parametrize(
    ("options", "deals"),
    [({}, 5), ({"match_deals": 3}, 3), ({"match_end": "deals:3"}, 3), ({"match_deals": 1}, 1)],
)
def test_match_deals(options: dict[str, Any], deals: int) -> None:
    rules = Rules.preset("callbreak").replace(tie_break="shared", **options)
    for seed in range(5):
        match = Match(rules, seed=seed)
        play_match(match, random.Random(seed))
        assert match.over
        assert len(match.scored_deals) == deals
        assert match.totals == totals_from_entries(match)
        best = max(match.totals)
        assert match.winners == [s for s in range(4) if match.totals[s] == best]


def test_callbreak_plays_five_deals_by_default() -> None:
    rules = Rules.preset("callbreak")
    match = Match(rules, seed=11)
    play_match(match, random.Random(11))
    regular = [e for e in match.scored_deals if not e.tie_break]
    assert len(regular) == 5
    assert [e.number for e in match.scored_deals] == list(range(1, len(match.scored_deals) + 1))


def test_target_first_to_reach_it_wins() -> None:
    rules = Rules.preset("callbreak").replace(match_end="target:10")
    hands = [split_hands(0, 1, 7), split_hands(0, 1, 10)]
    match = Match(rules, dealer=3, hands=hands)
    rng = random.Random(3)
    play_deal(match, [7, 6, 1, 1], rng)  # 7, 6, -1, -1: nobody has 10 yet
    assert not match.over
    assert [str(t) for t in match.totals] == ["7", "6", "-1", "-1"]
    play_deal(match, [10, 3, 1, 1], rng)  # seat 0 wins 10, seat 1 wins 3
    assert match.over
    assert [str(t) for t in match.totals] == ["17", "9", "-2", "-2"]
    assert match.winners == [0]
    assert match.phase == "over"


def test_target_reached_by_several_goes_to_the_highest() -> None:
    rules = Rules.preset("callbreak").replace(match_end="target:6")
    match = Match(rules, dealer=3, hands=[split_hands(0, 1, 7)])
    play_deal(match, [7, 6, 1, 1], random.Random(3))
    assert match.over
    assert [str(t) for t in match.totals] == ["7", "6", "-1", "-1"]
    assert match.winners == [0]


def test_target_tie_goes_to_the_tie_break() -> None:
    rules = Rules.preset("callbreak").replace(match_end="target:5", overtrick_points=0)
    match = Match(rules, dealer=3, hands=[split_hands(0, 1, 6), split_hands(1, 0, 2)])
    rng = random.Random(3)
    play_deal(match, [6, 6, 1, 1], rng)  # 6 and 6 (7 won, no overtrick points)
    assert not match.over
    assert match.tie_break
    assert match.counting_seats == (0, 1)
    play_deal(match, [11, 2, 1, 1], rng)  # seat 1 wins 2, seat 0 wins 11
    assert match.over
    assert match.winners == [0]


@pytest.mark.parametrize("target", [1, 15, 40])
def test_target_random_matches(target: int) -> None:
    rules = Rules.preset("callbreak").replace(match_end=f"target:{target}")
    for seed in range(4):
        match = Match(rules, seed=seed)
        play_match(match, random.Random(seed), limit=400)
        goal = Points.whole(target)
        scored = match.scored_deals
        first_tie_break = next((i for i, e in enumerate(scored) if e.tie_break), len(scored))
        regular = scored[:first_tie_break]
        assert max(regular[-1].totals) >= goal
        for entry in regular[:-1]:
            assert max(entry.totals) < goal
        assert match.totals == totals_from_entries(match)


# ------------------------------------------------------------------ open matches
def test_open_match_goes_on_until_finished() -> None:
    rules = Rules.preset("callbridge")
    assert rules.match_end == "open"
    match = Match(rules, 11, dealer=3, hands=[split_hands(0, 1, 9)])  # seeded: no tie at the top
    with pytest.raises(ValueError, match="nothing to decide"):
        match.finish()
    rng = random.Random(5)
    play_deal(match, [9, 4, 2, 2], rng)  # 13, 4, -2, -2
    for _ in range(6):
        play_deal(match, None, rng)
    assert not match.over
    # not in the middle of a deal
    seat = match.to_act
    assert seat is not None
    match.act(match.legal()[0])
    with pytest.raises(ValueError, match="between deals"):
        match.finish()
    play_deal(match, None, rng)
    totals = list(match.totals)
    best = max(totals)
    assert totals.count(best) == 1
    match.finish()
    assert match.over
    assert match.winners == [totals.index(best)]
    assert match.totals == totals
    assert match.legal() == [] and match.to_act is None
    match.finish()  # finishing twice is harmless
    assert match.over


def test_open_match_finish_with_a_tie_plays_an_extra_deal() -> None:
    rules = Rules.preset("callbridge")
    hands = [split_hands(0, 1, 6), split_hands(1, 0, 5)]
    match = Match(rules, dealer=3, hands=hands)
    rng = random.Random(6)
    play_deal(match, [6, 6, 2, 2], rng)  # 6 (won 6), 6 (won 7 = call + 1), -2, -2
    assert [str(t) for t in match.totals] == ["6", "6", "-2", "-2"]
    match.finish()
    assert not match.over
    assert match.tie_break
    assert match.counting_seats == (0, 1)
    with pytest.raises(ValueError, match="tie-break"):
        match.finish()  # the extra deal decides now
    assert match.dealer == 0  # the next dealer deals the extra deal
    assert match.deal.hand(1)[0] == "AS"  # the next hands of the list: not skipped
    obs = match.observation(2)
    assert obs.counting_seats == (0, 1)
    play_deal(match, [8, 5, 2, 12], rng)  # seat 0 wins 8 (13), seat 1 wins 5 (5)
    assert match.over
    assert match.winners == [0]
    assert [str(t) for t in match.totals] == ["19", "11", "-2", "-2"]


# ------------------------------------------------------------------ tie-break
TIE_HANDS = [
    split_hands(0, 1, 13),  # dealer 3: seat 0 wins everything
    split_hands(1, 0, 13),  # dealer 0: seat 1 wins everything
    split_hands(2, 3, 13),  # dealer 1: seat 2 wins everything (does not count)
    split_hands(0, 3, 4),  # dealer 2: seat 0 wins 4, seat 3 wins 9
]


def test_tie_break_extra_deal_counts_only_the_tied_seats() -> None:
    rules = Rules.preset("callbreak").replace(match_deals=2)
    match = Match(rules, dealer=3, hands=TIE_HANDS)
    rng = random.Random(7)
    play_deal(match, [5, 1, 1, 1], rng)  # 5.8, -1, -1, -1
    play_deal(match, [1, 5, 1, 1], rng)  # -1, 5.8, -1, -1
    assert [str(t) for t in match.totals] == ["4.8", "4.8", "-2", "-2"]
    assert not match.over
    assert match.tie_break
    assert match.counting_seats == (0, 1)
    assert match.dealer == 1
    assert match.deal.hand(2)[0] == "AS"  # the third hands of the list
    assert match.observation(0).counting_seats == (0, 1)
    play_deal(match, [1, 1, 13, 1], rng)  # -1, -1, (13), (-1): still tied
    assert [str(t) for t in match.totals] == ["3.8", "3.8", "-2", "-2"]
    assert not match.over
    assert match.dealer == 2
    play_deal(match, [4, 1, 1, 9], rng)  # 4, -1, (-1), (9)
    assert match.over
    assert match.winners == [0]
    assert [str(t) for t in match.totals] == ["7.8", "2.8", "-2", "-2"]
    assert [e.tie_break for e in match.entries] == [False, False, True, True]
    assert [e.counting_seats for e in match.entries] == [(0, 1, 2, 3)] * 2 + [(0, 1)] * 2
    assert [e.deal.dealer for e in match.entries] == [3, 0, 1, 2]
    assert [e.number for e in match.entries] == [1, 2, 3, 4]
    assert match.totals == totals_from_entries(match)
    # the deals' own points are all there, counted or not
    assert [str(p) for p in match.entries[2].deal.points or []] == ["-1", "-1", "13", "-1"]


def test_tie_break_shared() -> None:
    rules = Rules.preset("callbreak").replace(match_deals=2, tie_break="shared")
    match = Match(rules, dealer=3, hands=TIE_HANDS)
    rng = random.Random(7)
    play_deal(match, [5, 1, 1, 1], rng)
    play_deal(match, [1, 5, 1, 1], rng)
    assert match.over
    assert match.winners == [0, 1]
    assert len(match.entries) == 2


def test_tie_break_extra_deal_in_random_matches() -> None:
    rules = Rules.preset("callbreak").replace(match_deals=1, overtrick_points=0)
    seen = 0
    for seed in range(60):
        match = Match(rules, seed=seed)
        rng = random.Random(seed)
        play_match(match, rng)
        extras = [e for e in match.entries if e.tie_break and e.deal.phase == "over"]
        if not extras:
            continue
        seen += 1
        tied = extras[0].counting_seats
        assert len(tied) >= 2
        first = match.scored_deals[0].totals
        assert all(first[s] == max(first) for s in tied)
        assert set(match.winners) <= set(tied)
        assert len(match.winners) == 1
        assert match.totals == totals_from_entries(match)
    assert seen > 0


# ------------------------------------------------------------------ first dealer
@pytest.mark.parametrize("method", ["random", "draw_low", "draw_high"])
def test_first_dealer_is_reproducible_from_the_seed(method: str) -> None:
    rules = Rules.preset("callbreak").replace(first_dealer=method)
    dealers = set()
    for seed in range(40):
        one, two = Match(rules, seed=seed), Match(rules, seed=seed)
        assert one.dealer_draw == two.dealer_draw
        assert one.dealer_draw.method == method
        assert one.dealer == two.dealer == one.dealer_draw.dealer
        assert [one.deal.hand(s) for s in range(4)] == [two.deal.hand(s) for s in range(4)]
        dealers.add(one.dealer)
        if method != "random":
            check_draw(one.dealer_draw.rounds, one.dealer, method)
    assert dealers == {0, 1, 2, 3}


def check_draw(rounds: Any, dealer: int, method: str) -> None:
    seats = [0, 1, 2, 3]
    for number, drawn in enumerate(rounds):
        assert [s for s, _ in drawn] == seats
        ranks = {s: "23456789TJQKA".index(card[0]) for s, card in drawn}
        target = min(ranks.values()) if method == "draw_low" else max(ranks.values())
        seats = [s for s in seats if ranks[s] == target]
        if number < len(rounds) - 1:
            assert len(seats) > 1  # a tie draws again
    assert seats == [dealer]


def test_a_given_dealer_overrides_the_draw() -> None:
    match = Match(Rules.preset("callbreak").replace(first_dealer="draw_low"), seed=1, dealer=2)
    assert match.dealer == 2
    assert match.dealer_draw.method == "given"


def test_a_seed_reproduces_the_whole_match() -> None:
    rules = Rules.preset("callbreak")
    results = []
    for _ in range(2):
        match = Match(rules, seed=99)
        play_match(match, random.Random(1))
        results.append(([e.deal.history for e in match.entries], match.totals, match.winners))
    assert results[0] == results[1]


# ------------------------------------------------------------------ totals and the end
@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("callbreak", {}),
        ("callbreak-bhoos", {}),
        ("callbridge", {"match_end": "deals:5"}),
        ("callbreak", {"bonus_call": 8, "match_deals": 3, "tie_break": "shared"}),
    ],
)
def test_totals_are_the_sum_of_the_scored_deals(preset: str, options: dict[str, Any]) -> None:
    rules = Rules.preset(preset).replace(**options)
    for seed in range(6):
        match = Match(rules, seed=seed)
        rng = random.Random(seed)
        while not match.over:
            play_deal(match, None, rng)
            assert match.totals == totals_from_entries(match)
            if match.entries:
                assert list(match.entries[-1].totals) == match.totals
        for seat in range(4):
            obs = match.observation(seat)
            assert obs.totals == tuple(match.totals)


def test_nothing_can_be_done_after_the_match() -> None:
    match = Match(Rules.preset("callbreak").replace(match_deals=1, tie_break="shared"), seed=3)
    play_match(match, random.Random(3))
    assert match.over
    assert match.phase == "over"
    assert match.to_act is None
    assert match.legal() == []
    totals = list(match.totals)
    for action in (3, True, "AS"):
        with pytest.raises(IllegalAction) as error:
            match.act(action)
        assert error.value.rule == "phase"
    assert match.totals == totals


def test_illegal_actions_in_a_match_change_nothing() -> None:
    match = Match(Rules.preset("callbreak"), seed=4, dealer=0)
    before = (match.phase, match.to_act, match.legal(), list(match.totals), len(match.entries))
    for action in (0, 14, "AS", True):
        with pytest.raises(IllegalAction):
            match.act(action)
    assert (
        match.phase,
        match.to_act,
        match.legal(),
        list(match.totals),
        len(match.entries),
    ) == before


def test_a_call_is_read_from_decimal_digits_only() -> None:
    match = Match(Rules.preset("callbreak"), seed=1)
    seat = match.to_act
    assert seat is not None
    with pytest.raises(IllegalAction) as refused:
        match.act("²")  # a digit to str.isdigit, but int() cannot read it
    assert refused.value.rule and match.to_act == seat and match.deal.calls == [None] * 4
    match.act(" 05")
    assert match.deal.calls[seat] == 5


# ------------------------------------------------------------------ endless redeals
def throw_in(match: Match) -> None:
    """Void the current deal: play on past a misdeal question, then everyone calls 1 (under 8)."""
    deal = match.deal
    while match.deal is deal:
        match.act(False if match.phase == "misdeal" else 1)


def test_a_match_whose_every_deal_is_thrown_in_stops_with_a_clear_error() -> None:
    match = Match(Rules.preset("callbreak"), seed=7)
    with pytest.raises(EndlessRedeal) as raised:
        while not match.over:
            match.act(match.legal()[0])  # everyone calls 1: the calls total 4, below 8
    message = str(raised.value)
    assert f"{VOID_LIMIT} deals in a row were thrown in" in message
    assert "min_total_calls=8" in message
    assert "void_limit" in message
    assert VOID_LIMIT == 100
    assert [e.deal.phase for e in match.entries] == ["void"] * VOID_LIMIT
    assert not match.over
    assert match.totals == [Points(0)] * 4


def test_a_played_deal_resets_the_count_of_thrown_in_deals() -> None:
    match = Match(Rules.preset("callbreak"), seed=3, dealer=0, void_limit=3)
    rng = random.Random(3)
    throw_in(match)
    throw_in(match)
    play_deal(match, [3, 3, 3, 3], rng)
    throw_in(match)
    throw_in(match)
    assert [e.deal.phase for e in match.entries] == ["void", "void", "over", "void", "void"]
    with pytest.raises(EndlessRedeal, match="3 deals in a row"):
        throw_in(match)
    assert len(match.entries) == 6


def test_no_limit_redeals_as_long_as_it_is_asked() -> None:
    match = Match(Rules.preset("callbreak"), seed=3, dealer=0, void_limit=None)
    for _ in range(VOID_LIMIT + 20):
        throw_in(match)
    play_deal(match, [3, 3, 3, 3], random.Random(3))
    assert len(match.entries) == VOID_LIMIT + 21
    assert match.entries[-1].deal.phase == "over"
    assert match.deal_number == 2


def test_deals_thrown_in_as_dealt_count_too() -> None:
    rules = Rules.preset("callbreak").replace(misdeal="auto")
    hands = [with_no_spade_seat(s % 4) for s in range(3)] + [NORMAL]
    with pytest.raises(EndlessRedeal, match="2 deals in a row"):
        Match(rules, dealer=1, hands=hands, void_limit=2)
    match = Match(rules, dealer=1, hands=hands, void_limit=4)
    assert [e.deal.phase for e in match.entries] == ["void"] * 3
    assert match.phase == "call"


@pytest.mark.parametrize("bad", [0, -1, True, 2.5, "3"])
def test_a_bad_redeal_limit_is_refused(bad: Any) -> None:
    with pytest.raises(ValueError, match="void_limit must be a whole number"):
        Match(Rules.preset("callbreak"), seed=1, void_limit=bad)


def test_a_record_with_more_thrown_in_deals_than_the_limit_replays() -> None:
    match = Match(Rules.preset("callbreak"), seed=11, dealer=0, void_limit=None)
    for _ in range(VOID_LIMIT + 5):
        throw_in(match)
    play_match(match, random.Random(11))
    report = replay(loads(dumps(match_record(match))))
    assert report.deals == len(match.entries)
    assert report.totals == match.totals
    assert report.complete


@pytest.mark.parametrize("bad", [-1, 2**63, 2**70, 1.5, True, "7"])
def test_a_seed_outside_63_bits_is_refused(bad: Any) -> None:
    """Records hold seeds from 0 to 2**63 - 1 (docs/record-format.md): a match dealt from any
    other would write a record that other readers cannot take."""
    with pytest.raises(ValueError, match=r"seed must be a whole number from 0 to 2\*\*63 - 1"):
        Match(Rules.preset("callbreak"), seed=bad)


@pytest.mark.parametrize("seed", [0, 2**63 - 1])
def test_the_seeds_at_either_end_of_the_range_deal(seed: int) -> None:
    assert Match(Rules.preset("callbreak"), seed=seed).seed == seed
