"""Small fixes, each pinned by a test that failed before it: a bot that cannot play a call
game refused up front, a deal's seed checked, serve-bot quiet
under Ctrl-C, the seed's help at 80 columns, the docs' examples type-checked and the tables'
refusals in their own words."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import mypy.api
import pytest
from typer.testing import CliRunner

from callbreak.arena import ArenaError, lineup
from callbreak.bots import base, refusal
from callbreak.cli.main import app
from callbreak.engine import Action, Deal, Match, Observation
from callbreak.rules import Rules
from server_support import ThreadServer, config, create_table, db_url
from test_docs_examples import PYTHON, Block

ROOT = Path(__file__).resolve().parent.parent


class _Broken:
    """A bot whose every decision fails, as a bug would make it."""

    name = "broken"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, observation: Observation) -> Action:
        raise KeyError("no such table")


@pytest.mark.parametrize("preset", ["spades", "oh-hell", "judgement"])
def test_a_policy_learned_on_call_break_is_refused_in_another_call_game(preset: str) -> None:
    """The call games were waved through unasked: the arena then logged a bot error at every
    decision of ``selfplay``, a linear policy trained on Call Break."""
    rules = Rules.preset(preset)
    assert refusal("selfplay", rules) == (
        f"this policy was trained for Call Break, not {rules.title}"
    )
    with pytest.raises(ArenaError, match=f"seat 'selfplay' cannot play {rules.title}"):
        lineup(["selfplay"], rules.players, rules=rules)


def test_a_bot_that_fails_its_first_decision_is_refused_with_the_error_named(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(base._REGISTRY, "broken-for-tests", (_Broken, "fails every decision"))
    why = refusal("broken-for-tests", Rules.preset("callbreak"))
    assert why == "its first decision failed (KeyError: 'no such table')"


@pytest.mark.parametrize("preset", ["callbreak", "callbreak-bhoos", "callbridge"])
def test_the_bots_that_play_call_break_are_not_refused(preset: str) -> None:
    rules = Rules.preset(preset)
    for spec in ("selfplay", "heuristic", "random", "cautious", "expert"):
        assert refusal(spec, rules) is None, spec


@pytest.mark.parametrize("seed", [-1, 2**63, 1.5, True, "7"])
def test_a_deal_refuses_a_seed_no_record_can_hold(seed: object) -> None:
    """``Deal(seed=...)`` took anything ``random.Random`` hashes, as ``Match`` no longer does."""
    message = r"seed must be a whole number from 0 to 2\*\*63 - 1, not "
    with pytest.raises(ValueError, match=message):
        Deal(Rules.preset("callbreak"), seed=seed)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=message):
        Match(Rules.preset("callbreak"), seed=seed)  # type: ignore[arg-type]


def test_a_deal_takes_the_seeds_at_both_ends() -> None:
    rules = Rules.preset("callbreak")
    for seed in (0, 2**63 - 1):
        assert Deal(rules, seed=seed).seed == seed
    assert Deal(rules).seed is None


def _serve_bot() -> subprocess.Popen[str]:
    """``callbreak serve-bot`` with two worker processes, in a process group of its own, as
    a terminal runs it (Ctrl-C reaches the whole group: the workers too)."""
    command = [sys.executable, "-m", "callbreak.cli.main", "serve-bot", "--port", "0"]
    return subprocess.Popen(
        [*command, "--processes", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
    )


def _interrupt_after(server: subprocess.Popen[str], line: str, delay_s: float) -> str:
    """Ctrl-C to the server's group ``delay_s`` after it prints ``line``; its stderr."""
    assert server.stdout is not None
    while line not in server.stdout.readline():
        assert server.poll() is None, "serve-bot ended before " + line
    time.sleep(delay_s)
    os.killpg(server.pid, signal.SIGINT)
    try:
        _, err = server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
    assert server.returncode == 130, err
    return err


def test_ctrl_c_while_serve_bots_workers_start_is_quiet() -> None:
    """A worker still importing, before it ignored Ctrl-C, printed a traceback of its own."""
    err = _interrupt_after(_serve_bot(), "Starting heuristic", 0.2)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert "Interrupted: serve-bot stopped and its workers ended." in err


def test_ctrl_c_while_serve_bot_serves_says_so() -> None:
    err = _interrupt_after(_serve_bot(), "Serving heuristic", 0.0)
    assert err.strip() == "Interrupted: serve-bot stopped and its workers ended."


def test_the_arena_help_reads_at_80_columns() -> None:
    """The paragraphs after the first kept the docstring's line breaks ("in the other /
    seats"), and the seed's range broke inside its 19 digits."""
    result = CliRunner().invoke(app, ["arena", "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert max(len(line) for line in lines) <= 80
    paragraph = [line.strip() for line in lines if "--candidate:" in line or "seats, the" in line]
    assert paragraph[0].endswith("every mix of the pool in")
    assert paragraph[1].startswith("the other seats, the edge per mix")
    assert "9223372036854765807" not in result.output
    assert "from 0 to 2**63 - 10001" in result.output


def test_the_arena_still_refuses_a_seed_out_of_range() -> None:
    runner = CliRunner()
    for seed, why in (("-1", "-1 is not from 0"), ("1.5", "'1.5' is not a whole number")):
        result = runner.invoke(app, ["arena", "--seed", seed], env={"COLUMNS": "200"})
        assert result.exit_code == 2 and why in result.output, result.output
    top = 2**63 - 10_001
    assert (
        f"{top + 1} is not from 0" in runner.invoke(app, ["arena", "--seed", str(top + 1)]).output
    )


@pytest.mark.parametrize("command", ["play", "selfplay"])
def test_the_seed_help_of_play_and_selfplay_reads_at_80_columns(command: str) -> None:
    """Their ``min``/``max`` printed ``[0<=x<=9223372036854765807]`` in the column of types,
    which broke inside its digits at 80 columns, as the arena's did."""
    result = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "80"})
    assert result.exit_code == 0
    assert max(len(line) for line in result.output.splitlines()) <= 80
    assert "9223372036854765807" not in result.output
    assert "from 0 to 2**63 - 10001" in " ".join(result.output.replace("│", " ").split())


@pytest.mark.parametrize("command", ["play", "selfplay"])
def test_play_and_selfplay_still_refuse_a_seed_out_of_range(command: str) -> None:
    runner = CliRunner()
    top = 2**63 - 10_001
    for seed, why in (
        ("-1", "-1 is not from 0"),
        ("1.5", "'1.5' is not a whole number"),
        (str(top + 1), f"{top + 1} is not from 0"),
    ):
        result = runner.invoke(app, [command, "--seed", seed], env={"COLUMNS": "200"})
        assert result.exit_code == 2 and why in result.output, result.output


def test_the_python_examples_of_the_docs_type_check(tmp_path: Path) -> None:
    """A reader who pastes them into a strictly checked project met ``o.deal``'s None in rl.md,
    ``deal.points``' None in the README and python-api.md and a ``Bot`` without ``config`` in
    bots.md.  The blocks are those test_docs_examples.py runs, each a module of its own, all
    checked in one mypy run; an error is named by the Markdown file and line it is on."""
    where: dict[str, Block] = {}
    for block in PYTHON:
        name = re.sub(r"\W", "_", f"{block.where}")
        path = tmp_path / f"{name}.py"
        path.write_text(block.code, encoding="utf-8")
        where[str(path)] = block
    assert {b.path.name for b in where.values()} >= {"README.md", "python-api.md", "rl.md"}
    out, err, status = mypy.api.run(["--config-file", str(ROOT / "pyproject.toml"), *where])

    def in_the_docs(found: re.Match[str]) -> str:
        block = where[found.group(1)]
        return f"{block.where.rsplit(':', 1)[0]}:{block.line + int(found.group(2))}:"

    pattern = "(" + "|".join(map(re.escape, where)) + r"):(\d+):"
    assert status == 0, re.sub(pattern, in_the_docs, out) + err


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(config(db_url("sqlite", tmp_path))) as running:
        yield running


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("   ", "a name needs a visible character, not only spaces"),
        ("a\u202eb", "a name may not hold control characters or direction overrides (found "),
    ],
)
def test_a_refused_name_reads_without_pydantics_prefix(
    server: ThreadServer, name: str, why: str
) -> None:
    url = f"{server.http}/api/tables"
    code = create_table(server.http, name="Asha")["code"]
    for refused in (
        httpx.post(url, json={"name": name}),
        httpx.post(f"{url}/{code}/join", json={"name": name}),
    ):
        assert refused.status_code == 422
        (detail,) = refused.json()["detail"]
        assert detail["msg"].startswith(why) and detail["loc"] == ["body", "name"], detail


def test_a_refused_contribution_reads_without_pydantics_prefix(server: ThreadServer) -> None:
    url = f"{server.http}/api/tables"
    code = create_table(server.http, name="Asha")["code"]
    refused = httpx.post(f"{url}/{code}/join", json={"name": "B", "contribution": "abc"})
    assert refused.status_code == 422
    (detail,) = refused.json()["detail"]
    assert detail["msg"] == (
        "a contribution must be 32 bytes written as 64 hex digits, not 'abc'"
    ), detail
    too_long = httpx.post(url, json={"name": "x" * 33})
    assert too_long.json()["detail"][0]["msg"] == "String should have at most 32 characters"
