"""Hints at online tables: the ``hint`` message (``server.hints``) over a real WebSocket.

A hint is the terminal's hint bot's choice for the asker's own seat, sent to the
asker's socket alone, and only at a table where every other seat is a bot: at a
table with another person it is refused.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server_support import (
    Client,
    ThreadServer,
    config,
    connect,
    create_table,
    db_url,
)
from test_server_ws import _table as two_humans


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ThreadServer]:
    with ThreadServer(config(db_url("sqlite", tmp_path))) as running:
        yield running


async def my_turn(client: Client) -> dict[str, Any]:
    return await client.state_where(
        lambda s: (
            s["obs"] is not None and s["obs"]["to_act"] == s["you"]["seat"] and s["result"] is None
        ),
        timeout=30,
    )


@pytest.mark.asyncio
@pytest.mark.parametrize(("preset", "seed"), [("callbreak", 3), ("rook-call-partner", 4)])
async def test_a_hint_is_a_legal_action_of_the_askers_seat_sent_to_it_alone(
    server: ThreadServer, preset: str, seed: int
) -> None:
    created = create_table(server.http, "Asha", preset=preset, options={}, seed=seed, practice=True)
    code = created["code"]
    async with (
        connect(server.ws, code, created["token"]) as me,
        connect(server.ws, code) as watcher,
    ):
        await me.send({"type": "start"})
        phases: set[str] = set()
        for _ in range(3):  # three turns of the person's: each hint is legal and can be played
            state = await my_turn(me)
            obs = state["obs"]
            await me.send({"type": "hint", "seq": state["seq"]})
            hint = await me.until(lambda m: m.get("type") in ("hint", "error"), timeout=30)
            assert hint["type"] == "hint", hint
            assert hint["seq"] == state["seq"] and hint["action"] in obs["legal"], (hint, obs)
            assert hint["card"] == (hint["action"] in obs["hand"]) and hint["text"]
            assert isinstance(hint["reason"], str)  # why, in the terminal's words (may be empty)
            phases.add(obs["phase"])
            await me.act(hint["action"])
            asked: int = state["seq"]
            await me.state_where(lambda s: int(s["seq"]) > asked)  # noqa: B023 (awaited here)
        assert phases
        # the watcher never gets a hint (it would hold the asker's cards)
        await asyncio.sleep(0.2)
        assert not [m for m in watcher.messages if m.get("type") == "hint"]
        assert all('"hint"' not in text for text in watcher.raw)
        # a spectator cannot ask; a hint for an old state or out of turn is refused
        await watcher.send({"type": "hint", "seq": watcher.seq})
        assert (await watcher.error())["code"] == "not_seated"
        await me.send({"type": "hint", "seq": 0})
        refused = await me.error()
        assert refused["code"] in ("stale", "not_your_turn"), refused


@pytest.mark.asyncio
async def test_a_hint_is_refused_at_a_table_with_another_person(server: ThreadServer) -> None:
    async for table in two_humans(server):  # test_server_ws's table: a host and a guest
        host, guest = table.host, table.guest
        # refused whoever's turn it is: not at this table at all
        await host.send({"type": "hint", "seq": host.seq})
        refused = await host.error()
        assert refused["code"] == "no_hint", refused
        assert "practice table" in refused["message"] and "another person" in refused["message"]
        assert not [m for m in host.messages + guest.messages if m.get("type") == "hint"]
