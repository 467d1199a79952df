"""A tournament organiser's walk through remote seats: faults found and fixed.

Servers are real uvicorn servers on 127.0.0.1 (free ports, background threads).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.responses import StreamingResponse

from callbreak import Match
from callbreak.arena.errors import SeatFault
from callbreak.arena.remote import RemoteBot
from callbreak.protocol.bhoos import BHOOS_RULES
from callbreak.protocol.bhoos.server import serve_in_thread


def _slow_app() -> FastAPI:
    """A tournament bot that is up but takes 200 ms over every answer."""
    slow = FastAPI()

    @slow.get("/hi")
    async def hi() -> dict[str, str]:
        return {"value": "hello"}

    @slow.post("/bid")
    async def bid() -> dict[str, Any]:
        await asyncio.sleep(0.2)
        return {"value": 3}

    return slow


@pytest.fixture()
def slow_url() -> Iterator[str]:
    with serve_in_thread(_slow_app()) as url:
        yield url


def test_no_time_left_and_no_grace_is_a_timeout_not_a_bot_that_is_down(slow_url: str) -> None:
    """``grace_ms=0`` once the round's budget is spent made an HTTP timeout of 0, which httpx
    takes as a non-blocking socket: the connect failed at once with ``ConnectError`` (errno
    115) and the arena stopped the run, saying the bot had stopped answering."""
    match = Match(BHOOS_RULES, seed=1)
    assert match.to_act is not None
    observation = match.observation(match.to_act)
    bot = RemoteBot(slow_url + "#budget_ms=0,grace_ms=0")
    with pytest.raises(SeatFault) as fault:
        bot.act(observation)
    assert fault.value.kind == "timeout", fault.value
    assert "gave no answer within 1 ms" in str(fault.value)


def _trickling_app() -> FastAPI:
    """A tournament bot whose answer comes in pieces, each well inside the timeout."""
    trickling = FastAPI()

    @trickling.post("/bid")
    async def bid() -> StreamingResponse:
        async def pieces() -> AsyncIterator[bytes]:
            for piece in (b'{"val', b'ue": ', b"3}"):
                await asyncio.sleep(0.15)
                yield piece

        return StreamingResponse(pieces(), media_type="application/json")

    return trickling


def test_an_answer_that_comes_whole_after_the_timeout_is_a_timeout() -> None:
    """httpx times each read on its own, so an answer trickled in pieces 150 ms apart got past
    a 300 ms timeout although it came whole after 450 ms, and was played as on time."""
    match = Match(BHOOS_RULES, seed=1)
    assert match.to_act is not None
    observation = match.observation(match.to_act)
    with serve_in_thread(_trickling_app()) as url:
        bot = RemoteBot(url + "#budget_ms=200,grace_ms=100")
        with pytest.raises(SeatFault) as fault:
            bot.act(observation)
    assert fault.value.kind == "timeout", fault.value
    assert "not within 300 ms" in str(fault.value)
