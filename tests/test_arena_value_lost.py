"""Each bot's value lost per decision in ``callbreak arena --report`` (``arena.value_lost``).

A tiny arena (one deal set, one game reviewed at every seat) through the
command: the JSON and the HTML carry the table, every figure is a loss (never
below 0) and the random bot, over this fixed seed, loses more per decision
than the heuristic.  The aggregation and the call's loss are checked on
decisions built by hand, and a game the solver does not model says the
section is not available instead of failing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from callbreak import Rules
from callbreak.analysis import CallReview, DealReview, Decision
from callbreak.arena import ArenaConfig, run_arena, summarize
from callbreak.arena.report import write_report
from callbreak.arena.value_lost import BotValueLost, _add, analyse_run, call_lost
from callbreak.cli.main import app
from callbreak.points import Points

SEATS = ["heuristic", "random", "random", "random"]


def test_the_command_reports_each_bots_value_lost(tmp_path: Path) -> None:
    folder = tmp_path / "report"
    args = ["arena", *(f"--seat={s}" for s in SEATS), "--deals", "1", "--seed", "3"]
    args += ["--workers", "1", "--report", str(folder), "--report-deals", "1", "--json"]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    section = json.loads(result.stdout)["value_lost"]
    assert section["available"] and section["games"] == 1
    bots = {bot["spec"]: bot for bot in section["bots"]}
    assert set(bots) == {"heuristic", "random"}
    for bot in bots.values():
        assert bot["call"]["count"] + bot["unknown"] == (1 if bot["spec"] == "heuristic" else 3)
        assert bot["per_decision"] >= 0 and bot["call"]["mean"] >= 0
        assert len(bot["by_trick"]) == 13
        assert all(row["mean"] is None or row["mean"] >= 0 for row in bot["by_trick"])
        counted = sum(row["count"] for row in bot["by_trick"]) + bot["call"]["count"]
        assert counted == bot["decisions"] > 0
    # Random cards cost far more than the heuristic's on the same hands (seed 3: 0.83 against 0.01).
    assert bots["random"]["per_decision"] > bots["heuristic"]["per_decision"]
    page = (folder / "index.html").read_text(encoding="utf-8")
    assert "Value lost per decision" in page and "<th>per decision</th>" in page
    assert (folder / "value_lost.png").stat().st_size > 0


def test_other_games_say_not_available(tmp_path: Path) -> None:
    config = ArenaConfig(Rules.preset("batak-ihale"), ("random",) * 4, 1, 1, keep_records=True)
    run = run_arena(config, workers=1)
    section = analyse_run(run, 4)
    assert not section.available and section.note is not None
    assert "Not available for this game" in section.note
    assert section.json() == {"available": False, "note": section.note}
    page = write_report(summarize(run), tmp_path, section).read_text(encoding="utf-8")
    assert "Value lost per decision" in page and "Not available for this game" in page
    assert not (tmp_path / "value_lost.png").exists()


def test_no_games_asked_for_is_said_too() -> None:
    config = ArenaConfig(Rules.preset("callbreak"), ("random",) * 4, 1, 1, keep_records=True)
    section = analyse_run(run_arena(config, workers=1), 0)
    assert not section.available and "--report-deals 0" in (section.note or "")


def _decision(
    trick: int, legal: tuple[str, ...], played: str, values: list[int] | None
) -> Decision:
    if values is None:
        return Decision(trick, 0, played, legal, None)
    valued = {card: Points(v * 10) for card, v in zip(legal, values, strict=True)}
    return Decision(trick, 0, played, legal, valued)


def test_losses_are_averaged_per_decision_by_trick() -> None:
    rules = Rules.preset("callbreak")
    call = CallReview(3, Points(-30), Points(-30), 2, 2, Points(20))
    decisions = (
        _decision(1, ("AS", "2S"), "2S", [4, 1]),  # lost 3
        _decision(1, ("AH", "2H"), "AH", [4, 1]),  # best: lost 0 (another deal, same trick)
        _decision(2, ("KS",), "KS", None),  # forced: left out
        _decision(3, ("QS", "3S"), "3S", None),  # search stopped: unknown
    )
    review = DealReview(1, 0, 0, rules.name, call, decisions, 2)
    bot = BotValueLost("x")
    _add(bot, review, rules)
    # The call of 3 could make only 2: -3 against the +2 of calling 2, a loss of 5.
    assert bot.call_lost == [5.0]
    assert bot.trick_lost == {1: [3.0, 0.0]}
    assert (bot.forced, bot.unknown, bot.decisions) == (1, 1, 3)
    assert bot.at_trick(1) == 1.5 and bot.at_trick(2) is None
    assert bot.per_decision == pytest.approx(8 / 3)
    row = bot.json(13)
    assert row["by_trick"][0] == {"trick": 1, "count": 2, "mean": 1.5}
    assert row["call"] == {"count": 1, "mean": 5.0}


def test_the_calls_loss() -> None:
    bridge = Rules.preset("callbridge")
    # Nothing makeable: every call fails, and the cheapest failure (the lowest call) is best.
    failed = CallReview(4, Points(-40), Points(-40), 1, None, None)
    assert call_lost(failed, bridge) == Points(40 - bridge.min_call * 10)
    # The largest makeable call was made: nothing lost.
    made = CallReview(5, Points(50), Points(50), 6, 5, Points(50))
    assert call_lost(made, bridge) == Points(0)
    stopped = CallReview(5, Points(50), None, None, None, None, unknown=True)
    assert call_lost(stopped, bridge) is None
