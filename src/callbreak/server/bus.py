"""Events between server processes: nothing for one process, Redis pub/sub for several.

The database holds the state; an event only says "table X moved to seq N with
this action" (or "its seats changed", or "these seats are connected here"), so
that every process serving the table can tell its own sockets at once.  A lost
event costs nothing but a delay: a process that finds itself behind reloads
the log from the database (on its next action, or when Redis reconnects).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

Handler = Callable[[dict[str, Any]], Awaitable[None]]

log = logging.getLogger("callbreak.server")


class LocalBus:
    """One process: every table is served here, so there is nobody to tell."""

    distributed = False

    async def start(self, handler: Handler) -> None:
        pass

    async def publish(self, event: dict[str, Any]) -> None:
        pass

    async def close(self) -> None:
        pass


class RedisBus:
    """Redis pub/sub on one channel per database (see ``ServerConfig.channel``)."""

    distributed = True

    def __init__(self, url: str, channel: str) -> None:
        import redis.asyncio as redis

        self.url = url
        self.channel = channel
        self.redis = redis.Redis.from_url(url)
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    async def start(self, handler: Handler) -> None:
        await self.redis.ping()  # fail at start-up, not at the first move, on a wrong URL
        self._task = asyncio.create_task(self._listen(handler))
        await asyncio.wait_for(self._ready.wait(), timeout=10)

    async def _listen(self, handler: Handler) -> None:
        first = True
        while True:
            try:
                pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
                await pubsub.subscribe(self.channel)
                self._ready.set()
                if not first:
                    await handler({"k": "resync"})  # events may have been missed meanwhile
                first = False
                while True:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is None or message.get("type") != "message":
                        continue
                    try:
                        event = json.loads(message["data"])
                        await handler(event)
                    except Exception:
                        log.exception("event handler failed")
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                raise
            except Exception as error:
                log.warning("redis: %s; reconnecting", error)
                await asyncio.sleep(1.0)

    async def publish(self, event: dict[str, Any]) -> None:
        try:
            await self.redis.publish(self.channel, json.dumps(event, separators=(",", ":")))
        except Exception as error:  # the move is stored; other processes catch up later
            log.warning("redis publish failed: %s", error)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self.redis.aclose()
