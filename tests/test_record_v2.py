"""Records, version 2: every game of the family as its dealt layout plus the action log.

Round trips for every preset (finished and stopped part-way), the layout and the
action log of the games with an auction, a nest, trump and a partner, tampered
records that must fail naming where, version-1 records read and replayed, and the
``selfplay``/``replay`` commands for the new games.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from callbreak.cli.main import app
from callbreak.decks import ROOK_DECK
from callbreak.engine.match import Match
from callbreak.points import Points
from callbreak.record import (
    FORMAT,
    Record,
    RecordError,
    dumps,
    loads,
    match_record,
    read_records,
    replay,
    write_record,
)
from callbreak.record.format import FORMAT_V1, upgrade
from callbreak.rules import Rules
from golden.make_golden import GOLDEN, HERE, V1, V1_GOLDEN, generate

PRESETS = Rules.presets()


# ----------------------------------------------------------------- helpers
def played(preset: str, seed: int, max_actions: int | None = None) -> Match:
    """A match of ``preset`` from ``seed`` played by ``random.Random(seed)`` (an open match
    stops after 3 deals; a target match that random play never ends, after 40)."""
    match = Match(Rules.preset(preset), seed=seed)
    rng = random.Random(seed)
    actions = 0
    while not match.over and len(match.scored_deals) < 40:
        if max_actions is not None and actions >= max_actions:
            break
        stop = match.rules.match_end == "open" and len(match.scored_deals) >= 3
        if stop and not match.tie_break and not match.deal.log:
            match.finish()
            continue
        match.act(rng.choice(match.legal()))
        actions += 1
    return match


def round_trip(match: Match, tmp_path: Path) -> Record:
    """Record → file → read → replay; the rebuilt match records the same document."""
    record = match_record(match)
    path = tmp_path / "match.json"
    write_record(path, record)
    (back,) = read_records(path)
    assert back == record
    report = replay(back)
    assert report.totals == match.totals and report.winners == match.winners
    assert report.complete == match.over and report.deals == len(record["deals"])
    assert match_record(report.match) == record
    return record


def tampered(record: Record, change: Callable[[Record], Any]) -> Record:
    copied = copy.deepcopy(record)
    change(copied)
    return copied


def replay_error(record: Record) -> str:
    with pytest.raises(RecordError) as caught:
        replay(record)
    return str(caught.value)


def first_action(deal: Record, phase: str) -> int:
    return next(i for i, item in enumerate(deal["actions"]) if item["phase"] == phase)


@pytest.fixture(scope="module")
def rook() -> Record:
    return match_record(played("rook-call-partner", 2))


@pytest.fixture(scope="module")
def batak() -> Record:
    return match_record(played("batak-ihale", 3))


# ------------------------------------------------------------- round trips
@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("seed", [0, 1])
def test_every_preset_round_trips(preset: str, seed: int, tmp_path: Path) -> None:
    match = played(preset, seed)
    record = round_trip(match, tmp_path)
    assert record["format"] == FORMAT == "callbreak-record/2"
    assert record["rules"] == Rules.preset(preset).to_dict()
    for deal, entry in zip(record["deals"], match.entries, strict=False):
        log = [[a["phase"], a["seat"], a["action"]] for a in deal["actions"]]
        before_play = [list(step) for step in entry.deal.log]
        assert log[: len(before_play)] == before_play
        plays = [card for trick in deal["tricks"] for card in trick["cards"]]
        assert [a for _, _, a in log[len(before_play) :]] == plays


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("stop", [0, 3, 9, 25, 70, 160])
def test_an_unfinished_match_of_every_preset_resumes_exactly(
    preset: str, stop: int, tmp_path: Path
) -> None:
    """Stopped anywhere (mid-auction, mid-discard, mid-trick), the rebuilt match carries on
    exactly as the original."""
    match = played(preset, 7, max_actions=stop)
    record = round_trip(match, tmp_path)
    rebuilt = replay(record).match
    rng = random.Random(stop)
    deal = match.deal
    while match.deal is deal and not match.over:
        assert rebuilt.legal() == match.legal() and rebuilt.to_act == match.to_act
        action = rng.choice(match.legal())
        match.act(action)
        rebuilt.act(action)
    assert match_record(rebuilt) == match_record(match)


def test_a_rook_deal_records_its_layout_auction_nest_trump_and_partner(rook: Record) -> None:
    deal = next(d for d in rook["deals"] if d["points"] is not None)
    assert deal["dealt_in"] == deal["active"] == [0, 1, 2, 3]
    assert [len(hand) for hand in deal["hands"]] == [13] * 4 and len(deal["nest"]) == 5
    layout = [card for hand in deal["hands"] for card in hand] + deal["nest"]
    assert sorted(ROOK_DECK.parse(c) for c in layout) == sorted(ROOK_DECK.cards)
    assert deal["upcard"] is None and deal["stock"] == []
    phases = [a["phase"] for a in deal["actions"]]
    auction = phases.count("auction")
    assert phases == ["auction"] * auction + ["discard"] * 5 + ["trump", "partner"] + ["play"] * 52
    # The auction opens with the dealer; every bid and pass is in ``bids`` as in the log.
    assert deal["actions"][0]["seat"] == deal["dealer"]
    assert deal["bids"] == [
        {"seat": a["seat"], "bid": a["action"]} for a in deal["actions"][:auction]
    ]
    declarer = deal["declarer"]
    assert {a["seat"] for a in deal["actions"][auction:-52]} == {declarer}
    assert sorted(deal["discards"]) == sorted(
        a["action"] for a in deal["actions"] if a["phase"] == "discard"
    )
    assert deal["trump"] in "RYGB" and deal["partner_card"] is not None
    owner = next(
        (s for s, hand in enumerate(deal["hands"]) if deal["partner_card"] in hand), declarer
    )
    assert deal["partner"] == owner
    # The seat after the declarer leads the first trick.
    assert deal["tricks"][0]["leader"] == (declarer + 1) % 4


def test_a_batak_deal_records_its_auction_and_the_declarer_leads(batak: Record) -> None:
    deal = batak["deals"][0]
    assert deal["contract"] is not None and deal["trump"] in "SHDC"
    assert deal["calls"] == [None] * 4 and deal["nest"] == []
    assert deal["tricks"][0]["leader"] == deal["declarer"]
    assert [a["phase"] for a in deal["actions"]].count("trump") == 1


def test_call_break_deals_keep_their_version_1_fields() -> None:
    record = match_record(played("callbreak", 3))
    deal = record["deals"][-1]
    assert all(isinstance(call, int) for call in deal["calls"])
    assert deal["trump"] == "S" and deal["bids"] == [] and deal["contract"] is None
    assert {"misdeal_claims", "declarations", "hands", "tricks"} <= set(deal)


def test_a_layout_given_without_a_seed_replays(tmp_path: Path) -> None:
    """Decks handed to the match (a duplicate arena, a puzzle) have no shuffle seed."""
    rules = Rules.preset("rook-call-partner")
    order = list(ROOK_DECK.cards)
    random.Random(4).shuffle(order)
    match = Match(rules, seed=9, decks=[order])
    rng = random.Random(9)
    while len(match.entries) < 2:
        match.act(rng.choice(match.legal()))
    record = round_trip(match, tmp_path)
    assert record["deals"][0]["seed"] is None and record["deals"][1]["seed"] is not None


# --------------------------------------------------------------- tampering
def test_a_changed_card_fails_naming_deal_trick_and_seat(rook: Record) -> None:
    index = next(i for i, d in enumerate(rook["deals"]) if d["points"] is not None)
    deal = rook["deals"][index]
    at = first_action(deal, "play")
    seat = deal["actions"][at]["seat"]
    other = next(c for c in deal["hands"][(seat + 1) % 4] if c not in deal["hands"][seat])
    bad = tampered(rook, lambda r: r["deals"][index]["actions"][at].__setitem__("action", other))
    assert replay_error(bad).startswith(f"deal {deal['number']}, trick 1, seat {seat}: ")
    # The derived trick changed instead: the record contradicts its own actions.
    bad = tampered(rook, lambda r: r["deals"][index]["tricks"][2]["cards"].reverse())
    assert replay_error(bad).startswith(f"deal {deal['number']}, trick 3: the cards are ")


def test_a_changed_bid_fails(batak: Record) -> None:
    deal = batak["deals"][0]
    at = first_action(deal, "auction")
    seat = deal["actions"][at]["seat"]
    bad = tampered(batak, lambda r: r["deals"][0]["actions"][at].__setitem__("action", 99))
    assert replay_error(bad).startswith(f"deal 1, seat {seat}: 99 is not allowed: ")
    # A legal but different bid: the derived bids no longer match what was played.
    bid = deal["bids"][0]["bid"]
    changed = 5 if bid == "pass" else "pass"
    bad = tampered(batak, lambda r: r["deals"][0]["bids"][0].__setitem__("bid", changed))
    message = replay_error(bad)
    assert message.startswith(f"deal 1: bid 1 is {json.dumps({'seat': seat, 'bid': changed})}")
    bad = tampered(batak, lambda r: r["deals"][0].__setitem__("contract", 3))
    assert replay_error(bad) == (
        f"deal 1: the contract is 3 in the record, the play gives {deal['contract']}"
    )


def test_a_changed_trump_fails(batak: Record, rook: Record) -> None:
    deal = batak["deals"][0]
    at = first_action(deal, "trump")
    other = next(s for s in "SHDC" if s != deal["trump"])
    bad = tampered(batak, lambda r: r["deals"][0]["actions"][at].__setitem__("action", other))
    assert replay_error(bad) == (
        f'deal 1: trump is "{deal["trump"]}" in the record, the play gives "{other}"'
    )
    bad = tampered(rook, lambda r: r["deals"][0].__setitem__("trump", "X"))
    assert replay_error(bad).startswith('deal 1: trump is "X" in the record')


def test_a_changed_partner_or_discard_fails(rook: Record) -> None:
    deal = rook["deals"][0]
    bad = tampered(rook, lambda r: r["deals"][0].__setitem__("partner", (deal["partner"] + 1) % 4))
    assert replay_error(bad).startswith("deal 1: the partner is ")
    at = first_action(deal, "discard")
    seat = deal["declarer"]
    foreign = next(c for c in deal["hands"][(seat + 1) % 4])
    bad = tampered(rook, lambda r: r["deals"][0]["actions"][at].__setitem__("action", foreign))
    assert replay_error(bad).startswith(f"deal 1, seat {seat}: you do not hold the {foreign}")


@pytest.mark.parametrize("fixture", ["batak", "rook"])
def test_changed_points_or_totals_fail(fixture: str, request: pytest.FixtureRequest) -> None:
    record: Record = request.getfixturevalue(fixture)
    index = next(i for i, d in enumerate(record["deals"]) if d["points"] is not None)
    points = Points.parse(record["deals"][index]["points"][1])
    label = f"deal {record['deals'][index]['number']}"
    bad = tampered(
        record, lambda r: r["deals"][index]["points"].__setitem__(1, (points + Points(10)).json())
    )
    assert replay_error(bad) == (
        f"{label}: points for seat 1 are {points + Points(10)} in the record, "
        f"the rules give {points}"
    )
    total = Points.parse(record["deals"][index]["totals"][3])
    bad = tampered(record, lambda r: r["deals"][index]["totals"].__setitem__(3, 12345))
    assert replay_error(bad) == (
        f"{label}: total for seat 3 is 12345 in the record, the match gives {total}"
    )


def test_an_action_out_of_turn_or_phase_fails(rook: Record) -> None:
    deal = rook["deals"][0]
    at = first_action(deal, "trump")
    bad = tampered(rook, lambda r: r["deals"][0]["actions"].pop(at))
    message = replay_error(bad)
    assert message.startswith(f"deal 1, seat {deal['declarer']}: a partner card (")
    assert message.endswith(f"is recorded, but seat {deal['declarer']} is to name trump")


def test_a_broken_layout_fails_naming_the_place(rook: Record) -> None:
    deal = rook["deals"][0]
    card = deal["hands"][2][0]
    bad = tampered(rook, lambda r: r["deals"][0]["nest"].__setitem__(0, card))
    assert replay_error(bad) == f"deal 1, nest: {card} is dealt also to seat 2"
    bad = tampered(rook, lambda r: r["deals"][0]["nest"].pop())
    assert (
        replay_error(bad)
        == "deal 1, nest: the nest holds 4 cards; Call Partner (Rook) deals 5 there"
    )

    # A nest card swapped with a hand card: still the whole deck, but not what the seed deals.
    def swap(r: Record) -> None:
        d = r["deals"][0]
        d["nest"][0], d["hands"][1][0] = d["hands"][1][0], d["nest"][0]

    assert replay_error(tampered(rook, swap)).startswith(
        "deal 1, seat 1: the hand is not the one shuffle seed"
    )
    bad = tampered(rook, lambda r: r["deals"][0].__setitem__("upcard", "5R"))
    assert replay_error(bad).startswith("deal 1, upcard: Call Partner (Rook) turns up no card")


def test_the_seats_dealt_in_and_in_play_are_checked(batak: Record) -> None:
    bad = tampered(batak, lambda r: r["deals"][0].__setitem__("dealt_in", [0, 2, 1]))
    assert replay_error(bad).startswith("deal 1: dealt_in must list distinct seats in seat order")
    bad = tampered(batak, lambda r: r["deals"][0].__setitem__("active", [0, 1, 2]))
    assert replay_error(bad).startswith("deal 1: the seats in play is [0, 1, 2] in the record")


# ------------------------------------------------------------------ version 1
@pytest.mark.parametrize("stem", sorted(V1_GOLDEN))
def test_a_version_1_golden_reads_replays_and_converts_to_the_same_match(stem: str) -> None:
    path = V1 / f"{stem}.json"
    stored = json.loads(path.read_text(encoding="utf-8"))
    assert stored["format"] == FORMAT_V1
    (record,) = read_records(path)  # converted as it is read
    assert record["format"] == FORMAT
    report = replay(stored)  # replay converts too
    assert report.complete
    assert [t.json() for t in report.totals] == stored["result"]["totals"]
    assert report.winners == stored["result"]["winners"]
    # The same seeded match recorded now in version 2: equal but for the rules, which have
    # gained options since (``players``).
    (current,) = read_records(HERE / f"{V1_GOLDEN[stem]}.json")
    assert {k: v for k, v in record.items() if k != "rules"} == {
        k: v for k, v in current.items() if k != "rules"
    }
    assert Rules.from_dict(record["rules"]) == Rules.from_dict(current["rules"])
    assert match_record(report.match, seats=record["seats"]) == current | {
        "rules": report.match.rules.to_dict()
    }


def test_a_tampered_version_1_record_fails_with_a_location() -> None:
    stored = json.loads((V1 / "callbreak-seed1.json").read_text(encoding="utf-8"))
    deal = stored["deals"][0]
    first = (deal["dealer"] + 1) % 4
    bad = tampered(stored, lambda r: r["deals"][0]["calls"].__setitem__(first, 14))
    assert replay_error(bad).startswith(f"deal 1, seat {first}: 14 is not a call")
    bad = tampered(stored, lambda r: r["deals"][0]["tricks"][1]["cards"].reverse())
    assert replay_error(bad).startswith("deal 1, trick 2, seat ")
    bad = tampered(stored, lambda r: r["deals"][0].__setitem__("tricks", "none"))
    assert replay_error(bad) == "deals[0]: tricks must be a list in a version-1 record"
    assert upgrade(loads(dumps(stored))) == loads(dumps(stored))  # already converted on read


# ------------------------------------------------------------------ golden
def test_the_new_games_have_golden_records() -> None:
    presets = {preset for preset, _, _ in GOLDEN.values()}
    assert {"batak-ihale", "batak-koz-maca", "rook-call-partner"} <= presets
    rook_stem = next(
        stem for stem, (preset, _, _) in GOLDEN.items() if preset == "rook-call-partner"
    )
    (record,) = read_records(HERE / f"{rook_stem}.json")
    scored = [d for d in record["deals"] if d["points"] is not None]
    assert scored and all(len(d["nest"]) == 5 and d["partner_card"] for d in scored)


# ------------------------------------------------------------ five-card games
FIVE_CARD_GOLDEN = {
    "snarples": "snarples-players6-seed1",
    "donut": "donut-players5-seed2",
    "horsethief": "horsethief-players3-seed1",
}
"""The golden record of each five-card game
(docs/rules/snarples.md, docs/rules/donut.md, docs/rules/horsethief.md), at a seat count not
the default."""


@pytest.fixture(scope="module")
def five_card() -> dict[str, Record]:
    return {game: read_records(HERE / f"{stem}.json")[0] for game, stem in FIVE_CARD_GOLDEN.items()}


@pytest.mark.parametrize("game", sorted(FIVE_CARD_GOLDEN))
def test_a_five_card_golden_replays_and_regenerates_identically(game: str) -> None:
    stem = FIVE_CARD_GOLDEN[game]
    spec, seed, deals = GOLDEN[stem]
    path = HERE / f"{stem}.json"
    (stored,) = read_records(path)
    assert stored["rules"]["preset"] == game and stored["rules"]["players"] != 4
    report = replay(stored)
    assert report.complete and report.winners == stored["result"]["winners"]
    assert match_record(report.match, seats=stored["seats"]) == stored
    fresh = generate(spec, seed, deals)
    assert dumps(fresh, pretty=True) + "\n" == path.read_text(encoding="utf-8")


def _scored(record: Record) -> list[Record]:
    return [d for d in record["deals"] if d["void"] is None]


def test_five_card_records_hold_the_context_each_deal_was_told(
    five_card: dict[str, Record],
) -> None:
    """The scores before each deal, the seats out of the game and the sit-out runs, worked out
    here from the deals before it (docs/rules/snarples.md: 33 or more is out; no third sit-out)."""
    for game, record in five_card.items():
        rules = Rules.from_dict(record["rules"])
        n = rules.players
        scores = [Points.whole(rules.shape.start)] * n
        runs = [0] * n
        for deal in record["deals"]:
            context = deal["context"]
            if game == "horsethief":
                assert context is None  # its deals read nothing of the match
            else:
                assert [Points.parse(v) for v in context["scores"]] == scores
                assert context["sat_out"] == runs
                out = (
                    [s for s in range(n) if scores[s] >= Points(330)] if game == "snarples" else []
                )
                assert context["out"] == out
                assert deal["dealt_in"] == [s for s in range(n) if s not in out]
                assert all(deal["hands"][s] == [] for s in out)
            if deal["void"] is None:
                scores = [Points.parse(v) for v in deal["totals"]]
                for seat in deal["dealt_in"]:
                    runs[seat] = runs[seat] + 1 if seat in deal["dropped"] else 0
    snarples = five_card["snarples"]
    assert any(d["context"]["out"] for d in snarples["deals"]), "nobody went out: pick a seed"


def test_five_card_records_hold_drops_exchanges_upcards_and_settlements(
    five_card: dict[str, Record],
) -> None:
    for game, record in five_card.items():
        for deal in _scored(record):
            actions = deal["actions"]
            outs = sorted(
                a["seat"] for a in actions if a["phase"] == "drop" and a["action"] == "out"
            )
            assert deal["dropped"] == outs
            if deal["unplayed"] is None:
                assert deal["active"] == [s for s in deal["dealt_in"] if s not in outs]
                assert len(deal["tricks"]) == 5
            else:
                assert deal["tricks"] == []
            settle = [a["action"] for a in actions if a["phase"] == "settle"]
            assert deal["settled"] == (settle[0] if settle else None)
            upcard = deal["upcard"]
            if game == "snarples":
                assert upcard is None and deal["exchanges"] == [] and not deal["reversed_ranks"]
            elif game == "donut":
                # the dealer's own fifth card, face up; a 6 reverses the ranks
                assert upcard in deal["hands"][deal["dealer"]]
                assert deal["reversed_ranks"] == (upcard[0] == "6")
                assert deal["trump"] == (None if upcard[0] in "69" else deal["trump"])
            else:
                # turned up after the hands, trump, never drawn
                assert upcard not in deal["stock"] and deal["trump"] == upcard[1]
                exchanged = [
                    a for a in actions if a["phase"] == "exchange" and a["action"] != "done"
                ]
                assert sum(e["cards"] for e in deal["exchanges"]) == len(exchanged)
                assert sorted(deal["discards"]) == sorted(a["action"] for a in exchanged)
    donut = _scored(five_card["donut"])
    horsethief = _scored(five_card["horsethief"])
    snarples = _scored(five_card["snarples"])
    assert any(d["reversed_ranks"] for d in donut)
    assert any(d["unplayed"] for d in horsethief) and any(d["exchanges"] for d in horsethief)
    assert any(d["settled"] for d in snarples) and any(d["dropped"] for d in snarples)


def _where(record: Record, test: Callable[[Record], bool]) -> tuple[int, str]:
    index = next(i for i, d in enumerate(record["deals"]) if test(d))
    return index, f"deal {record['deals'][index]['number']}"


def test_changed_five_card_fields_fail(five_card: dict[str, Record]) -> None:
    snarples, donut, horsethief = (five_card[g] for g in ("snarples", "donut", "horsethief"))

    i, label = _where(snarples, lambda d: bool(d["dropped"]) and d["settled"] is None)
    bad = tampered(snarples, lambda r: r["deals"][i].__setitem__("dropped", []))
    assert replay_error(bad).startswith(f"{label}: the seats out is [] in the record")

    i, label = _where(snarples, lambda d: d["settled"] is not None)
    other = "give" if snarples["deals"][i]["settled"] == "take" else "take"
    bad = tampered(snarples, lambda r: r["deals"][i].__setitem__("settled", other))
    assert replay_error(bad).startswith(f'{label}: the bidder\'s settlement is "{other}"')
    bad = tampered(snarples, lambda r: r["deals"][i].__setitem__("unplayed", None))
    assert replay_error(bad).startswith(
        f"{label}: the reason the deal ended unplayed is null in the record"
    )

    i, label = _where(snarples, lambda d: bool(d["context"]["out"]))
    bad = tampered(snarples, lambda r: r["deals"][i]["context"].__setitem__("out", []))
    assert replay_error(bad).startswith(f"{label}, context: the seats out of the game is []")
    bad = tampered(snarples, lambda r: r["deals"][i]["context"]["scores"].__setitem__(0, 99))
    assert replay_error(bad).startswith(
        f"{label}, context: score before the deal for seat 0 is 99 in the record, the match gives"
    )
    runs = [1] * len(snarples["deals"][i]["context"]["sat_out"])
    bad = tampered(snarples, lambda r: r["deals"][i]["context"].__setitem__("sat_out", runs))
    assert replay_error(bad).startswith(f"{label}, context: the sit-out runs is {runs}")

    i, label = _where(donut, lambda d: d["reversed_ranks"])
    bad = tampered(donut, lambda r: r["deals"][i].__setitem__("reversed_ranks", False))
    assert replay_error(bad) == (
        f"{label}: reversed_ranks is false in the record, the play gives true"
    )

    i, label = _where(horsethief, lambda d: any(e["cards"] for e in d["exchanges"]))
    at = next(n for n, e in enumerate(horsethief["deals"][i]["exchanges"]) if e["cards"])
    bad = tampered(horsethief, lambda r: r["deals"][i]["exchanges"][at].__setitem__("cards", 0))
    assert replay_error(bad).startswith(f"{label}: exchange {at + 1} is ")
    bad = tampered(horsethief, lambda r: r["deals"][0].__setitem__("context", {"scores": []}))
    assert replay_error(bad).startswith("deal 1: the match context is ")


# ------------------------------------------------------------------ commands
runner = CliRunner()


@pytest.mark.parametrize(("preset", "games"), [("rook-call-partner", 100), ("batak-ihale", 5)])
def test_selfplay_then_replay_for_the_new_games(preset: str, games: int, tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    made = runner.invoke(
        app,
        [
            "selfplay",
            "--rules",
            preset,
            "--games",
            str(games),
            "--max-deals",
            "30",
            "--out",
            str(out),
        ],
    )
    assert made.exit_code == 0, made.output
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == games and all(json.loads(line)["format"] == FORMAT for line in lines)
    checked = runner.invoke(app, ["replay", "--quiet", str(out)])
    assert checked.exit_code == 0, checked.output
    assert checked.output == ""
    record = json.loads(lines[0])
    record["deals"][0]["points"][0] = 9999
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record), encoding="utf-8")
    failed = runner.invoke(app, ["replay", str(bad)])
    assert failed.exit_code == 1 and "deal 1: points for seat 0 are 9999" in failed.output


def test_selfplay_help_and_seat_count() -> None:
    shown = runner.invoke(app, ["selfplay", "--help"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0 and "--max-deals" in shown.output
    wrong = runner.invoke(
        app, ["selfplay", "--bot", "random", "--bot", "random"], env={"COLUMNS": "200"}
    )
    assert wrong.exit_code == 2 and "one for each of the 4 seats" in wrong.output
