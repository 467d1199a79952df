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
    connected = True

    async def start(self, handler: Handler) -> None:
        pass

    async def publish(self, event: dict[str, Any]) -> None:
        pass

    async def close(self) -> None:
        pass


class RedisBus:
    """Redis pub/sub on one channel per database (see ``config.channel_for``)."""

    distributed = True

    def __init__(self, url: str, channel: str) -> None:
        import redis.asyncio as redis

        self.url = url
        self.channel = channel
        self.redis = redis.Redis.from_url(url)
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._publish_failing = False
        self.connected = False
        """Subscribed now.  While Redis is away the hub keeps the other processes' last
        presence rather than let it age (``Hub._fresh``), and ``/healthz`` says so."""

    def _lost(self, error: Exception) -> None:
        """Say once that Redis went away (not once a second while it stays away)."""
        if self.connected or not self._ready.is_set():
            log.warning(
                "redis at %s is unreachable (%s): the other processes do not hear this one's "
                "moves until it is back; tables catch up from the database then",
                self.url,
                error,
            )
        self.connected = False

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
                self.connected = True
                if not first:
                    log.warning("redis at %s is back: tables catch up", self.url)
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
                self._lost(error)
                with contextlib.suppress(Exception):  # its connection is dead: let it go
                    await pubsub.aclose()  # type: ignore[no-untyped-call]
                await asyncio.sleep(1.0)

    async def publish(self, event: dict[str, Any]) -> None:
        try:
            await self.redis.publish(self.channel, json.dumps(event, separators=(",", ":")))
        except Exception as error:  # the move is stored; other processes catch up later
            if not self._publish_failing:
                log.warning("redis publish failed (%s); the move is stored", error)
            self._publish_failing = True
        else:
            self._publish_failing = False

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self.redis.aclose()
