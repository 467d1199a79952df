"""The arena's examples of faults: each labelled with its kind, and the run's first few only.

Before, every example printed as ``illegal:`` (a timeout, a non-JSON answer and a bot that
raised alike), and each chunk kept its own ten, so the list grew with the number of chunks,
that is with ``--workers``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from callbreak import Rules
from callbreak.arena import ArenaConfig, run_arena
from callbreak.arena.play import MAX_ILLEGAL_EXAMPLES, ChunkTask, play_chunk
from callbreak.arena.runner import chunk_tasks
from callbreak.bots import base
from callbreak.cli.main import app
from callbreak.engine import Action, Observation

CALLBREAK = Rules.preset("callbreak")


class _WrongCallBot:
    """Calls 99 (the engine refuses it), then plays by the first legal card."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, observation: Observation) -> Action:
        action: Action = 99 if observation.phase == "call" else observation.legal[0]
        return action


class _RaisingBot(_WrongCallBot):
    """Calls legally, then raises instead of playing a card (a bug in the bot)."""

    def act(self, observation: Observation) -> Action:
        if observation.phase == "play":
            raise RuntimeError("boom")
        action: Action = observation.legal[0]
        return action


@pytest.fixture
def faulty_bots(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(base._REGISTRY, "wrong-call-test", (_WrongCallBot, "calls 99"))
    monkeypatch.setitem(base._REGISTRY, "raising-test", (_RaisingBot, "raises in the play"))
    yield


@pytest.mark.usefixtures("faulty_bots")
def test_the_examples_are_the_runs_first_few_whatever_the_chunks() -> None:
    config = ArenaConfig(CALLBREAK, ("wrong-call-test", "random", "random", "random"), 8, 5)
    assert len(chunk_tasks(config, 1)) == 4  # a run of four chunks, even on one worker
    run = run_arena(config, workers=1)
    whole = play_chunk(ChunkTask.of(config, 0, 8))  # the same deals as one chunk
    assert run.illegal[0] == 8 * 4 > MAX_ILLEGAL_EXAMPLES
    assert run.illegal_examples == whole.illegal_examples
    assert len(run.illegal_examples) == MAX_ILLEGAL_EXAMPLES


@pytest.mark.usefixtures("faulty_bots")
def test_each_example_is_labelled_with_its_kind() -> None:
    wrong = ArenaConfig(CALLBREAK, ("wrong-call-test", "random", "random", "random"), 1, 5)
    example = run_arena(wrong, workers=1).illegal_examples[0]
    assert example.startswith("illegal: deal 0, rotation 0") and "99" in example
    raising = ArenaConfig(CALLBREAK, ("raising-test", "random", "random", "random"), 1, 5)
    run = run_arena(raising, workers=1)
    assert run.illegal[0] == 4 * 13  # counted in the Illegal column all the same
    assert all(e.startswith("bot error: deal 0") for e in run.illegal_examples)
    assert "RuntimeError: boom" in run.illegal_examples[0]


@pytest.mark.usefixtures("faulty_bots")
def test_the_command_prints_each_kind_under_its_own_label() -> None:
    arena = ["arena", "--seat", "raising-test", "--seat", "random", "--seat", "random"]
    result = CliRunner().invoke(
        app, [*arena, "--seat", "random", "--deals", "3", "--workers", "1", "--seed", "5"]
    )
    assert result.exit_code == 0, result.output
    labelled = [line for line in result.output.splitlines() if "deal " in line and ": " in line]
    assert len(labelled) == MAX_ILLEGAL_EXAMPLES
    assert all(line.startswith("bot error: ") for line in labelled)
    assert "illegal:" not in result.output
