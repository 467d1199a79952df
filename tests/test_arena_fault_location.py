"""A bot that raises in the arena is shown with where it raised: file, line and function.

Before, the example read "the bot raised ValueError: bad card", and its author was left to
guess which line of the bot had failed.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from callbreak import Match, Rules
from callbreak.arena import ArenaConfig, run_arena, summarize
from callbreak.arena.errors import SeatFault
from callbreak.arena.play import _answer
from callbreak.bots import base
from callbreak.cli.main import app
from callbreak.engine import Action, Observation

CALLBREAK = Rules.preset("callbreak")


def _choose_card(observation: Observation) -> Action:
    raise ValueError(f"bad card {observation.legal[0]}")


class _FaultyBot:
    """Calls legally, then fails in a helper of its own when it comes to play."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, observation: Observation) -> Action:
        if observation.phase == "play":
            return _choose_card(observation)
        action: Action = observation.legal[0]
        return action


def _raise_line() -> int:
    lines, first = inspect.getsourcelines(_choose_card)
    return first + next(i for i, line in enumerate(lines) if "raise" in line)


def _here() -> str:
    """This file as the examples name it: from the current folder (pytest runs from the
    project's, above it), else by its name."""
    path = Path(__file__).resolve()
    cwd = Path.cwd().resolve()
    return str(path.relative_to(cwd)) if path.is_relative_to(cwd) else path.name


@pytest.fixture
def faulty_bot(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.setitem(base._REGISTRY, "faulty-test", (_FaultyBot, "raises in a helper"))
    yield "faulty-test"


def test_the_example_names_the_file_line_and_function(faulty_bot: str) -> None:
    config = ArenaConfig(CALLBREAK, (faulty_bot, "random", "random", "random"), 1, 5)
    run = run_arena(config, workers=1)
    where = f"(at {_here()}:{_raise_line()} in _choose_card)"
    assert run.illegal_examples[0].startswith("bot error: deal 0, rotation 0")
    said = rf": the bot raised ValueError: bad card \S+ {re.escape(where)}$"
    assert re.search(said, run.illegal_examples[0]), run.illegal_examples[0]
    assert summarize(run).json()["illegal_examples"] == run.illegal_examples


def test_the_command_prints_where_on_the_examples_line(faulty_bot: str) -> None:
    lineup = ["--seat", faulty_bot, "--seat", "random", "--seat", "random", "--seat", "random"]
    result = CliRunner().invoke(
        app, ["arena", *lineup, "--deals", "1", "--seed", "5"], env={"COLUMNS": "250"}
    )
    assert result.exit_code == 0, result.output
    where = f"(at {_here()}:{_raise_line()} in _choose_card)"
    errors = [line for line in result.output.splitlines() if line.startswith("bot error: ")]
    assert errors and all(line.rstrip().endswith(where) for line in errors)


def _raising_bot(filename: str) -> object:
    """A bot whose ``act`` was compiled from ``filename``, as if imported from there."""
    source = "class Bot:\n    def act(self, observation):\n        raise KeyError('spade')\n"
    namespace: dict[str, object] = {}
    exec(compile(source, filename, "exec"), namespace)
    bot_class = namespace["Bot"]
    assert isinstance(bot_class, type)
    return bot_class()


@pytest.mark.parametrize(
    ("filename", "shown"),
    [
        ("{cwd}/mybots/mybot.py", "mybots/mybot.py"),  # under the current folder: from there
        ("/elsewhere/site-packages/mybot.py", "mybot.py"),  # elsewhere: its name alone
    ],
)
def test_a_file_is_named_from_the_current_folder_or_by_its_name(
    filename: str, shown: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    bot = _raising_bot(filename.format(cwd=tmp_path))
    match = Match(CALLBREAK, seed=1)
    assert match.to_act is not None
    with pytest.raises(SeatFault) as fault:
        _answer(bot, match.observation(match.to_act))  # type: ignore[arg-type]
    assert str(fault.value) == f"the bot raised KeyError: 'spade' (at {shown}:3 in act)"
    assert fault.value.kind == "error"
