"""Fair online tables, over the real API and WebSocket: nobody chooses the deals, the commitment
comes before the first card and checks out after the last, and the lobby keeps its seats.

See ``docs/fair-tables.md`` for what is promised; ``test_record_fair.py`` tampers with records.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from callbreak.record import verify_seed
from callbreak.record.fair import match_seed
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
)

GRACE_S = 1.5


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(config(db_url("sqlite", tmp_path), grace_s=GRACE_S)) as running:
        yield running


def over(*clients: Client) -> bool:
    return all(c.state is not None and c.state["result"] is not None for c in clients)


def test_a_seed_is_refused_where_others_can_join(server: ThreadServer) -> None:
    body = {"name": "Host", "options": {"match_deals": 1}, "seed": 4242}
    refused = httpx.post(f"{server.http}/api/tables", json=body, timeout=10)
    assert refused.status_code == 422
    assert "only for a practice table" in refused.json()["detail"]
    assert "nobody knows the deals in advance" in refused.json()["detail"]
    # nothing was made: no table code came back
    assert "code" not in refused.json()


@pytest.mark.asyncio
async def test_a_practice_table_takes_a_seed_but_nobody_else(server: ThreadServer) -> None:
    created = create_table(server.http, seed=4242, practice=True)
    code = created["code"]
    assert created["practice"] is True
    info = httpx.get(f"{server.http}/api/tables/{code}").json()
    assert info["practice"] is True and info["fair"] is None
    refused = httpx.post(f"{server.http}/api/tables/{code}/join", json={"name": "Guest"})
    assert refused.status_code == 403 and "practice table" in refused.json()["detail"]
    async with connect(server.ws, code, created["token"]) as me, connect(server.ws, code) as eye:
        await me.send({"type": "start"})
        await play_turns([me], lambda: over(me))
        await eye.state_where(lambda s: s["result"] is not None)
        assert "4242" not in "".join(eye.raw)  # the seed that decides every hand is not shown
    record = httpx.get(f"{server.http}/api/records/{code}.json").json()
    assert record["practice"] is True and record["seed"] == 4242 and "fair" not in record
    verified = httpx.get(f"{server.http}/api/records/{code}/verify").json()
    assert verified == {"ok": False, "error": verified["error"]}
    assert "practice table" in verified["error"]


def test_a_practice_table_takes_any_seed_a_record_holds(server: ThreadServer) -> None:
    largest = 2**63 - 1  # records hold 63-bit seeds: a rematch of any of them
    created = create_table(server.http, seed=largest, practice=True)
    assert httpx.get(f"{server.http}/api/tables/{created['code']}").json()["practice"] is True
    body = {"name": "Host", "practice": True, "seed": largest + 1}
    refused = httpx.post(f"{server.http}/api/tables", json=body, timeout=10)
    assert refused.status_code == 422 and "seed" in refused.text


@pytest.mark.asyncio
async def test_the_commitment_comes_before_the_first_card_and_verifies_after_the_last(
    server: ThreadServer, tmp_path: Path
) -> None:
    created = create_table(server.http, options={"match_deals": 2})
    code = created["code"]
    lobby = httpx.get(f"{server.http}/api/tables/{code}").json()
    committed = lobby["fair"]["commitment"]
    assert lobby["fair"]["revealed"] is False and len(committed) == 64
    guest_bytes, host_bytes = secrets.token_hex(32), secrets.token_hex(32)
    joined = join_table(server.http, code, "Guest", contribution=guest_bytes)
    async with (
        connect(server.ws, code, created["token"]) as host,
        connect(server.ws, code, joined["token"]) as guest,
        connect(server.ws, code) as watcher,
    ):
        await host.state_where(lambda s: s["table"]["fair"]["contributed"][1])
        await host.send({"type": "start", "contribution": host_bytes})
        await play_turns([host, guest], lambda: over(host, guest), timeout=90)
        await watcher.state_where(lambda s: s["result"] is not None)
    for client in (host, guest, watcher):
        states = [m for m in client.messages if m["type"] == "state"]
        first_card = next(i for i, m in enumerate(states) if m["obs"] is not None)
        assert first_card > 0  # the lobby came first, with the commitment in it
        assert states[0]["table"]["status"] == "lobby"
        assert {m["table"]["fair"]["commitment"] for m in states} == {committed}
        before = [m for m in states if m["result"] is None]
        assert all(not m["table"]["fair"]["revealed"] for m in before)
        # the secret and the others' contributions are in no message before the end
        hidden = json.dumps(before)
        assert guest_bytes not in hidden and host_bytes not in hidden
        reveal = states[-1]["table"]["fair"]
        assert reveal["revealed"] is True
        assert reveal["seed"] not in hidden and reveal["salt"] not in hidden
    seed, salt = bytes.fromhex(reveal["seed"]), bytes.fromhex(reveal["salt"])
    assert hashlib.sha256(seed + salt).hexdigest() == committed
    assert reveal["contributions"][:2] == [host_bytes, guest_bytes]
    assert reveal["contributions"][2:] == [None, None]  # bots send none
    expected = match_seed(
        seed, [bytes.fromhex(host_bytes), bytes.fromhex(guest_bytes)] + [None] * 2
    )
    assert reveal["match_seed"] == str(expected)
    assert load_log(server.config.db, code)[1] == expected  # the log deals from it

    record = httpx.get(f"{server.http}/api/records/{code}.json").json()
    assert record["fair"]["commitment"] == committed and record["seed"] == expected
    check = verify_seed(record)
    assert check.deals == len(record["deals"]) >= 2 and check.contributions == 2
    verified = httpx.get(f"{server.http}/api/records/{code}/verify").json()
    assert verified["ok"] is True and verified["match_seed"] == str(expected)


def test_a_contribution_that_is_not_32_bytes_is_refused(server: ThreadServer) -> None:
    created = create_table(server.http)
    code, host = created["code"], {"Authorization": f"Bearer {created['token']}"}
    start = f"{server.http}/api/tables/{code}/start"
    for bad in ["abc", "zz" * 32, "00" * 31, 7]:
        response = httpx.post(
            f"{server.http}/api/tables/{code}/join", json={"name": "G", "contribution": bad}
        )
        assert response.status_code == 422, bad
        assert "64 hex digits" in response.text or bad == 7
        assert httpx.post(start, json={"contribution": bad}, headers=host).status_code == 422
    info = httpx.get(f"{server.http}/api/tables/{code}").json()
    assert [s["kind"] for s in info["seats"]][1:] == ["open"] * 3 and info["status"] == "lobby"
    # the host's own contribution comes with the Start, after it has seen the commitment
    started = httpx.post(start, json={"contribution": "5a" * 32}, headers=host)
    assert started.status_code == 200
    info = httpx.get(f"{server.http}/api/tables/{code}").json()
    assert info["fair"]["contributed"] == [True, False, False, False]


@pytest.mark.asyncio
async def test_the_lobby_keeps_an_absent_seat_and_its_grace_starts_at_the_start(
    server: ThreadServer,
) -> None:
    """Grace 1.5 s; the guest joins but never connects, and the lobby waits longer than that."""
    created = create_table(server.http)
    code = created["code"]
    join_table(server.http, code, "Guest")
    async with connect(server.ws, code, created["token"]) as host:
        seats = host.state["table"]["seats"] if host.state else []
        assert [s["connected"] for s in seats[:2]] == [True, False]  # who is here, in the lobby
        await host.send({"type": "sync"})
        await asyncio.sleep(GRACE_S + 0.5)  # longer than the grace, in the lobby
        await host.send({"type": "sync"})
        lobby = await host.state_where(lambda s: s["table"]["status"] == "lobby")
        assert not any(s["bot_playing"] for s in lobby["table"]["seats"])
        started = time.monotonic()
        await host.send({"type": "start"})
        await host.state_where(lambda s: s["table"]["status"] == "playing")
        taken = await host.state_where(lambda s: s["table"]["seats"][1]["bot_playing"], timeout=10)
        waited = time.monotonic() - started
        assert taken["table"]["seats"][1]["kind"] == "human"
        assert waited >= GRACE_S - 0.1

        def guest_played() -> bool:
            return any(a.seat == 1 for a in load_log(server.config.db, code)[2])

        await play_turns([host], guest_played, timeout=20)
        first = next(a for a in load_log(server.config.db, code)[2] if a.seat == 1)
        assert first.actor == "bot"
    lobby_states = [
        m for m in host.messages if m["type"] == "state" and m["table"]["status"] == "lobby"
    ]
    assert len(lobby_states) >= 2  # before and after the wait: no seat was ever a bot's
    assert not any(s["bot_playing"] for m in lobby_states for s in m["table"]["seats"])
