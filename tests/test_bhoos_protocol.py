"""The Bhoos tournament protocol, server side: requests → observations, and the bot over HTTP.

Every HTTP test talks to a real uvicorn server on 127.0.0.1 (a free port, in a
background thread) through httpx, as a tournament arena would.
"""

from __future__ import annotations

import asyncio
import copy
import json
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest

from callbreak import Match
from callbreak.arena.remote import bhoos_request
from callbreak.bots import base, make_bot
from callbreak.bots.heuristic import HeuristicBot
from callbreak.cards import bhoos_name, parse_card
from callbreak.engine import Action, Observation
from callbreak.protocol.bhoos import BHOOS_RULES, BhoosRequestError, parse_request
from callbreak.protocol.bhoos.server import BotService, _all_warm, create_app, serve_in_thread

IDS = ["P3", "P0", "P2", "P1"]
"""The ids of the tournament's example: arbitrary strings in turn order."""

ISSUE_BID: dict[str, Any] = {
    "playerId": "P3",
    "playerIds": IDS,
    "cards": ["1S", "TS", "8S", "5S", "2S", "KH", "9H", "3H", "QD", "6D", "4D", "JC", "2C"],
    "timeBudget": 1500,
    "context": {
        "round": 1,
        "players": {pid: {"totalPoints": 0, "bid": 0, "won": 0} for pid in IDS},
    },
}


def _requests(games: int, seed: int = 0) -> Iterator[tuple[str, dict[str, Any], Observation]]:
    """(kind, body, observation) for every decision of ``games`` heuristic matches."""
    for game in range(games):
        match = Match(BHOOS_RULES, seed=seed + game)
        bots = [make_bot("heuristic", seed=s) for s in range(4)]
        ids = random.Random(game).sample(["P3", "a b", "ज", "0"], 4)
        while not match.over:
            seat = match.to_act
            assert seat is not None
            observation = match.observation(seat)
            kind = "bid" if observation.phase == "call" else "play"
            yield kind, bhoos_request(observation, ids, 1500), observation
            match.act(bots[seat].act(observation))


def _mid_game_play() -> dict[str, Any]:
    """A /play body from the middle of a deal, with a trick in progress."""
    for kind, body, _ in _requests(1, seed=11):
        if kind == "play" and len(body["history"]) == 5 and len(body["played"]) == 2:
            return body
    raise AssertionError("no such state")


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with serve_in_thread(create_app("heuristic")) as address:
        yield address


# ------------------------------------------------------------------ conversion
def test_request_round_trip_gives_the_engines_observation() -> None:
    """Whatever the engine shows a seat, the server rebuilds from the JSON, field by field."""
    fields = [
        *("seat", "dealer", "phase", "to_act", "hand", "hand_mask", "legal", "calls"),
        *("tricks_won", "history", "trick", "played_mask", "totals", "deal_number"),
    ]
    count = 0
    for kind, body, observation in _requests(4):
        rebuilt = parse_request(kind, body).observation
        for name in fields:
            assert getattr(rebuilt, name) == getattr(observation, name), name
        assert rebuilt.rules == BHOOS_RULES
        count += 1
    assert count == 4 * 5 * (4 + 52)


def test_the_issue_example_bid_is_read() -> None:
    request = parse_request("bid", ISSUE_BID)
    observation = request.observation
    assert observation.phase == "call" and observation.seat == 0
    assert observation.dealer == 3 and observation.calls == (None, None, None, None)
    assert "AS" in observation.hand and len(observation.hand) == 13
    assert request.decisions_left == 14 and request.time_budget_ms == 1500


def test_calls_already_made_fix_the_dealer() -> None:
    body = copy.deepcopy(ISSUE_BID)
    body["playerId"] = "P2"  # the third in turn order: P3 and P0 have called
    body["context"]["players"]["P3"]["bid"] = 3
    body["context"]["players"]["P0"]["bid"] = 5
    observation = parse_request("bid", body).observation
    assert observation.seat == 2 and observation.dealer == 3
    assert observation.calls == (3, 5, None, None)


def test_placeholders_never_reach_the_observation() -> None:
    body = _mid_game_play()
    observation = parse_request("play", body).observation
    assert set(observation.hand) == {c if c[0] != "1" else "A" + c[1] for c in body["cards"]}
    assert observation.to_dict()["hand"] == list(observation.hand)


# ------------------------------------------------------------------ HTTP
def test_hi_and_the_issue_example_over_http(url: str) -> None:
    assert httpx.get(url + "/hi").json() == {"value": "hello"}
    response = httpx.post(url + "/bid", json=ISSUE_BID)
    assert response.status_code == 200
    assert response.json()["value"] in range(1, 9)


def test_play_answers_a_legal_card_in_bhoos_spelling(url: str) -> None:
    client = httpx.Client(base_url=url)
    for kind, body, observation in _requests(1, seed=5):
        response = client.post(f"/{kind}", json=body)
        assert response.status_code == 200, response.text
        value = response.json()["value"]
        if kind == "bid":
            assert value in observation.legal
        else:
            assert value in body["cards"]  # the tournament's spelling: 1S, not AS
            assert any(parse_card(value) == parse_card(c) for c in observation.legal)
    client.close()


def test_cors_preflight_is_answered(url: str) -> None:
    response = httpx.options(
        url + "/play",
        headers={"Origin": "http://example.test", "Access-Control-Request-Method": "POST"},
    )
    assert response.status_code == 200
    assert response.headers["access-control-allow-origin"] == "*"
    answer = httpx.post(url + "/bid", json=ISSUE_BID, headers={"Origin": "http://example.test"})
    assert answer.headers["access-control-allow-origin"] == "*"


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], Any]:
    def change(body: dict[str, Any]) -> Any:
        *parents, last = path.split(".")
        target: Any = body
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value
        return body

    return change


def _drop(key: str) -> Callable[[dict[str, Any]], Any]:
    def change(body: dict[str, Any]) -> Any:
        del body[key]
        return body

    return change


def _card_in_hand_and_history(body: dict[str, Any]) -> Any:
    body["cards"][0] = body["history"][0][1][1]
    return body


def _card_in_hand_and_played(body: dict[str, Any]) -> Any:
    body["cards"][0] = body["played"][0]
    return body


def _card_twice_in_history(body: dict[str, Any]) -> Any:
    body["history"][1][1][0] = body["history"][0][1][0]
    return body


def _not_my_turn(body: dict[str, Any]) -> Any:
    body["played"] = body["played"][:1]  # then the seat after the first card is to play
    return body


def _wrong_winner(body: dict[str, Any]) -> Any:
    body["history"][0][2] = (body["history"][0][2] + 1) % 4
    return body


def _wrong_leader(body: dict[str, Any]) -> Any:
    body["history"][1][0] = (body["history"][1][0] + 1) % 4
    return body


def _revoke(body: dict[str, Any]) -> Any:
    """The seat's own earlier card swapped for one of another suit it still holds."""
    me = body["playerIds"].index(body["playerId"])
    for leader, cards, winner in body["history"]:
        mine = cards[(me - leader) % 4]
        led = cards[0][1]
        if mine[1] == led and (me - leader) % 4 and winner != me:
            # A discard that cannot win, so the trick's winner stays as logged.
            other = next((c for c in body["cards"] if c[1] not in (led, "S")), None)
            if other is not None:
                body["cards"][body["cards"].index(other)] = mine
                cards[(me - leader) % 4] = other
                return body
    raise AssertionError("no trick to revoke in")


def _every_bid(call: int) -> Callable[[dict[str, Any]], Any]:
    def change(body: dict[str, Any]) -> Any:
        for entry in body["context"]["players"].values():
            entry["bid"] = call
        return body

    return change


MALFORMED: list[tuple[str, str, Callable[[dict[str, Any]], Any]]] = [
    ("not an object", "bid", lambda b: [b]),
    ("no playerId", "bid", _drop("playerId")),
    ("no playerIds", "bid", _drop("playerIds")),
    ("no cards", "bid", _drop("cards")),
    ("no timeBudget", "bid", _drop("timeBudget")),
    ("no context", "bid", _drop("context")),
    ("no history", "play", _drop("history")),
    ("no played", "play", _drop("played")),
    ("unknown player", "bid", _set("playerId", "P9")),
    ("three players", "bid", _set("playerIds", ["P3", "P0", "P2"])),
    ("a repeated id", "bid", _set("playerIds", ["P3", "P0", "P2", "P2"])),
    ("unknown card", "bid", _set("cards.0", "XS")),
    ("a card as a number", "bid", _set("cards.0", 12)),
    ("a repeated card", "bid", _set("cards.1", "1S")),
    ("twelve cards to bid", "bid", lambda b: {**b, "cards": b["cards"][:12]}),
    ("negative timeBudget", "bid", _set("timeBudget", -1)),
    ("timeBudget as text", "bid", _set("timeBudget", "1500")),
    ("a bid of nine", "play", _set("context.players.P3.bid", 9)),
    ("a bid as text", "bid", _set("context.players.P3.bid", "3")),
    ("a negative bid", "bid", _set("context.players.P3.bid", -1)),
    ("round zero", "bid", _set("context.round", 0)),
    ("an uncalled player in play", "play", _set("context.players.P0.bid", 0)),
    ("a player missing from context", "bid", lambda b: b["context"]["players"].pop("P1") and b),
    ("calls out of turn", "bid", _set("context.players.P2.bid", 4)),
    ("card both in hand and history", "play", _card_in_hand_and_history),
    ("card both in hand and played", "play", _card_in_hand_and_played),
    ("card twice in the history", "play", _card_twice_in_history),
    ("a trick of three cards", "play", lambda b: b["history"][0][1].pop() and b),
    ("a history entry of two fields", "play", lambda b: b["history"][0].pop() and b),
    ("a wrong trick winner", "play", _wrong_winner),
    ("a trick led by the wrong player", "play", _wrong_leader),
    ("a played list that cannot be", "play", _not_my_turn),
    ("four cards in played", "play", lambda b: {**b, "played": [*b["played"], "2H", "3H"]}),
    ("a card against the rules", "play", _revoke),
    ("history as text", "play", _set("history", "none")),
    ("a bid with a history", "bid", _set("history", [[0, ["2S", "3S", "4S", "5S"], 3]])),
    ("a 400-digit timeBudget", "bid", _set("timeBudget", 10**400)),
    ("a totalPoints past any score", "bid", _set("context.players.P1.totalPoints", 1e308)),
    ("a 400-digit totalPoints", "play", _set("context.players.P0.totalPoints", -(10**400))),
    ("the asker has called already", "bid", _every_bid(3)),
]


def _base(kind: str) -> dict[str, Any]:
    if kind == "bid":
        return copy.deepcopy(ISSUE_BID)
    body = _mid_game_play()
    # Rename the ids to those of the table's entries, so the table can name them.
    mapping = dict(zip(body["playerIds"], IDS, strict=True))
    body = copy.deepcopy(body)
    body["playerIds"] = IDS
    body["playerId"] = mapping[body["playerId"]]
    body["context"]["players"] = {
        mapping[pid]: entry for pid, entry in body["context"]["players"].items()
    }
    return body


@pytest.mark.parametrize(("case", "kind", "change"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_requests_are_refused_in_the_converter(
    case: str, kind: str, change: Callable[[dict[str, Any]], Any]
) -> None:
    parse_request(kind, _base(kind))  # the unchanged body is fine
    with pytest.raises(BhoosRequestError) as caught:
        parse_request(kind, change(_base(kind)))
    assert str(caught.value) and "None" not in str(caught.value)  # "from 0 to None" once


def test_malformed_requests_get_400_and_reasons_over_http(url: str) -> None:
    """The whole table over HTTP, then good requests: nothing a bad one sent stays behind."""
    with httpx.Client(base_url=url) as client:
        for case, kind, change in MALFORMED:
            response = client.post(f"/{kind}", json=change(_base(kind)))
            assert response.status_code == 400, (case, response.text)
            assert response.json()["error"], case
        nan_budget = json.dumps(ISSUE_BID).replace('"timeBudget": 1500', '"timeBudget": NaN')
        odd_id = json.dumps({**ISSUE_BID, "playerId": "\ud800"})  # a lone surrogate, escaped
        deep = b"[" * 5000 + b"]" * 5000
        for raw in (b"{", b"", b"\xff\xfe", b"null", nan_budget.encode(), odd_id.encode(), deep):
            response = client.post("/bid", content=raw)
            assert response.status_code == 400 and response.json()["error"], raw[:40]
        assert client.post("/play", content=b"x" * (2 << 20)).status_code == 413
        chunked = (b"x" * (1 << 16) for _ in range(40))  # no length declared: counted as it comes
        assert client.post("/play", content=chunked).status_code == 413
        assert client.get("/nowhere").json() == {"error": "Not Found"}
        assert client.get("/bid").status_code == 405
        assert client.post("/bid", json=ISSUE_BID).status_code == 200
        assert client.post("/play", json=_base("play")).status_code == 200


def test_the_turn_and_history_errors_say_what_is_wrong() -> None:
    with pytest.raises(BhoosRequestError, match="winnerIdx"):
        parse_request("play", _wrong_winner(_base("play")))
    with pytest.raises(BhoosRequestError, match=r"not P.'s turn"):
        parse_request("play", _not_my_turn(_base("play")))
    with pytest.raises(BhoosRequestError, match="already in cards"):
        parse_request("play", _card_in_hand_and_history(_base("play")))
    with pytest.raises(BhoosRequestError, match=r"follow suit|must beat"):
        parse_request("play", _revoke(_base("play")))


def _after_the_round() -> dict[str, Any]:
    """A /play body once all 13 tricks are in the history: the last play's body, with the
    last trick as the engine closed it."""
    match = Match(BHOOS_RULES, seed=11)
    bot = HeuristicBot(seed=1)
    deal = match.deal
    body: dict[str, Any] = {}
    while deal.to_act is not None:
        observation = match.observation(deal.to_act)
        if observation.phase == "play" and not body:
            body = bhoos_request(observation, IDS, 1500)  # the shape of a /play body
        match.act(bot.act(observation))
    body["history"] = [
        [trick.leader, [bhoos_name(parse_card(c)) for c in trick.cards], trick.winner]
        for trick in deal.observation(0).history
    ]
    body["played"], body["cards"] = [], []
    return body


def test_a_play_after_the_round_is_over_is_refused_as_such() -> None:
    """Nobody is to play once the 13 tricks are done: not "it is d's turn, with d leading"."""
    body = _after_the_round()
    winner = body["history"][-1][2]
    for seat, player in enumerate(body["playerIds"]):
        asking = dict(body, playerId=player)
        with pytest.raises(BhoosRequestError, match="the round is over") as caught:
            parse_request("play", asking)
        assert "turn" not in str(caught.value), (seat == winner, caught.value)


def test_a_history_no_deal_fits_is_refused() -> None:
    """All three others show out of hearts at trick 1, yet twelve hearts are still unseen."""
    ids = ["A", "B", "C", "D"]
    body = {
        "playerId": "A",
        "playerIds": ids,
        "cards": ["1S", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S"],
        "played": [],
        "history": [[0, ["2H", "2D", "3D", "4D"], 0]],
        "timeBudget": 1000,
        "context": {"round": 2, "players": {i: {"bid": 2, "totalPoints": 1.1} for i in ids}},
    }
    with pytest.raises(BhoosRequestError, match="no deal fits"):
        parse_request("play", body)
    # B follows and wins; C, void in hearts and holding no spade, may discard anything.
    body["history"] = [[0, ["2H", "3H", "3D", "4D"], 1]]
    body["playerId"] = "C"
    body["cards"] = [r + "C" for r in "1KQJT9876543"]
    body["played"] = ["5H"]
    observation = parse_request("play", body).observation
    assert observation.trick.cards == ("5H",) and observation.legal == observation.hand
    assert observation.totals is not None and str(observation.totals[0]) == "1.1"


# ------------------------------------------------------------------ concurrency
def test_four_seats_asking_at_once(url: str) -> None:
    """Four seats of four different games post together; every answer is its own and legal."""
    chosen: list[tuple[str, dict[str, Any], Observation]] = []
    for game in range(4):
        states = [s for s in _requests(1, seed=100 + game) if s[0] == "play"]
        chosen.append(states[7 + 9 * game])
    barrier = threading.Barrier(4)
    answers: list[Any] = [None] * 4

    def ask(index: int) -> None:
        kind, body, _ = chosen[index]
        with httpx.Client(base_url=url) as client:
            barrier.wait()
            answers[index] = client.post(f"/{kind}", json=body)

    threads = [threading.Thread(target=ask, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    for (_, body, observation), response in zip(chosen, answers, strict=True):
        assert response.status_code == 200
        value = response.json()["value"]
        assert value in body["cards"]
        assert any(parse_card(value) == parse_card(c) for c in observation.legal)


class _SlowBot:
    """Thinks for its whole budget (or 0.4 s without one): a stand-in for the expert."""

    name = "slow-test"
    budgets: ClassVar[list[int]] = []

    def __init__(self, seed: int | None = None, budget_ms: int = 400) -> None:
        self.budget_ms = budget_ms
        _SlowBot.budgets.append(budget_ms)
        self._inner = HeuristicBot(seed=seed)

    def act(self, observation: Observation) -> Action:
        time.sleep(self.budget_ms / 1000)
        return self._inner.act(observation)


class _StubbornBot:
    """Ignores any budget: thinks for two seconds."""

    name = "stubborn-test"

    def __init__(self, seed: int | None = None) -> None:
        self._inner = HeuristicBot(seed=seed)

    def act(self, observation: Observation) -> Action:
        time.sleep(2.0)
        return self._inner.act(observation)


class _CrashingBot:
    name = "crash-test"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def act(self, observation: Observation) -> Action:
        raise RuntimeError("deliberate")


@pytest.fixture
def test_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    _SlowBot.budgets = []
    monkeypatch.setitem(base._REGISTRY, "slow-test", (_SlowBot, "sleeps its budget"))
    monkeypatch.setitem(base._REGISTRY, "stubborn-test", (_StubbornBot, "ignores budgets"))
    monkeypatch.setitem(base._REGISTRY, "crash-test", (_CrashingBot, "raises"))


@pytest.mark.usefixtures("test_bots")
def test_hi_is_answered_while_a_bot_thinks() -> None:
    with serve_in_thread(create_app("slow-test:budget_ms=400", processes=0)) as address:
        body = dict(ISSUE_BID, timeBudget=100_000)
        worker = threading.Thread(
            target=httpx.post, args=(address + "/bid",), kwargs={"json": body}
        )
        worker.start()
        time.sleep(0.05)
        started = time.perf_counter()
        assert httpx.get(address + "/hi").json() == {"value": "hello"}
        assert time.perf_counter() - started < 0.3
        worker.join(10)


@pytest.mark.usefixtures("test_bots")
def test_a_budgeted_bot_gets_a_safe_share_of_time_budget() -> None:
    with serve_in_thread(create_app("slow-test", processes=0)) as address:
        response = httpx.post(address + "/bid", json=dict(ISSUE_BID, timeBudget=1400))
        # 1400 ms left for 14 decisions: half of an even share, less 3 ms of overhead, less
        # the moment the request waited for a worker thread.
        budget = int(response.headers["x-budget-ms"])
        assert 35 <= budget <= 47 and _SlowBot.budgets[-1] == budget
        assert float(response.headers["x-decision-ms"]) < 1400
        body = _base("play")
        left = len(body["cards"])
        body["timeBudget"] = 100_000  # plenty: the default cap (1000 ms) applies
        response = httpx.post(address + "/play", json=body)
        assert response.status_code == 200 and 980 <= _SlowBot.budgets[-1] <= 1000
        assert BotService("slow-test").budget_ms(600, left) == int(600 * 0.5 / left - 3)


@pytest.mark.usefixtures("test_bots")
def test_a_bot_that_overruns_is_answered_for_in_time() -> None:
    with (
        serve_in_thread(create_app("stubborn-test", processes=0, warm_up=False)) as address,
        httpx.Client() as client,
    ):
        client.get(address + "/hi")
        started = time.perf_counter()
        response = client.post(address + "/bid", json=dict(ISSUE_BID, timeBudget=1000))
        elapsed = time.perf_counter() - started
        assert response.status_code == 200 and response.json()["value"] in range(1, 9)
        assert "overran" in response.headers["x-fallback"]
        assert elapsed < 1.0  # inside timeBudget, though the bot thinks for 2 s


@pytest.mark.usefixtures("test_bots")
def test_a_crashing_bot_gets_500_and_the_server_goes_on() -> None:
    with serve_in_thread(create_app("crash-test", processes=0, warm_up=False)) as address:
        response = httpx.post(address + "/bid", json=ISSUE_BID)
        assert response.status_code == 500 and "deliberate" in response.json()["error"]
        assert httpx.get(address + "/hi").json() == {"value": "hello"}


def test_the_same_request_gets_the_same_answer() -> None:
    with serve_in_thread(create_app("random")) as address:
        body = _base("play")
        answers = {httpx.post(address + "/play", json=body).json()["value"] for _ in range(4)}
        assert len(answers) == 1


def test_an_unknown_bot_is_refused_at_start() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        create_app("no-such-bot")


def test_decisions_on_worker_processes() -> None:
    """The process pool (the default for bots that think for a budget) answers the same."""
    body = _base("play")
    with serve_in_thread(create_app("heuristic", threads=1)) as address:
        expected = httpx.post(address + "/play", json=body).json()
    with serve_in_thread(create_app("heuristic", processes=1)) as address:
        assert httpx.post(address + "/play", json=body).json() == expected
        assert httpx.post(address + "/bid", json=ISSUE_BID).status_code == 200
        assert httpx.post(address + "/bid", json={"oops": 1}).status_code == 400


def _slow_warm_up(folder: str) -> None:
    """A worker's warm-up: quick for the first worker, slow for the others (as a spawned
    process's imports are, while the first is already warm); each leaves its pid behind."""
    try:
        os.close(os.open(os.path.join(folder, "first"), os.O_CREAT | os.O_EXCL))
    except FileExistsError:
        time.sleep(1.0)
    Path(folder, str(os.getpid())).touch()


def test_start_up_waits_for_every_worker_to_warm_up(tmp_path: Path) -> None:
    """Warm-up tasks go to any idle worker, so the warm one could take them all; start-up
    returns only once every worker has answered one, that is, has finished its warm-up."""
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(
        3, mp_context=context, initializer=_slow_warm_up, initargs=(str(tmp_path),)
    ) as executor:

        async def start() -> None:
            await _all_warm(asyncio.get_running_loop(), executor, 3)

        asyncio.run(start())
        warmed = [p for p in tmp_path.iterdir() if p.name != "first"]
        assert len(warmed) == 3
