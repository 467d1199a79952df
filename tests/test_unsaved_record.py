"""``callbreak play --record FILE`` when saving fails mid-match (the folder deleted, the disk
full): the match goes on, the person is told once, later saves are retried, and the last
line never claims a record that is not there."""

from __future__ import annotations

import errno
import shutil
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from typer.testing import CliRunner

from callbreak import Rules
from callbreak.bots import make_bot
from callbreak.cli.main import _save_and_tell
from callbreak.cli.main import app as cli
from callbreak.cli.play import TerminalGame
from callbreak.record import read_records
from callbreak.tui.app import CallBreakApp
from callbreak.tui.screens import ChoiceScreen, InfoScreen
from callbreak.tui.session import Session
from tui_support import choice_screen, run_app, screen_text, wait_for

runner = CliRunner()
WIDE = {"COLUMNS": "300"}


def full_disk(*_args: Any, **_kwargs: Any) -> None:
    raise OSError(errno.ENOSPC, "No space left on device")


def test_the_session_keeps_the_failure_says_it_once_and_says_when_saving_works_again(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    session = Session.start(Rules.preset("callbreak"), "random", seed=2, record=folder / "x.json")
    shutil.rmtree(folder)
    session.save()
    assert session.save_failure == (
        f"could not save the record to {folder / 'x.json'}: No such file or directory"
    )
    assert "the match goes on, unsaved" in session.take_save_news().lower()
    session.save()
    assert session.take_save_news() == ""  # a second failure is not said again
    assert "Record NOT saved" in session.unsaved_words()
    folder.mkdir()
    session.save()
    assert session.save_failure is None and session.unsaved_words() == ""
    assert session.take_save_news() == f"The record is saved again to {folder / 'x.json'}."
    assert [p.name for p in folder.iterdir()] == ["x.json"]  # no stray temporary file
    shutil.rmtree(folder)
    session.save()
    folder.mkdir()
    session.save()
    assert session.take_save_news() == ""  # over before it was told: nothing to say


def test_the_plain_game_plays_on_after_its_record_folder_is_removed(tmp_path: Path) -> None:
    """Deal 1 ends with the folder gone (told once), deal 2 with it back (saved again)."""
    folder = tmp_path / "games"
    folder.mkdir()
    record = folder / "x.json"
    session = Session.start(Rules.preset("callbreak"), "heuristic", seed=1, record=record)
    stand_in = make_bot("heuristic", seed=7)
    console = Console(record=True, width=300, color_system=None)

    def ask(prompt: str) -> str:
        deals = len(session.match.entries)
        if deals == 0 and folder.exists():
            shutil.rmtree(folder)
        if deals == 1 and not folder.exists():
            folder.mkdir()
        if deals == 2:
            return "quit"
        return str(stand_in.act(session.view()))

    TerminalGame(
        session.match,
        session.bots,
        console=console,
        ask=ask,
        save=lambda _match: _save_and_tell(session),
    ).run()
    text = console.export_text()
    warning = f"Could not save the record to {record}: No such file or directory."
    assert text.count(warning) == 1
    assert "The match goes on, unsaved" in text
    assert "Deal 2" in text  # the match went on
    assert f"The record is saved again to {record}." in text
    assert session.save_failure is None
    assert len(read_records(record)[0]["deals"]) == 3  # two played, the third begun


def test_play_says_the_record_is_not_saved_and_exits_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("callbreak.record.write_record", full_disk)
    record = tmp_path / "x.json"
    result = runner.invoke(
        cli, ["play", "--plain", "--record", str(record), "--seed", "1"], input="quit\n", env=WIDE
    )
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)  # no traceback
    assert (
        f"Record NOT saved: could not save the record to {record}: No space left on device"
        in result.output
    )
    assert "Record saved to" not in result.output
    assert not record.exists() and list(tmp_path.iterdir()) == []


def test_the_table_says_once_on_a_screen_that_the_record_is_not_saved(tmp_path: Path) -> None:
    folder = tmp_path / "games"
    folder.mkdir()
    record = folder / "x.json"
    session = Session.start(Rules.preset("callbreak"), "heuristic", seed=3, record=record)
    shutil.rmtree(folder)  # before the first save: the bots' first calls fail to save

    async def scenario(pilot: Pilot[None], app: CallBreakApp) -> None:
        await wait_for(
            pilot,
            lambda: (
                isinstance(app.screen, InfoScreen) and app.screen.title_text == "Record not saved"
            ),
            "the record-not-saved screen",
        )
        await pilot.pause(0.1)
        assert "Record not saved" in screen_text(app)
        told = app.screen
        assert isinstance(told, InfoScreen)
        assert [str(line) for line in told.body] == [
            f"Could not save the record to {record}: No such file or directory. The match goes "
            "on, unsaved; saving is tried again as it goes."
        ]
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.state == "human", "the person's turn")
        assert not isinstance(app.screen, InfoScreen)  # said once, not at every move
        assert "record NOT saved" in screen_text(app)  # and kept in view on the top bar
        await pilot.press("ctrl+c")
        leave = await choice_screen(pilot, app, "Leave?")
        assert isinstance(leave, ChoiceScreen)
        assert "Record NOT saved" in screen_text(app)
        assert "--resume" not in screen_text(app)

    run_app(session, scenario, size=(120, 40))
    assert session.save_failure is not None
