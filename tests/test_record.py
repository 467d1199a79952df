"""The game record: written from real matches, read back, re-played, and caught when tampered with.

Matches are played by the seeded random-legal policy of ``tests/golden/make_golden.py``
so that every test is reproducible and the golden files use the same driver.
"""

from __future__ import annotations

import copy
import json
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from callbreak.cli.main import app
from callbreak.engine.deal import Deal
from callbreak.engine.match import Match
from callbreak.points import Points
from callbreak.record import (
    FORMAT,
    Record,
    RecordError,
    ReplayReport,
    dumps,
    loads,
    match_record,
    read_records,
    replay,
    write_record,
)
from callbreak.rules import Rules
from golden.make_golden import GOLDEN, HERE, generate, play_random


# ----------------------------------------------------------------- helpers
def played(
    rules: Rules | str,
    seed: int,
    deals: int | None = None,
    max_actions: int | None = None,
) -> Match:
    """A match of ``rules`` from ``seed`` played by ``random.Random(seed)``."""
    match = Match(Rules.preset(rules) if isinstance(rules, str) else rules, seed=seed)
    play_random(match, random.Random(seed), deals, max_actions)
    return match


def first_seed(
    rules: Rules | str, test: Callable[[Match], bool], deals: int | None = None
) -> Match:
    """The first seeded match (seed 0, 1, ..) that passes ``test``: a scenario picked by search,
    so that a change of the shuffle moves the seed but keeps the scenario."""
    for seed in range(500):
        match = played(rules, seed, deals)
        if test(match):
            return match
    raise AssertionError("no seed below 500 gives the scenario")


def through_file(record: Record, path: Path) -> Record:
    write_record(path, record)
    (back,) = read_records(path)
    return back


def assert_round_trip(match: Match, tmp_path: Path) -> tuple[Record, ReplayReport]:
    """Record → file → read → replay gives the match's result, and re-records identically."""
    record = match_record(match)
    back = through_file(record, tmp_path / "match.json")
    assert back == record
    report = replay(back)
    assert report.totals == match.totals
    assert report.winners == match.winners
    assert report.complete == match.over
    assert report.deals == len(record["deals"])
    assert report.scored_deals == len(match.scored_deals)
    assert match_record(report.match) == record
    return record, report


def labels(record: Record) -> list[str]:
    """The location name replay uses for each deal: a redeal repeats its void deal's number."""
    seen: dict[int, int] = {}
    out = []
    for deal in record["deals"]:
        k = seen.get(deal["number"], 0)
        seen[deal["number"]] = k + 1
        out.append(f"deal {deal['number']}" + (f" (redeal {k})" if k else ""))
    return out


def replay_error(record: Record) -> str:
    with pytest.raises(RecordError) as caught:
        replay(record)
    return str(caught.value)


def played_deal_index(record: Record, nth: int = 0) -> int:
    """Index of the ``nth`` deal of the record that was played out (not void)."""
    played_out = [i for i, d in enumerate(record["deals"]) if d["void"] is None and d["points"]]
    return played_out[nth]


@pytest.fixture(scope="module")
def callbreak_record() -> Record:
    return match_record(played("callbreak", 11))


# ------------------------------------------------------------- round trips
@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_callbreak_round_trip(seed: int, tmp_path: Path) -> None:
    record, report = assert_round_trip(played("callbreak", seed), tmp_path)
    assert record["format"] == FORMAT
    assert record["rules"] == Rules.preset("callbreak").to_dict()
    assert record["seed"] == seed
    assert report.complete and report.scored_deals == 5
    assert [s["name"] for s in record["seats"]] == ["Seat 0", "Seat 1", "Seat 2", "Seat 3"]
    assert {s["player"] for s in record["seats"]} == {"unknown"}


@pytest.mark.parametrize(
    "changes",
    [
        {"declare_voids": True, "misdeal": "off"},
        {"misdeal_no_spade": True, "misdeal": "off"},
        {"first_dealer": "draw_low", "spades_broken": True, "no_waste_trump": True},
        {"first_dealer": "draw_high", "must_trump": "always", "bonus_call": 8},
    ],
)
def test_house_rules_round_trip(changes: dict[str, Any], tmp_path: Path) -> None:
    rules = Rules.preset("callbreak").replace(**changes)
    for seed in range(3):
        record, _ = assert_round_trip(played(rules, seed), tmp_path)
        assert record["rules"] == rules.to_dict()
        assert record["first_dealer"]["method"] == rules.first_dealer
        if rules.first_dealer != "random":
            final = record["first_dealer"]["draws"][-1]
            assert record["first_dealer"]["dealer"] in [seat for seat, _ in final]
        if rules.declare_voids:
            assert all(
                isinstance(d["declared"], bool) for r in record["deals"] for d in r["declarations"]
            )


def test_declarations_are_recorded_and_checked() -> None:
    rules = Rules.preset("callbreak").replace(declare_voids=True, misdeal="off")
    match = first_seed(rules, lambda m: any(e.deal.declared for e in m.entries))
    record = match_record(match)
    index, item = next(
        (i, d["declarations"][0]) for i, d in enumerate(record["deals"]) if d["declarations"]
    )
    assert set(item) == {"seat", "declared"}
    at = action_at(record, index, "declare")
    assert record["deals"][index]["actions"][at]["seat"] == item["seat"]
    bad = tampered(
        record,
        lambda r: r["deals"][index]["actions"][at].__setitem__("seat", (item["seat"] + 1) % 4),
    )
    message = replay_error(bad)
    assert message.startswith(f"{labels(bad)[index]}, seat {(item['seat'] + 1) % 4}: ")
    assert "a void declaration is recorded, but seat" in message
    # The derived list is checked against what the actions did.
    bad = tampered(
        record,
        lambda r: r["deals"][index]["declarations"][0].__setitem__(
            "declared", not item["declared"]
        ),
    )
    assert replay_error(bad).startswith(f"{labels(bad)[index]}: void declaration 1 is ")


def test_a_first_dealer_draw_is_checked_against_the_seed() -> None:
    rules = Rules.preset("callbreak").replace(first_dealer="draw_high")
    record = match_record(played(rules, 8, max_actions=5))
    replay(record)

    def change(r: Record) -> None:
        seat, card = r["first_dealer"]["draws"][0][0]
        r["first_dealer"]["draws"][0][0] = [seat, "2C" if card != "2C" else "3C"]

    assert replay_error(tampered(record, change)).startswith("first_dealer: seed 8 draws seat")


def test_bhoos_auto_misdeal_void_deals_are_recorded(tmp_path: Path) -> None:
    match = first_seed(
        "callbreak-bhoos",
        lambda m: any(e.deal.void_reason for e in m.entries) and m.over,
    )
    record, report = assert_round_trip(match, tmp_path)
    deals = record["deals"]
    voids = [i for i, d in enumerate(deals) if d["void"] is not None]
    assert voids
    for i in voids:
        void = deals[i]
        assert void["void"].startswith("misdeal:") and "misdeal=auto" in void["void"]
        assert void["misdeal_claims"] == [] and void["tricks"] == []
        assert void["calls"] == [None] * 4 and void["points"] == [0, 0, 0, 0]
        # The same dealer deals again, under the same number.
        redeal = deals[i + 1]
        assert (redeal["dealer"], redeal["number"]) == (void["dealer"], void["number"])
    assert report.scored_deals == 5 and len(deals) == 5 + len(voids)


def test_claimed_misdeal_and_too_few_calls_are_recorded(tmp_path: Path) -> None:
    rules = Rules.preset("callbreak").replace(min_total_calls=30)  # random calls sum to ~28
    match = first_seed(
        rules,
        lambda m: (
            any(c for e in m.entries for _, c in e.deal.claims)
            and any((e.deal.void_reason or "").startswith("calls total") for e in m.entries)
        ),
    )
    record, _ = assert_round_trip(match, tmp_path)
    reasons = [d["void"] for d in record["deals"] if d["void"]]
    assert any(r.startswith("misdeal claimed") for r in reasons)
    assert any(r.startswith("calls total") for r in reasons)
    claims = [c for d in record["deals"] for c in d["misdeal_claims"]]
    assert any(c["claim"] for c in claims)


def test_callbridge_open_match_finished_after_three_deals(tmp_path: Path) -> None:
    match = first_seed("callbridge", lambda m: not m.entries[-1].tie_break, deals=3)
    record, report = assert_round_trip(match, tmp_path)
    assert record["rules"]["match_end"] == "open"
    assert len(record["deals"]) == 3 and report.complete
    assert record["result"]["winners"] == match.winners


def test_callbridge_finish_with_a_tie_plays_the_tie_break(tmp_path: Path) -> None:
    match = first_seed("callbridge", lambda m: m.entries[-1].tie_break, deals=3)
    record, report = assert_round_trip(match, tmp_path)
    tie = record["deals"][3]
    assert tie["tie_break"] and 2 <= len(tie["counting_seats"]) <= 4
    assert len(report.winners) == 1


def test_extra_deal_tie_break_is_recorded(tmp_path: Path) -> None:
    rules = Rules.preset("callbreak").replace(match_deals=1)
    match = first_seed(rules, lambda m: any(e.tie_break for e in m.entries))
    record, report = assert_round_trip(match, tmp_path)
    first, *extra = [d for d in record["deals"] if d["void"] is None]
    assert not first["tie_break"] and first["counting_seats"] == [0, 1, 2, 3]
    assert extra and all(d["tie_break"] for d in extra)
    counting = extra[0]["counting_seats"]
    assert 2 <= len(counting) < 4
    # Only the tied seats' points count in the extra deal.
    for seat in range(4):
        before = Points.parse(first["totals"][seat])
        after = Points.parse(extra[0]["totals"][seat])
        gained = Points.parse(extra[0]["points"][seat]) if seat in counting else Points(0)
        assert after == before + gained
    assert report.winners == match.winners and len(report.winners) == 1


def test_shared_tie_records_several_winners(tmp_path: Path) -> None:
    rules = Rules.preset("callbreak").replace(match_deals=1, tie_break="shared")
    match = first_seed(rules, lambda m: len(m.winners) > 1)
    record, report = assert_round_trip(match, tmp_path)
    assert len(record["result"]["winners"]) > 1
    assert sorted(report.winners) == sorted(record["result"]["winners"])


@pytest.mark.parametrize("actions", [0, 2, 9, 30, 61, 200])
def test_unfinished_match_replays_up_to_where_it_stops(actions: int, tmp_path: Path) -> None:
    match = played("callbreak", 4, max_actions=actions)
    assert not match.over
    record, report = assert_round_trip(match, tmp_path)
    assert record["result"]["complete"] is False
    last = record["deals"][-1]
    assert last["points"] is None and last["totals"] is None
    rebuilt = report.match
    assert rebuilt.deal.dealt == match.deal.dealt
    assert (rebuilt.phase, rebuilt.to_act) == (match.phase, match.to_act)
    assert rebuilt.deal.trick == match.deal.trick and rebuilt.deal.calls == match.deal.calls
    # The rebuilt match carries on the deal exactly as the original would.  (Later deals
    # are shuffled afresh: the engine offers no way to resume its seeded generator.)
    rng = random.Random(99)
    deal, again = match.deal, rebuilt.deal
    while match.deal is deal and rebuilt.deal is again and not match.over:
        legal = match.legal()
        assert rebuilt.legal() == legal
        action = rng.choice(legal)
        match.act(action)
        rebuilt.act(action)
    assert rebuilt.totals == match.totals and rebuilt.over == match.over


def test_unfinished_trick_has_no_winner() -> None:
    match = played("callbridge", 5, max_actions=6)  # 4 calls, 2 cards
    record = match_record(match)
    (trick,) = record["deals"][-1]["tricks"]
    assert "winner" not in trick and len(trick["cards"]) == 2
    assert replay(record).match.deal.trick == match.deal.trick


@settings(max_examples=12, deadline=None)
@given(
    preset=st.sampled_from(["callbreak", "callbreak-bhoos", "callbridge"]),
    seed=st.integers(0, 10_000),
    stop=st.one_of(st.none(), st.integers(0, 400)),
)
def test_any_match_record_replays(preset: str, seed: int, stop: int | None) -> None:
    match = played(preset, seed, deals=2 if preset == "callbridge" else None, max_actions=stop)
    record = loads(dumps(match_record(match)))
    report = replay(record)
    assert report.totals == match.totals and report.complete == match.over
    assert match_record(report.match) == record


# ------------------------------------------------------------ JSON and files
def test_points_are_json_numbers_that_read_back_exactly(callbreak_record: Record) -> None:
    text = dumps(callbreak_record)
    values = [v for d in json.loads(text)["deals"] for v in d["points"] + d["totals"]]
    assert all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values)
    assert any(isinstance(v, float) for v in values)  # overtricks give tenths
    match = played("callbreak", 11)
    for entry, deal in zip(match.entries, json.loads(text)["deals"], strict=True):
        assert [Points.parse(v) for v in deal["totals"]] == list(entry.totals)
        points = entry.deal.points
        assert points is not None
        assert [Points.parse(v) for v in deal["points"]] == points
        assert [str(Points.parse(v)) for v in deal["points"]] == [str(p) for p in points]


def test_seats_are_recorded() -> None:
    match = played("callbreak", 1, max_actions=3)
    record = match_record(
        match, seats=[{"name": "Ann", "player": "human"}, ("Bob", "bot:random"), "bot:expert", {}]
    )
    assert record["seats"] == [
        {"name": "Ann", "player": "human"},
        {"name": "Bob", "player": "bot:random"},
        {"name": "Seat 2", "player": "bot:expert"},
        {"name": "Seat 3", "player": "unknown"},
    ]
    assert match_record(match, seed=77)["seed"] == 77
    with pytest.raises(ValueError, match="give 4 seats"):
        match_record(match, seats=["human"])


def test_json_lines_hold_one_match_per_line(tmp_path: Path) -> None:
    records = [match_record(played("callbreak", seed)) for seed in range(3)]
    path = tmp_path / "arena.jsonl"
    write_record(path, records)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3 and all(json.loads(line)["format"] == FORMAT for line in lines)
    assert read_records(path) == records
    # A list is JSON Lines whatever the name, and still reads back.
    other = tmp_path / "arena.json"
    write_record(other, records)
    assert read_records(other) == records
    # One record to a .jsonl path is one line.
    single = tmp_path / "one.jsonl"
    write_record(single, records[0])
    assert len(single.read_text(encoding="utf-8").splitlines()) == 1
    assert read_records(single) == records[:1]
    # A JSON array of records reads too.
    array = tmp_path / "array.json"
    array.write_text(json.dumps(records), encoding="utf-8")
    assert read_records(array) == records


def test_pretty_json_keeps_hands_and_tricks_on_one_line(
    callbreak_record: Record, tmp_path: Path
) -> None:
    path = tmp_path / "one.json"
    write_record(path, callbreak_record)
    text = path.read_text(encoding="utf-8")
    assert text.startswith('{\n  "format": "callbreak-record/2",\n')
    assert max(len(line) for line in text.splitlines()) <= 100
    first_trick = callbreak_record["deals"][0]["tricks"][0]
    assert json.dumps(first_trick) in text
    assert json.loads(text) == callbreak_record


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"rules": {}}', 'no "format" field'),
        ('{"format": "callbreak-record/9"}', 'unsupported format "callbreak-record/9"'),
        ("[1, 2]", "record 1: a record is a JSON object"),
        ("{not json", "not valid JSON"),
        ("", "the file is empty"),
    ],
)
def test_reading_a_file_that_is_not_a_record_is_a_clear_error(
    content: str, message: str, tmp_path: Path
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(RecordError, match=message) as caught:
        read_records(path)
    assert str(caught.value).startswith(str(path))


def test_json_lines_error_names_the_line(callbreak_record: Record, tmp_path: Path) -> None:
    path = tmp_path / "many.jsonl"
    path.write_text(dumps(callbreak_record) + "\n\n" + '{"format": "other"}\n', encoding="utf-8")
    with pytest.raises(RecordError, match=r'many\.jsonl, line 3: unsupported format "other"'):
        read_records(path)
    with pytest.raises(RecordError, match='no "format" field'):
        replay({"deals": []})


# --------------------------------------------------------------- tampering
def action_at(record: Record, index: int, phase: str, seat: int | None = None, nth: int = 0) -> int:
    """Position in deal ``index``'s action log of the ``nth`` action of ``phase`` (by ``seat``)."""
    found = [
        i
        for i, item in enumerate(record["deals"][index]["actions"])
        if item["phase"] == phase and (seat is None or item["seat"] == seat)
    ]
    return found[nth]


def find_illegal_card(record: Record) -> tuple[int, int, int, int, str]:
    """Where a seat holds a card it may not play: (deal index, action, trick, seat, card)."""
    rules = Rules.from_dict(record["rules"])
    for index, data in enumerate(record["deals"]):
        if data["void"] is not None:
            continue
        deal = Deal(rules, data["hands"], dealer=data["dealer"])
        for at, item in enumerate(data["actions"]):
            if item["phase"] == "play":
                seat = deal.to_act
                assert seat is not None and seat == item["seat"]
                illegal = [c for c in deal.hand(seat) if c not in deal.legal()]
                if illegal:
                    return index, at, len(deal.history) + 1, seat, illegal[0]
            deal.act(item["action"])
    raise AssertionError("every card was forced")


def tampered(record: Record, change: Callable[[Record], Any]) -> Record:
    copied = copy.deepcopy(record)
    change(copied)
    return copied


def test_an_illegal_card_names_deal_trick_seat_and_rule(callbreak_record: Record) -> None:
    index, at, number, seat, card = find_illegal_card(callbreak_record)
    record = tampered(
        callbreak_record,
        lambda r: r["deals"][index]["actions"][at].__setitem__("action", card),
    )
    message = replay_error(record)
    location = f"{labels(record)[index]}, trick {number}, seat {seat}: {card} is not allowed: "
    assert message.startswith(location), message
    assert len(message) > len(location) + 10  # the engine's explanation follows


def test_a_card_not_in_hand_is_refused(callbreak_record: Record) -> None:
    index = played_deal_index(callbreak_record)
    deal = callbreak_record["deals"][index]
    leader = deal["tricks"][0]["leader"]
    foreign = deal["hands"][(leader + 1) % 4][0]
    at = action_at(callbreak_record, index, "play")
    record = tampered(
        callbreak_record, lambda r: r["deals"][index]["actions"][at].__setitem__("action", foreign)
    )
    message = replay_error(record)
    assert message.startswith(f"{labels(record)[index]}, trick 1, seat {leader}: "), message
    # The derived trick alone changed: the cards the actions play are named.
    record = tampered(
        callbreak_record, lambda r: r["deals"][index]["tricks"][0]["cards"].__setitem__(0, foreign)
    )
    message = replay_error(record)
    assert message.startswith(f"{labels(record)[index]}, trick 1: the cards are {foreign} "), (
        message
    )


def test_a_wrong_winner_is_caught(callbreak_record: Record) -> None:
    index = played_deal_index(callbreak_record, 1)
    trick = callbreak_record["deals"][index]["tricks"][4]
    wrong = (trick["winner"] + 1) % 4
    record = tampered(
        callbreak_record, lambda r: r["deals"][index]["tricks"][4].__setitem__("winner", wrong)
    )
    message = replay_error(record)
    assert message.startswith(
        f"{labels(record)[index]}, trick 5: the winner is seat {wrong} in the record, "
        f"the play gives seat {trick['winner']}"
    ), message


def test_a_wrong_leader_is_caught(callbreak_record: Record) -> None:
    index = played_deal_index(callbreak_record)

    def change(r: Record) -> None:
        trick = r["deals"][index]["tricks"][3]
        trick["leader"] = (trick["leader"] + 1) % 4

    message = replay_error(tampered(callbreak_record, change))
    assert message.startswith(f"{labels(callbreak_record)[index]}, trick 4: the leader is seat")
    assert "the winner of trick 3 leads" in message


def test_a_wrong_total_is_caught(callbreak_record: Record) -> None:
    index = played_deal_index(callbreak_record, 1)
    total = Points.parse(callbreak_record["deals"][index]["totals"][2])
    record = tampered(
        callbreak_record,
        lambda r: r["deals"][index]["totals"].__setitem__(2, (total + Points(1)).json()),
    )
    assert replay_error(record) == (
        f"{labels(record)[index]}: total for seat 2 is {total + Points(1)} in the record, "
        f"the match gives {total}"
    )


def test_wrong_points_are_caught(callbreak_record: Record) -> None:
    index = played_deal_index(callbreak_record)
    points = Points.parse(callbreak_record["deals"][index]["points"][1])
    record = tampered(
        callbreak_record,
        lambda r: r["deals"][index]["points"].__setitem__(1, (points - Points(1)).json()),
    )
    assert replay_error(record) == (
        f"{labels(record)[index]}: points for seat 1 are {points - Points(1)} in the record, "
        f"the rules give {points}"
    )


def test_a_wrong_result_is_caught(callbreak_record: Record) -> None:
    winners = callbreak_record["result"]["winners"]
    record = tampered(
        callbreak_record, lambda r: r["result"].__setitem__("winners", [(winners[0] + 1) % 4])
    )
    assert replay_error(record).startswith("result: the winners are")
    record = tampered(callbreak_record, lambda r: r["result"].__setitem__("complete", False))
    assert replay_error(record) == (
        "result: the record says the match is unfinished, but it is over"
    )
    record = tampered(callbreak_record, lambda r: r["result"]["totals"].__setitem__(0, 999))
    assert replay_error(record).startswith("result: total for seat 0 is 999 in the record")


def test_a_duplicate_card_in_the_hands_is_caught(callbreak_record: Record) -> None:
    duplicate = callbreak_record["deals"][0]["hands"][1][0]
    record = tampered(
        callbreak_record, lambda r: r["deals"][0]["hands"][2].__setitem__(0, duplicate)
    )
    assert replay_error(record) == f"deal 1, seat 2: {duplicate} is dealt also to seat 1"
    again = callbreak_record["deals"][0]["hands"][3][0]
    record = tampered(callbreak_record, lambda r: r["deals"][0]["hands"][3].__setitem__(1, again))
    assert replay_error(record).startswith("deal 1, seat 3: ") and "twice" in replay_error(record)


def test_a_hand_of_the_wrong_size_or_a_bad_card_is_caught(callbreak_record: Record) -> None:
    last = len(callbreak_record["deals"]) - 1
    record = tampered(callbreak_record, lambda r: r["deals"][last]["hands"][0].pop())
    label = labels(record)[last]
    assert replay_error(record) == f"{label}, seat 0: the hand holds 12 cards; each needs 13"
    record = tampered(callbreak_record, lambda r: r["deals"][0]["hands"][1].__setitem__(4, "ZZ"))
    assert replay_error(record).startswith("deal 1, seat 1: 'ZZ' is not a card")


def test_hands_that_the_seed_does_not_deal_are_caught(callbreak_record: Record) -> None:
    def swap(r: Record) -> None:
        hands = r["deals"][0]["hands"]
        hands[0][0], hands[1][0] = hands[1][0], hands[0][0]

    message = replay_error(tampered(callbreak_record, swap))
    assert message.startswith("deal 1, seat 0: the hand is not the one shuffle seed"), message


def test_a_wrong_dealer_is_caught(callbreak_record: Record) -> None:
    index = played_deal_index(callbreak_record, 1)
    dealer = callbreak_record["deals"][index]["dealer"]
    record = tampered(
        callbreak_record, lambda r: r["deals"][index].__setitem__("dealer", (dealer + 1) % 4)
    )
    assert replay_error(record).startswith(
        f"{labels(record)[index]}: the dealer is seat {(dealer + 1) % 4} in the record, "
        f"the match gives seat {dealer}"
    )
    first = (callbreak_record["first_dealer"]["dealer"] + 1) % 4
    record = tampered(callbreak_record, lambda r: r["first_dealer"].__setitem__("dealer", first))
    assert replay_error(record).startswith("first_dealer: ")


def test_a_redeal_by_another_dealer_is_caught() -> None:
    record = match_record(
        first_seed("callbreak-bhoos", lambda m: any(e.deal.void_reason for e in m.entries))
    )
    index = next(i for i, d in enumerate(record["deals"]) if d["void"]) + 1
    dealer = record["deals"][index]["dealer"]
    bad = tampered(record, lambda r: r["deals"][index].__setitem__("dealer", (dealer + 1) % 4))
    message = replay_error(bad)
    assert message.startswith(f"{labels(bad)[index]}: the dealer is seat")
    assert "(redeal 1)" in labels(bad)[index]
    assert "a void deal is redealt by the same dealer" in message


def test_a_wrong_void_reason_or_missing_void_is_caught() -> None:
    record = match_record(
        first_seed("callbreak-bhoos", lambda m: any(e.deal.void_reason for e in m.entries))
    )
    index = next(i for i, d in enumerate(record["deals"]) if d["void"])
    bad = tampered(record, lambda r: r["deals"][index].__setitem__("void", "bored"))
    assert replay_error(bad).startswith(f'{labels(bad)[index]}: the void reason is "bored"')
    bad = tampered(record, lambda r: r["deals"][index].__setitem__("void", None))
    assert "the rules throw it in" in replay_error(bad)


def test_an_illegal_call_and_a_call_out_of_turn_are_caught(callbreak_record: Record) -> None:
    index = played_deal_index(callbreak_record)
    seat = (callbreak_record["deals"][index]["dealer"] + 2) % 4
    at = action_at(callbreak_record, index, "call", seat)
    record = tampered(
        callbreak_record, lambda r: r["deals"][index]["actions"][at].__setitem__("action", 14)
    )
    assert replay_error(record).startswith(
        f"{labels(record)[index]}, seat {seat}: 14 is not a call: call a whole number from 1 to 13"
    )
    call = callbreak_record["deals"][index]["calls"][seat]
    record = tampered(callbreak_record, lambda r: r["deals"][index]["calls"].__setitem__(seat, 14))
    assert replay_error(record) == (
        f"{labels(record)[index]}, seat {seat}: the call is 14 in the record, the play gives {call}"
    )
    first = (callbreak_record["deals"][index]["dealer"] + 1) % 4
    at = action_at(callbreak_record, index, "call", first)
    record = tampered(callbreak_record, lambda r: r["deals"][index]["actions"].pop(at))
    assert replay_error(record).startswith(
        f"{labels(record)[index]}, seat {(first + 1) % 4}: a call of "
    )
    assert f"is recorded, but seat {first} is to call" in replay_error(record)


def test_extra_or_missing_play_is_caught(callbreak_record: Record) -> None:
    index = played_deal_index(callbreak_record)

    def last_trick_gone(r: Record) -> None:
        r["deals"][index]["tricks"].pop()
        del r["deals"][index]["actions"][-4:]

    record = tampered(callbreak_record, last_trick_gone)
    assert replay_error(record).startswith(
        f"{labels(record)[index]}: the deal stops unfinished (seat"
    )
    record = tampered(callbreak_record, lambda r: r["deals"][index]["tricks"].pop())
    assert replay_error(record).startswith(
        f"{labels(record)[index]}, trick 13: the actions play this trick, but the record's"
    )
    record = tampered(callbreak_record, lambda r: r["deals"][index]["actions"].pop())
    assert replay_error(record).startswith(f"{labels(record)[index]}, trick 13: the cards are ")
    assert replay_error(record).endswith(
        " ".join(record["deals"][index]["tricks"][12]["cards"][:3])
    )
    record = tampered(callbreak_record, lambda r: r["deals"].append(copy.deepcopy(r["deals"][-1])))
    assert "the match was already over" in replay_error(record)
    record = tampered(callbreak_record, lambda r: r["deals"].pop())
    assert replay_error(record).startswith("result: the record says the match is complete")


def test_bad_rules_are_caught(callbreak_record: Record) -> None:
    record = tampered(callbreak_record, lambda r: r["rules"].__setitem__("must_trump", "maybe"))
    assert replay_error(record).startswith("rules: must_trump='maybe' is not allowed")


def test_a_true_in_a_record_is_shown_as_the_record_spells_it(callbreak_record: Record) -> None:
    """A record's ``"players": true`` was echoed as Python's ``players=True``, and a ``false``
    dealer as ``False``: the replay spells them as the record (and the rule book) does."""
    record = tampered(callbreak_record, lambda r: r["rules"].__setitem__("players", True))
    assert replay_error(record) == "rules: players=true is not allowed: Call Break is played by 4"
    record = tampered(callbreak_record, lambda r: r["deals"][0].__setitem__("dealer", False))
    assert replay_error(record) == "deal 1: the dealer must be a whole number, not false"


@pytest.mark.parametrize("preset", ["spades", "oh-hell", "judgement"])
def test_a_bidding_games_replay_says_bid(preset: str, tmp_path: Path) -> None:
    """Spades, Oh Hell and Judgement seats bid: ``callbreak replay`` says so in the game's own
    words (its ``Contract``), as every face does, never "call", "calls" or "called"."""
    record = match_record(played(preset, 3, max_actions=8))
    deal, label = record["deals"][0], labels(record)[0]
    first, second = deal["actions"][:2]
    assert first["phase"] == second["phase"] == "call"
    seat = first["seat"]
    changed = tampered(record, lambda r: r["deals"][0]["calls"].__setitem__(seat, 99))
    assert replay_error(changed) == (
        f"{label}, seat {seat}: the bid is 99 in the record, the play gives {deal['calls'][seat]}"
    )
    skipped = tampered(record, lambda r: r["deals"][0]["actions"].pop(0))
    assert replay_error(skipped) == (
        f"{label}, seat {second['seat']}: a bid of {second['action']} is recorded, but seat "
        f"{seat} is to bid"
    )
    path = tmp_path / "record.json"
    write_record(path, skipped)
    result = CliRunner().invoke(app, ["replay", str(path)])
    assert result.exit_code == 1 and "is to bid" in result.output, result.output
    assert not re.search(r"\bcall(s|ed)?\b", result.output), result.output


def test_a_rules_change_shows_as_a_wrong_card_or_score(callbreak_record: Record) -> None:
    """The same moves under other rules: the replay must notice, not re-score silently."""
    record = tampered(callbreak_record, lambda r: r["rules"].__setitem__("overtrick_points", 0))
    assert "points for seat" in replay_error(record) or "total for seat" in replay_error(record)


# ------------------------------------------------------------------ golden
@pytest.mark.parametrize("stem", sorted(GOLDEN))
def test_golden_record_replays_cleanly(stem: str) -> None:
    (record,) = read_records(HERE / f"{stem}.json")
    report = replay(record)
    assert report.complete
    assert [t.json() for t in report.totals] == record["result"]["totals"]
    assert report.winners == record["result"]["winners"]


@pytest.mark.parametrize("stem", sorted(GOLDEN))
def test_golden_record_is_regenerated_identically(stem: str) -> None:
    """A difference means the engine, the shuffle or the format changed (see make_golden.py)."""
    preset, seed, deals = GOLDEN[stem]
    path = HERE / f"{stem}.json"
    (stored,) = read_records(path)
    fresh = generate(preset, seed, deals)
    assert loads(dumps(fresh)) == stored
    assert dumps(fresh, pretty=True) + "\n" == path.read_text(encoding="utf-8")


def test_golden_records_cover_the_scenarios() -> None:
    records = {stem: read_records(HERE / f"{stem}.json")[0] for stem in GOLDEN}
    bhoos = records["callbreak-bhoos-seed3"]
    assert any(d["void"] for d in bhoos["deals"])
    bridge = records["callbridge-seed3"]
    assert bridge["rules"]["match_end"] == "open" and bridge["result"]["complete"]
    assert len([d for d in bridge["deals"] if not d["tie_break"]]) == 3


def test_a_match_rebuilt_from_its_record_deals_the_rest_identically() -> None:
    """Deal seeds depend only on the match seed and the deal's index, so resuming is exact."""
    rules = Rules.preset("callbreak-bhoos")
    original = Match(rules, seed=11)
    rng = random.Random(11)
    while len(original.scored_deals) < 2:
        original.act(rng.choice(original.legal()))
    for _ in range(7):  # part-way into the third deal
        original.act(rng.choice(original.legal()))
    rebuilt = replay(match_record(original)).match
    for _ in range(2000):
        if original.over:
            break
        action = rng.choice(original.legal())
        original.act(action)
        rebuilt.act(action)
    assert original.over and rebuilt.over
    assert match_record(rebuilt) == match_record(original)


def test_files_that_are_not_records_say_why(tmp_path: Path) -> None:
    record = match_record(played("callbreak", 4))
    odd = copy.deepcopy(record)
    odd["seats"][0]["name"] = "\ud800"  # valid JSON once escaped, but not text
    cases = {
        "odd.json": (json.dumps(odd), "half of a character"),
        "odd.jsonl": (json.dumps(odd), "half of a character"),
        "deep.json": ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    }
    for name, (text, message) in cases.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        with pytest.raises(RecordError, match=message):
            read_records(path)
    binary = tmp_path / "utf16.json"
    binary.write_text(json.dumps(record), encoding="utf-16")
    with pytest.raises(RecordError, match="not UTF-8 text"):
        read_records(binary)


def test_winners_that_are_not_seats_and_rules_that_are_no_object_are_record_errors() -> None:
    record = match_record(played("callbreak", 4))
    record["result"]["winners"] = [1, [2]]
    with pytest.raises(RecordError, match="the winners are seat numbers"):
        replay(record)
    record = match_record(played("callbreak", 4))
    record["rules"] = []  # dict([]) is {}: it used to replay under the preset's defaults
    with pytest.raises(RecordError, match="rules: an object of every option"):
        replay(record)
