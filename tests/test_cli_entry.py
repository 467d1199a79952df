"""Ctrl-C at any moment of a ``callbreak`` command ends it with one line and status 130.

Before, the script's entry was ``callbreak.cli.main:run``: Ctrl-C while that module imported
typer, rich and the engine (the first few tenths of a second of every command) printed a
KeyboardInterrupt traceback, and a command with no handler of its own ended in silence.
The interrupts here are raised where a real one could land, so nothing depends on timing.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import tomllib
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

import pytest
from typer.testing import CliRunner

import callbreak.arena
from callbreak.cli import entry
from callbreak.cli import main as cli_main

ROOT = Path(__file__).resolve().parent.parent


class _InterruptedImport:
    """A finder on ``sys.meta_path``: importing ``name`` is stopped by Ctrl-C."""

    def __init__(self, name: str) -> None:
        self.name = name

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname == self.name:
            raise KeyboardInterrupt
        return None


def test_the_script_starts_at_the_entry() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert scripts["scripts"]["callbreak"] == "callbreak.cli.entry:run"


def test_ctrl_c_while_the_command_line_imports_says_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delitem(sys.modules, "callbreak.cli.main")
    finder = _InterruptedImport("callbreak.cli.main")
    monkeypatch.setattr(sys, "meta_path", [finder, *sys.meta_path])
    with pytest.raises(SystemExit) as stopped:
        entry.run()
    assert stopped.value.code == 130
    assert capsys.readouterr().err == "Interrupted.\n"


def test_ctrl_c_outside_any_command_says_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Typer builds the commands from their signatures before it parses the arguments."""

    def interrupted() -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_main, "app", interrupted)
    with pytest.raises(SystemExit) as stopped:
        entry.run()
    assert stopped.value.code == 130
    assert capsys.readouterr().err == "Interrupted.\n"


def test_python_m_callbreak_stopped_while_it_imports_leaves_no_traceback() -> None:
    """A process of its own, through ``callbreak/__main__.py``: the status and the whole of
    stderr are what a shell and a person see."""
    script = textwrap.dedent(
        f"""
        import runpy, sys

        class Interrupted:
            def find_spec(self, fullname, path, target=None):
                if fullname == {"callbreak.cli.main"!r}:
                    raise KeyboardInterrupt

        sys.meta_path.insert(0, Interrupted())
        runpy.run_module("callbreak", run_name="__main__")
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script, "rules"], capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stderr, done.stdout) == (130, "Interrupted.\n", "")


def test_python_m_callbreak_runs_the_commands() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "callbreak", "rules", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "List the presets" in done.stdout


def test_ctrl_c_in_a_command_without_its_own_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """Typer ends such a command with status 130 and says nothing, like a finished one."""

    def interrupted() -> dict[str, str]:
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_main, "available_bots", interrupted)
    result = CliRunner().invoke(cli_main.app, ["rules"])
    assert result.exit_code == 130
    assert result.stderr == "Interrupted.\n"
    assert "Traceback" not in result.output


def test_a_command_that_catches_ctrl_c_keeps_its_own_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(callbreak.arena, "run_arena", interrupted)
    result = CliRunner().invoke(cli_main.app, ["arena", "--deals", "1"])
    assert result.exit_code == 130
    assert result.stderr == "Interrupted: the arena run stopped and its workers ended.\n"
