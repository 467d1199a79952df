"""Whole games over the Bhoos protocol: a referee, the arena's remote seats, faults, imports.

Servers are real uvicorn servers on 127.0.0.1 (free ports, background threads).
"""

from __future__ import annotations

import asyncio
import copy
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI, Request
from typer.testing import CliRunner

from callbreak import Match
from callbreak.arena import ArenaConfig, ArenaError, lineup, run_arena, summarize
from callbreak.arena import play as play_module
from callbreak.arena.remote import RemoteBot, RemoteSeatDown, parse_remote
from callbreak.bots import base
from callbreak.bots.heuristic import HeuristicBot
from callbreak.cli.main import app
from callbreak.engine import Action, Observation
from callbreak.protocol.bhoos import BHOOS_RULES, import_bhoos_log
from callbreak.protocol.bhoos.referee import play_bhoos_game
from callbreak.protocol.bhoos.server import create_app, serve_in_thread
from callbreak.record import read_records, replay
from callbreak.record.bhoos import BhoosLogError

runner = CliRunner()


@pytest.fixture(scope="module")
def heuristic_url() -> Iterator[str]:
    with serve_in_thread(create_app("heuristic")) as url:
        yield url


@pytest.fixture(scope="module")
def random_url() -> Iterator[str]:
    with serve_in_thread(create_app("random")) as url:
        yield url


def _greeting_app() -> FastAPI:
    """A tournament bot's app that answers ``/hi`` (the referee's first question) only."""
    app_ = FastAPI()

    @app_.get("/hi")
    async def hi() -> dict[str, str]:
        return {"value": "hello"}

    return app_


def _faulty_app() -> FastAPI:
    """A tournament bot with every fault: bad calls, late, non-cards, errors, illegal cards."""
    faulty = _greeting_app()

    @faulty.post("/bid")
    async def bid() -> dict[str, Any]:
        return {"value": 11}  # calls go from 1 to 8

    @faulty.post("/play", response_model=None)
    async def play(request: Request) -> Any:
        body = await request.json()
        cards = body["cards"]
        if len(cards) == 13:
            await asyncio.sleep(0.5)  # far past the timeout
        if len(cards) == 12:
            return {"value": "joker"}
        if len(cards) == 11:
            return {"nothing": True}
        return {"value": cards[-1]}  # the lowest club: often against the rules

    return faulty


# ------------------------------------------------------------------ the referee
def test_referee_plays_whole_games_with_every_seat_served(heuristic_url: str) -> None:
    ids = ["P3", "P0", "P2", "P1"]
    game = play_bhoos_game([heuristic_url] * 4, player_ids=ids, seed=21)
    assert game.timeouts == [0] * 4 and game.illegal == [0] * 4
    log = game.log
    assert log["players"] == ids and len(log["rounds"]) == 5
    for number, round_ in enumerate(log["rounds"]):
        assert len(round_["actions"]) == 13 and round_["errors"] == {}
        assert all(1 <= b <= 8 for b in round_["bids"])
        assert round_["dealer"] == (log["rounds"][0]["dealer"] + number) % 4
        assert any(card.startswith("1") for hand in round_["cards"] for card in hand)
    assert game.record is not None
    report = replay(game.record)
    assert report.complete
    assert [float(t) for t in report.totals] == log["rounds"][-1]["scores"]


def test_referee_mixes_remote_and_local_seats(heuristic_url: str, random_url: str) -> None:
    game = play_bhoos_game(
        [heuristic_url, "heuristic", random_url, "random"],
        player_ids=["north star", "east", "ज", "0"],
        seed=4,
    )
    assert game.timeouts == [0] * 4 and game.illegal == [0] * 4
    assert all(len(times) == 5 * 14 for times in game.response_ms)
    result = import_bhoos_log(game.log)
    assert result.ok and result.scores_match and result.recorded_rounds == 5


def test_referee_counts_faults_the_tournaments_way() -> None:
    with serve_in_thread(_faulty_app()) as faulty:
        spec = faulty + "#budget_ms=100,grace_ms=100"
        game = play_bhoos_game([spec, "heuristic", "heuristic", "heuristic"], seed=2, rounds=1)
    assert game.timeouts[0] == 1 and game.timeouts[1:] == [0, 0, 0]
    assert game.illegal[0] >= 3 and game.illegal[1:] == [0, 0, 0]
    errors = game.log["rounds"][0]["errors"]["P0"]
    assert any(e.startswith("timeout") for e in errors)
    assert any("11" in e for e in errors)  # the call of 11
    result = import_bhoos_log(game.log)  # replaced answers leave a legal game
    assert result.ok and result.logged_errors == len(errors)


# ------------------------------------------------------------------ the arena
def test_arena_seats_remote_bots(heuristic_url: str) -> None:
    seats = lineup([heuristic_url, "heuristic", heuristic_url, "random"], 4)
    config = ArenaConfig(BHOOS_RULES, seats, deals=2, seed=5)
    run = run_arena(config, workers=1)
    summary = summarize(run)
    assert run.illegal == [0, 0, 0, 0] and run.timeouts == [0, 0, 0, 0]
    remote = next(b for b in summary.bots if b.spec == heuristic_url)
    assert remote.games == 2 * 4 * 2 and remote.decisions >= remote.games * 14
    assert summary.json()["bots"][0]["timeouts"] == 0


def test_a_remote_seat_plays_like_the_local_bot(heuristic_url: str) -> None:
    """The same bot, local or behind HTTP, makes the same calls and cards on the same deals."""
    local = run_arena(ArenaConfig(BHOOS_RULES, ("heuristic",) * 4, deals=1, seed=8), workers=1)
    served = run_arena(
        ArenaConfig(BHOOS_RULES, (heuristic_url,) + ("heuristic",) * 3, deals=1, seed=8),
        workers=1,
    )
    for one, two in zip(local.sets[0].games, served.sets[0].games, strict=True):
        calls_local = [p.call for p in one.plays]
        calls_served = [p.call for p in two.plays]
        assert calls_local == calls_served


def test_arena_counts_timeouts_and_illegal_answers_of_remote_seats() -> None:
    with serve_in_thread(_faulty_app()) as faulty:
        spec = faulty + "#budget_ms=100,grace_ms=100"
        config = ArenaConfig(BHOOS_RULES, (spec, "random", "random", "random"), 1, seed=3)
        run = run_arena(config, workers=1)
    games = 4
    assert run.timeouts == [games, 0, 0, 0]
    assert run.illegal[0] >= 3 * games and run.illegal[1:] == [0, 0, 0]
    # Each example says its kind: a late answer is no illegal one, nor is one without a value.
    kinds = {e.partition(": ")[0] for e in run.illegal_examples}
    assert kinds == {"timeout", "unusable answer", "illegal"}, run.illegal_examples
    assert all("gave no answer" in e for e in run.illegal_examples if e.startswith("timeout: "))
    assert any('without a "value"' in e for e in run.illegal_examples if "unusable" in e)
    assert all(len(result.games) == 4 for result in run.sets)  # every game was finished
    bot = summarize(run).bots[0]
    assert bot.timeouts == games and bot.illegal == run.illegal[0]


def test_arena_counts_the_servers_stand_in_answers(heuristic_url: str) -> None:
    """With too little of the round's time to ask its bot, ``serve-bot`` answers with the
    heuristic and says so (``X-Fallback``); the arena counts each such answer."""
    starved = heuristic_url + "#budget_ms=20,grace_ms=1000"
    run = run_arena(ArenaConfig(BHOOS_RULES, (starved, *["heuristic"] * 3), 1, seed=3), 1)
    assert run.timeouts == [0] * 4 and run.illegal == [0] * 4
    assert run.fallbacks[0] == len(run.times_ms[0]) == 4 * 14 and run.fallbacks[1:] == [0, 0, 0]
    served = run_arena(ArenaConfig(BHOOS_RULES, (heuristic_url, *["heuristic"] * 3), 1, 3), 1)
    assert served.fallbacks == [0] * 4


def test_a_bot_that_is_down_is_reported_clearly() -> None:
    with serve_in_thread(create_app("random")) as url:
        pass  # the server has stopped: nothing listens there now
    with pytest.raises(RemoteSeatDown, match="no bot answers at"):
        lineup([url + "#wait_s=0.2", "random", "random", "random"], 4)
    bot = RemoteBot(url)
    match = Match(BHOOS_RULES, seed=1)
    assert match.to_act is not None
    observation = match.observation(match.to_act)
    with pytest.raises(RemoteSeatDown, match="stopped answering"):
        bot.act(observation)
    with pytest.raises(RemoteSeatDown):  # mid-run it stops the run, not counted as illegal
        play_module._answer(bot, observation)
    result = runner.invoke(
        app, ["arena", "--seat", url + "#wait_s=0.2", "--rules", "callbreak-bhoos", "--deals", "1"]
    )
    flat = " ".join(result.output.replace("│", " ").split())
    assert result.exit_code != 0 and "no bot answers" in flat


def test_remote_seat_specs_are_checked() -> None:
    assert parse_remote("https://bots.example:7000/#budget_ms=900,wait_s=1") == (
        "https://bots.example:7000",
        {"budget_ms": 900, "wait_s": 1},
    )
    for bad in ("http://", "http://x:1#colour=red", "http://x:1#budget_ms=-5"):
        with pytest.raises(ValueError):
            parse_remote(bad)
    with pytest.raises(ArenaError):
        lineup(["http://x:1#colour=red"], 4)


def test_arena_cli_shows_remote_seats_with_timeouts(heuristic_url: str) -> None:
    result = runner.invoke(
        app,
        [
            *("arena", "--seat", heuristic_url, "--seat", "random", "--seat", "random"),
            *("--seat", "random", "--rules", "callbreak-bhoos", "--deals", "1", "--workers", "1"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "Timeouts" in result.output and heuristic_url in result.output


# ------------------------------------------------------------------ the importer
class _OneCaller:
    """Calls 1 every time (so the calls add up to less than 8), then plays the heuristic."""

    name = "one-caller"

    def __init__(self, seed: int | None = None) -> None:
        self._inner = HeuristicBot(seed=seed)

    def act(self, observation: Observation) -> Action:
        return 1 if observation.phase == "call" else self._inner.act(observation)


@pytest.fixture(scope="module")
def local_log() -> dict[str, Any]:
    return play_bhoos_game(["heuristic", "random", "heuristic", "random"], seed=9).log


def test_import_a_clean_log(local_log: dict[str, Any], tmp_path: Path) -> None:
    result = import_bhoos_log(local_log)
    assert result.ok and result.problems == []
    low = any(sum(r["bids"]) < 8 for r in local_log["rounds"])
    assert len(result.adjustments) == low and result.rules.min_total_calls == (None if low else 8)
    assert result.plays_checked == 5 * (4 + 52)
    assert result.scores_match is True
    assert result.final_totals == result.logged_totals
    assert result.record is not None and replay(result.record).complete
    path = tmp_path / "log.json"
    path.write_text(json.dumps(local_log))
    out = tmp_path / "record.json"
    done = runner.invoke(app, ["import-bhoos", str(path), "-o", str(out)])
    assert done.exit_code == 0, done.output
    assert "logged scores match the rules' scores" in done.output
    assert "replays OK" in done.output
    assert runner.invoke(app, ["replay", str(out)]).exit_code == 0
    assert read_records(out)[0]["seats"][0]["name"] == "P0"


def test_import_into_a_folder_that_is_not_there_says_so(
    local_log: dict[str, Any], tmp_path: Path
) -> None:
    """It ended in a FileNotFoundError traceback after every check had passed."""
    path = tmp_path / "log.json"
    path.write_text(json.dumps(local_log))
    out = tmp_path / "no-such-folder" / "record.json"
    done = runner.invoke(app, ["import-bhoos", str(path), "-o", str(out)])
    assert done.exit_code == 2, done.output
    assert "cannot write the record" in done.output and "Traceback" not in done.output


def test_import_reports_a_play_against_the_rules(local_log: dict[str, Any]) -> None:
    log = copy.deepcopy(local_log)
    round_ = log["rounds"][1]
    # Find a player who followed suit, and swap that card with one of another suit it
    # played later: it then held the led suit when it played off it.
    for t, action in enumerate(round_["actions"]):
        led = action["cards"][0][1]
        for position in range(1, 4):
            card = action["cards"][position]
            seat = (action["started"] + position) % 4
            if card[1] != led:
                continue
            for later in round_["actions"][t + 1 :]:
                spot = (seat - later["started"]) % 4
                other = later["cards"][spot]
                if other[1] != led and spot != 0:
                    continue
                if other[1] != led:
                    action["cards"][position], later["cards"][spot] = other, card
                    result = import_bhoos_log(log)
                    assert not result.ok and result.problems
                    first = result.problems[0]
                    assert first.round == 2 and first.trick == t + 1
                    assert first.player == log["players"][seat]
                    assert "follow suit" in first.message
                    assert result.recorded_rounds == 1
                    assert result.record is not None and not replay(result.record).complete
                    return
    pytest.fail("no card to swap in this log")


def test_import_reports_scores_that_differ(local_log: dict[str, Any], tmp_path: Path) -> None:
    log = copy.deepcopy(local_log)
    for round_ in log["rounds"][2:]:
        round_["scores"][1] += 1.0
    result = import_bhoos_log(log)
    assert result.scores_match is False and not result.ok
    assert [str(p) for p in result.problems] == [
        f"round 3: the round's logged points (its change in scores) differ: {log['players'][1]} "
        f"{result.scores[2].logged[1] if result.scores[2].logged else ''} "
        f"(rules: {result.scores[2].computed[1] if result.scores[2].computed else ''})"
    ]
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log))
    done = runner.invoke(app, ["import-bhoos", str(path), "-o", str(tmp_path / "r.json")])
    assert done.exit_code == 1 and "DIFFER" in done.output


def test_import_tolerates_float_noise_in_scores(local_log: dict[str, Any]) -> None:
    log = copy.deepcopy(local_log)
    for round_ in log["rounds"]:
        round_["scores"] = [s + 1e-9 for s in round_["scores"]]
    assert import_bhoos_log(log).ok


def test_import_drops_min_total_calls_when_the_calls_are_low(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(base._REGISTRY, "one-caller", (_OneCaller, "calls 1"))
    log = play_bhoos_game(["one-caller"] * 4, seed=1).log
    result = import_bhoos_log(log)
    assert result.ok and result.rules.min_total_calls is None
    assert "min_total_calls=None" in result.adjustments[0]


def test_import_stops_the_record_at_a_dealer_out_of_turn(local_log: dict[str, Any]) -> None:
    log = copy.deepcopy(local_log)
    log["rounds"][2]["dealer"] = (log["rounds"][2]["dealer"] + 2) % 4
    result = import_bhoos_log(log)
    assert not result.ok and result.recorded_rounds == 2
    assert any("passes to the next player" in p.message for p in result.problems)
    assert result.record is not None and len(replay(result.record).match.scored_deals) == 2


@pytest.mark.parametrize(
    "broken",
    [
        [],
        {"players": ["a", "b", "c"], "rounds": []},
        {"players": ["a", "b", "c", "d"], "rounds": []},
        {"players": ["a", "b", "c", "d"], "rounds": [{"dealer": 0}]},
        {
            "players": ["a", "b", "c", "d"],
            "rounds": [{"dealer": 0, "cards": [["ZZ"]] * 4, "bids": [1] * 4, "actions": []}],
        },
    ],
)
def test_import_refuses_what_is_not_a_log(broken: Any, tmp_path: Path) -> None:
    with pytest.raises(BhoosLogError):
        import_bhoos_log(broken)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(broken))
    assert runner.invoke(app, ["import-bhoos", str(path)]).exit_code == 2


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda log: log["rounds"][0].__setitem__("scores", [float("inf")] * 4), "must be a score"),
        (lambda log: log["rounds"][0].__setitem__("scores", [1e308] * 4), "must be a score"),
        (lambda log: log.__setitem__("players", [None, 5, "c", "d"]), "4 different names"),
        (lambda log: log.__setitem__("players", ["a", "a", "c", "d"]), "4 different names"),
    ],
)
def test_import_refuses_scores_and_names_no_game_has(
    local_log: dict[str, Any], change: Callable[[dict[str, Any]], None], message: str
) -> None:
    log = copy.deepcopy(local_log)
    change(log)
    with pytest.raises(BhoosLogError, match=message):
        import_bhoos_log(log)


def test_import_refuses_text_that_is_not_text_and_counts_nested_errors(
    local_log: dict[str, Any], tmp_path: Path
) -> None:
    log = copy.deepcopy(local_log)
    log["players"][1] = "\ud800"  # valid JSON, not text: could not even be printed
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(log))  # json.dumps escapes it as \\ud800
    done = runner.invoke(app, ["import-bhoos", str(path)])
    assert done.exit_code == 2 and "half of a character" in done.output
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    done = runner.invoke(app, ["import-bhoos", str(deep)])
    assert done.exit_code == 2 and "nested too deeply" in done.output
    log = copy.deepcopy(local_log)
    log["rounds"][0]["errors"] = None
    before = import_bhoos_log(log).logged_errors
    nested: dict[str, Any] = {"e": ["x", "y"]}
    for _ in range(900):  # deeper than a recursive count could go
        nested = {"n": nested, "z": 1}
    log["rounds"][0]["errors"] = nested
    assert import_bhoos_log(log).logged_errors == before + 2 + 900


def test_a_call_that_is_a_digit_but_no_number_is_an_illegal_answer() -> None:
    odd = _greeting_app()

    @odd.post("/bid")
    async def bid() -> dict[str, Any]:
        return {"value": "²"}  # str.isdigit says yes, int() says no

    @odd.post("/play")
    async def play(request: Request) -> dict[str, Any]:
        return {"value": (await request.json())["cards"][0]}

    with serve_in_thread(odd) as url:
        config = ArenaConfig(BHOOS_RULES, (url, "random", "random", "random"), 1, seed=3)
        run = run_arena(config, workers=1)
    assert run.illegal[0] >= 4  # every call, then whatever cards broke the rules
    assert any("not a call" in e for e in run.illegal_examples)
    assert all(len(result.games) == 4 for result in run.sets)
