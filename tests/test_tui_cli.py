"""``callbreak play``'s new options through the command line: --resume, --pause, --plain."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from callbreak import Rules
from callbreak.cli.main import app
from callbreak.tui.session import Session

runner = CliRunner()
WIDE = {"COLUMNS": "200"}


def test_play_help_lists_the_table_options() -> None:
    result = runner.invoke(app, ["play", "--help"], env=WIDE)
    assert result.exit_code == 0
    for flag in ("--resume", "--pause", "--plain", "--no-color", "--level", "--record"):
        assert flag in result.output


def test_resume_through_the_plain_game_keeps_saving_to_the_same_file(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    session = Session.start(Rules.preset("callbreak"), "heuristic", seed=8, record=path)
    while not session.human_to_act:
        seat = session.to_act
        assert seat is not None
        session.apply_bot(seat, session.decide(seat, session.bot_view(seat)))
    session.act(3 if session.view().phase == "call" else False)
    before = json.loads(path.read_text())
    result = runner.invoke(app, ["play", "--resume", str(path), "--plain"], input="quit\n")
    assert result.exit_code == 0, result.output
    assert f"Record saved to {path}" in result.output
    after = json.loads(path.read_text())
    assert after["seats"] == before["seats"]
    assert after["deals"][0]["hands"] == before["deals"][0]["hands"]


def test_resume_refuses_what_it_cannot_continue(tmp_path: Path) -> None:
    missing = runner.invoke(app, ["play", "--resume", str(tmp_path / "nope.json")], env=WIDE)
    assert missing.exit_code == 2 and "--resume" in missing.output
    other = tmp_path / "other.json"
    other.write_text('{"hello": 1}')
    wrong = runner.invoke(app, ["play", "--resume", str(other)], env=WIDE)
    assert wrong.exit_code == 2 and "not a callbreak game record" in wrong.output


def test_a_bad_bot_spec_is_a_usage_error() -> None:
    result = runner.invoke(app, ["play", "--bot", "nobody"], env=WIDE)
    assert result.exit_code == 2 and "unknown bot" in result.output


def test_every_game_is_played_at_the_table_and_the_expert_level_seats_the_expert() -> None:
    result = runner.invoke(
        app,
        ["play", "--rules", "batak-ihale", "--level", "expert", "--seed", "1", "--plain"],
        input="quit\n",
        env=WIDE,
    )
    assert result.exit_code == 0, result.output
    assert "plays only Call Break" not in result.output and "stands in" not in result.output
    assert "played line by line" not in result.output  # no redirect away from the table
