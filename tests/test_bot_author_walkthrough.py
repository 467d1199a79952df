"""What a bot author meets following docs/bots.md, docs/arena.md and docs/protocol.md: a bot
written the plain way is either seated or refused with words that say what to change."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from typer.testing import CliRunner

from callbreak import Action, Observation, Rules
from callbreak.arena import ArenaConfig, ArenaError, errors, run_arena
from callbreak.bots import base, make_bot, register_bot
from callbreak.cli.main import app
from callbreak.protocol.bhoos.server import create_app, serve_in_thread

runner = CliRunner()


class NoSeedBot:
    """A bot as 'anything with act(observation) -> action', with no ``seed`` parameter."""

    name = "no-seed-walkthrough-test"

    def act(self, observation: Observation) -> Action:
        first: Action = observation.legal[0]
        return first


class OneCallBot:
    """Calls 1 and plays its first legal card: four of them never reach min_total_calls."""

    name = "one-call-walkthrough-test"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def act(self, observation: Observation) -> Action:
        lowest: Action = min(observation.legal, key=lambda a: (a is True, str(a)))
        return lowest


class OffTheListBot:
    """Answers a call of 99 and a card it does not hold."""

    name = "off-list-walkthrough-test"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def act(self, observation: Observation) -> Action:
        return 99 if observation.phase == "call" else "ZZ"


@pytest.fixture(autouse=True)
def registered() -> Iterator[None]:
    register_bot("no-seed-walkthrough-test", "no seed")(NoSeedBot)
    register_bot("one-call-walkthrough-test", "calls 1")(OneCallBot)
    register_bot("off-list-walkthrough-test", "answers what is not legal")(OffTheListBot)
    yield
    for name in ("no-seed", "one-call", "off-list"):
        base._REGISTRY.pop(f"{name}-walkthrough-test", None)


def test_a_factory_without_seed_is_refused_with_what_to_add() -> None:
    with pytest.raises(ValueError, match=r"takes no seed.*seed: int \| None = None"):
        make_bot("no-seed-walkthrough-test")


def test_an_unknown_bot_says_how_a_bot_of_your_own_is_found() -> None:
    with pytest.raises(ValueError, match=r"unknown bot 'mine'.*--import MODULE"):
        make_bot("mine")


def test_a_lineup_whose_calls_never_count_stops_with_what_to_change() -> None:
    rules = Rules.preset("callbreak")
    config = ArenaConfig(rules, ("one-call-walkthrough-test",) * 4, deals=1, seed=1)
    with pytest.raises(ArenaError, match="min_total_calls=none") as stalled:
        run_arena(config, workers=1)
    assert isinstance(stalled.value, errors.GameStalled)  # the command's exit status 1
    assert "deal set 0, rotation 0" in str(stalled.value)
    freed = rules.replace(min_total_calls=None)
    run = run_arena(ArenaConfig(freed, config.seats, deals=1, seed=1), workers=1)
    assert len(run.sets) == 1


def test_the_arena_command_says_so_without_a_traceback() -> None:
    seats = ["--seat", "one-call-walkthrough-test"]
    result = runner.invoke(app, ["arena", *seats, "--deals", "1", "--workers", "1"])
    assert result.exit_code == 1, result.output
    assert "min_total_calls=none" in result.output and "--ray" not in result.output
    pool = ["--pool", "one-call-walkthrough-test", "--candidate", "one-call-walkthrough-test"]
    result = runner.invoke(app, ["arena", *pool, "--deals", "1", "--workers", "1"])
    assert result.exit_code == 1, result.output
    assert "min_total_calls=none" in result.output


def test_serve_bot_says_why_an_answer_was_replaced() -> None:
    ids = ["p0", "p1", "p2", "p3"]
    hand = ["1S", "KS", "2S", "1H", "QH", "3H", "KD", "7D", "4D", "1C", "9C", "5C", "3C"]
    players = {i: {"bid": 0, "totalPoints": 0} for i in ids}
    body = {
        "playerId": "p0",
        "playerIds": ids,
        "cards": hand,
        "timeBudget": 1500,
        "context": {"round": 1, "players": players},
    }
    served = create_app("off-list-walkthrough-test", processes=0, warm_up=False)
    with serve_in_thread(served) as address:
        answer = httpx.post(f"{address}/bid", json=body, timeout=10)
    assert answer.status_code == 200
    assert isinstance(answer.json()["value"], int)
    assert answer.headers["X-Fallback"] == "the bot answered 99, not a legal action"
