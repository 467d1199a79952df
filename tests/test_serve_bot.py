"""``serve-bot``: the budget cap, bots of one's own in the worker processes, a start-up
that fails says so, and "Serving" is said once the server answers.
"""

from __future__ import annotations

import asyncio
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from callbreak.bots import base, import_bots
from callbreak.engine import Action, Observation
from callbreak.protocol.bhoos.server import BotService, BotStartError, create_app, serve_in_thread

COMMAND = [sys.executable, "-c", "from callbreak.cli.main import run; run()", "serve-bot"]


class _BudgetBot:
    """Takes a budget, as the expert does, and plays its first legal action."""

    def __init__(self, seed: int | None = None, budget_ms: int = 1000) -> None:
        self.budget_ms = budget_ms

    def act(self, observation: Observation) -> Action:
        action: Action = observation.legal[0]
        return action


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Bots registered here are forgotten after the test (others list every bot)."""
    monkeypatch.setattr(base, "_REGISTRY", dict(base._REGISTRY))
    monkeypatch.setitem(base._REGISTRY, "budget-test", (_BudgetBot, "takes budget_ms"))
    yield


@pytest.mark.usefixtures("registry")
@pytest.mark.parametrize(
    ("spec", "cap", "thinks"),
    [
        ("budget-test:budget_ms=20", 300, 20),  # the cap never raises the bot's own budget
        ("budget-test:budget_ms=500", 300, 300),
        ("budget-test", 300, 300),  # under the 1000 ms every budgeted bot defaults to
        ("budget-test", 3000, 1000),
        ("budget-test:budget_ms=20", None, 20),
        ("budget-test", None, 1000),
    ],
)
def test_the_budget_is_the_least_of_the_bots_the_cap_and_the_share(
    spec: str, cap: int | None, thinks: int
) -> None:
    service = BotService(spec, cap)
    assert service.budget_ms(1_000_000, 1) == thinks  # plenty of timeBudget: the cap rules
    assert service.budget_ms(1400, 14) == min(thinks, int(1400 * 0.5 / 14 - 3))


BOT_MODULE = """
from callbreak.bots import register_bot


@register_bot("served-imported-test", "plays its first legal action")
def first(seed=None, budget_ms: int = 1000):
    class First:
        def act(self, observation):
            return observation.legal[0]

    return First()
"""


@pytest.mark.usefixtures("registry")
def test_a_worker_process_imports_the_module_of_the_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "served_bots_test.py").write_text(BOT_MODULE)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", list(sys.path))
    try:
        import_bots(["served_bots_test"])  # what `serve-bot --import served_bots_test` does
        with serve_in_thread(create_app("served-imported-test", processes=1)) as address:
            body = {
                "playerId": "A",
                "playerIds": ["A", "B", "C", "D"],
                "cards": [
                    "1S",
                    "KS",
                    "QS",
                    "JS",
                    "TS",
                    "9S",
                    "8S",
                    "1H",
                    "KH",
                    "QH",
                    "JH",
                    "TH",
                    "9H",
                ],
                "timeBudget": 1500,
                "context": {
                    "round": 1,
                    "players": {p: {"totalPoints": 0, "bid": 0} for p in "ABCD"},
                },
            }
            response = httpx.post(address + "/bid", json=body, timeout=30)
        assert response.status_code == 200, response.text
    finally:
        sys.modules.pop("served_bots_test", None)


class _Unimportable:
    """Registered at run time in this process only: no worker process can make it."""

    def __init__(self, seed: int | None = None, budget_ms: int = 1000) -> None:
        pass

    def act(self, observation: Observation) -> Action:
        action: Action = observation.legal[0]
        return action


@pytest.mark.usefixtures("registry")
def test_a_server_whose_workers_cannot_make_the_bot_does_not_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Before, the failed warm-up was logged, ``/hi`` answered, and every /bid got a 500."""
    monkeypatch.setitem(base._REGISTRY, "unimportable-test", (_Unimportable, "here only"))
    app = create_app("unimportable-test", processes=1)
    try:
        with pytest.raises(BotStartError, match="cannot make the bot 'unimportable-test'"):
            asyncio.run(app.state.warm())
    finally:
        app.state.executor.shutdown(wait=True, cancel_futures=True)


def test_a_port_in_use_is_said_at_once_and_nothing_claims_to_serve() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [*COMMAND, "--bot", "random", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 1
    assert "Serving" not in result.stdout
    assert f"did not start on 127.0.0.1:{port}" in result.stderr
    assert "in use" in result.stderr and "Traceback" not in result.stderr


def test_serving_is_said_once_the_server_answers() -> None:
    process = subprocess.Popen(
        [*COMMAND, "--bot", "random", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline(), process.stdout.readline()]
        assert lines[0].startswith("Starting random")
        assert lines[1].startswith("Serving random on http://127.0.0.1:"), lines
        address = lines[1].split()[3]
        assert not address.endswith(":0")  # the port the system gave
        assert httpx.get(address + "/hi", timeout=5).json() == {"value": "hello"}
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
