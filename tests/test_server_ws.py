"""The table WebSocket: turns, sequence numbers, tokens, spectators, drops, and bad input.

Each bad message must be answered with an error to its sender only (and a
closed socket where it is abusive) while the table and the other clients go on
as if nothing happened.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_asyncio

from callbreak.cards import CARD_NAMES
from server_support import (
    Client,
    ThreadServer,
    config,
    connect,
    create_table,
    db_url,
    join_table,
    load_log,
    play_turns,
    seeded_table,
)

pytestmark = pytest.mark.asyncio


@pytest.fixture(params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(config(db_url(request.param, tmp_path), grace_s=0.6)) as running:
        yield running


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[ThreadServer]:
    cfg = config(
        db_url("sqlite", tmp_path), rate_per_s=20, rate_burst=30, max_strikes=12, grace_s=0.3
    )
    with ThreadServer(cfg) as running:
        yield running


class Table:
    """A started table with two people: the host (seat 0) and a guest (seat 1); bots in 2, 3."""

    def __init__(self, server: ThreadServer, host: Client, guest: Client, code: str) -> None:
        self.server = server
        self.host = host
        self.guest = guest
        self.code = code
        self.tokens: dict[int, str] = {}

    def actions(self) -> list[Any]:
        return load_log(self.server.config.db, self.code)[2]


@pytest_asyncio.fixture
async def table(server: ThreadServer) -> AsyncIterator[Table]:
    async for started in _table(server):
        yield started


@pytest_asyncio.fixture
async def sqlite_table(sqlite_server: ThreadServer) -> AsyncIterator[Table]:
    async for started in _table(sqlite_server):
        yield started


async def _table(server: ThreadServer) -> AsyncIterator[Table]:
    # seed 3: the first deal starts with calls and nobody holds a misdeal hand
    created = seeded_table(server, 3)
    code = created["code"]
    joined = join_table(server.http, code, "Guest")
    async with (
        connect(server.ws, code, created["token"]) as host,
        connect(server.ws, code, joined["token"]) as guest,
    ):
        await host.send({"type": "start"})
        for client in (host, guest):
            await client.state_where(lambda s: s["table"]["status"] == "playing")
        started = Table(server, host, guest, code)
        started.tokens = {0: created["token"], 1: joined["token"]}
        yield started


async def test_each_seat_gets_its_own_hand_and_actions_in_order(table: Table) -> None:
    host, guest = table.host, table.guest
    assert host.obs["seat"] == 0 and guest.obs["seat"] == 1
    assert len(host.obs["hand"]) == 13 and not set(host.obs["hand"]) & set(guest.obs["hand"])
    await play_turns([host, guest], lambda: host.seq >= 12 and guest.seq >= 12)
    host_seqs = [m["seq"] for m in host.messages if m["type"] == "state"]
    assert host_seqs == sorted(host_seqs)
    lasts = {m["last"]["seq"]: m["last"] for m in host.messages if m.get("last")}
    assert sorted(lasts) == list(range(max(lasts) + 1))  # every action seen, once, in order
    log = table.actions()
    for seq, last in lasts.items():
        assert (log[seq].seat, log[seq].action) == (last["seat"], last["action"])


async def test_out_of_turn_illegal_and_stale_actions_are_refused(table: Table) -> None:
    host, guest = table.host, table.guest
    await play_turns([host], lambda: guest.my_turn())
    seq = guest.seq
    await host.send({"type": "act", "seq": seq, "action": 3})
    error = await host.error()
    assert error["code"] == "not_your_turn"
    await guest.send({"type": "act", "seq": seq, "action": 99})
    error = await guest.error()
    assert error["code"] == "illegal" and "max_call" in error["message"]
    await guest.send({"type": "act", "seq": seq - 1, "action": 3})
    assert (await guest.error())["code"] == "stale"
    await guest.send({"type": "act", "seq": seq, "action": 3})
    await guest.send({"type": "act", "seq": seq, "action": 3})  # a repeated message
    assert (await guest.error())["code"] == "stale"
    log = table.actions()
    assert [a.seq for a in log] == list(range(len(log)))
    assert sum(1 for a in log if a.seat == 1) == 1  # applied once
    # a card the rules forbid: the engine's explanation comes back, nothing moves
    await play_turns(
        [host, guest],
        lambda: (
            guest.my_turn()
            and guest.obs["phase"] == "play"
            and bool(set(guest.obs["hand"]) - set(guest.obs["legal"]))
        ),
    )
    refused = sorted(set(guest.obs["hand"]) - set(guest.obs["legal"]))
    before = guest.seq
    await guest.act(refused[0])
    error = await guest.error()
    assert error["code"] == "illegal" and error["rule"] and refused[0] in error["message"]
    assert guest.seq == before and len(table.actions()) == before
    await guest.act("ZZ")
    assert (await guest.error())["code"] == "illegal"


async def test_spectators_see_no_hand_and_cannot_act(table: Table) -> None:
    async with connect(table.server.ws, table.code) as watcher:
        assert watcher.state is not None and watcher.state["you"]["role"] == "spectator"
        assert watcher.obs["hand"] == [] and watcher.obs["legal"] == []
        await watcher.send({"type": "act", "seq": watcher.seq, "action": 3})
        assert (await watcher.error())["code"] == "not_seated"
        await play_turns([table.host, table.guest], lambda: table.host.seq >= 8)
        await watcher.state_where(lambda s: s["seq"] >= 8)
        for message in watcher.messages:
            if message["type"] == "state":
                assert message["obs"]["hand"] == [] and message["obs"]["legal"] == []
                assert message["you"]["seat"] is None
        info = httpx.get(f"{table.server.http}/api/tables/{table.code}").json()
        assert info["spectators"] == 1


async def test_bad_and_stale_tokens_are_refused(table: Table, server: ThreadServer) -> None:
    async with connect(server.ws, table.code, hello=False) as stranger:
        await stranger.send({"type": "hello", "token": "not-a-seat-token"})
        assert (await stranger.error())["code"] == "bad_token"
        assert await stranger.close_code() == 4401
    async with connect(server.ws, table.code, hello=False) as odd:
        await odd.send('{"type": "hello", "token": "\\ud800"}')  # JSON, but not UTF-8
        assert (await odd.error())["code"] == "bad_token"
        assert await odd.close_code() == 4401
    async with connect(server.ws, table.code.lower(), table.tokens[1]) as typed:
        assert typed.obs["seat"] == 1  # the code as typed in lower case
    other = create_table(server.http)  # a real token, but of another table
    async with connect(server.ws, table.code, hello=False) as wrong:
        await wrong.send({"type": "hello", "token": other["token"]})
        assert (await wrong.error())["code"] == "bad_token"
    async with connect(server.ws, "NOPE22", hello=False) as lost:
        assert (await lost.error())["code"] == "no_table"
        assert await lost.close_code() == 4404
    async with connect(server.ws, table.code, hello=False) as rude:
        await rude.send({"type": "act", "seq": 0, "action": 1})
        assert (await rude.error())["code"] == "hello_first"


async def test_a_dropped_player_keeps_the_seat_then_a_bot_plays_on(table: Table) -> None:
    """Grace 0.6 s here: the guest drops, the bot plays its turns, the guest takes it back."""
    host = table.host
    await table.guest.ws.close()
    await host.state_where(lambda s: not s["table"]["seats"][1]["connected"])
    dropped = await host.state_where(lambda s: s["table"]["seats"][1]["bot_playing"], timeout=5)
    assert dropped["table"]["seats"][1]["kind"] == "human"

    def guest_acted() -> bool:
        return any(a.seat == 1 and a.actor == "bot" for a in table.actions())

    await play_turns([host], guest_acted, timeout=20)
    async with connect(table.server.ws, table.code, table.tokens[1]) as back:
        assert back.state is not None
        assert back.state["you"]["seat"] == 1
        seats = back.state["table"]["seats"]
        assert seats[1]["connected"] and not seats[1]["bot_playing"]
        await play_turns(
            [host, back],
            lambda: (
                back.seq > 0
                and any(a.seat == 1 and a.actor == "human" and a.seq > 0 for a in table.actions())
            ),
        )


async def test_reconnecting_puts_the_client_exactly_where_the_game_is(table: Table) -> None:
    host, guest = table.host, table.guest
    await play_turns([host, guest], lambda: host.seq >= 10)
    await play_turns([host], lambda: guest.my_turn())
    before = guest.state
    assert before is not None
    await guest.ws.close()
    async with connect(table.server.ws, table.code, table.tokens[1]) as again:
        assert again.state is not None
        assert again.state["seq"] == before["seq"]
        assert again.state["obs"] == before["obs"]
        assert again.state["deals"] == before["deals"]
        await again.act()
        await again.state_where(lambda s: s["seq"] == before["seq"] + 1)


async def test_malformed_and_unknown_messages_get_errors(sqlite_table: Table) -> None:
    host, guest = sqlite_table.host, sqlite_table.guest
    for bad, code in [
        ("{not json", "bad_json"),
        ("[1, 2]", "bad_json"),
        ('"hello"', "bad_json"),
        ('{"type": "teleport"}', "unknown_type"),
        ('{"type": 7}', "bad_message"),
        ('{"type": "act", "seq": "x", "action": 3}', "bad_message"),
        ('{"type": "act", "seq": 0, "action": {"card": "AS"}}', "bad_message"),
        ('{"type": "act", "seq": 0, "action": "AAAAAAAAAAAAAAAAAAAAA"}', "bad_message"),
        ('{"type": "hello"}', "bad_message"),
    ]:
        await guest.send(bad)
        error = await guest.error()
        assert error["code"] == code, bad
    await guest.ws.send(b"\x00\x01binary")
    assert (await guest.error())["code"] == "bad_json"
    await guest.send({"type": "ping"})
    assert (await guest.until(lambda m: m["type"] == "pong"))["type"] == "pong"
    # the table went on: both can still play
    await play_turns([host, guest], lambda: host.seq >= 6)


async def test_oversized_message_closes_the_socket(sqlite_table: Table) -> None:
    host, guest = sqlite_table.host, sqlite_table.guest
    await guest.send(json.dumps({"type": "ping", "pad": "x" * 10_000}))
    assert (await guest.error())["code"] == "too_big"
    assert await guest.close_code() == 1009
    seq = host.seq
    await play_turns([host], lambda: host.seq > seq and host.seq >= 4, timeout=20)


async def test_a_flood_is_cut_off_and_the_table_goes_on(sqlite_table: Table) -> None:
    host, guest = sqlite_table.host, sqlite_table.guest
    for _ in range(200):
        await guest.send({"type": "ping"})
    codes = [m["code"] for m in await _collect(guest, until_closed=True) if m["type"] == "error"]
    assert "flood" in codes
    assert guest.ws.close_code == 1008
    await asyncio.sleep(0.1)
    seq = host.seq
    await play_turns([host], lambda: host.seq > seq, timeout=20)
    assert all(m["type"] != "error" for m in host.messages)


async def _collect(client: Client, until_closed: bool) -> list[dict[str, Any]]:
    if until_closed:
        await asyncio.wait_for(client.closed.wait(), 10)
    return list(client.messages)


async def test_two_starts_and_a_start_by_a_guest(sqlite_server: ThreadServer) -> None:
    created = create_table(sqlite_server.http)
    joined = join_table(sqlite_server.http, created["code"], "G")
    async with (
        connect(sqlite_server.ws, created["code"], created["token"]) as host,
        connect(sqlite_server.ws, created["code"], joined["token"]) as guest,
    ):
        await guest.send({"type": "start"})
        assert (await guest.error())["code"] == "not_host"
        await guest.send({"type": "act", "seq": 0, "action": 3})
        assert (await guest.error())["code"] == "not_started"
        await host.send({"type": "start"})
        await host.state_where(lambda s: s["table"]["status"] == "playing")
        await host.send({"type": "start"})
        assert (await host.error())["code"] == "started"


async def test_every_spelling_of_an_action_is_logged_one_way(sqlite_table: Table) -> None:
    host, guest = sqlite_table.host, sqlite_table.guest
    await play_turns([host], lambda: guest.my_turn())
    await guest.act("²")  # a digit to str.isdigit, but no number: refused by a rule
    assert (await guest.error())["code"] == "illegal"
    at = len(sqlite_table.actions())
    await guest.act(" 03")  # a call with a space and a leading zero
    await guest.state_where(lambda s: s["seq"] > at)
    assert sqlite_table.actions()[at].action == 3
    await play_turns([host, guest], lambda: guest.my_turn() and guest.obs["phase"] == "play")
    card = guest.obs["legal"][0]
    at = len(sqlite_table.actions())
    await guest.act(CARD_NAMES.index(card))  # a card by its index
    await guest.state_where(lambda s: s["seq"] > at)
    assert sqlite_table.actions()[at].action == card


async def test_a_refusal_that_is_not_an_illegal_action_still_answers(
    sqlite_table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The engine refuses with IllegalAction; should anything under it raise a bare
    # ValueError, the player still gets an answer and the socket stays open.
    from callbreak.server.table import LiveTable

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ValueError("something under the rules refused it")

    host, guest = sqlite_table.host, sqlite_table.guest
    await play_turns([host], lambda: guest.my_turn())
    monkeypatch.setattr(LiveTable, "apply", broken)
    await guest.act()
    error = await guest.error()
    assert error["code"] == "illegal" and "refused it" in error["message"]
    monkeypatch.undo()
    await guest.send({"type": "ping"})
    assert (await guest.until(lambda m: m["type"] == "pong"))["type"] == "pong"
    await play_turns([host, guest], lambda: host.seq >= 6)
