"""Bots of one's own on the command line (``--import MODULE``) and bad bot files said cleanly.

Before, ``register_bot`` was documented as reaching every face, but the command line had
no way to load a module; and ``rl:path=`` of a missing file stopped ``arena`` and
``serve-bot`` with numpy's FileNotFoundError traceback (``play`` blamed ``--resume``).
"""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from typer.testing import CliRunner

from callbreak import Rules
from callbreak.arena import ArenaConfig
from callbreak.arena.play import ChunkTask, play_chunk
from callbreak.bots import base, bot_module, import_bots, make_bot
from callbreak.cli.main import app

runner = CliRunner()


def _said(output: str) -> str:
    """The command's words, out of rich's error box and its line breaks."""
    return " ".join(output.replace("│", " ").split())


BOT_MODULE = """
from callbreak.bots import register_bot


@register_bot("lowest-imported-test", "plays its first legal action")
class LowestBot:
    def __init__(self, seed=None):
        self.seed = seed

    def act(self, observation):
        return observation.legal[0]
"""


@pytest.fixture
def bot_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A folder holding ``mybots_test.py``, the current directory; the bot and the module are
    forgotten afterwards (other tests list every registered bot)."""
    (tmp_path / "mybots_test.py").write_text(BOT_MODULE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))
    yield tmp_path
    sys.modules.pop("mybots_test", None)


def test_import_finds_a_module_in_the_current_directory(bot_folder: Path) -> None:
    import_bots(["mybots_test"])
    assert bot_module("lowest-imported-test") == "mybots_test"
    assert bot_module("heuristic") is None  # callbreak's own: every process has them
    with pytest.raises(ValueError, match="cannot import 'no_such_module_test'"):
        import_bots(["no_such_module_test"])


def test_arena_seats_a_bot_of_an_imported_module(bot_folder: Path) -> None:
    seats = ["--seat", "lowest-imported-test", *["--seat", "random"] * 3]
    args = ["arena", *seats, "--deals", "2", "--workers", "2", "--seed", "3"]
    unknown = runner.invoke(app, args)
    assert unknown.exit_code == 2 and "unknown bot 'lowest-imported-test'" in _said(unknown.output)
    result = runner.invoke(app, [*args, "--import", "mybots_test"])
    assert result.exit_code == 0, result.output
    assert "lowest-imported-test" in result.output
    missing = runner.invoke(app, [*args, "--import", "no_such_module_test"])
    assert missing.exit_code == 2 and "Invalid value for --import" in _said(missing.output)


def test_a_spawned_worker_imports_the_module_of_the_lineups_bot(bot_folder: Path) -> None:
    """A spawned worker (macOS and Windows spawn; a Ray node starts empty too) knows only
    what it imports: the chunk names the module that registers the bot."""
    import_bots(["mybots_test"])
    rules = Rules.preset("callbreak")
    config = ArenaConfig(rules, ("lowest-imported-test", "random", "random", "random"), 1, 3)
    task = ChunkTask.of(config, 0, 1)
    assert task.imports == ("mybots_test",)
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(1, mp_context=spawn) as pool:
        chunk = pool.submit(play_chunk, task).result(timeout=120)
    assert len(chunk.sets[0].games) == 4 and chunk.illegal == [0, 0, 0, 0]


def test_a_missing_policy_file_is_a_bad_spec() -> None:
    with pytest.raises(ValueError, match=r"no policy file at /nonexistent/policy\.npz"):
        make_bot("rl:path=/nonexistent/policy.npz")


@pytest.mark.parametrize(
    ("args", "hint"),
    [
        (["arena", "--seat", "rl:path=/nonexistent/policy.npz", "--deals", "1"], "--seat"),
        (["serve-bot", "--bot", "rl:path=/nonexistent/policy.npz", "--port", "0"], "--bot"),
        (["play", "--bot", "rl:path=/nonexistent/policy.npz", "--plain"], "--bot"),
    ],
)
def test_every_command_names_the_option_of_a_missing_policy_file(
    args: list[str], hint: str
) -> None:
    result = runner.invoke(app, args, input="")
    assert result.exit_code == 2, result.output
    said = _said(result.output)
    assert f"Invalid value for {hint}" in said and "no policy file" in said
    assert result.exception is None or isinstance(result.exception, SystemExit)
