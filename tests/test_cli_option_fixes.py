"""Options and summaries a QA pass found wrong: ``serve``'s log level and ranges, ``arena``'s
default lineup at other seat counts, ``selfplay --deals`` below 1, ``analyze``'s count that
left the call out, ``import-bhoos`` claiming scores it never compared, a file name given to
``-o`` (``--option`` but in ``import-bhoos``), and ``replay --verify-seed`` hiding a sound
replay behind a seed it could not check."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from callbreak import Rules
from callbreak.cli.analyze import _print, summary_line
from callbreak.cli.main import app, default_lineup
from callbreak.games import PRESETS
from callbreak.playout_review import METHOD, Outcome
from callbreak.points import Points
from callbreak.protocol.bhoos.referee import play_bhoos_game
from callbreak.verdicts import CallReview, DealReview, Decision

runner = CliRunner()
WIDE = {"COLUMNS": "300"}


def flat(text: str) -> str:
    """Output with rich's boxes and line breaks taken out, for phrases that wrap."""
    return " ".join(text.replace("│", " ").split())


# ------------------------------------------------------------------ serve
def test_serve_refuses_an_unknown_log_level_before_it_starts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    started: list[dict[str, Any]] = []
    monkeypatch.setattr(
        "callbreak.server.run.serve", lambda config, **kwargs: started.append(kwargs)
    )
    result = runner.invoke(app, ["serve", "--port", "8732", "--log-level", "bogus"], env=WIDE)
    assert result.exit_code == 2 and isinstance(result.exception, SystemExit)
    text = flat(result.output)
    assert "Invalid value for '--log-level'" in text
    assert all(level in text for level in ("debug", "info", "warning", "error"))
    assert "Call Break tables on" not in text and started == []
    ok = runner.invoke(app, ["serve", "--log-level", "DEBUG"], env=WIDE)
    assert ok.exit_code == 0, ok.output
    assert started == [{"host": "127.0.0.1", "port": 8000, "log_level": "debug"}]


@pytest.mark.parametrize(
    ("option", "value"),
    [("--grace", "-5"), ("--grace", "3601"), ("--bot-delay", "-1")],
)
def test_serve_holds_grace_and_bot_delay_to_the_apis_range(option: str, value: str) -> None:
    result = runner.invoke(app, ["serve", option, value], env=WIDE)
    assert result.exit_code == 2
    assert f"Invalid value for '{option}'" in flat(result.output)


# ------------------------------------------------------------------ arena
@pytest.mark.parametrize(
    ("rules", "options", "seats"),
    [("donut", ["players=5"], 5), ("oh-hell", ["players=3"], 3), ("spades", [], 4)],
)
def test_the_arena_default_lineup_fills_the_rules_seats(
    rules: str, options: list[str], seats: int
) -> None:
    args = ["arena", "--rules", rules, "--deals", "1", "--workers", "1", "--json"]
    for option in options:
        args += ["--option", option]
    result = runner.invoke(app, args, env=WIDE)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["seats"] == ["heuristic", *["random"] * (seats - 1)]


def test_the_default_lineup_suits_every_preset_at_every_seat_count() -> None:
    from callbreak.arena import lineup

    for preset in PRESETS:
        base = Rules.preset(preset)
        low, high = base.shape.seats
        for players in range(low, high + 1):
            rules = base if players == base.players else base.replace(players=players)
            assert len(lineup(default_lineup(rules), players, rules=rules)) == players


# ------------------------------------------------------------------ selfplay
@pytest.mark.parametrize("deals", ["-3", "0"])
def test_selfplay_refuses_fewer_than_one_deal(deals: str, tmp_path: Path) -> None:
    out = tmp_path / "s.json"
    args = ["selfplay", "--games", "1", "--rules", "callbridge", "--deals", deals]
    result = runner.invoke(app, [*args, "--out", str(out)], env=WIDE)
    assert result.exit_code == 2 and "Invalid value for '--deals'" in flat(result.output)
    assert not out.exists()
    shown = flat(runner.invoke(app, ["selfplay", "--help"], env=WIDE).output)
    assert "x>=1" in shown and "1 or more" in shown


# ------------------------------------------------------------------ analyze
def review(call_lost: bool, *, solver: bool = True) -> DealReview:
    """Deal 2 of a Call Break match: two cards played, both best; the call 2 where 1 was
    makeable (worth -2.0 against +1.0) when ``call_lost``."""
    cards = (
        Decision(1, 0, "AS", ("AS", "KS"), {"AS": Points(10), "KS": Points(10)}),
        Decision(2, 1, "QH", ("QH",), None),
    )
    if not solver:
        outcome = Outcome(3, Points(30), None, None, None, None)
        return DealReview(2, 0, 1, "batak-ihale", outcome, cards, 3, method=METHOD)
    worth = Points(-20) if call_lost else Points(20)
    call = CallReview(2, Points(-20), worth, 1, 1, Points(10))
    return DealReview(2, 0, 1, "callbreak", call, cards, 1)


def test_the_summary_counts_cards_and_says_what_the_call_lost() -> None:
    assert summary_line(review(call_lost=True)) == (
        "0 of 2 cards lost value (+0.0 in all); the call lost 3.0"
    )
    assert summary_line(review(call_lost=False)) == "0 of 2 cards lost value (+0.0 in all)"
    console = Console(record=True, width=200, color_system=None)
    _print(console, "Call Break", 0, [review(call_lost=True)], every=False)
    text = console.export_text()
    assert "call 2: 1 was makeable from the start (+1.0)" in text
    assert "0 of 2 cards lost value (+0.0 in all); the call lost 3.0" in text
    assert "decisions lost value" not in text


def test_the_playouts_summary_counts_every_decision() -> None:
    assert summary_line(review(call_lost=False, solver=False)) == (
        "0 of 2 decisions lost value (+0.0 in all)"
    )


# ------------------------------------------------------------------ import-bhoos
@pytest.fixture(scope="module")
def bhoos_log() -> dict[str, Any]:
    return play_bhoos_game(["heuristic", "random", "heuristic", "random"], seed=9).log


def test_import_bhoos_claims_only_the_rounds_it_compared(
    bhoos_log: dict[str, Any], tmp_path: Path
) -> None:
    log = json.loads(json.dumps(bhoos_log))
    hands = log["rounds"][1]["cards"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]  # round 2: a card played not held
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    result = runner.invoke(app, ["import-bhoos", str(path), "-o", str(tmp_path / "r.json")])
    assert result.exit_code == 1, result.output
    assert "logged scores match" not in result.output
    assert (
        "the logged scores of the 4 rounds checked match the rules' scores; round 2 not "
        "compared: not played out under the rules (the problem above)"
    ) in result.output
    path.write_text(json.dumps(bhoos_log))
    clean = runner.invoke(app, ["import-bhoos", str(path), "-o", str(tmp_path / "r.json")])
    assert clean.exit_code == 0, clean.output
    assert "logged scores match the rules' scores in all 5 rounds" in clean.output


def test_import_bhoos_says_which_rounds_differ_of_those_checked(
    bhoos_log: dict[str, Any], tmp_path: Path
) -> None:
    log = json.loads(json.dumps(bhoos_log))
    hands = log["rounds"][1]["cards"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    for round_ in log["rounds"][3:]:
        round_["scores"][1] += 1.0  # round 4's change is off by one; round 5's is not
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    result = runner.invoke(app, ["import-bhoos", str(path), "-o", str(tmp_path / "r.json")])
    assert result.exit_code == 1, result.output
    assert (
        "logged scores DIFFER from the rules' scores in round 4 (1 of the 4 rounds checked); "
        "round 2 not compared"
    ) in result.output


def test_a_file_name_given_to_o_says_that_o_is_option(tmp_path: Path) -> None:
    """``import-bhoos -o FILE`` writes a file, so ``selfplay -o game.json`` was a natural slip;
    it was refused as a bad name=value with no word of why."""
    result = runner.invoke(
        app, ["selfplay", "--games", "1", "-o", str(tmp_path / "game.json")], env=WIDE
    )
    assert result.exit_code == 2
    assert "-o is --option in this command, not a file to write" in flat(result.output)
    other = runner.invoke(app, ["selfplay", "--games", "1", "-o", "max_call"], env=WIDE)
    assert other.exit_code == 2 and "not a file to write" not in flat(other.output)


def test_the_seed_check_of_a_record_without_one_still_reports_the_replay(tmp_path: Path) -> None:
    """``replay --verify-seed`` of a record no fair table wrote failed the check and skipped
    the replay's OK line, so nobody could tell that the record itself was sound."""
    path = tmp_path / "game.json"
    made = runner.invoke(
        app, ["selfplay", "--games", "1", "--bot", "random", "--seed", "2", "--out", str(path)]
    )
    assert made.exit_code == 0, made.output
    result = runner.invoke(app, ["replay", "--verify-seed", str(path)], env=WIDE)
    assert result.exit_code == 1
    lines = result.output.splitlines()
    ok = next(i for i, line in enumerate(lines) if ": OK — callbreak" in line)
    failed = next(i for i, line in enumerate(lines) if "seed check failed" in line)
    assert ok < failed, result.output
