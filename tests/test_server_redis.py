"""Two server processes, one database (PostgreSQL), events over Redis: one table, two doors.

The host talks to process A and the guest to process B.  Each must see every
action of the other at once and in order, bots included; a message sent to
both processes for the same sequence number is applied once; and when A dies,
B carries the table on (it takes over the bots after ``takeover_s``).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest

from callbreak.record import replay
from server_support import (
    ProcessServer,
    connect,
    create_table,
    join_table,
    load_log,
    play_turns,
    postgres_url,
    redis_url,
)


def told(messages: list[dict[str, Any]]) -> list[int]:
    """The actions a client was told of, in the order told.

    A state is sent again unchanged when only presence changes (someone left),
    so an immediate repeat of the same action is the same news, not a new action.
    """
    seqs: list[int] = []
    for m in messages:
        if m["type"] == "state" and m["last"] and (not seqs or seqs[-1] != m["last"]["seq"]):
            seqs.append(m["last"]["seq"])
    return seqs


@pytest.mark.asyncio
async def test_two_processes_serve_one_table(tmp_path: Path) -> None:
    db, redis = postgres_url(), redis_url()
    extra = ("--redis", redis, "--bot-delay", "0", "--grace", "30")
    a = ProcessServer(db, *extra).start(tmp_path / "a.log")
    b = ProcessServer(db, *extra).start(tmp_path / "b.log")
    try:
        created = create_table(a.http, options={"match_deals": 1})
        code = created["code"]
        joined = join_table(b.http, code, "Guest")  # joined through the other process
        async with (
            connect(a.ws, code, created["token"]) as host,
            connect(b.ws, code, joined["token"]) as guest,
        ):
            await guest.state_where(lambda s: s["table"]["seats"][1]["connected"])
            await host.state_where(lambda s: s["table"]["seats"][1]["connected"])
            await host.send({"type": "start"})
            await guest.state_where(lambda s: s["table"]["status"] == "playing")
            await play_turns(
                [host, guest],
                lambda: all(c.state is not None and c.state["result"] for c in (host, guest)),
            )
            for client in (host, guest):
                seqs = told(client.messages)
                # every action, once, in order, on both processes
                assert seqs == list(range(len(seqs))), seqs
            assert host.state is not None and guest.state is not None
            assert host.state["seq"] == guest.state["seq"]
            assert host.state["deals"] == guest.state["deals"]
        _, _, log = load_log(db, code)
        assert len(log) == len(told(host.messages)) == len(told(guest.messages))
        assert {a.actor for a in log} == {"human", "bot"}
        record = httpx.get(f"{b.http}/api/records/{code}.json").json()
        assert replay(record).complete
        history = httpx.get(f"{a.http}/api/history").json()
        assert any(row["code"] == code for row in history)
    finally:
        a.stop()
        b.stop()


@pytest.mark.asyncio
async def test_a_race_between_processes_is_settled_once(tmp_path: Path) -> None:
    db, redis = postgres_url(), redis_url()
    extra = ("--redis", redis, "--bot-delay", "0", "--grace", "30")
    a = ProcessServer(db, *extra).start(tmp_path / "a.log")
    b = ProcessServer(db, *extra).start(tmp_path / "b.log")
    try:
        created = create_table(a.http, options={"match_deals": 1}, seed=22, practice=True)
        code, token = created["code"], created["token"]
        async with connect(a.ws, code, token) as on_a, connect(b.ws, code, token) as on_b:
            await on_a.send({"type": "start"})
            for _ in range(3):  # the same seat, the same seq, at both doors at once
                await on_b.state_where(lambda s: on_b.my_turn())
                await on_a.state_where(lambda s: s["seq"] == on_b.seq)
                seq = on_a.seq
                action = on_a.obs["legal"][-1]
                message = {"type": "act", "seq": seq, "action": action}
                await asyncio.gather(on_a.send(message), on_b.send(message))

                def moved(s: dict[str, Any], seq: int = seq) -> bool:
                    return int(s["seq"]) > seq

                await on_a.state_where(moved)
                await on_b.state_where(moved)
                _, _, log = load_log(db, code)
                assert log[seq].action == action
                assert sum(1 for a in log if a.seq == seq) == 1
            errors = [m for c in (on_a, on_b) for m in c.messages if m["type"] == "error"]
            assert errors and {e["code"] for e in errors} <= {"stale"}

            # process A dies; the seat holder goes on through B, which takes over the bots
            a.kill()
            await asyncio.wait_for(on_a.closed.wait(), 10)
            await play_turns(
                [on_b],
                lambda: on_b.state is not None and on_b.state["result"] is not None,
                timeout=90,
            )
        assert replay(httpx.get(f"{b.http}/api/records/{code}.json").json()).complete
    finally:
        a.stop()
        b.stop()
