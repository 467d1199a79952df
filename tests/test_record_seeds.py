"""The seeds a record names, and the fields it may not leave out.

A record's deals follow from its match seed (``Match.deal_seed``), and a match resumed from
the record deals on from that seed: the replay checks that every shuffled deal's seed is
the one the match seed gives it, that every seed is a 63-bit integer, and that the fields
the format says are never missing (the seats, the seed, the draws) are there.  The arena's
records, whose first deal is a deal set shuffled from a seed of its own, still replay.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from callbreak.decks import STANDARD
from callbreak.engine.deal import Deal, shuffled_deck
from callbreak.engine.match import Match
from callbreak.record import Record, RecordError, match_record, replay
from callbreak.rules import Rules

CALLBREAK = Rules.preset("callbreak")


def played(match: Match, seed: int, until: int | None = None) -> Match:
    """``match`` played by ``random.Random(seed)`` to its end, or until ``until`` deals are
    booked (the next one untouched)."""
    rng = random.Random(seed)
    while not match.over and (until is None or len(match.entries) < until):
        match.act(rng.choice(match.legal()))
    return match


def error_of(record: Record) -> str:
    with pytest.raises(RecordError) as failed:
        replay(record)
    return str(failed.value)


def same_first_dealer(seed: int) -> int:
    """Another match seed that draws the same first dealer as ``seed`` (so that only the
    deal seeds can tell the two apart)."""
    dealer = Match(CALLBREAK, seed=seed).dealer
    return next(s for s in range(seed + 1, seed + 200) if Match(CALLBREAK, seed=s).dealer == dealer)


@pytest.fixture(scope="module")
def finished() -> Record:
    return match_record(played(Match(CALLBREAK, seed=1), 0))


def test_a_changed_match_seed_fails_at_the_first_deal_it_does_not_give(finished: Record) -> None:
    record = copy.deepcopy(finished)
    record["seed"] = same_first_dealer(1)
    assert error_of(record).startswith(
        f"deal 1: the shuffle seed is {finished['deals'][0]['seed']} in the record, but the "
        f"match seed {record['seed']} gives"
    )


def test_an_unfinished_match_with_a_changed_seed_is_refused_before_it_resumes() -> None:
    """The case that matters most: a resumed match deals its next deal from the match seed."""
    record = match_record(played(Match(CALLBREAK, seed=1), 0, until=1))
    assert replay(record).match.seed == 1
    record["seed"] = same_first_dealer(1)
    assert "gives" in error_of(record)


def test_a_deal_whose_seed_and_layout_were_changed_together_is_refused() -> None:
    """Deal 2 redealt from another seed, hands and all: each seed deals its layout, but not
    the one the match seed gives deal 2."""
    match = played(Match(CALLBREAK, seed=4), 4, until=1)
    record = match_record(match)
    second = record["deals"][1]
    assert second["actions"] == [] and second["seed"] == match.deal_seed(1)
    other = Deal(CALLBREAK, seed=12345, dealer=second["dealer"])
    second["seed"] = 12345
    second["hands"] = [other.hand(seat) for seat in range(4)]
    assert error_of(record).startswith(
        f"deal 2: the shuffle seed is 12345 in the record, but the match seed 4 gives "
        f"{match.deal_seed(1)} (Match(rules, seed).deal_seed(1))"
    )


def test_an_arena_record_whose_first_deal_names_its_deal_sets_seed_replays() -> None:
    """As ``arena.play.deal_match`` makes them: a given dealer, the deal set's deck as the
    first deal with that set's seed, later deals from the match seed."""
    set_seed = 987654321
    deck = shuffled_deck(STANDARD, random.Random(set_seed))
    match = Match(CALLBREAK, seed=55, dealer=2, decks=[deck])
    match.deal.seed = set_seed
    record = match_record(played(match, 3))
    assert record["first_dealer"]["method"] == "given"
    assert record["deals"][0]["seed"] == set_seed != match.deal_seed(0)
    assert record["deals"][1]["seed"] == match.deal_seed(1)
    assert replay(record).complete
    record["deals"][1]["seed"] = set_seed  # only the first deal may name its own shuffle
    assert error_of(record).startswith("deal 2")


def test_a_given_layout_without_a_seed_still_replays() -> None:
    hands = [[STANDARD.names[c] for c in range(s * 13, s * 13 + 13)] for s in range(4)]
    record = match_record(played(Match(CALLBREAK, seed=8, hands=[hands]), 8))
    assert record["deals"][0]["seed"] is None and record["seed"] == 8
    assert replay(record).complete


@pytest.mark.parametrize(
    ("seed", "spelt"),
    [
        (2**63, str(2**63)),
        (2**70, str(2**70)),
        (-1, "-1"),
        (1.5, "1.5"),
        (True, "true"),
        ("7", '"7"'),
    ],
)
def test_a_match_seed_outside_63_bits_is_refused(finished: Record, seed: Any, spelt: str) -> None:
    """The refused seed is spelt as the record spells it (``true``, ``"7"``), not as Python
    does (``True``, ``'7'``)."""
    record = {**finished, "seed": seed}
    assert error_of(record) == (
        f"seed: the match seed must be a whole number from 0 to 2**63 - 1, not {spelt}"
    )


@pytest.mark.parametrize(
    ("seed", "spelt"), [(2**63, str(2**63)), (-1, "-1"), (1.5, "1.5"), (True, "true")]
)
def test_a_deal_seed_outside_63_bits_is_refused(finished: Record, seed: Any, spelt: str) -> None:
    record = copy.deepcopy(finished)
    record["deals"][0]["seed"] = seed
    assert error_of(record) == (
        f"deal 1: the shuffle seed must be a whole number from 0 to 2**63 - 1, not {spelt}"
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.pop("seats"), "record: missing 'seats'"),
        (lambda r: r.pop("seed"), "record: missing 'seed'"),
        (lambda r: r["first_dealer"].pop("draws"), "first_dealer: missing 'draws'"),
        (lambda r: r["seats"][0].pop("player"), "seats, seat 0: missing 'player'"),
        (
            lambda r: r["seats"][1].update(player=5),
            "seats, seat 1: the player must be a string, not 5",
        ),
        (
            lambda r: r["seats"].__setitem__(2, "bot:random"),
            "seats, seat 2: expected a JSON object, found str",
        ),
    ],
)
def test_the_fields_that_are_never_missing_are_required(
    finished: Record, change: Any, message: str
) -> None:
    record = copy.deepcopy(finished)
    change(record)
    assert error_of(record) == message


def test_a_rook_deck_draw_for_the_first_dealer_replays() -> None:
    """Call Partner draws from its own deck: the replay reads those cards in it."""
    rules = Rules.preset("rook-call-partner").replace(first_dealer="draw_high")
    match = played(Match(rules, seed=3), 3, until=1)
    record = match_record(match)
    drawn = [card for _, card in record["first_dealer"]["draws"][0]]
    assert all(card == "ROOK" or card[-1] in "RYGB" for card in drawn), drawn
    assert replay(record).match.dealer_draw == match.dealer_draw
