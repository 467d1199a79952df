"""The review of a finished deal in every game the solver does not play: each decision of the
seat, the cards and the decisions before them, valued by playouts with the hands shown.

A deal is played by the heuristic except that the reviewed seat, once, deliberately takes
the alternative that finishes worst (valued the same way, on the live deal): the review,
which deals the deal again from its seed and replays it, must find that very decision, in
its phase, and cost it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from callbreak import Rules
from callbreak.analysis import AnalysisError, Analyst, played_deals
from callbreak.bots.heuristic import HeuristicBot
from callbreak.bots.search.solver import Solver
from callbreak.cli.main import app
from callbreak.engine import Deal, Match
from callbreak.playout_review import METHOD, rebuild, review_decisions, value
from callbreak.review import review_document, reviewable, waiting_note

GAMES = [
    ("batak-ihale", 4),
    ("rook-call-partner", 4),
    ("snarples", 5),
    ("donut", 6),
    ("horsethief", 3),
    ("oh-hell", 4),
    ("spades", 4),
    ("judgement", 5),
]
"""Spades and Judgement were once handed to the exact solver, which scores a seat by Call
Break's rules and plays four seats of 13 cards: their reviews must be playouts too."""


def _rules(name: str, players: int) -> Rules:
    rules = Rules.preset(name)
    return rules if rules.players == players else rules.replace(players=players)


def _worst(deal: Deal, seat: int) -> tuple[Any, Any] | None:
    """The heuristic's action and the alternative that finishes worst, when worse."""
    bots = [HeuristicBot(seed=s) for s in range(deal.players)]
    chosen = bots[seat].act(deal.observation(seat))
    worth: dict[str, tuple[int, Any]] = {}
    for action in deal.legal():
        trial = deal.copy()
        trial.act(action)
        worth[str(action)] = (value(trial, seat, bots).tenths, action)
    low = min(worth.values(), key=lambda item: item[0])
    if low[0] < worth[str(chosen)][0]:
        return chosen, low[1]
    return None


def _poor_deal(rules: Rules, seat: int) -> tuple[Deal, str, str]:
    """A played-out deal where ``seat`` once took its worst alternative: (deal, phase of
    that decision, the action taken)."""
    for seed in range(1, 40):
        match = Match(rules, seed)
        bots = [HeuristicBot(seed=s) for s in range(rules.players)]
        poor: tuple[str, str] | None = None
        while not played_deals(match):
            deal = match.deal
            actor = deal.to_act
            assert actor is not None
            action = bots[actor].act(deal.observation(actor))
            if actor == seat and poor is None and len(deal.legal()) > 1:
                found = _worst(deal, seat)
                if found is not None:
                    action = found[1]
                    poor = (deal.phase, str(action))
            match.act(action)
        [(_, finished)] = played_deals(match)[:1]
        if poor is not None and seat in finished.dealt_in:
            return finished, poor[0], poor[1]
    raise AssertionError(f"no deal of {rules.title} gave seat {seat} a worse choice")


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_a_poor_choice_is_found_and_costed(name: str, players: int) -> None:
    rules = _rules(name, players)
    assert reviewable(rules)
    assert waiting_note(rules, warm=False).startswith("Playouts with the hands shown")
    deal, phase, taken = _poor_deal(rules, 0)
    review = Analyst(solver=Solver(compiled=False), expert=None).deal(deal, 0, 1)
    assert review.method == METHOD and review.call.scored == deal.points[0]  # type: ignore[index]
    costly = [d for d in review.mistakes if d.played == taken and d.kind == phase]  # type: ignore[attr-defined]
    assert costly, [d.text(0) for d in review.decisions]
    assert costly[0].lost.tenths > 0 and costly[0].verdict == "mistake"
    document = review_document(review)
    assert document["method"] == METHOD
    assert METHOD in document["call"]["text"]
    assert all("kind" in line and line["text"] for line in document["decisions"])


def test_every_deal_of_a_changing_hand_size_is_reviewed() -> None:
    """Judgement's second deal has a card fewer a hand than its first."""
    rules = _rules("judgement", 4)
    match = Match(rules, 3)
    bots = [HeuristicBot(seed=s) for s in range(rules.players)]
    while len(played_deals(match)) < 2:
        actor = match.to_act
        assert actor is not None
        match.act(bots[actor].act(match.observation(actor)))
    number, second = played_deals(match)[1]
    assert second.hand_size < played_deals(match)[0][1].hand_size
    review = Analyst(solver=Solver(compiled=False), expert=None).deal(second, 1, number)
    assert review.method == METHOD and review.call.scored == second.points[1]  # type: ignore[index]
    assert len(review.decisions) == second.hand_size + 1  # the bid and every card


def test_every_kind_of_decision_is_valued() -> None:
    """Batak's auction and trump, the nest, and the cards all appear in one review."""
    deal, _, _ = _poor_deal(_rules("rook-call-partner", 4), 0)
    review = Analyst(solver=Solver(compiled=False), expert=None).deal(deal, 0, 1)
    kinds = {d.kind for d in review.decisions}  # type: ignore[attr-defined]
    assert "play" in kinds and len(kinds) >= 2, kinds
    if deal.declarer == 0:
        assert {"discard", "trump"} <= kinds, kinds


def test_a_deal_without_a_seed_is_refused_clearly() -> None:
    deal, _, _ = _poor_deal(_rules("donut", 4), 0)
    deal.seed = None
    with pytest.raises(AnalysisError, match="no shuffle seed"):
        rebuild(deal)


def test_analyze_reviews_a_donut_selfplay_record(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "donut.jsonl"
    made = runner.invoke(
        app,
        ["selfplay", "--rules", "donut", "--bot", "heuristic", "--games", "1", "--out", str(out)],
    )
    assert made.exit_code == 0, made.output
    shown = runner.invoke(app, ["analyze", str(out), "--all"])
    assert shown.exit_code == 0, shown.output
    assert f"valued by {METHOD}" in shown.output and "Deal 1" in shown.output
    document = runner.invoke(app, ["analyze", str(out), "--json", "--deal", "1"])
    assert document.exit_code == 0, document.output
    [first] = json.loads(document.output)["deals"]
    assert first["method"] == METHOD and first["decisions"]


def test_from_trick_keeps_the_decisions_before_the_play_and_the_later_cards() -> None:
    deal, _, _ = _poor_deal(_rules("batak-ihale", 4), 0)
    every = review_decisions(deal, 0)
    later = review_decisions(deal, 0, from_trick=4)
    assert [d for d in every if d.kind != "play" or d.trick >= 4] == list(later)
    assert any(d.kind != "play" for d in later) and min(d.trick for d in later if d.trick) == 4


def test_an_arena_records_deals_are_reviewed_too(tmp_path: Path) -> None:
    """The arena deals its deal sets from a deck of its own: the record names the shuffle seed
    that deals it, so that the review can deal it again (it once wrote none, and the review of
    every game but the solver's refused the record)."""
    runner = CliRunner()
    report = tmp_path / "report"
    played = runner.invoke(
        app,
        [
            *("arena", "--rules", "batak-ihale", "--seat", "heuristic", "--deals", "1"),
            *("--workers", "1", "--report", str(report)),
        ],
    )
    assert played.exit_code == 0, played.output
    records = report / "records.jsonl"
    first = json.loads(records.read_text().splitlines()[0])
    assert first["deals"][0]["seed"] is not None
    shown = runner.invoke(app, ["analyze", str(records), "--expert", "none"])
    assert shown.exit_code == 0, shown.output
    assert f"valued by {METHOD}" in shown.output and "Deal 1" in shown.output


def test_analyze_refuses_an_unknown_second_opinion_and_a_trick_past_the_hand(
    tmp_path: Path,
) -> None:
    runner = CliRunner()
    out = tmp_path / "donut.json"
    selfplay = ["selfplay", "--rules", "donut", "--bot", "heuristic", "--games", "1"]
    made = runner.invoke(app, [*selfplay, "--out", str(out)])
    assert made.exit_code == 0, made.output
    nobot = runner.invoke(app, ["analyze", str(out), "--expert", "nobot"])
    assert nobot.exit_code == 2 and "nobot" in nobot.output
    late = runner.invoke(app, ["analyze", str(out), "--from-trick", "6"])
    assert late.exit_code == 2 and "5 tricks" in late.output
